"""Review many games: every game of the files and folders named (folders searched recursively for
.pgn, .sgf, .gib, .ngf, .ugf), with one progress bar, then a short table per player.

A batch can be stopped and taken up again: each finished game is recorded in the batch store
(--store; by default batch.sqlite in Reviewer's data folder) and not reviewed again by the same
command, and the positions of a game cut short are in the analysis cache. Ctrl-C stops cleanly and
still writes the outputs for what was finished. A game whose file already carries evaluations for
every move ([%eval], Sabaki's SBKV/SBKS, a Reviewer export) is imported, not analysed; each game's
line says which. A file or game that cannot be read is named on its line and the rest goes on.

--cluster ADDRESS reviews on a Ray cluster, one task per game ('local' starts one on this machine;
needs pip install 'reviewer[cluster]'): workers get the games' text and the engine settings, start
the engine themselves, and this process records the results, so the store and the cache work the
same way. With --player NAME, only games where NAME played (part of White's or Black's name, any
case), and the figures are NAME's.

--json OUT writes {"schema": "reviewer.batch/1", "reports": [reviewer.report/1 + "source"],
"insights": reviewer.insights/1, "failures": [...]}; --csv and --html write the insights (per
player: results, accuracy and loss by colour, phase and opening, costliest mistakes). - writes to
standard output (the table is then not printed).

examples:
  reviewer batch ~/chess/lichess-2024.pgn --player alice --nodes 200000 --html alice.html
  reviewer batch ~/go/ --visits 50 --json go.json
  reviewer batch games/ --cluster HEAD:6379 --csv players.csv

exit codes:
  0    every game reviewed (or finished by an earlier run) and every output written
  1    something failed during the work: an engine crashed or could not review a game, a Ray
       worker was lost too often, the store or an output could not be written (the rest is done)
  2    bad input: no games found, a file or game that cannot be read (the others are reviewed), an
       engine that cannot be found, Ray missing or its cluster unreachable, bad arguments
  130  interrupted with Ctrl-C (what was finished is kept and written)
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO, assert_never

from reviewer.commands.analyze import (
    BadInput,
    add_engine_arguments,
    add_limit_arguments,
    add_scoring_arguments,
    engine_command,
    folder_problem,
    install_interrupt_handler,
    limit_for,
    report_targets,
    terminal_bar,
    write_texts,
)
from reviewer.commands.exit_codes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK
from reviewer.commands.outputs import STANDARD_OUTPUT, add_output_argument
from reviewer.core.games import game_support
from reviewer.core.services.batch import (
    BatchOutcome,
    BatchPlan,
    BatchProgress,
    BatchSettings,
    BatchStore,
    EngineSettings,
    GameEvent,
    StoreError,
    plan_batch,
    plays_in,
    run_batch,
)
from reviewer.core.services.batch.task import EnginePool

PROGRAM = "reviewer batch"
SCHEMA = "reviewer.batch/1"
PROGRESS_LINE_EVERY_S = 5.0
PLAYERS_SHOWN = 10  # rows of the table without --player


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="game files and folders (searched recursively)")
    parser.add_argument(
        "--player", metavar="NAME", help="only games where NAME played (part of White's or Black's name, any case)"
    )
    add_engine_arguments(parser)
    add_limit_arguments(parser)
    add_scoring_arguments(parser)
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="review on a Ray cluster: its head's HOST:6379, or 'local' to start one here (pip install 'reviewer[cluster]')",
    )
    parser.add_argument(
        "--store", metavar="DB", help="the batch store of finished games (default: batch.sqlite in Reviewer's data folder)"
    )
    add_output_argument(parser, "--json", "write every game's report and the insights as JSON")
    add_output_argument(parser, "--csv", "write the players' insights as CSV")
    add_output_argument(parser, "--html", "write the players' insights as a self-contained HTML page")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the analysis cache")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress, no lines per game and no table")


def _say(message: str, stream: TextIO) -> None:
    print(f"{PROGRAM}: {message}", file=stream, flush=True)


def run(args: argparse.Namespace) -> int:
    logging.getLogger("chess.engine").setLevel(logging.CRITICAL)  # engine chatter; failures raise
    err = sys.stderr
    try:
        command = engine_command(args)
        _check_outputs(args)
    except BadInput as error:
        _say(str(error), err)
        return EXIT_BAD_INPUT

    plan = plan_batch(args.paths, args.player)
    _tell_plan(plan, args, err)
    if not plan.games:
        if args.player and plan.not_played:
            _say(f"no game where {args.player!r} played (among {plan.not_played} games)", err)
        elif not plan.problems:
            _say(f"no games found in {' '.join(args.paths)}", err)
        return EXIT_BAD_INPUT
    kinds = {game.kind for game in plan.games}
    if len(kinds) > 1 and (args.engine is not None or command is not None):
        flag = "--engine-cmd" if command is not None else "--engine"
        _say(f"{flag} names one engine, for chess or for Go: review the chess and the Go games separately", err)
        return EXIT_BAD_INPUT

    cores = 1 if args.cluster else None  # on a cluster, games run side by side, one engine each
    engine = EngineSettings(name=args.engine, command=tuple(command) if command is not None else None)
    engines = EnginePool()  # one engine discovery for the Go limit and the engines opened here (not on a cluster)
    settings = BatchSettings(
        engine=engine,
        chess_limit=limit_for("chess", args, cores),
        go_limit=limit_for("go", args, cores, katago=any(engines.plan(engine, kind).runs_katago for kind in kinds)),
        preset=args.preset,
        skip_book=args.skip_book,
    )
    try:
        store = BatchStore(args.store)
    except StoreError as error:
        _say(str(error), err)
        return EXIT_BAD_INPUT

    from reviewer.core.cache import AnalysisCache

    cache = None if args.no_cache else AnalysisCache()
    if cache is not None and cache.warning:
        _say(f"warning: {cache.warning}", err)
    try:
        executor = _executor(args, cache, err, engines)
    except BadInput as error:
        _say(str(error), err)
        store.close()
        if cache is not None:
            cache.close()
        return EXIT_BAD_INPUT

    deck = None if args.no_cards else _open_deck(err)
    stop = threading.Event()
    display = _Display(err, quiet=args.quiet)
    restore = install_interrupt_handler(stop, err, PROGRAM)
    try:
        outcome = run_batch(
            plan.games,
            settings,
            store,
            executor,
            cache=cache,
            stop=stop,
            on_progress=display.progress,
            on_event=display.event,
            on_cards=deck.add if deck is not None else None,
            cards_player=args.player,
        )
    except StoreError as error:
        display.close()
        _say(str(error), err)
        return EXIT_BAD_INPUT
    finally:
        restore()
        display.close()
        executor.close()
        store.close()
        if deck is not None:
            deck.close()
        if cache is not None:
            if cache.warning:
                _say(f"warning: {cache.warning}", err)
            cache.close()

    if outcome.engines_missing and outcome.skipped:
        kinds_missing = " and ".join(sorted(outcome.engines_missing))
        _say(f"{outcome.skipped} other {kinds_missing} game(s) were not started: no engine for them", err)
    if outcome.store_problem:
        _say(f"{outcome.store_problem}; the results are still written, but a rerun will review those games again", err)
    if outcome.cards_problem:
        _say(outcome.cards_problem, err)
    elif deck is not None and not args.quiet:
        from reviewer.core.services.trainer.harvest import new_cards_line

        _say(new_cards_line(outcome.cards_added, args.player), err)
    if outcome.interrupted:
        _say(f"interrupted; {len(outcome.finished)} finished game(s) are kept in {store.path} and written", err)
    if not args.quiet:
        _say(_summary_text(outcome, store.path), err)

    failures = _write_outputs(args, plan, outcome)
    for failure in failures:
        _say(failure, err)
    return _exit_code(plan, outcome, failures)


def _open_deck(err: TextIO) -> Any:
    """The trainer's deck for the games' mistakes; None (with a warning) when it cannot be opened."""
    import sqlite3

    from reviewer.core.services.trainer.deck import Deck

    try:
        return Deck()
    except (sqlite3.Error, OSError, RuntimeError) as error:
        _say(f"warning: no training cards: cannot open the deck: {error}", err)
        return None


def _exit_code(plan: BatchPlan, outcome: BatchOutcome, output_failures: Sequence[str]) -> int:
    if outcome.interrupted:
        return EXIT_INTERRUPTED
    failed_during_work = [event for event in outcome.failures if event.error_kind != "engine-missing"]
    if failed_during_work or outcome.store_problem or output_failures:
        return EXIT_FAILED
    if plan.problems or outcome.engines_missing:
        return EXIT_BAD_INPUT
    return EXIT_OK


def _tell_plan(plan: BatchPlan, args: argparse.Namespace, err: TextIO) -> None:
    """One line per file or game that cannot be read (always), and the readers' warnings."""
    for problem in plan.problems:
        _say(f"{problem}; skipped", err)
    if args.quiet:
        return
    for warning in plan.warnings:
        _say(warning, err)
    if plan.duplicates:
        label, first = plan.duplicates[0]
        more = f" and {len(plan.duplicates) - 1} more" if len(plan.duplicates) > 1 else ""
        _say(f"{label}{more}: the same game as one met before ({first}); reviewed once", err)


def _executor(args: argparse.Namespace, cache: Any, err: TextIO, engines: EnginePool) -> Any:
    """The executor of `--cluster`, else a local one that opens its engines from `engines`."""
    from reviewer.core.services.batch import LocalExecutor

    if not args.cluster:
        return LocalExecutor(cache, engines)
    from reviewer.core.services.batch.ray_executor import ClusterUnavailable, RayExecutor

    if not args.quiet:
        where = "a local Ray instance" if args.cluster == "local" else f"the Ray cluster at {args.cluster}"
        _say(f"connecting to {where}…" if args.cluster != "local" else f"starting {where}…", err)
    try:
        return RayExecutor(args.cluster)
    except ClusterUnavailable as error:
        raise BadInput(str(error)) from None


# -- outputs ---------------------------------------------------------------------------------------------


def _check_outputs(args: argparse.Namespace) -> None:
    to_stdout = [flag for flag, target in report_targets(args) if target == STANDARD_OUTPUT]
    if len(to_stdout) > 1:
        raise BadInput(f"only one output can go to standard output, not {' and '.join(to_stdout)}")
    for _, target in report_targets(args):
        if target == STANDARD_OUTPUT:
            continue
        if Path(target).is_dir():
            raise BadInput(f"{target} is a folder, not a file")
        problem = folder_problem(Path(target))
        if problem is not None:
            raise BadInput(f"cannot write {target}: {problem}")


def batch_insights(reports: Sequence[Mapping[str, Any]], player: str | None) -> dict[str, Any]:
    """The collection's insights (reviewer.insights/1); with `player`, only the players whose name
    holds it (the ratings still stand on every game of the collection)."""
    from reviewer.core.services.insights import collection_insights

    insights = collection_insights(reports)
    if player:
        insights["players"] = [entry for entry in insights.get("players", []) if plays_in(player, str(entry.get("name") or ""), "")]
        insights["player"] = player
        if not insights["players"]:
            insights.setdefault("notes", []).append(f"no game of a player named like {player!r} was reviewed")
    return insights


def _write_outputs(args: argparse.Namespace, plan: BatchPlan, outcome: BatchOutcome) -> list[str]:
    reports = outcome.reports(plan.games)
    try:
        insights = batch_insights(reports, args.player)
    except (ValueError, KeyError, TypeError) as error:
        return [f"cannot sum up the games: {error}"]
    stdout_taken = any(target == STANDARD_OUTPUT for _, target in report_targets(args))
    if not args.quiet and not stdout_taken:
        _print_players(insights, sys.stdout)
    writers: list[tuple[str, Callable[[], str]]] = []
    if args.json:
        writers.append((args.json, lambda: _batch_json(args, reports, insights, outcome)))
    if args.csv:
        writers.append((args.csv, lambda: _insights_export("insights_csv")(insights)))
    if args.html:
        writers.append((args.html, lambda: _insights_export("insights_html")(insights)))
    return write_texts(writers)


def _insights_export(name: str) -> Callable[[Mapping[str, Any]], str]:
    from reviewer.core.services import insights

    export: Callable[[Mapping[str, Any]], str] = getattr(insights, name)
    return export


def _batch_json(args: argparse.Namespace, reports: list[dict[str, Any]], insights: dict[str, Any], outcome: BatchOutcome) -> str:
    import json

    failures = [
        {"path": event.game.path, "index": event.game.index, "key": event.game.key, "error": event.message, "kind": event.error_kind}
        for event in outcome.failures
    ]
    document = {
        "schema": SCHEMA,
        "player": args.player,
        "complete": not outcome.interrupted and outcome.not_done == 0,
        "reports": reports,
        "insights": insights,
        "failures": failures,
    }
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def player_rows(insights: Mapping[str, Any]) -> list[tuple[str, str, int, int, float | None, float | None]]:
    """(name, kind, games, games scored, mean accuracy %, mean loss) per player of the insights."""
    rows = []
    for entry in insights.get("players", []):
        points = [point for point in entry.get("timeline", []) if isinstance(point, Mapping)]
        accuracies = [float(p["accuracy"]) for p in points if isinstance(p.get("accuracy"), (int, float))]
        losses = [float(p["loss"]) for p in points if isinstance(p.get("loss"), (int, float))]
        rows.append(
            (
                str(entry.get("name") or "?"),
                str(entry.get("kind") or ""),
                int(entry.get("games") or 0),
                int(entry.get("scored_games") or 0),
                _mean(accuracies),
                _mean(losses),
            )
        )
    return rows


def _loss_text(kind: str, loss: float) -> str:
    averaging = game_support(kind).scores.averaging
    match averaging:
        case "mean":
            return f"{loss:.0f} ACPL"
        case "weighted":
            return f"{loss:.2f} pts"
        case _:
            assert_never(averaging)


def _print_players(insights: Mapping[str, Any], out: TextIO) -> None:
    rows = player_rows(insights)
    if not rows:
        return
    shown = rows if insights.get("player") else rows[:PLAYERS_SHOWN]
    width = max(len("Player"), *(len(row[0]) for row in shown))
    print(f"{'Player':<{width}}  game   games  scored  accuracy  loss", file=out)
    for name, kind, games, scored, accuracy, loss in shown:
        accuracy_text = "-" if accuracy is None else f"{accuracy:.1f}%"
        loss_text = "-" if loss is None else _loss_text(kind, loss)
        print(f"{name:<{width}}  {kind:<5}  {games:>5}  {scored:>6}  {accuracy_text:>8}  {loss_text}", file=out)
    if len(rows) > len(shown):
        print(f"… and {len(rows) - len(shown)} more players (see --json, --csv or --html)", file=out)


def _summary_text(outcome: BatchOutcome, store_path: Path) -> str:
    parts = [f"{outcome.total} game{'s' if outcome.total != 1 else ''}"]
    for count, text in (
        (outcome.already_done, "finished before"),
        (outcome.imported, "imported"),
        (outcome.analysed, "analysed"),
        (len(outcome.failures), "failed"),
        (outcome.skipped, "not started"),
    ):
        if count:
            parts.append(f"{count} {text}")
    left = outcome.not_done - len(outcome.failures) - outcome.skipped
    if left > 0:
        parts.append(f"{left} still to do")
    return " · ".join(parts) + f" (store: {store_path})"


# -- progress --------------------------------------------------------------------------------------------


def _clock_text(seconds: float) -> str:
    minutes, seconds_left = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds_left:02d}" if hours else f"{minutes}:{seconds_left:02d}"


def progress_line(progress: BatchProgress) -> str:
    parts = [f"games {progress.done}/{progress.total}"]
    if progress.failed:
        parts.append(f"{progress.failed} failed")
    if progress.current and progress.positions is not None:
        done, total = progress.positions
        parts.append(f"{progress.current}: {done}/{total} positions")
    if progress.eta_s is not None:
        parts.append(f"ETA {_clock_text(progress.eta_s)}")
    return " · ".join(parts)


def event_line(event: GameEvent) -> str:
    """The line that tells what became of a game: imported, analysed, failed (and why)."""
    game = event.game
    where = f" (on {event.worker})" if event.worker else ""
    if event.status == "failed":
        if event.error_kind == "engine-missing":
            return f"{PROGRAM}: {event.message}{where}"
        return f"{PROGRAM}: {game.label}: {event.message}{where}"
    players = f"{game.white or '?'} - {game.black or '?'}"
    note = ""
    if event.status == "imported":
        note = " (the file's evaluations)"
    elif event.message:
        note = f" ({event.message})"
    return f"{event.status:<9} {game.label}  {players}{note}{where}"


class _Display:
    """One bar on a terminal (rich), plain lines otherwise; a line per game either way."""

    def __init__(self, stream: TextIO, quiet: bool) -> None:
        self.stream = stream
        self.quiet = quiet
        self._bar: Any = None
        self._task: Any = None
        self._last_line = 0.0
        self._last_text = ""
        if not quiet:
            self._bar, self._task = terminal_bar(stream, "games", "detail")

    def progress(self, progress: BatchProgress) -> None:
        if self.quiet:
            return
        if self._bar is not None:
            detail = progress_line(progress).partition(" · ")[2]
            self._bar.update(self._task, completed=progress.done, total=progress.total, detail=detail)
            return
        now = time.monotonic()
        line = progress_line(progress)
        finished = progress.done == progress.total
        if line != self._last_text and (now - self._last_line >= PROGRESS_LINE_EVERY_S or finished):
            self._last_line, self._last_text = now, line
            print(line, file=self.stream, flush=True)

    def event(self, event: GameEvent) -> None:
        if self.quiet and event.status != "failed":
            return
        line = event_line(event)
        if self._bar is not None:
            self._bar.console.print(line, markup=False, highlight=False)
        else:
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
