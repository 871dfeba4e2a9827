"""A chess board that shows a position: pieces, last move, check, arrows and a judgement badge.

Pieces are python-chess's SVG set (`chess.svg.piece`), rendered at runtime with QSvgRenderer and
cached per size in device pixels, so they stay crisp at any size and screen scale. The squares
are drawn once per size, theme and side into a pixmap too: a step only blits and draws the few
things that change (highlights, pieces, arrows, badge).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import chess
import chess.svg
from PySide6.QtCore import QByteArray, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QPainter,
    QPainterPath,
    QPixmap,
    QRadialGradient,
    QResizeEvent,
)
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QWidget

from reviewer.gui.board._common import BoardWidget, draw_badge
from reviewer.gui.common import style


@dataclass(frozen=True)
class Arrow:
    """An arrow from one square to another (python-chess square numbers, a1 = 0 … h8 = 63).

    `width_frac` is the shaft width as a fraction of a square; a colour with alpha is drawn
    translucent (a plain colour gets lichess's 80 % opacity).
    """

    from_sq: int
    to_sq: int
    color: QColor | str = style.LIGHT_THEME.arrow_best
    width_frac: float = 0.16


_svg_renderers: dict[str, QSvgRenderer] = {}


def _piece_renderer(symbol: str) -> QSvgRenderer:
    renderer = _svg_renderers.get(symbol)
    if renderer is None:
        svg = chess.svg.piece(chess.Piece.from_symbol(symbol))
        renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
        _svg_renderers[symbol] = renderer
    return renderer


class ChessBoardWidget(BoardWidget):
    """Square board that fills the height it is given; coordinates sit inside the edge squares.

    Signals:
        wheel_steps(int): +1 per wheel notch towards the user (forward), -1 away (back).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._board = chess.Board()
        self._last_move: chess.Move | None = None
        self._arrows: list[Arrow] = []
        self._focus: frozenset[int] = frozenset()
        self._focus_fill = "#f08a1c80"
        self._flipped = False
        self._badge: tuple[int, str] | None = None
        self._pixmaps: dict[tuple[str, int], QPixmap] = {}

    # ------------------------------------------------------------------------------- API

    def set_position(self, board: chess.Board, last_move: chess.Move | None = None) -> None:
        """Show `board` (copied; later changes to it do not show) with `last_move` highlighted."""
        self._board = board.copy(stack=False)
        self._last_move = last_move
        self.update()

    def set_arrows(self, arrows: list[Arrow]) -> None:
        """Arrows drawn over the pieces, first one underneath (e.g. the best move, candidates)."""
        self._arrows = list(arrows)
        self.update()

    def set_focus(self, squares: frozenset[int], fill: str = "#f08a1c80") -> None:
        """Squares an explanation is about, filled with `fill` (#RRGGBBAA) under the pieces."""
        self._focus = frozenset(squares)
        self._focus_fill = fill
        self.update()

    def focus(self) -> frozenset[int]:
        return self._focus

    def arrows(self) -> list[Arrow]:
        return list(self._arrows)

    def set_flipped(self, flipped: bool) -> None:
        """True: Black at the bottom."""
        if flipped != self._flipped:
            self._flipped = flipped
            self.update()

    def is_flipped(self) -> bool:
        return self._flipped

    def set_move_badge(self, square: int | None, judgement: str | None) -> None:
        """A round badge with ?!/?/?? (or ! for best) on `square`; None for either clears it.

        Judgements with no symbol (good, book) show no badge.
        """
        if square is None or not judgement or not style.judgement_symbol(judgement, show_best=True):
            self._badge = None
        else:
            self._badge = (square, judgement)
        self.update()

    def set_show_coordinates(self, show: bool) -> None:
        self._show_coordinates = show
        self.update()

    def board(self) -> chess.Board:
        """A copy of the board on show."""
        return self._board.copy(stack=False)

    # -------------------------------------------------------------------------- geometry

    def board_rect(self) -> QRectF:
        """Where the 8×8 squares are, in widget coordinates (aligned to device pixels)."""
        ratio = self.devicePixelRatioF()
        side = min(self.width(), self.height())
        square_device = max(1, math.floor(side * ratio / 8))
        size = 8 * square_device / ratio
        left = round((self.width() - size) / 2 * ratio) / ratio
        top = round((self.height() - size) / 2 * ratio) / ratio
        return QRectF(left, top, size, size)

    def square_rect(self, square: int) -> QRectF:
        rect = self.board_rect()
        size = rect.width() / 8
        file, rank = chess.square_file(square), chess.square_rank(square)
        column = 7 - file if self._flipped else file
        row = rank if self._flipped else 7 - rank
        return QRectF(rect.left() + column * size, rect.top() + row * size, size, size)

    def square_center(self, square: int) -> QPointF:
        return self.square_rect(square).center()

    def square_at(self, position: QPointF) -> int | None:
        """The square under a widget position, or None off the board."""
        rect = self.board_rect()
        if not rect.contains(position):
            return None
        size = rect.width() / 8
        column = min(7, int((position.x() - rect.left()) / size))
        row = min(7, int((position.y() - rect.top()) / size))
        file, rank = (7 - column, row) if self._flipped else (column, 7 - row)
        return chess.square(file, rank)

    # ---------------------------------------------------------------------------- Qt API

    def sizeHint(self) -> QSize:
        return QSize(480, 480)

    def heightForWidth(self, width: int) -> int:
        return width

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._pixmaps.clear()
        super().resizeEvent(event)

    # --------------------------------------------------------------------------- painting

    def _paint_marks(self, painter: QPainter, theme: style.Theme) -> None:
        highlighted = self._paint_highlights(painter, theme)
        if self._show_coordinates and highlighted:
            self._paint_coordinates(painter, theme, highlighted)  # again, over the highlight
        self._paint_pieces(painter)
        self._paint_arrows(painter)
        if self._badge is not None:
            square, judgement = self._badge
            rect = self.square_rect(square)
            radius = rect.width() * 0.2
            center = QPointF(rect.right() - radius * 0.75, rect.top() + radius * 0.75)
            draw_badge(painter, center, radius, judgement)

    def _background_state(self) -> tuple[bool, bool]:
        return self._flipped, self._show_coordinates

    def _paint_background(self, painter: QPainter, theme: style.Theme) -> None:
        """The squares and their coordinates."""
        self._paint_squares(painter, theme)
        if self._show_coordinates:
            self._paint_coordinates(painter, theme)

    def _paint_squares(self, painter: QPainter, theme: style.Theme) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        rect = self.board_rect()
        painter.fillRect(rect, style.color(theme.square_light))
        dark = style.color(theme.square_dark)
        for square in chess.SQUARES:
            if (chess.square_file(square) + chess.square_rank(square)) % 2 == 0:
                painter.fillRect(self.square_rect(square), dark)

    def _paint_highlights(self, painter: QPainter, theme: style.Theme) -> set[int]:
        """The last move's squares and a king in check; returns the squares it painted over."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painted: set[int] = set()
        if self._last_move is not None and self._last_move:
            for square in (self._last_move.from_square, self._last_move.to_square):
                painter.fillRect(self.square_rect(square), style.color(theme.last_move))
                painted.add(square)
        if self._board.is_check():
            king = self._board.king(self._board.turn)
            if king is not None:
                rect = self.square_rect(king)
                gradient = QRadialGradient(rect.center(), rect.width() * 0.72)
                red = style.color(theme.check)
                for stop, alpha in ((0.0, 255), (0.25, 230), (0.89, 0), (1.0, 0)):
                    red.setAlpha(alpha)
                    gradient.setColorAt(stop, red)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
                painter.fillRect(rect, QBrush(gradient))
                painted.add(king)
        if self._focus:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            fill = style.color(self._focus_fill)
            for square in self._focus:
                painter.fillRect(self.square_rect(square), fill)
                painted.add(square)
        return painted

    def _paint_coordinates(self, painter: QPainter, theme: style.Theme, only: set[int] | None = None) -> None:
        """File letters along the bottom rank, rank numbers along the left file (of `only` squares)."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        size = self.board_rect().width() / 8
        painter.setFont(style.pixel_font(max(7.0, size * 0.19), bold=True))
        light, dark = style.color(theme.square_light), style.color(theme.square_dark)
        pad = size * 0.05
        bottom_rank = 7 if self._flipped else 0
        left_file = 7 if self._flipped else 0
        for file in range(8):
            square = chess.square(file, bottom_rank)
            if only is not None and square not in only:
                continue
            rect = self.square_rect(square).adjusted(pad, pad, -pad, -pad * 0.4)
            painter.setPen(light if (file + bottom_rank) % 2 == 0 else dark)
            align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom
            painter.drawText(rect, int(align), chess.FILE_NAMES[file])
        for rank in range(8):
            square = chess.square(left_file, rank)
            if only is not None and square not in only:
                continue
            rect = self.square_rect(square).adjusted(pad, pad * 0.4, -pad, -pad)
            painter.setPen(light if (left_file + rank) % 2 == 0 else dark)
            align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
            painter.drawText(rect, int(align), chess.RANK_NAMES[rank])

    def _piece_pixmap(self, symbol: str, size_device: int) -> QPixmap:
        key = (symbol, size_device)
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            image = QImage(size_device, size_device, QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(Qt.GlobalColor.transparent)
            image_painter = QPainter(image)
            image_painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            image_painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            _piece_renderer(symbol).render(image_painter, QRectF(0, 0, size_device, size_device))
            image_painter.end()
            pixmap = QPixmap.fromImage(image)
            pixmap.setDevicePixelRatio(self.devicePixelRatioF())
            self._pixmaps[key] = pixmap
        return pixmap

    def _paint_pieces(self, painter: QPainter) -> None:
        ratio = self.devicePixelRatioF()
        rect = self.board_rect()
        size = rect.width() / 8
        size_device = round(size * ratio)
        left, top = rect.left(), rect.top()
        flipped = self._flipped
        for square, piece in self._board.piece_map().items():
            file, rank = square & 7, square >> 3
            column = 7 - file if flipped else file
            row = rank if flipped else 7 - rank
            painter.drawPixmap(QPointF(left + column * size, top + row * size), self._piece_pixmap(piece.symbol(), size_device))

    def _paint_arrows(self, painter: QPainter) -> None:
        if not self._arrows:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        size = self.board_rect().width() / 8
        for arrow in self._arrows:
            if arrow.from_sq == arrow.to_sq:
                continue
            fill = QColor(arrow.color)
            if isinstance(arrow.color, str) and len(arrow.color) == 9:
                fill = style.color(arrow.color)
            elif fill.alpha() == 255:
                fill.setAlpha(204)
            path = _arrow_path(
                self.square_center(arrow.from_sq), self.square_center(arrow.to_sq), size, arrow.width_frac
            )
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawPath(path)


def _arrow_path(start: QPointF, end: QPointF, square: float, width_frac: float) -> QPainterPath:
    """One closed outline (shaft and head) so a translucent arrow has no darker overlap."""
    dx, dy = end.x() - start.x(), end.y() - start.y()
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length  # along the arrow
    nx, ny = -uy, ux  # across it
    shaft = square * width_frac / 2
    head_length = square * max(0.42, width_frac * 2.6)
    head_half = square * max(0.26, width_frac * 1.6)
    tip_inset = square * 0.12  # stop short of the target square's centre
    begin_inset = square * 0.18
    tip = QPointF(end.x() - ux * tip_inset, end.y() - uy * tip_inset)
    base = QPointF(tip.x() - ux * head_length, tip.y() - uy * head_length)
    origin = QPointF(start.x() + ux * begin_inset, start.y() + uy * begin_inset)
    points = [
        QPointF(origin.x() + nx * shaft, origin.y() + ny * shaft),
        QPointF(base.x() + nx * shaft, base.y() + ny * shaft),
        QPointF(base.x() + nx * head_half, base.y() + ny * head_half),
        tip,
        QPointF(base.x() - nx * head_half, base.y() - ny * head_half),
        QPointF(base.x() - nx * shaft, base.y() - ny * shaft),
        QPointF(origin.x() - nx * shaft, origin.y() - ny * shaft),
    ]
    path = QPainterPath(points[0])
    for point in points[1:]:
        path.lineTo(point)
    path.closeSubpath()
    return path
