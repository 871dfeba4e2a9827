import os
import threading
import time

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

_WORKER_PREFIXES = ("analysis-", "assessment")  # threads that must end with their window


@pytest.fixture(autouse=True)
def no_worker_outlives_its_test():
    """An engine or scoring thread left running would keep signalling into later tests."""
    yield
    deadline = time.monotonic() + 5.0
    while True:
        left = [t.name for t in threading.enumerate() if t.name.startswith(_WORKER_PREFIXES) and t.is_alive()]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert not left, f"worker threads still running after the test: {left}"
