"""One game's strength from its move quality: chess Elo from the centipawn loss, a Go rank from the
points lost (docs/strength.md).

The model is a straight line fitted on real rated games by `benchmarks/strength_fit.py`, which
writes its coefficients and its prediction interval (from held-out residuals) to
`resources/strength/<kind>.json`. Every estimate comes with that interval; where the analysis
cannot carry an estimate (partial, labels withheld, too few moves, a board the model was not
fitted on) there is none, nor for a game outside the populations the model was checked on
(`reviewer.core.scoring.population`: its interval's coverage is known on those only), nor where
the model itself does no better on held-out games than guessing the mean rating of its data.

    model = load_model("chess")
    estimate = estimate_strength(assessment, "white", model, population=population)   # Strength | None
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, assert_never

from reviewer.core.games.support import game_support
from reviewer.core.gametree import Color, GameKind
from reviewer.core.scoring.common import (
    GameAssessment,
    accuracy_from_weighted_loss,
    harmonic_mean_floored,
    mean,
    weighted_loss,
)
from reviewer.core.scoring.population import CheckedPopulation, GamePopulation, admitting, population_reason
from reviewer.resources import resource_path

MODEL_SCHEMA = "reviewer.strength-model/1"
Unit = Literal["elo", "rank"]

# Feature names a model may use; each is computed by `side_features` from one side's moves.


@dataclass(frozen=True)
class Term:
    feature: str
    coefficient: float
    low: float  # the range the feature covered in fitting: outside it, no estimate
    high: float


@dataclass(frozen=True)
class StrengthModel:
    kind: GameKind
    unit: Unit
    intercept: float
    terms: tuple[Term, ...]
    level: float  # the prediction interval's coverage, e.g. 0.8
    below: float  # the interval is [estimate - below, estimate + above]
    above: float
    min_moves: int  # fewer scored moves of the side: no estimate
    board_sizes: tuple[tuple[int, int], ...]  # Go: the boards the model was fitted on
    basis: str  # one line: what the model stands on and its held-out error
    beats_guessing: bool  # its held-out MAE and RMSE are below those of guessing the mean: else no estimate
    populations: tuple[CheckedPopulation, ...] = ()  # the games it was checked on: no estimate for others

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> StrengthModel:
        if data.get("schema") != MODEL_SCHEMA:
            raise ValueError(f"not a {MODEL_SCHEMA} file")
        interval = data["interval"]
        return StrengthModel(
            kind=data["kind"],
            unit=data["unit"],
            intercept=float(data["intercept"]),
            terms=tuple(
                Term(str(t["feature"]), float(t["coefficient"]), float(t["low"]), float(t["high"])) for t in data["terms"]
            ),
            level=float(interval["level"]),
            below=float(interval["below"]),
            above=float(interval["above"]),
            min_moves=int(data["min_moves"]),
            board_sizes=tuple((int(w), int(h)) for w, h in data.get("board_sizes", [])),
            basis=str(data["basis"]),
            beats_guessing=bool(data["beats_guessing"]),
            populations=tuple(CheckedPopulation.from_json(p) for p in data.get("populations", [])),
        )


@dataclass(frozen=True)
class Strength:
    """An estimate with its prediction interval: Elo (chess) or rank (Go: 1k = 0, 1d = 1, 5k = -4)."""

    unit: Unit
    value: float
    low: float
    high: float
    level: float
    basis: str

    def to_json(self) -> dict[str, Any]:
        digits = 0 if self.unit == "elo" else 1
        return {
            self.unit: round(self.value, digits),
            "low": round(self.low, digits),
            "high": round(self.high, digits),
            "level": self.level,
            "basis": self.basis,
        }


def side_features(assessment: GameAssessment, color: Color) -> dict[str, float] | None:
    """The figures a model may use for one side, over all its scored moves (book moves included, as
    in fitting); None when the side has no scored move. `moves` counts the scored moves, `loss` is
    the mean centipawn loss (chess) or the weighted points lost (Go), `accuracy` the side's accuracy
    as SCORING.md defines it, `top_match` the share of its moves that were the engine's first choice
    (only where the engine's choice is known for every scored move)."""
    own = [m for m in assessment.moves if m.color == color]
    opponent = [m for m in assessment.moves if m.color != color]
    accuracy: float | None
    averaging = game_support(assessment.kind).scores.averaging
    if averaging == "mean":
        scored = [m for m in own if m.loss is not None and m.accuracy is not None]
        losses = [m.loss for m in scored if m.loss is not None]
        their = [m.loss for m in opponent if m.loss is not None and m.accuracy is not None]
        loss, their_loss = mean(losses), mean(their)
        accuracy = harmonic_mean_floored([m.accuracy for m in scored if m.accuracy is not None])
    elif averaging == "weighted":
        losses = [m.loss for m in own if m.loss is not None and m.weight is not None]
        loss = weighted_loss(losses, [m.weight for m in own if m.loss is not None and m.weight is not None])
        their = [m.loss for m in opponent if m.loss is not None and m.weight is not None]
        their_loss = weighted_loss(their, [m.weight for m in opponent if m.loss is not None and m.weight is not None])
        accuracy = accuracy_from_weighted_loss(loss)
    else:
        assert_never(averaging)
    if loss is None:
        return None
    offset = game_support(assessment.kind).scores.log_offset
    features = {"moves": float(len(losses)), "loss": loss, "log_loss": math.log(loss + offset)}
    if accuracy is not None:
        features["accuracy"] = accuracy
    if their_loss is not None:
        features["log_opponent_loss"] = math.log(their_loss + offset)
    scored = [m for m in own if m.loss is not None]
    if scored and all(m.is_best is not None for m in scored):
        features["top_match"] = sum(1 for m in scored if m.is_best) / len(scored)
    return features


def predict(model: StrengthModel, features: Mapping[str, float]) -> float | None:
    """The model's line at these features; None when one is missing."""
    if any(term.feature not in features for term in model.terms):
        return None
    return model.intercept + sum(term.coefficient * features[term.feature] for term in model.terms)


def strength_or_reason(
    assessment: GameAssessment,
    color: Color,
    model: StrengthModel | None,
    board_size: tuple[int, int] | None = None,
    population: GamePopulation | None = None,
    engine_id: str | None = None,
) -> Strength | str:
    """One side's strength with the model's interval, or why the model cannot give one: no model,
    another game or board, a game outside the populations the model was checked on or an analysis
    by an engine setting it was not checked on (`engine_id`; `reviewer.core.scoring.population`),
    too few scored moves, or figures outside the range the model was fitted on (a straight line is
    not extrapolated). The caller decides whether the analysis may carry an estimate at all
    (complete coverage, trusted labels)."""
    if model is None or model.kind != assessment.kind:
        return f"no {assessment.kind} strength model is installed"
    if not model.beats_guessing:
        return f"the {assessment.kind} model does no better than guessing on held-out games ({model.basis})"
    if model.board_sizes and board_size not in model.board_sizes:
        boards = ", ".join(f"{width}×{height}" for width, height in model.board_sizes)
        return f"the {assessment.kind} model was fitted on {boards} boards only"
    outside = population_reason(model.populations, population, engine_id)
    if outside is not None:
        return outside
    checked = admitting(model.populations, population, engine_id)
    assert checked is not None
    features = side_features(assessment, color)
    if features is None or features["moves"] < model.min_moves:
        return f"fewer than {model.min_moves} scored moves"
    for term in model.terms:
        value = features.get(term.feature)
        if value is None:
            return f"no {term.feature.replace('_', ' ')}"
        if not term.low <= value <= term.high:
            return "the moves' quality lies outside the range the model was fitted on"
    value = predict(model, features)
    if value is None:
        return "a figure the model needs is missing"
    basis = (
        f"{model.basis}; checked on {checked.name} analysed by {checked.settings_text()}: the "
        f"{model.level:.0%} interval held {checked.coverage:.0%} of {checked.sides} held-out sides' ratings"
    )
    return Strength(model.unit, value, value - model.below, value + model.above, model.level, basis)


def estimate_strength(
    assessment: GameAssessment,
    color: Color,
    model: StrengthModel | None,
    board_size: tuple[int, int] | None = None,
    population: GamePopulation | None = None,
    engine_id: str | None = None,
) -> Strength | None:
    """`strength_or_reason` without the reason."""
    result = strength_or_reason(assessment, color, model, board_size, population, engine_id)
    return result if isinstance(result, Strength) else None


def model_path(kind: GameKind) -> str:
    return str(resource_path("strength", f"{kind}.json"))


@cache
def load_model(kind: GameKind) -> StrengthModel | None:
    """The bundled model for a game, None when it is missing or unreadable (no estimate then)."""
    try:
        with open(model_path(kind), encoding="utf-8") as handle:
            return StrengthModel.from_json(json.load(handle))
    except (OSError, ValueError, KeyError, TypeError):
        return None


__all__ = [
    "MODEL_SCHEMA",
    "Strength",
    "StrengthModel",
    "Term",
    "estimate_strength",
    "load_model",
    "predict",
    "side_features",
    "strength_or_reason",
]
