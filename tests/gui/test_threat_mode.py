"""Threat mode in the real window: X shows what the opponent threatens, X again hides it, a move drops it."""

from __future__ import annotations

import shlex
from pathlib import Path

import chess
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from support import fake_engine_command

from reviewer.core.gametree import point_from_gtp
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

WAIT_MS = 120_000  # a bound for a loaded machine, not a measure
# Black's C2 has one liberty left, C3: the fake KataGo's favourite move for either side.
GO_SHAPE = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ch];W[bh];B[gc];W[dh];B[gg];W[ci])"


@pytest.fixture
def window(qtbot):
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1300, 860)
    main.show()
    qtbot.waitExposed(main)
    command = shlex.join(fake_engine_command("fake_uci.py"))
    main.set_engine_choice(EngineChoice(kind="chess", command=command), remember=False)
    yield main
    main.close()


def open_text(qtbot, window: MainWindow, path: Path, text: str) -> None:
    path.write_text(text)
    with qtbot.waitSignal(window.file_opened, timeout=20000):
        window.open_file(path)


def test_x_shows_the_chess_threat_and_hides_it_and_a_move_drops_it(qtbot, window, tmp_path):
    open_text(qtbot, window, tmp_path / "g.pgn", "1. e4 e5 2. Nf3 Nc6 3. Bc4 *\n")
    window.session.model.set_current_ply(3)  # after 2. Nf3: Black to move, White's knight eyes e5
    assert "X" in window.commands.threat_action.shortcut().toString()
    QTest.keyClick(window, Qt.Key.Key_X)
    assert window.commands.threat_action.isChecked()
    qtbot.waitUntil(lambda: window.analysis_board.threat is not None, timeout=WAIT_MS)
    why = window.analysis_board.threat
    assert why.text == "Threatens Nxe5, winning a pawn."
    assert window.board.preview_arrows() == [(chess.F3, chess.E5)]
    assert any(m.text == why.text and m.level == "info" for m in window.message_bar.messages())
    QTest.keyClick(window, Qt.Key.Key_X)
    assert not window.commands.threat_action.isChecked()
    assert window.analysis_board.threat is None and window.board.preview_arrows() == []

    QTest.keyClick(window, Qt.Key.Key_X)
    qtbot.waitUntil(lambda: window.analysis_board.threat is not None, timeout=WAIT_MS)
    QTest.keyClick(window, Qt.Key.Key_Right)  # 2... Nc6 defends e5: the old threat goes at once
    assert window.session.model.current_node.ply == 4
    assert window.analysis_board.threat is None or window.analysis_board.threat.line[0] != "Nxe5"
    assert window.board.preview_arrows() != [(chess.F3, chess.E5)]
    qtbot.waitUntil(lambda: window.analysis_board.threat is not None, timeout=WAIT_MS)
    assert window.analysis_board.threat.line[0] != "Nxe5"  # the threat of the new position
    QTest.keyClick(window, Qt.Key.Key_X)


def test_x_shows_the_go_threat_as_a_ghost_stone(qtbot, window, tmp_path):
    command = shlex.join(fake_engine_command("fake_katago.py"))
    window.set_engine_choice(EngineChoice(kind="go", command=command), remember=False)
    open_text(qtbot, window, tmp_path / "g.sgf", GO_SHAPE)
    window.session.model.set_current_ply(6)
    QTest.keyClick(window, Qt.Key.Key_X)
    qtbot.waitUntil(lambda: window.analysis_board.threat is not None, timeout=WAIT_MS)
    assert window.analysis_board.threat.text == "Threatens C3, capturing 1 stone at C2."
    assert window.board.ghost_stones() == [(point_from_gtp("C3", 9), "white", 1)]
    QTest.keyClick(window, Qt.Key.Key_X)
    assert window.board.ghost_stones() == []
