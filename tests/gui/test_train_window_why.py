"""The Train view says why the game's move lost once the card is answered (found or shown), never
while the player still looks for the move: it would point at it."""

from __future__ import annotations

import chess
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from support import chess_card

from reviewer.core.services.trainer.deck import Deck
from reviewer.gui.trainer.train_window import TrainWindow

WAIT_MS = 60_000


def click(board, square: int) -> None:
    QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.square_center(square).toPoint())


def open_window(qtbot, tmp_path) -> TrainWindow:
    path = tmp_path / "deck.sqlite"
    with Deck(path) as deck:
        deck.add([chess_card()])
    window = TrainWindow(lambda: Deck(path))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.current() is not None, timeout=WAIT_MS)
    return window


def test_why_the_games_move_lost_waits_until_the_card_is_answered(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path)
    card = window.current()
    assert card.why_text and window.why_label.text() == ""  # not before the player has tried
    click(window.board, chess.G8)
    click(window.board, chess.F6)  # the game's move again
    assert window.feedback_label.text().startswith("Not this one")
    assert window.why_label.text() == ""  # still looking: the why would point at the answer
    click(window.board, chess.G7)
    click(window.board, chess.G6)  # the best move
    assert window.feedback_label.text().startswith("Good")
    assert window.why_label.text() == f"In the game, Nf6: {card.why_text}"
    window.close_deck()


def test_show_me_tells_why_too(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path)
    card = window.current()
    QTest.mouseClick(window.show_button, Qt.MouseButton.LeftButton)
    assert window.feedback_label.text().startswith(f"The best move was {card.best}.")
    assert window.why_label.text() == f"In the game, Nf6: {card.why_text}"
    window.close_deck()
