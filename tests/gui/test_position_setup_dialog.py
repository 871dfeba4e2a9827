"""Edit ▸ Set up position with the real mouse and keys: pieces placed from the palette, dragged on
the board and taken off, an illegal chess position refused with its reason, a legal one opened as
a game; FEN typed in; Go stones, a stone without a liberty refused, the board size, a Go game opened."""

from __future__ import annotations

import shlex

import chess
import pytest
import screenshots
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from support import fake_engine_command
from window_support import shown_window

from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.dialogs.position_setup import PositionSetupDialog

WAIT_MS = 10_000


@pytest.fixture
def window(qtbot):
    return shown_window(qtbot, 1100, 760, remember_layout=False)


def open_editor(qtbot, window) -> PositionSetupDialog:
    QTest.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.dialogs.position_setup is not None and window.dialogs.position_setup.isVisible(), timeout=WAIT_MS)
    dialog = window.dialogs.position_setup
    qtbot.waitExposed(dialog)
    return dialog


def at(name: str) -> tuple[int, int]:
    square = chess.parse_square(name)
    return (chess.square_rank(square), chess.square_file(square))


def click_point(dialog, point, button=Qt.MouseButton.LeftButton) -> None:
    QTest.mouseClick(dialog.board, button, Qt.KeyboardModifier.NoModifier, dialog.board.point_center(point).toPoint())


def choose(dialog, key: str) -> None:
    button = dialog.palette_buttons[key]
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    assert dialog.chosen_piece() == key


def drag_on_board(dialog, origin, target) -> None:
    board = dialog.board
    QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.point_center(origin).toPoint())
    QTest.mouseMove(board, board.point_center(target).toPoint())
    QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.point_center(target).toPoint())


def shoot(qtbot, window, dialog, name: str) -> None:
    screenshots.shoot(qtbot, window, name, shown=dialog,
                      before_grab=lambda: dialog.set_draft(dialog.draft))  # the reason's colour follows the theme


def test_an_illegal_chess_position_is_refused_with_its_reason_and_a_legal_one_opens(qtbot, window):
    dialog = open_editor(qtbot, window)
    assert dialog.kind == "chess" and dialog.notation_edit.text() == chess.STARTING_FEN
    QTest.mouseClick(dialog.clear_button, Qt.MouseButton.LeftButton)  # the kings stay
    assert sorted(dialog.draft.pieces.values()) == ["K", "k"]
    # the black king taken off with a right-click: refused, and why
    click_point(dialog, at("e8"), Qt.MouseButton.RightButton)
    assert "Black has no king" in dialog.problem_text() and not dialog.open_button.isEnabled()
    choose(dialog, "k")
    click_point(dialog, at("g8"))
    assert dialog.open_button.isEnabled()
    # a white rook giving check with White to move: the side not to move is in check
    choose(dialog, "R")
    click_point(dialog, at("a1"))
    drag_on_board(dialog, at("a1"), at("g1"))
    assert dialog.draft.pieces.get(at("g1")) == "R" and at("a1") not in dialog.draft.pieces
    assert "not to move is in check" in dialog.problem_text()
    assert not dialog.open_button.isEnabled()
    shoot(qtbot, window, dialog, "setup-chess-refused")
    black = dialog.to_move_buttons["black"]
    QTest.mouseClick(black, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(8, black.height() // 2))
    assert dialog.draft.to_move == "black" and dialog.open_button.isEnabled()
    assert dialog.notation_edit.text() == "6k1/8/8/8/8/8/8/4K1R1 b - - 0 1"
    QTest.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.session.model.game is not None, timeout=WAIT_MS)
    game = window.session.model.game
    assert game.kind == "chess" and game.start_fen == "6k1/8/8/8/8/8/8/4K1R1 b - - 0 1"
    assert window.board is not None and window.board.isVisible()
    assert not dialog.isVisible()
    # the new game can be played on (Black's king steps out of check) and analysed
    assert window.play_line(["Kh7"])
    window.set_engine_choice(EngineChoice(kind="chess", command=shlex.join(fake_engine_command("fake_uci.py"))), remember=False)
    with qtbot.waitSignal(window.analysis_finished, timeout=60_000) as finished:
        window.start_analysis()
    assert finished.args == [True]
    assert window.session.model.evaluations.get(0) is not None and window.session.model.evaluations.get(1) is not None


def test_a_fen_typed_in_sets_the_board_and_a_bad_one_says_why(qtbot, window):
    dialog = open_editor(qtbot, window)
    edit = dialog.notation_edit
    edit.setFocus()
    edit.selectAll()
    QTest.keyClicks(edit, "8/8/8/8/8/8/8/8 w")
    QTest.keyClick(edit, Qt.Key.Key_Return)
    assert "Not a FEN" in dialog.problem_text() or "no king" in dialog.problem_text() or "empty" in dialog.problem_text()
    assert not dialog.open_button.isEnabled()
    edit.selectAll()
    QTest.keyClicks(edit, "4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 30")
    QTest.keyClick(edit, Qt.Key.Key_Return)
    assert dialog.draft.pieces[at("d5")] == "p" and dialog.draft.choices["en_passant"] == "d6"
    assert dialog.open_button.isEnabled()
    dialog.reject()


def test_go_stones_a_stone_without_a_liberty_refused_and_a_go_game_opened(qtbot, window):
    dialog = open_editor(qtbot, window)
    combo = dialog.kind_combo
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: dialog.kind == "go", timeout=WAIT_MS)
    assert dialog.notation_label.text() == "SGF" and dialog.draft.width == 19
    size = dialog._choice_widgets["size"]
    size.setFocus()
    QTest.keyClick(size, Qt.Key.Key_Up)  # 19 → 13
    QTest.keyClick(size, Qt.Key.Key_Up)  # 13 → 9
    size.activated.emit(size.currentIndex())
    qtbot.waitUntil(lambda: dialog.draft.width == 9, timeout=WAIT_MS)
    choose(dialog, "white")
    click_point(dialog, (0, 0))
    choose(dialog, "black")
    click_point(dialog, (0, 1))
    click_point(dialog, (1, 0))
    assert "The white stone at A1 has no liberty" in dialog.problem_text() and not dialog.open_button.isEnabled()
    shoot(qtbot, window, dialog, "setup-go-refused")
    click_point(dialog, (0, 0), Qt.MouseButton.RightButton)
    assert dialog.open_button.isEnabled()
    assert dialog.notation_edit.text() == "(;GM[1]FF[4]SZ[9]KM[6.5]PL[B]AB[bi][ah])"
    QTest.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.session.model.game is not None, timeout=WAIT_MS)
    game = window.session.model.game
    assert game.kind == "go" and game.board_width == 9 and sorted(game.setup_black) == [(0, 1), (1, 0)]
    assert window.board is not None and window.board.isVisible()
    assert window.play_line(["E5"])


def test_a_piece_dropped_from_the_palette_lands_on_its_square(qtbot, window):
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QDragEnterEvent, QDropEvent

    from reviewer.gui.dialogs.position_setup import PIECE_MIME

    dialog = open_editor(qtbot, window)
    mime = QMimeData()
    mime.setData(PIECE_MIME, b"N")  # what the palette's knight puts in its drag
    target = dialog.board.point_center(at("d4"))
    enter = QDragEnterEvent(target.toPoint(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(dialog.board, enter)
    assert enter.isAccepted()  # the board takes the palette's pieces
    drop = QDropEvent(target, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(dialog.board, drop)
    assert dialog.draft.pieces[at("d4")] == "N"
    assert "White has more than 16 pieces" in dialog.problem_text()
    dialog.reject()


def test_a_set_up_position_asks_before_it_replaces_a_game_with_unsaved_edits(qtbot, window, tmp_path):
    path = tmp_path / "g.pgn"
    path.write_text("1. e4 e5 2. Nf3 *\n", encoding="utf-8")
    window.open_file(path)
    qtbot.waitUntil(lambda: window.session.model.game is not None, timeout=WAIT_MS)
    edited = window.session.model.game
    assert window.session.model.toggle_nag(window.session.model.mainline_node(1), 2)
    asked: list[str] = []
    answers = iter(["cancel", "discard"])
    window.saving.ask_unsaved = lambda name: asked.append(name) or next(answers)
    for answer in ("cancel", "discard"):
        dialog = open_editor(qtbot, window)
        QTest.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda dialog=dialog: not dialog.isVisible(), timeout=WAIT_MS)
        if answer == "cancel":  # the edited game stays, with its edit
            assert window.session.model.game is edited and window.session.model.unsaved_edits == 1
    assert asked == [str(path)] * 2
    assert window.session.model.game is not edited and window.session.model.game.start_fen == chess.STARTING_FEN
