"""The game database: every game the player stores, with an index over every position reached.

    GameDatabase(path)                     open or make a database file (default: the data directory)
    import_paths(database, paths)          read files and folders into it (resumable, deduplicating)
    explore(database, position, filters)   the moves played from a position, with their results
    games_at(database, position, filters)  the games that reached a position
    check_database(path), rebuild_database(path)  a damaged file found, and read again from its sources
"""

from __future__ import annotations

from reviewer.core.database.departures import (
    DatabaseDeparture,
    LineDeparture,
    left_database,
    left_own_line,
    player_color,
)
from reviewer.core.database.explorer import (
    Exploration,
    ExploreFilters,
    MoveStats,
    Position,
    chess_position,
    explore,
    games_at,
    go_position,
    position_of_game,
    position_of_node,
)
from reviewer.core.database.importer import ImportProgress, ImportReport, import_paths
from reviewer.core.database.repair import DamagedDatabase, RebuildReport, check_database, damage_in, rebuild_database
from reviewer.core.database.store import GameDatabase, StoredGame, default_database_path

__all__ = [
    "DamagedDatabase",
    "DatabaseDeparture",
    "Exploration",
    "ExploreFilters",
    "GameDatabase",
    "ImportProgress",
    "ImportReport",
    "LineDeparture",
    "MoveStats",
    "Position",
    "RebuildReport",
    "StoredGame",
    "check_database",
    "chess_position",
    "damage_in",
    "default_database_path",
    "explore",
    "games_at",
    "go_position",
    "import_paths",
    "left_database",
    "left_own_line",
    "player_color",
    "position_of_game",
    "position_of_node",
    "rebuild_database",
]
