"""KataGo's network with its residual blocks in int8, for ONNX Runtime's CPU provider.

The convolutions of the residual blocks (`onnx_graph.TRUNK_CONV`) are computed in int8: weights per
output channel (signed, symmetric), the activations they read and write as unsigned 8-bit values
over the range each took on calibration positions (ONNX Runtime's static QDQ quantization; on a
CPU with VNNI its int8 kernels run about 3 times as fast as float32: benchmarks/network_precision.py).
The first convolution (KataGo's input features) and the heads (policy, value, score, ownership)
stay in float32: of the variants measured the most faithful, at about the same speed.

Calibration positions are made here, the same way on every machine: two games that the network
plays against itself from the empty 19x19 board, each move its policy's favourite (the
second game opens with its second choice). The ranges found (per tensor, by name; the graph's names
are the same at every board size) are kept in the engines' directory (`evaluate.INT8_DIRECTORY`, made by `reviewer engines install`), one file per network file's
contents and `QUANTIZATION_VERSION`, written atomically, and so is the int8 graph of each board
size built from them (`cached_int8_model`; seconds to build, ONNX Runtime's version in its name).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from reviewer.core.engines.katago_net.model import Floats, Network
from reviewer.core.engines.katago_net.onnx_graph import TRUNK_CONV, onnx_model

__all__ = [
    "QUANTIZATION_VERSION",
    "Ranges",
    "cached_int8_model",
    "calibration_ranges",
    "cpu_has_vnni",
    "file_digest",
    "int8_model",
    "measure_ranges",
    "ranges_file",
]

log = logging.getLogger(__name__)

QUANTIZATION_VERSION = "1"  # part of the search's identity: a change to the int8 figures changes it
CALIBRATION_SIZE = 19
CALIBRATION_MOVES = 120  # per game; the positions before each move are calibrated on
CALIBRATION_GAMES = 2

Ranges = dict[str, tuple[float, float]]  # tensor name -> (smallest, largest value seen)


def cpu_has_vnni() -> bool:
    """Whether this CPU has int8 dot-product instructions (AVX512-VNNI or AVX-VNNI), where int8 was
    measured (benchmarks/network_precision.py); read from Linux's /proc/cpuinfo, False elsewhere."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), [])
    return "avx512_vnni" in flags or "avx_vnni" in flags


def file_digest(path: str | Path) -> str:
    """A digest of the file's contents (what the cached ranges belong to)."""
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def ranges_file(directory: Path, network_digest: str) -> Path:
    return directory / f"{network_digest}-int8-v{QUANTIZATION_VERSION}.json"


def _session(model: bytes) -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _calibrated_tensors(model: Any, convs: tuple[str, ...] = (TRUNK_CONV,)) -> list[str]:
    """The tensors int8 reads and writes: the input and the output of each convolution whose name
    starts with one of `convs` (by default the residual blocks')."""
    names: list[str] = []
    for node in model.graph.node:
        if node.op_type == "Conv" and node.name.startswith(convs):
            names.extend(name for name in (node.input[0], node.output[0]) if name not in names)
    return names


def measure_ranges(network: Network, convs: tuple[str, ...] = (TRUNK_CONV,)) -> Ranges:
    """The range of each tensor of `_calibrated_tensors` over the positions of the network's games
    against itself (module docstring); seconds (about 240 float32 evaluations on one core)."""
    import onnx

    from reviewer.core.engines.katago import QueryPlan, Segment
    from reviewer.core.engines.katago_net.features import inputs_of_states, root_state

    size = CALIBRATION_SIZE
    model = onnx.load_from_string(onnx_model(network, size, size))
    names = _calibrated_tensors(model, convs)
    model.graph.output.extend(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None) for name in names)
    session = _session(model.SerializeToString())
    plan = QueryPlan(size, size, "tromp-taylor", 7.5, [Segment({}, "black")], {0: (0, 0)})
    states = [root_state(plan, 0, 0) for _ in range(CALIBRATION_GAMES)]
    low = dict.fromkeys(names, np.inf)
    high = dict.fromkeys(names, -np.inf)
    for move in range(CALIBRATION_MOVES):
        inputs = inputs_of_states(plan, states)
        outputs = session.run(None, {"spatial": inputs.spatial.astype(np.float32),
                                     "global_inputs": inputs.global_inputs.astype(np.float32)})
        for name, values in zip(names, outputs[4:]):
            low[name] = min(low[name], float(values.min()))
            high[name] = max(high[name], float(values.max()))
        policy = np.where(inputs.legal, outputs[0], -np.inf)
        policy[:, size * size] = -np.inf  # nobody passes: the games stay games
        chosen = [int(np.argsort(row)[-1 - (game if move == 0 else 0)]) for game, row in enumerate(policy)]
        if any(not np.isfinite(row[index]) for row, index in zip(policy, chosen)):
            break  # no legal move but a pass: the board is full enough
        states = [state.child(index) for state, index in zip(states, chosen)]
    return {name: (low[name], high[name]) for name in names}


def calibration_ranges(network: Network, network_digest: str, directory: Path) -> Ranges:
    """`measure_ranges` of the network whose file has `network_digest`, read from `directory` when
    measured before, else measured and written there (atomically: a file is whole or absent)."""
    path = ranges_file(directory, network_digest)
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        return {name: (float(pair[0]), float(pair[1])) for name, pair in stored["ranges"].items()}
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        log.warning("the int8 calibration in %s cannot be read (%s); measuring it again", path, error)
    ranges = measure_ranges(network)
    payload = {"network": network.name, "version": QUANTIZATION_VERSION, "ranges": {k: list(v) for k, v in ranges.items()}}
    _write_atomically(path, json.dumps(payload).encode("utf-8"))
    return ranges


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".int8-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def cached_int8_model(network: Network, network_digest: str, rows: int, columns: int, directory: Path,
                      rebuild: bool = False) -> bytes:
    """`int8_model` with `calibration_ranges`, both kept in `directory` (module docstring);
    `rebuild`: the kept graph is not read but made again (and kept)."""
    import onnxruntime

    path = directory / f"{network_digest}-int8-v{QUANTIZATION_VERSION}-{columns}x{rows}-ort{onnxruntime.__version__}.onnx"
    try:
        if not rebuild:
            return path.read_bytes()
    except FileNotFoundError:
        pass
    model = int8_model(network, rows, columns, calibration_ranges(network, network_digest, directory))
    _write_atomically(path, model)
    return model


class _OnePosition:
    """A calibration reader for ONNX Runtime (its `CalibrationDataReader`'s methods): one empty
    board, run for form's sake (every range it would measure is given)."""

    def __init__(self, network: Network, rows: int, columns: int) -> None:
        self.feeds: list[dict[str, Floats]] | None = [{
            "spatial": np.zeros((1, rows, columns, network.initial_conv.in_channels), np.float32),
            "global_inputs": np.zeros((1, network.initial_global.shape[0]), np.float32),
        }]

    def get_next(self) -> dict[str, Floats] | None:
        return self.feeds.pop() if self.feeds else None

    def rewind(self) -> None:
        pass


def int8_model(network: Network, rows: int, columns: int, ranges: Mapping[str, tuple[float, float]],
               convs: tuple[str, ...] = (TRUNK_CONV,)) -> bytes:
    """The serialized ONNX model of `network` for rows x columns boards, its residual blocks'
    convolutions (or those `convs` names begin) in int8 with the activations' `ranges`
    (`calibration_ranges`). Raises where ONNX Runtime's quantization cannot make it (or a range
    is missing): float32 then."""
    import onnx
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    model = onnx.load_from_string(onnx_model(network, rows, columns))
    names = _calibrated_tensors(model, convs)
    missing = [name for name in names if name not in ranges]
    if missing:
        raise ValueError(f"the calibration has no range for {len(missing)} tensors ({missing[0]}, ...)")
    quantized = [node.name for node in model.graph.node if node.op_type == "Conv" and node.name.startswith(convs)]
    reader = _OnePosition(network, rows, columns)
    with tempfile.TemporaryDirectory(prefix="reviewer-int8-") as folder:
        source, target = Path(folder) / "float32.onnx", Path(folder) / "int8.onnx"
        onnx.save(model, source)
        advice = _PreprocessingAdvice()
        root = logging.getLogger()  # where ONNX Runtime's quantizer writes
        root.addFilter(advice)
        try:
            quantize_static(
                str(source), str(target), reader,
                quant_format=QuantFormat.QDQ,
                activation_type=QuantType.QUInt8,
                weight_type=QuantType.QInt8,
                per_channel=True,
                op_types_to_quantize=["Conv"],
                nodes_to_quantize=quantized,
                extra_options={"TensorQuantOverrides": {name: [{"rmin": np.float32(ranges[name][0]), "rmax": np.float32(ranges[name][1])}]
                                                        for name in names}},
            )
        finally:
            root.removeFilter(advice)
        return target.read_bytes()


class _PreprocessingAdvice(logging.Filter):
    """Leaves out ONNX Runtime's advice to pre-process a model before quantizing it (written as a
    warning on every graph made; the graph is KataGo's, made here, and needs none)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Please consider")
