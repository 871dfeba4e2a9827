"""Reviewing one game of a batch: the function a worker runs, on this machine or on a Ray worker.

A task is plain data (the game's text, the engine settings, the limit, the scoring options) and
so is its result (`GameResult`: the reviewer.report/1 object, the engine's identity, and for a
worker without the driver's analysis cache the cache entries its review made), so both pickle and
travel. The engine is opened from the settings alone, through the registry, as `reviewer analyze`
opens it: nothing from the game's text reaches an engine as a command.

Figures a file already carries for every move (`[%eval]`, `[%rvw]`, Sabaki's SBKV/SBKS, RVW) are
imported by `import_evaluations` instead of being computed again: `review_game` tries that first
for a task marked `carries_evaluations`, on the game it has read once for both.
"""

from __future__ import annotations

import os
import socket
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.coverage import select_analysis
from reviewer.core.embedded_evals import EMBEDDED_ENGINE_ID, evaluations_from_game, has_embedded_evaluations
from reviewer.core.engines.base import EngineError, EngineNotFound, EngineUnsuitable
from reviewer.core.errors import ReviewerError
from reviewer.core.formats import game_from_pgn_text, game_from_sgf_text
from reviewer.core.gametree import Game, GameKind
from reviewer.core.report import GO_WINRATES_ONLY_NOTE, ReportOptions, build_report
from reviewer.core.review import EngineOnDemand, ProgressCallback, analysable_ply_count, analyse_game, identity_key
from reviewer.core.scoring.common import Preset
from reviewer.core.services.batch.plan import TextFormat, game_key

if TYPE_CHECKING:
    from reviewer.core.engines.registry import EnginePlan

__all__ = [
    "CacheEntry",
    "EnginePool",
    "EngineSettings",
    "ErrorKind",
    "GameResult",
    "GameTask",
    "import_evaluations",
    "parse_task_game",
    "replay_into_cache",
    "review_game",
    "review_game_detached",
]

# engine-missing: the engine named cannot be found or started (the other games of its kind would fail
# the same way); engine-unsuitable: it cannot play this game (Chess960, a board too big);
# engine-failed: it crashed or stopped answering; bad-game: the game cannot be reviewed;
# worker-lost: the worker running it died more often than the task may be retried; task-failed:
# the cluster could not run the task (Reviewer missing on a worker, a bug).
ErrorKind = Literal["engine-missing", "engine-unsuitable", "engine-failed", "bad-game", "worker-lost", "task-failed"]


@dataclass(frozen=True)
class EngineSettings:
    """Which engine reviews: `name` as `reviewer engines` lists it, or `command` run as given;
    neither: the best one installed for the kind of game."""

    name: str | None = None
    command: tuple[str, ...] | None = None

    def describe(self) -> str:
        if self.command is not None:
            return " ".join(self.command)
        return self.name or "the default engine"


@dataclass(frozen=True)
class GameTask:
    key: str  # plan.game_key of the game
    label: str  # path#N, for messages
    kind: GameKind
    text_format: TextFormat
    text: str
    plies: int
    engine: EngineSettings
    limit: Limit
    preset: Preset = "lichess"
    skip_book: bool = False
    carries_evaluations: bool = False  # try the figures the file carries before the engine


@dataclass(frozen=True)
class CacheEntry:
    """One row a review wrote into its analysis cache: the driver writes it into its own."""

    position_key: str
    engine_id: str
    evaluation: dict[str, Any]  # Evaluation.to_json()


@dataclass(frozen=True)
class GameResult:
    key: str
    report: dict[str, Any] | None = None  # reviewer.report/1; None when the review failed
    imported: bool = False  # the figures came from the file, no engine ran
    complete: bool = False  # every position evaluated (not a review cut short by a stop)
    positions: int = 0  # positions evaluated
    error: str | None = None
    error_kind: ErrorKind | None = None
    worker: str = ""  # "host pid N" of the worker that reviewed it, when not this process
    cache_entries: tuple[CacheEntry, ...] = ()
    engines_seen: tuple[tuple[str, str], ...] = ()  # (engine fingerprint, identity) for the driver's cache
    not_imported: str = ""  # why the figures the file carries were not imported (an engine reviewed)
    cards: tuple[str, ...] = ()  # the game's training cards (Card.to_json), both sides (the driver keeps its player's)

    @property
    def finished(self) -> bool:
        """A review to keep: complete and without an error."""
        return self.report is not None and self.complete and self.error is None


def parse_task_game(task: GameTask) -> Game:
    """The task's game, read back from its text; ReviewerError when it is not the game planned."""
    game = game_from_pgn_text(task.text) if task.text_format == "pgn" else game_from_sgf_text(task.text)
    if game.kind != task.kind or game_key(game) != task.key:
        raise ReviewerError(f"{task.label}: the game read back from its text is not the game planned")
    return game


def _failed(task: GameTask, kind: ErrorKind, message: str) -> GameResult:
    return GameResult(key=task.key, error=message, error_kind=kind)


# -- figures the file already carries ---------------------------------------------------------------


def import_evaluations(task: GameTask, game: Game) -> tuple[GameResult | None, str]:
    """The review from the evaluations the task's game (`game`, as read from its text) carries,
    when they cover every move and can be scored; else (None, why not)."""
    if not has_embedded_evaluations(game):
        return None, "the file carries no evaluations"
    table = evaluations_from_game(game)
    coverage = select_analysis(game, table).coverage
    if not coverage.complete:
        return None, f"the file's evaluations cover {coverage.moves_analysed} of {coverage.moves_total} moves"
    options = ReportOptions(preset=task.preset, skip_book=task.skip_book)
    report = build_report(game, table, options, _embedded_engine_info(table))
    if GO_WINRATES_ONLY_NOTE in report["notes"]:
        return None, "the file's evaluations are winrates only (no score leads to score Go moves)"
    report["complete"] = True
    cards = _cards(game, table)
    return GameResult(key=task.key, report=report, imported=True, complete=True, positions=len(table), cards=cards), ""


def _cards(game: Game, table: EvaluationTable) -> tuple[str, ...]:
    from reviewer.core.services.trainer.harvest import game_cards

    return tuple(card.to_json() for card in game_cards(game, table))


def _embedded_engine_info(table: EvaluationTable) -> dict[str, Any]:
    """Who evaluated: the [%eval] comments, or the engines a Reviewer export's records name."""
    engine_ids = {evaluation.engine_id for evaluation in table.ordered()}
    if engine_ids <= {EMBEDDED_ENGINE_ID, ""}:
        return {"name": "[%eval] comments of the game file", "id": EMBEDDED_ENGINE_ID}
    names = sorted({engine_id.split(" | ")[0] for engine_id in engine_ids if engine_id and engine_id != EMBEDDED_ENGINE_ID})
    ids = sorted(engine_id for engine_id in engine_ids if engine_id)
    return {"name": ", ".join(names), "id": ids[0] if len(ids) == 1 else None, "from_file": True}


# -- the engine ------------------------------------------------------------------------------------------


_Slot = tuple[EngineSettings, GameKind, tuple[int, int] | None]


class EnginePool:
    """A batch's engines: one per engine setting and kind of game (and per Go board too big for
    KataGo's usual build, which the registry gives to another engine), each opened on first need
    and kept for the next games until `close`."""

    def __init__(self) -> None:
        self._engines: dict[_Slot, EngineOnDemand] = {}
        self._plans: dict[_Slot, EnginePlan] = {}

    def plan(self, settings: EngineSettings, kind: GameKind, board: tuple[int, int] | None = None) -> EnginePlan:
        """What opens the engine of `settings` for `kind` (`board`: a Go board too big for KataGo's
        usual build, else None), made once: asking it whether KataGo reviews (to choose the Go
        limit) and the engines later opened for the games share one engine discovery."""
        from reviewer.core.engines.registry import EnginePlan

        slot = (settings, kind, board)
        plan = self._plans.get(slot)
        if plan is None:
            plan = self._plans[slot] = EnginePlan(kind, name=settings.name, command=settings.command, board_size=board)
        return plan

    def for_game(self, settings: EngineSettings, game: Game) -> EngineOnDemand:
        from reviewer.core.engines.registry import board_beyond_usual_engine, engine_fingerprint

        board = board_beyond_usual_engine(game.kind, (game.board_width, game.board_height))
        slot = (settings, game.kind, board)
        engine = self._engines.get(slot)
        if engine is None:
            engine = self._engines[slot] = EngineOnDemand(
                self.plan(settings, game.kind, board).open,
                engine_fingerprint(game.kind, name=settings.name, command=settings.command),
            )
        return engine

    def discard(self, engine: EngineOnDemand) -> None:
        """Close an engine that failed; the next game of its kind starts a new one."""
        for slot, held in list(self._engines.items()):
            if held is engine:
                del self._engines[slot]
        _close_quietly(engine)

    def close(self) -> None:
        engines, self._engines = list(self._engines.values()), {}
        for engine in engines:
            _close_quietly(engine)


def _close_quietly(engine: EngineOnDemand) -> None:
    try:
        engine.close()
    except Exception:  # an engine that died may fail to close; it is gone either way
        pass


# -- one review -------------------------------------------------------------------------------------------


def review_game(
    task: GameTask,
    engines: EnginePool,
    cache: AnalysisCache | None = None,
    stop: threading.Event | None = None,
    on_progress: ProgressCallback | None = None,
) -> GameResult:
    """Review the task's game: from the figures its file carries when the task says it carries
    some and they can be imported, else with its engine (the cache first, as `analyse_game` does).
    Failures come back as a result with `error` and `error_kind`, never as an exception."""
    stop = stop if stop is not None else threading.Event()
    try:
        game = parse_task_game(task)
    except (ReviewerError, ValueError) as error:
        return _failed(task, "bad-game", str(error))
    not_imported = ""
    if task.carries_evaluations:
        imported, not_imported = import_evaluations(task, game)
        if imported is not None:
            return imported
    result = _review_with_engine(task, game, engines, cache, stop, on_progress)
    return replace(result, not_imported=not_imported) if not_imported else result


def _review_with_engine(
    task: GameTask,
    game: Game,
    engines: EnginePool,
    cache: AnalysisCache | None,
    stop: threading.Event,
    on_progress: ProgressCallback | None,
) -> GameResult:
    engine = engines.for_game(task.engine, game)
    table = EvaluationTable()
    try:
        for evaluation in analyse_game(
            game,
            None,
            task.limit,
            stop,
            cache=cache,
            on_progress=on_progress,
            engine_factory=engine.open,
            engine_fingerprint=engine.fingerprint,
        ):
            table.add(evaluation)
    except EngineNotFound as error:
        kind: ErrorKind = "engine-missing" if engine.engine is None else "engine-unsuitable"
        return _failed(task, kind, str(error))
    except EngineUnsuitable as error:
        return _failed(task, "engine-unsuitable", str(error))
    except EngineError as error:
        engines.discard(engine)
        return _failed(task, "engine-failed", str(error))
    except (ReviewerError, ValueError) as error:  # a variant no engine plays, a position it refuses
        return _failed(task, "bad-game", str(error))
    identity = engine.identity(cache)
    engine_info = None
    if identity is not None:
        engine_info = {"name": identity, "id": identity_key(identity, task.limit), "limit": task.limit.describe()}
    wanted = set(range(analysable_ply_count(game) + 1))
    complete = not stop.is_set() and wanted <= set(table.by_ply)
    report = build_report(game, table, ReportOptions(preset=task.preset, skip_book=task.skip_book), engine_info)
    report["complete"] = complete
    cards = _cards(game, table) if complete else ()
    return GameResult(key=task.key, report=report, complete=complete, positions=len(table), cards=cards)


class _RecordingCache(AnalysisCache):
    """A private analysis cache that also keeps a list of what was written into it."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.entries: list[CacheEntry] = []
        self.engines: list[tuple[str, str]] = []

    def put(self, key: str, engine_id: str, evaluation: Evaluation) -> None:
        super().put(key, engine_id, evaluation)
        self.entries.append(CacheEntry(key, engine_id, evaluation.to_json()))

    def remember_engine(self, fingerprint: str, identity: str) -> None:
        super().remember_engine(fingerprint, identity)
        self.engines.append((fingerprint, identity))


def review_game_detached(task: GameTask) -> GameResult:
    """`review_game` on a worker that cannot reach the driver's analysis cache (a Ray task): it
    opens its own engine, reviews into a private cache and returns that cache's rows with the
    result, for the driver to store (`replay_into_cache`)."""
    engines = EnginePool()
    with tempfile.TemporaryDirectory(prefix="reviewer-batch-") as folder:
        cache = _RecordingCache(Path(folder) / "analysis.sqlite")
        try:
            result = review_game(task, engines, cache)
        finally:
            engines.close()
            cache.close()
    return replace(
        result,
        worker=f"{socket.gethostname()} pid {os.getpid()}",
        cache_entries=tuple(cache.entries),
        engines_seen=tuple(cache.engines),
    )


def replay_into_cache(cache: AnalysisCache, result: GameResult) -> None:
    """Write the cache rows a detached review made into the driver's cache."""
    for entry in result.cache_entries:
        cache.put(entry.position_key, entry.engine_id, Evaluation.from_json(entry.evaluation))
    for fingerprint, identity in result.engines_seen:
        cache.remember_engine(fingerprint, identity)

