"""Live analysis of the position in front of the user: one engine searching one position with
growing budgets until the position changes or the user stops it, MultiPV lines as they come.

It works with every engine adapter (UCI, KataGo, the built-in Go engine) through the one engine
interface: each step is a search of the same position with a bigger budget, so the lines refine
while the user looks (an engine keeps its hash or neural-net cache between steps). A new position
stops the running search at once; after `set_position` returns, no update of the old position is
delivered. An engine that dies is reported and started again for the next position.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.engines.base import Engine
from reviewer.core.errors import EngineError
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game, Point

CHESS_NODES = (20_000, 100_000, 400_000, 1_600_000, 6_400_000, 25_600_000, 102_400_000)
GO_VISITS = (2, 8, 32, 128, 512, 2048, 8192, 32768)


@dataclass(frozen=True)
class LiveUpdate:
    token: object  # what the caller named the position with `set_position`
    evaluation: Evaluation  # candidates = the MultiPV lines, best first
    step: int  # 0 for the first (quickest) search of this position
    seconds: float  # since the position was set
    last: bool  # the biggest budget is done: the search is over for this position


def budgets_for(kind: str) -> Sequence[Limit]:
    """The growing searches of live analysis for a game of `kind`."""
    budgets: Sequence[Limit] = game_support(kind).live_budgets()
    return budgets


def chess_budgets() -> Sequence[Limit]:
    return [Limit(nodes=n) for n in CHESS_NODES]


def go_budgets() -> Sequence[Limit]:
    return [Limit(visits=v, maps=True) for v in GO_VISITS]


class LiveAnalysis:
    """One worker thread and one engine, opened when first needed by `engine_factory`."""

    def __init__(
        self,
        engine_factory: Callable[[], Engine],
        on_update: Callable[[LiveUpdate], None],
        on_error: Callable[[str], None],
        multipv: int = 3,
    ) -> None:
        self._engine_factory = engine_factory
        self._on_update = on_update
        self._on_error = on_error
        self._multipv = max(1, min(5, multipv))
        self._region: tuple[Point, Point] | None = None
        self._lock = threading.Condition()
        self._request: tuple[Game, int, object] | None = None
        self._generation = 0
        self._search_stop = threading.Event()
        self._closed = False
        self._engine: Engine | None = None
        self._thread = threading.Thread(target=self._run, name="live-analysis", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------------------- API

    def set_position(self, game: Game, ply: int, token: object) -> None:
        """Analyse main-line position `ply` of `game` from now on (see `variations.line_game`)."""
        with self._lock:
            self._generation += 1
            self._request = (game, ply, token)
            self._search_stop.set()
            self._lock.notify_all()

    def set_region(self, region: tuple[Point, Point] | None) -> None:
        """Consider only moves inside `region` (Go: a rectangle of points, see `Limit.region`), or
        every move again with None; the position on show is searched again at once."""
        with self._lock:
            if region == self._region:
                return
            self._region = region
            if self._request is not None:
                self._generation += 1
                self._search_stop.set()
                self._lock.notify_all()

    @property
    def region(self) -> tuple[Point, Point] | None:
        return self._region

    def set_multipv(self, multipv: int) -> None:
        with self._lock:
            self._multipv = max(1, min(5, multipv))

    def stop(self) -> None:
        """Stop searching (the engine stays open for the next position)."""
        with self._lock:
            self._generation += 1
            self._request = None
            self._search_stop.set()
            self._lock.notify_all()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._generation += 1
            self._request = None
            self._search_stop.set()
            self._lock.notify_all()
        self._thread.join()

    # ---------------------------------------------------------------------------- worker

    def _run(self) -> None:
        try:
            while True:
                with self._lock:
                    while self._request is None and not self._closed:
                        self._lock.wait()
                    if self._closed:
                        return
                    assert self._request is not None
                    game, ply, token = self._request
                    generation = self._generation
                    self._search_stop = stop = threading.Event()
                    multipv, region = self._multipv, self._region
                self._search(game, ply, token, generation, stop, multipv, region)
                with self._lock:
                    if self._generation == generation:
                        self._request = None  # done with this position: wait for the next
        finally:
            if self._engine is not None:
                self._engine.close()

    def _search(self, game: Game, ply: int, token: object, generation: int, stop: threading.Event, multipv: int,
                region: tuple[Point, Point] | None = None) -> None:
        started = time.monotonic()
        budgets = budgets_for(game.kind)
        for step, budget in enumerate(budgets):
            if stop.is_set():
                return
            limit = Limit(nodes=budget.nodes, visits=budget.visits, multipv=multipv, maps=budget.maps, region=region)
            try:
                if self._engine is None:
                    self._engine = self._engine_factory()
                    if hasattr(self._engine, "new_game_each_call"):
                        self._engine.new_game_each_call = False  # one continuing session, hash kept
                results = self._engine.analyse(game, [ply], limit, stop)
                try:
                    evaluation = next(results, None)
                finally:
                    results.close()
            except EngineError as error:
                if self._engine is not None:
                    self._engine.close()
                self._engine = None
                self._deliver_error(generation, f"live analysis stopped: {error}")
                return
            if evaluation is None or stop.is_set():
                return
            update = LiveUpdate(token, evaluation, step, time.monotonic() - started, step == len(budgets) - 1)
            with self._lock:
                if self._generation != generation:
                    return
                self._on_update(update)

    def _deliver_error(self, generation: int, message: str) -> None:
        with self._lock:
            if self._generation == generation:
                self._on_error(message)
