"""Reviewer's own search over KataGo's network (`katago_net.search`): an engine without the KataGo process.

It answers what KataGoEngine answers, in the same shape (winrate, score lead, visits, the best line,
each searched move's visits, winrate, lead, prior and order, the ownership and policy maps), but
from its own PUCT search, so its identity is its own and its figures are cached apart from KataGo's.
Searches of 1 and 2 visits are KataGo's (`katago_net.evaluate`), exactly in float32; more visits are
searched here. The network is evaluated in int8 where the CPU has VNNI (`runtime.chosen_precision`),
and the identity says so: int8 figures are cached apart from float32's. The positions of one game are searched in runs of consecutive positions, each tree moved down
the game to the next position when its move was searched (those visits count towards the next
position's); the runs are shared among `workers` threads, one per core, each network call on one
core (`NetworkRunner.forward`), so that every core searches a position of its own. A position asked
again (live analysis' growing budgets) grows the tree of its last search.

The default on a machine without a GPU (`katago_net.network_path`); REVIEWER_KATAGO_NETWORK=search
chooses it anywhere, =process chooses KataGo's process.
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.engines.base import EngineError, EngineNotFound
from reviewer.core.engines.katago import QueryPlan, model_name, model_path, plan_queries
from reviewer.core.engines.katago_net.evaluate import NETWORK_VISITS, NetworkEvaluator, allowed_at_root
from reviewer.core.engines.katago_net.features import root_states
from reviewer.core.engines.katago_net.model import ModelUnsupported
from reviewer.core.engines.katago_net.quantized import QUANTIZATION_VERSION
from reviewer.core.engines.katago_net.runtime import Backend, NetworkRunner, Precision, chosen_precision
from reviewer.core.engines.katago_net.search import SearchParams, Stop, TreeSearch
from reviewer.core.engines.katago_search_name import SEARCH_NAME, search_identity
from reviewer.core.gametree import Game, GameKind

__all__ = ["NETWORK_CORES", "SEARCH_VERSION", "KataGoNetworkSearch", "split_runs"]

SEARCH_VERSION = "2"  # part of the identity: a change to the search's figures changes it
DEFAULT_VISITS = 100  # as the analysis.cfg Reviewer installs sets maxVisits
NETWORK_CORES = 1  # the cores of one network call of a search: its parallelism is its workers'
MAX_WORKERS = 8


def split_runs(turns: Sequence[int], parts: int) -> list[list[int]]:
    """`turns` (sorted) as runs of consecutive turns, the longest split in halves until there are
    `parts` runs or every run is one turn: the runs searched side by side, each down the game."""
    runs: list[list[int]] = []
    for turn in turns:
        if runs and runs[-1][-1] == turn - 1:
            runs[-1].append(turn)
        else:
            runs.append([turn])
    while len(runs) < parts:
        longest = max(range(len(runs)), key=lambda i: len(runs[i]))
        run = runs[longest]
        if len(run) < 2:
            break
        half = (len(run) + 1) // 2
        runs[longest : longest + 1] = [run[:half], run[half:]]
    return runs


class _Either:
    """Set when either event is."""

    def __init__(self, first: Stop, second: Stop) -> None:
        self.first, self.second = first, second

    def is_set(self) -> bool:
        return self.first.is_set() or self.second.is_set()


class KataGoNetworkSearch:
    """KataGo's network named by `command`'s `-model`, searched in-process. `default_visits`: the
    visits of a search whose limit names none (nor a time); `workers`: the positions searched side
    by side (by default one per core, at most 8); `precision`: the network's (by default
    `runtime.chosen_precision`)."""

    kind: GameKind = "go"

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str = SEARCH_NAME,
        default_visits: int | None = None,
        params: SearchParams | None = None,
        backend: Backend | None = None,
        workers: int | None = None,
        precision: Precision | None = None,
    ) -> None:
        path = model_path(command)
        if path is None:
            raise EngineNotFound("the KataGo command names no -model to search with")
        self._name = name
        self._model = model_name(command)
        self._evaluator = NetworkEvaluator(path, backend, precision or chosen_precision())
        self.params = params or SearchParams()
        self.default_visits = default_visits or DEFAULT_VISITS
        self.workers = max(1, min(MAX_WORKERS, workers or os.cpu_count() or 1))
        self.version = SEARCH_VERSION
        self.warnings: list[str] = []
        self._lock = threading.Lock()
        # the last position searched alone, by its key, with the seconds its tree has been searched
        self._kept: tuple[str, TreeSearch, float] | None = None

    @property
    def name(self) -> str:
        return self._name

    @property
    def precision(self) -> Precision:
        """The network's precision: the wanted one until a position is analysed, then the one it runs in."""
        return self._evaluator.precision

    @property
    def identity(self) -> str:
        """Float32 figures keep the identity they always had; int8's carry its version."""
        network = search_identity(SEARCH_VERSION, self._model)
        return network if self.precision == "fp32" else f"{network} in int8 (quantization {QUANTIZATION_VERSION})"

    def engine_id(self, limit: Limit) -> str:
        return f"{self.identity} | {limit.describe()}"

    def analyse(self, game: Game, plies: Sequence[int], limit: Limit, stop: threading.Event) -> Generator[Evaluation, None, None]:
        plan = plan_queries(game)
        wanted: dict[tuple[int, int], list[int]] = {}
        for ply in dict.fromkeys(plies):
            if ply not in plan.turn_of_ply:
                raise ValueError(f"ply {ply} is not on the main line (0..{len(plan.turn_of_ply) - 1})")
            wanted.setdefault(plan.turn_of_ply[ply], []).append(ply)
        if not wanted:
            return
        if not self._evaluator.usable():
            raise EngineError(f"KataGo's network cannot be searched in-process: {self._evaluator.problem}")
        if not self._lock.acquire(blocking=False):
            raise EngineError("the network search is already analysing a game")
        try:
            self._evaluator.network().prepare(plan.height, plan.width)  # its precision settled before the identity is given
            visits = limit.visits or limit.nodes or (None if limit.movetime_s is not None else self.default_visits)
            if visits in NETWORK_VISITS and limit.movetime_s is None:
                assert visits is not None
                yield from self._evaluator.analyse(plan, wanted, visits, self.engine_id(limit), stop, limit.maps,
                                                   allowed_at_root(plan, limit))
            else:
                yield from self._search(plan, wanted, visits, limit, stop)
        finally:
            self._lock.release()

    def _search(
        self, plan: QueryPlan, wanted: dict[tuple[int, int], list[int]], visits: int | None, limit: Limit, stop: threading.Event
    ) -> Generator[Evaluation, None, None]:
        try:
            runner = self._evaluator.network()
        except ModelUnsupported as error:
            raise EngineError(str(error)) from None
        by_segment: dict[int, list[int]] = {}
        for segment_index, turn in wanted:
            by_segment.setdefault(segment_index, []).append(turn)
        runs = [(segment_index, run) for segment_index, turns in sorted(by_segment.items())
                for run in split_runs(sorted(turns), self.workers)]
        if len(runs) == 1 or self.workers == 1:
            for segment_index, run in runs:
                for evaluation in self._search_run(runner, plan, segment_index, run, visits, limit, stop):
                    if evaluation is None:
                        return
                    yield from (replace(evaluation, ply=ply) for ply in wanted[(segment_index, evaluation.ply)])
            return
        yield from self._search_side_by_side(runner, plan, wanted, runs, visits, limit, stop)

    def _search_side_by_side(
        self,
        runner: NetworkRunner,
        plan: QueryPlan,
        wanted: dict[tuple[int, int], list[int]],
        runs: list[tuple[int, list[int]]],
        visits: int | None,
        limit: Limit,
        stop: threading.Event,
    ) -> Generator[Evaluation, None, None]:
        """The runs shared among the workers, the evaluations yielded in the order of the game (each
        as soon as it and those before it are known); closing the generator stops the workers."""
        todo: queue.SimpleQueue[tuple[int, list[int]]] = queue.SimpleQueue()
        for run in runs:
            todo.put(run)
        found: queue.SimpleQueue[tuple[int, Evaluation | BaseException | None]] = queue.SimpleQueue()
        halt = threading.Event()
        either = _Either(stop, halt)

        def work() -> None:
            try:
                while not either.is_set():
                    try:
                        segment_index, run = todo.get_nowait()
                    except queue.Empty:
                        break
                    for evaluation in self._search_run(runner, plan, segment_index, run, visits, limit, either):
                        if evaluation is None:
                            break
                        found.put((segment_index, evaluation))
            except BaseException as error:  # raised to the caller by the generator
                found.put((-1, error))
            finally:
                found.put((-1, None))

        threads = [threading.Thread(target=work, name=f"network-search-{i}", daemon=True)
                   for i in range(min(self.workers, len(runs)))]
        for thread in threads:
            thread.start()
        order = sorted((segment_index, turn) for segment_index, run in runs for turn in run)
        ready: dict[tuple[int, int], Evaluation] = {}
        try:
            running = len(threads)
            while running:
                segment_index, item = found.get()
                if item is None:
                    running -= 1
                    continue
                if isinstance(item, BaseException):
                    raise item
                ready[(segment_index, item.ply)] = item
                while order and order[0] in ready:
                    key = order.pop(0)
                    yield from (replace(ready[key], ply=ply) for ply in wanted[key])
        finally:
            halt.set()
            for thread in threads:
                thread.join()

    def _search_run(
        self,
        runner: NetworkRunner,
        plan: QueryPlan,
        segment_index: int,
        turns: list[int],
        visits: int | None,
        limit: Limit,
        stop: Stop,
    ) -> Iterator[Evaluation | None]:
        """The consecutive `turns` of a segment searched down the game in one tree: each turn's
        evaluation with `ply` set to the turn and `seconds` the time its tree's visits took (a tree
        grown or moved down the game counts the time of the visits it keeps); None (and the end)
        when stopped first."""
        engine_id = self.engine_id(limit)
        target = visits if visits is not None else 1 << 40  # a time limit alone: as many as it allows
        segment = plan.segments[segment_index]
        states = root_states(plan, segment_index, turns)
        allowed = allowed_at_root(plan, limit)
        alone = len(turns) == 1
        key = _position_key(plan, segment_index, turns[0], limit) if alone else ""
        tree: TreeSearch | None = None
        spent_s = 0.0
        previous: int | None = None
        for turn in turns:
            state = states[turn]
            kept = self._kept
            if alone and kept is not None and kept[0] == key and kept[1].visits <= target:
                tree, spent_s = kept[1], kept[2]  # the same position again, with a bigger budget: its tree grows
            elif tree is not None and previous == turn - 1 and segment.moves[previous][0] == tree.root.state.to_move:
                point = segment.moves[previous][1]
                index = plan.width * plan.height if point is None else (plan.height - 1 - point[0]) * plan.width + point[1]
                tree.advance(index, state)
            else:
                tree, spent_s = TreeSearch(runner, plan, state, self.params, allowed, NETWORK_CORES), 0.0
            started = time.monotonic()
            deadline = started + limit.movetime_s if limit.movetime_s is not None else None
            finished = tree.run(target, stop, deadline)
            spent_s += time.monotonic() - started
            if alone:
                self._kept = (key, tree, spent_s)
            if not finished and stop.is_set():
                yield None
                return
            evaluation = tree.evaluation(engine_id, segment.side_to_move(turn), limit.maps)
            yield replace(evaluation, ply=turn, seconds=spent_s)
            if stop.is_set():
                yield None
                return
            previous = turn

    def close(self) -> None:
        self._kept = None

    def __enter__(self) -> KataGoNetworkSearch:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _position_key(plan: QueryPlan, segment_index: int, turn: int, limit: Limit) -> str:
    """What makes a search's root what it is: the query up to `turn` and the region of interest."""
    query = plan.query(segment_index, [turn])
    query["moves"] = query["moves"][:turn]
    return json.dumps([query, limit.region], sort_keys=True)
