"""Analysing a game: the cache first, the engine for what is missing, each result stored as it comes.

`analyse_game` is the one loop behind both `reviewer analyze` and the desktop app's worker.
It yields one `Evaluation` per requested position, with the ply it has in *this* game, in the
order they become known: cached ones first, then the engine's as each search finishes. A position
that occurs twice in the game (a repetition) is searched once. Setting `stop` ends it promptly;
whatever was finished is already in the cache.

The engine may be given open, or as a factory with a fingerprint (`engine_factory`,
`engine_fingerprint`): then it is opened only when a position is missing from the cache. The
cache remembers which identity an engine's fingerprint had, so a game analysed before is answered
without starting any engine process.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Sequence

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.cache import AnalysisCache, position_keys
from reviewer.core.engines.base import Engine
from reviewer.core.gametree import Game

__all__ = ["EngineOnDemand", "ProgressCallback", "analyse_game", "engine_key"]

# (positions done, positions in all, positions searched per second, seconds left); the last two
# are None until the engine has finished a position.
ProgressCallback = Callable[[int, int, "float | None", "float | None"], None]


def engine_key(engine: Engine, limit: Limit) -> str:
    """The engine half of a cache key: identity (name, options that change results) and limit."""
    return identity_key(engine.identity, limit)


def identity_key(identity: str, limit: Limit) -> str:
    return f"{identity} | {limit.describe()}"


class EngineOnDemand:
    """An engine opened on first need and then kept open (for the next games) until `close`.

    `fingerprint` recognises the engine without starting it (None: it cannot be, so it is opened
    whenever a game is analysed with a cache).
    """

    def __init__(self, factory: Callable[[], Engine], fingerprint: str | None = None) -> None:
        self._factory = factory
        self.fingerprint = fingerprint
        self.engine: Engine | None = None

    def open(self) -> Engine:
        if self.engine is None:
            self.engine = self._factory()
        return self.engine

    def identity(self, cache: AnalysisCache | None = None) -> str | None:
        """The open engine's identity, else the one the cache remembers for the fingerprint."""
        if self.engine is not None:
            return self.engine.identity
        if cache is not None and self.fingerprint is not None:
            return cache.engine_identity(self.fingerprint)
        return None

    def close(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.close()


def analysable_ply_count(game: Game) -> int:
    """How many main-line plies an engine can be given: a chess game stops before its first null
    move (`--`, `Z0`), which leaves no legal position to search after it (the reader warns)."""
    if game.kind == "chess":
        for ply, node in enumerate(game.mainline_nodes(), start=1):
            if node.move == "--" or node.uci == "0000":
                return ply - 1
    return game.ply_count


def analyse_game(
    game: Game,
    engine: Engine | None,
    limit: Limit,
    stop: threading.Event | None = None,
    cache: AnalysisCache | None = None,
    plies: Sequence[int] | None = None,
    on_progress: ProgressCallback | None = None,
    *,
    engine_factory: Callable[[], Engine] | None = None,
    engine_fingerprint: str | None = None,
) -> Iterator[Evaluation]:
    """Evaluate main-line positions `plies` of `game` (all of them by default; 0 = the start).

    Give either an open `engine` or an `engine_factory`, called (once) only when a position is
    missing from the cache; with `engine_fingerprint` the cache is asked before it is called.
    The caller closes the engine either way.
    """
    if engine is None and engine_factory is None:
        raise TypeError("analyse_game needs an engine or an engine_factory")
    stop = stop if stop is not None else threading.Event()
    wanted = sorted(set(plies)) if plies is not None else list(range(game.ply_count + 1))
    last_ply = analysable_ply_count(game)
    wanted = [ply for ply in wanted if ply <= last_ply]  # nothing after a null move
    total = len(wanted)
    if not wanted:
        return
    keys = position_keys(game, wanted)
    plies_by_key: dict[str, list[int]] = {}
    for ply in wanted:
        plies_by_key.setdefault(keys[ply], []).append(ply)
    identity: str | None
    if engine is not None:
        identity = engine.identity
    elif cache is not None and engine_fingerprint is not None:
        identity = cache.engine_identity(engine_fingerprint)
    else:
        identity = None
    found = cache.get_many(plies_by_key, identity_key(identity, limit)) if cache is not None and identity else {}
    if engine is None and len(found) < len(plies_by_key) and not stop.is_set():
        assert engine_factory is not None
        engine = engine_factory()
        if engine.identity != identity:  # not what the cache remembered (or it knew nothing)
            identity = engine.identity
            found = cache.get_many(plies_by_key, identity_key(identity, limit)) if cache is not None else {}
        if cache is not None and engine_fingerprint is not None:
            cache.remember_engine(engine_fingerprint, identity)
    cache_id = identity_key(identity, limit) if identity is not None else ""

    done = 0
    for ply in wanted:
        evaluation = found.get(keys[ply])
        if evaluation is not None:
            done += 1
            yield evaluation.with_ply(ply)
    if on_progress is not None:
        on_progress(done, total, None, None)

    to_search = [positions[0] for key, positions in plies_by_key.items() if key not in found]
    if not to_search or stop.is_set() or engine is None:
        return
    started = time.monotonic()
    searched = 0
    with contextlib.closing(engine.analyse(game, to_search, limit, stop)) as results:
        for evaluation in results:
            key = keys.get(evaluation.ply)
            if key is None:
                continue  # not a position we asked about
            if cache is not None:
                cache.put(key, cache_id, evaluation)
            for ply in plies_by_key[key]:
                done += 1
                yield evaluation if ply == evaluation.ply else evaluation.with_ply(ply)
            searched += 1
            if on_progress is not None:
                elapsed = time.monotonic() - started
                rate = searched / elapsed if elapsed > 0 else None
                left = len(to_search) - searched
                on_progress(done, total, rate, left / rate if rate else None)
            if stop.is_set():
                return
