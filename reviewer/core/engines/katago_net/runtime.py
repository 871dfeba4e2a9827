"""Which library evaluates KataGo's network: ONNX Runtime's CPU provider when it is installed (about
3 times numpy's speed here: benchmarks/network_cpu_paths.py), else numpy.

REVIEWER_KATAGO_NETWORK=numpy or =onnxruntime picks one (benchmarks compare them); a graph that
ONNX Runtime cannot build leaves the work to numpy, with a line in the log.

Precision: Reviewer's own search (`katago_search`) evaluates the network with its residual blocks in
int8 (`quantized`) where the CPU has VNNI, 2.5-3.4 times as fast as float32 there, its outputs
differing from float32's less than KataGo's own evaluations of one position in two symmetries do
(benchmarks/network_precision.py); its figures carry an identity of their own. Everywhere else, and
for KataGo's first visits beside KataGo's process (whose figures are KataGo's), float32.
REVIEWER_KATAGO_PRECISION=fp32 or =int8 decides instead (`chosen_precision`). Where the int8 graph
cannot be made (ONNX Runtime's quantization missing or failing), the runner evaluates in float32,
says so in the log, and `NetworkRunner.precision` says "fp32".
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from reviewer.core.engines.katago_net.model import Floats, Network
from reviewer.core.engines.katago_net.network import RawOutputs, forward

__all__ = ["Backend", "NetworkRunner", "Precision", "chosen_backend", "chosen_precision", "wanted_path"]

log = logging.getLogger(__name__)

Backend = Literal["numpy", "onnxruntime"]
Precision = Literal["fp32", "int8"]

# Positions whose outputs `NetworkRunner.evaluate` keeps (about 3 kB each on 19x19), as KataGo's
# nnCache keeps them: the fast pass's two evaluations of a position (its root, its best reply) are
# the first two of its refining search; a position the live lines come back to is not evaluated again.
CACHED_POSITIONS = 16_384


def wanted_path() -> str:
    """REVIEWER_KATAGO_NETWORK as given: "process" (KataGo searches everything), "numpy" or
    "onnxruntime" (KataGo's process, its first visits computed in-process by that library), "search"
    (Reviewer's own search over the network searches everything, without KataGo's process:
    `katago_search`), or "" (the default: `network_path` chooses by the machine)."""
    return os.environ.get("REVIEWER_KATAGO_NETWORK", "").strip().lower()


def chosen_backend() -> Backend:
    """The backend REVIEWER_KATAGO_NETWORK names, else ONNX Runtime when it can be imported."""
    wanted = wanted_path()
    if wanted == "numpy":
        return "numpy"
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError:
        if wanted == "onnxruntime":
            log.warning("REVIEWER_KATAGO_NETWORK=onnxruntime, but onnx or onnxruntime cannot be imported: using numpy")
        return "numpy"
    return "onnxruntime"


def chosen_precision() -> Precision:
    """The precision of Reviewer's own search: REVIEWER_KATAGO_PRECISION ("fp32" or "int8") when
    set, else int8 on a CPU with VNNI (`quantized.cpu_has_vnni`), else fp32."""
    wanted = os.environ.get("REVIEWER_KATAGO_PRECISION", "").strip().lower()
    if wanted in ("fp32", "int8"):
        return "int8" if wanted == "int8" else "fp32"
    if wanted:
        log.warning("REVIEWER_KATAGO_PRECISION=%s is neither fp32 nor int8: the machine decides", wanted)
    from reviewer.core.engines.katago_net.quantized import cpu_has_vnni

    return "int8" if cpu_has_vnni() else "fp32"


class NetworkRunner:
    """`network` evaluated by `backend`; ONNX Runtime's session (one thread per call) is made once
    per board size. `forward` and `evaluate` may be called from several threads at once.

    `precision` "int8" (ONNX Runtime only): the residual blocks in int8 (`quantized`), its
    calibration and graphs kept in `cache_directory` under `network_digest` (the network file's)."""

    def __init__(
        self,
        network: Network,
        backend: Backend | None = None,
        precision: Precision = "fp32",
        network_digest: str | None = None,
        cache_directory: Path | None = None,
    ) -> None:
        self.network = network
        self.backend: Backend = backend or chosen_backend()
        self._precision: Precision = precision if self.backend == "onnxruntime" else "fp32"
        self._network_digest = network_digest
        self._cache_directory = cache_directory
        self._sessions: dict[tuple[int, int], Any] = {}
        self._lock = threading.Lock()
        self._cache: OrderedDict[bytes, tuple[Floats, Floats, Floats, Floats]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.cache_hits = 0  # positions `evaluate` found in its cache
        self._pool: ThreadPoolExecutor | None = None
        self._pool_size = 0

    def evaluate(self, spatial: Floats, global_inputs: Floats, cores: int | None = None) -> RawOutputs:
        """`forward`, the positions whose inputs were evaluated before taken from the cache (the
        same inputs, the same outputs: what the network sees is all that the outputs depend on)."""
        import numpy as np

        keys = [
            hashlib.blake2b(spatial[row].tobytes() + global_inputs[row].tobytes(), digest_size=16).digest()
            for row in range(len(spatial))
        ]
        with self._cache_lock:
            found = [self._cache.get(key) for key in keys]
            for key, rows in zip(keys, found):
                if rows is not None:
                    self._cache.move_to_end(key)
            self.cache_hits += sum(rows is not None for rows in found)
        missing = [row for row, rows in enumerate(found) if rows is None]
        if not missing:
            return RawOutputs(*(np.stack([rows[part] for rows in found if rows is not None]) for part in range(4)))
        outputs = self.forward(spatial[missing], global_inputs[missing], cores)
        with self._cache_lock:
            for offset, row in enumerate(missing):
                rows = (outputs.policy_logits[offset].copy(), outputs.value_logits[offset].copy(),
                        outputs.score[offset].copy(), outputs.ownership[offset].copy())
                found[row] = rows
                self._cache[keys[row]] = rows
            while len(self._cache) > CACHED_POSITIONS:
                self._cache.popitem(last=False)
        if len(missing) == len(keys):
            return outputs
        return RawOutputs(*(np.stack([rows[part] for rows in found if rows is not None]) for part in range(4)))

    def forward(self, spatial: Floats, global_inputs: Floats, cores: int | None = None) -> RawOutputs:
        """Positions (positions, rows, columns, 22) and (positions, 19) -> the network's outputs.

        `cores`: how many cores the call may use (every core by default). ONNX Runtime's session
        runs on one thread; a batch is split among `cores` calls side by side, which did at least
        as well as ONNX Runtime's own pool of threads with other work on the cores
        (benchmarks/network_search.py --forward)."""
        if self.backend == "onnxruntime":
            session = self._session(spatial.shape[1], spatial.shape[2])
            if session is not None:
                parts = min(len(spatial), cores or os.cpu_count() or 1)
                if parts <= 1:
                    return _run(session, spatial, global_inputs)
                bounds = [len(spatial) * i // parts for i in range(parts + 1)]
                pool = self._threads(parts - 1)
                later = [pool.submit(_run, session, spatial[lo:hi], global_inputs[lo:hi])
                         for lo, hi in zip(bounds[1:-1], bounds[2:])]
                first = _run(session, spatial[: bounds[1]], global_inputs[: bounds[1]])
                pieces = [first, *(future.result() for future in later)]
                import numpy as np

                return RawOutputs(*(np.concatenate([getattr(p, name) for p in pieces]) for name in RawOutputs.__dataclass_fields__))
        return forward(self.network, spatial, global_inputs)

    @property
    def precision(self) -> Precision:
        """The precision the network is evaluated in: "int8" until an int8 graph could not be made
        (then "fp32" for good, every board size); `prepare` settles it for a board size."""
        return self._precision

    def prepare(self, rows: int, columns: int) -> None:
        """Make the session for this board size now (seconds the first time; nothing after)."""
        if self.backend == "onnxruntime":
            self._session(rows, columns)

    def warm(self, rows: int, columns: int) -> None:
        """Make the session for this board size and run it once, so that the first real position
        finds everything built (ONNX Runtime builds a session and its kernels on first use)."""
        import numpy as np

        self.forward(np.zeros((1, rows, columns, 22), np.float32), np.zeros((1, 19), np.float32))

    def built(self, rows: int, columns: int) -> bool:
        """Whether ONNX Runtime's session for this board size is made (numpy does not stand in)."""
        with self._lock:
            return self._sessions.get((rows, columns)) is not None

    def _threads(self, count: int) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None or self._pool_size < count:
                self._pool, self._pool_size = ThreadPoolExecutor(count, thread_name_prefix="katago-network"), count
            return self._pool

    def _session(self, rows: int, columns: int) -> Any:
        with self._lock:
            if (rows, columns) not in self._sessions:
                self._sessions[(rows, columns)] = self._new_session(rows, columns)
            return self._sessions[(rows, columns)]

    def _new_session(self, rows: int, columns: int) -> Any:
        if self._precision == "int8":
            try:
                return self._int8_session(rows, columns)
            except Exception as error:  # any failure of the quantization: float32 gives the figures
                log.warning("%s cannot be evaluated in int8 on %dx%d (%s); float32 evaluates it",
                            self.network.name, columns, rows, error)
                self._precision = "fp32"
                self._sessions.clear()  # every board size in one precision: the figures' identity says which
        try:
            from reviewer.core.engines.katago_net.onnx_graph import onnx_model

            return _onnx_session(onnx_model(self.network, rows, columns))
        except Exception as error:  # any failure of the library: numpy gives the same numbers
            log.warning("ONNX Runtime cannot run %s on %dx%d (%s); numpy evaluates it", self.network.name, columns, rows, error)
            return None

    def _int8_session(self, rows: int, columns: int) -> Any:
        from reviewer.core.engines.katago_net.quantized import cached_int8_model, int8_model, measure_ranges

        if self._network_digest is None or self._cache_directory is None:
            model = int8_model(self.network, rows, columns, measure_ranges(self.network))
        else:
            model = cached_int8_model(self.network, self._network_digest, rows, columns, self._cache_directory)
            try:
                return _onnx_session(model)
            except Exception as error:  # a kept graph this ONNX Runtime cannot load (damaged): made again
                log.warning("the kept int8 graph of %s on %dx%d cannot be loaded (%s); making it again",
                            self.network.name, columns, rows, error)
                model = cached_int8_model(self.network, self._network_digest, rows, columns, self._cache_directory, rebuild=True)
        return _onnx_session(model)


def _onnx_session(model: bytes) -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # the calls side by side are the parallelism (`forward`)
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only: its notes would go to stderr
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _run(session: Any, spatial: Floats, global_inputs: Floats) -> RawOutputs:
    feeds = {"spatial": spatial.astype("float32"), "global_inputs": global_inputs.astype("float32")}
    policy, value, score, ownership = session.run(None, feeds)
    return RawOutputs(policy, value, score, ownership)
