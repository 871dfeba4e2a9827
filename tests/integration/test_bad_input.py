"""Unreadable game files and bad arguments: one clear line, exit code 2, nothing written."""

from __future__ import annotations

import pytest
from conftest import DATA_DIR, EXIT_BAD_INPUT, assert_one_line_error, run_reviewer


def bad_files(tmp_path):
    files = {
        "missing": (tmp_path / "nowhere.pgn", "no such file"),
        "empty": (tmp_path / "empty.pgn", "empty"),
        "binary": (tmp_path / "binary.pgn", "binary"),
        "no sgf node": (tmp_path / "no_node.sgf", "no SGF game"),
        "unknown extension": (tmp_path / "notes.txt", ".txt"),
        "folder": (tmp_path, ""),
        "too big a board": (tmp_path / "big.sgf", "52x52"),
        "not go": (tmp_path / "othello.sgf", "GM[2]"),
    }
    files["empty"][0].write_bytes(b"")
    files["binary"][0].write_bytes(bytes(range(256)) * 8)
    files["unknown extension"][0].write_text("1. e4 e5\n")
    files["too big a board"][0].write_text("(;GM[1]SZ[52];B[aa])")
    files["no sgf node"][0].write_text("(((( ))")
    files["not go"][0].write_text("(;GM[2]SZ[8];B[dd])")
    return files


CASES = ["missing", "empty", "binary", "no sgf node", "unknown extension", "folder", "too big a board", "not go"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("command", ["info", "analyze", "report"])
def test_unreadable_files(tmp_path, fake_uci, case, command):
    path, fragment = bad_files(tmp_path)[case]
    out = tmp_path / "out.json"
    extra = ["--engine-cmd", fake_uci, "--depth", "2", "--json", str(out)] if command == "analyze" else []
    run = run_reviewer(command, path, *extra)
    assert run.returncode == EXIT_BAD_INPUT, f"{command} {case}: rc {run.returncode}, {run.stderr}"
    assert_one_line_error(run, fragment)
    assert len(run.error_lines) == 1, run.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--nodes", "0"], "--nodes"),
        (["--depth", "-3"], "--depth"),
        (["--movetime", "abc"], "--movetime"),
        (["--preset", "strict"], "--preset"),
        (["--engine", "no-such-engine"], "no-such-engine"),
        (["--engine-cmd", ""], "empty"),
        (["--engine-cmd", "/no/such/engine"], "/no/such/engine"),
        (["--engine-cmd", "/etc/passwd"], "/etc/passwd"),
        (["-o", "annotated.sgf"], ".pgn"),
        ([str(DATA_DIR / "chess_one_move.pgn"), "--game", "1"], "--game"),
    ],
)
def test_bad_arguments(tmp_path, args, fragment):
    run = run_reviewer("analyze", DATA_DIR / "chess_one_move.pgn", *args, cwd=tmp_path)
    assert run.returncode == EXIT_BAD_INPUT, f"{args}: rc {run.returncode}: {run.stderr}"
    assert "Traceback" not in run.stderr and fragment in run.stderr


def test_an_unparsable_engine_command_is_bad_input(tmp_path):
    run = run_reviewer("analyze", DATA_DIR / "chess_one_move.pgn", "--engine-cmd", "'stockfish")
    assert run.returncode == EXIT_BAD_INPUT, run.stderr


def test_go_games_need_a_go_engine(tmp_path):
    run = run_reviewer("analyze", DATA_DIR / "go_9x9_passes.sgf", "--engine", "stockfish")
    assert run.returncode == EXIT_BAD_INPUT
    assert_one_line_error(run, "stockfish")


def test_annotating_over_the_game_file_needs_overwrite(tmp_path, fake_uci):
    game = tmp_path / "game.pgn"
    original = (DATA_DIR / "chess_one_move.pgn").read_bytes()
    game.write_bytes(original)
    run = run_reviewer("analyze", game, "--engine-cmd", fake_uci, "--depth", "2", "-o", game)
    assert run.returncode == EXIT_BAD_INPUT
    assert_one_line_error(run, "overwrite")
    assert game.read_bytes() == original
    for flag in ("--json", "--csv", "--html"):
        run = run_reviewer("analyze", game, "--engine-cmd", fake_uci, "--depth", "2", flag, game)
        assert run.returncode == EXIT_BAD_INPUT, flag
        assert game.read_bytes() == original


def test_info_lists_warnings_but_opens(tmp_path):
    run = run_reviewer("info", DATA_DIR / "chess_illegal_move.pgn", "--json")
    assert run.returncode == 0
    import json

    listing = json.loads(run.stdout)
    assert "Ke3" in json.dumps(listing)
