"""Each game's board as the windows drive it: one protocol (`BoardView`) and one registry by game.

    view = make_board_view(game.kind, parent)     # the game's board widget behind its view
    view.show_review(game, node, marks)            # the position with the engine's view of it
    view.show_line(game, node, ("Nf3", "Nc6"))     # a line previewed over it
    view.connect_shapes(drawn)                     # the player's arrows and marks, kept by the caller
    view.show_shapes(node.shapes)                  # and drawn from the node again

The windows (the board column, the analysis board, the trainer) ask only this protocol, never
which game they show; each game's board module registers its view (`register_board_view`), chess
and Go when the registry is first asked, another game from wherever it is registered.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PySide6.QtWidgets import QWidget

from reviewer.core.analysis import Evaluation
from reviewer.core.explain import Why
from reviewer.core.gametree import Color, Game, GameKind, Node, Shape

__all__ = [
    "MARKUP_TOOLS",
    "BoardView",
    "BoardViewFactory",
    "MarkupTool",
    "PlayerNote",
    "ReviewMarks",
    "board_view_kinds",
    "make_board_view",
    "register_board_view",
    "unregister_board_view",
]


@dataclass(frozen=True)
class ReviewMarks:
    """What the review shows over a position: the engine's view of it, the judgement of the move
    that led there, whether the engine's values are estimates only (asked only by a board that
    labels them) and why the move lost."""

    evaluation: Evaluation | None = None
    judgement: str | None = None
    rough: Callable[[], bool] = lambda: False
    why: Why | None = None


@dataclass(frozen=True)
class MarkupTool:
    """A tool a left click on the board draws with instead of playing (Sabaki's edit tools)."""

    name: str  # "triangle", "square", "circle", "cross", "letter", "number", "arrow", "line"
    text: str  # the menu's words, with its mnemonic
    shortcut: str
    tip: str


MARKUP_TOOLS = (
    MarkupTool("triangle", "&Triangle", "T", "A click marks a point with a triangle"),
    MarkupTool("square", "&Square", "S", "A click marks a point with a square"),
    MarkupTool("circle", "&Circle", "C", "A click marks a point with a circle"),
    MarkupTool("cross", "Cr&oss", "M", "A click marks a point with a cross"),
    MarkupTool("letter", "&Letter label", "A", "A click labels a point with the next free letter (A, B, C…)"),
    MarkupTool("number", "&Number label", "1", "A click labels a point with the next free number (1, 2, 3…)"),
    MarkupTool("arrow", "&Arrow", "Shift+A", "Drag, or click two points, to draw an arrow"),
    MarkupTool("line", "L&ine", "Shift+L", "Drag, or click two points, to draw a line"),
)


@dataclass(frozen=True)
class PlayerNote:
    """What a player strip says beside the name about the position ("3 captured", "in hand: ♟2")."""

    text: str
    tooltip: str = ""


class BoardView(Protocol):
    """A game's board widget as the windows drive it: what it shows is said in the game's terms
    (a game and a node, an engine's evaluation, a line of moves in the game's notation)."""

    @property
    def kind(self) -> GameKind: ...

    @property
    def widget(self) -> QWidget: ...

    def connect_moves(self, played: Callable[[str], object], tried: Callable[[str], object]) -> None:
        """`played` gets each move the player makes on the board, `tried` each the board knows
        the rules refuse (the caller has the rules say why), both in the game's notation."""

    def connect_wheel(self, steps: Callable[[int], None]) -> None:
        """`steps` gets +1 per wheel notch towards the player, -1 away."""

    def set_flipped(self, flipped: bool) -> None:
        """The second player at the bottom (a board that does not turn ignores it)."""

    def set_interactive(self, interactive: bool) -> None: ...

    def show_review(self, game: Game, node: Node, marks: ReviewMarks) -> Mapping[str, PlayerNote]:
        """The position after `node` with `marks` over it; what each player's strip says of it."""

    def show_position(self, position: Any, mover: Color, last_move: str | None = None) -> None:
        """A position of the game's rules on its own (a training card) with `mover` to play, at
        the bottom where the board turns; `last_move` (machine notation) marked."""

    def show_line(self, game: Game, node: Node, moves: Sequence[str]) -> None:
        """The first moves of a line from the position after `node` over the board; empty: none."""

    def show_live(self, game: Game, node: Node, evaluation: Evaluation | None, rough: bool) -> None:
        """The live search's candidates on the board, where the board marks them; None clears them."""

    def show_maps(self, ownership_first: Sequence[float] | None, policy: Sequence[float] | None) -> None:
        """The engine's territory and move-probability maps, where the board has points to map."""

    def show_move_numbers(self, game: Game, node: Node, shown: bool) -> None:
        """The moves' numbers on the board's stones up to `node`, where the board numbers them."""

    def connect_shapes(self, drawn: Callable[[Shape], object]) -> None:
        """`drawn` gets each shape the player draws on the board, to be drawn or taken away (a
        toggle) on the node on show; the board shows only what `show_shapes` gives it."""

    def show_shapes(self, shapes: Sequence[Shape]) -> None:
        """Arrows and marks over the position on show until other shapes are given (the node's own,
        the player's and the file's: `show_review` leaves them as they are, `show_position` clears them)."""

    def markup_tools(self) -> Sequence[str]:
        """The names of the `MARKUP_TOOLS` a left click may draw with on this board (none: the board
        draws its shapes some other way, as chess's right button)."""

    def set_markup_tool(self, tool: str) -> None:
        """What a left click does from now on: draw with `tool` (one of `markup_tools`), or play ("")."""


BoardViewFactory = Callable[[QWidget | None], BoardView]

_BUILT_IN = ("reviewer.gui.board.chess_view:register", "reviewer.gui.board.go_view:register")
_lock = threading.RLock()
_factories: dict[GameKind, BoardViewFactory] = {}
_built_in_loaded = False


def _load_built_in() -> None:
    global _built_in_loaded
    with _lock:
        if _built_in_loaded:
            return
        _built_in_loaded = True
        for reference in _BUILT_IN:
            module_name, _, attribute = reference.partition(":")
            getattr(importlib.import_module(module_name), attribute)()


def register_board_view(kind: GameKind, factory: BoardViewFactory) -> None:
    """The board of the game `kind` is made by `factory(parent)` from now on."""
    _load_built_in()
    with _lock:
        _factories[kind] = factory


def unregister_board_view(kind: GameKind) -> None:
    _load_built_in()
    with _lock:
        _factories.pop(kind, None)


def board_view_kinds() -> tuple[GameKind, ...]:
    """The games a board view is registered for, the built-in ones first."""
    _load_built_in()
    with _lock:
        return tuple(_factories)


def make_board_view(kind: GameKind, parent: QWidget | None = None) -> BoardView:
    """A new board view of the game `kind`; ValueError where no board shows its games."""
    _load_built_in()
    with _lock:
        factory = _factories.get(kind)
    if factory is None:
        raise ValueError(f"no board widget shows {kind} games")
    return factory(parent)
