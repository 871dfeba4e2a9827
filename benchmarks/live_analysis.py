"""Click-to-first-line latency of live analysis, against the engine driven directly, in one run.

Warm: for each position of a real corpus game (chess) or the first moves of a real 19x19 game (Go),
the position changes as a click on the board would change it, and the clock runs until the first
line arrives (p50 / p95 over the positions). The same first budget, asked of the engine directly
(python-chess `SimpleEngine.analyse` for Stockfish; one KataGo analysis query), is the floor:
the ratio says what the live analysis adds on top of the engine.

For Go, the lines that follow the first are timed too (from the click to the line of each of the
first `--go-steps` budgets, 2, 8 and 32 visits by default), and each program that can search
KataGo's network is measured in turn (`--go-paths`: "search", Reviewer's own search, the default on
a machine without a GPU; "process", KataGo's process with its first visits in-process), chosen with
REVIEWER_KATAGO_NETWORK.

Cold (Go): a new Python process presses L once on the 19x19 game: the clock runs from the press to
the first line, the engine's opening and its network's first read included (KataGo's own process
starts meanwhile, as in the app). Measured twice per run: as is, and with the network built
beforehand the way the app builds it when a Go game opens (`EnginePlan.preload_network`, off the
GUI thread; its own time is printed too).

    .venv/bin/python benchmarks/live_analysis.py [--positions 40] [--go-positions 8] [--cold-runs 3] [--no-katago]
        [--no-chess] [--go-paths search,process] [--go-steps 3]
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import chess  # noqa: E402
import chess.engine  # noqa: E402

from reviewer.core.engines.uci import UciEngine  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.games.chess import board_after  # noqa: E402
from reviewer.core.services.live import CHESS_NODES, GO_VISITS, LiveAnalysis, LiveUpdate  # noqa: E402

CORPUS = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared")) / "corpus"
CHESS_GAME = CORPUS / "pgn" / "chesslib__Morphy_UTF8.pgn"
GO_GAME = CORPUS / "sgf"
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def live_latencies(factory, game, plies: list[int], steps: int = 1) -> list[float]:  # type: ignore[no-untyped-def]
    """Click to first line per position; with `steps` > 1, `step_latencies` gets the click to the
    line of each of the first `steps` budgets (one list per step) and their visits."""
    updates: queue.Queue[LiveUpdate | str] = queue.Queue()
    live = LiveAnalysis(factory, updates.put, updates.put, multipv=3)
    latencies: list[float] = []
    step_latencies.clear()
    step_latencies.extend([] for _ in range(steps))
    try:
        live.set_position(game, plies[0], "warm-up")  # the engine starts here, as when the toggle is switched on
        first = updates.get(timeout=300)
        assert isinstance(first, LiveUpdate), first
        for ply in plies:
            started = time.perf_counter()
            live.set_position(game, ply, ply)
            while True:
                item = updates.get(timeout=300)
                if isinstance(item, str):
                    raise RuntimeError(item)
                if item.token != ply:
                    continue
                if item.step == 0:
                    latencies.append(time.perf_counter() - started)
                if item.step < steps:
                    step_latencies[item.step].append((time.perf_counter() - started, item.evaluation.nodes or 0))
                if item.step >= steps - 1:
                    break
    finally:
        live.close()
    return latencies


step_latencies: list[list[tuple[float, int]]] = []


def raw_stockfish_latencies(boards: list[chess.Board]) -> list[float]:
    latencies = []
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as engine:
        engine.analyse(boards[0], chess.engine.Limit(nodes=CHESS_NODES[0]), multipv=3)
        for board in boards:
            started = time.perf_counter()
            engine.analyse(board, chess.engine.Limit(nodes=CHESS_NODES[0]), multipv=3)
            latencies.append(time.perf_counter() - started)
    return latencies


def report(name: str, live: list[float], raw: list[float]) -> None:
    p50, p95 = statistics.median(live), percentile(live, 0.95)
    r50, r95 = statistics.median(raw), percentile(raw, 0.95)
    print(f"{name}: {len(live)} positions")
    print(f"  live analysis, click to first line: p50 {p50 * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms")
    print(f"  engine alone, same first budget:     p50 {r50 * 1000:7.1f} ms   p95 {r95 * 1000:7.1f} ms")
    print(f"  ratio live / engine alone (p50):     {p50 / r50:.2f}")


def chess_benchmark(count: int) -> None:
    game = load_game(CHESS_GAME, 0)
    nodes = [game.root, *game.mainline_nodes()]
    plies = [ply for ply in range(len(nodes)) if board_after(game, nodes[ply]).outcome() is None][:count]
    live = live_latencies(lambda: UciEngine([STOCKFISH], threads=1), game, plies)
    raw = raw_stockfish_latencies([board_after(game, nodes[ply]) for ply in plies])
    report(f"Stockfish ({CHESS_GAME.name}, {CHESS_NODES[0]} nodes, MultiPV 3, 1 thread)", live, raw)


def go_game(count: int):  # type: ignore[no-untyped-def]
    games = sorted(path for path in GO_GAME.glob("*.sgf") if "19" in path.name or "ogs" in path.name)
    for path in games:
        try:
            candidate = load_game(path, 0)
        except Exception:
            continue
        if candidate.board_width == 19 and candidate.ply_count >= count + 10:
            return candidate
    return None


def one_cold_press(preloaded: bool) -> None:
    """In this new process: (optionally build the network as the app does when a Go game opens,
    then) press L once; prints the seconds as JSON."""
    import json

    from reviewer.core.engines.registry import EnginePlan, open_engine

    game = go_game(8)
    assert game is not None
    size = (19, 19)
    preload_s = None
    if preloaded:
        started = time.perf_counter()
        EnginePlan("go", "katago", board_size=size).preload_network()
        preload_s = time.perf_counter() - started
    updates: queue.Queue[LiveUpdate | str] = queue.Queue()
    live = LiveAnalysis(  # as the app opens it: KataGo starts while the network answers the first visits
        lambda: open_engine("go", name="katago", board_size=size, start_in_background=True), updates.put, updates.put, multipv=3
    )
    try:
        started = time.perf_counter()
        live.set_position(game, 10, "press")
        item = updates.get(timeout=300)
        if isinstance(item, str):
            raise RuntimeError(item)
        first_line_s = time.perf_counter() - started
    finally:
        live.close()
    print(json.dumps({"first_line_s": first_line_s, "preload_s": preload_s}))


def cold_benchmark(runs: int) -> None:
    import json
    import subprocess

    for preloaded in (False, True):
        firsts, preloads = [], []
        for _ in range(runs):
            command = [sys.executable, __file__, "--one-cold", "preloaded" if preloaded else "plain"]
            output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            result = json.loads(output.strip().splitlines()[-1])
            firsts.append(result["first_line_s"])
            if result["preload_s"] is not None:
                preloads.append(result["preload_s"])
        how = "network built when the game opened" if preloaded else "nothing built before the press"
        print(f"KataGo cold first line, new process, {how}: {runs} runs")
        print(f"  press to first line: median {statistics.median(firsts) * 1000:7.0f} ms   max {max(firsts) * 1000:7.0f} ms")
        if preloads:
            print(f"  (building the network beforehand, off the GUI thread: median {statistics.median(preloads) * 1000:.0f} ms)")


def go_benchmark(count: int, steps: int = 1) -> None:
    from reviewer.core.engines.registry import EnginePlan, open_engine

    game = go_game(count)
    if game is None:
        print("Go: no 19x19 corpus game found")
        return
    plies = list(range(10, 10 + count))
    size = (19, 19)
    EnginePlan("go", "katago", board_size=size).preload_network()  # as the app does when the game opens
    live = live_latencies(lambda: open_engine("go", name="katago", board_size=size, start_in_background=True), game, plies, steps)
    from reviewer.core.analysis import Limit
    from reviewer.core.engines.katago_net import evaluate as in_process

    in_process._runners.clear()  # the engine alone starts without the outputs the live lines cached
    engine = open_engine("go", name="katago", board_size=size)
    print(f"Go engine: {engine.identity}")
    for step, found in enumerate(step_latencies):
        if found:
            seconds = [s for s, _ in found]
            visits = sorted({v for _, v in found})
            print(f"  click to the line of budget {step + 1} ({GO_VISITS[step]} visits; visits shown {visits}): "
                  f"p50 {statistics.median(seconds) * 1000:7.1f} ms   p95 {percentile(seconds, 0.95) * 1000:7.1f} ms")
    raw = []
    try:
        list(engine.analyse(game, [plies[0] - 5], Limit(visits=GO_VISITS[0]), threading.Event()))  # built, untimed
        for ply in plies:
            started = time.perf_counter()
            list(engine.analyse(game, [ply], Limit(visits=GO_VISITS[0], multipv=3), threading.Event()))
            raw.append(time.perf_counter() - started)
    finally:
        engine.close()
    report(f"KataGo ({game.source.path and Path(game.source.path).name}, {GO_VISITS[0]} visits)", live, raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--go-positions", type=int, default=8)
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--no-katago", action="store_true")
    parser.add_argument("--no-chess", action="store_true")
    parser.add_argument("--go-paths", default="", help="search,process: REVIEWER_KATAGO_NETWORK for each run (default: as set)")
    parser.add_argument("--go-steps", type=int, default=3, help="Go budgets timed from the click (2, 8, 32 visits...)")
    parser.add_argument("--one-cold", choices=("plain", "preloaded"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_cold:
        one_cold_press(args.one_cold == "preloaded")
        return
    if not args.no_chess:
        chess_benchmark(args.positions)
    if not args.no_katago:
        for path in [p for p in args.go_paths.split(",") if p] or [os.environ.get("REVIEWER_KATAGO_NETWORK", "")]:
            if path:
                os.environ["REVIEWER_KATAGO_NETWORK"] = path  # the cold runs' processes inherit it
            print(f"\nGo, REVIEWER_KATAGO_NETWORK={path or '(unset)'}, load {os.getloadavg()[0]:.1f}")
            go_benchmark(args.go_positions, args.go_steps)
            cold_benchmark(args.cold_runs)


if __name__ == "__main__":
    main()
