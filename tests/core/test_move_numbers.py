"""Chess move numbers: one function numbers a line of moves, wherever the game starts."""

from __future__ import annotations

from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.gametree import numbered_moves


def test_a_line_is_numbered_from_its_first_move() -> None:
    assert numbered_moves(["e4", "e5", "Nf3"], 1, True) == "1. e4 e5 2. Nf3"
    assert numbered_moves(["e5", "Nf3", "Nc6"], 1, False) == "1... e5 2. Nf3 Nc6"
    assert numbered_moves([], 7, True) == ""


def test_full_move_numbers_count_on_from_the_start_fen() -> None:
    standard = game_from_pgn_text("1. e4 e5 2. Nf3 *")
    assert [standard.full_move_number(ply) for ply in (1, 2, 3)] == [1, 1, 2]
    black_first = game_from_pgn_text('[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 12"]\n\n12... Kd7 13. Rh7+ Kd6 *')
    assert black_first.first_player == "black"
    assert [black_first.full_move_number(ply) for ply in (1, 2, 3)] == [12, 13, 13]
    line = numbered_moves(black_first.mainline_moves(), black_first.full_move_number(1), False)
    assert line == "12... Kd7 13. Rh7+ Kd6"
