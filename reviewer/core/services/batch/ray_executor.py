"""The executor that reviews on a Ray cluster: one Ray task per game (`task.review_game_detached`).

What travels to a worker is the task (the game's text, the engine settings, the limit, the scoring
options), never a file path; the worker opens its own engine through the registry, as
`reviewer analyze` would on that machine, and sends back the report and the analysis-cache rows it
made, which the driver stores. Ray runs a task again when the worker running it dies
(`max_retries`), so killing a worker loses no game. Ray is an optional extra, imported only here.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from reviewer.core.errors import ReviewerError
from reviewer.core.services.batch.runner import PositionsCallback, ResultCallback
from reviewer.core.services.batch.task import GameResult, GameTask, review_game_detached

__all__ = ["INSTALL_HINT", "ClusterUnavailable", "RayExecutor", "import_ray"]

INSTALL_HINT = "pip install 'reviewer[cluster]'"
TASK_RETRIES = 3  # runs of a task after the first, when the worker running it dies
TASKS_IN_FLIGHT_PER_CPU = 2  # submitted ahead, so a worker never waits for the driver
WAIT_S = 0.25  # how long one wait for a result lasts before `stop` is looked at again


class ClusterUnavailable(ReviewerError):
    """Ray is not installed, or the cluster cannot be reached or started."""


def import_ray() -> Any:
    """The `ray` module; ClusterUnavailable saying how to install it when it is missing."""
    try:
        return importlib.import_module("ray")
    except ImportError as error:
        raise ClusterUnavailable(f"--cluster needs Ray, which is not installed ({error}): {INSTALL_HINT}") from None


class RayExecutor:
    """`address`: "local" starts a Ray instance on this machine (stopped again by `close`);
    anything else is given to `ray.init(address=...)` (HOST:6379, auto, ray://HOST:10001)."""

    def __init__(self, address: str, *, num_cpus: int | None = None, task_retries: int = TASK_RETRIES) -> None:
        ray = import_ray()
        options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
        if address == "local":
            options.update(address="local", include_dashboard=False, num_cpus=num_cpus)
        else:
            options["address"] = address
        try:
            ray.init(**options)
        except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError… by cause
            detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            where = "start a local Ray instance" if address == "local" else f"reach the Ray cluster at {address}"
            raise ClusterUnavailable(f"cannot {where}: {detail}") from None
        self._ray = ray
        self._retries = task_retries
        self._review = ray.remote(max_retries=task_retries, retry_exceptions=False, num_cpus=1)(review_game_detached)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.in_flight_limit = max(2, cpus * TASKS_IN_FLIGHT_PER_CPU)

    def run(
        self,
        tasks: Sequence[GameTask],
        stop: threading.Event,
        on_result: ResultCallback,
        wanted: Callable[[GameTask], bool],
        on_positions: PositionsCallback,
    ) -> None:
        ray = self._ray
        waiting = deque(tasks)
        in_flight: dict[Any, GameTask] = {}
        while waiting or in_flight:
            if stop.is_set():
                for reference in in_flight:
                    ray.cancel(reference, force=True)
                return
            while waiting and len(in_flight) < self.in_flight_limit:
                task = waiting.popleft()
                if wanted(task):
                    in_flight[self._review.remote(task)] = task
            if not in_flight:
                return
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=WAIT_S)
            for reference in ready:
                task = in_flight.pop(reference)
                on_result(task, self._result(reference, task))

    def _result(self, reference: Any, task: GameTask) -> GameResult:
        exceptions = self._ray.exceptions
        try:
            result = self._ray.get(reference)
        except exceptions.RayError as error:
            lost = isinstance(error, (exceptions.WorkerCrashedError, exceptions.NodeDiedError, exceptions.ObjectLostError))
            detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            if lost:
                message = f"the Ray workers reviewing it died {1 + self._retries} times ({detail})"
                return GameResult(key=task.key, error=message, error_kind="worker-lost")
            return GameResult(key=task.key, error=f"the Ray task failed: {detail}", error_kind="task-failed")
        if not isinstance(result, GameResult):
            return GameResult(key=task.key, error="the Ray task gave no result", error_kind="task-failed")
        return result

    def close(self) -> None:
        self._ray.shutdown()
