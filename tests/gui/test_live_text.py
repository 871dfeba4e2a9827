"""The engine-lines panel's text, Qt-free."""

from __future__ import annotations

import chess

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.games.chess import line_squares
from reviewer.core.games.support import MoveNumber
from reviewer.core.gametree import numbered_moves
from reviewer.gui.common.live_text import (
    chess_score_text,
    ghost_stones,
    go_score_text,
    line_rows,
    speed_text,
    win_pct_white,
)


def test_chess_scores_read_as_on_lichess():
    assert chess_score_text(41, None) == "+0.41"
    assert chess_score_text(-120, None) == "-1.20"
    assert chess_score_text(None, 3) == "#3"
    assert chess_score_text(None, -3) == "#-3"
    assert chess_score_text(None, None) == "–"


def test_go_scores_name_the_player_ahead():
    assert go_score_text(3.46) == "B+3.5"
    assert go_score_text(-0.5) == "W+0.5"


def test_lines_are_numbered_from_the_position():
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    assert numbered_moves(["Bb5", "a6", "Ba4"], board.fullmove_number, board.turn == chess.WHITE) == "3. Bb5 a6 4. Ba4"
    board.push_san("Bb5")
    assert numbered_moves(["a6", "Ba4"], board.fullmove_number, board.turn == chess.WHITE) == "3... a6 4. Ba4"


def test_rows_carry_score_wdl_depth_and_line():
    evaluation = Evaluation(
        ply=0,
        kind="chess",
        score_cp_first=30,
        wdl_first=(310, 600, 90),
        depth=18,
        candidates=(
            Candidate(move="d4", order=1, score_cp_first=25, pv=("d4", "d5")),
            Candidate(move="e4", order=0, score_cp_first=30, pv=("e4", "e5", "Nf3")),
        ),
    )
    rows = line_rows(evaluation, MoveNumber(1, True))
    assert [r.score for r in rows] == ["+0.30", "+0.25"]
    assert rows[0].detail == "W 31% · D 60% · L 9% · depth 18" and rows[1].detail == "−0.05 · depth 18"
    assert rows[0].moves_text == "1. e4 e5 2. Nf3"


def test_arrows_ghosts_speed_and_bar():
    assert line_squares(chess.Board(), ["e4", "e5", "Nf3", "Nc6"]) == [
        (chess.E2, chess.E4),
        (chess.E7, chess.E5),
        (chess.G1, chess.F3),
    ]
    assert line_squares(chess.Board(), ["e4", "Ke2"]) == [(chess.E2, chess.E4)]  # stops at what does not parse
    assert ghost_stones(["D4", "pass", "Q16"], "black", 19) == [((3, 3), "black", 1), ((15, 15), "black", 3)]
    assert speed_text(Evaluation(ply=0, kind="chess", nodes=2_400_000, seconds=2.0)) == "1.2M nodes/s"
    assert speed_text(Evaluation(ply=0, kind="go", nodes=70, seconds=2.0)) == "35 visits/s"
    assert win_pct_white(Evaluation(ply=0, kind="chess", mate_first=-2)) == 0.0
    assert 49.9 < (win_pct_white(Evaluation(ply=0, kind="chess", score_cp_first=0)) or 0) < 50.1
