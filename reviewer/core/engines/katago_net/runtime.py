"""Which library evaluates KataGo's network: ONNX Runtime's CPU provider when it is installed (about
3 times numpy's speed here: benchmarks/network_cpu_paths.py), else numpy.

REVIEWER_KATAGO_NETWORK=numpy or =onnxruntime picks one (benchmarks compare them); a graph that
ONNX Runtime cannot build leaves the work to numpy, with a line in the log.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections import OrderedDict
from typing import Any, Literal

from reviewer.core.engines.katago_net.model import Floats, Network
from reviewer.core.engines.katago_net.network import RawOutputs, forward

__all__ = ["Backend", "NetworkRunner", "chosen_backend", "wanted_path"]

log = logging.getLogger(__name__)

Backend = Literal["numpy", "onnxruntime"]

# Positions whose outputs `NetworkRunner.evaluate` keeps (about 3 kB each on 19x19), as KataGo's
# nnCache keeps them: a position's evaluation by the fast pass, the next position's root found in
# the tree of the one before, the position the user clicks in the live lines' tree.
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


class NetworkRunner:
    """`network` evaluated by `backend`; ONNX Runtime's sessions are made once per board size and
    thread count. `forward` may be called from several threads at once."""

    def __init__(self, network: Network, backend: Backend | None = None) -> None:
        self.network = network
        self.backend: Backend = backend or chosen_backend()
        self._sessions: dict[tuple[int, int, int], Any] = {}
        self._lock = threading.Lock()
        self._cache: OrderedDict[bytes, tuple[Floats, Floats, Floats, Floats]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.cache_hits = 0  # positions `evaluate` found in its cache

    def evaluate(self, spatial: Floats, global_inputs: Floats, threads: int | None = None) -> RawOutputs:
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
        outputs = self.forward(spatial[missing], global_inputs[missing], threads)
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

    def forward(self, spatial: Floats, global_inputs: Floats, threads: int | None = None) -> RawOutputs:
        """Positions (positions, rows, columns, 22) and (positions, 19) -> the network's outputs.
        `threads`: the cores one call uses (ONNX Runtime; every core by default). One position at a
        time gains nothing from a second core here; two calls of one thread each, side by side,
        nearly twice (benchmarks/network_search.py --forward)."""
        if self.backend == "onnxruntime":
            session = self._session(spatial.shape[1], spatial.shape[2], threads or os.cpu_count() or 1)
            if session is not None:
                feeds = {"spatial": spatial.astype("float32"), "global_inputs": global_inputs.astype("float32")}
                policy, value, score, ownership = session.run(None, feeds)
                return RawOutputs(policy, value, score, ownership)
        return forward(self.network, spatial, global_inputs)

    def warm(self, rows: int, columns: int, threads: tuple[int | None, ...] = (None,)) -> None:
        """Make the session for this board size (and each thread count of `threads`) and run it
        once, so that the first real position finds everything built (ONNX Runtime builds a session
        and its kernels on first use)."""
        import numpy as np

        for count in threads:
            self.forward(np.zeros((1, rows, columns, 22), np.float32), np.zeros((1, 19), np.float32), count)

    def built(self, rows: int, columns: int, threads: int | None = None) -> bool:
        """Whether ONNX Runtime's session for this board size and thread count is made (and numpy
        does not stand in for it)."""
        with self._lock:
            return self._sessions.get((rows, columns, threads or os.cpu_count() or 1)) is not None

    def _session(self, rows: int, columns: int, threads: int) -> Any:
        with self._lock:
            if (rows, columns, threads) not in self._sessions:
                self._sessions[(rows, columns, threads)] = self._new_session(rows, columns, threads)
            return self._sessions[(rows, columns, threads)]

    def _new_session(self, rows: int, columns: int, threads: int) -> Any:
        try:
            import onnxruntime

            from reviewer.core.engines.katago_net.onnx_graph import onnx_model

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = threads
            options.log_severity_level = 3  # errors only: its notes would go to stderr
            # idle threads sleep rather than spin: KataGo's own search and the GUI share the cores
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            model = onnx_model(self.network, rows, columns)
            return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        except Exception as error:  # any failure of the library: numpy gives the same numbers
            log.warning("ONNX Runtime cannot run %s on %dx%d (%s); numpy evaluates it", self.network.name, columns, rows, error)
            return None
