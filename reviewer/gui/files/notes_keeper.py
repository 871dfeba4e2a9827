"""The player's notes kept in Reviewer's data (`reviewer.core.services.saved_notes`): put back
when a game is opened again (once the lines kept for it are back in its tree, so that notes on
those lines have their moves), and written after every change, off the window's thread, in order.

A save into the file makes what it wrote the file's word: the notes kept from then on are the
changes made since (and Save As moves them to the new file's name).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from reviewer.core.gametree import Game, Node
from reviewer.core.services.saved_lines import game_fingerprint, game_source
from reviewer.core.services.saved_notes import (
    MovePath,
    NodeNotes,
    SavedNotes,
    graft_notes,
    notes_snapshot,
    player_notes,
)
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.files.game_saving import SavedGame

LANE = "saved-notes"


class NotesKeeper(QObject):
    """Signals: `restored()` once the notes kept for the open game are back (or there were none),
    `failed(str)` a sentence when the store cannot be read or written."""

    restored = Signal()
    failed = Signal(str)

    def __init__(self, session: ReviewSession, store: SavedNotes | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._store = store
        self._tasks = Tasks(self)
        self._game: Game | None = None
        self._fingerprint, self._source = "", ""
        self._file_notes: dict[MovePath, NodeNotes] = {}  # what the file said when the game was read (or saved)
        self._loaded = False  # the kept notes are back: saving now replaces them
        self._changed_meanwhile = False
        session.game_loaded.connect(self._on_game_loaded)
        session.notes_changed.connect(self._on_changed)
        session.tree_changed.connect(self._on_changed)

    @property
    def restoring(self) -> bool:
        return self._game is not None and not self._loaded

    def _on_game_loaded(self) -> None:
        game = self.session.model.game
        self._game, self._loaded, self._changed_meanwhile = game, False, False
        if game is None:
            return
        collection = self.session.model.collection
        self._fingerprint = game_fingerprint(game)
        self._source = game_source(collection.path if collection is not None else None, self.session.model.game_index)
        self._file_notes = notes_snapshot(game)

    def lines_restored(self) -> None:
        """The lines kept for the open game are in its tree: the notes on them may come back."""
        game = self._game
        if game is None or self._loaded or game is not self.session.model.game:
            return
        if self._store is None:
            self._finish_restoring(game, [])
            return
        task = self._tasks.submit(self._store.load, self._fingerprint, self._source, lane=LANE, name="notes")
        task.done.connect(lambda notes: self._finish_restoring(game, notes))
        task.failed.connect(lambda message: self._unreadable(game, message))

    def _unreadable(self, game: Game, message: str) -> None:
        self.failed.emit(f"Could not read the notes you made before: {message}")
        self._finish_restoring(game, [])

    def _finish_restoring(self, game: Game, notes: object) -> None:
        if game is not self._game or game is not self.session.model.game or self._loaded:
            return
        self._loaded = True
        changed: list[Node] = graft_notes(game, notes) if isinstance(notes, list) and notes else []
        for node in changed:
            self.session.model.notes_edited_elsewhere(node)
        if self._changed_meanwhile:
            self._keep()
        self.restored.emit()

    def _on_changed(self, *_args: object) -> None:
        if self._game is None or self._game is not self.session.model.game:
            return
        if self._loaded:
            self._keep()
        else:
            self._changed_meanwhile = True

    def _keep(self) -> None:
        if self._store is None or self._game is None or not self._fingerprint:
            return
        notes = player_notes(self._game, self._file_notes)
        task = self._tasks.submit(self._store.save, self._fingerprint, notes, self._source, lane=LANE,
                                  must_finish=True, name="notes")
        task.failed.connect(lambda message: self.failed.emit(f"Could not keep your notes: {message}"))

    def game_saved(self, saved: SavedGame) -> None:
        """The game was written into a file: what it wrote is the file's word from now on."""
        if saved.game is not self._game or not saved.result.written:
            return
        self._file_notes = saved.notes
        self._fingerprint = game_fingerprint(saved.game)  # the file's game now (its main line as saved)
        self._source = game_source(saved.result.source.path, saved.result.source.index)
        if self._loaded:
            self._keep()

    def shutdown(self, timeout_s: float = 5.0) -> None:
        self._tasks.shutdown(timeout_s)
