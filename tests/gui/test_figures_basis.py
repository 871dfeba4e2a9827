"""Every figure says what it stands on until it is final, the players are named in one order
everywhere, and a handicap is part of the header.

Real windows, real files from the shared corpus, fake engines that speak the real protocols.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.gui.main_window import MainWindow

HANDICAP_GAME = ("sgf", "sabaki__beginner_game.sgf")  # 9 stones handicap, 19×19


@pytest.fixture
def window(qtbot) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1300, 850)
    main.show()
    qtbot.waitExposed(main)
    return main


def open_game(qtbot, window: MainWindow, path: Path) -> None:
    with qtbot.waitSignal(window.cache_checked, timeout=15000):
        window.open_file(path)


def test_a_go_game_names_black_first_in_the_title_the_header_and_the_summary(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*HANDICAP_GAME))
    game = window.session.game
    assert game is not None and game.handicap == 9 and game.black and game.white
    assert window.windowTitle().startswith(f"{game.black} – {game.white} — ")
    header = window.header_label.text()
    assert header.index(game.black) < header.index(game.white)
    names = [window.summary_panel._rows[color].name for color in ("black", "white")]
    assert names[0].y() < names[1].y() and names[0].text() == game.black


def test_the_handicap_stands_beside_the_komi_in_the_header(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*HANDICAP_GAME))
    game = window.session.game
    assert game is not None
    assert f"komi {game.komi:g} · 9 stones handicap" in window.header_label.text()
