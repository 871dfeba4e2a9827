"""The opening explorer over the database: for a position, how many games reached it and, for each
move played from it, the games, results, average rating of the players who played it, their
performance, when it was last played; and the top games through the position."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reviewer.core.database.store import ENDED, GameDatabase, StoredGame
from reviewer.core.games import IllegalMove, game_support
from reviewer.core.gametree import Color, Game, Node

__all__ = [
    "Exploration",
    "ExploreFilters",
    "MoveStats",
    "Position",
    "chess_position",
    "explore",
    "games_at",
    "go_position",
    "position_after_moves",
    "position_of_game",
    "position_of_node",
]


BUSY_GAMES = 500  # from this many games on, the top games are found from the best rated games down


@dataclass(frozen=True)
class Position:
    """A position to look up: its key, who is to move, and how to show moves on its board."""

    kind: str
    key: int
    to_move: Color
    describe: Callable[[int], str] = field(compare=False, default=str)  # a stored move code as the board shows it

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
    """The chess position after `moves` (SAN or UCI) from `fen` (the start position when None)."""
    return position_after_moves(Game(kind="chess", start_fen=fen or None), moves)


def go_position(size: int, moves: Sequence[str], first_player: Color = "black") -> Position:
    """The Go position after `moves` (GTP: Q16, D4, pass), Black first unless told otherwise."""
    return position_after_moves(Game(kind="go", board_width=size, board_height=size, first_player=first_player), moves)


def position_of_game(game: Game, ply: int) -> Position:
    """The position after main-line ply `ply` of a game (0 = its start), as its game keys it."""
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


@dataclass(frozen=True)
class MoveStats:
    move: str  # SAN (chess) / GTP (Go), on the asked board
    code: int
    games: int
    white_wins: int
    draws: int
    black_wins: int
    average_rating: float | None  # of the players who played the move
    performance: float | None  # their performance: opponents' average + 400 × (wins − losses) / games
    last_played: str


@dataclass(frozen=True)
class Exploration:
    kind: str
    games: int  # games that reached the position
    moves: list[MoveStats] = field(default_factory=list)
    ended_here: int = 0  # games whose main line ended in the position
    top_games: list[tuple[StoredGame, str]] = field(default_factory=list)  # with the move each played


def _date_key(text: str) -> str:
    return text.strip().replace("-", ".").replace("/", ".")


def _where(position: Position, filters: ExploreFilters) -> tuple[str, list[object]]:
    clauses = ["p.key = ?", "g.kind = ?"]
    values: list[object] = [position.key, position.kind]
    if filters.player:
        # The player's games from the name indexes (the name itself, or it followed by a comma or
        # a space: "Carlsen" finds "Carlsen, Magnus"), then only their positions are looked up.
        sides = [filters.color] if filters.color else ["white", "black"]
        name = filters.player
        selects = []
        for side in sides:
            named = (f"({side} = ? COLLATE NOCASE"
                     f" OR ({side} >= ? COLLATE NOCASE AND {side} < ? COLLATE NOCASE)"
                     f" OR ({side} >= ? COLLATE NOCASE AND {side} < ? COLLATE NOCASE))")
            if filters.min_accuracy is None:
                selects.append(f"SELECT id FROM games WHERE {named}")
            else:
                selects.append(f"SELECT id FROM games JOIN figures f ON f.game_id = id WHERE {named}"
                               f" AND f.positions_analysed >= f.positions_total AND f.{side}_accuracy >= ?")
            values.extend([name, name + ",", name + "-", name + " ", name + "!"])
            if filters.min_accuracy is not None:
                values.append(filters.min_accuracy)
        clauses.append("p.game_id IN (" + " UNION ALL ".join(selects) + ")")
    elif filters.color:
        raise ValueError("a colour filter needs a player")
    elif filters.min_accuracy is not None:
        clauses.append("p.game_id IN (SELECT game_id FROM figures WHERE positions_analysed >= positions_total"
                       " AND (white_accuracy + black_accuracy) / 2.0 >= ?)")
        values.append(filters.min_accuracy)
    if filters.since:
        clauses.append("g.date >= ?")
        values.append(_date_key(filters.since))
    if filters.until:
        until = _date_key(filters.until)
        clauses.append("substr(g.date, 1, ?) <= ?")
        values.extend([len(until), until])
    if filters.min_rating is not None:
        clauses.append("coalesce((g.white_elo + g.black_elo) / 2.0, g.white_elo, g.black_elo) >= ?")
        values.append(filters.min_rating)
    if filters.speed:
        clauses.append("g.speed = ?")
        values.append(filters.speed.lower())
    return " AND ".join(clauses), values


def explore(database: GameDatabase, position: Position, filters: ExploreFilters | None = None, top_games: int = 8) -> Exploration:
    filters = filters or ExploreFilters()
    where, values = _where(position, filters)
    mover, opponent = ("white", "black") if position.to_move == "white" else ("black", "white")
    win, loss = (1, -1) if position.to_move == "white" else (-1, 1)
    unfiltered = filters == ExploreFilters()
    totalled = unfiltered and database.connection.execute(
        "SELECT 1 FROM totalled WHERE key = ?", (position.key,)
    ).fetchone() is not None
    if totalled:
        # A busy position: its running totals (kept by the import) instead of every game's row.
        win_column, loss_column = ("white_wins", "black_wins") if position.to_move == "white" else ("black_wins", "white_wins")
        rows = database.connection.execute(
            f"SELECT nullif(t.move, {ENDED}), t.games, t.white_wins, t.draws, t.black_wins,"
            f" CASE WHEN t.{mover}_elo_count THEN 1.0 * t.{mover}_elo_sum / t.{mover}_elo_count END,"
            f" CASE WHEN t.{opponent}_elo_count THEN 1.0 * t.{opponent}_elo_sum / t.{opponent}_elo_count END,"
            f" t.{win_column}, t.{loss_column}, t.{opponent}_elo_count, t.last_date"
            " FROM totals t WHERE t.key = ? AND EXISTS (SELECT 1 FROM positions p JOIN games g ON g.id = p.game_id"
            " WHERE p.key = t.key AND g.kind = ?)",
            (position.key, position.kind),
        ).fetchall()
    else:
        rows = database.connection.execute(
            f"SELECT p.move, count(*), sum(g.outcome = 1), sum(g.outcome = 0), sum(g.outcome = -1),"
            f" avg(g.{mover}_elo), avg(g.{opponent}_elo), sum(g.outcome = {win}), sum(g.outcome = {loss}),"
            f" count(g.{opponent}_elo), max(CASE WHEN g.date GLOB '[0-9][0-9][0-9][0-9]*' THEN g.date END)"
            f" FROM positions p JOIN games g ON g.id = p.game_id WHERE {where} GROUP BY p.move",
            values,
        ).fetchall()
    moves: list[MoveStats] = []
    total = ended = 0
    for code, games, white_wins, draws, black_wins, mover_elo, opponent_elo, wins, losses, rated, last in rows:
        total += games
        if code is None:
            ended += games
            continue
        performance = None
        if opponent_elo is not None and rated:
            performance = round(opponent_elo + 400 * (wins - losses) / games, 1)
        moves.append(
            MoveStats(
                move=position.move_text(code),
                code=int(code),
                games=int(games),
                white_wins=int(white_wins or 0),
                draws=int(draws or 0),
                black_wins=int(black_wins or 0),
                average_rating=None if mover_elo is None else round(float(mover_elo), 1),
                performance=performance,
                last_played=str(last or ""),
            )
        )
    moves.sort(key=lambda stats: (-stats.games, stats.move))
    top: list[tuple[StoredGame, str]] = []
    if top_games and total:
        if totalled and total >= BUSY_GAMES:
            # Many games: walk the games from the best rated down until enough reached it.
            best = database.connection.execute(
                "SELECT g.id, p.move FROM games g CROSS JOIN positions p ON p.key = ? AND p.game_id = g.id"
                " WHERE g.kind = ? ORDER BY coalesce(g.white_elo, 0) + coalesce(g.black_elo, 0) DESC LIMIT ?",
                (position.key, position.kind, top_games),
            ).fetchall()
        else:
            best = database.connection.execute(
                f"SELECT g.id, p.move FROM positions p JOIN games g ON g.id = p.game_id WHERE {where}"
                " ORDER BY coalesce(g.white_elo, 0) + coalesce(g.black_elo, 0) DESC, g.id DESC LIMIT ?",
                [*values, top_games],
            ).fetchall()
        stored = {game.id: game for game in database.games_by_id([int(row[0]) for row in best])}
        top = [(stored[int(game_id)], "" if code is None else position.move_text(int(code))) for game_id, code in best]
    return Exploration(position.kind, total, moves, ended, top)


def games_at(
    database: GameDatabase, position: Position, filters: ExploreFilters | None = None, limit: int = 100
) -> list[tuple[StoredGame, int, str]]:
    """The games that reached the position: (game, the ply where it did, the move it played)."""
    where, values = _where(position, filters or ExploreFilters())
    rows = database.connection.execute(
        f"SELECT g.id, p.ply, p.move FROM positions p JOIN games g ON g.id = p.game_id WHERE {where}"
        " ORDER BY g.date DESC, g.id LIMIT ?",
        [*values, limit],
    ).fetchall()
    stored = {game.id: game for game in database.games_by_id([int(row[0]) for row in rows])}
    return [
        (stored[int(game_id)], int(ply), "" if code is None else position.move_text(int(code)))
        for game_id, ply, code in rows
    ]
