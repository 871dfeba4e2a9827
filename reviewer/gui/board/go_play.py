"""A Go board you can play on: a click plays the side to move there, a ghost stone shows where the
mouse is over a legal point, and move numbers can be shown on the stones. With a markup tool chosen
(`set_tool`, `go_markup`) a click draws that mark instead of playing; the right button draws with the
tool last used (a triangle at first).

The widget only proposes moves (`move_played`, a GTP coordinate); the session asks the rules, which
refuse an occupied point, suicide and ko with a reason the window shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget

from reviewer.core.games.go import GoPosition, refusal
from reviewer.core.gametree import Point, Shape, gtp_from_point
from reviewer.gui.board._common import Layer
from reviewer.gui.board.go_board import GoBoardWidget
from reviewer.gui.board.go_markup import (
    GO_TOOLS,
    LINE_COLOUR,
    TWO_POINT_TOOLS,
    paint_marks,
    point_shape,
    two_point_shape,
)
from reviewer.gui.common import style


class PlayableGoBoard(GoBoardWidget):
    """Signals:
    move_played(str): the point clicked, as a GTP coordinate (`D4`); the rules may still refuse it.
    shape_drawn(Shape): a mark drawn with a tool, to be drawn or taken away (a toggle) on the node
        on show; the board draws only what `set_shapes` gives it.
    """

    kind = "go"  # the game it shows
    move_played = Signal(str)
    shape_drawn = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._interactive = True
        self._hover: Point | None = None
        self._numbers: dict[Point, int] = {}
        self._ghosts: list[tuple[Point, str, int]] = []
        self._ownership: Sequence[float] | None = None  # Black's view, -1..1, row 0 first
        self._policy: Sequence[float] | None = None  # 0..1 per point, row 0 first
        self._ownership_pixmap: QPixmap | None = None
        self._ownership_key: tuple[int, ...] | None = None
        self._policy_pixmap: QPixmap | None = None
        self._policy_key: tuple[int, ...] | None = None
        self._shapes: tuple[Shape, ...] = ()
        self._tool = ""  # "" plays stones
        self._last_tool = "triangle"  # what the right button draws
        self._pressed_at: Point | None = None  # where the button that draws went down
        self._first_point: Point | None = None  # an arrow's or line's first point, clicked
        self._marking_hover: Point | None = None
        self._shape_layer = Layer()  # the marks, not drawn again as the ghost stone follows the mouse
        self.setMouseTracking(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.PreventContextMenu)  # the right button draws

    def set_interactive(self, interactive: bool) -> None:
        self._interactive = interactive
        self._hover = None
        self.update()

    def set_position(self, pos: GoPosition) -> None:
        self._hover = None
        before = self.position()
        if (pos.black, pos.white, pos.to_move) != (before.black, before.white, before.to_move):
            self._first_point = None  # an arrow begun on another position
        super().set_position(pos)

    def set_shapes(self, shapes: Sequence[Shape]) -> None:
        """The node's marks (the player's and the file's) over the position on show."""
        self._shapes = tuple(shapes)
        self.update()

    def shapes(self) -> tuple[Shape, ...]:
        return self._shapes

    def set_tool(self, tool: str) -> None:
        """What a left click draws from now on (one of `go_markup.GO_TOOLS`), or "" to play stones."""
        self._tool = tool if tool in GO_TOOLS else ""
        if self._tool:
            self._last_tool = self._tool
        self._first_point = self._pressed_at = self._hover = self._marking_hover = None
        if self._tool:
            self.setCursor(Qt.CursorShape.CrossCursor)
        else:
            self.unsetCursor()
        self.update()

    def tool(self) -> str:
        return self._tool

    def first_point(self) -> Point | None:
        """The first point of an arrow or line clicked so far (None: none)."""
        return self._first_point

    def set_move_numbers(self, numbers: dict[Point, int]) -> None:
        """Numbers drawn on the stones (empty: none)."""
        self._numbers = dict(numbers)
        self.update()

    def set_ghost_stones(self, stones: list[tuple[Point, str, int]]) -> None:
        """A line shown as numbered translucent stones (point, colour, number); empty clears it."""
        self._ghosts = list(stones)
        self.update()

    def ghost_stones(self) -> list[tuple[Point, str, int]]:
        return list(self._ghosts)

    def _covered_points(self) -> set[Point]:
        return {point for point, _color, _number in self._ghosts}

    def set_ownership(self, ownership_first: Sequence[float] | None) -> None:
        """KataGo's ownership (Black's view, -1..1, one value per point, row 0 first) as a territory
        heat map; None hides it."""
        self._ownership = ownership_first
        self.update()

    def set_policy(self, policy: Sequence[float] | None) -> None:
        """The network's move probabilities (0..1 per point, row 0 first) as shaded squares; None hides them."""
        self._policy = policy
        self.update()

    def hover_point(self) -> Point | None:
        return self._hover

    # ---------------------------------------------------------------------------- mouse

    def _drawing_tool(self, button: Qt.MouseButton) -> str:
        """The tool a press or release of `button` draws with ("": none, the left button plays)."""
        if button == Qt.MouseButton.LeftButton:
            return self._tool
        if button == Qt.MouseButton.RightButton:
            return self._tool or self._last_tool
        return ""

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._drawing_tool(event.button()):
            self._pressed_at = self.point_at(event.position())
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._tool or self._pressed_at is not None:
            marking = self.point_at(event.position())
            if marking != self._marking_hover:
                self._marking_hover = marking
                self.update()
            event.accept()
            return
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
        tool = self._drawing_tool(event.button())
        if tool:
            pressed_at, self._pressed_at = self._pressed_at, None
            self._draw(tool, pressed_at, self.point_at(event.position()))
            event.accept()
            return
        if event.button() != Qt.MouseButton.LeftButton or not self._interactive:
            super().mouseReleaseEvent(event)
            return
        point = self.point_at(event.position())
        if point is not None:
            self.move_played.emit(gtp_from_point(point, self.position().height))
        event.accept()

    def _draw(self, tool: str, pressed_at: Point | None, point: Point | None) -> None:
        self._last_tool = tool
        if point is None:
            return
        if tool in TWO_POINT_TOOLS:
            if pressed_at is not None and pressed_at != point:  # dragged
                start: Point | None = pressed_at
                self._first_point = None
            elif self._first_point is None:
                self._first_point = point
                self.update()
                return
            else:
                start, self._first_point = self._first_point, None
            self.update()
            shape = two_point_shape(tool, start, point, self._shapes) if start is not None else None
        else:
            shape = point_shape(tool, point, self._shapes)
        if shape is not None:
            self.shape_drawn.emit(shape)

    # -------------------------------------------------------------------------- painting

    def _paint_marks(self, painter: QPainter, theme: style.Theme) -> None:
        if self._ownership is not None:
            self._paint_ownership(painter)
        super()._paint_marks(painter, theme)
        if self._policy is not None:
            self._paint_policy(painter)
        if self._numbers:
            self._paint_numbers(painter)
        if self._ghosts:
            self._paint_ghosts(painter)
        self._paint_shapes(painter, theme)
        if self._hover is not None:
            cell = self.cell_size()
            ghost = QColor("#101010") if self.position().to_move == "black" else QColor("#f4f4f4")
            ghost.setAlpha(120)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(ghost)
            painter.drawEllipse(self.point_center(self._hover), cell * 0.45, cell * 0.45)

    def _paint_shapes(self, painter: QPainter, theme: style.Theme) -> None:
        shapes = list(self._shapes)
        start = self._first_point if self._first_point is not None else self._pressed_at
        tool = self._tool or self._last_tool
        drawing = start is not None and self._marking_hover not in (None, start) and tool in TWO_POINT_TOOLS
        if drawing and start is not None and self._marking_hover is not None:
            shapes.append(Shape(TWO_POINT_TOOLS[tool], start, self._marking_hover))
        cell = self.cell_size()
        position = self.position()
        wood, on_wood = QColor(theme.wood), QColor(theme.grid)
        if shapes:
            key = (tuple(shapes), position.black, position.white, position.width, position.height, theme, self._show_coordinates)
            self._shape_layer.draw(
                painter, self, key, lambda layer: paint_marks(layer, shapes, self.point_center, position.stone_at, cell, wood, on_wood)
            )
        hovered = self._marking_hover
        if self._tool and hovered is not None and self._pressed_at is None and tool not in TWO_POINT_TOOLS:
            preview = point_shape(tool, hovered, self._shapes)
            if preview is not None and preview not in self._shapes:  # what a click there would draw
                painter.save()
                painter.setOpacity(0.45)
                paint_marks(painter, [preview], self.point_center, position.stone_at, cell, wood, on_wood)
                painter.restore()
        if self._first_point is not None:
            pen = QPen(QColor(LINE_COLOUR), max(1.4, cell * 0.07), Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(self.point_center(self._first_point), cell * 0.42, cell * 0.42)

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

    def _paint_ownership(self, painter: QPainter) -> None:
        """One pixel per point in a small image, drawn scaled over the grid: a single blit per frame."""
        position = self.position()
        values = self._ownership
        if values is None or len(values) != position.width * position.height:
            return
        cell = self.cell_size()
        top_left = self.point_center((position.height - 1, 0)) - QPointF(cell / 2, cell / 2)
        ratio = self.devicePixelRatioF()
        width_px, height_px = round(cell * position.width * ratio), round(cell * position.height * ratio)
        key = (id(values), position.width, position.height, width_px, height_px)
        if self._ownership_pixmap is None or self._ownership_key != key:
            image = QImage(position.width, position.height, QImage.Format.Format_ARGB32)
            image.fill(QColor(0, 0, 0, 0))
            for index, value in enumerate(values):
                strength = min(1.0, abs(value))
                if strength < 0.15:
                    continue
                row, col = divmod(index, position.width)
                shade = 0 if value > 0 else 255
                image.setPixelColor(col, position.height - 1 - row, QColor(shade, shade, shade, round(170 * strength)))
            scaled = image.scaled(width_px, height_px, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.FastTransformation)
            pixmap = QPixmap.fromImage(scaled.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied))
            pixmap.setDevicePixelRatio(ratio)
            self._ownership_pixmap, self._ownership_key = pixmap, key
        painter.drawPixmap(top_left, self._ownership_pixmap)

    def _paint_policy(self, painter: QPainter) -> None:
        """Drawn once per position and size into a layer, then blitted each frame."""
        position = self.position()
        values = self._policy
        if values is None or len(values) != position.width * position.height:
            return
        ratio = self.devicePixelRatioF()
        key = (id(values), id(position), self.width(), self.height(), round(ratio * 100))
        if self._policy_pixmap is None or self._policy_key != key:
            layer = QPixmap(round(self.width() * ratio), round(self.height() * ratio))
            layer.setDevicePixelRatio(ratio)
            layer.fill(QColor(0, 0, 0, 0))
            layer_painter = QPainter(layer)
            layer_painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            layer_painter.setPen(Qt.PenStyle.NoPen)
            cell = self.cell_size()
            for index, value in enumerate(values):
                if value < 0.01:
                    continue
                row, col = divmod(index, position.width)
                if position.stone_at((row, col)) is not None:
                    continue
                layer_painter.setBrush(QColor(34, 120, 220, round(60 + 160 * min(1.0, value * 3))))
                radius = cell * (0.12 + 0.28 * min(1.0, value * 3))
                layer_painter.drawEllipse(self.point_center((row, col)), radius, radius)
            layer_painter.end()
            self._policy_pixmap, self._policy_key = layer, key
        painter.drawPixmap(0, 0, self._policy_pixmap)
