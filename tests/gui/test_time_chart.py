"""The time chart under the evaluation graph, the clocks by the players' names and the time line of
the comment, on real files: a lichess broadcast with [%clk], an SGF with BL/WL, a game without times."""

from __future__ import annotations

from pathlib import Path

import pytest
import screenshots
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from window_support import shown_window

BROADCAST = ("pgn", "scalachess__FWWRC_full_eval_clk.pgn")  # lichess broadcast, [%clk] on every move, 15+10
NO_TIMES = ("pgn", "pgn-read__twic95n_10.pgn")
SGF_TIMES = ("sgf", "analyze-sgf__t-complex.sgf")  # BL/WL/OB/OW on a variation of the first game
WAIT_MS = 20_000


@pytest.fixture
def window(qtbot):
    return shown_window(qtbot, 1200, 860, remember_layout=False)


def open_first_game(qtbot, window, path: Path) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=60_000):
        window.open_file(path, game_index=0)
    qtbot.waitUntil(lambda: window.time_chart is not None, timeout=WAIT_MS)


def click_chart(window, ply: int) -> None:
    chart = window.time_chart
    height = chart.bar_height_at(ply) / 2
    target = chart.view.mapFromScene(chart.scene_pos_for(ply, height))
    QTest.mouseClick(chart.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, target)


def shoot(qtbot, window, name: str) -> None:
    screenshots.shoot(qtbot, window, name, follows=window.time_chart)


def test_a_lichess_game_with_clocks_gets_a_time_chart_that_picks_moves(qtbot, window, corpus_dir):
    open_first_game(qtbot, window, corpus_dir.joinpath(*BROADCAST))
    chart = window.time_chart
    qtbot.waitUntil(chart.isVisible, timeout=WAIT_MS)
    series = chart.series()
    assert series is not None and len(series.clock_s) == window.session.model.ply_count == 126
    assert series.trouble_plies, "the broadcast's players ran short of time"
    black_move = next(ply for ply, spent in sorted(series.spent_s.items()) if spent > 0 and series.movers[ply] == "black")
    white_move = next(ply for ply, spent in sorted(series.spent_s.items()) if spent > 0 and series.movers[ply] == "white")
    assert chart.bar_height_at(black_move) < 0 < chart.bar_height_at(white_move)  # Black below the axis, White above
    for ply in (40, 77):
        click_chart(window, ply)
        qtbot.waitUntil(lambda p=ply: window.session.model.current_ply == p, timeout=WAIT_MS)
        assert chart.current_ply() == ply
        assert window.eval_graph.current_ply() == ply
    # the clocks by the names: each side's after its last move (ply 77 was White's)
    node = window.session.model.mainline_node(77)
    strips = {strip.color: strip for strip in (window.top_player, window.bottom_player)}
    from reviewer.core.formats.clocks import clock_text

    assert strips["white"].clock_text() == clock_text(node.clock_s)
    assert strips["black"].clock_text() == clock_text(node.parent.clock_s)
    # a move made in time trouble says so in the comment, with its clock and spent time
    trouble = series.trouble_plies[0]
    click_chart(window, trouble)
    qtbot.waitUntil(lambda: window.session.model.current_ply == trouble, timeout=WAIT_MS)
    comment = window.comment_view.toPlainText()
    moved = window.session.model.mainline_node(trouble)
    assert f"◷ {clock_text(moved.clock_s)} left" in comment and f"{clock_text(moved.spent_s)} spent" in comment
    assert "made in time trouble" in comment
    assert "◷ time trouble" in chart.tooltip_at(trouble) and f"{clock_text(moved.clock_s)} left" in chart.tooltip_at(trouble)
    assert strips[moved.color].clock_label.property("low") is True
    # the mistakes made in time trouble carry a mark in the move list (the file's [%eval]s judge them)
    qtbot.waitUntil(lambda: bool(window.move_list.time_trouble_plies()), timeout=WAIT_MS)
    judgements = window.session.model.shown_judgements()
    for ply in window.move_list.time_trouble_plies():
        assert ply in series.trouble_plies and judgements[ply] in ("inaccuracy", "mistake", "blunder")
    marked = window.move_list.time_trouble_plies()[0]
    rect = window.move_list.item_rect(window.session.model.mainline_node(marked))
    assert "time trouble" in window.move_list.tooltip_at(rect.center())
    shoot(qtbot, window, "time-chart-lichess")
    # the View menu hides it and brings it back
    window.commands.time_chart_action.trigger()
    qtbot.waitUntil(lambda: not chart.isVisible(), timeout=WAIT_MS)
    window.commands.time_chart_action.trigger()
    qtbot.waitUntil(chart.isVisible, timeout=WAIT_MS)


def test_a_game_without_times_has_no_chart_and_no_clocks(qtbot, window, corpus_dir):
    open_first_game(qtbot, window, corpus_dir.joinpath(*NO_TIMES))
    qtbot.waitUntil(lambda: window.eval_graph is not None and window.eval_graph.isVisible(), timeout=WAIT_MS)
    QTest.keyClick(window.board_stack.currentWidget(), Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: window.session.model.current_ply == 1, timeout=WAIT_MS)
    assert not window.time_chart.isVisible()
    assert window.top_player.clock_text() == window.bottom_player.clock_text() == ""
    assert "left" not in window.comment_view.toPlainText()


def test_an_sgf_with_byo_yomi_times_charts_them_once_they_are_the_main_line(qtbot, window, corpus_dir):
    open_first_game(qtbot, window, corpus_dir.joinpath(*SGF_TIMES))
    chart = window.time_chart
    assert not chart.isVisible()  # the times are on a variation: the main line has none
    model = window.session.model
    timed = next(child for child in model.game.root.children if child.clock_s is not None)
    model.set_current_node(timed)
    qtbot.waitUntil(lambda: "120 sec" in window.comment_editor.toPlainText(), timeout=WAIT_MS)  # the file's own words
    assert "◷ 2:00 left" in window.comment_view.toPlainText()
    make_main = next(action for action in window.commands.variation_actions if action.text() == "Make &main line")
    make_main.trigger()
    qtbot.waitUntil(chart.isVisible, timeout=WAIT_MS)
    series = chart.series()
    assert series is not None and series.clock_s[1] == 120.0 and series.clock_s[2] == 300.0
    assert series.movers[1] == "black" and chart.bar_height_at(3) > 0 > chart.bar_height_at(4)  # Go: Black, the first player, above
    click_chart(window, 5)
    qtbot.waitUntil(lambda: model.current_ply == 5, timeout=WAIT_MS)
    assert "moves left in the period" in window.comment_view.toPlainText()
    strips = {strip.color: strip for strip in (window.top_player, window.bottom_player)}
    assert strips["black"].clock_text() == "1:27" and strips["white"].clock_text() == "3:20"
    shoot(qtbot, window, "time-chart-sgf")
