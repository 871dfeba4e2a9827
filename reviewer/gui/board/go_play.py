"""A Go board you can play on: a click plays the side to move there, a ghost stone shows where the
mouse is over a legal point, and move numbers can be shown on the stones.

The widget only proposes moves (`move_played`, a GTP coordinate); the session asks the rules, which
refuse an occupied point, suicide and ko with a reason the window shows.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter
from PySide6.QtWidgets import QWidget

from reviewer.core.games.go import GoPosition, refusal
from reviewer.core.gametree import Point, gtp_from_point
from reviewer.gui import style
from reviewer.gui.board.go_board import GoBoardWidget


class PlayableGoBoard(GoBoardWidget):
    """Signals:
    move_played(str): the point clicked, as a GTP coordinate (`D4`); the rules may still refuse it.
    """

    move_played = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._interactive = True
        self._hover: Point | None = None
        self._numbers: dict[Point, int] = {}
        self._ghosts: list[tuple[Point, str, int]] = []
        self.setMouseTracking(True)

    def set_interactive(self, interactive: bool) -> None:
        self._interactive = interactive
        self._hover = None
        self.update()

    def set_position(self, pos: GoPosition) -> None:
        self._hover = None
        super().set_position(pos)

    def set_move_numbers(self, numbers: dict[Point, int]) -> None:
        """Numbers drawn on the stones (empty: none)."""
        self._numbers = dict(numbers)
        self.update()

    def set_ghost_stones(self, stones: list[tuple[Point, str, int]]) -> None:
        """A line shown as numbered translucent stones (point, colour, number); empty clears it."""
        self._ghosts = list(stones)
        self.update()

    def hover_point(self) -> Point | None:
        return self._hover

    # ---------------------------------------------------------------------------- mouse

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        point = self.point_at(event.position()) if self._interactive else None
        if point is not None and refusal(self.position(), point, self.position().to_move) is not None:
            point = None
        if point != self._hover:
            self._hover = point
            self.update()
        event.accept()

    def leaveEvent(self, event: QEvent) -> None:
        if self._hover is not None:
            self._hover = None
            self.update()
        super().leaveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self._interactive:
            super().mouseReleaseEvent(event)
            return
        point = self.point_at(event.position())
        if point is not None:
            self.move_played.emit(gtp_from_point(point, self.position().height))
        event.accept()

    # -------------------------------------------------------------------------- painting

    def _paint_marks(self, painter: QPainter, theme: style.Theme) -> None:
        super()._paint_marks(painter, theme)
        if self._numbers:
            self._paint_numbers(painter)
        if self._ghosts:
            self._paint_ghosts(painter)
        if self._hover is not None:
            cell = self.cell_size()
            ghost = QColor("#101010") if self.position().to_move == "black" else QColor("#f4f4f4")
            ghost.setAlpha(120)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(ghost)
            painter.drawEllipse(self.point_center(self._hover), cell * 0.45, cell * 0.45)

    def _paint_numbers(self, painter: QPainter) -> None:
        cell = self.cell_size()
        position = self.position()
        for point, number in self._numbers.items():
            stone = position.stone_at(point)
            if stone is None:
                continue
            text = str(number)
            painter.setFont(style.pixel_font(cell * (0.42 if len(text) < 3 else 0.34), bold=True))
            painter.setPen(QColor("#ffffff") if stone == "black" else QColor("#1a1a1a"))
            center = self.point_center(point)
            box = center - QPointF(cell / 2, cell / 2)
            painter.drawText(int(box.x()), int(box.y()), int(cell), int(cell), int(Qt.AlignmentFlag.AlignCenter), text)

    def _paint_ghosts(self, painter: QPainter) -> None:
        cell = self.cell_size()
        for point, color, number in self._ghosts:
            if self.position().stone_at(point) is not None:
                continue
            center = self.point_center(point)
            fill = QColor("#101010") if color == "black" else QColor("#f4f4f4")
            fill.setAlpha(150)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawEllipse(center, cell * 0.45, cell * 0.45)
            painter.setFont(style.pixel_font(cell * 0.42, bold=True))
            painter.setPen(QColor("#ffffff") if color == "black" else QColor("#1a1a1a"))
            box = center - QPointF(cell / 2, cell / 2)
            painter.drawText(int(box.x()), int(box.y()), int(cell), int(cell), int(Qt.AlignmentFlag.AlignCenter), str(number))
