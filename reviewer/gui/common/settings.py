"""The app's persisted preferences: one typed face over QSettings.

Settings live in an INI file in the user config directory (`reviewer.core.paths.config_dir`),
so `REVIEWER_CONFIG_DIR` moves them like every other file Reviewer writes.
"""

from __future__ import annotations

import hashlib
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, assert_never

from PySide6.QtCore import QByteArray, QSettings

from reviewer.core import paths
from reviewer.core.analysis import Limit
from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.games import game_support
from reviewer.core.gametree import GameKind
from reviewer.core.passes import scheme_text
from reviewer.core.scoring import PRESETS as PRESETS

MAX_RECENT_FILES = 10


_KNOWN_ENGINE_NAMES = {"stockfish": "Stockfish", "katago": "KataGo", "builtin": "Built-in"}


@dataclass(frozen=True)
class EngineChoice:
    """Which engine analyses one kind of game: a known engine by name, or a custom command."""

    kind: GameKind
    name: str | None = None  # e.g. "stockfish", "katago", "builtin"; None = the first one found
    command: str | None = None  # a custom command line; wins over `name` when set

    def describe(self) -> str:
        """A short name for buttons: the program of a custom command, else the engine's name."""
        if self.command:
            try:
                parts = shlex.split(self.command)
            except ValueError:  # unbalanced quotes: the registry will say so when it runs
                parts = self.command.split()
            programs = [Path(part).name for part in parts if not part.startswith("-")]
            if len(programs) > 1 and programs[0].lower().startswith("python"):
                programs = programs[1:]  # a script run by Python is named by the script
            return programs[0] if programs else "custom engine"
        if self.name:
            return _KNOWN_ENGINE_NAMES.get(self.name.lower(), self.name)
        return game_support(self.kind).engine_name


@dataclass(frozen=True)
class LimitChoice:
    """A named search limit offered in the toolbar."""

    label: str
    limit: Limit


CHESS_LIMITS: tuple[LimitChoice, ...] = (
    LimitChoice("Passes · 40k → 5M nodes where in doubt", game_support("chess").default_passes().limit()),
    LimitChoice("Quick · 100k nodes", Limit(nodes=100_000)),
    LimitChoice("Standard · 1M nodes", Limit(nodes=1_000_000)),
    LimitChoice("Deep · depth 22", Limit(depth=22)),
    LimitChoice("Timed · 1 s/move", Limit(movetime_s=1.0)),
)
GO_LIMITS: tuple[LimitChoice, ...] = (
    LimitChoice("Quick · 50 visits", Limit(visits=50)),
    LimitChoice("Standard · 200 visits", Limit(visits=200)),
    LimitChoice("Deep · 1000 visits", Limit(visits=1000)),
    LimitChoice("Passes · 2 → 32 visits where in doubt", game_support("go").default_passes().limit()),
)
DEFAULT_LIMIT_INDEX = 0  # of `limit_choices(kind)`
# KataGo's default review: the whole graph at 2 visits, then 32 where a move lost 2 points or more,
# which a CPU finishes in minutes (the built-in engine keeps the 50-visit default: 2 is too few).
KATAGO_DEFAULT_LIMIT = game_support("go").default_passes().limit()


def default_limit(kind: GameKind, runs_fallback: bool = True) -> Limit:
    """The limit a kind of game is reviewed with until the user picks one; Go's depends on whether
    its fallback engine (`runs_fallback`: the built-in engine) or its usual engine (KataGo) reviews."""
    if game_support(kind).fallback_engine and not runs_fallback:
        return KATAGO_DEFAULT_LIMIT
    return limit_choices(kind)[DEFAULT_LIMIT_INDEX].limit


def limit_choices(kind: GameKind) -> tuple[LimitChoice, ...]:
    unit = game_support(kind).work_unit
    match unit:
        case "nodes":
            return CHESS_LIMITS
        case "visits":
            return GO_LIMITS
        case _:
            assert_never(unit)


def describe_limit(limit: Limit) -> str:
    """'1M nodes', 'depth 22', '1 s/move', '200 visits' (+ ' · 3 lines' with multipv)."""
    parts: list[str] = []
    if limit.scheme is not None:
        try:
            parts.append(scheme_text(limit.scheme))
        except ValueError:
            parts.append(limit.scheme)
    if limit.nodes is not None:
        parts.append(_count(limit.nodes) + " nodes")
    if limit.depth is not None:
        parts.append(f"depth {limit.depth}")
    if limit.movetime_s is not None:
        parts.append(f"{limit.movetime_s:g} s/move")
    if limit.visits is not None:
        parts.append(_count(limit.visits) + " visits")
    if limit.multipv > 1:
        parts.append(f"{limit.multipv} lines")
    return " · ".join(parts) or "no limit"


def _count(value: int) -> str:
    if value >= 1_000_000 and value % 1_000_000 == 0:
        return f"{value // 1_000_000}M"
    if value >= 1000 and value % 1000 == 0:
        return f"{value // 1000}k"
    return str(value)


def engine_label(engine: EngineInfo) -> str:
    """'Stockfish 15.1', 'KataGo 1.18.1', 'Built-in 1.0'; a KataGo whose network Reviewer's own search
    searches is named as that search (`SEARCH_NAME`): its process does not run."""
    if engine.shown_name:
        return engine.shown_name
    name = {"katago": "KataGo", "builtin": "Built-in"}.get(engine.name, engine.name[:1].upper() + engine.name[1:])
    version = engine.version or ""
    if version.lower().startswith(engine.name.lower()):
        return version
    return f"{name} {version}".strip()


def _choice_key(choice: EngineChoice) -> str:
    """A settings key for an engine choice (a command line may hold any character)."""
    text = f"{choice.kind}\n{choice.name or ''}\n{choice.command or ''}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def settings_path() -> Path:
    return paths.config_dir() / "reviewer.ini"


class Settings:
    """Typed access to the preferences. Cheap to create; every instance reads the same file."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path or settings_path()
        self._path.parent.mkdir(parents=True, exist_ok=True)
        self._qsettings = QSettings(str(self._path), QSettings.Format.IniFormat)

    def sync(self) -> None:
        self._qsettings.sync()

    # -- engines and limits ------------------------------------------------------------------
    def engine_choice(self, kind: GameKind) -> EngineChoice:
        name = self._text(f"engines/{kind}/name")
        command = self._text(f"engines/{kind}/command")
        return EngineChoice(kind=kind, name=name or None, command=command or None)

    def set_engine_choice(self, choice: EngineChoice) -> None:
        self._qsettings.setValue(f"engines/{choice.kind}/name", choice.name or "")
        self._qsettings.setValue(f"engines/{choice.kind}/command", choice.command or "")

    def engine_identity(self, choice: EngineChoice) -> str | None:
        """What the engine behind `choice` called itself when it last ran (the cache's engine key)."""
        return self._text(f"identities/{_choice_key(choice)}") or None

    def set_engine_identity(self, choice: EngineChoice, identity: str) -> None:
        self._qsettings.setValue(f"identities/{_choice_key(choice)}", identity)

    def limit(self, kind: GameKind, runs_fallback: bool = True) -> Limit:
        """The limit the user picked for this kind of game, else `default_limit`."""
        group = f"limits/{kind}"
        if not self.has_limit(kind):
            return default_limit(kind, runs_fallback)
        return Limit(
            nodes=self._int_or_none(f"{group}/nodes"),
            depth=self._int_or_none(f"{group}/depth"),
            movetime_s=self._float_or_none(f"{group}/movetime_s"),
            visits=self._int_or_none(f"{group}/visits"),
            multipv=self._int_or_none(f"{group}/multipv") or 1,
            scheme=self._text(f"{group}/scheme") or None,
        )

    def has_limit(self, kind: GameKind) -> bool:
        """Whether the user picked a limit for this kind of game (else `limit` gives the default)."""
        return bool(self._qsettings.contains(f"limits/{kind}/set"))

    def set_limit(self, kind: GameKind, limit: Limit) -> None:
        group = f"limits/{kind}"
        self._qsettings.setValue(f"{group}/set", 1)
        for key, value in (
            ("nodes", limit.nodes),
            ("depth", limit.depth),
            ("movetime_s", limit.movetime_s),
            ("visits", limit.visits),
            ("multipv", limit.multipv),
            ("scheme", limit.scheme),
        ):
            self._qsettings.setValue(f"{group}/{key}", "" if value is None else value)

    # -- review --------------------------------------------------------------------------------
    @property
    def preset(self) -> str:
        value = self._text("review/preset")
        return value if value in PRESETS else PRESETS[0]

    @preset.setter
    def preset(self, value: str) -> None:
        if value not in PRESETS:
            raise ValueError(f"unknown preset {value!r}; choose one of {', '.join(PRESETS)}")
        self._qsettings.setValue("review/preset", value)

    @property
    def dark_theme(self) -> bool:
        return self._text("appearance/theme") == "dark"

    @dark_theme.setter
    def dark_theme(self, dark: bool) -> None:
        self._qsettings.setValue("appearance/theme", "dark" if dark else "light")

    @property
    def explorer_shown(self) -> bool:
        """The opening explorer beside the move list (View menu); hidden until the player shows it."""
        return self._text("appearance/explorer") == "shown"

    @explorer_shown.setter
    def explorer_shown(self, shown: bool) -> None:
        self._qsettings.setValue("appearance/explorer", "shown" if shown else "hidden")

    def explorer_filter(self, name: str) -> str:
        """A filter of the opening explorer as last set ("mine", "color", "speed", ...), '' when never set."""
        return self._text(f"explorer/{name}")

    def set_explorer_filter(self, name: str, value: str) -> None:
        self._qsettings.setValue(f"explorer/{name}", value)

    def graph_mode(self, kind: str) -> str | None:
        """The graph mode the player last picked for games of `kind`, or None."""
        return self._text(f"appearance/graph_{kind}") or None

    def set_graph_mode(self, kind: str, mode: str) -> None:
        self._qsettings.setValue(f"appearance/graph_{kind}", mode)

    # -- files ---------------------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value: Any = self._qsettings.value("files/recent", [])
        if isinstance(value, str):
            value = [value] if value else []
        return [str(item) for item in value][:MAX_RECENT_FILES]

    def add_recent_file(self, path: str | Path) -> None:
        text = str(Path(path).resolve())
        files = [text] + [item for item in self.recent_files() if item != text]
        self._qsettings.setValue("files/recent", files[:MAX_RECENT_FILES])

    def clear_recent_files(self) -> None:
        self._qsettings.setValue("files/recent", [])

    @property
    def last_export_directory(self) -> str:
        """Where the last export went (an export dialog starts there when the game's folder is read-only)."""
        return self._text("files/last_export_directory")

    @last_export_directory.setter
    def last_export_directory(self, folder: str) -> None:
        self._qsettings.setValue("files/last_export_directory", folder)

    @property
    def last_directory(self) -> str:
        return self._text("files/last_directory")

    @last_directory.setter
    def last_directory(self, folder: str) -> None:
        self._qsettings.setValue("files/last_directory", folder)

    @property
    def collection_player(self) -> str:
        """The player the Collection window last reviewed for (whose moves became training cards)."""
        return self._text("collection/player")

    @collection_player.setter
    def collection_player(self, name: str) -> None:
        self._qsettings.setValue("collection/player", name)

    # -- window --------------------------------------------------------------------------------
    def window_state(self, key: str) -> QByteArray | None:
        value = self._qsettings.value(f"window/{key}")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_window_state(self, key: str, value: QByteArray) -> None:
        self._qsettings.setValue(f"window/{key}", value)

    # -- helpers -------------------------------------------------------------------------------
    def _text(self, key: str) -> str:
        value = self._qsettings.value(key, "")
        return "" if value is None else str(value)

    def _int_or_none(self, key: str) -> int | None:
        try:
            text = self._text(key)
            return int(float(text)) if text else None
        except ValueError:
            return None

    def _float_or_none(self, key: str) -> float | None:
        try:
            text = self._text(key)
            return float(text) if text else None
        except ValueError:
            return None
