"""A Go board that shows a position: wood, grid, star points, coordinates, shaded stones,
the last move, the engine's candidate moves (KaTrain style), its best move and a judgement badge.

Any size from 2×2 to 25×25, rectangular too. Points are (row, col) with row 0 at the bottom.

Painting a step must stay cheap on a full board: the wood with its grid, stars and coordinates
is drawn once per size and theme into a pixmap, and each stone (with its shadow) is one cached
pixmap per colour and size; a paint blits those and draws only the few marks on top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QLinearGradient,
    QPainter,
    QPen,
    QPixmap,
    QRadialGradient,
)
from PySide6.QtWidgets import QWidget

from reviewer.core.games.go import GoPosition
from reviewer.core.gametree import GO_COLUMNS, Point
from reviewer.gui.board._common import BoardWidget, draw_badge
from reviewer.gui.common import style
from reviewer.gui.presenters.board_marks import loss_text as candidate_loss_text

ROUGH_CANDIDATE = "#8d9aa6"  # candidates of an engine whose scores are a rough estimate
_MARGIN_CELLS_WITH_COORDINATES = 1.25  # from the outer grid line to the wood's edge
_MARGIN_CELLS_PLAIN = 0.62
_BEST_RING = "#0ac8fa"  # KaTrain's cyan ring around the engine's top move
_STONE_RADIUS = 0.485  # cells
_SHADOW_OFFSET = (0.05, 0.075)  # cells, right and down
_SHADOW_SCALE = 1.08  # the shadow's radius against the stone's


@dataclass(frozen=True)
class CandidateMark:
    """One engine candidate to mark on the board.

    loss_points: points lost against the engine's best move (≥ 0 normally), from the mover's view;
    it picks KaTrain's colour class. visits: search visits (None hides the number).
    order: the engine's ranking, 0 = its choice.
    """

    point: Point
    loss_points: float
    visits: int | None = None
    is_best: bool = False
    order: int = 0


def star_points(width: int, height: int) -> list[Point]:
    """Hoshi: 4-4 points on large boards, 3-3 on small ones, the centre of odd boards,
    and the side stars on odd boards of 15 lines and more."""

    def corner_line(size: int) -> int | None:
        if size >= 13:
            return 3
        if size >= 7:
            return 2
        return None

    points: set[Point] = set()
    row_line, col_line = corner_line(height), corner_line(width)
    if row_line is not None and col_line is not None:
        rows = (row_line, height - 1 - row_line)
        cols = (col_line, width - 1 - col_line)
        points.update((r, c) for r in rows for c in cols)
        if height % 2 == 1 and width % 2 == 1 and min(width, height) >= 15:
            middle_row, middle_col = height // 2, width // 2
            points.update({(middle_row, c) for c in cols} | {(r, middle_col) for r in rows})
    if height % 2 == 1 and width % 2 == 1 and min(width, height) >= 5:
        points.add((height // 2, width // 2))
    return sorted(points)


def _visits_text(visits: int) -> str:
    if visits >= 10_000:
        return f"{visits / 1000:.0f}k"
    if visits >= 1000:
        return f"{visits / 1000:.1f}k"
    return str(visits)


class GoBoardWidget(BoardWidget):
    """Signals:
    wheel_steps(int): +1 per wheel notch towards the user (forward), -1 away (back).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._position = GoPosition(19, 19, frozenset(), frozenset())
        self._candidates: list[CandidateMark] = []
        self._rough_candidates = False
        self._badge: tuple[Point, str] | None = None
        self._best_move: Point | None = None
        self._focus: frozenset[Point] = frozenset()
        self._focus_outline = "#e8491d"
        self._why_line: tuple[tuple[Point, str, int], ...] = ()
        self._stone_pixmaps: dict[tuple[str, float, float], tuple[QPixmap, float]] = {}

    # ------------------------------------------------------------------------------- API

    def set_position(self, pos: GoPosition) -> None:
        self._position = pos
        self.update()

    def position(self) -> GoPosition:
        return self._position

    def set_candidates(self, candidates: list[CandidateMark], rough: bool = False) -> None:
        """Candidate moves drawn on empty points; an empty list clears them. `rough`: the engine's
        scores are a rough estimate, so the marks are one neutral grey instead of KaTrain's
        loss colours (which read as judgements)."""
        self._candidates = list(candidates)
        self._rough_candidates = rough
        self.update()

    @property
    def candidates(self) -> list[CandidateMark]:
        return list(self._candidates)

    def shown_candidates(self) -> list[CandidateMark]:
        """The candidate marks drawn: none on a stone, none under something drawn on their point."""
        hidden = self._position.black | self._position.white | self._covered_points()
        return [mark for mark in self._candidates if mark.point not in hidden]

    def _covered_points(self) -> set[Point]:
        """Points whose own drawing (a numbered stone of a line) a candidate mark would overlap."""
        return set()

    @property
    def candidates_rough(self) -> bool:
        """Whether the candidates are drawn as a rough estimate (neutral grey)."""
        return self._rough_candidates

    def set_move_badge(self, point: Point | None, judgement: str | None) -> None:
        """A round badge with ?!/?/?? (or ! for best) beside the stone at `point`; None clears it."""
        if point is None or not judgement or not style.judgement_symbol(judgement, show_best=True):
            self._badge = None
        else:
            self._badge = (point, judgement)
        self.update()

    def set_best_move(self, point: Point | None) -> None:
        """Ring the engine's best move (e.g. the one the player should have played); None clears."""
        self._best_move = point
        self.update()

    def set_show_coordinates(self, show: bool) -> None:
        self._show_coordinates = show
        self.update()

    def set_focus(self, points: frozenset[Point], outline: str = "#e8491d") -> None:
        """Points an explanation is about (a group that can be killed), each ringed in `outline`."""
        self._focus = frozenset(points)
        self._focus_outline = outline
        self.update()

    def focus(self) -> frozenset[Point]:
        return self._focus

    def set_why_line(self, moves: tuple[tuple[Point, str, int], ...]) -> None:
        """The first moves of the line that refutes the move: (point, colour, number) each, drawn
        as numbered translucent stones on empty points."""
        self._why_line = tuple(moves)
        self.update()

    def why_line(self) -> tuple[tuple[Point, str, int], ...]:
        return self._why_line

    # -------------------------------------------------------------------------- geometry

    def _margin_cells(self) -> float:
        return _MARGIN_CELLS_WITH_COORDINATES if self._show_coordinates else _MARGIN_CELLS_PLAIN

    def cell_size(self) -> float:
        """Distance between two grid lines, in widget pixels."""
        margin = 2 * self._margin_cells()
        width, height = self._position.width, self._position.height
        return max(1.0, min(self.width() / (width - 1 + margin), self.height() / (height - 1 + margin)))

    def wood_rect(self) -> QRectF:
        cell, margin = self.cell_size(), self._margin_cells()
        wood_width = (self._position.width - 1 + 2 * margin) * cell
        wood_height = (self._position.height - 1 + 2 * margin) * cell
        ratio = self.devicePixelRatioF()
        left = round((self.width() - wood_width) / 2 * ratio) / ratio
        top = round((self.height() - wood_height) / 2 * ratio) / ratio
        return QRectF(left, top, wood_width, wood_height)

    def point_center(self, point: Point) -> QPointF:
        """Where the intersection `point` = (row, col) is drawn, in widget coordinates."""
        cell, margin = self.cell_size(), self._margin_cells()
        wood = self.wood_rect()
        row, col = point
        x = wood.left() + (margin + col) * cell
        y = wood.top() + (margin + self._position.height - 1 - row) * cell
        return QPointF(x, y)

    def point_at(self, position: QPointF) -> Point | None:
        """The intersection nearest to a widget position, or None off the grid."""
        cell = self.cell_size()
        origin = self.point_center((self._position.height - 1, 0))  # top-left intersection
        col = round((position.x() - origin.x()) / cell)
        row = self._position.height - 1 - round((position.y() - origin.y()) / cell)
        if 0 <= row < self._position.height and 0 <= col < self._position.width:
            return (row, col)
        return None

    # ---------------------------------------------------------------------------- Qt API

    def sizeHint(self) -> QSize:
        return QSize(520, 520)

    def heightForWidth(self, width: int) -> int:
        margin = 2 * self._margin_cells()
        return round(width * (self._position.height - 1 + margin) / (self._position.width - 1 + margin))

    def _paint_marks(self, painter: QPainter, theme: style.Theme) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self._paint_stones(painter)
        self._paint_candidates(painter)
        self._paint_best_move(painter)
        self._paint_last_move(painter)
        self._paint_why(painter)
        if self._badge is not None:
            point, judgement = self._badge
            cell = self.cell_size()
            radius = max(5.0, cell * 0.25)
            center = self.point_center(point) + QPointF(cell * 0.36, -cell * 0.36)
            draw_badge(painter, center, radius, judgement)

    def _background_state(self) -> tuple[int, int, bool]:
        return self._position.width, self._position.height, self._show_coordinates

    def _paint_background(self, painter: QPainter, theme: style.Theme) -> None:
        """Wood, grid, star points and coordinates."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self._paint_wood(painter, theme)
        self._paint_grid(painter, theme)
        if self._show_coordinates:
            self._paint_coordinates(painter, theme)

    # --------------------------------------------------------------------------- painting

    def _paint_wood(self, painter: QPainter, theme: style.Theme) -> None:
        wood = self.wood_rect()
        base = QColor(theme.wood)
        gradient = QLinearGradient(wood.topLeft(), wood.bottomRight())
        gradient.setColorAt(0.0, base.lighter(108))
        gradient.setColorAt(0.55, base)
        gradient.setColorAt(1.0, base.darker(106))
        radius = min(wood.width(), wood.height()) * 0.008
        painter.setPen(QPen(QColor(theme.wood_edge).darker(115), 1.0))
        painter.setBrush(QBrush(gradient))
        painter.drawRoundedRect(wood.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        # faint grain: long soft bands across the board
        painter.save()
        painter.setClipRect(wood)
        painter.setPen(Qt.PenStyle.NoPen)
        bands = 11
        for index in range(bands):
            phase = math.sin(index * 12.9898) * 0.5 + 0.5
            y = wood.top() + wood.height() * (index + phase * 0.6) / bands
            height = wood.height() / bands * (0.25 + 0.35 * phase)
            grain = QColor(120, 80, 20, int(4 + 6 * phase))
            painter.setBrush(grain)
            painter.drawRect(QRectF(wood.left(), y, wood.width(), height))
        painter.restore()

    def _crisp(self, value: float, line_width_device: int) -> float:
        """Snap a line coordinate to the device pixel grid so thin lines stay sharp."""
        ratio = self.devicePixelRatioF()
        offset = 0.5 if line_width_device % 2 == 1 else 0.0
        return (math.floor(value * ratio) + offset) / ratio

    def _paint_grid(self, painter: QPainter, theme: style.Theme) -> None:
        cell, ratio = self.cell_size(), self.devicePixelRatioF()
        width, height = self._position.width, self._position.height
        inner_device = max(1, round(cell * 0.035 * ratio))
        outer_device = max(inner_device + 1, round(cell * 0.07 * ratio))
        top_left = self.point_center((height - 1, 0))
        bottom_right = self.point_center((0, width - 1))
        xs = [self._crisp(self.point_center((0, c)).x(), inner_device) for c in range(width)]
        ys = [self._crisp(self.point_center((r, 0)).y(), inner_device) for r in range(height)]
        grid_color = QColor(theme.grid)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        pen = QPen(grid_color, inner_device / ratio)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
        left, right, top, bottom = xs[0], xs[-1], ys[-1], ys[0]
        for x in xs[1:-1]:
            painter.drawLine(QPointF(x, top), QPointF(x, bottom))
        for y in ys[1:-1]:
            painter.drawLine(QPointF(left, y), QPointF(right, y))
        outer = QPen(grid_color, outer_device / ratio)
        outer.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(outer)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if width > 1 and height > 1:
            painter.drawRect(QRectF(QPointF(left, top), QPointF(right, bottom)))
        else:
            painter.drawLine(top_left, bottom_right)
        painter.restore()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(grid_color)
        star = max(1.5, cell * 0.1)
        for point in star_points(width, height):
            painter.drawEllipse(self.point_center(point), star, star)

    def _paint_coordinates(self, painter: QPainter, theme: style.Theme) -> None:
        cell = self.cell_size()
        width, height = self._position.width, self._position.height
        painter.setFont(style.pixel_font(max(7.0, cell * 0.36), bold=True))
        text_color = QColor(theme.grid)
        text_color.setAlpha(190)
        painter.setPen(text_color)
        offset = cell * 0.88
        box = cell * 1.2
        center = Qt.AlignmentFlag.AlignCenter
        for col in range(width):
            letter = GO_COLUMNS[col] if col < len(GO_COLUMNS) else "?"
            top = self.point_center((height - 1, col))
            bottom = self.point_center((0, col))
            for anchor in (top - QPointF(0, offset), bottom + QPointF(0, offset)):
                painter.drawText(QRectF(anchor.x() - box / 2, anchor.y() - box / 2, box, box), center, letter)
        for row in range(height):
            left = self.point_center((row, 0))
            right = self.point_center((row, width - 1))
            for anchor in (left - QPointF(offset, 0), right + QPointF(offset, 0)):
                painter.drawText(QRectF(anchor.x() - box / 2, anchor.y() - box / 2, box, box), center, str(row + 1))

    def _paint_stones(self, painter: QPainter) -> None:
        position = self._position
        if not position.black and not position.white:
            return
        cell, margin = self.cell_size(), self._margin_cells()
        wood = self.wood_rect()
        left = wood.left() + margin * cell
        top = wood.top() + (margin + position.height - 1) * cell  # y of row 0
        ratio = self.devicePixelRatioF()
        black, black_half = self._stone_pixmap("black", cell, ratio)
        white, white_half = self._stone_pixmap("white", cell, ratio)
        stones = [(point, black, black_half) for point in position.black]
        stones += [(point, white, white_half) for point in position.white]
        # Top row first, left to right: the stones below and to the right of a stone cover its
        # shadow where it would fall on them, as if every shadow had been drawn first.
        stones.sort(key=lambda stone: (-stone[0][0], stone[0][1]))
        draw = painter.drawPixmap
        for (row, col), pixmap, half in stones:
            x = round((left + col * cell) * ratio - half) / ratio
            y = round((top - row * cell) * ratio - half) / ratio
            draw(QPointF(x, y), pixmap)

    def _stone_pixmap(self, color: str, cell: float, ratio: float) -> tuple[QPixmap, float]:
        """A stone with its soft shadow, centred in the pixmap; and that centre in device pixels."""
        key = (color, round(cell, 2), ratio)
        cached = self._stone_pixmaps.get(key)
        if cached is not None:
            return cached
        if len(self._stone_pixmaps) > 16:
            self._stone_pixmaps.clear()
        radius = cell * _STONE_RADIUS * ratio
        shadow_radius = radius * _SHADOW_SCALE
        dx, dy = _SHADOW_OFFSET[0] * cell * ratio, _SHADOW_OFFSET[1] * cell * ratio
        half = math.ceil(shadow_radius + max(dx, dy)) + 1
        image = QImage(2 * half, 2 * half, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setPen(Qt.PenStyle.NoPen)
            center = QPointF(half, half)
            shadow_center = center + QPointF(dx, dy)
            shadow = QRadialGradient(shadow_center, shadow_radius)
            shadow.setColorAt(0.0, QColor(0, 0, 0, 110))
            shadow.setColorAt(0.82, QColor(0, 0, 0, 80))
            shadow.setColorAt(1.0, QColor(0, 0, 0, 0))
            painter.setBrush(QBrush(shadow))
            painter.drawEllipse(shadow_center, shadow_radius, shadow_radius)
            highlight = center + QPointF(-radius * 0.35, -radius * 0.4)
            if color == "black":
                gradient = QRadialGradient(center, radius, highlight)
                gradient.setColorAt(0.0, QColor("#6b6b6b"))
                gradient.setColorAt(0.35, QColor("#2c2c2c"))
                gradient.setColorAt(1.0, QColor("#0a0a0a"))
            else:
                gradient = QRadialGradient(center, radius * 1.05, highlight)
                gradient.setColorAt(0.0, QColor("#ffffff"))
                gradient.setColorAt(0.55, QColor("#f1efea"))
                gradient.setColorAt(1.0, QColor("#c9c5bd"))
                painter.setPen(QPen(QColor(0, 0, 0, 70), max(0.6, cell * 0.02) * ratio))
            painter.setBrush(QBrush(gradient))
            painter.drawEllipse(center, radius, radius)
        finally:
            painter.end()
        pixmap = QPixmap.fromImage(image)
        pixmap.setDevicePixelRatio(ratio)
        self._stone_pixmaps[key] = (pixmap, float(half))
        return pixmap, float(half)

    def _paint_candidates(self, painter: QPainter) -> None:
        if not self._candidates:
            return
        cell = self.cell_size()
        radius = cell * 0.46
        shown = self.shown_candidates()
        show_text = cell >= 22
        loss_font = style.pixel_font(cell * 0.34, bold=True)
        visits_font = style.pixel_font(cell * 0.26)
        for mark in sorted(shown, key=lambda m: -m.order):
            center = self.point_center(mark.point)
            if self._rough_candidates:
                fill = QColor(ROUGH_CANDIDATE)
            else:
                fill = style.go_loss_color(max(0.0, mark.loss_points))
            fill.setAlpha(190 if mark.is_best else 150)
            painter.setBrush(fill)
            if mark.is_best:
                painter.setPen(QPen(QColor(_BEST_RING), max(1.5, cell * 0.08)))
            else:
                painter.setPen(QPen(QColor(0, 0, 0, 60), max(0.6, cell * 0.02)))
            painter.drawEllipse(center, radius, radius)
            if not show_text:
                continue
            dark_fill = fill.lightness() < 110
            painter.setPen(QColor("#ffffff") if dark_fill else QColor("#111111"))
            loss_text = candidate_loss_text("go", mark.loss_points)
            if mark.visits is None:
                painter.setFont(loss_font)
                box = QRectF(center.x() - radius, center.y() - radius, 2 * radius, 2 * radius)
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, loss_text)
                continue
            painter.setFont(loss_font)
            top = QRectF(center.x() - radius, center.y() - radius * 0.78, 2 * radius, radius * 0.86)
            painter.drawText(top, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom, loss_text)
            painter.setFont(visits_font)
            bottom = QRectF(center.x() - radius, center.y() + radius * 0.04, 2 * radius, radius * 0.7)
            painter.drawText(bottom, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, _visits_text(mark.visits))
        painter.setPen(Qt.PenStyle.NoPen)

    def _paint_best_move(self, painter: QPainter) -> None:
        if self._best_move is None:
            return
        cell = self.cell_size()
        center = self.point_center(self._best_move)
        occupied = self._position.stone_at(self._best_move) is not None
        ring = QColor(_BEST_RING)
        if not occupied and not any(mark.point == self._best_move for mark in self._candidates):
            fill = QColor(_BEST_RING)
            fill.setAlpha(70)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawEllipse(center, cell * 0.42, cell * 0.42)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(ring, max(1.5, cell * 0.085)))
        painter.drawEllipse(center, cell * 0.44, cell * 0.44)

    def _paint_why(self, painter: QPainter) -> None:
        cell = self.cell_size()
        if self._focus:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor(self._focus_outline), max(1.5, cell * 0.1)))
            for point in self._focus:
                painter.drawEllipse(self.point_center(point), cell * 0.5, cell * 0.5)
        for point, color, number in self._why_line:
            if self._position.stone_at(point) is not None:
                continue
            center = self.point_center(point)
            fill = QColor("#111111" if color == "black" else "#f4f4f4")
            fill.setAlpha(235)  # over a candidate mark on the same point
            painter.setPen(QPen(QColor(self._focus_outline), max(1.2, cell * 0.06)))
            painter.setBrush(fill)
            painter.drawEllipse(center, cell * 0.4, cell * 0.4)
            painter.setPen(QColor("#ffffff" if color == "black" else "#111111"))
            painter.setFont(style.pixel_font(max(7.0, cell * 0.42), bold=True))
            box = QRectF(center.x() - cell * 0.5, center.y() - cell * 0.5, cell, cell)
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), str(number))
        painter.setPen(Qt.PenStyle.NoPen)

    def _paint_last_move(self, painter: QPainter) -> None:
        point = self._position.last_move
        if point is None:
            return
        stone = self._position.stone_at(point)
        if stone is None:
            return
        cell = self.cell_size()
        marker = QColor("#ffffff") if stone == "black" else QColor("#1a1a1a")
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(marker, max(1.2, cell * 0.065)))
        painter.drawEllipse(self.point_center(point), cell * 0.22, cell * 0.22)
