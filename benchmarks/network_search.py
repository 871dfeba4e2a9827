"""Reviewer's own search over KataGo's network against KataGo itself, on real games' positions.

For a few positions of a 19x19 and a 9x9 game of the shared corpus, at each of --visits (32, 64):
Reviewer's search (`engines.katago_search`, a fresh tree per query) and two KataGo processes
(KataGo's analysis engine with the installed config; its network's symmetry is drawn at random per
evaluation, so the second process is KataGo with another seed: the engine's own noise). Printed per
board size and visits:

- best move: how often ours equals KataGo A's, and how often KataGo B's equals KataGo A's (the bar);
- |lead| and |winrate| differences (mean, points and percentage points, Black's view), same pairs;
- seconds per position of each, measured in the same run (each engine has searched a position of
  that board size first, untimed: OpenCL kernels and ONNX sessions are built). KataGo's processes search every position
  at the lower visits first, then at the higher: its cache of network evaluations is warm for the
  higher visits (so its higher-visit cost is a lower bound); ours starts each query from nothing.

    nice -n 10 .venv/bin/python benchmarks/network_search.py [--positions19 3] [--positions9 6] [--visits 32,64]

Ours shares one cache of network outputs per process (`NetworkRunner.evaluate`), as KataGo's
process keeps its own: the higher visits of a position find the lower visits' evaluations there.

`--forward` times the network alone on 19x19 positions of the same game instead (ms per position,
ONNX Runtime, `--repeats` rounds): one call of one thread, a batch split among calls side by side
on every core (`NetworkRunner.forward`, what the fast pass does), two threads each calling with one
core (what the search's workers do), and ONNX Runtime's own pool of threads over the same batch (a
session of `os.cpu_count()` intra-op threads, the way it ran before).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import mean

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.analysis import Evaluation, Limit  # noqa: E402
from reviewer.core.engines.install import installed_katago  # noqa: E402
from reviewer.core.engines.katago import KataGoEngine  # noqa: E402
from reviewer.core.engines.katago_search import KataGoNetworkSearch  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.gametree import Game  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
GAMES = {19: "katrain__LS_vs_AG_G4_English.sgf", 9: "katago__sampletest9x9.sgf"}


def spread_plies(game: Game, count: int) -> list[int]:
    """`count` plies spread over the game, its first and last tenth left out."""
    last = game.ply_count
    low, high = max(1, last // 10), max(2, last - last // 10)
    if count <= 1:
        return [(low + high) // 2]
    return sorted({low + (high - low) * i // (count - 1) for i in range(count)})


def timed(analyse: Callable[[], list[Evaluation]]) -> tuple[Evaluation, float]:
    started = time.monotonic()
    (evaluation,) = analyse()
    return evaluation, time.monotonic() - started


def run(args: argparse.Namespace) -> None:
    katago = installed_katago()
    if katago is None:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    command = katago.command(katago.default_model)
    visit_counts = [int(v) for v in args.visits.split(",")]
    os.environ["REVIEWER_KATAGO_NETWORK"] = "process"  # KataGo's processes search every visit themselves
    first, second = (KataGoEngine(command, start_timeout_s=300) for _ in range(2))
    ours = KataGoNetworkSearch(command)
    stop = threading.Event()
    print(f"KataGo {katago.version}, network {katago.default_model}; ours: {ours.identity}; {os.cpu_count()} cores")
    try:
        for size, count in ((19, args.positions19), (9, args.positions9)):
            if count <= 0:
                continue
            game = load_game(SHARED / "corpus" / "sgf" / GAMES[size])
            plies = spread_plies(game, count)
            print(f"\n{size}x{size}: {GAMES[size]}, plies {plies}", flush=True)
            for engine in (first, second, ours):  # kernels and sessions built before anything is timed
                list(engine.analyse(game, [0], Limit(visits=4), stop))
            for visits in visit_counts:
                limit = Limit(visits=visits)
                rows: list[tuple[Evaluation, float, Evaluation, float, Evaluation, float]] = []
                for ply in plies:
                    a, a_s = timed(lambda: list(first.analyse(game, [ply], limit, stop)))  # noqa: B023
                    b, b_s = timed(lambda: list(second.analyse(game, [ply], limit, stop)))  # noqa: B023
                    o, o_s = timed(lambda: list(ours.analyse(game, [ply], limit, stop)))  # noqa: B023
                    rows.append((a, a_s, b, b_s, o, o_s))
                    print(f"  ply {ply:3d} @{visits}: KataGo A {a.best_move} {a.score_lead_first:+.1f} ({a_s:.1f} s)"
                          f"  B {b.best_move} {b.score_lead_first:+.1f} ({b_s:.1f} s)"
                          f"  ours {o.best_move} {o.score_lead_first:+.1f} ({o_s:.1f} s)", flush=True)
                report(size, visits, rows)
    finally:
        first.close()
        second.close()


def report(size: int, visits: int, rows: Sequence[tuple[Evaluation, float, Evaluation, float, Evaluation, float]]) -> None:
    def agree(pairs: list[tuple[Evaluation, Evaluation]]) -> str:
        same = sum(1 for x, y in pairs if x.best_move == y.best_move)
        lead = mean(abs((x.score_lead_first or 0.0) - (y.score_lead_first or 0.0)) for x, y in pairs)
        winrate = mean(abs((x.winrate_first or 0.0) - (y.winrate_first or 0.0)) for x, y in pairs) * 100
        return f"best move {same}/{len(pairs)}, |lead| {lead:.2f} pt, |winrate| {winrate:.1f} pp"

    ours = agree([(o, a) for a, _, _, _, o, _ in rows])
    noise = agree([(b, a) for a, _, b, _, _, _ in rows])
    cost_a, cost_b, cost_o = (mean(row[i] for row in rows) for i in (1, 3, 5))
    print(f"| {size}x{size} | {visits} | {len(rows)} | ours vs KataGo A: {ours} | KataGo B vs A: {noise}"
          f" | s/position: ours {cost_o:.2f}, KataGo A {cost_a:.2f}, B {cost_b:.2f} |", flush=True)


def forward_costs(repeats: int) -> None:
    import numpy as np
    import onnxruntime

    from reviewer.core.engines.katago import model_path
    from reviewer.core.engines.katago_net.features import inputs_for_turns
    from reviewer.core.engines.katago_net.model import read_model
    from reviewer.core.engines.katago_net.onnx_graph import onnx_model
    from reviewer.core.engines.katago_net.runtime import NetworkRunner

    katago = installed_katago()
    if katago is None:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    path = model_path(katago.command(katago.default_model))
    assert path is not None
    network = read_model(path)
    runner = NetworkRunner(network, "onnxruntime")
    from reviewer.core.engines.katago import plan_queries

    game = load_game(SHARED / "corpus" / "sgf" / GAMES[19])
    plan = plan_queries(game)
    inputs = inputs_for_turns(plan, 0, list(range(40, 56)))
    spatial, global_inputs = inputs.spatial.astype(np.float32), inputs.global_inputs.astype(np.float32)
    cores = os.cpu_count() or 1
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = cores
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    pooled = onnxruntime.InferenceSession(onnx_model(network, 19, 19), options, providers=["CPUExecutionProvider"])

    def pool_run(count: int) -> None:
        pooled.run(None, {"spatial": spatial[:count], "global_inputs": global_inputs[:count]})

    def side_by_side() -> None:
        threads = [threading.Thread(target=lambda lo=lo: runner.forward(spatial[lo:lo + 4], global_inputs[lo:lo + 4], 1))
                   for lo in range(0, 4 * cores, 4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    ways: list[tuple[str, int, Callable[[], object]]] = [
        ("1 position, one call of one core", 1, lambda: runner.forward(spatial[:1], global_inputs[:1], 1)),
        ("1 position, ONNX Runtime's pool of threads", 1, lambda: pool_run(1)),
        ("8 positions, one call of one core", 8, lambda: runner.forward(spatial[:8], global_inputs[:8], 1)),
        (f"8 positions split among {cores} calls side by side", 8, lambda: runner.forward(spatial[:8], global_inputs[:8])),
        ("8 positions, ONNX Runtime's pool of threads", 8, lambda: pool_run(8)),
        (f"{cores} threads side by side, each a call of 4 on one core", 4 * cores, side_by_side),
    ]
    for _, _, way in ways:
        way()  # sessions and kernels built
    costs: dict[str, list[float]] = {name: [] for name, _, _ in ways}
    for _ in range(repeats):  # interleaved, so that the load falls on every way alike
        for name, positions, way in ways:
            started = time.perf_counter()
            way()
            costs[name].append((time.perf_counter() - started) * 1000 / positions)
    print(f"{GAMES[19]}, {network.name}, {cores} cores, load {os.getloadavg()[0]:.1f}, {repeats} rounds: ms per position, median")
    for name, values in costs.items():
        print(f"  {name}: {sorted(values)[len(values) // 2]:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions19", type=int, default=3)
    parser.add_argument("--positions9", type=int, default=6)
    parser.add_argument("--visits", default="32,64")
    parser.add_argument("--forward", action="store_true", help="time the network alone (see above)")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    if args.forward:
        forward_costs(args.repeats)
    else:
        run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
