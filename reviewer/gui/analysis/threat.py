"""Threat mode (lichess's `x`): a short search of the position on show with the other side to move,
off the GUI thread; a new request or `cancel` drops the one before, and an answer about a position
no longer asked for is never delivered."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.engines.base import Engine
from reviewer.core.errors import EngineError
from reviewer.core.gametree import Game
from reviewer.gui.common.tasks import Tasks


class ThreatSearch(QObject):
    """One engine lane; an engine per kind of game, opened on first need and kept for the next search."""

    found = Signal(object, object)  # the request's token, the Evaluation (None: the engine had nothing)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = Tasks(self)
        self._stop = threading.Event()  # the search on show's; set when a newer request or cancel drops it
        self._engines: dict[object, Engine] = {}  # touched only on the engine lane

    def search(
        self, engine_key: object, engine_factory: Callable[[], Engine], game: Game, ply: int, limit: Limit, token: object
    ) -> None:
        self._stop.set()
        self._stop = stop = threading.Event()
        task = self._tasks.submit(self._run, engine_key, engine_factory, game, ply, limit, stop, lane="engine")
        task.done.connect(lambda evaluation: self._deliver(stop, token, evaluation))
        task.failed.connect(lambda message: self._fail(stop, message))

    def cancel(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self.cancel()
        self._tasks.submit(self._close_engines, lane="engine")
        self._tasks.shutdown(timeout_s=30)

    def _deliver(self, stop: threading.Event, token: object, evaluation: object) -> None:
        if not stop.is_set():
            self.found.emit(token, evaluation)

    def _fail(self, stop: threading.Event, message: str) -> None:
        if not stop.is_set():
            self.failed.emit(f"threat search stopped: {message}")

    def _close_engines(self) -> None:
        for engine in self._engines.values():
            engine.close()
        self._engines.clear()

    def _run(
        self, engine_key: object, engine_factory: Callable[[], Engine], game: Game, ply: int, limit: Limit,
        stop: threading.Event,
    ) -> Evaluation | None:
        if stop.is_set():
            return None
        try:
            engine = self._engines.get(engine_key)
            if engine is None:
                engine = self._engines[engine_key] = engine_factory()
            results = engine.analyse(game, [ply], limit, stop)
            try:
                return next(results, None)
            finally:
                results.close()
        except EngineError:
            broken = self._engines.pop(engine_key, None)
            if broken is not None:
                broken.close()
            raise
