"""About Reviewer: the versions of the app, Python, Qt and the libraries, and of every engine found.

Engines are asked their version by starting them, so that runs in a worker thread; the dialog
shows "Looking for engines…" until the answer arrives. "Copy" puts the whole text on the
clipboard, for a bug report.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QTimer, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer import __version__
from reviewer.core.engines.discovery import EngineInfo, find_engines
from reviewer.gui.common.icons import app_icon
from reviewer.gui.common.tasks import Tasks

LIBRARIES = (("python-chess", "chess"), ("sgfmill", "sgfmill"), ("pyqtgraph", "pyqtgraph"), ("numba", "numba"))
ENGINE_COLUMNS = ("Engine", "Game", "Version", "Status")
LOOKING = "Looking for engines…"


def library_versions() -> list[tuple[str, str]]:
    """(name, version) of the app, Python, Qt, PySide6 and the libraries that do the work."""
    rows = [
        ("Reviewer", __version__),
        ("Python", f"{platform.python_version()} ({sys.platform})"),
        ("Qt", qVersion()),
        ("PySide6", pyside_version),
    ]
    for shown, distribution in LIBRARIES:
        try:
            rows.append((shown, metadata.version(distribution)))
        except metadata.PackageNotFoundError:
            rows.append((shown, _module_version(distribution)))
    return rows


def _module_version(module_name: str) -> str:
    try:
        module = __import__(module_name)
    except ImportError:
        return "not installed"
    return str(getattr(module, "__version__", "unknown"))


def _find_engines_with_builtin() -> list[EngineInfo]:
    from reviewer.gui.engines.workers import import_go_engine_modules

    import_go_engine_modules()
    return list(find_engines())


class AboutDialog(QDialog):
    """What this Reviewer is made of. `engines_found` is set once the worker has answered."""

    def __init__(
        self,
        parent: QWidget | None = None,
        find: Callable[[], Sequence[EngineInfo]] = _find_engines_with_builtin,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("About Reviewer")
        self.setObjectName("about-dialog")
        self.setMinimumWidth(560)
        self.engines_found: list[EngineInfo] | None = None

        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(72, 72))
        title = QLabel(
            f"<h2 style='margin:0'>Reviewer {__version__}</h2>"
            "<p>Review your own chess and Go games with a real engine, offline.</p>"
            "<p>Accuracy and move labels follow lichess (chess) and KaTrain (Go).</p>"
        )
        title.setWordWrap(True)
        title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        head = QHBoxLayout()
        head.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(title, 1)

        self.versions_table = _table(("Component", "Version"), library_versions())
        self.engines_table = _table(ENGINE_COLUMNS, [(LOOKING, "", "", "")])

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton("Copy", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setToolTip("Copy these versions, for a bug report")
        self.copy_button.clicked.connect(self.copy_to_clipboard)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addWidget(self.versions_table)
        layout.addWidget(QLabel("<b>Engines</b>"))
        layout.addWidget(self.engines_table)
        layout.addWidget(buttons)

        self._tasks = Tasks(self)
        self._find = find
        QTimer.singleShot(0, self._start_looking)

    def _start_looking(self) -> None:
        task = self._tasks.submit(self._find)
        task.done.connect(self._on_engines)
        task.failed.connect(self._on_engines_failed)

    def _on_engines(self, engines: Any) -> None:
        self.engines_found = list(engines or [])
        rows: list[tuple[str, str, str, str]] = [
            (e.name, e.kind, e.version or "–", "ok" if e.usable else f"{e.status}: {e.detail}")
            for e in self.engines_found
        ] or [("No engine found", "", "", "")]
        _fill(self.engines_table, rows)

    def _on_engines_failed(self, message: str) -> None:
        self.engines_found = []
        _fill(self.engines_table, [(f"Could not look for engines: {message}", "", "", "")])

    def text(self) -> str:
        """Everything the dialog shows, as plain lines."""
        lines = [f"{self.versions_table.item(r, 0).text()}: {self.versions_table.item(r, 1).text()}"  # type: ignore[union-attr]
                 for r in range(self.versions_table.rowCount())]
        for row in range(self.engines_table.rowCount()):
            cells = [self.engines_table.item(row, c).text() for c in range(self.engines_table.columnCount())]  # type: ignore[union-attr]
            lines.append("engine: " + " · ".join(cell for cell in cells if cell))
        return "\n".join(lines)

    def copy_to_clipboard(self) -> None:
        QGuiApplication.clipboard().setText(self.text())


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().hide()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    table.setShowGrid(False)
    table.setAlternatingRowColors(True)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    _fill(table, rows)
    return table


def _fill(table: QTableWidget, rows: Sequence[Sequence[str]]) -> None:
    table.setRowCount(len(rows))
    for row, values in enumerate(rows):
        for column, value in enumerate(values):
            item = QTableWidgetItem(value)
            item.setToolTip(value)
            table.setItem(row, column, item)
    height = table.horizontalHeader().height() + sum(table.rowHeight(r) for r in range(len(rows))) + 4
    table.setFixedHeight(min(height, 320))
