"""How the engine registry opens a UCI engine: found by discovery, or run from a command given as is."""

from __future__ import annotations

from reviewer.core.engines.base import Engine
from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.engines.uci import UciEngine

__all__ = ["open_command", "open_found"]


def open_command(command: list[str], threads: int | None, start_in_background: bool = False) -> Engine:
    """A UCI engine run as given (`--engine-cmd` for chess); it starts at once whatever is asked."""
    return UciEngine(list(command), threads=threads)


def open_found(info: EngineInfo, threads: int | None, start_in_background: bool = False) -> Engine:
    """A UCI engine discovery found, with the user's options (threads, hash_mb) from engines.json."""
    return UciEngine(list(info.command), threads=threads or info.int_option("threads"), hash_mb=info.int_option("hash_mb"))
