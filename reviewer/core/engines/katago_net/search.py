"""A PUCT tree search over KataGo's network, in Reviewer's own process, after KataGo's own search.

What it keeps of KataGo's search (its analysis engine's defaults):
- selection by PUCT with KataGo's exploration term: cpuct = 1.0 + 0.45 * log((N + 500) / 500),
  times sqrt(N + 0.01), times the parent's utility stdev factor (1 + 0.85 * (stdev / 0.40 - 1),
  the stdev with a prior of 0.40 weighing 2 visits);
- first-play urgency: an unvisited move is worth the parent's utility (blended with the network's
  by the square of the policy mass visited) minus 0.2 (0.1 at the root) * sqrt(policy mass visited);
- the utility: win-loss value + 0.1 * static + 0.3 * dynamic score utility, each the expected
  2/pi * atan((score - centre) / (scale * sqrt(board area))) over the network's score distribution
  (scale 2 around 0; 0.75 around the root's expected score pulled 20% towards 0);
- virtual loss (1 per pending visit, towards the worst utility) so that a batch of leaves, evaluated
  by the network in one call, goes down different lines (only when `leaves_per_batch` > 1; by
  default each visit is evaluated alone, as KataGo's single search thread does);
- root symmetry pruning on a symmetric board (as `evaluate` does for the second visit).

What it leaves out: the uncertainty-weighted visits and subtree value bias of newer networks and
versions (a version 8 network has no uncertainty output), the graph search over transpositions, LCB
for the best move (moves are ordered by visits, then by value), noise pruning of the reported values,
the root's ending bonus for passes, and the real score of a finished game: a position whose game has
ended (two passes) is valued by the network, and every visit to it counts that value again.

Each position is evaluated in the identity symmetry (KataGo draws one of 8 at random). Values are kept
in Black's view (Go's first player), utilities too: Black maximises, White minimises.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.engines.katago import QueryPlan
from reviewer.core.engines.katago_net.evaluate import RootValues, _bottom_rows, _point, _without_copies, root_values
from reviewer.core.engines.katago_net.features import SearchState, inputs_of_states
from reviewer.core.engines.katago_net.network import RawOutputs
from reviewer.core.engines.katago_net.runtime import NetworkRunner
from reviewer.core.gametree import Color, gtp_from_point

__all__ = ["SearchParams", "Stop", "TreeSearch"]

Floats = NDArray[np.float64]

_HERMITE_X, _HERMITE_W = np.polynomial.hermite.hermgauss(24)
_PV_LENGTH = 15


class Stop(Protocol):
    """What tells a search to stop (a threading.Event)."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class SearchParams:
    """KataGo's search parameters as its analysis engine sets them by default."""

    cpuct_exploration: float = 1.0
    cpuct_exploration_log: float = 0.45
    cpuct_exploration_base: float = 500.0
    cpuct_utility_stdev_prior: float = 0.40
    cpuct_utility_stdev_prior_weight: float = 2.0
    cpuct_utility_stdev_scale: float = 0.85
    fpu_reduction_max: float = 0.2
    root_fpu_reduction_max: float = 0.1
    fpu_parent_weight_by_visited_policy_pow: float = 2.0
    win_loss_utility_factor: float = 1.0
    static_score_utility_factor: float = 0.1
    dynamic_score_utility_factor: float = 0.3
    dynamic_score_center_zero_weight: float = 0.2
    dynamic_score_center_scale: float = 0.75
    virtual_losses_per_visit: float = 1.0
    # Leaves evaluated by the network in one call. One, as KataGo's analysis engine searches each
    # position with one thread (numSearchThreadsPerAnalysisThread=1): with 4, virtual loss sent
    # visits of a 32-visit search to moves of prior 0.001 and pulled a won position's winrate from
    # 0.99 to 0.63 at 8 visits (tests/core/test_katago_search.py), while on this machine's CPU a
    # batch of 4 costs the same per position as 4 calls of 1 (ONNX Runtime uses both cores per call).
    leaves_per_batch: int = 1

    @property
    def utility_radius(self) -> float:
        return self.win_loss_utility_factor + self.static_score_utility_factor + self.dynamic_score_utility_factor


def expected_score_value(mean: Floats, stdev: Floats, center: float, scale: float) -> Floats:
    """E[2/pi * atan((s - center) / scale)] for s ~ Normal(mean, stdev), per element (Gauss-Hermite)."""
    points = mean[..., None] + math.sqrt(2.0) * stdev[..., None] * _HERMITE_X
    values: Floats = (np.arctan((points - center) / scale) * _HERMITE_W).sum(axis=-1) * (2.0 / math.pi) / math.sqrt(math.pi)
    return values


@dataclass(frozen=True)
class _NetValues:
    """A node's network evaluation: Black's view; the policy with -1 where a move is not searched."""

    winloss: float  # P(Black wins) - P(Black loses)
    lead: float
    score_mean: float
    score_stdev: float
    policy: NDArray[np.float32]  # (rows * columns + 1,) from the top row, pass last
    prior: NDArray[np.float32]  # the policy as reported: a symmetric copy keeps its prior
    ownership: NDArray[np.float32]  # (rows, columns) from the top row


def _score_stats(outputs: RawOutputs, index: int, to_move: Color, no_result_possible: bool) -> tuple[float, float]:
    """(score mean, score stdev) in Black's view, as KataGo post-processes a version 8 network's outputs."""
    logits = [float(v) for v in outputs.value_logits[index]]
    if not no_result_possible:
        logits[2] -= 100000.0
    top = max(logits)
    weights = [math.exp(v - top) for v in logits]
    if not no_result_possible:
        weights[2] = 0.0
    no_result = weights[2] / sum(weights)
    raw_mean, raw_stdev = float(outputs.score[index][0]), float(outputs.score[index][1])
    softplus = raw_stdev + math.log1p(math.exp(-raw_stdev)) if raw_stdev > 0 else math.log1p(math.exp(raw_stdev))
    sign = 1.0 if to_move == "black" else -1.0
    return sign * raw_mean * 20.0 * (1.0 - no_result), softplus * 20.0


class _Node:
    __slots__ = (
        "child_exists",
        "child_utility",
        "child_virtual",
        "child_visits",
        "children",
        "lead_sum",
        "net",
        "state",
        "utility",
        "utility_sq_sum",
        "utility_sum",
        "visits",
        "winloss_sum",
    )

    def __init__(self, state: SearchState) -> None:
        self.state = state
        self.net: _NetValues | None = None
        self.utility = 0.0  # of the network's evaluation
        self.visits = 0
        self.utility_sum = self.utility_sq_sum = self.winloss_sum = self.lead_sum = 0.0
        self.children: dict[int, _Node] = {}
        size = state.board.width * state.board.height + 1
        self.child_visits: Floats = np.zeros(size)
        self.child_utility: Floats = np.zeros(size)  # each visited child's mean utility
        self.child_virtual: Floats = np.zeros(size)  # pending visits below each child
        self.child_exists = np.zeros(size, np.bool_)

    def own_visits(self) -> int:
        """The visits that evaluated this node itself (one, or more for a finished game's position)."""
        return self.visits - int(self.child_visits.sum())


@dataclass(frozen=True)
class MoveFigures:
    """One root move's figures, Black's view."""

    index: int  # policy index
    visits: int
    winrate_first: float
    lead_first: float
    prior: float
    pv: tuple[int, ...]  # policy indices, this move first


class TreeSearch:
    """A search tree over one position of `plan` (a `features.root_state`), grown by `run` and moved
    down the game by `advance`, keeping the subtree of the move played."""

    def __init__(self, runner: NetworkRunner, plan: QueryPlan, root: SearchState, params: SearchParams | None = None,
                 allowed_at_root: NDArray[np.bool_] | None = None, cores: int | None = None) -> None:
        self.runner = runner
        self.cores = cores  # the cores each network call may use (`NetworkRunner.forward`)
        self.plan = plan
        self.params = params or SearchParams()
        # by policy index, the moves the root may choose (a region of interest; a pass always)
        self.allowed_at_root = allowed_at_root
        self.root = _Node(root)
        self.score_center = 0.0
        self.sqrt_area = math.sqrt(plan.width * plan.height)
        self.batches = 0  # network calls made by this search

    # -- the public side -------------------------------------------------------------------------

    @property
    def visits(self) -> int:
        return self.root.visits

    def run(self, visits: int, stop: Stop | threading.Event, deadline: float | None = None) -> bool:
        """Search until the root has `visits` visits (those kept from an earlier position count);
        False when `stop` was set or `deadline` (time.monotonic()) passed first. `stop` is checked
        before every network call."""
        if self.root.net is None:
            if stop.is_set():
                return False
            self._evaluate([self.root])
            self._backup([], self.root)
        self._set_score_center()
        while self.root.visits < visits:
            if stop.is_set() or (deadline is not None and time.monotonic() >= deadline):
                return False
            self._grow(min(self.params.leaves_per_batch, visits - self.root.visits))
        return True

    def advance(self, index: int, root: SearchState) -> bool:
        """Make the position after the root's move `index` the root, with `root` its state as a
        fresh query's root. The move's subtree is kept when it exists (its visits count towards the
        next `run`), and the new root is evaluated again as a root; True when a subtree was kept."""
        child = self.root.children.get(index)
        kept = child is not None and child.net is not None and _same_position(child.state, root)
        if child is None or not kept:
            self.root = _Node(root)
            return False
        _reroot(child, child.state.depth)
        child.state = root
        child.net = None  # evaluated again at the next run, as a root
        self.root = child
        self._evaluate([child])
        self._set_score_center()
        self._recompute(child)
        return True

    def root_values(self) -> tuple[float, float]:
        """(winrate, score lead), Black's view, over the whole tree."""
        root = self.root
        return _winrate(root.winloss_sum / root.visits), root.lead_sum / root.visits

    def moves(self) -> list[MoveFigures]:
        """The root's visited moves, best first: by visits, then by the mover's utility."""
        root = self.root
        assert root.net is not None
        sign = 1.0 if root.state.pla == 1 else -1.0
        visited = [(index, child) for index, child in root.children.items() if child.visits > 0]
        visited.sort(key=lambda item: (-item[1].visits, -sign * item[1].utility_sum / item[1].visits))
        return [
            MoveFigures(
                index=index,
                visits=child.visits,
                winrate_first=_winrate(child.winloss_sum / child.visits),
                lead_first=child.lead_sum / child.visits,
                prior=float(max(0.0, root.net.prior[index])),
                pv=(index, *_principal_line(child)),
            )
            for index, child in visited
        ]

    def ownership(self) -> NDArray[np.float32]:
        """The root's ownership (rows, columns from the top row, Black's view): each node's network
        ownership weighted by its own visits, averaged over the tree."""
        total = _ownership_sum(self.root)
        averaged: NDArray[np.float32] = (total / self.root.visits).astype(np.float32)
        return averaged

    def evaluation(self, engine_id: str, side_to_move: Color, maps: bool = False) -> Evaluation:
        """The root as Reviewer's `Evaluation`, with the figures a KataGo analysis query gives."""
        width, height = self.plan.width, self.plan.height

        def gtp(index: int) -> str:
            return gtp_from_point(_point(index, width, height), height)

        winrate, lead = self.root_values()
        candidates = tuple(
            Candidate(
                move=gtp(move.index),
                order=order,
                visits=move.visits,
                prior=move.prior,
                score_lead_first=move.lead_first,
                winrate_first=move.winrate_first,
                pv=tuple(gtp(index) for index in move.pv),
            )
            for order, move in enumerate(self.moves())
        )
        ownership = policy = None
        if maps:
            assert self.root.net is not None
            ownership = _bottom_rows(self.ownership().reshape(-1), width, height)
            policy = tuple(max(0.0, p) for p in _bottom_rows(self.root.net.prior, width, height))
        best = candidates[0] if candidates else None
        return Evaluation(
            ply=0,
            kind="go",
            engine_id=engine_id,
            score_lead_first=lead,
            winrate_first=winrate,
            side_to_move=side_to_move,
            best_move=best.move if best else None,
            pv=best.pv if best else (),
            candidates=candidates,
            nodes=self.root.visits,
            ownership_first=ownership,
            policy=policy,
        )

    # -- the search --------------------------------------------------------------------------------

    def _grow(self, wanted: int) -> None:
        """Up to `wanted` visits: leaves chosen one after another under virtual loss, then evaluated
        in one network call and backed up. A leaf chosen twice ends the batch early."""
        pending: list[tuple[list[tuple[_Node, int]], _Node]] = []
        done = 0
        while done < wanted:
            path, leaf = self._descend()
            if leaf.net is not None:  # a finished game: its value again, without the network
                self._backup(path, leaf)
                done += 1
                continue
            if any(leaf is other for _, other in pending):
                break
            for node, index in path:
                node.child_virtual[index] += 1
            pending.append((path, leaf))
            done += 1
        if not pending:
            return
        self._evaluate([leaf for _, leaf in pending])
        for path, leaf in pending:
            for node, index in path:
                node.child_virtual[index] -= 1
            self._backup(path, leaf)

    def _descend(self) -> tuple[list[tuple[_Node, int]], _Node]:
        node = self.root
        path: list[tuple[_Node, int]] = []
        while node.net is not None and not node.state.game_over:
            index = self._select(node, node is self.root)
            path.append((node, index))
            child = node.children.get(index)
            if child is None:
                child = _Node(node.state.child(index))
                node.children[index] = child
                node.child_exists[index] = True
                return path, child
            node = child
        return path, node

    def _select(self, node: _Node, is_root: bool) -> int:
        params = self.params
        net = node.net
        assert net is not None
        policy = net.policy.astype(np.float64)
        legal = policy >= 0
        if is_root and self.allowed_at_root is not None:
            legal &= self.allowed_at_root
        sign = 1.0 if node.state.pla == 1 else -1.0
        visits = node.child_visits
        mass = float(policy[node.child_exists & legal].sum())
        total = float(visits.sum())

        utility_mean = node.utility_sum / node.visits
        prior_variance = params.cpuct_utility_stdev_prior**2
        prior_weight = params.cpuct_utility_stdev_prior_weight
        if node.visits <= 1:
            stdev = params.cpuct_utility_stdev_prior
        else:
            square_mean = max(node.utility_sq_sum / node.visits, utility_mean**2)
            variance = ((utility_mean**2 + prior_variance) * prior_weight + square_mean * node.visits) / (
                prior_weight + node.visits - 1.0
            ) - utility_mean**2
            stdev = math.sqrt(max(0.0, variance))
        stdev_factor = 1.0 + params.cpuct_utility_stdev_scale * (stdev / params.cpuct_utility_stdev_prior - 1.0)
        blend = min(1.0, mass**params.fpu_parent_weight_by_visited_policy_pow)
        parent_utility = blend * utility_mean + (1.0 - blend) * node.utility
        reduction = (params.root_fpu_reduction_max if is_root else params.fpu_reduction_max) * math.sqrt(mass)
        fpu = parent_utility - sign * reduction

        cpuct = params.cpuct_exploration + params.cpuct_exploration_log * math.log(
            (total + params.cpuct_exploration_base) / params.cpuct_exploration_base
        )
        scaling = cpuct * math.sqrt(total + 0.01) * stdev_factor
        utility = np.where(visits > 0, node.child_utility, fpu)
        weight = visits.copy()
        virtual = node.child_virtual * params.virtual_losses_per_visit
        if virtual.any():
            loss = -sign * params.utility_radius
            fraction = virtual / (virtual + np.maximum(0.25, weight))
            utility = utility + (loss - utility) * fraction
            weight = weight + virtual
        value = scaling * policy / (1.0 + weight) + sign * utility
        return int(np.argmax(np.where(legal, value, -np.inf)))

    def _evaluate(self, nodes: Sequence[_Node]) -> None:
        """The network's values for `nodes`, in one call."""
        inputs = inputs_of_states(self.plan, [node.state for node in nodes])
        outputs = self.runner.evaluate(inputs.spatial, inputs.global_inputs, self.cores)
        self.batches += 1
        for row, node in enumerate(nodes):
            to_move = inputs.to_move[row]
            values: RootValues = root_values(outputs, row, to_move, inputs.legal[row], inputs.no_result_possible)
            prior = values.policy
            if node.state.depth == 0:
                values = _without_copies(values, inputs.spatial[row], to_move)
            mean, stdev = _score_stats(outputs, row, to_move, inputs.no_result_possible)
            policy = values.search_policy if values.search_policy is not None else values.policy
            node.net = _NetValues(
                2.0 * values.winrate_first - 1.0, values.lead_first, mean, stdev, policy, prior, values.ownership_first
            )
            node.utility = self._utility(node.net)

    def _utility(self, net: _NetValues) -> float:
        params = self.params
        mean, stdev = np.array([net.score_mean]), np.array([net.score_stdev])
        static = expected_score_value(mean, stdev, 0.0, 2.0 * self.sqrt_area)[0]
        dynamic = expected_score_value(mean, stdev, self.score_center, params.dynamic_score_center_scale * self.sqrt_area)[0]
        return float(
            net.winloss * params.win_loss_utility_factor
            + static * params.static_score_utility_factor
            + dynamic * params.dynamic_score_utility_factor
        )

    def _set_score_center(self) -> None:
        """KataGo's dynamic score centre: the root's expected score, 20% towards 0, at most
        0.75 * sqrt(board area) from it; the tree's utilities follow when it moves."""
        root = self.root
        assert root.net is not None
        expected = _score_mean_sum(root) / root.visits if root.visits else root.net.score_mean
        cap = self.sqrt_area * self.params.dynamic_score_center_scale
        center = expected * (1.0 - self.params.dynamic_score_center_zero_weight)
        center = min(expected + cap, max(expected - cap, center))
        if center != self.score_center:
            self.score_center = center
            if root.visits:
                self._recompute(root)

    def _backup(self, path: list[tuple[_Node, int]], leaf: _Node) -> None:
        net = leaf.net
        assert net is not None
        utility = leaf.utility
        for node in [*(node for node, _ in path), leaf]:
            node.visits += 1
            node.utility_sum += utility
            node.utility_sq_sum += utility * utility
            node.winloss_sum += net.winloss
            node.lead_sum += net.lead
        for node, index in path:
            child = node.children[index]
            node.child_visits[index] = child.visits
            node.child_utility[index] = child.utility_sum / child.visits

    def _recompute(self, node: _Node) -> None:
        """Every node's utility and sums below `node` again (after the score centre or the root's
        evaluation changed), from each node's own evaluation and visits."""
        net = node.net
        assert net is not None
        node.utility = self._utility(net)
        own = max(1, node.own_visits())
        utility_sum, utility_sq_sum = own * node.utility, own * node.utility**2
        winloss_sum, lead_sum = own * net.winloss, own * net.lead
        for index, child in node.children.items():
            if child.net is None or child.visits == 0:
                continue
            self._recompute(child)
            utility_sum += child.utility_sum
            utility_sq_sum += child.utility_sq_sum
            winloss_sum += child.winloss_sum
            lead_sum += child.lead_sum
            node.child_utility[index] = child.utility_sum / child.visits
        node.utility_sum, node.utility_sq_sum = utility_sum, utility_sq_sum
        node.winloss_sum, node.lead_sum = winloss_sum, lead_sum
        node.visits = own + int(node.child_visits.sum())


def _winrate(winloss_mean: float) -> float:
    return 0.5 * (1.0 + winloss_mean)


def _same_position(state: SearchState, other: SearchState) -> bool:
    return state.pla == other.pla and state.board.pos_hash == other.board.pos_hash


def _reroot(node: _Node, depth: int) -> None:
    """Every state below `node` (at `depth` in its tree) as seen from `node` as the root."""
    stack = [node]
    while stack:
        current = stack.pop()
        current.state = current.state.rerooted(depth)
        current.child_virtual[:] = 0
        stack.extend(current.children.values())


def _principal_line(node: _Node) -> tuple[int, ...]:
    """The most visited line below `node`, as policy indices."""
    line: list[int] = []
    while len(line) < _PV_LENGTH - 1:
        visited = [(child.visits, index) for index, child in node.children.items() if child.visits > 0]
        if not visited:
            break
        _, index = max(visited)
        line.append(index)
        node = node.children[index]
    return tuple(line)


def _ownership_sum(node: _Node) -> NDArray[np.float64]:
    assert node.net is not None
    total: NDArray[np.float64] = node.net.ownership.astype(np.float64) * max(1, node.own_visits())
    for child in node.children.values():
        if child.visits > 0 and child.net is not None:
            total = total + _ownership_sum(child)
    return total


def _score_mean_sum(node: _Node) -> float:
    assert node.net is not None
    total = node.net.score_mean * max(1, node.own_visits())
    for child in node.children.values():
        if child.visits > 0 and child.net is not None:
            total += _score_mean_sum(child)
    return total
