"""Chess review: labels against a deep reference, for uniform node budgets and for the review in passes.

The reference (benchmarks/data/chess_reference.json, made by benchmarks/chess_reference.py: Stockfish,
5M nodes per position, one thread, each game backwards) judges every move of a few real games from
the shared corpus. In one run, each setting reviews the same games through
`reviewer.core.review.analyse_game` (no cache), and the benchmark prints, against the reference:

  agree     the share of moves given the same label (book, best, good, inaccuracy, mistake, blunder)
  agree*    the same with best and good as one label: `best` means the move is the engine's first
            choice (SCORING.md), so between near-equal moves it follows which one a search ranks first
  recall    of the reference's mistakes and blunders, the share the setting flags as mistake or blunder
  precision of the setting's mistakes and blunders, the share the reference flags so
  wall s    wall-clock seconds for all games (engines started before the clock)
  cpu s     the engines' CPU seconds (steadier than wall time on a shared machine)

Uniform budgets run as today's default does (UciEngine's default arrangement: on 2 cores one process,
Threads=2); the passes run one single-thread engine per core. Only moves whose two positions the
reference holds are compared (a game the reference has not finished counts from its end backwards),
and by default only the positions the reference holds are reviewed (`--whole-games` for all).
`--compare-only` compares the saved labels of the last run (benchmarks/data/chess_review_runs.json)
with the reference as it is now, without running an engine.

    nice -n 10 .venv/bin/python benchmarks/chess_review.py [--uniform 30000,100000,300000,1000000]
        [--passes 40000,250000,1000000/20000,500000,1000000] [--margins 3,1/3,0.5] [--repeat-passes]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
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
            wdl = record.get("wdl_white")
            evaluation = Evaluation(
                ply=ply, kind="chess", engine_id="reference", score_cp_white=record["score_cp_white"],
                mate_white=record["mate_white"], wdl_white=tuple(wdl) if wdl else None,
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


def review(
    games: list[tuple[str, Game]],
    open_engine: Callable[[], UciEngine],
    limit: Limit,
    pass_sizes: list[PassStart],
    positions: dict[str, list[int]] | None = None,
) -> tuple[Labels, float, float]:
    labels: dict[str, dict[int, str | None]] = {}
    wall = cpu = 0.0
    for key, game in games:
        engine = open_engine()
        cpu_before = cpu_seconds_of_children()
        try:
            started = time.perf_counter()
            table = EvaluationTable()
            wanted = positions.get(key) if positions is not None else None
            for evaluation in analyse_game(game, engine, limit, threading.Event(), plies=wanted, on_pass=pass_sizes.append):
                table.add(evaluation)
            wall += time.perf_counter() - started
        finally:
            engine.close()
        cpu += cpu_seconds_of_children() - cpu_before
        labels[key] = labels_of(game, table)
    return Labels(labels), wall, cpu


@dataclass(frozen=True)
class Agreement:
    agree: float
    agree_best_as_good: float
    recall: float
    precision: float
    reference_flags: int
    flagged: int


def _best_as_good(label: str | None) -> str | None:
    return "good" if label == "best" else label


def compare(labels: Labels, reference: Labels, plies: dict[str, list[int]]) -> Agreement:
    same = same_merged = total = true_flags = found = flagged = correct = 0
    for key, wanted in plies.items():
        for ply in wanted:
            ours, theirs = labels.by_game[key].get(ply), reference.by_game[key].get(ply)
            total += 1
            same += ours == theirs
            same_merged += _best_as_good(ours) == _best_as_good(theirs)
            true_flags += theirs in FLAGGED
            flagged += ours in FLAGGED
            found += theirs in FLAGGED and ours in FLAGGED
            correct += ours in FLAGGED and theirs in FLAGGED
    recall = found / true_flags if true_flags else float("nan")
    precision = correct / flagged if flagged else float("nan")
    return Agreement(same / total, same_merged / total, recall, precision, true_flags, flagged)


RUNS_PATH = Path(__file__).resolve().parent / "data" / "chess_review_runs.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uniform", default="30000,100000,300000,1000000", help="uniform node budgets")
    parser.add_argument("--passes", default=None,
                        help="node budgets of the passes (default: the app's); several schemes apart with /")
    parser.add_argument("--margins", default=None,
                        help="win points of doubt before pass 2, 3… (default: the app's); one per scheme, apart with /")
    parser.add_argument("--repeat-passes", action="store_true", help="run the passes twice and count differing labels")
    parser.add_argument("--games", type=int, default=len(GAMES), help="use the first N reference games")
    parser.add_argument("--whole-games", action="store_true",
                        help="review whole games (default: only the positions the reference holds)")
    parser.add_argument("--compare-only", action="store_true",
                        help=f"no engine: compare the labels of the last run ({RUNS_PATH.name}) with the reference now")
    args = parser.parse_args()

    records, source = reference_records()
    games: list[tuple[str, Game]] = []
    plies: dict[str, list[int]] = {}
    reference: dict[str, dict[int, str | None]] = {}
    for file_name, index in GAMES[: args.games]:
        key = game_key(file_name, index)
        game_records = records.get(key, {})
        game = load_game(CORPUS_PGN / file_name, index)
        wanted = compared_plies(game_records, game)
        if not wanted:
            continue
        games.append((key, game))
        plies[key] = wanted
        reference[key] = labels_of(game, reference_table(game, game_records))
    reference_labels = Labels(reference)
    moves = sum(len(p) for p in plies.values())
    ref_flags = sum(1 for key, wanted in plies.items() for ply in wanted if reference[key].get(ply) in FLAGGED)
    print(f"reference: {source}")
    for key, game in games:
        print(f"  {key}: {game.headers.get('White')} - {game.headers.get('Black')}, {game.ply_count} plies, "
              f"{len(plies[key])} moves compared")
    print(f"{moves} moves compared, {ref_flags} mistakes+blunders in the reference; cores: {os.cpu_count()}")
    print()
    print(f"{'setting':<44} {'wall s':>8} {'cpu s':>8} {'agree':>7} {'agree*':>7} {'recall':>7} {'prec.':>7} {'M+B':>4}")

    def line(name: str, labels: Labels, wall: float, cpu: float) -> None:
        a = compare(labels, reference_labels, plies)
        print(f"{name:<44} {wall:8.1f} {cpu:8.1f} {a.agree:7.1%} {a.agree_best_as_good:7.1%} {a.recall:7.1%} "
              f"{a.precision:7.1%} {a.flagged:4d}", flush=True)

    if args.compare_only:
        saved = json.loads(RUNS_PATH.read_text())
        print(f"(labels and times of the run of {saved['when']}, games: {', '.join(saved['games'])})")
        if saved.get("positions"):
            for key in list(plies):
                reviewed = set(saved["positions"].get(key, ()))
                plies[key] = [ply for ply in plies[key] if ply - 1 in reviewed and ply in reviewed]
            print(f"compared: {sum(len(p) for p in plies.values())} moves that run reviewed")
        runs = saved["runs"]
        for run in runs:
            labels = Labels({key: {int(ply): label for ply, label in by_ply.items()} for key, by_ply in run["labels"].items()})
            missing = [key for key in plies if key not in labels.by_game]
            if missing:
                raise SystemExit(f"the saved run has no labels for {missing}: run the benchmark again")
            line(run["name"], labels, run["wall_s"], run["cpu_s"])
            for note in run.get("notes", []):
                print(note)
        return

    # Each game's positions the reference holds (a suffix of the game: it is computed backwards).
    positions = None if args.whole_games else {
        key: sorted({ply - 1 for ply in wanted} | set(wanted)) for key, wanted in plies.items()
    }
    runs_out: list[dict[str, Any]] = []
    walls: dict[str, float] = {}
    cpus: dict[str, float] = {}
    for nodes in (int(n) for n in args.uniform.split(",") if n):
        labels, wall, cpu = review(games, lambda: UciEngine([STOCKFISH]), Limit(nodes=nodes), [], positions)
        walls[f"uniform {nodes}"] = wall
        cpus[f"uniform {nodes}"] = cpu
        name = f"uniform {nodes:,} nodes (1 engine x 2 threads)"
        line(name, labels, wall, cpu)
        runs_out.append({"name": name, "labels": labels.by_game, "wall_s": wall, "cpu_s": cpu})

    app_scheme = default_chess_passes()
    schemes = [app_scheme]
    if args.passes or args.margins:
        budget_lists = (args.passes or ",".join(str(n) for n in app_scheme.nodes)).split("/")
        margin_lists = (args.margins or ",".join(f"{m:g}" for m in app_scheme.margins)).split("/")
        if len(margin_lists) == 1:
            margin_lists *= len(budget_lists)
        if len(margin_lists) != len(budget_lists):
            raise SystemExit("--passes and --margins name different numbers of schemes")
        schemes = [
            ChessPasses(nodes=tuple(int(n) for n in budgets.split(",")), margins=tuple(float(m) for m in margins.split(",")),
                        engines=app_scheme.engines)
            for budgets, margins in zip(budget_lists, margin_lists, strict=True)
        ]
    passes_engine: Callable[[], UciEngine] = lambda: UciEngine([STOCKFISH])  # noqa: E731
    reviewed = sum(len(p) for p in positions.values()) if positions else sum(g.ply_count + 1 for _, g in games)
    for scheme in schemes:
        sizes: list[PassStart] = []
        labels, wall, cpu = review(games, passes_engine, scheme.limit(), sizes, positions)
        name = ("passes " + ">".join(f"{n // 1000}k" for n in scheme.nodes) + " margins "
                + ",".join(f"{m:g}" for m in scheme.margins) + f" ({scheme.engines} x 1 thread)")
        line(name, labels, wall, cpu)
        notes = []
        for index in range(1, scheme.pass_count + 1):
            searched = sum(start.positions for start in sizes if start.index == index)
            notes.append(f"  pass {index} ({scheme.describe_pass(index)}): {searched} of {reviewed} positions")
        if "uniform 1000000" in walls:
            notes.append(f"  passes / uniform 1M: wall time {wall / walls['uniform 1000000']:.2f}, "
                         f"engine CPU {cpu / cpus['uniform 1000000']:.2f}")
        if args.repeat_passes:
            again, _, _ = review(games, passes_engine, scheme.limit(), [], positions)
            differing = sum(
                labels.by_game[key].get(ply) != again.by_game[key].get(ply)
                for key, wanted in plies.items() for ply in wanted
            )
            notes.append(f"  passes run twice: {differing} of {moves} labels differ")
        for note in notes:
            print(note, flush=True)
        runs_out.append({"name": name, "labels": labels.by_game, "wall_s": wall, "cpu_s": cpu, "notes": notes})
    RUNS_PATH.write_text(json.dumps({
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "games": [key for key, _ in games],
        "positions": positions,
        "command": " ".join(sys.argv),
        "runs": runs_out,
    }, indent=1) + "\n")


if __name__ == "__main__":
    main()
