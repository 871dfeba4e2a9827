"""Game phases (docs/SCORING.md, "Game phases"): lichess's Divider for chess, KaTrain's bands for Go."""

from __future__ import annotations

import chess
import pytest
from test_scoring_games import chess_game, go_game

from reviewer.core.formats import load_game
from reviewer.core.games import rules_for
from reviewer.core.games.chess import (
    Division,
    back_rank_sparse,
    divide,
    mainline_boards,
    majors_and_minors,
    mixedness,
)
from reviewer.core.games.go import phase_bands, phase_of_move
from reviewer.resources import resource_path

# --------------------------------------------------------------------------------- chess: the parts


def test_the_start_position_is_opening_by_every_measure():
    board = chess.Board()
    assert majors_and_minors(board) == 14
    assert not back_rank_sparse(board)
    assert mixedness(board) == 0  # every 2x2 square of the home ranks scores 0 (lichess's table)
    assert divide([board]) == Division(None, None, 1)
    assert divide([board]).phase_of_move(1) == "opening"


def test_mixedness_of_single_pieces_worked_out_by_hand():
    # a lone piece on a1 lies in one 2x2 square, lower rank 1: (1 white, 0 black) scores 1 + (8 - 1)
    assert mixedness(chess.Board("8/8/8/8/8/8/8/K7 w - - 0 1")) == 8
    # on b2 it lies in four squares: two with lower rank 1 (8 each), two with lower rank 2 (1 + 6)
    assert mixedness(chess.Board("8/8/8/8/8/8/1K6/8 w - - 0 1")) == 8 + 8 + 7 + 7
    # a black piece alone on h8: one square, lower rank 7: (0, 1) scores 1 + 7
    assert mixedness(chess.Board("7k/8/8/8/8/8/8/8 w - - 0 1")) == 8


def test_a_back_rank_with_three_pieces_is_sparse_and_four_is_not():
    four = chess.Board("r1bqkbnr/pppppppp/2n5/8/8/2NBBN2/PPPPPPPP/R2Q1RK1 w kq - 0 1")
    three = chess.Board("r1bqkbnr/pppppppp/2n5/8/8/2NBBNQ1/PPPPPPPP/R4RK1 w kq - 0 1")
    assert not back_rank_sparse(four)
    assert back_rank_sparse(three)
    assert divide([four]).middlegame is None and divide([three]).middlegame == 0


def test_king_and_rook_against_king_is_endgame_from_the_first_move():
    game = chess_game("Ra2 Kd5 Kd2", fen="8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    # middlegame and endgame start at the same position: straight into the endgame (lichess)
    assert divide(mainline_boards(game)) == Division(None, 0, 4)
    assert rules_for("chess").phases(game) == ["endgame", "endgame", "endgame"]


def test_ten_pieces_start_the_middlegame_and_six_the_endgame():
    # White Ra1 Qd1 Rh1 Nc3 Bf4 and Black ra8 qd8 rh8 nd5 bf5: ten queens, rooks and minors
    fen = "r2qk2r/8/8/3n1b2/5B2/2N5/8/R2QK2R w KQkq - 0 1"
    game = chess_game("Nxd5 Qxd5 Qxd5 Be6 Qxe6+", fen=fen)
    assert [majors_and_minors(board) for board in mainline_boards(game)] == [10, 9, 8, 7, 7, 6]
    assert divide(mainline_boards(game)) == Division(0, 5, 6)
    assert rules_for("chess").phases(game) == ["middlegame"] * 4 + ["endgame"]


def test_the_opera_game_divides_where_the_rules_say():
    """Morphy's Opera game, worked out by hand: White's back rank falls to three pieces with 9.Bg5
    (ply 17: Ra1, Ke1, Rh1), and 16...Nxb8 (ply 32) leaves six queens, rooks and minors (White Rd1
    Bg5, Black Qe6 Nb8 Bf8 Rh8)."""
    game = load_game(resource_path("samples", "opera-game.pgn"))
    division = divide(mainline_boards(game))
    assert (division.middlegame, division.endgame) == (17, 32)
    phases = rules_for("chess").phases(game)
    assert phases[:16] == ["opening"] * 16
    assert phases[16:31] == ["middlegame"] * 15
    assert phases[31:] == ["endgame"] * 2


def test_a_move_the_rules_refuse_has_no_phase():
    game = chess_game("e4 e5 Nf3")
    game.mainline_nodes()[-1].uci = "e1e5"  # not legal: the position after it cannot be built
    game.mainline_nodes()[-1].move = "Ke5"
    assert rules_for("chess").phases(game) == ["opening", "opening", None]


# ---------------------------------------------------------------------------------------------- Go


@pytest.mark.parametrize(
    ("size", "bands"),
    [(19, (51, 145)), (13, (24, 68)), (9, (12, 33))],
)
def test_go_bands_scale_with_the_board_area(size, bands):
    assert phase_bands(size, size) == bands


def test_go_phase_of_a_move_number_on_19x19():
    assert [phase_of_move(n, 19, 19) for n in (1, 50, 51, 144, 145, 300)] == [
        "opening", "opening", "middlegame", "middlegame", "endgame", "endgame",
    ]


def test_go_rules_give_a_phase_per_move():
    moves = ["D4", "Q16"] * 80  # 160 moves (the points repeat: the phases read only the numbers)
    phases = rules_for("go").phases(go_game(moves))
    assert len(phases) == 160
    assert phases.count("opening") == 50 and phases.count("middlegame") == 94 and phases.count("endgame") == 16
