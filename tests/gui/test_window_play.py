"""Playing on the board of the real window: variations, refusals, live lines, lines kept for the next opening."""

from __future__ import annotations

import shlex

import chess
import chess.pgn
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from support import fake_engine_command

from reviewer.core.games.chess import board_after
from reviewer.core.games.go import refusal
from reviewer.core.gametree import gtp_from_point
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

SHORT_GAME = ("pgn", "chesslib__promoting.pgn")
GO_GAME = ("sgf", "sabaki__endgame-9.sgf")
WAIT_MS = 120_000


def make_window(qtbot) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1300, 860)
    main.show()
    qtbot.waitExposed(main)
    command = shlex.join(fake_engine_command("fake_uci.py"))
    main.set_engine_choice(EngineChoice(kind="chess", command=command), remember=False)
    return main


@pytest.fixture
def window(qtbot):
    main = make_window(qtbot)
    yield main
    main.close()


def open_game(qtbot, window: MainWindow, path) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=20000):
        window.open_file(path)


def other_move(window: MainWindow) -> chess.Move:
    """A legal move at the current position that the game did not play."""
    game, node = window.session.model.game, window.session.model.current_node
    board = board_after(game, node)
    played = {child.uci for child in node.children}
    return next(move for move in board.legal_moves if move.uci() not in played and not move.promotion)


def click_move(window: MainWindow, move: chess.Move) -> None:
    board = window.board
    for square in (move.from_square, move.to_square):
        QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.square_center(square).toPoint())


def test_a_move_on_the_board_makes_a_variation_that_comes_back_next_time(qtbot, window, corpus_dir):
    path = corpus_dir.joinpath(*SHORT_GAME)
    open_game(qtbot, window, path)
    window.session.model.set_current_ply(6)
    move = other_move(window)
    with qtbot.waitSignal(window.session.tree_changed):
        click_move(window, move)
    node = window.session.model.current_node
    assert node.uci == move.uci() and not node.is_mainline and node.parent is window.session.model.mainline_node(6)
    assert window.move_list.current_node() is node
    assert window.board.board().fen() == board_after(window.session.model.game, node).fen()
    window.close()  # the lines are written before the window goes

    again = make_window(qtbot)
    try:
        open_game(qtbot, again, path)
        qtbot.waitUntil(lambda: len(again.session.model.mainline_node(6).children) == 2, timeout=WAIT_MS)
        assert again.session.model.mainline_node(6).children[1].uci == move.uci()
    finally:
        again.close()


def test_the_move_box_and_a_refused_move_in_the_message_bar(qtbot, window, corpus_dir):
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.session.model.set_current_ply(0)
    qtbot.keyClicks(window.move_entry, "Nh3")
    QTest.keyClick(window.move_entry, Qt.Key.Key_Return)
    assert window.session.model.current_node.move == "Nh3"
    qtbot.keyClicks(window.move_entry, "Ke2")
    QTest.keyClick(window.move_entry, Qt.Key.Key_Return)
    texts = [message.text for message in window.message_bar.messages()]
    assert any(text.startswith("Ke2 is not legal") for text in texts)
    assert window.session.model.current_node.move == "Nh3"


def test_go_refuses_an_occupied_point_with_a_visible_reason(qtbot, window, corpus_dir):
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    window.session.model.go_to_end()
    position = window.board.position()
    occupied = next(iter(position.black | position.white))
    QTest.mouseClick(
        window.board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, window.board.point_center(occupied).toPoint()
    )
    assert any("occupied" in message.text for message in window.message_bar.messages())


def test_the_engine_toggle_shows_live_lines_and_the_eval_bar(qtbot, window, corpus_dir):
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.session.model.set_current_ply(10)
    QTest.keyClick(window, Qt.Key.Key_L)
    assert window.commands.live_action.isChecked() and window.lines_panel.isVisible() and window.eval_bar.isVisible()
    qtbot.waitUntil(lambda: bool(window.lines_panel.rows()), timeout=WAIT_MS)
    assert window.analysis_board.latest_update().token is window.session.model.current_node
    assert window.eval_bar.white_pct() is not None
    QTest.keyClick(window, Qt.Key.Key_L)
    assert not window.lines_panel.isVisible() and not window.eval_bar.isVisible()


KO_SHAPE = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PL[B]AB[ce][dd][df]AW[ed][ef][fe][de])"


def click_point(window: MainWindow, gtp: str) -> None:
    from reviewer.core.gametree import point_from_gtp

    board = window.board
    point = point_from_gtp(gtp, 9)
    QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.point_center(point).toPoint())


def test_go_clicks_capture_and_the_ko_recapture_is_refused_with_its_reason(qtbot, window, tmp_path):
    from reviewer.core.gametree import point_from_gtp

    path = tmp_path / "ko.sgf"
    path.write_text(KO_SHAPE)
    open_game(qtbot, window, path)
    with qtbot.waitSignal(window.session.tree_changed):
        click_point(window, "E5")  # Black takes the white stone on D5
    assert window.session.model.current_node.move == "E5"
    assert point_from_gtp("D5", 9) not in window.board.position().white
    assert point_from_gtp("E5", 9) in window.board.position().black
    click_point(window, "D5")  # White's immediate recapture: the ko
    assert window.session.model.current_node.move == "E5"  # nothing played, nothing lost
    assert any("ko" in message.text.lower() for message in window.message_bar.messages())


def test_a_variation_made_by_drag_is_promoted_undone_deleted_and_exported(qtbot, window, corpus_dir, tmp_path):
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.session.model.set_current_ply(6)
    move = other_move(window)
    board = window.board
    start, end = board.square_center(move.from_square).toPoint(), board.square_center(move.to_square).toPoint()
    with qtbot.waitSignal(window.session.tree_changed):
        QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
        QTest.mouseMove(board, (start + end) / 2)
        QTest.mouseMove(board, end)
        QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    variation = window.session.model.current_node
    assert variation.uci == move.uci() and not variation.is_mainline
    game_move = window.session.model.mainline_node(7).uci

    make_main_line = next(action for action in window.commands.variation_actions if "main line" in action.text().lower())
    make_main_line.trigger()
    assert window.session.model.mainline_node(7).uci == move.uci()
    QTest.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo
    assert window.session.model.mainline_node(7).uci == game_move

    out = tmp_path / "with-variation.pgn"
    with qtbot.waitSignal(window.exports.finished, timeout=30_000):
        window.exports.export_annotated(out)
    with out.open() as handle:
        exported = chess.pgn.read_game(handle)
    node = exported
    for _ in range(6):
        node = node.variations[0]
    assert [v.move.uci() for v in node.variations] == [game_move, move.uci()]

    window.session.model.set_current_node(variation)
    QTest.keyClick(window, Qt.Key.Key_Delete, Qt.KeyboardModifier.ControlModifier)
    assert [child.uci for child in window.session.model.mainline_node(6).children] == [game_move]
    assert window.session.model.current_node is window.session.model.mainline_node(6)


def analyse(qtbot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.analysis_finished, timeout=WAIT_MS) as finished:
        window.start_analysis()
    assert finished.args == [True]
    window.session.model.settle_assessment()


def shown_labels(window: MainWindow) -> dict[int, str]:
    """Main-line ply -> the ?!/?/?? the move list draws after that move (flagged moves only)."""
    session = window.session
    return {ply: window.move_list.symbol_for(session.model.mainline_node(ply), ply) for ply in session.model.flagged_plies()}


def test_playing_a_move_keeps_every_label_of_the_move_list(qtbot, window, corpus_dir):
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    analyse(qtbot, window)
    labels = shown_labels(window)
    assert labels and all(labels.values()), "the fake engine flags some moves of this game"
    window.session.model.set_current_ply(6)
    with qtbot.waitSignal(window.session.tree_changed):
        click_move(window, other_move(window))  # a variation: the main line and its labels stay
    assert shown_labels(window) == labels
    qtbot.keyClicks(window.move_entry, other_move(window).uci())
    with qtbot.waitSignal(window.session.tree_changed):
        QTest.keyClick(window.move_entry, Qt.Key.Key_Return)
    assert shown_labels(window) == labels
    QTest.keyClick(window, Qt.Key.Key_Home)
    QTest.keyClick(window, Qt.Key.Key_End)
    with qtbot.waitSignal(window.session.tree_changed):  # a move after the end: the main line grows
        click_move(window, other_move(window))
    assert window.session.model.current_node.is_mainline
    assert shown_labels(window) == labels  # at once, while the longer game is scored again


def test_a_go_stone_keeps_every_label_of_the_move_list(qtbot, window, corpus_dir):
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    command = shlex.join(fake_engine_command("fake_katago.py"))
    window.set_engine_choice(EngineChoice(kind="go", command=command), remember=False)
    analyse(qtbot, window)
    labels = shown_labels(window)
    assert labels and all(labels.values())
    window.session.model.set_current_ply(4)
    position = window.board.position()
    point = next(
        (x, y) for y in range(9) for x in range(9)
        if refusal(position, (x, y), position.to_move) is None
        and all(child.move != gtp_from_point((x, y), 9) for child in window.session.model.current_node.children)
    )
    with qtbot.waitSignal(window.session.tree_changed):
        QTest.mouseClick(
            window.board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, window.board.point_center(point).toPoint()
        )
    assert not window.session.model.current_node.is_mainline
    assert shown_labels(window) == labels


def test_opening_the_exported_copy_keeps_the_variations_of_the_original(qtbot, window, corpus_dir, tmp_path):
    original = tmp_path / "g.pgn"
    original.write_bytes(corpus_dir.joinpath(*SHORT_GAME).read_bytes())
    open_game(qtbot, window, original)
    qtbot.waitUntil(lambda: not window.analysis_board.restoring_lines)
    window.session.model.set_current_ply(6)
    move = other_move(window)
    with qtbot.waitSignal(window.session.tree_changed):
        click_move(window, move)
    exported = tmp_path / "e.pgn"
    with qtbot.waitSignal(window.exports.finished, timeout=30_000):
        window.exports.export_annotated(exported)

    open_game(qtbot, window, exported)  # the copy carries the variation in the file
    qtbot.waitUntil(lambda: not window.analysis_board.restoring_lines)
    assert [child.uci for child in window.session.model.mainline_node(6).children][1:] == [move.uci()]
    open_game(qtbot, window, original)
    qtbot.waitUntil(lambda: len(window.session.model.mainline_node(6).children) == 2, timeout=WAIT_MS)
    assert window.session.model.mainline_node(6).children[1].uci == move.uci()


def test_a_click_on_a_move_of_an_engine_line_plays_up_to_it_and_one_undo_takes_it_back(qtbot, window, corpus_dir):
    command = shlex.join(fake_engine_command("fake_uci.py", "--pv-plies", "8"))
    window.set_engine_choice(EngineChoice(kind="chess", command=command), remember=False)
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.session.model.set_current_ply(10)
    start = window.session.model.current_node
    QTest.keyClick(window, Qt.Key.Key_L)
    qtbot.waitUntil(lambda: bool(window.lines_panel.rows()) and len(window.lines_panel.rows()[0].moves) == 8, timeout=WAIT_MS)
    line = window.lines_panel.rows()[0].moves
    label = window.lines_panel.line_label(0)
    third = label.move_rect(2).center()
    QTest.mouseMove(label, third)
    qtbot.waitUntil(lambda: bool(window.board._preview))  # the line's arrows, on the board
    QTest.mouseClick(label, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, third)
    played = window.session.model.current_node
    assert [node.move for node in played.path_from_root()[10:]] == list(line[:3])
    assert not window.board._preview  # the old position's arrows are gone
    QTest.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.session.model.current_node is start
    assert len(start.children) == 1  # the three moves went in one step


def test_the_evaluation_bar_comes_with_a_chess_game_opened_after_a_go_game(qtbot, window, corpus_dir):
    command = shlex.join(fake_engine_command("fake_katago.py"))
    window.set_engine_choice(EngineChoice(kind="go", command=command), remember=False)
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    QTest.keyClick(window, Qt.Key.Key_L)
    assert window.lines_panel.isVisible() and not window.eval_bar.isVisible()
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    assert window.commands.live_action.isChecked() and window.eval_bar.isVisible()
    qtbot.waitUntil(lambda: window.eval_bar.white_pct() is not None, timeout=WAIT_MS)
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    assert not window.eval_bar.isVisible()


def drag(board, start_square: int, end_square: int) -> None:
    start, end = board.square_center(start_square).toPoint(), board.square_center(end_square).toPoint()
    QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(board, (start + end) / 2)
    QTest.mouseMove(board, end)
    QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def message_texts(window: MainWindow) -> list[str]:
    return [message.text for message in window.message_bar.messages()]


def test_an_illegal_drag_says_why_and_a_small_letter_move_is_read(qtbot, window, corpus_dir):
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.session.model.set_current_ply(0)
    drag(window.board, chess.D1, chess.D3)
    assert "Qd1–d3 is not legal: the way from d1 to d3 is blocked" in message_texts(window)
    drag(window.board, chess.E7, chess.E5)
    assert "e7–e5 is not legal: it is White's move" in message_texts(window)
    assert window.session.model.current_ply == 0 and window.move_entry.refusal() == ""  # the box was not used
    qtbot.keyClicks(window.move_entry, "nh3")
    QTest.keyClick(window.move_entry, Qt.Key.Key_Return)
    assert window.session.model.current_node.move == "Nh3"


def test_a_refused_move_leaves_no_red_frame_behind(qtbot, window, tmp_path, corpus_dir):
    path = tmp_path / "ko.sgf"
    path.write_text(KO_SHAPE)
    open_game(qtbot, window, path)
    click_point(window, "E5")
    click_point(window, "D5")  # the ko: refused
    assert any("ko" in text.lower() for text in message_texts(window))
    assert window.move_entry.refusal() == "" and window.move_entry.styleSheet() == ""  # a board click, not the box
    qtbot.keyClicks(window.move_entry, "D5")
    QTest.keyClick(window.move_entry, Qt.Key.Key_Return)
    assert "ko" in window.move_entry.refusal().lower()  # the box's own refusal is marked
    with qtbot.waitSignal(window.session.tree_changed):
        click_point(window, "A1")  # a legal move: the refusal was about the position before
    assert window.move_entry.refusal() == "" and window.move_entry.styleSheet() == ""
    qtbot.keyClicks(window.move_entry, "E5")
    QTest.keyClick(window.move_entry, Qt.Key.Key_Return)
    assert window.move_entry.refusal()
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    assert window.move_entry.refusal() == "" and window.move_entry.styleSheet() == ""


def test_a_warning_does_not_change_the_size_of_the_board(qtbot, window, corpus_dir):
    from reviewer.gui.presenters.messages import Message

    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    qtbot.wait(1)  # let the layout settle once
    before = window.board.size()
    for index in range(3):
        window.message_bar.add(Message(key=f"test:{index}", level="warning", text=f"Warning number {index}"))
    assert window.message_bar.isVisible() and window.message_bar.height() > 20
    assert window.board.size() == before
    origin = QPoint(0, 0)
    bar, panel, header = (widget.mapTo(window, origin) for widget in (window.message_bar, window.review_panel, window.header_label))
    assert bar.x() == panel.x() and bar.y() > header.y() + window.header_label.height() - 1  # over the panel, below the names
