"""The evaluation graph: units per mode, clicks and drags to plies, cheap updates."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from reviewer.gui.review.eval_graph import EvalGraphWidget, win_percent_white

EVALS_CP = {ply: (ply % 7 - 3) * 60.0 for ply in range(41)}
LOSSES = {ply: float(ply % 5) * 30 for ply in range(1, 41)}
JUDGEMENTS = {ply: ("mistake" if ply % 10 == 0 else "good") for ply in range(1, 41)}


@pytest.fixture
def graph(qtbot) -> EvalGraphWidget:
    widget = EvalGraphWidget()
    qtbot.addWidget(widget)
    widget.resize(800, 240)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_series("chess", EVALS_CP, LOSSES, JUDGEMENTS, "win", ply_count=40)
    return widget


def view_point(graph: EvalGraphWidget, scene_pos: QPointF) -> QPoint:
    return graph.view.mapFromScene(scene_pos)


def test_win_percent_matches_scoring():
    assert win_percent_white(0) == pytest.approx(50.0)
    assert win_percent_white(100) == pytest.approx(59.1, abs=0.1)
    assert win_percent_white(5000) == pytest.approx(win_percent_white(1000))
    assert win_percent_white(-1000) == pytest.approx(100 - win_percent_white(1000))


def test_clicking_the_curve_at_a_ply_emits_that_ply(graph, qtbot):
    for ply in (17, 0, 40):
        target = view_point(graph, graph.scene_pos_for(ply))
        with qtbot.waitSignal(graph.ply_clicked) as blocker:
            QTest.mouseClick(graph.view.viewport(), Qt.MouseButton.LeftButton, pos=target)
        assert blocker.args == [ply]


def test_clicking_a_loss_bar_emits_its_ply(graph, qtbot):
    target = view_point(graph, graph.scene_pos_for(23, 10.0, plot="loss"))
    with qtbot.waitSignal(graph.ply_clicked) as blocker:
        QTest.mouseClick(graph.view.viewport(), Qt.MouseButton.LeftButton, pos=target)
    assert blocker.args == [23]


def test_a_click_between_plies_rounds_to_the_nearest(graph, qtbot):
    target = view_point(graph, graph.scene_pos_for(12.3, 50.0))
    with qtbot.waitSignal(graph.ply_clicked) as blocker:
        QTest.mouseClick(graph.view.viewport(), Qt.MouseButton.LeftButton, pos=target)
    assert blocker.args == [12]


def test_set_current_ply_moves_the_cursor_silently(graph, qtbot):
    with qtbot.assertNotEmitted(graph.ply_clicked), qtbot.assertNotEmitted(graph.ply_scrubbed):
        graph.set_current_ply(9)
    assert graph.cursor.value() == 9


def test_dragging_the_cursor_scrubs_and_lands_on_a_ply(graph, qtbot):
    graph.set_current_ply(5)
    viewport = graph.view.viewport()
    start = view_point(graph, graph.scene_pos_for(5, 75.0))
    scrubbed: list[int] = []
    graph.ply_scrubbed.connect(scrubbed.append)
    with qtbot.waitSignal(graph.ply_clicked) as blocker:
        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
        for ply in (6, 8, 10, 11):
            QTest.mouseMove(viewport, view_point(graph, graph.scene_pos_for(ply, 75.0)))
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=view_point(graph, graph.scene_pos_for(11, 75.0)))
    assert blocker.args == [11]
    assert scrubbed and scrubbed[-1] == 11
    assert graph.cursor.value() == 11


def test_modes_convert_units(graph):
    graph.set_series("chess", {0: 0.0, 1: 2500.0, 2: -300.0}, {}, {}, "cp")
    assert graph._y_values == {0: 0.0, 1: 10.0, 2: -3.0}
    graph.set_series("go", {0: 0.52, 1: 0.3}, {}, {}, "winrate")
    assert graph._y_values == {0: pytest.approx(52.0), 1: pytest.approx(30.0)}
    graph.set_series("go", {0: 7.5, 1: -2.0}, {1: -1.0}, {1: "good"}, "lead")
    assert graph._y_values == {0: 7.5, 1: -2.0}
    with pytest.raises(ValueError):
        graph.set_series("go", {}, {}, {}, "win")


def test_auto_range_follows_the_data(graph):
    graph.set_series("chess", {0: 20.0, 1: 40.0, 2: -30.0}, {}, {}, "cp")
    graph.set_auto_range(False)
    default = graph.eval_plot.vb.viewRange()[1]
    graph.set_auto_range(True)
    auto = graph.eval_plot.vb.viewRange()[1]
    assert default[1] - default[0] > 5  # at least ±3 pawns by default
    assert auto[1] - auto[0] < 5
    assert auto[0] < 0 < auto[1]


def visible_y(graph) -> tuple[float, float]:
    low, high = graph.eval_plot.vb.viewRange()[1]
    return low, high


@pytest.mark.parametrize("lead", [4.0, 19.0, 27.5, -43.0, 140.0])
def test_go_leads_never_leave_the_plot_and_the_range_is_symmetric(graph, lead):
    evals = {0: 0.5, 1: lead / 2, 2: lead, 3: lead / 3}
    graph.set_series("go", evals, {}, {}, "lead")
    low, high = visible_y(graph)
    assert low <= -abs(lead) and abs(lead) <= high
    assert low == pytest.approx(-high)
    assert high >= 10  # a quiet game is not blown up to fill the plot
    assert high <= abs(lead) * 1.6 or high <= 11  # nor squeezed into a corner


def test_chess_pawns_never_leave_the_plot(graph):
    graph.set_series("chess", {0: 30.0, 1: -450.0, 2: 120.0}, {}, {}, "cp")
    low, high = visible_y(graph)
    assert low <= -4.5 and high >= 4.5 and high <= 8
    graph.set_series("chess", {0: 30.0, 1: 100000.0, 2: -2000.0}, {}, {}, "cp")  # mates and wins
    low, high = visible_y(graph)
    assert low <= -10 and high >= 10 and high <= 10.5


def test_updates_reuse_the_plot_items(graph):
    items_before = list(graph.eval_plot.items)
    for ply in range(41, 80):
        evals = {**EVALS_CP, **dict.fromkeys(range(41, ply + 1), 10.0)}
        graph.set_series("chess", evals, LOSSES, JUDGEMENTS, "win", ply_count=80)
    assert graph.eval_plot.items == items_before
    assert graph.eval_plot.vb.viewRange()[0][1] >= 79
