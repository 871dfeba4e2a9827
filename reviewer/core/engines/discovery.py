"""Finding engines: the installed KataGo, PATH and /usr/games, the user's engines.json, the built-in.

`find_engines()` lists every engine it knows of, each with a status:
- `ok`: found and answered (version read);
- `missing`: not found (its `detail` says how to install it);
- `broken`: found but does not run;
- `needs-tuning`: KataGo that would start a long OpenCL tuning first.
Stockfish, KataGo and the built-in Go engine are always listed, found or not.

User engines live in `<config dir>/engines.json`:
    {"engines": [{"name": "lc0", "kind": "chess", "protocol": "uci", "command": ["lc0"]},
                 {"name": "katago-gpu", "kind": "go", "protocol": "katago",
                  "command": ["/opt/katago", "analysis", "-config", "a.cfg", "-model", "m.bin.gz"]}]}
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from reviewer.core import paths
from reviewer.core.engines import install
from reviewer.core.games.support import game_support, kind_of_protocol, registered_games
from reviewer.core.gametree import GameKind

__all__ = ["INSTALL_HINT", "EngineInfo", "builtin_engine_info", "find_engine", "find_engines", "settings_path"]

Protocol = Literal["uci", "katago", "builtin"]
Status = Literal["ok", "missing", "broken", "needs-tuning"]
INSTALL_HINT = "run `reviewer engines install`"
SETTINGS_NAME = "engines.json"
VERSION_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class EngineInfo:
    name: str
    kind: GameKind
    protocol: Protocol
    command: tuple[str, ...]
    version: str | None
    status: Status
    detail: str = ""  # where it was found, or why it is not usable and what to do
    source: str = ""  # "installed", "path", "settings", "builtin"
    # the user's options from engines.json: threads, hash_mb, visits (ints), model (a path)
    options: tuple[tuple[str, int | str], ...] = ()
    # KataGo whose network Reviewer's own search searches in-process (`registry.engines_as_run`)
    searched_in_process: bool = False
    shown_name: str = ""  # what people call it where its name and version do not say ("" where they do)

    @property
    def usable(self) -> bool:
        return self.status == "ok"

    def int_option(self, key: str) -> int | None:
        """The user's whole-number option `key` (threads, hash_mb, visits), None when not given."""
        value = dict(self.options).get(key)
        return value if isinstance(value, int) else None

    def text_option(self, key: str) -> str | None:
        """The user's text option `key` (model), None when not given."""
        value = dict(self.options).get(key)
        return value if isinstance(value, str) else None


@dataclass
class _Found:
    engines: list[EngineInfo] = field(default_factory=list)

    def replace_or_add(self, info: EngineInfo) -> None:
        """A user's engine of the same name takes the place of the one found."""
        for index, engine in enumerate(self.engines):
            if engine.name.lower() == info.name.lower():
                self.engines[index] = info
                return
        self.engines.append(info)

    def add(self, info: EngineInfo) -> None:
        names = {e.name for e in self.engines}
        name, n = info.name, 2
        while name in names:
            name, n = f"{info.name}-{n}", n + 1
        self.engines.append(info if name == info.name else _renamed(info, name))


def _renamed(info: EngineInfo, name: str) -> EngineInfo:
    return replace(info, name=name)


OPTION_NUMBERS = ("threads", "hash_mb", "visits")


def _options(data: object) -> tuple[tuple[str, int | str], ...]:
    """The usable options of an engines.json entry; anything else is left out."""
    if not isinstance(data, dict):
        return ()
    found: list[tuple[str, int | str]] = []
    for key in OPTION_NUMBERS:
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            found.append((key, value))
    if isinstance(data.get("model"), str) and data["model"].strip():
        found.append(("model", data["model"].strip()))
    return tuple(found)


def settings_path() -> Path:
    return paths.config_dir() / SETTINGS_NAME


def _run_quietly(command: Sequence[str], stdin_text: str = "", timeout_s: float = VERSION_TIMEOUT_S) -> str | None:
    try:
        done = subprocess.run(list(command), input=stdin_text, capture_output=True, text=True, errors="replace",
                              timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    return done.stdout + done.stderr


def uci_version(command: Sequence[str]) -> str | None:
    """The `id name` a UCI engine gives (e.g. 'Stockfish 16'), or None when it does not answer."""
    output = _run_quietly(command, "uci\nquit\n")
    if output is None:
        return None
    match = re.search(r"^id name (.+)$", output, flags=re.MULTILINE)
    return match.group(1).strip() if match else None


def katago_binary_version(binary: str) -> str | None:
    output = _run_quietly([binary, "version"])
    match = re.search(r"KataGo v?(\d+\.\d+(?:\.\d+)?)", output or "")
    return match.group(1) if match else None


def _stockfish() -> EngineInfo:
    found = install.stockfish_path()
    if found is None:
        return EngineInfo("stockfish", "chess", "uci", (), None, "missing",
                          f"not found on PATH or in /usr/games; {INSTALL_HINT} (or apt-get install stockfish)", "path")
    version = uci_version([str(found)])
    if version is None:
        return EngineInfo("stockfish", "chess", "uci", (str(found),), None, "broken",
                          f"{found} does not answer UCI", "path")
    return EngineInfo("stockfish", "chess", "uci", (str(found),), version, "ok", str(found), "path")


def _installed_katago() -> EngineInfo | None:
    katago = install.installed_katago()
    if katago is None:
        return None
    command = tuple(katago.command())
    version = katago_binary_version(str(katago.launcher))
    if version is None:
        return EngineInfo("katago", "go", "katago", command, katago.version, "broken",
                          f"{katago.launcher} does not run; {INSTALL_HINT} --force", "installed")
    if katago.tuning_status == "broken":
        return EngineInfo("katago", "go", "katago", command, version, "broken",
                          f"did not start: {katago.problem}; {INSTALL_HINT}", "installed")
    tuning_missing = katago.tuning_files and not all(Path(p).is_file() for p in katago.tuning_files)
    if katago.tuning_status == "needs-tuning" or tuning_missing:
        return EngineInfo("katago", "go", "katago", command, version, "needs-tuning",
                          f"OpenCL tuning files are missing; {INSTALL_HINT}", "installed")
    return EngineInfo("katago", "go", "katago", command, version, "ok",
                      f"{katago.home} (model {katago.default_model})", "installed")


def _system_katago() -> EngineInfo | None:
    """A katago binary on PATH or in /usr/games, usable when a model sits beside it."""
    found = shutil.which("katago") or next(
        (str(p) for p in (Path("/usr/games/katago"), Path("/usr/local/bin/katago")) if p.is_file()), None
    )
    if found is None:
        return None
    if Path(found).resolve() == (install.katago_home() / "katago").resolve():
        return None
    version = katago_binary_version(found)
    if version is None:
        return EngineInfo("katago", "go", "katago", (found,), None, "broken", f"{found} does not run", "path")
    folder = Path(found).resolve().parent
    models = sorted(folder.glob("*.bin.gz")) + sorted(folder.glob("*.bin"))
    configs = sorted(folder.glob("*analysis*.cfg"))
    if not models:
        return EngineInfo("katago", "go", "katago", (found,), version, "broken",
                          f"{found} has no model beside it; {INSTALL_HINT} or add it to {settings_path()}", "path")
    command = [found, "analysis", "-model", str(models[0])]
    if configs:
        command += ["-config", str(configs[0])]
    return EngineInfo("katago", "go", "katago", tuple(command), version, "ok", found, "path")


def _builtin() -> EngineInfo:
    """The built-in engine, of the game whose fallback engine it is."""
    kind = next((support.kind for support in registered_games() if support.fallback_engine == "builtin"), "")
    try:
        version = game_support(kind).fallback_version()
    except Exception as error:  # the engine is optional; report, do not fail the listing
        return EngineInfo("builtin", kind, "builtin", (), None, "broken", f"cannot load: {error}", "builtin")
    return EngineInfo("builtin", kind, "builtin", (), version, "ok", "built-in Monte Carlo engine", "builtin")


def _settings_engines(check: bool) -> tuple[list[EngineInfo], list[str]]:
    path = settings_path()
    if not path.is_file():
        return [], []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = data.get("engines", []) if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise ValueError('expected {"engines": [...]}')
    except (OSError, ValueError) as error:
        return [], [f"{path}: ignored ({error})"]
    engines: list[EngineInfo] = []
    problems: list[str] = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            problems.append(f"{path}: engine {index + 1} ignored: not an object with a name and a command")
            continue
        try:
            name = str(entry["name"]).strip()
            protocol = str(entry.get("protocol", "uci")).lower()
            kind = str(entry.get("kind") or kind_of_protocol(protocol)).lower()
            command = entry["command"]
            command = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
            if not name or not command or protocol not in ("uci", "katago") or kind not in _known_kinds():
                raise ValueError("needs a name, a command, protocol uci/katago and kind chess/go")
        except KeyError as error:
            problems.append(f'{path}: engine {index + 1} ignored: no "{error.args[0]}"')
            continue
        except (TypeError, ValueError, AttributeError) as error:
            problems.append(f"{path}: engine {index + 1} ignored: {error}")
            continue
        options = _options(entry.get("options"))
        executable = shutil.which(command[0]) or (command[0] if Path(command[0]).is_file() else None)
        if executable is None:
            engines.append(EngineInfo(name, kind, protocol, tuple(command), None, "missing",  # type: ignore[arg-type]
                                      f"{command[0]} not found", "settings", options))
            continue
        version, status = None, "ok"
        if check and protocol == "uci":
            version = uci_version(command)
            status = "ok" if version is not None else "broken"
        elif check and Path(executable).name.lower().startswith("katago"):
            version = katago_binary_version(executable)  # KataGo itself; a wrapper is taken on trust
            status = "ok" if version is not None else "broken"
        engines.append(EngineInfo(name, kind, protocol, tuple(command), version, status,  # type: ignore[arg-type]
                                  str(path), "settings", options))
    return engines, problems


def _known_kinds() -> set[str]:
    return {support.kind for support in registered_games()}


def _reviews(kind: GameKind | None, protocol: str) -> bool:
    """Whether engines of `protocol` review games of `kind` (of some game, when None)."""
    return any(protocol in support.engine_protocols for support in registered_games() if kind in (None, support.kind))


def find_engines(
    check: bool = True, problems: list[str] | None = None, kind: GameKind | None = None
) -> list[EngineInfo]:
    """Every engine we know of (of `kind`, when given), best first within each kind.

    `check` runs each found program once to read its version; `problems` collects settings errors.
    """
    found = _Found()
    settings, settings_problems = _settings_engines(check)
    if problems is not None:
        problems.extend(settings_problems)
    if _reviews(kind, "uci"):
        found.add(_stockfish())
    if _reviews(kind, "katago"):
        installed = _installed_katago()
        system = _system_katago()
        if installed is not None:
            found.add(installed)
        if system is not None:
            found.add(system)
        if installed is None and system is None:
            found.add(EngineInfo("katago", "go", "katago", (), None, "missing",
                                 f"not installed; {INSTALL_HINT}", "installed"))
        found.add(_builtin())
    for engine in settings:
        if kind in (None, engine.kind):
            found.replace_or_add(engine)
    return found.engines


def builtin_engine_info() -> EngineInfo | None:
    """The built-in Go engine, found without running any program; None when engines.json gives
    another engine that name (then the full listing decides)."""
    settings, _ = _settings_engines(check=False)
    if any(engine.name.lower() == "builtin" for engine in settings):
        return None
    return _builtin()


def find_engine(name: str, kind: GameKind | None = None) -> EngineInfo | None:
    wanted = name.strip().lower()
    if wanted == "builtin" and _reviews(kind, "builtin"):
        builtin = builtin_engine_info()
        if builtin is not None:
            return builtin
    for engine in find_engines(kind=kind):
        if engine.name.lower() == wanted:
            return engine
    return None
