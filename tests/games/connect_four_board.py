"""The test-only third game's board (tests/games/connect_four.py) behind the board view protocol
(`reviewer.gui.board.views.BoardView`): seven columns of six holes, a click on a column drops a
disc there, the engine's best column marked with a ring above it.

    register()      # Connect Four games open on this board, in every window
    unregister()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from reviewer.core.analysis import Evaluation
from reviewer.core.gametree import Color, Game, GameKind, Node, Shape
from reviewer.gui.board.views import PlayerNote, ReviewMarks, register_board_view, unregister_board_view
from tests.games.connect_four import COLUMNS, KIND, ROWS, RULES, Position

DISC_COLOURS: dict[Color, QColor] = {"black": QColor("#c62828"), "white": QColor("#f9a825")}
FRAME_COLOUR = QColor("#1e4f9c")
HOLE_COLOUR = QColor("#e8eef7")
BEST_COLOUR = QColor("#2e7d32")


class ConnectFourBoard(QWidget):
    """Columns of discs; `column_clicked` gets the letter of the column under a left click."""

    column_clicked = Signal(str)
    wheel_steps = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(210, 180)
        self.position: Position | None = None
        self.best_column: str | None = None
        self.last_column: str | None = None
        self.interactive = True

    def sizeHint(self) -> QSize:
        return QSize(560, 480)

    def grid_rect(self) -> QRectF:
        """The frame of holes, a cell square, centred, with one row of room above for the mark."""
        cell = min(self.width() / len(COLUMNS), self.height() / (ROWS + 1))
        width, height = cell * len(COLUMNS), cell * ROWS
        left = (self.width() - width) / 2
        top = (self.height() - height + cell) / 2
        return QRectF(left, top, width, height)

    def cell_size(self) -> float:
        return self.grid_rect().width() / len(COLUMNS)

    def hole_center(self, column: str, row: int) -> QPointF:
        """The centre of the hole `row` (0 = bottom) of `column` ("a".."g"), in widget pixels."""
        grid, cell = self.grid_rect(), self.cell_size()
        return QPointF(grid.left() + (COLUMNS.index(column) + 0.5) * cell, grid.bottom() - (row + 0.5) * cell)

    def column_at(self, x: float) -> str | None:
        grid = self.grid_rect()
        index = int((x - grid.left()) // self.cell_size())
        return COLUMNS[index] if grid.left() <= x < grid.right() and 0 <= index < len(COLUMNS) else None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        column = self.column_at(event.position().x())
        if self.interactive and column is not None and event.button() == Qt.MouseButton.LeftButton:
            self.column_clicked.emit(column)
            event.accept()
            return
        super().mousePressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        notches = event.angleDelta().y() // 120
        if notches:
            self.wheel_steps.emit(-notches)
        event.accept()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        grid, cell = self.grid_rect(), self.cell_size()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(FRAME_COLOUR)
        painter.drawRoundedRect(grid, cell * 0.15, cell * 0.15)
        radius = cell * 0.4
        columns = self.position.columns if self.position is not None else tuple(() for _ in COLUMNS)
        for column, discs in zip(COLUMNS, columns):
            for row in range(ROWS):
                painter.setBrush(DISC_COLOURS[discs[row]] if row < len(discs) else HOLE_COLOUR)
                painter.drawEllipse(self.hole_center(column, row), radius, radius)
        if self.last_column is not None and columns[COLUMNS.index(self.last_column)]:
            painter.setPen(QPen(QColor("white"), max(2.0, cell * 0.05)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            top = len(columns[COLUMNS.index(self.last_column)]) - 1
            painter.drawEllipse(self.hole_center(self.last_column, top), radius * 0.5, radius * 0.5)
        if self.best_column is not None:
            painter.setPen(QPen(BEST_COLOUR, max(2.0, cell * 0.08)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(self.hole_center(self.best_column, ROWS), radius * 0.7, radius * 0.7)
        painter.end()


class ConnectFourView:
    """A `ConnectFourBoard` driven in the game's terms."""

    def __init__(self, board: ConnectFourBoard) -> None:
        self._board = board

    @property
    def kind(self) -> GameKind:
        return KIND

    @property
    def widget(self) -> ConnectFourBoard:
        return self._board

    def connect_moves(self, played: Callable[[str], object], tried: Callable[[str], object]) -> None:
        self._board.column_clicked.connect(played)

    def connect_wheel(self, steps: Callable[[int], None]) -> None:
        self._board.wheel_steps.connect(steps)

    def set_flipped(self, flipped: bool) -> None:
        """The discs fall down whichever player looks."""

    def set_interactive(self, interactive: bool) -> None:
        self._board.interactive = interactive

    def show_review(self, game: Game, node: Node, marks: ReviewMarks) -> Mapping[str, PlayerNote]:
        self._show(RULES.after(game, node), node.move, marks.evaluation)
        return {}

    def show_position(self, position: Any, mover: Color, last_move: str | None = None) -> None:
        self._show(position, last_move, None)

    def show_line(self, game: Game, node: Node, moves: Sequence[str]) -> None:
        """Lines are not drawn over this board."""

    def show_live(self, game: Game, node: Node, evaluation: Evaluation | None, rough: bool) -> None:
        self._board.best_column = evaluation.best_move if evaluation is not None else None
        self._board.update()

    def show_maps(self, ownership_first: Sequence[float] | None, policy: Sequence[float] | None) -> None:
        """No maps: the board has no points to map."""

    def show_move_numbers(self, game: Game, node: Node, shown: bool) -> None:
        """Discs are not numbered."""

    def connect_shapes(self, drawn: Callable[[Shape], object]) -> None:
        """Nothing is drawn on this board."""

    def show_shapes(self, shapes: Sequence[Shape]) -> None:
        """No arrows or marks over the discs."""

    def markup_tools(self) -> Sequence[str]:
        return ()

    def set_markup_tool(self, tool: str) -> None:
        """A click always plays."""

    def _show(self, position: Position, last_move: str | None, evaluation: Evaluation | None) -> None:
        self._board.position = position
        self._board.last_column = last_move or None
        self._board.best_column = evaluation.best_move if evaluation is not None else None
        self._board.update()


def register() -> None:
    register_board_view(KIND, lambda parent: ConnectFourView(ConnectFourBoard(parent)))


def unregister() -> None:
    unregister_board_view(KIND)
