"""The one way to run work off the window's thread.

`Tasks(owner).submit(function, *args)` runs `function(*args)` in a worker thread and returns a
`Task`, whose signals (`progress`, `done`, `failed`, then `finished`) arrive on the window's thread.
Work given the same `lane` runs one piece after another, in the order submitted (a store that must
see its writes in order, an engine that answers one question at a time); work without a lane runs
at once, side by side.

A worker never touches a Qt object: it hands its events to the `Tasks` object through a gate that
closes when that object is destroyed (its owner is gone) or shut down, so a late result is dropped
instead of reaching a deleted widget. Handles are kept, and let go, on the window's thread only.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal

from reviewer.core.errors import ReviewerError


def failure_text(error: BaseException) -> str:
    """One line a player can read for an exception raised by the work."""
    if isinstance(error, ReviewerError):
        return str(error)
    if type(error).__name__ == "ExportError":
        return str(error)
    if isinstance(error, OSError):
        return f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")
    return f"{type(error).__name__}: {error}"


class TaskContext:
    """What running work may ask: whether it was cancelled, and a way to report progress."""

    def __init__(self, report: Callable[[object], None], cancel_event: threading.Event) -> None:
        self._report = report
        self.cancel_event = cancel_event

    def report(self, value: object) -> None:
        self._report(value)

    def cancelled(self) -> bool:
        return self.cancel_event.is_set()


class Task(QObject):
    """The handle of one piece of work; its signals arrive on the window's thread."""

    progress = Signal(object)
    done = Signal(object)  # the function's result
    failed = Signal(str)  # one line that says why
    finished = Signal()  # after done or failed, or when cancelled work was dropped unstarted

    def __init__(self, task_id: int, parent: QObject) -> None:
        super().__init__(parent)
        self.task_id = task_id
        self.cancel_event = threading.Event()
        self._over = False

    def cancel(self) -> None:
        """Asks the work to stop (it sees `TaskContext.cancelled()`); unstarted work is dropped."""
        self.cancel_event.set()

    @property
    def is_cancelled(self) -> bool:
        return self.cancel_event.is_set()

    @property
    def is_over(self) -> bool:
        return self._over


class _Gate:
    """Open while the `Tasks` object lives: a closed gate drops every event. Not a QObject, so it
    hears its owner's `destroyed` even while that object is being deleted."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = True

    def close(self) -> None:
        with self.lock:
            self.open = False


@dataclass
class _Work:
    task_id: int
    function: Callable[..., Any]
    args: tuple[Any, ...]
    cancel_event: threading.Event
    with_context: bool
    must_finish: bool
    thread: threading.Thread | None = field(default=None)


class Tasks(QObject):
    """Runs work for its owner (a window, a panel) and forgets it when the owner is gone."""

    _event = Signal(int, str, object)  # task id, "progress" / "done" / "failed" / "dropped", value

    def __init__(self, owner: QObject | None = None) -> None:
        super().__init__(owner)
        self._ids = itertools.count(1)
        self._handles: dict[int, Task] = {}
        self._running: dict[int, _Work] = {}
        self._lanes: dict[str, deque[_Work]] = {}  # work waiting, by lane
        self._lane_threads: dict[str, threading.Thread] = {}  # a lane's thread, while it has work
        self._lock = threading.Lock()
        self._gate = _Gate()
        self._event.connect(self._deliver)
        self.destroyed.connect(self._gate.close)

    def submit(
        self,
        function: Callable[..., Any],
        *args: Any,
        lane: str | None = None,
        must_finish: bool = False,
        with_context: bool = False,
        name: str = "task",
    ) -> Task:
        """Run `function(*args)` off the window's thread (`function(context, *args)` when
        `with_context`). `must_finish`: `shutdown` waits for it (a file being written); `name`:
        its thread's, before the task's number (what a debugger or a test sees)."""
        task_id = next(self._ids)
        handle = Task(task_id, self)
        self._handles[task_id] = handle
        work = _Work(task_id, function, args, handle.cancel_event, with_context, must_finish)
        if lane is None:
            work.thread = threading.Thread(target=self._run, args=(work,), name=f"{name}-{task_id}", daemon=True)
            with self._lock:
                self._running[task_id] = work
            work.thread.start()
        else:
            self._queue(lane, work)
        return handle

    def busy(self) -> bool:
        return bool(self._handles)

    @property
    def closed(self) -> bool:
        """True once shut down or its owner is gone: nothing it runs is signalled any more."""
        return not self._gate.open

    def shutdown(self, timeout_s: float = 5.0) -> bool:
        """Wait for the work that must finish, then signal nothing more. True when it all finished."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            waiting = [work.thread for work in self._running.values() if work.must_finish and work.thread is not None]
            lanes = list(self._lane_threads.values())
        for thread in [*waiting, *lanes]:  # a lane ends once the work queued in it is done
            thread.join(max(0.0, deadline - time.monotonic()))
        self._gate.close()
        with self._lock:
            return not any(work.must_finish for work in self._running.values())

    def _queue(self, lane: str, work: _Work) -> None:
        with self._lock:
            self._lanes.setdefault(lane, deque()).append(work)
            if lane in self._lane_threads:
                return  # its thread takes the work in turn
            thread = threading.Thread(target=self._serve, args=(lane,), name=f"lane-{lane}", daemon=True)
            self._lane_threads[lane] = thread
        thread.start()

    def _serve(self, lane: str) -> None:
        """Runs a lane's work in order; the thread ends when the lane is empty (the next work starts another)."""
        while True:
            with self._lock:
                waiting = self._lanes[lane]
                if not waiting:
                    del self._lane_threads[lane]
                    return
                work = waiting.popleft()
                if not work.cancel_event.is_set():
                    work.thread = threading.current_thread()
                    self._running[work.task_id] = work
            if work.cancel_event.is_set():
                self._emit(work.task_id, "dropped", None)
                continue
            self._run(work)

    def _run(self, work: _Work) -> None:
        try:
            if work.with_context:
                context = TaskContext(lambda value: self._emit(work.task_id, "progress", value), work.cancel_event)
                result = work.function(context, *work.args)
            else:
                result = work.function(*work.args)
        except Exception as error:
            self._emit(work.task_id, "failed", failure_text(error))
        else:
            self._emit(work.task_id, "done", result)
        finally:
            with self._lock:
                self._running.pop(work.task_id, None)

    def _emit(self, task_id: int, what: str, value: object) -> None:
        with self._gate.lock:
            if not self._gate.open:
                return
            try:
                self._event.emit(task_id, what, value)
            except RuntimeError:  # the Python side of the owner is gone
                pass

    def _deliver(self, task_id: int, what: str, value: object) -> None:
        handle = self._handles.get(task_id)
        if handle is None:
            return
        if what == "progress":
            handle.progress.emit(value)
            return
        del self._handles[task_id]
        handle._over = True
        if what == "done":
            handle.done.emit(value)
        elif what == "failed":
            handle.failed.emit(str(value))
        handle.finished.emit()
        handle.setParent(None)  # the caller's reference, if any, now decides when it goes
