"""What the board shows of the engine's view: arrows for chess candidates, KaTrain-style marks for Go."""

from __future__ import annotations

from typing import Any

import chess

from reviewer.core.analysis import Evaluation
from reviewer.core.gametree import Game, Node, point_from_gtp

BEST_ARROW = "#1f6fd1d0"  # #RRGGBBAA: the engine's choice
CANDIDATE_ARROW = "#1f6fd160"  # other candidate moves, fainter


def chess_arrows(board: chess.Board, evaluation: Evaluation | None, arrow_type: Any) -> list[Any]:
    """The engine's candidate moves in the position on the board, best first and widest."""
    if evaluation is None or board.is_game_over():
        return []
    moves: list[tuple[int, str]] = [(c.order, c.move) for c in evaluation.candidates[:3]]
    if not moves and evaluation.best_move:
        moves = [(0, evaluation.best_move)]
    arrows = []
    for order, san in sorted(moves, reverse=True):  # the best arrow is drawn last, on top
        try:
            move = board.parse_san(san)
        except ValueError:
            continue
        colour = BEST_ARROW if order == 0 else CANDIDATE_ARROW
        arrows.append(arrow_type(move.from_square, move.to_square, colour, 0.2 if order == 0 else 0.11))
    return arrows


def go_candidate_marks(game: Game, to_move: str, evaluation: Evaluation | None, mark_type: Any) -> list[Any]:
    """KaTrain-style marks for the engine's candidate moves, with the points each one loses."""
    if evaluation is None or not evaluation.candidates:
        return []
    sign = 1 if to_move == "black" else -1
    root_lead = evaluation.score_lead_black
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
        loss = None
        if root_lead is not None and candidate.score_lead_black is not None:
            loss = max(0.0, sign * (root_lead - candidate.score_lead_black))
        marks.append(mark_type(point, loss, candidate.visits, candidate.order == 0, candidate.order))
    return marks


def mainline_anchor(node: Node) -> int:
    """The ply of the main-line position that `node` branches from (itself on the main line)."""
    current: Node | None = node
    while current is not None and not current.is_mainline:
        current = current.parent
    return current.ply if current is not None else 0
