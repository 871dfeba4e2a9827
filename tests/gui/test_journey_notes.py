"""Issue #33 end to end, as a player walks it in the real window with real keys and the mouse: a NAG,
words and a board mark on one move, each taken back by Undo and brought back by Redo (on the model
and on screen), File ▸ Save into the game's own file, and the notes read back by a new window and by
python-chess / sgfmill. Then the keys of the window: no two enabled actions share one in a chess or
a Go game, and the markup keys are text in the move box and the comment editor."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import chess
import chess.pgn
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from screenshots import shoot
from sgfmill import sgf
from window_support import shown_window

from reviewer.core.formats.save import backup_path
from reviewer.core.gametree import Shape
from reviewer.gui.presenters.notes import WORDS_MARK
from reviewer.gui.review.comment_editor import CommentEditor
from reviewer.gui.window.main_window import MainWindow

WAIT_MS = 60_000
NONE, SHIFT, ALT, CTRL = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier,
                          Qt.KeyboardModifier.AltModifier, Qt.KeyboardModifier.ControlModifier)
RIGHT, LEFT = Qt.MouseButton.RightButton, Qt.MouseButton.LeftButton
MORPHY = "pgn/chesslib__Morphy_UTF8.pgn"  # a BOM and CRLF lines: the other games must keep both
GO_GAME = "sgf/sabaki__beginner_game.sgf"  # 19x19, nine handicap stones
GAMES_KEPT = 3


@pytest.fixture
def window(qtbot):
    main = shown_window(qtbot)
    yield main
    main.close()


def first_games(source: Path, count: int) -> list[bytes]:
    """The file's first `count` games as its own bytes, each up to the next game's tags."""
    data = source.read_bytes()
    starts = [0] + [i for i in range(1, len(data)) if data.startswith(b"\n[Event ", i - 1)]  # the BOM: the first game's
    return [data[start:end] for start, end in zip(starts[:count], starts[1:count + 1], strict=True)]


def open_at(qtbot, window: MainWindow, path: Path, index: int, ply: int) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(path, index)
    qtbot.waitUntil(lambda: not window.notes_keeper.restoring, timeout=WAIT_MS)
    window.activateWindow()  # the keys are the window's shortcuts
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    for _ in range(ply):
        QTest.keyClick(window.board, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: window.session.model.current_ply == ply, timeout=WAIT_MS)


def type_words(qtbot, editor: CommentEditor, text: str) -> None:
    editor.pause_timer.setInterval(600_000)  # one burst, however slow the machine types
    QTest.mouseClick(editor.viewport(), LEFT, NONE, QPoint(20, 10))
    qtbot.waitUntil(editor.hasFocus, timeout=WAIT_MS)
    QTest.keyClicks(editor, text)
    QTest.keyClick(editor, Qt.Key.Key_Return, CTRL)  # the burst goes to the game


def square_at(board, square: int) -> QPoint:
    return board.square_center(square).toPoint()


def right_drag(board, start: int, end: int, modifiers=NONE) -> None:
    QTest.mousePress(board, RIGHT, modifiers, square_at(board, start))
    QTest.mouseMove(board, square_at(board, end))
    QTest.mouseRelease(board, RIGHT, modifiers, square_at(board, end))


def chess_arrow(start: int, end: int, colour: str = "G") -> Shape:
    return Shape("arrow", (chess.square_rank(start), chess.square_file(start)),
                 (chess.square_rank(end), chess.square_file(end)), colour)


def undo(window: MainWindow) -> None:
    QTest.keyClick(window.board, Qt.Key.Key_Z, CTRL)


def redo(window: MainWindow) -> None:
    QTest.keyClick(window.board, Qt.Key.Key_Z, CTRL | SHIFT)


def save(qtbot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.saving.saved, timeout=WAIT_MS):
        QTest.keyClick(window.board, Qt.Key.Key_S, CTRL)


# ------------------------------------------------------------------------------------- the journeys


def test_chess_a_nag_words_and_an_arrow_undone_redone_saved_and_read_back(qtbot, window, corpus_dir, tmp_path):
    games = first_games(corpus_dir / MORPHY, GAMES_KEPT)
    path = tmp_path / "morphy.pgn"
    path.write_bytes(b"".join(games))
    open_at(qtbot, window, path, 1, 5)  # 1.e4 e5 2.f4 exf4 3.Bc4
    model, board, editor = window.session.model, window.board, window.comment_editor
    node = model.mainline_node(5)
    assert node.move == "Bc4" and node.nags == [] and node.comment == "" and node.shapes == []
    shown = window.move_list.shown_text

    QTest.keyClick(board, Qt.Key.Key_Question)
    type_words(qtbot, editor, "Morphy gives the king a walk.")
    right_drag(board, chess.D8, chess.H4)  # the queen's check to come
    words, arrow = "Morphy gives the king a walk.", chess_arrow(chess.D8, chess.H4)
    assert node.nags == [2] and node.comment == words and node.shapes == [arrow]
    assert shown(node) == f"Bc4? {WORDS_MARK}" and board.shapes() == (arrow,) and window.windowTitle().startswith("*")

    steps = [  # after each undo: glyphs shown, the editor's words, the board's marks
        ([2], words, [], f"Bc4? {WORDS_MARK}", words, ()),
        ([2], "", [], "Bc4?", "", ()),
        ([], "", [], "Bc4", "", ()),
    ]
    for nags, comment, shapes, listed, typed, drawn in steps:
        undo(window)
        assert (node.nags, node.comment, node.shapes) == (nags, comment, shapes)
        assert (shown(node), editor.toPlainText(), board.shapes()) == (listed, typed, drawn)
    assert not window.commands.undo_action.isEnabled()
    assert not window.windowTitle().startswith("*")  # every edit undone: the game is the file's again

    for nags, comment, shapes, listed in (([2], "", [], "Bc4?"), ([2], words, [], f"Bc4? {WORDS_MARK}"),
                                          ([2], words, [arrow], f"Bc4? {WORDS_MARK}")):
        redo(window)
        assert (node.nags, node.comment, node.shapes, shown(node)) == (nags, comment, shapes, listed)
    assert editor.toPlainText() == words and board.shapes() == (arrow,) and not window.commands.redo_action.isEnabled()

    save(qtbot, window)
    assert not window.windowTitle().startswith("*") and model.unsaved_edits == 0
    data = path.read_bytes()
    assert data.startswith(games[0]) and data.endswith(games[2])  # byte for byte: BOM, CRLF and all
    assert backup_path(path).read_bytes() == b"".join(games)
    assert b"\n" not in data.replace(b"\r\n", b"")  # the game written has the file's CRLF lines too

    stream = io.StringIO(data.decode("utf-8-sig"))
    chess.pgn.read_game(stream)
    read_node = chess.pgn.read_game(stream)  # the second game, as python-chess reads it
    assert read_node is not None and read_node.headers["ECO"] == "C33"
    for _ in range(5):
        read_node = read_node.next()
    assert read_node.san() == "Bc4" and read_node.nags == {2} and read_node.comment.endswith(words)
    assert [(a.tail, a.head, a.color) for a in read_node.arrows()] == [(chess.D8, chess.H4, "green")]

    again = shown_window(qtbot)
    try:
        open_at(qtbot, again, path, 1, 5)
        back = again.session.model.mainline_node(5)
        assert back.nags == [2] and back.comment == words and back.shapes == [arrow]
        assert again.move_list.shown_text(back) == f"Bc4? {WORDS_MARK}"
        assert again.comment_editor.toPlainText() == words and again.board.shapes() == (arrow,)
    finally:
        again.close()


def go_point(board, point: tuple[int, int]) -> QPoint:
    return board.point_center(point).toPoint()


def test_go_a_triangle_a_nag_and_words_undone_redone_saved_and_read_back(qtbot, window, corpus_dir, tmp_path):
    path = tmp_path / "beginner.sgf"
    shutil.copyfile(corpus_dir / GO_GAME, path)
    original = path.read_bytes()
    open_at(qtbot, window, path, 0, 2)  # W[nc] B[pf]
    model, board, editor = window.session.model, window.board, window.comment_editor
    node = model.mainline_node(2)
    stone = (13, 15)  # P14, SGF pf: the stone just played (rows from the bottom)
    triangle, words = Shape("triangle", stone), "Too close to the wall."
    shown = window.move_list.shown_text
    assert node.shapes == [] and node.nags == [] and node.comment == ""

    QTest.keyClick(window, Qt.Key.Key_T)
    with qtbot.assertNotEmitted(board.move_played):
        QTest.mouseClick(board, LEFT, NONE, go_point(board, stone))
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert board.tool() == "" and node.shapes == [triangle]
    QTest.keyClick(board, Qt.Key.Key_Question)
    type_words(qtbot, editor, words)
    assert node.nags == [2] and node.comment == words and shown(node).endswith(f"? {WORDS_MARK}")
    assert board.shapes() == (triangle,) and window.windowTitle().startswith("*")

    for nags, comment, shapes in (([2], "", [triangle]), ([], "", [triangle]), ([], "", [])):
        undo(window)
        assert (node.nags, node.comment, node.shapes) == (nags, comment, shapes)
        assert editor.toPlainText() == comment and board.shapes() == tuple(shapes)
        assert ("?" in shown(node)) == bool(nags) and (WORDS_MARK in shown(node)) == bool(comment)
    for _ in range(3):
        redo(window)
    assert (node.nags, node.comment, node.shapes) == ([2], words, [triangle]) and board.shapes() == (triangle,)
    assert editor.toPlainText() == words and shown(node).endswith(f"? {WORDS_MARK}")

    save(qtbot, window)
    assert backup_path(path).read_bytes() == original and not window.windowTitle().startswith("*")
    nodes = sgf.Sgf_game.from_bytes(path.read_bytes()).get_main_sequence()
    assert nodes[2].get_move() == ("b", (13, 15))  # sgfmill: (row from the bottom, column)
    assert nodes[2].get("TR") == {(13, 15)} and nodes[2].get("BM") == 1 and nodes[2].get("C") == words
    assert len(nodes) == len(sgf.Sgf_game.from_bytes(original).get_main_sequence())

    again = shown_window(qtbot)
    try:
        open_at(qtbot, again, path, 0, 2)
        back = again.session.model.mainline_node(2)
        assert back.shapes == [triangle] and back.nags == [2] and back.comment == words
        assert again.board.shapes() == (triangle,) and again.comment_editor.toPlainText() == words
    finally:
        again.close()


# ----------------------------------------------------------------------------------------- the keys


def enabled_keys(window: MainWindow) -> dict[str, list[str]]:
    """Each key sequence of the window's enabled actions, with the actions it triggers."""
    keys: dict[str, list[str]] = {}
    for action in window.findChildren(QAction):
        if not action.isEnabled():
            continue
        for sequence in action.shortcuts():
            keys.setdefault(sequence.toString(QKeySequence.SequenceFormat.PortableText), []).append(action.text())
    return keys


def clashes(window: MainWindow) -> dict[str, list[str]]:
    return {key: texts for key, texts in enabled_keys(window).items() if len(texts) > 1}


def test_no_two_enabled_actions_share_a_key_in_a_chess_or_a_go_game(qtbot, window, corpus_dir, tmp_path):
    chess_path = tmp_path / "morphy.pgn"
    chess_path.write_bytes(b"".join(first_games(corpus_dir / MORPHY, 1)))
    go_path = tmp_path / "beginner.sgf"
    shutil.copyfile(corpus_dir / GO_GAME, go_path)

    open_at(qtbot, window, chess_path, 0, 5)
    window.markup_menu.refresh()
    keys = enabled_keys(window)
    assert {"?", "Ctrl+2", "F", "N", "P", "Space", "Right", "Home", "Ctrl+S"} <= set(keys)
    assert not {"T", "S", "C", "M", "A", "1", "Shift+A", "Shift+L"} & set(keys)  # no markup on a chess board
    assert clashes(window) == {}

    open_at(qtbot, window, go_path, 0, 5)
    window.markup_menu.refresh()
    keys = enabled_keys(window)
    assert {"T", "S", "C", "M", "A", "1", "Shift+A", "Shift+L", "?", "Ctrl+2", "N", "Space", "L"} <= set(keys)
    assert clashes(window) == {}
    QTest.keyClick(window, Qt.Key.Key_T)  # a tool chosen: Esc (back to playing) comes on too
    assert "Esc" in enabled_keys(window) and clashes(window) == {}
    QTest.keyClick(window, Qt.Key.Key_Escape)


def test_the_menu_bar_s_alt_letters_are_all_different(qtbot, window):
    letters = [title.lower()[title.index("&") + 1] for title in (a.text() for a in window.menuBar().actions())]
    assert len(letters) == len(set(letters)), letters  # two menus on one Alt+letter open neither at once


MARKUP_KEYS = "TSCMA1"


def test_the_markup_keys_and_every_one_key_shortcut_are_text_in_the_move_box_and_the_comment_editor(
        qtbot, window, corpus_dir, tmp_path):
    path = tmp_path / "beginner.sgf"
    shutil.copyfile(corpus_dir / GO_GAME, path)
    open_at(qtbot, window, path, 0, 2)
    node = window.session.model.mainline_node(2)
    one_key = [key for key in enabled_keys(window) if len(key) == 1 or key in ("Space", "Shift+A", "Shift+L", "Shift+P")]
    assert set(MARKUP_KEYS) | {"F", "N", "P", "L", "X", "O", "!", "?", "Space"} <= set(one_key)
    fired: list[str] = []
    for action in window.findChildren(QAction):
        action.triggered.connect(lambda _checked=False, action=action: fired.append(action.text()))
    typed = "tscma1 TSCMA1 fnplxo FNPLXO !? "

    QTest.mouseClick(window.move_entry, LEFT)
    qtbot.waitUntil(window.move_entry.hasFocus, timeout=WAIT_MS)
    QTest.keyClicks(window.move_entry, typed)
    QTest.keyClick(window.move_entry, "L", SHIFT)  # Shift+L, the line tool's key, as typed
    assert window.move_entry.text() == typed + "L" and fired == []
    assert window.board.tool() == "" and window.markup_menu.play_action.isChecked()
    window.move_entry.clear()

    editor = window.comment_editor
    editor.pause_timer.setInterval(600_000)
    QTest.mouseClick(editor.viewport(), LEFT, NONE, QPoint(20, 10))
    qtbot.waitUntil(editor.hasFocus, timeout=WAIT_MS)
    QTest.keyClicks(editor, typed)
    QTest.keyClick(editor, "A", SHIFT)
    assert editor.toPlainText() == typed + "A" and fired == []
    assert window.board.tool() == "" and node.nags == [] and node.shapes == []
    assert not window.commands.flip_action.isChecked()


def test_ctrl_del_and_esc_are_the_text_boxes_own_and_ctrl_del_on_the_board_deletes_from_here(qtbot, window, corpus_dir, tmp_path):
    path = tmp_path / "beginner.sgf"
    shutil.copyfile(corpus_dir / GO_GAME, path)
    open_at(qtbot, window, path, 0, 4)
    model = window.session.model
    plies = model.ply_count
    QTest.keyClick(window, Qt.Key.Key_T)
    editor = window.comment_editor
    editor.pause_timer.setInterval(600_000)
    for box, click_at, text in ((window.move_entry, window.move_entry, window.move_entry.text),
                                (editor, editor.viewport(), editor.toPlainText)):
        QTest.mouseClick(click_at, LEFT, NONE, QPoint(20, 10))
        qtbot.waitUntil(box.hasFocus, timeout=WAIT_MS)
        QTest.keyClicks(box, "ab cd")
        QTest.keyClick(box, Qt.Key.Key_Home)
        QTest.keyClick(box, Qt.Key.Key_Delete, CTRL)  # the word goes, not the moves from here on
        assert text().strip() == "cd" and model.ply_count == plies and model.current_ply == 4
        QTest.keyClick(box, Qt.Key.Key_Escape)  # the box is left; the markup tool stays chosen
        qtbot.waitUntil(lambda box=box: not box.hasFocus(), timeout=WAIT_MS)
        assert window.board.tool() == "triangle"
    assert model.mainline_node(4).comment.strip() == "cd"  # the editor's words, kept on leaving it
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert window.board.tool() == ""

    QTest.keyClick(window.board, Qt.Key.Key_Delete, CTRL)  # on the board: Delete from here
    assert model.ply_count == 3 and model.current_ply == 3
    assert window.move_list.item_rect(model.mainline_node(3)) is not None


# ----------------------------------------------------------------------------- the walk, in pictures


def popped(qtbot, window: MainWindow, menu) -> None:
    menu.popup(window.mapToGlobal(QPoint(120, 40)))
    qtbot.waitUntil(menu.isVisible, timeout=WAIT_MS)


@pytest.mark.qt_log_ignore("This plugin does not support")  # the offscreen platform, showing a menu
def test_a_players_walk_through_the_notes_screenshots(qtbot, window, corpus_dir, tmp_path):
    path = tmp_path / "morphy.pgn"
    path.write_bytes(b"".join(first_games(corpus_dir / MORPHY, GAMES_KEPT)))
    open_at(qtbot, window, path, 1, 5)
    board = window.board
    QTest.keyClick(board, Qt.Key.Key_Question)
    type_words(qtbot, window.comment_editor, "Morphy gives the king a walk: 3...Qh4+ 4.Kf1 and White's pieces come out fast.")
    for (start, end), modifiers in zip(((chess.D8, chess.H4), (chess.G1, chess.F3), (chess.B1, chess.C3), (chess.D2, chess.D4)),
                                       (NONE, SHIFT, ALT, CTRL), strict=True):
        right_drag(board, start, end, modifiers)
    QTest.mouseClick(board, RIGHT, SHIFT, square_at(board, chess.F7))
    node = window.session.model.mainline_node(5)
    assert {shape.colour for shape in node.shapes} == set("GRBY") and len(node.shapes) == 5
    assert window.windowTitle().startswith("* ")  # the title bar is not drawn offscreen: said here
    shoot(qtbot, window, "journey-chess-window")
    shoot(qtbot, window, "journey-comment-editor", shown=window.review_panel)
    shoot(qtbot, window, "journey-chess-arrows", shown=board)
    popped(qtbot, window, window.annotate.menu)
    assert window.annotate.nag_actions[2].isChecked()
    shoot(qtbot, window, "journey-annotate-menu", shown=window.annotate.menu)
    window.annotate.menu.hide()
    question = window.saving.unsaved_question(str(path))
    question.show()
    qtbot.waitExposed(question)
    assert "morphy.pgn" in question.text()
    shoot(qtbot, window, "journey-save-question", shown=question)
    question.done(0)

    go = tmp_path / "beginner.sgf"
    shutil.copyfile(corpus_dir / GO_GAME, go)
    window.saving.ask_unsaved = lambda _path: "discard"
    open_at(qtbot, window, go, 0, 2)
    go_board = window.board
    for key, point in ((Qt.Key.Key_T, (13, 15)), (Qt.Key.Key_S, (15, 13)), (Qt.Key.Key_C, (15, 3)), (Qt.Key.Key_M, (3, 3)),
                       (Qt.Key.Key_A, (12, 12)), (None, (13, 13)), (Qt.Key.Key_1, (11, 15))):
        if key is not None:  # the same key again would go back to playing
            QTest.keyClick(window, key)
        QTest.mouseClick(go_board, LEFT, NONE, go_point(go_board, point))
    QTest.keyClick(window, Qt.Key.Key_T)
    assert len(window.session.model.mainline_node(2).shapes) == 7 and go_board.tool() == "triangle"
    shoot(qtbot, window, "journey-go-window", follows=go_board)
    menu = window.markup_menu.menu
    popped(qtbot, window, menu)
    shoot(qtbot, window, "journey-markup-menu", shown=menu, follows=go_board)
    menu.hide()
