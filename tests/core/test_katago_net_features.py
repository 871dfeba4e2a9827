"""KataGo's input features built in Python (no KataGo needed): each test pins what fillRowV7 gives."""

from __future__ import annotations

from textwrap import dedent

import numpy as np
import pytest

from reviewer.core.engines.base import EngineError
from reviewer.core.engines.katago import QueryPlan, Segment
from reviewer.core.engines.katago_net.features import NetInputs, inputs_after_moves, inputs_for_turns
from reviewer.core.gametree import Color, Point


def plan_of(
    diagram: str,
    rules: str = "chinese",
    komi: float = 7.5,
    to_move: Color = "black",
    moves: list[tuple[Color, tuple[int, int] | None]] | None = None,
) -> QueryPlan:
    """A one-segment plan from a diagram drawn top row first (X black, O white). Moves are given as
    (colour, (x, y)) in the diagram's coordinates (y = 0 at the top), None for a pass."""
    rows = [line.split() for line in dedent(diagram).strip().splitlines()]
    height, width = len(rows), len(rows[0])

    def point(xy: tuple[int, int]) -> Point:
        return (height - 1 - xy[1], xy[0])

    stones: dict[Point, Color] = {}
    for y, cells in enumerate(rows):
        for x, cell in enumerate(cells):
            if cell in "XO":
                stones[point((x, y))] = "black" if cell == "X" else "white"
    segment_moves = [(color, None if xy is None else point(xy)) for color, xy in moves or []]
    return QueryPlan(width, height, rules, komi, [Segment(stones, to_move, segment_moves)], {})


def empty(size: int) -> str:
    return "\n".join(" ".join("." * size) for _ in range(size))


def marked(inputs: NetInputs, channel: int, row: int = 0) -> set[tuple[int, int]]:
    """The (x, y) points where a channel is set."""
    ys, xs = np.nonzero(inputs.spatial[row, :, :, channel])
    return {(int(x), int(y)) for x, y in zip(xs, ys)}


def test_stones_and_liberty_channels_follow_the_side_to_move() -> None:
    diagram = """
        . X O . .
        . O . . .
        . . . X X
        . . O . .
        . . . . .
    """
    for to_move in ("black", "white"):
        inputs = inputs_for_turns(plan_of(diagram, to_move=to_move), 0, [0])
        black, white = {(1, 0), (3, 2), (4, 2)}, {(2, 0), (1, 1), (2, 3)}
        assert marked(inputs, 1) == (black if to_move == "black" else white)
        assert marked(inputs, 2) == (white if to_move == "black" else black)
        assert marked(inputs, 3) == {(1, 0)}  # one liberty
        assert marked(inputs, 4) == {(2, 0)}  # two
        assert marked(inputs, 5) == {(1, 1)}  # three; the 5-liberty chain and the 4-liberty stone: none
        assert inputs.spatial[0, :, :, 0].all()
        assert inputs.to_move == [to_move]
    assert inputs.legal[0, 1 * 5 + 1] == np.False_  # occupied (policy index y * width + x)
    assert inputs.legal[0, -1]


def test_a_ko_capture_bans_the_recapture_for_one_turn() -> None:
    diagram = """
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .
    """
    moves: list[tuple[Color, tuple[int, int] | None]] = [("black", (2, 1)), ("white", (4, 4)), ("black", (4, 3))]
    inputs = inputs_for_turns(plan_of(diagram, moves=moves), 0, [0, 1, 3])
    assert marked(inputs, 6, 0) == set()
    assert marked(inputs, 6, 1) == {(1, 1)}  # the captured stone's point
    assert not inputs.legal[1, 1 * 5 + 1]
    assert inputs.to_move == ["black", "white", "white"]
    assert marked(inputs, 6, 2) == set()  # after a move elsewhere the recapture is legal again
    assert inputs.legal[2, 1 * 5 + 1]


LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . X . .
    . . . . X O . . .
    . . . . . X . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def with_stones(diagram: str, stones: dict[tuple[int, int], str]) -> str:
    rows = [line.split() for line in dedent(diagram).strip().splitlines()]
    for (x, y), stone in stones.items():
        rows[y][x] = stone
    return "\n".join(" ".join(row) for row in rows)


def test_a_two_liberty_chain_that_ladders_shows_the_working_ataris() -> None:
    inputs = inputs_for_turns(plan_of(LADDER, to_move="black"), 0, [0])
    assert marked(inputs, 14) == {(5, 5)}
    assert marked(inputs, 15) == marked(inputs, 16) == {(5, 5)}  # no history at the root: the same board
    assert marked(inputs, 17) == {(6, 5), (5, 4)}  # either atari runs the stone into an edge
    # White to move: still laddered (channel 14 shows both colours), but 17 only shows the opponent's chains.
    inputs = inputs_for_turns(plan_of(LADDER, to_move="white"), 0, [0])
    assert marked(inputs, 14) == {(5, 5)}
    assert marked(inputs, 17) == set()


def test_ladder_breakers_save_the_chain() -> None:
    one_breaker = with_stones(LADDER, {(2, 2): "O"})  # on the way to the top-left corner
    inputs = inputs_for_turns(plan_of(one_breaker), 0, [0])
    assert marked(inputs, 14) == {(5, 5)}
    assert marked(inputs, 17) == {(5, 4)}  # only the atari that chases it to the bottom right still works
    both_breakers = with_stones(LADDER, {(2, 2): "O", (7, 7): "O"})
    inputs = inputs_for_turns(plan_of(both_breakers), 0, [0])
    assert marked(inputs, 14) == set()
    assert marked(inputs, 17) == set()


def test_a_stone_in_atari_is_laddered_unless_a_breaker_waits() -> None:
    in_atari = with_stones(LADDER, {(6, 5): "X"})
    inputs = inputs_for_turns(plan_of(in_atari), 0, [0])
    assert marked(inputs, 14) == {(5, 5)}
    assert marked(inputs, 17) == set()  # working moves are shown for 2-liberty chains only
    inputs = inputs_for_turns(plan_of(with_stones(in_atari, {(2, 2): "O"})), 0, [0])
    assert marked(inputs, 14) == set()


AREA = """
    . X . X .
    X X X X X
    . . . . .
    . . O . .
    . . . . .
"""


def test_area_channels_show_pass_alive_area_under_area_scoring_only() -> None:
    top = {(x, y) for x in range(5) for y in range(2)}
    inputs = inputs_for_turns(plan_of(AREA, rules="chinese", to_move="black"), 0, [0])
    # Black's chain has three eyes: pass-alive with its territory. The bottom holds a White stone, so it
    # is nobody's; the lone White stone counts as White's.
    assert marked(inputs, 18) == top
    assert marked(inputs, 19) == {(2, 3)}
    inputs = inputs_for_turns(plan_of(AREA, rules="chinese", to_move="white"), 0, [0])
    assert marked(inputs, 18) == {(2, 3)}
    assert marked(inputs, 19) == top
    without_white = with_stones(AREA, {(2, 3): "."})
    inputs = inputs_for_turns(plan_of(without_white, rules="chinese"), 0, [0])
    assert marked(inputs, 18) == {(x, y) for x in range(5) for y in range(5)}  # a region bordered by Black only
    lone_stone = with_stones(empty(5), {(2, 2): "X"})  # not pass-alive, but the only colour around
    inputs = inputs_for_turns(plan_of(lone_stone, rules="chinese", to_move="white"), 0, [0])
    assert marked(inputs, 19) == {(x, y) for x in range(5) for y in range(5)}
    assert marked(inputs, 18) == set()
    inputs = inputs_for_turns(plan_of(AREA, rules="japanese"), 0, [0])
    assert not inputs.spatial[0, :, :, 18:20].any()


def test_japanese_komi_includes_the_point_for_each_stone_played() -> None:
    moves: list[tuple[Color, tuple[int, int] | None]] = [("black", (15, 3)), ("white", (3, 15))]
    inputs = inputs_for_turns(plan_of(empty(19), rules="japanese", komi=6.5, moves=moves), 0, [0, 1, 2])
    globals_ = inputs.global_inputs
    assert globals_[0, 5] == np.float32(-6.5) / np.float32(20)  # Black to move: komi against
    assert globals_[1, 5] == np.float32(7.5 / 20)  # White to move after Black's extra stone
    assert globals_[2, 5] == np.float32(-6.5) / np.float32(20)
    assert list(globals_[0, 6:12]) == [0, 0, 0, 1, 1, 0]  # simple ko, no suicide, territory, seki tax
    assert not globals_[:, 18].any()  # no parity wave under territory scoring
    assert not globals_[:, [0, 1, 2, 3, 4, 12, 13, 14, 15, 16, 17]].any()
    assert inputs.no_result_possible


@pytest.mark.parametrize(
    ("rules", "expected"),
    [("chinese", (0.5 + 2) / 20), ("aga", (0.5 + 1) / 20), ("japanese", (0.5 + 2) / 20), ("tromp-taylor", 0.5 / 20)],
)
def test_handicap_bonus_per_rules(rules: str, expected: float) -> None:
    """Two handicap stones: Chinese gives White N, AGA N-1; under Japanese rules the stones count as moves."""
    diagram = with_stones(empty(19), {(15, 3): "X", (3, 15): "X"})
    inputs = inputs_for_turns(plan_of(diagram, rules=rules, komi=0.5, to_move="white"), 0, [0])
    assert inputs.global_inputs[0, 5] == pytest.approx(expected, abs=1e-7)


def test_black_moves_in_a_row_at_the_start_count_as_handicap() -> None:
    moves: list[tuple[Color, tuple[int, int] | None]] = [("black", (3, 3)), ("black", (15, 15)), ("black", (3, 15))]
    inputs = inputs_for_turns(plan_of(empty(19), rules="chinese", komi=7.5, moves=moves), 0, [3])
    assert inputs.to_move == ["white"]
    assert inputs.global_inputs[0, 5] == pytest.approx((7.5 + 3) / 20)


@pytest.mark.parametrize(
    ("size", "komi", "to_move", "wave"),
    [
        (19, 7.5, "black", -0.5),
        (19, 7.5, "white", 0.5),
        (19, 6.5, "black", 0.5),
        (19, 5.5, "black", -0.5),
        (19, 7.0, "black", 0.0),
        (4, 7.5, "black", 0.5),  # even board area: the drawable komis are even
        (4, 7.5, "white", -0.5),
        (4, 7.0, "white", 0.0),
    ],
)
def test_komi_parity_wave(size: int, komi: float, to_move: Color, wave: float) -> None:
    inputs = inputs_for_turns(plan_of(empty(size), rules="chinese", komi=komi, to_move=to_move), 0, [0])
    assert inputs.global_inputs[0, 18] == wave


def test_komi_is_clipped_to_the_board_area_plus_twenty() -> None:
    inputs = inputs_for_turns(plan_of(empty(5), rules="chinese", komi=150.0, to_move="white"), 0, [0])
    assert inputs.global_inputs[0, 5] == np.float32(45 / 20)


KO_AND_SUICIDE = """
    . X O . . . . . .
    O O . . . . . . .
    . . . . . . . . .
    . . . X O . . . .
    . . X . X O . . .
    . . . X O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_superko_bans_and_suicide_legality_follow_the_rules() -> None:
    """White takes the ko, both pass (which lifts the simple ko ban); Black's retake would repeat the
    starting position, which positional or situational superko forbids."""
    moves: list[tuple[Color, tuple[int, int] | None]] = [("white", (3, 4)), ("black", None), ("white", None)]
    retake = 4 * 9 + 4
    for rules, banned in (("tromp-taylor", True), ("aga", True), ("chinese", False), ("japanese", False)):
        inputs = inputs_for_turns(plan_of(KO_AND_SUICIDE, rules=rules, to_move="white", moves=moves), 0, [1, 3])
        assert marked(inputs, 6, 0) == {(4, 4)}  # the simple ko ban right after the capture
        assert marked(inputs, 6, 1) == ({(4, 4)} if banned else set())
        assert inputs.legal[1, retake] == (not banned)
        # Black at the corner would take its own two-stone chain off the board: legal only with suicide.
        assert inputs.legal[1, 0] == (rules == "tromp-taylor")
        assert inputs.no_result_possible == (rules in ("chinese", "japanese"))


def test_a_second_move_by_the_same_player_clears_the_history_like_katago() -> None:
    """White takes the ko and passes at once: KataGo's analysis engine starts a new history at a move by
    the player who moved last, so the position before White's capture is forgotten and Black may retake."""
    moves: list[tuple[Color, tuple[int, int] | None]] = [("white", (3, 4)), ("white", None)]
    inputs = inputs_for_turns(plan_of(KO_AND_SUICIDE, rules="tromp-taylor", to_move="white", moves=moves), 0, [2])
    assert inputs.to_move == ["black"]
    assert marked(inputs, 6) == set()
    assert inputs.legal[0, 4 * 9 + 4]


def test_a_pass_would_end_the_phase_only_shows_under_territory_scoring() -> None:
    moves: list[tuple[Color, tuple[int, int] | None]] = [("black", (2, 2)), ("white", None)]
    japanese = inputs_for_turns(plan_of(empty(9), rules="japanese", komi=6.5, moves=moves), 0, [1, 2])
    assert list(japanese.global_inputs[:, 14]) == [0.0, 1.0]
    chinese = inputs_for_turns(plan_of(empty(9), rules="chinese", moves=moves), 0, [1, 2])
    assert list(chinese.global_inputs[:, 14]) == [0.0, 0.0]  # conservativePass hides a game-ending pass


def test_turns_come_back_in_the_order_asked() -> None:
    moves: list[tuple[Color, tuple[int, int] | None]] = [("black", (2, 2)), ("white", (6, 6))]
    inputs = inputs_for_turns(plan_of(empty(9), moves=moves), 0, [2, 0, 1])
    assert inputs.to_move == ["black", "black", "white"]
    assert marked(inputs, 1, 0) == {(2, 2)}  # Black to move at turn 2: its stone is "own"
    assert marked(inputs, 2, 0) == {(6, 6)}
    assert marked(inputs, 1, 1) == set()
    assert inputs.spatial.shape == (3, 9, 9, 22)
    assert inputs.global_inputs.shape == (3, 19)
    assert inputs.legal.shape == (3, 82)
    with pytest.raises(ValueError):
        inputs_for_turns(plan_of(empty(9), moves=moves), 0, [3])


def test_moves_katago_refuses_raise_but_a_ko_retake_is_replayed() -> None:
    occupied: list[tuple[Color, tuple[int, int] | None]] = [("black", (2, 2)), ("white", (2, 2))]
    with pytest.raises(EngineError, match="KataGo refuses"):
        inputs_for_turns(plan_of(empty(9), moves=occupied), 0, [0])
    diagram = """
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .
    """
    retake: list[tuple[Color, tuple[int, int] | None]] = [("black", (2, 1)), ("white", (1, 1))]
    inputs = inputs_for_turns(plan_of(diagram, moves=retake), 0, [2])
    assert (1, 1) in marked(inputs, 2)  # White's retaken stone is on the board (Black to move: opponent)
    assert (2, 1) not in marked(inputs, 1)


# -- one move below the root: KataGo's second visit -------------------------------------------------


def test_the_second_visit_sees_the_move_since_the_root_and_the_roots_ladders() -> None:
    plan = plan_of(LADDER, to_move="black")
    height = plan.height
    root = inputs_for_turns(plan, 0, [0])
    # Black plays far away: the child's history is that move (by its opponent, channel 9), and its
    # previous boards are the root's board, whose ladder (channels 15 and 16) the child keeps too.
    (child_move,) = [(0, (height - 1 - 0, 8))]  # (turn, point): x = 8, y = 0
    child = inputs_after_moves(plan, 0, [child_move])
    assert child.to_move == ["white"]
    assert marked(child, 9) == {(8, 0)}
    assert marked(child, 1) == marked(root, 2)  # White's stones are now the mover's
    assert marked(child, 15) == marked(child, 16) == marked(root, 14) == {(5, 5)}
    assert child.global_inputs[0, 0] == 0.0
    # Black ataris the ladder stone: laddered now and before, and the atari is the last move.
    atari = inputs_after_moves(plan, 0, [(0, (height - 1 - 5, 6))])
    assert marked(atari, 9) == {(6, 5)}
    assert marked(atari, 14) == {(5, 5)} and marked(atari, 15) == {(5, 5)}
    # The same positions evaluated as roots of their own queries have no history at all.
    as_root = inputs_for_turns(plan_of(LADDER, to_move="black", moves=[("black", (8, 0))]), 0, [1])
    assert marked(as_root, 9) == set()
    np.testing.assert_array_equal(as_root.spatial[..., :9], child.spatial[..., :9])


def test_a_pass_below_the_root_is_a_global_input_and_may_end_the_game() -> None:
    japanese = plan_of(empty(9), rules="japanese", komi=6.5, moves=[("black", (2, 2))])
    child = inputs_after_moves(japanese, 0, [(1, None)])  # White passes after Black's move
    assert child.to_move == ["black"] and child.global_inputs[0, 0] == 1.0
    assert marked(child, 9) == set()
    assert child.global_inputs[0, 14] == 1.0  # a pass by Black now would end the phase
    # Chinese rules: a second pass would end the game; below the root only a friendly pass or a
    # losing one is hidden (with its history), and this one is friendly.
    chinese = plan_of(empty(9), rules="chinese", moves=[("black", (2, 2))])
    child = inputs_after_moves(chinese, 0, [(1, None)])
    assert child.global_inputs[0, 14] == 0.0 and child.global_inputs[0, 0] == 0.0
    # Tromp-Taylor has no friendly pass: the pass is hidden only when the game would end in a loss
    # for the player to move (KataGo's passing hack). White has 1 point of area against Black's 1.
    moves: list[tuple[Color, tuple[int, int] | None]] = [("black", (2, 2)), ("white", (6, 6))]
    for komi, hidden in ((7.5, False), (-7.5, True)):
        tromp = plan_of(empty(9), rules="tromp-taylor", komi=komi, moves=moves)
        child = inputs_after_moves(tromp, 0, [(2, None)])  # Black passes: White to move
        assert child.to_move == ["white"]
        assert child.global_inputs[0, 14] == (0.0 if hidden else 1.0)
        assert child.global_inputs[0, 0] == (0.0 if hidden else 1.0)
