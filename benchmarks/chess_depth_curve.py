"""How chess labels converge with depth: uniform node budgets against the deep reference, a second
search at the reference's own depth, and what reviews in passes reach for their cost.

Every budget searches the positions the reference holds (benchmarks/data/chess_reference.json,
5M nodes a position) the way the review in passes searches: two engines of one thread each, each
its fixed run of positions backwards from the last, a 64 MB hash (the same answers every time).
The evaluations are kept in benchmarks/data/chess_depth_curve.json, so the table and the
simulations can be printed again without an engine (`--compare-only`). Per budget it prints the
wall seconds, the nodes against a uniform 1M-node review, and against the reference: the labels
equal (agree; agree* with best and good as one label), and the recall and precision of mistakes
and blunders (as benchmarks/chess_review.py).

`--again`: the positions of every move that any budget or the reference puts at a drop of 4 win
points or more, or flags, are searched once more at the reference's budget (fresh hashes, only
those positions): how many of the reference's mistakes and blunders a search of the same depth,
made again, gives back. That bounds what any cheaper review can be asked to reproduce.

`--schemes`: reviews in passes replayed from the stored evaluations: pass 1 at b1 on every
position, pass 2 at b2 on the moves whose drop lies within m1 win points of a threshold (5, 10,
15) or that involve a mate, pass 3 at b3 on the moves whose drop after pass 2 lies within m2; the
cost counts every search of every pass. A pass at the reference's budget takes the reference's
figures, so those lines are optimistic. Printed: for each share of the uniform 1M-node cost, the
best recall any scheme reached.

    nice -n 10 .venv/bin/python benchmarks/chess_depth_curve.py [--budgets 20000,50000,...]
        [--again] [--schemes] [--compare-only]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

from chess_reference import CORPUS_PGN, GAMES, STOCKFISH, game_key  # noqa: E402
from chess_review import FLAGGED, Labels, compare, compared_plies, reference_records, reference_table  # noqa: E402

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit  # noqa: E402
from reviewer.core.engines.uci import UciEngine  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.gametree import Game  # noqa: E402
from reviewer.core.scoring.chess import DROP_THRESHOLDS, assess_chess  # noqa: E402
from reviewer.core.scoring.common import DEFAULT_PRESET, MoveAssessment  # noqa: E402

DATA_PATH = Path(__file__).resolve().parent / "data" / "chess_depth_curve.json"
DEFAULT_BUDGETS = "20000,50000,100000,200000,500000,1000000,2000000"
BASELINE_NODES = 1_000_000
ENGINES, HASH_MB = 2, 64
KEPT = ("ply", "score_cp_first", "mate_first", "wdl_first", "side_to_move", "terminal", "best_move", "depth", "nodes")


@dataclasses.dataclass
class Reviewed:
    game: Game
    compared: list[int]  # the moves compared with the reference
    positions: list[int]  # the positions searched (both of every compared move)
    reference: dict[int, Evaluation]


def load_games() -> tuple[dict[str, Reviewed], int]:
    records, _source = reference_records()
    games: dict[str, Reviewed] = {}
    for file_name, index in GAMES:
        key = game_key(file_name, index)
        game = load_game(CORPUS_PGN / file_name, index)
        compared = compared_plies(records.get(key, {}), game)
        if not compared:
            continue
        table = reference_table(game, records[key])
        positions = sorted({ply - 1 for ply in compared} | set(compared))
        games[key] = Reviewed(game, compared, positions, {p: e for p in positions if (e := table.get(p)) is not None})
    reference_nodes = json.loads((REPO_ROOT / "benchmarks" / "data" / "chess_reference.json").read_text())["settings"][
        "nodes_per_position"
    ]
    return games, int(reference_nodes)


def search(games: dict[str, Reviewed], nodes: int, positions: dict[str, list[int]]) -> tuple[dict[str, dict[int, Evaluation]], float]:
    found: dict[str, dict[int, Evaluation]] = {}
    started = time.perf_counter()
    for key, reviewed in games.items():
        with UciEngine([STOCKFISH]) as engine:
            evaluations = engine.analyse_reproducibly(
                reviewed.game, positions[key], Limit(nodes=nodes), threading.Event(), processes=ENGINES, hash_mb=HASH_MB
            )
            found[key] = {e.ply: e for e in evaluations}
    return found, time.perf_counter() - started


def to_json(evaluations: dict[str, dict[int, Evaluation]]) -> dict[str, dict[str, dict[str, Any]]]:
    return {
        key: {str(ply): {name: getattr(e, name) for name in KEPT} for ply, e in by_ply.items()}
        for key, by_ply in evaluations.items()
    }


def from_json(data: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[int, Evaluation]]:
    return {
        key: {int(ply): Evaluation.from_json({**record, "kind": "chess"}) for ply, record in by_ply.items()}
        for key, by_ply in data.items()
    }


def moves_of(game: Game, evaluations: dict[int, Evaluation]) -> dict[int, MoveAssessment]:
    return {move.ply: move for move in assess_chess(game, EvaluationTable(dict(evaluations))).moves}


def labels_from(games: dict[str, Reviewed], evaluations: dict[str, dict[int, Evaluation]]) -> Labels:
    return Labels({key: {p: m.judgement for p, m in moves_of(r.game, evaluations[key]).items()} for key, r in games.items()})


def line(name: str, labels: Labels, reference: Labels, plies: dict[str, list[int]], wall: float | None, cost: float) -> str:
    a = compare(labels, reference, plies)
    wall_text = f"{wall:8.1f}" if wall is not None else f"{'':>8}"
    return (f"{name:<34} {wall_text} {cost:6.2f} {a.agree:7.1%} {a.agree_best_as_good:7.1%} {a.recall:7.1%} "
            f"{a.precision:7.1%} {a.flagged:4d}")


def doubtful_moves(
    reviewed: Reviewed, state: dict[int, Evaluation], margin: float, thresholds: tuple[float, ...]
) -> set[int]:
    doubtful = set()
    for ply, move in moves_of(reviewed.game, state).items():
        if ply not in reviewed.compared or move.book or move.judgement is None:
            continue
        mate = any(
            e is not None and (e.mate_first is not None or e.terminal == "checkmate")
            for e in (state.get(ply - 1), state.get(ply))
        )
        drop = move.win_drop_mover
        if mate or (drop is not None and any(abs(drop - t) < margin for t in thresholds)):
            doubtful.add(ply)
    return doubtful


def replay_scheme(
    games: dict[str, Reviewed], by_budget: dict[int, dict[str, dict[int, Evaluation]]], budgets: tuple[int, ...],
    margins: tuple[float, ...],
) -> tuple[Labels, int]:
    thresholds = DROP_THRESHOLDS[DEFAULT_PRESET]
    labels: dict[str, dict[int, str | None]] = {}
    nodes = 0
    for key, reviewed in games.items():
        state = dict(by_budget[budgets[0]][key])
        nodes += len(reviewed.positions) * budgets[0]
        for budget, margin in zip(budgets[1:], margins, strict=True):
            targets = {p for ply in doubtful_moves(reviewed, state, margin, thresholds) for p in (ply - 1, ply)}
            targets &= set(reviewed.positions)
            state.update({p: by_budget[budget][key][p] for p in targets})
            nodes += len(targets) * budget
        labels[key] = {p: m.judgement for p, m in moves_of(reviewed.game, state).items()}
    return Labels(labels), nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budgets", default=DEFAULT_BUDGETS, help="uniform node budgets, one thread per engine")
    parser.add_argument("--again", action="store_true", help="search the moves in question again at the reference's budget")
    parser.add_argument("--schemes", action="store_true", help="replay reviews in passes from the stored evaluations")
    parser.add_argument("--compare-only", action="store_true", help=f"no engine: print from {DATA_PATH.name}")
    args = parser.parse_args()

    games, reference_nodes = load_games()
    plies = {key: r.compared for key, r in games.items()}
    reference = labels_from(games, {key: r.reference for key, r in games.items()})
    positions_total = sum(len(r.positions) for r in games.values())
    baseline_nodes = positions_total * BASELINE_NODES
    stored: dict[str, Any] = json.loads(DATA_PATH.read_text()) if DATA_PATH.exists() else {"budgets": {}}
    budgets = [int(b) for b in args.budgets.split(",") if b]
    flags = sum(1 for key, wanted in plies.items() for p in wanted if reference.by_game[key].get(p) in FLAGGED)
    print(f"{len(games)} games, {sum(len(p) for p in plies.values())} moves, {positions_total} positions, "
          f"{flags} mistakes+blunders in the reference ({reference_nodes:,} nodes a position)")
    print(f"{'setting':<34} {'wall s':>8} {'x 1M':>6} {'agree':>7} {'agree*':>7} {'recall':>7} {'prec.':>7} {'M+B':>4}")
    by_budget: dict[int, dict[str, dict[int, Evaluation]]] = {}
    for budget in budgets:
        if args.compare_only:
            if str(budget) not in stored["budgets"]:
                raise SystemExit(f"{DATA_PATH.name} holds no run at {budget:,} nodes: run without --compare-only")
            entry = stored["budgets"][str(budget)]
            evaluations, wall = from_json(entry["evaluations"]), entry["wall_s"]
        else:
            evaluations, wall = search(games, budget, {key: r.positions for key, r in games.items()})
            stored["budgets"][str(budget)] = {"wall_s": wall, "evaluations": to_json(evaluations)}
            DATA_PATH.write_text(json.dumps(stored, separators=(",", ":")) + "\n")
        by_budget[budget] = evaluations
        print(line(f"uniform {budget:,} nodes", labels_from(games, evaluations), reference, plies, wall,
                   budget * positions_total / baseline_nodes), flush=True)
    by_budget[reference_nodes] = {key: r.reference for key, r in games.items()}

    if args.again:
        if args.compare_only:
            entry = stored.get("again")
            if entry is None:
                raise SystemExit(f"{DATA_PATH.name} holds no second search: run with --again")
            again, wall = from_json(entry["evaluations"]), entry["wall_s"]
        else:
            in_question: dict[str, list[int]] = {}
            for key, reviewed in games.items():
                moves = set()
                for evaluations in by_budget.values():
                    for ply, move in moves_of(reviewed.game, evaluations[key]).items():
                        if ply in reviewed.compared and ((move.win_drop_mover or 0.0) >= 4 or move.judgement in FLAGGED):
                            moves.add(ply)
                in_question[key] = sorted({p for ply in moves for p in (ply - 1, ply)})
            again, wall = search(games, reference_nodes, in_question)
            stored["again"] = {"wall_s": wall, "evaluations": to_json(again)}
            DATA_PATH.write_text(json.dumps(stored, separators=(",", ":")) + "\n")
        mixed = {key: {**r.reference, **again[key]} for key, r in games.items()}
        searched = sum(len(v) for v in again.values())
        print(line(f"{reference_nodes:,} again ({searched} positions)", labels_from(games, mixed), reference, plies, wall,
                   searched * reference_nodes / baseline_nodes))

    if args.schemes:
        print()
        print("reviews in passes replayed from these evaluations (cost: nodes against uniform 1M):")
        lower = sorted(b for b in by_budget if b < reference_nodes)
        results = []
        for b1, b2 in itertools.combinations(lower, 2):
            if b1 > 100_000:
                continue
            for m1 in (2.0, 3.0, 4.0, 5.0):
                labels, nodes = replay_scheme(games, by_budget, (b1, b2), (m1,))
                results.append((nodes / baseline_nodes, compare(labels, reference, plies), f"{b1:,} > {b2:,}, margin {m1:g}"))
                for b3 in (b for b in by_budget if b > b2):
                    for m2 in (0.5, 1.0, 2.0, 3.0):
                        labels, nodes = replay_scheme(games, by_budget, (b1, b2, b3), (m1, m2))
                        name = f"{b1:,} > {b2:,} > {b3:,}, margins {m1:g}, {m2:g}"
                        results.append((nodes / baseline_nodes, compare(labels, reference, plies), name))
        print(f"{'cost at most':>12} {'best recall':>11} {'prec.':>7} {'agree*':>7}  scheme")
        for ceiling in (0.2, 0.33, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0):
            within = [r for r in results if r[0] <= ceiling and r[1].precision >= 0.85]
            if within:
                cost, best, name = max(within, key=lambda r: (r[1].recall, r[1].precision, -r[0]))
                print(f"{ceiling:12.2f} {best.recall:11.1%} {best.precision:7.1%} {best.agree_best_as_good:7.1%}  "
                      f"{name} (cost {cost:.2f})")


if __name__ == "__main__":
    main()
