"""Why a move lost (`reviewer.core.explain`), for the comment pane and the board: the text, the
line's first moves as arrows (a game whose moves go from square to square: chess) or numbered
marks (Go), and the squares or points it is about."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reviewer.core.explain import Why, explain_assessed
from reviewer.core.games import game_support
from reviewer.core.gametree import Game, Node, Point, point_from_gtp

if TYPE_CHECKING:
    from reviewer.core.services.review_model import ReviewModel

WHY_ARROW = "#d1301fd8"  # #RRGGBBAA: the opponent's reply that refutes the move
WHY_ARROW_LATER = "#d1301f70"  # the line's next moves, fainter
FOCUS_FILL = "#f08a1c80"  # squares the explanation is about, over either board theme
FOCUS_OUTLINE = "#e8491d"  # Go: the ring around each point the explanation is about
LINE_MOVES_SHOWN = 3
# Motifs whose line starts before the move (the win the player had): nothing to draw on the
# position after it.
LINE_BEFORE_THE_MOVE = ("missedWin", "missedMate", "slow")


def move_why(model: ReviewModel, node: Node) -> Why | None:
    """Why the main-line move that led to `node` lost; None for other moves and when the lines show nothing."""
    game = model.game
    if game is None or not node.is_mainline or node.ply < 1:
        return None
    move = model.move_assessment(node.ply)
    if move is None:
        return None
    why = explain_assessed(game, model.evaluations, move)
    return why if why is not None and why.text else None


@dataclass(frozen=True)
class SquareWhyMarks:
    arrows: tuple[tuple[int, int, str, float], ...]  # from, to, #RRGGBBAA, width as a share of a square
    focus: frozenset[int]


@dataclass(frozen=True)
class GoWhyMarks:
    line: tuple[tuple[Point, str, int], ...]  # point, colour of the stone, number in the line
    focus: frozenset[Point]


def _draws_the_line(why: Why) -> bool:
    return not any(motif in LINE_BEFORE_THE_MOVE for motif in why.motifs)


def square_why_marks(kind: str, position: object, why: Why | None) -> SquareWhyMarks:
    """Marks on `position` (of the game `kind`, whose moves go from square to square), the
    position after the move explained."""
    squares = game_support(kind).square_moves
    if why is None or squares is None or not _draws_the_line(why):
        return SquareWhyMarks((), frozenset())
    arrows = [
        (start, end, WHY_ARROW if index == 0 else WHY_ARROW_LATER, 0.2 if index == 0 else 0.12)
        for index, (start, end) in enumerate(squares.line(position, why.line, LINE_MOVES_SHOWN))
    ]
    focus = frozenset(square for name in why.focus if (square := squares.square(name)) is not None)
    return SquareWhyMarks(tuple(reversed(arrows)), focus)  # the first reply drawn last, on top


def go_why_marks(game: Game, to_move: str, why: Why | None) -> GoWhyMarks:
    if why is None:
        return GoWhyMarks((), frozenset())
    focus: set[Point] = set()
    for name in why.focus:
        try:
            point = point_from_gtp(name, game.board_height)
        except ValueError:
            continue
        if point is not None:
            focus.add(point)
    line: list[tuple[Point, str, int]] = []
    if _draws_the_line(why):
        color = to_move
        for number, name in enumerate(why.line[:LINE_MOVES_SHOWN], start=1):
            try:
                point = point_from_gtp(name, game.board_height)
            except ValueError:
                point = None
            if point is not None:
                line.append((point, color, number))
            color = "white" if color == "black" else "black"
    return GoWhyMarks(tuple(line), frozenset(focus))
