"""Choosing one game of a file that holds many: a sortable, searchable list built from tags only.

The list shows its first rows at once. A PGN's games are listed on a thread of their own
(`index_in_background`), in batches; a timer on the GUI thread takes each new batch from the
collection's columns (plain lists of text) without waiting for anything. Other collections give
their rows a few hundred at a time. Sorting and filtering work on those columns directly (no
per-cell call into Python for a million rows): a sort is one `sorted` over a column, a filter one
pass over a lower-cased line per game.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer.gui.common.window_size import resize_to_fit

POLL_MS = 100  # how often new rows are taken while a file is still being listed
SUMMARIES_PER_TICK = 300  # rows per tick for collections that only give summaries one by one
FILTER_AT_ONCE_ROWS = 100_000  # bigger lists filter once typing pauses
FILTER_PAUSE_MS = 250

ModelIndex = QModelIndex | QPersistentModelIndex


class SummarySource(Protocol):
    """What the dialog needs of a collection (`reviewer.core.formats` GameCollection)."""

    def __len__(self) -> int: ...

    def summary(self, index: int) -> Any: ...


COLUMNS: tuple[str, ...] = ("#", "White", "Black", "Result", "Date", "Event")
_NUMBER, _WHITE, _BLACK, _RESULT, _DATE, _EVENT = range(len(COLUMNS))
TAG_COLUMNS = ("white", "black", "white_elo", "black_elo", "result", "date", "event")
_PLAIN_COLUMN_TAGS = {_RESULT: "result", _DATE: "date", _EVENT: "event"}
_SORT_TAGS = {_WHITE: "white", _BLACK: "black", **_PLAIN_COLUMN_TAGS}


def _with_rank(name: str, rank: str) -> str:
    return f"{name} ({rank})" if name and rank else name


class GameSummaryModel(QAbstractTableModel):
    """Rows of a collection's games, read from one list of text per tag (a PGN's own index columns).

    `view_order` maps a shown row to its game (0-based); sorting and filtering only change it.
    """

    rows_added = Signal(int)  # games listed so far
    listing_finished = Signal(int)

    def __init__(self, source: SummarySource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._source = source
        columns = getattr(source, "columns", None)
        self._from_index = callable(columns)
        self._columns: dict[str, list[str]] = columns() if callable(columns) else {name: [] for name in TAG_COLUMNS}
        self._count = 0  # games taken into the list
        self._ascending: dict[int, tuple[int, np.ndarray]] = {}  # column -> (games then, their order)
        self._joined: dict[str, tuple[int, str, np.ndarray]] = {}  # tag -> (games then, text, line starts)
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._words: list[str] = []
        self.view_order: list[int] = []
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.take_new_rows)
        self.take_new_rows()
        if not self.listing_complete():
            start = getattr(source, "index_in_background", None)
            if callable(start):
                start()
            self._timer.start()

    # ---------------------------------------------------------------- filling in

    def listing_complete(self) -> bool:
        if self._from_index and not getattr(self._source, "index_complete", True):
            return False
        return self._count >= len(self._source)

    def game_count(self) -> int:
        return self._count

    def take_new_rows(self) -> None:
        """Take the rows listed since the last call (never waits for the listing)."""
        start = self._count
        if self._from_index:
            stop = len(self._source)  # rows below this are complete in every column
        else:
            stop = min(len(self._source), start + SUMMARIES_PER_TICK)
            self._read_summaries(start, stop)
        if stop > start:
            self._count = stop
            shown = range(start, stop) if not self._words else [i for i in range(start, stop) if self._accepts(i)]
            if shown:
                first = len(self.view_order)
                self.beginInsertRows(QModelIndex(), first, first + len(shown) - 1)
                self.view_order.extend(shown)
                self.endInsertRows()
            self.rows_added.emit(stop)
        if self.listing_complete():
            if self._timer.isActive():
                self._timer.stop()
                if self._sort is not None:
                    self.sort(*self._sort)  # rows that came in while sorted were added at the end
                self.listing_finished.emit(self._count)
        elif not self._timer.isActive():
            self._timer.start()

    def _read_summaries(self, start: int, stop: int) -> None:
        columns = self._columns
        for index in range(start, stop):
            summary = self._source.summary(index)
            columns["white"].append(getattr(summary, "white", "") or "")
            columns["black"].append(getattr(summary, "black", "") or "")
            columns["white_elo"].append(getattr(summary, "white_rank", "") or "")
            columns["black_elo"].append(getattr(summary, "black_rank", "") or "")
            columns["result"].append(getattr(summary, "result", "") or "")
            columns["date"].append(getattr(summary, "date", "") or "")
            columns["event"].append(getattr(summary, "event", "") or "")

    def stop(self) -> None:
        self._timer.stop()

    def text(self, index: int, column: int) -> str:
        """What game `index` (0-based) shows in `column`."""
        columns = self._columns
        if column == _NUMBER:
            return str(index + 1)
        if column == _WHITE:
            return _with_rank(columns["white"][index], columns["white_elo"][index]) or "?"
        if column == _BLACK:
            return _with_rank(columns["black"][index], columns["black_elo"][index]) or "?"
        return columns[_PLAIN_COLUMN_TAGS[column]][index]

    # ---------------------------------------------------------------- sorting and filtering

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        self._sort = (column, order) if column >= 0 else None
        self.view_order = self._ordered(self._accepted_games())
        self.layoutChanged.emit()

    def _games_in_order(self) -> np.ndarray:
        """Every game, in the current sort order."""
        if self._sort is None or self._sort[0] == _NUMBER:
            games = np.arange(self._count, dtype=np.int64)
        else:
            column = self._sort[0]
            cached = self._ascending.get(column)
            if cached is None or cached[0] != self._count:
                tag = _SORT_TAGS[column]
                keys = [value.casefold() for value in self._columns[tag][: self._count]]
                order = np.array(sorted(range(self._count), key=keys.__getitem__), dtype=np.int64)
                cached = (self._count, order)
                self._ascending[column] = cached
            games = cached[1]
        if self._sort is not None and self._sort[1] == Qt.SortOrder.DescendingOrder:
            return games[::-1]
        return games

    def _ordered(self, accepted: np.ndarray | None) -> list[int]:
        games = self._games_in_order()
        if accepted is not None:
            games = games[accepted[games]]
        return games.tolist()  # type: ignore[no-any-return]

    def set_filter(self, text: str) -> None:
        """Keep the games where every word of `text` appears in some column (case ignored)."""
        words = text.casefold().split()
        if words == self._words:
            return
        self.beginResetModel()
        self._words = words
        self.view_order = self._ordered(self._accepted_games())
        self.endResetModel()

    def _accepted_games(self) -> np.ndarray | None:
        """Which games every filter word is found in (None: no filter)."""
        if not self._words:
            return None
        accepted = np.ones(self._count, dtype=bool)
        for word in self._words:
            found = np.zeros(self._count, dtype=bool)
            for tag in TAG_COLUMNS:
                found[self._games_containing(tag, word)] = True
            accepted &= found
        return accepted

    def _games_containing(self, tag: str, word: str) -> np.ndarray:
        """Games whose `tag` holds `word`: one search over the column joined into one text."""
        joined = self._joined.get(tag)
        if joined is None or joined[0] != self._count:
            values = self._columns[tag][: self._count]
            text = "\n".join(values).casefold()
            if len(text) != sum(map(len, values)) + max(0, len(values) - 1):  # casefold changed a length
                values = [value.casefold() for value in values]
                text = "\n".join(values)
            starts = np.zeros(len(values) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, values), dtype=np.int64, count=len(values)) + 1, out=starts[1:])
            joined = (self._count, text, starts)
            self._joined[tag] = joined
        _count, text, starts = joined
        positions = np.fromiter((match.start() for match in re.finditer(re.escape(word), text)), dtype=np.int64)
        return np.searchsorted(starts, positions, side="right") - 1

    def _accepts(self, index: int) -> bool:
        if not self._words:
            return True
        texts = [self._columns[tag][index].casefold() for tag in TAG_COLUMNS]
        return all(any(word in text for text in texts) for word in self._words)

    def row_of_game(self, index: int) -> int | None:
        try:
            return self.view_order.index(index)
        except ValueError:
            return None

    # ---------------------------------------------------------------- Qt's model

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.view_order)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(self.view_order[index.row()], index.column())
        if role == Qt.ItemDataRole.UserRole:
            return self.view_order[index.row()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (_NUMBER, _RESULT):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None


class GameChooserDialog(QDialog):
    """Lists the games of a collection; `chosen_index()` is the 0-based game picked."""

    def __init__(self, source: SummarySource, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Choose a game — {title}" if title else "Choose a game")
        resize_to_fit(self, 820, 520)
        self._model = GameSummaryModel(source, self)

        self.count_label = QLabel()
        # What the reader says of the whole file (a charset it guessed), for as long as the list is open.
        self.file_notes_label = QLabel("\n".join(getattr(source, "warnings", None) or ()))
        self.file_notes_label.setWordWrap(True)
        self.file_notes_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.file_notes_label.setVisible(bool(self.file_notes_label.text()))
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter by player, event, date, result…")
        self.filter_edit.setClearButtonEnabled(True)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(FILTER_PAUSE_MS)
        self._filter_timer.timeout.connect(self.apply_filter)
        self.filter_edit.textChanged.connect(self._on_filter_text)

        self.table = QTableView()
        self.table.setModel(self._model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(24)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((64, 190, 190, 70, 100)):
            self.table.setColumnWidth(column, width)
        self.table.doubleClicked.connect(lambda _index: self.accept())

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._open_button = buttons.button(QDialogButtonBox.StandardButton.Open)

        layout = QVBoxLayout(self)
        layout.addWidget(self.count_label)
        layout.addWidget(self.file_notes_label)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)

        self.table.selectionModel().selectionChanged.connect(self._update_open_button)
        self._model.rows_added.connect(self._on_rows_added)
        self._model.listing_finished.connect(lambda _count: self._update_count())
        self._model.modelReset.connect(self._update_count)
        if self._model.rowCount() > 0:
            self.table.selectRow(0)
        self._update_count()
        self._update_open_button()
        self.filter_edit.setFocus()

    def done(self, result: int) -> None:
        self._model.stop()
        super().done(result)

    def _on_rows_added(self, _count: int) -> None:
        if self.chosen_index() is None and self._model.rowCount() > 0:
            self.table.selectRow(0)
        self._update_count()

    def _update_count(self) -> None:
        games = self._model.game_count()
        shown = self._model.rowCount()
        if not self._model.listing_complete():
            text = f"Listing the games… {games:,} so far"
        else:
            text = f"{games:,} games in this file"
        if shown != games:
            text += f" · {shown:,} shown"
        self.count_label.setText(text)

    def _on_filter_text(self, _text: str) -> None:
        if self._model.game_count() <= FILTER_AT_ONCE_ROWS:
            self.apply_filter()
        else:
            self._filter_timer.start()

    def apply_filter(self) -> None:
        self._filter_timer.stop()
        self._model.set_filter(self.filter_edit.text())
        if self._model.rowCount() > 0:
            self.table.selectRow(0)
        self._update_open_button()

    def _update_open_button(self) -> None:
        self._open_button.setEnabled(self.chosen_index() is not None)

    @property
    def model(self) -> GameSummaryModel:
        return self._model

    def visible_count(self) -> int:
        return self._model.rowCount()

    def chosen_index(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        return int(self._model.view_order[rows[0].row()])

    def select_game(self, index: int) -> None:
        """Select 0-based game `index` when it is listed and shown."""
        row = self._model.row_of_game(index)
        if row is not None:
            self.table.selectRow(row)
            self.table.scrollTo(self._model.index(row, 0))
