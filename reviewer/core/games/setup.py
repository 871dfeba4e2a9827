"""Setting up a position by hand (the board editor): what a game offers to place, the choices
beside the board, the check that the position can be played, its one-line notation, and the new
game it opens as. Each game brings its own `PositionSetup` (`GameSupport.position_setup`); the
editor window draws whatever it describes.

A `Draft` is the editor's position: pieces (or stones) by point (row, column), row 0 at the bottom
as the games' points count (chess: rank 1; Go: line 1), the side to move and the game's own choices by key (chess: castling rights, the en passant
square; Go: komi), all plain data.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, runtime_checkable

from reviewer.core.games.base import Position
from reviewer.core.gametree import Color, Game, Point

BoardStyle = Literal["squares", "points"]  # a chequered board of squares (chess), lines and points (Go)
PieceLook = Literal["glyph", "stone"]  # a piece drawn as its text symbol, a stone as a disc of its colour
ChoiceKind = Literal["flag", "number", "text", "size"]  # a check box, a number, a line of text, the board size


@dataclass(frozen=True)
class PieceKind:
    """What the palette offers: `key` is the draft's value at a point ("K", "p"; "black")."""

    key: str
    title: str  # "White king", "Black stone"
    color: Color
    symbol: str  # the glyph drawn ("♔"); "" for a stone
    look: PieceLook = "glyph"


@dataclass(frozen=True)
class Choice:
    """A setting beside the board. `key` names it in `Draft.choices` ("K" castling short for
    White, "en_passant", "komi"); a "size" choice sets the board's width and height."""

    key: str
    title: str
    kind: ChoiceKind
    minimum: float = 0.0
    maximum: float = 0.0
    step: float = 1.0
    decimals: int = 0
    tip: str = ""


@dataclass(frozen=True)
class Draft:
    """A position being set up."""

    width: int
    height: int
    pieces: dict[Point, str] = field(default_factory=dict)
    to_move: Color = "white"
    choices: dict[str, Any] = field(default_factory=dict)

    def on_board(self, point: Point) -> bool:
        return 0 <= point[0] < self.height and 0 <= point[1] < self.width

    def with_piece(self, point: Point, key: str | None) -> Draft:
        """The draft with `key` at `point` (None: the point emptied)."""
        pieces = dict(self.pieces)
        if key is None:
            pieces.pop(point, None)
        elif self.on_board(point):
            pieces[point] = key
        return replace(self, pieces=pieces)

    def moved(self, origin: Point, target: Point) -> Draft:
        """The piece at `origin` moved to `target` (what was there is taken off)."""
        key = self.pieces.get(origin)
        if key is None or origin == target:
            return self
        return self.with_piece(origin, None).with_piece(target, key)

    def with_choice(self, key: str, value: Any) -> Draft:
        return replace(self, choices={**self.choices, key: value})


class SetupRefused(ValueError):
    """A position text that does not read, or a position that cannot be played; `str()` says why."""


@runtime_checkable
class PositionSetup(Protocol):
    """One game's board editor."""

    board_style: BoardStyle
    notation: str  # the one-line text of a position ("FEN"; "SGF")
    palette: tuple[PieceKind, ...]
    choices: tuple[Choice, ...]
    sizes: tuple[int, ...]  # the board sizes offered, () where the board has one size

    def start(self, game: Game | None, at: Position | None = None) -> Draft:
        """The editor's first position: the position `at` (the game's rules' position) where given,
        else the game's start, else the usual start of a game."""
        ...

    def point_name(self, draft: Draft, point: Point) -> str:
        """A point as players name it ("e4"; "D4"): the board's labels take its letters and its digits."""
        ...

    def cleared(self, draft: Draft) -> Draft:
        """An empty board of the draft's size (chess: the kings stay, nothing else can be played)."""
        ...

    def usual_start(self, draft: Draft) -> Draft:
        """The usual start position on the draft's board."""
        ...

    def resized(self, draft: Draft, width: int, height: int) -> Draft:
        """The draft on a board of another size (what falls off it is taken off)."""
        ...

    def problem(self, draft: Draft) -> str | None:
        """Why the position cannot be played ("Black has no king", "the white group at D4 has no
        liberty"), or None when it can."""
        ...

    def text(self, draft: Draft) -> str:
        """The position in the game's notation (FEN; a small SGF with AB/AW)."""
        ...

    def read(self, text: str) -> Draft:
        """The position a text in the game's notation gives; SetupRefused saying why it does not read."""
        ...

    def game(self, draft: Draft) -> Game:
        """A new game that starts from the draft; SetupRefused (with `problem`'s reason) when it cannot be played."""
        ...


__all__ = ["BoardStyle", "Choice", "ChoiceKind", "Draft", "PieceKind", "PieceLook", "PositionSetup", "SetupRefused"]
