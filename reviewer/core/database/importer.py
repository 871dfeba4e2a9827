"""Reading game files into the database: streamed (one game at a time, committed in chunks),
resumable (a source remembers how many of its games were read), deduplicating (a game with the
same moves and headers is stored once) and re-reading a file that changed on disk."""

from __future__ import annotations

import ctypes
import functools
import itertools
import logging
import os
import sqlite3
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import numpy as np

from reviewer.core.database.position_index import (
    ENDED,
    MERGE_ROWS_MOST,
    RunWriter,
    SortedPositions,
    add_run,
    compact,
    remove_leftovers,
    run_transaction,
    sorted_first_visits,
)
from reviewer.core.database.records import PACKED_ENDED, GameFields, GameRecord, PlainGames, SkippedGame
from reviewer.core.database.repair import remember_sources
from reviewer.core.database.store import GameDatabase
from reviewer.core.errors import GameFileError
from reviewer.core.formats import GameCollection, open_collection, read_extensions, streamed_collection
from reviewer.core.formats.compressed import (
    COMPRESSED_SUFFIXES,
    decompressed_as_read,
    is_compressed,
    readable_copy,
)
from reviewer.core.games import game_support, registered_games
from reviewer.core.games.facets import FastChunkOf, FastRecordOf

__all__ = ["COMPRESSED_SUFFIXES", "ImportProgress", "ImportReport", "import_paths", "importable_files"]

CHUNK_GAMES = 8000  # games per transaction: what a cut import loses at most (and one run of the position index)
READING_THREADS_MOST = 4  # threads reading chunks ahead of the one being stored (the compiled readers let go of the GIL)

log = logging.getLogger(__name__)
assert PACKED_ENDED == ENDED  # a record's packed moves go to the position index as they are


@dataclass(frozen=True)
class ImportProgress:
    path: str
    games_read: int  # of this file, resumed ones included
    games_in_file: int
    stored: int  # new games stored so far in this import
    duplicates: int
    skipped: int
    listed_all: bool = True  # False while a file read as a stream has more games than games_in_file
    file_fraction: float = 0.0  # about how much of the file is read (by its bytes, compressed ones for a stream)


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


def _fast_readers() -> list[FastRecordOf]:
    """The games' readers of a record straight from a file's text (once per file: one per game costs)."""
    return [support.database_fast_record_ref.get() for support in registered_games() if support.database_fast_record_ref]


def _fast_chunk_readers() -> list[FastChunkOf]:
    """The games' readers of a chunk of games straight from a file's bytes, as rows."""
    return [support.database_fast_chunk_ref.get() for support in registered_games() if support.database_fast_chunk_ref]


def _plain_games(collection: GameCollection, first: int, end: int, readers: list[FastChunkOf]) -> PlainGames | None:
    for reader in readers:
        plain = reader(collection, first, end)
        if plain is not None:
            return plain
    return None


_ReadChunk = tuple[int, int, PlainGames | None, SortedPositions | None]


def _read_chunk(collection: GameCollection, first: int, end: int, readers: list[FastChunkOf]) -> _ReadChunk:
    """Games first..end-1 read by a chunk reader, with their positions sorted for the position index."""
    plain = _plain_games(collection, first, end, readers)
    if plain is None:
        return first, end, None, None
    keys = np.frombuffer(plain.keys, dtype=np.int64)
    counts = np.array([fields[10] + 1 for _index, _fingerprint, fields in plain.games], dtype=np.int64)
    rows, row_games = sorted_first_visits(keys, counts)
    return first, end, plain, SortedPositions(keys, np.frombuffer(plain.moves, dtype=np.int16), np.cumsum(counts) - counts,
                                              rows, row_games)


def _chunk_bounds(collection: GameCollection, first: int, end: int | None, chunk_games: int) -> Iterator[tuple[int, int]]:
    """[start, stop) of each chunk of games first..end-1; where `end` is None, to the collection's
    end, its games listed as the chunks need them (so that reading begins before the list ends)."""
    start = first
    while True:
        stop = start + chunk_games if end is None else min(end, start + chunk_games)
        # A chunk's last game ends where the next begins: listed too, unless the list is complete.
        while end is None and len(collection) <= stop and not collection.index_more(chunk_games):
            pass
        if end is None:
            stop = min(stop, len(collection))
        if start >= stop:
            return
        yield start, stop
        start = stop


def _chunks_read(collection: GameCollection, first: int, end: int | None, chunk_games: int,
                 readers: list[FastChunkOf]) -> Generator[_ReadChunk, None, None]:
    """The chunks of games first..end-1 (see _chunk_bounds) in order, read by threads a few chunks
    ahead of the caller (who stores each meanwhile); where there is one chunk or one core, read
    one after the other."""
    bounds = _chunk_bounds(collection, first, end, chunk_games)
    ahead = list(itertools.islice(bounds, 2))
    threads = min(READING_THREADS_MOST, os.cpu_count() or 1) if readers and len(ahead) > 1 else 1
    if threads <= 1:
        for start, stop in itertools.chain(ahead, bounds):
            yield _read_chunk(collection, start, stop, readers)
        return
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="reviewer-import")
    pending: deque[Future[_ReadChunk]] = deque()
    try:
        for start, stop in itertools.chain(ahead, bounds):
            pending.append(pool.submit(_read_chunk, collection, start, stop, readers))
            if len(pending) > threads:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # a cancelled import waits for the chunks being read


def _record(collection: GameCollection, index: int, fast_readers: list[FastRecordOf]) -> GameRecord:
    for reader in fast_readers:  # a game's record read straight from the file's text, where its game can
        fast = reader(collection, index)
        if fast is not None:
            return fast
    game = collection.main_line(index)
    reference = game_support(game.kind).database_record_ref
    if not reference:
        raise SkippedGame(f"a game of {game.kind}: the database holds no such games")
    return reference.get()(game)


_INSERT_GAME = (
    "INSERT INTO games (id, fingerprint, kind, source_id, source_index, white, black, white_elo, black_elo,"
    " result, outcome, date, event, speed, board_size, plies, moves) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_STORED_OF_MOST = 500  # fingerprints per query of those already stored


def _stored_fingerprints(connection: sqlite3.Connection, fingerprints: list[int]) -> set[int]:
    found: set[int] = set()
    for start in range(0, len(fingerprints), _STORED_OF_MOST):
        part = fingerprints[start:start + _STORED_OF_MOST]
        marks = ",".join("?" * len(part))
        found.update(row[0] for row in connection.execute(f"SELECT fingerprint FROM games WHERE fingerprint IN ({marks})", part))
    return found


# A game of a chunk: (index in its file, fingerprint, kind, its row's fields, its record where it was
# read into one, and else where its positions lie in the chunk's plain positions).
_ChunkGame = tuple[int, int, str, GameFields, GameRecord | None, int, int]


def _fields_of(record: GameRecord) -> GameFields:
    moves, plies = record.moves_and_plies()
    return (record.white, record.black, record.white_elo, record.black_elo, record.result, record.outcome, record.date,
            record.event, record.speed, record.board_size, plies, moves)


def _add_games(run: RunWriter, games: list[_ChunkGame], first_id: int) -> None:
    """The games' explorer columns (ids from `first_id` on): at once where they are of one kind."""
    if len({kind for _index, _fingerprint, kind, _fields, _record, _start, _stop in games}) == 1:
        rows = [game[3] for game in games]
        run.add_games(range(first_id, first_id + len(games)), games[0][2], [row[5] for row in rows], [row[2] for row in rows],
                      [row[3] for row in rows], [row[8] for row in rows], [row[6] for row in rows])
        return
    for place, (_index, _fingerprint, kind, fields, _record, _start, _stop) in enumerate(games):
        run.add_game(first_id + place, kind, fields[5], fields[2], fields[3], fields[8], fields[6])


class _Chunk:
    """The games of one transaction, written at once with the source's new read count and the run
    of the position index that holds their positions (searchable once it commits)."""

    def __init__(self, source_id: int, offset: int = 0) -> None:
        self.source_id = source_id
        self.offset = offset  # the file's games before those of the collection the chunk's indexes count in
        self.games: list[_ChunkGame] = []
        self.skipped: list[tuple[int, str]] = []
        self.plain_keys = np.zeros(0, dtype=np.int64)
        self.plain_moves = np.zeros(0, dtype=np.int16)
        self.sorted: SortedPositions | None = None
        self.plain_places: dict[int, int] = {}  # a game's index in the file -> its place among the plain games

    def add_record(self, index: int, record: GameRecord) -> None:
        self.games.append((index, record.fingerprint, record.kind, _fields_of(record), record, 0, 0))

    def plain_games(self, plain: PlainGames, sorted_positions: SortedPositions | None) -> dict[int, _ChunkGame]:
        """The chunk's games read straight from the file (their positions kept for `_add_positions`), by index."""
        self.plain_keys = np.frombuffer(plain.keys, dtype=np.int64)
        self.plain_moves = np.frombuffer(plain.moves, dtype=np.int16)
        self.sorted = sorted_positions
        games: dict[int, _ChunkGame] = {}
        start = 0
        for place, (index, fingerprint, fields) in enumerate(plain.games):
            stop = start + fields[10] + 1  # a position per ply and the one it ended in
            games[index] = (index, fingerprint, plain.kind, fields, None, start, stop)
            self.plain_places[index] = place
            start = stop
        return games

    def _add_positions(self, run: RunWriter, fresh: list[_ChunkGame], first_id: int) -> None:
        if self.sorted is not None and all(record is None for _i, _f, _k, _fields, record, _s, _e in fresh):
            game_ids = np.zeros(len(self.plain_places), dtype=np.int64)  # sorted by the chunk's reader
            for place, game in enumerate(fresh):
                game_ids[self.plain_places[game[0]]] = first_id + place
            run.add_sorted_positions(self.sorted, game_ids)
            return
        for place, (_index, _fingerprint, _kind, _fields, record, start, stop) in enumerate(fresh):
            game_id = first_id + place
            if record is None:
                run.add_packed_positions(game_id, self.plain_keys[start:stop], self.plain_moves[start:stop])
            elif record.packed is not None:
                packed = record.packed
                run.add_packed_positions(game_id, np.frombuffer(packed.keys, dtype=np.int64),
                                         np.frombuffer(packed.moves, dtype=np.int16),
                                         None if packed.plies is None else np.frombuffer(packed.plies, dtype=np.int64),
                                         None if packed.symmetries is None else np.frombuffer(packed.symmetries, dtype=np.uint8))
            else:
                keys = record.position_keys
                run.add_positions(game_id, keys, record.position_plies or range(len(keys)), record.position_moves,
                                  record.position_symmetries)

    def _new_games(self, connection: sqlite3.Connection) -> list[_ChunkGame]:
        """The games not stored yet, each the first time the chunk holds it (as one INSERT OR
        IGNORE after another would store them)."""
        stored = _stored_fingerprints(connection, [game[1] for game in self.games])
        fresh: list[_ChunkGame] = []
        for game in self.games:
            if game[1] not in stored:
                stored.add(game[1])
                fresh.append(game)
        return fresh

    def write(self, database: GameDatabase, games_read: int, complete: bool) -> tuple[int, int]:
        """(stored, duplicates)."""
        connection = database.connection
        run = RunWriter()
        with run_transaction(connection) as written:
            fresh = self._new_games(connection)
            first_id = int(connection.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0])
            connection.executemany(_INSERT_GAME, [
                (first_id + place, fingerprint, kind, self.source_id, self.offset + index, *fields)
                for place, (index, fingerprint, kind, fields, _record, _start, _stop) in enumerate(fresh)
            ])
            _add_games(run, fresh, first_id)
            self._add_positions(run, fresh, first_id)
            if fresh:
                written.append(add_run(connection, database.index_folder, run.columns()))
            connection.executemany(
                "INSERT OR REPLACE INTO skipped (source_id, source_index, reason) VALUES (?,?,?)",
                [(self.source_id, self.offset + index, reason) for index, reason in self.skipped],
            )
            connection.execute(
                "UPDATE sources SET games_read = ?, complete = ? WHERE id = ?", (games_read, int(complete), self.source_id)
            )
        return len(fresh), len(self.games) - len(fresh)


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
    merge_rows: int,
) -> None:
    connection = database.connection
    source_id, games_read, complete = _source(connection, path)
    remember_sources(connection, database.path)
    if complete:
        report.already_read.append(str(path))
        return
    if games_read:
        report.resumed[str(path)] = games_read
    reading = _Reading(database, path, source_id, report, progress, cancel, merge_rows)
    with _collections(path) as collections:
        for block in collections:
            start = max(0, games_read - block.first)
            with closing(_chunks_read(block.games, start, block.count, chunk_games, _fast_chunk_readers())) as chunks:
                reading.store(block, chunks)
            if report.cancelled:
                return
            if block.last:
                break
    if not reading.completed:
        _Chunk(source_id).write(database, max(games_read, reading.games_read), True)


@dataclass(frozen=True)
class _Block:
    """Games first..first+count-1 of a file, as games 0..count-1 of `games` (count None: all of
    them, listed while they are read); `last`: the file ends with them."""

    first: int
    games: GameCollection
    count: int | None
    last: bool
    sound_when_read: bool = True  # False: a stream's end is known sound only once it closes (zstd's status)
    streamed: Callable[[], float] | None = None  # a stream's: how much of the file it has read (0 to 1)

    def listed(self) -> int:
        return len(self.games) if self.count is None else self.count

    def all_listed(self) -> bool:
        return self.last and (self.count is not None or self.games.index_complete)

    def fraction_read(self, index: int) -> float:
        """About how much of the file is read once its games before `index` (of this block) are."""
        if self.streamed is not None:
            return self.streamed()  # a block or two ahead of the games stored
        if index >= self.listed():
            return 1.0 if self.all_listed() else 0.0
        span, size = self.games.game_span(index), self.games.size_bytes()
        if span is not None and size:
            return span[0] / size
        return index / max(1, self.listed())


STREAMED_FILE_BYTES = 1 << 30  # a plain PGN this large is read as a stream too (its index would take memory)


@contextmanager
def _collections(path: Path) -> Iterator[Iterator[_Block]]:
    """The file's games: a PGN compressed or of STREAMED_FILE_BYTES or more as a stream of blocks (its
    size on disk and in memory bounded, as a game list of it would not be), any other file whole."""
    if is_compressed(path) or path.stat().st_size >= STREAMED_FILE_BYTES:
        with _opened(path) as (stream, read):
            blocks = streamed_collection(str(path), stream)
            if blocks is not None:
                yield (_Block(block.first, block.games, block.count, block.last, sound_when_read=False, streamed=read)
                       for block in blocks)
                return
    with readable_copy(path) as readable:
        yield iter([_Block(0, open_collection(readable, first_games=1), None, True)])


@contextmanager
def _opened(path: Path) -> Iterator[tuple[IO[bytes], Callable[[], float]]]:
    """The file's bytes as a stream (decompressed), and how much of the file it has read (0 to 1)."""
    if is_compressed(path):
        with decompressed_as_read(path) as opened:
            yield opened
    else:
        with open(path, "rb") as stream:
            size = max(1, os.fstat(stream.fileno()).st_size)
            yield stream, lambda: min(1.0, stream.tell() / size)


class _Reading:
    """One file's import: its chunks stored as they come, the games a chunk's reader left read one by one."""

    def __init__(self, database: GameDatabase, path: Path, source_id: int, report: ImportReport,
                 progress: Callable[[ImportProgress], None] | None, cancel: threading.Event | None, merge_rows: int) -> None:
        self.database, self.path, self.source_id, self.report = database, path, source_id, report
        self.progress, self.cancel, self.merge_rows = progress, cancel, merge_rows
        self.fast_readers = _fast_readers()
        self.games_read = 0  # of the file, resumed ones included
        self.completed = False  # whether the file's read count says all were read

    def store(self, block: _Block, chunks: Iterator[_ReadChunk]) -> None:
        report, collection, cancel = self.report, block.games, self.cancel
        for index, end, plain, sorted_positions in chunks:
            chunk = _Chunk(self.source_id, block.first)
            plain_games = chunk.plain_games(plain, sorted_positions) if plain is not None else {}
            while index < end:
                if cancel is not None and cancel.is_set():
                    report.cancelled = True
                    break
                plain_game = plain_games.get(index)
                if plain_game is not None:
                    chunk.games.append(plain_game)
                    index += 1
                    continue
                number = block.first + index + 1
                try:
                    chunk.add_record(index, _record(collection, index, self.fast_readers))
                except (SkippedGame, GameFileError, ValueError) as error:
                    chunk.skipped.append((index, str(error)))
                    report.skipped.append((str(self.path), number, str(error)))
                except Exception as error:  # a reader's fault on one game: named, and the import goes on
                    log.exception("game %d of %s could not be read", number, self.path)
                    reason = f"could not be read ({type(error).__name__}: {error})"
                    chunk.skipped.append((index, reason))
                    report.skipped.append((str(self.path), number, reason))
                index += 1
            self.games_read = block.first + index
            self.completed = index >= block.listed() and block.all_listed() and block.sound_when_read
            stored, duplicates = chunk.write(self.database, self.games_read, self.completed)
            if stored:
                compact(self.database.connection, self.database.index_folder, self.merge_rows)
            report.stored += stored
            report.duplicates += duplicates
            if self.progress is not None:
                self.progress(ImportProgress(str(self.path), self.games_read, block.first + block.listed(), report.stored,
                                             report.duplicates, len(report.skipped), block.all_listed(),
                                             block.fraction_read(index)))
            if report.cancelled:
                return


@functools.cache
def _reuse_freed_memory() -> None:
    """glibc hands each freed block of a few MB back to the kernel, which zeroes its pages again for
    the next chunk's arrays (about a tenth of an import's time): keep up to 256 MB for reuse."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_MMAP_THRESHOLD, 64 << 20)
        libc.mallopt(_M_TRIM_THRESHOLD, 256 << 20)
    except (OSError, AttributeError):  # another C library: its own ways
        pass


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (malloc.h)


def import_paths(
    database: GameDatabase,
    paths: list[Path],
    *,
    chunk_games: int | None = None,
    progress: Callable[[ImportProgress], None] | None = None,
    cancel: threading.Event | None = None,
    merge_rows: int = MERGE_ROWS_MOST,
) -> ImportReport:
    """Read the files and folders into the database. A file that cannot be read is named in
    `unreadable` and the others are read; a game that cannot be stored is named in `skipped`.
    Each chunk's games (`chunk_games`, CHUNK_GAMES unless given) are searchable once it is stored;
    the position index's runs are merged up to `merge_rows` positions each."""
    chunk_games = chunk_games or CHUNK_GAMES
    _reuse_freed_memory()
    report = ImportReport()
    remove_leftovers(database.connection, database.index_folder)
    for path in importable_files([Path(p) for p in paths]):
        report.files.append(str(path))
        try:
            _import_file(database, path, report, chunk_games, progress, cancel, merge_rows)
        except GameFileError as error:
            report.unreadable.append(str(error))
        except OSError as error:
            report.unreadable.append(f"{path}: cannot be read ({error.strerror or error})")
        if report.cancelled:
            break
    return report


