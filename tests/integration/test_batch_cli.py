"""`reviewer batch` as a user runs it: resumed after a kill, interrupted with Ctrl-C, imported figures,
unreadable files and games, a missing engine."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import chess
import pytest
from conftest import (
    DATA_DIR,
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    REPO_ROOT,
    fake_cmd,
    read_json,
    recorded_cmd,
    reviewer_command,
    run_reviewer,
)
from report_contract import check_report

from reviewer.core.formats import open_collection, write_pgn


def wait_for(predicate, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def games_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    (folder / "more").mkdir(parents=True)
    shutil.copy(DATA_DIR / "chess_three_games.pgn", folder / "three.pgn")
    shutil.copy(DATA_DIR / "chess_fools_mate.pgn", folder / "more" / "fools.pgn")
    return folder


def finished_in_store(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0  # not made yet


def cached_fens(cache_file: Path, fens: list[str]) -> set[str]:
    with sqlite3.connect(cache_file) as connection:
        keys = {row[0] for row in connection.execute("SELECT position_key FROM evaluations")}
    return {fen for fen in fens if "chess:" + chess.Board(fen).epd() in keys}


def without_timing(reports: list[dict]) -> list[dict]:
    return [{key: value for key, value in report.items() if key not in ("elapsed_s", "finished_at")} for report in reports]


def test_a_killed_batch_takes_up_where_it_was_and_ends_as_an_uninterrupted_one(tmp_path):
    folder = games_folder(tmp_path)
    store, log, release = tmp_path / "batch.sqlite", tmp_path / "searches.log", tmp_path / "release"
    # The first game's 7 searches and one more answer; later searches wait for `stop` until `release`
    # exists, so the kill always lands in the second game, after the first one was recorded.
    engine = fake_cmd("fake_uci.py", "--log", str(log), "--wait-for-stop-after-total", "8", "--release", str(release))
    command = [*reviewer_command(), "batch", str(folder), "--engine-cmd", engine, "--nodes", "1000",
               "--store", str(store), "--json", str(tmp_path / "resumed.json")]
    child = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: finished_in_store(store) >= 1 and log.exists() and len(log.read_text().splitlines()) >= 9, 120)
        child.kill()  # SIGKILL: no chance to clean up
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
    assert finished_in_store(store) == 1
    cache_file = Path(os.environ["REVIEWER_CACHE_DIR"]) / "analysis.sqlite"
    searched_before = log.read_text().splitlines()
    finished_before = cached_fens(cache_file, searched_before)

    release.write_text("go on")
    run = run_reviewer(*command[1:], timeout=120)
    assert run.returncode == EXIT_OK, run.stderr
    assert "1 finished before" in run.stderr and "3 analysed" in run.stderr
    searched_after = log.read_text().splitlines()[len(searched_before):]
    assert searched_after and not finished_before & set(searched_after)  # nothing finished was searched again

    fresh = dict(os.environ, REVIEWER_CACHE_DIR=str(tmp_path / "fresh-cache"), REVIEWER_DATA_DIR=str(tmp_path / "fresh-data"))
    plain = run_reviewer("batch", folder, "--engine-cmd", fake_cmd("fake_uci.py"), "--nodes", "1000",
                         "--json", tmp_path / "plain.json", env=fresh, timeout=120)
    assert plain.returncode == EXIT_OK, plain.stderr
    resumed, uninterrupted = read_json(tmp_path / "resumed.json"), read_json(tmp_path / "plain.json")
    assert len(resumed["reports"]) == 4
    assert without_timing(resumed["reports"]) == without_timing(uninterrupted["reports"])
    assert resumed["insights"]["schema"] == "reviewer.insights/1"
    for report in resumed["reports"]:
        check_report(report, "chess")


def test_ctrl_c_keeps_and_writes_what_was_finished(tmp_path):
    folder = games_folder(tmp_path)
    store, log = tmp_path / "batch.sqlite", tmp_path / "searches.log"
    engine = fake_cmd("fake_uci.py", "--log", str(log), "--wait-for-stop-after-total", "8")
    out = tmp_path / "out.json"
    child = subprocess.Popen(
        [*reviewer_command(), "batch", str(folder), "--engine-cmd", engine, "--nodes", "1000", "--store", str(store),
         "--json", str(out)],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert wait_for(lambda: finished_in_store(store) >= 1 and len(log.read_text().splitlines()) >= 9, 120)
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == EXIT_INTERRUPTED, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr
    written = read_json(out)
    assert written["complete"] is False and [r["game"]["white"] for r in written["reports"]] == ["Fool"]  # more/fools.pgn sorts first
    assert finished_in_store(store) == 1


def evaluated_games(tmp_path: Path, corpus_dir: Path) -> Path:
    """Games 8-10 of a lichess broadcast: an [%eval] after every move."""
    source = open_collection(corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn")
    path = tmp_path / "evaluated.pgn"
    path.write_text("\n\n".join(write_pgn(source.game(index)) for index in (7, 8, 9)), encoding="utf-8")
    return path


def test_games_carrying_evaluations_are_imported_and_no_engine_starts(tmp_path, corpus_dir):
    games = evaluated_games(tmp_path, corpus_dir)
    started = tmp_path / "started.log"
    engine = fake_cmd("fake_uci.py", "--started-log", str(started), "--exit-on-start")
    run = run_reviewer("batch", games, "--engine-cmd", engine, "--json", tmp_path / "out.json")
    assert run.returncode == EXIT_OK, run.stderr
    assert not started.exists()
    told = [line for line in run.stderr.splitlines() if line.startswith("imported")]
    assert len(told) == 3 and all("the file's evaluations" in line for line in told)
    assert "3 imported" in run.stderr
    reports = read_json(tmp_path / "out.json")["reports"]
    assert [report["source"]["imported"] for report in reports] == [True, True, True]
    assert [report["source"]["index"] for report in reports] == [0, 1, 2]
    assert reports[0]["engine"]["name"] == "[%eval] comments of the game file"


def test_each_unreadable_file_or_game_is_named_and_the_others_are_reviewed(tmp_path, fake_uci):
    folder = games_folder(tmp_path)
    (folder / "binary.pgn").write_bytes(b"\x00\x00\x00\x01 garbage")
    (folder / "bad_start.pgn").write_text('[White "X"]\n[Black "Y"]\n[SetUp "1"]\n[FEN "no position at all"]\n\n1. e4 *\n')
    locked = folder / "locked.sgf"
    shutil.copy(DATA_DIR / "go_9x9_passes.sgf", locked)
    run = run_reviewer("batch", folder / "three.pgn", folder / "more", folder / "binary.pgn", folder / "bad_start.pgn",
                       tmp_path / "missing.pgn", "--engine-cmd", fake_uci, "--nodes", "1000", "--json", tmp_path / "out.json")
    assert run.returncode == EXIT_BAD_INPUT, run.stderr
    assert "Traceback" not in run.stderr
    lines = [line for line in run.stderr.splitlines() if line.endswith("skipped")]
    assert len(lines) == 3
    assert any(str(folder / "binary.pgn") in line for line in lines)
    assert any(f"{folder / 'bad_start.pgn'}#1: its start position" in line for line in lines)
    assert any(f"{tmp_path / 'missing.pgn'}: no such file or folder" in line for line in lines)
    assert len(read_json(tmp_path / "out.json")["reports"]) == 4


def test_a_missing_engine_is_one_clear_message(tmp_path):
    folder = games_folder(tmp_path)
    run = run_reviewer("batch", folder, "--engine-cmd", str(tmp_path / "no-such-engine"), "--nodes", "1000")
    assert run.returncode == EXIT_BAD_INPUT, run.stderr
    assert "Traceback" not in run.stderr
    messages = [line for line in run.stderr.splitlines() if line.startswith("reviewer batch:")]
    assert messages[0] == f"reviewer batch: engine not found: {tmp_path / 'no-such-engine'}"
    assert "3 other chess game(s) were not started" in run.stderr


def test_a_folder_without_games_is_bad_input(tmp_path):
    (tmp_path / "empty").mkdir()
    run = run_reviewer("batch", tmp_path / "empty")
    assert run.returncode == EXIT_BAD_INPUT
    assert run.stderr.strip() == f"reviewer batch: no games found in {tmp_path / 'empty'}"


def test_the_insights_are_written_for_the_player_asked_for(tmp_path, fake_uci):
    folder = games_folder(tmp_path)
    run = run_reviewer("batch", folder, "--player", "a2", "--engine-cmd", fake_uci, "--nodes", "1000",
                       "--json", tmp_path / "out.json", "--csv", tmp_path / "out.csv", "--html", tmp_path / "out.html")
    assert run.returncode == EXIT_OK, run.stderr
    assert run.stdout.splitlines()[1].split()[:4] == ["A2", "chess", "1", "1"]
    written = read_json(tmp_path / "out.json")
    assert written["schema"] == "reviewer.batch/1" and written["player"] == "a2"
    assert [report["game"]["white"] for report in written["reports"]] == ["A2"]
    assert [player["name"] for player in written["insights"]["players"]] == ["A2"]
    assert "A2" in (tmp_path / "out.csv").read_text() and "A2" in (tmp_path / "out.html").read_text()
    assert json.loads(json.dumps(written))  # strict JSON


def test_go_games_of_every_format_reach_the_engine_as_sgf(tmp_path, corpus_dir, fake_katago):
    out = tmp_path / "out.json"
    run = run_reviewer("batch", corpus_dir / "sgf" / "katrain__test.gib", corpus_dir / "sgf" / "sabaki__even.ngf",
                       DATA_DIR / "go_9x9_passes.sgf", "--engine-cmd", fake_katago, "--visits", "10", "-q", "--json", out)
    assert run.returncode == EXIT_OK, run.stderr
    reports = read_json(out)["reports"]
    assert [report["game"]["source"]["format"] for report in reports] == ["gib", "ngf", "sgf"]
    for report in reports:
        check_report(report, "go")
        assert report["complete"] and not report["source"]["imported"]


@pytest.mark.engine
def test_stockfish_reviews_a_batch(tmp_path):
    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
    if not shutil.which(stockfish):
        pytest.skip("Stockfish is not installed")
    out = tmp_path / "out.json"
    run = run_reviewer("batch", games_folder(tmp_path), "--engine-cmd", stockfish, "--nodes", "2000", "-q", "--json", out)
    assert run.returncode == EXIT_OK, run.stderr
    reports = read_json(out)["reports"]
    assert len(reports) == 4 and all("Stockfish" in report["engine"]["name"] for report in reports)
    for report in reports:
        check_report(report, "chess")


def test_nothing_from_a_game_file_reaches_the_engine_as_a_command(tmp_path, fake_uci):
    from test_interrupt_and_injection import UCI_COMMAND

    log = tmp_path / "sent.log"
    run = run_reviewer("batch", DATA_DIR / "chess_injection.pgn", "--engine-cmd", recorded_cmd(log, fake_uci),
                       "--nodes", "1000", "-q", "--no-cache")
    assert run.returncode == EXIT_OK, run.stderr
    lines = log.read_text().splitlines()
    assert lines and all(UCI_COMMAND.match(line) for line in lines), lines
    assert len([line for line in lines if line.startswith("position")]) == 4
