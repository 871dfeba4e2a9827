"""A position's score as people read it, the same in the app, the exports and the terminal.

Chess, White's view: `+0.41`, `-1.20`, a mate with its distance `#3` (White mates in 3) or `#-3`
(Black mates in 3), `checkmate`, `stalemate`, `draw` for a finished game. Go, for the leader:
`B+2.5`, `W+0.5`, `even`. A normalised value alone (E of SCORING.md, ±1000 for any mate) cannot
say the distance: give the evaluation whenever there is one.
"""

from __future__ import annotations

from typing import assert_never

from reviewer.core.analysis import Evaluation
from reviewer.core.games.support import game_support
from reviewer.core.gametree import GameKind

__all__ = ["MATE_VALUE", "score_text", "value_text"]

MATE_VALUE = 1000  # |E| of a mate, SCORING.md


def score_text(kind: GameKind | str, evaluation: Evaluation | None, fallback: float | None = None) -> str:
    """The evaluation's root score as text; `fallback` (E or S) when it has none; '?' for nothing."""
    if evaluation is not None:
        if evaluation.terminal == "checkmate":
            return "checkmate"
        if evaluation.terminal is not None:
            return evaluation.terminal
        if evaluation.mate_first is not None and evaluation.mate_first != 0:
            return f"#{evaluation.mate_first}"
        value = getattr(evaluation, game_support(kind).scores.field)
        if value is not None:
            return value_text(kind, float(value))
    return value_text(kind, fallback)


def value_text(kind: GameKind | str, value: float | None) -> str:
    """E (chess, centipawns, White's view) or S (Go, points, Black's view) as text. A chess value at
    the mate bound has lost its distance: `#+` / `#-` (mate, distance unknown)."""
    if value is None:
        return "?"
    style = game_support(kind).scores.style
    if style == "pawns":
        if abs(value) >= MATE_VALUE:
            return "#+" if value > 0 else "#-"
        return f"{value / 100:+.2f}"
    if style == "lead":
        if abs(value) < 0.05:
            return "even"
        return f"B+{value:.1f}" if value > 0 else f"W+{-value:.1f}"
    assert_never(style)
