"""The rules protocol every game implements: start, replay, play a move, read and write moves.

Everything outside `reviewer.core.games` asks the game's rules (`rules_for(game.kind)`) instead of
asking "is this chess?". A third game is one module here that implements `GameRules`, plus its
board widget (see docs/architecture.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

from reviewer.core.gametree import Color, Game, GameKind, Node

PositionT = TypeVar("PositionT")


class Position(Protocol):
    """A position of some game as the rest of Reviewer holds it: opaque. Only the game's own rules
    (and the facets of its support object) read one; everyone else hands back what they gave."""

Phase = Literal["opening", "middlegame", "endgame"]
PHASES: tuple[Phase, ...] = ("opening", "middlegame", "endgame")


class IllegalMove(ValueError):
    """A move the rules refuse in this position; the message says why ("the point is occupied")."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"{move}: {reason}")
        self.move = move
        self.reason = reason

    @property
    def sentence(self) -> str:
        """What the player reads: "Ra8–a5 is not legal: the way from a8 to a5 is blocked",
        "Qxf7 is not legal in this position (black to move)", "D4 is not legal: the point is occupied"."""
        if not self.move:
            return self.reason[:1].upper() + self.reason[1:]
        if self.reason.startswith("not "):
            return f"{self.move} is {self.reason}"
        return f"{self.move} is not legal: {self.reason}"


@dataclass(frozen=True)
class PlayedMove(Generic[PositionT]):
    """A move the rules accepted: the position after it and the move in the game's notations."""

    position: PositionT
    move: str  # what players read: SAN (chess) / GTP coordinate or "pass" (Go)
    machine: str  # UCI (chess) / SGF coordinate, "" for a pass (Go)
    color: Color


class GameRules(Protocol[PositionT]):
    """One game's rules over its immutable-by-convention position type."""

    kind: GameKind

    def start(self, game: Game) -> PositionT:
        """The position before the first move: start FEN, or setup stones, handicap and first player."""
        ...

    def after(self, game: Game, node: Node) -> PositionT:
        """The position after `node` (the start position for the root), replaying the path as recorded."""
        ...

    def play(self, position: PositionT, text: str) -> PlayedMove[PositionT]:
        """Play a move typed or clicked by a user (SAN or UCI; GTP coordinate or "pass"), by the rules.

        Raises `IllegalMove` with the reason when the rules refuse it."""
        ...

    def side_to_move(self, position: PositionT) -> Color:
        ...

    def position_key(self, position: PositionT) -> str:
        """A text that is equal for equal positions (same stones or pieces, same side to move)."""
        ...

    def to_record(self, position: PositionT, game: Game) -> dict[str, Any]:
        """The position as JSON-ready data (with what an engine needs from the game: komi, rules)."""
        ...

    def from_record(self, record: dict[str, Any]) -> PositionT:
        ...

    def record_game(self, record: dict[str, Any], first_player: Color) -> Game:
        """A game that starts at a recorded position, for an engine to search from there."""
        ...

    def phases(self, game: Game) -> list[Phase | None]:
        """The phase of each main-line move, ply 1..n (docs/SCORING.md, "Game phases"); None where
        the position after the move cannot be built (a move the rules refuse)."""
        ...


def opaque_rules(rules: GameRules[PositionT]) -> GameRules[Position]:
    """A game's rules as its support object publishes them: over its own position type, which the
    rest of Reviewer only hands back to them (a game's rules are given only positions they made)."""
    return cast(GameRules[Position], rules)
