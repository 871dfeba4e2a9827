"""The position index: for each position a stored game reached, the games that reached it, in
sorted runs, files of the database's own in a folder beside the SQLite file (`games.sqlite.positions/`).

A run holds rows sorted by (key, game id), one per position a game reached (the first time it
did): the key, the game, the ply (at most 65 535), the move it played from there (ENDED where the
game ended there) and Go's symmetry (a run of chess games keeps none: all are 0); beside them the explorer's columns of the run's games (kind,
outcome, ratings, date, speed), so that a query counts results and filters games without reading
their rows; and for each position that BUSY_POSTINGS of the run's games reached, per kind of game
and move, the totals the explorer shows, and its TOP_KEPT best rated games, so that an unfiltered
query of a busy position reads a few rows per run instead of every game's.

A run is written once and never changed: an import writes one per chunk of games (to a temporary
name, synced, renamed) and names it in the table `runs` in the transaction that stores the chunk's
games, so a killed import leaves both or neither; a file that `runs` does not name is a leftover
of one and is deleted by the next import. Runs are merged, the newest into the one before while
that one holds no more rows than they do together (so an import writes each row a few times, and
a query searches a few runs), up to MERGE_ROWS_MOST rows, which bounds an import's memory.

The file, little-endian: _MAGIC, then the u8 numbers of _HEADER_FIELDS (rows, games, totals, top
games, long plies, bucket bits B, bytes of a local game number, whether it keeps symmetries), then
the columns one after the other, each padded to 8 bytes, in the order of _row_columns,
_GAME_COLUMNS, _TOTAL_COLUMNS, _TOP_COLUMNS. A row's columns take some 11 bytes:
- its key, as a u8 whose order is the key's (the key's bits with the sign bit flipped): its top B
  bits are its bucket, and `key_buckets` (2^B + 1 u4) holds the first row of each bucket; its low
  64 - B bits are kept in the fewest whole bytes (`key_low`). B makes the run's keys the smallest
  (16 for a run of a million rows); a key is found by its bucket, then by a binary search in it;
- its game as the game's place in the run's `ids` (sorted): u2 in a run of fewer than 65 536 games,
  else u4;
- its ply as a u1; a ply of LONG_PLY or more is LONG_PLY there and kept, by row, in `long_ply_rows`
  and `long_ply_values` (u2);
- its move (i2) and, where the run keeps them, its symmetry (u1).
A date is kept as its first 8 and next 8 bytes, each read as a big-endian number, so that the
numbers' order is the text's.
"""

from __future__ import annotations

import mmap
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from reviewer.core.database.records import SPEED_WORDS
from reviewer.core.database.repair import DamagedDatabase

try:  # the sort in C (setup.py builds it where a compiler is found)
    from reviewer.core.database import _first_visits
except ImportError:
    _first_visits = None  # type: ignore[assignment]

__all__ = [
    "ENDED",
    "KINDS",
    "MERGE_ROWS_MOST",
    "NO_OUTCOME",
    "SPEEDS",
    "TOP_KEPT",
    "TOTALS_COLUMNS",
    "PositionIndex",
    "Postings",
    "Run",
    "RunWriter",
    "SortedPositions",
    "date_words",
    "group_totals",
    "index_folder",
    "sorted_first_visits",
    "starts_of",
    "starts_with_year",
]

ENDED = -2  # the move code of a game that ended in the position
NO_OUTCOME = 9  # the outcome column of a game whose result is unknown
KINDS = ("chess", "go")  # a game's kind code: its place here
SPEEDS = ("", *SPEED_WORDS)  # a game's speed code: its place here (OTHER_SPEED for any other text)
OTHER_SPEED = 255
_SPEED_CODES = {speed: code for code, speed in enumerate(SPEEDS)}
MERGE_ROWS_MOST = 2_000_000  # a merged run holds at most this many rows (about 35 MB; its merge some 4 times that in memory)
DATE_BYTES = 16  # a date is compared and shown by its first 16 bytes ("YYYY.MM.DD" has 10)

BUSY_POSTINGS = 256  # a position that this many of a run's games reached keeps its totals in the run
TOP_KEPT = 16  # and its best rated games

_MAGIC = b"RVPOSRN3"  # the earlier runs' was b"RVPOSRUN" (17 bytes a row)
_HEADER_FIELDS = ("rows", "games", "totals", "tops", "long_plies", "bucket_bits", "game_bytes", "symmetries")
_HEADER_BYTES = 8 + 8 * len(_HEADER_FIELDS)
LONG_PLY = 255  # a ply stored as this (u1) is kept in the run's table of long plies
PLY_MOST = 65_535  # a later ply is kept as this
_BUCKET_BITS_MOST = 32
_SIGN = np.uint64(1 << 63)
# The columns of a run's rows as a writer or a merge makes them (write_run encodes them).
_ROW_COLUMNS: tuple[tuple[str, str], ...] = (("keys", "<i8"), ("games", "<u4"), ("plies", "<u2"), ("moves", "<i2"),
                                             ("symmetries", "u1"))
_GAME_COLUMNS: tuple[tuple[str, str], ...] = (("ids", "<u4"), ("kinds", "u1"), ("outcomes", "i1"), ("white_elos", "<i2"),
                                              ("black_elos", "<i2"), ("speeds", "u1"), ("date_high", "<u8"),
                                              ("date_low", "<u8"))
# Per move of a busy position (and per kind of game): the totals the explorer shows.
TOTALS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("moves", "<i2"), ("games", "<u4"), ("white_wins", "<u4"), ("draws", "<u4"), ("black_wins", "<u4"),
    ("white_elo_sum", "<u8"), ("white_rated", "<u4"), ("black_elo_sum", "<u8"), ("black_rated", "<u4"),
    ("date_high", "<u8"), ("date_low", "<u8"))
_TOTAL_COLUMNS = (("total_keys", "<i8"), ("total_kinds", "u1"), *((f"total_{name}", dtype) for name, dtype in TOTALS_COLUMNS))
# Per busy position and kind: its TOP_KEPT best rated games (both ratings summed; the later game first).
_TOP_COLUMNS: tuple[tuple[str, str], ...] = (("top_keys", "<i8"), ("top_kinds", "u1"), ("top_games", "<u4"),
                                             ("top_plies", "<u2"), ("top_moves", "<i2"), ("top_ratings", "<i4"))
_SECTIONS = (_GAME_COLUMNS, _TOTAL_COLUMNS, _TOP_COLUMNS)

Array = npt.NDArray[np.generic]


def index_folder(database_path: Path) -> Path:
    return database_path.with_name(database_path.name + ".positions")


def date_words(text: str) -> tuple[int, int]:
    """A date's first 16 bytes as two numbers whose order is the text's (shorter texts padded with zeros)."""
    raw = text.encode("utf-8")[:DATE_BYTES].ljust(DATE_BYTES, b"\x00")
    return int.from_bytes(raw[:8], "big"), int.from_bytes(raw[8:], "big")


def starts_with_year(date_high: Array) -> npt.NDArray[np.bool_]:
    """Whether each date's first four bytes are digits (SQLite's GLOB '[0-9][0-9][0-9][0-9]*')."""
    year = np.ones(len(date_high), dtype=bool)
    high = date_high.astype(np.uint64)
    for shift in (56, 48, 40, 32):
        byte = (high >> np.uint64(shift)) & np.uint64(0xFF)
        year &= (byte >= ord("0")) & (byte <= ord("9"))
    return year


def _padded(size: int) -> int:
    return (size + 7) // 8 * 8


def _low_bytes(bucket_bits: int) -> int:
    """The whole bytes a key's low 64 - bucket_bits bits take."""
    return (64 - bucket_bits + 7) // 8


def _bucket_bits(rows: int) -> int:
    """The bucket bits that make a run's keys take the fewest bytes (the more bits where two tie)."""
    return min(range(_BUCKET_BITS_MOST + 1), key=lambda bits: (rows * _low_bytes(bits) + 4 * ((1 << bits) + 1), -bits))


def _row_columns(header: dict[str, int]) -> tuple[tuple[str, str, int], ...]:
    """(column, dtype, count) of a run's rows as its file keeps them."""
    rows, long_plies, bits = header["rows"], header["long_plies"], header["bucket_bits"]
    return (("key_buckets", "<u4", (1 << bits) + 1), ("key_low", "u1", rows * _low_bytes(bits)),
            ("local_games", f"<u{header['game_bytes']}", rows), ("short_plies", "u1", rows), ("moves", "<i2", rows),
            ("symmetries", "u1", rows if header["symmetries"] else 0), ("long_ply_rows", "<u4", long_plies),
            ("long_ply_values", "<u2", long_plies))


def _layout(header: dict[str, int]) -> list[tuple[str, str, int, int]]:
    """(column, dtype, count, offset) of each column of a run file."""
    placed: list[tuple[str, str, int, int]] = []
    offset = _HEADER_BYTES
    sections = [[(name, dtype, count) for name, dtype, count in _row_columns(header)]]
    sections.extend([(name, dtype, header[field]) for name, dtype in columns]
                    for columns, field in zip(_SECTIONS, ("games", "totals", "tops")))
    for section in sections:
        for name, dtype, count in section:
            placed.append((name, dtype, count, offset))
            offset += _padded(np.dtype(dtype).itemsize * count)
    return placed


def _unsigned(keys: Array) -> npt.NDArray[np.uint64]:
    """Keys as u8 numbers of the same order (the sign bit flipped)."""
    return np.ascontiguousarray(keys, dtype=np.int64).view(np.uint64) ^ _SIGN


class Run:
    """One run file, mapped into memory (read-only). `columns` reads its rows' columns as a writer
    makes them (keys, games, plies, moves, symmetries: each decoded whole, for merges) and its
    other columns as they are kept; a query reads its rows through `span`, `game_places`, `plies_at`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = path.name
        with open(path, "rb") as file:
            raw = file.read(_HEADER_BYTES)
        if len(raw) < _HEADER_BYTES or raw[:8] != _MAGIC:
            raise ValueError(f"{path.name} is not a run of the position index of this version")
        header = {field: int.from_bytes(raw[8 + 8 * place : 16 + 8 * place], "little")
                  for place, field in enumerate(_HEADER_FIELDS)}
        if (header["bucket_bits"] > _BUCKET_BITS_MOST or header["game_bytes"] not in (2, 4)
                or header["symmetries"] not in (0, 1) or header["rows"] >= 1 << 32):
            raise ValueError(f"{path.name} is not a run of the position index of this version")
        self.rows, self.games = header["rows"], header["games"]
        self._bucket_bits, self._long_plies = header["bucket_bits"], header["long_plies"]
        self._low_bytes = _low_bytes(self._bucket_bits)
        self.keeps_symmetries = bool(header["symmetries"])
        self.game_bytes = header["game_bytes"]
        layout = _layout(header)
        _name, dtype, count, offset = layout[-1]
        if path.stat().st_size != offset + _padded(np.dtype(dtype).itemsize * count):
            raise ValueError(f"{path.name} is cut short")
        with open(path, "rb") as file:
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        self._mapped = mapped
        self._key_low_offset = next(offset for name, _dtype, _count, offset in layout if name == "key_low")
        self.stored = _Columns(mapped, layout, {})
        if int(self.stored["key_buckets"][-1]) != self.rows:
            raise ValueError(f"{path.name} is not a run of the position index of this version")
        self.columns = _Columns(mapped, layout, {
            "keys": self.key_column, "games": lambda: self.game_ids(slice(0, self.rows)),
            "plies": lambda: self.plies_at(slice(0, self.rows)), "symmetries": self.symmetry_column})

    def _lows(self, start: int, stop: int) -> npt.NDArray[np.uint64]:
        """The low bits of the keys of rows start to stop."""
        width = self._low_bytes
        raw = self.stored["key_low"][start * width : stop * width]
        if width == 8:
            return raw.view("<u8")
        wide = np.zeros((stop - start, 8), dtype=np.uint8)
        wide[:, :width] = raw.reshape(stop - start, width)
        return wide.view("<u8").reshape(stop - start)

    def span(self, key: int) -> tuple[int, int]:
        """The first row of `key` and the row after its last."""
        shift = 64 - self._bucket_bits
        number = (key & 0xFFFF_FFFF_FFFF_FFFF) ^ (1 << 63)
        bucket = number >> shift
        buckets = self.stored["key_buckets"]
        start, stop = int(buckets[bucket]), int(buckets[bucket + 1])
        low = number & ((1 << shift) - 1)
        first = self._first_at_least(start, stop, low)
        return first, self._first_at_least(first, stop, low + 1)

    def _first_at_least(self, start: int, stop: int, low: int) -> int:
        """The first row of start to stop whose key's low bits are `low` or more (a binary search
        that reads a key's bytes where it looks: a bucket of a busy position holds many rows)."""
        mapped, width, offset = self._mapped, self._low_bytes, self._key_low_offset
        while start < stop:
            middle = (start + stop) // 2
            place = offset + middle * width
            if int.from_bytes(mapped[place : place + width], "little") < low:
                start = middle + 1
            else:
                stop = middle
        return start

    def key_column(self) -> Array:
        """The keys of all the rows."""
        numbers = self._lows(0, self.rows)
        if self._bucket_bits:
            buckets = self.stored["key_buckets"].astype(np.int64)
            high = np.repeat(np.arange(len(buckets) - 1, dtype=np.uint64), np.diff(buckets))
            numbers = numbers | (high << np.uint64(64 - self._bucket_bits))
        return (numbers ^ _SIGN).view(np.int64)

    def game_places(self, rows: npt.NDArray[np.intp] | slice) -> Array:
        """The places in `ids` of the games of the rows."""
        return self.stored["local_games"][rows]

    def game_ids(self, rows: npt.NDArray[np.intp] | slice) -> Array:
        ids: Array = self.stored["ids"][self.game_places(rows)]
        return ids

    def plies_at(self, rows: npt.NDArray[np.intp] | slice) -> Array:
        plies = self.stored["short_plies"][rows].astype(np.uint16)
        if self._long_plies:
            places = np.flatnonzero(plies == LONG_PLY)
            if len(places):
                numbers = (rows.start or 0) + places if isinstance(rows, slice) else rows[places]
                plies[places] = self.stored["long_ply_values"][np.searchsorted(self.stored["long_ply_rows"], numbers)]
        return plies

    def symmetry_column(self) -> Array:
        return self.stored["symmetries"] if self.keeps_symmetries else np.zeros(self.rows, dtype=np.uint8)


class _Columns(Mapping[str, Array]):
    """A run's columns as arrays over its mapped file, each made when first asked for (a query
    reads a few of a run's columns; a process's first query opens every run); those of `decoded`
    made by their functions."""

    def __init__(self, mapped: mmap.mmap, layout: list[tuple[str, str, int, int]],
                 decoded: dict[str, Callable[[], Array]]) -> None:
        self._mapped = mapped
        self._layout = {name: (dtype, count, offset) for name, dtype, count, offset in layout}
        self._decoded = decoded
        self._made: dict[str, Array] = {}

    def __getitem__(self, name: str) -> Array:
        made = self._made.get(name)
        if made is None:
            if name in self._decoded:
                made = self._made[name] = self._decoded[name]()
            else:
                dtype, count, offset = self._layout[name]
                made = self._made[name] = np.frombuffer(self._mapped, dtype=dtype, count=count, offset=offset)
        return made

    def __iter__(self) -> Iterator[str]:
        return iter({**self._layout, **self._decoded})

    def __len__(self) -> int:
        return len({**self._layout, **self._decoded})


def _encoded(columns: dict[str, Array]) -> tuple[dict[str, int], dict[str, Array]]:
    """The header and the stored columns of a run of the columns a writer or a merge makes (whose
    `local_games` are the places of the rows' games in `ids`)."""
    keys, local, plies = columns["keys"], columns["local_games"], columns["plies"].astype(np.int64)
    rows = len(keys)
    if rows >= 1 << 32:
        raise ValueError(f"a run of {rows} rows is too big")
    symmetries = columns["symmetries"]
    header = {"rows": rows, "games": len(columns["ids"]), "totals": len(columns["total_keys"]),
              "tops": len(columns["top_keys"]), "bucket_bits": _bucket_bits(rows),
              "game_bytes": 2 if len(columns["ids"]) < 1 << 16 else 4, "symmetries": int(bool(symmetries.any()))}
    numbers, bits = _unsigned(keys), header["bucket_bits"]
    stored: dict[str, Array] = {}
    if bits:
        shift = np.uint64(64 - bits)
        stored["key_buckets"] = np.searchsorted(numbers >> shift, np.arange((1 << bits) + 1, dtype=np.uint64))
        numbers = numbers & np.uint64((1 << (64 - bits)) - 1)
    else:
        stored["key_buckets"] = np.array([0, rows])
    width = _low_bytes(bits)
    stored["key_low"] = numbers.astype("<u8").view(np.uint8).reshape(rows, 8)[:, :width]
    long = np.flatnonzero(plies >= LONG_PLY)
    header["long_plies"] = len(long)
    stored["long_ply_rows"], stored["long_ply_values"] = long, np.minimum(plies[long], PLY_MOST)
    stored["short_plies"] = np.minimum(plies, LONG_PLY)
    stored["local_games"], stored["moves"], stored["symmetries"] = local, columns["moves"], symmetries
    for name, _dtype in (*_GAME_COLUMNS, *_TOTAL_COLUMNS, *_TOP_COLUMNS):
        stored[name] = columns[name]
    return header, stored


def write_run(path: Path, columns: dict[str, Array]) -> None:
    """The columns into a new run file, atomically (a temporary name, synced, renamed, the folder synced)."""
    header, stored = _encoded(columns)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as file:
        file.write(_MAGIC + b"".join(header[field].to_bytes(8, "little") for field in _HEADER_FIELDS))
        for name, dtype, count, _offset in _layout(header):
            data = np.ascontiguousarray(stored[name], dtype=dtype).tobytes() if count else b""
            file.write(data + b"\x00" * (_padded(len(data)) - len(data)))
        file.flush()
        os.fsync(file.fileno())
    temporary.replace(path)
    _sync_folder(path.parent)


def group_totals(bounds: npt.NDArray[np.intp], size: int, moves: Array, outcomes: Array, white_elos: Array,
                 black_elos: Array, date_high: Array, date_low: Array) -> dict[str, Array]:
    """TOTALS_COLUMNS of rows sorted into groups that start at `bounds` (`size` rows in all)."""
    if not len(bounds):
        return {name: np.zeros(0, dtype) for name, dtype in TOTALS_COLUMNS}

    def add(values: Array) -> Array:
        return np.add.reduceat(values, bounds)

    year = starts_with_year(date_high)
    high = np.where(year, date_high, np.uint64(0))
    low = np.where(year, date_low, np.uint64(0))
    best_high = np.maximum.reduceat(high, bounds)
    group = np.repeat(np.arange(len(bounds)), np.diff(np.append(bounds, size)))
    low = np.where(high == best_high[group], low, np.uint64(0))
    white, black = white_elos.astype(np.uint64), black_elos.astype(np.uint64)
    return {
        "moves": moves[bounds],
        "games": np.diff(np.append(bounds, size)).astype(np.uint32),
        "white_wins": add((outcomes == 1).astype(np.uint32)),
        "draws": add((outcomes == 0).astype(np.uint32)),
        "black_wins": add((outcomes == -1).astype(np.uint32)),
        "white_elo_sum": add(white),
        "white_rated": add((white > 0).astype(np.uint32)),
        "black_elo_sum": add(black),
        "black_rated": add((black > 0).astype(np.uint32)),
        "date_high": best_high,
        "date_low": np.maximum.reduceat(low, bounds),
    }


def starts_of(*columns: Array) -> npt.NDArray[np.intp]:
    """Where each group of equal values (over all the columns, sorted) starts."""
    size = len(columns[0])
    new = np.zeros(size, dtype=bool)
    if size:
        new[0] = True
        for column in columns:
            new[1:] |= column[1:] != column[:-1]
    return np.flatnonzero(new)


def _with_busy_tables(columns: dict[str, Array]) -> dict[str, Array]:
    """The columns with the totals and top games of the positions that BUSY_POSTINGS of the games reached."""
    keys = columns["keys"]
    starts = starts_of(keys)
    counts = np.diff(np.append(starts, len(keys)))
    rows = np.repeat(counts >= BUSY_POSTINGS, counts)
    busy_keys, local, plies, moves = (columns[name][rows] for name in ("keys", "local_games", "plies", "moves"))
    games = columns["ids"][local]
    kinds, outcomes, white_elos, black_elos, date_high, date_low = (
        columns[name][local] for name in ("kinds", "outcomes", "white_elos", "black_elos", "date_high", "date_low"))
    order = np.lexsort((moves, kinds, busy_keys))
    bounds = starts_of(busy_keys[order], kinds[order], moves[order])
    totals = group_totals(bounds, len(order), moves[order], outcomes[order], white_elos[order], black_elos[order],
                          date_high[order], date_low[order])
    columns["total_keys"], columns["total_kinds"] = busy_keys[order][bounds], kinds[order][bounds]
    for name, value in totals.items():
        columns[f"total_{name}"] = value
    ratings = white_elos.astype(np.int32) + black_elos.astype(np.int32)
    order = np.lexsort((-local.astype(np.int64), -ratings, kinds, busy_keys))
    firsts = starts_of(busy_keys[order], kinds[order])
    rank = np.arange(len(order)) - np.repeat(firsts, np.diff(np.append(firsts, len(order))))
    order = order[rank < TOP_KEPT]
    plies = np.minimum(plies, PLY_MOST)
    for name, values in (("keys", busy_keys), ("kinds", kinds), ("games", games), ("plies", plies), ("moves", moves),
                         ("ratings", ratings)):
        columns[f"top_{name}"] = values[order]
    return columns


def _sync_folder(folder: Path) -> None:
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


_GAME_FIELDS = ("kinds", "outcomes", "white_elos", "black_elos", "speeds", "date_high", "date_low")


@dataclass(frozen=True)
class Postings:
    """The games that reached one position, with the ply where each did, the move it played, and
    the explorer's columns of each game (kind, outcome, ratings, speed, date)."""

    games: Array
    plies: Array
    moves: Array
    kinds: Array
    outcomes: Array
    white_elos: Array
    black_elos: Array
    speeds: Array
    date_high: Array
    date_low: Array

    def where(self, mask: npt.NDArray[np.bool_]) -> Postings:
        return Postings(*(getattr(self, name)[mask] for name in _POSTINGS_FIELDS))

    @staticmethod
    def joined(parts: list[Postings]) -> Postings:
        if len(parts) == 1:
            return parts[0]
        if not parts:
            dtypes = dict((*_ROW_COLUMNS, *_GAME_COLUMNS))
            return Postings(*(np.zeros(0, dtypes[name]) for name in _POSTINGS_FIELDS))
        return Postings(*(np.concatenate([getattr(part, name) for part in parts]) for name in _POSTINGS_FIELDS))


_POSTINGS_FIELDS = ("games", "plies", "moves", *_GAME_FIELDS)


def _run_postings(run: Run, rows: npt.NDArray[np.intp] | slice) -> Postings:
    """The postings at `rows` of a run, with their games' columns (a run's postings are of its own games)."""
    columns = run.stored
    local = run.game_places(rows)
    return Postings(columns["ids"][local], run.plies_at(rows), columns["moves"][rows],
                    *(columns[name][local] for name in _GAME_FIELDS))


def _stable_order(keys: Array) -> Array:
    """np.argsort(keys, kind="stable"), faster: a quicksort, then the rows of equal keys (those of
    positions that several games reached) put back in their first order."""
    order = np.argsort(keys)
    ordered = keys[order]
    tied = np.zeros(len(keys), dtype=bool)
    tied[1:] = ordered[1:] == ordered[:-1]
    tied[:-1] |= tied[1:]
    places = np.flatnonzero(tied)
    rows = order[places]
    order[places] = rows[np.lexsort((rows, ordered[places]))]
    return order


def sorted_first_visits(keys: Array, positions_per_game: npt.NDArray[np.int64]) -> tuple[Array, Array]:
    """Of positions packed one game after another (`positions_per_game` each): (the rows, sorted by
    (key, game, ply), of each game's first visit of each position; the game of each of those rows).
    A chunk's reader sorts its own games here, before it is known which of them are stored."""
    if _first_visits is not None:
        packed = np.ascontiguousarray(keys, dtype=np.int64)
        rows, games = np.empty(len(packed), dtype=np.int64), np.empty(len(packed), dtype=np.int64)
        kept = _first_visits.first_visits(packed, np.ascontiguousarray(positions_per_game, dtype=np.int64), rows, games)
        return rows[:kept], games[:kept]
    row_games = np.repeat(np.arange(len(positions_per_game), dtype=np.int64), positions_per_game)
    order = _stable_order(keys)  # the rows came game by game, ply by ply
    ordered_keys, ordered_games = keys[order], row_games[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (ordered_keys[1:] != ordered_keys[:-1]) | (ordered_games[1:] != ordered_games[:-1])
    return order[first], ordered_games[first]


@dataclass(frozen=True)
class SortedPositions:
    """A chunk's positions sorted by its reader (`sorted_first_visits`): `keys` and `moves` packed one
    game after another, game g's from `starts[g]`; `rows` and `row_games` as sorted_first_visits gives them."""

    keys: Array
    moves: Array
    starts: Array
    rows: Array
    row_games: Array


class RunWriter:
    """The rows and games of one chunk, collected game by game as arrays, written as one run."""

    def __init__(self) -> None:
        self.ids: list[int] = []  # of the games whose positions were added, in the order added
        self.keys: list[Array] = []
        self.plies: list[Array | None] = []  # None: 0, 1, 2, ...
        self.moves: list[Array] = []
        self.symmetries: list[Array | None] = []  # None: all 0
        self.game_rows: list[tuple[int, int, int, int, int, int, int, int]] = []
        self.sorted: tuple[SortedPositions, Array] | None = None  # where the positions came sorted, and each game's id
        self.game_columns: dict[str, Array] | None = None  # where the games came at once

    def add_game(self, game_id: int, kind: str, outcome: int | None, white_elo: int | None, black_elo: int | None,
                 speed: str, date: str) -> None:
        speed_code = _SPEED_CODES.get(speed, OTHER_SPEED)
        high, low = date_words(date)
        self.game_rows.append((game_id, KINDS.index(kind), NO_OUTCOME if outcome is None else outcome,
                               white_elo or 0, black_elo or 0, speed_code, high, low))

    def add_games(self, game_ids: Sequence[int], kind: str, outcomes: Sequence[int | None], white_elos: Sequence[int | None],
                  black_elos: Sequence[int | None], speeds: Sequence[str], dates: Sequence[str]) -> None:
        """`add_game` for many games of one kind at once, their ids growing (a run's games added here alone)."""
        assert not self.game_rows and self.game_columns is None
        dates_read = np.array([date.encode("utf-8")[:DATE_BYTES] for date in dates], dtype=f"S{DATE_BYTES}")
        date_words_read = dates_read.view(">u8").reshape(-1, 2).astype(np.uint64)
        self.game_columns = {
            "ids": np.array(game_ids, dtype=np.uint32),
            "kinds": np.full(len(game_ids), KINDS.index(kind), dtype=np.uint8),
            "outcomes": np.array([NO_OUTCOME if outcome is None else outcome for outcome in outcomes], dtype=np.int8),
            "white_elos": np.array([elo or 0 for elo in white_elos], dtype=np.int16),
            "black_elos": np.array([elo or 0 for elo in black_elos], dtype=np.int16),
            "speeds": np.array([_SPEED_CODES.get(speed, OTHER_SPEED) for speed in speeds], dtype=np.uint8),
            "date_high": date_words_read[:, 0],
            "date_low": date_words_read[:, 1],
        }

    def add_positions(self, game_id: int, keys: Sequence[int], plies: Sequence[int], moves: Sequence[int | None],
                      symmetries: Sequence[int] | None) -> None:
        self.ids.append(game_id)
        self.keys.append(np.array(keys, dtype=np.int64))
        self.plies.append(np.array(plies, dtype=np.int64))
        self.moves.append(np.array([ENDED if move is None else move for move in moves], dtype=np.int16))
        self.symmetries.append(np.array(symmetries, dtype=np.uint8) if symmetries is not None else None)

    def add_packed_positions(self, game_id: int, keys: Array, moves: Array, plies: Array | None = None,
                             symmetries: Array | None = None) -> None:
        """A game's positions: int64 keys and int16 moves (ENDED where it ended), at plies 0, 1, 2,
        ... unless `plies` (int64) says, of symmetry 0 unless `symmetries` (uint8) says."""
        self.ids.append(game_id)
        self.keys.append(keys)
        self.plies.append(plies)
        self.moves.append(moves)
        self.symmetries.append(symmetries)

    def add_sorted_positions(self, positions: SortedPositions, game_ids: Array) -> None:
        """The positions of all the run's games at once, sorted by their reader: `game_ids` the id of each of
        `positions`' games (0 for one that is not stored; the ids grow with the games' order)."""
        assert not self.keys and self.sorted is None
        self.sorted = (positions, game_ids)

    def _sorted_rows(self, ids: Array) -> dict[str, Array]:
        assert self.sorted is not None
        positions, game_ids = self.sorted
        stored = game_ids[positions.row_games] != 0
        rows, row_games = positions.rows[stored], positions.row_games[stored]
        return {
            "keys": positions.keys[rows],
            "local_games": np.searchsorted(ids, game_ids.astype(np.uint32)).astype(np.uint32)[row_games],
            "plies": np.minimum(rows - positions.starts[row_games], PLY_MOST).astype(np.uint16),
            "moves": positions.moves[rows],
            "symmetries": np.zeros(len(rows), dtype=np.uint8),
        }

    def columns(self) -> dict[str, Array]:
        """The run's columns: rows sorted by (key, game), each game's first visit of a position only."""
        if self.game_columns is not None:
            games = self.game_columns
        else:
            game_rows = sorted(self.game_rows)
            fields = list(zip(*game_rows)) if game_rows else [()] * len(_GAME_COLUMNS)
            games = {name: np.array(values, dtype=dtype) for values, (name, dtype) in zip(fields, _GAME_COLUMNS)}
        columns = self._sorted_rows(games["ids"]) if self.sorted is not None else self._added_rows(games["ids"])
        columns.update(games)
        return _with_busy_tables(columns)

    def _added_rows(self, ids: Array) -> dict[str, Array]:
        counts = np.array([len(keys) for keys in self.keys], dtype=np.int64)
        total = int(counts.sum())
        keys = np.concatenate(self.keys).astype(np.int64, copy=False) if self.keys else np.zeros(0, dtype=np.int64)
        games = np.searchsorted(ids, np.array(self.ids, dtype=np.uint32)).astype(np.uint32)
        starts = np.cumsum(counts) - counts
        plies = np.arange(total, dtype=np.int64) - np.repeat(starts, counts)
        for start, given in zip(starts.tolist(), self.plies):
            if given is not None:
                plies[start:start + len(given)] = given
        symmetries = np.zeros(total, dtype=np.uint8)
        for start, given in zip(starts.tolist(), self.symmetries):
            if given is not None:
                symmetries[start:start + len(given)] = given
        moves = np.concatenate(self.moves).astype(np.int16, copy=False) if self.moves else np.zeros(0, dtype=np.int16)
        rows, row_games = sorted_first_visits(keys, counts)
        return {
            "keys": keys[rows],
            "local_games": games[row_games],
            "plies": np.minimum(plies[rows], PLY_MOST).astype(np.uint16),
            "moves": moves[rows],
            "symmetries": symmetries[rows],
        }


class PositionIndex:
    """The runs the table `runs` of one database names, mapped as they are asked for."""

    def __init__(self, connection: sqlite3.Connection, database_path: Path) -> None:
        self.connection, self.database_path, self.folder = connection, database_path, index_folder(database_path)
        self._runs: dict[str, Run] = {}

    def listed(self) -> list[tuple[str, int, int]]:
        """(name, rows, games) of the runs, in the order of their games."""
        return [(str(name), int(rows), int(games)) for name, rows, games in
                self.connection.execute("SELECT name, positions, games FROM runs ORDER BY first_game")]

    def runs(self) -> list[Run]:
        """The runs listed now (a run merged away and deleted between the listing and its opening
        is listed again); DamagedDatabase where one is missing or is not a run."""
        for _attempt in range(3):
            names = [name for name, _rows, _games in self.listed()]
            try:
                runs = [self._run(name) for name in names]
            except FileNotFoundError:
                continue
            except ValueError as error:
                raise DamagedDatabase(self.database_path, f"the position index's {error}") from None
            for name in set(self._runs) - set(names):
                del self._runs[name]
            return runs
        raise DamagedDatabase(self.database_path, f"a run of the position index in {self.folder} is missing")

    def _run(self, name: str) -> Run:
        run = self._runs.get(name)
        if run is None:
            run = self._runs[name] = Run(self.folder / name)
        return run

    def position_count(self) -> int:
        return sum(rows for _name, rows, _games in self.listed())

    def postings(self, key: int, runs: list[Run] | None = None) -> Postings:
        found: list[Postings] = []
        for run in runs if runs is not None else self.runs():
            low, high = run.span(key)
            if high > low:
                found.append(_run_postings(run, slice(low, high)))
        return Postings.joined(found)

    def postings_of(self, key: int, runs: list[Run], games: npt.NDArray[np.uint32]) -> Postings:
        """The postings of `key` of the games named (sorted ids, no repeats): each run's games at a
        key are in order, so the games named are looked up in them rather than the other way round."""
        found: list[Postings] = []
        for run in runs:
            ids = run.stored["ids"]
            low, high = run.span(key)
            if high == low or not len(ids):
                continue
            # Of the games named, the run's own (its ids are in order), as their places in its ids.
            named = games[int(np.searchsorted(games, ids[0], "left")) : int(np.searchsorted(games, ids[-1], "right"))]
            reached = run.game_places(slice(low, high))
            named_places = np.searchsorted(ids, named)
            named_places = named_places[ids[named_places] == named].astype(reached.dtype)
            places = np.searchsorted(reached, named_places)
            inside = places < len(reached)
            places = places[inside]
            found.append(_run_postings(run, low + places[reached[places] == named_places[inside]]))
        return Postings.joined(found)


def merge_runs(runs: list[Run]) -> dict[str, Array]:
    """The columns of the runs (of consecutive games, in their order) as one run's."""
    columns: dict[str, Array] = {}
    keys = np.concatenate([run.key_column() for run in runs])
    order = np.argsort(keys, kind="stable")  # within a key, the earlier runs' (smaller) game ids first
    columns["keys"] = keys[order]
    del keys
    firsts = np.cumsum([0, *(run.games for run in runs)])
    columns["local_games"] = np.concatenate([run.stored["local_games"].astype(np.uint32) + np.uint32(first)
                                             for run, first in zip(runs, firsts.tolist())])[order]
    columns["plies"] = np.concatenate([run.plies_at(slice(0, run.rows)) for run in runs])[order]
    columns["moves"] = np.concatenate([run.stored["moves"] for run in runs])[order]
    columns["symmetries"] = np.concatenate([run.symmetry_column() for run in runs])[order]
    for name, _dtype in _GAME_COLUMNS:
        columns[name] = np.concatenate([run.stored[name] for run in runs])
    return _with_busy_tables(columns)


def new_run_name(first_game: int) -> str:
    return f"{first_game:010d}-{secrets.token_hex(4)}.run"


@contextmanager
def run_transaction(connection: sqlite3.Connection) -> Iterator[list[Path]]:
    """A write transaction whose run files (the caller appends each to the list it is given) are
    deleted when it does not commit: no run is left that SQLite does not name."""
    written: list[Path] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield written
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        for path in written:
            path.unlink(missing_ok=True)
        raise


def add_run(connection: sqlite3.Connection, folder: Path, columns: dict[str, Array]) -> Path:
    """Write a run of new games and name it in `runs`, inside the caller's write transaction (the
    caller deletes the file if that transaction does not commit)."""
    folder.mkdir(parents=True, exist_ok=True)
    first_game = int(columns["ids"].min())
    path = folder / new_run_name(first_game)
    write_run(path, columns)
    connection.execute("INSERT INTO runs (name, first_game, positions, games) VALUES (?, ?, ?, ?)",
                       (path.name, first_game, len(columns["keys"]), len(columns["ids"])))
    return path


def compact(connection: sqlite3.Connection, folder: Path, merge_rows_most: int = MERGE_ROWS_MOST) -> int:
    """Merge the newest runs into one while the run before them holds no more rows than they do
    together (and the merged run would hold at most `merge_rows_most`); the runs merged away."""
    merged: list[str] = []
    with run_transaction(connection) as written:
        listed = [(str(name), int(first), int(rows)) for name, first, rows in
                  connection.execute("SELECT name, first_game, positions FROM runs ORDER BY first_game")]
        start, newest_rows = len(listed) - 1, listed[-1][2] if listed else 0
        while start > 0 and listed[start - 1][2] <= newest_rows and newest_rows + listed[start - 1][2] <= merge_rows_most:
            start -= 1
            newest_rows += listed[start][2]
        if start < len(listed) - 1:
            merged = [name for name, _first, _rows in listed[start:]]
            columns = merge_runs([Run(folder / name) for name in merged])
            path = folder / new_run_name(listed[start][1])
            written.append(path)
            write_run(path, columns)
            connection.executemany("DELETE FROM runs WHERE name = ?", [(name,) for name in merged])
            connection.execute("INSERT INTO runs (name, first_game, positions, games) VALUES (?, ?, ?, ?)",
                               (path.name, listed[start][1], len(columns["keys"]), len(columns["ids"])))
    for name in merged:
        _delete(folder / name)
    return len(merged)


def _delete(path: Path) -> None:
    """A file no run names any more; where it cannot go yet (mapped by a reader, on a system that
    keeps such files), the next import's `remove_leftovers` tries again."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def remove_leftovers(connection: sqlite3.Connection, folder: Path) -> None:
    """Delete the files of the folder that `runs` does not name (a killed import's or merge's)."""
    if not folder.is_dir():
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        named = {str(row[0]) for row in connection.execute("SELECT name FROM runs")}
        for path in folder.iterdir():
            if path.name not in named and (path.suffix in (".run", ".tmp")):
                _delete(path)
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
