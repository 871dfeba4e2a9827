"""The user's own engines in engines.json: add one after asking the program what it speaks, remove
one, change its options. `discovery` reads the same file; every write here is atomic.

    probe_engine(command) -> Probed          starts the program; UCI, KataGo analysis, or an error
    add_engine(probed, name) -> UserEngine   writes it to engines.json
    remove_engine(name), set_options(name, EngineOptions), user_engines()

A probe starts the program once per protocol it tries, with a timeout, and never leaves it
running. A program that answers GTP is recognised and refused with what to run instead: Reviewer
analyses Go through KataGo's analysis engine, which a GTP session does not offer.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from reviewer.core import paths
from reviewer.core.atomic import write_text_atomic
from reviewer.core.engines import install
from reviewer.core.engines.discovery import katago_binary_version, settings_path
from reviewer.core.games.support import kind_of_protocol
from reviewer.core.gametree import GameKind

__all__ = [
    "EngineOptions",
    "ProbeError",
    "Probed",
    "UserEngine",
    "add_engine",
    "engine_command",
    "probe_engine",
    "remove_engine",
    "set_options",
    "user_engines",
]

UCI_TIMEOUT_S = 10.0
KATAGO_TIMEOUT_S = 180.0  # KataGo on a CPU loads its model for a while before it answers
GTP_TIMEOUT_S = 10.0
UserProtocol = Literal["uci", "katago"]
MODEL_NEEDED = "needs a model file"  # in the message of a KataGo added without one (the GUI asks for it)
USER_KATAGO_CONFIG = ("user-katago", "analysis.cfg")


class ProbeError(ValueError):
    """The program cannot be used as an engine; the message says why and what to do (one line)."""


@dataclass(frozen=True)
class EngineOptions:
    """What a user may set per engine; None leaves the engine's own default."""

    threads: int | None = None
    hash_mb: int | None = None  # UCI engines
    visits: int | None = None  # KataGo: maxVisits when the search limit names none
    model: str | None = None  # KataGo: the network file

    def to_json(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if value is not None}

    @classmethod
    def from_json(cls, data: object) -> EngineOptions:
        if not isinstance(data, dict):
            return cls()

        def number(key: str) -> int | None:
            value = data.get(key)
            return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None

        model = data.get("model")
        return cls(number("threads"), number("hash_mb"), number("visits"), str(model) if model else None)


@dataclass(frozen=True)
class Probed:
    """What a program said it is."""

    protocol: UserProtocol
    kind: GameKind
    name: str  # its own name and version: "Stockfish 16", "KataGo 1.18.1"
    command: tuple[str, ...]


@dataclass(frozen=True)
class UserEngine:
    name: str
    kind: GameKind
    protocol: UserProtocol
    command: tuple[str, ...]
    options: EngineOptions = field(default_factory=EngineOptions)


# ------------------------------------------------------------------------------------ probing


def _converse(command: Sequence[str], send: str, finished: Callable[[list[str]], bool | None], timeout_s: float) -> list[str]:
    """Start `command`, write `send`, collect stdout lines until `finished(lines)` is True (a match) or
    False (a wrong answer), the program exits, or `timeout_s` passes. The program is always stopped."""
    try:
        process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True, errors="replace", bufsize=1)
    except OSError as error:
        raise ProbeError(f"cannot start {command[0]}: {error.strerror or error}") from error
    lines: list[str] = []
    received: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            received.put(line.rstrip("\r\n"))
        received.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert process.stdin is not None
        try:
            process.stdin.write(send)
            process.stdin.flush()
        except OSError:
            pass
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = received.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            lines.append(line)
            if finished(lines) is not None:
                break
    finally:
        _stop(process)
        reader.join(timeout=5.0)  # the program is gone: its output ends
        if process.stdout is not None:
            process.stdout.close()
    return lines


def _stop(process: subprocess.Popen[str]) -> None:
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _uci_answer(lines: list[str]) -> bool | None:
    last = lines[-1].strip()
    if last == "uciok":
        return True
    if last == "uci" or last.startswith(("{", "?", "=")):  # an echo, KataGo JSON or a GTP reply: not UCI
        return False
    return None


def _probe_uci(command: Sequence[str]) -> Probed | None:
    lines = _converse(command, "uci\n", _uci_answer, UCI_TIMEOUT_S)
    if not lines or lines[-1].strip() != "uciok":
        return None
    names = [line[8:].strip() for line in lines if line.startswith("id name ")]
    return Probed("uci", "chess", names[0] if names else Path(command[0]).name, tuple(command))


def _katago_answer(lines: list[str]) -> bool | None:
    last = lines[-1].strip()
    if last.startswith("{"):
        try:
            data = json.loads(last)
        except ValueError:
            return False
        if isinstance(data, dict) and data.get("id") == "reviewer-probe":
            return True
        return None  # a warning or another message; keep listening
    if last.startswith(("?", "=", "id ", "uciok")):
        return False
    return None


def _probe_katago_analysis(command: Sequence[str], timeout_s: float) -> Probed | None:
    query = json.dumps({"id": "reviewer-probe", "action": "query_version"}) + "\n"
    lines = _converse(command, query, _katago_answer, timeout_s)
    for line in reversed(lines):
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and data.get("id") == "reviewer-probe" and "version" in data:
            return Probed("katago", "go", f"KataGo {data['version']}", tuple(command))
    return None


def _gtp_answer(lines: list[str]) -> bool | None:
    last = lines[-1].strip()
    if last and not last.startswith(("=", "?")):
        return False  # GTP answers every command with "= ..." or "? ..."
    return True if sum(1 for line in lines if line.startswith("=")) >= 2 else None


def _gtp_name(command: Sequence[str]) -> str | None:
    lines = _converse(command, "name\nversion\nquit\n", _gtp_answer, GTP_TIMEOUT_S)
    answers = [line[1:].strip() for line in lines if line.startswith("=")]
    if len(answers) < 2:
        return None
    return " ".join(answers[:2]).strip() or "a GTP engine"


def _katago_analysis_command(binary: str, model: str | None) -> list[str]:
    """`katago analysis` for a bare KataGo binary: the given model (else the installed one) and the
    installed analysis config (else one written for it beside the installed engines)."""
    installed = install.installed_katago()
    chosen_model = model or (str(installed.model_path()) if installed is not None else None)
    if not chosen_model:
        raise ProbeError(f"{Path(binary).name} is KataGo, which {MODEL_NEEDED} (a .bin.gz network): choose one")
    if not Path(chosen_model).is_file():
        raise ProbeError(f"the KataGo model {chosen_model} does not exist")
    if installed is not None and installed.config.is_file():
        config = installed.config
    else:
        config = paths.engines_dir().joinpath(*USER_KATAGO_CONFIG)
        if not config.is_file():
            write_text_atomic(config, install.analysis_config(config.parent))
    return [binary, "analysis", "-model", chosen_model, "-config", str(config)]


def engine_command(text: str) -> list[str]:
    """The command line of `text` (a path, or a path and its arguments), the program resolved."""
    try:
        parts = shlex.split(text.strip())
    except ValueError as error:
        raise ProbeError(f"cannot read the command: {error}") from error
    if not parts:
        raise ProbeError("no program given")
    program = parts[0]
    found = shutil.which(program) or (program if Path(program).is_file() else None)
    if found is None:
        raise ProbeError(f"{program} does not exist")
    if not os.access(found, os.X_OK):
        raise ProbeError(f"{found} is not a program (it cannot be run)")
    return [os.path.abspath(found) if os.sep in found else found, *parts[1:]]


def probe_engine(command: Sequence[str] | str, model: str | None = None, katago_timeout_s: float = KATAGO_TIMEOUT_S) -> Probed:
    """Start the program and find out what it speaks: UCI (a chess engine) or KataGo's analysis
    engine (Go). A bare KataGo binary is run as `katago analysis` with `model` (or the installed
    model) and the installed config. Raises ProbeError with the reason and what to do."""
    parts = engine_command(command) if isinstance(command, str) else list(command)
    if not parts:
        raise ProbeError("no program given")
    uci = _probe_uci(parts)
    if uci is not None:
        return uci
    if len(parts) == 1 and katago_binary_version(parts[0]) is not None:
        parts = _katago_analysis_command(parts[0], model)
    elif model and "-model" not in parts:
        parts = [*parts, "-model", model]
    katago = _probe_katago_analysis(parts, katago_timeout_s)
    if katago is not None:
        return katago
    gtp = _gtp_name(parts)
    if gtp is not None:
        raise ProbeError(
            f"{_program_name(parts)} answers GTP ({gtp}), which has no analysis for review: for Go add KataGo "
            "itself (its analysis engine is used), for chess a UCI engine"
        )
    raise ProbeError(
        f"{_program_name(parts)} answered neither UCI (chess engines) nor KataGo's analysis protocol (Go) "
        "nor GTP: is it an engine?"
    )


def _program_name(parts: Sequence[str]) -> str:
    """The program's file name; for `python script.py`, the script's."""
    names = [Path(part).name for part in parts if not part.startswith("-")]
    if len(names) > 1 and names[0].lower().startswith("python"):
        return names[1]
    return names[0] if names else "the program"


# ----------------------------------------------------------------------------- engines.json


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {"engines": []}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{path} cannot be read ({error}); fix or remove it first") from error
    if not isinstance(data, dict) or not isinstance(data.get("engines", []), list):
        raise ValueError(f'{path} is not {{"engines": [...]}}; fix or remove it first')
    data.setdefault("engines", [])
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _entry_name(entry: object) -> str:
    return str(entry.get("name", "")).strip().lower() if isinstance(entry, dict) else ""


def user_engines(path: Path | None = None) -> list[UserEngine]:
    """The well-formed entries of engines.json (discovery reports the others)."""
    engines = []
    for entry in _read(path or settings_path())["engines"]:
        if not isinstance(entry, dict) or not entry.get("name") or not entry.get("command"):
            continue
        command = entry["command"]
        parts = shlex.split(command) if isinstance(command, str) else [str(part) for part in command]
        protocol: UserProtocol = "katago" if str(entry.get("protocol", "uci")).lower() == "katago" else "uci"
        kind: GameKind = str(entry.get("kind") or kind_of_protocol(protocol))
        engines.append(UserEngine(str(entry["name"]), kind, protocol, tuple(parts), EngineOptions.from_json(entry.get("options"))))
    return engines


def add_engine(probed: Probed, name: str | None = None, options: EngineOptions | None = None,
               path: Path | None = None) -> UserEngine:
    """Write the probed engine to engines.json under `name` (its own name, made unique, by default)."""
    target = path or settings_path()
    data = _read(target)
    taken = {_entry_name(entry) for entry in data["engines"]}
    base = re.sub(r"\s+", "-", (name or probed.name).strip()).lower() or "engine"
    chosen, n = base, 2
    while chosen in taken:
        chosen, n = f"{base}-{n}", n + 1
    engine = UserEngine(chosen, probed.kind, probed.protocol, probed.command, options or EngineOptions())
    entry: dict[str, Any] = {"name": engine.name, "kind": engine.kind, "protocol": engine.protocol,
                             "command": list(engine.command)}
    if engine.options.to_json():
        entry["options"] = engine.options.to_json()
    data["engines"].append(entry)
    _write(target, data)
    return engine


def remove_engine(name: str, path: Path | None = None) -> bool:
    """Remove the entry named `name`; False when there is none."""
    target = path or settings_path()
    data = _read(target)
    kept = [entry for entry in data["engines"] if _entry_name(entry) != name.strip().lower()]
    if len(kept) == len(data["engines"]):
        return False
    data["engines"] = kept
    _write(target, data)
    return True


def set_options(name: str, options: EngineOptions, kind: GameKind, protocol: UserProtocol,
                command: Sequence[str], path: Path | None = None) -> None:
    """Store `options` for the engine `name`. An engine that discovery found (Stockfish on PATH,
    the installed KataGo) gets an entry of its own with the same name and command, which takes its
    place in the list."""
    target = path or settings_path()
    data = _read(target)
    for entry in data["engines"]:
        if _entry_name(entry) == name.strip().lower():
            if options.to_json():
                entry["options"] = options.to_json()
            else:
                entry.pop("options", None)
            break
    else:
        data["engines"].append({"name": name, "kind": kind, "protocol": protocol, "command": list(command),
                                "options": options.to_json()})
    _write(target, data)
