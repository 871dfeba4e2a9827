"""File ▸ Save and Save As: the game on show, with the player's notes, written into its own file
(`reviewer.core.formats.save`) off the window's thread, and the questions around it.

- Save writes the game in place of the one it was read as (other games byte for byte, a backup
  beside it, atomic); a file another program changed since it was read asks "overwrite / save as /
  cancel" (`ask_changed_on_disk`); a file that cannot take the game back (GIB, a compressed PGN:
  `NeedsSaveAs`) goes to Save As; a refusal (read-only, disk full: `SaveFailed`) is a message that
  stays in the window's message bar, and the notes stay on show, unsaved.
- The window's title carries `*` while the model counts unsaved edits.
- Closing the window or opening another game with unsaved edits asks "save / discard / cancel"
  (`ask_unsaved`); Save there closes or opens once the game is written.

The questions and the file dialog are attributes a test replaces (`ask_changed_on_disk`,
`ask_unsaved`, `choose_path`): no test waits on a dialog.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from reviewer.core.formats.save import (
    FileChangedOnDisk,
    GameText,
    NeedsSaveAs,
    SaveError,
    SaveResult,
    SaveSource,
    in_place_problem,
    save_as,
    save_as_suggestion,
    save_in_place,
    text_of,
)
from reviewer.core.gametree import Game
from reviewer.core.services.saved_notes import MovePath, NodeNotes, notes_snapshot
from reviewer.gui.common.message_bar import MessageBar
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.presenters.messages import Message
from reviewer.gui.presenters.text import window_title

ChangedAnswer = Literal["overwrite", "save-as", "cancel"]
UnsavedAnswer = Literal["save", "discard", "cancel"]
SAVE_MESSAGE_KEY = "save:failed"
UNSAVED_MARK = "* "  # in front of the window's title


@dataclass(frozen=True)
class SavedGame:
    """A save that was written: the result, and what the game's notes were when its text was taken."""

    game: Game
    result: SaveResult
    notes: dict[MovePath, NodeNotes]


def _save_in_place(text: GameText, source: SaveSource, overwrite: bool) -> SaveResult | SaveError:
    try:
        return save_in_place(text, source, overwrite_changed=overwrite)
    except SaveError as error:  # the answer depends on which: handed back, not failed
        return error


def _save_as(text: GameText, path: Path) -> SaveResult | SaveError:
    try:
        return save_as(text, path)
    except SaveError as error:
        return error


class GameSaving(QObject):
    """Save and Save As of the game on show. Signals: `saved(str)` the path written (or left as it
    was: nothing to write), `save_failed(str)` the sentence shown, `title_changed(str)`."""

    saved = Signal(str)
    save_failed = Signal(str)
    title_changed = Signal(str)

    def __init__(self, session: ReviewSession, tasks: Tasks, message_bar: MessageBar,
                 show_status: Callable[[str, int], None], parent: QWidget,
                 before_save: Callable[[], object] = lambda: None) -> None:
        """`before_save`: what hands the notes being typed to the model first (the comment editor's commit)."""
        super().__init__(parent)
        self.session, self._tasks, self._bar, self._status, self._parent = session, tasks, message_bar, show_status, parent
        self._before_save = before_save
        self._source: tuple[Game, SaveSource] | None = None  # where the game on show was read from
        self._base_title = "Reviewer"
        self._titled_game: Game | None = None  # the game `_base_title` names
        self._saving = False
        self.on_saved: list[Callable[[SavedGame], None]] = []  # told of each save written (the notes' store)
        self.ask_changed_on_disk: Callable[[str], ChangedAnswer] = self._ask_changed_on_disk
        self.ask_unsaved: Callable[[str], UnsavedAnswer] = self._ask_unsaved
        self.choose_path: Callable[[Path], Path | None] = self._choose_path
        for signal in (session.notes_changed, session.tree_changed, session.game_loaded):
            signal.connect(self.update_title)

    # ------------------------------------------------------------------------------ state
    def record_source(self, game: Game, source: SaveSource | None) -> None:
        """Where `game` was read from (before it is loaded into the session and edited)."""
        self._source = (game, source) if source is not None else None

    @property
    def source(self) -> SaveSource | None:
        """The file the game on show saves into (None for a game that came from no file)."""
        game = self.session.model.game
        if self._source is None or game is None or self._source[0] is not game:
            return None
        return self._source[1]

    @property
    def busy(self) -> bool:
        return self._saving

    @property
    def unsaved(self) -> bool:
        return self.session.model.game is not None and self.session.model.unsaved_edits > 0

    def set_base_title(self, title: str) -> None:
        """The title of the game just opened (without the unsaved mark)."""
        self._base_title, self._titled_game = title, self.session.model.game
        self.update_title()

    def title(self) -> str:
        base = self._base_title
        if self._titled_game is not self.session.model.game:  # a game opened otherwise (a set-up position) named itself
            base = self._parent.windowTitle().removeprefix(UNSAVED_MARK)
        return f"{UNSAVED_MARK}{base}" if self.unsaved else base

    def update_title(self, *_args: object) -> None:
        self.title_changed.emit(self.title())

    # ------------------------------------------------------------------------------ saving
    def save(self, then: Callable[[], object] | None = None) -> None:
        """File ▸ Save: into the game's own file (Save As for a game from no file or a format not
        written in place); `then` runs once it is written."""
        self._before_save()
        game, source = self.session.model.game, self.source
        if game is None or self._saving:
            return
        if source is None:
            self.save_as(then=then)
            return
        text = text_of(game)
        problem = in_place_problem(text, source.path)
        if problem is not None:
            self._status(str(problem), 6000)
            self.save_as(problem.suggested, then=then)
            return
        self._write_in_place(game, text, source, overwrite=False, then=then)

    def save_as(self, suggested: Path | None = None, then: Callable[[], object] | None = None) -> None:
        """File ▸ Save As: the game alone into a new PGN or SGF file the player names."""
        self._before_save()
        game = self.session.model.game
        if game is None or self._saving:
            return
        text = text_of(game)
        if suggested is None:
            source = self.source
            suggested = save_as_suggestion(text, source.path) if source is not None else Path.home() / f"game.{text.format}"
        path = self.choose_path(suggested)
        if path is None:
            self._status("Nothing was saved", 3000)
            return
        self._submit(game, text, _save_as, (text, Path(path)), then)

    def _write_in_place(self, game: Game, text: GameText, source: SaveSource, overwrite: bool,
                        then: Callable[[], object] | None) -> None:
        self._submit(game, text, _save_in_place, (text, source, overwrite), then)

    def _submit(self, game: Game, text: GameText, work: Callable[..., SaveResult | SaveError],
                args: tuple[object, ...], then: Callable[[], object] | None) -> None:
        self._saving = True
        notes = notes_snapshot(game)
        edits = self.session.model.unsaved_edits
        self._status("Saving…", 0)
        task = self._tasks.submit(work, *args, lane="save", must_finish=True, name="save")
        task.done.connect(lambda outcome: self._on_outcome(game, text, edits, notes, outcome, then))
        task.failed.connect(lambda message: self._on_outcome(game, text, edits, notes, SaveError(message), then))

    def _on_outcome(self, game: Game, text: GameText, edits: int, notes: dict[MovePath, NodeNotes],
                    outcome: object, then: Callable[[], object] | None) -> None:
        self._saving = False
        if isinstance(outcome, SaveResult):
            self._written(game, edits, notes, outcome, then)
        elif isinstance(outcome, FileChangedOnDisk):
            self._status("", 0)
            answer = self.ask_changed_on_disk(Path(outcome.path).name)
            source = self.source
            if answer == "overwrite" and source is not None and game is self.session.model.game:
                self._write_in_place(game, text, source, overwrite=True, then=then)
            elif answer == "save-as":
                self.save_as(then=then)
            else:
                self._status("Nothing was saved: the file on disk is as the other program left it", 6000)
        elif isinstance(outcome, NeedsSaveAs):
            self._status(str(outcome), 6000)
            self.save_as(outcome.suggested, then=then)
        else:
            self._failed(str(outcome))

    def _written(self, game: Game, edits: int, notes: dict[MovePath, NodeNotes], result: SaveResult,
                 then: Callable[[], object] | None) -> None:
        self._bar.remove(SAVE_MESSAGE_KEY)
        if game is self.session.model.game:
            before = self.source
            self._source = (game, result.source)
            if before is None or before.path != result.source.path:  # Save As: the game is that file's now
                self._base_title, self._titled_game = window_title(game, Path(result.path), 0, 1), game
            if self.session.model.unsaved_edits == edits:  # nothing was changed while it was written
                self.session.model.mark_saved()
            self.update_title()
        name = Path(result.path).name
        if not result.written:
            self._status(f"{name} already holds the game as it is: nothing to write", 4000)
        elif result.backup:
            self._status(f"Saved {name} (the version before is kept as {Path(result.backup).name})", 6000)
        else:
            self._status(f"Saved {name}", 4000)
        saved = SavedGame(game, result, notes)
        for listener in self.on_saved:
            listener(saved)
        self.saved.emit(result.path)
        if then is not None:
            then()

    def _failed(self, text: str) -> None:
        self._status("", 0)
        self._bar.replace(Message(key=SAVE_MESSAGE_KEY, level="error", text=text))
        self.save_failed.emit(text)

    # ------------------------------------------------------------------------ questions
    def may_leave_game(self, then: Callable[[], object]) -> bool:
        """Before the game on show goes (another file, the window closing): True when it may go now;
        with unsaved edits the player is asked, and Save runs `then` once written (False now)."""
        self._before_save()  # words being typed count as an edit
        if not self.unsaved:
            return True
        game = self.session.model.game
        answer = self.ask_unsaved(game.source.path if game is not None and game.source.path else "")
        if answer == "discard":
            return True
        if answer == "save":
            self.save(then=then)
        return False

    def _ask_changed_on_disk(self, name: str) -> ChangedAnswer:
        box = QMessageBox(QMessageBox.Icon.Warning, "The file changed on disk",
                          f"{name} was changed by another program since it was opened.", parent=self._parent)
        box.setInformativeText("Overwrite it with the game on show (the version found is kept as a backup), "
                               "save the game as a new file, or leave the file alone?")
        overwrite = box.addButton("Overwrite", QMessageBox.ButtonRole.DestructiveRole)
        save_as_button = box.addButton("Save As…", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        clicked = box.clickedButton()
        return "overwrite" if clicked is overwrite else "save-as" if clicked is save_as_button else "cancel"

    def unsaved_question(self, path: str) -> QMessageBox:
        """The question asked before unsaved changes would go (not yet shown)."""
        name = Path(path).name if path else "The game"
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved notes",
                          f"{name}: your changes (moves, notes) are not saved into the file.", parent=self._parent)
        box.setInformativeText("Reviewer keeps them for the next time you open it either way. Save them into the file?")
        box.setStandardButtons(QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                               | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        return box

    def _ask_unsaved(self, path: str) -> UnsavedAnswer:
        answer = self.unsaved_question(path).exec()
        if answer == QMessageBox.StandardButton.Save:
            return "save"
        return "discard" if answer == QMessageBox.StandardButton.Discard else "cancel"

    def _choose_path(self, suggested: Path) -> Path | None:
        extension = suggested.suffix.lstrip(".") or "pgn"
        path, _chosen = QFileDialog.getSaveFileName(
            self._parent, "Save the game as", str(suggested), f"{extension.upper()} (*.{extension})"
        )
        return Path(path) if path else None
