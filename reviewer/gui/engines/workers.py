"""Work that must not run on the GUI thread: engine analysis, reading and writing files.

Each job runs in a daemon thread and talks to the GUI only through Qt signals of an object that
lives on the GUI thread, so every slot runs there. What crosses is immutable (frozen dataclasses,
`Evaluation`s, finished `Game`s that the GUI then owns). The analysis thread owns its engine: it
opens it only when a position is missing from the analysis cache (a game analysed before starts no
engine process), uses it and closes it in `finally`; stopping sets a `threading.Event` the engine
checks.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QObject, Signal

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit
from reviewer.core.engines.base import Engine
from reviewer.core.errors import ReviewerError
from reviewer.core.games import game_support, shown_engine_name
from reviewer.core.gametree import Game
from reviewer.core.passes import PassCallback, PassStanding, PassStart, pass_text
from reviewer.core.review import EngineOnDemand, ProgressCallback
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.common.tasks import Task, TaskContext, Tasks
from reviewer.gui.presenters.analysis_state import PassProgress, RateWindow, ReviewEta

EngineOpener = Callable[[EngineChoice], Engine]
# What recognises the engine a choice runs without starting it (None: it cannot be recognised).
EngineFingerprinter = Callable[[EngineChoice], "str | None"]
# (game, engine opened on first need, limit, stop, plies, on_progress, on_pass) -> the evaluations,
# each as soon as it is known; on_pass is told when each pass of a review in passes begins
AnalyseFunction = Callable[
    [Game, EngineOnDemand, Limit, threading.Event, Sequence[int], ProgressCallback, "PassCallback | None"],
    Iterator[Evaluation],
]

RATE_WINDOW = 12  # evaluations the speed is measured over


@dataclass(frozen=True)
class AnalysisJob:
    game: Game
    engine: EngineChoice
    limit: Limit
    plies: tuple[int, ...]
    # The limit when the built-in Go engine reviews after all (a KataGo found that does not start):
    # set when `limit` is the default chosen for KataGo, which would be too few playouts for it.
    limit_with_builtin: Limit | None = None


class _BuiltinInstead(Exception):
    """The engine that opened is the built-in Go engine, where the job's limit was meant for KataGo."""

    def __init__(self, engine: Engine) -> None:
        super().__init__("the built-in engine opened instead of KataGo")
        self.engine = engine


BUILTIN_INSTEAD_MESSAGE = "KataGo does not start: the built-in engine reviews the game at its own visits instead"


@dataclass(frozen=True)
class AnalysisProgress:
    done: int
    total: int
    positions_per_s: float | None
    eta_s: float | None
    engine_name: str
    stage: str | None = None  # the pass the latest figure came from ("pass 2 of 3 · 250k nodes")
    passes: PassProgress | None = None  # a review in passes: the pass under way and its own count
    standing: PassStanding | None = None  # a review in passes: how far it got, for the figures' basis


def import_go_engine_modules() -> None:
    """Import the in-process fallback engines one thread at a time (`registry.import_fallback_engines`)."""
    from reviewer.core.engines.registry import import_fallback_engines

    import_fallback_engines()


def open_engine_from_registry(choice: EngineChoice, live: bool = False) -> Engine:
    """The engine of `choice`; `live`: for the engine lines, whose first answers need not wait for
    KataGo's process to start (they come from its network, in-process)."""
    from reviewer.core.engines.registry import open_engine

    if game_support(choice.kind).fallback_engine:
        import_go_engine_modules()

    return open_engine(choice.kind, choice.name, choice.command, start_in_background=live)


def fingerprint_from_registry(choice: EngineChoice) -> str | None:
    """`registry.engine_fingerprint` of the choice; None when the engine cannot be recognised
    unstarted (it is then started for every analysis). Reads the disk."""
    from reviewer.core.engines.registry import engine_fingerprint

    try:
        return engine_fingerprint(choice.kind, choice.name, choice.command)
    except (OSError, ReviewerError):
        return None


def analyse_with_review(
    game: Game,
    engine: EngineOnDemand,
    limit: Limit,
    stop: threading.Event,
    plies: Sequence[int],
    on_progress: ProgressCallback,
    on_pass: PassCallback | None = None,
) -> Iterator[Evaluation]:
    """`reviewer.core.review.analyse_game` with the user's analysis cache; the engine is opened
    only when a position is missing from it. The caller closes `engine`."""
    from reviewer.core.cache import AnalysisCache
    from reviewer.core.review import analyse_game

    cache = AnalysisCache()
    try:
        yield from analyse_game(
            game,
            engine.engine,
            limit,
            stop=stop,
            cache=cache,
            plies=plies,
            on_progress=on_progress,
            on_pass=on_pass,
            engine_factory=engine.open,
            engine_fingerprint=engine.fingerprint,
        )
    finally:
        cache.close()


@dataclass(frozen=True)
class _Named:
    name: str  # the engine as people name it, once it opened


@dataclass(frozen=True)
class _Identified:
    choice: EngineChoice
    identity: str  # what the engine said it is: the cache's key


@dataclass(frozen=True)
class _Counted:
    done: int  # positions searched in the pass
    total: int  # of those it will search
    at_s: float


@dataclass(frozen=True)
class _PassBegun:
    start: PassStart
    at_s: float


@dataclass(frozen=True)
class _Failed:
    message: str


@dataclass(frozen=True)
class _Warned:
    message: str


class AnalysisRunner(QObject):
    """Runs one analysis at a time. Resuming is starting again: the cache answers done positions."""

    evaluation_ready = Signal(object)  # Evaluation
    progress_changed = Signal(object)  # AnalysisProgress
    failed = Signal(str)  # a one-line message for the status bar
    finished = Signal(bool)  # True when every position was analysed, False when stopped or failed
    started = Signal(object)  # AnalysisJob
    engine_identified = Signal(object, str)  # EngineChoice, the identity its engine gave (cache key)
    warned = Signal(str)  # something the engine said was wrong with a query (e.g. KataGo's warnings)

    def __init__(
        self,
        open_engine: EngineOpener = open_engine_from_registry,
        analyse: AnalyseFunction = analyse_with_review,
        parent: QObject | None = None,
        fingerprint: EngineFingerprinter = fingerprint_from_registry,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`clock`: seconds, read when a position is known (the speed and the ETA come from it)."""
        super().__init__(parent)
        self._clock = clock
        self._open_engine = open_engine
        self._fingerprint = fingerprint
        self._analyse = analyse
        self._job: AnalysisJob | None = None
        self._task: Task | None = None  # the job's work; what an older one still reports is dropped
        self._stop = threading.Event()
        self._tasks = Tasks(self)
        self._done_plies: set[int] = set()
        self._stage: str | None = None
        self._rate = RateWindow(RATE_WINDOW)
        self._eta = ReviewEta()
        self._counted = False  # the analysis counts its searched positions (else evaluations are counted)
        self._pass: PassProgress | None = None
        self._scheme_engine_id = ""  # the engine id of a review in passes' evaluations, once one came
        self._engine_name = ""

    # -- control (GUI thread) ------------------------------------------------------------------
    def is_running(self) -> bool:
        return self._job is not None

    @property
    def job(self) -> AnalysisJob | None:
        return self._job

    def start(self, job: AnalysisJob) -> None:
        """Start `job`, stopping any analysis under way (its late results are dropped)."""
        self.stop()
        self._job = job
        self._stop = stop = threading.Event()
        self._done_plies = set()
        self._stage = None
        self._rate.reset()
        self._eta = ReviewEta()
        self._counted = False
        self._pass = None
        self._scheme_engine_id = ""
        self._engine_name = job.engine.describe()
        if self._tasks.closed:  # started again after a shutdown
            self._tasks = Tasks(self)
        self._task = task = self._tasks.submit(self._run, job, stop, with_context=True, must_finish=True, name="analysis")
        task.progress.connect(lambda event: self._on_event(task, event))
        task.done.connect(lambda completed: self._on_finished(task, bool(completed)))
        task.failed.connect(lambda message: self._on_crashed(task, message))
        self.started.emit(job)
        self._emit_progress()

    def stop(self) -> None:
        """Ask the running analysis to stop; returns at once (the engine closes in its thread)."""
        if self._job is None:
            return
        self._stop.set()
        self._job = None
        self._task = None  # whatever the old work still sends is stale now
        self.finished.emit(False)

    def shutdown(self, timeout_s: float = 3.0) -> bool:
        """Stop and wait for the engine to close; True when the thread ended in time.

        Nothing is signalled afterwards: a thread still closing its engine ends silently.
        """
        self.stop()
        return self._tasks.shutdown(timeout_s)

    # -- the worker thread ---------------------------------------------------------------------
    def _run(self, context: TaskContext, job: AnalysisJob, stop: threading.Event) -> bool:
        """The job, in its worker thread: what happens is reported as `_Event`s; True when done."""
        report = context.report
        engine: EngineOnDemand | None = None
        completed = False

        def named(opened: Engine) -> Engine:
            report(_Named(_engine_label(opened, job.engine)))
            identity = getattr(opened, "identity", None)
            if isinstance(identity, str) and identity:
                report(_Identified(job.engine, identity))
            return opened

        def open_and_name() -> Engine:
            opened = self._open_engine(job.engine)
            if job.limit_with_builtin is not None and game_support(job.game.kind).is_fallback_identity(str(getattr(opened, "identity", ""))):
                raise _BuiltinInstead(opened)
            return named(opened)

        def on_progress(done: int, total: int, _rate: float | None, _eta: float | None) -> None:
            report(_Counted(done, total, self._clock()))

        def on_pass(start: PassStart) -> None:
            report(_PassBegun(start, self._clock()))

        def analyse(limit: Limit) -> None:
            assert engine is not None
            for evaluation in self._analyse(job.game, engine, limit, stop, job.plies, on_progress, on_pass):
                if stop.is_set():
                    break
                report(evaluation)

        try:
            engine = EngineOnDemand(open_and_name, self._fingerprint(job.engine))
            try:
                analyse(job.limit)
            except _BuiltinInstead as instead:
                assert job.limit_with_builtin is not None
                report(_Warned(BUILTIN_INSTEAD_MESSAGE))
                builtin = instead.engine
                engine = EngineOnDemand(lambda: builtin)
                engine.engine = named(builtin)  # open already: closed below whatever happens
                analyse(job.limit_with_builtin)
            completed = not stop.is_set()
        except ReviewerError as error:
            report(_Failed(str(error)))
        except Exception as error:  # an engine or adapter bug: report it, keep the app alive
            report(_Failed(f"analysis failed: {type(error).__name__}: {error}"))
        finally:
            if engine is not None:
                for warning in dict.fromkeys(getattr(engine.engine, "warnings", None) or ()):
                    report(_Warned(str(warning)))
            if engine is not None:  # closes the engine if it was opened
                try:
                    engine.close()
                except Exception:
                    pass
        return completed

    # -- back on the GUI thread ----------------------------------------------------------------
    def _on_event(self, task: Task, event: object) -> None:
        if isinstance(event, _Identified):  # the engine's identity is true whatever became of the job
            self.engine_identified.emit(event.choice, event.identity)
            return
        if task is not self._task:
            return
        match event:
            case Evaluation():
                self._on_evaluation(event)
            case _Named(name=name) if name:
                self._engine_name = name
                self._emit_progress()
            case _Counted():
                self._on_counted(event.done, event.total, event.at_s)
            case _PassBegun():
                self._on_pass(event.start, event.at_s)
            case _Failed(message=message):
                self.failed.emit(message)
            case _Warned(message=message):
                self.warned.emit(message)

    def _on_crashed(self, task: Task, message: str) -> None:
        if task is self._task:
            self.failed.emit(f"analysis failed: {message}")
            self._on_finished(task, False)

    def _on_counted(self, done: int, total: int, at_s: float) -> None:
        if not self._counted:  # figures from the cache came in a burst before: not a speed
            self._counted = True
            self._rate.reset()
        self._rate.add(done, at_s)
        self._eta.searched(done, at_s, total)
        if self._pass is not None:
            self._pass = replace(self._pass, done=done, total=max(total, self._pass.total))
        self._emit_progress()

    def _on_pass(self, start: PassStart, at_s: float) -> None:
        cached = max(0, (start.in_doubt if start.in_doubt is not None else start.positions) - start.positions)
        self._pass = PassProgress(start.index, start.count, 0, start.positions, cached)
        self._rate.reset()
        self._eta.start_pass(start.index, start.positions, at_s, start.pass_budgets)
        self._emit_progress()

    def _on_evaluation(self, evaluation: Evaluation) -> None:
        if self._job is None:
            return
        self._done_plies.add(evaluation.ply)
        if evaluation.review_pass is not None:
            self._stage = pass_text(evaluation.engine_id, evaluation.review_pass)
            self._scheme_engine_id = evaluation.engine_id
        if not self._counted:
            self._rate.add(len(self._done_plies), self._clock())
        self.evaluation_ready.emit(evaluation)
        self._emit_progress()

    def _on_finished(self, task: Task, completed: bool) -> None:
        if task is not self._task:
            return
        self._job = None
        self._task = None
        self.finished.emit(completed)

    def _emit_progress(self) -> None:
        if self._job is None:
            return
        total = len(self._job.plies)
        done = len(self._done_plies & set(self._job.plies))
        rate = self._rate.rate()
        passes = self._pass if self._pass is not None and self._pass.count > 1 else None
        eta = self._eta.eta_s() if self._counted else (total - done) / rate if rate else None
        standing = None
        if self._pass is not None and self._scheme_engine_id:
            step = self._pass
            standing = PassStanding(self._scheme_engine_id, step.index, step.count, step.cached + step.total, step.cached + step.done)
        self.progress_changed.emit(AnalysisProgress(done, total, rate, eta, self._engine_name, self._stage, passes, standing))


def _engine_label(engine: Engine, choice: EngineChoice) -> str:
    return engine_display_name(str(getattr(engine, "identity", "") or "")) or choice.describe()


def engine_display_name(identity: str) -> str:
    """An engine's name and version for people, without the options in its identity:
    'builtin-go 1.0 playouts=2000 rave seed=0' → 'builtin-go 1.0 rave'; Reviewer's own search over
    KataGo's network by the name every place gives it (its game's `engine_names`)."""
    shown = shown_engine_name(identity)
    if shown:
        return shown
    name = identity.split(",")[0].split("|")[0].split(" [")[0]
    return " ".join(word for word in name.split() if "=" not in word)


@dataclass(frozen=True)
class _NamedEngine:
    """Stands for an engine that is not running, by the identity it gave: `engine_key` needs no more."""

    identity: str


def cached_evaluations(
    game: Game, identities: Sequence[str], limit: Limit, cache_path: str | None = None
) -> tuple[str, tuple[Evaluation, ...]] | None:
    """What the analysis cache holds for the main line of `game` from the first engine identity
    (with `limit`) that it has anything for: (identity, evaluations); None when it has nothing.
    Reads the disk: call it off the GUI thread."""
    from reviewer.core.cache import AnalysisCache, position_keys
    from reviewer.core.review import cached_results, engine_key

    if not identities:
        return None
    plies = range(game.ply_count + 1)
    keys = position_keys(game, plies)
    with AnalysisCache(cache_path) as cache:
        for identity in dict.fromkeys(identities):
            found = cached_results(cache, keys.values(), engine_key(_NamedEngine(identity), limit), limit)  # type: ignore[arg-type]
            if found:
                evaluations = tuple(found[keys[ply]].with_ply(ply) for ply in plies if keys[ply] in found)
                return identity, evaluations
    return None


def _pass_standing(cache: Any, game: Game, identity: str, limit: Limit) -> PassStanding | None:
    from reviewer.core.cache import position_keys
    from reviewer.core.passes import pass_cache_id, review_standing, scheme_from_id
    from reviewer.core.review import engine_key

    if limit.scheme is None:
        return None
    scheme = scheme_from_id(limit.scheme)
    keys = position_keys(game, range(game.ply_count + 1))
    cache_id = engine_key(_NamedEngine(identity), limit)  # type: ignore[arg-type]
    by_pass: list[dict[int, Evaluation]] = []
    for index in range(1, scheme.pass_count + 1):
        found = cache.get_many(list(dict.fromkeys(keys.values())), pass_cache_id(cache_id, index))
        by_pass.append({ply: found[key].with_ply(ply) for ply, key in keys.items() if key in found})
    return review_standing(game, scheme, by_pass, cache_id)


@dataclass(frozen=True)
class CachedAnalysis:
    """One engine setting's analysis of a game found in the cache."""

    identity: str
    limit: Limit
    evaluations: tuple[Evaluation, ...]
    standing: PassStanding | None  # a review in passes: how far it got
    complete: bool  # every move analysed by every pass
    moves_analysed: int
    chosen: bool  # under the budget chosen now, by one of the identities the chosen engine may have
    matched_identity: bool = False  # its identity is one the chosen engine was known to have


def best_cached_analysis(
    game: Game,
    identities: Sequence[str],
    limit: Limit,
    cache_path: str | None = None,
    also_chosen: Callable[[str], bool] | None = None,
) -> CachedAnalysis | None:
    """The best analysis the cache holds for the main line of `game`, whatever engine setting made
    it: the chosen budget's (`limit`, by one of `identities`) when it is complete, else a complete
    one, else the one that covers most moves (the chosen budget's among equals). The cache is asked
    which settings have the game's positions, so no engine need be known or started. None when it
    holds nothing. `also_chosen`: whether an identity not among `identities` is the chosen engine's
    too (the fallback engine's identity names its options: `GameSupport.is_fallback_identity`). Reads the disk: call it off the GUI thread."""
    from reviewer.core.cache import AnalysisCache, position_keys
    from reviewer.core.coverage import select_analysis
    from reviewer.core.review import cached_results

    plies = range(game.ply_count + 1)
    keys = position_keys(game, plies)
    wanted = set(identities)
    found: list[CachedAnalysis] = []
    with AnalysisCache(cache_path) as cache:
        settings = dict.fromkeys(_setting_of(cache_id) for cache_id in cache.engines_covering(keys.values()))
        for setting in settings:
            identity, _, described = setting.rpartition(" | ")
            try:
                setting_limit = Limit.parse(described)
                by_key = cached_results(cache, keys.values(), setting, setting_limit)
                standing = _pass_standing(cache, game, identity, setting_limit)
            except ValueError:  # written by another version (an unknown scheme or limit)
                continue
            evaluations = tuple(by_key[keys[ply]].with_ply(ply) for ply in plies if keys[ply] in by_key)
            if not identity or not evaluations:
                continue
            coverage = select_analysis(game, evaluations, standing=standing).coverage
            matched = identity in wanted or (also_chosen is not None and also_chosen(identity))
            chosen = setting_limit == limit and (matched or not (wanted or also_chosen))
            found.append(
                CachedAnalysis(
                    identity, setting_limit, evaluations, standing, coverage.complete, coverage.moves_analysed, chosen,
                    matched,
                )
            )
    if not found:
        return None
    return max(
        found,
        key=lambda one: (one.chosen and one.complete, one.complete, one.moves_analysed, one.chosen, one.matched_identity),
    )


def _setting_of(cache_id: str) -> str:
    """The engine setting (`identity | limit`) a cache id belongs to: a review in passes keeps each
    pass under its own id (`… | pass=2`)."""
    setting, _, index = cache_id.rpartition(" | pass=")
    return setting if setting and index.isdigit() else cache_id


def remembered_identity(choice: EngineChoice) -> str | None:
    """The identity the analysis cache remembers for the program `choice` runs (recognised by
    its files, without starting it); None when it cannot tell. Reads the disk."""
    from reviewer.core.cache import AnalysisCache

    fingerprint = fingerprint_from_registry(choice)
    if fingerprint is None:
        return None
    with AnalysisCache() as cache:
        return cache.engine_identity(fingerprint)


class AssessmentRunner(QObject):
    """Scores games off the GUI thread, the newest request first: requests that arrive while one
    is being worked on replace each other, and only the last of them is scored next.

    `request` matches `ReviewModel.set_background_assessor`; `ready` carries
    (generation, assessment or None, error or None) to `ReviewSession.accept_assessment`.
    """

    ready = Signal(int, object, object)
    PAUSE_PER_WORK = 3.0  # after scoring for t seconds, wait 3·t before the next: at most 25 % busy
    MAX_PAUSE_S = 1.0

    def __init__(self, assess: Callable[[Game, EvaluationTable, str], tuple[Any, str | None]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._assess = assess
        self._lock = threading.Lock()
        self._latest: tuple[int, Game, EvaluationTable, str] | None = None
        self._working = False  # a task is scoring; it takes the latest request next
        self._closing = threading.Event()
        self._tasks = Tasks(self)

    def request(self, generation: int, game: Game, evaluations: EvaluationTable, preset: str) -> None:
        with self._lock:
            self._latest = (generation, game, evaluations, preset)
            if self._working:
                return
            self._working = True
        task = self._tasks.submit(self._work, with_context=True, must_finish=True, name="assessment")
        task.progress.connect(lambda result: self.ready.emit(*result))

    def busy(self) -> bool:
        with self._lock:
            return self._working

    def shutdown(self, timeout_s: float = 2.0) -> bool:
        """Drop what is waiting, let the scoring under way end; nothing is signalled afterwards."""
        with self._lock:
            self._latest = None
        self._closing.set()
        return self._tasks.shutdown(timeout_s)

    def _work(self, context: TaskContext) -> None:
        while True:
            with self._lock:
                job, self._latest = self._latest, None
                if job is None:
                    self._working = False
                    return
            generation, game, evaluations, preset = job
            started = time.monotonic()
            try:
                assessment, error = self._assess(game, evaluations, preset)
            except Exception as problem:  # the assess function reports its own failures; be sure
                assessment, error = None, f"scoring failed: {problem}"
            spent = time.monotonic() - started
            context.report((generation, assessment, error))
            # Scoring holds the interpreter: leave the GUI thread most of it while evaluations
            # keep coming (the newest request waits meanwhile and is scored next).
            self._closing.wait(min(self.MAX_PAUSE_S, spent * self.PAUSE_PER_WORK))


