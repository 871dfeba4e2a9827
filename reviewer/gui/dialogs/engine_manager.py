"""The engine manager: every engine found, the default per game, the user's own engines, installs.

- the list comes from `find_engines()` (which starts each engine to ask its version) in a worker
  thread; "Refresh" asks again;
- "Add…" asks a program what it speaks (UCI, KataGo's analysis engine; GTP is recognised and
  refused with the reason) in a worker thread, then writes it to engines.json;
- "Remove" takes a user's engine out of engines.json; "Make default" chooses the engine of its
  game for the next analysis; "Options…" edits threads, hash, visits and the KataGo model;
- "Install Stockfish" / "Install KataGo" run `reviewer engines install --only …` as a separate
  process, showing each step it reports, and "Cancel" stops it.
Every failure is shown in the dialog and stays there until the next action.

`open_engine_manager(parent, settings, kind, install)` opens it (window-modal, without blocking)
from the Engines menu, the message bar or anywhere else.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QProcess, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer.core.engines.discovery import EngineInfo, find_engines
from reviewer.core.engines.registry import engines_as_run
from reviewer.core.engines.user_engines import (
    MODEL_NEEDED,
    EngineOptions,
    add_engine,
    probe_engine,
    remove_engine,
    set_options,
)
from reviewer.core.gametree import GameKind
from reviewer.gui.common.settings import EngineChoice, Settings
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.engines.workers import import_go_engine_modules

COLUMNS = ("Engine", "Game", "Version", "Protocol", "Status", "Path")
INSTALLABLE = {"stockfish": "Stockfish", "katago": "KataGo"}
STEP_PREFIX = "reviewer engines: "
KILL_AFTER_MS = 3000


def install_command(engine: str) -> list[str]:
    """`reviewer engines install --only ENGINE`, run by this same program (a bundle or Python)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "engines", "install", "--only", engine]
    return [sys.executable, "-m", "reviewer", "engines", "install", "--only", engine]


def _find_all() -> list[EngineInfo]:
    import_go_engine_modules()  # discovery asks the built-in engine its version
    return engines_as_run(find_engines())  # a KataGo searched by Reviewer's own search says so


def _probe_and_add(command_text: str, model: str | None = None) -> str:
    probed = probe_engine(command_text, model=model)
    options = EngineOptions(model=model) if model and probed.protocol == "katago" else None
    return add_engine(probed, options=options).name


class EngineManagerDialog(QDialog):
    """See the module's docstring. Signals tell the main window what changed."""

    engines_changed = Signal()  # the list of engines may differ (added, removed, installed, options)
    default_chosen = Signal(object)  # an EngineChoice
    engines_listed = Signal()  # the list on screen is fresh (tests wait on it)
    engines_found = Signal(object)  # the engines it found (a list of EngineInfo), for every other view of them
    install_finished = Signal(str, bool)  # engine, whether it is installed now

    def __init__(
        self,
        settings: Settings,
        kind: GameKind | None = None,
        parent: QWidget | None = None,
        find: Callable[[], Sequence[EngineInfo]] = _find_all,
        installer: Callable[[str], list[str]] = install_command,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Engines")
        self.setObjectName("engine-manager")
        self.setMinimumSize(760, 420)
        self._settings = settings
        self._kind = kind
        self._find = find
        self._installer = installer
        self.engines: list[EngineInfo] = []
        self._process: QProcess | None = None
        self._installing: str | None = None
        self._cancelled = False
        self._install_output: list[str] = []

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 10)
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda _item: self.edit_options())

        self.add_button = QPushButton("Add…")
        self.add_button.setToolTip("Add an engine by its program: it must answer UCI (chess) or KataGo's analysis protocol (Go)")
        self.remove_button = QPushButton("Remove")
        self.default_button = QPushButton("Make default")
        self.options_button = QPushButton("Options…")
        self.refresh_button = QPushButton("Refresh")
        self.add_button.clicked.connect(self.choose_program)
        self.remove_button.clicked.connect(self.remove_selected)
        self.default_button.clicked.connect(self.make_selected_default)
        self.options_button.clicked.connect(self.edit_options)
        self.refresh_button.clicked.connect(self.refresh)
        row = QHBoxLayout()
        for button in (self.add_button, self.remove_button, self.default_button, self.options_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.refresh_button)

        self.install_buttons: dict[str, QPushButton] = {}
        install_row = QHBoxLayout()
        for engine, shown in INSTALLABLE.items():
            button = QPushButton(f"Install {shown}")
            button.clicked.connect(lambda _checked=False, e=engine: self.install(e))
            self.install_buttons[engine] = button
            install_row.addWidget(button)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # the installer reports steps, not fractions
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.cancel_button.clicked.connect(self.cancel_install)
        install_row.addWidget(self.progress, 1)
        install_row.addWidget(self.cancel_button)

        self.status_label = QLabel("Looking for engines…")
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label.setObjectName("engine-manager-status")

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addLayout(install_row)
        layout.addWidget(self.status_label)
        layout.addWidget(buttons)

        self._tasks = Tasks(self)
        self._update_buttons()
        QTimer.singleShot(0, self.refresh)

    # -------------------------------------------------------------------------------- list
    def refresh(self) -> None:
        self.refresh_button.setEnabled(False)
        self._submit("list", None, self._find)

    def _show_engines(self, engines: Sequence[EngineInfo]) -> None:
        selected = self.selected_engine()
        self.engines = list(engines)
        if self._kind is not None:  # the game at hand first
            self.engines.sort(key=lambda e: e.kind != self._kind)
        self.table.setRowCount(len(self.engines))
        for row, engine in enumerate(self.engines):
            default = self._is_default(engine)
            status = "ok" if engine.usable else engine.status
            values = (
                f"{engine.name}  ★ default" if default else engine.name,
                engine.kind,
                engine.version or "–",
                engine.shown_name if engine.shown_name
                else {"uci": "UCI", "katago": "KataGo analysis", "builtin": "built-in"}[engine.protocol],
                status,
                engine.command[0] if engine.command else engine.detail,
            )
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(engine.detail or " ".join(engine.command))
                if column == 0 and default:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(row, column, item)
            if selected is not None and engine.name == selected.name:
                self.table.selectRow(row)
        self.refresh_button.setEnabled(True)
        self._update_buttons()
        self.engines_found.emit(list(engines))
        self.engines_listed.emit()

    def _is_default(self, engine: EngineInfo) -> bool:
        choice = self._settings.engine_choice(engine.kind)
        if choice.command:
            return False
        if choice.name:
            return choice.name.lower() == engine.name.lower()
        first = next((e for e in self.engines if e.kind == engine.kind and e.usable), None)
        return first is not None and first.name == engine.name

    def selected_engine(self) -> EngineInfo | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows or rows[0].row() >= len(self.engines):
            return None
        return self.engines[rows[0].row()]

    def select(self, name: str) -> None:
        for row, engine in enumerate(self.engines):
            if engine.name == name:
                self.table.selectRow(row)
                return

    def _update_buttons(self) -> None:
        engine = self.selected_engine()
        busy = self._process is not None
        self.remove_button.setEnabled(engine is not None and engine.source == "settings")
        self.remove_button.setToolTip(
            "Only engines you added can be removed here" if engine is not None and engine.source != "settings" else ""
        )
        self.default_button.setEnabled(engine is not None and engine.usable and not self._is_default(engine))
        self.options_button.setEnabled(engine is not None and engine.protocol != "builtin" and bool(engine.command))
        for button in self.install_buttons.values():
            button.setEnabled(not busy)

    def _say(self, text: str, problem: bool = False) -> None:
        self.status_label.setText(text)
        self.status_label.setProperty("problem", problem)
        self.status_label.setStyleSheet("color: #c62828;" if problem else "")

    # ------------------------------------------------------------------------------ actions
    def choose_program(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, "Choose an engine program", str(Path.home()))
        if path:
            self.add_program(shlex.quote(path))

    def add_program(self, command_text: str, model: str | None = None) -> None:
        """Ask the program (a path, or a command line) what it speaks, then add it; off the GUI thread.
        A KataGo without a model to use gets one chosen by the user, then is asked again."""
        self._say(f"Asking {command_text} which protocol it speaks…")
        self.add_button.setEnabled(False)
        self._submit("add", command_text, _probe_and_add, command_text, model)

    def remove_selected(self) -> None:
        engine = self.selected_engine()
        if engine is None or engine.source != "settings":
            return
        self._submit("remove", engine.name, remove_engine, engine.name)

    def make_selected_default(self) -> None:
        engine = self.selected_engine()
        if engine is None or not engine.usable:
            return
        choice = EngineChoice(kind=engine.kind, name=engine.name)
        self._settings.set_engine_choice(choice)
        self.default_chosen.emit(choice)
        self._say(f"{engine.name} analyses {engine.kind} games from now on.")
        self._show_engines(self.engines)

    def edit_options(self) -> None:
        engine = self.selected_engine()
        if engine is None or engine.protocol == "builtin" or not engine.command:
            return
        dialog = EngineOptionsDialog(engine, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.store_options(engine, dialog.options())

    def store_options(self, engine: EngineInfo, options: EngineOptions) -> None:
        protocol = "katago" if engine.protocol == "katago" else "uci"
        self._submit("options", engine.name, set_options, engine.name, options, engine.kind, protocol, engine.command)

    # ------------------------------------------------------------------------------ install
    def install(self, engine: str) -> None:
        """Run the installer for `engine` ("stockfish" or "katago") as a separate, cancellable process."""
        if self._process is not None:
            return
        command = self._installer(engine)
        process = QProcess(self)
        process.setProgram(command[0])
        process.setArguments(command[1:])
        process.readyReadStandardError.connect(self._read_install_output)
        process.readyReadStandardOutput.connect(self._read_install_output)
        process.finished.connect(self._on_install_finished)
        process.errorOccurred.connect(self._on_install_error)
        self._process, self._installing, self._cancelled = process, engine, False
        self._install_output = []
        self.progress.show()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self._say(f"Installing {INSTALLABLE[engine]}…")
        self._update_buttons()
        process.start()

    def cancel_install(self) -> None:
        if self._process is None:
            return
        self._cancelled = True
        self.cancel_button.setEnabled(False)
        self._say(f"Cancelling the installation of {INSTALLABLE.get(self._installing or '', '')}…")
        self._process.terminate()
        QTimer.singleShot(KILL_AFTER_MS, self._kill_if_running)

    def _kill_if_running(self) -> None:
        if self._process is not None and self._process.state() != QProcess.ProcessState.NotRunning:
            self._process.kill()

    def _read_install_output(self) -> None:
        if self._process is None:
            return
        data = bytes(self._process.readAllStandardError().data()) + bytes(self._process.readAllStandardOutput().data())
        for line in data.decode("utf-8", errors="replace").splitlines():
            line = line.strip()
            if not line:
                continue
            self._install_output.append(line)
            if not self._cancelled:
                self._say(line[len(STEP_PREFIX):] if line.startswith(STEP_PREFIX) else line)

    def _on_install_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._process is not None:
            self._finish_install(False, f"The installer did not start: {self._process.errorString()}")

    def _on_install_finished(self, code: int, status: QProcess.ExitStatus) -> None:
        self._read_install_output()
        engine = INSTALLABLE.get(self._installing or "", "")
        if self._cancelled:
            self._finish_install(False, f"Installation of {engine} cancelled; nothing was changed that a new try will not redo.")
        elif status == QProcess.ExitStatus.NormalExit and code == 0:
            self._finish_install(True, f"{engine} is installed.")
        else:
            last = next((line for line in reversed(self._install_output) if "error" in line.lower()), None)
            last = last or (self._install_output[-1] if self._install_output else f"exit code {code}")
            self._finish_install(False, f"{engine} could not be installed: {last}")

    def _finish_install(self, ok: bool, message: str) -> None:
        engine = self._installing or ""
        process, self._process, self._installing = self._process, None, None
        if process is not None:
            process.deleteLater()
        self.progress.hide()
        self.cancel_button.hide()
        self._say(message, problem=not ok)
        self._update_buttons()
        self.install_finished.emit(engine, ok)
        if ok:
            self.engines_changed.emit()
            self.refresh()

    def done(self, result: int) -> None:
        """Closing stops an installation under way (as Cancel does) before the dialog goes."""
        if self._process is not None:
            self._cancelled = True
            self._process.kill()
            self._process.waitForFinished(KILL_AFTER_MS)
        super().done(result)

    # ------------------------------------------------------------------------------- tasks
    def _submit(self, what: str, payload: Any, function: Callable[..., Any], *args: Any) -> None:
        task = self._tasks.submit(function, *args, must_finish=what != "list")
        task.done.connect(lambda result: self._on_task_done(what, payload, result))
        task.failed.connect(lambda message: self._on_task_failed(what, payload, message))

    def _on_task_done(self, what: str, payload: Any, result: Any) -> None:
        if what == "list":
            self._show_engines(result or [])
            if self.status_label.text() == "Looking for engines…":
                self._say(self._summary())
            return
        if what == "add":
            self.add_button.setEnabled(True)
            self._say(f"Added {result}: it is in engines.json and in the engine menus.")
            self._after_change(select=str(result))
        elif what == "remove":
            self._say(f"Removed {payload}." if result else f"{payload} was not in engines.json.")
            self._after_change()
        elif what == "options":
            self._say(f"Options of {payload} saved; they apply to the next analysis.")
            self._after_change(select=str(payload))

    def _after_change(self, select: str | None = None) -> None:
        self.engines_changed.emit()
        if select is not None:
            self.engines_listed.connect(lambda: self.select(select), Qt.ConnectionType.SingleShotConnection)
        self.refresh()

    def _on_task_failed(self, what: str, payload: Any, message: str) -> None:
        message = re.sub(r"^(?:ProbeError|ValueError): ", "", message)  # the words are for people
        if what == "list":
            self.refresh_button.setEnabled(True)
            self._say(f"Could not look for engines: {message}", problem=True)
        elif what == "add":
            self.add_button.setEnabled(True)
            self._say(f"Not added: {message}", problem=True)
            if MODEL_NEEDED in message:
                model = choose_model_file(self)
                if model:
                    self.add_program(str(payload), model)
        elif what == "remove":
            self._say(f"Could not remove {payload}: {message}", problem=True)
        elif what == "options":
            self._say(f"Could not save the options of {payload}: {message}", problem=True)

    def _summary(self) -> str:
        missing = [kind for kind in ("chess", "go") if not any(e.usable and e.kind == kind and e.protocol != "builtin"
                                                               for e in self.engines)]
        if "chess" in missing:
            return "No chess engine found: install Stockfish, or add a UCI engine you have."
        if "go" in missing:
            return "KataGo is not installed: Go games are analysed by the built-in engine (install KataGo for a strong one)."
        return f"{sum(e.usable for e in self.engines)} engines ready. Double-click an engine for its options."


class EngineOptionsDialog(QDialog):
    """Threads and hash (UCI), threads, visits and model file (KataGo); 0 keeps the engine's default."""

    def __init__(self, engine: EngineInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Options of {engine.name}")
        self._engine = engine
        current = EngineOptions.from_json(dict(engine.options))
        form = QFormLayout()
        self.threads = _spin(0, 1024, current.threads, "engine's default")
        form.addRow("Threads", self.threads)
        self.hash_mb = _spin(0, 1 << 20, current.hash_mb, "engine's default", " MB")
        self.visits = _spin(0, 10_000_000, current.visits, "from the search limit")
        self.model = QLineEdit(current.model or "")
        self.model.setPlaceholderText("the installed model")
        browse = QPushButton("Choose…")
        browse.clicked.connect(self._choose_model)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(browse)
        if engine.protocol == "uci":
            form.addRow("Hash", self.hash_mb)
        else:
            form.addRow("Visits", self.visits)
            form.addRow("Model file", model_row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def _choose_model(self) -> None:
        path = choose_model_file(self)
        if path:
            self.model.setText(path)

    def options(self) -> EngineOptions:
        def value(spin: QSpinBox) -> int | None:
            return spin.value() or None

        if self._engine.protocol == "uci":
            return EngineOptions(threads=value(self.threads), hash_mb=value(self.hash_mb))
        return EngineOptions(threads=value(self.threads), visits=value(self.visits), model=self.model.text().strip() or None)


def choose_model_file(parent: QWidget) -> str:
    path, _filter = QFileDialog.getOpenFileName(parent, "Choose a KataGo model", "", "KataGo models (*.bin.gz *.bin *.txt.gz)")
    return path


def _spin(low: int, high: int, value: int | None, default_text: str, suffix: str = "") -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setSpecialValueText(default_text)
    spin.setSuffix(suffix)
    spin.setValue(value or 0)
    return spin


def open_engine_manager(
    parent: QWidget,
    settings: Settings | None = None,
    kind: GameKind | None = None,
    install: str | None = None,
) -> EngineManagerDialog:
    """Open the engine manager over `parent` without blocking; `install` ("stockfish"/"katago")
    starts that installation at once (the "Install Stockfish" button of a message)."""
    dialog = EngineManagerDialog(settings or Settings(), kind, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    if install is not None:
        dialog.install(install)
    return dialog
