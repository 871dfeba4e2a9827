"""Opening an engine by command, by name, or the best one available for a kind of game."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shlex
import shutil
import threading
from collections.abc import Sequence
from typing import Any

from reviewer.core.engines.base import Engine, EngineNotFound, EngineUnsuitable
from reviewer.core.engines.discovery import INSTALL_HINT, EngineInfo, builtin_engine_info, find_engines
from reviewer.core.errors import EngineError
from reviewer.core.games.facets import OpenFound
from reviewer.core.games.support import GameSupport, game_support, registered_games
from reviewer.core.gametree import GameKind

__all__ = [
    "KATAGO_MAX_BOARD",
    "EnginePlan",
    "KataGoDoesNotStart",
    "board_beyond_usual_engine",
    "engine_fingerprint",
    "engines_as_run",
    "import_fallback_engines",
    "katago_plays",
    "open_engine",
]

log = logging.getLogger(__name__)

# The largest board of KataGo's usual build (COMPILE_MAX_BOARD_LEN=19). A KataGo given with
# --engine-cmd is asked anyway: it may be built for more, and says so when it is not.
KATAGO_MAX_BOARD = 19


def katago_plays(board_size: tuple[int, int] | None) -> bool:
    """Whether a usual KataGo build plays a board of (width, height); True when unknown."""
    return board_size is None or max(board_size) <= KATAGO_MAX_BOARD


def board_beyond_usual_engine(kind: GameKind, board_size: tuple[int, int]) -> tuple[int, int] | None:
    """`board_size` when the usual engine of `kind` cannot play it (the fallback engine then does),
    else None: the games that can share one engine are those with the same answer."""
    if not game_support(kind).fallback_engine or katago_plays(board_size):
        return None
    return board_size


_adapter_import_lock = threading.Lock()


def import_fallback_engines() -> None:
    """Import the in-process fallback engines (the built-in Go engine: numba and its kin) one thread
    at a time: engine discovery, the cache look-up and an analysis may all want them at once, and two
    threads importing one package can leave one of them with a half-made module."""
    for support in registered_games():
        if support.fallback_opener_ref:
            with _adapter_import_lock:
                support.fallback_opener_ref.get()


def _command_list(command: Sequence[str] | str) -> list[str]:
    parts = shlex.split(command) if isinstance(command, str) else [str(part) for part in command]
    if not parts:
        raise EngineNotFound("the engine command is empty")
    return parts


def _opener(protocol: str) -> OpenFound:
    """The opener of a found engine of `protocol`, from the game whose engines speak it."""
    for support in registered_games():
        reference = support.engine_openers.get(protocol)
        if reference:
            with _adapter_import_lock:
                return reference.get()
    raise EngineNotFound(f"no game opens engines of the protocol {protocol!r}")


def _open_fallback(support: GameSupport) -> Engine:
    with _adapter_import_lock:
        open_fallback = support.fallback_opener_ref.get()
    return open_fallback()


def _open_info(info: EngineInfo, threads: int | None, start_in_background: bool = False) -> Engine:
    if info.status == "missing":
        raise EngineNotFound(f"{info.name} is not installed: {info.detail}")
    if info.status == "broken":
        raise EngineNotFound(f"{info.name} does not work: {info.detail}")
    if info.status == "needs-tuning":
        raise EngineNotFound(f"{info.name} would first tune OpenCL for a long time: {INSTALL_HINT}")
    return _opener(info.protocol)(info, threads, start_in_background=start_in_background)


class KataGoDoesNotStart(EngineError):
    """Every KataGo found failed to start, and the built-in engine was not to take its place."""


class EnginePlan:
    """What `open_engine(kind, name, command, board_size=...)` runs, with engine discovery done once:
    `runs_katago` (to choose a Go limit) and every `open` share the candidates found on first need.

    A found engine that fails to start is dropped: the next `open` does not try it again, and
    `runs_katago` turns False when no KataGo is left (the built-in engine then plays Go).
    """

    def __init__(
        self,
        kind: GameKind,
        name: str | None = None,
        command: Sequence[str] | str | None = None,
        board_size: tuple[int, int] | None = None,
    ) -> None:
        self.support = game_support(kind)  # ValueError for a game nobody registered
        self.kind: GameKind = kind
        self.name = name
        self.command = command
        self.board_size = board_size
        self._found: list[EngineInfo] | EngineError | None = None

    @property
    def candidates(self) -> tuple[EngineInfo, ...]:
        """The engines `open` tries, in order (see `_candidates`); raises what `_candidates` raised."""
        return tuple(self._candidates())

    def _candidates(self) -> list[EngineInfo]:
        if self._found is None:
            try:
                self._found = _candidates(self.kind, self.name, self.board_size)
            except EngineError as error:
                self._found = error
        if isinstance(self._found, EngineError):
            raise self._found
        return self._found

    @property
    def runs_katago(self) -> bool:
        """Whether `open` runs KataGo rather than the built-in engine (for Go; False for chess)."""
        if not self.support.fallback_engine:
            return False
        if self.command is not None:
            return True
        usual = self.support.engine_protocols[0]
        try:
            return any(engine.protocol == usual for engine in self._candidates())
        except EngineError:  # no such engine, or one that cannot play the board: opening it will say so
            return False

    def preload_network(self) -> bool:
        """Build the in-process network of the KataGo that `open` would run, for `board_size`, ahead
        of its first search (seconds the first time in a process; not on a GUI thread). False when
        no KataGo would run or its network is not evaluated in-process."""
        if not self.support.preloads_network or self.board_size is None:
            return False
        if self.command is not None:
            return self.support.preload_network(_command_list(self.command), self.board_size)
        usual = self.support.engine_protocols[0]
        try:
            found = next((engine for engine in self._candidates() if engine.protocol == usual and engine.usable), None)
        except EngineError:
            return False
        return found is not None and self.support.preload_network(found, self.board_size)

    def open(
        self, threads: int | None = None, *, fallback_to_builtin: bool = True, start_in_background: bool = False
    ) -> Engine:
        """A running engine. For Go without a name or a command, a found KataGo that does not start
        leaves its place to the built-in engine, or with `fallback_to_builtin=False` raises
        KataGoDoesNotStart (when every KataGo found failed) for the caller to choose a limit anew.
        `start_in_background`: KataGo's process starts while its first searches (the network's
        first visits, in-process) already answer; a start that fails is then raised by the first
        search that needs the process, and leaves no place to the built-in engine."""
        if self.command is not None:
            parts = _command_list(self.command)
            opened: Engine = self.support.open_command(parts, threads, start_in_background=start_in_background)
            return opened
        candidates = self._candidates()
        if self.name is not None:
            return _open_info(candidates[0], threads, start_in_background)
        if not self.support.fallback_engine:
            if not candidates:
                raise EngineNotFound(f"no {self.kind} engine found: {INSTALL_HINT} (or apt-get install {self.support.engine_key})")
            return _open_info(candidates[0], threads)
        failures: list[tuple[str, EngineError]] = []
        for engine in list(candidates):
            try:
                return _open_info(engine, threads, start_in_background)
            except EngineError as error:
                candidates.remove(engine)  # not tried again
                failures.append((engine.name, error))
                if fallback_to_builtin:
                    log.warning("%s does not start (%s); using the built-in Go engine", engine.name, error)
        if failures and not fallback_to_builtin:
            reasons = [str(failures[0][1])] if len(failures) == 1 else [f"{name}: {error}" for name, error in failures]
            raise KataGoDoesNotStart(f"KataGo does not start ({'; '.join(reasons)})")
        return _open_fallback(self.support)


def open_engine(
    kind: GameKind,
    name: str | None = None,
    command: Sequence[str] | str | None = None,
    threads: int | None = None,
    board_size: tuple[int, int] | None = None,
    *,
    fallback_to_builtin: bool = True,
    start_in_background: bool = False,
) -> Engine:
    """A running engine for `kind` ("chess" or "go").

    - `command`: run it as given: a UCI engine for chess, KataGo's analysis engine for Go;
    - `name`: an engine `find_engines()` lists ("stockfish", "katago", "builtin", or a name from
      engines.json);
    - neither: the best available: Stockfish for chess; KataGo for Go when it is installed and
      starts and plays the board (`board_size`, (width, height), when known), else the built-in
      engine (with `fallback_to_builtin=False`, a KataGo found that does not start raises
      KataGoDoesNotStart instead).
    Raises EngineNotFound with what to do when nothing fits, EngineUnsuitable when the engine
    named cannot play the board. `EnginePlan` does the same with discovery shared between calls,
    and tells without starting anything whether Go would be reviewed by KataGo (`runs_katago`).
    """
    return EnginePlan(kind, name, command, board_size).open(
        threads, fallback_to_builtin=fallback_to_builtin, start_in_background=start_in_background
    )


def _candidates(kind: GameKind, name: str | None, board_size: tuple[int, int] | None) -> list[EngineInfo]:
    """The engines `open_engine` tries for `kind`, in order: the one named (EngineNotFound when
    none has the name, EngineUnsuitable when it cannot play the board), else the usable ones of
    the best protocol; for Go, none means the built-in engine."""
    support = game_support(kind)
    fallback = support.fallback_engine
    if fallback and name is None and not katago_plays(board_size):
        return []  # no need to look for KataGo
    if fallback and name is not None and name.strip().lower() == fallback:
        builtin = builtin_engine_info()  # asked for by name: no other engine is started to list it
        if builtin is not None:
            return [builtin]
    engines = find_engines(kind=kind)
    if name is not None:
        wanted = name.strip().lower()
        for engine in engines:
            if engine.name.lower() == wanted:
                if engine.protocol == "katago" and not katago_plays(board_size):
                    raise EngineUnsuitable(_too_big_for_katago(board_size))
                return [engine]
        known = ", ".join(engine.name for engine in engines) or "none"
        raise EngineNotFound(f"no {kind} engine named {name!r} (known: {known}); {INSTALL_HINT}")
    protocol = support.engine_protocols[0]
    return [engine for engine in engines if engine.usable and engine.protocol == protocol]


def _too_big_for_katago(board_size: tuple[int, int] | None) -> str:
    width, height = board_size or (0, 0)
    return f"KataGo plays boards up to {KATAGO_MAX_BOARD}×{KATAGO_MAX_BOARD}, not {width}×{height}; use --engine builtin"


def engine_fingerprint(
    kind: GameKind, name: str | None = None, command: Sequence[str] | str | None = None
) -> str | None:
    """What `open_engine(kind, name, command)` would run, recognisable without running it.

    The program and every argument that names a file (a KataGo model or config, a script) count
    with their size and modification time, so a changed engine gets a new fingerprint (a file the
    engine itself writes, such as a log given as an argument, changes it on every run: the engine is
    then started each time, which costs time but never gives another engine's results). None when
    it cannot be told without running programs (KataGo found by discovery, engines.json names).
    """
    if command is not None:
        try:
            parts = _command_list(command)
        except (EngineNotFound, ValueError):
            return None
        protocol = game_support(kind).engine_protocols[0]
    elif game_support(kind).engine_key == "stockfish" and (name is None or name.strip().lower() == "stockfish"):
        from reviewer.core.engines import install
        from reviewer.core.engines.discovery import settings_path

        found = install.stockfish_path()
        if found is None:
            return None
        # engines.json may rename or replace engines: its state is part of what gets chosen
        parts, protocol = [str(found), f"settings={_file_stamp(str(settings_path()))}"], "uci"
    else:
        return None
    program = shutil.which(parts[0]) or parts[0]
    program_stamp = _file_stamp(program)
    if program_stamp is None:
        return None
    marks = game_support(kind).fingerprint_marks.get(protocol)
    described: list[Any] = [kind, protocol, program_stamp, *(marks.get()(parts) if marks else [])]
    for argument in parts[1:]:
        described.append([argument, _file_stamp(argument)])
    return hashlib.sha256(json.dumps(described).encode("utf-8")).hexdigest()


def _file_stamp(path: str) -> list[Any] | None:
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    if not os.path.isfile(path):
        return None
    return [os.path.realpath(path), status.st_size, status.st_mtime_ns]


def engines_as_run(engines: Sequence[EngineInfo]) -> list[EngineInfo]:
    """`engines` (as `find_engines` lists them) as `open_engine` would run them, each as its game
    lists it (Go: a KataGo whose network Reviewer's own search searches says so). Reads the disk."""
    listed: list[EngineInfo] = []
    for engine in engines:
        reference = game_support(engine.kind).engine_listing.get(engine.protocol) if engine.kind else None
        if reference:
            with _adapter_import_lock:
                as_run = reference.get()
            engine = as_run(engine)
        listed.append(engine)
    return listed
