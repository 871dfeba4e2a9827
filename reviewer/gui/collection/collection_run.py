"""The Collection window's background work: a batch review in one worker thread, and short jobs
(player names, insights, exports) on a thread pool.

The batch thread (named `analysis-collection`) plans the games (`batch.plan_batch`), runs
`batch.run_batch` with this machine's executor, the batch store (what is finished is kept and
skipped next time) and the analysis cache, and ends with the insights of every game it found:
finished games with their reports, the others as unanalysed reports (counted in results, left out
of the figures). Everything it tells the GUI thread goes through queued signals as immutable data,
each tagged with its run's number, so an answer from an earlier run can be told apart.
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from reviewer.core.analysis import EvaluationTable
from reviewer.core.games import game_support, registered_games
from reviewer.core.gametree import GameKind
from reviewer.core.services.batch.plan import BatchGame, BatchPlan
from reviewer.core.services.batch.runner import (
    BatchOutcome,
    BatchProgress,
    BatchSettings,
    GameEvent,
    report_with_source,
)
from reviewer.core.services.batch.task import EnginePool, EngineSettings
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.presenters.collection import RunCounts, problem_line


def engine_settings(choice: EngineChoice) -> EngineSettings:
    """The batch's engine for a window's engine choice (a custom command wins over a name)."""
    if choice.command:
        return EngineSettings(command=tuple(shlex.split(choice.command)))
    return EngineSettings(name=choice.name)


@dataclass(frozen=True)
class BatchRequest:
    paths: tuple[str, ...]
    player: str | None
    settings: Mapping[GameKind, BatchSettings]  # what reviews the games of each kind
    store_path: Path | None = None  # None: the batch store beside Reviewer's other data
    go_limit_from_engine: bool = False  # Go's limit is the default of the engine that reviews (found by the run)


@dataclass(frozen=True)
class RunProgress:
    done: int
    total: int
    eta_s: float | None
    failed: int = 0
    later_kind: str | None = None  # that kind's games come after these, with their own engine
    current: str = ""  # the game under review: path#N
    positions: tuple[int, int] | None = None  # its positions evaluated, and in all


@dataclass(frozen=True)
class RunResult:
    """The end of a run; the reports are handed over and no longer touched by the worker."""

    reports: tuple[dict[str, Any], ...]  # every readable game of the plan, in its order
    insights: dict[str, Any]  # collection_insights(reports): every player
    counts: RunCounts
    sources: tuple[str, ...]  # the game files read


class RunSignals(QObject):
    progress = Signal(int, object)  # run number, RunProgress
    problem = Signal(int, str)  # run number, one line
    engine_missing = Signal(int, str, str)  # run number, kind, the reason
    finished = Signal(int, object)  # run number, RunResult
    failed = Signal(int, str)  # run number, why the run could not go on


def _groups(games: Sequence[BatchGame], settings: Mapping[GameKind, BatchSettings]) -> list[tuple[BatchSettings, list[BatchGame]]]:
    """The games by the settings that review them, chess first: one group when both kinds share an engine."""
    groups: list[tuple[BatchSettings, list[BatchGame]]] = []
    for kind in (support.kind for support in registered_games()):  # chess first
        wanted = [game for game in games if game.kind == kind]
        if not wanted:
            continue
        chosen = settings[kind]
        same = next((group for group in groups if group[0].engine == chosen.engine), None)
        if same is not None:
            same[1].extend(wanted)
        else:
            groups.append((chosen, wanted))
    return groups


def _unanalysed_report(game: BatchGame, settings: BatchSettings) -> dict[str, Any] | None:
    """A report without evaluations for a game that was not finished: its result still counts."""
    from reviewer.core.formats import game_from_pgn_text, game_from_sgf_text
    from reviewer.core.report import ReportOptions, build_report

    try:
        parsed = game_from_pgn_text(game.text) if game.text_format == "pgn" else game_from_sgf_text(game.text)
        report = build_report(parsed, EvaluationTable(), ReportOptions(preset=settings.preset, skip_book=settings.skip_book))
    except Exception:  # a game the runner could not read either: its problem line says so
        return None
    return report_with_source(report, game, imported=False)


def run_collection(number: int, request: BatchRequest, stop: threading.Event, signals: RunSignals) -> None:
    """The batch thread's work, start to end; every failure becomes a signal."""
    try:
        result = _run(number, request, stop, signals)
    except Exception as error:
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        signals.failed.emit(number, detail)
    else:
        signals.finished.emit(number, result)


def _with_engines_go_default(settings: BatchSettings, engines: EnginePool) -> BatchSettings:
    """The settings with Go's default limit for the engine that will review: the review in passes
    with KataGo, the built-in engine's visits otherwise (asks for engines: off the GUI thread; the
    engines `engines` opens later share that discovery)."""
    from reviewer.gui.common.settings import default_limit

    katago = engines.plan(settings.engine, "go").runs_katago
    return replace(settings, go_limit=default_limit("go", runs_fallback=not katago))


def _run(number: int, request: BatchRequest, stop: threading.Event, signals: RunSignals) -> RunResult:
    from reviewer.core.cache import AnalysisCache
    from reviewer.core.services.batch.local import LocalExecutor
    from reviewer.core.services.batch.plan import plan_batch
    from reviewer.core.services.batch.runner import run_batch
    from reviewer.core.services.batch.store import BatchStore
    from reviewer.core.services.insights import collection_insights

    plan: BatchPlan = plan_batch(list(request.paths), request.player or None)
    for line in plan.problems:
        signals.problem.emit(number, line)
    total = len(plan.games)
    signals.progress.emit(number, RunProgress(0, total, None))
    if any(game_support(game.kind).fallback_engine for game in plan.games):
        from reviewer.gui.engines.workers import import_go_engine_modules

        import_go_engine_modules()  # one thread at a time, as the window's own workers do

    settings_of_kind = dict(request.settings)
    engines = EnginePool()  # one engine discovery for the Go limit and every group's engines
    if request.go_limit_from_engine:
        for kind in {game.kind for game in plan.games if game_support(game.kind).fallback_engine}:
            settings_of_kind[kind] = _with_engines_go_default(settings_of_kind[kind], engines)
    outcomes: list[BatchOutcome] = []
    groups = _groups(plan.games, settings_of_kind)
    store = BatchStore(request.store_path)
    cache = AnalysisCache()
    deck = _open_deck(number, signals)  # the games' mistakes become training cards
    try:
        before = 0
        for position, (settings, games) in enumerate(groups):
            later = groups[position + 1][1][0].kind if position + 1 < len(groups) else None
            relay = _ProgressRelay(number, signals, before, total, later)

            def event(told: GameEvent) -> None:
                if told.status != "failed":
                    return
                if told.error_kind == "engine-missing":
                    signals.engine_missing.emit(number, told.game.kind, told.message)
                else:
                    signals.problem.emit(number, problem_line(told.game.label, told.message))

            executor = LocalExecutor(cache, engines)  # its close() closes the engines, not the discovery
            try:
                outcome = run_batch(
                    games, settings, store, executor, cache=cache, stop=stop, on_progress=relay.tell, on_event=event,
                    on_cards=deck.add if deck is not None else None, cards_player=request.player,
                )
            finally:
                executor.close()
            if outcome.store_problem:
                signals.problem.emit(number, f"finished games could not all be kept for the next run: {outcome.store_problem}")
            if outcome.cards_problem:
                signals.problem.emit(number, outcome.cards_problem)
            outcomes.append(outcome)
            before += len(games)
            if stop.is_set():
                break
    finally:
        store.close()
        cache.close()
        if deck is not None:
            deck.close()

    finished: dict[str, Any] = {}
    for outcome in outcomes:
        finished.update(outcome.finished)
    reports: list[dict[str, Any]] = []
    for game in plan.games:
        done = finished.get(game.key)
        if done is not None:
            reports.append(report_with_source(done.report, game, done.imported))
            continue
        stub = _unanalysed_report(game, settings_of_kind[game.kind])
        if stub is not None:
            reports.append(stub)
    missing_failures = sum(1 for o in outcomes for f in o.failures if f.error_kind == "engine-missing")
    counts = RunCounts(
        total=total,
        already_done=sum(o.already_done for o in outcomes),
        imported=sum(o.imported for o in outcomes),
        analysed=sum(o.analysed for o in outcomes),
        failed=sum(len(o.failures) for o in outcomes) - missing_failures,
        skipped=sum(o.skipped for o in outcomes) + missing_failures,
        cancelled=stop.is_set(),
        unreadable=len(plan.problems),
        duplicates=len(plan.duplicates),
        not_played=plan.not_played,
        cards_added=sum(o.cards_added for o in outcomes),
        cards_player=request.player,
    )
    signals.progress.emit(number, RunProgress(len(finished) + counts.failed + counts.skipped, total, None, counts.failed))
    sources = tuple(dict.fromkeys(game.path for game in plan.games))
    return RunResult(tuple(reports), collection_insights(reports), counts, sources)


def _open_deck(number: int, signals: RunSignals) -> Any:
    from reviewer.core.services.trainer.deck import Deck

    try:
        return Deck()
    except Exception as error:  # the trainer's deck unreadable: the review goes on without cards
        signals.problem.emit(number, f"no training cards: cannot open the deck: {error}")
        return None


class _ProgressRelay:
    """Passes one group's progress on as the whole run's. Every step is sent (the last one before
    a long search must not be lost); the window draws at most ten a second."""

    def __init__(self, number: int, signals: RunSignals, before: int, total: int, later_kind: str | None) -> None:
        self.number, self.signals = number, signals
        self.before, self.total, self.later_kind = before, total, later_kind

    def tell(self, step: BatchProgress) -> None:
        progress = RunProgress(
            self.before + step.done, self.total, step.eta_s, step.failed, self.later_kind, step.current, step.positions
        )
        self.signals.progress.emit(self.number, progress)


class _Channel:
    """Stands in the run's thread for one of `RunSignals`' signals: what is emitted travels through
    the run's task and is emitted on the window's thread."""

    def __init__(self, name: str, report: Callable[[object], None]) -> None:
        self._name, self._report = name, report

    def emit(self, *args: Any) -> None:
        self._report((self._name, args))


class _RunRelay:
    """What the run's thread is handed in place of `RunSignals` (a Qt object it must not touch)."""

    def __init__(self, report: Callable[[object], None]) -> None:
        for name in RUN_SIGNALS:
            setattr(self, name, _Channel(name, report))


RUN_SIGNALS = ("progress", "problem", "engine_missing", "finished", "failed")  # of RunSignals


class CollectionRun:
    """One batch review at a time, off the window's thread; `cancel` asks it to stop (it keeps what
    is finished). A run is under way from `start` until the GUI thread has its answer (`ended`), so
    that a new one may start while the last one is still returning."""

    def __init__(self, signals: RunSignals) -> None:
        self.signals = signals
        self.number = 0
        self._tasks = Tasks(signals)
        self._stop = threading.Event()
        self._under_way = False

    def start(self, request: BatchRequest) -> int:
        if self._under_way:
            raise RuntimeError("a batch review is already running")
        self.number += 1
        self._stop = stop = threading.Event()
        number = self.number
        if self._tasks.closed:
            self._tasks = Tasks(self.signals)
        task = self._tasks.submit(
            lambda context: run_collection(number, request, stop, _RunRelay(context.report)),  # type: ignore[arg-type]
            with_context=True, must_finish=True,
        )
        task.progress.connect(self._relay)
        self._under_way = True
        return number

    def _relay(self, event: object) -> None:
        assert isinstance(event, tuple)
        name, args = event
        getattr(self.signals, str(name)).emit(*args)

    def ended(self, number: int) -> None:
        """The answer of run `number` has reached the GUI thread."""
        if number == self.number:
            self._under_way = False

    def cancel(self) -> None:
        self._stop.set()

    def is_running(self) -> bool:
        return self._under_way

    def shutdown(self, timeout_s: float) -> None:
        """Stop and wait a bounded time (the window is closing with the app): the run ends its
        search and records what it finished first. Answers still queued are stale afterwards."""
        self._stop.set()
        self._tasks.shutdown(timeout_s)
        self._under_way = False
        self.number += 1


# ------------------------------------------------------------------------------ short jobs


def player_names(paths: Sequence[str], should_stop: Callable[[], bool]) -> tuple[str, ...]:
    """Every player named in the files, most games first (for completing the player's name)."""
    from reviewer.core.rating.sources import load_records

    counts: dict[str, int] = {}
    shown: dict[str, str] = {}
    for record in load_records(paths, should_stop=should_stop).records:
        for name in (record.white, record.black):
            name = " ".join(name.split())
            key = name.casefold()
            if not key.strip("?"):
                continue
            counts[key] = counts.get(key, 0) + 1
            shown.setdefault(key, name)
    return tuple(shown[key] for key in sorted(counts, key=lambda k: (-counts[k], k)))


def write_export(path: Path, reports: Sequence[Mapping[str, Any]], player: str | None, form: str, sources: Sequence[str]) -> str:
    """The insights as CSV or HTML, written atomically; never over one of the game files."""
    from reviewer.core.export import save_text
    from reviewer.core.services.insights import collection_insights, insights_csv, insights_html

    insights = collection_insights(reports, player)
    text = insights_csv(insights) if form == "csv" else insights_html(insights)
    save_text(path, text, list(sources))
    return str(path)
