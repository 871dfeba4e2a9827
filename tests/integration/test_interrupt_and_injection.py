"""Ctrl-C keeps what was finished; nothing from a game file reaches an engine as a command."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time

import chess
from conftest import (
    DATA_DIR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    REPO_ROOT,
    fake_cmd,
    recorded_cmd,
    reports_of,
    reviewer_command,
    run_reviewer,
)
from report_contract import check_report


def wait_for(predicate, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_ctrl_c_writes_what_was_finished(tmp_path, corpus_dir):
    game = corpus_dir / "pgn" / "chesslib__Morphy_UTF8.pgn"  # game 1: 61 plies
    log = tmp_path / "searches.log"
    out, annotated = tmp_path / "report.json", tmp_path / "annotated.pgn"
    # Four searches answer; the fifth runs until it is stopped, so the interrupt always comes mid-game.
    slow = fake_cmd("fake_uci.py", "--log", str(log), "--wait-for-stop-after-total", "4")
    child = subprocess.Popen(
        [*reviewer_command(), "analyze", str(game), "--engine-cmd", slow, "--depth", "2", "--json", str(out), "-o", str(annotated)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert wait_for(lambda: log.exists() and len(log.read_text().splitlines()) >= 5, 120), "no search started"
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == EXIT_INTERRUPTED, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr
    (report,) = reports_of(out)
    assert report["complete"] is False and report["evaluated_positions"] == 4
    check_report(report, "chess")
    assert "[%eval" in annotated.read_text()
    # the finished positions are in the cache: a second run searches only the rest
    log2 = tmp_path / "searches2.log"
    run = run_reviewer("analyze", game, "--engine-cmd", fake_cmd("fake_uci.py", "--log", str(log2)), "--depth", "2", "-q")
    assert run.returncode == EXIT_OK, run.stderr
    searched_before = report["evaluated_positions"]
    assert len(log2.read_text().splitlines()) <= 62 - searched_before


UCI_COMMAND = re.compile(
    r"^(?:uci|isready|ucinewgame|stop|quit|ponderhit"
    r"|setoption name [A-Za-z_][\w ]* value [\w.\-/]+"
    r"|position (?:startpos|fen (?P<fen>[^m]+?))(?: moves(?P<moves>(?: [a-h][1-8][a-h][1-8][qrbn]?)+))?"
    r"|go(?: (?:depth|nodes|movetime|wtime|btime|winc|binc|multipv) \d+)*(?: infinite)?)$"
)


def test_pgn_text_never_reaches_a_uci_engine(tmp_path, fake_uci):
    log = tmp_path / "sent.log"
    run = run_reviewer(
        "analyze", DATA_DIR / "chess_injection.pgn", "--engine-cmd", recorded_cmd(log, fake_uci), "--depth", "2", "-q", "--no-cache"
    )
    assert run.returncode == EXIT_OK, run.stderr
    lines = log.read_text().splitlines()
    assert lines, "the engine was told nothing"
    for line in lines:
        match = UCI_COMMAND.match(line)
        assert match, f"unexpected command sent to the engine: {line!r}"
        if match["fen"]:
            chess.Board(match["fen"])  # a real position, not text from the file
        assert "infinite" not in line
    quits = [i for i, line in enumerate(lines) if line == "quit"]
    assert quits and all(all(later == "quit" for later in lines[i:]) for i in quits[:1]), "quit before the end"
    positions = [line for line in lines if line.startswith("position")]
    assert len(positions) == 4  # P0..P3: the three moves of the game, nothing else


def test_sgf_text_never_reaches_katago(tmp_path, fake_katago):
    log = tmp_path / "sent.log"
    run = run_reviewer(
        "analyze", DATA_DIR / "go_injection.sgf", "--engine-cmd", recorded_cmd(log, fake_katago), "--visits", "3", "-q", "--no-cache"
    )
    assert run.returncode == EXIT_OK, run.stderr
    lines = log.read_text().splitlines()
    queries = [json.loads(line) for line in lines]  # every line is one JSON object: nothing was split
    assert all(isinstance(query, dict) for query in queries)
    assert {query.get("action") for query in queries} <= {None, "query_version", "terminate", "terminate_all"}
    analyses = [query for query in queries if "moves" in query]
    assert len(analyses) == 1
    assert analyses[0]["moves"] == [["B", "E5"], ["W", "C7"]]
    text = json.dumps(queries)
    assert "quit" not in text and "infinite" not in text and "evil" not in text
    terminations = [query for query in queries if query.get("action", "").startswith("terminate")]
    assert not terminations or all(query.get("terminateId") or query["action"] == "terminate_all" for query in terminations)
