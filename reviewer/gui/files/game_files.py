"""Game files: open (off the GUI thread; a file of many games asks which one), recent files, drops,
and the Export dialog, which leaves the writing to the window's exports (`exports.GameExports`).
Where each game was read from is handed on as File ▸ Save needs it (`record_source`), and another
game replaces the one on show only when that may go (`may_leave`: unsaved edits ask first)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMenu, QStatusBar, QWidget

from reviewer.core.analysis import Evaluation
from reviewer.core.embedded_evals import evaluations_from_game
from reviewer.core.formats.collection import GameCollection
from reviewer.core.formats.save import SaveSource
from reviewer.core.gametree import Game, Node
from reviewer.gui.common.message_bar import MessageBar
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.settings import Settings
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.messages import Message
from reviewer.gui.presenters.text import GAME_FILE_FILTER, window_title

WARM_UP_AFTER_OPEN_MS = 300  # once the game is on screen


class GameFiles(QObject):
    """Opens games into the session through the task runner, keeps the recent files (`recent_menu`),
    and asks where to export (written by `export`)."""

    opened = Signal(str, object)  # path, the Game now in the session
    open_failed = Signal(str)  # one-line message
    title_changed = Signal(str)  # the window's title for the game just opened

    def __init__(
        self,
        session: ReviewSession,
        settings: Settings,
        tasks: Tasks,
        stop_analysis: Callable[[], None],
        export: Callable[[Path], None],
        message_bar: MessageBar,
        status_bar: QStatusBar,
        parent: QWidget,
        record_source: Callable[[Game, SaveSource | None], None] = lambda _game, _source: None,
        may_leave: Callable[[Callable[[], object]], bool] = lambda _then: True,
    ) -> None:
        """`stop_analysis` runs before another game replaces the open one; `parent` holds the dialogs;
        `record_source(game, source)` is told where each game is read from before it is shown;
        `may_leave(then)` says whether the game on show may go now (else it runs `then` later, or never)."""
        super().__init__(parent)
        self._record_source, self._may_leave = record_source, may_leave
        self._session, self._settings, self._tasks = session, settings, tasks
        self._stop_analysis, self._export = stop_analysis, export
        self._message_bar, self._status_bar, self._parent = message_bar, status_bar, parent
        self._pending_ply: int | None = None
        self.recent_menu = QMenu("Open &Recent", parent)
        self.recent_menu.aboutToShow.connect(self.fill_recent_menu)

    @Slot()
    def choose_file(self) -> None:
        folder = self._settings.last_directory or str(Path.home())
        path, _filter = QFileDialog.getOpenFileName(self._parent, "Open a game", folder, GAME_FILE_FILTER)
        if path:
            self.open_file(Path(path))

    def open_file(self, path: str | Path, game_index: int | None = None, ply: int | None = None) -> None:
        """Read `path` off the GUI thread; a file of many games asks which one (unless given)."""
        path = Path(path)
        if not self._may_leave(lambda: self.open_file(path, game_index, ply)):
            return
        self._pending_ply = ply
        self._status_bar.showMessage(f"Opening {path.name}…")
        task = self._tasks.submit(_read_collection, path, game_index is None)
        task.done.connect(lambda collection: self._on_collection_read(path, game_index, collection))
        task.failed.connect(self._open_failed)

    def _on_collection_read(self, path: Path, game_index: int | None, collection: GameCollection) -> None:
        count = len(collection)
        if count == 0:
            self._open_failed(f"{path.name}: the file holds no game")
            return
        if game_index is None:
            if count == 1:
                game_index = 0
            else:
                from reviewer.gui.dialogs.game_chooser import GameChooserDialog

                dialog = GameChooserDialog(collection, path.name, self._parent)
                if dialog.exec() != GameChooserDialog.DialogCode.Accepted or dialog.chosen_index() is None:
                    self._status_bar.showMessage("No game opened", 3000)
                    return
                game_index = dialog.chosen_index() or 0
        if not 0 <= game_index < count:
            self._open_failed(f"{path.name}: there is no game {game_index + 1} (the file has {count})")
            return
        self._read_game(path, collection, game_index)

    def _read_game(self, path: Path, collection: GameCollection, index: int) -> None:
        task = self._tasks.submit(_read_game, collection, index)
        task.done.connect(lambda result: self._on_game_read(path, collection, index, *result))  # (game, main line, variations, save source)
        task.failed.connect(self._open_failed)

    def _on_game_read(
        self, path: Path, collection: GameCollection, index: int, game: Game, embedded: tuple[Evaluation, ...],
        in_variations: dict[Node, Evaluation],
        source: SaveSource | None = None,
    ) -> None:
        self._stop_analysis()
        self._record_source(game, source)
        try:
            self._session.model.load_game(game, collection, index, embedded, in_variations)
        finally:
            self._finish_opening(path, collection, index, game)

    def _finish_opening(self, path: Path, collection: GameCollection, index: int, game: Game) -> None:
        if self._pending_ply is not None:
            self._session.model.set_current_ply(self._pending_ply)
            self._pending_ply = None
        self._settings.add_recent_file(path)
        self._settings.last_directory = str(path.parent)
        self.title_changed.emit(window_title(game, path, index, len(collection)))
        self._status_bar.showMessage(f"Opened {path.name}", 3000)
        self.opened.emit(str(path), game)

    @Slot()
    def choose_game(self) -> None:
        collection = self._session.model.collection
        game = self._session.model.game
        if collection is None or game is None or len(collection) < 2:
            return
        from reviewer.gui.dialogs.game_chooser import GameChooserDialog

        path = Path(game.source.path or "")
        dialog = GameChooserDialog(collection, path.name, self._parent)
        dialog.select_game(self._session.model.game_index)
        if dialog.exec() == GameChooserDialog.DialogCode.Accepted and dialog.chosen_index() is not None:
            index = dialog.chosen_index() or 0
            if self._may_leave(lambda: self._read_game(path, collection, index)):
                self._read_game(path, collection, index)

    def _open_failed(self, message: str) -> None:
        self._status_bar.clearMessage()  # "Opening …" is over
        self._message_bar.add(Message(key=f"open:{message}", level="error", text=message, scope="app"))
        self.open_failed.emit(message)

    def fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self._settings.recent_files()
        for path in files:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _checked=False, p=path: self.open_file(Path(p)))
        if not files:
            self.recent_menu.addAction("No recent files").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear the list", self._settings.clear_recent_files)

    @Slot()
    def choose_export(self) -> None:
        game = self._session.model.game
        if game is None:
            return
        source = Path(game.source.path) if game.source.path else Path.home() / "game"
        extension = presentation(game.kind).export_extension
        suggestion = source.with_name(f"{source.stem}-reviewed.{extension}")
        annotated = f"Annotated {extension.upper()} (*.{extension})"
        report = "JSON report (*.json)"
        path, chosen = QFileDialog.getSaveFileName(self._parent, "Export the review", str(suggestion), f"{annotated};;{report}")
        if not path:
            return
        target = Path(path)
        if chosen == report and target.suffix.lower() != ".json":
            target = target.with_suffix(".json")
        self._export(target)

    def accept_drag(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def drop(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                event.acceptProposedAction()
                self.open_file(Path(url.toLocalFile()))
                return


# -------------------------------------------------------------- work done off the GUI thread
def _read_collection(path: Path, first_games_only: bool = False) -> GameCollection:
    """The file's games; with `first_games_only`, a big PGN lists its first games now and the rest
    while the game chooser shows them."""
    from reviewer.core.formats import open_collection
    from reviewer.core.formats.collection import FIRST_BATCH

    return open_collection(path, first_games=FIRST_BATCH if first_games_only else None)


def _read_game(
    collection: GameCollection, index: int
) -> tuple[Game, tuple[Evaluation, ...], dict[Node, Evaluation], SaveSource | None]:
    """Game `index` of the collection, with the analysis the file itself carries (if any: of the
    main line by ply, of the variations by node) and what File ▸ Save needs to know of it (None
    when that cannot be known: Save then asks for a new file)."""
    from reviewer.core.formats.save import record_source

    game = collection.game(index)
    table = evaluations_from_game(game)
    carried = table.ordered()
    if all(evaluation.terminal is not None for evaluation in carried):
        carried = []  # only game-over verdicts: nothing was analysed
    try:
        source: SaveSource | None = record_source(collection, index, game)
    except Exception:  # a game that cannot be saved in place still opens
        source = None
    return game, tuple(carried), table.variations, source
