"""What the board shows of the engine's view: arrows for the candidates of a game whose moves go
from square to square (chess), KaTrain-style marks for Go."""

from __future__ import annotations

from typing import Any

from reviewer.core.analysis import Evaluation
from reviewer.core.games import game_support
from reviewer.core.gametree import Game, Node, point_from_gtp
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.text import visits_text

BEST_ARROW = "#1f6fd1d0"  # #RRGGBBAA: the engine's choice
CANDIDATE_ARROW = "#1f6fd160"  # other candidate moves, fainter


def candidate_arrows(position: object, evaluation: Evaluation | None, arrow_type: Any) -> list[Any]:
    """The engine's candidate moves in `position` (of the rules of the evaluation's game), best
    first and widest; none where the game's moves are not from square to square."""
    if evaluation is None:
        return []
    support = game_support(evaluation.kind)
    squares = support.square_moves
    if squares is None or support.is_over(position):
        return []
    moves: list[tuple[int, str]] = [(c.order, c.move) for c in evaluation.candidates[:3]]
    if not moves and evaluation.best_move:
        moves = [(0, evaluation.best_move)]
    arrows = []
    for order, move in sorted(moves, reverse=True):  # the best arrow is drawn last, on top
        for start, end in squares.line(position, (move,), 1):
            colour = BEST_ARROW if order == 0 else CANDIDATE_ARROW
            arrows.append(arrow_type(start, end, colour, 0.2 if order == 0 else 0.11))
    return arrows


def candidate_losses(evaluation: Evaluation | None, to_move: str) -> dict[str, float]:
    """What each of the engine's candidates gives away, from the side to move, in the search that
    made `evaluation`: against the engine's verdict on the position (KaTrain's points lost; for
    chess, centipawns), or against its first candidate when it gave no verdict. Every view of a
    candidate (board labels, the comment, the engine lines) shows this figure, through `loss_text`."""
    if evaluation is None or not evaluation.candidates:
        return {}
    shown_as = presentation(evaluation.kind)
    sign = 1 if to_move == shown_as.first_player else -1
    first = min(evaluation.candidates, key=lambda c: c.order)
    reference = getattr(evaluation, shown_as.candidate_score)
    if reference is None or evaluation.mate_first is not None:
        reference = getattr(first, shown_as.candidate_score)
    losses: dict[str, float] = {}
    if reference is None:
        return losses
    for candidate in evaluation.candidates:
        value = getattr(candidate, shown_as.candidate_score)
        if value is None or candidate.move in losses:
            continue
        losses[candidate.move] = max(0.0, sign * float(reference - value))
    return losses


def loss_text(kind: str, loss: float) -> str:
    """A candidate's loss as every view writes it: '−1.1' (points), '−0.35' (pawns), '0.0' when
    nothing is lost at that rounding; whole points from 10 on (the Go board's small labels)."""
    shown_as = presentation(kind)
    value = loss / shown_as.loss_per_unit
    decimals = 0 if game_support(kind).scores.style == "lead" and abs(value) >= 9.95 else shown_as.loss_decimals
    text = f"{abs(value):.{decimals}f}"
    if float(text) == 0:
        return text
    return f"−{text}" if value > 0 else f"+{text}"  # a candidate the search now finds better


def search_text(evaluation: Evaluation, source: str) -> str:
    """Which search the figures come from: 'review · 32 visits', 'live · depth 18'."""
    if game_support(evaluation.kind).work_unit == "nodes":
        work = f"depth {evaluation.depth}" if evaluation.depth else (f"{evaluation.nodes:,} nodes" if evaluation.nodes else "")
    else:
        visits = evaluation.nodes or sum(c.visits or 0 for c in evaluation.candidates)
        work = visits_text(visits) if visits else ""
    return f"{source} · {work}" if work else source


def go_candidate_marks(game: Game, to_move: str, evaluation: Evaluation | None, mark_type: Any) -> list[Any]:
    """KaTrain-style marks for the engine's candidate moves, with the points each one loses."""
    if evaluation is None or not evaluation.candidates:
        return []
    losses = candidate_losses(evaluation, to_move)
    most_visits = max((c.visits or 0 for c in evaluation.candidates), default=0)
    marks = []
    for candidate in evaluation.candidates:
        if candidate.move.lower() == "pass":
            continue
        if candidate.order > 0 and candidate.visits is not None and candidate.visits < max(2, 0.02 * most_visits):
            continue  # too few visits for its value to mean anything
        try:
            point = point_from_gtp(candidate.move, game.board_height)
        except ValueError:
            continue
        loss = losses.get(candidate.move)
        marks.append(mark_type(point, loss, candidate.visits, candidate.order == 0, candidate.order))
    return marks


def mainline_anchor(node: Node) -> int:
    """The ply of the main-line position that `node` branches from (itself on the main line)."""
    current: Node | None = node
    while current is not None and not current.is_mainline:
        current = current.parent
    return current.ply if current is not None else 0
