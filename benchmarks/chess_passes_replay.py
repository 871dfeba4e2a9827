"""Chess reviews in passes replayed from stored evaluations, against the two-run consensus reference.

Each pass's decisions are the app's own (`reviewer.core.passes.chess_moves_in_doubt`); the figures a
pass would search are taken from benchmarks/data/chess_depth_curve.json (uniform budgets, two
single-thread engines each backwards over every position, so every figure was found with a hash
that all later positions had filled: a pass over a few positions does not have that, and these
replays flatter). A scheme's budgets are those stored (20k, 50k, 100k, 200k, 500k, 1M, 2M); the
cost counts every search of every pass in nodes against a uniform 1M-node review. Compared as
benchmarks/chess_review.py compares (equal: matches either run; recall: of the moves both runs
call a mistake or blunder; precision: of the flags, those either run makes).

    nice .venv/bin/python benchmarks/chess_passes_replay.py [--schemes "50000,200000,1000000,2000000:3,1,0.5;..."]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

from chess_depth_curve import DATA_PATH, from_json  # noqa: E402
from chess_reference import CORPUS_PGN, GAMES, game_key  # noqa: E402
from chess_review import Labels, compare, compared_plies, consensus_runs, labels_of, reference_table  # noqa: E402

from reviewer.core.analysis import Evaluation, EvaluationTable  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.passes import ChessPasses, chess_moves_in_doubt  # noqa: E402

DEFAULT_SCHEMES = (
    "50000,200000,1000000:3,1;"
    "50000,200000,1000000,2000000:3,1,0.5;50000,200000,1000000,2000000:3,1,1;50000,200000,1000000,2000000:3,1,2;"
    "50000,200000,1000000,2000000:3,1,3;50000,200000,2000000:3,1;50000,500000,2000000:3,1"
)


def replay(game, positions: list[int], stored: dict[int, dict[int, Evaluation]], scheme: ChessPasses
           ) -> tuple[dict[int, str | None], int, list[int]]:
    wanted = set(positions)
    state: dict[int, Evaluation] = {}
    earlier: dict[int, Evaluation] = {}
    touched: set[int] = set()
    nodes = 0
    sizes = []
    for index, budget in enumerate(scheme.nodes, start=1):
        if index == 1:
            targets = set(wanted)
        else:
            moves = chess_moves_in_doubt(game, state, scheme, index, earlier=earlier, touched=touched)
            targets = {p for ply in moves for p in (ply - 1, ply)} & wanted
        earlier = {ply: state[ply] for ply in targets if ply in state}
        touched = targets
        for ply in targets:
            if ply in stored[budget]:
                state[ply] = stored[budget][ply]
        nodes += len(targets) * budget
        sizes.append(len(targets))
    return labels_of(game, EvaluationTable(dict(state))), nodes, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--schemes", default=DEFAULT_SCHEMES, help="nodes:margins[:first pass on mistakes only], schemes apart with ;")
    args = parser.parse_args()
    consensus = consensus_runs()
    if consensus is None:
        raise SystemExit("no consensus reference: run benchmarks/chess_reference2.py first")
    runs, source = consensus
    budgets = json.loads(DATA_PATH.read_text())["budgets"]
    by_budget = {int(b): from_json(entry["evaluations"]) for b, entry in budgets.items()}
    games, plies, reference = [], {}, [{}, {}]
    for file_name, index in GAMES:
        key = game_key(file_name, index)
        game = load_game(CORPUS_PGN / file_name, index)
        wanted = [p for p in compared_plies(runs[0].get(key, {}), game) if p in compared_plies(runs[1].get(key, {}), game)]
        if not wanted:
            continue
        games.append((key, game))
        plies[key] = wanted
        for labels, run in zip(reference, runs, strict=True):
            labels[key] = labels_of(game, reference_table(game, run[key]))
    reference_labels = [Labels(r) for r in reference]
    positions = {key: sorted({p - 1 for p in wanted} | set(wanted)) for key, wanted in plies.items()}
    baseline = sum(len(p) for p in positions.values()) * 1_000_000
    print(f"reference: {source}; {sum(len(p) for p in plies.values())} moves")
    print(f"{'scheme':<44} {'cost':>5} {'equal':>6} {'recall':>7} {'prec.':>6} {'prec.2':>6}  positions by pass")
    for text in args.schemes.split(";"):
        nodes_text, margins_text, *flags_text = text.split(":")
        scheme = ChessPasses(nodes=tuple(int(n) for n in nodes_text.split(",")),
                             margins=tuple(float(m) for m in margins_text.split(",") if m),
                             flags_from=int(flags_text[0]) if flags_text else 0)
        labels: dict[str, dict[int, str | None]] = {}
        nodes = 0
        sizes_all = [0] * len(scheme.nodes)
        for key, game in games:
            labels[key], game_nodes, sizes = replay(game, positions[key], {b: by_budget[b][key] for b in scheme.nodes},
                                                    scheme)
            nodes += game_nodes
            sizes_all = [a + b for a, b in zip(sizes_all, sizes, strict=True)]
        a = compare(Labels(labels), reference_labels, plies)
        print(f"{text:<44} {nodes / baseline:5.2f} {a.agree:6.1%} {a.recall:7.1%} {a.precision:6.1%} "
              f"{a.precision_all_runs:6.1%}  {sizes_all}")


if __name__ == "__main__":
    main()
