"""What reading a file found wrong is shown in the message bar with its games: a game of the file
left out, and damage in the game on show."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from window_support import shown_window

from reviewer.gui.window.main_window import MainWindow

# Game 2 is chess; game 3 plays onto a stone (E5 twice) and names a handicap it never places.
COLLECTION = b"(;GM[1]SZ[9]PB[one];B[ee];W[cc])(;GM[3]SZ[8]PB[chess])(;GM[1]SZ[9]HA[2]PB[three];B[ee];W[ee];B[cc])"


@pytest.fixture
def window(qtbot) -> MainWindow:
    return shown_window(qtbot)


def _open(qtbot, window: MainWindow, path: Path, index: int) -> None:
    with qtbot.waitSignal(window.cache_checked, timeout=15000):
        window.open_file(path, game_index=index)


def test_a_game_left_out_of_the_file_and_damage_in_the_game_stay_in_the_bar(qtbot, window, tmp_path) -> None:
    path = tmp_path / "mixed.sgf"
    path.write_bytes(COLLECTION)
    _open(qtbot, window, path, 1)
    assert window.session.model.game is not None and window.session.model.game.black == "three"
    texts = [message.text for message in window.message_bar.messages()]
    assert any("game 2 is not a Go game" in text and "left out" in text for text in texts)
    assert any("already holds a stone" in text for text in texts)
    assert any("HA[2]" in text and "no handicap stones" in text for text in texts)
    assert window.message_bar.isVisible()
    # the other game of the file: its file's problem still shown, the damage of game 3 gone
    _open(qtbot, window, path, 0)
    texts = [message.text for message in window.message_bar.messages()]
    assert any("left out" in text for text in texts)
    assert not any("already holds a stone" in text for text in texts)
    # dismissed with a real click on its ✕
    key = next(m.key for m in window.message_bar.messages() if "left out" in m.text)
    row = window.message_bar.row(key)
    assert row is not None
    qtbot.mouseClick(row.close_button, Qt.MouseButton.LeftButton)
    assert not any("left out" in m.text for m in window.message_bar.messages())
