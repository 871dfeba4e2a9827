"""SCORING.md as pure functions: judge every move of a game from its evaluations, sum up each side.

    assessment = assess_game(game, evaluations, preset="lichess", skip_book=False)
    assessment.moves[i].judgement   # "book" | "best" | "good" | "inaccuracy" | "mistake" | "blunder" | None
    assessment.summary["white"]     # ChessSideSummary / GoSideSummary
"""

from __future__ import annotations

from reviewer.core.analysis import EvaluationTable
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game
from reviewer.core.openings import Opening
from reviewer.core.scoring.common import (
    DEFAULT_PRESET,
    FLAGGED_JUDGEMENTS,
    JUDGEMENTS,
    PRESETS,
    ChessSideSummary,
    GameAssessment,
    GoSideSummary,
    Judgement,
    MoveAssessment,
    Preset,
    SideSummary,
)

__all__ = [
    "DEFAULT_PRESET",
    "FLAGGED_JUDGEMENTS",
    "JUDGEMENTS",
    "PRESETS",
    "ChessSideSummary",
    "GameAssessment",
    "GoSideSummary",
    "Judgement",
    "MoveAssessment",
    "Opening",
    "Preset",
    "SideSummary",
    "accuracy_name",
    "assess_game",
    "headline_accuracy_field",
]

# The accuracy a preset's users know, shown first wherever one accuracy stands for a side: lichess's
# thresholds come with lichess's accuracy, the strict (game-statistics) ones with its mean accuracy.
HEADLINE_ACCURACY: dict[Preset, str] = {"lichess": "accuracy_lichess", "seed": "accuracy_mean"}


def headline_accuracy_field(kind: str, preset: str | None) -> str:
    """The summary field of the accuracy shown as a side's one accuracy: the header, the exported
    PGN tags, the reports (chess: by the preset; Go: KaTrain's, the only one)."""
    if game_support(kind).scores.averaging != "mean":
        return "accuracy"
    chosen: Preset = preset if preset in PRESETS else DEFAULT_PRESET
    return HEADLINE_ACCURACY[chosen]


def accuracy_name(kind: str, field: str) -> str:
    """'lichess accuracy', 'En Croissant accuracy', …: what a summary's accuracy field is."""
    return game_support(kind).scores.accuracy_names.get(field, "accuracy")


def assess_game(
    game: Game,
    evaluations: EvaluationTable,
    preset: Preset = DEFAULT_PRESET,
    skip_book: bool = False,
) -> GameAssessment:
    """Judge every main-line move and sum up both sides. `skip_book` leaves book moves out of the
    per-side figures (they keep their judgement and evaluations). `preset` picks the chess drop
    thresholds: "lichess" (5/10/15 win points) or "seed" (10/20/30)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
    assessment: GameAssessment = game_support(game.kind).assess(game, evaluations, preset=preset, skip_book=skip_book)
    return assessment
