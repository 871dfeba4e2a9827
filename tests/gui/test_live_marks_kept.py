"""The live search's candidates stay on the Go board while the position on show is redrawn for
another reason (the theme switched, a review's figure of the position arriving): the board shows
what the lines panel shows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from window_support import search_window

from reviewer.core.gametree import gtp_from_point

WAIT_MS = 120_000  # a bound for a loaded machine, not a measure
GO_GAME = ("sgf", "sabaki__endgame-9.sgf")

pytestmark = [pytest.mark.engine, pytest.mark.timeout(300)]


@pytest.fixture
def window(qtbot, monkeypatch):
    main = search_window(qtbot, monkeypatch)
    yield main
    main.close()


def _marked(window) -> list[str]:
    height = window.board.position().height
    return sorted(gtp_from_point(mark.point, height) for mark in window.board.candidates)


def _live_moves(window) -> list[str]:
    update = window.analysis_board.latest_update()
    shown = set(_marked(window))
    return sorted(c.move for c in update.evaluation.candidates if c.move in shown)


def test_switching_the_theme_keeps_the_live_candidates_on_the_board(qtbot, window, corpus_dir):
    with qtbot.waitSignal(window.file_opened, timeout=60_000):
        window.open_file(corpus_dir.joinpath(*GO_GAME))
    QTest.keyClick(window, Qt.Key.Key_Right)
    QTest.keyClick(window, Qt.Key.Key_L)
    qtbot.waitUntil(lambda: bool(window.board.candidates), timeout=WAIT_MS)
    for _ in range(2):  # to dark and back
        window.commands.dark_action.trigger()  # the board redrawn at once, before any other live answer
        assert window.board.candidates, "the live candidates went with the theme"
        assert _marked(window) == _live_moves(window)
    QTest.keyClick(window, Qt.Key.Key_L)
