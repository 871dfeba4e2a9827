"""Reading game files into the database: streamed (one game at a time, committed in chunks),
resumable (a source remembers how many of its games were read), deduplicating (a game with the
same moves and headers is stored once) and re-reading a file that changed on disk."""

from __future__ import annotations

import bz2
import gzip
import importlib
import lzma
import shutil
import sqlite3
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import IO, Any, cast

from reviewer.core.database.records import GameRecord, SkippedGame
from reviewer.core.database.repair import remember_sources
from reviewer.core.database.store import ENDED, TOTALS_PLY, GameDatabase
from reviewer.core.errors import GameFileError
from reviewer.core.formats import GameCollection, open_collection, read_extensions
from reviewer.core.games import game_support, registered_games

__all__ = ["COMPRESSED_SUFFIXES", "ImportProgress", "ImportReport", "import_paths", "importable_files"]

CHUNK_GAMES = 1000  # games per transaction: what a cut import loses at most
# Positions are written to a table of their own and merged into the index in one sorted pass
# now and then: the index's pages are rewritten once per merge instead of once per chunk (its keys
# are spread all over it). See `_Merger` for when.
MERGE_ROWS = 2_000_000
MERGE_ROWS_LEAST = 100_000
POSITION_ROW_BYTES = 26  # on disk, about
COMPRESSED_SUFFIXES = (".bz2", ".zst", ".xz", ".gz")


@dataclass(frozen=True)
class ImportProgress:
    path: str
    games_read: int  # of this file, resumed ones included
    games_in_file: int
    stored: int  # new games stored so far in this import
    duplicates: int
    skipped: int


@dataclass
class ImportReport:
    files: list[str] = field(default_factory=list)
    stored: int = 0
    duplicates: int = 0
    skipped: list[tuple[str, int, str]] = field(default_factory=list)  # (file, game number from 1, reason)
    unreadable: list[str] = field(default_factory=list)  # one line per file that could not be read
    already_read: list[str] = field(default_factory=list)
    resumed: dict[str, int] = field(default_factory=dict)  # file -> games it had read before
    cancelled: bool = False


def _is_compressed_game_file(path: Path, extensions: tuple[str, ...]) -> bool:
    suffixes = [suffix.lower() for suffix in path.suffixes[-2:]]
    return len(suffixes) == 2 and suffixes[1] in COMPRESSED_SUFFIXES and suffixes[0] in extensions


def importable_files(paths: list[Path]) -> Iterator[Path]:
    """The game files named, and those under the folders named (sorted), compressed ones included."""
    extensions = read_extensions()
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and (child.suffix.lower() in extensions or _is_compressed_game_file(child, extensions)):
                    yield child
        else:
            yield path


def _decompressor(path: Path) -> Callable[[], AbstractContextManager[IO[bytes]]]:
    suffix = path.suffix.lower()
    if suffix == ".bz2":
        return lambda: bz2.open(path, "rb")
    if suffix == ".xz":
        return lambda: lzma.open(path, "rb")
    if suffix == ".gz":
        return lambda: cast(IO[bytes], gzip.open(path, "rb"))
    try:
        zstandard: Any = importlib.import_module("zstandard")
    except ImportError:
        zstandard = None
    if zstandard is not None:
        return lambda: cast(IO[bytes], zstandard.ZstdDecompressor().stream_reader(open(path, "rb")))
    if shutil.which("zstd") is None:
        raise GameFileError(f"{path}: a .zst file needs the zstandard module or the zstd program; neither is installed")

    @contextmanager
    def run_zstd() -> Iterator[IO[bytes]]:
        process = subprocess.Popen(["zstd", "-dc", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert process.stdout is not None
        try:
            yield process.stdout
        finally:
            process.stdout.close()
            code = process.wait()
        if code != 0:  # a damaged file would otherwise read as a short one
            problem = process.stderr.read().decode(errors="replace").strip() if process.stderr else ""
            raise GameFileError(f"{path}: zstd could not decompress it ({problem or f'exit {code}'})")

    return run_zstd


@contextmanager
def _readable_copy(path: Path) -> Iterator[Path]:
    """The file itself, or a compressed file decompressed (streamed) into a temporary file."""
    if path.suffix.lower() not in COMPRESSED_SUFFIXES:
        yield path
        return
    opener = _decompressor(path)
    with tempfile.TemporaryDirectory(prefix="reviewer-import-") as folder:
        target = Path(folder) / path.stem
        try:
            with opener() as source, open(target, "wb") as copy:
                shutil.copyfileobj(source, copy, 1 << 20)
        except (OSError, EOFError, lzma.LZMAError) as error:
            raise GameFileError(f"{path}: cannot be decompressed ({error})") from error
        yield target


def _record(collection: GameCollection, index: int) -> GameRecord:
    for support in registered_games():  # a game's record read straight from the file's text, where its game can
        if support.database_fast_record_ref:
            fast = support.database_fast_record_ref.get()(collection, index)
            if fast is not None:
                return fast
    game = collection.game(index)
    reference = game_support(game.kind).database_record_ref
    if not reference:
        raise SkippedGame(f"a game of {game.kind}: the database holds no such games")
    return reference.get()(game)


_INSERT_GAME = (
    "INSERT OR IGNORE INTO games (fingerprint, kind, source_id, source_index, white, black, white_elo, black_elo,"
    " result, outcome, date, event, speed, board_size, plies, moves) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


_TOTALS_COLUMNS = (
    "count(*), coalesce(sum(outcome = 1), 0), coalesce(sum(outcome = 0), 0), coalesce(sum(outcome = -1), 0),"
    " coalesce(sum(white_elo), 0), count(white_elo), coalesce(sum(black_elo), 0), count(black_elo),"
    " max(CASE WHEN date GLOB '[0-9][0-9][0-9][0-9]*' THEN date END)"
)

_ADD_TO_TOTALS = (
    " ON CONFLICT (key, move) DO UPDATE SET games = games + excluded.games,"
    " white_wins = white_wins + excluded.white_wins, draws = draws + excluded.draws,"
    " black_wins = black_wins + excluded.black_wins, white_elo_sum = white_elo_sum + excluded.white_elo_sum,"
    " white_elo_count = white_elo_count + excluded.white_elo_count,"
    " black_elo_sum = black_elo_sum + excluded.black_elo_sum, black_elo_count = black_elo_count + excluded.black_elo_count,"
    " last_date = CASE WHEN excluded.last_date > coalesce(last_date, '') THEN excluded.last_date ELSE last_date END"
)


def merge_pending_positions(connection: sqlite3.Connection) -> int:
    """Move the positions of `pending_positions` into `positions` in one sorted pass and keep
    `totals` right, in one transaction; the number of positions moved. A position already totalled
    gets the pending games' results added; a position that a pending game reached within TOTALS_PLY
    plies and that is not totalled yet gets its totals from every game that reached it."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        pending = int(connection.execute("SELECT count(*) FROM pending_positions").fetchone()[0])
        if pending:
            connection.execute("DELETE FROM temp.fresh_keys")
            connection.execute(
                f"INSERT INTO totals SELECT p.key, coalesce(p.move, {ENDED}), {_TOTALS_COLUMNS}"
                " FROM pending_positions p CROSS JOIN totalled t ON t.key = p.key CROSS JOIN games g ON g.id = p.game_id"
                " WHERE true GROUP BY p.key, coalesce(p.move, -2)" + _ADD_TO_TOTALS
            )
            connection.execute(
                f"INSERT OR IGNORE INTO temp.fresh_keys SELECT key FROM pending_positions WHERE ply <= {TOTALS_PLY}"
                " AND key NOT IN (SELECT key FROM totalled)"
            )
            connection.execute(
                "INSERT OR IGNORE INTO positions (key, game_id, ply, move, symmetry)"
                " SELECT key, game_id, ply, move, symmetry FROM pending_positions ORDER BY key, game_id"
            )
            connection.execute("INSERT INTO totalled SELECT key FROM temp.fresh_keys")
            connection.execute(
                f"INSERT INTO totals SELECT p.key, coalesce(p.move, {ENDED}), {_TOTALS_COLUMNS}"
                " FROM temp.fresh_keys f CROSS JOIN positions p ON p.key = f.key CROSS JOIN games g ON g.id = p.game_id"
                " GROUP BY p.key, coalesce(p.move, -2)"
            )
            connection.execute("DELETE FROM pending_positions")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return pending


_PositionsRow = tuple[int, int, int, int | None, int]  # key, game id, ply, move, symmetry


class _Chunk:
    """The games of one transaction, written at once with the source's new read count; their
    positions go to `pending_positions` (appended: cheap), searchable once merged."""

    def __init__(self, source_id: int) -> None:
        self.source_id = source_id
        self.games: list[tuple[int, GameRecord]] = []
        self.skipped: list[tuple[int, str]] = []

    def write(self, connection: sqlite3.Connection, games_read: int, complete: bool) -> tuple[int, int, int]:
        """(stored, duplicates, positions written)."""
        stored = duplicates = 0
        positions: list[_PositionsRow] = []
        connection.execute("BEGIN IMMEDIATE")
        try:
            for index, record in self.games:
                cursor = connection.execute(
                    _INSERT_GAME,
                    (record.fingerprint, record.kind, self.source_id, index, record.white, record.black,
                     record.white_elo, record.black_elo, record.result, record.outcome, record.date, record.event,
                     record.speed, record.board_size, len(record.moves), " ".join(record.moves)),
                )
                if cursor.rowcount == 0:
                    duplicates += 1
                    continue
                stored += 1
                game_id = cursor.lastrowid
                assert game_id is not None
                positions.extend(_first_reached(record, game_id))
            connection.executemany(
                "INSERT INTO pending_positions (key, game_id, ply, move, symmetry) VALUES (?,?,?,?,?)", positions
            )
            connection.executemany(
                "INSERT OR REPLACE INTO skipped (source_id, source_index, reason) VALUES (?,?,?)",
                [(self.source_id, index, reason) for index, reason in self.skipped],
            )
            connection.execute(
                "UPDATE sources SET games_read = ?, complete = ? WHERE id = ?", (games_read, int(complete), self.source_id)
            )
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return stored, duplicates, len(positions)


def _first_reached(record: GameRecord, game_id: int) -> list[_PositionsRow]:
    """The game's positions as rows of `positions`, each the first time the game reached it."""
    keys = record.position_keys
    plies: Iterable[int] = record.position_plies if record.position_plies is not None else range(len(keys))
    symmetries: Iterable[int] = record.position_symmetries if record.position_symmetries is not None else repeat(0)
    rows = list(zip(keys, repeat(game_id), plies, record.position_moves, symmetries))
    if len(set(keys)) == len(rows):
        return rows
    seen: set[int] = set()
    first: list[_PositionsRow] = []
    for row in rows:
        if row[0] not in seen:
            seen.add(row[0])
            first.append(row)
    return first


class _Merger:
    """Merges the pending positions once they are a third of the file's size (a merge rewrites
    about all of the index's pages, so merges at sizes growing with it cost a few times the
    index; the pages the pending rows free are that much of the file at most), but at least
    every `merge_rows` of them (their sort is held in memory)."""

    def __init__(self, connection: sqlite3.Connection, merge_rows: int) -> None:
        self.connection, self.merge_rows, self.written = connection, merge_rows, 0

    def wrote(self, rows: int) -> None:
        self.written += rows
        if self.written >= min(self.merge_rows, max(MERGE_ROWS_LEAST, self._file_rows() // 3)):
            self.merge()

    def _file_rows(self) -> int:
        """The file's size in positions rows (about)."""
        pages = int(self.connection.execute("PRAGMA page_count").fetchone()[0])
        page_bytes = int(self.connection.execute("PRAGMA page_size").fetchone()[0])
        return pages * page_bytes // POSITION_ROW_BYTES

    def merge(self) -> None:
        merge_pending_positions(self.connection)
        self.written = 0


def _source(connection: sqlite3.Connection, path: Path) -> tuple[int, int, bool]:
    """(source id, games already read, whether all were): a file that changed is read again."""
    stat = path.stat()
    key = str(path.resolve())
    row = connection.execute("SELECT id, size_bytes, mtime_ns, games_read, complete FROM sources WHERE path = ?", (key,)).fetchone()
    if row is not None and row[1] == stat.st_size and row[2] == stat.st_mtime_ns:
        return int(row[0]), int(row[3]), bool(row[4])
    connection.execute("BEGIN IMMEDIATE")
    try:
        if row is None:
            cursor = connection.execute(
                "INSERT INTO sources (path, size_bytes, mtime_ns) VALUES (?, ?, ?)", (key, stat.st_size, stat.st_mtime_ns)
            )
            source_id = cursor.lastrowid
            assert source_id is not None
        else:
            source_id = int(row[0])
            connection.execute(
                "UPDATE sources SET size_bytes = ?, mtime_ns = ?, games_read = 0, complete = 0 WHERE id = ?",
                (stat.st_size, stat.st_mtime_ns, source_id),
            )
            connection.execute("DELETE FROM skipped WHERE source_id = ?", (source_id,))
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return source_id, 0, False


def _import_file(
    database: GameDatabase,
    path: Path,
    report: ImportReport,
    chunk_games: int,
    progress: Callable[[ImportProgress], None] | None,
    cancel: threading.Event | None,
    merger: _Merger,
) -> None:
    connection = database.connection
    source_id, games_read, complete = _source(connection, path)
    remember_sources(connection, database.path)
    if complete:
        report.already_read.append(str(path))
        return
    if games_read:
        report.resumed[str(path)] = games_read
    with _readable_copy(path) as readable:
        collection = open_collection(readable)
        collection.complete_index()
        total = len(collection)
        index = games_read
        while index < total:
            chunk = _Chunk(source_id)
            end = min(total, index + chunk_games)
            while index < end:
                if cancel is not None and cancel.is_set():
                    report.cancelled = True
                    break
                try:
                    chunk.games.append((index, _record(collection, index)))
                except (SkippedGame, GameFileError, ValueError) as error:
                    chunk.skipped.append((index, str(error)))
                    report.skipped.append((str(path), index + 1, str(error)))
                index += 1
            stored, duplicates, rows = chunk.write(connection, index, index >= total)
            merger.wrote(rows)
            report.stored += stored
            report.duplicates += duplicates
            if progress is not None:
                progress(ImportProgress(str(path), index, total, report.stored, report.duplicates, len(report.skipped)))
            if report.cancelled:
                return
        if total == 0:
            _Chunk(source_id).write(connection, 0, True)


def import_paths(
    database: GameDatabase,
    paths: list[Path],
    *,
    chunk_games: int = CHUNK_GAMES,
    progress: Callable[[ImportProgress], None] | None = None,
    cancel: threading.Event | None = None,
    merge_rows: int = MERGE_ROWS,
) -> ImportReport:
    """Read the files and folders into the database. A file that cannot be read is named in
    `unreadable` and the others are read; a game that cannot be stored is named in `skipped`.
    The positions are searchable from the merge that follows every `merge_rows` of them and the
    one at the end (which also takes in those of an import that was cut short)."""
    report = ImportReport()
    merger = _Merger(database.connection, merge_rows)
    for path in importable_files([Path(p) for p in paths]):
        report.files.append(str(path))
        try:
            _import_file(database, path, report, chunk_games, progress, cancel, merger)
        except GameFileError as error:
            report.unreadable.append(str(error))
        except OSError as error:
            report.unreadable.append(f"{path}: cannot be read ({error.strerror or error})")
        if report.cancelled:
            break
    merger.merge()
    return report


