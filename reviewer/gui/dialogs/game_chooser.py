"""Choosing one game of a file that holds many: a searchable list built from headers only.

Rows are read from the collection in batches as the list scrolls (`canFetchMore`/`fetchMore`);
typing a filter reads the rest, still headers only - no game is parsed until one is chosen.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
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

FETCH_BATCH = 200

ModelIndex = QModelIndex | QPersistentModelIndex


class SummarySource(Protocol):
    """What the dialog needs of a collection (`reviewer.core.formats` GameCollection)."""

    def __len__(self) -> int: ...

    def summary(self, index: int) -> Any: ...


COLUMNS: tuple[tuple[str, str], ...] = (
    ("#", "number"),
    ("White", "white"),
    ("Black", "black"),
    ("Result", "result"),
    ("Date", "date"),
    ("Event", "event"),
)


class GameSummaryModel(QAbstractTableModel):
    def __init__(self, source: SummarySource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self._total = len(source)
        self._rows: list[tuple[str, ...]] = []

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def canFetchMore(self, parent: ModelIndex = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and len(self._rows) < self._total

    def fetchMore(self, parent: ModelIndex = QModelIndex()) -> None:  # noqa: B008
        self.fetch(FETCH_BATCH)

    def fetch(self, count: int | None = None) -> None:
        start = len(self._rows)
        stop = self._total if count is None else min(self._total, start + count)
        if stop <= start:
            return
        self.beginInsertRows(QModelIndex(), start, stop - 1)
        self._rows.extend(self._row(index) for index in range(start, stop))
        self.endInsertRows()

    def _row(self, index: int) -> tuple[str, ...]:
        summary = self._source.summary(index)
        white = _with_rank(getattr(summary, "white", ""), getattr(summary, "white_rank", ""))
        black = _with_rank(getattr(summary, "black", ""), getattr(summary, "black_rank", ""))
        return (
            str(index + 1),
            white or "?",
            black or "?",
            getattr(summary, "result", "") or "",
            getattr(summary, "date", "") or "",
            getattr(summary, "event", "") or "",
        )

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.UserRole:
            return index.row()
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (0, 3):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section][0]
        return None


def _with_rank(name: str, rank: str) -> str:
    return f"{name} ({rank})" if name and rank else name


class _AnyColumnFilter(QSortFilterProxyModel):
    """Keeps rows where every word of the filter appears in some column."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._words: list[str] = []

    def set_words(self, text: str) -> None:
        words = text.casefold().split()
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            self._words = words
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._words = words
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: ModelIndex) -> bool:
        if not self._words:
            return True
        model = self.sourceModel()
        text = " ".join(
            str(model.data(model.index(source_row, column, source_parent)) or "") for column in range(len(COLUMNS))
        ).casefold()
        return all(word in text for word in self._words)


class GameChooserDialog(QDialog):
    """Lists the games of a collection; `chosen_index()` is the 0-based game picked."""

    def __init__(self, source: SummarySource, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Choose a game — {title}" if title else "Choose a game")
        self.resize(820, 520)
        self._model = GameSummaryModel(source, self)
        self._proxy = _AnyColumnFilter(self)
        self._proxy.setSourceModel(self._model)

        self.count_label = QLabel(f"{len(source)} games in this file")
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter by player, event, date, result…")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._on_filter)

        self.table = QTableView()
        self.table.setModel(self._proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(24)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((52, 190, 190, 70, 100)):
            self.table.setColumnWidth(column, width)
        self.table.doubleClicked.connect(lambda _index: self.accept())

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._open_button = buttons.button(QDialogButtonBox.StandardButton.Open)

        layout = QVBoxLayout(self)
        layout.addWidget(self.count_label)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)

        self._model.fetch(FETCH_BATCH)
        self.table.selectionModel().selectionChanged.connect(self._update_open_button)
        if self._proxy.rowCount() > 0:
            self.table.selectRow(0)
        self._update_open_button()
        self.filter_edit.setFocus()

    def _on_filter(self, text: str) -> None:
        if text.strip():
            self._model.fetch()  # searching looks at every game's headers
        self._proxy.set_words(text)
        if self._proxy.rowCount() > 0:
            self.table.selectRow(0)
        self._update_open_button()

    def _update_open_button(self) -> None:
        self._open_button.setEnabled(self.chosen_index() is not None)

    def visible_count(self) -> int:
        return self._proxy.rowCount()

    def chosen_index(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        return int(self._proxy.mapToSource(rows[0]).row())

    def select_game(self, index: int) -> None:
        """Select 0-based game `index` (fetching up to it)."""
        while self._model.rowCount() <= index and self._model.canFetchMore():
            self._model.fetch(FETCH_BATCH)
        proxy_index = self._proxy.mapFromSource(self._model.index(index, 0))
        if proxy_index.isValid():
            self.table.selectRow(proxy_index.row())
            self.table.scrollTo(proxy_index)
