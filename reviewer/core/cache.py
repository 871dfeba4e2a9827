"""The analysis cache: one SQLite file of evaluations, keyed by position and engine.

A position's key says what the engine was shown, not which game it came from, so the same
position in another game (or a file opened twice) is answered from here. Each game says what its
key is (`GameSupport.cache_keys`, by default its rules' position key):
- chess: the FEN without the move counters (`Board.epd()`), en passant only when legal;
- Go: a hash of board size, rules, komi, setup, who starts and the moves so far.
The engine part is `identity | limit` (see `reviewer.core.review.engine_key`).

A second table remembers the identity an engine command had (by a fingerprint of the command and
its files, see `reviewer.core.engines.registry`), so that a rerun finds its evaluations without
starting the engine to ask its name.

Every stored evaluation is committed at once (WAL), so a crash keeps what was finished.
Several processes share one file (`reviewer analyze` runs and the app): WAL lets readers and one
writer work together, SQLite's busy timeout waits for a writer to finish, and on top of it the
schema creation and every write are retried a few times with growing pauses, since SQLite answers
"database is locked" at once, without waiting, in some races (two processes creating a new file).
A cache that cannot be opened, read or written (corrupt, read-only, disk full) turns itself off
with a warning (`AnalysisCache.warning`); the analysis goes on without it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from reviewer.core.analysis import Evaluation
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game
from reviewer.core.shared_sqlite import create_versioned_schema, is_busy, open_shared, retrying

__all__ = ["AnalysisCache", "position_key", "position_keys"]

LOG = logging.getLogger(__name__)
SCHEMA_VERSION = 1
_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS evaluations (
    position_key TEXT NOT NULL,
    engine_id TEXT NOT NULL,
    evaluation TEXT NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (position_key, engine_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS engines (
    fingerprint TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
    stored_at REAL NOT NULL
) WITHOUT ROWID;
"""


class AnalysisCache:
    """Thread-safe: every call takes one lock, so one writer at a time."""

    def __init__(self, path: str | Path | None = None, busy_timeout_s: float = 5.0) -> None:
        if path is None:
            from reviewer.core.paths import analysis_cache_path

            path = analysis_cache_path()
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.warning: str | None = None
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        try:
            self._connection = self._open()
        except (sqlite3.Error, OSError) as error:
            self._disable(f"cannot open the analysis cache {self.path}: {error}")

    @property
    def enabled(self) -> bool:
        return self._connection is not None

    def _open(self) -> sqlite3.Connection:
        def no_wal(error: sqlite3.OperationalError) -> None:
            LOG.warning("analysis cache %s: %s; going on without WAL", self.path, error)

        connection = open_shared(self.path, self.busy_timeout_s, _create_schema, on_no_wal=no_wal)
        try:
            connection.execute("SELECT count(*) FROM evaluations WHERE position_key = ''").fetchone()
        except BaseException:
            connection.close()
            raise
        return connection

    def _retrying(self, operation: Callable[[], _T]) -> _T:
        return retrying(operation, self.busy_timeout_s)

    def _disable(self, message: str) -> None:
        if self.warning is None:
            self.warning = f"{message} — going on without the cache"
            LOG.warning(self.warning)
        self._close_connection()

    def _close_connection(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()
            except sqlite3.Error:
                pass
        self._connection = None

    def get_many(self, keys: Iterable[str], engine_id: str) -> dict[str, Evaluation]:
        """The stored evaluations among `keys` for this engine, by key (their `ply` is meaningless)."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Evaluation] = {}
        with self._lock:
            if self._connection is None:
                return found
            try:
                query = "SELECT position_key, evaluation FROM evaluations WHERE engine_id = ? AND position_key IN ({marks})"
                for key, text in self._rows_for_keys(query, wanted, engine_id):
                    try:
                        found[key] = Evaluation.from_json(json.loads(text))
                    except (ValueError, TypeError, KeyError):
                        LOG.warning("ignoring an unreadable cache entry for %s", key)
            except sqlite3.Error as error:
                self._disable(f"cannot read the analysis cache {self.path}: {error}")
        return found

    def engines_covering(self, keys: Iterable[str]) -> dict[str, int]:
        """How many of `keys` each engine setting (engine id) has an evaluation for."""
        wanted = list(dict.fromkeys(keys))
        counts: dict[str, int] = {}
        with self._lock:
            if self._connection is None:
                return counts
            try:
                query = "SELECT engine_id, COUNT(*) FROM evaluations WHERE position_key IN ({marks}) GROUP BY engine_id"
                for engine_id, count in self._rows_for_keys(query, wanted):
                    counts[engine_id] = counts.get(engine_id, 0) + int(count)
            except sqlite3.Error as error:
                self._disable(f"cannot read the analysis cache {self.path}: {error}")
        return counts

    def _rows_for_keys(self, query: str, keys: list[str], *leading: object) -> list[tuple[Any, ...]]:
        """The rows of `query` (its `{marks}` the placeholders of the keys, after `leading` parameters) for
        all `keys`, asked 500 at a time (SQLite's limit on parameters); the caller holds the lock."""
        assert self._connection is not None
        rows: list[tuple[Any, ...]] = []
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows += self._connection.execute(query.format(marks=marks), (*leading, *chunk)).fetchall()
        return rows

    def get(self, key: str, engine_id: str) -> Evaluation | None:
        return self.get_many([key], engine_id).get(key)

    def put(self, key: str, engine_id: str, evaluation: Evaluation) -> None:
        text = json.dumps(evaluation.to_json(), separators=(",", ":"))
        with self._lock:
            if self._connection is None:
                return
            connection = self._connection
            try:
                self._retrying(
                    lambda: connection.execute(
                        "INSERT OR REPLACE INTO evaluations VALUES (?, ?, ?, ?)", (key, engine_id, text, time.time())
                    )
                )
            except sqlite3.OperationalError as error:
                if is_busy(error):
                    LOG.warning("analysis cache %s stayed busy; one evaluation not stored", self.path)
                    return  # another program holds the file for long: keep the cache on
                self._disable(f"cannot write the analysis cache {self.path}: {error}")
            except sqlite3.Error as error:
                self._disable(f"cannot write the analysis cache {self.path}: {error}")

    def engine_identity(self, fingerprint: str) -> str | None:
        """The identity the engine with this fingerprint had when it last ran, if known."""
        with self._lock:
            if self._connection is None:
                return None
            try:
                row = self._connection.execute(
                    "SELECT identity FROM engines WHERE fingerprint = ?", (fingerprint,)
                ).fetchone()
            except sqlite3.Error as error:
                self._disable(f"cannot read the analysis cache {self.path}: {error}")
                return None
        return str(row[0]) if row is not None else None

    def remember_engine(self, fingerprint: str, identity: str) -> None:
        with self._lock:
            if self._connection is None:
                return
            connection = self._connection
            try:
                self._retrying(
                    lambda: connection.execute(
                        "INSERT OR REPLACE INTO engines VALUES (?, ?, ?)", (fingerprint, identity, time.time())
                    )
                )
            except sqlite3.OperationalError as error:
                if not is_busy(error):
                    self._disable(f"cannot write the analysis cache {self.path}: {error}")
            except sqlite3.Error as error:
                self._disable(f"cannot write the analysis cache {self.path}: {error}")

    def count(self) -> int:
        with self._lock:
            if self._connection is None:
                return 0
            try:
                return int(self._connection.execute("SELECT count(*) FROM evaluations").fetchone()[0])
            except sqlite3.Error:
                return 0

    def close(self) -> None:
        with self._lock:
            self._close_connection()

    def __enter__(self) -> AnalysisCache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _create_schema(connection: sqlite3.Connection) -> None:
    create_versioned_schema(connection, _SCHEMA, SCHEMA_VERSION, "cache")


def position_keys(game: Game, plies: Sequence[int]) -> dict[int, str]:
    """The cache key of each main-line position `plies` of `game`."""
    support = game_support(game.kind)
    if support.cache_keys is not None:
        return support.cache_keys(game, plies)
    rules = support.rules
    nodes = [game.root, *game.mainline_nodes()]
    try:
        return {ply: f"{game.kind}:{rules.position_key(rules.after(game, nodes[ply]))}" for ply in plies}
    except IndexError:
        raise ValueError(f"the main line has no position {max(plies)}") from None


def position_key(game: Game, ply: int) -> str:
    return position_keys(game, [ply])[ply]
