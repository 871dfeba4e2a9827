"""Every analysis the window finishes (or finds settled in the cache) feeds the trainer: the
game's mistakes and blunders become cards in the deck, written off the GUI thread."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from reviewer.core.analysis import EvaluationTable
from reviewer.core.gametree import Game

if TYPE_CHECKING:
    from reviewer.gui.main_window import MainWindow


class TrainingCards(QObject):
    """Adds the open game's cards to the deck once its analysis is settled; `added` tells how many
    were new (after the deck was written)."""

    added = Signal(int)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._pending: set[int] = set()
        self._harvested: tuple[int, str, int] | None = None  # (game id, engine id, evaluations) last sent
        window.session.assessment_changed.connect(self.harvest)
        window.analysis_finished.connect(lambda _completed: self.harvest())
        window.tasks.succeeded.connect(self._on_done)
        window.tasks.failed.connect(self._on_failed)

    def harvest(self) -> None:
        """Send the open game's settled analysis to the deck, unless it was sent already."""
        window, session = self.window, self.window.session
        game = session.game
        if game is None or window.analysis.is_running() or not session.assessment_settled:
            return
        assessment, basis = session.assessment, session.basis
        if assessment is None or len(basis.evaluations) == 0 or not basis.trust.labels:
            return
        engine_ids = {evaluation.engine_id for evaluation in basis.evaluations.ordered()}
        key = (id(game), "|".join(sorted(engine_ids)), len(basis.evaluations))
        if key == self._harvested:
            return
        self._harvested = key
        # The game may change on this thread (a variation played) while the deck is written.
        game_copy = _mainline_copy(game)
        evaluations = EvaluationTable(dict(basis.evaluations.by_ply))
        from reviewer.core.services.trainer.deck import default_deck_path

        deck = default_deck_path()  # where the deck is now, whatever the environment is when the thread runs
        self._pending.add(window.tasks.submit(_add_cards, game_copy, evaluations, assessment, deck, must_finish=True))

    def _on_done(self, task_id: int, result: Any) -> None:
        if task_id in self._pending:
            self._pending.discard(task_id)
            self.added.emit(int(result))
            trainer = self.window.dialogs.train_window
            if trainer is not None and trainer.isVisible():
                trainer.reload()

    def _on_failed(self, task_id: int, message: str) -> None:
        if task_id in self._pending:
            self._pending.discard(task_id)
            self.window.statusBar().showMessage(f"Training cards not added: {message}", 8000)


def _add_cards(game: Game, evaluations: EvaluationTable, assessment: Any, deck: Path) -> int:
    from reviewer.core.services.trainer.harvest import add_game_cards

    return add_game_cards(game, evaluations, assessment, deck=deck)


def _mainline_copy(game: Game) -> Game:
    """The game with a copy of its main line alone (the cards read nothing else)."""
    root = dataclasses.replace(game.root, children=[], parent=None)
    tail = root
    for node in game.root.mainline():
        tail = tail.add_child(dataclasses.replace(node, children=[], parent=None))
    return dataclasses.replace(game, root=root)
