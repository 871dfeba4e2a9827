"""The player's own arrows and circles on the chess board, as on lichess: drawn with the right button
in four colours (plain green, Shift red, Alt blue, Shift+Alt or Ctrl yellow), kept as the node's
`Shape`s (`[%cal]`/`[%csl]` in PGN) and drawn translucent in those colours, each arrow with a round
tail and lichess's head, so they stay apart from the engine's arrows (blue, flat tail)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

import chess
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen

from reviewer.core.gametree import Point, Shape

# lichess's brushes (chessground), and ChessBase's orange and cyan that files may carry too
SHAPE_COLOURS = {"G": "#15781b", "R": "#882020", "B": "#003088", "Y": "#e68f00", "O": "#e0620d", "C": "#0f8fa8"}
SHAPE_ALPHA = 153  # lichess draws its shapes at 60 % opacity
ARROW_WIDTH_SQUARES = 10 / 64  # lichess's line width, as a share of a square
RING_WIDTH_SQUARES = 4 / 64


def colour_for(modifiers: Qt.KeyboardModifier) -> str:
    """The colour letter the keys held while drawing give: none G, Shift R, Alt B, Shift+Alt or Ctrl Y."""
    shift = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
    alt = bool(modifiers & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier))
    ctrl = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
    if ctrl or (shift and alt):
        return "Y"
    if shift:
        return "R"
    if alt:
        return "B"
    return "G"


def point_of(square: int) -> Point:
    """python-chess square -> the model's (row, col): row = rank, col = file."""
    return (chess.square_rank(square), chess.square_file(square))


def square_of(point: Point) -> int | None:
    row, col = point
    return chess.square(col, row) if 0 <= row < 8 and 0 <= col < 8 else None


def drawn_shape(start: int, end: int, modifiers: Qt.KeyboardModifier) -> Shape:
    """What a right-button press on `start` and release on `end` draws: a circle on one square, an arrow between two."""
    colour = colour_for(modifiers)
    if start == end:
        return Shape("highlight", point_of(start), colour=colour)
    return Shape("arrow", point_of(start), point_of(end), colour=colour)


def shape_colour(shape: Shape) -> QColor:
    colour = QColor(SHAPE_COLOURS.get(shape.colour, SHAPE_COLOURS["G"]))
    colour.setAlpha(SHAPE_ALPHA)
    return colour


def paint_shapes(painter: QPainter, shapes: Iterable[Shape], square_rect: Callable[[int], QRectF]) -> None:
    """Circles first, then arrows; a shape off the board (or of Go's kinds) is passed over."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    ordered = sorted(shapes, key=lambda shape: shape.kind == "arrow")
    for shape in ordered:
        start = square_of(shape.at)
        if start is None:
            continue
        rect = square_rect(start)
        size = rect.width()
        if shape.kind == "highlight":
            width = size * RING_WIDTH_SQUARES
            inset = width / 2 + size * 0.02
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(shape_colour(shape), width))
            painter.drawEllipse(rect.adjusted(inset, inset, -inset, -inset))
        elif shape.kind == "arrow" and shape.to is not None:
            end = square_of(shape.to)
            if end is None or end == start:
                continue
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(shape_colour(shape))
            painter.drawPath(arrow_path(rect.center(), square_rect(end).center(), size))
    painter.restore()


def arrow_path(start: QPointF, end: QPointF, square: float) -> QPainterPath:
    """Lichess's arrow: a shaft from the centre of the first square with a round tail, and a head
    four line widths across and three long whose tip stops short of the second square's centre."""
    dx, dy = end.x() - start.x(), end.y() - start.y()
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    line = square * ARROW_WIDTH_SQUARES
    half = line / 2
    tip = QPointF(end.x() - ux * square * 0.08, end.y() - uy * square * 0.08)
    base = QPointF(tip.x() - ux * line * 3, tip.y() - uy * line * 3)
    outline = QPainterPath(QPointF(start.x() + nx * half, start.y() + ny * half))
    for x, y in (
        (base.x() + nx * half, base.y() + ny * half),
        (base.x() + nx * line * 2, base.y() + ny * line * 2),
        (tip.x(), tip.y()),
        (base.x() - nx * line * 2, base.y() - ny * line * 2),
        (base.x() - nx * half, base.y() - ny * half),
        (start.x() - nx * half, start.y() - ny * half),
    ):
        outline.lineTo(QPointF(x, y))
    outline.closeSubpath()
    tail = QPainterPath()
    tail.addEllipse(start, half, half)
    return outline.united(tail)  # one outline: no darker overlap where the tail meets the shaft
