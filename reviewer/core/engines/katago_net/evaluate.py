"""KataGo's first visits computed in-process: what its analysis engine reports at 1 or 2 visits.

At 1 visit KataGo's search is the network's evaluation of the position; at 2 visits it adds the
network's evaluation of the position after the move the policy likes best, and the root's values
become the mean of the two (KataGo's version 8 networks have no uncertainty output to weigh them
otherwise). Both are computed here (`runtime`: ONNX Runtime or numpy), several positions at a time,
several times faster than KataGo's OpenCL on a CPU (benchmarks/network_cpu_paths.py), with KataGo's inputs
(`features`) and post-processing. KataGo evaluates each position in one of 8 symmetries drawn at
random; this evaluates the identity, one of those 8. On a board symmetric at the root (the empty
board) KataGo's search keeps one move of each symmetric set, in its order, and so does this.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from reviewer.core.analysis import Candidate, Evaluation, Limit
from reviewer.core.engines.katago import QueryPlan
from reviewer.core.engines.katago_net.features import NetInputs, inputs_after_moves, inputs_for_turns
from reviewer.core.engines.katago_net.model import ModelUnsupported, read_model
from reviewer.core.engines.katago_net.network import RawOutputs
from reviewer.core.engines.katago_net.runtime import Backend, NetworkRunner, Precision, chosen_backend
from reviewer.core.gametree import Color, Point, gtp_from_point

__all__ = ["NETWORK_VISITS", "NetworkEvaluator", "RootValues", "root_values"]

NETWORK_VISITS = frozenset({1, 2})  # the visit counts evaluated here rather than by KataGo's search
BATCH = 8  # positions per forward pass: both backends are fastest around here


@dataclass(frozen=True)
class RootValues:
    """One position's network evaluation, post-processed as KataGo does, from Black's view (Go's first player)."""

    winrate_first: float
    lead_first: float
    policy: NDArray[np.float32]  # (rows * columns + 1,) from the top row, pass last; -1 where illegal
    ownership_first: NDArray[np.float32]  # (rows, columns) from the top row
    search_policy: NDArray[np.float32] | None = None  # the policy without symmetric copies (-1), if any


def root_values(outputs: RawOutputs, index: int, to_move: Color, legal: NDArray[np.bool_], no_result_possible: bool) -> RootValues:
    """Position `index` of a forward pass, as KataGo's NNEvaluator post-processes it."""
    win, loss, no_result = (float(v) for v in outputs.value_logits[index])
    if not no_result_possible:
        no_result -= 100000.0
    top = max(win, loss, no_result)
    weights = [math.exp(win - top), math.exp(loss - top), 0.0 if not no_result_possible else math.exp(no_result - top)]
    total = sum(weights)
    win_p, loss_p, no_result_p = (w / total for w in weights)
    lead = float(outputs.score[index][2]) * 20.0 * (1.0 - no_result_p)
    logits = np.where(legal, outputs.policy_logits[index], np.float32(-1e30)).astype(np.float32)
    exps = np.where(legal, np.exp(logits - logits.max()), np.float32(0))
    policy = np.where(legal, exps / exps.sum(), np.float32(-1)).astype(np.float32)
    ownership = np.tanh(outputs.ownership[index]).astype(np.float32)
    sign = 1.0 if to_move == "black" else -1.0
    black_win, black_loss = (win_p, loss_p) if to_move == "black" else (loss_p, win_p)
    return RootValues(0.5 * (1.0 + black_win - black_loss), sign * lead, policy, ownership * np.float32(sign))


def _best_index(values: RootValues) -> int:
    """The policy index of the move KataGo's second visit goes to: the legal move with the highest
    prior, a symmetric copy of another excepted (`RootValues.search_policy`)."""
    return int(np.argmax(values.search_policy if values.search_policy is not None else values.policy))


def _point(index: int, width: int, height: int) -> Point | None:
    """A policy index -> a point (row from the bottom, column); None = pass."""
    if index == width * height:
        return None
    y, x = divmod(index, width)
    return (height - 1 - y, x)


def _symmetric_copies(spatial: NDArray[np.float32], to_move: Color) -> NDArray[np.bool_] | None:
    """The points KataGo's root search leaves out as copies of another move under a symmetry of the
    board (rootSymmetryPruning: on the empty board one corner of each kind is searched), (rows,
    columns) from the top row; None when the board has no symmetry or a ko bans a point."""
    rows, columns = spatial.shape[:2]
    if spatial[..., 6].any():
        return None
    stones = spatial[..., 1] - spatial[..., 2]
    symmetries = [s for s in range(1, 8 if rows == columns else 4) if np.array_equal(_transformed(stones, s), stones)]
    if not symmetries:
        return None
    copies = np.zeros((rows, columns), np.bool_)
    xs = range(columns - 1, -1, -1) if to_move == "black" else range(columns)
    ys = range(rows) if to_move == "black" else range(rows - 1, -1, -1)
    for x in xs:  # KataGo's order: Black's first moves go to the upper right, White's to the lower left
        for y in ys:
            if copies[y, x]:
                continue
            for symmetry in symmetries:
                sx, sy = _symmetric_point(x, y, rows, columns, symmetry)
                if (sx, sy) != (x, y):
                    copies[sy, sx] = True
    return copies


def _symmetric_point(x: int, y: int, rows: int, columns: int, symmetry: int) -> tuple[int, int]:
    """KataGo's symmetry `symmetry` (bit 0: flip rows, bit 1: flip columns, bit 2: transpose) of (x, y)."""
    if symmetry & 2:
        x = columns - 1 - x
    if symmetry & 1:
        y = rows - 1 - y
    return (y, x) if symmetry & 4 else (x, y)


def _transformed(board: NDArray[np.float32], symmetry: int) -> NDArray[np.float32]:
    """`board` moved by KataGo's symmetry `symmetry` (as `_symmetric_point` moves each point)."""
    flipped = board[::-1 if symmetry & 1 else 1, ::-1 if symmetry & 2 else 1]
    return flipped.T if symmetry & 4 else flipped


def _bottom_rows(values: NDArray[np.float32], width: int, height: int) -> tuple[float, ...]:
    return tuple(float(v) for v in values[: width * height].reshape(height, width)[::-1].reshape(-1))


_runners: dict[tuple[str, int, int, str, str], NetworkRunner] = {}
_runners_lock = threading.Lock()
# Under the engines' directory (what is made from an engine's files lives beside them, and is
# made once by `reviewer engines install`): the int8 calibrations and graphs (`quantized`).
INT8_DIRECTORY = "katago-network"


def _shared_runner(path: Path, backend: Backend, precision: Precision = "fp32") -> NetworkRunner:
    """The network in `path` with its backend and precision, read once per process while the file
    stays the same (the review's and the live lines' engines share its ~40 MB of weights and its sessions)."""
    try:
        status = path.stat()
    except OSError as error:
        raise ModelUnsupported(f"cannot read {path}: {error.strerror or error}") from None
    key = (str(path.resolve()), status.st_size, status.st_mtime_ns, backend, precision)
    with _runners_lock:
        if key not in _runners:
            for stale in [k for k in _runners if k[0] == key[0] and k[1:3] != key[1:3]]:
                del _runners[stale]
            if precision == "int8":
                from reviewer.core.engines.katago_net.quantized import file_digest
                from reviewer.core.paths import engines_dir

                _runners[key] = NetworkRunner(read_model(path), backend, "int8", file_digest(path), engines_dir() / INT8_DIRECTORY)
            else:
                _runners[key] = NetworkRunner(read_model(path), backend)
        return _runners[key]


def _without_copies(root: RootValues, spatial: NDArray[np.float32], to_move: Color) -> RootValues:
    copies = _symmetric_copies(spatial, to_move)
    if copies is None:
        return root
    search_policy = root.policy.copy()
    search_policy[: copies.size][copies.reshape(-1)] = -1.0
    return replace(root, search_policy=search_policy)


class NetworkEvaluator:
    """KataGo's network in `model_path`, read on first use; `usable()` says whether it can be.
    `backend`: the library that evaluates it (by default ONNX Runtime when it is installed);
    `precision`: float32 (KataGo's own figures), or int8 (`runtime.chosen_precision`: Reviewer's search)."""

    def __init__(self, model_path: str | Path, backend: Backend | None = None, precision: Precision = "fp32") -> None:
        self.model_path = Path(model_path)
        self.chosen: Backend = backend or chosen_backend()  # decided now: REVIEWER_KATAGO_NETWORK as it is
        self.wanted_precision: Precision = precision
        self._runner: NetworkRunner | None = None
        self.problem: str | None = None
        self._lock = threading.Lock()

    def usable(self) -> bool:
        """Whether the model can be evaluated here (read once; a problem is kept in `problem`)."""
        return self._load() is not None

    def _load(self) -> NetworkRunner | None:
        with self._lock:
            if self._runner is None and self.problem is None:
                try:
                    self._runner = _shared_runner(self.model_path, self.chosen, self.wanted_precision)
                except ModelUnsupported as error:
                    self.problem = str(error)
            return self._runner

    def warm(self, board_size: tuple[int, int]) -> bool:
        """Read the model and build its evaluation for a (width, height) board now (seconds, the
        first time in a process), instead of on the first position; False when it cannot be used."""
        runner = self._load()
        if runner is None:
            return False
        width, height = board_size
        runner.warm(height, width)
        return True

    def network(self) -> NetworkRunner:
        """The network, read on first use (ModelUnsupported when it cannot be)."""
        runner = self._load()
        if runner is None:
            raise ModelUnsupported(self.problem or "the network cannot be read")
        return runner

    @property
    def precision(self) -> Precision:
        """The precision the network is evaluated in (the wanted one until it is read and built)."""
        if self._runner is None:
            return self.wanted_precision if self.chosen == "onnxruntime" else "fp32"
        return self._runner.precision

    @property
    def backend(self) -> str | None:
        """The library that evaluates the network ("onnxruntime" or "numpy"), once it is read."""
        return self._runner.backend if self._runner is not None else None

    def analyse(
        self,
        plan: QueryPlan,
        wanted: dict[tuple[int, int], list[int]],
        visits: int,
        engine_id: str,
        stop: threading.Event,
        maps: bool = False,
        allowed: NDArray[np.bool_] | None = None,
    ) -> Iterator[Evaluation]:
        """Evaluations of the wanted (segment, turn) -> plies, as KataGo's search at `visits` (1 or 2);
        `allowed` (by policy index) the only moves the root may choose (a region of interest)."""
        if visits not in NETWORK_VISITS:
            raise ValueError(f"the network alone gives 1 or 2 visits, not {visits}")
        network = self._load()
        if network is None:
            raise ModelUnsupported(self.problem or "the network cannot be read")
        by_segment: dict[int, list[int]] = {}
        for segment, turn in wanted:
            by_segment.setdefault(segment, []).append(turn)
        for segment_index, turns in sorted(by_segment.items()):
            turns = sorted(turns)
            inputs = inputs_for_turns(plan, segment_index, turns)
            if allowed is not None:
                np.logical_and(inputs.legal, allowed, out=inputs.legal)
            # One forward pass's positions at a time, each yielded as soon as it is known: the
            # progress moves with the work instead of waiting for the whole game.
            for start in range(0, len(turns), BATCH):
                rows = range(start, min(start + BATCH, len(turns)))
                roots = self._evaluate(network, inputs, stop, rows)
                if roots is None:
                    return
                if visits == 2:
                    roots = [_without_copies(root, inputs.spatial[row], inputs.to_move[row]) for row, root in zip(rows, roots)]
                root_by_turn = {turns[row]: root for row, root in zip(rows, roots)}
                children: dict[int, RootValues] = {}
                if visits == 2:
                    found = self._children(network, plan, segment_index, root_by_turn, stop)
                    if found is None:
                        return
                    children = found
                for turn in root_by_turn:
                    evaluation = self._evaluation(plan, root_by_turn[turn], children.get(turn), turn, segment_index, engine_id, visits, maps)
                    for ply in wanted[(segment_index, turn)]:
                        yield replace(evaluation, ply=ply)
                    if stop.is_set():
                        return

    def _evaluate(
        self, network: NetworkRunner, inputs: NetInputs, stop: threading.Event, rows: range | None = None
    ) -> list[RootValues] | None:
        """The root values of the inputs' `rows` (all of them by default), in that order."""
        rows = rows if rows is not None else range(len(inputs.to_move))
        values: list[RootValues] = []
        for start in range(rows.start, rows.stop, BATCH):
            if stop.is_set():
                return None
            end = min(start + BATCH, rows.stop)
            outputs = network.evaluate(inputs.spatial[start:end], inputs.global_inputs[start:end])
            for offset in range(len(outputs.value_logits)):
                index = start + offset
                values.append(root_values(outputs, offset, inputs.to_move[index], inputs.legal[index], inputs.no_result_possible))
        return values

    def _children(
        self, network: NetworkRunner, plan: QueryPlan, segment_index: int, roots: dict[int, RootValues], stop: threading.Event
    ) -> dict[int, RootValues] | None:
        """Each position's second visit: the position after its best move by the policy, with that
        move as its history (which the game's next position, evaluated as a root, does not have)."""
        best_moves = [(turn, _point(_best_index(values), plan.width, plan.height)) for turn, values in roots.items()]
        found = self._evaluate(network, inputs_after_moves(plan, segment_index, best_moves), stop)
        if found is None:
            return None
        return {turn: child for (turn, _), child in zip(best_moves, found)}

    def _evaluation(
        self,
        plan: QueryPlan,
        root: RootValues,
        child: RootValues | None,
        turn: int,
        segment_index: int,
        engine_id: str,
        visits: int,
        maps: bool,
    ) -> Evaluation:
        width, height = plan.width, plan.height
        side = plan.segments[segment_index].side_to_move(turn)
        winrate, lead = root.winrate_first, root.lead_first
        candidates: tuple[Candidate, ...] = ()
        best_move: str | None = None
        if child is not None:
            best_index = _best_index(root)
            best_move = gtp_from_point(_point(best_index, width, height), height)
            prior = float(root.policy[best_index])
            candidates = (
                Candidate(
                    move=best_move,
                    order=0,
                    visits=1,
                    prior=prior,
                    score_lead_first=child.lead_first,
                    winrate_first=child.winrate_first,
                    pv=(best_move,),
                ),
            )
            winrate, lead = (winrate + child.winrate_first) / 2, (lead + child.lead_first) / 2
        ownership = policy = None
        if maps:
            ownership = _bottom_rows(root.ownership_first.reshape(-1), width, height)
            policy = tuple(max(0.0, p) for p in _bottom_rows(root.policy, width, height))
        return Evaluation(
            ply=0,
            kind="go",
            engine_id=engine_id,
            score_lead_first=lead,
            winrate_first=winrate,
            side_to_move=side,
            best_move=best_move,
            pv=(best_move,) if best_move else (),
            candidates=candidates,
            nodes=min(visits, 2 if child is not None else 1),
            ownership_first=ownership,
            policy=policy,
        )



def allowed_at_root(plan: QueryPlan, limit: Limit) -> NDArray[np.bool_] | None:
    """By policy index (rows from the top, then the pass), the moves a region of interest allows."""
    if limit.region is None:
        return None
    allowed = np.zeros(plan.width * plan.height + 1, np.bool_)
    allowed[-1] = True
    for row in range(plan.height):
        for col in range(plan.width):
            if limit.in_region((row, col)):
                allowed[(plan.height - 1 - row) * plan.width + col] = True
    return allowed
