"""Where a game left the database, and where a player left their own usual line.

    left_database(database, game)          the first main-line move after which no other stored game
                                           reached the position
    left_own_line(database, game, player)  the first position, with the player to move, where they
                                           had played one move most often before and played another
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from reviewer.core.database.explorer import ExploreFilters, Position, games_reaching, moves_played, position_of_game
from reviewer.core.database.records import GameRecord, record_of_game
from reviewer.core.database.store import GameDatabase
from reviewer.core.gametree import Color, Game

__all__ = ["DatabaseDeparture", "LineDeparture", "left_database", "left_own_line", "player_color"]


@dataclass(frozen=True)
class DatabaseDeparture:
    ply: int  # the main-line ply of the move after which no other game reached the position
    move: str  # that move, as the game's file has it
    games_before: int  # the other games that had reached the position it was played from


@dataclass(frozen=True)
class LineDeparture:
    ply: int  # the main-line ply of the move the player played instead of their usual one
    played: str  # that move
    usual: str  # the move they had played most often there
    usual_games: int  # in how many of their earlier games
    games: int  # their earlier games that reached the position


def _own_id(database: GameDatabase, record: GameRecord) -> int:
    """The game's own row in the database (-1 when it is not stored): it is never its own company."""
    row = database.connection.execute("SELECT id FROM games WHERE fingerprint = ?", (record.fingerprint,)).fetchone()
    return int(row[0]) if row else -1


def _move_at(game: Game, ply: int) -> str:
    return game.node_at_ply(ply).move or ""


def left_database(database: GameDatabase, game: Game) -> DatabaseDeparture | None:
    """None when every position of the main line was reached by another game (or none was stored)."""
    record = record_of_game(game)
    if record is None:
        return None
    own = _own_id(database, record)
    before = 0
    for row in record.positions:
        games = games_reaching(database, Position(record.kind, row.key, "white"), own)
        if games == 0:
            if row.ply == 0:
                return None  # no other game started here: nothing to leave
            return DatabaseDeparture(row.ply, _move_at(game, row.ply), before)
        before = games
    return None


def _names_match(name: str, player: str) -> bool:
    name, player = name.strip().casefold(), player.strip().casefold()
    return bool(player) and (name == player or any(name.startswith(player + mark) for mark in (",", " ", "-")))


def player_color(game: Game, player: str) -> Color | None:
    """The colour the player had in the game (by the names the file gives), None when neither side is them."""
    if _names_match(game.white, player):
        return "white"
    if _names_match(game.black, player):
        return "black"
    return None


def left_own_line(database: GameDatabase, game: Game, player: str, least_games: int = 2) -> LineDeparture | None:
    """The first position of the main line, the player to move, where their earlier games (at least
    `least_games` of them) had one move most often and this game another. None when the player is
    not in the game, when they kept to their line, or when the line left their earlier games first."""
    color = player_color(game, player)
    record = record_of_game(game) if color is not None else None
    if record is None or color is None:
        return None
    own = _own_id(database, record)
    filters = ExploreFilters(player=player.strip(), color=color)
    for row in record.positions:
        if row.move is None:
            return None
        mover = game.node_at_ply(row.ply + 1).color
        if mover != color:
            continue
        position = position_of_game(game, row.ply)
        counts = Counter(moves_played(database, position, filters, own))
        games = sum(counts.values())
        if games == 0:
            return None
        usual, usual_games = max(counts.items(), key=lambda item: (item[1], -item[0]))
        # a move played as often as the most played one is as usual: no departure there
        if counts.get(row.move, 0) < usual_games and games >= least_games:
            return LineDeparture(row.ply + 1, _move_at(game, row.ply + 1), position.move_text(usual), usual_games, games)
    return None
