"""The analysis the cache holds for the database's games, joined to them: per game the engine
setting that covers most of its main line, how many positions it analysed, and the accuracy and
loss of each side (docs/SCORING.md; the accuracy is the one the preset's review shows), so that
games can be filtered and listed by them.

The cache is keyed by position, not by game, so a game's figures are found by reading the game
again from its file and asking the cache for each of its positions: `join_analysis` does this for
the games not joined yet (or all of them), off the window's thread; `figures_of` reads the result.
A figure over part of the game says so (`complete` false) and never passes an accuracy filter.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from reviewer.core.analysis import EvaluationTable
from reviewer.core.cache import AnalysisCache, position_keys
from reviewer.core.coverage import select_analysis
from reviewer.core.errors import GameFileError
from reviewer.core.formats import GameCollection, open_collection
from reviewer.core.games import game_support
from reviewer.core.gametree import Color, Game
from reviewer.core.scoring import Preset, assess_game, headline_accuracy_field

__all__ = ["GameFigures", "JoinReport", "figures_of", "join_analysis", "join_game"]

COLORS: tuple[Color, Color] = ("white", "black")


@dataclass(frozen=True)
class GameFigures:
    game_id: int
    engine_id: str
    positions_analysed: int
    positions_total: int
    accuracy: dict[Color, float | None]
    loss: dict[Color, float | None]  # chess: average centipawn loss; Go: weighted points lost per move

    @property
    def complete(self) -> bool:
        return self.positions_analysed >= self.positions_total > 0

    def to_json(self) -> dict[str, object]:
        return {
            "engine": self.engine_id,
            "positions_analysed": self.positions_analysed,
            "positions_total": self.positions_total,
            "complete": self.complete,
            "accuracy": dict(self.accuracy),
            "loss": dict(self.loss),
        }


@dataclass
class JoinReport:
    games: int = 0  # games looked at
    joined: int = 0  # games the cache had analysis for
    unreadable: int = 0  # games whose file is gone or no longer holds them
    cancelled: bool = False


def figures_of(database: object, game_ids: list[int]) -> dict[int, GameFigures]:
    """The joined figures of these games (those the cache had analysis for)."""
    from reviewer.core.database.store import GameDatabase

    assert isinstance(database, GameDatabase)
    if not game_ids:
        return {}
    found: dict[int, GameFigures] = {}
    for start in range(0, len(game_ids), 500):
        chunk = game_ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in database.connection.execute(
            "SELECT game_id, engine_id, positions_analysed, positions_total, white_accuracy, black_accuracy,"
            f" white_loss, black_loss FROM figures WHERE engine_id != '' AND game_id IN ({marks})",
            chunk,
        ):
            game_id, engine_id, analysed, total, white_accuracy, black_accuracy, white_loss, black_loss = row
            found[int(game_id)] = GameFigures(int(game_id), str(engine_id), int(analysed), int(total),
                                              {"white": white_accuracy, "black": black_accuracy},
                                              {"white": white_loss, "black": black_loss})
    return found


def _figures(game_id: int, game: Game, cache: AnalysisCache, preset: str) -> GameFigures | None:
    plies = list(range(game.ply_count + 1))
    keys = position_keys(game, plies)
    covering = cache.engines_covering(keys.values())
    if not covering:
        return None
    engine_id = max(covering.items(), key=lambda item: (item[1], item[0]))[0]
    stored = cache.get_many(keys.values(), engine_id)
    table = EvaluationTable()
    for ply, key in keys.items():
        if key in stored:
            table.add(stored[key].with_ply(ply))
    basis = select_analysis(game, table.ordered(), ply_count=game.ply_count)
    assessment = assess_game(game, basis.evaluations, preset=cast(Preset, preset))
    loss_field = game_support(game.kind).scores.summary_loss_key
    shown = headline_accuracy_field(game.kind, preset)  # the accuracy the game's review shows
    return GameFigures(
        game_id, engine_id, len(table), len(plies),
        {color: getattr(assessment.summary[color], shown) for color in COLORS},
        {color: getattr(assessment.summary[color], loss_field) for color in COLORS},
    )


def join_analysis(
    database: object,
    cache: AnalysisCache,
    *,
    preset: str = "lichess",
    again: bool = False,
    sources: Sequence[Path] | None = None,
    progress: Callable[[object], None] | None = None,
    cancel: threading.Event | None = None,
) -> JoinReport:
    """Join the cache's analysis to the games whose figures are not complete yet (every game with
    `again`: an engine setting that covers more may have come), of the files `sources` alone
    when given (a collection just reviewed)."""
    from reviewer.core.database.store import GameDatabase

    assert isinstance(database, GameDatabase)
    connection = database.connection
    conditions, values = [], []
    if not again:
        conditions.append("g.id NOT IN (SELECT game_id FROM figures WHERE positions_analysed >= positions_total)")
    if sources is not None:
        named = [str(Path(path).resolve()) for path in sources]  # as the import names its sources
        conditions.append(f"s.path IN ({','.join('?' * len(named))})" if named else "0")
        values.extend(named)
    query = ("SELECT g.id, s.path, g.source_index, g.fingerprint FROM games g JOIN sources s ON s.id = g.source_id"
             + (f" WHERE {' AND '.join(conditions)}" if conditions else "")
             + " ORDER BY s.path, g.source_index")
    rows = connection.execute(query, values).fetchall()
    report = JoinReport()
    collections: dict[str, GameCollection | None] = {}
    written: list[tuple[object, ...]] = []
    for game_id, path, index, fingerprint in rows:
        if cancel is not None and cancel.is_set():
            report.cancelled = True
            break
        report.games += 1
        if path not in collections:
            try:
                collections[path] = open_collection(Path(path))
            except (GameFileError, OSError):
                collections[path] = None
        collection = collections[path]
        try:
            game = collection.game(int(index)) if collection is not None else None
        except (GameFileError, IndexError, ValueError):
            game = None
        if game is None or not _same_game(game, int(fingerprint)):
            report.unreadable += 1
            continue
        figures = _figures(int(game_id), game, cache, preset)
        if figures is None:
            written.append((int(game_id), "", 0, game.ply_count + 1, None, None, None, None))
            continue
        report.joined += 1
        written.append((figures.game_id, figures.engine_id, figures.positions_analysed, figures.positions_total,
                        figures.accuracy["white"], figures.accuracy["black"], figures.loss["white"], figures.loss["black"]))
        if progress is not None:
            progress(report)
    _write(database, written)
    return report


def join_game(database: object, cache: AnalysisCache, game: Game, *, preset: str = "lichess") -> GameFigures | None:
    """Join the cache's analysis to one game the player has open (the database's row with the same
    moves and headers), as `join_analysis` would; None when the database does not hold the game or
    the cache has nothing for it."""
    from reviewer.core.database.records import record_of_game
    from reviewer.core.database.store import GameDatabase

    assert isinstance(database, GameDatabase)
    record = record_of_game(game)
    if record is None:
        return None
    row = database.connection.execute("SELECT id FROM games WHERE fingerprint = ?", (record.fingerprint,)).fetchone()
    if row is None:
        return None
    figures = _figures(int(row[0]), game, cache, preset)
    if figures is None:
        _write(database, [(int(row[0]), "", 0, game.ply_count + 1, None, None, None, None)])
        return None
    _write(database, [(figures.game_id, figures.engine_id, figures.positions_analysed, figures.positions_total,
                       figures.accuracy["white"], figures.accuracy["black"], figures.loss["white"], figures.loss["black"])])
    return figures


def _write(database: object, rows: list[tuple[object, ...]]) -> None:
    from reviewer.core.database.store import GameDatabase

    assert isinstance(database, GameDatabase)
    connection = database.connection
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.executemany("INSERT OR REPLACE INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _same_game(game: Game, fingerprint: int) -> bool:
    """Whether the file still holds the game the database stored (same moves and headers)."""
    from reviewer.core.database.records import SkippedGame

    reference = game_support(game.kind).database_record_ref
    if not reference:
        return False
    try:
        record = reference.get()(game)
    except SkippedGame:
        return False
    return record.fingerprint == fingerprint
