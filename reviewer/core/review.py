"""Analysing a game: the cache first, the engine for what is missing, each result stored as it comes.

`analyse_game` is the one loop behind both `reviewer analyze` and the desktop app's worker.
It yields one `Evaluation` per requested position, with the ply it has in *this* game, in the
order they become known: cached ones first, then the engine's as each search finishes. A position
that occurs twice in the game (a repetition) is searched once. Setting `stop` ends it promptly;
whatever was finished is already in the cache.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Callable, Iterator, Sequence

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.cache import AnalysisCache, position_keys
from reviewer.core.engines.base import Engine
from reviewer.core.gametree import Game

__all__ = ["ProgressCallback", "analyse_game", "engine_key"]

# (positions done, positions in all, positions searched per second, seconds left); the last two
# are None until the engine has finished a position.
ProgressCallback = Callable[[int, int, "float | None", "float | None"], None]


def engine_key(engine: Engine, limit: Limit) -> str:
    """The engine half of a cache key: identity (name, options that change results) and limit."""
    return f"{engine.identity} | {limit.describe()}"


def analyse_game(
    game: Game,
    engine: Engine,
    limit: Limit,
    stop: threading.Event | None = None,
    cache: AnalysisCache | None = None,
    plies: Sequence[int] | None = None,
    on_progress: ProgressCallback | None = None,
) -> Iterator[Evaluation]:
    """Evaluate main-line positions `plies` of `game` (all of them by default; 0 = the start)."""
    stop = stop if stop is not None else threading.Event()
    wanted = sorted(set(plies)) if plies is not None else list(range(game.ply_count + 1))
    total = len(wanted)
    if not wanted:
        return
    keys = position_keys(game, wanted)
    plies_by_key: dict[str, list[int]] = {}
    for ply in wanted:
        plies_by_key.setdefault(keys[ply], []).append(ply)
    cache_id = engine_key(engine, limit)
    found = cache.get_many(plies_by_key, cache_id) if cache is not None else {}

    done = 0
    for ply in wanted:
        evaluation = found.get(keys[ply])
        if evaluation is not None:
            done += 1
            yield evaluation.with_ply(ply)
    if on_progress is not None:
        on_progress(done, total, None, None)

    to_search = [positions[0] for key, positions in plies_by_key.items() if key not in found]
    if not to_search or stop.is_set():
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
