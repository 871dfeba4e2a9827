"""The time chart under the evaluation graph (as lichess's): each move's time as a bar (the first
player's above the axis, the other's below), each side's clock as a line scaled to the same half,
the moves made in time trouble in the warning colour and the mistakes among them dotted in their
judgement's colour; on the evaluation graph's move axis, with a cursor at the current move.

Click anywhere to pick that ply. Shown only for games whose file carries times.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QLabel, QVBoxLayout, QWidget

from reviewer.core.formats.clocks import clock_text
from reviewer.gui.common import style
from reviewer.gui.presenters.times import TimeSeries
from reviewer.gui.review.eval_graph import AXIS_WIDTH_PX, BAR_WIDTH_PLIES, ply_at_scene

TITLE = "Time per move · clock"
_MIN_HALF_S = 5.0  # the bars' half-height in seconds at least: a game of quick moves does not fill it


class TimeChartWidget(QWidget):
    """Signals: ply_clicked(int): the user clicked the chart at that ply."""

    ply_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._series: TimeSeries | None = None
        self._max_ply = 0
        self._half_s = _MIN_HALF_S
        self._current_ply = 0

        self.view = pg.GraphicsLayoutWidget()
        self.view.setAntialiasing(True)
        self.view.ci.setContentsMargins(2, 4, 6, 2)  # as the evaluation graph's: the move axes line up
        self.view.ci.setSpacing(0)
        self.title_label = QLabel(TITLE, self)  # a row of its own: over the plot, the clock line ran through it
        self.title_label.setObjectName("time-chart-title")
        self.title_label.setContentsMargins(AXIS_WIDTH_PX + 8, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.title_label)
        layout.addWidget(self.view)
        self.plot: pg.PlotItem = self.view.addPlot(row=0, col=0)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.vb.disableAutoRange()
        self.plot.hideAxis("bottom")
        self.plot.getAxis("left").setWidth(AXIS_WIDTH_PX)
        self.plot.vb.setDefaultPadding(0.0)

        self._trouble_band = QGraphicsPathItem()  # behind the bars: the moves made in time trouble
        self._trouble_band.setPen(QPen(Qt.PenStyle.NoPen))
        self.plot.addItem(self._trouble_band, ignoreBounds=True)
        self._bars = {side: QGraphicsPathItem() for side in ("up", "down", "trouble")}
        for bars in self._bars.values():
            bars.setPen(QPen(Qt.PenStyle.NoPen))
            self.plot.addItem(bars)
        self._axis_line = pg.InfiniteLine(pos=0, angle=0, movable=False)
        self.plot.addItem(self._axis_line)
        self._clocks = {side: pg.PlotDataItem(antialias=True) for side in ("up", "down")}
        for line in self._clocks.values():
            line.setZValue(3)
            self.plot.addItem(line)
        self._marks = pg.ScatterPlotItem(antialias=True)
        self._marks.setZValue(4)
        self.plot.addItem(self._marks)
        self._cursor = pg.InfiniteLine(pos=0, angle=90, movable=False)
        self._cursor.setZValue(20)
        self.plot.addItem(self._cursor, ignoreBounds=True)

        self.view.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self.view.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._apply_theme()

    # ------------------------------------------------------------------------------- API

    def set_series(self, series: TimeSeries | None, ply_count: int) -> None:
        """Show a game's times (None: a game without times, nothing drawn)."""
        self._series = series
        self._max_ply = max(1, ply_count)
        if series is None:
            for bars in (*self._bars.values(), self._trouble_band):
                bars.setPath(QPainterPath())
            for line in self._clocks.values():
                line.setData([], [])
            self._marks.setData([], [])
            self._update_ranges()
            return
        scale_s = series.usual_most_spent_s
        self._half_s = max(_MIN_HALF_S, scale_s * 1.08)
        paths = {side: QPainterPath() for side in self._bars}
        trouble = set(series.trouble_plies)
        band = QPainterPath()
        band.setFillRule(Qt.FillRule.WindingFill)  # the rectangles overlap: one run of a side's moves, one band
        for ply in trouble:  # the mover's half of the chart, shaded from its move before to its next
            sign = 1.0 if self._side(ply) == "up" else -1.0
            band.addRect(ply - 1.0, min(0.0, sign * self._half_s * 1.1), 2.0, self._half_s * 1.1)
        self._trouble_band.setPath(band)
        for ply, spent in series.spent_s.items():
            height = self._bar_height(ply, min(spent, scale_s))
            side = "trouble" if ply in trouble else self._side(ply)
            paths[side].addRect(ply - BAR_WIDTH_PLIES / 2, min(0.0, height), BAR_WIDTH_PLIES, abs(height))
        for side, bars in self._bars.items():
            bars.setPath(paths[side])
        most_clock = series.most_clock_s or 1.0
        for side, line in self._clocks.items():
            sign = 1.0 if side == "up" else -1.0
            plies = sorted(ply for ply in series.clock_s if self._side(ply) == side)
            xs = np.array(plies, dtype=float)
            ys = np.array([sign * series.clock_s[ply] / most_clock * self._half_s for ply in plies], dtype=float)
            line.setData(xs, ys)
        marked = sorted(series.trouble_mistakes)
        self._marks.setData(
            x=marked,
            y=[self._bar_height(ply, min(scale_s, series.spent_s.get(ply, 0.0))) for ply in marked],
            brush=[style.judgement_color(series.trouble_mistakes[ply]) for ply in marked],
            size=8,
            pen=self._mark_pen,
        )
        self._update_ranges()

    def series(self) -> TimeSeries | None:
        return self._series

    def set_current_ply(self, ply: int) -> None:
        self._current_ply = ply
        self._cursor.setPos(ply)

    def current_ply(self) -> int:
        return self._current_ply

    def tooltip_at(self, ply: int) -> str:
        return self._series.texts.get(ply, "") if self._series is not None else ""

    def scene_pos_for(self, ply: float, y_s: float = 0.0) -> QPointF:
        """Where a ply (and a height in seconds) is in the scene (tests and overlays)."""
        return self.plot.vb.mapViewToScene(QPointF(ply, y_s))  # type: ignore[no-any-return]

    def bar_height_at(self, ply: int) -> float:
        """The drawn bar of move `ply` in seconds, signed (above the axis: the first player's); 0 when none."""
        if self._series is None or ply not in self._series.spent_s:
            return 0.0
        return self._bar_height(ply, min(self._series.spent_s[ply], self._series.usual_most_spent_s))

    # ---------------------------------------------------------------------------- drawing

    def _side(self, ply: int) -> str:
        assert self._series is not None
        return "up" if self._series.movers.get(ply) == self._series.up else "down"

    def _bar_height(self, ply: int, spent_s: float) -> float:
        return spent_s if self._side(ply) == "up" else -spent_s

    def _update_ranges(self) -> None:
        self.plot.vb.setXRange(0, self._max_ply, padding=0.01)
        self.plot.vb.setYRange(-self._half_s, self._half_s, padding=0.04)
        tick = self._half_s / 1.08
        axis = self.plot.getAxis("left")
        axis.setTicks([[(tick, clock_text(round(tick))), (0.0, "0"), (-tick, clock_text(round(tick)))], []])

    # ------------------------------------------------------------------------------ events

    def _on_scene_clicked(self, event: Any) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        ply = ply_at_scene((self.plot,), event.scenePos(), self._max_ply)
        if ply is not None:
            self.set_current_ply(ply)
            self.ply_clicked.emit(ply)
            event.accept()

    def _on_mouse_moved(self, position: QPointF) -> None:
        ply = ply_at_scene((self.plot,), position, self._max_ply)
        self.view.setToolTip("" if ply is None else self.tooltip_at(ply))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
            if self._series is not None:
                self.set_series(self._series, self._max_ply)
        super().changeEvent(event)

    def _apply_theme(self) -> None:
        theme = style.theme_for(self)
        self.view.setBackground(QColor(theme.graph_background))
        upper, lower = QColor(theme.graph_white_area), QColor(theme.graph_black_area)
        upper.setAlpha(235)
        lower.setAlpha(235)
        trouble = QColor(theme.warning_text if not theme.dark else "#e0a040")
        trouble.setAlpha(200)
        self._bars["up"].setBrush(upper)
        self._bars["down"].setBrush(lower)
        self._bars["trouble"].setBrush(trouble)
        band = QColor(trouble)
        band.setAlpha(34 if theme.dark else 30)
        self._trouble_band.setBrush(band)
        self._bars["up"].setPen(pg.mkPen(QColor(theme.graph_mid_line), width=0.6))
        self._axis_line.setPen(pg.mkPen(QColor(theme.graph_mid_line), width=1, style=Qt.PenStyle.DashLine))
        clock = QColor(theme.graph_curve)
        self._clocks["up"].setPen(pg.mkPen(clock, width=1.4))
        self._clocks["down"].setPen(pg.mkPen(clock, width=1.4, style=Qt.PenStyle.DotLine))
        self._mark_pen = pg.mkPen(QColor(theme.graph_background), width=1.2)
        self._cursor.setPen(pg.mkPen(QColor(theme.graph_cursor), width=2))
        font = QFont(self.font())
        font.setPointSizeF(max(6.5, font.pointSizeF() - 1.5))
        axis = self.plot.getAxis("left")
        axis.setTextPen(QColor(theme.graph_axis))
        axis.setPen(pg.mkPen(QColor(theme.graph_axis), width=0.8))
        axis.setStyle(tickFont=font, tickLength=-3)
        self.title_label.setStyleSheet(
            f"QLabel#time-chart-title {{ color: {theme.text_muted}; background: {theme.graph_background};"
            " font-size: 8pt; }"
        )
