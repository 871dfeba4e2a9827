"""The Players window: every player of a folder or a multi-game file, rated together (KGS maths).

A sortable table (name, games, wins/losses/draws, rank or rating, interval, `?`) over a chart of
the selected player's estimate over time (reviewer.core.rating.history: the solve re-run at up
to 24 of the player's game dates). Reading the files, rating and the history all run off the
window's thread (gui/common/tasks.py); the GUI thread only builds rows and curves from the finished, immutable results.
A newer request makes the answers of older ones stale: they are dropped when they arrive.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QItemSelection,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer.core.formats import READ_EXTENSIONS
from reviewer.core.games import game_support
from reviewer.core.rating import GameRecord, HistoryPoint, PlayerRating, RatingOptions, RatingResult, rate_games
from reviewer.core.rating.history import rating_history
from reviewer.core.rating.scale import go_rank_text
from reviewer.core.rating.scale import interval_text as rating_interval_text
from reviewer.core.rating.sources import load_records
from reviewer.gui.common.tasks import Task, Tasks
from reviewer.gui.common.window_size import resize_to_fit

GAME_FILES_FILTER = f"Game files ({' '.join('*' + extension for extension in READ_EXTENSIONS)});;All files (*)"
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
HISTORY_POINTS = 24
EMPTY_TEXT = "Open a file or a folder of games, or drop them here, to rate their players."
NO_GAMES_CHART_TEXT = "No games yet: each player's estimate over time is drawn here"
NO_PLAYERS_CHART_TEXT = "No rated player in these games"
SELECT_TEXT = "Select a player to see their estimate over time"


def _dropped_paths(mime: QMimeData) -> list[str]:
    """The local files and folders a drag carries."""
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


# ---------------------------------------------------------------- background jobs


@dataclass(frozen=True)
class _Progress:
    text: str  # what is under way: "Reading club.pgn (2 of 5 files)"
    done: int
    total: int  # 0: how much is left is not known


Tell = Callable[[_Progress], None]


@dataclass(frozen=True)
class _Loaded:
    records: tuple[GameRecord, ...]
    result: RatingResult
    problems: tuple[str, ...]
    files_read: int


@dataclass(frozen=True)
class _History:
    key: str
    kind: str
    name: str
    points: tuple[HistoryPoint, ...]


# ---------------------------------------------------------------- the table


COLUMNS = ("Player", "Game", "Games", "W", "L", "D", "Rank / rating", "Interval", "?")
KIND_COLUMN = 1


def _ranks(kind: str) -> bool:
    return game_support(kind).rating.unit == "rank"


def _rating_text(player: PlayerRating) -> str:
    if player.rating is None:
        return "–"
    return game_support(player.kind).rating_text(player.rating)


def interval_text(player: PlayerRating) -> str:
    return rating_interval_text(player.kind, player.rating, player.low, player.high)


class PlayersModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._players: list[PlayerRating] = []

    def set_players(self, players: list[PlayerRating]) -> None:
        self.beginResetModel()
        self._players = list(players)
        self.endResetModel()

    def player(self, row: int) -> PlayerRating:
        return self._players[row]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._players)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return {
                "W": "wins",
                "L": "losses",
                "D": "draws (jigo, ½-½): half a win and half a loss",
                "Interval": "about 95% sure the strength lies here",
                "?": "no wins, no losses, or an interval wider than 2 ranks / 200 Elo each way",
            }.get(COLUMNS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        p = self._players[index.row()]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                "Player": p.name,
                "Game": p.kind,
                "Games": str(p.games),
                "W": str(p.wins),
                "L": str(p.losses),
                "D": str(p.draws),
                "Rank / rating": _rating_text(p),
                "Interval": interval_text(p),
                "?": "?" if p.uncertain else "",
            }[column]
        if role == SORT_ROLE:
            if column in ("Player", "Game"):
                return (p.name if column == "Player" else p.kind).casefold()
            if column in ("Rank / rating", "Interval"):
                return -math.inf if p.rating is None else p.rating
            if column == "?":
                return int(p.uncertain)
            return {"Games": p.games, "W": p.wins, "L": p.losses, "D": p.draws}[column]
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in ("Player", "Game", "Interval"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column in ("Rank / rating", "Interval") and p.rating is not None:
            how = {"best win": "placed at the best win (no losses yet)",
                   "worst loss": "placed at the worst loss (no wins yet)",
                   "declared": "no determined opponent yet: the rank/rating the games declare",
                   "group level": "no determined opponent yet: the level of the group",
                   "likelihood": "most likely strength"}.get(p.placed_by, "")
            value = f"{p.rating:+.2f} ranks from 1k" if _ranks(p.kind) else f"{p.rating:.0f} {game_support(p.kind).rating.unit}"
            return f"{value} — {how}"
        return None


class _PlayerFilter(QSortFilterProxyModel):
    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        text = self.filterRegularExpression().pattern()
        if not text:
            return True
        model = self.sourceModel()
        assert isinstance(model, PlayersModel)
        return text.casefold() in model.player(source_row).name.casefold()


# ---------------------------------------------------------------- the chart


class _RankAxis(pg.AxisItem):  # type: ignore[misc]
    """Left axis in kyu/dan for Go (whole ranks only)."""

    def __init__(self) -> None:
        super().__init__("left")
        self.go = False

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        if not self.go:
            return super().tickValues(minVal, maxVal, size)  # type: ignore[no-any-return]
        span = max(maxVal - minVal, 1.0)
        step = max(1, int(math.ceil(span / 8)))
        first = int(math.ceil(minVal / step) * step)
        return [(step, [float(v) for v in range(first, int(math.floor(maxVal)) + 1, step)])]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        if not self.go:
            return [f"{v:.0f}" for v in values]
        return [go_rank_text(v) if -29 <= v <= 9 else "" for v in values]


class HistoryChart(pg.PlotWidget):  # type: ignore[misc]
    def __init__(self, parent: QWidget | None = None) -> None:
        self._rank_axis = _RankAxis()
        self._date_axis = pg.DateAxisItem(orientation="bottom")
        self._number_axis = pg.AxisItem("bottom")
        super().__init__(parent, axisItems={"left": self._rank_axis, "bottom": self._date_axis})
        self._title = ""
        self.showGrid(x=True, y=True, alpha=0.15)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.setMinimumHeight(160)
        self.plotItem.setMenuEnabled(False)
        self.getPlotItem().getViewBox().setDefaultPadding(0.06)
        self.dates_on_axis = True
        self.curve_x: list[float] = []
        self.curve_y: list[float] = []
        self._follow_palette()

    def _follow_palette(self) -> None:
        """The chart in the colours of the application's theme (light or dark), now and after a switch."""
        palette = self.palette()
        self.setBackground(palette.color(QPalette.ColorRole.Base))
        text = palette.color(QPalette.ColorRole.WindowText)
        for axis in (self._rank_axis, self._date_axis, self._number_axis):
            axis.setTextPen(text)
            axis.setPen(pg.mkPen(palette.color(QPalette.ColorRole.Mid)))
            if axis.labelText:
                axis.setLabel(axis.labelText, color=text.name())
        self._set_title(self._title)

    def _set_title(self, text: str) -> None:
        self._title = text
        self.setTitle(text, color=self.palette().color(QPalette.ColorRole.WindowText).name())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and "curve_x" in self.__dict__:  # not while it is being made
            self._follow_palette()

    def _show_axes(self, shown: bool) -> None:
        for side in ("left", "bottom"):
            self.getPlotItem().showAxis(side, shown)
        self.showGrid(x=shown, y=shown, alpha=0.15)

    def show_points(self, name: str, kind: str, points: tuple[HistoryPoint, ...]) -> None:
        self.clear()
        self._show_axes(bool(points))
        self._rank_axis.go = _ranks(kind)
        self._set_title(f"{name}: estimate over time" if points else f"{name}: no rated games")
        text = self.palette().color(QPalette.ColorRole.WindowText).name()
        self.setLabel("left", game_support(kind).rating.unit, color=text)
        dated = bool(points) and all(p.date is not None for p in points)
        if dated != self.dates_on_axis:
            self.setAxisItems({"bottom": self._date_axis if dated else self._number_axis})
            self.dates_on_axis = dated
        self.setLabel("bottom", "" if dated else "games played", color=text)
        if not points:
            self.curve_x, self.curve_y = [], []
            return
        if dated:
            xs = [dt.datetime(p.date.year, p.date.month, p.date.day, 12, tzinfo=dt.UTC).timestamp() for p in points]  # type: ignore[union-attr]
        else:
            xs = [float(p.game_number) for p in points]
        ys = [p.rating for p in points]
        self.curve_x, self.curve_y = xs, ys
        # An open side of an interval is drawn `spread` away; any side is cut `spread` beyond the
        # estimates, so that one early, wide interval does not flatten the whole curve.
        spread = game_support(kind).rating.spread
        floor, ceiling = min(ys) - spread, max(ys) + spread
        lows = [max(floor, p.low if p.low is not None else p.rating - spread) for p in points]
        highs = [min(ceiling, p.high if p.high is not None else p.rating + spread) for p in points]
        band_pen = pg.mkPen((70, 130, 180, 0))
        low_curve = pg.PlotDataItem(xs, lows, pen=band_pen)
        high_curve = pg.PlotDataItem(xs, highs, pen=band_pen)
        self.addItem(low_curve)
        self.addItem(high_curve)
        self.addItem(pg.FillBetweenItem(low_curve, high_curve, brush=pg.mkBrush(70, 130, 180, 50)))
        sure = [not p.uncertain for p in points]
        self.plot(xs, ys, pen=pg.mkPen((40, 90, 160), width=2))
        self.plot(
            [x for x, s in zip(xs, sure) if s], [y for y, s in zip(ys, sure) if s],
            pen=None, symbol="o", symbolSize=7, symbolBrush=(40, 90, 160), symbolPen=(40, 90, 160),
        )
        self.plot(
            [x for x, s in zip(xs, sure) if not s], [y for y, s in zip(ys, sure) if not s],
            pen=None, symbol="o", symbolSize=7, symbolBrush=(255, 255, 255), symbolPen=(40, 90, 160),
        )
        # Keep the view on the estimates: a one-sided interval must not stretch the axis.
        low_view = min(min(ys), min(lows))
        high_view = max(max(ys), max(highs))
        self.setYRange(low_view, high_view, padding=0.08)
        if len(xs) == 1:
            width = 86400.0 * 15 if dated else 1.0
            self.setXRange(xs[0] - width, xs[0] + width, padding=0)
        else:
            self.setXRange(min(xs), max(xs), padding=0.04)

    def show_message(self, text: str) -> None:
        """Nothing to draw: the text alone, without a scale or a grid."""
        self.clear()
        self._show_axes(False)
        self.curve_x, self.curve_y = [], []
        self._set_title(text)


# ---------------------------------------------------------------- the window


class PlayersWindow(QWidget):
    """Players of a folder or a multi-game file, their ratings, and one player's history."""

    ratings_ready = Signal()  # the table holds the result of the latest load
    progress_changed = Signal(object)  # the latest load's progress (_Progress), as shown
    history_ready = Signal(str)  # the chart shows this player's history (player key)
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None, current_file: Callable[[], str | None] | None = None) -> None:
        """`current_file`: the game file open in the main window (offered to rate), if any."""
        super().__init__(parent)
        self.setWindowTitle("Players")
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setAcceptDrops(True)
        resize_to_fit(self, 860, 640)
        self._current_file = current_file
        self._tasks = Tasks(self)
        self._numbers = itertools.count(1)
        self._latest_load = 0
        self._latest_history = 0
        self._jobs: dict[int, Task] = {}
        self._stop_load = threading.Event()
        self._stop_history = threading.Event()
        self._paths: list[str] = []
        self._records: tuple[GameRecord, ...] = ()
        self.result: RatingResult | None = None
        self._sorted_once = False

        self.summary = QLabel(EMPTY_TEXT)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setWordWrap(True)
        self.open_file_button = QPushButton("Open file…")
        self.open_file_button.setToolTip("Rate the players of one or more game files (PGN, SGF, …)")
        self.open_file_button.clicked.connect(self.choose_files)
        self.open_folder_button = QPushButton("Open folder…")
        self.open_folder_button.setToolTip("Rate the players of every game file in a folder and its subfolders")
        self.open_folder_button.clicked.connect(self.choose_folder)
        self.current_file_button = QPushButton()
        self.current_file_button.clicked.connect(self._rate_current_file)
        self.current_file_button.hide()
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Find a player")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setMaximumWidth(220)
        self.half_life = QSpinBox()
        self.half_life.setRange(0, 3650)
        self.half_life.setSingleStep(30)
        self.half_life.setValue(365)
        self.half_life.setSpecialValueText("no decay")
        self.half_life.setSuffix(" days")
        self.half_life.setToolTip("A game's weight halves every so many days before the newest game")
        self.half_life.setKeyboardTracking(False)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setTextVisible(False)
        self.busy.hide()
        self.progress_label = QLabel()
        self.progress_label.hide()

        self.model = PlayersModel(self)
        self.proxy = _PlayerFilter(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setHighlightSections(False)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)

        self.chart = HistoryChart()
        self.chart.show_message(NO_GAMES_CHART_TEXT)

        sources = QHBoxLayout()
        sources.addWidget(self.open_file_button)
        sources.addWidget(self.open_folder_button)
        sources.addWidget(self.current_file_button)
        sources.addStretch(1)
        sources.addWidget(self.progress_label)
        sources.addWidget(self.busy)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(QLabel("Half-life"))
        top.addWidget(self.half_life)
        top.addSpacing(8)
        top.addWidget(self.filter_edit)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.chart)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([360, 240])
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.addLayout(sources)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)

        self.filter_edit.textChanged.connect(self.proxy.setFilterFixedString)
        self.half_life.valueChanged.connect(self._rerate)

    # -- public

    def load_paths(self, paths: list[str]) -> None:
        """Read and rate the games of these files and folders (in the background)."""
        self._paths = [str(p) for p in paths]
        self._stop_load.set()
        self._stop_load = threading.Event()
        stop = self._stop_load
        options = self.options()
        shown = ", ".join(self._paths) if len(self._paths) <= 2 else f"{len(self._paths)} files and folders"
        self.summary.setText(f"Reading {shown} …")

        paths = list(self._paths)

        def work(tell: Tell) -> _Loaded:
            def on_file(done: int, total: int) -> None:
                tell(_Progress(f"Reading files: {done} of {total}" if total != 1 else "Reading the file", done, total))

            loaded = load_records(paths, should_stop=stop.is_set, on_file=on_file)
            tell(_Progress(f"Rating the players of {len(loaded.records)} games", 0, 0))
            return _Loaded(tuple(loaded.records), rate_games(loaded.records, options), tuple(loaded.problems), loaded.files_read)

        self._latest_load = self._start(work, self._on_loaded)

    def choose_files(self) -> None:
        files, _filter = QFileDialog.getOpenFileNames(self, "Game files to rate", self._start_folder(), GAME_FILES_FILTER)
        if files:
            self.load_paths(files)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "A folder of games to rate", self._start_folder())
        if folder:
            self.load_paths([folder])

    def _start_folder(self) -> str:
        if self._paths:
            return str(Path(self._paths[-1]).parent)
        current = self._current_file() if self._current_file is not None else None
        return str(Path(current).parent) if current else str(Path.home())

    def offer_current_file(self) -> None:
        """Offer the file open in the main window, unless its players are on show already."""
        current = self._current_file() if self._current_file is not None else None
        offered = bool(current) and [str(current)] != self._paths
        if offered:
            self.current_file_button.setText(f"Rate {Path(str(current)).name}")
            self.current_file_button.setToolTip(f"Rate the players of the file open in the main window: {current}")
        self.current_file_button.setVisible(offered)

    def _rate_current_file(self) -> None:
        current = self._current_file() if self._current_file is not None else None
        if current:
            self.load_paths([str(current)])
            self.current_file_button.hide()

    def showEvent(self, event: QShowEvent) -> None:
        self.offer_current_file()
        super().showEvent(event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _dropped_paths(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if _dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _dropped_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.load_paths(paths)

    def options(self) -> RatingOptions:
        return RatingOptions(half_life_days=float(self.half_life.value()) or None)

    def is_busy(self) -> bool:
        return bool(self._jobs)

    def select_player(self, name: str) -> bool:
        """Select a player's row by name (case and spacing ignored); False when not listed."""
        wanted = " ".join(name.split()).casefold()
        for row in range(self.proxy.rowCount()):
            source = self.proxy.mapToSource(self.proxy.index(row, 0))
            if self.model.player(source.row()).key == wanted:
                self.table.selectRow(row)
                return True
        return False

    # -- jobs

    def _start(self, work: Callable[[Tell], Any], on_done: Callable[[int, Any], None]) -> int:
        number = next(self._numbers)
        task = self._tasks.submit(lambda context: work(context.report), with_context=True)
        task.done.connect(lambda payload: self._forget(number))  # first: the window is idle when `on_done` tells so
        task.done.connect(lambda payload: on_done(number, payload))
        task.failed.connect(lambda message: self._on_failed(number, message))
        task.progress.connect(lambda progress: self._on_progress(number, progress))
        self._jobs[number] = task
        self.busy.setRange(0, 0)
        self.busy.show()
        return number

    def _on_progress(self, number: int, progress: _Progress) -> None:
        if number != self._latest_load:
            return
        self.busy.setRange(0, progress.total)  # 0, 0: under way, how long unknown
        self.busy.setValue(progress.done)
        self.progress_label.setText(progress.text)
        self.progress_label.show()
        self.progress_changed.emit(progress)

    def _forget(self, number: int) -> None:
        self._jobs.pop(number, None)
        self.busy.setVisible(bool(self._jobs))
        if number == self._latest_load or not self._jobs:
            self.progress_label.hide()

    def _on_failed(self, number: int, message: str) -> None:
        self._forget(number)
        if number in (self._latest_load, self._latest_history):
            self.summary.setText(f"Could not rate these games: {message}")
            self.failed.emit(message)

    def _rerate(self) -> None:
        if not self._records:
            return
        records, options = self._records, self.options()

        def work(_tell: Tell) -> _Loaded:
            return _Loaded(records, rate_games(records, options), (), 0)

        self._latest_load = self._start(work, self._on_rerated)

    def _on_loaded(self, number: int, loaded: _Loaded) -> None:
        if number != self._latest_load:
            return
        self._records = loaded.records
        self._show_result(loaded.result)
        files = f"{loaded.files_read} file{'s' if loaded.files_read != 1 else ''}"
        problems = f" · {len(loaded.problems)} unreadable" if loaded.problems else ""
        if loaded.problems:
            self.summary.setToolTip("\n".join(loaded.problems[:30]))
        result = loaded.result
        self.summary.setText(
            f"{len(result.players)} players · {result.games_used} rated games"
            f"{f' · {result.games_unknown} without a result' if result.games_unknown else ''} · {files}{problems}"
        )
        self.ratings_ready.emit()

    def _on_rerated(self, number: int, loaded: _Loaded) -> None:
        if number != self._latest_load:
            return
        self._show_result(loaded.result)
        self.ratings_ready.emit()

    def _show_result(self, result: RatingResult) -> None:
        selected = self._selected_player()
        self.result = result
        self.model.set_players(result.players)
        self.table.setColumnHidden(KIND_COLUMN, len({p.kind for p in result.players}) < 2)
        if not self._sorted_once:  # strongest first; later the user's choice of column stays
            self.table.sortByColumn(COLUMNS.index("Rank / rating"), Qt.SortOrder.DescendingOrder)
            self._sorted_once = True
        if selected is None or not self.select_player(selected.name):
            self.chart.show_message(SELECT_TEXT if result.players else NO_PLAYERS_CHART_TEXT)

    def _selected_player(self) -> PlayerRating | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        return self.model.player(self.proxy.mapToSource(rows[0]).row())

    def _on_selection(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        player = self._selected_player()
        if player is None or not self._records:
            return
        self._stop_history.set()
        self._stop_history = threading.Event()
        stop = self._stop_history
        records, options = self._records, self.options()
        name, kind, key = player.name, player.kind, player.key
        self.chart.show_message(f"{name}: working out the estimate over time …")

        def work(_tell: Tell) -> _History:
            points = rating_history(records, name, kind, options, HISTORY_POINTS, should_stop=stop.is_set)
            return _History(key, kind, name, tuple(points))

        self._latest_history = self._start(work, self._on_history)

    def _on_history(self, number: int, history: _History) -> None:
        if number != self._latest_history:
            return
        self.chart.show_points(history.name, history.kind, history.points)
        self.history_ready.emit(history.key)

    # -- closing

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self, timeout_ms: int = 10_000) -> None:
        """Ask running jobs to stop and wait for them (a rating in progress finishes first)."""
        self._stop_load.set()
        self._stop_history.set()
        for task in self._jobs.values():
            task.cancel()
        self._tasks.shutdown(timeout_ms / 1000)
        self._tasks = Tasks(self)  # the window may be shown and used again
        self._latest_load = self._latest_history = 0  # answers still queued are now stale
        self._jobs.clear()
        self.busy.hide()
