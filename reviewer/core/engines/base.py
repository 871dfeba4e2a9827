"""The engine interface every analyser speaks (UCI, KataGo, the built-in Go engine).

Adapters are synchronous and stoppable: `analyse` is a generator that yields one finished
`Evaluation` per position as soon as it has it (in any order), and returns early, without
raising, once `stop` is set. The caller owns the engine and closes it in a `finally`.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence
from typing import Protocol, runtime_checkable

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.errors import EngineError
from reviewer.core.gametree import Game, GameKind

__all__ = ["Engine", "EngineCrashed", "EngineError", "EngineNotFound", "EngineTimeout", "EngineUnsuitable"]


class EngineNotFound(EngineError):
    """The engine binary or command does not exist or cannot be executed."""


class EngineCrashed(EngineError):
    """The engine process died or broke the protocol."""


class EngineTimeout(EngineError):
    """The engine stopped answering within the allowed time."""


@runtime_checkable
class Engine(Protocol):
    kind: GameKind  # the game it analyses

    @property
    def identity(self) -> str:
        """Name, version and options that change results: part of the cache key."""
        ...

    def analyse(
        self,
        game: Game,
        plies: Sequence[int],
        limit: Limit,
        stop: threading.Event,
    ) -> Generator[Evaluation, None, None]:
        """Evaluate main-line positions `plies` of `game` (0 = the start), yielding each when done."""
        ...

    def close(self) -> None:
        ...


class EngineUnsuitable(EngineError):
    """The engine runs but cannot analyse this game (Chess960 without UCI_Chess960, a UCI program for Go)."""
