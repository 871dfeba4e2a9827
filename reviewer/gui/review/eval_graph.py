"""The evaluation graph: the curve over the game with lichess-style areas, loss bars coloured by
judgement underneath, and a cursor at the current move.

Positions a partial analysis did not reach are shaded grey and the curve breaks there; an
engine setting that may not label moves gets a "rough estimate" tag and neutral bars.

Click anywhere on either plot to pick that ply; drag the cursor to scrub. Updates only call
`setData`/`setOpts` on items made once, so calling `set_series` after every evaluation is cheap.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QLabel, QVBoxLayout, QWidget

from reviewer.core.games import game_support
from reviewer.core.games.support import ValueStyle
from reviewer.gui.common import style

_CP_CLAMP = 1000.0
_WIN_SLOPE = 0.00368208  # SCORING.md: win(x) = 50 + 50·(2/(1+exp(-0.00368208·x)) - 1)
# Each graph scale by what it draws: a game's (win chance, value) modes are one of these, read from
# its values' style (`ScoreUnits.style`): "pawns" draws win % or centipawns, "lead" winrate or points.
Scale = Literal["win", "cp", "winrate", "lead"]
_SCALES: dict[ValueStyle, tuple[Scale, Scale]] = {"pawns": ("win", "cp"), "lead": ("winrate", "lead")}
_FIXED_RANGES = {"win": 50.0, "winrate": 50.0}  # half-height around the middle
# Pawns and points have no natural bound: by default the range is symmetric, holds every value
# (rounded up to a round number, so it changes seldom while an analysis streams in) and is at
# least this high; a cp graph never goes past the ±10 pawns the values are clamped to.
_MIN_DATA_HALF = {"cp": 3.0, "lead": 10.0}
_NICE_MANTISSAS = (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
_MIN_AUTO_HALF = {"win": 10.0, "winrate": 10.0, "cp": 1.0, "lead": 2.0}
_AXIS_WIDTH = 38
_BAR_WIDTH = 0.72  # plies
AXIS_WIDTH_PX, BAR_WIDTH_PLIES = _AXIS_WIDTH, _BAR_WIDTH  # for the charts drawn on the same move axis
_GAP_SPAN = 1e4  # a gap band's height in data units: taller than any mode's range
ROUGH_TAG = "Rough estimate · no labels"


def win_percent_white(cp_white: float) -> float:
    """Lichess's win chance for White (0–100) from a centipawn evaluation (White's view)."""
    clamped = max(-_CP_CLAMP, min(_CP_CLAMP, cp_white))
    return 50 + 50 * (2 / (1 + math.exp(-_WIN_SLOPE * clamped)) - 1)


def _with_crossings(xs: np.ndarray, ys: np.ndarray, middle: float) -> tuple[np.ndarray, np.ndarray]:
    """Insert the points where the polyline crosses `middle`, so the two filled areas meet exactly."""
    if len(xs) < 2:
        return xs, ys
    above = ys - middle
    crossing = np.nonzero(above[:-1] * above[1:] < 0)[0]
    if len(crossing) == 0:
        return xs, ys
    t = above[crossing] / (above[crossing] - above[crossing + 1])
    cross_x = xs[crossing] + t * (xs[crossing + 1] - xs[crossing])
    all_x = np.insert(xs, crossing + 1, cross_x)
    all_y = np.insert(ys, crossing + 1, np.full(len(crossing), middle))
    return all_x, all_y


def _round_step(limit: float) -> float:
    """The largest 1-2-5 number (…, 0.5, 1, 2, 5, 10, …) not above `limit`."""
    if limit <= 0:
        return 1.0
    exponent = math.floor(math.log10(limit))
    for mantissa in (5.0, 2.0, 1.0):
        value = mantissa * 10.0**exponent
        if value <= limit:
            return value
    return 10.0**exponent


def _nice_ceiling(value: float) -> float:
    """The smallest round number (1, 1.5, 2, 3, 4, 5, 6, 8 times a power of ten) not below `value`."""
    if value <= 0:
        return 0.0
    scale = 10.0 ** math.floor(math.log10(value))
    for mantissa in _NICE_MANTISSAS:
        if mantissa * scale >= value * (1 - 1e-9):
            return mantissa * scale
    return 10.0 * scale


def _area_path(xs: np.ndarray, ys: np.ndarray, level: float) -> QPainterPath:
    """The closed area between a polyline and the horizontal line y = level."""
    path = QPainterPath()
    if len(xs) < 2:
        return path
    path.moveTo(float(xs[0]), level)
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        path.lineTo(x, y)
    path.lineTo(float(xs[-1]), level)
    path.closeSubpath()
    return path


def _runs(plies: tuple[int, ...]) -> list[tuple[int, int]]:
    """Consecutive plies as (first, last) runs."""
    runs: list[tuple[int, int]] = []
    for ply in sorted(plies):
        if runs and ply == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], ply)
        else:
            runs.append((ply, ply))
    return runs


def _broken_at_gaps(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The curve with a NaN between plies that are not neighbours, so it does not bridge a gap."""
    if len(xs) < 2:
        return xs, ys
    breaks = np.nonzero(np.diff(xs) > 1)[0] + 1
    if not len(breaks):
        return xs, ys
    return np.insert(xs, breaks, np.nan), np.insert(ys, breaks, np.nan)



def ply_at_scene(plots: tuple[pg.PlotItem, ...], position: QPointF, max_ply: int) -> int | None:
    """The ply under a scene position on any of `plots` sharing the move axis (None: off them)."""
    for plot in plots:
        if plot.vb.sceneBoundingRect().contains(position):
            return max(0, min(max_ply, round(float(plot.vb.mapSceneToView(position).x()))))
    return None

class EvalGraphWidget(QWidget):
    """Signals:
    ply_clicked(int): the user picked a ply — clicked a plot, or let go of the dragged cursor.
    ply_scrubbed(int): the dragged cursor passed over a new ply (while the button is down).
    """

    ply_clicked = Signal(int)
    ply_scrubbed = Signal(int)

    cursor: Any  # the ply cursor, a pyqtgraph line (QWidget.cursor is not used)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kind = "chess"
        self._mode = "win"
        self._scale: Scale = "win"
        self._auto_range = False
        self._ply_count = 0
        self._max_ply = 0
        self._current_ply = 0
        self._last_scrubbed: int | None = None
        self._y_values: dict[int, float] = {}

        self.view = pg.GraphicsLayoutWidget()
        self.view.setAntialiasing(True)
        self.view.ci.setContentsMargins(2, 4, 6, 2)
        self.view.ci.setSpacing(0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)

        self.eval_plot: pg.PlotItem = self.view.addPlot(row=0, col=0)
        self.loss_plot: pg.PlotItem = self.view.addPlot(row=1, col=0)
        self.view.ci.layout.setRowStretchFactor(0, 3)
        self.view.ci.layout.setRowStretchFactor(1, 1)
        for plot in (self.eval_plot, self.loss_plot):
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.setMouseEnabled(x=False, y=False)
            plot.vb.disableAutoRange()
            plot.hideAxis("bottom")
            plot.getAxis("left").setWidth(_AXIS_WIDTH)
            plot.vb.setDefaultPadding(0.0)
        self.loss_plot.setXLink(self.eval_plot)

        # One path per area (not PlotDataItem fills, which draw in chunks and leave seams).
        self._white_area = QGraphicsPathItem()
        self._black_area = QGraphicsPathItem()
        self._curve = pg.PlotDataItem(antialias=True)
        self._marks = pg.ScatterPlotItem(antialias=True)
        self._middle = pg.InfiniteLine(angle=0, movable=False)
        for item in (self._white_area, self._black_area, self._middle, self._curve, self._marks):
            self.eval_plot.addItem(item)
        # The loss bars: one path of rectangles per colour (a few fills, however long the game).
        self._bar_paths: dict[str | None, QGraphicsPathItem] = {}
        for judgement in (None, *style.FLAGGED_JUDGEMENTS):
            bars = QGraphicsPathItem()
            bars.setPen(QPen(Qt.PenStyle.NoPen))
            self._bar_paths[judgement] = bars
            self.loss_plot.addItem(bars)

        self.cursor = pg.InfiniteLine(pos=0, angle=90, movable=True)
        self.cursor.setZValue(20)
        self.cursor.sigPositionChanged.connect(self._on_cursor_moved)
        self.cursor.sigPositionChangeFinished.connect(self._on_cursor_released)
        self.eval_plot.addItem(self.cursor, ignoreBounds=True)
        self._loss_cursor = pg.InfiniteLine(pos=0, angle=90, movable=False)
        self._loss_cursor.setZValue(20)
        self.loss_plot.addItem(self._loss_cursor, ignoreBounds=True)

        # Moving the cursor repaints the strips it leaves and enters: the items under it are
        # blitted from their cached pixmaps, not painted again (pyqtgraph's paint is Python).
        for item in (self._white_area, self._black_area, self._curve.curve, self._marks, self._middle, *self._bar_paths.values()):
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

        # Positions not analysed (a partial analysis): grey bands behind the curve.
        self._gaps = QGraphicsPathItem()
        self._gaps.setPen(QPen(Qt.PenStyle.NoPen))
        self._gaps.setZValue(1)  # over the areas, under the curve
        self._curve.setZValue(2)
        self._marks.setZValue(3)
        self.eval_plot.addItem(self._gaps, ignoreBounds=True)
        self._missing: tuple[int, ...] = ()
        self._point_texts: dict[int, str] = {}
        self.rough_label = QLabel(ROUGH_TAG, self)
        self.rough_label.setObjectName("graph-rough")
        self.rough_label.hide()
        self.partial_label = QLabel(self)  # what a graph that is not final stands on
        self.partial_label.setObjectName("graph-partial")
        self.partial_label.hide()

        self.view.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self.view.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._apply_theme()
        self._update_ranges()

    # ------------------------------------------------------------------------------- API

    def set_series(
        self,
        kind: str,
        evals: dict[int, float],
        losses: dict[int, float],
        judgements: dict[int, str | None],
        mode: str,
        ply_count: int | None = None,
    ) -> None:
        """Show a game's evaluations; plies missing from the dicts are simply not drawn yet.

        kind: a registered game; mode: one of its `graph_modes`, drawn on the scale its values'
          style gives (`_SCALES`).
        evals: ply → evaluation of position `ply`, in the unit the mode reads:
          chess (either mode): E(P), centipawns for White (mates as ±1000) — "win" draws White's
          win % (0–100), "cp" pawns clamped to ±10;
          Go "lead": S(P), score lead for Black in points; Go "winrate": W(P) for Black, 0–1.
        losses: ply → loss of move `ply` (chess: the mover's drop in win %, the quantity the judgements
          read, so a bar's height ranks mistakes as their labels do; Go: points_lost; negatives show as 0).
        judgements: ply → judgement of move `ply`, which colours its bar and its dot on the curve.
        ply_count: the number of moves in the main line (sets the x range before analysis ends);
          by default the largest ply in the data.
        """
        try:
            allowed = game_support(kind).graph_modes
        except ValueError:
            raise ValueError(f"unknown game kind {kind!r}") from None
        if mode not in allowed:
            raise ValueError(f"mode {mode!r} does not apply to {kind}; use one of {', '.join(allowed)}")
        restyle = kind != self._kind
        self._kind, self._mode = kind, mode
        self._scale = _SCALES[game_support(kind).scores.style][allowed.index(mode)]
        if ply_count is not None:
            self._ply_count = ply_count
        self._max_ply = max([self._ply_count, *evals.keys(), *losses.keys(), 0])
        if restyle:
            self._apply_theme()

        plies = sorted(evals)
        xs = np.array(plies, dtype=float)
        ys = np.array([self._to_y(evals[ply]) for ply in plies], dtype=float)
        self._y_values = dict(zip(plies, ys.tolist(), strict=True))
        middle = self._middle_value()
        self._middle.setPos(middle)
        fill_x, fill_y = _with_crossings(xs, ys, middle)
        self._white_area.setPath(_area_path(fill_x, np.maximum(fill_y, middle), middle))
        self._black_area.setPath(_area_path(fill_x, np.minimum(fill_y, middle), middle))
        self._curve.setData(*_broken_at_gaps(xs, ys), connect="finite")

        marked = sorted(p for p, j in judgements.items() if j in style.FLAGGED_JUDGEMENTS and p in self._y_values)
        self._marks.setData(
            x=marked,
            y=[self._y_values[p] for p in marked],
            brush=[self._brushes[judgements[p]] for p in marked],
            size=7,
            pen=self._mark_pen,
        )

        cap = game_support(kind).scores.loss_cap  # bigger losses stop at the top
        paths = {judgement: QPainterPath() for judgement in self._bar_paths}
        highest = 0.0
        for ply, loss in losses.items():
            height = min(cap, max(0.0, float(loss)))
            if height <= 0:
                continue
            judgement = judgements.get(ply)
            path = paths[judgement if judgement in style.FLAGGED_JUDGEMENTS else None]
            path.addRect(ply - _BAR_WIDTH / 2, 0.0, _BAR_WIDTH, height)
            highest = max(highest, height)
        for judgement, item in self._bar_paths.items():
            item.setPath(paths[judgement])
        self._loss_top = max(game_support(kind).scores.loss_floor, highest) * 1.08  # bars never fill the plot for tiny losses
        self._update_ranges()

    def set_coverage(self, missing_plies: tuple[int, ...] | list[int], rough: bool = False, partial_text: str = "") -> None:
        """Shade the positions a partial analysis did not reach; tag the graph as a rough estimate,
        and with `partial_text` (what it stands on) while it is not final."""
        self._missing = tuple(missing_plies)
        path = QPainterPath()
        for first, last in _runs(self._missing):
            path.addRect(first - 0.5, -_GAP_SPAN, last - first + 1.0, 2 * _GAP_SPAN)
        self._gaps.setPath(path)
        self.rough_label.setVisible(rough)
        self.rough_label.adjustSize()
        self.rough_label.move(_AXIS_WIDTH + 8, 6)
        self.partial_label.setText(partial_text)
        self.partial_label.setVisible(bool(partial_text))
        self.partial_label.adjustSize()
        left = _AXIS_WIDTH + 8 + (self.rough_label.width() + 6 if rough else 0)
        self.partial_label.move(left, 6)

    def partial_text(self) -> str:
        """The tag of a graph that is not final ('' when it is)."""
        return self.partial_label.text() if not self.partial_label.isHidden() else ""

    def missing_plies(self) -> tuple[int, ...]:
        return self._missing

    def set_point_texts(self, texts: dict[int, str]) -> None:
        """Ply → what the tooltip says there ('12. Nf3  +0.41', '30… Qh4  #-2', 'not analysed')."""
        self._point_texts = dict(texts)

    def tooltip_at(self, ply: int) -> str:
        return self._point_texts.get(ply, "")

    def set_current_ply(self, ply: int) -> None:
        """Move the cursor (no signal is emitted)."""
        self._current_ply = ply
        if not self.cursor.moving:
            self.cursor.blockSignals(True)
            self.cursor.setPos(ply)
            self.cursor.blockSignals(False)
        self._loss_cursor.setPos(ply)

    def set_auto_range(self, auto: bool) -> None:
        """True: the y range hugs the data (centred on the middle). False, the default: win chances
        show 0–100 %; pawns and points a round, symmetric range that holds every value."""
        self._auto_range = auto
        self._update_ranges()

    def current_ply(self) -> int:
        return self._current_ply

    def mode(self) -> str:
        return self._mode

    def plotted_plies(self) -> tuple[int, ...]:
        """The plies the curve has a point at."""
        return tuple(sorted(self._y_values))

    def scene_pos_for(self, ply: float, y: float | None = None, plot: str = "eval") -> QPointF:
        """Where a data point is in the scene (tests and overlays): plot is "eval" or "loss"."""
        target = self.eval_plot if plot == "eval" else self.loss_plot
        if y is None:
            y = self._y_values.get(round(ply), self._middle_value()) if plot == "eval" else 0.0
        return target.vb.mapViewToScene(QPointF(ply, y))  # type: ignore[no-any-return]

    # ------------------------------------------------------------------------ conversions

    def _to_y(self, value: float) -> float:
        if self._scale == "win":
            return win_percent_white(value)
        if self._scale == "cp":
            return max(-_CP_CLAMP, min(_CP_CLAMP, value)) / 100.0
        if self._scale == "winrate":
            return value * 100.0 if value <= 1.0 else value
        return value  # lead

    def _middle_value(self) -> float:
        return 50.0 if self._scale in ("win", "winrate") else 0.0

    # ------------------------------------------------------------------------------ ranges

    def _update_ranges(self) -> None:
        right = max(1, self._max_ply)
        self.eval_plot.vb.setXRange(0, right, padding=0.01)
        middle = self._middle_value()
        spread = max((abs(y - middle) for y in self._y_values.values()), default=0.0)
        if self._auto_range and self._y_values:
            half = max(_MIN_AUTO_HALF[self._scale], spread * 1.1)
            if self._scale in ("win", "winrate"):
                half = min(50.0, half)
        elif self._scale in _MIN_DATA_HALF:
            half = max(_MIN_DATA_HALF[self._scale], _nice_ceiling(spread * 1.04))
            if self._scale == "cp":
                half = min(half, _CP_CLAMP / 100.0)
        else:
            half = _FIXED_RANGES[self._scale]
        self.eval_plot.vb.setYRange(middle - half, middle + half, padding=0.02)
        self.loss_plot.vb.setYRange(0, getattr(self, "_loss_top", game_support(self._kind).scores.loss_floor), padding=0)
        self.cursor.setBounds((0, right))
        self._set_ticks(middle, half)

    def _set_ticks(self, middle: float, half: float) -> None:
        """Three labels at most (the middle and a round value either side): the plot is short."""
        axis = self.eval_plot.getAxis("left")
        if self._scale in ("win", "winrate"):
            step = 50.0 if half >= 40 else _round_step(half * 0.8)
            values = [middle - step, middle, middle + step]
            axis.setTicks([[(value, f"{value:.0f}%") for value in values], []])
            return
        step = _round_step(half * 0.8)
        labels = [(middle - step, f"−{step:g}"), (middle, "0"), (middle + step, f"+{step:g}")]
        axis.setTicks([labels, []])

    # ------------------------------------------------------------------------------ events

    def _ply_from_x(self, x: float) -> int:
        return max(0, min(self._max_ply, round(x)))

    def _on_scene_clicked(self, event: Any) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        ply = ply_at_scene((self.eval_plot, self.loss_plot), event.scenePos(), self._max_ply)
        if ply is not None:
            self.set_current_ply(ply)
            self.ply_clicked.emit(ply)
            event.accept()

    def _on_mouse_moved(self, position: QPointF) -> None:
        ply = ply_at_scene((self.eval_plot, self.loss_plot), position, self._max_ply)
        self.view.setToolTip("" if ply is None else self.tooltip_at(ply))

    def _on_cursor_moved(self, line: pg.InfiniteLine) -> None:
        self._loss_cursor.setPos(line.value())
        if not line.moving:
            return
        ply = self._ply_from_x(line.value())
        if ply != self._last_scrubbed:
            self._last_scrubbed = ply
            self.ply_scrubbed.emit(ply)

    def _on_cursor_released(self, line: pg.InfiniteLine) -> None:
        ply = self._ply_from_x(line.value())
        self._last_scrubbed = None
        self.set_current_ply(ply)
        self.ply_clicked.emit(ply)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
        super().changeEvent(event)

    # ------------------------------------------------------------------------------- theme

    def _theme(self) -> style.Theme:
        return style.theme_for(self)

    def _apply_theme(self) -> None:
        theme = self._theme()
        neutral = QColor(theme.graph_axis)
        neutral.setAlpha(150)
        # flagged moves in their judgement's colour; every other bar (and None) neutral
        self._brushes: dict[str | None, QBrush] = {None: QBrush(neutral)}
        for judgement in style.JUDGEMENTS:
            flagged = judgement in style.FLAGGED_JUDGEMENTS
            self._brushes[judgement] = QBrush(style.judgement_color(judgement) if flagged else neutral)
        self._mark_pen = pg.mkPen(QColor(theme.graph_background), width=1.2)
        gap = QColor(theme.graph_axis)
        gap.setAlpha(70)
        self._gaps.setBrush(gap)
        tag_background = QColor(theme.graph_background)
        self.rough_label.setStyleSheet(
            f"QLabel#graph-rough {{ color: {theme.text}; background: {tag_background.name()};"
            f" border: 1px solid {theme.graph_axis}; border-radius: 3px; padding: 1px 6px; }}"
        )
        self.partial_label.setStyleSheet(
            f"QLabel#graph-partial {{ color: {theme.warning_text}; background: {tag_background.name()};"
            f" border: 1px solid {theme.graph_axis}; border-radius: 3px; padding: 1px 6px; }}"
        )
        for judgement, bars in self._bar_paths.items():  # type: ignore[assignment]
            bars.setBrush(self._brushes[judgement])
        self.view.setBackground(QColor(theme.graph_background))
        upper, lower = QColor(theme.graph_white_area), QColor(theme.graph_black_area)
        if game_support(self._kind).first_player == "black":  # figures are the first player's view: its lead is up
            upper, lower = lower, upper
        upper.setAlpha(235)
        lower.setAlpha(235)
        self._white_area.setPen(QPen(Qt.PenStyle.NoPen))
        self._white_area.setBrush(upper)
        self._black_area.setPen(QPen(Qt.PenStyle.NoPen))
        self._black_area.setBrush(lower)
        self._curve.setPen(pg.mkPen(QColor(theme.graph_curve), width=1.4))
        self._middle.setPen(pg.mkPen(QColor(theme.graph_mid_line), width=1, style=Qt.PenStyle.DashLine))
        cursor_pen = pg.mkPen(QColor(theme.graph_cursor), width=2)
        hover_pen = pg.mkPen(QColor(theme.graph_cursor).lighter(125), width=3)
        self.cursor.setPen(cursor_pen)
        self.cursor.setHoverPen(hover_pen)
        self._loss_cursor.setPen(cursor_pen)
        font = QFont(self.font())
        font.setPointSizeF(max(6.5, font.pointSizeF() - 1.5))
        for plot in (self.eval_plot, self.loss_plot):
            axis = plot.getAxis("left")
            axis.setTextPen(QColor(theme.graph_axis))
            axis.setPen(pg.mkPen(QColor(theme.graph_axis), width=0.8))
            axis.setStyle(tickFont=font, tickLength=-3)
        self.loss_plot.getAxis("left").setStyle(showValues=False, tickLength=0)
        self.loss_plot.getAxis("left").setTicks([[], []])
