"""The tsumego frame: the open board around a corner problem filled so that the problem decides."""

from __future__ import annotations

import pytest

from reviewer.core.games.go import GoBoard
from reviewer.core.games.go_frame import FrameRefused, problem_region, tsumego_frame
from reviewer.core.gametree import point_from_gtp


def _points(*texts: str, size: int = 19) -> set:
    return {point_from_gtp(text, size) for text in texts}


# A top-left corner problem: White's group in the corner, Black's stones around it.
WHITE = _points("A18", "B18", "C18", "C19", "D18", "E19")
BLACK = _points("A17", "B17", "C17", "D17", "E18", "F18", "F19")


def test_a_corner_problem_gets_a_frame_around_it_and_nothing_inside_changes() -> None:
    framed = tsumego_frame(19, 19, BLACK, WHITE, "black")
    region = framed.region
    assert region == problem_region(19, 19, BLACK | WHITE) == ((14, 0), (18, 7))  # two lines beyond the stones
    assert framed.attacker == "black"  # Black's stones stand farther from the edges: they surround
    added = set(framed.black) | set(framed.white)
    (low_row, low_col), (high_row, high_col) = region
    assert not any(low_row <= row <= high_row and low_col <= col <= high_col for row, col in added)
    assert not added & (BLACK | WHITE) and not set(framed.black) & set(framed.white)
    # the attacker's wall touches the region all along its open sides
    wall = {(low_row - 1, col) for col in range(low_col, high_col + 2)} | {(row, high_col + 1) for row in range(low_row - 1, high_row + 1)}
    assert wall <= set(framed.black)
    # about half the rest each, and every frame group has liberties
    assert abs(len(framed.black) - len(framed.white)) < 0.25 * len(added)
    board = GoBoard(19, 19, frozenset(BLACK | set(framed.black)), frozenset(WHITE | set(framed.white)))
    assert all(board.group_without_liberties(point) is None for point in added)
    empty_outside = 19 * 19 - 8 * 5 - len(added)
    assert 0 < empty_outside < 0.25 * 19 * 19  # eyes and one empty line between the two areas


def test_a_region_given_is_kept_and_stones_outside_it_refuse_the_frame() -> None:
    region = ((12, 0), (18, 9))
    assert tsumego_frame(19, 19, BLACK, WHITE, "white", region=((18, 9), (12, 0))).region == region
    with pytest.raises(FrameRefused, match="outside the region"):
        tsumego_frame(19, 19, BLACK | _points("K10"), WHITE, "black", region=region)


def test_a_problem_over_most_of_the_board_is_no_corner_problem() -> None:
    with pytest.raises(FrameRefused, match="corner or side problem"):
        tsumego_frame(9, 9, _points("A1", "J9", size=9), _points("E5", size=9), "black")
    with pytest.raises(FrameRefused, match="no stones"):
        tsumego_frame(19, 19, set(), set(), "black")


def test_the_framed_problem_opens_as_a_game_whose_outside_is_even() -> None:
    from reviewer.core.games import game_support
    from reviewer.core.games.go_frame import framed_game

    game, framed = framed_game(19, 19, BLACK, WHITE, "white")
    assert game.first_player == "white" and game.root.properties["PL"] == ["W"] and game.event == "Tsumego frame"
    assert set(game.setup_black) == BLACK | set(framed.black) and set(game.setup_white) == WHITE | set(framed.white)
    (low_row, low_col), (high_row, high_col) = framed.region
    black_outside = sum(1 for r in range(19) for c in range(19)
                        if not (low_row <= r <= high_row and low_col <= c <= high_col) and (r, c) in set(framed.black))
    assert framed.komi != 0 and abs(framed.komi) < black_outside  # Black's frame area less White's
    position = game_support("go").rules.start(game)
    assert position.to_move == "white" and len(position.black) == len(game.setup_black)
