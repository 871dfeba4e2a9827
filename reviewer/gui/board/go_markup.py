"""Go markup as in Sabaki: what a click with a tool draws (triangle, square, circle, cross, the next
free letter or number, an arrow or a line between two points), and how the node's marks are drawn so
that they read on black stones, white stones and the empty wood alike (SGF TR/SQ/CR/MA/LB/AR/LN)."""

from __future__ import annotations

import math
import string
from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF

from reviewer.core.gametree import Point, Shape, ShapeKind
from reviewer.gui.common import style

POINT_TOOLS: dict[str, ShapeKind] = {"triangle": "triangle", "square": "square", "circle": "circle", "cross": "cross"}
LABEL_TOOLS = ("letter", "number")
TWO_POINT_TOOLS: dict[str, ShapeKind] = {"arrow": "arrow", "line": "line"}
GO_TOOLS = (*POINT_TOOLS, *LABEL_TOOLS, *TWO_POINT_TOOLS)
POINT_MARKS = (*POINT_TOOLS.values(), "label")

ON_BLACK = "#f4f4f4"
ON_WHITE = "#111111"
LINE_COLOUR = "#111111"
LINE_HALO = "#f4f4f4"


def next_letter(shapes: Iterable[Shape]) -> str:
    """The first of A…Z no label of the node has yet (A again once all are taken)."""
    used = {shape.text for shape in shapes if shape.kind == "label"}
    return next((letter for letter in string.ascii_uppercase if letter not in used), "A")


def next_number(shapes: Iterable[Shape]) -> str:
    """The smallest number from 1 no label of the node has yet."""
    used = {shape.text for shape in shapes if shape.kind == "label"}
    number = 1
    while str(number) in used:
        number += 1
    return str(number)


def point_shape(tool: str, point: Point, shapes: Sequence[Shape]) -> Shape | None:
    """What a click with a one-point tool on `point` toggles: the same mark there already (taken
    away), else a new one (it takes the place of another mark on the point); None for other tools."""
    if tool in POINT_TOOLS:
        return Shape(POINT_TOOLS[tool], point)
    if tool in LABEL_TOOLS:
        there = next((shape for shape in shapes if shape.kind == "label" and shape.at == point), None)
        if there is not None:
            return there
        return Shape("label", point, text=next_letter(shapes) if tool == "letter" else next_number(shapes))
    return None


def two_point_shape(tool: str, start: Point, end: Point, shapes: Sequence[Shape]) -> Shape | None:
    """An arrow or line from `start` to `end`; a line already drawn the other way round is the same
    line (taken away). None for other tools or one point."""
    kind = TWO_POINT_TOOLS.get(tool)
    if kind is None or start == end:
        return None
    if kind == "line":
        reversed_line = Shape("line", end, start)
        if reversed_line in shapes:
            return reversed_line
    return Shape(kind, start, end)


def paint_marks(
    painter: QPainter,
    shapes: Iterable[Shape],
    center: Callable[[Point], QPointF],
    stone_at: Callable[[Point], str | None],
    cell: float,
    wood: QColor,
    on_wood: QColor,
) -> None:
    """Point marks in white on black stones, black on white stones and `on_wood` on empty points
    (over a disc of `wood` there, so the grid does not cross them); lines and arrows dark with
    a light halo, over everything."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    lines = [shape for shape in shapes if shape.kind in ("arrow", "line") and shape.to is not None]
    for shape in shapes:
        if shape.kind not in POINT_MARKS or (shape.kind == "label" and not shape.text):
            continue  # lines below; a chess highlight or an empty label draws nothing here
        stone = stone_at(shape.at)
        colour = QColor(ON_BLACK if stone == "black" else ON_WHITE if stone == "white" else on_wood)
        _paint_point_mark(painter, shape, center(shape.at), cell, colour, wood if stone is None else None)
    for shape in lines:
        assert shape.to is not None
        _paint_line(painter, center(shape.at), center(shape.to), cell, shape.kind == "arrow")
    painter.restore()


def _paint_point_mark(painter: QPainter, shape: Shape, at: QPointF, cell: float, colour: QColor, wood: QColor | None) -> None:
    width = max(1.4, cell * 0.075)
    if wood is not None:  # an empty point: the grid stops short of the mark
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(wood)
        painter.drawEllipse(at, cell * 0.37, cell * 0.37)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    pen = QPen(colour, width)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    painter.setPen(pen)
    x, y = at.x(), at.y()
    if shape.kind == "triangle":
        radius = cell * 0.3
        corners = [QPointF(x + radius * math.cos(a), y + radius * math.sin(a)) for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)]
        painter.drawPolygon(QPolygonF([*corners]))
    elif shape.kind == "square":
        half = cell * 0.2
        painter.drawRect(QRectF(x - half, y - half, 2 * half, 2 * half))
    elif shape.kind == "circle":
        painter.drawEllipse(at, cell * 0.24, cell * 0.24)
    elif shape.kind == "cross":
        half = cell * 0.19
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawLine(QPointF(x - half, y - half), QPointF(x + half, y + half))
        painter.drawLine(QPointF(x - half, y + half), QPointF(x + half, y - half))
    elif shape.kind == "label" and shape.text:
        size = cell * (0.55 if len(shape.text) == 1 else 0.44)
        font = style.pixel_font(size, bold=True)
        width = QFontMetricsF(font).horizontalAdvance(shape.text)
        if width > cell * 0.86:  # a long label (SGF allows any text) shrinks to its point
            font = style.pixel_font(max(4.0, size * cell * 0.86 / width), bold=True)
        painter.setFont(font)
        painter.setPen(colour)
        painter.drawText(QRectF(x - cell / 2, y - cell / 2, cell, cell), int(Qt.AlignmentFlag.AlignCenter), shape.text)


def _paint_line(painter: QPainter, start: QPointF, end: QPointF, cell: float, head: bool) -> None:
    dx, dy = end.x() - start.x(), end.y() - start.y()
    length = math.hypot(dx, dy)
    if length == 0:
        return
    ux, uy = dx / length, dy / length
    width = max(1.6, cell * 0.09)
    path = QPainterPath(start)
    head_length = cell * 0.36
    shaft_end = QPointF(end.x() - ux * head_length * 0.8, end.y() - uy * head_length * 0.8) if head else end
    path.lineTo(shaft_end)
    arrowhead = QPolygonF()
    if head:
        nx, ny = -uy, ux
        base = QPointF(end.x() - ux * head_length, end.y() - uy * head_length)
        half = cell * 0.17
        arrowhead = QPolygonF([end, QPointF(base.x() + nx * half, base.y() + ny * half), QPointF(base.x() - nx * half, base.y() - ny * half)])
    for colour, extra in ((QColor(LINE_HALO), width * 1.2), (QColor(LINE_COLOUR), 0.0)):
        colour.setAlpha(200 if extra else 235)
        pen = QPen(colour, width + extra)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
        if head:
            painter.setBrush(colour)
            painter.setPen(QPen(colour, extra or 0.8, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
            painter.drawPolygon(arrowhead)
