"""The window's dialogs and side windows: settings, engine manager, shortcuts, about, players, trainer, collection."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

from reviewer.core.games import game_support
from reviewer.gui.presenters.text import SHORTCUTS

if TYPE_CHECKING:
    from reviewer.gui.main_window import MainWindow


class WindowDialogs(QObject):
    """Opens each dialog over `window`; the players, trainer and collection windows are made once and kept."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.players_window: QWidget | None = None
        self.train_window: Any = None
        self.collection_window: Any = None

    def show_trainer(self) -> None:
        from reviewer.core.services.trainer.deck import Deck
        from reviewer.gui.train_window import TrainWindow

        if self.train_window is None:
            self.train_window = TrainWindow(Deck, self.window.answer_evaluator)
        self.train_window.show()
        self.train_window.raise_()
        self.train_window.reload()

    @Slot()
    def show_settings(self) -> None:
        from reviewer.gui.dialogs.settings_dialog import SettingsDialog

        kind = self.window.analysis_controller.current_kind()
        dialog = SettingsDialog(
            kind=kind,
            engines=self.window.analysis_controller.known_engines(),
            engine=self.window.engine_choice(kind),
            limit=self.window.limit(kind),
            preset=self.window.session.preset,
            parent=self.window,
        )
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.window.set_engine_choice(dialog.engine_choice())
            self.window.set_limit(kind, dialog.limit())
            self.window.set_preset(dialog.preset())

    def show_engine_manager(self, install: str | None = None) -> Any:
        """The engine manager over this window; `install` ("stockfish"/"katago") starts that install."""
        from reviewer.gui.dialogs.engine_manager import open_engine_manager

        dialog = open_engine_manager(self.window, self.window.settings, self.window.analysis_controller.current_kind(), install)
        dialog.engines_changed.connect(self.window.analysis_controller.refresh_engines)
        dialog.default_chosen.connect(self.window.set_engine_choice)
        return dialog

    @Slot()
    def show_shortcuts(self) -> None:
        from reviewer.gui.dialogs.shortcuts import ShortcutsDialog

        ShortcutsDialog(SHORTCUTS, self.window).exec()

    @Slot()
    def show_about(self) -> None:
        from reviewer.gui.dialogs.about import AboutDialog

        AboutDialog(self.window).exec()

    @Slot()
    def show_players(self) -> None:
        try:
            from reviewer.gui.players_window import PlayersWindow
        except ImportError:
            self.window.statusBar().showMessage("The players window is not available in this build", 5000)
            return
        if self.players_window is None:
            self.players_window = PlayersWindow()  # a window of its own; closed with this one
        self.players_window.show()
        if QGuiApplication.platformName() != "offscreen":  # nothing to raise without a screen
            self.players_window.raise_()
            self.players_window.activateWindow()

    @Slot()
    def show_collection(self) -> None:
        """The Collection window: a batch review of many games and what they say about a player."""
        from reviewer.gui.collection_window import CollectionWindow, batch_settings_from

        if self.collection_window is None:
            window = self.window
            collection = CollectionWindow(
                lambda: batch_settings_from(window.engine_choice, window.limit, window.session.preset),
                go_limit_is_default=lambda: window.analysis_controller.limit_is_default("go"),
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
        self.window.open_file(path, game_index=index, ply=ply)
        if QGuiApplication.platformName() != "offscreen":
            self.window.raise_()
            self.window.activateWindow()

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
