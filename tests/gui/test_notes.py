"""The player's notes in the window, with real keys and clicks: NAGs from the keys and the Annotate
menu, words in the comment editor, Undo and Redo of both, the move list's glyphs and ✎, File ▸ Save
into the game's own file (other games byte for byte, a backup), a file changed on disk, a read-only
file, the question on closing, and the notes kept in Reviewer's data without a save."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from screenshots import shoot
from sgfmill import sgf
from window_support import open_game, shown_window

from reviewer.core.formats import open_collection
from reviewer.core.formats.save import backup_path
from reviewer.gui.presenters.notes import WORDS_MARK
from reviewer.gui.review.comment_editor import CommentEditor
from reviewer.gui.window.main_window import MainWindow

WAIT_MS = 30_000
GAME_1 = '[Event "One"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. d4 d5 2. c4 {a gambit} 1-0\n'
GAME_2 = ('[Event "Two"]\n[White "Carlsen"]\n[Black "Caruana"]\n[Result "*"]\n\n'
          '1. e4 e5 2. Nf3 {[%clk 0:04:50]} Nc6 3. Bb5 a6 *\n')
GAME_3 = '[Event "Three"]\n[White "C"]\n[Black "D"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
SGF = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]PB[Black]PW[White];B[ee];W[cc];B[gg];W[cg])"


@pytest.fixture
def window(qtbot):
    main = shown_window(qtbot)
    yield main
    main.close()


@pytest.fixture
def three_games(tmp_path) -> Path:
    path = tmp_path / "three.pgn"
    path.write_bytes(f"{GAME_1}\n{GAME_2}\n{GAME_3}".encode())
    return path


def open_at(qtbot, window: MainWindow, path: Path, index: int, ply: int) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(path, index)
    qtbot.waitUntil(lambda: not window.notes_keeper.restoring, timeout=WAIT_MS)
    window.go_to_ply(ply)
    window.board.setFocus()
    qtbot.waitUntil(window.board.hasFocus, timeout=WAIT_MS)


def type_in_editor(qtbot, editor: CommentEditor, text: str) -> None:
    editor.pause_timer.setInterval(600_000)  # one burst, however slow the machine types
    QTest.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(20, 10))
    qtbot.waitUntil(editor.hasFocus, timeout=WAIT_MS)
    QTest.keyClicks(editor, text)


def ctrl(widget, key: Qt.Key, shift: bool = False) -> None:
    modifiers = Qt.KeyboardModifier.ControlModifier | (Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier)
    QTest.keyClick(widget, key, modifiers)


def save(qtbot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.saving.saved, timeout=WAIT_MS):
        ctrl(window.board, Qt.Key.Key_S)


def test_a_nag_and_words_are_undone_redone_saved_into_the_file_and_read_back(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 3)
    model, node = window.session.model, window.session.model.mainline_node(3)
    assert node.move == "Nf3" and not window.commands.undo_action.isEnabled()
    assert not window.windowTitle().startswith("*")

    QTest.keyClick(window.board, Qt.Key.Key_Question)
    assert node.nags == [2]
    assert window.move_list.shown_text(node) == "Nf3?"
    assert window.annotate.nag_actions[2].isChecked() and not window.annotate.nag_actions[1].isChecked()
    assert window.windowTitle().startswith("*")

    type_in_editor(qtbot, window.comment_editor, "why not d4?")  # the ? is text here, not a glyph
    assert node.nags == [2] and "why not" not in node.comment
    ctrl(window.comment_editor, Qt.Key.Key_Return)  # the burst goes to the game
    assert node.comment == "[%clk 0:04:50] why not d4?"
    assert window.move_list.shown_text(node) == f"Nf3? {WORDS_MARK}"
    assert window.commands.undo_action.isEnabled() and not window.commands.redo_action.isEnabled()

    ctrl(window.comment_editor, Qt.Key.Key_Z)  # in the editor too, the window's undo: the words go
    assert node.comment == "[%clk 0:04:50]" and node.nags == [2]
    assert window.comment_editor.toPlainText() == ""
    ctrl(window.board, Qt.Key.Key_Z)  # then the glyph
    assert node.nags == [] and not window.annotate.nag_actions[2].isChecked()
    assert window.move_list.shown_text(node) == "Nf3" and window.commands.redo_action.isEnabled()
    ctrl(window.board, Qt.Key.Key_Z, shift=True)
    assert node.nags == [2] and "why" not in node.comment
    QTest.keyClick(window.board, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Y redoes too
    assert node.comment == "[%clk 0:04:50] why not d4?" and window.comment_editor.toPlainText() == "why not d4?"
    assert not window.commands.redo_action.isEnabled()

    save(qtbot, window)
    assert not window.windowTitle().startswith("*") and model.unsaved_edits == 0
    data = three_games.read_bytes()
    assert data.startswith(f"{GAME_1}\n".encode()) and data.endswith(f"\n{GAME_3}".encode())  # byte for byte
    assert backup_path(three_games).read_bytes() == f"{GAME_1}\n{GAME_2}\n{GAME_3}".encode()
    written = open_collection(three_games).game(1)
    assert written.node_at_ply(3).nags == [2] and written.node_at_ply(3).comment == "[%clk 0:04:50] why not d4?"

    again = shown_window(qtbot)
    try:
        open_at(qtbot, again, three_games, 1, 3)
        shown = again.session.model.mainline_node(3)
        assert again.move_list.shown_text(shown) == f"Nf3? {WORDS_MARK}"
        assert again.comment_editor.toPlainText() == "why not d4?"
        assert again.annotate.nag_actions[2].isChecked()
    finally:
        again.close()


def test_two_keys_in_a_row_make_the_two_sign_glyph_and_the_menu_shows_it(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 5)
    node = window.session.model.mainline_node(5)
    QTest.keyClick(window.board, Qt.Key.Key_Exclam, Qt.KeyboardModifier.ShiftModifier)  # as typed: Shift+1
    QTest.keyClick(window.board, Qt.Key.Key_Question, Qt.KeyboardModifier.ShiftModifier)
    assert node.nags == [5] and window.move_list.shown_text(node) == "Bb5!?"
    assert window.annotate.nag_actions[5].isChecked()
    window.go_to_ply(4)
    window.go_to_ply(5)
    QTest.keyClick(window.board, Qt.Key.Key_Question)  # not straight after: a glyph of its own
    assert node.nags == [2]
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    assert node.nags == [4]  # ??
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    assert node.nags == []  # a third takes it away
    ctrl(window.board, Qt.Key.Key_6)  # Ctrl+6: $6 ?!
    assert node.nags == [6] and window.move_list.shown_text(node) == "Bb5?!"
    window.annotate.nag_actions[16].trigger()  # ± from the menu: beside the move's glyph
    assert node.nags == [6, 16] and window.move_list.shown_text(node) == "Bb5?! ±"
    window.annotate.nag_actions[16].trigger()
    assert node.nags == [6]


def test_the_keys_are_text_in_the_move_box(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 3)
    node = window.session.model.mainline_node(3)
    QTest.mouseClick(window.move_entry, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(window.move_entry.hasFocus, timeout=WAIT_MS)
    QTest.keyClicks(window.move_entry, "!?")
    assert node.nags == [] and window.move_entry.text().endswith("!?")


def test_words_go_to_the_game_after_a_pause_or_on_leaving_the_editor(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 4)
    editor, node = window.comment_editor, window.session.model.mainline_node(4)
    type_in_editor(qtbot, editor, "the main line")
    editor.pause_timer.setInterval(10)
    QTest.keyClicks(editor, ".")
    qtbot.waitUntil(lambda: node.comment == "the main line.", timeout=WAIT_MS)
    editor.pause_timer.setInterval(600_000)
    QTest.keyClicks(editor, " Solid")
    QTest.mouseClick(window.move_list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     window.move_list.item_rect(window.session.model.mainline_node(2)).center())
    assert node.comment == "the main line. Solid"  # kept on leaving, before the next move is on show
    assert window.session.model.current_ply == 2 and editor.toPlainText() == ""
    window.go_to_ply(4)
    assert editor.toPlainText() == "the main line. Solid"


def test_the_words_are_hidden_while_the_player_looks_for_a_better_move(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 0, 3)  # 2. c4 {a gambit}: a file's words may name the answer
    editor = window.comment_editor
    assert editor.toPlainText() == "a gambit" and editor.isEnabled()
    window.session.model.hide_engine_from(3)
    assert editor.toPlainText() == "" and not editor.isEnabled()
    window.session.model.hide_engine_from(None)
    assert editor.toPlainText() == "a gambit" and editor.isEnabled()
    assert window.session.model.mainline_node(3).comment == "a gambit"  # hiding changed nothing


def test_notes_come_back_from_reviewers_data_without_a_save(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 3)
    QTest.keyClick(window.board, Qt.Key.Key_Exclam)
    type_in_editor(qtbot, window.comment_editor, "kept by Reviewer")
    window.board.setFocus()  # the editor lets go: the words go to the game
    qtbot.waitUntil(lambda: "kept" in window.session.model.mainline_node(3).comment, timeout=WAIT_MS)
    window.close()  # the question (Discard in tests) leaves the file alone
    assert three_games.read_bytes() == f"{GAME_1}\n{GAME_2}\n{GAME_3}".encode()

    again = shown_window(qtbot)
    try:
        open_at(qtbot, again, three_games, 1, 3)
        node = again.session.model.mainline_node(3)
        assert node.nags == [1] and again.comment_editor.toPlainText() == "kept by Reviewer"
        assert not again.windowTitle().startswith("*") and not again.commands.undo_action.isEnabled()
    finally:
        again.close()


def test_a_file_changed_on_disk_asks_and_cancel_overwrites_nothing(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 3)
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    changed = f"{GAME_1}\n{GAME_2}\n{GAME_3}\n{GAME_1}".encode()  # another program added a game
    three_games.write_bytes(changed)
    asked: list[str] = []
    window.saving.ask_changed_on_disk = lambda name: asked.append(name) or "cancel"
    ctrl(window.board, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: bool(asked), timeout=WAIT_MS)
    assert asked == ["three.pgn"] and three_games.read_bytes() == changed
    assert window.windowTitle().startswith("*") and not backup_path(three_games).exists()

    window.saving.ask_changed_on_disk = lambda name: "overwrite"
    save(qtbot, window)
    assert backup_path(three_games).read_bytes() == changed  # the version found is the backup
    games = open_collection(three_games)
    assert len(games) == 4 and games.game(1).node_at_ply(3).nags == [2]


def test_a_read_only_file_says_so_and_keeps_the_notes_unsaved(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 3)
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    os.chmod(three_games, stat.S_IRUSR | stat.S_IRGRP)
    try:
        with qtbot.waitSignal(window.saving.save_failed, timeout=WAIT_MS) as failure:
            ctrl(window.board, Qt.Key.Key_S)
    finally:
        os.chmod(three_games, stat.S_IRUSR | stat.S_IWUSR)
    assert "read-only" in failure.args[0]
    assert any("read-only" in message.text for message in window.message_bar.messages())
    assert window.windowTitle().startswith("*") and window.session.model.mainline_node(3).nags == [2]
    assert three_games.read_bytes() == f"{GAME_1}\n{GAME_2}\n{GAME_3}".encode()
    save(qtbot, window)  # writable again: the same notes go in, the message goes
    assert not any("read-only" in message.text for message in window.message_bar.messages())


def test_closing_with_unsaved_notes_asks_and_save_closes_once_written(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 3)
    QTest.keyClick(window.board, Qt.Key.Key_Exclam)
    answers = ["cancel", "save"]
    window.saving.ask_unsaved = lambda path: answers.pop(0)
    assert not window.close() and window.isVisible()  # Cancel: the window stays, the notes too
    window.close()  # Save: written, then closed
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=WAIT_MS)
    assert open_collection(three_games).game(1).node_at_ply(3).nags == [1]


def test_opening_another_file_with_unsaved_notes_asks_first(qtbot, window, three_games, tmp_path):
    open_at(qtbot, window, three_games, 1, 3)
    type_in_editor(qtbot, window.comment_editor, "still being typed")  # not yet handed to the game
    other = tmp_path / "other.sgf"
    other.write_text(SGF)
    asked: list[str] = []
    window.saving.ask_unsaved = lambda path: asked.append(path) or "cancel"
    window.open_file(other)
    assert asked == [str(three_games)] and window.session.model.game.kind == "chess"
    assert window.session.model.mainline_node(3).comment == "[%clk 0:04:50] still being typed"
    window.saving.ask_unsaved = lambda path: "discard"
    open_game(qtbot, window, other)
    assert window.session.model.game.kind == "go"


@pytest.mark.qt_log_ignore("This plugin does not support")  # the offscreen platform, showing a menu
def test_go_a_glyph_as_te_and_words_saved_into_the_sgf(qtbot, window, tmp_path):
    path = tmp_path / "game.sgf"
    path.write_text(SGF)
    open_at(qtbot, window, path, 0, 2)
    node = window.session.model.mainline_node(2)
    QTest.keyClick(window.board, Qt.Key.Key_Exclam)
    QTest.keyClick(window.board, Qt.Key.Key_Exclam)  # !! : TE[2]
    assert node.nags == [3] and window.annotate.nag_actions[3].isChecked()
    assert not window.annotate.nag_actions[7].isEnabled()  # an SGF has no place for "only move"
    window.go_to_ply(3)
    ctrl(window.board, Qt.Key.Key_2)  # ? : BM[1]
    type_in_editor(qtbot, window.comment_editor, "too slow")
    ctrl(window.comment_editor, Qt.Key.Key_Return)
    assert window.move_list.shown_text(window.session.model.mainline_node(3)).endswith(f"? {WORDS_MARK}")
    save(qtbot, window)
    text = path.read_text()
    assert backup_path(path).read_text() == SGF
    read = sgf.Sgf_game.from_bytes(text.encode())
    nodes = read.get_main_sequence()
    assert nodes[2].get("TE") == 2 and nodes[3].get("BM") == 1 and nodes[3].get("C") == "too slow"
    assert not window.annotate.nag_actions[7].isEnabled() and "Hotspot" in window.annotate.nag_actions[146].text()
    shoot(qtbot, window, "notes-go-window")
    menu = window.annotate.menu
    menu.popup(window.mapToGlobal(QPoint(120, 40)))
    qtbot.waitUntil(menu.isVisible, timeout=WAIT_MS)
    shoot(qtbot, window, "notes-go-annotate-menu", shown=menu)
    menu.hide()


def test_a_change_after_a_save_is_kept_by_reviewer_until_the_next_save(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 3)
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    save(qtbot, window)
    window.go_to_ply(4)
    window.go_to_ply(3)
    QTest.keyClick(window.board, Qt.Key.Key_Exclam)  # ! in place of the ? the file now holds
    assert window.windowTitle().startswith("*")
    window.close()  # Discard: the file keeps the ?
    assert open_collection(three_games).game(1).node_at_ply(3).nags == [2]
    again = shown_window(qtbot)
    try:
        open_at(qtbot, again, three_games, 1, 3)
        assert again.session.model.mainline_node(3).nags == [1]  # Reviewer's data: the change made since
    finally:
        again.close()


def test_a_file_reviewer_does_not_write_is_saved_as_an_sgf_beside_it(qtbot, window, corpus_dir, tmp_path):
    import shutil

    gib = tmp_path / "game.gib"
    shutil.copyfile(corpus_dir / "sgf" / "sabaki__utf8.gib", gib)
    original = gib.read_bytes()
    open_at(qtbot, window, gib, 0, 3)
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    offered: list[Path] = []
    window.saving.choose_path = lambda suggested: offered.append(suggested) or suggested
    save(qtbot, window)
    assert offered == [tmp_path / "game.sgf"]
    assert gib.read_bytes() == original  # the GIB is left alone
    assert open_collection(tmp_path / "game.sgf").game(0).node_at_ply(3).nags == [2]  # BM[1]
    assert "game.sgf —" in window.windowTitle() and not window.windowTitle().startswith("*")
    QTest.keyClick(window.board, Qt.Key.Key_Exclam)
    save(qtbot, window)  # from now on the game is the SGF's: saved in place, no question
    assert offered == [tmp_path / "game.sgf"] and open_collection(tmp_path / "game.sgf").game(0).node_at_ply(3).nags == [1]


def test_a_game_from_no_file_keeps_its_title_and_saves_as_a_new_file(qtbot, window, three_games, tmp_path):
    from reviewer.core.formats.pgn import game_from_pgn_text

    open_at(qtbot, window, three_games, 1, 3)
    window.session.model.load_game(game_from_pgn_text(GAME_3))  # as the set-up dialog opens its position
    window.setWindowTitle("Set-up position (Chess) – Reviewer")
    window.go_to_ply(2)
    window.board.setFocus()
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    assert window.windowTitle() == "* Set-up position (Chess) – Reviewer"
    target = tmp_path / "new.pgn"
    window.saving.choose_path = lambda suggested: target
    save(qtbot, window)  # no file of its own: Save As
    assert open_collection(target).game(0).node_at_ply(2).nags == [2] and "new.pgn" in window.windowTitle()
    assert three_games.read_bytes() == f"{GAME_1}\n{GAME_2}\n{GAME_3}".encode()  # the file opened before is untouched


def test_the_shortcuts_list_says_save_export_undo_and_redo(qtbot, window):
    from reviewer.gui.dialogs.shortcuts import shortcut_rows

    rows = {meaning: keys for keys, meaning in shortcut_rows(window.actions())}
    assert rows["Save"] == "Ctrl+S" and rows["Save As"] == "Ctrl+Shift+S" and rows["Export"] == "Ctrl+Shift+E"
    assert rows["Undo"] == "Ctrl+Z" and rows["Redo"] == "Ctrl+Shift+Z  or  Ctrl+Y"
    assert rows["?  Mistake"] == "Ctrl+2"


@pytest.mark.qt_log_ignore("This plugin does not support")  # the offscreen platform, showing a menu
def test_screenshots_of_the_comment_editor_and_the_annotate_menu(qtbot, window, three_games):
    open_at(qtbot, window, three_games, 1, 5)
    QTest.keyClick(window.board, Qt.Key.Key_Exclam)
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    window.annotate.nag_actions[14].trigger()  # ⩲
    type_in_editor(qtbot, window.comment_editor, "The Spanish: pressure on e5 before castling.")
    ctrl(window.comment_editor, Qt.Key.Key_Return)
    window.go_to_ply(3)
    QTest.keyClick(window.board, Qt.Key.Key_Question)
    window.go_to_ply(5)
    assert window.comment_editor.toPlainText().startswith("The Spanish")
    shoot(qtbot, window, "notes-window")
    shoot(qtbot, window, "notes-comment-area", shown=window.review_panel)
    menu = window.annotate.menu
    menu.popup(window.mapToGlobal(QPoint(120, 40)))
    qtbot.waitUntil(menu.isVisible, timeout=WAIT_MS)
    assert window.annotate.nag_actions[5].isChecked() and window.annotate.nag_actions[14].isChecked()
    shoot(qtbot, window, "notes-annotate-menu", shown=menu)
    menu.hide()


def test_lines_added_after_save_as_are_kept_for_the_new_file_and_not_for_the_old_one(qtbot, window, three_games, tmp_path):
    copy = tmp_path / "copy.pgn"
    open_at(qtbot, window, three_games, 1, 3)
    assert window.play_line(["d6"])  # in the file opened: 2...d6 beside 2...Nc6
    window.saving.choose_path = lambda suggested: copy
    with qtbot.waitSignal(window.saving.saved, timeout=WAIT_MS):
        window.saving.save_as()
    window.go_to_ply(4)
    assert window.play_line(["Bc4"])  # in the copy from now on: 3.Bc4 beside 3.Bb5
    window.close()

    def replies(path: Path, ply: int) -> set[str]:
        again = shown_window(qtbot)
        try:
            open_at(qtbot, again, path, 1 if path == three_games else 0, 0)
            qtbot.waitUntil(lambda: not again.analysis_board.restoring_lines, timeout=WAIT_MS)
            return {child.move for child in again.session.model.mainline_node(ply).children}
        finally:
            again.close()

    assert replies(copy, 3) == {"Nc6", "d6"} and replies(copy, 4) == {"Bb5", "Bc4"}
    assert replies(three_games, 3) == {"Nc6", "d6"}  # the line played before Save As, kept for the old file
    assert replies(three_games, 4) == {"Bb5"}  # the one played in the copy is not the old file's
