import gc
import os
import threading

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

_WORKER_PREFIXES = ("analysis-", "assessment")  # threads that must end with their window


@pytest.fixture(autouse=True)
def no_worker_outlives_its_test():
    """An engine or scoring thread left running would keep signalling into later tests."""
    yield
    workers = [t for t in threading.enumerate() if t.name.startswith(_WORKER_PREFIXES)]
    for thread in workers:
        thread.join(timeout=60.0)  # ends on its own once stopped; the bound only catches a hang
    left = [t.name for t in workers if t.is_alive()]
    assert not left, f"worker threads still running after the test: {left}"
    # The test's closed windows are garbage now: collect them here, on the GUI thread. Left to the
    # collector's own timing, a later test's worker thread may collect them, and Qt objects
    # destroyed off the GUI thread crash the process.
    gc.collect()
