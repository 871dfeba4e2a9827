"""Learn from your mistakes in the window: the panel that asks, and the controller that takes the
moves played on the board while it asks (instead of adding them to the game).

While a mistake is asked the session hides the engine's view (`ReviewModel.hide_engine_from`):
no arrow, line, label, evaluation, threat or "why" tells the answer. A mistake answered (found, or
shown) stays on show with its feedback until the player asks for the next one.

A move the card does not know is judged by an engine in a worker thread (the GUI never waits on it).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from reviewer.core.gametree import Color
from reviewer.core.services.trainer.cards import Card, Evaluator, Verdict
from reviewer.core.services.trainer.retro import Retro
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.presenters.why import move_why


class RetroPanel(QFrame):
    show_me_clicked = Signal()
    skip_clicked = Signal()
    next_clicked = Signal()
    stop_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.feedback = QLabel()
        self.feedback.setWordWrap(True)
        self.feedback.setAccessibleName("Answer feedback")
        self.show_me = QPushButton("Show me")
        self.skip = QPushButton("Skip")
        self.next = QPushButton("Next")
        self.next.setToolTip("The next mistake")
        self.next.setEnabled(False)
        self.stop = QPushButton("Stop")
        buttons = QHBoxLayout()
        for button in (self.show_me, self.skip, self.next, self.stop):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("<b>Learn from your mistakes</b>"))
        layout.addWidget(self.prompt)
        layout.addWidget(self.feedback)
        layout.addLayout(buttons)
        self.show_me.clicked.connect(self.show_me_clicked)
        self.skip.clicked.connect(self.skip_clicked)
        self.next.clicked.connect(self.next_clicked)
        self.stop.clicked.connect(self.stop_clicked)

    def set_state(self, asking: bool, answered: bool, finished: bool) -> None:
        """`asking`: a mistake waits for a move; `answered`: one was found or shown and stays on show
        until Next; `finished`: none is left."""
        self.show_me.setEnabled(asking)
        self.skip.setEnabled(asking)
        self.next.setEnabled(answered)
        self.stop.setText("Close" if finished else "Stop")


class RetroController(QObject):
    """Runs one `Retro` on the open game. `active` while it asks; the analysis board hands it the
    moves played on the board (`offer_move`)."""

    def __init__(
        self,
        session: ReviewSession,
        panel: RetroPanel,
        evaluator_for: Callable[[Card], Evaluator | None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.panel = panel
        self._evaluator_for = evaluator_for
        self._retro: Retro | None = None
        self._tasks = Tasks(self)
        self._waiting = False
        self._answered: Card | None = None  # the mistake found or shown, on show until Next
        panel.show_me_clicked.connect(self.show_me)
        panel.skip_clicked.connect(self.skip)
        panel.next_clicked.connect(self.next)
        panel.stop_clicked.connect(self.stop)
        session.game_loaded.connect(self.stop)  # its mistakes were another game's
        panel.hide()

    @property
    def active(self) -> bool:
        """True while a mistake is asked or one answered is on show: the board's moves come here."""
        return self._retro is not None and (not self._retro.done or self._answered is not None)

    @property
    def asking(self) -> bool:
        """True while the player looks for a move (and the engine's view is hidden)."""
        return self._retro is not None and not self._retro.done and self._answered is None

    @property
    def answered(self) -> Card | None:
        return self._answered

    @property
    def retro(self) -> Retro | None:
        return self._retro

    def start(self, color: Color) -> bool:
        game, assessment = self.session.model.game, self.session.model.assessment
        if game is None or assessment is None:
            return False
        self.session.model.settle_assessment()
        assessment = self.session.model.assessment
        if assessment is None:
            return False
        self._retro = Retro.for_game(game, self.session.model.evaluations, assessment, color)
        self._answered = None
        self.panel.feedback.setText("")
        self.panel.show()
        self._ask()
        return True

    def offer_move(self, move: str) -> None:
        retro = self._retro
        if retro is None or retro.current is None or self._waiting or self._answered is not None:
            return
        card = retro.current.card
        verdict = retro.answer(move)
        if verdict.accepted is None:
            evaluate = self._evaluator_for(card)
            if evaluate is None:
                self.panel.feedback.setText(verdict.message)
                return
            self._waiting = True
            self.panel.feedback.setText(f"{verdict.move}: asking the engine…")
            task = self._tasks.submit(_judge_with_engine, card, move, evaluate, lane="engine")
            task.done.connect(lambda verdict, card=card: self._on_judged(card, verdict))
            task.failed.connect(self._on_judge_failed)
            return
        self._show_verdict(verdict, card)

    def show_me(self) -> None:
        retro = self._retro
        if retro is None or retro.current is None or not self.asking or self._waiting:
            return
        card = retro.current.card
        best = retro.show_me()
        self.panel.feedback.setText(f"The best move was {best}." + self._why_text(card, f" {card.played} lost: "))
        self._keep_answered(card)

    def skip(self) -> None:
        if self._retro is not None and self.asking and not self._waiting:
            self._retro.skip()
            self.panel.feedback.setText("")
            self._ask()

    def next(self) -> None:
        """Leave the mistake answered for the next one (or the summary)."""
        if self._answered is not None:
            self._answered = None
            self.panel.feedback.setText("")
            self._ask()

    def stop(self) -> None:
        self._retro = None
        self._answered = None
        self._waiting = False
        self.session.model.hide_engine_from(None)
        self.panel.hide()

    def close(self) -> None:
        self._tasks.shutdown()

    # ---------------------------------------------------------------------------- helpers

    def _on_judge_failed(self, message: str) -> None:
        self._waiting = False
        self.panel.feedback.setText(f"The engine could not judge the move: {message}")

    def _on_judged(self, card: object, verdict: object) -> None:
        self._waiting = False
        retro = self._retro
        if retro is None or retro.current is None or retro.current.card is not card or not isinstance(verdict, Verdict):
            return
        if verdict.accepted is not None and verdict.move:
            retro.answer(verdict.move, evaluate=lambda _card, _move: verdict.loss)
            self._show_verdict(verdict, card)
        else:
            self.panel.feedback.setText(verdict.message)

    def _show_verdict(self, verdict: Verdict, card: Card) -> None:
        """`card`: the mistake `verdict` answers. Why the game's move lost waits for the answer: it
        would point at the move looked for."""
        if verdict.accepted:
            self.panel.feedback.setText(verdict.message + self._why_text(card, f" {card.played} lost: "))
            self._keep_answered(card)
        else:
            self.panel.feedback.setText(verdict.message)

    def _keep_answered(self, card: Card) -> None:
        """`card` is answered: its position stays on show, now with the engine's view, until Next."""
        self._answered = card
        retro = self._retro
        self.panel.set_state(asking=False, answered=True, finished=retro is None or retro.done)
        self.session.model.hide_engine_from(None)
        self.panel.next.setFocus()

    def _why_text(self, card: Card, lead: str) -> str:
        """Why the game's move of `card` lost (`reviewer.core.explain`), after `lead`; "" when the lines show nothing."""
        game = self.session.model.game
        if game is None or not 0 < card.ply <= game.ply_count:
            return ""
        why = move_why(self.session.model, game.node_at_ply(card.ply))
        return f"{lead}{why.text}" if why is not None else ""

    def _ask(self) -> None:
        retro = self._retro
        if retro is None:
            return
        self.panel.prompt.setText(retro.prompt())
        self.panel.set_state(asking=not retro.done, answered=False, finished=retro.done)
        item = retro.current
        self.session.model.hide_engine_from(item.card.ply if item is not None else None)
        if item is not None:
            self.session.model.set_current_ply(item.card.ply - 1)


def _judge_with_engine(card: Card, move: str, evaluate: Evaluator) -> Verdict:
    from reviewer.core.services.trainer.cards import judge_answer

    return judge_answer(card, move, evaluate)
