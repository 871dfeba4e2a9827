"""The built-in Go engine: MCTS + RAVE over light playouts, behind the Engine protocol.

`BuiltinGoEngine(playouts=None, seed=0, weighted_rave=False)` analyses main-line positions of
a Go game with no external program. Per position it reports the mean result and mean final
area score of all simulations (Black's view, komi included) as the root winrate and score
lead, the most visited move as the best move, and every root move the search tried as a
candidate (visits, visit share as `prior`, the move's own winrate and score).

Search budget per position: `Limit.visits` (else `Limit.nodes`) playouts, else the engine's
`playouts`, else `DEFAULT_PLAYOUTS` (2000); the identity names that fallback as `default-playouts`. `Limit.movetime_s` caps the time as well. The
search runs in chunks and checks the stop event between them. With the same seed the same
position gets the same analysis: each position's generator is seeded from (seed, ply).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from reviewer.core.analysis import Candidate, Evaluation, Limit
from reviewer.core.engines.base import EngineError
from reviewer.core.engines.builtin_go import board as bd
from reviewer.core.engines.builtin_go import search as ms
from reviewer.core.engines.builtin_go.position import MAX_BOARD, Position
from reviewer.core.gametree import Color, Game, GameKind, Node, Point, other_color

VERSION = "1.2"
DEFAULT_PLAYOUTS = 2000
DEFAULT_RAVE_K = 1000.0  # the equivalence parameter of beta = sqrt(k / (3n + k))
DEFAULT_C_UCT = 0.0  # no UCB term: RAVE supplies the exploration
DEFAULT_EXPAND_VISITS = 2
MAX_TREE_NODES = 1_500_000
CHUNK_SIMULATIONS = 128
PV_MAX = 12
# RAVE variants: "plain"; "weighted" (the proposal, move numbers of indirect first plays only);
# "weighted-literal" (the proposal with every first play, the node's own move included)
VARIANTS = {"plain": ms.RAVE_PLAIN, "weighted": ms.RAVE_WEIGHTED, "weighted-literal": ms.RAVE_WEIGHTED_LITERAL}


@dataclass(frozen=True)
class MoveStats:
    """One root move after a search (Black's view for winrate and score)."""

    index: int  # board index, -1 = pass
    move: str  # GTP
    visits: int
    winrate_first: float
    score_lead_first: float
    pv: tuple[str, ...]


@dataclass(frozen=True)
class SearchResult:
    playouts: int
    winrate_first: float
    score_lead_first: float
    moves: tuple[MoveStats, ...]  # most visited first
    seconds: float

    @property
    def best(self) -> MoveStats | None:
        return self.moves[0] if self.moves else None


def _mix_seed(seed: int, salt: int) -> int:
    """splitmix64 of (seed, salt), as a signed int64."""
    x = (seed * 0x9E3779B97F4A7C15 + salt + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 31
    return x - (1 << 64) if x >= 1 << 63 else x


class Searcher:
    """One search tree over one position; `search` may be called again to add playouts."""

    def __init__(
        self,
        position: Position,
        *,
        seed: int = 0,
        variant: str = "plain",
        max_playouts: int = DEFAULT_PLAYOUTS,
        rave_k: float = DEFAULT_RAVE_K,
        c_uct: float = DEFAULT_C_UCT,
        expand_visits: int = DEFAULT_EXPAND_VISITS,
        priors: bool = True,
        opening_lines: bool = True,
        ladders: bool = True,
    ):
        self.position = position.copy()
        points = position.width * position.height
        size = int(position.cfg[bd.CFG_SIZE])
        capacity = min(MAX_TREE_NODES, 1 + (max_playouts // max(1, expand_visits) + 2) * (points + 1))
        self.tree = np.zeros((ms.TREE_ROWS, capacity), np.float64)
        self.links = np.zeros((ms.LINK_ROWS, capacity), np.int64)
        self.links[ms.FIRST_CHILD, 0] = -1
        self.links[ms.MOVE, 0] = bd.PASS
        self.counters = np.array([1, capacity], np.int64)
        self.params = np.zeros(ms.PARAMS_LEN, np.float64)
        self.params[ms.P_RAVE_K] = rave_k
        self.params[ms.P_C_UCT] = c_uct
        self.params[ms.P_EXPAND_VISITS] = expand_visits
        if variant not in VARIANTS:
            raise ValueError(f"unknown RAVE variant {variant!r}; known: {', '.join(VARIANTS)}")
        self.params[ms.P_WEIGHTED] = VARIANTS[variant]
        self.params[ms.P_KOMI] = position.komi
        self.params[ms.P_PRIORS] = 1.0 if priors else 0.0
        self.params[ms.P_OPENING_LINES] = 1.0 if opening_lines else 0.0
        self.params[ms.P_LADDERS] = 1.0 if ladders else 0.0
        self.rng = np.array([_mix_seed(seed, 0)], np.int64)
        self.work_b = np.empty_like(self.position.b)
        self.work_meta = np.empty_like(self.position.meta)
        self.seq = np.empty(8 * points + 64, np.int64)
        self.first_play = np.full(size, -1, np.int64)
        self.path = np.empty(4 * points + 64, np.int64)
        self.mark = np.zeros(size, np.int64)
        self.stack = np.empty(size, np.int64)
        self.seconds = 0.0

    def allow_at_root(self, allowed: Callable[[Point], bool]) -> None:
        """Let the root choose only the moves on points `allowed` says (a pass always): its
        children are made now, and the others taken out before any simulation."""
        if self.links[ms.FIRST_CHILD, 0] >= 0:
            raise ValueError("the root is already expanded")
        if not ms._expand(0, self.position.b, self.position.meta, self.position.cfg, self.tree, self.links, self.counters,
                          self.params[ms.P_PRIORS] != 0.0, self.params[ms.P_OPENING_LINES] != 0.0,
                          self.params[ms.P_LADDERS] != 0.0):
            return
        first, count = int(self.links[ms.FIRST_CHILD, 0]), int(self.links[ms.N_CHILDREN, 0])
        kept = 0
        for child in range(first, first + count):
            move = int(self.links[ms.MOVE, child])
            point = self.position.point(move) if move != bd.PASS else None
            if point is None or allowed(point):
                self.links[:, first + kept] = self.links[:, child]
                self.tree[:, first + kept] = self.tree[:, child]
                kept += 1
        self.links[ms.N_CHILDREN, 0] = kept

    @property
    def playouts(self) -> int:
        return int(self.tree[ms.VISITS, 0])

    def search(self, playouts: int, stop: threading.Event | None = None, deadline: float | None = None) -> bool:
        """Add up to `playouts` simulations; False when stopped by the event before finishing."""
        started = time.perf_counter()
        done = 0
        try:
            while done < playouts:
                if stop is not None and stop.is_set():
                    return False
                if deadline is not None and time.perf_counter() >= deadline:
                    return True
                chunk = min(CHUNK_SIMULATIONS, playouts - done)
                ms.run_simulations(
                    chunk, self.position.b, self.position.meta, self.position.cfg, self.params, self.tree,
                    self.links, self.counters, self.rng, self.work_b, self.work_meta, self.seq,
                    self.first_play, self.path, self.mark, self.stack,
                )
                done += chunk
            return True
        finally:
            self.seconds += time.perf_counter() - started

    def _black_winrate(self, node: int, mover_is_black: bool) -> float:
        visits = self.tree[ms.VISITS, node]
        if visits <= 0:
            return 0.5
        wins = self.tree[ms.WINS, node] / visits
        return float(wins if mover_is_black else 1.0 - wins)

    def _pv(self, node: int) -> list[int]:
        line: list[int] = []
        while True:
            first = int(self.links[ms.FIRST_CHILD, node])
            if first < 0 or len(line) >= PV_MAX:
                return line
            count = int(self.links[ms.N_CHILDREN, node])
            visits = self.tree[ms.VISITS, first : first + count]
            best = int(np.argmax(visits))
            if visits[best] < 1:
                return line
            node = first + best
            line.append(int(self.links[ms.MOVE, node]))

    def result(self) -> SearchResult:
        position = self.position
        root_black = position.to_move == "black"
        total = self.playouts
        moves: list[MoveStats] = []
        first = int(self.links[ms.FIRST_CHILD, 0])
        if first >= 0:
            count = int(self.links[ms.N_CHILDREN, 0])
            for child in range(first, first + count):
                visits = int(self.tree[ms.VISITS, child])
                if visits == 0:
                    continue
                index = int(self.links[ms.MOVE, child])
                pv = tuple(position.gtp(i) for i in [index, *self._pv(child)])
                moves.append(
                    MoveStats(
                        index=index,
                        move=position.gtp(index),
                        visits=visits,
                        winrate_first=self._black_winrate(child, root_black),
                        score_lead_first=float(self.tree[ms.SCORE_SUM, child] / visits),
                        pv=pv,
                    )
                )
        # most visited first; ties by the better result for the side to move, then board order
        sign = 1.0 if root_black else -1.0
        moves.sort(key=lambda m: (-m.visits, -sign * m.winrate_first, m.index))
        return SearchResult(
            playouts=total,
            winrate_first=self._black_winrate(0, not root_black),
            score_lead_first=float(self.tree[ms.SCORE_SUM, 0] / total) if total else -position.komi,
            moves=tuple(moves),
            seconds=self.seconds,
        )


def search_position(
    position: Position,
    playouts: int,
    *,
    seed: int = 0,
    variant: str = "plain",
    stop: threading.Event | None = None,
    deadline: float | None = None,
    allowed: Callable[[Point], bool] | None = None,
    **options: Any,
) -> SearchResult | None:
    """Search one position, the root's moves only on points `allowed` says when given; None when
    the stop event interrupted it."""
    searcher = Searcher(position, seed=seed, variant=variant, max_playouts=playouts, **options)
    if allowed is not None:
        searcher.allow_at_root(allowed)
    if not searcher.search(playouts, stop, deadline):
        return None
    return searcher.result()


# --- games ------------------------------------------------------------------------------------


def default_komi(game: Game) -> float:
    """The game's komi; when the file has none, 7.5 (0.5 with handicap stones)."""
    if game.komi is not None:
        return float(game.komi)
    return 0.5 if game.handicap >= 2 else 7.5


def position_at_ply(game: Game, ply: int) -> Position:
    """The main-line position after `ply` moves, with the side to move set (setup stones applied)."""
    if game.kind != BuiltinGoEngine.kind:
        raise EngineError("the built-in engine analyses Go games only")
    width, height = game.board_width, game.board_height
    if not (1 <= width <= MAX_BOARD and 1 <= height <= MAX_BOARD):
        raise EngineError(f"the built-in engine supports boards up to {MAX_BOARD}x{MAX_BOARD}, not {width}x{height}")
    position = Position(width, height, rules=game.rules, komi=default_komi(game))
    position.setup(black=game.setup_black, white=game.setup_white)
    nodes = game.mainline_nodes()
    if ply > len(nodes):
        raise EngineError(f"the game has {len(nodes)} moves, not {ply}")
    to_move: Color = _player_property(game.root) or game.first_player
    for node in nodes[:ply]:
        if node.setup_black or node.setup_white or node.setup_empty:
            position.setup(black=node.setup_black, white=node.setup_white, empty=node.setup_empty)
        to_move = _player_property(node) or to_move
        if node.color is not None:
            position.replay(node.point, node.color)
            to_move = other_color(node.color)
    # the colour of the next recorded move settles who is to move (handicap games, edits)
    next_color = nodes[ply].color if ply < len(nodes) else None
    if next_color is not None:
        to_move = next_color
    position.to_move = to_move
    return position


def _player_property(node: Node) -> Color | None:
    values = node.properties.get("PL") if node.properties else None
    if not values:
        return None
    text = values[0].strip().upper()
    return "black" if text.startswith("B") else "white" if text.startswith("W") else None


class BuiltinGoEngine:
    """Go analysis with the built-in MCTS + RAVE engine (no external program)."""

    kind: GameKind = "go"

    def __init__(self, playouts: int | None = None, seed: int = 0, weighted_rave: bool = False):
        if playouts is not None and playouts < 1:
            raise ValueError("playouts must be at least 1")
        self.playouts = playouts
        self.seed = int(seed)
        self.weighted_rave = weighted_rave

    @property
    def identity(self) -> str:
        """Name, version and the options that change results. The playouts named here are only the
        fallback budget: a Limit with visits or nodes overrides them, and the cache key's limit half
        then names the budget used, so no budget is claimed that a run did not use."""
        fallback_playouts = self.playouts if self.playouts is not None else DEFAULT_PLAYOUTS
        variant = "weighted-rave" if self.weighted_rave else "rave"
        return f"builtin-go {VERSION} {variant} seed={self.seed} default-playouts={fallback_playouts}"

    def playouts_for(self, limit: Limit) -> int:
        for value in (limit.visits, limit.nodes, self.playouts):
            if value is not None and value > 0:
                return int(value)
        return DEFAULT_PLAYOUTS

    def evaluate(self, game: Game, ply: int, limit: Limit, stop: threading.Event | None = None) -> Evaluation | None:
        """The evaluation of main-line position `ply`; None when stopped."""
        position = position_at_ply(game, ply)
        playouts = self.playouts_for(limit)
        deadline = time.perf_counter() + limit.movetime_s if limit.movetime_s else None
        result = search_position(
            position, playouts, seed=_mix_seed(self.seed, ply), variant="weighted" if self.weighted_rave else "plain",
            stop=stop, deadline=deadline, allowed=limit.in_region if limit.region is not None else None,
        )
        if result is None:
            return None
        # prior = the move's share of the root's children visits (sums to 1)
        child_total = sum(m.visits for m in result.moves) or 1
        candidates = tuple(
            Candidate(
                move=m.move,
                order=order,
                visits=m.visits,
                prior=m.visits / child_total,
                score_lead_first=round(m.score_lead_first, 3),
                winrate_first=round(m.winrate_first, 5),
                pv=m.pv,
            )
            for order, m in enumerate(result.moves)
        )
        best = result.best
        return Evaluation(
            ply=ply,
            kind="go",
            engine_id=f"{self.identity} | {limit.describe()}",  # as review.engine_key writes it
            score_lead_first=round(result.score_lead_first, 3),
            winrate_first=round(result.winrate_first, 5),
            side_to_move=position.to_move,
            best_move=best.move if best else "pass",
            pv=best.pv if best else ("pass",),
            candidates=candidates,
            nodes=result.playouts,
            seconds=round(result.seconds, 4),
        )

    def analyse(self, game: Game, plies: Sequence[int], limit: Limit, stop: threading.Event) -> Generator[Evaluation, None, None]:
        for ply in plies:
            if stop.is_set():
                return
            evaluation = self.evaluate(game, ply, limit, stop)
            if evaluation is None:
                return
            yield evaluation

    def close(self) -> None:
        """Nothing to release: the engine runs in the caller's process."""
