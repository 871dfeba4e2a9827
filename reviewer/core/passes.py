"""Reviewing a game in passes: a fast pass over every position, then deeper passes where they matter.

A uniform budget spends as much on an obvious recapture as on the move that decides the game. A
review in passes first searches every position cheaply (the whole graph is there early), then
searches again, deeper, only the positions whose label is in doubt, and stops when labels settle.

Chess (`ChessPasses`): pass 1 searches every position at `nodes[0]`. Pass 2 deepens both positions
of every move that is flagged (inaccuracy or worse), whose drop lies within `margins[0]` win points
of a threshold of any preset, that involves a mate, or whose position is sharp (SCORING.md,
Sharpness). Each later pass looks only at moves touched by the pass before and deepens them again
when their label changed with depth, when a mistake's or blunder's best move changed, or when the
drop is still within `margins[k]` of a threshold. From pass `flags_from` on (when set), a pass
deepens only the moves whose standing as a mistake or worse is in doubt: the drop lies within the
pass's margin of a preset's mistake threshold, or the move became or stopped being a mistake or
blunder with the pass before (a search deep enough to settle those costs too much for the rest).
Every pass runs each engine (one thread, a fixed hash cleared by `ucinewgame`) on a fixed run of
consecutive positions, backwards from the last one, so the same game and settings give the same
labels.

Go (`GoPasses`): pass 1 searches every position at `visits[0]` (one or two visits: the network's
own judgement); pass 2 searches again at `visits[1]` both positions of every move that lost at
least `refine_loss` points, and first of all the moves the player is looking at (`focus`), in
small batches so that a move the player turns to is searched next; then both positions of every
move the refined figures now judge a mistake or blunder (a refined position is also a neighbouring
move's), until each such move stands on two refined positions. Pass 2 also asks for the
ownership maps, so that a flagged move's explanation can name the groups and areas it gave away;
the maps are extra figures, not part of the key: a pass-2 result cached without them is still used
(its explanation then says less).

The scheme is named in `Limit.scheme`, so it is part of every cache key and `engine_id`: results of
different schemes are never mixed, and results of a uniform budget are never taken for them. Each
pass's results are cached under the scheme's key and the pass number (`pass_cache_id`), so an
interrupted review keeps every finished search and the decisions of later passes are made again
from the same figures. Each `Evaluation` carries the pass that produced it in `review_pass`.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit, PassStanding
from reviewer.core.engines.base import Engine
from reviewer.core.games.support import game_support, registered_games
from reviewer.core.gametree import Game
from reviewer.core.scoring.common import DEFAULT_PRESET, DROP_THRESHOLDS, GameAssessment, Preset, sharpness

__all__ = [
    "ChessPasses",
    "GoPasses",
    "PassPlan",
    "PassScheme",
    "PassStanding",
    "PassStart",
    "chess_moves_in_doubt",
    "default_chess_passes",
    "default_go_passes",
    "go_moves_to_refine",
    "pass_cache_id",
    "pass_text",
    "review_standing",
    "scheme_from_id",
    "scheme_text",
    "split_pass_cache_id",
]

# Doubt is judged against the thresholds of every preset, so one review serves them all; labels
# are then given by the preset the player picks.
THRESHOLDS = tuple(sorted({t for preset in DROP_THRESHOLDS.values() for t in preset}))
MISTAKE_THRESHOLDS = tuple(sorted({preset[1] for preset in DROP_THRESHOLDS.values()}))  # mistake or worse from here
FLAGGED = ("mistake", "blunder")
DOUBT_PRESET: Preset = "lichess"  # the lowest thresholds: its flagged moves include every preset's
SHARP = 1.0  # sharpness above which a position's figures are deepened (about W = L = 27%)

Searcher = Callable[[Game, Sequence[int], Limit, threading.Event], Iterator[Evaluation]]
FocusCallback = Callable[[], Sequence[int]]  # the plies the player is looking at now


class PassScheme(Protocol):
    """A game's way of reviewing in passes (its support object's `default_passes`): what each pass
    searches and how; the driver (`run_passes`, `review_standing`) asks it and nothing else."""

    @property
    def kind(self) -> str: ...

    @property
    def scheme_id(self) -> str:
        """The scheme in `Limit.scheme` ("chess-passes-v1:…"): part of every cache key and engine id."""
        ...

    @property
    def pass_count(self) -> int: ...

    @property
    def pass_budgets(self) -> tuple[int, ...]:
        """Every pass's budget per position (nodes or visits), the first pass first."""
        ...

    def from_id(self, scheme_id: str) -> PassScheme | None:
        """The scheme of this game's kind that `scheme_id` names; None for an id of another."""
        ...

    def with_budgets(self, budgets: Sequence[int]) -> PassScheme:
        """The scheme with these budgets per pass (`--passes`), its other settings the usual ones."""
        ...

    def limit(self, multipv: int = 1) -> Limit: ...

    def pass_limit(self, index: int) -> Limit:
        """The search of one position in pass `index` (1, 2, …)."""
        ...

    def describe_pass(self, index: int) -> str:
        """Pass `index`'s budget for people: "250k nodes", "32 visits"."""
        ...

    def describe(self) -> str:
        """The scheme for people: 'passes · 40k → 250k → 1M nodes'."""
        ...

    def targets(
        self, game: Game, index: int, latest: dict[int, Evaluation], earlier: dict[int, Evaluation], touched: set[int]
    ) -> set[int]:
        """The positions pass `index` ≥ 2 searches, from each position's figures after the passes
        before (`latest`); `touched` are the positions the pass before searched, `earlier` their
        figures before it."""
        ...

    def batches(
        self, game: Game, index: int, to_search: list[int], latest: dict[int, Evaluation],
        focus: FocusCallback | None, wanted: set[int],
    ) -> Iterator[list[int]]:
        """The positions of pass `index` not yet searched, in the order and the batches they are
        searched in (the player's `focus` may come first); nothing where there is nothing to search."""
        ...

    def further_targets(self, game: Game, index: int, latest: dict[int, Evaluation]) -> set[int]:
        """Positions pass `index` searches too after its own, as its results now ask (empty: the pass is done)."""
        ...

    def searcher(self, engine: Engine, scheme_engine_id: str) -> Searcher:
        """How `engine` searches one pass's positions under this scheme."""
        ...


@dataclass(frozen=True)
class ChessPasses:
    """Node budgets per pass and how doubt is decided; `engines` processes of one thread each."""

    nodes: tuple[int, ...] = (40_000, 250_000, 1_000_000)
    margins: tuple[float, ...] = (3.0, 1.0)  # win points around a threshold that count as doubt, pass 2, 3…
    engines: int = 1
    hash_mb: int = 64
    flags_from: int = 0  # the first pass that looks only at mistakes and worse (0: none)
    kind: str = "chess"

    @property
    def scheme_id(self) -> str:
        nodes = ">".join(str(n) for n in self.nodes)
        margins = ">".join(f"{m:g}" for m in self.margins)
        flags = f":flags{self.flags_from}" if self.flags_from else ""
        return f"chess-passes-v1:nodes{nodes}:margins{margins}:engines{self.engines}:hash{self.hash_mb}{flags}"

    def limit(self, multipv: int = 1) -> Limit:
        return Limit(scheme=self.scheme_id, multipv=multipv)

    def pass_limit(self, index: int) -> Limit:
        return Limit(nodes=self.nodes[index - 1])

    def describe_pass(self, index: int) -> str:
        return f"{_compact(self.nodes[index - 1])} nodes"

    @property
    def pass_budgets(self) -> tuple[int, ...]:
        return self.nodes

    @property
    def pass_count(self) -> int:
        return len(self.nodes)

    def from_id(self, scheme_id: str) -> ChessPasses | None:
        match = _CHESS_ID.match(scheme_id)
        if match is None:
            return None
        return ChessPasses(
            nodes=tuple(int(n) for n in match["nodes"].split(">")),
            margins=tuple(float(m) for m in match["margins"].split(">") if m),
            engines=int(match["engines"]),
            hash_mb=int(match["hash"]),
            flags_from=int(match["flags"] or 0),
        )

    def with_budgets(self, budgets: Sequence[int]) -> ChessPasses:
        return ChessPasses(nodes=tuple(budgets), engines=self.engines)

    def describe(self) -> str:
        return "passes · " + " → ".join(_compact(n) for n in self.nodes) + " nodes"

    def targets(
        self, game: Game, index: int, latest: dict[int, Evaluation], earlier: dict[int, Evaluation], touched: set[int]
    ) -> set[int]:
        return _move_plies_to_positions(chess_moves_in_doubt(game, latest, self, index, earlier=earlier, touched=touched))

    def batches(
        self, game: Game, index: int, to_search: list[int], latest: dict[int, Evaluation],
        focus: FocusCallback | None, wanted: set[int],
    ) -> Iterator[list[int]]:
        if to_search:
            yield to_search

    def further_targets(self, game: Game, index: int, latest: dict[int, Evaluation]) -> set[int]:
        return set()

    def searcher(self, engine: Engine, scheme_engine_id: str) -> Searcher:
        """Reproducibly where the engine can (UCI: each of `engines` processes on a fixed run of
        positions, its hash cleared), else plainly."""

        def search(game: Game, plies: Sequence[int], limit: Limit, stop: threading.Event) -> Iterator[Evaluation]:
            if hasattr(engine, "analyse_reproducibly"):
                reproducible: _ReproducibleEngine = engine  # type: ignore[assignment]
                return reproducible.analyse_reproducibly(
                    game, plies, limit, stop, processes=self.engines, hash_mb=self.hash_mb, engine_id=scheme_engine_id
                )
            return engine.analyse(game, plies, limit, stop)

        return search


@dataclass(frozen=True)
class GoPasses:
    """Visits of the fast pass and of the refining pass, and the loss (points) that is refined."""

    visits: tuple[int, int] = (2, 32)
    refine_loss: float = 2.0
    batch: int = 4  # positions per query of the refining pass (the focus is looked at between them)
    kind: str = "go"

    @property
    def scheme_id(self) -> str:
        return f"go-passes-v1:visits{self.visits[0]}>{self.visits[1]}:refine{self.refine_loss:g}:batch{self.batch}"

    def limit(self, multipv: int = 1) -> Limit:
        return Limit(scheme=self.scheme_id, multipv=multipv)

    def pass_limit(self, index: int) -> Limit:
        # The refining pass settles the label of every move that lost points: it also asks for the
        # ownership maps, which say why such a move lost (core/explain). The fast pass does not.
        return Limit(visits=self.visits[index - 1], maps=index == self.pass_count and index > 1)

    def describe_pass(self, index: int) -> str:
        return f"{self.visits[index - 1]} visits"

    @property
    def pass_budgets(self) -> tuple[int, ...]:
        return tuple(self.visits)

    @property
    def pass_count(self) -> int:
        return len(self.visits)

    def from_id(self, scheme_id: str) -> GoPasses | None:
        match = _GO_ID.match(scheme_id)
        if match is None:
            return None
        return GoPasses(
            visits=(int(match["fast"]), int(match["deep"])), refine_loss=float(match["loss"]), batch=int(match["batch"])
        )

    def with_budgets(self, budgets: Sequence[int]) -> GoPasses:
        return GoPasses(visits=(budgets[0], budgets[-1]))

    def describe(self) -> str:
        return f"passes · {self.visits[0]} → {self.visits[1]} visits"

    def targets(
        self, game: Game, index: int, latest: dict[int, Evaluation], earlier: dict[int, Evaluation], touched: set[int]
    ) -> set[int]:
        return _move_plies_to_positions(go_moves_to_refine(game, latest, self.refine_loss))

    def batches(
        self, game: Game, index: int, to_search: list[int], latest: dict[int, Evaluation],
        focus: FocusCallback | None, wanted: set[int],
    ) -> Iterator[list[int]]:
        """The refining pass in small batches, the player's focus first (`_focused_batches`); the fast
        pass in one."""
        if index > 1:
            if to_search or focus is not None:
                yield from _focused_batches(to_search, game, latest, self, focus, wanted, index)
        elif to_search:
            yield to_search

    def further_targets(self, game: Game, index: int, latest: dict[int, Evaluation]) -> set[int]:
        # The refined figures may flag moves the fast pass did not: a mistake or blunder is
        # explained from both its positions' refined search (and their ownership maps), so
        # those positions are searched too, until every flagged move stands on this pass.
        return _positions_of_flags_below(game, latest, index) if index > 1 else set()

    def searcher(self, engine: Engine, scheme_engine_id: str) -> Searcher:
        return engine.analyse


if TYPE_CHECKING:  # what the driver takes: mypy checks that both schemes are one
    _SCHEMES: tuple[PassScheme, ...] = (ChessPasses(), GoPasses())


def _compact(count: int) -> str:
    if count >= 1_000_000 and count % 100_000 == 0:
        return f"{count / 1_000_000:g}M"
    if count >= 1000 and count % 1000 == 0:
        return f"{count // 1000}k"
    return str(count)


def default_chess_passes(cores: int | None = None) -> ChessPasses:
    """The default chess review: one single-thread engine per core (at most 8); 40k nodes on every
    position, 250k where a label is in doubt, then 1M and 5M nodes where a mistake or worse is in
    doubt (docs/benchmarks.md: at the deep reference's own ceiling, in a uniform 1M review's time)."""
    return ChessPasses(
        nodes=(40_000, 250_000, 1_000_000, 5_000_000),
        margins=(3.0, 1.5, 2.5),
        flags_from=3,
        engines=max(1, min(8, cores or os.cpu_count() or 1)),
    )


def default_go_passes(cores: int | None = None) -> GoPasses:
    """The default Go review (KataGo's queries run in one process whatever the cores)."""
    return GoPasses()


_CHESS_ID = re.compile(
    r"^chess-passes-v1:nodes(?P<nodes>[\d>]+):margins(?P<margins>[\d.>]*):engines(?P<engines>\d+)"
    r":hash(?P<hash>\d+)(?::flags(?P<flags>\d+))?$"
)
_GO_ID = re.compile(r"^go-passes-v1:visits(?P<fast>\d+)>(?P<deep>\d+):refine(?P<loss>[\d.]+):batch(?P<batch>\d+)$")


def scheme_from_id(scheme_id: str) -> PassScheme:
    """The scheme a `Limit.scheme` names (read by the scheme of the game it is for); ValueError for
    one no registered game knows."""
    for support in registered_games():
        if support.default_passes_ref:
            scheme = support.default_passes().from_id(scheme_id)
            if scheme is not None:
                return scheme
    raise ValueError(f"unknown review scheme {scheme_id!r}")


def pass_cache_id(scheme_cache_id: str, index: int) -> str:
    """Where pass `index`'s results of a scheme are cached (the scheme's own key, and the pass)."""
    return f"{scheme_cache_id} | pass={index}"


_PASS_CACHE_ID = re.compile(r"^(?P<scheme>.+) \| pass=(?P<index>\d+)$")


def split_pass_cache_id(cache_id: str) -> tuple[str, int] | None:
    """(the scheme's own key, the pass) of a `pass_cache_id`; None for any other cache id."""
    match = _PASS_CACHE_ID.match(cache_id)
    return None if match is None else (match["scheme"], int(match["index"]))


# -- which positions a pass searches ------------------------------------------------------------------


def _move_plies_to_positions(moves: Iterable[int]) -> set[int]:
    positions: set[int] = set()
    for ply in moves:
        positions.update((ply - 1, ply))
    return positions


def _assessed(game: Game, latest: dict[int, Evaluation], preset: Preset = DEFAULT_PRESET) -> GameAssessment:
    """The game judged by its own scoring from each position's evaluation so far."""
    assessment: GameAssessment = game_support(game.kind).assess(game, EvaluationTable(dict(latest)), preset=preset, skip_book=False)
    return assessment


def _near_threshold(drop: float | None, thresholds: Sequence[float], margin: float) -> bool:
    return drop is not None and any(abs(drop - t) < margin for t in thresholds)


def chess_moves_in_doubt(
    game: Game,
    latest: dict[int, Evaluation],
    scheme: ChessPasses,
    next_pass: int,
    earlier: dict[int, Evaluation] | None = None,
    touched: set[int] | None = None,
) -> set[int]:
    """The moves (plies) whose label is in doubt after the passes so far; their positions are searched
    in `next_pass` (2, 3, …).

    `latest` holds each position's deepest evaluation. For `next_pass` ≥ 3, `touched` is the set of
    positions the previous pass searched and `earlier` their evaluations before it: only moves with
    a touched position are looked at, and a move is in doubt when its label or its best move
    changed, or its drop is still within the pass's margin of a threshold; from pass
    `scheme.flags_from` on, only when it became or stopped being a mistake or worse, or its drop is
    within the margin of a mistake threshold.
    """
    margin = scheme.margins[min(next_pass - 2, len(scheme.margins) - 1)] if scheme.margins else 0.0
    now = _assessed(game, latest, DOUBT_PRESET)
    doubtful: set[int] = set()
    if next_pass <= 2:
        for move in now.moves:
            if move.book or move.judgement is None:
                continue
            before, after = latest.get(move.ply - 1), latest.get(move.ply)
            mate_involved = any(
                e is not None and (e.mate_first is not None or e.terminal == "checkmate") for e in (before, after)
            )
            sharp = any(
                e is not None and (sharpness(e.wdl_first) or 0.0) > SHARP for e in (before, after)
            )
            if (
                move.judgement in ("inaccuracy", "mistake", "blunder")
                or _near_threshold(move.win_drop_mover, THRESHOLDS, margin)
                or mate_involved
                or (sharp and move.judgement != "best")
            ):
                doubtful.add(move.ply)
        return doubtful
    touched = touched or set()
    before_pass = dict(latest)
    before_pass.update(earlier or {})
    then = _assessed(game, before_pass, DOUBT_PRESET)
    flags_only = 0 < scheme.flags_from <= next_pass
    for move, old in zip(now.moves, then.moves, strict=True):
        if move.book or not ({move.ply - 1, move.ply} & touched):
            continue
        if flags_only:
            if (move.judgement in FLAGGED) != (old.judgement in FLAGGED) or _near_threshold(
                move.win_drop_mover, MISTAKE_THRESHOLDS, margin
            ):
                doubtful.add(move.ply)
            continue
        if (
            move.judgement != old.judgement
            or (move.best != old.best and move.judgement in ("mistake", "blunder"))
            or _near_threshold(move.win_drop_mover, THRESHOLDS, margin)
        ):
            doubtful.add(move.ply)
    return doubtful


def go_moves_to_refine(game: Game, latest: dict[int, Evaluation], refine_loss: float) -> list[int]:
    """The moves (plies) that lost at least `refine_loss` points, the biggest loss first."""
    assessment = _assessed(game, latest)
    lossy = [(move.loss, move.ply) for move in assessment.moves if move.loss is not None and move.loss >= refine_loss]
    return [ply for _, ply in sorted(lossy, key=lambda item: (-item[0], item[1]))]


# -- running the passes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PassStart:
    """Told when a pass begins: which, of how many, how many positions it searches and at what budget."""

    index: int
    count: int
    positions: int  # to search (those the cache holds are not searched again)
    budget: str
    # every pass's budget per position (nodes or visits), the first pass first: what a position of
    # each pass costs, against the others
    pass_budgets: tuple[int, ...] = ()
    in_doubt: int | None = None  # the positions the pass looks at, the cached ones included (None: `positions`)


PassCallback = Callable[[PassStart], None]


class _ReproducibleEngine(Protocol):
    def analyse_reproducibly(
        self, game: Game, plies: Sequence[int], limit: Limit, stop: threading.Event, *, processes: int,
        hash_mb: int, engine_id: str | None = None,
    ) -> Iterator[Evaluation]: ...


@dataclass
class PassPlan:
    """The state of a review in passes: each position's deepest evaluation and the pass it came from."""

    scheme: PassScheme
    latest: dict[int, Evaluation]


def searcher_for(engine: Engine, scheme: PassScheme, scheme_engine_id: str) -> Searcher:
    """How one pass's positions are searched (the scheme says: reproducibly where it can, else plainly)."""
    return scheme.searcher(engine, scheme_engine_id)


def run_passes(
    game: Game,
    scheme: PassScheme,
    cached: Sequence[dict[int, Evaluation]],
    search: Callable[[], Searcher],
    stop: threading.Event,
    scheme_engine_id: str,
    *,
    store: Callable[[int, Evaluation], None] | None = None,
    on_pass: PassCallback | None = None,
    on_searched: Callable[[int, int], None] | None = None,
    focus: FocusCallback | None = None,
    plies: Sequence[int] | None = None,
    multipv: int = 1,
) -> Iterator[Evaluation]:
    """Run every pass of `scheme` on `game`, yielding each evaluation as it becomes known.

    `cached[k-1]` holds pass k's results found in the cache (by ply). Each pass decides what it
    searches from the figures the passes before it left, exactly as when nothing was cached, and
    takes from the cache what it already holds (yielded at once, not searched again). `search()`
    gives the function that searches positions (it opens the engine on first need).
    `store(pass, evaluation)` keeps each new result; `on_searched(done, total)` counts the current
    pass's positions. `plies` limits the review to those positions (all by default).
    """
    wanted = sorted(set(plies)) if plies is not None else list(range(game.ply_count + 1))
    wanted_set = set(wanted)
    state: dict[int, Evaluation] = {}  # each position's evaluation after the passes so far
    touched: set[int] = set()
    earlier: dict[int, Evaluation] = {}
    for index in range(1, scheme.pass_count + 1):
        if stop.is_set():
            return
        targets = _pass_targets(game, scheme, index, state, earlier, touched, wanted_set)
        earlier = {ply: state[ply] for ply in targets if ply in state}
        touched = set(targets)
        from_cache = cached[index - 1] if index - 1 < len(cached) else {}
        asked: set[int] = set()  # positions this pass has taken up (searched or from the cache)
        announced = False
        done = planned = 0  # positions searched in this pass, and to be searched so far
        while True:
            asked |= targets
            to_search = sorted(ply for ply in targets if ply not in from_cache)
            planned += len(to_search)
            if on_pass is not None and not announced:
                on_pass(
                    PassStart(
                        index, scheme.pass_count, len(to_search), scheme.describe_pass(index), scheme.pass_budgets,
                        len(targets),
                    )
                )
                announced = True
            for ply in sorted(targets & from_cache.keys()):
                state[ply] = replace(from_cache[ply], review_pass=index, engine_id=scheme_engine_id)
                yield state[ply]
            searcher: Searcher | None = None
            for batch in scheme.batches(game, index, to_search, state, focus, wanted_set):
                searcher = searcher or search()
                with_results = searcher(game, batch, replace(scheme.pass_limit(index), multipv=multipv), stop)
                try:
                    for evaluation in with_results:
                        if evaluation.ply not in wanted_set:
                            continue
                        evaluation = replace(evaluation, review_pass=index, engine_id=scheme_engine_id)
                        if store is not None:
                            store(index, evaluation)
                        state[evaluation.ply] = evaluation
                        touched.add(evaluation.ply)
                        done += 1
                        if on_searched is not None:
                            on_searched(done, max(done, planned))
                        yield evaluation
                        if stop.is_set():
                            return
                finally:
                    close = getattr(with_results, "close", None)
                    if close is not None:
                        close()
                if stop.is_set():
                    return
            targets = (scheme.further_targets(game, index, state) & wanted_set) - asked
            if not targets:
                break


def _positions_of_flags_below(game: Game, latest: dict[int, Evaluation], index: int) -> set[int]:
    """The positions of every Go move now judged a mistake or blunder that pass `index` has not searched."""
    assessment = _assessed(game, latest)
    positions: set[int] = set()
    for move in assessment.moves:
        if move.judgement not in FLAGGED:
            continue
        for ply in (move.ply - 1, move.ply):
            if ply in latest and (latest[ply].review_pass or 1) < index:
                positions.add(ply)
    return positions


def _pass_targets(
    game: Game,
    scheme: PassScheme,
    index: int,
    state: dict[int, Evaluation],
    earlier: dict[int, Evaluation],
    touched: set[int],
    wanted: set[int],
) -> set[int]:
    """The positions pass `index` searches, from each position's figures after the passes before."""
    if index == 1:
        return set(wanted)
    return scheme.targets(game, index, state, earlier, touched) & wanted


def review_standing(
    game: Game, scheme: PassScheme, cached: Sequence[dict[int, Evaluation]], engine_id: str, plies: Sequence[int] | None = None
) -> PassStanding:
    """How far the review of `game` got, from each pass's results (`cached[k-1]`: pass k's, by ply):
    every pass decides what it looks at from the passes before, as `run_passes` does, and the first
    pass that lacks a result for one of them is where the review stopped."""
    wanted_set = set(plies) if plies is not None else set(range(game.ply_count + 1))
    state: dict[int, Evaluation] = {}
    touched: set[int] = set()
    earlier: dict[int, Evaluation] = {}
    for index in range(1, scheme.pass_count + 1):
        targets = _pass_targets(game, scheme, index, state, earlier, touched, wanted_set)
        earlier = {ply: state[ply] for ply in targets if ply in state}
        touched = targets
        from_cache = cached[index - 1] if index - 1 < len(cached) else {}
        found = targets & from_cache.keys()
        for ply in found:
            state[ply] = from_cache[ply]
        if len(found) < len(targets) or index == scheme.pass_count:
            return PassStanding(engine_id, index, scheme.pass_count, len(targets), len(found))
    return PassStanding(engine_id, scheme.pass_count, scheme.pass_count, 0, 0)


def _focused_batches(
    to_search: list[int],
    game: Game,
    latest: dict[int, Evaluation],
    scheme: GoPasses,
    focus: FocusCallback | None,
    wanted: set[int],
    index: int,
) -> Iterator[list[int]]:
    """Go's refining pass in small batches: first the positions of the moves the player is looking
    at (refined whatever they lost), then the biggest losses; the focus is asked before every batch."""
    by_loss = _move_plies_to_positions_ordered(go_moves_to_refine(game, latest, scheme.refine_loss))
    left = [ply for ply in by_loss if ply in to_search] + [ply for ply in to_search if ply not in by_loss]
    pending = set(left)
    while True:
        looked_at: list[int] = []
        if focus is not None:
            for ply in focus():
                for position in (ply - 1, ply):
                    refined = position in latest and (latest[position].review_pass or 1) >= index
                    if position in wanted and not refined and position not in looked_at:
                        looked_at.append(position)
        order = looked_at + [ply for ply in left if ply in pending and ply not in looked_at]
        if not order:
            return
        batch = order[: max(1, scheme.batch)]
        pending.difference_update(batch)
        yield batch


def _move_plies_to_positions_ordered(moves: Sequence[int]) -> list[int]:
    ordered: list[int] = []
    for ply in moves:
        for position in (ply - 1, ply):
            if position >= 0 and position not in ordered:
                ordered.append(position)
    return ordered



_SCHEME_IN_ID = re.compile(r"scheme=([^,|\s]+)")


def _scheme_in(engine_id: str) -> PassScheme | None:
    match = _SCHEME_IN_ID.search(engine_id)
    if match is None:
        return None
    try:
        return scheme_from_id(match.group(1))
    except ValueError:
        return None


def pass_text(engine_id: str, review_pass: int | None) -> str | None:
    """Which pass a figure came from, for people: 'fast pass · 40k nodes', 'pass 2 of 3 · 250k nodes';
    None when the figure is not from a review in passes."""
    scheme = _scheme_in(engine_id) if review_pass is not None else None
    if scheme is None or review_pass is None or not 1 <= review_pass <= scheme.pass_count:
        return None
    budget = scheme.describe_pass(review_pass)
    if review_pass == 1:
        return f"fast pass · {budget}"
    return f"pass {review_pass} of {scheme.pass_count} · {budget}"


def scheme_text(scheme_id: str) -> str:
    """'passes · 40k → 250k → 1M nodes' / 'passes · 2 → 32 visits'."""
    return scheme_from_id(scheme_id).describe()
