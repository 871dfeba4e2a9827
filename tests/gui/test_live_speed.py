"""Live analysis says how fast it searches: visits per second in the lines' header, whether the
engine says how long it searched (Reviewer's own search) or not (KataGo's process: the time since
the position was set)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from window_support import search_window

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.services.live import LiveUpdate
from reviewer.gui.analysis.live_panel import LinesPanel

WAIT_MS = 120_000  # a bound for a loaded machine, not a measure
SPEED = re.compile(r"· (\d+(\.\d)?k?) visits/s ·")


def _go_evaluation(visits: int, seconds: float | None) -> Evaluation:
    return Evaluation(ply=0, kind="go", winrate_first=0.6, score_lead_first=2.5, nodes=visits, seconds=seconds,
                      candidates=(Candidate(move="D4", order=0, winrate_first=0.6, score_lead_first=2.5, visits=visits,
                                            pv=("D4", "Q16")),))


def test_an_engine_that_does_not_time_its_search_is_timed_from_when_the_position_was_set(qtbot):
    panel = LinesPanel()
    qtbot.addWidget(panel)
    panel.show_update(LiveUpdate("start", _go_evaluation(400, None), 2, 2.0, False), None, lines=1)
    assert panel.header_text() == "live · 400 visits · 200 visits/s · thinking…"
    panel.show_update(LiveUpdate("start", _go_evaluation(400, 0.5), 2, 2.0, True), None, lines=1)
    assert panel.header_text() == "live · 400 visits · 800 visits/s · done"  # the engine's own time first


@pytest.mark.engine
@pytest.mark.timeout(300)
def test_live_analysis_of_a_19x19_game_with_reviewers_search_shows_its_speed(qtbot, corpus_dir, monkeypatch):
    main = search_window(qtbot, monkeypatch)
    with qtbot.waitSignal(main.file_opened, timeout=60_000):
        main.open_file(corpus_dir / "sgf" / "sabaki__pro_game.sgf")
    QTest.keyClick(main, Qt.Key.Key_L)
    assert main.commands.live_action.isChecked()
    qtbot.waitUntil(lambda: "visits/s" in main.lines_panel.header_text(), timeout=WAIT_MS)
    header = main.lines_panel.header_text()
    assert SPEED.search(header), header
    assert main.analysis_board.latest_update().evaluation.engine_id.startswith("Reviewer search ")
    QTest.keyClick(main, Qt.Key.Key_L)
    main.close()


def test_a_slow_first_answer_says_its_speed_to_a_tenth_not_zero(qtbot):
    panel = LinesPanel()
    qtbot.addWidget(panel)
    panel.show_update(LiveUpdate("start", _go_evaluation(2, None), 0, 4.0, False), None, lines=1)
    assert panel.header_text() == "live · 2 visits · 0.5 visits/s · thinking…"
