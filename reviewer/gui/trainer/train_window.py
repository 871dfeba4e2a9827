"""The Train view: the cards due now, one at a time on a board you play on, with progress and
streaks, and filters by game, colour, player and opening; chess and Go in one deck or apart.

A card answered (found, or shown) stays on screen with its feedback and the move on the board
until the player asks for the next card: feedback always belongs to the card it is under.

The deck is read and written off the GUI thread; a move a card does not know is judged by an engine
there too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer.core.games import rules_for
from reviewer.core.services.trainer.cards import Card, Evaluator, Verdict, judge_answer, position_of
from reviewer.core.services.trainer.deck import CardFilter, Deck, DueCard, Progress
from reviewer.gui.board.views import BoardView, make_board_view
from reviewer.gui.common.board_shapes import Sketch
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.common.window_size import resize_to_fit


class TrainWindow(QWidget):
    loaded = Signal(object, object)  # list[DueCard], Progress (from the deck's thread)
    recorded = Signal(object, object)  # the same, once an answer is written
    judged = Signal(object, object)  # Card, Verdict
    reviewed = Signal(str)  # "next due …"
    failed = Signal(str)

    def __init__(
        self,
        deck_factory: Callable[[], Deck],
        evaluator_for: Callable[[Card], Evaluator | None] = lambda _card: None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Train — Reviewer")
        self._deck_factory = deck_factory
        self._evaluator_for = evaluator_for
        self._tasks = Tasks(self)  # one lane: the deck sees its reads and writes in order
        self._due: list[DueCard] = []
        self._attempts = 0
        self._asked_at = time.monotonic()
        self._busy = False
        # The card answered and still on show (None while a card is asked); what the deck says is
        # due next waits in `_waiting` until the player moves on.
        self._answered: Card | None = None
        self._waiting: tuple[list[DueCard], Progress] | None = None
        self._leaving = False
        self._recording = False  # an answer is being written: what the deck said before it is out of date

        self.progress_label = QLabel("Loading the deck…")
        self.progress_label.setAccessibleName("Training progress")
        self.kind_filter = QComboBox()
        for text, value in (("Chess and Go", None), ("Chess", "chess"), ("Go", "go")):
            self.kind_filter.addItem(text, value)
        self.side_filter = QComboBox()
        for text, value in (("Both colours", None), ("White", "white"), ("Black", "black")):
            self.side_filter.addItem(text, value)
        self.player_filter = QLineEdit()
        self.player_filter.setPlaceholderText("Player")
        self.opening_filter = QLineEdit()
        self.opening_filter.setPlaceholderText("Opening")
        filters = QHBoxLayout()
        for widget in (self.kind_filter, self.side_filter, self.player_filter, self.opening_filter):
            filters.addWidget(widget)
        self.kind_filter.currentIndexChanged.connect(lambda _i: self._filters_changed())
        self.side_filter.currentIndexChanged.connect(lambda _i: self._filters_changed())
        self.player_filter.editingFinished.connect(self._filters_changed)
        self.opening_filter.editingFinished.connect(self._filters_changed)

        self._views: dict[str, BoardView] = {}  # each game's board, made for its first card
        self._sketches: dict[str, Sketch] = {}  # the arrows drawn on each board, for the card on show
        self.boards = QStackedWidget()
        self.empty_label = QLabel("No card is due. Analyse games to make cards from your mistakes.")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.boards.addWidget(self.empty_label)

        self.card_label = QLabel()
        self.card_label.setWordWrap(True)
        self.feedback_label = QLabel()
        self.feedback_label.setWordWrap(True)
        self.feedback_label.setAccessibleName("Answer feedback")
        self.why_label = QLabel()  # why the game's move lost: once the card is answered (found or shown)
        self.why_label.setWordWrap(True)
        self.why_label.setAccessibleName("Why the game's move lost")
        self.show_button = QPushButton("Show me")
        self.show_button.clicked.connect(self.show_answer)
        self.next_button = QPushButton("Next card")
        self.next_button.setShortcut("N")
        self.next_button.setToolTip("Next card (N)")
        self.next_button.clicked.connect(self.next_card)
        self.next_button.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.show_button)
        buttons.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.progress_label)
        layout.addLayout(filters)
        layout.addWidget(self.boards, 1)
        layout.addWidget(self.card_label)
        layout.addWidget(self.feedback_label)
        layout.addWidget(self.why_label)
        layout.addLayout(buttons)

        self.loaded.connect(self._on_loaded)
        self.recorded.connect(self._on_recorded)
        self.judged.connect(self._on_judged)
        self.reviewed.connect(self._on_reviewed)
        self.failed.connect(self.feedback_label.setText)
        resize_to_fit(self, 560, 720)
        self.reload()

    # ------------------------------------------------------------------------------- API

    def current(self) -> Card | None:
        return self._due[0].card if self._due else None

    def card_filter(self) -> CardFilter:
        return CardFilter(
            kind=self.kind_filter.currentData(),
            side=self.side_filter.currentData(),
            player=self.player_filter.text().strip() or None,
            opening=self.opening_filter.text().strip() or None,
        )

    def reload(self) -> None:
        """Read the deck again (it changed, or the window is shown again): the card being asked, or
        the one answered with its feedback, stays on show."""
        task = self._tasks.submit(_load_due, self._deck_factory, self.card_filter(), lane="deck")
        task.done.connect(lambda result: self.loaded.emit(*result))
        task.failed.connect(lambda message: self.failed.emit(f"Cannot open the deck: {message}"))

    def _filters_changed(self) -> None:
        if self._answered is not None:
            self._leaving = True  # the answered card gives way to what the new filters select
        self.reload()

    def answered(self) -> Card | None:
        """The card answered and still on show, waiting for the player to ask for the next one."""
        return self._answered

    def next_card(self) -> None:
        """Leave the answered card for the next one due (as soon as the deck has said which)."""
        if self._answered is None:
            return
        if self._waiting is not None:
            due, progress = self._waiting
            self._answered, self._waiting, self._leaving = None, None, False
            self._show_due(due, progress, keep_asked=False)
        else:
            self._leaving = True  # the answer is still being written: the deck's reply moves on

    def answer(self, move: str) -> None:
        card = self.current()
        if card is None or self._busy or self._answered is not None:
            return
        verdict = judge_answer(card, move)
        if verdict.accepted is None:
            evaluate = self._evaluator_for(card)
            if evaluate is None:
                self.feedback_label.setText(verdict.message)
                return
            self._busy = True
            self.feedback_label.setText(f"{verdict.move}: asking the engine…")
            task = self._tasks.submit(judge_answer, card, move, evaluate, lane="deck")
            task.done.connect(lambda verdict: self.judged.emit(card, verdict))
            task.failed.connect(self._on_judge_failed)
            return
        self._on_judged(card, verdict)

    def show_answer(self) -> None:
        card = self.current()
        if card is None or self._busy or self._answered is not None:
            return
        self.feedback_label.setText(f"The best move was {card.best}.")
        self._tell_why(card)
        self._finish(card, card.best)
        self._record(card, card.best, accepted=False)

    def close_deck(self) -> None:
        self._tasks.shutdown(timeout_s=30)

    # ---------------------------------------------------------------------------- worker

    # ----------------------------------------------------------------------------- slots

    def _on_answer_recorded(self, result: object) -> None:
        assert isinstance(result, tuple)
        next_due, due, progress = result
        self.reviewed.emit(next_due)
        self.recorded.emit(due, progress)

    def _on_judge_failed(self, message: str) -> None:
        self._busy = False
        self.feedback_label.setText(f"The engine could not judge the move: {message}")

    def _on_loaded(self, due: object, progress: object) -> None:
        assert isinstance(due, list) and isinstance(progress, Progress)
        if self._answered is not None and not self._leaving:
            if self._recording:  # read before the answer was written: it would ask the same card again
                return
            self._waiting = (due, progress)
            self._show_progress(due, progress)
            return
        keep_asked = self._answered is None  # a card being asked, not one answered and left
        self._answered, self._waiting, self._leaving = None, None, False
        self._show_due(due, progress, keep_asked)

    def _show_due(self, due: list[DueCard], progress: Progress, keep_asked: bool) -> None:
        """Show the deck's due cards; with `keep_asked`, the card being asked stays on show while it
        is still due (a deck changed by an analysis in the background never swaps it under the player)."""
        previous = self.current()
        if keep_asked and previous is not None:
            at = next((i for i, entry in enumerate(due) if entry.card.card_id == previous.card_id), 0)
            due = [due[at], *due[:at], *due[at + 1 :]] if at else due
        self._due = due
        self._show_progress(due, progress)
        card = self.current()
        if card is None:
            self.feedback_label.setText("")  # nothing due: no feedback left without its card
        elif previous is None or previous.card_id != card.card_id:
            self._attempts = 0
            self._asked_at = time.monotonic()
            self.feedback_label.setText("")
            self.why_label.setText("")
        self._show(card)

    def _on_recorded(self, due: object, progress: object) -> None:
        self._recording = False
        self._on_loaded(due, progress)

    def _show_progress(self, due: list[DueCard], progress: Progress) -> None:
        self.progress_label.setText(
            f"{len(due)} due · {progress.cards} card{'s' if progress.cards != 1 else ''} · {progress.reviews_today} reviewed today · "
            f"streak {progress.streak_days} day{'s' if progress.streak_days != 1 else ''}"
        )

    def _on_judged(self, card: object, verdict: object) -> None:
        self._busy = False
        if not isinstance(card, Card) or not isinstance(verdict, Verdict) or card is not self.current():
            return
        self.feedback_label.setText(verdict.message)
        if not verdict.move or verdict.accepted is None:
            return
        self._attempts += 1
        if verdict.accepted:  # why the game's move lost would point at the move looked for: after the answer
            self._tell_why(card)
            self._finish(card, verdict.move)
            self._record(card, verdict.move, accepted=True)

    @property
    def board(self) -> Any:
        """The board widget the card on show is asked on (the empty page when none is due)."""
        return self.boards.currentWidget()

    def _view_for(self, kind: str) -> BoardView:
        view = self._views.get(kind)
        if view is None:
            view = make_board_view(kind, self.boards)
            view.connect_moves(self.answer, self.answer)  # a move the board refuses is judged illegal, with the reason
            self._sketches[kind] = Sketch(view)
            self.boards.addWidget(view.widget)
            self._views[kind] = view
        return view

    def _on_reviewed(self, text: str) -> None:
        if self._answered is not None:  # about the card on show
            self.feedback_label.setText(f"{self.feedback_label.text()} ({text})")

    def _tell_why(self, card: Card) -> None:
        if card.why_text:
            self.why_label.setText(f"In the game, {card.played}: {card.why_text}")

    def _finish(self, card: Card, move: str) -> None:
        """`card` is answered by `move`: show that move played on the board and wait for "Next card"."""
        self._answered = card
        played = rules_for(card.kind).play(position_of(card), move)
        view = self._view_for(card.kind)
        view.show_position(played.position, card.side, played.machine)
        view.set_interactive(False)
        self.show_button.setEnabled(False)
        self.next_button.setEnabled(True)
        self.next_button.setFocus()

    def _record(self, card: Card, move: str, accepted: bool) -> None:
        seconds = time.monotonic() - self._asked_at
        attempts = max(1, self._attempts)
        self._recording, self._waiting = True, None
        task = self._tasks.submit(
            _record_answer, self._deck_factory, card, move, accepted, attempts, seconds, self.card_filter(),
            lane="deck", must_finish=True,
        )
        task.done.connect(self._on_answer_recorded)
        task.failed.connect(lambda message: self.failed.emit(f"Cannot save the answer: {message}"))

    def _show(self, card: Card | None) -> None:
        self.next_button.setEnabled(False)
        if card is None:
            self.boards.setCurrentWidget(self.empty_label)
            self.card_label.setText("")
            self.show_button.setEnabled(False)
            return
        self.show_button.setEnabled(True)
        view = self._view_for(card.kind)
        view.set_interactive(True)
        view.show_position(position_of(card), card.side)
        self._sketches[card.kind].clear()
        self.boards.setCurrentWidget(view.widget)
        who = f"{card.white} – {card.black}" if card.white or card.black else "a game"
        mover = f"{card.player} ({card.side.capitalize()})" if card.player.strip() else card.side.capitalize()
        self.card_label.setText(
            f"{mover} to move. In {who} (move {(card.ply + 1) // 2}) {card.played} was a "
            f"{card.judgement}. Find a better move."
        )


def _load_due(deck_factory: Callable[[], Deck], where: CardFilter) -> tuple[list[DueCard], Progress]:
    with deck_factory() as deck:
        return deck.due(where=where), deck.progress()


def _record_answer(
    deck_factory: Callable[[], Deck], card: Card, move: str, accepted: bool, attempts: int, seconds: float,
    where: CardFilter,
) -> tuple[str, list[DueCard], Progress]:
    with deck_factory() as deck:
        review = deck.review(card.card_id, move, accepted, attempts, seconds)
        next_due = f"next time: {review.next_due.astimezone().strftime('%Y-%m-%d %H:%M')}"
        return next_due, deck.due(where=where), deck.progress()
