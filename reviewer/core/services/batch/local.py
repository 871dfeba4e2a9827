"""The executor that reviews on this machine: one game after another, in this process.

It uses the driver's analysis cache directly, so a game cut short (Ctrl-C, a kill) keeps every
position it finished, and its engines stay open from one game to the next.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from reviewer.core.cache import AnalysisCache
from reviewer.core.services.batch.runner import PositionsCallback, ResultCallback
from reviewer.core.services.batch.task import EnginePool, GameTask, review_game

__all__ = ["LocalExecutor"]


class LocalExecutor:
    def __init__(self, cache: AnalysisCache | None = None, engines: EnginePool | None = None) -> None:
        """`engines`: a pool whose plans were already asked (to choose the limits), else a new one."""
        self._cache = cache
        self._engines = engines if engines is not None else EnginePool()

    def run(
        self,
        tasks: Sequence[GameTask],
        stop: threading.Event,
        on_result: ResultCallback,
        wanted: Callable[[GameTask], bool],
        on_positions: PositionsCallback,
    ) -> None:
        for task in tasks:
            if stop.is_set():
                return
            if not wanted(task):
                continue

            def positions(done: int, total: int, rate: float | None, eta_s: float | None, task: GameTask = task) -> None:
                on_positions(task, done, total)

            on_result(task, review_game(task, self._engines, self._cache, stop, positions))

    def close(self) -> None:
        self._engines.close()
