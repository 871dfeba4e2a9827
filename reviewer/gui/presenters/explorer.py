"""What the opening explorer panel says, without Qt: the rows of the moves played from the
position, the top games, the filters as the database takes them, and the lines of the move list's
departure marks."""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.core.database import DatabaseDeparture, Exploration, ExploreFilters, LineDeparture, MoveStats, StoredGame
from reviewer.core.database.explorer import shown_date
from reviewer.core.database.figures import GameFigures
from reviewer.core.gametree import Color

EMPTY_DATABASE = "Your game database is empty: add game files or a folder to see the moves played here."
FIRST_GAMES_COMING = "Adding the games of the file to your game database: the moves played here show once the first ones are in."
NO_GAMES_HERE = "No game in the database reached this position."
LOOKING_UP = "Looking up this position…"
STILL_ADDING = " (so far: games are still being added)"


@dataclass(frozen=True)
class ResultShares:
    """The bar of one move: the first player's wins, the draws, the second player's wins (fractions)."""

    first: float
    draws: float
    second: float
    first_color: Color
    tooltip: str


@dataclass(frozen=True)
class MoveRow:
    move: str
    games: str  # "123 (45%)"
    shares: ResultShares
    rating: str
    performance: str


@dataclass(frozen=True)
class GameRow:
    players: str
    result: str
    date: str
    move: str


def _side(color: Color) -> str:
    return "White" if color == "white" else "Black"


def _second(color: Color) -> Color:
    return "black" if color == "white" else "white"


NO_RESULT = "no result"  # the bar of a move whose games all lack one ("*")


def result_shares(stats: MoveStats, first_color: Color) -> ResultShares:
    """The shares of the games with a result; those without one are only named in the tooltip."""
    wins = {"white": stats.white_wins, "black": stats.black_wins}
    decided = stats.white_wins + stats.draws + stats.black_wins
    total = max(1, decided)
    first, second = wins[first_color], wins[_second(first_color)]
    tooltip = f"{_side(first_color)} won {first:,}, {stats.draws:,} drawn, {_side(_second(first_color))} won {second:,}"
    if stats.games > decided:
        tooltip += f"; {stats.games - decided:,} without a result"
    return ResultShares(first / total, stats.draws / total, second / total, first_color, tooltip)


def _percent(share: float) -> str:
    """"47%"; "<1%" for a share that rounds to nothing, which is not none."""
    return "<1%" if 0 < share < 0.005 else f"{100 * share:.0f}%"


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def move_rows(exploration: Exploration, first_color: Color) -> list[MoveRow]:
    total = max(1, exploration.games)
    return [
        MoveRow(
            stats.move,
            f"{stats.games:,} ({_percent(stats.games / total)})",
            result_shares(stats, first_color),
            _figure(stats.average_rating),
            _figure(stats.performance),
        )
        for stats in exploration.moves
    ]


def game_row(game: StoredGame, move: str, first_color: Color = "white") -> GameRow:
    """`first_color`: the player named first, the one who moves first (chess: White; Go: Black, as
    a Go pairing is written and as the window's header names them)."""
    white = (game.white.strip() or "?") + (f" ({game.white_elo})" if game.white_elo else "")
    black = (game.black.strip() or "?") + (f" ({game.black_elo})" if game.black_elo else "")
    players = f"{white} – {black}" if first_color == "white" else f"{black} – {white}"
    return GameRow(players, game.result or "*", shown_date(game.date), move or "(end)")


NO_FILTERED_GAMES_HERE = "No game that the filters keep reached this position."


def summary(exploration: Exploration, filtered: bool = False) -> str:
    """How many games reached the position; `filtered`: those the filters keep (said so)."""
    if exploration.games == 0:
        return NO_FILTERED_GAMES_HERE if filtered else NO_GAMES_HERE
    games = _games(exploration.games)
    ended = f", {exploration.ended_here:,} ended here" if exploration.ended_here else ""
    kept = " (of those the filters keep)" if filtered else ""
    return f"{games}{kept} reached this position{ended}"


def filters_of(
    player: str, mine: bool, color: Color | None, since: str, until: str, speed: str, min_rating: int,
    min_accuracy: int = 0,
) -> ExploreFilters:
    """The form's filters: `mine` with the player's name; a colour only with a player; 0 = any rating
    or accuracy."""
    name = player.strip() if mine else ""
    return ExploreFilters(
        player=name,
        color=color if name else None,
        since=since.strip(),
        until=until.strip(),
        min_rating=min_rating or None,
        speed=speed,
        min_accuracy=float(min_accuracy) if min_accuracy else None,
    )


@dataclass(frozen=True)
class AccuracyCell:
    text: str  # "91 / 85": the first player's (White's in chess, Black's in Go), the second's
    tooltip: str


def accuracy_cell(figures: GameFigures | None, first_color: Color = "white") -> AccuracyCell:
    """A top game's accuracy as the analysis cache gave it (joined when the game was reviewed),
    the first player's first (in the order the row names the players)."""
    if figures is None:
        return AccuracyCell("–", "Not analysed: review the game (or run `reviewer db join-analysis`)")
    first, second = first_color, _second(first_color)
    text = f"{_figure(figures.accuracy[first])} / {_figure(figures.accuracy[second])}"
    tooltip = f"Accuracy: {_side(first)} {_figure(figures.accuracy[first])}, {_side(second)} {_figure(figures.accuracy[second])}"
    if not figures.complete:
        text += "*"
        tooltip += f" (in part: {figures.positions_analysed} of {figures.positions_total} positions analysed)"
    return AccuracyCell(text, tooltip)


def import_progress_text(games_read: int, stored: int) -> str:
    """Short, for the bar beside Cancel (the file is named in its tooltip)."""
    return f"{games_read:,} read, {stored:,} new"


def import_progress_tooltip(path: str) -> str:
    return f"Adding the games of {path.rsplit('/', 1)[-1]}"


IMPORT_CANCELLED = "Adding games was cancelled before any was read."


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count:,} games"


def _named(paths: list[str]) -> str:
    return ", ".join(path.rsplit("/", 1)[-1] for path in paths[:3]) + (" …" if len(paths) > 3 else "")


def import_done_text(stored: int, duplicates: int, skipped: int, cancelled: bool = False,
                     unreadable: list[str] | None = None, already_read: list[str] | None = None,
                     resumed: list[str] | None = None) -> str:
    """What an import did; each file it could not read named with why, the files it had read
    before and those where it went on from where an earlier import stopped (up to three each)."""
    text = f"Cancelled: {_games(stored)} added" if cancelled else f"{_games(stored)} added"
    if duplicates:
        text += f", {duplicates:,} already there"
    if skipped:
        text += f", {skipped:,} could not be read"
    text += "."
    if resumed:
        text += f" Went on from where the last import stopped: {_named(resumed)}."
    if already_read:
        text += f" Read before and unchanged since: {_named(already_read)}."
    if unreadable:
        shown = "; ".join(line.rsplit("/", 1)[-1] for line in unreadable[:3]) + (" …" if len(unreadable) > 3 else "")
        text += f" Not read: {shown}."
    return text


def bad_filter_text(reason: str) -> str:
    return f"The filters cannot be used: {reason}."


def damaged_text(reason: str) -> str:
    return (f"Your game database cannot be read: it is damaged ({reason}). Rebuild reads its games again"
            " from their files; your lines and notes on games are kept apart and stay.")


def rebuild_done_text(stored: int, files: int, missing: list[str], damaged_copy: str, cancelled: bool = False) -> str:
    """What a rebuild of a damaged database did; the files it could not find named."""
    text = (f"Stopped: {_games(stored)} read again so far; Rebuild again or add the files to go on." if cancelled
            else f"The database was built again: {_games(stored)} from {files:,} file{'s' if files != 1 else ''}.")
    if missing:
        shown = ", ".join(path.rsplit("/", 1)[-1] for path in missing[:3]) + (" …" if len(missing) > 3 else "")
        text += f" Not found, so not back: {shown}."
    if damaged_copy:
        text += f" The damaged file is kept as {damaged_copy.rsplit('/', 1)[-1]}."
    return text


def move_label(ply: int, move: str, numbered: bool) -> str:
    """"7…Qb6" (numbered moves) or "move 12 (Q16)"."""
    if not numbered:
        return f"move {ply} ({move})"
    number = (ply + 1) // 2
    return f"{number}.{move}" if ply % 2 else f"{number}…{move}"


def database_departure_text(departure: DatabaseDeparture, numbered: bool) -> str:
    games = "1 other game" if departure.games_before == 1 else f"{departure.games_before:,} other games"
    return (
        f"Out of the database: after {move_label(departure.ply, departure.move, numbered)} no other game reached"
        f" the position ({games} had come this far)."
    )


def line_departure_text(departure: LineDeparture, numbered: bool) -> str:
    return (
        f"You left your usual line: you played {move_label(departure.ply, departure.usual, numbered)} here in"
        f" {departure.usual_games:,} of your {departure.games:,} other games; in this one"
        f" {move_label(departure.ply, departure.played, numbered)}."
    )
