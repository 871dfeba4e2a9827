"""Reviewing many games: `reviewer batch` (docs/architecture.md, "Services").

    plan = plan_batch(["games/", "more.pgn"], player="Carlsen")   # the games, as text
    outcome = run_batch(plan.games, settings, BatchStore(), LocalExecutor(cache), cache=cache, stop=stop)
    outcome.reports(plan.games)                                    # reviewer.report/1 + source

`RayExecutor` (ray_executor.py, needs the `cluster` extra) runs the same batch on a Ray cluster.
"""

from reviewer.core.services.batch.local import LocalExecutor
from reviewer.core.services.batch.plan import BatchGame, BatchPlan, find_game_files, game_key, plan_batch, plays_in
from reviewer.core.services.batch.runner import (
    BatchOutcome,
    BatchProgress,
    BatchSettings,
    Executor,
    GameEvent,
    run_batch,
)
from reviewer.core.services.batch.store import BatchStore, FinishedGame, StoreError, default_store_path
from reviewer.core.services.batch.task import EngineSettings, GameResult, GameTask, review_game, review_game_detached

__all__ = [
    "BatchGame",
    "BatchOutcome",
    "BatchPlan",
    "BatchProgress",
    "BatchSettings",
    "BatchStore",
    "EngineSettings",
    "Executor",
    "FinishedGame",
    "GameEvent",
    "GameResult",
    "GameTask",
    "LocalExecutor",
    "StoreError",
    "default_store_path",
    "find_game_files",
    "game_key",
    "plan_batch",
    "plays_in",
    "review_game",
    "review_game_detached",
    "run_batch",
]
