"""KataGo's first visits on a CPU: KataGo's OpenCL build against Reviewer's numpy path, in one run.

KataGo's Linux build here runs its network through OpenCL on PoCL. Reviewer computes searches of
1 and 2 visits itself (reviewer/core/engines/katago_net: KataGo's model file, input features and
post-processing, the network in numpy). On the positions of a real 19x19 game, in the same run:

  katago   the installed KataGo (symmetry 0: nnRandomize=false), REVIEWER_KATAGO_NETWORK=process
  numpy    the same KataGoEngine, which answers 1 and 2 visits in-process
  agree    the largest and the median differences between the two, per position (winrate in
           percentage points, lead in points)

Optional extra lines: a network of the model's shape with random weights in numpy and, when `onnx`
and `onnxruntime` are importable (they are not Reviewer's dependencies), in ONNX Runtime's CPU
provider: what a further path could reach; they evaluate nothing a review could use.

    nice -n 10 .venv/bin/python benchmarks/network_cpu_paths.py [--sgf FILE] [--positions 60] [--stand-ins]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.analysis import Evaluation, Limit  # noqa: E402
from reviewer.core.engines.install import installed_katago  # noqa: E402
from reviewer.core.engines.katago import KataGoEngine  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.gametree import Game  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
DEFAULT_SGF = SHARED / "corpus" / "sgf" / "katrain__LS_vs_AG_G4_English.sgf"
SIDE, PLANES, CHANNELS, BLOCKS = 19, 22, 192, 15
BATCHES = (1, 8, 16)


def _engine(command: list[str], in_process: bool) -> KataGoEngine:
    previous = os.environ.get("REVIEWER_KATAGO_NETWORK")
    os.environ["REVIEWER_KATAGO_NETWORK"] = "" if in_process else "process"
    try:
        return KataGoEngine([*command, "-override-config", "nnRandomize=false"], start_timeout_s=300)
    finally:
        if previous is None:
            del os.environ["REVIEWER_KATAGO_NETWORK"]
        else:
            os.environ["REVIEWER_KATAGO_NETWORK"] = previous


def timed(engine: KataGoEngine, game: Game, plies: list[int], visits: int) -> tuple[float, dict[int, Evaluation]]:
    list(engine.analyse(game, plies[:2], Limit(visits=visits), threading.Event()))  # started and warm
    started = time.perf_counter()
    found = {e.ply: e for e in engine.analyse(game, plies, Limit(visits=visits), threading.Event())}
    return len(found) / (time.perf_counter() - started), found


def real_paths(sgf: Path, positions: int, visits: tuple[int, ...]) -> None:
    katago = installed_katago()
    if katago is None:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    game = load_game(sgf)
    plies = list(range(min(positions, game.ply_count + 1)))
    print(f"{sgf.name}: {len(plies)} positions of {game.board_width}x{game.board_height}")
    for count in visits:
        rates, results = {}, {}
        for in_process in (False, True):
            engine = _engine(list(katago.command()), in_process)
            try:
                rates[in_process], results[in_process] = timed(engine, game, plies, count)
            finally:
                engine.close()
        winrate = [abs(results[True][p].winrate_black - results[False][p].winrate_black) * 100 for p in plies]  # type: ignore[operator]
        lead = [abs(results[True][p].score_lead_black - results[False][p].score_lead_black) for p in plies]  # type: ignore[operator]
        print(f"{count} visit(s): katago {rates[False]:6.2f} positions/s, numpy {rates[True]:6.2f} positions/s "
              f"= {rates[True] / rates[False]:4.1f}x;  agree: winrate max {max(winrate):.3f} median "
              f"{statistics.median(winrate):.4f} points of %, lead max {max(lead):.3f} median {statistics.median(lead):.4f}",
              flush=True)


def _weights(rng: np.random.Generator, out: int, inp: int, k: int) -> np.ndarray:
    return (rng.standard_normal((out, inp * k * k)) * 0.05).astype(np.float32)


def numpy_network(rng: np.random.Generator) -> Callable[[np.ndarray], np.ndarray]:
    first = _weights(rng, CHANNELS, PLANES, 5)
    blocks = [(_weights(rng, CHANNELS, CHANNELS, 3), _weights(rng, CHANNELS, CHANNELS, 3)) for _ in range(BLOCKS)]

    def conv(x: np.ndarray, w: np.ndarray, k: int) -> np.ndarray:
        batch, channels = x.shape[:2]
        pad = k // 2
        padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(2, 3))  # b, c, 19, 19, k, k
        columns = windows.transpose(0, 1, 4, 5, 2, 3).reshape(batch, channels * k * k, SIDE * SIDE)
        return np.matmul(w, columns).reshape(batch, w.shape[0], SIDE, SIDE)

    def run(x: np.ndarray) -> np.ndarray:
        h = conv(x, first, 5)
        for a, b in blocks:
            h = h + conv(np.maximum(conv(np.maximum(h, 0), a, 3), 0), b, 3)
        return h

    return run


def onnx_network(rng: np.random.Generator) -> Callable[[np.ndarray], np.ndarray] | None:
    try:
        import onnxruntime  # type: ignore[import-not-found]
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        return None
    initialisers, nodes = [], []

    def conv(x: str, inp: int, out: int, k: int, name: str) -> str:
        weight = (rng.standard_normal((out, inp, k, k)) * 0.05).astype(np.float32)
        initialisers.append(numpy_helper.from_array(weight, name + "_w"))
        nodes.append(helper.make_node("Conv", [x, name + "_w"], [name], pads=[k // 2] * 4))
        return name

    def relu(x: str, name: str) -> str:
        nodes.append(helper.make_node("Relu", [x], [name]))
        return name

    h = conv("input", PLANES, CHANNELS, 5, "first")
    for block in range(BLOCKS):
        inner = conv(relu(conv(relu(h, f"r{block}a"), CHANNELS, CHANNELS, 3, f"c{block}a"), f"r{block}b"),
                     CHANNELS, CHANNELS, 3, f"c{block}b")
        nodes.append(helper.make_node("Add", [h, inner], [f"s{block}"]))
        h = f"s{block}"
    graph = helper.make_graph(
        nodes, "trunk", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["n", PLANES, SIDE, SIDE])],
        [helper.make_tensor_value_info(h, TensorProto.FLOAT, None)], initialisers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return lambda x: session.run(None, {"input": x})[0]


def network_rate(run: Callable[[np.ndarray], np.ndarray], batch: int, seconds: float, rng: np.random.Generator) -> float:
    x = rng.standard_normal((batch, PLANES, SIDE, SIDE)).astype(np.float32)
    run(x)
    started, runs = time.perf_counter(), 0
    while time.perf_counter() - started < seconds:
        run(x)
        runs += 1
    return runs * batch / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sgf", type=Path, default=DEFAULT_SGF, help="a 19x19 game")
    parser.add_argument("--positions", type=int, default=60, help="positions of the game evaluated by each path")
    parser.add_argument("--visits", default="1,2", help="visit counts compared (1 and/or 2)")
    parser.add_argument("--stand-ins", action="store_true", help="also the random-weight numpy and ONNX Runtime lines")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per stand-in measurement")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    real_paths(args.sgf, args.positions, tuple(int(v) for v in args.visits.split(",")))
    if not args.stand_ins:
        return 0
    rng = np.random.default_rng(0)
    stand_ins: list[tuple[str, Callable[[np.ndarray], np.ndarray]]] = [("numpy (BLAS) stand-in", numpy_network(rng))]
    onnx = onnx_network(rng)
    if onnx is None:
        print("onnx stand-in: skipped (pip install onnx onnxruntime)")
    else:
        stand_ins.append(("onnxruntime stand-in", onnx))
    for name, run in stand_ins:
        for batch in BATCHES:
            rate = network_rate(run, batch, args.seconds, rng)
            print(f"{name + f', batch {batch}':<36} {rate:7.1f} positions/s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
