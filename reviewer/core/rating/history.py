"""A player's estimate over time: the whole solve re-run on the games up to each checkpoint.

Checkpoints are the dates of the player's own games, thinned evenly to at most `max_points`
(always keeping the last), so the cost is at most `max_points` solves; ages count back from each
checkpoint, as if the ratings had been computed that day. Games without a date enter only at
the last checkpoint. When none of the player's games has a date, checkpoints are the player's
games in file order instead (game 1, 2, …) and each solve uses the games read up to that one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from reviewer.core.gametree import GameKind
from reviewer.core.rating.estimate import RatingOptions, rate_games
from reviewer.core.rating.records import GameRecord, player_key


@dataclass(frozen=True)
class HistoryPoint:
    date: dt.date | None  # the checkpoint's date; None when checkpoints are game numbers
    game_number: int  # how many of the player's games were in by then
    rating: float
    low: float | None
    high: float | None
    uncertain: bool


def _thin(count: int, max_points: int) -> list[int]:
    if count <= max_points:
        return list(range(count))
    return sorted({int(round(x)) for x in np.linspace(0, count - 1, max_points)})


def rating_history(
    records: Sequence[GameRecord],
    name: str,
    kind: GameKind,
    options: RatingOptions = RatingOptions(),  # noqa: B008 (frozen, shared safely)
    max_points: int = 24,
    should_stop: Callable[[], bool] | None = None,
) -> list[HistoryPoint]:
    key = player_key(name)
    pool = [r for r in records if r.kind == kind]
    own = [i for i, r in enumerate(pool) if key in (r.white_key, r.black_key)]
    if not own:
        return []
    dated = sorted({day for i in own if (day := pool[i].date) is not None})
    points: list[HistoryPoint] = []
    if dated:
        for position in _thin(len(dated), max_points):
            if should_stop is not None and should_stop():
                break
            cutoff = dated[position]
            last = position == len(dated) - 1
            subset = [r for r in pool if (r.date is not None and r.date <= cutoff) or (last and r.date is None)]
            played = sum(1 for i in own if last or ((day := pool[i].date) is not None and day <= cutoff))
            point = _point(subset, key, kind, replace(options, as_of=cutoff), cutoff, played)
            if point is not None:
                points.append(point)
    else:
        for position in _thin(len(own), max_points):
            if should_stop is not None and should_stop():
                break
            subset = pool[: own[position] + 1]
            point = _point(subset, key, kind, options, None, position + 1)
            if point is not None:
                points.append(point)
    return points


def _point(
    subset: list[GameRecord], key: str, kind: GameKind, options: RatingOptions, date: dt.date | None, played: int
) -> HistoryPoint | None:
    player = rate_games(subset, options).by_key(kind).get(key)
    if player is None or player.rating is None:
        return None
    return HistoryPoint(date, played, player.rating, player.low, player.high, player.uncertain)
