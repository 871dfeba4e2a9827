"""The same contract with Stockfish itself, at tiny limits."""

from __future__ import annotations

import shutil

import pytest
from conftest import DATA_DIR, EXIT_OK, recorded_cmd, reports_of, run_reviewer
from report_contract import check_report

STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"

pytestmark = pytest.mark.engine

GAMES = [
    "chess_fools_mate.pgn",
    "chess_black_first.pgn",
    "chess960_castling.pgn",
    "chess_promotions.pgn",
    "chess_stalemate.pgn",
    "chess_one_move.pgn",
]


@pytest.fixture
def stockfish() -> str:
    if not shutil.which(STOCKFISH):
        pytest.skip("Stockfish is not installed")
    return STOCKFISH


@pytest.mark.parametrize("name", GAMES)
def test_stockfish_reports_keep_the_contract(tmp_path, stockfish, name):
    out = tmp_path / "r.json"
    run = run_reviewer("analyze", DATA_DIR / name, "--engine-cmd", stockfish, "--depth", "6", "-q", "--no-cache", "--json", out)
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    check_report(report, "chess")
    assert report["complete"] is True and "Stockfish" in report["engine"]["name"]
    assert all(m["best"] is not None for m in report["moves"])  # every position before a move had a best move


def test_stockfish_multipv_and_seed_preset(tmp_path, stockfish):
    out = tmp_path / "r.json"
    run = run_reviewer(
        "analyze", DATA_DIR / "chess_three_games.pgn", "--all-games", "--engine", "stockfish",
        "--nodes", "2000", "--multipv", "3", "--preset", "seed", "-q", "--json", out,
    )  # fmt: skip
    assert run.returncode == EXIT_OK, run.stderr
    reports = reports_of(out)
    assert len(reports) == 3 and all(r["preset"] == "seed" for r in reports)
    for report in reports:
        check_report(report, "chess")


def test_chess960_castling_reaches_stockfish_as_king_takes_rook(tmp_path, stockfish):
    log = tmp_path / "sent.log"
    run = run_reviewer("analyze", DATA_DIR / "chess960_castling.pgn", "--engine-cmd", recorded_cmd(log, stockfish), "--depth", "4", "-q", "--no-cache")
    assert run.returncode == EXIT_OK, run.stderr
    sent = log.read_text()
    assert "setoption name UCI_Chess960 value true" in sent
    assert " e1f1" in sent and " e8f8" in sent  # O-O with the king on e1 and the rook on f1
