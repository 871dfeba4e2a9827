"""Analyse games with an engine; print each side's figures, write a JSON report and an annotated copy.

Chess games go to a UCI engine (Stockfish by default), Go games to KataGo's analysis engine.
Positions already in the analysis cache are not searched again; Ctrl-C stops cleanly, keeps what
was finished (in the cache) and still writes the outputs for it.

examples:
  reviewer analyze game.pgn --nodes 200000 --json report.json -o annotated.pgn
  reviewer analyze games.pgn --all-games --depth 14 --json reports.json
  reviewer analyze game.pgn --engine-cmd "/opt/sf/stockfish" --multipv 3
  reviewer analyze game.sgf --visits 200 -o annotated.sgf
  reviewer analyze game.pgn --html review.html --csv moves.csv

exit codes:
  0    every game analysed and every output written
  1    an engine crashed or stopped answering, or an output could not be written
       (what was finished is kept in the cache and written)
  2    bad input: unreadable game file, no such game, bad arguments, engine not found
  130  interrupted with Ctrl-C (outputs for what was finished are written)
"""

from __future__ import annotations

import argparse
import logging
import shlex
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from reviewer.core.analysis import EvaluationTable, Limit
from reviewer.core.atomic import write_text_atomic
from reviewer.core.cache import AnalysisCache
from reviewer.core.engines.base import Engine, EngineError, EngineNotFound
from reviewer.core.errors import GameFileError
from reviewer.core.gametree import Game, GameKind
from reviewer.core.review import analyse_game, engine_key

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
DEFAULT_CHESS_NODES = 1_000_000
PROGRESS_LINE_EVERY_S = 5.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="PGN or SGF files (several for a batch)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, metavar="N", help="analyse game N of the file (1 = the first, the default)")
    which.add_argument("--all-games", action="store_true", help="analyse every game of every file")
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--engine", metavar="NAME", help="an engine by name (see `reviewer engines`)")
    engine.add_argument(
        "--engine-cmd",
        metavar="COMMAND",
        help="run this engine command as given (UCI for chess, KataGo analysis JSON for Go)",
    )
    limits = parser.add_argument_group("search limit per position")
    limits.add_argument("--nodes", type=_positive_int, metavar="N", help=f"chess nodes (default {DEFAULT_CHESS_NODES:,})")
    limits.add_argument("--depth", type=_positive_int, metavar="N", help="chess depth")
    limits.add_argument("--movetime", type=_positive_float, metavar="S", help="seconds per position")
    limits.add_argument("--visits", type=_positive_int, metavar="N", help="Go visits (KataGo)")
    limits.add_argument("--multipv", type=_positive_int, default=1, metavar="K", help="candidate lines per position")
    parser.add_argument("--preset", choices=("lichess", "seed"), default="lichess", help="judgement thresholds (chess)")
    parser.add_argument("--skip-book", action="store_true", help="leave opening-book moves out of the figures")
    parser.add_argument("--json", metavar="OUT", help="write the reviewer.report/1 JSON here (a list for several games)")
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write an annotated copy: .pgn for chess ([%%eval]), .sgf for Go"
    )
    parser.add_argument("--csv", metavar="OUT", help="write every move's figures as CSV (one row per move)")
    parser.add_argument("--html", metavar="OUT", help="write a self-contained HTML report (graph, mistakes, figures)")
    parser.add_argument("--overwrite", action="store_true", help="let -o replace the game file being analysed")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the analysis cache")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress and no figures on the terminal")


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


class BadInput(Exception):
    """A problem with what the user asked for: one line, exit code 2."""


@dataclass
class GameJob:
    path: Path
    index: int  # 0-based
    game: Game
    evaluations: EvaluationTable = field(default_factory=EvaluationTable)
    engine_info: dict[str, Any] = field(default_factory=dict)
    complete: bool = False


def run(args: argparse.Namespace) -> int:
    logging.getLogger("chess.engine").setLevel(logging.CRITICAL)  # engine chatter; failures raise
    err = sys.stderr
    try:
        jobs = _load_jobs(args)
        _check_outputs(args, jobs)
    except (BadInput, GameFileError) as error:
        print(f"reviewer analyze: {error}", file=err)
        return EXIT_BAD_INPUT

    stop = threading.Event()
    cache: AnalysisCache | None = None if args.no_cache else AnalysisCache()
    if cache is not None and cache.warning:
        print(f"reviewer analyze: warning: {cache.warning}", file=err)
    engines: dict[GameKind, Engine] = {}
    status = EXIT_OK
    restore = _install_interrupt_handler(stop, err)
    try:
        for number, job in enumerate(jobs, start=1):
            if stop.is_set():
                break
            try:
                engine = engines.get(job.game.kind) or engines.setdefault(job.game.kind, _open_engine(job.game.kind, args))
            except EngineNotFound as error:
                print(f"reviewer analyze: {error}", file=err)
                status = EXIT_BAD_INPUT
                break
            except (EngineError, ValueError) as error:
                print(f"reviewer analyze: {error}", file=err)
                status = EXIT_FAILED
                break
            limit = _limit_for(job.game.kind, args)
            job.engine_info = {"name": engine.identity, "id": engine_key(engine, limit), "limit": limit.describe()}
            label = f"{job.path.name}#{job.index + 1}" + (f" ({number}/{len(jobs)})" if len(jobs) > 1 else "")
            try:
                _analyse_one(job, engine, limit, stop, cache, label, quiet=args.quiet, stream=err)
            except EngineError as error:
                print(f"reviewer analyze: {label}: {error}", file=err)
                status = EXIT_FAILED
                break
            except GameFileError as error:
                print(f"reviewer analyze: {label}: {error}", file=err)
                status = EXIT_BAD_INPUT
                continue
    finally:
        restore()
        for engine in engines.values():
            try:
                engine.close()
            except Exception:
                pass
        if cache is not None:
            if cache.warning:
                print(f"reviewer analyze: warning: {cache.warning}", file=err)
            cache.close()

    analysed = [job for job in jobs if len(job.evaluations)]
    if stop.is_set() and status == EXIT_OK:
        status = EXIT_INTERRUPTED
        print(f"reviewer analyze: interrupted; writing what was finished ({len(analysed)} game(s))", file=err)
    try:
        reports = _reports(jobs, args) if (args.json or args.csv or args.html or not args.quiet) else []
        if not args.quiet:
            _print_figures(reports, sys.stdout)
        if args.json:
            _write_json(Path(args.json), reports)
        if args.csv or args.html:
            _write_report_files(args, reports)
        if args.output:
            _write_annotated(Path(args.output), jobs, args.overwrite, args.preset, args.skip_book)
    except (OSError, ValueError) as error:
        print(f"reviewer analyze: cannot write the output: {error}", file=err)
        return EXIT_FAILED if status == EXIT_OK else status
    return status


# -- input ------------------------------------------------------------------------------------------


def _load_jobs(args: argparse.Namespace) -> list[GameJob]:
    from reviewer.core.formats import open_collection

    paths = [Path(name) for name in args.files]
    if args.game is not None and len(paths) > 1:
        raise BadInput("--game picks one game of one file; use --all-games for several files")
    jobs: list[GameJob] = []
    for path in paths:
        collection = open_collection(path)
        if args.all_games:
            indices = range(len(collection))
        else:
            number = args.game or 1
            if not 1 <= number <= len(collection):
                raise BadInput(f"{path}: there is no game {number} (the file has {len(collection)})")
            indices = range(number - 1, number)
        for index in indices:
            jobs.append(GameJob(path, index, collection.game(index)))
    if not jobs:
        raise BadInput("no games to analyse")
    return jobs


def _check_outputs(args: argparse.Namespace, jobs: Sequence[GameJob]) -> None:
    if args.output:
        suffix = Path(args.output).suffix.lower()
        kinds = {job.game.kind for job in jobs}
        wanted = {"chess": ".pgn", "go": ".sgf"}
        if len(kinds) > 1:
            raise BadInput("-o writes one file: chess and Go games cannot share it")
        (kind,) = kinds
        if suffix != wanted[kind]:
            raise BadInput(f"-o for {kind} games must end in {wanted[kind]}, not {suffix or 'nothing'}")
    for target in (args.json, args.output, args.csv, args.html):
        if target and Path(target).is_dir():
            raise BadInput(f"{target} is a folder, not a file")
    sources = [job.path for job in jobs]
    from reviewer.core.export import ExportError, check_target

    try:
        for target in (args.json, args.csv, args.html):
            if target:
                check_target(target, sources)
    except ExportError as error:
        raise BadInput(str(error)) from None
    try:
        if args.output:
            check_target(args.output, sources, overwrite=args.overwrite)
    except ExportError as error:
        raise BadInput(f"{error} (or add --overwrite)") from None


def _limit_for(kind: GameKind, args: argparse.Namespace) -> Limit:
    if kind == "chess":
        nodes = args.nodes
        if nodes is None and args.depth is None and args.movetime is None:
            nodes = DEFAULT_CHESS_NODES
        return Limit(nodes=nodes, depth=args.depth, movetime_s=args.movetime, multipv=args.multipv)
    return Limit(visits=args.visits, movetime_s=args.movetime, multipv=args.multipv)


def _open_engine(kind: GameKind, args: argparse.Namespace) -> Engine:
    from reviewer.core.engines.registry import open_engine

    command = shlex.split(args.engine_cmd) if args.engine_cmd else None
    if args.engine_cmd is not None and not command:
        raise EngineNotFound("--engine-cmd is empty")
    return open_engine(kind, name=args.engine, command=command)


# -- the work -----------------------------------------------------------------------------------------


def _analyse_one(
    job: GameJob,
    engine: Engine,
    limit: Limit,
    stop: threading.Event,
    cache: AnalysisCache | None,
    label: str,
    *,
    quiet: bool,
    stream: TextIO,
) -> None:
    progress = _Progress(label, stream, quiet)
    try:
        for evaluation in analyse_game(job.game, engine, limit, stop, cache=cache, on_progress=progress.update):
            job.evaluations.add(evaluation)
    finally:
        progress.close()
    job.complete = not stop.is_set() and len(job.evaluations) == job.game.ply_count + 1


class _Progress:
    """A bar on a terminal; plain lines every few seconds otherwise."""

    def __init__(self, label: str, stream: TextIO, quiet: bool) -> None:
        self.label = label
        self.stream = stream
        self.quiet = quiet
        self._bar: Any = None
        self._task: Any = None
        self._last_line = 0.0
        self._last: tuple[int, int, float | None, float | None] | None = None
        if not quiet and _is_tty(stream):
            try:
                from rich.console import Console
                from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

                self._bar = Progress(
                    TextColumn("{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]}"),
                    TimeRemainingColumn(),
                    console=Console(file=stream),
                    transient=False,
                )
                self._bar.start()
                self._task = self._bar.add_task(label, total=None, rate="")
            except ImportError:
                self._bar = None

    def update(self, done: int, total: int, rate: float | None, eta_s: float | None) -> None:
        self._last = (done, total, rate, eta_s)
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.update(self._task, completed=done, total=total, rate=f"{rate:.1f} pos/s" if rate else "")
            return
        now = time.monotonic()
        if now - self._last_line >= PROGRESS_LINE_EVERY_S or done == total:
            self._last_line = now
            print(_progress_text(self.label, done, total, rate, eta_s), file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _progress_text(label: str, done: int, total: int, rate: float | None, eta_s: float | None) -> str:
    parts = [f"{label}: {done}/{total} positions"]
    if rate:
        parts.append(f"{rate:.1f} pos/s")
    if eta_s is not None:
        minutes, seconds = divmod(int(round(eta_s)), 60)
        parts.append(f"ETA {minutes}:{seconds:02d}")
    return " · ".join(parts)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _install_interrupt_handler(stop: threading.Event, stream: TextIO) -> Callable[[], None]:
    """First Ctrl-C: stop after the searches in flight; the second one quits at once."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGINT)

    def on_interrupt(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        print("\nreviewer analyze: stopping (Ctrl-C again to quit at once)", file=stream, flush=True)

    signal.signal(signal.SIGINT, on_interrupt)
    return lambda: signal.signal(signal.SIGINT, previous)


# -- output --------------------------------------------------------------------------------------------


def _reports(jobs: Sequence[GameJob], args: argparse.Namespace) -> list[dict[str, Any]]:
    from reviewer.core.report import ReportOptions, build_report

    options = ReportOptions(preset=args.preset, skip_book=args.skip_book)
    reports = []
    for job in jobs:
        report = build_report(job.game, job.evaluations, options, job.engine_info or None)
        report["complete"] = job.complete
        reports.append(report)
    return reports


def _write_json(path: Path, reports: list[dict[str, Any]]) -> None:
    from reviewer.core.report import report_to_json

    write_text_atomic(path, report_to_json(reports[0] if len(reports) == 1 else reports))


def _print_figures(reports: Sequence[dict[str, Any]], out: TextIO) -> None:
    for report in reports:
        game = report["game"]
        print(f"{game.get('white') or '?'} - {game.get('black') or '?'}  {game.get('result') or ''}".rstrip(), file=out)
        for color in ("white", "black"):
            summary = report["summary"][color]
            counts = summary.get("counts") or {}
            if game["kind"] == "chess":
                figures = f"accuracy {_fmt(summary.get('accuracy'), '%')} · ACPL {_fmt(summary.get('acpl'))}"
            else:
                figures = f"accuracy {_fmt(summary.get('accuracy'), '%')} · mean loss {_fmt(summary.get('mean_loss'))}"
            marks = " ".join(f"{counts.get(name, 0)} {name}" for name in ("inaccuracy", "mistake", "blunder"))
            print(f"  {color:5}  {figures} · {marks}", file=out)


def _fmt(value: float | None, unit: str = "") -> str:
    return "-" if value is None else f"{value:.1f}{unit}"


def _write_annotated(
    path: Path, jobs: Sequence[GameJob], overwrite: bool = False, preset: str = "lichess", skip_book: bool = False
) -> None:
    from reviewer.core.export import save_annotated

    reviews = [(job.game, job.evaluations, job.engine_info or None) for job in jobs]
    save_annotated(path, reviews, sources=[job.path for job in jobs], overwrite=overwrite, preset=preset, skip_book=skip_book)


def _write_report_files(args: argparse.Namespace, reports: list[dict[str, Any]]) -> None:
    from reviewer.core.export import moves_csv, report_html

    if args.csv:
        write_text_atomic(Path(args.csv), moves_csv(reports))
    if args.html:
        write_text_atomic(Path(args.html), report_html(reports))

