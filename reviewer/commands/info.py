"""List the games in a PGN/SGF/GIB/NGF/UGF file.

For each game: its number, kind, players, result, moves on the main line, board size, komi and
any warnings. Counting moves parses each game, so only the first --limit games are listed
(default 200; 0 lists them all). Exit status: 0 when the file opened (warnings or not), 2 when it
cannot be read at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection
from reviewer.core.games import game_support

DEFAULT_LIMIT = 200


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the game file")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
    parser.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        help=f"list at most this many games (default {DEFAULT_LIMIT}; 0 = all)",
    )


def _game_record(collection: Any, index: int) -> dict[str, Any]:
    game = collection.game(index)
    return {
        "index": index,
        "kind": game.kind,
        "white": game.white,
        "black": game.black,
        "white_rank": game.white_rank,
        "black_rank": game.black_rank,
        "result": game.result,
        "moves": game.move_count,
        "board_size": [game.board_width, game.board_height],
        "komi": game.komi,
        "variant": game.variant or ("chess960" if game.chess960 else ""),
        "warnings": list(game.warnings),
    }


def _length(record: dict[str, Any]) -> str:
    plies = record["moves"]
    if game_support(record["kind"]).numbered_moves:
        # A numbered "move" is a pair of plies; say plies so 61 is not read as 61 full moves.
        return f"{plies} plies" if plies != 1 else "1 ply"
    return f"{plies} moves" if plies != 1 else "1 move"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def run(args: argparse.Namespace) -> int:
    try:
        collection = open_collection(args.file)
    except GameFileError as error:
        print(f"reviewer info: {_one_line(str(error))}", file=sys.stderr)
        return 2
    total = len(collection)
    limit = total if args.limit <= 0 else min(total, args.limit)
    records = [_game_record(collection, index) for index in range(limit)]

    if args.json:
        document = {
            "file": str(args.file),
            "format": collection.format,
            "encoding": collection.encoding,
            "games_total": total,
            "games_listed": limit,
            "warnings": list(collection.warnings),
            "games": records,
        }
        print(json.dumps(document, ensure_ascii=False, indent=2))
        return 0

    print(f"{args.file}: {collection.format}, {total} game{'s' if total != 1 else ''}, encoding {collection.encoding}")
    for warning in collection.warnings:
        print(f"  warning: {_one_line(warning)}")
    for record in records:
        size = "x".join(str(n) for n in record["board_size"])
        komi = "" if record["komi"] is None else f" komi {record['komi']:g}"
        white = record["white"] or "?"
        black = record["black"] or "?"
        result = record["result"] or "?"
        print(
            f"{record['index'] + 1:>5}  {record['kind']:<5}  {white} - {black}  {result}  "
            f"{_length(record)}  {size}{komi}"
        )
        for warning in record["warnings"]:
            print(f"         warning: {_one_line(warning)}")
    if limit < total:
        print(f"... {total - limit} more game(s) not listed (use --limit 0 to list all)")
    return 0
