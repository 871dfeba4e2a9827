"""What chess and Go scoring share: judgement names, per-move and per-game records, small statistics.

Every figure follows `docs/SCORING.md`. A figure that needs an evaluation nobody has is
`None`, never a guess.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from reviewer.core.gametree import Color, GameKind
from reviewer.core.openings import Opening

Judgement = Literal["book", "best", "good", "inaccuracy", "mistake", "blunder"]
JUDGEMENTS: tuple[Judgement, ...] = ("book", "best", "good", "inaccuracy", "mistake", "blunder")
# The judgements a review points out to the player (counted, marked, drilled).
FLAGGED_JUDGEMENTS: tuple[Judgement, ...] = ("inaccuracy", "mistake", "blunder")

Preset = Literal["lichess", "seed"]
# Each preset's judgement by the drop d = wb - wa of the mover's win chance in win points, for the
# games whose presets apply (`GameSupport.uses_thresholds`): (inaccuracy, mistake, blunder) lower bounds.
DROP_THRESHOLDS: dict[str, tuple[float, float, float]] = {
    "lichess": (5.0, 10.0, 15.0),
    "seed": (10.0, 20.0, 30.0),
}
PRESETS: tuple[Preset, ...] = ("lichess", "seed")
DEFAULT_PRESET: Preset = "lichess"

COLORS: tuple[Color, ...] = ("white", "black")


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def sample_stdev(values: Sequence[float]) -> float | None:
    """Standard deviation with n-1 in the denominator; None for fewer than 2 values."""
    if len(values) < 2:
        return None
    average = sum(values) / len(values)
    return math.sqrt(sum((value - average) ** 2 for value in values) / (len(values) - 1))


def population_stdev(values: Sequence[float]) -> float | None:
    """Standard deviation with n in the denominator; None for no values."""
    if not values:
        return None
    average = sum(values) / len(values)
    return math.sqrt(sum((value - average) ** 2 for value in values) / len(values))


def harmonic_mean_floored(values: Sequence[float], floor: float = 1.0) -> float | None:
    """n / sum(1 / max(floor, v)): an accuracy of 0 counts as `floor` instead of dividing by zero."""
    if not values:
        return None
    return len(values) / sum(1.0 / max(floor, value) for value in values)


# The "weighted" averaging of a side's losses (`ScoreUnits.averaging`; Go's, as KaTrain's): each
# move's loss weighted by how hard its position was, and an accuracy of ACCURACY_BASE ** loss.
ACCURACY_BASE = 0.75


def weighted_loss(losses: Sequence[float], weights: Sequence[float]) -> float | None:
    """sum(L * adj_weight) / sum(adj_weight)."""
    total = sum(weights)
    if not losses or total <= 0:
        return None
    return sum(max(0.0, loss) * weight for loss, weight in zip(losses, weights)) / total


def accuracy_from_weighted_loss(loss: float | None) -> float | None:
    return None if loss is None else 100.0 * ACCURACY_BASE**loss


def sharpness(wdl: Sequence[int] | None) -> float | None:
    """How sharp a position is from an engine's WDL triple in permille (SCORING.md, Sharpness):
    (2 / (ln(1/w - 1) + ln(1/l - 1)))^2; None where undefined."""
    if wdl is None or len(wdl) != 3:
        return None
    win, loss = wdl[0] / 1000.0, wdl[2] / 1000.0
    if win <= 0.0 or win >= 1.0 or loss <= 0.0 or loss >= 1.0:
        return None
    denominator = math.log(1.0 / win - 1.0) + math.log(1.0 / loss - 1.0)
    if denominator == 0.0:
        return None
    return (2.0 / denominator) ** 2


def empty_counts() -> dict[str, int]:
    return dict.fromkeys(JUDGEMENTS, 0)


def count_judgements(judgements: Iterable[str | None]) -> dict[str, int]:
    counts = empty_counts()
    for judgement in judgements:
        if judgement in counts:
            counts[judgement] += 1
    return counts


@dataclass(frozen=True)
class MoveAssessment:
    """One main-line move, judged. Values take the first player's view (White in chess, Black in Go).

    `loss` is the centipawn loss (chess, >= 0) or the points lost (Go, signed: negative when the
    move gained). `eval_before`/`eval_after` are E (chess, normalised centipawns) or S (Go, score
    lead) of the positions before and after the move; `win_pct_before`/`win_pct_after` the win
    chance in percent from the same point of view. `judgement` is None when the evaluations needed
    to judge the move are missing.
    """

    ply: int
    color: Color
    move: str
    best: str | None = None  # the engine's best move in the position before, when known
    judgement: Judgement | None = None
    loss: float | None = None
    accuracy: float | None = None  # chess only
    weight: float | None = None  # Go only: the adjusted weight
    eval_before: float | None = None
    eval_after: float | None = None
    win_pct_before: float | None = None
    win_pct_after: float | None = None
    colour_class: int | None = None  # Go only: 0 (loss >= 12, worst) .. 5 (loss < 0.5)
    book: bool = False  # chess: still inside the bundled opening table
    is_best: bool | None = None  # the move equals the engine's best move (None: no best move known)
    # Chess details
    win_drop_mover: float | None = None  # wb - wa in win points, the mover's view
    sharpness_after: float | None = None  # sharpness of the position after the move (from WDL)
    # Go details
    difficulty: float | None = None
    raw_weight: float | None = None  # min(1, difficulty / sum of priors), before adjusting
    top5: bool | None = None  # KaTrain's "AI top 5" for this move

    @property
    def mover_sign(self) -> int:
        """+1 when the mover is the side the values are kept for (White in chess, Black in Go)."""
        return 1 if self.color == "white" else -1

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ChessSideSummary:
    moves: int  # moves that entered the figures
    accuracy: float | None
    accuracy_lichess: float | None
    accuracy_mean: float | None
    acpl: float | None
    stdcpl: float | None
    elo_estimate: float | None
    counts: dict[str, int] = field(default_factory=empty_counts)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class GoSideSummary:
    moves: int
    accuracy: float | None
    weighted_loss: float | None
    mean_loss: float | None
    top_move_match: float | None  # share 0..1
    top5_match: float | None  # share 0..1 of the `top5_moves` moves whose position has a top 5
    counts: dict[str, int] = field(default_factory=empty_counts)
    top5_moves: int = 0  # moves whose position's search gave five lines or more (`top5_match`'s base)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


SideSummary = ChessSideSummary | GoSideSummary


@dataclass(frozen=True)
class GameAssessment:
    """Every move judged and both sides summed up; a pure function of the game and its evaluations."""

    kind: GameKind
    preset: Preset
    skip_book: bool
    moves: tuple[MoveAssessment, ...]
    summary: dict[Color, SideSummary]
    opening: Opening | None = None
    best_rule_applied: bool = True  # False when no evaluation carried a best move
    notes: tuple[str, ...] = ()

    @property
    def white(self) -> SideSummary:
        return self.summary["white"]

    @property
    def black(self) -> SideSummary:
        return self.summary["black"]

    def move_at_ply(self, ply: int) -> MoveAssessment | None:
        index = ply - 1
        if 0 <= index < len(self.moves) and self.moves[index].ply == ply:
            return self.moves[index]
        return next((move for move in self.moves if move.ply == ply), None)


def top5_counts(summary: Mapping[str, Any]) -> tuple[int, int] | None:
    """From a report's side summary: (moves that were one of the engine's top 5, moves whose position
    has a top 5); None where no position had one."""
    base, share = summary.get("top5_moves"), summary.get("top5_match")
    if not isinstance(base, int) or isinstance(base, bool) or base <= 0 or not isinstance(share, (int, float)):
        return None
    return round(float(share) * base), base


def top5_text(summary: Mapping[str, Any]) -> str:
    """'12/20 of the positions with five lines', or '—' without such a position."""
    counts = top5_counts(summary)
    return "—" if counts is None else f"{counts[0]}/{counts[1]} of the positions with five lines"
