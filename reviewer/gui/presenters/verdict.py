"""The sentence about a judged move in the comment pane, consistent with its label.

`(+0.41 → -0.62) Mistake. Nf3 was best. 103 cp lost.` A best (or book) move is never said to
have lost anything: its label comes from the rule "the engine's own choice is never flagged"
(SCORING.md), and the score after it may still differ from the score before when the engine,
searching the next position afresh, sees further. That difference is named for what it is.
Mates keep their distance (`#3`, `#-3`).
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.core.analysis import Evaluation
from reviewer.core.games import game_support
from reviewer.core.score_text import score_text
from reviewer.core.scoring import FLAGGED_JUDGEMENTS, MoveAssessment

FLAGGED = FLAGGED_JUDGEMENTS
TITLES = {
    "book": "Book move",
    "best": "Best move",
    "good": "Good move",
    "inaccuracy": "Inaccuracy",
    "mistake": "Mistake",
    "blunder": "Blunder",
}


@dataclass(frozen=True)
class Verdict:
    change: str  # '(+0.41 → -0.62)'
    title: str  # 'Mistake'
    best: str | None  # the move named as best (flagged moves only)
    detail: str  # '103 cp lost.' / '2.5 points lost.' / the shift after a best move / ''


def _loss_text(kind: str, loss: float) -> str:
    scores = game_support(kind).scores
    return f"{loss:.{scores.loss_decimals}f} {scores.unit} lost."


def verdict(kind: str, move: MoveAssessment, before: Evaluation | None, after: Evaluation | None) -> Verdict | None:
    """What to say about a judged move (None for a move without a judgement)."""
    if move.judgement is None:
        return None
    change = f"({score_text(kind, before, move.eval_before)} → {score_text(kind, after, move.eval_after)})"
    title = TITLES.get(move.judgement, move.judgement.title())
    best = move.best if move.judgement in FLAGGED and move.best and move.best != move.move else None
    loss = move.loss if move.loss is not None else 0.0
    scores = game_support(kind).scores
    detail = ""
    if move.judgement in ("best", "book"):
        if loss >= scores.shift_worth_saying:
            shown = f"{loss / scores.per_shown_unit:.{scores.shown_decimals}f}"
            shift = shown if scores.style == "pawns" else f"{shown} {scores.unit}"
            chosen = "the engine's own choice" if move.judgement == "best" else "a book move"
            detail = f"Still {chosen}: searching the next position, the engine sees {shift} more for the opponent."
    elif loss >= 0.5 * 10 ** -scores.loss_decimals:  # a loss that rounds to nothing is not named
        detail = _loss_text(kind, loss)
    return Verdict(change, title, best, detail)
