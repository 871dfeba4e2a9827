"""`reviewer analyze` end to end with the fake UCI engine (and real Stockfish, marked `engine`)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn
import pytest

from reviewer.cli import main
from support import REPO_ROOT, fake_engine_command

OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
OPERA_PLIES = 33


def fake_cmd(*args: str) -> str:
    return shlex.join(fake_engine_command("fake_uci.py", *args))


def searches(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_report_annotated_copy_and_figures(tmp_path, capsys):
    log = tmp_path / "log"
    report_path, pgn_path = tmp_path / "r.json", tmp_path / "a.pgn"
    code = main(["analyze", str(OPERA), "--engine-cmd", fake_cmd("--log", str(log)), "--nodes", "500",
                 "--json", str(report_path), "-o", str(pgn_path)])
    assert code == 0
    report = json.loads(report_path.read_text())
    assert report["schema"] == "reviewer.report/1"
    assert report["engine"]["name"] == "FakeFish 1.0"
    assert report["engine"]["id"] == "FakeFish 1.0 | nodes=500,multipv=1"
    assert len(report["moves"]) == OPERA_PLIES and report["evaluated_positions"] == OPERA_PLIES + 1
    assert report["complete"] is True
    assert report["moves"][0]["move"] == "e4"
    assert set(report["summary"]) == {"white", "black"}
    annotated = chess.pgn.read_game(pgn_path.open())
    nodes = list(annotated.mainline())
    assert len(nodes) == OPERA_PLIES
    assert all(node.eval() is not None for node in nodes[:-1])  # the final mate carries no score
    assert nodes[-2].eval().white().mate() == 1
    out = capsys.readouterr()
    assert "Paul Morphy" in out.out and "accuracy" in out.out
    assert f"{OPERA_PLIES + 1}/{OPERA_PLIES + 1} positions" in out.err  # plain progress lines: not a tty
    assert searches(log) == OPERA_PLIES


def test_a_second_run_is_answered_by_the_cache(tmp_path):
    log = tmp_path / "log"
    args = ["analyze", str(OPERA), "--engine-cmd", fake_cmd("--log", str(log)), "--nodes", "500", "-q"]
    assert main(args) == 0
    assert searches(log) == OPERA_PLIES
    report = tmp_path / "again.json"
    assert main([*args, "--json", str(report)]) == 0
    assert searches(log) == OPERA_PLIES
    assert json.loads(report.read_text())["evaluated_positions"] == OPERA_PLIES + 1
    assert main([*args, "--no-cache"]) == 0
    assert searches(log) == 2 * OPERA_PLIES


def test_a_crash_exits_1_and_still_writes_what_was_done(tmp_path, capsys):
    log = tmp_path / "log"
    report_path = tmp_path / "r.json"
    code = main(["analyze", str(OPERA), "--engine-cmd", fake_cmd("--log", str(log), "--crash-after-total", "6"),
                 "--nodes", "500", "--json", str(report_path)])
    assert code == 1
    assert "crashed" in capsys.readouterr().err
    report = json.loads(report_path.read_text())
    assert report["complete"] is False
    assert report["evaluated_positions"] == 6 + 1  # six searches and the final mate
    # Restarting with a working engine finishes only the rest.
    rerun_log = tmp_path / "rerun"
    assert main(["analyze", str(OPERA), "--engine-cmd", fake_cmd("--log", str(rerun_log)), "--nodes", "500", "-q"]) == 0
    assert searches(rerun_log) == OPERA_PLIES - 6


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    missing = tmp_path / "missing.pgn"
    assert main(["analyze", str(missing), "--engine-cmd", fake_cmd()]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.pgn" in err
    assert main(["analyze", str(OPERA), "--game", "5", "--engine-cmd", fake_cmd()]) == 2
    assert "no game 5" in capsys.readouterr().err
    assert main(["analyze", str(OPERA), "--engine-cmd", fake_cmd(), "-o", str(tmp_path / "x.sgf")]) == 2
    assert ".pgn" in capsys.readouterr().err
    assert main(["analyze", str(OPERA), "--engine-cmd", str(tmp_path / "no-engine")]) == 2
    assert "not found" in capsys.readouterr().err


def test_several_games_give_a_list_of_reports(tmp_path):
    collection = tmp_path / "two.pgn"
    collection.write_text(OPERA.read_text() + "\n\n" + '[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    report_path, pgn_path = tmp_path / "r.json", tmp_path / "a.pgn"
    code = main(["analyze", str(collection), str(OPERA), "--all-games", "--engine-cmd", fake_cmd(), "--nodes", "500",
                 "--json", str(report_path), "-o", str(pgn_path), "-q"])
    assert code == 0
    reports = json.loads(report_path.read_text())
    assert [r["game"]["white"] for r in reports] == ["Paul Morphy", "A", "Paul Morphy"]
    assert len(reports[1]["moves"]) == 7
    games = []
    with pgn_path.open() as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    assert len(games) == 3


def test_ctrl_c_stops_cleanly_and_writes_partial_outputs(tmp_path):
    report_path = tmp_path / "r.json"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "reviewer", "analyze", str(OPERA), "--engine-cmd", fake_cmd("--search-ms", "250"),
         "--nodes", "500", "--json", str(report_path)],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not list(Path(os.environ["REVIEWER_CACHE_DIR"]).glob("*.sqlite")):
            time.sleep(0.05)
        time.sleep(1.0)
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert took < 3.0
    report = json.loads(report_path.read_text())
    assert report["complete"] is False
    assert 2 <= report["evaluated_positions"] < OPERA_PLIES
    assert "interrupted" in err


@pytest.mark.engine
@pytest.mark.skipif(shutil.which("/usr/games/stockfish") is None, reason="Stockfish is not installed")
def test_stockfish_end_to_end(tmp_path):
    report_path = tmp_path / "r.json"
    assert main(["analyze", str(OPERA), "--engine-cmd", "/usr/games/stockfish", "--nodes", "2000",
                 "--json", str(report_path), "-q"]) == 0
    report = json.loads(report_path.read_text())
    assert report["engine"]["name"].startswith("Stockfish")
    assert report["evaluated_positions"] == OPERA_PLIES + 1
    assert report["moves"][-1]["move"] == "Rd8#"
    assert report["summary"]["white"]["accuracy"] is not None


def test_a_go_game_goes_to_katago_and_gets_sabaki_annotations(tmp_path):
    sgf = tmp_path / "game.sgf"
    sgf.write_text("(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Black]PW[White];B[ee];W[cc];B[gg];W[cg])")
    log = tmp_path / "katago.log"
    command = shlex.join(fake_engine_command("fake_katago.py", "--log", str(log)))
    report_path, out = tmp_path / "r.json", tmp_path / "a.sgf"
    args = ["analyze", str(sgf), "--engine-cmd", command, "--visits", "10", "-q"]
    assert main([*args, "--json", str(report_path), "-o", str(out)]) == 0
    report = json.loads(report_path.read_text())
    assert report["game"]["kind"] == "go" and report["evaluated_positions"] == 5
    assert [m["move"] for m in report["moves"]] == ["E5", "C7", "G3", "C3"]
    from sgfmill import sgf

    main_line = sgf.Sgf_game.from_bytes(out.read_bytes()).get_main_sequence()[1:]
    assert len(main_line) == 4
    assert all(node.has_property("SBKV") and node.has_property("SBKS") for node in main_line)
    queries = log.read_text().count('"analyzeTurns"')
    assert queries >= 1
    assert main(args) == 0  # everything cached: KataGo gets no analysis query
    assert log.read_text().count('"analyzeTurns"') == queries
