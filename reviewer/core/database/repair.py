"""A damaged game database: found, named, and built again from the files its games came from.

The database holds nothing that its sources do not: every game row is read from a file, and the
player's own work on a game (the lines, NAGs, words and shapes added on the board) lives in
Reviewer's lines store, named by the game's file and place, never in this database. So a database
that SQLite cannot read is moved aside (kept, with its date, for whoever wants to look) and the
same files are read again into a fresh one. Which files those were is kept twice: in the
database's `sources` table and in a small list beside it (`games.sqlite.sources`), which
still reads when the database does not.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from reviewer.core.atomic import write_text_atomic
from reviewer.core.errors import ReviewerError

__all__ = [
    "DamagedDatabase",
    "NotAGameDatabase",
    "RebuildReport",
    "check_database",
    "damage_in",
    "known_sources",
    "rebuild_database",
    "refuse_foreign",
    "remember_sources",
    "sources_list_path",
]

# SQLite's primary result codes for a file that is not (or no longer) a database it can read.
_CORRUPT_CODES = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB
_CORRUPT_WORDS = ("malformed", "not a database", "corrupt")
REBUILD_HINT = "`reviewer db rebuild` (or Rebuild in the explorer) reads its games again from their files"


class NotAGameDatabase(ReviewerError):
    """The path names a folder, or a file that never was a game database (a game file given as the
    database): nothing is read from it, written to it or moved."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        super().__init__(f"{path} is not a game database ({what}); name a database file, or a new one to make")


_SQLITE_HEADER = b"SQLite format 3\x00"


def refuse_foreign(database_path: Path) -> None:
    """NotAGameDatabase where `database_path` is a folder or another kind of file; a damaged game
    database (its side files beside it) passes, to be named as damaged and rebuilt."""
    if database_path.is_dir():
        raise NotAGameDatabase(database_path, "it is a folder")
    try:
        with database_path.open("rb") as file:
            head = file.read(len(_SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as error:
        raise NotAGameDatabase(database_path, error.strerror or str(error)) from None
    if not head or head == _SQLITE_HEADER:
        return
    side_files = (sources_list_path(database_path), database_path.with_name(database_path.name + ".positions"))
    if not any(path.exists() for path in side_files):
        raise NotAGameDatabase(database_path, "it is not an SQLite file and has no position index beside it")


class DamagedDatabase(ReviewerError):
    """The game database file cannot be read as a database."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"The game database {path} is damaged ({reason}); {REBUILD_HINT}")


def damage_in(error: sqlite3.DatabaseError, path: Path) -> DamagedDatabase | None:
    """The damage an SQLite error reports, or None for any other error (a locked file, a full disk)."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(error, sqlite3.OperationalError) and code not in _CORRUPT_CODES:
        return None
    if (code is not None and code & 0xFF in _CORRUPT_CODES) or any(word in str(error).lower() for word in _CORRUPT_WORDS):
        return DamagedDatabase(path, str(error))
    return None


def sources_list_path(database_path: Path) -> Path:
    return database_path.with_name(database_path.name + ".sources")


def remember_sources(connection: sqlite3.Connection, database_path: Path) -> None:
    """Write the list of the database's source files beside it (atomically; every file ever listed
    stays listed, so that a list written before the database was damaged still names them all)."""
    listed = set(_listed_sources(database_path))
    rows = [str(row[0]) for row in connection.execute("SELECT path FROM sources ORDER BY id")]
    if set(rows) <= listed:
        return
    merged = [*_listed_sources(database_path), *(path for path in rows if path not in listed)]
    write_text_atomic(sources_list_path(database_path), "".join(f"{path}\n" for path in merged))


def _listed_sources(database_path: Path) -> list[str]:
    try:
        text = sources_list_path(database_path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return [line for line in text.splitlines() if line.strip()]


def check_database(database_path: Path) -> str | None:
    """None when the file reads as a sound database (SQLite's `quick_check`), else what is wrong."""
    if not database_path.exists():
        return None
    try:
        connection = sqlite3.connect(f"file:{database_path}?mode=ro", uri=True, timeout=30.0)
    except sqlite3.DatabaseError as error:
        return str(error)
    try:
        rows = connection.execute("PRAGMA quick_check").fetchall()
        connection.execute("SELECT count(*) FROM sources").fetchone()
        runs = [str(row[0]) for row in connection.execute("SELECT name FROM runs")] if not any(
            str(row[0]) != "ok" for row in rows) else []
    except sqlite3.DatabaseError as error:
        return str(error)
    finally:
        connection.close()
    problems = [str(row[0]) for row in rows if str(row[0]) != "ok"]
    problems.extend(_run_problems(database_path, runs))
    return "; ".join(problems[:3]) if problems else None


def _run_problems(database_path: Path, runs: list[str]) -> list[str]:
    """What is wrong with the position index's runs (missing or cut short)."""
    from reviewer.core.database.position_index import Run, index_folder

    problems = []
    for name in runs:
        try:
            Run(index_folder(database_path) / name)
        except OSError:
            problems.append(f"the position index's run {name} is missing")
        except ValueError as error:  # it names the run
            problems.append(f"the position index's {error}")
    return problems


def known_sources(database_path: Path) -> list[Path]:
    """The files the database's games were read from: its `sources` table where it still reads,
    and the list kept beside it, in the order they were first read."""
    paths = list(_listed_sources(database_path))
    try:
        connection = sqlite3.connect(f"file:{database_path}?mode=ro", uri=True, timeout=30.0)
        try:
            rows = [str(row[0]) for row in connection.execute("SELECT path FROM sources ORDER BY id")]
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        rows = []
    paths.extend(path for path in rows if path not in paths)
    return [Path(path) for path in paths]


@dataclass
class RebuildReport:
    damaged_copy: Path | None  # where the damaged file was moved (None: there was no file)
    sources: list[Path] = field(default_factory=list)  # the files read again
    missing: list[Path] = field(default_factory=list)  # files that are gone: their games are not back
    stored: int = 0
    skipped: int = 0
    cancelled: bool = False


def rebuild_database(
    database_path: Path,
    *,
    progress: Callable[[object], None] | None = None,
    cancel: threading.Event | None = None,
) -> RebuildReport:
    """Move the damaged file aside and read its sources again into a new database at the same
    path. A cancelled rebuild goes on from where it stopped the next time an import reads them."""
    from reviewer.core.database.importer import import_paths
    from reviewer.core.database.store import GameDatabase

    refuse_foreign(database_path)  # a game file given as the database is never moved aside
    sources = known_sources(database_path)
    damaged_copy: Path | None = None
    if database_path.exists():
        damaged_copy = database_path.with_name(f"{database_path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        database_path.replace(damaged_copy)
        for suffix in ("-wal", "-shm", ".positions"):
            side = database_path.with_name(database_path.name + suffix)
            if side.exists():
                side.replace(damaged_copy.with_name(damaged_copy.name + suffix))
    present = [path for path in sources if path.exists()]
    report = RebuildReport(damaged_copy, present, [path for path in sources if not path.exists()])
    with GameDatabase(database_path) as database:
        imported = import_paths(database, present, progress=progress, cancel=cancel)
    report.stored, report.skipped, report.cancelled = imported.stored, len(imported.skipped), imported.cancelled
    return report
