"""Why a move was a mistake, told from the engine's lines and the game's rules (docs/SCORING.md, "Why").

    why = explain_move(game, ply, evaluations.get(ply - 1), evaluations.get(ply))
    if why is not None:
        print(why.motifs, why.text, why.line, why.focus)

Each game has its explainer in this package (`EXPLAINERS`, keyed by the game's kind). An
explanation only says what the line it stands on shows: a line that ends early, a missing line or
an engine without maps gives a shorter explanation or none, never a bolder one.
"""

from __future__ import annotations

from collections.abc import Callable

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.explain.common import Why
from reviewer.core.gametree import Game, GameKind
from reviewer.core.scoring import MoveAssessment

__all__ = ["EXPLAINED_JUDGEMENTS", "Why", "explain_assessed", "explain_move"]

EXPLAINED_JUDGEMENTS = ("inaccuracy", "mistake", "blunder")

Explainer = Callable[[Game, int, Evaluation | None, Evaluation | None], Why | None]


def _explainers() -> dict[GameKind, Explainer]:
    from reviewer.core.explain.chess import explain_game_move as explain_chess
    from reviewer.core.explain.go import explain_game_move as explain_go

    return {"chess": explain_chess, "go": explain_go}


def explain_move(game: Game, ply: int, before: Evaluation | None, after: Evaluation | None) -> Why | None:
    """Why main-line move `ply` (1-based) lost, from the evaluations of the positions before and
    after it; None when the lines carry nothing to explain it with."""
    explainer = _explainers().get(game.kind)
    if explainer is None or ply < 1:
        return None
    return explainer(game, ply, before, after)


def explain_assessed(game: Game, evaluations: EvaluationTable, move: MoveAssessment) -> Why | None:
    """Why a judged move lost, for an inaccuracy, mistake or blunder; None for any other move."""
    if move.judgement not in EXPLAINED_JUDGEMENTS:
        return None
    return explain_move(game, move.ply, evaluations.get(move.ply - 1), evaluations.get(move.ply))
