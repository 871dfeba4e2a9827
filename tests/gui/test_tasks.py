"""The one task mechanism: results on the window's thread, lanes in order, nothing after the owner."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, QThread

from reviewer.core.errors import GameFileError
from reviewer.gui.common.tasks import TaskContext, Tasks


@pytest.fixture
def tasks(qapp):
    owner = QObject()
    runner = Tasks(owner)
    yield runner
    runner.shutdown()


def test_the_result_arrives_on_the_window_thread(qtbot, tasks) -> None:
    seen: list[tuple[object, bool]] = []
    handle = tasks.submit(lambda a, b: (a + b, threading.current_thread() is threading.main_thread()), 2, 3)
    handle.done.connect(lambda result: seen.append((result, QThread.currentThread() is qtbot_main_thread())))
    with qtbot.waitSignal(handle.finished, timeout=10_000):
        pass
    assert seen == [((5, False), True)]
    assert handle.is_over and not tasks.busy()


def qtbot_main_thread() -> QThread:
    from PySide6.QtCore import QCoreApplication

    instance = QCoreApplication.instance()
    assert instance is not None
    return instance.thread()


def test_a_failure_says_why_in_one_line(qtbot, tasks) -> None:
    def unreadable() -> None:
        raise GameFileError("game.pgn: not a PGN file")

    def missing() -> None:
        Path("/nonexistent/game.pgn").read_bytes()

    first, second = tasks.submit(unreadable), tasks.submit(missing)
    messages: list[str] = []
    first.failed.connect(messages.append)
    second.failed.connect(messages.append)
    qtbot.waitUntil(lambda: len(messages) == 2, timeout=10_000)
    assert sorted(messages) == ["No such file or directory: /nonexistent/game.pgn", "game.pgn: not a PGN file"]


def test_a_lane_runs_its_work_in_order_one_at_a_time(qtbot, tasks) -> None:
    release = threading.Event()
    order: list[int] = []
    running = threading.Semaphore(1)

    def step(number: int) -> int:
        assert running.acquire(blocking=False), "two pieces of one lane ran at once"
        try:
            if number == 0:
                release.wait(10)
            order.append(number)
            return number
        finally:
            running.release()

    handles = [tasks.submit(step, number, lane="store") for number in range(5)]
    results: list[int] = []
    for handle in handles:
        handle.done.connect(results.append)
    release.set()
    qtbot.waitUntil(lambda: len(results) == 5, timeout=10_000)
    assert order == results == [0, 1, 2, 3, 4]


def test_progress_and_cancel_reach_the_work(qtbot, tasks) -> None:
    started = threading.Event()

    def long_work(context: TaskContext) -> str:
        context.report(1)
        started.set()
        context.cancel_event.wait(10)
        return "stopped" if context.cancelled() else "ran out"

    handle = tasks.submit(long_work, with_context=True)
    reports: list[object] = []
    results: list[object] = []
    handle.progress.connect(reports.append)
    handle.done.connect(results.append)
    assert started.wait(10)
    handle.cancel()
    qtbot.waitUntil(lambda: bool(results), timeout=10_000)
    assert (reports, results) == ([1], ["stopped"])


def test_cancelled_work_waiting_in_a_lane_is_dropped_unstarted(qtbot, tasks) -> None:
    release = threading.Event()
    ran: list[str] = []
    first = tasks.submit(lambda: release.wait(10), lane="engine")
    second = tasks.submit(lambda: ran.append("second"), lane="engine")
    second.cancel()
    release.set()
    with qtbot.waitSignal(second.finished, timeout=10_000):
        pass
    assert first.is_over and ran == []


def test_nothing_is_signalled_once_the_owner_is_gone(qtbot, qapp) -> None:
    owner = QObject()
    runner = Tasks(owner)
    release, finished = threading.Event(), threading.Event()

    def work() -> str:
        release.wait(10)
        finished.set()
        return "late"

    runner.submit(work)
    owner.deleteLater()
    qtbot.waitUntil(lambda: _deleted(runner), timeout=10_000)
    assert not runner._gate.open  # the gate closed with the owner
    release.set()
    assert finished.wait(10)
    qapp.processEvents()  # the late result is dropped: no crash, no delivery


def _deleted(obj: QObject) -> bool:
    try:
        obj.objectName()
    except RuntimeError:
        return True
    return False


def test_shutdown_waits_for_work_that_must_finish(qtbot, tasks) -> None:
    written = threading.Event()
    gate = threading.Event()

    def write() -> None:
        gate.wait(10)
        written.set()

    tasks.submit(write, must_finish=True)
    threading.Timer(0.05, gate.set).start()
    assert tasks.shutdown(timeout_s=10) and written.is_set()


def test_nothing_is_signalled_after_shutdown(qtbot, qapp) -> None:
    owner = QObject()
    runner = Tasks(owner)
    release, finished = threading.Event(), threading.Event()
    results: list[object] = []

    def late() -> str:
        release.wait(10)
        finished.set()
        return "late"

    runner.submit(late).done.connect(results.append)
    assert runner.shutdown(0.1) and runner.closed  # nothing had to finish
    release.set()
    assert finished.wait(10)
    qapp.processEvents()
    assert results == []


def test_a_lane_keeps_no_thread_once_its_work_is_done(qtbot, tasks) -> None:
    first = tasks.submit(lambda: "one", lane="store")
    with qtbot.waitSignal(first.finished, timeout=10_000):
        pass
    lane = next((t for t in threading.enumerate() if t.name == "lane-store"), None)
    if lane is not None:
        lane.join(10)
    assert not any(t.name == "lane-store" and t.is_alive() for t in threading.enumerate())
    again = tasks.submit(lambda: "two", lane="store")  # the next work starts the lane again
    results: list[object] = []
    again.done.connect(results.append)
    qtbot.waitUntil(lambda: results == ["two"], timeout=10_000)


def test_a_task_thread_is_named_for_its_work(qtbot, tasks) -> None:
    names: list[str] = []
    handle = tasks.submit(lambda: names.append(threading.current_thread().name), name="analysis")
    with qtbot.waitSignal(handle.finished, timeout=10_000):
        pass
    assert names == [f"analysis-{handle.task_id}"]
