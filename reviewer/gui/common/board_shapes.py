"""The player's shapes between the boards and the game. What a board draws is toggled on the node on
show (`session.model.toggle_shape`, undoable), and the board is given the node's shapes whenever it
shows another node or the node's notes change (an edit, an undo, a redo). While the player looks for
a move on their own (the engine's view hidden) the node's shapes are not shown either (an annotator's
arrow may tell the answer): what the player draws then is a sketch of that position, kept nowhere.

The markup tool chosen (`choose_tool`) goes to the board of the game on show, if that board offers
it (`BoardView.markup_tools`). `Sketch`: a board's shapes kept for the position on show only, where
no game keeps them (a training card)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from reviewer.core.gametree import Shape
from reviewer.gui.board.views import BoardView
from reviewer.gui.common.session import ReviewSession


def toggled(shapes: Sequence[Shape], shape: Shape) -> list[Shape]:
    """`shapes` with `shape` taken away when it is there, else added in the place of one of another
    colour on the same squares (as `TreeEditor.toggle_shape` does on a node)."""
    if shape in shapes:
        return [other for other in shapes if other != shape]
    place = (shape.kind, shape.at, shape.to)
    return [other for other in shapes if (other.kind, other.at, other.to) != place] + [shape]


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
        self._sketch: list[Shape] = []  # drawn while the engine's view is hidden, on the position on show
        session.current_changed.connect(lambda _node: self._show_afresh())
        session.engine_hidden_changed.connect(self._show_afresh)
        session.notes_changed.connect(lambda node: self._show() if node is session.model.current_node else None)
        session.tree_changed.connect(lambda _mainline_changed: self._show())
        session.game_loaded.connect(self._on_game_loaded)

    def attach(self, view: BoardView) -> None:
        self._views[view.kind] = view
        view.connect_shapes(self.draw)
        self._show()
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
        if not isinstance(shape, Shape) or node is None:
            return
        if self._hidden():
            self._sketch = toggled(self._sketch, shape)
            self._show()
        else:
            self.session.model.toggle_shape(node, shape)  # drawn again on notes_changed

    def _hidden(self) -> bool:
        return self.session.model.engine_hidden_from is not None

    def _view(self) -> BoardView | None:
        game = self.session.model.game
        return self._views.get(game.kind) if game is not None else None

    def _show(self) -> None:
        view, node = self._view(), self.session.model.current_node
        if view is not None:
            view.show_shapes(self._sketch if self._hidden() else node.shapes if node is not None else ())

    def _show_afresh(self) -> None:
        self._sketch = []  # a sketch is of the position it was drawn on
        self._show()

    def _on_game_loaded(self) -> None:
        self.choose_tool("")
        self._show_afresh()
        self.tools_offered_changed.emit()


class Sketch:
    """Shapes drawn on `view` kept until `clear` (the next position), toggled as on a node."""

    def __init__(self, view: BoardView) -> None:
        self._view = view
        self._shapes: list[Shape] = []
        view.connect_shapes(self.draw)

    def draw(self, shape: object) -> None:
        if isinstance(shape, Shape):
            self._shapes = toggled(self._shapes, shape)
            self._view.show_shapes(self._shapes)

    def clear(self) -> None:
        self._shapes = []
        self._view.show_shapes(())
