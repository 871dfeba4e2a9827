"""Speed of the built-in Go engine: compile time, playouts per second, search simulations per second.

    .venv/bin/python benchmarks/builtin_go.py [--seconds 2] [--skip-compile]

Compile time is measured in fresh interpreters: once with an empty numba cache (the first start
on a machine) and once more with that cache filled (every later start). Playouts are light
playouts from the empty board on one core, without a tree; simulations are full MCTS + RAVE
iterations (selection, expansion, playout, backup) from the empty board.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

WARM_UP = """
import time
t = time.perf_counter()
from reviewer.core.engines.builtin_go.engine import search_position
from reviewer.core.engines.builtin_go.position import Position
search_position(Position(9), 50, seed=1)
print(time.perf_counter() - t)
"""


def startup_seconds(cache_dir: str) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run([sys.executable, "-c", WARM_UP], env=env, cwd=REPO, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def playouts_per_second(size: int, seconds: float) -> tuple[float, float]:
    from reviewer.core.engines.builtin_go import search as ms
    from reviewer.core.engines.builtin_go.position import Position

    position = Position(size)
    cells = int(position.cfg[3])
    rng = np.array([12345], np.int64)
    args = (
        position.b, position.meta, position.cfg, 7.5, rng, np.empty_like(position.b), np.empty_like(position.meta),
        np.empty(8 * size * size + 64, np.int64), np.zeros(cells, np.int64), np.empty(cells, np.int64),
    )
    ms.run_playouts(10, *args)
    done, wins, started = 0, 0, time.perf_counter()
    batch = 2000 if size <= 9 else 400
    while time.perf_counter() - started < seconds:
        wins += ms.run_playouts(batch, *args)
        done += batch
    elapsed = time.perf_counter() - started
    return done / elapsed, wins / done


def simulations_per_second(size: int, playouts: int) -> float:
    from reviewer.core.engines.builtin_go.engine import search_position
    from reviewer.core.engines.builtin_go.position import Position

    search_position(Position(size), 50, seed=1)
    started = time.perf_counter()
    result = search_position(Position(size), playouts, seed=1)
    return result.playouts / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per playout measurement")
    parser.add_argument("--skip-compile", action="store_true", help="do not measure compile time")
    args = parser.parse_args()
    if not args.skip_compile:
        with tempfile.TemporaryDirectory() as cache:
            first = startup_seconds(cache)
            cached = startup_seconds(cache)
        print(f"first start (compile, empty numba cache): {first:6.1f} s")
        print(f"later start (numba cache filled):         {cached:6.2f} s")
    for size in (9, 19):
        rate, black = playouts_per_second(size, args.seconds)
        print(f"{size}x{size} light playouts, one core:  {rate:9,.0f} playouts/s   (Black wins {black:.1%} at komi 7.5)")
    for size, playouts in ((9, 20000), (19, 4000)):
        rate = simulations_per_second(size, playouts)
        print(f"{size}x{size} MCTS+RAVE search, one core: {rate:9,.0f} simulations/s ({playouts} from the empty board)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
