"""What an engine said about positions: immutable records, shared by every engine and view.

Points of view live in the names, and the point of view of every value is the game's FIRST
player: the one who moves first under the game's rules, `GameSupport.player_order[0]` (White in
chess, Black in Go; a shogi engine's values would be Black's (Sente's), a xiangqi engine's Red's).
So `score_cp_first` is centipawns for White in chess, `score_lead_first` points for Black in Go.
Engines convert at their edge (UCI's side-to-move centipawns, KataGo's values for the side it
reports for); nothing downstream flips a sign.

`to_json` writes these names; `from_json` also reads the colour names that files and caches written
before this naming hold (`score_cp_white`, `score_lead_black`, ...), through `_FORMER_NAMES`.
The SQLite cache of these records lives in `reviewer.core.cache`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from reviewer.core.gametree import GameKind, Node, Point

Terminal = Literal["checkmate", "stalemate", "draw"]


# The colour names evaluations were stored under before the first-player names (chess's values were
# White's, Go's Black's: each game's first player), so caches and files of that time still load.
_FORMER_NAMES = {
    "score_cp_white": "score_cp_first",
    "mate_white": "mate_first",
    "wdl_white": "wdl_first",
    "score_lead_black": "score_lead_first",
    "winrate_black": "winrate_first",
    "ownership_black": "ownership_first",
}


def _current_names(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with each former field name renamed; a record holding both names keeps the current one."""
    renamed = dict(data)
    for former, current in _FORMER_NAMES.items():
        if former in renamed:
            value = renamed.pop(former)
            renamed.setdefault(current, value)
    return renamed


@dataclass(frozen=True)
class Candidate:
    """One move the engine considered in a position, best first (`order` 0 = the engine's choice)."""

    move: str  # SAN (chess) or GTP (Go)
    order: int
    visits: int | None = None  # Go visits / chess nodes of this line when known
    prior: float | None = None  # Go: policy prior, 0..1
    score_cp_first: int | None = None  # centipawns (chess), the first player's view; None when a mate is announced
    mate_first: int | None = None  # mate in N moves: >0 the first player mates, <0 the second does
    score_lead_first: float | None = None  # points (Go), the first player's view
    winrate_first: float | None = None  # 0..1, the first player's view
    pv: tuple[str, ...] = ()  # the line, first move included (SAN / GTP)


@dataclass(frozen=True)
class Evaluation:
    """The engine's verdict on position `ply` of a game's main line (ply 0 = start position)."""

    ply: int
    kind: GameKind
    engine_id: str = ""  # engine identity + limit, as used for the cache key
    # Root values, each in the first player's view (see the module docstring)
    # Centipawn games (chess)
    score_cp_first: int | None = None  # None when a mate is announced or the position is terminal
    mate_first: int | None = None  # >0: the first player mates in N; <0: the second player does
    wdl_first: tuple[int, int, int] | None = None  # permille (win, draw, loss) for the first player
    # Point games (Go)
    score_lead_first: float | None = None
    winrate_first: float | None = None  # 0..1
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
    ownership_first: tuple[float, ...] | None = None  # -1 (the second player's) .. 1 (the first player's)
    policy: tuple[float, ...] | None = None  # the network's prior for the side to move, 0..1; 0 where illegal

    def with_ply(self, ply: int) -> Evaluation:
        return replace(self, ply=ply)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> Evaluation:
        """The evaluation `to_json` wrote, or one written with the former colour names."""
        data = _current_names(data)
        data["candidates"] = tuple(
            Candidate(**{**_current_names(c), "pv": tuple(c.get("pv", ()))}) for c in data.get("candidates", ())
        )
        data["pv"] = tuple(data.get("pv", ()))
        for name in ("wdl_first", "ownership_first", "policy"):
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
    # Go: the moves the side to move may choose from, a rectangle of points (row, col, as the
    # model counts them) from one corner to the other, both included; a pass stays allowed.
    # Part of the description, so figures of a search so restricted are never taken for others.
    region: tuple[Point, Point] | None = None

    def in_region(self, point: Point) -> bool:
        if self.region is None:
            return True
        (row_a, col_a), (row_b, col_b) = self.region
        return min(row_a, row_b) <= point[0] <= max(row_a, row_b) and min(col_a, col_b) <= point[1] <= max(col_a, col_b)

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
        if self.region is not None:
            (row_a, col_a), (row_b, col_b) = self.region
            parts.append(f"region={row_a}.{col_a}.{row_b}.{col_b}")
        return ",".join(parts)

    @staticmethod
    def parse(text: str) -> Limit:
        """The limit `describe()` wrote ('depth=10,multipv=1'); ValueError for text it did not write."""
        fields: dict[str, Any] = {}
        for part in text.split(","):
            name, equals, value = part.strip().partition("=")
            if not equals:
                if name != "maps":
                    raise ValueError(f"not a limit: {text!r}")
                fields["maps"] = True
            elif name in ("nodes", "depth", "visits", "multipv"):
                fields[name] = int(value)
            elif name == "movetime":
                fields["movetime_s"] = float(value)
            elif name == "scheme":
                fields["scheme"] = value
            elif name == "region":
                numbers = [int(number) for number in value.split(".")]
                if len(numbers) != 4:
                    raise ValueError(f"not a limit: {text!r}")
                fields["region"] = ((numbers[0], numbers[1]), (numbers[2], numbers[3]))
            else:
                raise ValueError(f"not a limit: {text!r}")
        return Limit(**fields)


@dataclass(frozen=True)
class PassStanding:
    """How far a review in passes got: pass `reached` of `count` had `refined` of the `in_doubt`
    positions it looks at searched. Finished when the last pass has them all."""

    engine_id: str  # the scheme's engine id (`identity | scheme=…`): the analysis it is about
    reached: int
    count: int
    in_doubt: int
    refined: int

    @property
    def finished(self) -> bool:
        return self.reached >= self.count and self.refined >= self.in_doubt

    def short_text(self) -> str:
        """'pass 2 of 3'; '' when finished."""
        return "" if self.finished else f"pass {self.reached} of {self.count}"

    def text(self) -> str:
        """'pass 2 of 3: 6 of 112 positions in doubt refined' ('pass 1 of 3: 29 of 79 positions');
        '' when finished."""
        if self.finished:
            return ""
        if self.reached == 1:
            return f"pass 1 of {self.count}: {self.refined} of {self.in_doubt} positions"
        return f"pass {self.reached} of {self.count}: {self.refined} of {self.in_doubt} positions in doubt refined"


@dataclass
class EvaluationTable:
    """A game's evaluations: those of the main line by ply, those of the positions in its
    variations by node (`variations`; their `ply` is the node's depth from the start).

    `passes`: how far the review in passes that made them got, when known (its figures are not
    final before its last pass is done; `reviewer.core.coverage.select_analysis` reads it)."""

    by_ply: dict[int, Evaluation] = field(default_factory=dict)
    passes: PassStanding | None = None
    variations: dict[Node, Evaluation] = field(default_factory=dict)

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
