"""A tsumego frame: the empty rest of the board around a corner or side problem filled with stones,
so that an engine reads the problem and not the open board (the idea of KaTrain's and LizGoban's
`tsumego_frame`; this is Reviewer's own filling).

The problem's region is the rectangle given (a region of interest) or the stones' bounding box and
`MARGIN` lines more, clamped to the board. Outside it, the attacker (the side whose stones stand
farther from the edges: the one surrounding) gets a solid wall next to the region and the area
beyond, then one empty line, then the defender the far side of the board, the two areas about
equal; both areas keep empty points on a sparse lattice, their eyes, so that neither frame group
can die and only the problem decides the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.core.games.go import GoBoard
from reviewer.core.gametree import Color, Game, Node, Point, other_color

__all__ = ["MARGIN", "FrameRefused", "FramedProblem", "frame_position", "framed_game", "problem_region", "tsumego_frame"]

MARGIN = 2  # empty lines left around a problem's stones when no region is given
MOST_AREA_SHARE = 0.5  # a problem over more of the board than this is no corner or side problem

Region = tuple[Point, Point]  # (lowest row, lowest col), (highest row, highest col)


class FrameRefused(ValueError):
    """The position is not one a frame can be put around; the message says why."""


@dataclass(frozen=True)
class FramedProblem:
    region: Region
    attacker: Color
    black: tuple[Point, ...]  # the frame's stones, added to the problem's
    white: tuple[Point, ...]
    komi: float  # Black's frame area less White's (stones and eyes): outside the region the game is even


def _box(region: Region) -> Region:
    (row_a, col_a), (row_b, col_b) = region
    return (min(row_a, row_b), min(col_a, col_b)), (max(row_a, row_b), max(col_a, col_b))


def _distance(point: Point, region: Region) -> int:
    """Chebyshev distance from the region (0 inside)."""
    (low_row, low_col), (high_row, high_col) = region
    rows = max(low_row - point[0], 0, point[0] - high_row)
    cols = max(low_col - point[1], 0, point[1] - high_col)
    return max(rows, cols)


def problem_region(width: int, height: int, stones: set[Point], margin: int = MARGIN) -> Region:
    if not stones:
        raise FrameRefused("the board has no stones: there is no problem to frame")
    rows, cols = [point[0] for point in stones], [point[1] for point in stones]
    return ((max(0, min(rows) - margin), max(0, min(cols) - margin)),
            (min(height - 1, max(rows) + margin), min(width - 1, max(cols) + margin)))


def _edge_distance(point: Point, width: int, height: int) -> int:
    return min(point[0], point[1], height - 1 - point[0], width - 1 - point[1])


def _attacker(black: set[Point], white: set[Point], width: int, height: int, to_move: Color) -> Color:
    def mean(points: set[Point]) -> float:
        return sum(_edge_distance(point, width, height) for point in points) / len(points) if points else -1.0

    black_mean, white_mean = mean(black), mean(white)
    if black_mean == white_mean:
        return other_color(to_move)
    return "black" if black_mean > white_mean else "white"


def _is_eye(point: Point) -> bool:
    return point[0] % 3 == 1 and point[1] % 3 == 1


def tsumego_frame(
    width: int, height: int, black: set[Point], white: set[Point], to_move: Color, region: Region | None = None
) -> FramedProblem:
    """The frame's stones for the problem; FrameRefused when the problem's stones are not all in the
    region, or when the region is too much of the board for a corner or side problem."""
    stones = black | white
    box = _box(region) if region is not None else problem_region(width, height, stones)
    outside_stones = [point for point in stones if _distance(point, box) > 0]
    if outside_stones:
        raise FrameRefused(f"{len(outside_stones)} stone(s) stand outside the region: the frame would cover them")
    (low_row, low_col), (high_row, high_col) = box
    area = (high_row - low_row + 1) * (high_col - low_col + 1)
    if area > MOST_AREA_SHARE * width * height:
        raise FrameRefused(f"the problem covers {area} of the board's {width * height} points: a frame needs a corner"
                           " or side problem, with at least half the board free")
    attacker = _attacker(black, white, width, height, to_move)
    outside = [(row, col) for row in range(height) for col in range(width) if _distance((row, col), box) > 0]
    by_distance: dict[int, int] = {}
    for point in outside:
        by_distance[_distance(point, box)] = by_distance.get(_distance(point, box), 0) + 1
    # The attacker's lines up to `reach`, then one empty line, then the defender's: the reach that
    # splits the rest most evenly.
    distances = sorted(by_distance)

    def imbalance(reach: int) -> int:
        attacker_points = sum(by_distance[d] for d in distances if d <= reach)
        defender_points = sum(by_distance[d] for d in distances if d >= reach + 2)
        return abs(attacker_points - defender_points)

    reach = min(distances, key=lambda candidate: (imbalance(candidate), candidate))
    attacking: list[Point] = []
    defending: list[Point] = []
    attacker_area = defender_area = 0
    for point in outside:
        distance = _distance(point, box)
        if distance <= reach:
            attacker_area += 1
            if distance == 1 or not _is_eye(point):
                attacking.append(point)
        elif distance >= reach + 2:
            defender_area += 1
            if not _is_eye(point):
                defending.append(point)
    black_added, white_added = (attacking, defending) if attacker == "black" else (defending, attacking)
    _check_alive(width, height, black | set(black_added), white | set(white_added), set(black_added) | set(white_added))
    black_area, white_area = (attacker_area, defender_area) if attacker == "black" else (defender_area, attacker_area)
    return FramedProblem(box, attacker, tuple(sorted(black_added)), tuple(sorted(white_added)), float(black_area - white_area))


def framed_game(width: int, height: int, black: set[Point], white: set[Point], to_move: Color,
                region: Region | None = None) -> tuple[Game, FramedProblem]:
    """The problem with its frame as a new game to analyse (its region: the frame's)."""
    framed = tsumego_frame(width, height, black, white, to_move, region)
    game = Game(
        kind="go", board_width=width, board_height=height, komi=framed.komi,
        setup_black=sorted(black | set(framed.black)), setup_white=sorted(white | set(framed.white)),
        first_player=to_move, event="Tsumego frame",
    )
    if to_move == "white":
        game.root.properties["PL"] = ["W"]
    return game, framed


def _check_alive(width: int, height: int, black: set[Point], white: set[Point], added: set[Point]) -> None:
    """Every frame stone's group has a liberty (a frame that captures itself is a bug, not a frame)."""
    board = GoBoard(width, height, frozenset(black), frozenset(white))
    for point in added:
        if board.group_without_liberties(point) is not None:
            raise FrameRefused("the board is too small around this problem for a frame with liberties")


def frame_position(game: Game, node: Node, region: Region | None) -> tuple[Game, Region]:
    """The Go position after `node` framed (`tsumego_frame`) as a new game, and its region."""
    from reviewer.core.games.go import RULES

    position = RULES.after(game, node)
    framed, frame = framed_game(game.board_width, game.board_height, set(position.black), set(position.white),
                                position.to_move, region)
    framed.rules = game.rules
    return framed, frame.region
