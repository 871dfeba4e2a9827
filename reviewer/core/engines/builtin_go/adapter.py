"""How the engine registry opens the built-in Go engine: listed by discovery, or in the place of a
KataGo that is missing, fails to start or cannot play the board."""

from __future__ import annotations

from reviewer.core.engines.base import Engine
from reviewer.core.engines.builtin_go.engine import BuiltinGoEngine
from reviewer.core.engines.discovery import EngineInfo

__all__ = ["open_fallback", "open_found"]


def open_fallback() -> Engine:
    return BuiltinGoEngine()


def open_found(info: EngineInfo, threads: int | None, start_in_background: bool = False) -> Engine:
    return BuiltinGoEngine()
