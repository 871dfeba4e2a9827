"""The time chart under the evaluation graph, as lichess draws one: a bar per move for the time it
took (White's up, Black's down; in Go the first player's up) and each side's clock as a line
(scaled so that the largest clock fills the side's half), on the graph's move axis.

Shown only for a game whose file carries times (`reviewer.core.formats.clocks`); a click picks
that move. `time_chart_panel(session, parent)` makes it and follows the session on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QVBoxLayout, QWidget

from reviewer.core.formats.clocks import clock_text
from reviewer.core.gametree import Color, Game, numbered_moves
from reviewer.core.scoring.clock import MoveTime, move_times
from reviewer.gui import style
from reviewer.gui.eval_graph import AXIS_WIDTH_PX, BAR_WIDTH_PLIES

if TYPE_CHECKING:
    from reviewer.gui.session import ReviewSession

TIME_CHART_MIN_HEIGHT_PX = 56
_MIN_TOP_S = 10.0  # the bars' scale never shrinks under this, so a quick game's bars stay short


class TimeChartWidget(QWidget):
    """ply_clicked(int): the user clicked the chart at that move."""

    ply_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("time-chart")
        self._times: dict[int, MoveTime] = {}
        self._texts: dict[int, str] = {}
        self._max_ply = 0
        self._top_s = _MIN_TOP_S
        self._first_up: Color = "white"
        self.view = pg.GraphicsLayoutWidget()
        self.view.setAntialiasing(True)
        self.view.ci.setContentsMargins(2, 2, 6, 2)  # as the evaluation graph's, so the move axes line up
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.plot: pg.PlotItem = self.view.addPlot(row=0, col=0)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.vb.disableAutoRange()
        self.plot.hideAxis("bottom")
        self.plot.getAxis("left").setWidth(AXIS_WIDTH_PX)
        self.plot.vb.setDefaultPadding(0.0)
        self._bars: dict[Color, QGraphicsPathItem] = {}
        for color in ("white", "black"):
            bars = QGraphicsPathItem()
            self._bars[color] = bars
            self.plot.addItem(bars)
        self._clocks: dict[Color, pg.PlotDataItem] = {color: pg.PlotDataItem(antialias=True) for color in ("white", "black")}
        for line in self._clocks.values():
            line.setZValue(5)
            self.plot.addItem(line)
        self._middle = pg.InfiniteLine(pos=0, angle=0, movable=False)
        self.plot.addItem(self._middle)
        self._cursor = pg.InfiniteLine(pos=0, angle=90, movable=False)
        self._cursor.setZValue(20)
        self.plot.addItem(self._cursor, ignoreBounds=True)
        self.view.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self.view.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._apply_theme()

    # ------------------------------------------------------------------------------- API

    def set_game(self, game: Game | None) -> None:
        """Show `game`'s times (its main line); a game without any leaves the chart empty."""
        self._times = move_times(game) if game is not None else {}
        self._max_ply = game.ply_count if game is not None else 0
        self._first_up = game.first_player if game is not None and game.kind != "chess" else "white"
        self._texts = {ply: _tooltip(game, time) for ply, time in self._times.items()} if game is not None else {}
        spent = [t.spent_s for t in self._times.values() if t.spent_s is not None]
        self._top_s = max(_MIN_TOP_S, max(spent, default=0.0))
        largest_clock = max((t.clock_s for t in self._times.values() if t.clock_s is not None), default=0.0)
        paths: dict[Color, QPainterPath] = {"white": QPainterPath(), "black": QPainterPath()}
        clock_points: dict[Color, tuple[list[float], list[float]]] = {"white": ([], []), "black": ([], [])}
        for ply, time in sorted(self._times.items()):
            sign = self._sign(time.color)
            if time.spent_s is not None and time.spent_s > 0:
                height = time.spent_s * sign
                paths[time.color].addRect(ply - BAR_WIDTH_PLIES / 2, min(0.0, height), BAR_WIDTH_PLIES, abs(height))
            if time.clock_s is not None and largest_clock > 0:
                xs, ys = clock_points[time.color]
                xs.append(float(ply))
                ys.append(sign * time.clock_s / largest_clock * self._top_s)
        for color in ("white", "black"):
            self._bars[color].setPath(paths[color])
            xs, ys = clock_points[color]
            self._clocks[color].setData(np.array(xs, dtype=float), np.array(ys, dtype=float))
        self.plot.vb.setXRange(0, max(1, self._max_ply), padding=0.01)
        self.plot.vb.setYRange(-self._top_s * 1.05, self._top_s * 1.05, padding=0)
        top = clock_text(self._top_s)
        self.plot.getAxis("left").setTicks([[(self._top_s, top), (0.0, "0"), (-self._top_s, top)], []])

    def has_times(self) -> bool:
        return bool(self._times)

    def move_time(self, ply: int) -> MoveTime | None:
        return self._times.get(ply)

    def bar_height_s(self, ply: int) -> float:
        """The drawn bar of move `ply`, in seconds: positive up, negative down, 0 when none."""
        time = self._times.get(ply)
        if time is None or time.spent_s is None:
            return 0.0
        return time.spent_s * self._sign(time.color)

    def clock_line(self, color: Color) -> tuple[list[float], list[float]]:
        xs, ys = self._clocks[color].getData()
        return ([] if xs is None else xs.tolist()), ([] if ys is None else ys.tolist())

    def link_x(self, plot: Any) -> None:
        """Follow another plot's move axis (the evaluation graph's)."""
        self.plot.setXLink(plot)

    def set_current_ply(self, ply: int) -> None:
        self._cursor.setPos(ply)

    def current_ply(self) -> int:
        return round(self._cursor.value())

    def tooltip_at(self, ply: int) -> str:
        return self._texts.get(ply, "")

    def scene_pos_for(self, ply: float, seconds: float = 0.0) -> QPointF:
        """Where a move's bar (at `seconds` up or down) is in the scene (tests and overlays)."""
        return self.plot.vb.mapViewToScene(QPointF(ply, seconds))  # type: ignore[no-any-return]

    def follow(self, session: ReviewSession) -> None:
        """Show the session's game and current move from now on; a click picks a move there."""
        self._session = session
        session.game_loaded.connect(self._show_game)
        session.tree_changed.connect(self._on_tree_changed)
        session.current_changed.connect(self._on_current_changed)
        self.ply_clicked.connect(session.model.set_current_ply)
        self._show_game()

    def _show_game(self) -> None:
        self.set_game(self._session.model.game)
        self.setVisible(self.has_times())
        self._on_current_changed(self._session.model.current_node)

    def _on_tree_changed(self, main_line_changed: bool) -> None:
        if main_line_changed:
            self._show_game()

    def _on_current_changed(self, node: Any) -> None:
        if node is not None and node.is_mainline:
            self.set_current_ply(node.ply)

    # ------------------------------------------------------------------------------ events

    def _sign(self, color: Color) -> int:
        return 1 if color == self._first_up else -1

    def _ply_from_x(self, x: float) -> int:
        return max(0, min(self._max_ply, round(x)))

    def _on_scene_clicked(self, event: Any) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        position = event.scenePos()
        if self.plot.vb.sceneBoundingRect().contains(position):
            ply = self._ply_from_x(self.plot.vb.mapSceneToView(position).x())
            self.set_current_ply(ply)
            self.ply_clicked.emit(ply)
            event.accept()

    def _on_mouse_moved(self, position: QPointF) -> None:
        if self.plot.vb.sceneBoundingRect().contains(position):
            self.view.setToolTip(self.tooltip_at(self._ply_from_x(self.plot.vb.mapSceneToView(position).x())))
        else:
            self.view.setToolTip("")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
        super().changeEvent(event)

    # ------------------------------------------------------------------------------- theme

    def bar_colors(self) -> dict[Color, str]:
        """The fill of each side's bars (tests: the sides differ in both themes)."""
        return {color: bars.brush().color().name() for color, bars in self._bars.items()}

    def _apply_theme(self) -> None:
        theme = style.theme_for(self)
        self.view.setBackground(QColor(theme.graph_background))
        outline = QPen(QColor(theme.graph_axis))
        outline.setWidthF(0.0)  # cosmetic: one pixel, whatever the scale
        for color, fill in (("white", theme.graph_white_area), ("black", theme.graph_black_area)):
            self._bars[color].setBrush(QColor(fill))
            self._bars[color].setPen(outline)
        self._clocks["white"].setPen(pg.mkPen(QColor(theme.graph_curve), width=1.4))
        self._clocks["black"].setPen(pg.mkPen(QColor(theme.graph_curve), width=1.4, style=Qt.PenStyle.DashLine))
        self._middle.setPen(pg.mkPen(QColor(theme.graph_mid_line), width=1))
        self._cursor.setPen(pg.mkPen(QColor(theme.graph_cursor), width=2))
        font = QFont(self.font())
        font.setPointSizeF(max(6.5, font.pointSizeF() - 1.5))
        axis = self.plot.getAxis("left")
        axis.setTextPen(QColor(theme.graph_axis))
        axis.setPen(pg.mkPen(QColor(theme.graph_axis), width=0.8))
        axis.setStyle(tickFont=font, tickLength=-3)


def _tooltip(game: Game, time: MoveTime) -> str:
    """'12. Nf3 · took 0:42 · 3:12 left' (the clock after the move), '⏱ time trouble' where it was."""
    node = game.node_at_ply(time.ply)
    if game.kind == "chess":
        label = numbered_moves([node.move or ""], game.full_move_number(time.ply), node.color == "white", "…")
    else:
        label = f"{time.ply}. {node.move or ''}"
    parts = [label]
    if time.spent_s is not None:
        parts.append(f"took {clock_text(time.spent_s)}")
    if time.clock_s is not None:
        parts.append(f"{clock_text(time.clock_s)} left")
    if time.time_trouble:
        parts.append("⏱ time trouble")
    return " · ".join(parts)


def time_chart_panel(session: ReviewSession, parent: QWidget) -> TimeChartWidget:
    """The time chart, following `session`: the open game's times, the current move; a click
    picks a move. Hidden while the game carries no times."""
    chart = TimeChartWidget(parent)
    chart.setMinimumHeight(TIME_CHART_MIN_HEIGHT_PX)
    chart.follow(session)
    return chart


__all__ = ["TIME_CHART_MIN_HEIGHT_PX", "TimeChartWidget", "time_chart_panel"]
