"""Every analysis the window finishes (or finds settled in the cache) feeds the trainer: the
game's mistakes and blunders become cards in the deck, written off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from reviewer.core.analysis import EvaluationTable
from reviewer.core.gametree import Game
from reviewer.core.services.trainer.cards import side_of_player
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.tasks import Tasks


class TrainingCards(QObject):
    """Adds the open game's cards to the deck once its analysis is settled; `added` tells how many
    were new (after the deck was written). Call `harvest` when an analysis ends as well."""

    added = Signal(int)

    def __init__(
        self,
        session: ReviewSession,
        tasks: Tasks,
        analysis_running: Callable[[], bool],
        deck_changed: Callable[[], None],
        status_message: Callable[[str, int], None],
        parent: QObject | None = None,
        player: Callable[[], str] = lambda: "",
    ) -> None:
        """`deck_changed`: shows the new cards where the deck is on show; `status_message`: text and
        milliseconds, for the status bar; `player`: the name the player gave (the Collection
        window's): in a game where one side has that name, only that side's moves become cards."""
        super().__init__(parent)
        self._session, self._tasks = session, tasks
        self._analysis_running, self._deck_changed, self._status_message = analysis_running, deck_changed, status_message
        self._harvested: tuple[int, str, int] | None = None  # (game id, engine id, evaluations) last sent
        self._player = player
        session.assessment_changed.connect(self.harvest)

    def harvest(self) -> None:
        """Send the open game's settled analysis to the deck, unless it was sent already."""
        session = self._session
        game = session.model.game
        if game is None or self._analysis_running() or not session.model.assessment_settled:
            return
        assessment, basis = session.model.assessment, session.model.basis
        if assessment is None or len(basis.evaluations) == 0 or not basis.trust.labels:
            return
        engine_ids = {evaluation.engine_id for evaluation in basis.evaluations.ordered()}
        key = (id(game), "|".join(sorted(engine_ids)), len(basis.evaluations))
        if key == self._harvested:
            return
        self._harvested = key
        # The game may change on this thread (a variation played) while the deck is written.
        game_copy = game.mainline_copy()
        evaluations = EvaluationTable(dict(basis.evaluations.by_ply))
        from reviewer.core.services.trainer.deck import default_deck_path

        deck = default_deck_path()  # where the deck is now, whatever the environment is when the thread runs
        name = self._player().strip()
        player = name if name and side_of_player(name, game.white, game.black) is not None else None
        task = self._tasks.submit(_add_cards, game_copy, evaluations, assessment, deck, player, lane="deck", must_finish=True)
        task.done.connect(self._on_done)
        task.failed.connect(self._on_failed)

    def _on_done(self, added: object) -> None:
        self.added.emit(int(added))  # type: ignore[call-overload]
        self._deck_changed()

    def _on_failed(self, message: str) -> None:
        self._status_message(f"Training cards not added: {message}", 8000)


def _add_cards(game: Game, evaluations: EvaluationTable, assessment: Any, deck: Path, player: str | None) -> int:
    from reviewer.core.services.trainer.harvest import add_game_cards

    return add_game_cards(game, evaluations, assessment, player=player, deck=deck)


