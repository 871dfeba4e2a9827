"""KataGo's network in int8 against float32 on a CPU: cost and fidelity, in one run.

Network (`--network`): the installed network's float32 graph (`onnx_graph`, ONNX Runtime, one
thread) and its int8 graph (`quantized`: residual blocks int8, calibrated on the network's own
games), ms per 19x19 position at batches of 1, 4 and 8 (median of --repeats interleaved rounds);
then, over every --step-th position of real 19x19 games of the shared corpus (not those the
calibration saw: it sees none), how far int8's outputs fall from float32's: policy top-1 agreement,
KL(float32 || int8) of the policy, |winrate| (percentage points) and |lead| (points). The bar
beside them is KataGo's own noise: float32 against float32 on the transposed board (KataGo draws
one of 8 symmetries per evaluation, so its figures for a position move that much between runs).

Variants (`--variants`): what else was tried, on the same 19x19 positions: float32 at ONNX
Runtime's basic and extended optimisation levels (the default is all), float16
(`onnxruntime.transformers.float16`, inputs and outputs float32), and int8 with the first
convolution and/or the heads quantized too; ms per position at batch 4 (median of --repeats
interleaved rounds) and the same fidelity figures against float32.

Search (`--search`): Reviewer's search (`katago_search`) at --visits on --positions positions of
a 19x19 game, one position at a time (one core: a review's worker), in float32, in int8, and in
float32 with every evaluation on the transposed board (the noise bar again, at the search's level),
the three searches of a position one after another so that the load falls on each alike;
best-move agreement with float32 and mean |lead|, |winrate| (Black's view), and the seconds of
each; then the whole game at 2 visits (the fast pass: every position, every core), float32, int8,
int8, float32; with --judged N, then N positions spread over the game at --visits on every core
(the way a review's refining pass searches the moves it judges), int8 then float32.

    nice -n 10 .venv/bin/python benchmarks/network_precision.py [--network] [--variants] [--search] [--step 3]
        [--positions 30] [--visits 32] [--judged 112]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from statistics import mean, median
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.analysis import Evaluation, Limit  # noqa: E402
from reviewer.core.engines.install import installed_katago  # noqa: E402
from reviewer.core.engines.katago import model_path, plan_queries  # noqa: E402
from reviewer.core.engines.katago_net.features import inputs_for_turns  # noqa: E402
from reviewer.core.engines.katago_net.model import Floats, Network, read_model  # noqa: E402
from reviewer.core.engines.katago_net.network import RawOutputs  # noqa: E402
from reviewer.core.engines.katago_net.onnx_graph import HEAD_CONV, TRUNK_CONV, onnx_model  # noqa: E402
from reviewer.core.engines.katago_net.quantized import cached_int8_model, file_digest, int8_model, measure_ranges  # noqa: E402
from reviewer.core.engines.katago_net.runtime import NetworkRunner  # noqa: E402
from reviewer.core.engines.katago_search import KataGoNetworkSearch  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "sgf"
FIDELITY_GAMES = ("katrain__LS_vs_AG_G4_English.sgf", "analyze-sgf__t-oro-2.sgf", "sabaki-sgf__fox_go_server_komi.sgf",
                  "katrain__ogs.sgf", "sabaki__pro_game.sgf", "sabaki-sgf__non_fox_game.sgf")
NINE_GAMES = ("katago__sampletest9x9.sgf", "katrain__xmgt97.sgf", "sabaki__endgame-9.sgf")
SEARCH_GAME = "katrain__fox_sgf_error.sgf"


def load() -> tuple[str, Network, list[str]]:
    katago = installed_katago()
    if katago is None:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    command = list(katago.command(katago.default_model))
    path = model_path(command)
    assert path is not None
    return str(path), read_model(path), command


def session(model: bytes, level: str = "ORT_ENABLE_ALL") -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = getattr(onnxruntime.GraphOptimizationLevel, level)
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def positions(games: tuple[str, ...], step: int) -> tuple[Floats, Floats]:
    spatial, global_inputs = [], []
    for name in games:
        game = load_game(CORPUS / name)
        inputs = inputs_for_turns(plan_queries(game), 0, list(range(0, game.ply_count, step)))
        spatial.append(inputs.spatial.astype(np.float32))
        global_inputs.append(inputs.global_inputs.astype(np.float32))
    return np.concatenate(spatial), np.concatenate(global_inputs)


def transposed(outputs: list[Any]) -> list[Any]:
    """Outputs of the transposed board, moved back to the board's own points."""
    policy, value, score, ownership = outputs
    count, side = len(policy), ownership.shape[1]
    board = policy[:, : side * side].reshape(count, side, side).transpose(0, 2, 1).reshape(count, -1)
    return [np.concatenate([board, policy[:, side * side :]], 1), value, score, ownership.transpose(0, 2, 1)]


def run_all(model: Any, spatial: Floats, global_inputs: Floats) -> list[Any]:
    parts = [model.run(None, {"spatial": spatial[i : i + 16], "global_inputs": global_inputs[i : i + 16]})
             for i in range(0, len(spatial), 16)]
    return [np.concatenate([part[k] for part in parts]) for k in range(4)]


def figures(outputs: list[Any]) -> tuple[Any, Any, Any]:
    """(policy log-probabilities, winrate of the side to move, lead of the side to move)."""
    policy, value, score, _ = outputs
    logs = policy - policy.max(1, keepdims=True)
    logs = logs - np.log(np.exp(logs).sum(1, keepdims=True))
    probabilities = np.exp(value - value.max(1, keepdims=True))
    probabilities /= probabilities.sum(1, keepdims=True)
    return logs, 0.5 * (1 + probabilities[:, 0] - probabilities[:, 1]), score[:, 2] * 20


def compare(name: str, reference: list[Any], other: list[Any]) -> None:
    (p, w, s), (q, v, t) = figures(reference), figures(other)
    top = float((p.argmax(1) == q.argmax(1)).mean()) * 100
    kl = (np.exp(p) * (p - q)).sum(1)
    winrate, lead = np.abs(w - v) * 100, np.abs(s - t)
    print(f"| {name} | {top:.1f}% | {kl.mean():.4f} (max {kl.max():.3f}) | {winrate.mean():.2f} (p95 {np.percentile(winrate, 95):.2f},"
          f" max {winrate.max():.2f}) | {lead.mean():.2f} (p95 {np.percentile(lead, 95):.2f}, max {lead.max():.2f}) |", flush=True)


def network_figures(path: str, network: Network, step: int, repeats: int, directory: Path) -> None:
    started = time.perf_counter()
    int8 = session(cached_int8_model(network, file_digest(path), 19, 19, directory))
    print(f"int8 graph made in {time.perf_counter() - started:.1f} s (calibration included)")
    fp32 = session(onnx_model(network, 19, 19))
    spatial, global_inputs = positions(FIDELITY_GAMES, step)
    sessions = {"fp32": fp32, "int8": int8}
    costs: dict[tuple[str, int], list[float]] = {(n, b): [] for n in sessions for b in (1, 4, 8)}
    for model in sessions.values():
        model.run(None, {"spatial": spatial[:8], "global_inputs": global_inputs[:8]})
    for _ in range(repeats):
        for (name, batch), values in costs.items():
            feeds = {"spatial": spatial[:batch], "global_inputs": global_inputs[:batch]}
            begun = time.perf_counter()
            sessions[name].run(None, feeds)
            values.append((time.perf_counter() - begun) * 1000 / batch)
    print(f"\nms per 19x19 position, one thread, median of {repeats} rounds; load {os.getloadavg()[0]:.2f}")
    print("| batch | float32 | int8 | float32 / int8 |\n|---:|---:|---:|---:|")
    for batch in (1, 4, 8):
        a, b = median(costs[("fp32", batch)]), median(costs[("int8", batch)])
        print(f"| {batch} | {a:.1f} | {b:.1f} | {a / b:.2f}x |")
    print("\nagainst float32 on the same board:")
    print("| evaluation | policy top-1 | policy KL | \\|winrate\\| pp | \\|lead\\| pt |\n|---|---:|---:|---:|---:|")
    for size, games, every in ((19, FIDELITY_GAMES, step), (9, NINE_GAMES, 1)):
        if size != 19:
            fp32 = session(onnx_model(network, size, size))
            int8 = session(cached_int8_model(network, file_digest(path), size, size, directory))
            spatial, global_inputs = positions(games, every)
        reference = run_all(fp32, spatial, global_inputs)
        flipped = transposed(run_all(fp32, spatial.transpose(0, 2, 1, 3).copy(), global_inputs))
        where = f"{size}x{size}, {len(spatial)} positions of {len(games)} games"
        compare(f"int8, {where}", reference, run_all(int8, spatial, global_inputs))
        compare(f"float32 on the transposed board (KataGo's noise), {where}", reference, flipped)


def variant_figures(network: Network, step: int, repeats: int) -> None:
    import onnx
    from onnxruntime.transformers.float16 import convert_float_to_float16

    fp32_model = onnx_model(network, 19, 19)
    half = convert_float_to_float16(onnx.load_from_string(fp32_model), keep_io_types=True).SerializeToString()
    every = (TRUNK_CONV, "input_conv", HEAD_CONV)
    ranges = measure_ranges(network, every)
    sessions = {
        "float32 (optimisation level all: the default)": session(fp32_model),
        "float32, level extended": session(fp32_model, "ORT_ENABLE_EXTENDED"),
        "float32, level basic": session(fp32_model, "ORT_ENABLE_BASIC"),
        "float16": session(half),
        "int8, residual blocks (the int8 path)": session(int8_model(network, 19, 19, ranges)),
        "int8, residual blocks and first convolution": session(int8_model(network, 19, 19, ranges, (TRUNK_CONV, "input_conv"))),
        "int8, residual blocks and heads": session(int8_model(network, 19, 19, ranges, (TRUNK_CONV, HEAD_CONV))),
        "int8, every convolution": session(int8_model(network, 19, 19, ranges, every)),
    }
    spatial, global_inputs = positions(FIDELITY_GAMES, step)
    feeds = {"spatial": spatial[:4], "global_inputs": global_inputs[:4]}
    costs: dict[str, list[float]] = {name: [] for name in sessions}
    for model in sessions.values():
        model.run(None, feeds)
    for _ in range(repeats):
        for name, model in sessions.items():
            begun = time.perf_counter()
            model.run(None, feeds)
            costs[name].append((time.perf_counter() - begun) * 1000 / 4)
    print(f"\nms per 19x19 position at batch 4, one thread, median of {repeats} rounds; load {os.getloadavg()[0]:.2f}")
    for name, values in costs.items():
        print(f"  {name}: {median(values):.1f}")
    reference = run_all(next(iter(sessions.values())), spatial, global_inputs)
    print(f"\n19x19, {len(spatial)} positions of {len(FIDELITY_GAMES)} games, against float32:")
    print("| evaluation | policy top-1 | policy KL | \\|winrate\\| pp | \\|lead\\| pt |\n|---|---:|---:|---:|---:|")
    for name, model in list(sessions.items())[3:]:
        compare(name, reference, run_all(model, spatial, global_inputs))
        outputs, expected = run_all(model, spatial, global_inputs)[3], reference[3]
        print(f"    ownership |error| mean {np.abs(np.tanh(outputs) - np.tanh(expected)).mean():.4f}")


class TransposedRunner(NetworkRunner):
    """Float32 with every position evaluated on the transposed board (one of KataGo's symmetries)."""

    def forward(self, spatial: Floats, global_inputs: Floats, cores: int | None = None) -> RawOutputs:
        outputs = super().forward(spatial.transpose(0, 2, 1, 3).copy(), global_inputs, cores)
        return RawOutputs(*transposed([outputs.policy_logits, outputs.value_logits, outputs.score, outputs.ownership]))


def search_figures(command: list[str], network: Network, count: int, visits: int, judged: int) -> None:
    game = load_game(CORPUS / SEARCH_GAME)
    last = game.ply_count
    plies = sorted({last // 10 + (last - last // 5) * i // max(1, count - 1) for i in range(count)})
    engines = {"fp32": KataGoNetworkSearch(command, precision="fp32"), "int8": KataGoNetworkSearch(command, precision="int8"),
               "fp32 transposed": KataGoNetworkSearch(command, precision="fp32")}
    engines["fp32 transposed"]._evaluator._runner = TransposedRunner(network, "onnxruntime")
    stop = threading.Event()
    for engine in engines.values():
        list(engine.analyse(game, [0], Limit(visits=4), stop))  # sessions made, int8's calibration read

    def timed(engine: KataGoNetworkSearch, wanted: list[int], limit: Limit) -> tuple[dict[int, Evaluation], float]:
        engine._evaluator.network()._cache.clear()  # each run from no evaluations kept
        begun = time.perf_counter()
        found = {e.ply: e for e in engine.analyse(game, wanted, limit, stop)}
        return found, time.perf_counter() - begun

    print(f"\n{SEARCH_GAME}: {last} moves; {len(plies)} positions at {visits} visits, one at a time (one core),"
          f" the three searches of a position one after another; load {os.getloadavg()[0]:.2f}")
    results: dict[str, dict[int, Evaluation]] = {name: {} for name in engines}
    seconds: dict[str, float] = dict.fromkeys(engines, 0.0)
    for index, ply in enumerate(plies):
        order = list(engines)[index % 3 :] + list(engines)[: index % 3]  # each goes first as often
        for name in order:
            found, spent = timed(engines[name], [ply], Limit(visits=visits))
            results[name].update(found)
            seconds[name] += spent
    reference = results["fp32"]
    print("| search | best move = float32's | \\|lead\\| pt | \\|winrate\\| pp | s per position | float32 / it |\n|---|---:|---:|---:|---:|---:|")
    for name in ("int8", "fp32 transposed", "fp32"):
        found = results[name]
        same = sum(found[p].best_move == reference[p].best_move for p in plies)
        lead = mean(abs((found[p].score_lead_first or 0.0) - (reference[p].score_lead_first or 0.0)) for p in plies)
        winrate = mean(abs((found[p].winrate_first or 0.0) - (reference[p].winrate_first or 0.0)) for p in plies) * 100
        print(f"| {name} | {same}/{len(plies)} | {lead:.2f} | {winrate:.2f} | {seconds[name] / len(plies):.2f} |"
              f" {seconds['fp32'] / seconds[name]:.2f}x |")
    print(f"  load {os.getloadavg()[0]:.2f}", flush=True)
    every = list(range(last + 1))
    for name in ("fp32", "int8", "int8", "fp32"):
        _, spent = timed(engines[name], every, Limit(visits=2))
        print(f"  whole game at 2 visits, {name}: {len(every)} positions in {spent:.1f} s"
              f" ({engines[name].workers} workers), load {os.getloadavg()[0]:.2f}", flush=True)
    if judged:
        spread = sorted({1 + (last - 1) * i // max(1, judged - 1) for i in range(judged)})
        for name in ("int8", "fp32"):
            _, spent = timed(engines[name], spread, Limit(visits=visits))
            print(f"  {len(spread)} positions spread over the game at {visits} visits, {name}: {spent:.1f} s"
                  f" ({engines[name].workers} workers), load {os.getloadavg()[0]:.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--network", action="store_true", help="the network's cost and fidelity")
    parser.add_argument("--variants", action="store_true", help="the other ways tried (see above)")
    parser.add_argument("--search", action="store_true", help="the search's cost and fidelity")
    parser.add_argument("--step", type=int, default=3, help="every step-th position of the fidelity games")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--visits", type=int, default=32)
    parser.add_argument("--judged", type=int, default=0,
                        help="then this many positions spread over the game at --visits, both workers, int8 then float32")
    args = parser.parse_args()
    path, network, command = load()
    print(f"{network.name}, {os.cpu_count()} CPUs, /proc/loadavg {Path('/proc/loadavg').read_text().strip()}")
    with tempfile.TemporaryDirectory(prefix="network-precision-") as folder:
        directory = Path(folder)
        everything = not (args.network or args.variants or args.search)
        if args.network or everything:
            network_figures(path, network, args.step, args.repeats, directory)
        if args.variants or everything:
            variant_figures(network, args.step, args.repeats)
        if args.search or everything:
            search_figures(command, network, args.positions, args.visits, args.judged)
    print(f"/proc/loadavg {Path('/proc/loadavg').read_text().strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
