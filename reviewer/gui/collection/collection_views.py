"""The Collection window's views: a sortable table of presenter rows, and the plot of one player's
games over time whose points open their game."""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QTableView,
    QWidget,
)

from reviewer.gui.common import style
from reviewer.gui.presenters.collection import RESULT_COLOURS, Row, Table, Timeline

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
CLICK_RADIUS_PX = 12.0  # a click this close to a point's centre is on it
RESULT_LEGEND = (("win", "won"), ("draw", "drew"), ("loss", "lost"))


class RowsModel(QAbstractTableModel):
    """A presenter `Table` as a read-only model; SORT_ROLE gives each cell's sort key."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.table = Table((), ())

    def set_table(self, table: Table) -> None:
        self.beginResetModel()
        self.table = table
        self.endResetModel()

    def row(self, number: int) -> Row:
        return self.table.rows[number]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.table.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.table.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.table.columns[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.table.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells[index.column()]
        if role == SORT_ROLE:
            return row.sort_keys[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.tooltip or None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            side = Qt.AlignmentFlag.AlignRight if index.column() in self.table.aligned_right else Qt.AlignmentFlag.AlignLeft
            return int(side | Qt.AlignmentFlag.AlignVCenter)
        return None


class _SortProxy(QSortFilterProxyModel):
    def lessThan(self, left: QModelIndex | QPersistentModelIndex, right: QModelIndex | QPersistentModelIndex) -> bool:
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        try:
            return bool(a < b)
        except TypeError:
            return str(a) < str(b)


class TableView(QStackedWidget):
    """A sortable table of presenter rows, or its `empty_text` when it has none. Double-clicking a
    row that knows its game emits `game_requested(source, ply)`."""

    game_requested = Signal(object, object)  # the row's source block, ply or None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = RowsModel(self)
        self.proxy = _SortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 8)
        self.view.horizontalHeader().setHighlightSections(False)
        self.view.doubleClicked.connect(self._on_double_click)
        self.empty_label = QLabel()
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.addWidget(self.view)
        self.addWidget(self.empty_label)

    def set_table(self, table: Table, stretch_column: int | None = None) -> None:
        self.model.set_table(table)
        self.proxy.sort(-1)  # the presenter's order until the user sorts
        header = self.view.horizontalHeader()
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        if stretch_column is not None and stretch_column < len(table.columns):
            header.setSectionResizeMode(stretch_column, QHeaderView.ResizeMode.Stretch)
        self.empty_label.setText(table.empty_text)
        self.setCurrentWidget(self.view if table.rows or not table.empty_text else self.empty_label)

    def row_at(self, proxy_row: int) -> Row:
        return self.model.row(self.proxy.mapToSource(self.proxy.index(proxy_row, 0)).row())

    def texts(self, column: str) -> list[str]:
        """The cells of one column, as shown (tests)."""
        number = self.model.table.columns.index(column)
        return [self.proxy.index(row, number).data() for row in range(self.proxy.rowCount())]

    def _on_double_click(self, index: QModelIndex) -> None:
        row = self.row_at(index.row())
        if row.source:
            self.game_requested.emit(row.source, row.ply)


class TimelineChart(pg.PlotWidget):  # type: ignore[misc]
    """One point per scored game (its accuracy or loss), coloured by the player's result; a click
    on a point emits `game_clicked(source)`."""

    game_clicked = Signal(object)  # the game's source block
    _built = False  # a palette change may come while the base class is being made

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.timeline: Timeline | None = None
        self._message = "No game to show"
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.setMinimumHeight(200)
        self.plotItem.setMenuEnabled(False)
        self.plotItem.getViewBox().setDefaultPadding(0.05)
        self.showGrid(x=False, y=True, alpha=0.18)
        self.scene().sigMouseClicked.connect(self._on_clicked)
        self.scene().sigMouseMoved.connect(self._on_moved)
        self._built = True
        self._draw()

    # -- public

    def show_timeline(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self._draw()

    def show_message(self, text: str) -> None:
        self.timeline = None
        self._message = text
        self._draw()

    def scene_pos_for(self, number: int) -> QPointF:
        """Where the `number`th point (0-based) is drawn, in scene coordinates (tests)."""
        assert self.timeline is not None
        point = self.timeline.points[number]
        return self.plotItem.vb.mapViewToScene(QPointF(point.x, point.y))  # type: ignore[no-any-return]

    # -- drawing

    def _theme(self) -> style.Theme:
        return style.theme_for(self)

    def _draw(self) -> None:
        theme = self._theme()
        self.clear()
        old_legend = self.plotItem.legend
        if old_legend is not None:  # made again below, in the theme's colours
            if old_legend.scene() is not None:
                old_legend.scene().removeItem(old_legend)
            self.plotItem.legend = None
        self.setBackground(QColor(theme.graph_background))
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1.0))
        for name in ("left", "bottom"):
            axis = self.getAxis(name)
            axis.setTextPen(QColor(theme.text))
            axis.setPen(pg.mkPen(QColor(theme.graph_axis), width=0.8))
            axis.setStyle(tickFont=font)
        timeline = self.timeline
        if timeline is None or not timeline.points:
            self.setTitle(self._message if timeline is None else f"{timeline.title}: no scored game", color=theme.text)
            for name in ("left", "bottom"):  # no scale without points: its numbers would mean nothing
                self.hideAxis(name)
            return
        self.setTitle(timeline.title, color=theme.text)
        self.setLabel("left", timeline.y_label, color=theme.text)  # (shows the axis again)
        self.setLabel("bottom", timeline.x_label, color=theme.text)
        xs = [p.x for p in timeline.points]
        ys = [p.y for p in timeline.points]
        self.plot(xs, ys, pen=pg.mkPen(QColor(theme.graph_curve), width=1.4))
        legend = self.addLegend(offset=(-8, -8), brush=pg.mkBrush(QColor(theme.graph_background)),
                                pen=pg.mkPen(QColor(theme.graph_axis), width=0.6), labelTextColor=QColor(theme.text),
                                colCount=4)
        legend.anchor(itemPos=(1, 1), parentPos=(1, 1), offset=(-8, -8))
        outline = pg.mkPen(QColor(theme.graph_background), width=1.2)
        for result, words in (*RESULT_LEGEND, ("unknown", "no result")):
            chosen = [p for p in timeline.points if p.result == result]
            if not chosen:
                continue
            if result == "unknown":
                brush, pen = pg.mkBrush(QColor(theme.graph_background)), pg.mkPen(QColor(theme.graph_curve), width=1.4)
            else:
                brush, pen = pg.mkBrush(QColor(RESULT_COLOURS[result])), outline
            self.plot([p.x for p in chosen], [p.y for p in chosen], pen=None, symbol="o", symbolSize=10,
                      symbolBrush=brush, symbolPen=pen, name=words)
        low, high = timeline.y_range
        self.setYRange(low, high, padding=0.04)
        margin = 0.5 if len(xs) > 1 else 1.0
        self.setXRange(min(xs) - margin, max(xs) + margin, padding=0)
        self.getAxis("bottom").setTicks([_whole_ticks(min(xs), max(xs))])

    # -- the mouse

    def _point_near(self, scene_pos: QPointF) -> int | None:
        if self.timeline is None:
            return None
        best, best_distance = None, CLICK_RADIUS_PX
        for number, point in enumerate(self.timeline.points):
            drawn = self.plotItem.vb.mapViewToScene(QPointF(point.x, point.y))
            distance = math.hypot(drawn.x() - scene_pos.x(), drawn.y() - scene_pos.y())
            if distance <= best_distance:
                best, best_distance = number, distance
        return best

    def _on_clicked(self, event: Any) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        number = self._point_near(event.scenePos())
        if number is not None and self.timeline is not None and self.timeline.points[number].source:
            self.game_clicked.emit(self.timeline.points[number].source)

    def _on_moved(self, scene_pos: QPointF) -> None:
        number = self._point_near(scene_pos)
        self.setToolTip(self.timeline.points[number].tooltip if number is not None and self.timeline is not None else "")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and self._built:
            self._draw()
        super().changeEvent(event)


def _whole_ticks(first: float, last: float) -> list[tuple[float, str]]:
    """Game numbers along the axis: every game when few, else about ten."""
    count = int(last - first) + 1
    step = max(1, math.ceil(count / 10))
    return [(float(value), str(int(value))) for value in range(int(first), int(last) + 1, step)]

