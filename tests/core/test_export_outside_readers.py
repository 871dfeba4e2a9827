"""Exported files as other programs read them: @mliebelt/pgn-parser (PGN) and @sabaki/sgf (SGF), via node.

The readers are pinned in tests/js/package.json + package-lock.json and installed once into
tests/js/node_modules (git-ignored) with `npm ci`; without node/npm, or when the install fails
(no network and nothing installed), these tests are skipped with the reason.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import chess.pgn
import pytest
from support import REPO_ROOT, fake_engine_command
from test_export_helpers import analyse, go_evaluations

from reviewer.core.analysis import Limit
from reviewer.core.export import evaluations_from_game, export_game_text
from reviewer.core.export.pgn import GENERATED_JUDGEMENT
from reviewer.core.formats import game_from_sgf_text, load_game
from reviewer.core.scoring import assess_game

JS_DIR = REPO_ROOT / "tests" / "js"
NEEDED = (JS_DIR / "node_modules" / "@mliebelt" / "pgn-parser", JS_DIR / "node_modules" / "@sabaki" / "sgf")
OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
NAG_TEXT = {"inaccuracy": "$6", "mistake": "$2", "blunder": "$4"}
ANNOTATION = {"inaccuracy": ("DO", ""), "mistake": ("BM", "1"), "blunder": ("BM", "2"), "best": ("TE", "1")}


@pytest.fixture(scope="module")
def node() -> str:
    node_path, npm_path = shutil.which("node"), shutil.which("npm")
    if node_path is None or npm_path is None:
        pytest.skip("node and npm are not installed: the outside-reader checks need them (Debian: apt-get install nodejs npm)")
    if not all(path.is_dir() for path in NEEDED):
        try:
            done = subprocess.run(
                [npm_path, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=JS_DIR, capture_output=True, text=True, timeout=300,
            )
        except subprocess.TimeoutExpired:
            pytest.skip("`npm ci` in tests/js took more than 5 minutes (no network?)")
        if done.returncode != 0 or not all(path.is_dir() for path in NEEDED):
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            pytest.skip(f"`npm ci` in tests/js failed, so the outside readers are missing: {last}")
    return node_path


def read_with(node: str, script: str, path: Path) -> list[dict]:
    done = subprocess.run([node, str(JS_DIR / script), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def opera_export(tmp_path_factory):
    from reviewer.core.engines.uci import UciEngine

    game = load_game(OPERA)
    with UciEngine(fake_engine_command("fake_uci.py")) as engine:
        table = analyse(game, engine, Limit(nodes=500))
    path = tmp_path_factory.mktemp("pgn") / "opera.pgn"
    path.write_text(export_game_text(game, table), encoding="utf-8")
    return game, table, path


def test_pgn_parser_reads_evals_symbols_comments_and_lines(node, opera_export):
    game, table, path = opera_export
    (read,) = read_with(node, "read_pgn.js", path)
    assessment = assess_game(game, table)
    assert [m["san"] for m in read["moves"]] == game.mainline_moves()
    lines = 0
    for move, seen in zip(assessment.moves, read["moves"], strict=False):
        evaluation = table.get(move.ply)
        if evaluation.terminal is not None:
            assert seen["eval"] is None
        elif evaluation.mate_first is not None:
            assert seen["eval"] == f"#{evaluation.mate_first}"
        else:
            assert seen["eval"] == pytest.approx(evaluation.score_cp_first / 100)
        assert "rvw" not in (seen["diag"] or {})  # no private record in a plain export
        assert "[%" not in (seen["comment"] or "")
        if move.judgement in NAG_TEXT:
            lines += 1
            assert seen["nags"] == [NAG_TEXT[move.judgement]]
            assert f"{move.best} was best." in seen["comment"]
            assert seen["variations"] == [list(table.get(move.ply - 1).pv[:12])]
        else:
            assert seen["nags"] == [] and seen["variations"] == []
    assert lines > 3
    assert read["gameComment"]["eval"] == pytest.approx(table.get(0).score_cp_first / 100)
    tags = read["tags"]
    assert tags["Annotator"].startswith("Reviewer") and tags["ECO"] == "C41"
    assert float(tags["WhiteAccuracy"]) == pytest.approx(assessment.white.accuracy_lichess, abs=0.05)
    assert float(tags["BlackACPL"]) == pytest.approx(assessment.black.acpl, abs=0.5)
    # Its only complaints are about tags it does not know, ours among them.
    ours = {"WhiteAccuracy", "BlackAccuracy", "WhiteACPL", "BlackACPL", "ReviewerAccuracy", "ReviewerCoverage",
            "ReviewerEngine", "ReviewerLimit"}
    assert {m["key"] for m in read["messages"]} <= ours
    assert tags["ReviewerCoverage"] == f"all {game.ply_count} moves analysed"


# The commands lichess reads and hides from a comment (scalachess's Comment parsing).
LICHESS_HIDDEN = re.compile(r"\[%(?:eval|clk|emt|csl|cal)\s[^\]]*\]")


def test_a_lichess_style_reader_sees_only_the_words(node, opera_export, tmp_path):
    game, table, path = opera_export
    raw = chess.pgn.read_game(io.StringIO(path.read_text(encoding="utf-8")))
    shown = [LICHESS_HIDDEN.sub("", n.comment).strip() for n in [raw, *raw.mainline()]]
    assert not [text for text in shown if "[%" in text]
    words = [text for text in shown if text]
    assert words and all(GENERATED_JUDGEMENT.search(t) or re.fullmatch(r"[A-E]\d\d .+", t) for t in words)
    # Saved with analysis, the records are there for Reviewer; pgn-parser still reads the file.
    full = tmp_path / "full.pgn"
    full.write_text(export_game_text(game, table, with_analysis=True), encoding="utf-8")
    (read,) = read_with(node, "read_pgn.js", full)
    assert all(seen["diag"]["rvw"].startswith("1;") for seen in read["moves"])
    assert all("[%" not in (seen["comment"] or "") for seen in read["moves"])
    assert evaluations_from_game(load_game(full)).by_ply == table.by_ply


def test_pgn_parser_keeps_clocks_next_to_evals(node, tmp_path):
    from test_export_helpers import chess_evaluations

    from reviewer.core.formats import game_from_pgn_text

    game = game_from_pgn_text('[White "A"]\n[Black "B"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] note } 2. Nf3 *')
    path = tmp_path / "clocks.pgn"
    path.write_text(export_game_text(game, chess_evaluations(game)), encoding="utf-8")
    (read,) = read_with(node, "read_pgn.js", path)
    assert [m["clk"] for m in read["moves"]] == ["0:03:00", "0:02:59", None]
    assert all(m["eval"] is not None for m in read["moves"])
    assert read["moves"][1]["comment"].strip() == "note"


def test_sabaki_sgf_reads_winrates_leads_annotations_and_lines(node, tmp_path):
    game = game_from_sgf_text("(;GM[1]FF[4]SZ[9]KM[6.5]C[my notes];B[ee];W[cc];B[gg];W[cg];B[dd];W[dg];B[fc])")
    table = go_evaluations(game)
    before = table.get(2).score_lead_first
    table.add(replace(table.get(3), score_lead_first=before - 13.0, winrate_first=0.1))  # Black's 3rd move: a blunder
    table.add(replace(table.get(4), score_lead_first=before - 9.0))  # White's: a mistake
    path = tmp_path / "game.sgf"
    path.write_text(export_game_text(game, table), encoding="utf-8")
    (read,) = read_with(node, "read_sgf.js", path)
    assessment = assess_game(game, table)
    nodes = read["nodes"]
    assert len(nodes) == game.ply_count + 1
    for ply, seen in enumerate(nodes):
        evaluation = table.get(ply)
        assert seen["data"]["SBKV"] == [f"{100 * evaluation.winrate_first:.2f}"]
        assert seen["data"]["SBKS"] == [f"{evaluation.score_lead_first:.2f}"]
        assert seen["data"]["RVW"][0].startswith("1;")
    flagged = 0
    for move in assessment.moves:
        data, variations = nodes[move.ply]["data"], nodes[move.ply]["variations"]
        marks = {ident: data[ident] for ident in ("BM", "DO", "IT", "TE") if ident in data}
        if move.judgement in ANNOTATION:
            ident, value = ANNOTATION[move.judgement]
            assert marks == {ident: [value]}
        else:
            assert marks == {}
        assert data["C"][0].startswith("Reviewer: ")
        if move.judgement in ("inaccuracy", "mistake", "blunder"):
            flagged += 1
            assert len(variations) == 1 and len(variations[0]["moves"]) == 12
            assert variations[0]["moves"][0][0] == ("B" if move.color == "black" else "W")
        else:
            assert variations == []
    assert flagged >= 2
    assert read["root"]["C"][0].startswith("my notes\n\nReviewer: ")
