"""The game database: import games, explore the moves played from a position, list its games.

    reviewer db import PATH...                 files and folders (PGN, SGF, GIB, NGF, UGF; .bz2/.zst/.xz/.gz)
    reviewer db explore [POSITION] [FILTERS]   the moves played from a position, with their results
    reviewer db games [POSITION] [FILTERS]     the games that reached it
    reviewer db join-analysis                  the analysis cache's accuracy and loss joined to each game
    reviewer db check                          whether the database file is sound
    reviewer db rebuild                        a damaged database read again from its games' files

A position is --fen FEN and/or --moves "e4 c5 Nf3" (chess), --game go [--size 19] --moves "Q16 D4"
(Go), or --sgf FILE --ply N (the position after ply N of the file's first game, chess or Go); the
start position when none is given. Filters: --player NAME [--color white|black], --since DATE,
--until DATE, --min-rating R (the players' average), --speed blitz|rapid|..., --min-accuracy A, and
for Go --either-colours (the position with the colours swapped counts too). The database is the
one in the data directory unless --db names another (made when missing).

An import can be cut (Ctrl-C or killed): the next import of the same files goes on where it
stopped; a file already read is not read again unless it changed. A damaged database is named
by every command, which then stops (status 1); `rebuild` moves it aside and reads the same files
again (the lines and notes the player added to games are kept elsewhere and stay). Exit status: 0
done, 1 the database is damaged, 2 bad input (a file or position that cannot be read), 130
interrupted.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from reviewer.commands.exit_codes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from reviewer.core.database import (
    DamagedDatabase,
    ExploreFilters,
    GameDatabase,
    ImportProgress,
    Position,
    StoredGame,
    check_database,
    chess_position,
    damage_in,
    default_database_path,
    explore,
    games_at,
    go_position,
    import_paths,
    position_of_game,
    rebuild_database,
)
from reviewer.core.database.explorer import check_filters, shown_date
from reviewer.core.database.figures import GameFigures, figures_of
from reviewer.core.database.importer import CHUNK_GAMES
from reviewer.core.database.records import SPEED_WORDS
from reviewer.core.database.repair import NotAGameDatabase, refuse_foreign
from reviewer.core.errors import GameFileError
from reviewer.core.formats import load_game
from reviewer.core.games import game_support


def _add_database(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=None, help=f"the database file (default {default_database_path()})")


def _add_position(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=("chess", "go"), default=None, help="the game of --moves (default chess)")
    parser.add_argument("--fen", default=None, help="chess: the position (moves in --moves are played from it)")
    parser.add_argument("--moves", default="", help='moves from the start: SAN/UCI for chess, GTP for Go ("Q16 D4 pass")')
    parser.add_argument("--size", type=int, default=19, help="Go: the board size (default 19)")
    parser.add_argument("--sgf", type=Path, default=None, help="a game file (SGF, PGN, ...): the position at --ply")
    parser.add_argument("--ply", type=int, default=0, help="with --sgf: the ply (0 = the start)")
    parser.add_argument("--player", default="", help="only games of this player (name as in the files, or surname)")
    parser.add_argument("--color", choices=("white", "black"), default=None, help="with --player: the player's colour")
    parser.add_argument("--since", default="", help="only games played on or after DATE (YYYY[.MM[.DD]])")
    parser.add_argument("--until", default="", help="only games played on or before DATE")
    parser.add_argument("--min-rating", type=int, default=None, help="only games whose players' average rating is at least R")
    parser.add_argument("--speed", choices=SPEED_WORDS, default="", help="only games of this time control")
    parser.add_argument("--min-accuracy", type=float, default=None,
                        help="only games analysed in full (see join-analysis) where the player's accuracy (without"
                             " --player: the mean of both sides') is at least A")
    parser.add_argument("--either-colours", "--either-colors", action="store_true",
                        help="Go: also the games that reached the position with the colours swapped (Black's stones"
                             " White's, the other side to move), their results and colours read as this position's")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    importing = actions.add_parser("import", help="read game files and folders into the database")
    importing.add_argument("paths", nargs="+", type=Path, help="files and folders")
    importing.add_argument("--chunk-games", type=int, default=CHUNK_GAMES, help=f"games per transaction (default {CHUNK_GAMES})")
    importing.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    _add_database(importing)
    exploring = actions.add_parser("explore", help="the moves played from a position, with their results")
    _add_position(exploring)
    exploring.add_argument("--top", type=int, default=8, help="how many top games to list (default 8)")
    _add_database(exploring)
    listing = actions.add_parser("games", help="the games that reached a position")
    _add_position(listing)
    listing.add_argument("--limit", type=int, default=100, help="at most this many games (default 100)")
    _add_database(listing)
    checking = actions.add_parser("check", help="whether the database file is sound (SQLite's quick check)")
    _add_database(checking)
    joining = actions.add_parser("join-analysis", help="join the analysis cache's figures (accuracy, loss) to the games")
    joining.add_argument("--cache", type=Path, default=None, help="the analysis cache (default: the app's)")
    joining.add_argument("--again", action="store_true", help="every game, not only those without complete figures")
    joining.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    _add_database(joining)
    rebuilding = actions.add_parser("rebuild", help="move a damaged database aside and read its games' files again")
    rebuilding.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    _add_database(rebuilding)


def _position(args: argparse.Namespace) -> Position:
    if args.sgf is not None:
        game = load_game(args.sgf)
        return position_of_game(game, args.ply)
    moves = args.moves.replace(",", " ").split()
    if args.game == "go":
        return go_position(args.size, moves)
    moves = [text for text in moves if not text.rstrip(".").isdigit()]  # "1. e4 e5" reads too
    return chess_position(args.fen, [text.split(".")[-1] for text in moves])


def _filters(args: argparse.Namespace) -> ExploreFilters:
    if args.color and not args.player:
        raise ValueError("--color needs --player")
    filters = ExploreFilters(args.player.strip(), args.color, args.since, args.until, args.min_rating, args.speed, args.min_accuracy,
                             args.either_colours)
    check_filters(filters)
    return filters


def _game_json(game: StoredGame, figures: GameFigures | None = None) -> dict[str, Any]:
    return {
        "analysis": None if figures is None else figures.to_json(),
        "id": game.id,
        "kind": game.kind,
        "white": game.white,
        "black": game.black,
        "white_elo": game.white_elo,
        "black_elo": game.black_elo,
        "result": game.result,
        "date": game.date,
        "event": game.event,
        "speed": game.speed,
        "plies": game.plies,
        "file": game.source_path,
        "index": game.source_index,
    }


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def _game_line(game: StoredGame) -> str:
    white = f"{game.white or '?'}" + (f" ({game.white_elo})" if game.white_elo else "")
    black = f"{game.black or '?'}" + (f" ({game.black_elo})" if game.black_elo else "")
    return f"{white} – {black}  {game.result or '*'}  {shown_date(game.date)}  {game.event}"


def _run_import(args: argparse.Namespace) -> int:
    started = time.perf_counter()

    def show(progress: ImportProgress) -> None:
        elapsed_s = max(time.perf_counter() - started, 1e-9)
        print(
            f"{progress.path}: {progress.games_read}/{progress.games_in_file}{'' if progress.listed_all else '+'} read"
            f" ({100 * progress.file_fraction:.0f}% of the file); this import: {progress.stored} stored,"
            f" {progress.duplicates} duplicates, {progress.skipped} skipped ({progress.stored / elapsed_s:.0f} games/s)",
            file=sys.stderr,
            flush=True,
        )

    missing = [str(path) for path in args.paths if not path.exists()]
    if missing:
        for path in missing:
            print(f"reviewer db: {path}: no such file or folder", file=sys.stderr)
        return EXIT_BAD_INPUT
    with GameDatabase(args.db) as database:
        database.positions.runs()  # a damaged position index stops the import before a game is added to it
        report = import_paths(database, args.paths, chunk_games=max(1, args.chunk_games), progress=show)
        total = database.game_count()
    summary = {
        "database": str(args.db or default_database_path()),
        "files": len(report.files),
        "stored": report.stored,
        "duplicates": report.duplicates,
        "skipped": [{"file": path, "game": number, "reason": reason} for path, number, reason in report.skipped],
        "unreadable": report.unreadable,
        "already_read": report.already_read,
        "resumed": report.resumed,
        "games_in_database": total,
        "seconds": round(time.perf_counter() - started, 3),
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        for path, number in report.resumed.items():
            print(f"{path}: resumed after game {number}")
        for path in report.already_read:
            print(f"{path}: already read (unchanged)")
        for path, number, reason in report.skipped:
            print(f"skipped {path} game {number}: {reason}")
        for line in report.unreadable:
            print(f"not read: {line}")
        print(
            f"{_games(report.stored)} stored, {report.duplicates} duplicates, {len(report.skipped)} skipped;"
            f" {_games(total)} in {summary['database']}"
        )
    return EXIT_BAD_INPUT if report.unreadable and not report.stored and not report.duplicates else EXIT_OK


def _run_explore(args: argparse.Namespace, position: Position, filters: ExploreFilters) -> int:
    with GameDatabase(args.db) as database:
        found = explore(database, position, filters, top_games=max(0, args.top))
        figures = figures_of(database, [game.id for game, _move in found.top_games])
    if args.json:
        document = {
            "kind": found.kind,
            "games": found.games,
            "ended_here": found.ended_here,
            "moves": [
                {
                    "move": stats.move,
                    "games": stats.games,
                    "white_wins": stats.white_wins,
                    "draws": stats.draws,
                    "black_wins": stats.black_wins,
                    "average_rating": stats.average_rating,
                    "performance": stats.performance,
                    "last_played": stats.last_played,
                }
                for stats in found.moves
            ],
            "top_games": [{**_game_json(game, figures.get(game.id)), "move": move} for game, move in found.top_games],
        }
        print(json.dumps(document, ensure_ascii=False, indent=2))
        return EXIT_OK
    first = game_support(found.kind).first_player  # Go: Black's wins first, as Black moves first
    if not found.games:
        print("No game that the filters keep reached this position" if filters != ExploreFilters()
              else "No game in the database reached this position")
    else:
        print(f"{_games(found.games)} reached this position" + (f" ({found.ended_here} ended there)" if found.ended_here else ""))
    for stats in found.moves:
        rating = f"{stats.average_rating:.0f}" if stats.average_rating is not None else "-"
        performance = f"{stats.performance:.0f}" if stats.performance is not None else "-"
        wins = {"white": f"White {stats.white_wins}", "black": f"Black {stats.black_wins}"}
        second = "black" if first == "white" else "white"
        last = shown_date(stats.last_played) if stats.last_played else "-"
        print(f"  {stats.move:<8} {stats.games:>7}  {wins[first]} / draw {stats.draws} / {wins[second]}"
              f"  rating {rating}  performance {performance}  last {last}")
    if found.top_games:
        print("top games:")
        for game, move in found.top_games:
            print(f"  {move or '(end)':<8} {_game_line(game)}")
    return EXIT_OK


def _run_games(args: argparse.Namespace, position: Position, filters: ExploreFilters) -> int:
    with GameDatabase(args.db) as database:
        found = games_at(database, position, filters, limit=max(1, args.limit))
        figures = figures_of(database, [game.id for game, _ply, _move in found])
    if args.json:
        print(json.dumps([{**_game_json(game, figures.get(game.id)), "ply": ply, "move": move} for game, ply, move in found],
                         ensure_ascii=False, indent=2))
        return EXIT_OK
    for game, ply, move in found:
        shown = figures.get(game.id)
        accuracy = "" if shown is None else "  accuracy " + " / ".join(
            "-" if shown.accuracy[color] is None else f"{shown.accuracy[color]:.1f}" for color in ("white", "black")
        ) + ("" if shown.complete else f" (partial: {shown.positions_analysed} of {shown.positions_total} positions)")
        print(f"{game.id:>8}  ply {ply:<3} {move or '(end)':<8} {_game_line(game)}{accuracy}  {game.source_path}#{game.source_index + 1}")
    return EXIT_OK


def _run_join(args: argparse.Namespace) -> int:
    from reviewer.core.cache import AnalysisCache
    from reviewer.core.database.figures import join_analysis

    with GameDatabase(args.db) as database, AnalysisCache(args.cache) as cache:
        report = join_analysis(database, cache, again=args.again)
        if cache.warning:
            print(f"reviewer db: {cache.warning}", file=sys.stderr)
    summary = {"games": report.games, "joined": report.joined, "unreadable": report.unreadable}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{report.games} games looked at: {report.joined} have analysis in the cache"
              + (f", {report.unreadable} could not be read from their files" if report.unreadable else ""))
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    database_path = Path(args.db) if args.db is not None else default_database_path()
    try:
        return _run(args)
    except DamagedDatabase as damage:
        print(f"reviewer db: {damage}", file=sys.stderr)
        return EXIT_FAILED
    except NotAGameDatabase as foreign:
        print(f"reviewer db: {foreign}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except sqlite3.DatabaseError as error:
        found = damage_in(error, database_path)
        if found is None:
            raise
        print(f"reviewer db: {found}", file=sys.stderr)
        return EXIT_FAILED


def _run_check(args: argparse.Namespace) -> int:
    database_path = Path(args.db) if args.db is not None else default_database_path()
    refuse_foreign(database_path)
    if not database_path.exists():
        print(f"reviewer db: there is no game database at {database_path}", file=sys.stderr)
        return EXIT_BAD_INPUT
    problem = check_database(database_path)
    if problem is not None:
        raise DamagedDatabase(database_path, problem)
    print(f"{database_path}: sound")
    return EXIT_OK


def _run_rebuild(args: argparse.Namespace) -> int:
    database_path = Path(args.db) if args.db is not None else default_database_path()
    report = rebuild_database(database_path)
    summary = {
        "database": str(database_path),
        "damaged_copy": str(report.damaged_copy) if report.damaged_copy else None,
        "files": [str(path) for path in report.sources],
        "missing": [str(path) for path in report.missing],
        "stored": report.stored,
        "skipped": report.skipped,
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        if report.damaged_copy is not None:
            print(f"the old file is kept as {report.damaged_copy}")
        for path in report.missing:
            print(f"not read again (the file is gone): {path}")
        files = "1 file" if len(report.sources) == 1 else f"{len(report.sources)} files"
        print(f"{_games(report.stored)} read again from {files} into {database_path}")
    return EXIT_OK


def _run(args: argparse.Namespace) -> int:
    if args.action == "import":
        return _run_import(args)
    if args.action == "check":
        return _run_check(args)
    if args.action == "rebuild":
        return _run_rebuild(args)
    if args.action == "join-analysis":
        return _run_join(args)
    try:
        position = _position(args)
        filters = _filters(args)
    except (ValueError, IndexError, GameFileError) as error:
        print(f"reviewer db: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.action == "explore":
        return _run_explore(args, position, filters)
    return _run_games(args, position, filters)
