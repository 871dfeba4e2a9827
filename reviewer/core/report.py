"""The `reviewer.report/1` JSON object of one game (SCORING.md, "Report file").

Every field SCORING.md names is present, `null` when unknown. Extra fields: the opening, the
preset and book setting, how many moves of each side entered the summary
(`scored_moves`), per-move details (win %, book flag, colour class, weights) and `notes`
that say which rules could not apply.

Each inaccuracy, mistake and blunder says why it lost (`why`: motifs, text, line, focus;
docs/SCORING.md "Why"), null where the engine's lines carry no explanation and for other moves.

Each move also says its game phase (`phase`, docs/SCORING.md "Game phases"), and each side
carries a strength estimate with its prediction interval (`strength`, docs/strength.md) or null
where the analysis cannot carry one.

The figures stand on one engine setting's evaluations (`reviewer.core.coverage.select_analysis`):
`coverage` says how much of the game they cover and by which engine and limit, `trust` whether
that setting may give labels and accuracy at all (when it may not, every label and figure is
`null` and `trust.reason`/`trust.remedy` say why and what to do).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reviewer.core.analysis import EvaluationTable
from reviewer.core.coverage import AnalysisBasis, select_analysis, withhold_labels
from reviewer.core.explain import explain_assessed
from reviewer.core.formats.clocks import game_time_control
from reviewer.core.games import Phase, game_support, rules_for
from reviewer.core.gametree import Color, Game, GameKind
from reviewer.core.rating.scale import parse_declared
from reviewer.core.score_text import score_text
from reviewer.core.scoring import (
    DEFAULT_PRESET,
    GameAssessment,
    MoveAssessment,
    Preset,
    accuracy_name,
    assess_game,
    headline_accuracy_field,
)
from reviewer.core.scoring.clock import MoveTime, base_times_s, has_times, move_times
from reviewer.core.scoring.common import COLORS, ChessSideSummary, GoSideSummary
from reviewer.core.scoring.population import population_of
from reviewer.core.scoring.strength import load_model, strength_or_reason

SCHEMA = "reviewer.report/1"

# Go figures are losses in points: winrates alone (e.g. Sabaki's SBKV without SBKS) score no move.
GO_WINRATES_ONLY_NOTE = (
    "no Go move scored: Go figures need score leads (Sabaki's SBKS or Reviewer's RVW record), "
    "and these evaluations carry winrates only"
)


def _winrates_only(game: Game, evaluations: EvaluationTable) -> bool:
    """A game whose evaluations give winrates but not a single value of the game's figures (Go: a
    score lead)."""
    ordered = evaluations.ordered()
    value_field = game_support(game.kind).scores.field
    return any(e.winrate_first is not None for e in ordered) and all(getattr(e, value_field) is None for e in ordered)


@dataclass(frozen=True)
class ReportOptions:
    preset: Preset = DEFAULT_PRESET
    skip_book: bool = False


CHESS_SUMMARY_FIELDS = ("accuracy", "accuracy_lichess", "accuracy_mean", "acpl", "stdcpl", "elo_estimate", "counts")
GO_SUMMARY_FIELDS = ("accuracy", "weighted_loss", "mean_loss", "top_move_match", "top5_match", "top5_moves", "counts")


def _number(value: float | None) -> float | None:
    """A JSON-safe number: None stays None, NaN/inf become None."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


_TIME = re.compile(r"(?<!\d)(\d{1,2}):(\d{2})(?::(\d{2}))?")


def time_of_day(game: Game) -> str | None:
    """When in its day the game was played, 'HH:MM:SS': PGN's UTCTime (beside a UTCDate) or Time
    tag, else a time written in the date (SGF DT '2024-01-05 14:30'); None when none is known."""
    headers = game.headers
    tags = ("UTCTime", "Time") if headers.get("UTCDate") else ("Time", "UTCTime")
    for text in (*(headers.get(tag, "") for tag in tags), game.date):
        match = _TIME.search(text or "")
        if match is None:
            continue
        hours, minutes, seconds = int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
        if hours < 24 and minutes < 60 and seconds < 60:
            return f"{hours:02d}:{minutes:02d}:{seconds:02d}"
    return None


def _game_block(game: Game, assessment: GameAssessment) -> dict[str, Any]:
    block: dict[str, Any] = {
        "kind": game.kind,
        "white": game.white,
        "black": game.black,
        "result": game.result,
        "white_rank": game.white_rank or None,
        "black_rank": game.black_rank or None,
        "date": game.date or None,
        "time": time_of_day(game),
        "event": game.event or None,
        "plies": len(assessment.moves),
        "time_control": time_control_block(game),
        "warnings": list(game.warnings),  # what the reader could not take from the file (e.g. moves after an illegal one)
        "source": {
            "path": game.source.path,
            "index": game.source.index,
            "format": game.source.format or None,
        },
    }
    block.update(game_support(game.kind).report_game_fields(game, assessment))
    return block


def chess_game_fields(game: Game, assessment: GameAssessment) -> dict[str, Any]:
    opening = assessment.opening
    return {
        "start_fen": game.start_fen,
        "chess960": game.chess960,
        "opening": None if opening is None else {"eco": opening.eco, "name": opening.name, "ply": opening.ply},
    }


def go_game_fields(game: Game, assessment: GameAssessment) -> dict[str, Any]:
    return {"board_size": [game.board_width, game.board_height], "komi": game.komi, "rules": game.rules, "handicap": game.handicap}


def _move_entry(move: MoveAssessment, kind: GameKind, evaluations: EvaluationTable) -> dict[str, Any]:
    before, after = evaluations.get(move.ply - 1), evaluations.get(move.ply)
    entry: dict[str, Any] = {
        "ply": move.ply,
        "color": move.color,
        "move": move.move,
        "best": move.best,
        "judgement": move.judgement,
        "loss": _number(move.loss),
        "accuracy": _number(move.accuracy),  # chess: the move's accuracy; None in Go
        "weight": _number(move.weight),  # Go: the move's adjusted weight; None in chess
        "eval_before": _number(move.eval_before),
        "eval_after": _number(move.eval_after),
        # as people read it: mates keep their distance (`#3`, `#-3`); null where not analysed
        "eval_before_text": score_text(kind, before, move.eval_before) if before is not None else None,
        "eval_after_text": score_text(kind, after, move.eval_after) if after is not None else None,
        "win_pct_before": _number(move.win_pct_before),
        "win_pct_after": _number(move.win_pct_after),
        "is_best": move.is_best,
    }
    entry.update(game_support(kind).report_move_fields(move))
    return entry


def chess_move_fields(move: MoveAssessment) -> dict[str, Any]:
    return {"book": move.book, "win_drop": _number(move.win_drop_mover), "sharpness_after": _number(move.sharpness_after)}


def go_move_fields(move: MoveAssessment) -> dict[str, Any]:
    return {
        "colour_class": move.colour_class,
        "difficulty": _number(move.difficulty),
        "raw_weight": _number(move.raw_weight),
        "top5": move.top5,
    }


def _time_fields(time: MoveTime | None) -> dict[str, Any]:
    """The mover's clock after the move, the time it took, the clock before it (seconds) and
    whether it was made in time trouble; null where the file carries no time."""
    if time is None:
        return {"clock_s": None, "spent_s": None, "clock_before_s": None, "time_trouble": None}
    return {
        "clock_s": _number(time.clock_s),
        "spent_s": _number(time.spent_s),
        "clock_before_s": _number(time.clock_before_s),
        "time_trouble": time.time_trouble,
    }


def time_control_block(game: Game) -> dict[str, Any] | None:
    """The game's time control as the file states it (base and increment in seconds), else the
    base the clocks imply; null for a game without times."""
    control = game_time_control(game)
    if control is None:
        if not has_times(game):
            return None
        bases = base_times_s(game)
        known = [base for base in bases.values() if base is not None]
        return {"text": None, "base_s": max(known) if known else None, "increment_s": None, "stated": False}
    return {"text": control.text(), "base_s": control.base_s, "increment_s": control.periods[0].increment_s, "stated": True}


def _phases(game: Game, moves: int) -> list[Phase | None]:
    """Each move's phase by the game's rules, one per reported move."""
    phases = rules_for(game.kind).phases(game)
    return (phases + [None] * moves)[:moves]


def strength_by_side(
    game: Game, assessment: GameAssessment, basis: AnalysisBasis
) -> dict[Color, dict[str, Any] | str | None]:
    """Each side's strength estimate (`Strength.to_json`), or why it has none; None for both sides
    before anything is analysed."""
    if not basis.coverage.analysed:
        return {"white": None, "black": None}
    if not basis.trust.labels:
        return {"white": ROUGH_ESTIMATE, "black": ROUGH_ESTIMATE}
    if not basis.coverage.complete:
        return {"white": NEEDS_EVERY_MOVE, "black": NEEDS_EVERY_MOVE}
    model = load_model(game.kind)
    population = population_of(
        game, parse_declared(game.kind, game.white_rank), parse_declared(game.kind, game.black_rank)
    )
    sides: dict[Color, dict[str, Any] | str | None] = {}
    for color in COLORS:
        result = strength_or_reason(
            assessment, color, model, (game.board_width, game.board_height), population, basis.coverage.engine_id
        )
        sides[color] = result if isinstance(result, str) else result.to_json()
    return sides


ROUGH_ESTIMATE = "the scores are a rough estimate"
NEEDS_EVERY_MOVE = "it needs every move analysed"


def strength_block(
    game: Game, assessment: GameAssessment, basis: AnalysisBasis
) -> tuple[dict[Color, dict[str, Any] | None], list[str]]:
    """Each side's strength estimate (null where there is none) and notes that say why one is null."""
    by_side = strength_by_side(game, assessment, basis)
    sides: dict[Color, dict[str, Any] | None] = {
        color: value if isinstance(value, dict) else None for color, value in by_side.items()
    }
    reasons: dict[str, list[Color]] = {}
    for color in COLORS:
        value = by_side[color]
        if isinstance(value, str):
            reasons.setdefault(value, []).append(color)
    notes = [
        f"no strength estimate{'' if len(colors) == 2 else ' for ' + colors[0]}: {reason}"
        for reason, colors in reasons.items()
    ]
    return sides, notes


def _with_pass(entry: dict[str, Any], evaluations: EvaluationTable) -> dict[str, Any]:
    """`pass`: the review pass that gave the deeper of the move's two evaluations (null: one pass)."""
    ply = int(entry["ply"])
    passes = [e.review_pass for e in (evaluations.get(ply - 1), evaluations.get(ply)) if e is not None]
    known = [p for p in passes if p is not None]
    entry["pass"] = max(known) if known else None
    return entry


def _passes_block(evaluations: EvaluationTable) -> dict[str, Any] | None:
    """How many positions each pass of a review in passes searched last (null for a one-pass review)."""
    by_pass: dict[str, int] = {}
    for evaluation in evaluations.ordered():
        if evaluation.review_pass is not None:
            key = str(evaluation.review_pass)
            by_pass[key] = by_pass.get(key, 0) + 1
    if not by_pass:
        return None
    schemes = sorted({e.engine_id.split(" | ", 1)[-1] for e in evaluations.ordered() if e.review_pass is not None})
    return {"scheme": schemes[0] if len(schemes) == 1 else schemes, "positions_by_pass": dict(sorted(by_pass.items()))}


def _summary_block(summary: ChessSideSummary | GoSideSummary, labels: bool) -> dict[str, Any]:
    fields = CHESS_SUMMARY_FIELDS if isinstance(summary, ChessSideSummary) else GO_SUMMARY_FIELDS
    block: dict[str, Any] = {}
    for name in fields:
        value = getattr(summary, name)
        if name == "counts":
            block[name] = dict(value) if labels else None
        elif isinstance(value, int) and not isinstance(value, bool):
            block[name] = value if labels else None  # a count of moves, like `counts`
        else:
            block[name] = _number(value)
    return block


def _engine_block(engine_info: Mapping[str, Any] | str | None, basis: AnalysisBasis) -> dict[str, Any]:
    if isinstance(engine_info, str):
        block: dict[str, Any] = {"name": engine_info}
    else:
        block = dict(engine_info or {})
        block.setdefault("name", None)
    if not block["name"] and basis.coverage.engine_name:
        block["name"] = basis.coverage.engine_name
    block.setdefault("version", basis.coverage.engine_version)
    block.setdefault("limit", basis.coverage.limit)
    if "ids" not in block:
        block["ids"] = [basis.coverage.engine_id] if basis.coverage.engine_id else []
    return block


def build_report(
    game: Game,
    evaluations: EvaluationTable,
    assessment_or_options: GameAssessment | ReportOptions | Mapping[str, Any] | None = None,
    engine_info: Mapping[str, Any] | str | None = None,
    prefer: str | None = None,
) -> dict[str, Any]:
    """The report of one game. Pass the assessment when it is at hand, or options to compute it.

    Only one engine setting's evaluations are scored (`select_analysis`; `prefer` names the
    engine id of the analysis run last): an assessment passed in is used only when it was made
    from exactly those evaluations' engine setting."""
    basis = select_analysis(game, evaluations, prefer=prefer)
    given = assessment_or_options if isinstance(assessment_or_options, GameAssessment) else None
    if given is not None and not basis.coverage.left_out:
        assessment = given
    else:
        if given is not None:
            options = ReportOptions(preset=given.preset, skip_book=given.skip_book)
        elif isinstance(assessment_or_options, ReportOptions):
            options = assessment_or_options
        else:
            options = ReportOptions(**dict(assessment_or_options or {}))  # type: ignore[arg-type]
        assessment = assess_game(game, basis.evaluations, preset=options.preset, skip_book=options.skip_book)
    if not basis.trust.labels:
        assessment = withhold_labels(assessment)
    evaluations = basis.evaluations

    from reviewer.core.embedded_evals import EMBEDDED_ENGINE_ID

    notes = list(assessment.notes)
    engine_ids = {e.engine_id for e in evaluations.ordered()}
    if engine_ids == {EMBEDDED_ENGINE_ID}:
        notes = [note for note in notes if not note.startswith("best rule not applied")]
        notes.insert(0, "best rule not applied: evaluations came from the file's [%eval] comments")
    if not len(evaluations):
        notes.insert(0, "no evaluations: every figure that needs one is null")
    if _winrates_only(game, evaluations):
        notes.insert(0, GO_WINRATES_ONLY_NOTE)
    coverage = basis.coverage
    if coverage.analysed and not coverage.complete:
        notes.append(f"partial analysis: {coverage.moves_text()}; the figures cover those moves only")
    if coverage.left_out_text():
        notes.append(f"other analyses of this game: {coverage.left_out_text()}")
    if not basis.trust.labels:
        notes.append(f"rough estimate: {basis.trust.reason}. {basis.trust.remedy}")
    strength, strength_notes = strength_block(game, assessment, basis)
    notes.extend(strength_notes)
    phases = _phases(game, len(assessment.moves))
    moves = [_with_pass(_move_entry(move, game.kind, evaluations), evaluations) for move in assessment.moves]
    times = move_times(game)
    for entry, phase, move in zip(moves, phases, assessment.moves):
        entry["phase"] = phase
        entry.update(_time_fields(times.get(move.ply)))
        why = explain_assessed(game, evaluations, move)
        entry["why"] = why.to_json() if why is not None and why.text else None

    return {
        "schema": SCHEMA,
        "game": _game_block(game, assessment),
        "engine": _engine_block(engine_info, basis),
        "coverage": coverage.to_json(),
        "trust": basis.trust_json(),
        "preset": assessment.preset,
        "accuracy_headline": _headline_block(assessment),
        "skip_book": assessment.skip_book,
        "best_rule_applied": assessment.best_rule_applied,
        "evaluated_positions": len(evaluations),
        "moves": moves,
        "passes": _passes_block(evaluations),
        "summary": {color: _summary_block(assessment.summary[color], basis.trust.labels) for color in ("white", "black")},
        # Kept beside the summaries, which hold exactly the figures SCORING.md names.
        "scored_moves": {color: assessment.summary[color].moves for color in ("white", "black")},
        "strength": strength,
        "notes": notes,
    }


def _headline_block(assessment: GameAssessment) -> dict[str, str]:
    """Which summary accuracy stands for a side where one is shown (header, PGN tags, reports)."""
    field = headline_accuracy_field(assessment.kind, assessment.preset)
    return {"field": field, "name": accuracy_name(assessment.kind, field)}


def report_to_json(report: Mapping[str, Any] | list[Mapping[str, Any]], indent: int | None = 2) -> str:
    """Serialise a report (or a list of them); refuses NaN so the output is strict JSON."""
    return json.dumps(report, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"
