"""The game database: an SQLite file, one row per distinct game, and the position index beside it
(`position_index.py`: the games that reached each position, in sorted runs of files of its own).

Tables:
    sources    a file read into the database: its size and modification time when read, how many
               of its games were read (an import cut short goes on from there), whether all were
    games      one distinct game (same moves and headers = one row): players, ratings, result,
               outcome (1 White won, 0 draw, -1 Black won, NULL unknown), date, speed, moves
    runs       the runs of the position index (files in `games.sqlite.positions/`): each one's
               name, the first of its games' ids, how many positions and games it holds. A run is
               named here in the transaction that stores its games.
    skipped    the games of a source that could not be stored, with the reason
    figures    per game, the analysis the cache held for it when joined (`figures.join_analysis`):
               the engine setting, positions analysed of all, each side's accuracy and loss
               (engine_id '' where the cache had none)
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from reviewer.core import paths
from reviewer.core.database.position_index import ENDED, PositionIndex, index_folder
from reviewer.core.database.repair import DamagedDatabase, damage_in, refuse_foreign
from reviewer.core.shared_sqlite import create_versioned_schema, open_shared

__all__ = ["ENDED", "SCHEMA_VERSION", "GameDatabase", "StoredGame", "default_database_path"]

SCHEMA_VERSION = 3  # 1: the position index was a table of this file; 2: its runs were of 17 bytes a row
BUSY_TIMEOUT_S = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS sources (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    size_bytes INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    games_read INTEGER NOT NULL DEFAULT 0,
    complete INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    fingerprint INTEGER NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    source_id INTEGER,
    source_index INTEGER,
    white TEXT NOT NULL DEFAULT '',
    black TEXT NOT NULL DEFAULT '',
    white_elo INTEGER,
    black_elo INTEGER,
    result TEXT NOT NULL DEFAULT '',
    outcome INTEGER,
    date TEXT NOT NULL DEFAULT '',
    event TEXT NOT NULL DEFAULT '',
    speed TEXT NOT NULL DEFAULT '',
    board_size INTEGER NOT NULL DEFAULT 8,
    plies INTEGER NOT NULL DEFAULT 0,
    moves TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS games_by_white ON games (white COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS games_by_black ON games (black COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS runs (
    name TEXT PRIMARY KEY,
    first_game INTEGER NOT NULL,
    positions INTEGER NOT NULL,
    games INTEGER NOT NULL
);
DROP INDEX IF EXISTS games_by_rating;  -- earlier versions' (the position index's runs keep the ratings)
CREATE TABLE IF NOT EXISTS figures (
    game_id INTEGER PRIMARY KEY,
    engine_id TEXT NOT NULL,
    positions_analysed INTEGER NOT NULL,
    positions_total INTEGER NOT NULL,
    white_accuracy REAL,
    black_accuracy REAL,
    white_loss REAL,
    black_loss REAL
);
CREATE TABLE IF NOT EXISTS skipped (
    source_id INTEGER NOT NULL,
    source_index INTEGER NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (source_id, source_index)
)
"""


def default_database_path() -> Path:
    return paths.data_dir() / "games.sqlite"


@dataclass(frozen=True)
class StoredGame:
    """A game as the database lists it."""

    id: int
    kind: str
    white: str
    black: str
    white_elo: int | None
    black_elo: int | None
    result: str
    date: str
    event: str
    speed: str
    board_size: int
    plies: int
    moves: str
    source_path: str
    source_index: int


def _create_schema(connection: sqlite3.Connection) -> None:
    create_versioned_schema(connection, _SCHEMA, SCHEMA_VERSION, "game database")


_EARLIER_SCHEMAS = {f"unknown game database schema {version}" for version in range(1, SCHEMA_VERSION)}


class GameDatabase:
    """One database file. Not shared between threads; open one per thread or process."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_database_path()
        refuse_foreign(self.path)
        try:
            self.connection = open_shared(self.path, BUSY_TIMEOUT_S, _create_schema)
        except sqlite3.DatabaseError as error:
            if str(error) in _EARLIER_SCHEMAS:
                raise DamagedDatabase(self.path, "its position index is of an earlier version of Reviewer") from None
            damage = damage_in(error, self.path)
            if damage is not None:
                raise damage from None
            raise
        self.connection.execute("PRAGMA temp_store = MEMORY")
        self.index_folder = index_folder(self.path)
        self.positions = PositionIndex(self.connection, self.path)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> GameDatabase:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def game_count(self, kind: str | None = None) -> int:
        if kind is None:
            row = self.connection.execute("SELECT count(*) FROM games").fetchone()
        else:
            row = self.connection.execute("SELECT count(*) FROM games WHERE kind = ?", (kind,)).fetchone()
        return int(row[0])

    def position_count(self) -> int:
        """Positions reached, counted once per game that reached them."""
        return self.positions.position_count()

    def skipped(self) -> list[tuple[str, int, str]]:
        """(file, game number from 1, reason) of every game that could not be stored."""
        rows = self.connection.execute(
            "SELECT s.path, k.source_index, k.reason FROM skipped k JOIN sources s ON s.id = k.source_id"
            " ORDER BY s.path, k.source_index"
        ).fetchall()
        return [(str(path), int(index) + 1, str(reason)) for path, index, reason in rows]

    def game(self, game_id: int) -> StoredGame | None:
        rows = self.games_by_id([game_id])
        return rows[0] if rows else None

    def games_by_id(self, game_ids: list[int]) -> list[StoredGame]:
        if not game_ids:
            return []
        marks = ",".join("?" * len(game_ids))
        rows = self.connection.execute(
            "SELECT g.id, g.kind, g.white, g.black, g.white_elo, g.black_elo, g.result, g.date, g.event, g.speed,"
            " g.board_size, g.plies, g.moves, coalesce(s.path, ''), coalesce(g.source_index, 0)"
            f" FROM games g LEFT JOIN sources s ON s.id = g.source_id WHERE g.id IN ({marks})",
            game_ids,
        ).fetchall()
        by_id = {int(row[0]): StoredGame(*row) for row in rows}
        return [by_id[game_id] for game_id in game_ids if game_id in by_id]
