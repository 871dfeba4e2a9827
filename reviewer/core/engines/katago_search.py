"""Reviewer's own search over KataGo's network (`katago_net.search`): an engine without the KataGo process.

It answers what KataGoEngine answers, in the same shape (winrate, score lead, visits, the best line,
each searched move's visits, winrate, lead, prior and order, the ownership and policy maps), but
from its own PUCT search, so its identity is its own and its figures are cached apart from KataGo's.
Searches of 1 and 2 visits are KataGo's exactly (`katago_net.evaluate`); more visits are searched
here. The positions of one game are searched in order, each tree moved down the game to the next
position when its move was searched (those visits count towards the next position's).

Chosen with REVIEWER_KATAGO_NETWORK=search (`katago_net.runtime`); KataGo's process stays the default.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Sequence
from dataclasses import replace

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.engines.base import EngineError, EngineNotFound
from reviewer.core.engines.katago import QueryPlan, model_name, model_path, plan_queries
from reviewer.core.engines.katago_net.evaluate import NETWORK_VISITS, NetworkEvaluator, allowed_at_root
from reviewer.core.engines.katago_net.features import root_states
from reviewer.core.engines.katago_net.model import ModelUnsupported
from reviewer.core.engines.katago_net.runtime import Backend
from reviewer.core.engines.katago_net.search import SearchParams, TreeSearch
from reviewer.core.gametree import Game, GameKind

__all__ = ["SEARCH_VERSION", "KataGoNetworkSearch"]

SEARCH_VERSION = "2"  # part of the identity: a change to the search's figures changes it
DEFAULT_VISITS = 100  # as the analysis.cfg Reviewer installs sets maxVisits


class KataGoNetworkSearch:
    """KataGo's network named by `command`'s `-model`, searched in-process. `default_visits`: the
    visits of a search whose limit names none (nor a time)."""

    kind: GameKind = "go"

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str = "KataGo network",
        default_visits: int | None = None,
        params: SearchParams | None = None,
        backend: Backend | None = None,
    ) -> None:
        path = model_path(command)
        if path is None:
            raise EngineNotFound("the KataGo command names no -model to search with")
        self._name = name
        self._model = model_name(command)
        self._evaluator = NetworkEvaluator(path, backend)
        self.params = params or SearchParams()
        self.default_visits = default_visits or DEFAULT_VISITS
        self.version = SEARCH_VERSION
        self.warnings: list[str] = []
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def identity(self) -> str:
        return f"Reviewer search {SEARCH_VERSION} over KataGo's network {self._model or '?'}"

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
        engine_id = self.engine_id(limit)
        target = visits if visits is not None else 1 << 40  # a time limit alone: as many as it allows
        by_segment: dict[int, list[int]] = {}
        for segment_index, turn in wanted:
            by_segment.setdefault(segment_index, []).append(turn)
        for segment_index, turns in sorted(by_segment.items()):
            turns = sorted(turns)
            segment = plan.segments[segment_index]
            states = root_states(plan, segment_index, turns)
            tree: TreeSearch | None = None
            previous: int | None = None
            for turn in turns:
                state = states[turn]
                if tree is not None and previous == turn - 1 and segment.moves[previous][0] == tree.root.state.to_move:
                    point = segment.moves[previous][1]
                    index = plan.width * plan.height if point is None else (plan.height - 1 - point[0]) * plan.width + point[1]
                    tree.advance(index, state)
                else:
                    tree = TreeSearch(runner, plan, state, self.params, allowed_at_root(plan, limit))
                deadline = time.monotonic() + limit.movetime_s if limit.movetime_s is not None else None
                if not tree.run(target, stop, deadline) and stop.is_set():
                    return
                evaluation = tree.evaluation(engine_id, segment.side_to_move(turn), limit.maps)
                for ply in wanted[(segment_index, turn)]:
                    yield replace(evaluation, ply=ply)
                if stop.is_set():
                    return
                previous = turn

    def close(self) -> None:
        pass

    def __enter__(self) -> KataGoNetworkSearch:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
