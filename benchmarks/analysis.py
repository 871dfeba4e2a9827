"""Whole-game analysis throughput: the pipeline against the engine driven directly.

On the same positions and the same limit, in one run:
  pipeline  reviewer.core.review.analyse_game + UciEngine (no cache), two core setups:
            2 processes x Threads=1 and 1 process x Threads=2 (UciEngine's default on 2 cores,
            chosen from this benchmark: see reviewer.core.engines.uci.default_arrangement)
  raw       python-chess `SimpleEngine.analyse` per position, nothing else, same two setups
            (2 processes x Threads=1: one thread per engine pulling from a shared queue)
  naive     one engine with default options, two searches per move (before and after it),
            the loop people write first

Each game run starts with `ucinewgame` everywhere (a fresh hash), engines are started before the
clock starts, and each measure keeps the best of --repeat runs, interleaved.
positions/s counts the game's positions (each searched once, twice by the naive loop).
CPU ms/position adds the engines' CPU time (from /proc) and this process's: it shows the driver's
cost even when other work on a shared machine makes wall-clock figures noisy.

    .venv/bin/python benchmarks/analysis.py [--nodes 100000] [--repeat 3] [--pgn FILE]
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import chess  # noqa: E402
import chess.engine  # noqa: E402

from reviewer.core.analysis import Limit  # noqa: E402
from reviewer.core.engines.uci import UciEngine  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.games.chess import boards_at_plies  # noqa: E402
from reviewer.core.gametree import Game  # noqa: E402
from reviewer.core.review import analyse_game  # noqa: E402

STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games") or "/usr/games/stockfish"


def searchable_boards(game: Game) -> list[chess.Board]:
    boards = boards_at_plies(game, range(game.ply_count + 1))
    return [board for _, board in sorted(boards.items()) if board.outcome() is None]


def time_pipeline(game: Game, engine: UciEngine, limit: Limit) -> float:
    started = time.perf_counter()
    count = sum(1 for _ in analyse_game(game, engine, limit, threading.Event(), cache=None))
    elapsed = time.perf_counter() - started
    assert count == game.ply_count + 1, count
    return elapsed


def time_raw(boards: list[chess.Board], engines: list[chess.engine.SimpleEngine], limit: chess.engine.Limit) -> float:
    jobs: queue.SimpleQueue[chess.Board] = queue.SimpleQueue()
    for board in boards:
        jobs.put(board)
    token = object()

    def work(engine: chess.engine.SimpleEngine) -> None:
        while True:
            try:
                board = jobs.get_nowait()
            except queue.Empty:
                return
            engine.analyse(board, limit, game=token)

    threads = [threading.Thread(target=work, args=(engine,)) for engine in engines]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def time_naive(game: Game, engine: chess.engine.SimpleEngine, limit: chess.engine.Limit) -> float:
    boards = boards_at_plies(game, range(game.ply_count + 1))
    token = object()
    started = time.perf_counter()
    for ply in range(1, game.ply_count + 1):
        for board in (boards[ply - 1], boards[ply]):
            if board.outcome() is None:
                engine.analyse(board, limit, game=token)
    return time.perf_counter() - started


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a live process, all its threads."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@dataclass
class Sample:
    wall_s: float
    cpu_s: float


def sampled(pids: list[int], measure: Callable[[], float]) -> Sample:
    before = sum(process_cpu_s(pid) for pid in pids) + time.process_time()
    wall = measure()
    after = sum(process_cpu_s(pid) for pid in pids) + time.process_time()
    return Sample(wall, after - before)


def best(samples: list[Sample]) -> Sample:
    return Sample(min(s.wall_s for s in samples), min(s.cpu_s for s in samples))


def pipeline_pids(engine: UciEngine) -> list[int]:
    return [slot.transport.get_pid() for slot in engine._slots if slot.transport is not None]


def open_raw(processes: int, threads: int) -> list[chess.engine.SimpleEngine]:
    engines = [chess.engine.SimpleEngine.popen_uci(STOCKFISH) for _ in range(processes)]
    for engine in engines:
        engine.configure({"Threads": threads})
    return engines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pgn", default=str(REPO_ROOT / "resources" / "samples" / "opera-game.pgn"))
    args = parser.parse_args()
    if not Path(STOCKFISH).exists():
        print(f"benchmark needs Stockfish; not found at {STOCKFISH}", file=sys.stderr)
        return 1

    game = load_game(args.pgn)
    positions = game.ply_count + 1
    boards = searchable_boards(game)
    limit = Limit(nodes=args.nodes)
    chess_limit = chess.engine.Limit(nodes=args.nodes)
    print(f"{Path(args.pgn).name}: {positions} positions ({len(boards)} searched), nodes={args.nodes}, "
          f"best of {args.repeat}, {os.cpu_count()} cores, {STOCKFISH}")

    setups = {"2 proc x Threads=1": (2, 1), "1 proc x Threads=2": (1, 2)}
    raw_engines = {label: open_raw(*setup) for label, setup in setups.items()}
    pipelines = {label: UciEngine([STOCKFISH], processes=setup[0], threads=setup[1]) for label, setup in setups.items()}
    naive = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    measures: dict[str, tuple[list[int], Callable[[], float]]] = {}
    for label in setups:
        raw, pipeline = raw_engines[label], pipelines[label]
        measures[f"raw       {label}"] = (
            [engine.transport.get_pid() for engine in raw],
            lambda raw=raw: time_raw(boards, raw, chess_limit),
        )
        measures[f"pipeline  {label}"] = (pipeline_pids(pipeline), lambda p=pipeline: time_pipeline(game, p, limit))
    measures["naive     1 proc, 2 searches/move"] = ([naive.transport.get_pid()], lambda: time_naive(game, naive, chess_limit))
    samples: dict[str, list[Sample]] = {label: [] for label in measures}
    try:
        for label in setups:  # warm up: NNUE pages, caches
            time_raw(boards[:4], raw_engines[label], chess_limit)
            time_pipeline(game, pipelines[label], Limit(nodes=1000))
        order = list(measures)
        for round_number in range(args.repeat):  # every measure once per round, the order rotating
            shift = round_number % len(order)
            for label in order[shift:] + order[:shift]:
                pids, measure = measures[label]
                samples[label].append(sampled(pids, measure))
    finally:
        for pipeline in pipelines.values():
            pipeline.close()
        for engines in raw_engines.values():
            for engine in engines:
                engine.quit()
        naive.quit()
    results = {label: best(values) for label, values in samples.items()}

    print(f"{'measure':40} {'seconds':>8} {'positions/s':>12} {'CPU ms/position':>16}")
    for label, sample in results.items():
        print(f"{label:40} {sample.wall_s:8.2f} {positions / sample.wall_s:12.2f} {1000 * sample.cpu_s / positions:16.1f}")
    raw_best_label = min((label for label in results if label.startswith("raw")), key=lambda k: results[k].wall_s)
    pipe_best_label = min((label for label in results if label.startswith("pipeline")), key=lambda k: results[k].wall_s)
    raw_best, pipe_best = results[raw_best_label], results[pipe_best_label]
    print()
    print(f"fastest raw setup:      {raw_best_label.split(None, 1)[1]}")
    print(f"fastest pipeline setup: {pipe_best_label.split(None, 1)[1]}")
    for label in setups:
        raw_sample, pipe_sample = results[f"raw       {label}"], results[f"pipeline  {label}"]
        print(f"{label}: pipeline / raw throughput {raw_sample.wall_s / pipe_sample.wall_s:.3f}, "
              f"CPU per position pipeline / raw {pipe_sample.cpu_s / raw_sample.cpu_s:.3f}")
    ratio = raw_best.wall_s / pipe_best.wall_s
    print(f"pipeline (best) / raw (best) throughput: {ratio:.3f}  (target >= 0.95: {'met' if ratio >= 0.95 else 'NOT met'})")
    naive_sample = results["naive     1 proc, 2 searches/move"]
    print(f"pipeline (best) / naive throughput: {naive_sample.wall_s / pipe_best.wall_s:.2f}x")
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1):
        print(f"note: load average {load:.1f} on {os.cpu_count()} cores during the run: wall-clock figures are noisy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
