"""The opening explorer over the database: for a position, how many games reached it and, for each
move played from it, the games, results, average rating of the players who played it, their
performance, when it was last played; and the top games through the position."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from reviewer.core.database.position_index import (
    DATE_BYTES,
    ENDED,
    KINDS,
    SPEEDS,
    TOP_KEPT,
    TOTALS_COLUMNS,
    Postings,
    Run,
    date_words,
    group_totals,
    starts_of,
    starts_with_year,
)
from reviewer.core.database.store import GameDatabase, StoredGame
from reviewer.core.games import IllegalMove, game_support
from reviewer.core.gametree import Color, Game, Node, other_color

__all__ = [
    "Exploration",
    "ExploreFilters",
    "MoveStats",
    "Position",
    "SwappedColours",
    "check_filters",
    "chess_position",
    "explore",
    "games_at",
    "games_reaching",
    "go_position",
    "moves_played",
    "position_after_moves",
    "position_of_game",
    "position_of_node",
    "shown_date",
]


@dataclass(frozen=True)
class SwappedColours:
    """Go: the position with Black's stones White's and White's Black's and the other side to move:
    its key, and each of its stored move codes as the position's own."""

    key: int
    codes: Mapping[int, int]


@dataclass(frozen=True)
class Position:
    """A position to look up: its key, who is to move, and how to show moves on its board."""

    kind: str
    key: int
    to_move: Color
    describe: Callable[[int], str] = field(compare=False, default=str)  # a stored move code as the board shows it
    swapped: SwappedColours | None = field(compare=False, default=None)  # where the colours may be swapped (Go)

    def move_text(self, code: int) -> str:
        return self.describe(code)


def position_after_moves(game: Game, moves: Sequence[str]) -> Position:
    """The position after `moves` (as a player types them: SAN or UCI, GTP or "pass") from the
    start of `game`, played by its rules; ValueError says which move they refuse and why."""
    support = game_support(game.kind)
    rules = support.rules
    position, node = rules.start(game), game.root
    for text in moves:
        try:
            played = rules.play(position, text)
        except IllegalMove as refused:
            raise ValueError(refused.sentence) from None
        node = node.add_child(support.new_node(game, played))
        position = played.position
    return position_of_node(game, node)


def chess_position(fen: str | None = None, moves: Sequence[str] = ()) -> Position:
    """The chess position after `moves` (SAN or UCI) from `fen` (the start position when None). A
    FEN whose castling rights only Chess960 can hold (a king off e1/e8 that may castle, or
    Shredder-FEN's rook files) is a Chess960 position, as the database keys its Chess960 games."""
    start = Game(kind="chess")
    if fen:
        start = game_support("chess").rules.record_game({"fen": fen}, start.first_player)  # the FEN read as its rules read a position
    return position_after_moves(start, moves)


def go_position(size: int, moves: Sequence[str], first_player: Color = "black") -> Position:
    """The Go position after `moves` (GTP: Q16, D4, pass), Black first unless told otherwise;
    ValueError for a board size no game file holds."""
    fewest, most = game_support("go").board_lines or (size, size)
    if not fewest <= size <= most:
        raise ValueError(f"a {size}x{size} board: boards from {fewest} to {most} lines are supported")
    return position_after_moves(Game(kind="go", board_width=size, board_height=size, first_player=first_player), moves)


def position_of_game(game: Game, ply: int) -> Position:
    """The position after main-line ply `ply` of a game (0 = its start), as its game keys it."""
    if ply < 0:
        raise ValueError(f"ply {ply}: a ply counts from 0 (the start)")
    return position_of_node(game, game.node_at_ply(ply))


def position_of_node(game: Game, node: Node) -> Position:
    """The position after `node` (the root: the start) of a game, a variation's node too."""
    reference = game_support(game.kind).database_position_ref
    if not reference:
        raise ValueError(f"the database holds no {game.kind} games")
    return reference.get()(game, node)


@dataclass(frozen=True)
class ExploreFilters:
    player: str = ""  # a name as the file has it, or its surname before a comma; case ignored
    color: Color | None = None  # with player: the player had this colour
    since: str = ""  # a date "YYYY", "YYYY.MM" or "YYYY.MM.DD" (dashes too), inclusive
    until: str = ""
    min_rating: int | None = None  # the two players' average rating (the one rating when one is known)
    speed: str = ""
    # The accuracy joined from the analysis cache (`figures.join_analysis`), over the whole game:
    # the player's (of their colour) with a player, else the mean of both sides'.
    min_accuracy: float | None = None
    # Go: the games that reached the position with the colours swapped too (Kombilo's colours not
    # fixed): counted as this position's, their results and their players' colours read the other way.
    either_colours: bool = False


@dataclass(frozen=True)
class MoveStats:
    move: str  # SAN (chess) / GTP (Go), on the asked board
    code: int
    games: int
    white_wins: int
    draws: int
    black_wins: int
    average_rating: float | None  # of the players who played the move
    performance: float | None  # their performance: opponents' average + 400 × (wins − losses) / games with a result
    last_played: str


@dataclass(frozen=True)
class Exploration:
    kind: str
    games: int  # games that reached the position
    moves: list[MoveStats] = field(default_factory=list)
    ended_here: int = 0  # games whose main line ended in the position
    top_games: list[tuple[StoredGame, str]] = field(default_factory=list)  # with the move each played
    top_plies: dict[int, int] = field(default_factory=dict)  # game id -> the ply where each top game reached the position


_DATE_FORMS = "YYYY, YYYY.MM or YYYY.MM.DD"


def _date_key(text: str) -> str:
    """A filter's date as the database writes dates ("2024.03"); ValueError for what is no date
    (a filter that silently kept no game, or every game, would be a wrong answer)."""
    key = text.strip().replace("-", ".").replace("/", ".")
    parts = key.split(".")
    widths = (4, 2, 2)
    if len(parts) > 3 or any(len(part) != width or not part.isdigit() for part, width in zip(parts, widths)):
        raise ValueError(f"{text.strip()!r} is not a date: write {_DATE_FORMS}")
    if len(parts) > 1 and not 1 <= int(parts[1]) <= 12:
        raise ValueError(f"{text.strip()!r} is not a date: there is no month {parts[1]}")
    if len(parts) > 2 and not 1 <= int(parts[2]) <= 31:
        raise ValueError(f"{text.strip()!r} is not a date: there is no day {parts[2]}")
    return key


def shown_date(text: str) -> str:
    """A date as far as it is known, in its own separators: "1858.??.??" -> "1858", "2024.05.??" ->
    "2024.05", "2020-03-??" -> "2020-03", "" or "????.??.??" -> "?"."""
    parts = re.split(r"([.\-/])", text.strip())
    known = parts[:1] if parts[0].isdigit() else []
    for separator, part in zip(parts[1::2], parts[2::2]):
        if not known or not part.isdigit():
            break
        known += [separator, part]
    return "".join(known) or "?"


def check_filters(filters: ExploreFilters) -> None:
    """ValueError naming the first filter the database cannot take (a date that is no date)."""
    for date in (filters.since, filters.until):
        if date.strip():
            _date_key(date)


def _casefold(text: str | None) -> str | None:
    return text.casefold() if text else text


def _name_condition(database: GameDatabase, side: str, name: str) -> tuple[str, list[object]]:
    """The SQL that keeps the games where `side` ("white", "black") is `name`, and its values."""
    if name.isascii():  # SQLite's NOCASE folds ASCII letters alone, and its name indexes serve it
        return (f"({side} = ? COLLATE NOCASE"
                f" OR ({side} >= ? COLLATE NOCASE AND {side} < ? COLLATE NOCASE)"
                f" OR ({side} >= ? COLLATE NOCASE AND {side} < ? COLLATE NOCASE))",
                [name, name + ",", name + "-", name + " ", name + "!"])
    # "ülle" finds "Ülle Ärmel": Unicode's case folding, over every game (no index folds so)
    database.connection.create_function("reviewer_casefold", 1, _casefold, deterministic=True)
    folded = name.casefold()
    return (f"(reviewer_casefold({side}) = ? OR substr(reviewer_casefold({side}), 1, ?) IN (?, ?))",
            [folded, len(folded) + 1, folded + ",", folded + " "])


def _player_games(database: GameDatabase, filters: ExploreFilters) -> npt.NDArray[np.uint32] | None:
    """The ids of the games the player or accuracy filter keeps (None: no such filter)."""
    values: list[object] = []
    if filters.player:
        # The player's games from the name indexes: the name itself, or it followed by a comma or
        # a space ("Carlsen" finds "Carlsen, Magnus").
        sides = [filters.color] if filters.color else ["white", "black"]
        name = filters.player
        selects = []
        for side in sides:
            named, named_values = _name_condition(database, side, name)
            if filters.min_accuracy is None:
                selects.append(f"SELECT id FROM games WHERE {named}")
            else:
                selects.append(f"SELECT id FROM games JOIN figures f ON f.game_id = id WHERE {named}"
                               f" AND f.positions_analysed >= f.positions_total AND f.{side}_accuracy >= ?")
            values.extend(named_values)
            if filters.min_accuracy is not None:
                values.append(filters.min_accuracy)
        query = " UNION ALL ".join(selects)
    elif filters.color:
        raise ValueError("a colour filter needs a player")
    elif filters.min_accuracy is not None:
        query = ("SELECT game_id AS id FROM figures WHERE positions_analysed >= positions_total"
                 " AND (white_accuracy + black_accuracy) / 2.0 >= ?")
        values.append(filters.min_accuracy)
    else:
        return None
    # One text of the ids rather than a row each: several times faster for a player's thousands of games.
    listed = database.connection.execute(f"SELECT group_concat(id) FROM ({query})", values).fetchone()[0]
    return np.fromstring(listed or "", dtype=np.uint32, sep=",")


def _until_words(until: str) -> tuple[int, int, int, int]:
    """(high, low, high mask, low mask): a date's first len(until) bytes compared with `until`."""
    size = min(len(until.encode("utf-8")), DATE_BYTES)
    high, low = date_words(until)
    mask = int.from_bytes(b"\xff" * size + b"\x00" * (DATE_BYTES - size), "big")
    return high, low, mask >> 64, mask & ((1 << 64) - 1)


def _reached(database: GameDatabase, position: Position, filters: ExploreFilters,
             excluded_game: int | None = None) -> Postings:
    """The games of `position`'s kind that reached it and that the filters keep (with
    `either_colours`, those that reached it with the colours swapped too, read as this position's)."""
    found = _reached_key(database, position.key, position.kind, filters, excluded_game)
    if not (filters.either_colours and position.swapped is not None):
        return found
    other_colour = None if filters.color is None else other_color(filters.color)
    swapped = _reached_key(database, position.swapped.key, position.kind, replace(filters, color=other_colour), excluded_game)
    joined = Postings.joined([found, _read_the_other_way(swapped, position.swapped.codes)])
    _, firsts = np.unique(joined.games, return_index=True)  # a game that reached both is counted once
    keep = np.zeros(len(joined.games), dtype=bool)
    keep[firsts] = True
    return joined.where(keep)


def _read_the_other_way(found: Postings, codes: Mapping[int, int]) -> Postings:
    """Postings of the colour-swapped position as the position's: White's win Black's, each side's
    rating the other's, each move by its code on this board."""
    outcomes = found.outcomes.copy()
    decided = (outcomes == 1) | (outcomes == -1)
    outcomes[decided] = -outcomes[decided]
    moves = np.array([codes.get(int(code), int(code)) for code in found.moves.tolist()], dtype=found.moves.dtype)
    return replace(found, outcomes=outcomes, moves=moves, white_elos=found.black_elos, black_elos=found.white_elos)


def _reached_key(database: GameDatabase, key: int, kind: str, filters: ExploreFilters,
                 excluded_game: int | None = None) -> Postings:
    runs = database.positions.runs()
    allowed = _player_games(database, filters)
    if allowed is None:
        found = database.positions.postings(key, runs)
    else:
        allowed = np.sort(allowed)  # (np.unique would load numpy.ma, 10 ms, on a process's first query)
        found = database.positions.postings_of(key, runs, allowed[starts_of(allowed)])
    games = found.games
    keep = found.kinds == KINDS.index(kind) if kind in KINDS else np.zeros(len(games), bool)
    if excluded_game is not None and excluded_game >= 0:
        keep &= games != excluded_game
    if filters.since.strip() or filters.until.strip():
        high, low = found.date_high.astype(np.uint64, copy=False), found.date_low.astype(np.uint64, copy=False)
        keep &= starts_with_year(found.date_high)  # a game of unknown date was played neither before nor after
        if filters.since.strip():
            since_high, since_low = date_words(_date_key(filters.since))
            keep &= (high > since_high) | ((high == since_high) & (low >= since_low))
        if filters.until.strip():
            until_high, until_low, high_mask, low_mask = _until_words(_date_key(filters.until))
            high, low = high & np.uint64(high_mask), low & np.uint64(low_mask)
            keep &= (high < until_high) | ((high == until_high) & (low <= until_low))
    if filters.min_rating is not None:
        white, black = found.white_elos.astype(np.float64), found.black_elos.astype(np.float64)
        rated = (white > 0) | (black > 0)
        rating = np.where((white > 0) & (black > 0), (white + black) / 2.0, white + black)
        keep &= rated & (rating >= filters.min_rating)
    if filters.speed:
        speed = filters.speed.lower()
        keep &= found.speeds == SPEEDS.index(speed) if speed in SPEEDS else False
    return found.where(keep)


_Table = dict[str, npt.NDArray[np.generic]]  # TOTALS_COLUMNS: per move, its games' totals


def _totals_of(found: Postings) -> _Table:
    order = np.argsort(found.moves, kind="stable")
    moves = found.moves[order]
    return group_totals(starts_of(moves), len(moves), moves, found.outcomes[order], found.white_elos[order],
                        found.black_elos[order], found.date_high[order], found.date_low[order])


def _combined(tables: list[_Table]) -> _Table:
    """Tables of the same position (from different runs, a move in several) as one: per move, the
    sums and the latest date."""
    merged = {name: np.concatenate([table[name] for table in tables]) for name, _dtype in TOTALS_COLUMNS}
    order = np.argsort(merged["moves"], kind="stable")
    moves = merged["moves"][order]
    bounds = starts_of(moves)
    if not len(bounds):
        return merged
    combined = {name: np.add.reduceat(merged[name][order], bounds) for name, _dtype in TOTALS_COLUMNS[1:-2]}
    combined["moves"] = moves[bounds]
    high, low = merged["date_high"][order], merged["date_low"][order]
    best_high = np.maximum.reduceat(high, bounds)
    group = np.repeat(np.arange(len(bounds)), np.diff(np.append(bounds, len(moves))))
    combined["date_high"] = best_high
    combined["date_low"] = np.maximum.reduceat(np.where(high == best_high[group], low, np.uint64(0)), bounds)
    return combined


@dataclass
class _Candidates:
    """Games that may be among the top games: their ids, plies, moves and summed ratings."""

    parts: list[tuple[npt.NDArray[np.generic], ...]] = field(default_factory=list)

    def add(self, games: npt.NDArray[np.generic], plies: npt.NDArray[np.generic], moves: npt.NDArray[np.generic],
            ratings: npt.NDArray[np.generic]) -> None:
        self.parts.append((games, plies, moves, ratings))

    def best(self, count: int) -> list[tuple[int, int, int]]:
        """(game, ply, move) of the `count` best rated (among equals a game that went on from the
        position before one that ended there, an empty record, then the later game)."""
        if not self.parts:
            return []
        games, plies, moves, ratings = (np.concatenate([part[place] for part in self.parts]) for place in range(4))
        ended = (moves.astype(np.int64) == ENDED).astype(np.int64)
        order = np.lexsort((-games.astype(np.int64), ended, -ratings.astype(np.int64)))[:count]
        return [(int(games[place]), int(plies[place]), int(moves[place])) for place in order]


def _ratings(found: Postings) -> npt.NDArray[np.int64]:
    return found.white_elos.astype(np.int64) + found.black_elos.astype(np.int64)


def _slice(keys: npt.NDArray[np.generic], key: int) -> slice:
    return slice(int(np.searchsorted(keys, key, "left")), int(np.searchsorted(keys, key, "right")))


def _unfiltered(database: GameDatabase, position: Position) -> tuple[_Table, _Candidates]:
    """Every game of the position's kind that reached it: a run where the position is busy gives
    its totals and best rated games, the others their rows."""
    runs = database.positions.runs()
    candidates = _Candidates()
    tables: list[_Table] = []
    kind = KINDS.index(position.kind) if position.kind in KINDS else -1
    rest: list[Run] = []
    busy: list[tuple[Run, slice, slice]] = []
    for run in runs:
        totals = _slice(run.columns["total_keys"], position.key)
        if totals.stop == totals.start:
            rest.append(run)
        else:
            busy.append((run, totals, _slice(run.columns["top_keys"], position.key)))
    if busy:
        # Each column's rows of the busy runs at once (a run's few rows one by one cost more).
        def gathered(name: str, place: int) -> npt.NDArray[np.generic]:
            return np.concatenate([run.columns[name][spans[place]] for run, *spans in busy])

        mine = gathered("total_kinds", 0) == kind
        tables.append({name: gathered(f"total_{name}", 0)[mine] for name, _dtype in TOTALS_COLUMNS})
        mine = gathered("top_kinds", 1) == kind
        candidates.add(*(gathered(f"top_{name}", 1)[mine] for name in ("games", "plies", "moves", "ratings")))
    if rest or not tables:
        found = database.positions.postings(position.key, rest)
        found = found.where(found.kinds == kind)
        tables.append(_totals_of(found))
        candidates.add(found.games, found.plies, found.moves, _ratings(found))
    return _combined(tables), candidates


def explore(database: GameDatabase, position: Position, filters: ExploreFilters | None = None, top_games: int = 8) -> Exploration:
    filters = filters or ExploreFilters()
    if filters == ExploreFilters() and top_games <= TOP_KEPT:
        table, candidates = _unfiltered(database, position)
    else:
        found = _reached(database, position, filters)
        table, candidates = _totals_of(found), _Candidates()
        candidates.add(found.games, found.plies, found.moves, _ratings(found))
    white_to_move = position.to_move == "white"
    mover, opponent = ("white", "black") if white_to_move else ("black", "white")
    win, loss = ("white_wins", "black_wins") if white_to_move else ("black_wins", "white_wins")
    rows = {name: table[name].tolist() for name, _dtype in TOTALS_COLUMNS}  # plain ints: read one at a time below
    moves: list[MoveStats] = []
    total = ended = 0
    for place, code in enumerate(rows["moves"]):
        games = rows["games"][place]
        total += games
        if code == ENDED:
            ended = games
            continue
        mover_rated, opponent_rated = rows[f"{mover}_rated"][place], rows[f"{opponent}_rated"][place]
        performance = None
        decided = rows["white_wins"][place] + rows["draws"][place] + rows["black_wins"][place]
        if opponent_rated and decided:  # over the games with a result: an unfinished one scores nothing either way
            opponent_elo = rows[f"{opponent}_elo_sum"][place] / opponent_rated
            performance = round(opponent_elo + 400 * (rows[win][place] - rows[loss][place]) / decided, 1)
        last = (rows["date_high"][place].to_bytes(8, "big") + rows["date_low"][place].to_bytes(8, "big")).rstrip(b"\x00")
        moves.append(
            MoveStats(
                move=position.move_text(code),
                code=code,
                games=games,
                white_wins=rows["white_wins"][place],
                draws=rows["draws"][place],
                black_wins=rows["black_wins"][place],
                average_rating=round(rows[f"{mover}_elo_sum"][place] / mover_rated, 1) if mover_rated else None,
                performance=performance,
                last_played=last.decode("utf-8", "replace"),
            )
        )
    moves.sort(key=lambda stats: (-stats.games, stats.move))
    top: list[tuple[StoredGame, str]] = []
    if top_games and total:
        chosen = candidates.best(top_games)
        stored = {game.id: game for game in database.games_by_id([game_id for game_id, _ply, _code in chosen])}
        top = [(stored[game_id], "" if code == ENDED else position.move_text(code)) for game_id, _ply, code in chosen]
        plies = {game_id: int(ply) for game_id, ply, _code in chosen}
    return Exploration(position.kind, total, moves, ended, top, plies if top_games and total else {})


def games_at(
    database: GameDatabase, position: Position, filters: ExploreFilters | None = None, limit: int = 100
) -> list[tuple[StoredGame, int, str]]:
    """The games that reached the position: (game, the ply where it did, the move it played), the
    latest first."""
    found = _reached(database, position, filters or ExploreFilters())
    games = found.games
    # The latest date first (~ reverses an unsigned number's order), then the smaller id.
    order = np.lexsort((games, ~found.date_low.astype(np.uint64, copy=False), ~found.date_high.astype(np.uint64, copy=False)))[:limit]
    chosen = [(int(games[place]), int(found.plies[place]), int(found.moves[place])) for place in order]
    stored = {game.id: game for game in database.games_by_id([game_id for game_id, _ply, _code in chosen])}
    return [
        (stored[game_id], ply, "" if code == ENDED else position.move_text(code))
        for game_id, ply, code in chosen
    ]


def moves_played(database: GameDatabase, position: Position, filters: ExploreFilters,
                 excluded_game: int | None = None) -> dict[int, int]:
    """The games that reached the position and the filters keep, by the move each played from it
    (the games that ended there left out)."""
    found = _reached(database, position, filters, excluded_game)
    moves = np.sort(found.moves)
    starts = starts_of(moves)
    counts = np.diff(np.append(starts, len(moves)))
    return {int(moves[start]): int(games) for start, games in zip(starts, counts) if int(moves[start]) != ENDED}


def games_reaching(database: GameDatabase, position: Position, excluded_game: int | None = None) -> int:
    """How many games of the position's kind reached it, `excluded_game` left out."""
    found = _reached(database, position, ExploreFilters(), excluded_game)
    return len(found.games)
