"""Rules of the built-in Go engine's board: captures, ko, suicide per ruleset, area scoring."""

from __future__ import annotations

import random

import pytest
from sgfmill import boards

from reviewer.core.engines.builtin_go.position import (
    IllegalMove,
    Position,
    position_from_rows,
    suicide_allowed,
)


def test_single_stone_capture_removes_it_and_counts_it():
    position = position_from_rows(
        [
            ". X .",
            "X O .",
            ". X .",
        ]
    )
    assert position.liberties((1, 1)) == 1
    assert position.play((1, 2), "black") == 1
    assert position.color_at((1, 1)) is None
    assert position.to_move == "white"


def test_capture_of_a_block_frees_its_points():
    position = position_from_rows(
        [
            ". X X .",
            "X O O X",
            "X O O .",
            ". X X .",
        ]
    )
    assert position.liberties((2, 1)) == 1
    assert position.play((1, 3), "black") == 4
    for point in [(2, 1), (2, 2), (1, 1), (1, 2)]:
        assert position.color_at(point) is None
    assert position.liberties((1, 0)) == 4  # the black pair on the left gains the two hole points
    assert position.is_legal((2, 1), "white")


def test_simple_ko_forbids_the_immediate_retake_only():
    position = position_from_rows(
        [
            ". X O .",
            "X O . O",
            ". X O .",
            ". . . .",
        ]
    )
    assert position.play((2, 2), "black") == 1  # black takes the ko
    assert position.ko_point == (2, 1)
    assert not position.is_legal((2, 1), "white")
    with pytest.raises(IllegalMove):
        position.play((2, 1), "white")
    position.play((0, 3), "white")  # a threat elsewhere
    position.play((0, 0), "black")
    assert position.ko_point is None
    assert position.is_legal((2, 1), "white")
    assert position.play((2, 1), "white") == 1


def test_capturing_two_stones_is_not_a_ko():
    position = position_from_rows(
        [
            ". X X .",
            "X O O .",
            ". X X O",
            ". . . .",
        ]
    )
    assert position.play((2, 3), "black") == 2
    assert position.ko_point is None


@pytest.mark.parametrize("rules", ["chinese", "japanese", "aga", "korean", None])
def test_suicide_is_illegal_under_most_rules(rules):
    position = position_from_rows([". O", "O ."], rules=rules)
    assert not position.is_legal((1, 0), "black")
    with pytest.raises(IllegalMove):
        position.play((1, 0), "black")


@pytest.mark.parametrize("rules", ["tromp-taylor", "new-zealand", "NZ", "Tromp Taylor", "koSIMPLEscoreAREAsui1"])
def test_suicide_is_legal_under_tromp_taylor_and_new_zealand(rules):
    position = position_from_rows(
        [
            "X O . .",
            "O . . .",
            ". . . .",
            ". . . .",
        ],
        rules=rules,
    )
    assert position.suicide_allowed
    # a two-stone suicide: black fills its last liberty and its own group goes
    position = position_from_rows(
        [
            "X . O .",
            "O O . .",
            ". . . .",
            ". . . .",
        ],
        rules=rules,
    )
    assert position.is_legal((3, 1), "black")
    assert position.play((3, 1), "black") == 0
    assert position.color_at((3, 0)) is None and position.color_at((3, 1)) is None
    assert position.color_at((2, 0)) == "white"


def test_suicide_that_captures_is_a_capture_not_a_suicide():
    position = position_from_rows(
        [
            ". O X .",
            "O X . .",
            "X . . .",
            ". . . .",
        ]
    )
    assert position.is_legal((3, 0), "black")
    assert position.play((3, 0), "black") == 2  # both white stones had (3, 0) as their last liberty
    assert position.color_at((3, 0)) == "black"
    assert position.liberties((3, 0)) == 2


def test_suicide_rules_names():
    assert suicide_allowed("Tromp-Taylor") and suicide_allowed("NZ") and suicide_allowed("new zealand")
    assert not suicide_allowed("Chinese") and not suicide_allowed("Japanese") and not suicide_allowed(None)
    assert not suicide_allowed("koPOSITIONALscoreAREAtaxNONEsui0")


def test_area_score_counts_stones_and_one_colour_regions():
    position = position_from_rows(
        [
            ". X O .",
            ". X O .",
            ". X O .",
            ". X O .",
        ],
        komi=0.5,
    )
    assert position.area_black_minus_white() == 0
    assert position.lead_black() == -0.5
    position = position_from_rows(
        [
            ". X O . .",
            ". X O . .",
            ". X . O .",  # the empty point between touches both colours: dame
            ". X O . .",
        ],
        komi=7.5,
    )
    # black: 4 stones + 4 territory = 8; white: 4 stones + 7 territory = 11; one dame
    assert position.area_black_minus_white() == 8 - 11
    assert position.lead_black() == -10.5


def test_area_score_of_an_empty_board_is_zero_and_dame_counts_for_nobody():
    assert Position(5).area_black_minus_white() == 0
    position = position_from_rows(["X . O", "X . O", "X . O"])
    assert position.area_black_minus_white() == 0  # the middle column touches both


def test_own_eyes_are_not_playable_but_false_eyes_are():
    position = position_from_rows(
        [
            ". X . . .",
            "X X . . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]
    )
    playable = position.playable_moves()
    assert (4, 0) not in playable  # a true corner eye
    position = position_from_rows(
        [
            ". X O . .",
            "X O . . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]
    )
    # surrounded by black on all sides but white holds the corner's diagonal: a false eye
    assert (4, 0) in position.playable_moves()


def test_setup_stones_build_groups_and_keep_the_side_to_move():
    position = Position(5)
    position.to_move = "white"
    position.setup(black=[(0, 0), (0, 1), (1, 1)], white=[(1, 0)])
    assert position.to_move == "white"
    assert position.liberties((0, 0)) == 3  # (0, 2), (1, 2), (2, 1)
    assert position.liberties((1, 0)) == 1
    position.setup(empty=[(1, 0)])
    assert position.color_at((1, 0)) is None
    assert position.liberties((0, 0)) == 4


def test_random_games_agree_with_sgfmill():
    """Captures and liberties match sgfmill's board move for move over random games."""
    rng = random.Random(7)
    for size in (5, 9):
        position = Position(size, rules="chinese")
        reference = boards.Board(size)
        for _ in range(3 * size * size):
            moves = position.playable_moves()
            if not moves:
                break
            point = rng.choice(moves)
            colour = "b" if position.to_move == "black" else "w"
            position.play(point)
            reference.play(point[0], point[1], colour)
            for row in range(size):
                for col in range(size):
                    expected = reference.get(row, col)
                    got = position.color_at((row, col))
                    assert (got or "")[:1] == (expected or ""), (row, col)
