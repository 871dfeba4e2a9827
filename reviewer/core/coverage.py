"""Which evaluations a figure may stand on, and how much of the game they cover.

A figure (accuracy, ACPL, Elo estimate, weighted loss, label counts) describes what one engine at
one setting (`Evaluation.engine_id`: identity + limit) said about the game. Evaluations of other
engines or limits are never averaged in. `select_analysis` picks the one set that the GUI, the
command line and every export use:

1. the set of `prefer` (the analysis the user ran last), when there is one;
2. else the newest set that covers every position of the main line;
3. else the largest set (the newest of equals), marked partial.

Sets left out are named in `Coverage.left_out`, so that views can say so. The trust policy
(`reviewer.core.scoring.trust`) decides whether the chosen set may give labels and accuracy;
`withhold_labels` turns an assessment into the rough estimate shown where it may not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.embedded_evals import EMBEDDED_ENGINE_ID
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game
from reviewer.core.passes import PassStanding
from reviewer.core.scoring import DEFAULT_PRESET, GameAssessment, Preset, assess_game
from reviewer.core.scoring.common import ChessSideSummary, GoSideSummary, SideSummary
from reviewer.core.scoring.trust import TRUSTED, Trust, judge_engine

__all__ = [
    "AnalysisBasis",
    "Coverage",
    "assess_basis",
    "describe_engine_id",
    "select_analysis",
    "withhold_labels",
]

FILE_COMMENTS_NAME = "the file's [%eval] comments"


def describe_engine_id(engine_id: str) -> tuple[str, str | None, str | None]:
    """(name for people, version, limit) of an engine id `identity | limit`.

    'Stockfish 16.1 | nodes=100000,multipv=1' → ('Stockfish 16.1', '16.1', 'nodes=100000,multipv=1');
    options inside the identity (`playouts=2000`, `[…]`) are left out of the name.
    """
    if engine_id == EMBEDDED_ENGINE_ID:
        return FILE_COMMENTS_NAME, None, None
    identity, _, limit = engine_id.partition(" | ")
    identity = identity.split(" [")[0].split(",")[0]
    words = [word for word in identity.split() if "=" not in word]
    name = " ".join(words)
    version = next((word for word in words[1:] if word[:1].isdigit()), None)
    return name, version, (limit.strip() or None)


@dataclass(frozen=True)
class Coverage:
    """How much of a game's main line one engine setting analysed."""

    engine_id: str  # "" when nothing was analysed
    positions_analysed: int
    positions_total: int  # main-line positions, the start included
    moves_analysed: int  # moves whose positions before and after were both analysed
    moves_total: int
    missing_plies: tuple[int, ...] = ()  # main-line positions without an evaluation (chess: P0 is optional)
    left_out: tuple[tuple[str, int], ...] = ()  # other engine settings' ids and their position counts
    passes: PassStanding | None = None  # a review in passes: how far it got (None: not one, or not known)

    @property
    def analysed(self) -> bool:
        return self.positions_analysed > 0

    @property
    def complete(self) -> bool:
        """Every position analysed, and every pass of a review in passes done: the figures are final."""
        return self.analysed and not self.missing_plies and (self.passes is None or self.passes.finished)

    @property
    def passes_unfinished(self) -> PassStanding | None:
        """The standing of a review in passes that has passes left; None otherwise."""
        return self.passes if self.passes is not None and not self.passes.finished else None

    @property
    def engine_name(self) -> str:
        return describe_engine_id(self.engine_id)[0] if self.engine_id else ""

    @property
    def engine_version(self) -> str | None:
        return describe_engine_id(self.engine_id)[1] if self.engine_id else None

    @property
    def limit(self) -> str | None:
        return describe_engine_id(self.engine_id)[2] if self.engine_id else None

    def moves_text(self) -> str:
        """'analysed 23 of 68 moves' / 'all 68 moves analysed' / 'not analysed'; a game without
        moves (a problem, a set-up position): 'the position analysed'."""
        if not self.analysed:
            return "not analysed"
        total = _moves(self.moves_total)
        if self.complete:
            if self.moves_total <= 1:
                return "the position analysed" if self.moves_total == 0 else "its 1 move analysed"
            return f"all {total} analysed"
        passes = self.passes_unfinished
        if passes is None:
            return f"analysed {self.moves_analysed} of {total}"
        if passes.reached == 1:
            return f"analysed {self.moves_analysed} of {total} · {passes.short_text()}"
        searched = f"all {total}" if not self.missing_plies else f"{self.moves_analysed} of {total}"
        return f"{searched} searched at pass 1 · {passes.text()}"

    def text(self) -> str:
        """The coverage with the engine: 'analysed 23 of 68 moves · Stockfish 16.1 (nodes=100000)'."""
        if not self.analysed:
            return "not analysed"
        engine = self.engine_name
        limit = self.limit
        if limit:
            limit = ",".join(part for part in limit.split(",") if part != "multipv=1")
        if limit:
            engine += f" ({limit})"
        return f"{self.moves_text()} · {engine}" if engine else self.moves_text()

    def left_out_text(self) -> str | None:
        """'12 positions by builtin-go 1.0 (visits=50) not mixed in'; None when nothing was left out."""
        if not self.left_out:
            return None
        parts = []
        for engine_id, count in self.left_out:
            name, _version, limit = describe_engine_id(engine_id)
            parts.append(f"{count} position{'s' if count != 1 else ''} by {name}" + (f" ({limit})" if limit else ""))
        return "; ".join(parts) + " not mixed in"

    def to_json(self) -> dict[str, Any]:
        """The report's `coverage` object."""
        return {
            "moves_analysed": self.moves_analysed,
            "moves_total": self.moves_total,
            "positions_analysed": self.positions_analysed,
            "positions_total": self.positions_total,
            "complete": self.complete,
            "engine": {
                "id": self.engine_id or None,
                "name": self.engine_name or None,
                "version": self.engine_version,
            },
            "limit": self.limit,
            "missing_plies": list(self.missing_plies),
            "left_out": [{"engine_id": engine_id, "positions": count} for engine_id, count in self.left_out],
            "passes": None
            if self.passes is None
            else {
                "reached": self.passes.reached,
                "count": self.passes.count,
                "in_doubt": self.passes.in_doubt,
                "refined": self.passes.refined,
                "finished": self.passes.finished,
            },
            "text": self.text(),
        }


@dataclass(frozen=True)
class AnalysisBasis:
    """The evaluations a summary may use, how much of the game they cover and whether they may label moves."""

    evaluations: EvaluationTable
    coverage: Coverage
    trust: Trust = TRUSTED

    def trust_json(self) -> dict[str, Any]:
        return {"labels": self.trust.labels, "reason": self.trust.reason or None, "remedy": self.trust.remedy or None}


def _group(evaluations: Iterable[Evaluation], positions_total: int) -> tuple[dict[str, dict[int, Evaluation]], dict[str, int]]:
    """Evaluations of the main line by engine id (the last one per ply wins), and each id's
    recency (the index of its last arrival)."""
    groups: dict[str, dict[int, Evaluation]] = {}
    recency: dict[str, int] = {}
    for index, evaluation in enumerate(evaluations):
        ply, engine_id = evaluation.ply, evaluation.engine_id
        if not 0 <= ply < positions_total:
            continue
        group = groups.get(engine_id)
        if group is None:
            group = groups[engine_id] = {}
        group[ply] = evaluation
        recency[engine_id] = index
    return groups, recency


def _covers(game: Game, plies: dict[int, Evaluation], positions_total: int) -> bool:
    first = 0 if game_support(game.kind).first_move_needs_start else 1
    return all(ply in plies for ply in range(first, positions_total))


def select_analysis(
    game: Game,
    evaluations: Iterable[Evaluation] | EvaluationTable,
    prefer: str | None = None,
    ply_count: int | None = None,
    standing: PassStanding | None = None,
) -> AnalysisBasis:
    """The one engine setting's evaluations that `game`'s figures may use (see the module's rules).

    `evaluations` come oldest first (an `EvaluationTable` in ply order is fine: it holds at most one
    evaluation per ply); `prefer` is the engine id of the analysis the user ran last. `ply_count`:
    the game's main-line length when the caller knows it (it is counted otherwise). `standing`: how
    far a review in passes got, used when it is about the chosen set.
    """
    if isinstance(evaluations, EvaluationTable):
        standing = standing if standing is not None else evaluations.passes
        evaluations = evaluations.ordered()
    moves_total = game.ply_count if ply_count is None else ply_count
    positions_total = moves_total + 1
    groups, recency = _group(evaluations, positions_total)
    chosen: str | None = None
    if prefer is not None and prefer in groups:
        chosen = prefer
    else:
        complete = [engine_id for engine_id, plies in groups.items() if _covers(game, plies, positions_total)]
        if complete:
            chosen = max(complete, key=lambda engine_id: recency[engine_id])
        elif groups:
            chosen = max(groups, key=lambda engine_id: (len(groups[engine_id]), recency[engine_id]))
    by_ply = dict(sorted(groups[chosen].items())) if chosen is not None else {}
    # Chess scores the first move without P0 (E(P0) = +15, SCORING.md): P0 is not needed there.
    optional = {0} if not game_support(game.kind).first_move_needs_start and by_ply else set()
    known = set(by_ply) | optional
    moves_analysed = sum(1 for ply in range(1, positions_total) if ply in known and ply - 1 in known)
    left_out = tuple(
        (engine_id, len(plies))
        for engine_id, plies in sorted(groups.items(), key=lambda item: -recency[item[0]])
        if engine_id != chosen
    )
    coverage = Coverage(
        engine_id=chosen or "",
        positions_analysed=len(by_ply),
        positions_total=positions_total,
        moves_analysed=moves_analysed,
        moves_total=moves_total,
        missing_plies=tuple(ply for ply in range(positions_total) if ply not in known),
        left_out=left_out,
        passes=standing if standing is not None and chosen is not None and standing.engine_id == chosen else None,
    )
    trust = judge_engine(chosen, game.kind, max(game.board_width, game.board_height)) if chosen else TRUSTED
    return AnalysisBasis(EvaluationTable(by_ply), coverage, trust)


def _withheld_summary(summary: SideSummary) -> SideSummary:
    if isinstance(summary, ChessSideSummary):
        return ChessSideSummary(summary.moves, None, None, None, None, None, None, counts={})
    assert isinstance(summary, GoSideSummary)
    return GoSideSummary(summary.moves, None, None, None, None, None, counts={})


def withhold_labels(assessment: GameAssessment) -> GameAssessment:
    """The assessment as a rough estimate: every move's score stays, its label, accuracy, weight and
    colour class go, and the per-side figures and counts are None / empty."""
    moves = tuple(
        dataclasses.replace(
            move, judgement=None, accuracy=None, weight=None, raw_weight=None, colour_class=None, top5=None, is_best=None
        )
        for move in assessment.moves
    )
    summary = {color: _withheld_summary(side) for color, side in assessment.summary.items()}
    return dataclasses.replace(assessment, moves=moves, summary=summary)


def assess_basis(
    game: Game, basis: AnalysisBasis, preset: Preset = DEFAULT_PRESET, skip_book: bool = False
) -> GameAssessment | None:
    """The scoring of the chosen evaluations (None when there are none), labels withheld where the
    trust policy says so."""
    if not len(basis.evaluations):
        return None
    assessment = assess_game(game, basis.evaluations, preset=preset, skip_book=skip_book)
    return assessment if basis.trust.labels else withhold_labels(assessment)


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"
