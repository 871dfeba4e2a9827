"""The built-in Go engine's knowledge: 3x3 shapes, self-atari, captures, playout policy, tree priors."""

from __future__ import annotations

import numpy as np
import pytest

from reviewer.core.engines.builtin_go import board as bd
from reviewer.core.engines.builtin_go import patterns as pt
from reviewer.core.engines.builtin_go import playout as po
from reviewer.core.engines.builtin_go.position import Position, position_from_rows
from reviewer.core.engines.builtin_go.search import prior_knowledge


def _at(position: Position, gtp: str) -> int:
    col = "ABCDEFGHJKLMNOPQRST".index(gtp[0])
    return position.index((int(gtp[1:]) - 1, col))


def _after(position: Position, gtp: str, color: str) -> Position:
    """The position with the last move set to `gtp` (played by `color`), the other side to move."""
    position.meta[bd.LAST] = _at(position, gtp)
    position.to_move = "white" if color == "black" else "black"
    return position


def test_pattern_table_is_symmetric_and_sparse():
    table = pt.PATTERN_TABLE
    assert 0.01 < table.mean() < 0.3  # most neighbourhoods match nothing
    # swapping colours maps matches to matches
    codes = np.flatnonzero(table)
    digits = (codes[:, None] // 4 ** np.arange(8)) % 4
    swapped = np.where(digits == 1, 2, np.where(digits == 2, 1, digits))
    assert table[(swapped * 4 ** np.arange(8)).sum(axis=1)].all()


def test_hane_shape_matches_and_an_empty_neighbourhood_does_not():
    position = position_from_rows(
        [
            ". . . . .",
            ". X O X .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]
    )
    b, cfg = position.b, position.cfg
    assert pt.matches_pattern(b, cfg, _at(position, "C3"))  # under the white stone: enclosing hane
    assert not pt.matches_pattern(b, cfg, _at(position, "C1"))  # nothing around it
    assert not pt.matches_pattern(b, cfg, _at(position, "E1"))


def test_cut_shape_matches():
    position = position_from_rows(
        [
            ". . . . .",
            ". X O . .",
            ". O . . .",
            ". . . . .",
            ". . . . .",
        ]
    )
    assert pt.matches_pattern(position.b, position.cfg, _at(position, "C3"))  # the cutting point


SQUEEZED = [
    ". . . . .",
    "O O O . .",
    ". X O . .",
    ". X O . .",
    ". O . . .",
]


def test_liberties_after_and_self_atari():
    position = position_from_rows(SQUEEZED)
    b, cfg = position.b, position.cfg
    black, white = bd.BLACK, bd.WHITE
    # the black pair has two liberties, A3 and A2; A3 joins it and leaves only A2
    assert pt.liberties_after(b, cfg, _at(position, "A3"), black) == 1
    assert pt.is_bad_self_atari(b, cfg, _at(position, "A3"), black)
    assert pt.liberties_after(b, cfg, _at(position, "A2"), black) == 2
    assert not pt.is_bad_self_atari(b, cfg, _at(position, "A2"), black)
    # a lone stone in atari (a throw-in) is allowed
    assert pt.liberties_after(b, cfg, _at(position, "A1"), black) == 1
    assert not pt.is_bad_self_atari(b, cfg, _at(position, "A1"), black)
    # White on A3 joins a large group
    assert pt.liberties_after(b, cfg, _at(position, "A3"), white) == 2


def test_captures_counts_the_stones_taken():
    position = position_from_rows(
        [
            ". X X .",
            "X O O .",
            ". X X .",
            ". . . .",
        ]
    )
    assert pt.captures(position.b, position.cfg, _at(position, "D3"), bd.BLACK) == 2
    assert pt.captures(position.b, position.cfg, _at(position, "D3"), bd.WHITE) == 0
    assert pt.captures(position.b, position.cfg, _at(position, "A1"), bd.BLACK) == 0
    # and A3 after D3 is no capture: White has none in atari
    assert pt.liberties_after(position.b, position.cfg, _at(position, "D3"), bd.BLACK) == 2


def test_playout_policy_captures_the_last_move_in_atari():
    position = _after(
        position_from_rows(
            [
                ". . . . .",
                ". . X . .",
                ". X O X .",
                ". . . . .",
                ". . . . .",
            ]
        ),
        "C3",
        "white",
    )
    rng = np.array([7], np.int64)
    assert po.policy_move(position.b, position.meta, position.cfg, rng) == _at(position, "C2")


def test_playout_policy_answers_a_shape_around_the_last_move():
    # White just played D3, making a hane shape: every seed answers next to it, not elsewhere
    position = _after(
        position_from_rows(
            [
                ". . . . . . .",
                ". . . . . . .",
                ". . X O X . .",
                ". . . . . . .",
                ". . . . . . .",
                ". . . . . . .",
                ". . . . . . .",
            ]
        ),
        "D5",
        "white",
    )
    around = {_at(position, m) for m in ("C6", "D6", "E6", "C4", "D4", "E4", "C5", "E5")}
    for seed in range(20):
        move = po.pattern_move(position.b, position.meta, position.cfg, bd.BLACK, np.array([seed], np.int64))
        assert move in around


def test_random_playout_moves_never_throw_a_group_into_atari():
    position = position_from_rows(SQUEEZED)
    position.to_move = "black"
    bad = _at(position, "A3")
    seen = set()
    for seed in range(40):
        move = po.random_move(position.b, position.meta, position.cfg, bd.BLACK, np.array([seed], np.int64))
        assert move != bad
        seen.add(move)
    assert len(seen) > 5  # still random


@pytest.mark.parametrize("seed", [1, 2])
def test_playouts_finish_with_a_counted_board(seed):
    position = Position(9)
    b, meta = position.b.copy(), position.meta.copy()
    seq = np.empty(8 * 81 + 64, np.int64)
    length = po.run_playout(b, meta, position.cfg, np.array([seed], np.int64), seq, 0)
    assert 30 < length < 3 * 81
    assert meta[bd.PASSES] >= 2
    # no empty point is left that either side could play without filling its own eye
    for i in range(int(meta[bd.N_EMPTY])):
        p = b[bd.EMPTIES, i]
        assert not bd.is_playable(b, meta, position.cfg, p, meta[bd.TO_MOVE]) or pt.is_bad_self_atari(b, position.cfg, p, meta[bd.TO_MOVE])


def test_priors_favour_captures_and_shapes_and_punish_empty_edges_and_self_atari():
    position = _after(
        position_from_rows(
            [
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . X . . .",
                ". . . . X O X . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
            ]
        ),
        "F5",
        "white",
    )
    b, meta, cfg = position.b, position.meta, position.cfg

    def value(gtp: str) -> float:
        n, w = prior_knowledge(b, meta, cfg, _at(position, gtp), bd.BLACK)
        return w / n

    assert value("F4") > 0.7  # captures the white stone
    assert value("A1") < 0.3  # empty first line
    assert value("C7") == pytest.approx(0.5)  # nothing known
    assert value("F4") > value("E4") > value("C7")  # shape near the last move beats nothing


LADDER = [
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . X . . . . .",
    ". . X O . . . . .",
    ". . . . X . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
]


def _with_stone(rows: list[str], gtp: str, stone: str) -> list[str]:
    col = "ABCDEFGHJ".index(gtp[0])
    row = len(rows) - int(gtp[1:])
    cells = rows[row].split()
    cells[col] = stone
    return [*rows[:row], " ".join(cells), *rows[row + 1 :]]


def _ladder_after(rows: list[str], chase: str) -> bool:
    """Black ataris the white stone on D4 at `chase`: does the ladder that follows capture it?"""
    position = position_from_rows(rows, to_move="black", komi=7.0)
    b, meta = position.b.copy(), position.meta.copy()
    bd.play(b, meta, position.cfg, _at(position, chase), bd.BLACK)
    stone = _at(position, "D4")
    assert bd.in_atari(b, b[bd.GROUP, stone])
    before = b.copy()
    captured = pt.ladder_captures(b, meta, position.cfg, stone)
    assert np.array_equal(b, before)  # read on copies
    return bool(captured)


def test_a_ladder_captures_unless_a_stone_on_its_path_breaks_it():
    assert _ladder_after(LADDER, "D3")  # runs up and right to the edge
    assert not _ladder_after(_with_stone(LADDER, "H8", "O"), "D3")  # a white stone on the way
    assert _ladder_after(_with_stone(LADDER, "H8", "O"), "E4")  # the other way still works
    assert not _ladder_after(_with_stone(LADDER, "F6", "O"), "D3")


def test_priors_know_ladders_when_asked():
    position = _after(position_from_rows(LADDER, komi=7.0), "E3", "black")
    b, meta, cfg = position.b, position.meta, position.cfg

    def value(gtp: str, ladders: bool) -> float:
        n, w = prior_knowledge(b, meta, cfg, _at(position, gtp), bd.BLACK, False, ladders)
        return w / n

    assert value("D3", True) > value("D3", False)  # the atari that starts a working ladder
    chased = position_from_rows(LADDER, komi=7.0)
    eb, emeta, ecfg = chased.b.copy(), chased.meta.copy(), chased.cfg
    bd.play(eb, emeta, ecfg, _at(chased, "D3"), bd.BLACK)  # White to move, D4 in atari
    n_read, w_read = prior_knowledge(eb, emeta, ecfg, _at(chased, "E4"), bd.WHITE, False, True)
    n_plain, w_plain = prior_knowledge(eb, emeta, ecfg, _at(chased, "E4"), bd.WHITE, False, False)
    assert w_read / n_read < 0.5 < w_plain / n_plain  # running into a working ladder is no escape


def test_the_opening_prior_keeps_first_moves_off_the_first_two_lines():
    empty = Position(9, komi=7.0)
    b, meta, cfg = empty.b, empty.meta, empty.cfg

    def value(gtp: str, opening_lines: bool) -> float:
        n, w = prior_knowledge(b, meta, cfg, _at(empty, gtp), bd.BLACK, opening_lines)
        return w / n

    assert value("B5", True) < 0.2 < value("C5", True) == value("E5", True) == pytest.approx(0.5)
    assert value("B5", False) == pytest.approx(0.5)  # without it, the second line is like any point
    # ten stones on a 9x9 board end the opening
    rows = [". . . . . . . . .", ". X O X O X . . .", *[". . . . . . . . ."] * 5, ". X O X O X . . .", ". . . . . . . . ."]
    later = position_from_rows(rows, komi=7.0)
    n, w = prior_knowledge(later.b, later.meta, later.cfg, _at(later, "E5"), bd.BLACK, True)
    n2, w2 = prior_knowledge(later.b, later.meta, later.cfg, _at(later, "H5"), bd.BLACK, True)
    assert w / n == pytest.approx(w2 / n2)
