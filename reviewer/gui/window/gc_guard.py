"""Python's cyclic garbage collector runs in whichever thread happens to allocate when a threshold
is crossed. If that is a worker thread and the garbage holds Qt objects, they are destroyed outside
the GUI thread, which crashes Qt. The guard turns automatic collection off and collects on the GUI
thread instead, from a timer, as often as the thresholds would have asked for it."""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._thresholds = gc.get_threshold()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.check)
        self._timer.start(INTERVAL_MS)

    def check(self) -> None:
        """Collect the generations whose counts passed their thresholds, oldest first."""
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self._thresholds[generation]:
                gc.collect(generation)
                return


_installed: GuiThreadCollector | None = None


def install(app: QObject) -> GuiThreadCollector:
    """Collect garbage on the GUI thread only, for the life of `app` (idempotent)."""
    global _installed
    if _installed is None:
        _installed = GuiThreadCollector(app)
    return _installed
