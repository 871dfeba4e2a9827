"""The player's shapes between the boards and the game: what a board draws is toggled on the node on
show (`session.model.toggle_shape`, undoable), and the board is given the node's shapes again when
its notes change (an edit, an undo, a redo). The markup tool chosen (`choose_tool`) goes to the board
of the game on show, if that board offers it (`BoardView.markup_tools`). `Sketch`: a board's shapes
kept for the position on show only, where no game keeps them (a training card)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from reviewer.core.gametree import Node, Shape
from reviewer.gui.board.views import BoardView
from reviewer.gui.session import ReviewSession


class BoardShapes(QObject):
    """Signals:
    tool_changed(str): the markup tool a left click now draws with ("": a click plays).
    tools_offered_changed(): another game's board may offer other tools (`tools_on_show`).
    """

    tool_changed = Signal(str)
    tools_offered_changed = Signal()

    def __init__(self, session: ReviewSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._views: dict[str, BoardView] = {}
        self._tool = ""
        session.notes_changed.connect(self._on_notes_changed)
        session.game_loaded.connect(self._on_game_loaded)

    def attach(self, view: BoardView) -> None:
        self._views[view.kind] = view
        view.connect_shapes(self.draw)
        self.tools_offered_changed.emit()

    @property
    def tool(self) -> str:
        return self._tool

    def tools_on_show(self) -> tuple[str, ...]:
        """The markup tools the board of the game on show offers (none before a game is open)."""
        view = self._view()
        return tuple(view.markup_tools()) if view is not None else ()

    def choose_tool(self, tool: str) -> None:
        """Draw with `tool` from now on; "", the tool already chosen or one the board does not offer: play."""
        wanted = tool if tool and tool != self._tool and tool in self.tools_on_show() else ""
        for view in self._views.values():
            view.set_markup_tool(wanted if view is self._view() else "")
        if wanted != self._tool:
            self._tool = wanted
            self.tool_changed.emit(wanted)

    def draw(self, shape: object) -> None:
        node = self.session.model.current_node
        if isinstance(shape, Shape) and node is not None:
            self.session.model.toggle_shape(node, shape)

    def _on_game_loaded(self) -> None:
        self.choose_tool("")
        self.tools_offered_changed.emit()

    def _view(self) -> BoardView | None:
        game = self.session.model.game
        return self._views.get(game.kind) if game is not None else None

    def _on_notes_changed(self, node: object) -> None:
        view = self._view()
        if view is not None and isinstance(node, Node) and node is self.session.model.current_node:
            view.show_shapes(node.shapes)


class Sketch:
    """Shapes drawn on `view` kept until `clear` (the next position), toggled as on a node."""

    def __init__(self, view: BoardView) -> None:
        self._view = view
        self._shapes: list[Shape] = []
        view.connect_shapes(self.draw)

    def draw(self, shape: object) -> None:
        if not isinstance(shape, Shape):
            return
        if shape in self._shapes:
            self._shapes.remove(shape)
        else:
            place = (shape.kind, shape.at, shape.to)
            self._shapes = [s for s in self._shapes if (s.kind, s.at, s.to) != place] + [shape]
        self._view.show_shapes(self._shapes)

    def clear(self) -> None:
        self._shapes = []
        self._view.show_shapes(())
