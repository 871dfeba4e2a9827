"""Benchmark: rate ~5,000 Go players from ~100,000 games (handicaps, komi, ages, some declared ranks).

Run: .venv/bin/python benchmarks/rating.py [--players N] [--games M] [--seed S]
Prints the time of the whole `rate_games` call (records -> ratings) and of the solver alone,
and how well the simulated strengths were recovered.
"""

from __future__ import annotations

import argparse
import datetime as dt
import time

import numpy as np

from reviewer.core.rating import GameRecord, go_rank_text, rate_games, white_rank_shift
from reviewer.core.rating.scale import go_k


def simulate(n_players: int, n_games: int, seed: int) -> tuple[list[GameRecord], np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    true_rank = np.sort(rng.uniform(-25.0, 7.0, n_players))
    names = [f"player{i:05d}" for i in range(n_players)]
    declares = rng.random(n_players) < 0.3
    a = rng.integers(n_players, size=n_games)
    # Opponents near one's own strength: players are sorted by rank, so a nearby index is a nearby rank.
    b = np.clip(a + rng.integers(-150, 151, size=n_games), 0, n_players - 1)
    b = np.where(b == a, np.where(a > 0, a - 1, a + 1), b)
    diff = true_rank[a] - true_rank[b]
    handicap_game = (rng.random(n_games) < 0.5) & (np.abs(diff) >= 1.5)
    stronger = np.where(diff > 0, a, b)
    weaker = np.where(diff > 0, b, a)
    swap = rng.random(n_games) < 0.5
    white = np.where(handicap_game, stronger, np.where(swap, a, b))
    black = np.where(handicap_game, weaker, np.where(swap, b, a))
    stones = np.where(handicap_game, np.clip(np.round(np.abs(diff)), 2, 9), 0).astype(int)
    komi = np.where(handicap_game, 0.5, 6.5)
    shift = np.array([white_rank_shift(int(h), float(k), "japanese") for h, k in zip(stones, komi)])
    k = go_k(0.5 * (true_rank[white] + true_rank[black]))
    p_white = 1.0 / (1.0 + np.exp(-k * (true_rank[white] - shift - true_rank[black])))
    white_won = rng.random(n_games) < p_white
    end = dt.date(2024, 12, 31)
    ages = rng.integers(0, 730, size=n_games)
    records = [
        GameRecord(
            kind="go",
            white=names[w],
            black=names[bl],
            outcome="white" if won else "black",
            date=end - dt.timedelta(days=int(age)),
            white_declared=go_rank_text(true_rank[w]) if declares[w] else "",
            black_declared=go_rank_text(true_rank[bl]) if declares[bl] else "",
            handicap=int(h),
            komi=float(km),
            rules="japanese",
        )
        for w, bl, won, age, h, km in zip(white, black, white_won, ages, stones, komi)
    ]
    return records, true_rank, names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    started = time.perf_counter()
    records, true_rank, names = simulate(args.players, args.games, args.seed)
    print(f"simulated {len(records)} games between {args.players} players in {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    result = rate_games(records)
    elapsed = time.perf_counter() - started
    by_key = result.by_key("go")
    estimated = np.array([by_key[name].rating for name in names])
    rmse = float(np.sqrt(np.mean((estimated - true_rank) ** 2)))
    uncertain = sum(p.uncertain for p in result.players)
    print(
        f"rate_games: {elapsed:.2f} s  ({result.iterations['go']} Newton iterations, converged={result.converged})"
    )
    print(f"recovery: RMSE {rmse:.2f} ranks over {len(names)} players; {uncertain} marked '?'")


if __name__ == "__main__":
    main()
