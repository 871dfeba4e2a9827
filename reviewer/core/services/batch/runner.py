"""Running a batch: what is finished comes from the store, the rest goes to an executor (this
process, or a Ray cluster), whose tasks import the figures a file carries or else review with the
engine, and every finished game is recorded.

The driver (this process) alone writes the batch store and the analysis cache, whichever executor
reviews; an executor only hands results back through `on_result`, one game at a time, on the
driver's thread. Progress counts games (done, total) with an ETA from the positions evaluated so
far in this run; `stop` ends the run promptly, and whatever was finished is recorded by then.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, assert_never

from reviewer.core.analysis import Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.games.support import game_support
from reviewer.core.gametree import GameKind
from reviewer.core.scoring.common import Preset
from reviewer.core.services.batch.plan import BatchGame
from reviewer.core.services.batch.store import BatchStore, FinishedGame, StoreError
from reviewer.core.services.batch.task import (
    EngineSettings,
    ErrorKind,
    GameResult,
    GameTask,
    replay_into_cache,
)
from reviewer.core.services.trainer.cards import Card, cards_of_player

__all__ = [
    "BatchOutcome",
    "BatchProgress",
    "BatchSettings",
    "Executor",
    "GameEvent",
    "GameStatus",
    "report_with_source",
    "run_batch",
    "setting_of",
]

ResultCallback = Callable[[GameTask, GameResult], None]
PositionsCallback = Callable[[GameTask, int, int], None]  # (task, positions done, positions in all)


class Executor(Protocol):
    """Reviews tasks and hands each result to `on_result` on the calling thread, in any order.
    It asks `wanted(task)` before it starts a task (a task not wanted any more is left out), returns
    soon after `stop` is set, and may report a running game's positions with `on_positions`."""

    def run(
        self,
        tasks: Sequence[GameTask],
        stop: threading.Event,
        on_result: ResultCallback,
        wanted: Callable[[GameTask], bool],
        on_positions: PositionsCallback,
    ) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class BatchSettings:
    """What reviews every game: the engine, a limit per kind of game, the scoring options."""

    engine: EngineSettings
    chess_limit: Limit
    go_limit: Limit
    preset: Preset = "lichess"
    skip_book: bool = False

    def limit_for(self, kind: GameKind) -> Limit:
        unit = game_support(kind).work_unit
        match unit:
            case "nodes":
                return self.chess_limit
            case "visits":
                return self.go_limit
            case _:
                assert_never(unit)


def setting_of(settings: BatchSettings, kind: GameKind) -> tuple[str, str]:
    """(setting id, what it stands for as JSON) for the games of one kind: the engine as named
    (not its files: a rerun after an engine update takes up the batch where it was), the limit,
    the scoring options. A game finished under one setting is not finished under another."""
    engine = settings.engine
    described = {
        "kind": kind,
        "engine": {"name": engine.name, "command": list(engine.command) if engine.command is not None else None},
        "limit": settings.limit_for(kind).describe(),
        "preset": settings.preset,
        "skip_book": settings.skip_book,
    }
    text = json.dumps(described, sort_keys=True)
    return hashlib.sha1(text.encode("utf-8")).hexdigest(), text


GameStatus = Literal["imported", "analysed", "failed", "skipped"]


@dataclass(frozen=True)
class GameEvent:
    """What became of one game in this run (games finished before it are not told one by one)."""

    game: BatchGame
    status: GameStatus
    message: str = ""  # why it failed or was skipped; why figures it carries were not imported
    error_kind: ErrorKind | None = None
    worker: str = ""


@dataclass(frozen=True)
class BatchProgress:
    done: int  # games finished, failed or skipped, those of earlier runs included
    total: int
    eta_s: float | None  # None until a game has been reviewed in this run
    failed: int = 0
    current: str = ""  # the game under review (by this process), if one
    positions: tuple[int, int] | None = None  # its positions done and in all


@dataclass
class BatchOutcome:
    total: int
    finished: dict[str, FinishedGame] = field(default_factory=dict)  # by game key
    already_done: int = 0  # finished by an earlier run
    imported: int = 0
    analysed: int = 0
    failures: list[GameEvent] = field(default_factory=list)
    skipped: int = 0  # not started: their kind's engine is missing
    engines_missing: dict[str, str] = field(default_factory=dict)  # kind -> the message
    store_problem: str | None = None  # the first store write that failed (results are still in `finished`)
    cards_added: int = 0  # new training cards from the games reviewed in this run
    cards_problem: str | None = None  # the first deck write that failed
    interrupted: bool = False

    @property
    def not_done(self) -> int:
        return self.total - len(self.finished)

    def reports(self, games: Sequence[BatchGame]) -> list[dict[str, Any]]:
        """The finished games' reports, in the plan's order, each with its `source` block."""
        reports = []
        for game in games:
            finished = self.finished.get(game.key)
            if finished is not None:
                reports.append(report_with_source(finished.report, game, finished.imported))
        return reports


def report_with_source(report: Mapping[str, Any], game: BatchGame, imported: bool) -> dict[str, Any]:
    """The report with where its game lies (`source`: path, index, key, imported) and what the
    reader said about the file (`game.warnings`, `game.source`), as read on this machine."""
    result = dict(report)
    block = dict(result.get("game") or {})
    block["warnings"] = list(game.warnings)
    block["source"] = {"path": game.path, "index": game.index, "format": game.source_format or None}
    result["game"] = block
    result["source"] = {"path": game.path, "index": game.index, "key": game.key, "imported": imported}
    return result


class _Eta:
    """Seconds left, from the work finished in this run: the seconds per position of the games
    reviewed so far (every pass included) times the positions left, counting down between two
    finished games. A game under way earns nothing until it finishes: its count of positions
    starts again with each pass, and a fast first pass would make the estimate jump."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._started: float | None = None
        self._last_finish: float | None = None
        self.positions_done = 0

    def start(self) -> None:
        self._started = self._clock()

    def game_finished(self, positions: int) -> None:
        self.positions_done += positions
        self._last_finish = self._clock()

    def seconds_left(self, positions_left: int) -> float | None:
        if self._started is None or self._last_finish is None or self.positions_done <= 0:
            return None
        per_position = (self._last_finish - self._started) / self.positions_done
        return max(0.0, positions_left * per_position - (self._clock() - self._last_finish))


def run_batch(
    games: Sequence[BatchGame],
    settings: BatchSettings,
    store: BatchStore,
    executor: Executor,
    *,
    cache: AnalysisCache | None = None,
    stop: threading.Event | None = None,
    on_progress: Callable[[BatchProgress], None] | None = None,
    on_event: Callable[[GameEvent], None] | None = None,
    on_cards: Callable[[Sequence[Card]], int] | None = None,
    cards_player: str | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> BatchOutcome:
    """Review every game not yet finished under `settings`; see the module's description. The
    mistakes and blunders of the games reviewed go to `on_cards`: `cards_player`'s alone when a
    player is named, both players' otherwise. StoreError when the store cannot be read at the start."""
    run = _Run(games, settings, store, cache, on_progress, on_event, clock, on_cards, cards_player)
    return run.run(executor, stop if stop is not None else threading.Event())


class _Run:
    """One call of `run_batch`: what is resolved so far (finished, failed or skipped) and the tellers."""

    def __init__(
        self,
        games: Sequence[BatchGame],
        settings: BatchSettings,
        store: BatchStore,
        cache: AnalysisCache | None,
        on_progress: Callable[[BatchProgress], None] | None,
        on_event: Callable[[GameEvent], None] | None,
        clock: Callable[[], float],
        on_cards: Callable[[Sequence[Card]], int] | None = None,
        cards_player: str | None = None,
    ) -> None:
        self.games, self.settings, self.store, self.cache = games, settings, store, cache
        self.on_progress, self.on_event, self.on_cards = on_progress, on_event, on_cards
        self.cards_player = cards_player
        self.settings_by_kind = {kind: setting_of(settings, kind) for kind in sorted({game.kind for game in games})}
        self.by_key = {game.key: game for game in games}
        self.outcome = BatchOutcome(total=len(games))
        self.resolved: set[str] = set()
        # Positions of the games not resolved that an engine will review; a game whose file carries
        # figures is left out (nearly always imported at once, it would swell the ETA).
        self.positions_left = sum(game.plies + 1 for game in games if not game.carries_evaluations)
        self.current: dict[str, tuple[int, int]] = {}  # positions done and in all, by game under review here
        self.eta = _Eta(clock)
        earlier = store.finished((game.key, self.setting_id(game)) for game in games)
        for game in games:
            finished = earlier.get((game.key, self.setting_id(game)))
            if finished is not None:
                self.outcome.finished[game.key] = finished
                self.outcome.already_done += 1
                self.resolve(game)

    def setting_id(self, game: BatchGame) -> str:
        return self.settings_by_kind[game.kind][0]

    def resolve(self, game: BatchGame) -> None:
        if game.key not in self.resolved:
            self.resolved.add(game.key)
            if not game.carries_evaluations:
                self.positions_left -= game.plies + 1

    def run(self, executor: Executor, stop: threading.Event) -> BatchOutcome:
        self.tell_progress()
        tasks = [self.task(game) for game in self.games if game.key not in self.resolved]

        def wanted(task: GameTask) -> bool:
            if stop.is_set():
                return False
            return task.carries_evaluations or task.kind not in self.outcome.engines_missing

        self.eta.start()
        if tasks and not stop.is_set():
            executor.run(tasks, stop, self.on_result, wanted, self.on_positions)
        for task in tasks:
            if task.key not in self.resolved and task.kind in self.outcome.engines_missing:
                self.resolve(self.by_key[task.key])
                self.outcome.skipped += 1
        self.outcome.interrupted = stop.is_set()
        self.current.clear()
        self.tell_progress()
        return self.outcome

    def task(self, game: BatchGame) -> GameTask:
        settings = self.settings
        return GameTask(
            key=game.key,
            label=game.label,
            kind=game.kind,
            text_format=game.text_format,
            text=game.text,
            plies=game.plies,
            engine=settings.engine,
            limit=settings.limit_for(game.kind),
            preset=settings.preset,
            skip_book=settings.skip_book,
            carries_evaluations=game.carries_evaluations,
        )

    def on_result(self, task: GameTask, result: GameResult) -> None:
        game, outcome = self.by_key[task.key], self.outcome
        self.current.pop(task.key, None)
        if self.cache is not None and result.cache_entries:
            replay_into_cache(self.cache, result)
        if result.finished:
            self.record(game, result)
            status: GameStatus = "imported" if result.imported else "analysed"
            self.tell(GameEvent(game, status, result.not_imported, worker=result.worker))
        elif result.error is not None:
            self.resolve(game)
            if result.error_kind == "engine-missing" and game.kind in outcome.engines_missing:
                outcome.skipped += 1  # told once, with the first game of its kind
            else:
                if result.error_kind == "engine-missing":
                    outcome.engines_missing[game.kind] = result.error
                event = GameEvent(game, "failed", result.error, result.error_kind, result.worker)
                outcome.failures.append(event)
                self.tell(event)
        self.tell_progress()

    def record(self, game: BatchGame, result: GameResult) -> None:
        assert result.report is not None
        outcome = self.outcome
        report = report_with_source(result.report, game, result.imported)
        setting_id, setting_text = self.settings_by_kind[game.kind]
        try:
            self.store.record(game.key, setting_id, setting_text, game.path, game.index, result.imported, report)
        except StoreError as error:
            if outcome.store_problem is None:
                outcome.store_problem = str(error)
        outcome.finished[game.key] = FinishedGame(game.key, setting_id, game.path, game.index, result.imported, report, time.time())
        self.resolve(game)
        self.add_cards(game, result)
        if result.imported:
            outcome.imported += 1
        else:
            outcome.analysed += 1
            self.eta.game_finished(game.plies + 1)

    def add_cards(self, game: BatchGame, result: GameResult) -> None:
        if self.on_cards is None or not result.cards:
            return
        cards = [replace(Card.from_json(text), source_path=str(game.path), source_index=game.index) for text in result.cards]
        cards = cards_of_player(cards, self.cards_player)
        if not cards:
            return
        try:
            self.outcome.cards_added += self.on_cards(cards)
        except Exception as error:  # the deck is the trainer's: a write that fails costs no review
            if self.outcome.cards_problem is None:
                self.outcome.cards_problem = f"cannot add training cards: {error}"

    def on_positions(self, task: GameTask, done: int, total: int) -> None:
        self.current[task.key] = (done, total)
        self.tell_progress()

    def tell(self, event: GameEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def tell_progress(self) -> None:
        if self.on_progress is None:
            return
        label, positions = "", None
        if len(self.current) == 1:
            ((key, positions),) = self.current.items()
            label = self.by_key[key].label
        self.on_progress(
            BatchProgress(
                done=len(self.resolved),
                total=len(self.games),
                eta_s=self.eta.seconds_left(self.positions_left),
                failed=len(self.outcome.failures),
                current=label,
                positions=positions,
            )
        )
