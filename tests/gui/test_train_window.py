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
from reviewer.gui.board.chess_play import PlayableChessBoard
from reviewer.gui.board.go_play import PlayableGoBoard
from reviewer.gui.trainer.train_window import TrainWindow

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
    assert card.kind == "chess" and isinstance(window.board, PlayableChessBoard)
    assert window.board.is_flipped()  # Black to move: Black at the bottom
    click(window.board, chess.G8)
    click(window.board, chess.F6)
    assert window.feedback_label.text().startswith("Not this one")
    click(window.board, chess.G7)
    click(window.board, chess.G6)
    qtbot.waitUntil(lambda: "next time:" in window.feedback_label.text(), timeout=WAIT_MS)
    QTest.mouseClick(window.next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.current() is None, timeout=WAIT_MS)
    assert window.boards.currentWidget() is window.empty_label
    assert "1 reviewed today" in window.progress_label.text()
    window.close_deck()
    with Deck(deck_path) as deck:
        assert deck.progress().reviews_today == 1


def test_go_cards_show_on_the_go_board_and_show_me_gives_the_answer(qtbot, deck_path):
    window = TrainWindow(lambda: Deck(deck_path))
    qtbot.addWidget(window)
    window.kind_filter.setCurrentIndex(2)  # Go only
    qtbot.waitUntil(lambda: window.current() is not None and window.current().kind == "go", timeout=WAIT_MS)
    assert isinstance(window.board, PlayableGoBoard)
    window.show_button.click()
    assert window.feedback_label.text().startswith("The best move was G5.")
    assert window.board.position().last_move is not None  # the answer, on the board
    window.next_button.click()
    qtbot.waitUntil(lambda: window.current() is None, timeout=WAIT_MS)
    window.close_deck()


def test_the_feedback_stays_with_the_card_answered_and_the_next_card_comes_when_asked(qtbot, deck_path):
    window = TrainWindow(lambda: Deck(deck_path))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.current() is not None and window.current().kind == "chess", timeout=WAIT_MS)
    card = window.current()
    click(window.board, chess.G7)
    click(window.board, chess.G6)
    qtbot.waitUntil(lambda: "next time:" in window.feedback_label.text(), timeout=WAIT_MS)  # the deck has written it
    assert window.feedback_label.text().startswith("Good")
    assert window.current() is card and window.answered() is card  # still the card answered
    assert card.played in window.card_label.text()
    board = window.board.board()
    assert board.piece_at(chess.G6) == chess.Piece(chess.PAWN, chess.BLACK)  # the answer on the board
    assert window.next_button.isEnabled() and not window.show_button.isEnabled()
    click(window.board, chess.F8)
    click(window.board, chess.G7)  # the board takes no second answer
    assert window.board.board().piece_at(chess.F8) is not None

    QTest.keyClick(window, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: window.current() is not card, timeout=WAIT_MS)
    assert window.current().kind == "go" and isinstance(window.board, PlayableGoBoard)
    assert window.feedback_label.text() == ""
    assert window.answered() is None and not window.next_button.isEnabled()
    window.close_deck()


def test_a_deck_read_before_the_answer_was_written_never_asks_the_answered_card_again(qtbot, deck_path):
    import threading

    window = TrainWindow(lambda: Deck(deck_path))
    qtbot.addWidget(window)
    window.kind_filter.setCurrentIndex(1)  # chess only: one card
    qtbot.waitUntil(lambda: window.current() is not None and window.current().kind == "chess", timeout=WAIT_MS)
    card, read_before = window.current(), list(window._due)
    writing = threading.Event()
    window._tasks.submit(writing.wait, lane="deck")  # the answer waits behind this in the deck's lane
    try:
        click(window.board, chess.G7)
        click(window.board, chess.G6)
        assert window.answered() is card
        window.loaded.emit(read_before, Deck(deck_path).progress())  # a reload's answer, read before the answer
        QTest.mouseClick(window.next_button, Qt.MouseButton.LeftButton)
        assert window.current() is card and window.answered() is card  # still on show: not asked again
    finally:
        writing.set()
    qtbot.waitUntil(lambda: window.current() is None, timeout=WAIT_MS)  # the written deck: nothing due
    assert window.feedback_label.text() == "" and window.boards.currentWidget() is window.empty_label
    window.close_deck()


def test_a_deck_changed_in_the_background_never_swaps_the_card_being_asked(qtbot, deck_path):
    import dataclasses
    import sqlite3
    import time

    window = TrainWindow(lambda: Deck(deck_path))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.current() is not None, timeout=WAIT_MS)
    asked = window.current()
    with sqlite3.connect(deck_path) as connection:  # the other card now comes first in the deck's order
        connection.execute("UPDATE cards SET due_at = CASE WHEN card_id = ? THEN ? ELSE 0 END", (asked.card_id, time.time() - 60))
    with Deck(deck_path) as deck:  # and an analysis adds a card meanwhile
        deck.add([dataclasses.replace(chess_card(), card_id="added-in-the-background")])
    window.reload()
    qtbot.waitUntil(lambda: window.progress_label.text().startswith("3 due"), timeout=WAIT_MS)
    assert window.current().card_id == asked.card_id
    window.close_deck()


def test_a_deck_changed_in_the_background_leaves_the_answered_card_and_its_feedback_on_show(qtbot, deck_path):
    window = TrainWindow(lambda: Deck(deck_path))
    qtbot.addWidget(window)
    window.kind_filter.setCurrentIndex(1)  # chess only: one card
    qtbot.waitUntil(lambda: window.current() is not None and window.current().kind == "chess", timeout=WAIT_MS)
    card = window.current()
    click(window.board, chess.G7)
    click(window.board, chess.G6)
    qtbot.waitUntil(lambda: "next time:" in window.feedback_label.text(), timeout=WAIT_MS)
    feedback = window.feedback_label.text()
    with qtbot.waitSignal(window.loaded, timeout=WAIT_MS):
        window.reload()  # what the main window does when an analysis adds cards
    assert window.answered() is card and window.current() is card
    assert window.feedback_label.text() == feedback and window.next_button.isEnabled()
    QTest.mouseClick(window.next_button, Qt.MouseButton.LeftButton)
    assert window.current() is None and window.feedback_label.text() == ""
    window.close_deck()
