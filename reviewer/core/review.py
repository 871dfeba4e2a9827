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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.cache import AnalysisCache, position_keys
from reviewer.core.engines.base import Engine
from reviewer.core.gametree import Game
from reviewer.core.passes import (
    FocusCallback,
    PassCallback,
    PassScheme,
    PassStart,
    pass_cache_id,
    run_passes,
    scheme_from_id,
    searcher_for,
)

__all__ = ["EngineOnDemand", "ProgressCallback", "analyse_game", "cached_results", "engine_key"]

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
    on_pass: PassCallback | None = None,
    focus: FocusCallback | None = None,
) -> Iterator[Evaluation]:
    """Evaluate main-line positions `plies` of `game` (all of them by default; 0 = the start).

    Give either an open `engine` or an `engine_factory`, called (once) only when a position is
    missing from the cache; with `engine_fingerprint` the cache is asked before it is called.
    The caller closes the engine either way.

    A `limit` with a `scheme` (reviewer.core.passes) reviews in passes: a fast pass over every
    position, then deeper passes where labels are in doubt. A position is then yielded once per pass
    that searched it, the deeper result last; `on_pass` is told when each pass starts, `on_progress`
    counts the positions of the current pass, and `focus` names the moves the player is looking at
    (refined first by Go's second pass).
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
    scheme = scheme_from_id(limit.scheme) if limit.scheme is not None else None
    if scheme is not None and scheme.kind != game.kind:
        raise ValueError(f"the review scheme {limit.scheme} is for {scheme.kind} games, not {game.kind}")
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
    found = cache.get_many(plies_by_key, _complete_id(identity_key(identity, limit), scheme)) if cache is not None and identity else {}
    if engine is None and len(found) < len(plies_by_key) and not stop.is_set() and scheme is None:
        assert engine_factory is not None
        engine = engine_factory()
        if engine.identity != identity:  # not what the cache remembered (or it knew nothing)
            identity = engine.identity
            found = cache.get_many(plies_by_key, identity_key(identity, limit)) if cache is not None else {}
        if cache is not None and engine_fingerprint is not None:
            cache.remember_engine(engine_fingerprint, identity)
    cache_id = identity_key(identity, limit) if identity is not None else ""
    if scheme is not None:
        yield from _analyse_in_passes(
            game, scheme, limit, engine, engine_factory, identity, cache, keys, wanted, stop, on_progress, on_pass, focus,
            engine_fingerprint,
        )
        return

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


def cached_results(cache: AnalysisCache, keys: Iterable[str], cache_id: str, limit: Limit) -> dict[str, Evaluation]:
    """What the cache holds for these position keys under `cache_id` (`identity_key(identity, limit)`);
    for a review in passes, each position's deepest pass, with `review_pass` set."""
    keys = list(keys)
    if limit.scheme is None:
        return cache.get_many(keys, cache_id)
    found: dict[str, Evaluation] = {}
    for index in range(1, scheme_from_id(limit.scheme).pass_count + 1):
        for key, evaluation in cache.get_many(keys, pass_cache_id(cache_id, index)).items():
            found[key] = replace(evaluation, review_pass=index, engine_id=cache_id)
    return found


def _complete_id(cache_id: str, scheme: PassScheme | None) -> str:
    """The key a position is first looked up under: a scheme's fast pass covers every position."""
    return pass_cache_id(cache_id, 1) if scheme is not None else cache_id


def _analyse_in_passes(
    game: Game,
    scheme: PassScheme,
    limit: Limit,
    engine: Engine | None,
    engine_factory: Callable[[], Engine] | None,
    identity: str | None,
    cache: AnalysisCache | None,
    keys: dict[int, str],
    wanted: list[int],
    stop: threading.Event,
    on_progress: ProgressCallback | None,
    on_pass: PassCallback | None,
    focus: FocusCallback | None,
    engine_fingerprint: str | None,
) -> Iterator[Evaluation]:
    holder: list[Engine | None] = [engine]

    def cached_passes(current_identity: str | None) -> list[dict[int, Evaluation]]:
        if cache is None or current_identity is None:
            return []
        cache_id = identity_key(current_identity, limit)
        result = []
        for index in range(1, scheme.pass_count + 1):
            by_key = cache.get_many({key: [ply] for ply, key in keys.items()}, pass_cache_id(cache_id, index))
            result.append({ply: by_key[key].with_ply(ply) for ply, key in keys.items() if key in by_key})
        return result

    def open_engine() -> Engine:
        opened = holder[0]
        if opened is None:
            assert engine_factory is not None
            opened = holder[0] = engine_factory()
            if cache is not None and engine_fingerprint is not None:
                cache.remember_engine(engine_fingerprint, opened.identity)
        return opened

    cached = cached_passes(identity)
    fast_pass_cached = bool(cached) and len(cached[0]) == len(wanted)
    if identity is None or (engine is None and not fast_pass_cached and not stop.is_set()):
        # the fast pass needs the engine: open it and make sure the cache was asked about it
        opened = open_engine()
        if opened.identity != identity:
            identity = opened.identity
            cached = cached_passes(identity)
    assert identity is not None
    scheme_engine_id = identity_key(identity, limit)

    def searcher() -> Callable[[Game, Sequence[int], Limit, threading.Event], Iterator[Evaluation]]:
        return searcher_for(open_engine(), scheme, scheme_engine_id)

    def store(index: int, evaluation: Evaluation) -> None:
        if cache is not None:
            cache.put(keys[evaluation.ply], pass_cache_id(scheme_engine_id, index), evaluation)

    started = time.monotonic()
    pass_started = [started]

    def pass_begins(start: PassStart) -> None:
        pass_started[0] = time.monotonic()
        if on_pass is not None:
            on_pass(start)
        if on_progress is not None:
            on_progress(0, start.positions, None, None)

    def searched(done: int, total: int) -> None:
        if on_progress is None:
            return
        elapsed = time.monotonic() - pass_started[0]
        rate = done / elapsed if elapsed > 0 else None
        on_progress(done, total, rate, (total - done) / rate if rate else None)

    yield from run_passes(
        game,
        scheme,
        cached,
        searcher,
        stop,
        scheme_engine_id,
        store=store,
        on_pass=pass_begins,
        on_searched=searched,
        focus=focus,
        plies=wanted,
        multipv=limit.multipv,
    )
