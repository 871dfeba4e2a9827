"""Estimate players' strength from many games (KGS's rank maths).

Reads the headers of every game in the PGN/SGF files and folders given (players, result, date,
ranks or ratings, handicap and komi), finds the most likely strength of every player at once,
and prints a table: Go players as kyu/dan ranks, chess players on the Elo scale. `?` marks a
player with no wins, no losses, or an interval wider than 2 ranks / 200 Elo each way.

Examples:
  reviewer rate ~/go/games/
  reviewer rate club.pgn --json ratings.json --half-life 180
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import unicodedata
from typing import Any

from reviewer.commands.exit_codes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from reviewer.core.atomic import write_text_atomic
from reviewer.core.games import game_support
from reviewer.core.rating import PlayerRating, RatingOptions, RatingResult, rate_games
from reviewer.core.rating.scale import interval_text as rating_interval_text
from reviewer.core.rating.sources import load_records

SCHEMA = "reviewer.ratings/1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="game files (.pgn, .sgf, ...) or folders")
    parser.add_argument("--json", metavar="OUT", help="also write the ratings as JSON (reviewer.ratings/1)")
    parser.add_argument(
        "--half-life",
        metavar="DAYS",
        type=float,
        default=365.0,
        help="a game's weight halves every DAYS days before the newest game (default 365; 0: no decay)",
    )
    parser.add_argument("--as-of", metavar="YYYY-MM-DD", help="count ages back from this date instead")


def interval_text(player: PlayerRating) -> str:
    return rating_interval_text(player.kind, player.rating, player.low, player.high)


def text_width(text: str) -> int:
    """Columns a terminal gives the text (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def record_text(player: PlayerRating) -> str:
    text = f"{player.wins}/{player.losses}"
    return f"{text}/{player.draws}" if player.draws else text


def table_lines(result: RatingResult) -> list[str]:
    kinds = {p.kind for p in result.players}
    header = ["Player", "Games", "W/L(/D)", "Rating", "Interval", "?"]
    if len(kinds) > 1:
        header.insert(1, "Game")
    rows: list[list[str]] = []
    for p in result.players:
        rating = "-" if p.rating is None else game_support(p.kind).rating_text(p.rating)
        row = [p.name, str(p.games), record_text(p), rating or "-", interval_text(p), "?" if p.uncertain else ""]
        if len(kinds) > 1:
            row.insert(1, p.kind)
        rows.append(row)
    widths = [max(text_width(h), *(text_width(r[i]) for r in rows)) for i, h in enumerate(header)]
    right = {"Games", "Rating"}

    def pad(cell: str, width: int, to_right: bool) -> str:
        gap = " " * (width - text_width(cell))
        return gap + cell if to_right else cell + gap

    def line(cells: list[str]) -> str:
        return "  ".join(pad(c, w, h in right) for c, w, h in zip(cells, widths, header)).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def result_json(result: RatingResult, options: RatingOptions, problems: list[str]) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "options": {
            "half_life_days": options.half_life_days,
            "as_of": options.as_of.isoformat() if options.as_of else None,
            "interval_z": options.interval_z,
        },
        "games": {"used": result.games_used, "unknown": result.games_unknown, "skipped": result.games_skipped},
        "converged": result.converged,
        "problems": problems,
        "players": [p.to_json() for p in result.players],
    }


def run(args: argparse.Namespace) -> int:
    as_of = None
    if args.as_of:
        try:
            as_of = dt.date.fromisoformat(args.as_of)
        except ValueError:
            print(f"reviewer rate: --as-of wants a date like 2024-05-31, not {args.as_of!r}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if args.half_life < 0:
        print("reviewer rate: --half-life must be 0 (no decay) or a number of days", file=sys.stderr)
        return EXIT_BAD_INPUT
    options = RatingOptions(half_life_days=args.half_life or None, as_of=as_of)

    loaded = load_records(args.paths)
    for problem in loaded.problems:
        print(f"reviewer rate: {problem}", file=sys.stderr)
    if not loaded.records:
        print("reviewer rate: no games found in the paths given", file=sys.stderr)
        return EXIT_BAD_INPUT
    result = rate_games(loaded.records, options)
    if not result.players:
        print("reviewer rate: no game names both players", file=sys.stderr)
        return EXIT_BAD_INPUT
    print("\n".join(table_lines(result)))
    print(
        f"\n{result.games_used} games rated, {result.games_unknown} with an unknown result, "
        f"{result.games_skipped} without two named players."
    )
    if not result.converged:
        print("reviewer rate: the solver did not fully settle; figures may be off", file=sys.stderr)
    if args.json:
        text = json.dumps(result_json(result, options, loaded.problems), ensure_ascii=False, indent=1)
        try:
            write_text_atomic(args.json, text + "\n")
        except OSError as error:
            print(f"reviewer rate: cannot write {args.json}: {error.strerror or error}", file=sys.stderr)
            return EXIT_FAILED
    return EXIT_OK
