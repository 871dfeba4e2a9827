"""Opening an engine by command, by name, or the best one available for a kind of game."""

from __future__ import annotations

import logging
import shlex
from typing import Sequence

from reviewer.core.engines.base import Engine, EngineNotFound
from reviewer.core.engines.discovery import INSTALL_HINT, EngineInfo, find_engines
from reviewer.core.errors import EngineError
from reviewer.core.gametree import GameKind

__all__ = ["open_engine"]

log = logging.getLogger(__name__)


def _command_list(command: Sequence[str] | str) -> list[str]:
    parts = shlex.split(command) if isinstance(command, str) else [str(part) for part in command]
    if not parts:
        raise EngineNotFound("the engine command is empty")
    return parts


def _open_uci(command: Sequence[str], threads: int | None) -> Engine:
    from reviewer.core.engines.uci import UciEngine

    return UciEngine(list(command), threads=threads)


def _open_katago(command: Sequence[str], threads: int | None, name: str = "KataGo") -> Engine:
    from reviewer.core.engines.katago import KataGoEngine

    command = list(command)
    if threads and "-override-config" not in command:
        command += ["-override-config", f"numSearchThreadsPerAnalysisThread={int(threads)}"]
    return KataGoEngine(command, name=name)


def _open_builtin() -> Engine:
    from reviewer.core.engines.builtin_go import BuiltinGoEngine

    return BuiltinGoEngine()


def _open_info(info: EngineInfo, threads: int | None) -> Engine:
    if info.status == "missing":
        raise EngineNotFound(f"{info.name} is not installed: {info.detail}")
    if info.status == "broken":
        raise EngineNotFound(f"{info.name} does not work: {info.detail}")
    if info.status == "needs-tuning":
        raise EngineNotFound(f"{info.name} would first tune OpenCL for a long time: {INSTALL_HINT}")
    if info.protocol == "builtin":
        return _open_builtin()
    if info.protocol == "uci":
        return _open_uci(info.command, threads)
    return _open_katago(info.command, threads, name=info.name)


def open_engine(
    kind: GameKind,
    name: str | None = None,
    command: Sequence[str] | str | None = None,
    threads: int | None = None,
) -> Engine:
    """A running engine for `kind` ("chess" or "go").

    - `command`: run it as given: a UCI engine for chess, KataGo's analysis engine for Go;
    - `name`: an engine `find_engines()` lists ("stockfish", "katago", "builtin", or a name from
      engines.json);
    - neither: the best available: Stockfish for chess; KataGo for Go when it is installed and
      starts, else the built-in engine.
    Raises EngineNotFound with what to do when nothing fits.
    """
    if kind not in ("chess", "go"):
        raise ValueError(f"unknown kind of game: {kind!r}")
    if command is not None:
        parts = _command_list(command)
        return _open_uci(parts, threads) if kind == "chess" else _open_katago(parts, threads)
    engines = find_engines(kind=kind)
    if name is not None:
        wanted = name.strip().lower()
        for engine in engines:
            if engine.name.lower() == wanted:
                return _open_info(engine, threads)
        known = ", ".join(engine.name for engine in engines) or "none"
        raise EngineNotFound(f"no {kind} engine named {name!r} (known: {known}); {INSTALL_HINT}")
    if kind == "chess":
        for engine in engines:
            if engine.usable and engine.protocol == "uci":
                return _open_info(engine, threads)
        raise EngineNotFound(f"no chess engine found: {INSTALL_HINT} (or apt-get install stockfish)")
    for engine in engines:
        if engine.usable and engine.protocol == "katago":
            try:
                return _open_info(engine, threads)
            except EngineError as error:
                log.warning("%s does not start (%s); using the built-in Go engine", engine.name, error)
    return _open_builtin()
