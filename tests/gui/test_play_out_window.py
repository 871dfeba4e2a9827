"""*Analysis ▸ Play from here* against the real Stockfish at 1500 Elo: a move made with the mouse is
answered by the engine, both kept as a variation; Undo takes a move back; stopping stops."""

from __future__ import annotations

import shutil

import chess
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from window_support import shown_window

from reviewer.core.games.chess import board_after
from reviewer.gui.common.settings import EngineChoice

SHORT_GAME = ("pgn", "chesslib__promoting.pgn")
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
WAIT_MS = 60_000

pytestmark = pytest.mark.skipif(shutil.which(STOCKFISH) is None, reason="Stockfish is not installed")


@pytest.fixture
def window(qtbot):
    main = shown_window(qtbot, 1200, 800, remember_layout=False)
    main.set_engine_choice(EngineChoice(kind="chess", command=STOCKFISH), remember=False)
    yield main
    main.close()


def click_move(window, move: chess.Move) -> None:
    board = window.board
    for square in (move.from_square, move.to_square):
        QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.square_center(square).toPoint())


def test_a_position_played_out_against_stockfish_at_1500(qtbot, window, corpus_dir):
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(corpus_dir.joinpath(*SHORT_GAME), game_index=0, ply=10)
    model = window.session.model
    qtbot.waitUntil(lambda: model.current_ply == 10, timeout=WAIT_MS)
    start = model.current_node
    assert board_after(model.game, start).turn == chess.WHITE
    window.commands.play_action.trigger()
    qtbot.waitUntil(lambda: getattr(window, "play_dialog", None) is not None and window.play_dialog.isVisible(), timeout=WAIT_MS)
    dialog = window.play_dialog
    assert dialog.engine_color() == "black" and dialog.strength() == 1500  # the side not to move, the default strength
    spin = dialog.strength_spin
    spin.setFocus()
    QTest.keyClick(spin, Qt.Key.Key_Up)
    QTest.keyClick(spin, Qt.Key.Key_Down)
    assert dialog.strength() == 1500
    QTest.mouseClick(dialog.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.play_out.active, timeout=WAIT_MS)
    assert "1500 Elo" in window.statusBar().currentMessage()
    # the player's move with the mouse, then the engine's answer
    board = board_after(model.game, start)
    played = {child.uci for child in start.children}
    mine = next(move for move in board.legal_moves if move.uci() not in played and not move.promotion)
    with qtbot.waitSignal(window.play_out.replied, timeout=WAIT_MS) as reply:
        click_move(window, mine)
    answer = model.current_node
    assert answer.move == reply.args[0] and answer.color == "black"
    assert answer.parent.uci == mine.uci() and answer.parent.parent is start
    assert not answer.is_mainline  # kept as a variation
    assert "UCI_Elo=1500" in window.play_out._engine.identity and "UCI_LimitStrength=True" in window.play_out._engine.identity
    # a second move: answered too
    board = board_after(model.game, answer)
    second = next(move for move in board.legal_moves if not move.promotion)
    with qtbot.waitSignal(window.play_out.replied, timeout=WAIT_MS):
        click_move(window, second)
    assert model.current_node.parent.parent is answer
    # a takeback: Undo twice is back at the player's turn, and the engine does not play again
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    QTest.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert model.current_node is answer
    assert not window.play_out.thinking()
    # stopping: the menu's toggle; a move then stays unanswered
    window.commands.play_action.trigger()
    assert not window.play_out.active and not window.commands.play_action.isChecked()
    click_move(window, second)
    qtbot.waitUntil(lambda: model.current_node.parent is answer, timeout=WAIT_MS)
    assert not window.play_out.thinking() and not model.current_node.children


def test_cancelling_the_dialog_starts_nothing(qtbot, window, corpus_dir):
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(corpus_dir.joinpath(*SHORT_GAME), game_index=0)
    window.commands.play_action.trigger()
    qtbot.waitUntil(lambda: getattr(window, "play_dialog", None) is not None and window.play_dialog.isVisible(), timeout=WAIT_MS)
    black = window.play_dialog.side_buttons["white"]
    QTest.mouseClick(black, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(8, black.height() // 2))
    assert window.play_dialog.engine_color() == "white"
    window.play_dialog.reject()
    assert not window.play_out.active and not window.commands.play_action.isChecked()
