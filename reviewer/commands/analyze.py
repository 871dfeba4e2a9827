"""Analyse games with an engine; print each side's figures, write a JSON report and an annotated copy.

Chess games go to a UCI engine (Stockfish by default), Go games to KataGo's analysis engine.
Positions already in the analysis cache are not searched again (and no engine is started when the
cache answers them all); Ctrl-C stops cleanly, keeps what was finished (in the cache) and still
writes the outputs for it. --json, --csv and --html take - for standard output (the figures are
then not printed). Every output's folder is checked before any analysis starts.

examples:
  reviewer analyze game.pgn --nodes 200000 --json report.json -o annotated.pgn
  reviewer analyze games.pgn --all-games --depth 14 --json reports.json
  reviewer analyze game.pgn --engine-cmd "/opt/sf/stockfish" --multipv 3
  reviewer analyze game.sgf --visits 200 -o annotated.sgf
  reviewer analyze game.pgn --html review.html --csv moves.csv
  reviewer analyze game.pgn --depth 12 --json - | jq .summary

exit codes:
  0    every game analysed and every output written
  1    an engine crashed, stopped answering or could not analyse a game (Chess960 without
       UCI_Chess960), or an output could not be written (what was finished is kept and written)
  2    bad input: unreadable game file or start position, no such game, bad arguments, an output
       folder that cannot be made or written, engine not found or not the kind the games need
  130  interrupted with Ctrl-C (outputs for what was finished are written)
"""

from __future__ import annotations

import argparse
import logging
import shlex
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, assert_never

from reviewer.commands.exit_codes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK
from reviewer.commands.outputs import STANDARD_OUTPUT, add_output_argument
from reviewer.core.analysis import EvaluationTable, Limit
from reviewer.core.atomic import write_text_atomic
from reviewer.core.cache import AnalysisCache
from reviewer.core.engines.base import EngineError, EngineNotFound, EngineUnsuitable
from reviewer.core.errors import GameFileError
from reviewer.core.games import game_support
from reviewer.core.gametree import Game, GameKind
from reviewer.core.passes import PassStart
from reviewer.core.review import EngineOnDemand, analyse_game, identity_key
from reviewer.core.scoring import accuracy_name, headline_accuracy_field
from reviewer.core.services.batch.plan import unreadable_start, without_game_number

if TYPE_CHECKING:
    from reviewer.core.engines.registry import EnginePlan
    from reviewer.core.scoring import Preset

DEFAULT_CHESS_NODES = 1_000_000
PROGRESS_LINE_EVERY_S = 5.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="PGN or SGF files (several for a batch)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, metavar="N", help="analyse game N of the file (1 = the first, the default)")
    which.add_argument("--all-games", action="store_true", help="analyse every game of every file")
    add_engine_arguments(parser)
    add_limit_arguments(parser)
    add_scoring_arguments(parser)
    add_output_argument(parser, "--json", "write the reviewer.report/1 JSON here (a list for several games)")
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write an annotated copy: .pgn for chess ([%%eval]), .sgf for Go"
    )
    parser.add_argument(
        "--with-analysis",
        action="store_true",
        help="-o: keep Reviewer's full analysis in the PGN ([%%rvw] commands, which some programs show as text)",
    )
    add_output_argument(parser, "--csv", "write every move's figures as CSV (one row per move)")
    add_output_argument(parser, "--html", "write a self-contained HTML report (graph, mistakes, figures)")
    parser.add_argument("--overwrite", action="store_true", help="let -o replace the game file being analysed")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the analysis cache")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress and no figures on the terminal")


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """--engine NAME | --engine-cmd COMMAND (shared with `reviewer batch`)."""
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--engine", metavar="NAME", help="an engine by name (see `reviewer engines`)")
    engine.add_argument(
        "--engine-cmd",
        metavar="COMMAND",
        help="run this engine command as given (UCI for chess, KataGo analysis JSON for Go)",
    )


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The search limit per position: --nodes, --passes, --depth, --movetime, --visits, --multipv."""
    limits = parser.add_argument_group("search limit per position")
    limits.add_argument(
        "--nodes", type=_positive_int, metavar="N", help="chess nodes, the same for every position (default: passes)"
    )
    limits.add_argument(
        "--passes",
        type=_budget_list,
        metavar="LIST",
        help="review in passes: chess nodes per pass (default 40000,250000,1000000: every position, then "
        "deeper where a label is in doubt); Go visits of the fast and the refining pass (default with KataGo "
        "2,32: every position, then where a move lost 2 points or more)",
    )
    limits.add_argument("--depth", type=_positive_int, metavar="N", help="chess depth")
    limits.add_argument("--movetime", type=_positive_float, metavar="S", help="seconds per position")
    limits.add_argument("--visits", type=_positive_int, metavar="N", help="Go visits, the same for every position")
    limits.add_argument("--multipv", type=_positive_int, default=1, metavar="K", help="candidate lines per position")
    limits.add_argument(
        "--maps",
        action="store_true",
        help="Go with --visits: ask KataGo for its ownership and policy maps too, so that the report can say "
        "which groups a mistake left to die and which areas changed hands (docs/SCORING.md, Why a move lost); "
        "the default review in passes asks for them where it refines",
    )


def add_scoring_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", choices=("lichess", "seed"), default="lichess", help="judgement thresholds (chess)")
    parser.add_argument("--skip-book", action="store_true", help="leave opening-book moves out of the figures")
    parser.add_argument(
        "--no-cards", action="store_true", help="do not add the games' mistakes to the trainer's deck (reviewer train)"
    )


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def _budget_list(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not values or any(value <= 0 for value in values):
        raise argparse.ArgumentTypeError(f"every budget must be positive: {text!r}")
    return values


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
    from reviewer.core.engines.registry import EnginePlan, KataGoDoesNotStart

    logging.getLogger("chess.engine").setLevel(logging.CRITICAL)  # engine chatter; failures raise
    err = sys.stderr
    try:
        command = engine_command(args)
        jobs, skipped = _load_jobs(args, err)
        _check_engine_fits(args, jobs)
        _check_outputs(args, jobs)
    except (BadInput, GameFileError) as error:
        print(f"reviewer analyze: {error}", file=err)
        return EXIT_BAD_INPUT
    if not jobs:
        return EXIT_BAD_INPUT  # every game was skipped, each with its line

    stop = threading.Event()
    cache: AnalysisCache | None = None if args.no_cache else AnalysisCache()
    if cache is not None and cache.warning:
        print(f"reviewer analyze: warning: {cache.warning}", file=err)
    slots: dict[tuple[GameKind, tuple[int, int] | None], _EngineSlot] = {}
    status = EXIT_BAD_INPUT if skipped else EXIT_OK
    restore = install_interrupt_handler(stop, err)
    try:
        for number, job in enumerate(jobs, start=1):
            if stop.is_set():
                break
            kind = job.game.kind
            board = _board_beyond_katago(job.game)
            slot = slots.get((kind, board))
            if slot is None:  # Go: KataGo is looked for once, for the limit and for the engine
                slot = slots[(kind, board)] = _engine_slot(EnginePlan(kind, args.engine, command, board), args)
            label = f"{job.path.name}#{job.index + 1}" + (f" ({number}/{len(jobs)})" if len(jobs) > 1 else "")
            try:
                try:
                    _analyse_one(job, slot.engine, slot.limit, stop, cache, label, quiet=args.quiet, stream=err)
                except KataGoDoesNotStart as error:  # the limit was KataGo's default: the built-in engine's instead
                    print(f"reviewer analyze: warning: {error}; reviewing with the built-in engine at its own visits", file=err)
                    slot = slots[(kind, board)] = _engine_slot(slot.plan, args)
                    job.evaluations = EvaluationTable()
                    _analyse_one(job, slot.engine, slot.limit, stop, cache, label, quiet=args.quiet, stream=err)
            except (EngineNotFound, EngineUnsuitable) as error:
                opened = slot.engine.engine is not None
                print(f"reviewer analyze: {label + ': ' if opened else ''}{error}", file=err)
                if not opened:  # the command names no engine, or not one for these games
                    status = EXIT_BAD_INPUT
                    break
                status = EXIT_FAILED if status == EXIT_OK else status
                continue  # the engine runs but cannot analyse this game (Chess960); the next may suit it
            except (EngineError, ValueError) as error:
                opened = slot.engine.engine is not None
                print(f"reviewer analyze: {label + ': ' if opened else ''}{error}", file=err)
                status = EXIT_FAILED
                break
            except GameFileError as error:
                print(f"reviewer analyze: {label}: {error}", file=err)
                status = EXIT_BAD_INPUT
                continue
            finally:
                identity = slot.engine.identity(cache)
                if identity is not None:
                    limit = slot.limit
                    job.engine_info = {"name": identity, "id": identity_key(identity, limit), "limit": limit.describe()}
    finally:
        restore()
        for held in slots.values():
            try:
                held.engine.close()
            except Exception:
                pass
        if cache is not None:
            if cache.warning:
                print(f"reviewer analyze: warning: {cache.warning}", file=err)
            cache.close()

    analysed = [job for job in jobs if len(job.evaluations)]
    if stop.is_set() and status != EXIT_FAILED:
        status = EXIT_INTERRUPTED
        print(f"reviewer analyze: interrupted; writing what was finished ({len(analysed)} game(s))", file=err)
    failures = _write_outputs(args, jobs)
    if not args.no_cards:
        failures.extend(add_training_cards([(job.game, job.evaluations) for job in analysed], err, args.quiet))
    for failure in failures:
        print(f"reviewer analyze: {failure}", file=err)
    if failures and status == EXIT_OK:
        return EXIT_FAILED
    return status


# -- input ------------------------------------------------------------------------------------------


def engine_command(args: argparse.Namespace) -> list[str] | None:
    """--engine-cmd as a list of arguments (a shell-like line: quotes group, nothing is expanded)."""
    if args.engine_cmd is None:
        return None
    try:
        command = shlex.split(args.engine_cmd)
    except ValueError as error:
        raise BadInput(f"--engine-cmd: {error}") from None
    if not command:
        raise BadInput("--engine-cmd is empty")
    return command


def _load_jobs(args: argparse.Namespace, err: TextIO) -> tuple[list[GameJob], int]:
    """The games to analyse and how many were skipped (each told on `err`). The files' and games'
    warnings (moves skipped, tags not understood) are told on `err` too, even with --quiet, which
    silences progress and figures only."""
    from reviewer.core.formats import open_collection

    paths = [Path(name) for name in args.files]
    if args.game is not None and len(paths) > 1:
        raise BadInput("--game picks one game of one file; use --all-games for several files")
    if args.game is not None and args.game < 1:
        raise BadInput(f"--game counts from 1, not {args.game}")
    jobs: list[GameJob] = []
    skipped = 0
    for path in paths:
        collection = open_collection(path)
        for warning in getattr(collection, "warnings", ()):
            print(f"reviewer analyze: {path}: warning: {warning}", file=err)
        if args.all_games:
            indices = range(len(collection))
        else:
            number = 1 if args.game is None else args.game
            if not 1 <= number <= len(collection):
                raise BadInput(f"{path}: there is no game {number} (the file has {len(collection)})")
            indices = range(number - 1, number)
        for index in indices:
            game = collection.game(index)
            where = f"{path}#{index + 1}"
            problem = unreadable_start(game)
            if problem is not None:
                print(f"reviewer analyze: {where}: {problem}; not analysed", file=err)
                skipped += 1
                continue
            for warning in game.warnings:
                print(f"reviewer analyze: {where}: warning: {without_game_number(warning)}", file=err)
            jobs.append(GameJob(path, index, game))
    if not jobs and not skipped:
        raise BadInput("no games to analyse")
    return jobs, skipped


def _check_engine_fits(args: argparse.Namespace, jobs: Sequence[GameJob]) -> None:
    kinds = {job.game.kind for job in jobs}
    if len(kinds) > 1 and (args.engine_cmd is not None or args.engine is not None):
        flag = "--engine-cmd" if args.engine_cmd is not None else "--engine"
        raise BadInput(f"{flag} names one engine, for chess or for Go: analyse the chess and the Go games separately")


def _check_outputs(args: argparse.Namespace, jobs: Sequence[GameJob]) -> None:
    """Everything about the outputs that can be known before analysing: bad names, folders that
    cannot be made or written, two outputs on standard output, the game file itself."""
    if args.output:
        if args.output == STANDARD_OUTPUT:
            raise BadInput("-o needs a file name (--json, --csv and --html take - for standard output)")
        suffix = Path(args.output).suffix.lower()
        kinds = {job.game.kind for job in jobs}
        if len(kinds) > 1:
            raise BadInput("-o writes one file: games of different kinds cannot share it")
        (kind,) = kinds
        wanted = "." + game_support(kind).export_extension
        if suffix != wanted:
            raise BadInput(f"-o for {kind} games must end in {wanted}, not {suffix or 'nothing'}")
    to_stdout = [flag for flag, target in report_targets(args) if target == STANDARD_OUTPUT]
    if len(to_stdout) > 1:
        raise BadInput(f"only one output can go to standard output, not {' and '.join(to_stdout)}")
    files = [target for _, target in report_targets(args) if target != STANDARD_OUTPUT]
    if args.output:
        files.append(args.output)
    for target in files:
        if Path(target).is_dir():
            raise BadInput(f"{target} is a folder, not a file")
        problem = folder_problem(Path(target))
        if problem is not None:
            raise BadInput(f"cannot write {target}: {problem}")
    sources = [job.path for job in jobs]
    from reviewer.core.export import ExportError, check_target

    try:
        for _, target in report_targets(args):
            if target != STANDARD_OUTPUT:
                check_target(target, sources)
    except ExportError as error:
        raise BadInput(str(error)) from None
    try:
        if args.output:
            check_target(args.output, sources, overwrite=args.overwrite)
    except ExportError as error:
        raise BadInput(f"{error} (or add --overwrite)") from None


def report_targets(args: argparse.Namespace) -> list[tuple[str, str]]:
    return [(flag, target) for flag, target in (("--json", args.json), ("--csv", args.csv), ("--html", args.html)) if target]


def folder_problem(target: Path) -> str | None:
    """Why a file could not be written at `target` (its folder exists or can be made and takes
    new files), or None. Tried with a nameless temporary file in the nearest existing folder."""
    folder = target.absolute().parent
    while not folder.exists():
        if folder.parent == folder:
            return f"{folder} does not exist"
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return f"cannot write in {folder} ({error.strerror or error})"
    return None


def limit_for(kind: GameKind, args: argparse.Namespace, cores: int | None = None, katago: bool = False) -> Limit:
    """A uniform limit when one is named; otherwise chess is reviewed in passes, with one
    single-thread engine per core (`cores`: this machine's by default), and Go in passes when
    `katago` reviews it (the built-in engine keeps its own visits: its first pass would say nothing)."""
    passes: tuple[int, ...] | None = getattr(args, "passes", None)
    support = game_support(kind)
    work_unit = support.work_unit
    if work_unit == "nodes":
        if args.nodes is None and args.depth is None and args.movetime is None:
            scheme = support.default_passes(cores)
            if passes is not None:
                scheme = scheme.with_budgets(passes)
            return scheme.limit(args.multipv)
        return Limit(nodes=args.nodes, depth=args.depth, movetime_s=args.movetime, multipv=args.multipv)
    if work_unit != "visits":
        assert_never(work_unit)
    if args.visits is None and args.movetime is None:
        if passes is not None:
            return support.default_passes(cores).with_budgets(passes).limit(args.multipv)
        if katago:
            return support.default_passes(cores).limit(args.multipv)
    maps = bool(getattr(args, "maps", False))  # other commands share this function without the option
    return Limit(visits=args.visits, movetime_s=args.movetime, multipv=args.multipv, maps=maps)


@dataclass
class _EngineSlot:
    """The engine and the limit for the games of one kind (and one class of Go board), with the
    plan behind both: one engine discovery chooses the limit and opens the engine."""

    plan: EnginePlan
    engine: EngineOnDemand  # started only when a position is missing from the cache
    limit: Limit


def _engine_slot(plan: EnginePlan, args: argparse.Namespace) -> _EngineSlot:
    """The plan's engine and its limit. When the limit is KataGo's default (no limit given), a found
    KataGo that does not start raises KataGoDoesNotStart rather than leaving the games to the
    built-in engine at KataGo's limit: `_engine_slot(plan, args)` again then gives the built-in
    engine and its own (the plan no longer runs KataGo)."""
    from reviewer.core.engines.registry import engine_fingerprint

    katago = plan.runs_katago
    limit = limit_for(plan.kind, args, katago=katago)
    katagos_default = katago and limit != limit_for(plan.kind, args, katago=False)
    engine = EngineOnDemand(
        lambda: plan.open(fallback_to_builtin=not katagos_default),
        engine_fingerprint(plan.kind, name=plan.name, command=plan.command),
    )
    return _EngineSlot(plan, engine, limit)


def _board_beyond_katago(game: Game) -> tuple[int, int] | None:
    """A Go board too big for KataGo's usual build (the registry then picks another engine), else None:
    the games that share one engine are those with the same answer."""
    from reviewer.core.engines.registry import board_beyond_usual_engine

    return board_beyond_usual_engine(game.kind, (game.board_width, game.board_height))


# -- the work -----------------------------------------------------------------------------------------


def _analyse_one(
    job: GameJob,
    engine: EngineOnDemand,
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
        evaluations = analyse_game(
            job.game,
            None,
            limit,
            stop,
            cache=cache,
            on_progress=progress.update,
            engine_factory=engine.open,
            engine_fingerprint=engine.fingerprint,
            on_pass=progress.pass_started,
        )
        for evaluation in evaluations:
            job.evaluations.add(evaluation)
    finally:
        progress.close()
    job.complete = not stop.is_set() and len(job.evaluations) == job.game.ply_count + 1


class _Progress:
    """A bar on a terminal; plain lines every few seconds otherwise."""

    def __init__(self, label: str, stream: TextIO, quiet: bool) -> None:
        self.label = label
        self._game_label = label
        self.stream = stream
        self.quiet = quiet
        self._bar: Any = None
        self._task: Any = None
        self._last_line = time.monotonic()  # the first plain line after a while, or at the end
        self._last: tuple[int, int, float | None, float | None] | None = None
        if not quiet:
            self._bar, self._task = terminal_bar(stream, label, "rate", with_eta=True)

    def pass_started(self, start: PassStart) -> None:
        """A review in passes began pass `start.index`: the bar (or the lines) now count its positions."""
        self.label = f"{self._game_label} · pass {start.index}/{start.count} ({start.budget})"
        self._last_line = 0.0  # a plain line at once
        if self._bar is not None:
            self._bar.update(self._task, description=self.label, completed=0, total=start.positions)
        elif not self.quiet and start.positions == 0:
            print(f"{self.label}: nothing in doubt", file=self.stream, flush=True)

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
            print(progress_text(self.label, done, total, rate, eta_s), file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def terminal_bar(stream: TextIO, description: str, field: str, *, with_eta: bool = False) -> tuple[Any, Any]:
    """A started rich progress bar on `stream` and its task: description, bar, done/total, the
    task's text field `field` (and the time left); (None, None) when `stream` is not a terminal."""
    if not is_tty(stream):
        return None, None
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        return None, None
    columns: list[ProgressColumn] = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(f"{{task.fields[{field}]}}"),
    ]
    if with_eta:
        columns.append(TimeRemainingColumn())
    bar = Progress(*columns, console=Console(file=stream), transient=False)
    bar.start()
    fields: dict[str, Any] = {field: ""}
    return bar, bar.add_task(description, total=None, **fields)


def progress_text(label: str, done: int, total: int, rate: float | None, eta_s: float | None) -> str:
    parts = [f"{label}: {done}/{total} positions"]
    if rate:
        parts.append(f"{rate:.1f} pos/s")
    if eta_s is not None:
        minutes, seconds = divmod(int(round(eta_s)), 60)
        parts.append(f"ETA {minutes}:{seconds:02d}")
    return " · ".join(parts)


def is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def install_interrupt_handler(stop: threading.Event, stream: TextIO, program: str = "reviewer analyze") -> Callable[[], None]:
    """First Ctrl-C: stop after the searches in flight; the second one quits at once."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGINT)

    def on_interrupt(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        print(f"\n{program}: stopping (Ctrl-C again to quit at once)", file=stream, flush=True)

    signal.signal(signal.SIGINT, on_interrupt)

    def restore() -> None:
        signal.signal(signal.SIGINT, previous)

    return restore


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


def _write_outputs(args: argparse.Namespace, jobs: Sequence[GameJob]) -> list[str]:
    """Print the figures and write every output asked for; one line for each that failed."""
    failures: list[str] = []
    stdout_taken = any(target == STANDARD_OUTPUT for _, target in report_targets(args))
    reports: list[dict[str, Any]] = []
    if report_targets(args) or not args.quiet:
        try:
            reports = _reports(jobs, args)
        except (ValueError, KeyError) as error:
            return [f"cannot build the report: {error}"]
    if not args.quiet and not stdout_taken:
        _print_figures(reports, sys.stdout)
    writers: list[tuple[str, Callable[[], str]]] = []
    if args.json:
        writers.append((args.json, lambda: _report_json(reports)))
    if args.csv:
        writers.append((args.csv, lambda: _export("moves_csv")(reports)))
    if args.html:
        writers.append((args.html, lambda: _export("report_html")(reports)))
    failures.extend(write_texts(writers))
    if args.output:
        try:
            _write_annotated(Path(args.output), jobs, args.overwrite, args.preset, args.skip_book, args.with_analysis)
        except (OSError, ValueError) as error:
            failures.append(f"cannot write {args.output}: {_reason(error)}")
    return failures


def add_training_cards(games: Sequence[tuple[Game, EvaluationTable]], err: TextIO, quiet: bool) -> list[str]:
    """Add the analysed games' mistakes to the trainer's deck (both sides); says how many are new.
    A deck that cannot be written is one failure line; the analysis is kept either way."""
    if not games:
        return []
    import sqlite3

    from reviewer.core.services.trainer.deck import Deck
    from reviewer.core.services.trainer.harvest import add_game_cards, new_cards_line

    try:
        with Deck() as deck:
            added = sum(add_game_cards(game, evaluations, deck=deck) for game, evaluations in games)
    except (sqlite3.Error, OSError, RuntimeError) as error:
        return [f"cannot add training cards: {error}"]
    if not quiet:
        print(new_cards_line(added, None), file=err)
    return []


def write_texts(writers: Sequence[tuple[str, Callable[[], str]]]) -> list[str]:
    """Write each (target, text) — a file, atomically, or standard output for "-"; one line for
    each that failed."""
    failures = []
    for target, text in writers:
        try:
            if target == STANDARD_OUTPUT:
                sys.stdout.write(text())
                sys.stdout.flush()
            else:
                write_text_atomic(Path(target), text())
        except (OSError, ValueError) as error:
            failures.append(f"cannot write {'standard output' if target == STANDARD_OUTPUT else target}: {_reason(error)}")
    return failures


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def _report_json(reports: list[dict[str, Any]]) -> str:
    from reviewer.core.report import report_to_json

    many: list[Mapping[str, Any]] = list(reports)
    return report_to_json(reports[0] if len(reports) == 1 else many)


def _export(name: str) -> Callable[[list[dict[str, Any]]], str]:
    from reviewer.core import export

    exporter: Callable[[list[dict[str, Any]]], str] = getattr(export, name)
    return exporter


def _print_figures(reports: Sequence[dict[str, Any]], out: TextIO) -> None:
    for report in reports:
        game = report["game"]
        print(f"{game.get('white') or '?'} - {game.get('black') or '?'}  {game.get('result') or ''}".rstrip(), file=out)
        for color in ("white", "black"):
            summary = report["summary"][color]
            counts = summary.get("counts") or {}
            headline = headline_accuracy_field(game["kind"], report.get("preset"))
            accuracy = f"{accuracy_name(game['kind'], headline)} {_fmt(summary.get(headline), '%')}"
            figures = f"{accuracy} · {loss_figure(game['kind'], summary)}"
            marks = " ".join(f"{counts.get(name, 0)} {name}" for name in ("inaccuracy", "mistake", "blunder"))
            print(f"  {color:5}  {figures}" + (f" · {marks}" if summary.get("counts") is not None else ""), file=out)
        from reviewer.commands.report import coverage_lines

        for line in coverage_lines(report):
            print(f"  {line}", file=out)


def loss_figure(kind: GameKind, summary: dict[str, Any]) -> str:
    """A side's loss as the summary line shows it: ACPL (mean losses), or the mean loss (weighted losses)."""
    averaging = game_support(kind).scores.averaging
    match averaging:
        case "mean":
            return f"ACPL {_fmt(summary.get('acpl'))}"
        case "weighted":
            return f"mean loss {_fmt(summary.get('mean_loss'))}"
        case _:
            assert_never(averaging)


def _fmt(value: float | None, unit: str = "") -> str:
    return "-" if value is None else f"{value:.1f}{unit}"


def _write_annotated(
    path: Path,
    jobs: Sequence[GameJob],
    overwrite: bool = False,
    preset: Preset = "lichess",
    skip_book: bool = False,
    with_analysis: bool = False,
) -> None:
    from reviewer.core.export import save_annotated

    reviews = [(job.game, job.evaluations, job.engine_info or None) for job in jobs]
    save_annotated(path, reviews, sources=[job.path for job in jobs], overwrite=overwrite, preset=preset, skip_book=skip_book,
                   with_analysis=with_analysis)
