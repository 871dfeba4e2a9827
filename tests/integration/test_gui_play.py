"""`reviewer gui --play`: a variation played by script, live lines, a screenshot and the export."""

from __future__ import annotations

import chess.pgn
import pytest
from conftest import fake_cmd, run_reviewer
from support import CORPUS_DIR

from reviewer.core.formats import load_game

GAME = CORPUS_DIR / "pgn" / "chesslib__promoting.pgn"
GO_GAME = CORPUS_DIR / "sgf" / "sabaki__endgame-9.sgf"
pytestmark = pytest.mark.skipif(not CORPUS_DIR.is_dir(), reason=f"the shared corpus is not at {CORPUS_DIR}")


def test_moves_lines_screenshot_and_export(tmp_path):
    png, pgn = tmp_path / "play.png", tmp_path / "play.pgn"
    run = run_reviewer(
        "gui", GAME, "--ply", "10", "--play", "Nc3 dxc4 Bxc4", "--lines", "2",
        "--screenshot", png, "--export", pgn, "--engine-cmd", fake_cmd("fake_uci.py"), timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert png.read_bytes().startswith(b"\x89PNG")
    exported = load_game(pgn)
    branch = exported.node_at_ply(10).children
    assert [child.move for child in branch][1:] == ["Nc3"]
    assert [branch[1].move] + [n.move for n in branch[1].mainline()] == ["Nc3", "dxc4", "Bxc4"]
    with pgn.open() as handle:  # other programs read the variation too
        other = chess.pgn.read_game(handle)
    node = other.game()
    for _ in range(10):
        node = node.variations[0]
    assert [v.san() for v in node.variations][1:] == ["Nc3"]


def test_an_illegal_move_exits_2_and_names_it(tmp_path):
    run = run_reviewer("gui", GAME, "--ply", "10", "--play", "Nc3 Ke9", "--export", tmp_path / "x.pgn")
    assert run.returncode == 2
    assert "illegal move Ke9" in run.stderr and "move 2 of the line" in run.stderr
    assert not (tmp_path / "x.pgn").exists()


def test_go_coordinates_and_pass(tmp_path):
    sgf = tmp_path / "play.sgf"
    game = load_game(GO_GAME)
    run = run_reviewer("gui", GO_GAME, "--ply", "0", "--play", "pass", "--export", sgf, timeout=300)
    assert run.returncode == 0, run.stderr
    exported = load_game(sgf)
    assert len(exported.root.children) == len(game.root.children) + 1
    assert exported.root.children[-1].move == "pass"


def test_go_lines_with_territory_and_policy_maps(tmp_path):
    png = tmp_path / "go.png"
    run = run_reviewer(
        "gui", GO_GAME, "--ply", "10", "--lines", "2", "--territory", "--policy", "--screenshot", png,
        "--engine-cmd", fake_cmd("fake_katago.py"), timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert png.read_bytes().startswith(b"\x89PNG")


def test_maps_need_the_live_lines(tmp_path):
    run = run_reviewer("gui", GO_GAME, "--territory", "--screenshot", tmp_path / "x.png")
    assert run.returncode == 2 and "--lines" in run.stderr


def test_opening_the_exported_copy_keeps_the_variation_of_the_original(tmp_path):
    original, copy, again = tmp_path / "g.pgn", tmp_path / "e.pgn", tmp_path / "again.pgn"
    original.write_bytes(GAME.read_bytes())
    for args in (
        (original, "--ply", "10", "--play", "Nc3", "--export", copy),
        (copy, "--export", tmp_path / "copy-again.pgn"),
        (original, "--export", again),
    ):
        run = run_reviewer("gui", *args, timeout=300)
        assert run.returncode == 0, run.stderr
    assert [child.move for child in load_game(again).node_at_ply(10).children][1:] == ["Nc3"]
