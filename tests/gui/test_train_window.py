"""The Train view with a real deck, real widgets and real mouse events."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from support import chess_card, go_game_with_a_blunder

from reviewer.core.scoring import assess_game
from reviewer.core.services.trainer.cards import cards_from_game
from reviewer.core.services.trainer.deck import Deck
from reviewer.gui.train_window import TrainWindow

WAIT_MS = 60_000


@pytest.fixture
def deck_path(tmp_path) -> Path:
    path = tmp_path / "deck.sqlite"
    game, table = go_game_with_a_blunder()
    with Deck(path) as deck:
        deck.add([chess_card()])
        deck.add(cards_from_game(game, table, assess_game(game, table)))
    return path


def click(board, square: int) -> None:
    QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.square_center(square).toPoint())


def test_due_cards_are_asked_on_the_board_and_answers_reschedule_them(qtbot, deck_path):
    window = TrainWindow(lambda: Deck(deck_path))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.current() is not None, timeout=WAIT_MS)
    assert window.progress_label.text().startswith("2 due · 2 cards ·")
    window.kind_filter.setCurrentIndex(1)  # chess only
    qtbot.waitUntil(lambda: window.progress_label.text().startswith("1 due"), timeout=WAIT_MS)
    card = window.current()
    assert card.kind == "chess" and window.boards.currentWidget() is window.chess_board
    assert window.chess_board.is_flipped()  # Black to move: Black at the bottom
    click(window.chess_board, chess.G8)
    click(window.chess_board, chess.F6)
    assert window.feedback_label.text().startswith("Not this one")
    click(window.chess_board, chess.G7)
    click(window.chess_board, chess.G6)
    qtbot.waitUntil(lambda: window.current() is None, timeout=WAIT_MS)
    assert window.boards.currentWidget() is window.empty_label
    assert "1 reviewed today" in window.progress_label.text()
    assert "next time:" in window.feedback_label.text()
    window.close_deck()
    with Deck(deck_path) as deck:
        assert deck.progress().reviews_today == 1


def test_go_cards_show_on_the_go_board_and_show_me_gives_the_answer(qtbot, deck_path):
    window = TrainWindow(lambda: Deck(deck_path))
    qtbot.addWidget(window)
    window.kind_filter.setCurrentIndex(2)  # Go only
    qtbot.waitUntil(lambda: window.current() is not None and window.current().kind == "go", timeout=WAIT_MS)
    assert window.boards.currentWidget() is window.go_board
    window.show_button.click()
    assert window.feedback_label.text().startswith("The best move was G5.")
    qtbot.waitUntil(lambda: window.current() is None, timeout=WAIT_MS)
    window.close_deck()
