"""The batch store: one SQLite file of finished games, so a batch stopped (Ctrl-C, a kill, a
reboot) takes up where it was and nothing finished is reviewed again.

A row is keyed by (game key, setting id): the game (`plan.game_key`, by moves and players, not by
file) and what reviewed it (engine, limit, scoring options; `runner.setting_id`). It holds the
game's reviewer.report/1 object with its `source` block (file, index, key, imported), so a viewer
can list the results and open each game again. Each game is one INSERT, committed at once (WAL):
a game is either recorded whole or not at all. Several processes share the file as they share the
analysis cache: SQLite's busy timeout, and every write retried a few times with growing pauses.
Unlike the analysis cache, a store that cannot be opened or written is an error (`StoreError`):
without it a batch could not be resumed.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from reviewer.core.errors import ReviewerError
from reviewer.core.shared_sqlite import create_versioned_schema, open_shared, retrying

__all__ = ["BatchStore", "FinishedGame", "StoreError", "default_store_path"]

SCHEMA_VERSION = 1
_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_key TEXT NOT NULL,
    setting_id TEXT NOT NULL,
    setting TEXT NOT NULL,
    path TEXT NOT NULL,
    game_index INTEGER NOT NULL,
    imported INTEGER NOT NULL,
    report TEXT NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (game_key, setting_id)
) WITHOUT ROWID;
"""


class StoreError(ReviewerError):
    """The batch store cannot be opened, read or written; the message names the file."""


def default_store_path() -> Path:
    """Beside Reviewer's other data (REVIEWER_DATA_DIR moves it)."""
    from reviewer.core.paths import data_dir

    return data_dir() / "batch.sqlite"


@dataclass(frozen=True)
class FinishedGame:
    game_key: str
    setting_id: str
    path: str
    index: int  # 0-based
    imported: bool
    report: dict[str, Any]
    finished_at: float  # seconds since the epoch


class BatchStore:
    """Thread-safe: one lock around the connection."""

    def __init__(self, path: str | Path | None = None, busy_timeout_s: float = 5.0) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self.busy_timeout_s = busy_timeout_s
        self._lock = threading.Lock()
        try:
            self._connection = self._open()
        except (sqlite3.Error, OSError) as error:
            raise StoreError(f"cannot open the batch store {self.path}: {_reason(error)}") from error

    def _open(self) -> sqlite3.Connection:
        return open_shared(self.path, self.busy_timeout_s, _create_schema)

    def _retrying(self, operation: Callable[[], _T]) -> _T:
        return retrying(operation, self.busy_timeout_s)

    def finished(self, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], FinishedGame]:
        """The finished games among (game key, setting id) pairs."""
        wanted = list(dict.fromkeys(keys))
        found: dict[tuple[str, str], FinishedGame] = {}
        by_setting: dict[str, list[str]] = {}
        for game_key, setting_id in wanted:
            by_setting.setdefault(setting_id, []).append(game_key)
        with self._lock:
            try:
                for setting_id, game_keys in by_setting.items():
                    for start in range(0, len(game_keys), 500):
                        chunk = game_keys[start : start + 500]
                        for row in self._retrying(functools.partial(self._select, setting_id, chunk)):
                            game = _finished_game(row)
                            if game is not None:
                                found[(game.game_key, game.setting_id)] = game
            except sqlite3.Error as error:
                raise StoreError(f"cannot read the batch store {self.path}: {_reason(error)}") from error
        return found

    def _select(self, setting_id: str, game_keys: list[str]) -> list[tuple[Any, ...]]:
        marks = ",".join("?" * len(game_keys))
        return self._connection.execute(
            "SELECT game_key, setting_id, path, game_index, imported, report, finished_at FROM games "
            f"WHERE setting_id = ? AND game_key IN ({marks})",
            (setting_id, *game_keys),
        ).fetchall()

    def record(
        self,
        game_key: str,
        setting_id: str,
        setting: str,
        path: str,
        index: int,
        imported: bool,
        report: dict[str, Any],
    ) -> None:
        """Keep a finished game (replacing an earlier result for the same game and setting)."""
        text = json.dumps(report, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        row = (game_key, setting_id, setting, path, index, int(imported), text, time.time())
        with self._lock:
            try:
                self._retrying(
                    lambda: self._connection.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
                )
            except sqlite3.Error as error:
                raise StoreError(f"cannot write the batch store {self.path}: {_reason(error)}") from error

    def count(self, setting_id: str | None = None) -> int:
        """Finished games, all or of one setting."""
        with self._lock:
            try:
                if setting_id is None:
                    row = self._connection.execute("SELECT count(*) FROM games").fetchone()
                else:
                    row = self._connection.execute("SELECT count(*) FROM games WHERE setting_id = ?", (setting_id,)).fetchone()
            except sqlite3.Error as error:
                raise StoreError(f"cannot read the batch store {self.path}: {_reason(error)}") from error
        return int(row[0])

    def close(self) -> None:
        with self._lock:
            try:
                self._connection.close()
            except sqlite3.Error:
                pass

    def __enter__(self) -> BatchStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _finished_game(row: tuple[Any, ...]) -> FinishedGame | None:
    game_key, setting_id, path, index, imported, text, finished_at = row
    try:
        report = json.loads(text)
    except ValueError:
        return None  # an unreadable row is reviewed again
    if not isinstance(report, dict):
        return None
    return FinishedGame(str(game_key), str(setting_id), str(path), int(index), bool(imported), report, float(finished_at))


def _create_schema(connection: sqlite3.Connection) -> None:
    create_versioned_schema(connection, _SCHEMA, SCHEMA_VERSION, "batch store")


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
