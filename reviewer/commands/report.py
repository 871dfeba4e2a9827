"""Score a game from the evaluations its file already carries, without an engine.

Chess: lichess-style [%eval] comments, or the analysis Reviewer writes into annotated PGN files
([%rvw ...]). Go: the analysis Reviewer writes into annotated SGF files (RVW[]), or Sabaki's
SBKV/SBKS. Without --json, prints a summary per side; --json OUT writes the reviewer.report/1
object (--json - writes it to standard output). Games without evaluations need `reviewer analyze`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reviewer.commands.exit_codes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from reviewer.commands.outputs import add_output_argument
from reviewer.core.errors import ReviewerError
from reviewer.core.games import game_support
from reviewer.core.gametree import Game
from reviewer.core.scoring import accuracy_name, headline_accuracy_field
from reviewer.core.scoring.common import top5_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a PGN/SGF file whose moves carry evaluations ([%%eval ...], or a Reviewer export)")
    parser.add_argument("--game", type=int, default=1, metavar="N", help="which game of the file (1 = the first)")
    parser.add_argument(
        "--preset",
        choices=("lichess", "seed"),
        default="lichess",
        help="judgement thresholds in win points: lichess 5/10/15 (default), seed 10/20/30",
    )
    parser.add_argument("--skip-book", action="store_true", help="leave book moves out of the per-side figures")
    add_output_argument(parser, "--json", "write the JSON report to OUT")


def _load_game(path: str, index: int) -> Game:
    from reviewer.core.formats import load_game

    return load_game(path, index)


def _fail(message: str, code: int) -> int:
    print(f"reviewer report: {message}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    from reviewer.core.atomic import write_text_atomic
    from reviewer.core.embedded_evals import EMBEDDED_ENGINE_ID, evaluations_from_game, has_embedded_evaluations
    from reviewer.core.report import GO_WINRATES_ONLY_NOTE, ReportOptions, build_report, report_to_json

    if args.game < 1:
        return _fail(f"--game counts from 1, not {args.game}", EXIT_BAD_INPUT)
    try:
        game = _load_game(args.file, args.game - 1)
    except (ReviewerError, OSError, IndexError, ValueError) as error:
        return _fail(str(error) or type(error).__name__, EXIT_BAD_INPUT)

    where = f"game {args.game} of {args.file}"
    if not has_embedded_evaluations(game):
        return _fail(
            f"{where} carries no {game_support(game.kind).embedded_name}, so there is nothing to score; run `reviewer analyze` to evaluate it",
            EXIT_BAD_INPUT,
        )

    evaluations = evaluations_from_game(game)
    report = build_report(
        game,
        evaluations,
        ReportOptions(preset=args.preset, skip_book=args.skip_book),
        _engine_info({e.engine_id for e in evaluations.ordered()}, EMBEDDED_ENGINE_ID),
    )
    if GO_WINRATES_ONLY_NOTE in report["notes"]:
        print(f"reviewer report: {where}: {GO_WINRATES_ONLY_NOTE}", file=sys.stderr)
    if args.json == "-":
        sys.stdout.write(report_to_json(report))
        return EXIT_OK
    if args.json:
        try:
            write_text_atomic(args.json, report_to_json(report))
        except OSError as error:
            return _fail(f"cannot write {args.json}: {error.strerror or error}", EXIT_FAILED)
        print(f"report written to {args.json}")
        return EXIT_OK
    print_summary(report)
    return EXIT_OK


def _engine_info(engine_ids: set[str], comments_id: str) -> dict[str, Any]:
    """Who evaluated: the [%eval] comments, or the engines named by a Reviewer export's records."""
    if engine_ids <= {comments_id, ""}:
        return {"name": "[%eval] comments of the game file", "id": comments_id}
    names = sorted({engine_id.split(" | ")[0] for engine_id in engine_ids if engine_id and engine_id != comments_id})
    ids = sorted(engine_id for engine_id in engine_ids if engine_id)
    return {"name": ", ".join(names), "id": ids[0] if len(ids) == 1 else None, "from_file": True}


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _count(counts: dict[str, int] | None, key: str) -> str:
    return "-" if counts is None else str(counts.get(key, 0))


def coverage_lines(report: dict[str, Any]) -> list[str]:
    """What the figures stand on, for the terminal: how much was analysed, by what, and whether
    labels were withheld (and how to get them)."""
    lines = []
    coverage = report.get("coverage") or {}
    if coverage.get("text"):
        lines.append(f"Analysis: {coverage['text']}" + ("" if coverage.get("complete") else " (partial: the figures cover those moves only)"))
    for entry in coverage.get("left_out") or ():
        lines.append(f"Not mixed in: {entry['positions']} positions by {entry['engine_id']}")
    trust = report.get("trust") or {}
    if trust.get("labels") is False:
        lines.append(f"Rough estimate, no move labels or accuracy: {trust.get('reason')}. {trust.get('remedy')}")
    return lines


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def summary_rows(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    white, black = report["summary"]["white"], report["summary"]["black"]
    kind = report["game"]["kind"]
    headline = headline_accuracy_field(kind, report.get("preset"))
    accuracies = [headline] + [key for key in ("accuracy_lichess", "accuracy", "accuracy_mean") if key != headline]
    rows = [(_capitalised(accuracy_name(kind, key)), key, 1) for key in accuracies] + [
        ("ACPL", "acpl", 1),
        ("STDCPL", "stdcpl", 1),
        ("Elo estimate", "elo_estimate", 0),
    ]
    if game_support(report["game"]["kind"]).scores.averaging == "weighted":
        rows = [
            ("KaTrain accuracy", "accuracy", 1),
            ("Weighted loss (points)", "weighted_loss", 2),
            ("Mean loss (points)", "mean_loss", 2),
            ("Top move (share)", "top_move_match", 2),
        ]
    table = [(label, _fmt(white[key], digits), _fmt(black[key], digits)) for label, key, digits in rows]
    if game_support(report["game"]["kind"]).scores.averaging == "weighted":
        table.append(("Top 5", top5_text(white), top5_text(black)))
    for label, key in (("Inaccuracies ?!", "inaccuracy"), ("Mistakes ?", "mistake"), ("Blunders ??", "blunder"), ("Book moves", "book"), ("Best moves", "best")):
        table.append((label, _count(white["counts"], key), _count(black["counts"], key)))
    scored = report.get("scored_moves") or {}
    table.append(("Moves scored", str(scored.get("white", "-")), str(scored.get("black", "-"))))
    return table


def print_summary(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    game = report["game"]
    console = Console()
    title = f"{game['white'] or 'White'} - {game['black'] or 'Black'}  {game['result'] or ''}".strip()
    table = Table(title=title)
    table.add_column("")
    table.add_column("White", justify="right")
    table.add_column("Black", justify="right")
    for row in summary_rows(report):
        table.add_row(*row)
    console.print(table)
    opening = game.get("opening")
    if opening:
        console.print(f"Opening: {opening['eco']} {opening['name']}", highlight=False)
    if game_support(game["kind"]).uses_thresholds:
        console.print(f"Preset: {report['preset']}" + ("  (book moves left out)" if report["skip_book"] else ""), highlight=False)
    for line in coverage_lines(report):
        console.print(line, highlight=False, markup=False)
    for note in report["notes"]:
        if not note.startswith(("partial analysis:", "rough estimate:", "other analyses")):
            console.print(f"Note: {note}", highlight=False, markup=False)
