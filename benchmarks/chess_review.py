"""Chess review: labels against a deep reference, for uniform node budgets and for the review in passes.

The reference judges every move of a few real games from the shared corpus. By default it is the
consensus of two runs (benchmarks/data/chess_reference2.json, made by benchmarks/chess_reference2.py:
Stockfish, 5M nodes per position, one thread, each run with a hash of its own); `--single-reference`
takes run 1 alone (benchmarks/data/chess_reference.json, benchmarks/chess_reference.py). In one run,
each setting reviews the same games through `reviewer.core.review.analyse_game` (no cache), and the
benchmark prints, against the reference:

  equal     the share of moves given the label (book, best, good, inaccuracy, mistake, blunder) of
            either run
  eq b=g    the same with best and good as one label: `best` means the move is the engine's first
            choice (SCORING.md), so between near-equal moves it follows which one a search ranks first
  recall    of the moves both runs call a mistake or blunder, the share the setting flags so
  prec.     of the setting's mistakes and blunders, the share either run flags so (prec.2: both runs)
  wall s    wall-clock seconds for all games (engines started before the clock); x 1M: against the
            uniform 1M-node review of the same run
  cpu s     the engines' CPU seconds (steadier than wall time on a shared machine)
  graph at  when the first pass had searched every position (the whole graph shown), summed over
            the games, as a share of the uniform 1M-node review's wall time

Uniform budgets run as today's default does (UciEngine's default arrangement: on 2 cores one process,
Threads=2); the passes run one single-thread engine per core. `--prefixes` also prints the default
scheme where it is the first passes of a longer one (the same searches, timed to the end of its last
pass). Only moves whose two positions the reference holds are compared (a game the reference has not
finished counts from its end backwards), and by default only the positions the reference holds are
reviewed (`--whole-games` for all). `--compare-only` compares the saved labels of the last run
(benchmarks/data/chess_review_runs.json) with the reference as it is now, without running an engine.

    nice -n 10 .venv/bin/python benchmarks/chess_review.py [--uniform 30000,100000,300000,1000000]
        [--passes 40000,250000,1000000,5000000/...] [--margins 3,1,1/...] [--flags-from 4/...]
        [--prefixes] [--repeat-passes] [--single-reference]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

import chess  # noqa: E402
from chess_reference import CORPUS_PGN, GAMES, JSON_PATH, LINES_PATH, STOCKFISH, game_key  # noqa: E402

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit  # noqa: E402
from reviewer.core.engines.uci import UciEngine, terminal_evaluation  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.games.chess import boards_at_plies  # noqa: E402
from reviewer.core.gametree import Game  # noqa: E402
from reviewer.core.passes import ChessPasses, PassStart, default_chess_passes  # noqa: E402
from reviewer.core.review import analyse_game  # noqa: E402
from reviewer.core.scoring.chess import assess_chess  # noqa: E402
from reviewer.core.scoring.common import FLAGGED_JUDGEMENTS  # noqa: E402

FLAGGED = ("mistake", "blunder")


def reference_records() -> tuple[dict[str, dict[int, dict[str, Any]]], str]:
    """The reference's positions by game and ply, from the finished JSON or the lines still being written."""
    by_game: dict[str, dict[int, dict[str, Any]]] = {}
    if JSON_PATH.exists():
        document = json.loads(JSON_PATH.read_text())
        for game in document["games"]:
            by_game[game["game"]] = {record["ply"]: record for record in game["positions"]}
        return by_game, f"{JSON_PATH.name} ({document['engine']}, {document['settings']['nodes_per_position']:,} nodes)"
    for line in LINES_PATH.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        by_game.setdefault(record["game"], {})[record["ply"]] = record
    return by_game, f"{LINES_PATH.name} (still being computed)"


def reference_table(game: Game, records: dict[int, dict[str, Any]]) -> EvaluationTable:
    boards = boards_at_plies(game, sorted(records))
    table = EvaluationTable()
    for ply, record in records.items():
        board = boards[ply]
        if record.get("terminal"):
            evaluation = terminal_evaluation(board, ply, "reference")
        else:
            wdl = record.get("wdl_first")
            evaluation = Evaluation(
                ply=ply, kind="chess", engine_id="reference", score_cp_first=record["score_cp_first"],
                mate_first=record["mate_first"], wdl_first=tuple(wdl) if wdl else None,
                side_to_move="white" if board.turn == chess.WHITE else "black", best_move=record["best_move"],
                depth=record["depth"], nodes=record["nodes"],
            )
        if evaluation is not None:
            table.add(evaluation)
    return table


@dataclass
class Labels:
    by_game: dict[str, dict[int, str | None]]


def labels_of(game: Game, table: EvaluationTable) -> dict[int, str | None]:
    return {move.ply: move.judgement for move in assess_chess(game, table).moves}


def compared_plies(records: dict[int, dict[str, Any]], game: Game) -> list[int]:
    return [ply for ply in range(1, game.ply_count + 1) if ply - 1 in records and ply in records]


def cpu_seconds_of_children() -> float:
    times = os.times()
    return times.children_user + times.children_system


@dataclass
class Reviewed:
    """One setting's review of the games: its labels after each pass, and when each pass ended."""

    labels_by_pass: list[Labels]  # [k]: the labels after passes 1..k+1 (one entry for a uniform budget)
    pass_end_s: list[float]  # [k]: seconds, summed over the games, until pass k+1 had ended
    wall: float
    cpu: float

    @property
    def labels(self) -> Labels:
        return self.labels_by_pass[-1]


def review(
    games: list[tuple[str, Game]],
    open_engine: Callable[[], UciEngine],
    limit: Limit,
    pass_sizes: list[PassStart],
    positions: dict[str, list[int]] | None = None,
    pass_count: int = 1,
) -> Reviewed:
    by_pass: list[dict[str, dict[int, str | None]]] = [{} for _ in range(pass_count)]
    pass_end = [0.0] * pass_count
    wall = cpu = 0.0
    for key, game in games:
        engine = open_engine()
        cpu_before = cpu_seconds_of_children()
        starts: list[float] = []

        def started_pass(start: PassStart, starts: list[float] = starts) -> None:
            starts.append(time.perf_counter())
            pass_sizes.append(start)

        evaluations: list[Evaluation] = []
        try:
            started = time.perf_counter()
            wanted = positions.get(key) if positions is not None else None
            evaluations.extend(analyse_game(game, engine, limit, threading.Event(), plies=wanted, on_pass=started_pass))
            ended = time.perf_counter()
            wall += ended - started
        finally:
            engine.close()
        cpu += cpu_seconds_of_children() - cpu_before
        ends = (starts[1:] + [ended])[:pass_count] if starts else [ended]
        for index in range(pass_count):
            pass_end[index] += (ends[index] if index < len(ends) else ended) - started
            table = EvaluationTable()
            for evaluation in evaluations:  # in the order found: a deeper pass's figure replaces the earlier one
                if (evaluation.review_pass or 1) <= index + 1:
                    table.add(evaluation)
            by_pass[index][key] = labels_of(game, table)
    return Reviewed([Labels(labels) for labels in by_pass], pass_end, wall, cpu)


@dataclass(frozen=True)
class Agreement:
    agree: float
    agree_best_as_good: float
    recall: float
    precision: float
    reference_flags: int
    flagged: int
    precision_all_runs: float = float("nan")


def _best_as_good(label: str | None) -> str | None:
    return "good" if label == "best" else label


_GRAVITY = {label: rank for rank, label in enumerate(FLAGGED_JUDGEMENTS, 1)}  # inaccuracy < mistake < blunder


def graver_of(first: Labels, second: Labels) -> Labels:
    """Each move with the graver of its two labels (a label of no gravity: the first's)."""
    joined: dict[str, dict[int, str | None]] = {}
    for key, labels in first.by_game.items():
        other = second.by_game.get(key, {})
        joined[key] = {ply: max((label, other.get(ply)), key=lambda text: _GRAVITY.get(text or "", 0))
                       for ply, label in labels.items()}
    return Labels(joined)


def compare(labels: Labels, reference: Labels | Sequence[Labels], plies: dict[str, list[int]]) -> Agreement:
    """Labels against one reference run, or the consensus of several: a label is equal when it
    matches any run; a mistake or blunder of the reference is one every run flags (recall counts
    those found); precision counts the setting's flags that any run flags (`precision_all_runs`:
    that every run flags). With one run these are the plain figures."""
    runs = [reference] if isinstance(reference, Labels) else list(reference)
    same = same_merged = total = true_flags = found = flagged = correct = correct_all = 0
    for key, wanted in plies.items():
        for ply in wanted:
            ours = labels.by_game[key].get(ply)
            theirs = [run.by_game[key].get(ply) for run in runs]
            total += 1
            same += ours in theirs
            same_merged += _best_as_good(ours) in [_best_as_good(t) for t in theirs]
            agreed_flag = all(t in FLAGGED for t in theirs)
            true_flags += agreed_flag
            flagged += ours in FLAGGED
            found += agreed_flag and ours in FLAGGED
            correct += ours in FLAGGED and any(t in FLAGGED for t in theirs)
            correct_all += ours in FLAGGED and agreed_flag
    recall = found / true_flags if true_flags else float("nan")
    precision = correct / flagged if flagged else float("nan")
    precision_all = correct_all / flagged if flagged else float("nan")
    return Agreement(same / total, same_merged / total, recall, precision, true_flags, flagged, precision_all)


RUNS_PATH = Path(__file__).resolve().parent / "data" / "chess_review_runs.json"
CONSENSUS_PATH = JSON_PATH.with_name("chess_reference2.json")


def consensus_runs() -> tuple[list[dict[str, dict[int, dict[str, Any]]]], str] | None:
    """The two runs of the consensus reference (benchmarks/chess_reference2.py), or None when it is not made.

    A position run 2 has not searched takes run 1's figures in run 2 (said in the source text): the
    positions run 2 searches first are those of every move in question, so the rest are moves that
    no search put near a mistake."""
    if not CONSENSUS_PATH.exists():
        return None
    document = json.loads(CONSENSUS_PATH.read_text())
    runs: list[dict[str, dict[int, dict[str, Any]]]] = [{}, {}]
    filled = total = 0
    for game in document["games"]:
        for position in game["positions"]:
            total += 1
            if position["run2"] is None:
                filled += 1
            for run, name in zip(runs, ("run1", "run2"), strict=True):
                record = position[name] if position[name] is not None else position["run1"]
                run.setdefault(game["game"], {})[position["ply"]] = record
    missing = f"; run 2 lacks {filled} of {total} positions: run 1 stands in there" if filled else ""
    return runs, (f"{CONSENSUS_PATH.name} ({document['engine']}, two runs of "
                  f"{document['nodes_per_position']:,} nodes a position, each with its own hash{missing})")


def scheme_name(scheme: ChessPasses) -> str:
    flags = f", M+B only from pass {scheme.flags_from}" if scheme.flags_from else ""
    return ("passes " + ">".join(_compact_nodes(n) for n in scheme.nodes) + " margins "
            + ",".join(f"{m:g}" for m in scheme.margins) + flags)


def _compact_nodes(nodes: int) -> str:
    return f"{nodes / 1_000_000:g}M" if nodes >= 1_000_000 else f"{nodes // 1000}k"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uniform", default="30000,100000,300000,1000000", help="uniform node budgets")
    parser.add_argument("--passes", default=None,
                        help="node budgets of the passes (default: the app's); several schemes apart with /")
    parser.add_argument("--margins", default=None,
                        help="win points of doubt before pass 2, 3… (default: the app's); one per scheme, apart with /")
    parser.add_argument("--flags-from", default=None,
                        help="the first pass that looks only at mistakes and worse (0: none); one per scheme, apart with /")
    parser.add_argument("--prefixes", action="store_true",
                        help="also print the labels and time of a scheme's first passes where they are the default "
                             "scheme (the same searches)")
    parser.add_argument("--single-reference", action="store_true",
                        help=f"compare with run 1 alone ({JSON_PATH.name}), not the two-run consensus")
    parser.add_argument("--repeat-passes", action="store_true", help="run the passes twice and count differing labels")
    parser.add_argument("--games", type=int, default=len(GAMES), help="use the first N reference games")
    parser.add_argument("--whole-games", action="store_true",
                        help="review whole games (default: only the positions the reference holds)")
    parser.add_argument("--compare-only", action="store_true",
                        help=f"no engine: compare the labels of the last run ({RUNS_PATH.name}) with the reference now")
    parser.add_argument("--unions", action="store_true",
                        help="with --compare-only: also every two saved settings together, a move taking the graver "
                             "of their two labels (would flagging what either flags reach the goal?)")
    args = parser.parse_args()

    records, source = reference_records()
    run_records = [records]
    consensus = None if args.single_reference else consensus_runs()
    if consensus is not None:
        run_records, source = consensus
    games: list[tuple[str, Game]] = []
    plies: dict[str, list[int]] = {}
    reference_runs: list[dict[str, dict[int, str | None]]] = [{} for _ in run_records]
    for file_name, index in GAMES[: args.games]:
        key = game_key(file_name, index)
        game = load_game(CORPUS_PGN / file_name, index)
        wanted = compared_plies(records.get(key, {}), game)
        for run in run_records:
            wanted = [ply for ply in wanted if ply in compared_plies(run.get(key, {}), game)]
        if not wanted:
            continue
        games.append((key, game))
        plies[key] = wanted
        for labels, run in zip(reference_runs, run_records, strict=True):
            labels[key] = labels_of(game, reference_table(game, run[key]))
    reference_labels = [Labels(labels) for labels in reference_runs]
    moves = sum(len(p) for p in plies.values())
    none = Labels({key: {} for key in plies})
    base = compare(none, reference_labels, plies)
    either = sum(1 for key, wanted in plies.items() for ply in wanted
                 if any(run[key].get(ply) in FLAGGED for run in reference_runs))
    print(f"reference: {source}")
    for key, game in games:
        print(f"  {key}: {game.headers.get('White')} - {game.headers.get('Black')}, {game.ply_count} plies, "
              f"{len(plies[key])} moves compared")
    if len(reference_labels) > 1:
        equal_runs = compare(reference_labels[1], reference_labels[0], plies)
        print(f"{moves} moves compared; mistakes+blunders: {base.reference_flags} in both runs, {either} in either; "
              f"the two runs give equal labels on {equal_runs.agree:.1%}; cores: {os.cpu_count()}")
        print("equal: the label matches either run; recall: of the moves both runs call a mistake or blunder; "
              "prec.: of the flags, those either run makes (prec.2: both runs)")
    else:
        print(f"{moves} moves compared, {base.reference_flags} mistakes+blunders in the reference; cores: {os.cpu_count()}")
    print()
    print(f"{'setting':<72} {'wall s':>8} {'cpu s':>8} {'x 1M':>5} {'equal':>6} {'eq b=g':>6} {'recall':>7} "
          f"{'prec.':>6} {'prec.2':>6} {'M+B':>4} {'graph at':>8}")

    def line(name: str, labels: Labels, wall: float, cpu: float | None, first_pass_s: float | None,
             uniform_wall: float | None) -> None:
        a = compare(labels, reference_labels, plies)
        share = f"{wall / uniform_wall:5.2f}" if uniform_wall else f"{'':>5}"
        cpu_text = f"{cpu:8.1f}" if cpu is not None else f"{'-':>8}"
        shown = f"{first_pass_s / uniform_wall:8.1%}" if uniform_wall and first_pass_s is not None else f"{'':>8}"
        print(f"{name:<72} {wall:8.1f} {cpu_text} {share} {a.agree:6.1%} {a.agree_best_as_good:6.1%} {a.recall:7.1%} "
              f"{a.precision:6.1%} {a.precision_all_runs:6.1%} {a.flagged:4d} {shown}", flush=True)

    def as_labels(data: dict[str, dict[str, str | None]]) -> Labels:
        return Labels({key: {int(ply): label for ply, label in by_ply.items()} for key, by_ply in data.items()})

    if args.compare_only:
        saved = json.loads(RUNS_PATH.read_text())
        print(f"(labels and times of the run of {saved['when']}: {saved.get('command', '')})")
        if saved.get("positions"):
            for key in list(plies):
                reviewed = set(saved["positions"].get(key, ()))
                plies[key] = [ply for ply in plies[key] if ply - 1 in reviewed and ply in reviewed]
            print(f"compared: {sum(len(p) for p in plies.values())} moves that run reviewed")
        uniform_wall = next((run["wall_s"] for run in saved["runs"] if run["name"].startswith("uniform 1,000,000")), None)
        for run in saved["runs"]:
            missing = [key for key in plies if key not in run["labels"]]
            if missing:
                raise SystemExit(f"the saved run has no labels for {missing}: run the benchmark again")
            if args.prefixes:
                for prefix in run.get("prefixes", []):
                    line(prefix["name"], as_labels(prefix["labels"]), prefix["wall_s"], None, run.get("first_pass_s"),
                         uniform_wall)
            line(run["name"], as_labels(run["labels"]), run["wall_s"], run["cpu_s"], run.get("first_pass_s"), uniform_wall)
            for note in run.get("notes", []):
                print(note)
        if args.unions:
            named: list[tuple[str, Labels]] = []
            for run in saved["runs"]:
                named += [(prefix["name"], as_labels(prefix["labels"])) for prefix in run.get("prefixes", [])]
                named.append((run["name"], as_labels(run["labels"])))
            print("\nboth settings of a pair, a move taking the graver label:")
            for first in range(len(named)):
                for second in range(first + 1, len(named)):
                    joined = graver_of(named[first][1], named[second][1])
                    a = compare(joined, reference_labels, plies)
                    print(f"  {named[first][0][:44]:<44} + {named[second][0][:44]:<44} equal {a.agree:6.1%} "
                          f"recall {a.recall:6.1%} prec. {a.precision:6.1%} M+B {a.flagged}")
        return

    # Each game's positions the reference holds (a suffix of the game: it is computed backwards).
    positions = None if args.whole_games else {
        key: sorted({ply - 1 for ply in wanted} | set(wanted)) for key, wanted in plies.items()
    }
    runs_out: list[dict[str, Any]] = []
    uniform_1m: Reviewed | None = None
    for nodes in (int(n) for n in args.uniform.split(",") if n):
        result = review(games, lambda: UciEngine([STOCKFISH]), Limit(nodes=nodes), [], positions)
        if nodes == 1_000_000:
            uniform_1m = result
        name = f"uniform {nodes:,} nodes (1 engine x 2 threads)"
        line(name, result.labels, result.wall, result.cpu, result.wall, uniform_1m.wall if uniform_1m else None)
        runs_out.append({"name": name, "labels": result.labels.by_game, "wall_s": result.wall, "cpu_s": result.cpu,
                         "first_pass_s": result.wall})

    app_scheme = default_chess_passes()
    schemes = [app_scheme]
    if args.passes or args.margins or args.flags_from:
        budget_lists = (args.passes or ",".join(str(n) for n in app_scheme.nodes)).split("/")
        margin_lists = (args.margins or ",".join(f"{m:g}" for m in app_scheme.margins)).split("/")
        flags_lists = (args.flags_from or str(app_scheme.flags_from)).split("/")
        if len(margin_lists) == 1:
            margin_lists *= len(budget_lists)
        if len(flags_lists) == 1:
            flags_lists *= len(budget_lists)
        if not len(margin_lists) == len(flags_lists) == len(budget_lists):
            raise SystemExit("--passes, --margins and --flags-from name different numbers of schemes")
        schemes = [
            ChessPasses(nodes=tuple(int(n) for n in budgets.split(",")), margins=tuple(float(m) for m in margins.split(",")),
                        engines=app_scheme.engines, flags_from=int(flags))
            for budgets, margins, flags in zip(budget_lists, margin_lists, flags_lists, strict=True)
        ]
    passes_engine: Callable[[], UciEngine] = lambda: UciEngine([STOCKFISH])  # noqa: E731
    reviewed = sum(len(p) for p in positions.values()) if positions else sum(g.ply_count + 1 for _, g in games)
    uniform_wall = uniform_1m.wall if uniform_1m else None
    for scheme in schemes:
        sizes: list[PassStart] = []
        result = review(games, passes_engine, scheme.limit(), sizes, positions, pass_count=scheme.pass_count)
        name = scheme_name(scheme) + f" ({scheme.engines} x 1 thread)"
        if scheme == app_scheme:
            name += " (the default)"
        prefixes = []
        if args.prefixes:
            for count in range(2, scheme.pass_count):
                shorter = replace(scheme, nodes=scheme.nodes[:count], margins=scheme.margins[: count - 1],
                                  flags_from=scheme.flags_from if scheme.flags_from <= count else 0)
                if shorter != app_scheme:
                    continue
                prefix_name = f"{scheme_name(shorter)} (the default: first {count} passes of the next)"
                line(prefix_name, result.labels_by_pass[count - 1], result.pass_end_s[count - 1], None,
                     result.pass_end_s[0], uniform_wall)
                prefixes.append({"name": prefix_name, "labels": result.labels_by_pass[count - 1].by_game,
                                 "wall_s": result.pass_end_s[count - 1]})
        line(name, result.labels, result.wall, result.cpu, result.pass_end_s[0], uniform_wall)
        notes = []
        for index in range(1, scheme.pass_count + 1):
            searched = sum(start.positions for start in sizes if start.index == index)
            notes.append(f"  pass {index} ({scheme.describe_pass(index)}): {searched} of {reviewed} positions, "
                         f"ended at {result.pass_end_s[index - 1]:.1f} s")
        if uniform_1m is not None:
            notes.append(f"  passes / uniform 1M: wall time {result.wall / uniform_1m.wall:.2f}, "
                         f"engine CPU {result.cpu / uniform_1m.cpu:.2f}")
        if args.repeat_passes:
            again = review(games, passes_engine, scheme.limit(), [], positions, pass_count=scheme.pass_count)
            differing = sum(
                result.labels.by_game[key].get(ply) != again.labels.by_game[key].get(ply)
                for key, wanted in plies.items() for ply in wanted
            )
            notes.append(f"  passes run twice: {differing} of {moves} labels differ")
        for note in notes:
            print(note, flush=True)
        runs_out.append({"name": name, "labels": result.labels.by_game, "wall_s": result.wall, "cpu_s": result.cpu,
                         "first_pass_s": result.pass_end_s[0], "pass_end_s": result.pass_end_s, "prefixes": prefixes,
                         "notes": notes})
    RUNS_PATH.write_text(json.dumps({
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "games": [key for key, _ in games],
        "positions": positions,
        "command": " ".join(sys.argv),
        "reference": source,
        "runs": runs_out,
    }, indent=1) + "\n")


if __name__ == "__main__":
    main()
