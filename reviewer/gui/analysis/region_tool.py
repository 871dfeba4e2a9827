"""The region of interest on a board of points (Go): a rectangle the player drags, to which live
analysis and threat mode keep their moves (KaTrain's and LizGoban's tool), shown as a frame.

`RegionTool(board)` watches the board widget: after `begin()`, a left-button drag chooses the
rectangle (no stone is played meanwhile); `clear()` (Esc in the window) takes it away. The frame
is drawn by a child widget over the board that lets the mouse through. The board widget must say
where its points are (`point_at(QPointF)`, `point_center(Point)`, `cell_size()`).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from reviewer.core.gametree import Point

Region = tuple[Point, Point]


class PointBoard(Protocol):
    def point_at(self, position: QPointF) -> Point | None: ...

    def point_center(self, point: Point) -> QPointF: ...

    def cell_size(self) -> float: ...


def normalised(region: Region) -> Region:
    (row_a, col_a), (row_b, col_b) = region
    return (min(row_a, row_b), min(col_a, col_b)), (max(row_a, row_b), max(col_a, col_b))


class _Frame(QWidget):
    """The region's outline and a light veil over the rest of the board; the mouse passes through."""

    def __init__(self, board: QWidget, tool: RegionTool) -> None:
        super().__init__(board)
        self._tool = tool
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setGeometry(board.rect())
        self.hide()

    def rect_of(self, region: Region) -> QRectF:
        board = self._tool.board
        (low_row, low_col), (high_row, high_col) = normalised(region)
        half = board.cell_size() / 2
        corner_a = board.point_center((low_row, low_col))
        corner_b = board.point_center((high_row, high_col))
        left, right = min(corner_a.x(), corner_b.x()) - half, max(corner_a.x(), corner_b.x()) + half
        top, bottom = min(corner_a.y(), corner_b.y()) - half, max(corner_a.y(), corner_b.y()) + half
        return QRectF(left, top, right - left, bottom - top)

    def paintEvent(self, event: QPaintEvent) -> None:
        region = self._tool.dragging or self._tool.region
        if region is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        inside = self.rect_of(region)
        veil = QColor(0, 0, 0, 60)
        outside = QRectF(self.rect())
        for part in (QRectF(outside.left(), outside.top(), outside.width(), inside.top() - outside.top()),
                     QRectF(outside.left(), inside.bottom(), outside.width(), outside.bottom() - inside.bottom()),
                     QRectF(outside.left(), inside.top(), inside.left() - outside.left(), inside.height()),
                     QRectF(inside.right(), inside.top(), outside.right() - inside.right(), inside.height())):
            if part.width() > 0 and part.height() > 0:
                painter.fillRect(part, veil)
        pen = QPen(QColor("#1e88e5"), max(2.0, self._tool.board.cell_size() / 12))
        pen.setStyle(Qt.PenStyle.DashLine if self._tool.dragging is not None else Qt.PenStyle.SolidLine)
        painter.setPen(pen)
        painter.drawRect(inside)
        painter.end()


class RegionTool(QObject):
    """Chooses, keeps and draws one region of interest on `board`."""

    changed = Signal(object)  # the region now (a Region), or None when it was cleared
    choosing_changed = Signal(bool)  # whether the next drag chooses the region

    def __init__(self, board: QWidget) -> None:
        super().__init__(board)
        assert isinstance(board, QWidget)
        self.widget = board
        self.board: PointBoard = board  # type: ignore[assignment]
        self.region: Region | None = None
        self.dragging: Region | None = None
        self.choosing = False
        self._frame = _Frame(board, self)
        board.installEventFilter(self)

    def begin(self) -> None:
        """The next left-button drag on the board chooses the region (and plays nothing)."""
        self.choosing = True
        self.widget.setCursor(Qt.CursorShape.CrossCursor)
        self.choosing_changed.emit(True)

    def set_region(self, region: Region | None) -> None:
        region = normalised(region) if region is not None else None
        self._stop_choosing()
        if region == self.region:
            return
        self.region = region
        self._frame.setVisible(region is not None)
        self._frame.update()
        self.changed.emit(region)

    def clear(self) -> bool:
        """Take the region (or the choosing of one) away; False when there was none."""
        had = self.region is not None or self.choosing
        self.dragging = None
        self.set_region(None)
        return had

    def _stop_choosing(self) -> None:
        if self.choosing:
            self.choosing = False
            self.widget.unsetCursor()
            self.choosing_changed.emit(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.widget:
            return False
        kind = event.type()
        if kind == QEvent.Type.Resize:
            self._frame.setGeometry(self.widget.rect())
            return False
        if not self.choosing or not isinstance(event, QMouseEvent) or kind not in (
            QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick
        ):
            return False
        point = self.board.point_at(event.position())
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            if point is not None:
                self.dragging = (point, point)
                self._frame.show()
                self._frame.update()
        elif kind == QEvent.Type.MouseMove and self.dragging is not None and point is not None:
            self.dragging = (self.dragging[0], point)
            self._frame.update()
        elif kind == QEvent.Type.MouseButtonRelease and self.dragging is not None:
            chosen = (self.dragging[0], point) if point is not None else self.dragging
            self.dragging = None
            self.set_region(chosen)
        return True  # while choosing, the board plays nothing
