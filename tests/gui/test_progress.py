"""Progress that does not mislead: the pass under way and its own count, a speed from a sliding
window (hidden until it means something), no accuracy before a move is judged, a collection ETA
from finished games that counts down, and a progress text that fits its one-line bar."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QMainWindow
from support import scholars_mate

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit
from reviewer.core.passes import PassStart
from reviewer.core.scoring import assess_game
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.engines.status_area import StatusArea
from reviewer.gui.engines.workers import AnalysisJob, AnalysisProgress, AnalysisRunner
from reviewer.gui.presenters.analysis_state import (
    AnalysisState,
    PassProgress,
    RateWindow,
    ReviewEta,
    progress_format,
    rate_text,
    state_text,
)
from reviewer.gui.presenters.figures import side_accuracy, summary_dicts


def test_a_review_in_passes_says_which_pass_and_counts_that_pass():
    passes = PassProgress(index=2, count=3, done=14, total=23)
    running = AnalysisState().running(59, 59, 12.0, passes)
    assert state_text(running, None) == "Analysing… pass 2 of 3: 14 of 23 positions · ETA 0:12"
    last = AnalysisState().running(59, 59, 5.0, PassProgress(3, 3, 4, 9))
    assert state_text(last, None) == "Analysing… pass 3 of 3: 4 of 9 positions · ETA 0:05"
    assert progress_format(59, 59, "pass 2 of 3 · 250k nodes", passes) == "pass 2/3 · 14/23"
    assert progress_format(34, 80) == "34/80 positions"


def test_the_speed_is_hidden_until_meaningful_and_never_reads_zero():
    window = RateWindow(size=4, least=3)
    window.add(0, 0.0)
    window.add(1, 1.0)
    window.add(2, 2.0)
    assert window.rate() is None  # two positions: noise
    window.add(3, 3.0)
    assert window.rate() == pytest.approx(1.0)
    for count, at in ((4, 3.5), (5, 4.0), (6, 4.5), (7, 5.0)):
        window.add(count, at)
    assert window.rate() == pytest.approx(2.0)  # the last four positions, not the whole run
    window.add(0, 10.0)  # a new pass counts from 0 again
    assert window.rate() is None
    assert rate_text(2.14) == "2.1 pos/s"
    assert rate_text(0.04) == "25 s/pos" and rate_text(0.5) == "2.0 s/pos"
    assert rate_text(None) == "" and rate_text(0.0) == ""


def test_no_accuracy_before_a_move_of_that_side_is_judged():
    game, _table = scholars_mate()
    table = EvaluationTable()
    table.add(Evaluation(ply=6, kind="chess", score_cp_first=900, side_to_move="white", engine_id="e"))
    table.add(Evaluation(ply=7, kind="chess", mate_first=0, side_to_move="black", terminal="checkmate", engine_id="e"))
    # only White's last move is judged; the strict preset's mean accuracy needs no start position
    assessment = assess_game(game, table, preset="seed")
    white, black = summary_dicts(assessment)
    assert white is not None and white["accuracy"] is not None and side_accuracy(assessment, "white") is not None
    assert black is not None and black["accuracy"] is None and black["accuracy_lichess"] is None
    assert side_accuracy(assessment, "black") is None


def passes_analyse(game, engine, limit, stop, plies, on_progress, on_pass=None) -> Iterator[Evaluation]:
    """A review in three passes: every position, then a few again, then one."""
    for index, searched in ((1, list(plies)), (2, list(plies)[:3]), (3, list(plies)[:1])):
        on_pass(PassStart(index, 3, len(searched), "budget"))
        on_progress(0, len(searched), None, None)
        for done, ply in enumerate(searched, start=1):
            on_progress(done, len(searched), None, None)
            yield Evaluation(ply=ply, kind="chess", score_cp_first=10, engine_id="e | scheme=passes")


def test_the_runner_reports_the_pass_under_way_with_its_own_count(qtbot):
    game, _table = scholars_mate()
    runner = AnalysisRunner(open_engine=lambda _choice: None, analyse=passes_analyse)  # type: ignore[arg-type,return-value]
    progress: list[AnalysisProgress] = []
    runner.progress_changed.connect(progress.append)
    job = AnalysisJob(game=game, engine=EngineChoice(kind="chess"), limit=Limit(nodes=1000), plies=tuple(range(8)))
    with qtbot.waitSignal(runner.finished, timeout=10_000):
        runner.start(job)
    in_pass_2 = [p for p in progress if p.passes is not None and p.passes.index == 2]
    assert in_pass_2 and all(p.done == 8 and p.total == 8 for p in in_pass_2)  # every position has a figure
    assert [p.passes.done for p in in_pass_2] == sorted(p.passes.done for p in in_pass_2)
    assert in_pass_2[-1].passes == PassProgress(2, 3, 3, 3)
    assert progress[-1].passes == PassProgress(3, 3, 1, 1)
    assert all(p.positions_per_s is None or p.positions_per_s > 0 for p in progress)
    assert runner.shutdown(timeout_s=10.0) and threading.active_count() >= 1


@pytest.mark.parametrize("dark", [False, True])
def test_the_progress_text_fits_its_one_line_bar(qtbot, dark):
    window = QMainWindow()
    qtbot.addWidget(window)
    area = StatusArea(window.statusBar(), window)
    window.resize(1200, 700)
    window.show()
    area.show_progress(AnalysisProgress(59, 59, 0.7, 12.0, "KataGo 1.18.1", "pass 2 of 3 · 250k nodes", PassProgress(2, 3, 14, 23)))
    bar = area.progress_bar
    text = bar.text()
    assert text and "\n" not in text
    metrics = bar.fontMetrics()
    assert metrics.horizontalAdvance(text) <= bar.width() - 8
    assert bar.height() >= metrics.height()
    assert "Pass 2 of 3" in bar.toolTip()
    assert area.rate_label.text() == "1.4 s/pos"


def test_the_eta_is_of_the_whole_review_each_pass_priced_at_its_budget():
    eta = ReviewEta(least=3, later_share=0.5)
    eta.start_pass(1, 79, at_s=0.0, budgets=(40_000, 250_000, 1_000_000))
    assert eta.eta_s() is None  # no speed yet
    for done in range(1, 11):
        eta.searched(done, at_s=float(done))  # 1 s a position at 40k nodes
    # 69 positions left of pass 1, then about half as many at 6.25 times the cost, and half again at 25 times
    assert eta.eta_s() == pytest.approx(69 * 1.0 + 39.5 * 6.25 + 19.75 * 25.0)
    eta.start_pass(2, 30, at_s=79.0)
    assert eta.eta_s() == pytest.approx(30 * 6.25 + 15 * 25.0)  # priced from pass 1's speed until pass 2 has its own
    for done in range(1, 6):
        eta.searched(done, at_s=79.0 + 10.0 * done)  # 10 s a position at 250k nodes
    assert eta.eta_s() == pytest.approx(25 * 10.0 + 15 * 40.0)


def test_the_eta_comes_from_the_mean_of_the_pass_not_from_its_last_position():
    eta = ReviewEta()
    eta.start_pass(2, 19, at_s=0.0, budgets=(2, 32))  # the last pass of a Go review: 19 positions in doubt
    for done in range(1, 16):
        eta.searched(done, at_s=100.0 * done / 15)
    eta.searched(16, at_s=145.0)  # the 16th took 45 s
    assert eta.eta_s() == pytest.approx(3 * (145.0 - 100.0 / 15) / 15)


def test_what_a_pass_did_once_before_its_first_position_is_not_priced_into_the_rest():
    eta = ReviewEta(least=3, later_share=0.5)
    eta.start_pass(1, 40, at_s=0.0, budgets=(2, 32))  # a Go review whose network is read first
    eta.searched(1, at_s=3.0)  # the first position came after 3 s of reading the network
    for done in range(2, 5):
        eta.searched(done, at_s=3.0 + 0.1 * (done - 1))  # then 0.1 s a position at 2 visits
    # 36 positions left at 0.1 s, then about 20 at 16 times that; not 1 s a position (4 in 3.3 s)
    assert eta.eta_s() == pytest.approx(36 * 0.1 + 20 * 1.6)


def test_a_review_in_one_pass_is_timed_from_its_first_searched_position_not_the_cached_burst():
    eta = ReviewEta()
    eta.searched(40, at_s=5.0, total=100)  # 40 from the cache, at once
    for searched in range(1, 5):
        eta.searched(40 + searched, at_s=5.0 + 2.0 * searched)
    assert eta.eta_s() == pytest.approx(56 * 2.0)


def budgeted_passes_analyse(game, engine, limit, stop, plies, on_progress, on_pass=None) -> Iterator[Evaluation]:
    """A review in three passes of budgets 1, 4 and 16: 8 positions, then 4, then 2."""
    for index, searched in ((1, list(plies)), (2, list(plies)[:4]), (3, list(plies)[:2])):
        on_pass(PassStart(index, 3, len(searched), "budget", (1, 4, 16)))
        on_progress(0, len(searched), None, None)
        for done, ply in enumerate(searched, start=1):
            on_progress(done, len(searched), None, None)
            yield Evaluation(ply=ply, kind="chess", score_cp_first=10, engine_id="e | scheme=passes")


def test_the_runner_gives_the_eta_of_every_pass_to_come_from_the_clock_it_is_given(qtbot):
    game, _table = scholars_mate()
    ticks = iter(float(second) for second in range(10_000))
    runner = AnalysisRunner(
        open_engine=lambda _choice: None,  # type: ignore[arg-type,return-value]
        analyse=budgeted_passes_analyse,
        clock=lambda: next(ticks),
    )
    progress: list[AnalysisProgress] = []
    runner.progress_changed.connect(progress.append)
    job = AnalysisJob(game=game, engine=EngineChoice(kind="chess"), limit=Limit(nodes=1000), plies=tuple(range(8)))
    with qtbot.waitSignal(runner.finished, timeout=10_000):
        runner.start(job)
    # pass 1 began at tick 0, its count of 0 came at tick 1, its first position at tick 2 and its
    # 4th at tick 5: 1 s a position, measured from the first
    fourth = [p for p in progress if p.passes == PassProgress(1, 3, 4, 8)]
    assert fourth and all(p.eta_s == pytest.approx((4 + 4 * 4 + 2 * 16) * 1.0) for p in fourth)
    assert progress[-1].passes == PassProgress(3, 3, 2, 2) and progress[-1].eta_s == pytest.approx(0.0)
    assert runner.shutdown(timeout_s=10.0)
