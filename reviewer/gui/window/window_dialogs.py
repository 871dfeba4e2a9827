"""The window's dialogs and side windows: settings, engine manager, shortcuts, about, players, trainer, collection."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QStatusBar, QWidget

from reviewer.core.games import game_support
from reviewer.core.gametree import Game
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.settings import Settings
from reviewer.gui.engines.analysis_controller import AnalysisController


class WindowDialogs(QObject):
    """Opens each dialog over `parent`; the players, trainer and collection windows are made once and kept."""

    def __init__(
        self,
        session: ReviewSession,
        settings: Settings,
        analysis_controller: AnalysisController,
        answer_evaluator: Callable[[Any], Any],
        set_preset: Callable[[str], None],
        open_file: Callable[[Path | str, int, int], None],
        status_bar: QStatusBar,
        parent: QWidget,
        may_leave: Callable[[Callable[[], object]], bool] = lambda _then: True,
    ) -> None:
        """`answer_evaluator`: judges the trainer's answers for a card; `open_file(path, game index,
        ply)` opens a game of the collection in `parent`, which is raised then; `may_leave(then)`:
        whether the game on show may be replaced now (unsaved edits ask first; Save runs `then`)."""
        super().__init__(parent)
        self._may_leave = may_leave
        self._session, self._settings, self._analysis = session, settings, analysis_controller
        self._answer_evaluator, self._set_preset, self._open_file = answer_evaluator, set_preset, open_file
        self._status_bar, self._parent = status_bar, parent
        self.players_window: Any = None
        self.train_window: Any = None
        self.collection_window: Any = None
        self.position_setup: Any = None  # the board editor while it is open

    def show_position_setup(self) -> Any:
        """Edit ▸ Set up position: the board editor, starting from the position on show (or the
        usual start); the position it opens becomes the game on show. Returns the dialog."""
        from reviewer.gui.dialogs.position_setup import PositionSetupDialog, setup_kinds

        model = self._session.model
        game, node = model.game, model.current_node
        kinds = [kind for kind, _title in setup_kinds()]
        kind = game.kind if game is not None and game.kind in kinds else self._analysis.current_kind()
        at = game_support(game.kind).rules.after(game, node) if game is not None and node is not None and game.kind in kinds else None
        dialog = PositionSetupDialog(kind, game, at, self._parent)
        dialog.accepted.connect(lambda: self._open_set_up(dialog))
        dialog.finished.connect(lambda _result: setattr(self, "position_setup", None))
        self.position_setup = dialog
        dialog.open()
        return dialog

    def _open_set_up(self, dialog: Any) -> None:
        game = dialog.game()
        if game is None or not self._may_leave(lambda: self._load_set_up(game)):
            return
        self._load_set_up(game)

    def _load_set_up(self, game: Game) -> None:
        self._analysis.stop_analysis()
        self._session.model.load_game(game)
        self._parent.setWindowTitle(f"Set-up position ({game_support(game.kind).title}) – Reviewer")
        self._status_bar.showMessage("Opened the set-up position as a new game", 4000)

    def show_trainer(self) -> None:
        from reviewer.core.services.trainer.deck import Deck
        from reviewer.gui.trainer.train_window import TrainWindow

        if self.train_window is None:
            self.train_window = TrainWindow(Deck, self._answer_evaluator)
        self.train_window.show()
        self.train_window.raise_()
        self.train_window.reload()

    @Slot()
    def show_settings(self) -> None:
        from reviewer.gui.dialogs.settings_dialog import SettingsDialog

        kind = self._analysis.current_kind()
        dialog = SettingsDialog(
            kind=kind,
            engines=self._analysis.known_engines(),
            engine=self._analysis.engine_choice(kind),
            limit=self._analysis.limit(kind),
            preset=self._session.model.preset,
            parent=self._parent,
        )
        self._analysis.engines_known.connect(dialog.set_engines)  # engines found while it is open
        try:
            accepted = dialog.exec() == SettingsDialog.DialogCode.Accepted
        finally:
            self._analysis.engines_known.disconnect(dialog.set_engines)
        if accepted:
            self._analysis.set_engine_choice(dialog.engine_choice())
            self._analysis.set_limit(kind, dialog.limit())
            self._set_preset(dialog.preset())

    def show_engine_manager(self, install: str | None = None) -> Any:
        """The engine manager over this window; `install` ("stockfish"/"katago") starts that install."""
        from reviewer.gui.dialogs.engine_manager import open_engine_manager

        dialog = open_engine_manager(self._parent, self._settings, self._analysis.current_kind(), install)
        dialog.engines_changed.connect(self._analysis.refresh_engines)
        dialog.engines_found.connect(self._analysis.engines_found)
        dialog.default_chosen.connect(self._analysis.set_engine_choice)
        return dialog

    @Slot()
    def show_shortcuts(self) -> None:
        from reviewer.gui.dialogs.shortcuts import ShortcutsDialog, shortcut_rows

        ShortcutsDialog(shortcut_rows(self._parent.actions()), self._parent).exec()

    @Slot()
    def show_about(self) -> None:
        from reviewer.gui.dialogs.about import AboutDialog

        AboutDialog(self._parent).exec()

    @Slot()
    def show_players(self) -> None:
        try:
            from reviewer.gui.collection.players_window import PlayersWindow
        except ImportError:
            self._status_bar.showMessage("The players window is not available in this build", 5000)
            return
        if self.players_window is None:
            session = self._session
            # a window of its own, closed with this one; it offers the file open here
            self.players_window = PlayersWindow(current_file=lambda: session.model.game.source.path if session.model.game is not None else None)
        self.players_window.show()
        self.players_window.offer_current_file()
        if QGuiApplication.platformName() != "offscreen":  # nothing to raise without a screen
            self.players_window.raise_()
            self.players_window.activateWindow()

    @Slot()
    def show_collection(self) -> None:
        """The Collection window: a batch review of many games and what they say about a player."""
        from reviewer.gui.collection.collection_window import CollectionWindow, batch_settings_from

        if self.collection_window is None:
            analysis, session = self._analysis, self._session
            collection = CollectionWindow(
                lambda: batch_settings_from(analysis.engine_choice, analysis.limit, session.model.preset),
                go_limit_is_default=lambda: analysis.limit_is_default("go"),
            )
            collection.game_requested.connect(self._open_collection_game)
            collection.install_requested.connect(
                lambda kind: self.show_engine_manager(game_support(kind).engine_key)
            )
            self.collection_window = collection  # a window of its own; closed with this one
        self.collection_window.show()
        if QGuiApplication.platformName() != "offscreen":
            self.collection_window.raise_()
            self.collection_window.activateWindow()

    def _open_collection_game(self, path: str, index: int, ply: int) -> None:
        self._open_file(path, index, ply)
        if QGuiApplication.platformName() != "offscreen":
            self._parent.raise_()
            self._parent.activateWindow()

    def close(self) -> None:
        """With the main window: the side windows go too (a collection review stops, keeping what it finished)."""
        if self.collection_window is not None:
            self.collection_window.shutdown()
            self.collection_window.close()
        if self.train_window is not None:
            self.train_window.close_deck()
            self.train_window.close()
        if self.players_window is not None:
            self.players_window.close()
