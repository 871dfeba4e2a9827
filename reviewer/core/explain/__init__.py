"""Why a move was a mistake, told from the engine's lines and the game's rules (docs/SCORING.md, "Why").

    why = explain_move(game, ply, evaluations.get(ply - 1), evaluations.get(ply))
    if why is not None:
        print(why.motifs, why.text, why.line, why.focus)

Each game names its explainer in its support object (`GameSupport.explain_ref`); chess's and Go's
are in this package. An
explanation only says what the line it stands on shows: a line that ends early, a missing line or
an engine without maps gives a shorter explanation or none, never a bolder one.
"""

from __future__ import annotations

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.explain.common import Threat, Why
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game, GameKind
from reviewer.core.scoring import MoveAssessment

__all__ = ["EXPLAINED_JUDGEMENTS", "Threat", "Why", "explain_assessed", "explain_move", "threat_of"]

EXPLAINED_JUDGEMENTS = ("inaccuracy", "mistake", "blunder")

def explain_move(
    game: Game, ply: int, before: Evaluation | None, after: Evaluation | None, *, plain: bool = False
) -> Why | None:
    """Why main-line move `ply` (1-based) lost, from the evaluations of the positions before and
    after it; None when the lines carry nothing to explain it with. With `plain`, a move whose line
    shows no motif still gets what the line and the figures say (the engine's reply, how the
    evaluation fell), with no motif."""
    explainer = game_support(game.kind).explainer()  # named by its support object (`explain_ref`)
    if explainer is None or ply < 1:
        return None
    return explainer(game, ply, before, after, plain=plain)


def explain_assessed(game: Game, evaluations: EvaluationTable, move: MoveAssessment) -> Why | None:
    """Why a judged move lost, for an inaccuracy, mistake or blunder; None for any other move."""
    if move.judgement not in EXPLAINED_JUDGEMENTS:
        return None
    return explain_move(game, move.ply, evaluations.get(move.ply - 1), evaluations.get(move.ply), plain=True)


def threat_of(kind: GameKind) -> Threat | None:
    """How a game tells what the opponent threatens (lichess's threat mode), named by its support
    object (`threat_ref`); None for a game without it."""
    return game_support(kind).threat()
