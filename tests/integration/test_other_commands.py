"""`reviewer info | engines | rate | gui`, run as a user runs them."""

from __future__ import annotations

import json
import os

import pytest
from conftest import DATA_DIR, EXIT_BAD_INPUT, EXIT_OK, run_reviewer


def test_version_and_help():
    run = run_reviewer("--version")
    assert run.returncode == 0 and run.stdout.startswith("reviewer ")
    for command in ("info", "report", "analyze", "engines", "rate", "gui"):
        run = run_reviewer(command, "--help")
        assert run.returncode == 0 and "usage: reviewer " + command in run.stdout
    assert "130" in run_reviewer("analyze", "--help").stdout  # the exit codes are documented


@pytest.mark.parametrize(
    "name, kind, moves, size",
    [
        ("chess_three_games.pgn", "chess", 7, [8, 8]),
        ("go_rect_7x5.sgf", "go", 4, [7, 5]),
        ("go_9x9_passes.sgf", "go", 7, [9, 9]),
    ],
)
def test_info_json(name, kind, moves, size):
    run = run_reviewer("info", DATA_DIR / name, "--json")
    assert run.returncode == EXIT_OK, run.stderr
    listing = json.loads(run.stdout)
    first = listing["games"][0]
    assert (first["kind"], first["moves"], first["board_size"]) == (kind, moves, size)


def test_engines_lists_the_builtin_engine():
    run = run_reviewer("engines", "--json")
    assert run.returncode == EXIT_OK, run.stderr
    engines = json.loads(run.stdout)
    names = {engine["name"]: engine for engine in engines}
    assert names["builtin"]["kind"] == "go" and names["builtin"]["status"] == "ok"
    for engine in engines:
        assert {"name", "kind", "protocol", "status"} <= set(engine)


def test_broken_user_engines_file_is_a_warning(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "engines.json").write_text("{not json")
    run = run_reviewer("engines", env={**os.environ, "REVIEWER_CONFIG_DIR": str(config)})
    assert run.returncode == EXIT_OK and "builtin" in run.stdout
    assert "engines.json" in run.stderr and "Traceback" not in run.stderr


def test_rate_a_folder_of_games(tmp_path, corpus_dir):
    out = tmp_path / "ratings.json"
    run = run_reviewer("rate", corpus_dir / "sgf", "--json", out)
    assert run.returncode == EXIT_OK, run.stderr
    ratings = json.loads(out.read_text())
    assert ratings["schema"] == "reviewer.ratings/1" and ratings["players"]
    assert "Traceback" not in run.stderr


def test_rate_nothing_to_rate():
    run = run_reviewer("rate", DATA_DIR / "does-not-exist")
    assert run.returncode == EXIT_BAD_INPUT and "Traceback" not in run.stderr


@pytest.mark.parametrize("name, extra", [("chess_fools_mate.pgn", ["--ply", "3"]), ("go_rect_7x5.sgf", ["--ply", "2"])])
def test_gui_screenshot(tmp_path, name, extra):
    shot = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = run_reviewer("gui", DATA_DIR / name, *extra, "--screenshot", shot, "--size", "800x600", env=env, timeout=120)
    assert run.returncode == EXIT_OK, run.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Traceback" not in run.stderr


def test_gui_refuses_a_bad_file(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    bad = tmp_path / "big.sgf"
    bad.write_text("(;GM[1]SZ[52];B[aa])")
    run = run_reviewer("gui", bad, "--screenshot", tmp_path / "s.png", env=env, timeout=120)
    assert run.returncode == EXIT_BAD_INPUT and "52x52" in run.stderr
    assert not (tmp_path / "s.png").exists()
