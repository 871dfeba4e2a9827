"""The Go board's details: each side's captures beside its player strip, and a line's numbered
ghost stones never drawn under a candidate's label."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from reviewer.core.games.go import GoPosition
from reviewer.gui.board.go_board import CandidateMark
from reviewer.gui.board.go_play import PlayableGoBoard
from reviewer.gui.window.main_window import MainWindow


@pytest.fixture
def window(qtbot) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1200, 800)
    main.show()
    qtbot.waitExposed(main)
    return main


def test_captures_are_counted_beside_each_player(qtbot, window, corpus_dir) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=10_000):
        window.open_file(corpus_dir / "sgf" / "katrain__LS_vs_AG_G4_English.sgf")  # 2 and 11 stones taken
    qtbot.keyClick(window, Qt.Key.Key_End)
    strips = {strip.color: strip for strip in (window.board_area.top_player, window.board_area.bottom_player)}
    assert strips["black"].captures_label.text() == "2 captured"
    assert strips["white"].captures_label.text() == "11 captured"
    qtbot.keyClick(window, Qt.Key.Key_Home)
    assert strips["black"].captures_label.text() == "0 captured"


def test_a_ghost_stone_hides_the_candidate_label_on_its_point(qtbot) -> None:
    board = PlayableGoBoard()
    qtbot.addWidget(board)
    board.set_position(GoPosition(9, 9, frozenset({(4, 4)}), frozenset()))
    marks = [CandidateMark((2, 2), 0.0, 40, True, 0), CandidateMark((6, 6), 1.2, 10, False, 1)]
    board.set_candidates(marks)
    assert board.shown_candidates() == marks
    board.set_ghost_stones([((2, 2), "white", 1), ((3, 6), "black", 2)])
    assert board.shown_candidates() == [marks[1]]
    board.set_ghost_stones([])
    assert board.shown_candidates() == marks
