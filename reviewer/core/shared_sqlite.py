"""SQLite files that several processes share (the analysis cache, the batch store): WAL, a busy
timeout, and operations tried again with growing pauses while SQLite says the file is locked."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

__all__ = ["FIRST_PAUSE_S", "RETRIES", "create_versioned_schema", "is_busy", "open_shared", "retrying"]

RETRIES = 6  # tries after the first one of an operation SQLite says is locked
FIRST_PAUSE_S = 0.05  # doubled after each try, up to the busy timeout

_T = TypeVar("_T")


def is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def retrying(operation: Callable[[], _T], busy_timeout_s: float) -> _T:
    """Run `operation`, again with growing pauses while SQLite says the file is locked."""
    pause = FIRST_PAUSE_S
    for _ in range(RETRIES):
        try:
            return operation()
        except sqlite3.OperationalError as error:
            if not is_busy(error):
                raise
        time.sleep(pause)
        pause = min(pause * 2, max(busy_timeout_s, FIRST_PAUSE_S))
    return operation()


def _use_wal(connection: sqlite3.Connection) -> None:
    mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()
    if mode is not None and str(mode[0]).lower() != "wal":
        # Another connection held the file while the mode was to change: SQLite keeps the old
        # mode without an error. Try again, like a lock.
        raise sqlite3.OperationalError(f"database is locked (journal mode stayed {mode[0]})")


def open_shared(
    path: Path,
    busy_timeout_s: float,
    create_schema: Callable[[sqlite3.Connection], None],
    on_no_wal: Callable[[sqlite3.OperationalError], None] | None = None,
) -> sqlite3.Connection:
    """A connection in autocommit mode, usable from any thread (the caller holds a lock), with the
    schema made. A file system without WAL is slower, still correct: `on_no_wal` is told."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
    try:
        connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
        try:
            retrying(lambda: _use_wal(connection), busy_timeout_s)
        except sqlite3.OperationalError as error:
            if on_no_wal is not None:
                on_no_wal(error)
        connection.execute("PRAGMA synchronous=NORMAL")
        retrying(lambda: create_schema(connection), busy_timeout_s)
    except BaseException:
        connection.close()
        raise
    return connection


def create_versioned_schema(connection: sqlite3.Connection, script: str, version: int, name: str) -> None:
    """The tables of `script` and the schema version in table `meta`, in one write transaction (so
    that two processes creating the file at once never see half of it); a file of another
    version is refused, named as `name`."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        for statement in script.split(";"):
            if statement.strip():
                connection.execute(statement)
        row = connection.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
        if row is None:
            connection.execute("INSERT INTO meta VALUES ('schema', ?)", (str(version),))
        elif row[0] != str(version):
            raise sqlite3.DatabaseError(f"unknown {name} schema {row[0]}")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
