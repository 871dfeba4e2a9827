"""The message bar in the real window: each banner belongs to a cause and goes when its cause goes,
the same words are said once, a few rows stack at most and never over the players' names; the
actions that mean nothing for the game on show are disabled; F1's list comes from the actions."""

from __future__ import annotations

import shlex

import chess
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from support import fake_engine_command
from window_support import open_game, shown_window

from reviewer.gui.common.message_bar import MAX_SHOWN
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.presenters.messages import Message
from reviewer.gui.window.main_window import MainWindow

CHESS_GAME = ("pgn", "chesslib__promoting.pgn")
GO_GAME = ("sgf", "sabaki__endgame-9.sgf")
WAIT_MS = 60_000


@pytest.fixture
def window(qtbot):
    main = shown_window(qtbot, 1300, 860, remember_layout=False)
    main.set_engine_choice(EngineChoice(kind="chess", command=shlex.join(fake_engine_command("fake_uci.py"))), remember=False)
    main.set_engine_choice(EngineChoice(kind="go", command=shlex.join(fake_engine_command("fake_katago.py"))), remember=False)
    yield main
    main.close()


def texts(window: MainWindow) -> list[str]:
    return [message.text for message in window.message_bar.messages()]


def click_squares(window: MainWindow, *squares: int) -> None:
    board = window.board
    for square in squares:
        QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.square_center(square).toPoint())


def drag(window: MainWindow, start_square: int, end_square: int) -> None:
    board = window.board
    start, end = board.square_center(start_square).toPoint(), board.square_center(end_square).toPoint()
    QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(board, (start + end) / 2)
    QTest.mouseMove(board, end)
    QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def test_a_refused_move_is_named_as_played_and_its_banner_goes_with_the_next_legal_move(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    window.session.model.set_current_ply(0)
    drag(window, chess.D1, chess.D3)
    assert "Qd1–d3 is not legal: the way from d1 to d3 is blocked" in texts(window)
    click_squares(window, chess.E2, chess.E4)
    assert window.session.model.current_node.move == "e4"
    assert not any("not legal" in text for text in texts(window))
    drag(window, chess.D8, chess.D6)  # refused again, then the player steps away
    assert any("not legal" in text for text in texts(window))
    QTest.keyClick(window.board_stack.currentWidget(), Qt.Key.Key_Left)
    assert not any("not legal" in text for text in texts(window))


def test_the_press_l_hint_goes_when_l_is_pressed(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    QTest.keyClick(window, Qt.Key.Key_O)
    assert window.commands.ownership_action.isChecked()
    assert any("press L" in text for text in texts(window))
    QTest.keyClick(window, Qt.Key.Key_L)
    assert not any("press L" in text for text in texts(window))
    QTest.keyClick(window, Qt.Key.Key_L)


def test_the_threat_note_goes_with_threat_mode_and_with_the_position(qtbot, window, tmp_path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text("1. e4 e5 2. Nf3 Nc6 3. Bc4 *\n")
    open_game(qtbot, window, path)
    window.session.model.set_current_ply(3)
    QTest.keyClick(window, Qt.Key.Key_X)
    qtbot.waitUntil(lambda: "Threatens Nxe5, winning a pawn." in texts(window), timeout=WAIT_MS)
    QTest.keyClick(window, Qt.Key.Key_X)
    assert "Threatens Nxe5, winning a pawn." not in texts(window)
    QTest.keyClick(window, Qt.Key.Key_X)
    qtbot.waitUntil(lambda: "Threatens Nxe5, winning a pawn." in texts(window), timeout=WAIT_MS)
    QTest.keyClick(window, Qt.Key.Key_Right)  # 2... Nc6: another position, another threat
    assert "Threatens Nxe5, winning a pawn." not in texts(window)
    QTest.keyClick(window, Qt.Key.Key_X)


def test_one_engine_problem_is_said_once_whoever_meets_it(qtbot, window, corpus_dir) -> None:
    window.set_engine_choice(EngineChoice(kind="chess", command="/nonexistent/engine"), remember=False)
    open_game(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    window.session.model.set_current_ply(4)

    def about_the_engine() -> list[str]:
        return [text for text in texts(window) if "/nonexistent/engine" in text]

    QTest.keyClick(window, Qt.Key.Key_L)
    qtbot.waitUntil(lambda: any(text.startswith("live analysis stopped") for text in about_the_engine()), timeout=WAIT_MS)
    QTest.keyClick(window, Qt.Key.Key_X)
    qtbot.waitUntil(lambda: any(text.startswith("threat search stopped") for text in about_the_engine()), timeout=WAIT_MS)
    QTest.keyClick(window, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: any(text.startswith("The analysis failed") for text in about_the_engine()), timeout=WAIT_MS)
    assert len(about_the_engine()) == 1
    QTest.keyClick(window, Qt.Key.Key_X)
    QTest.keyClick(window, Qt.Key.Key_L)


def test_a_few_banners_stack_at_most_and_never_over_the_players_names(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    bar = window.message_bar
    for index in range(MAX_SHOWN + 2):
        bar.add(Message(key=f"game:test:{index}", level="warning", text=f"Warning number {index}"))
    bar.add(Message(key="game:test:again", level="warning", text="Warning number 0"))  # the same words again
    assert len(bar.messages()) == MAX_SHOWN + 2
    assert [row.message.text for row in bar.shown_rows()] == [f"Warning number {i}" for i in range(2, MAX_SHOWN + 2)]
    assert bar.more_button.isVisible() and bar.more_button.text() == "2 more messages…"
    header = window.header_label
    names_bottom = header.mapTo(window.centralWidget(), QPoint(0, header.height())).y()
    assert bar.geometry().top() >= names_bottom and header.text()
    QTest.mouseClick(bar.more_button, Qt.MouseButton.LeftButton)
    assert len(bar.shown_rows()) == MAX_SHOWN + 2


def test_actions_that_mean_nothing_for_the_game_on_show_are_disabled(qtbot, window, corpus_dir) -> None:
    commands = window.commands
    go_only = (commands.ownership_action, commands.policy_action, commands.move_numbers_action, commands.pass_action)
    open_game(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    assert not any(action.isEnabled() for action in go_only)
    QTest.keyClick(window, Qt.Key.Key_O)
    assert not commands.ownership_action.isChecked() and not any("press L" in text for text in texts(window))
    assert commands.preset_combo.isEnabled() and commands.preset_menu.isEnabled()
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    assert all(action.isEnabled() for action in go_only)
    assert not commands.preset_combo.isEnabled() and not commands.preset_menu.isEnabled()


def test_the_shortcut_list_comes_from_the_actions(qtbot, window) -> None:
    from reviewer.gui.dialogs.shortcuts import shortcut_rows

    rows = dict(shortcut_rows(window.actions()))
    listed = " ".join(rows)
    for keys in ("L", "O", "X", "Ctrl+T", "Shift+P", "Ctrl+Z", "Ctrl+Del", "Ctrl+E", "F1", "Space", "←", "→"):
        assert keys in listed.split("  or  ") or any(keys in part.split("  or  ") for part in rows), keys
    assert rows["L"] == "Show engine lines" and rows["Ctrl+T"] == "Train" and rows["Home  or  ↑"] == "Start of the game"


@pytest.mark.parametrize(("kind", "shown"), [("chess", True), ("go", False)])
def test_the_settings_show_the_thresholds_for_chess_only(qtbot, kind, shown) -> None:
    from reviewer.gui.common.settings import default_limit
    from reviewer.gui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(kind=kind, engines=[], engine=EngineChoice(kind=kind), limit=default_limit(kind), preset="seed")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.preset_combo.isVisible() is shown and dialog.preset() == "seed"
