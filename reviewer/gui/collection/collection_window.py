"""The Collection window: review many games in the background, then see what they say about a player.

A player chooses files and folders (multi-game PGNs, SGF collections) and optionally a player's
name (completed from the names in the files), and starts a batch review: one progress bar of games
done out of all with an ETA, Cancel, and a run that takes up where the last one stopped (the batch
store keeps every finished game). Games whose files carry evaluations are imported; a game that
cannot be read is a line in the problems list; a missing engine is a message with its installer.

When the run ends, the insights of the chosen player (`reviewer.core.services.insights`, shown by
`gui.collection.collection_panel`): their games' accuracy or loss over time (a click on a point opens the game
in the main window), phases, colours, openings, the costliest mistakes (a double-click opens the
game at the move), the per-game strength estimates with their intervals and the strength from the
results. CSV and HTML exports are written off the GUI thread, atomically. What the window says is
decided in `gui.presenters.collection`; the work is in `gui.collection.collection_run`.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QStringListModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCompleter,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewer.core.analysis import Limit
from reviewer.core.games import registered_games
from reviewer.core.gametree import GameKind
from reviewer.core.services.batch.runner import BatchSettings
from reviewer.gui.collection.collection_panel import InsightsPanel
from reviewer.gui.collection.collection_run import (
    BatchRequest,
    CollectionRun,
    RunProgress,
    RunResult,
    RunSignals,
    engine_settings,
    player_names,
    write_export,
)
from reviewer.gui.collection.repertoire_departures import RepertoireDeparture, repertoire_departures
from reviewer.gui.common.message_bar import MessageBar
from reviewer.gui.common.settings import EngineChoice, Settings
from reviewer.gui.common.tasks import Task, Tasks
from reviewer.gui.common.window_size import resize_to_fit
from reviewer.gui.presenters import collection as present
from reviewer.gui.presenters.messages import Message
from reviewer.gui.presenters.text import GAME_FILE_FILTER

REDRAW_INTERVAL_MS = 100  # progress is drawn at most ten times a second
EXPORT_FILTERS = {"csv": "CSV, one row per fact (*.csv)", "html": "HTML page (*.html)"}
SHUTDOWN_WAIT_S = 5.0

SettingsProvider = Callable[[], Mapping[GameKind, BatchSettings]]


def batch_settings_from(
    engine_choice: Callable[[GameKind], EngineChoice], limit: Callable[[GameKind], Limit], preset: str
) -> dict[GameKind, BatchSettings]:
    """What reviews each kind of game: the engine chosen for it, the limits and the thresholds."""
    kinds = tuple(support.kind for support in registered_games())
    return {
        kind: BatchSettings(
            engine=engine_settings(engine_choice(kind)),
            chess_limit=limit("chess"),
            go_limit=limit("go"),
            preset=preset,  # type: ignore[arg-type]
        )
        for kind in kinds
    }


DATABASE_LANE = "game-database-import"  # one writer to the game database at a time, as the explorer's imports


def feed_database(sources: list[str], player: str | None) -> list[RepertoireDeparture]:
    """Off the window's thread: the reviewed files read into the game database (a file read before
    is not read again), the analysis cache's figures joined to their games, and where each of the
    player's games left their usual line."""
    from reviewer.core.cache import AnalysisCache
    from reviewer.core.database import GameDatabase, import_paths
    from reviewer.core.database.figures import join_analysis

    paths = [Path(source) for source in sources if Path(source).is_file()]
    with GameDatabase() as database:
        database.positions.runs()  # a damaged database takes nothing (the explorer offers its rebuild)
        import_paths(database, paths)
        with AnalysisCache() as cache:
            join_analysis(database, cache, again=True, sources=paths)
        return repertoire_departures(database, paths, player) if player else []


class CollectionWindow(QWidget):
    """Signals: `run_finished(RunCounts)` once a run's insights are on show, `insights_shown()`
    after every new set of insights, `game_requested(path, index, ply)` (ply 0: the start),
    `install_requested(kind)` from the missing-engine message, `export_finished(path)`, `failed(text)`."""

    run_finished = Signal(object)
    insights_shown = Signal()
    game_requested = Signal(str, int, int)
    install_requested = Signal(str)
    export_finished = Signal(str)
    failed = Signal(str)
    names_ready = Signal()

    def __init__(
        self,
        batch_settings: SettingsProvider | None = None,
        store_path: Path | None = None,
        parent: QWidget | None = None,
        go_limit_is_default: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Collection — Reviewer")
        self.setWindowFlag(Qt.WindowType.Window, True)
        resize_to_fit(self, 1100, 820)
        self._batch_settings = batch_settings or _saved_settings
        # Go's default limit depends on the engine that reviews (passes with KataGo), which only the run finds out
        self._go_limit_is_default = go_limit_is_default or (_saved_go_limit_is_default if batch_settings is None else _never)
        self._store_path = store_path
        self._paths: list[str] = []
        self.reports: tuple[dict[str, Any], ...] = ()
        self.insights: dict[str, Any] | None = None
        self._sources: tuple[str, ...] = ()
        self._wanted_player: str | None = None
        self._pending_progress: RunProgress | None = None
        self.progress_shown: RunProgress | None = None  # the latest drawn (tests)
        self._pending_reports: tuple[dict[str, Any], ...] = ()
        self._exports: set[int] = set()

        self._signals = RunSignals()  # no parent: the run's thread may still hold it when the window goes
        self._run = CollectionRun(self._signals)
        self._signals.progress.connect(self._on_progress)
        self._signals.problem.connect(self._on_problem)
        self._signals.engine_missing.connect(self._on_engine_missing)
        self._signals.finished.connect(self._on_run_finished)
        self._signals.failed.connect(self._on_run_failed)
        self._tasks = Tasks(self)
        self._jobs: dict[int, Task] = {}
        self._numbers = itertools.count(1)
        self._latest_names = self._latest_insights = 0
        self._stop_names = threading.Event()
        self._redraw = QTimer(self)
        self._redraw.setSingleShot(True)
        self._redraw.setInterval(REDRAW_INTERVAL_MS)
        self._redraw.timeout.connect(self._draw_progress)

        self._build()
        self._update_controls()

    # ------------------------------------------------------------------------------ building

    def _build(self) -> None:
        self.paths_label = QLabel("No files chosen")
        self.paths_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.paths_label.setMinimumWidth(200)
        self.add_files_button = QPushButton("Add files…")
        self.add_files_button.setToolTip("Multi-game PGN files, SGF collections, GIB/NGF/UGF")
        self.add_folder_button = QPushButton("Add folder…")
        self.add_folder_button.setToolTip("Every game file in the folder and its subfolders")
        self.clear_button = QPushButton("Clear")
        self.add_files_button.clicked.connect(self.choose_files)
        self.add_folder_button.clicked.connect(self.choose_folder)
        self.clear_button.clicked.connect(lambda: self.set_paths([]))

        self.player_edit = QLineEdit()
        self.player_edit.setPlaceholderText("Player (optional): only their games")
        self.player_edit.setToolTip("Only the games of this player, and only their mistakes become training cards")
        self.player_edit.setClearButtonEnabled(True)
        self.player_edit.setText(Settings().collection_player)  # the player named last time
        self.player_edit.setMinimumWidth(220)
        self._names = QStringListModel(self)
        completer = QCompleter(self._names, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.player_edit.setCompleter(completer)
        self.review_button = QPushButton("Review")
        self.review_button.setDefault(True)
        self.review_button.setToolTip("Review every game not reviewed yet with the engine and limit of Engine & settings")
        self.review_button.clicked.connect(self.start_review)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop; the games finished so far are kept for the next run")
        self.cancel_button.clicked.connect(self.cancel)
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setValue(0)
        self.progress_bar.setFormat("no review yet")
        self.progress_bar.setAccessibleName("Games reviewed")
        self.status_label = QLabel(
            "Choose game files or a folder, then Review. Finished games are kept: a later run skips them; "
            "games whose files carry evaluations are imported."
        )
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.message_bar = MessageBar(self)
        self.message_bar.action_triggered.connect(self._on_message_action)
        self.problems_label = QLabel("Problems")
        self.problems_list = QListWidget()
        self.problems_list.setMaximumHeight(96)
        self.problems_list.setAccessibleName("Problems")

        self.panel = InsightsPanel()
        self.panel.game_requested.connect(self.game_requested)
        self.panel.export_requested.connect(self.choose_export)

        files_row = QHBoxLayout()
        files_row.addWidget(QLabel("Games:"))
        files_row.addWidget(self.paths_label, 1)
        for button in (self.add_files_button, self.add_folder_button, self.clear_button):
            files_row.addWidget(button)
        run_row = QHBoxLayout()
        run_row.addWidget(QLabel("Player:"))
        run_row.addWidget(self.player_edit)
        run_row.addWidget(self.review_button)
        run_row.addWidget(self.cancel_button)
        run_row.addWidget(self.progress_bar, 1)

        layout = QVBoxLayout(self)
        layout.addLayout(files_row)
        layout.addLayout(run_row)
        layout.addWidget(self.status_label)
        layout.addWidget(self.message_bar)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.problems_list)
        layout.addWidget(self.panel, 1)
        self._show_problems_box()

    # ------------------------------------------------------------------------------ choosing

    def choose_files(self) -> None:
        files, _filter = QFileDialog.getOpenFileNames(self, "Games to review", self._start_folder(), GAME_FILE_FILTER)
        if files:
            self.set_paths([*self._paths, *files])

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "A folder of games to review", self._start_folder())
        if folder:
            self.set_paths([*self._paths, folder])

    def _start_folder(self) -> str:
        return str(Path(self._paths[-1]).parent) if self._paths else str(Path.home())

    def set_paths(self, paths: Sequence[str | Path]) -> None:
        """The files and folders to review; the players named in them are read for completion."""
        self._paths = list(dict.fromkeys(str(path) for path in paths))
        if not self._paths:
            self.paths_label.setText("No files chosen")
        elif len(self._paths) <= 2:
            self.paths_label.setText(" · ".join(Path(p).name or p for p in self._paths))
        else:
            self.paths_label.setText(f"{len(self._paths)} files and folders")
        self.paths_label.setToolTip("\n".join(self._paths))
        self._stop_names.set()
        self._stop_names = threading.Event()
        self._names.setStringList([])
        if self._paths:
            chosen, stop = list(self._paths), self._stop_names
            self._latest_names = self._start_job(lambda: player_names(chosen, stop.is_set), self._on_names)
        self._update_controls()

    def paths(self) -> list[str]:
        return list(self._paths)

    def player_names(self) -> list[str]:
        """The names offered for completion, most games first."""
        return self._names.stringList()

    def _on_names(self, number: int, names: tuple[str, ...]) -> None:
        if number == self._latest_names:
            self._names.setStringList(list(names))
            self.names_ready.emit()

    # ------------------------------------------------------------------------------ the run

    def is_running(self) -> bool:
        return self._run.is_running()

    def start_review(self) -> None:
        if not self._paths or self._run.is_running():
            return
        player = " ".join(self.player_edit.text().split()) or None
        self._wanted_player = player
        Settings().collection_player = player or ""  # offered again next time
        for key in ("engine-missing:chess", "engine-missing:go", "run-failed"):
            self.message_bar.remove(key)
        try:
            settings = dict(self._batch_settings())
        except ValueError as error:  # an engine command that cannot be split into words
            self.message_bar.replace(Message("run-failed", "error", f"The engine setting cannot be used: {error}", scope="app"))
            return
        request = BatchRequest(tuple(self._paths), player, settings, self._store_path, self._go_limit_is_default())
        self.problems_list.clear()
        self._show_problems_box()
        self.progress_bar.setRange(0, 0)  # busy until the games are counted
        self.status_label.setText("Reading the games…")
        self._run.start(request)
        self._update_controls()

    def cancel(self) -> None:
        if self._run.is_running():
            self._run.cancel()
            self.status_label.setText("Cancelling: the game under review stops; finished games are kept…")
            self.cancel_button.setEnabled(False)

    def _on_progress(self, number: int, progress: RunProgress) -> None:
        if number != self._run.number:
            return
        self._pending_progress = progress
        if not self._redraw.isActive():
            self._redraw.start()

    def _draw_progress(self) -> None:
        progress, self._pending_progress = self._pending_progress, None
        if progress is None:
            return
        self.progress_shown = progress
        self.progress_bar.setRange(0, max(1, progress.total))
        self.progress_bar.setValue(progress.done)
        if self._run.is_running():
            self.progress_bar.setFormat(
                present.progress_text(progress.done, progress.total, progress.eta_s, progress.failed, progress.later_kind)
            )
            if self.cancel_button.isEnabled():
                self.status_label.setText(present.current_text(progress.current, progress.positions))

    def _on_problem(self, number: int, line: str) -> None:
        if number == self._run.number:
            self.problems_list.addItem(line)
            self._show_problems_box()

    def _on_engine_missing(self, number: int, kind: str, reason: str) -> None:
        if number == self._run.number:
            self.message_bar.replace(present.engine_missing_message(kind, reason))

    def _on_message_action(self, _key: str, action: str) -> None:
        kind = present.kind_installed_by(action)
        if kind is not None:
            self.install_requested.emit(kind)

    def _on_run_finished(self, number: int, result: RunResult) -> None:
        if number != self._run.number:
            return
        self._run.ended(number)
        self._draw_progress()
        self._redraw.stop()
        self.progress_bar.setRange(0, max(1, result.counts.total))
        self.progress_bar.setFormat("%v / %m games" if result.counts.total else "no game found")
        self.status_label.setText(present.outcome_text(result.counts))
        self._sources = result.sources
        if result.sources:  # the games reviewed go into the game database, with the accuracy of their review
            task = self._tasks.submit(feed_database, list(result.sources), self._wanted_player, lane=DATABASE_LANE,
                                      name="db-feed")
            task.done.connect(lambda found, number=number: self._show_departures(number, found))
        self._update_controls()
        self._show_insights(result.reports, result.insights)
        self.run_finished.emit(result.counts)

    def _on_run_failed(self, number: int, message: str) -> None:
        if number != self._run.number:
            return
        self._run.ended(number)
        self._redraw.stop()
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setFormat("stopped")
        self.status_label.setText("The review stopped.")
        self.message_bar.replace(Message("run-failed", "error", f"The review could not go on: {message}", scope="app"))
        self._update_controls()
        self.failed.emit(message)

    def _show_problems_box(self) -> None:
        count = self.problems_list.count()
        self.problems_label.setText(f"Problems ({count}): the rest of the batch went on")
        self.problems_label.setVisible(count > 0)
        self.problems_list.setVisible(count > 0)

    def _update_controls(self) -> None:
        running = self._run.is_running()
        self.review_button.setEnabled(bool(self._paths) and not running)
        self.cancel_button.setEnabled(running)
        inputs: tuple[QWidget, ...] = (self.add_files_button, self.add_folder_button, self.clear_button, self.player_edit)
        for widget in inputs:
            widget.setEnabled(not running)

    # ------------------------------------------------------------------------------ insights

    def show_reports(self, reports: Sequence[Mapping[str, Any]], player: str | None = None) -> None:
        """Show the insights of reports made elsewhere (reviewer.report/1, each with its `source`);
        they are worked out off the GUI thread."""
        from reviewer.core.services.insights import collection_insights

        kept = tuple(dict(report) for report in reports)
        self._wanted_player = player
        self._sources = tuple(dict.fromkeys(str((r.get("source") or {}).get("path")) for r in kept if r.get("source")))
        self._pending_reports = kept
        self._latest_insights = self._start_job(lambda: collection_insights(kept), self._on_insights)

    def _on_insights(self, number: int, insights: dict[str, Any]) -> None:
        if number == self._latest_insights:
            self._show_insights(self._pending_reports, insights)

    def _show_insights(self, reports: tuple[dict[str, Any], ...], insights: dict[str, Any]) -> None:
        self.reports, self.insights = reports, insights
        self.panel.show_insights(insights, self._wanted_player)
        self.insights_shown.emit()

    def _show_departures(self, number: int, found: list[RepertoireDeparture]) -> None:
        if number == self._run.number:  # else a later run's will come
            self.panel.show_departures(found)

    def shown_player(self) -> dict[str, Any] | None:
        """The insights entry of the player on show."""
        return self.panel.shown_player()

    # ------------------------------------------------------------------------------ export

    def choose_export(self, form: str) -> None:
        player = self.shown_player()
        if player is None:
            return
        stem = "-".join(player["name"].replace(",", " ").split()) or "collection"
        folder = Path(self._sources[0]).parent if self._sources else Path.home()
        path, _chosen = QFileDialog.getSaveFileName(
            self, f"Export the insights as {form.upper()}", str(folder / f"{stem}-insights.{form}"), EXPORT_FILTERS[form]
        )
        if path:
            target = Path(path)
            self.export(target if target.suffix.lower() == f".{form}" else target.with_name(f"{target.name}.{form}"), form)

    def export(self, path: str | Path, form: str) -> None:
        """Write the shown player's insights to `path` (CSV or HTML) off the GUI thread."""
        player = self.shown_player()
        if player is None:
            return
        reports, name, sources, target = self.reports, player["name"], self._sources, Path(path)
        self.status_label.setText(f"Writing {target.name}…")
        self._exports.add(self._start_job(lambda: write_export(target, reports, name, form, sources), self._on_exported))

    def _on_exported(self, number: int, path: str) -> None:
        self._exports.discard(number)
        self.status_label.setText(f"Wrote {path}")
        self.export_finished.emit(path)

    # ------------------------------------------------------------------------------ jobs

    def _start_job(self, work: Callable[[], Any], on_done: Callable[[int, Any], None]) -> int:
        number = next(self._numbers)
        task = self._tasks.submit(work, must_finish=True)
        task.done.connect(lambda payload: on_done(number, payload))
        task.done.connect(lambda payload: self._forget(number))
        task.failed.connect(lambda message: self._on_job_failed(number, message))
        self._jobs[number] = task
        return number

    def _forget(self, number: int, _payload: object = None) -> None:
        self._jobs.pop(number, None)

    def _on_job_failed(self, number: int, message: str) -> None:
        self._forget(number)
        if number == self._latest_names:
            return  # completion is a help: the review itself will say what cannot be read
        if number in self._exports:
            self._exports.discard(number)
            message = f"Could not write the export: {message}"
        elif number == self._latest_insights:
            message = f"Could not work out the insights: {message}"
        else:
            return  # a stale answer
        self.status_label.setText(message)
        self.failed.emit(message)

    def is_busy(self) -> bool:
        return bool(self._jobs) or self._run.is_running()

    # ------------------------------------------------------------------------------ closing

    def shutdown(self, timeout_s: float = SHUTDOWN_WAIT_S) -> None:
        """Stop the review and the jobs and wait for them, a bounded time (the app is closing)."""
        self._stop_names.set()
        self._run.shutdown(timeout_s)
        self._tasks.shutdown(timeout_s)
        self._tasks = Tasks(self)  # the window may be used again
        self._latest_names = self._latest_insights = 0
        self._jobs.clear()
        self._redraw.stop()


def _saved_go_limit_is_default() -> bool:
    return not Settings().has_limit("go")


def _never() -> bool:
    return False


def _saved_settings() -> Mapping[GameKind, BatchSettings]:
    """Without a main window: the engines, limits and thresholds last saved."""
    settings = Settings()
    return batch_settings_from(settings.engine_choice, settings.limit, settings.preset)
