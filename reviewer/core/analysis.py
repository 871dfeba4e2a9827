"""What an engine said about positions: immutable records, shared by every engine and view.

Points of view live in the names: `score_cp_white` is centipawns for White, `score_lead_black`
is Go points for Black. Engines convert at their edge; nothing downstream flips a sign.
The SQLite cache of these records lives in `reviewer.core.cache`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from reviewer.core.gametree import GameKind

Terminal = Literal["checkmate", "stalemate", "draw"]


@dataclass(frozen=True)
class Candidate:
    """One move the engine considered in a position, best first (`order` 0 = the engine's choice)."""

    move: str  # SAN (chess) or GTP (Go)
    order: int
    visits: int | None = None  # Go visits / chess nodes of this line when known
    prior: float | None = None  # Go: policy prior, 0..1
    score_cp_white: int | None = None  # chess: centipawns, White's view; None when a mate is announced
    mate_white: int | None = None  # chess: mate in N moves, >0 White mates, <0 Black mates
    score_lead_black: float | None = None  # Go: points, Black's view
    winrate_black: float | None = None  # Go: 0..1, Black's view
    pv: tuple[str, ...] = ()  # the line, first move included (SAN / GTP)


@dataclass(frozen=True)
class Evaluation:
    """The engine's verdict on position `ply` of a game's main line (ply 0 = start position)."""

    ply: int
    kind: GameKind
    engine_id: str = ""  # engine identity + limit, as used for the cache key
    # Chess (root values)
    score_cp_white: int | None = None  # None when a mate is announced or the position is terminal
    mate_white: int | None = None  # >0: White mates in N; <0: Black mates in N
    wdl_white: tuple[int, int, int] | None = None  # permille (win, draw, loss) for White
    # Go (root values)
    score_lead_black: float | None = None
    winrate_black: float | None = None  # 0..1
    # Both
    side_to_move: Literal["white", "black"] | None = None
    terminal: Terminal | None = None  # the game is over in this position (chess)
    best_move: str | None = None  # SAN / GTP; None in a terminal position
    pv: tuple[str, ...] = ()  # best line from this position (SAN / GTP)
    candidates: tuple[Candidate, ...] = ()
    depth: int | None = None
    nodes: int | None = None  # chess nodes / Go visits spent on this position
    seconds: float | None = None
    review_pass: int | None = None  # which pass of a review in passes gave it (1 = the fast pass); None: one pass
    # Go maps, asked for with Limit(maps=True): one value per point, rows from the bottom (row 0 = line 1),
    # each row left to right, as gametree points count them.
    ownership_black: tuple[float, ...] | None = None  # -1 (White's) .. 1 (Black's)
    policy: tuple[float, ...] | None = None  # the network's prior for the side to move, 0..1; 0 where illegal

    def with_ply(self, ply: int) -> Evaluation:
        return replace(self, ply=ply)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> Evaluation:
        data = dict(data)
        data["candidates"] = tuple(Candidate(**{**c, "pv": tuple(c.get("pv", ()))}) for c in data.get("candidates", ()))
        data["pv"] = tuple(data.get("pv", ()))
        for name in ("wdl_white", "ownership_black", "policy"):
            if data.get(name) is not None:
                data[name] = tuple(data[name])
        return Evaluation(**data)


@dataclass(frozen=True)
class Limit:
    """How much an engine may search each position. Unset fields do not limit."""

    nodes: int | None = None
    depth: int | None = None
    movetime_s: float | None = None
    visits: int | None = None  # Go
    multipv: int = 1
    scheme: str | None = None  # a review in passes (reviewer.core.passes) instead of one uniform limit
    maps: bool = False  # Go: ask for the ownership and policy maps too

    def describe(self) -> str:
        parts = [
            f"{name}={value}"
            for name, value in (
                ("nodes", self.nodes),
                ("depth", self.depth),
                ("movetime", self.movetime_s),
                ("visits", self.visits),
                ("scheme", self.scheme),
            )
            if value is not None
        ]
        parts.append(f"multipv={self.multipv}")
        if self.maps:
            parts.append("maps")
        return ",".join(parts)


@dataclass
class EvaluationTable:
    """A game's evaluations by ply; the one place they are kept while a review is open."""

    by_ply: dict[int, Evaluation] = field(default_factory=dict)

    def add(self, evaluation: Evaluation) -> None:
        self.by_ply[evaluation.ply] = evaluation

    def get(self, ply: int) -> Evaluation | None:
        return self.by_ply.get(ply)

    def __contains__(self, ply: int) -> bool:
        return ply in self.by_ply

    def __len__(self) -> int:
        return len(self.by_ply)

    def ordered(self) -> list[Evaluation]:
        return [self.by_ply[ply] for ply in sorted(self.by_ply)]
