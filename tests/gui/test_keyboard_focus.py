"""The keyboard in the real window: the navigation keys step through the game whatever has the
focus, except while a move is being typed in the move box or words in the comment editor; Esc, Enter and a click on the board or
the move list take the keyboard back from the box."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from window_support import open_game, shown_window

from reviewer.gui.window.main_window import MainWindow

CHESS_GAME = ("pgn", "chesslib__promoting.pgn")
GO_GAME = ("sgf", "sabaki__endgame-9.sgf")
WAIT_MS = 30_000
FROM_PLY = 5
# key → where it leads from FROM_PLY (None: the last ply of the game)
NAVIGATION = (
    (Qt.Key.Key_Right, FROM_PLY + 1),
    (Qt.Key.Key_Left, FROM_PLY - 1),
    (Qt.Key.Key_Home, 0),
    (Qt.Key.Key_Up, 0),
    (Qt.Key.Key_End, None),
    (Qt.Key.Key_Down, None),
)


@pytest.fixture
def window(qtbot):
    main = shown_window(qtbot, 1300, 860, remember_layout=False)
    main.activateWindow()
    yield main
    main.close()


def focusable_widgets(window: MainWindow) -> list[QWidget]:
    widgets = [
        widget
        for widget in window.findChildren(QWidget)
        if widget.focusPolicy() != Qt.FocusPolicy.NoFocus and widget.isVisible() and widget.isEnabled()
    ]
    assert window.move_entry in widgets and window.move_list in widgets and window.board_stack.currentWidget() in widgets
    return widgets


def focused() -> QWidget | None:
    return QApplication.focusWidget()


@pytest.mark.parametrize("game", [CHESS_GAME, GO_GAME], ids=["chess", "go"])
def test_every_navigation_key_works_from_every_focusable_widget(qtbot, window, corpus_dir, game) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*game))
    last = window.session.model.ply_count
    for widget in focusable_widgets(window):
        for key, wanted in NAVIGATION:
            window.session.model.set_current_ply(FROM_PLY)
            window.session.model.annotate(window.session.model.current_node, words="")  # an empty editor passes them on
            widget.setFocus()
            qtbot.waitUntil(widget.hasFocus)
            QTest.keyClick(focused(), key)
            where = f"{key.name} from {type(widget).__name__} {widget.objectName()!r}"
            assert window.session.model.current_ply == (last if wanted is None else wanted), where
        if game == GO_GAME and widget not in (window.move_entry, window.comment_editor):  # Shift+P passes, but in a text box
            window.session.model.set_current_ply(FROM_PLY)
            widget.setFocus()
            qtbot.waitUntil(widget.hasFocus)
            QTest.keyClick(focused(), Qt.Key.Key_P, Qt.KeyboardModifier.ShiftModifier)
            assert window.session.model.current_node.move == "pass", f"Shift+P from {type(widget).__name__}"


def test_keys_edit_a_move_being_typed_and_esc_gives_them_back(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    entry = window.move_entry
    window.session.model.set_current_ply(FROM_PLY)
    QTest.mouseClick(entry, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: focused() is entry)
    QTest.keyClicks(entry, "Nf")
    QTest.keyClick(entry, Qt.Key.Key_Left)
    QTest.keyClick(entry, Qt.Key.Key_Home)
    assert window.session.model.current_ply == FROM_PLY and entry.cursorPosition() == 0  # the keys are the box's
    QTest.keyClick(entry, Qt.Key.Key_Escape)
    board = window.board_stack.currentWidget()
    qtbot.waitUntil(lambda: focused() is board)
    assert entry.text() == "Nf"  # nothing typed is lost
    QTest.keyClick(board, Qt.Key.Key_Right)
    assert window.session.model.current_ply == FROM_PLY + 1


def test_a_move_typed_and_entered_leaves_the_box(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    entry = window.move_entry
    window.session.model.set_current_ply(0)
    QTest.mouseClick(entry, Qt.MouseButton.LeftButton)
    QTest.keyClicks(entry, "d4")
    QTest.keyClick(entry, Qt.Key.Key_Return)
    assert window.session.model.current_node.move == "d4" and entry.text() == ""
    qtbot.waitUntil(lambda: focused() is window.board_stack.currentWidget())
    QTest.keyClick(focused(), Qt.Key.Key_Left)
    assert window.session.model.current_ply == 0


@pytest.mark.parametrize("target", ["board", "move list"])
def test_a_click_elsewhere_takes_the_keyboard_from_the_box(qtbot, window, corpus_dir, target) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    entry = window.move_entry
    QTest.mouseClick(entry, Qt.MouseButton.LeftButton)
    QTest.keyClicks(entry, "Q")
    qtbot.waitUntil(lambda: focused() is entry)
    if target == "board":
        widget = window.board_stack.currentWidget()
        QTest.mouseClick(widget, Qt.MouseButton.RightButton, pos=widget.rect().center())
    else:
        widget = window.move_list
        rect = window.move_list.item_rect(window.session.model.mainline_node(3))
        QTest.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: focused() is widget)
    window.session.model.set_current_ply(FROM_PLY)
    QTest.keyClick(widget, Qt.Key.Key_Right)
    assert window.session.model.current_ply == FROM_PLY + 1


def test_opening_a_go_game_leaves_the_keyboard_to_the_board(qtbot, window, corpus_dir) -> None:
    QTest.mouseClick(window.move_entry, Qt.MouseButton.LeftButton)
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    qtbot.waitUntil(lambda: focused() is window.board)
    moves = window.session.model.ply_count
    window.session.model.set_current_ply(FROM_PLY)
    QTest.keyClick(focused(), Qt.Key.Key_P, Qt.KeyboardModifier.ShiftModifier)  # a pass
    assert window.move_entry.text() == "" and window.session.model.current_node.move == "pass"
    assert window.session.model.ply_count == moves
