"""Where each reviewed game left the player's repertoire, as the game database knows it: the first
position where the player had played one move most often in their other games and played another
in this one ("you played 4.b4 here in 32 of 34 games; this game 4.c3"). Found off the window's
thread once a collection's games are in the database; shown as a table of the insights."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reviewer.core.database import GameDatabase, left_own_line, player_color
from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection
from reviewer.core.games import game_support
from reviewer.gui.presenters import collection as present
from reviewer.gui.presenters.explorer import move_label

__all__ = ["RepertoireDeparture", "departures_table", "repertoire_departures"]


@dataclass(frozen=True)
class RepertoireDeparture:
    path: str
    index: int  # the game's place in its file, from 0
    opponent: str
    date: str
    color: str  # the player's
    ply: int  # of the move that left the line
    played: str  # that move, numbered ("4.c3")
    usual: str  # the move the player's other games had there most often, numbered
    usual_games: int
    games: int


def repertoire_departures(database: GameDatabase, sources: list[Path], player: str) -> list[RepertoireDeparture]:
    """For each game of `sources` where `player` played, where it left their usual line (the games
    that kept to it are not listed)."""
    found: list[RepertoireDeparture] = []
    for path in sources:
        try:
            collection = open_collection(path)
        except (GameFileError, OSError):
            continue
        for index in range(len(collection)):
            try:
                game = collection.game(index)
            except (GameFileError, ValueError, IndexError):
                continue
            color = player_color(game, player)
            if color is None or not game_support(game.kind).database_record_ref:
                continue
            left = left_own_line(database, game, player)
            if left is None:
                continue
            numbered = game_support(game.kind).numbered_moves
            found.append(RepertoireDeparture(
                str(path), index, game.black if color == "white" else game.white, game.date or "", color, left.ply,
                move_label(left.ply, left.played, numbered), move_label(left.ply, left.usual, numbered),
                left.usual_games, left.games,
            ))
    return found


def departures_table(departures: list[RepertoireDeparture]) -> present.Table:
    """One row per game that left the line; a double-click opens the game at the move."""
    rows = []
    for order, left in enumerate(departures):
        kept = f"{left.usual_games:,} of {left.games:,}"
        cells = (left.color.capitalize(), left.opponent or "?", left.date or "–", left.played, left.usual, kept)
        keys = (left.color, left.opponent, left.date, left.ply, left.usual, (left.usual_games / max(1, left.games), order))
        tooltip = f"You played {left.usual} here in {kept} of your other games; this game {left.played}"
        rows.append(present.Row(cells, keys, source={"path": left.path, "index": left.index}, ply=left.ply, tooltip=tooltip))
    columns = ("Colour", "Opponent", "Date", "This game", "Your usual move", "Usual in")
    return present.Table(columns, tuple(rows), frozenset({5}),
                         "No game left your usual line (as the games of the database show it), or no player is named.")
