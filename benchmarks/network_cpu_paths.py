"""How fast this CPU could evaluate KataGo's network outside KataGo's OpenCL build, in one run.

KataGo's Linux build here runs its network through OpenCL on PoCL. This benchmark measures, on the
same machine and in the same run:

  katago   the installed KataGo at 1 visit on the positions of a real 19x19 game: one network
           evaluation per position, so positions/s is its network evaluations per second
  numpy    a network of the default model's shape (g170e-b15c192: a 5x5 input convolution from
           22 feature planes, 15 residual blocks of two 3x3 convolutions at 192 channels), random
           weights, each convolution as one matrix product (numpy's BLAS), positions/s by batch
  onnx     the same network in ONNX Runtime's CPU provider, when `onnx` and `onnxruntime` are
           importable (they are not Reviewer's dependencies: `pip install onnx onnxruntime`)

The two stand-ins leave out the heads and KataGo's global-pooling blocks (a few per cent of the
arithmetic) and the input features (ladders, pass-alive areas), so they bound what a CPU path could
reach; they evaluate nothing a review could use.

    nice -n 10 .venv/bin/python benchmarks/network_cpu_paths.py [--sgf FILE] [--positions 40] [--seconds 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.analysis import Limit  # noqa: E402
from reviewer.core.engines.install import installed_katago  # noqa: E402
from reviewer.core.engines.katago import KataGoEngine  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
DEFAULT_SGF = SHARED / "corpus" / "sgf" / "katrain__LS_vs_AG_G4_English.sgf"
SIDE, PLANES, CHANNELS, BLOCKS = 19, 22, 192, 15
BATCHES = (1, 8, 16)


def katago_rate(sgf: Path, positions: int) -> float:
    katago = installed_katago()
    if katago is None:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    game = load_game(sgf)
    plies = list(range(min(positions, game.ply_count + 1)))
    engine = KataGoEngine(list(katago.command()), start_timeout_s=300)
    try:
        list(engine.analyse(game, plies[:2], Limit(visits=1), threading.Event()))  # started and warm
        started = time.perf_counter()
        done = sum(1 for _ in engine.analyse(game, plies, Limit(visits=1), threading.Event()))
        return done / (time.perf_counter() - started)
    finally:
        engine.close()


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
    parser.add_argument("--positions", type=int, default=40, help="positions KataGo evaluates")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per stand-in measurement")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    katago = katago_rate(args.sgf, args.positions)
    print(f"{'katago, 1 visit (OpenCL on PoCL)':<36} {katago:7.1f} positions/s")
    stand_ins: list[tuple[str, Callable[[np.ndarray], np.ndarray]]] = [("numpy (BLAS) stand-in", numpy_network(rng))]
    onnx = onnx_network(rng)
    if onnx is None:
        print("onnx stand-in: skipped (pip install onnx onnxruntime)")
    else:
        stand_ins.append(("onnxruntime stand-in", onnx))
    for name, run in stand_ins:
        for batch in BATCHES:
            rate = network_rate(run, batch, args.seconds, rng)
            print(f"{name + f', batch {batch}':<36} {rate:7.1f} positions/s  {rate / katago:5.1f}x katago", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
