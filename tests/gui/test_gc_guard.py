"""Garbage with Qt objects in it is collected on the GUI thread, never in a worker thread."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject

from reviewer.gui.window import gc_guard


class _Cycle:
    def __init__(self) -> None:
        self.me = self
        self.qt = QObject()
        self.qt.destroyed.connect(lambda *_: died_in.append(threading.current_thread().name))


died_in: list[str] = []


def test_a_cycle_holding_a_qt_object_dies_on_the_gui_thread(qapp, qtbot):
    guard = gc_guard.install(qapp)
    assert not gc.isenabled()
    died_in.clear()
    _Cycle()  # garbage at once: only the cycle keeps it

    def churn() -> None:  # a worker that leaves much cyclic garbage, past every collection threshold
        for _ in range(50_000):
            cycle: list[object] = []
            cycle.append(cycle)

    worker = threading.Thread(target=churn, name="worker")
    worker.start()
    worker.join()
    assert died_in == []  # the worker never collected it
    qtbot.waitUntil(lambda: died_in != [], timeout=60_000)  # the guard's timer did, on this thread
    assert died_in == [threading.current_thread().name]
    assert guard is gc_guard.install(qapp)
