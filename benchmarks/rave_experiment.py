"""Plain RAVE against weighted RAVE (the move-number proposal): matches on 9x9 and tactical problems.

    .venv/bin/python benchmarks/rave_experiment.py --games 200 --playouts 400 --workers 2

Match: the two variants play each other at equal playouts per move, colours alternating, komi
7.5, area scoring; a game ends after two passes, at 200 moves, or when the side to move sees
less than 3% to win after move 30 (it resigns). Each game has its own seed. The weighted
variant's share of the points (a jigo is half) comes with a 95% Wilson interval.

Problems: each variant searches each tactical position of
`reviewer.core.engines.builtin_go.problems` with several seeds at growing budgets; the table
gives how many seeds chose a right move, and the smallest budget from which every larger
budget solved it for at least 80% of the seeds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from intervals import wilson  # noqa: E402

from reviewer.core.engines.builtin_go.engine import _mix_seed, search_position  # noqa: E402
from reviewer.core.engines.builtin_go.position import Position  # noqa: E402
from reviewer.core.engines.builtin_go.problems import PROBLEMS  # noqa: E402

MAX_MOVES = 200
RESIGN_BELOW = 0.03
RESIGN_AFTER = 30


def play_game(task: tuple[int, str, str, int, int]) -> dict:
    """One game; returns who won and how. task = (index, black variant, white variant, playouts, seed)."""
    index, black_variant, white_variant, playouts, seed = task
    position = Position(9, rules="chinese", komi=7.5)
    moves = 0
    resigned = None
    while moves < MAX_MOVES and position.meta[3] < 2:  # meta[3]: consecutive passes
        variant = black_variant if position.to_move == "black" else white_variant
        result = search_position(position, playouts, seed=_mix_seed(seed, moves), variant=variant)
        mover_winrate = result.winrate_first if position.to_move == "black" else 1 - result.winrate_first
        if moves >= RESIGN_AFTER and mover_winrate < RESIGN_BELOW:
            resigned = position.to_move
            break
        best = result.best
        position.play(None if best is None or best.index < 0 else position.point(best.index))
        moves += 1
    if resigned is not None:
        winner = "white" if resigned == "black" else "black"
        score = None
    else:
        score = position.lead_black()
        winner = "black" if score > 0 else "white" if score < 0 else "jigo"
    return {"index": index, "black": black_variant, "white": white_variant, "winner": winner, "moves": moves,
            "score_lead_first": score, "resigned": resigned}


def run_match(games: int, playouts: int, workers: int, seed: int, challenger: str, baseline: str) -> dict:
    tasks = []
    for index in range(games):
        black, white = (challenger, baseline) if index % 2 == 0 else (baseline, challenger)
        tasks.append((index, black, white, playouts, _mix_seed(seed, 1000 + index)))
    started = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play_game, tasks))
    else:
        results = [play_game(task) for task in tasks]
    points = 0.0
    as_black = [0.0, 0]
    as_white = [0.0, 0]
    black_wins = 0
    for r in results:
        challenger_colour = "black" if r["index"] % 2 == 0 else "white"
        got = 0.5 if r["winner"] == "jigo" else 1.0 if r["winner"] == challenger_colour else 0.0
        points += got
        side = as_black if challenger_colour == "black" else as_white
        side[0] += got
        side[1] += 1
        black_wins += r["winner"] == "black"
    low, high = wilson(points, games)
    return {
        "challenger": challenger, "baseline": baseline, "games": games, "playouts": playouts,
        "challenger_points": points, "share": points / games if games else 0.0, "wilson95": [low, high],
        "challenger_as_black": as_black, "challenger_as_white": as_white, "black_wins": black_wins,
        "mean_moves": sum(r["moves"] for r in results) / max(1, games),
        "resignations": sum(r["resigned"] is not None for r in results),
        "seconds": time.perf_counter() - started,
        "winners": [r["winner"] for r in results],
    }


def solve_problem(task: tuple[str, str, int, int]) -> tuple[str, str, int, int, str]:
    name, variant, playouts, seed = task
    problem = next(p for p in PROBLEMS if p.name == name)
    result = search_position(problem.position(), playouts, seed=seed, variant=variant)
    move = result.best.move if result.best else "pass"
    return name, variant, playouts, int(move in problem.answers), move


def run_problems(variants: list[str], budgets: list[int], seeds: int, workers: int) -> dict:
    tasks = [(p.name, v, b, s) for p in PROBLEMS for v in variants for b in budgets for s in range(seeds)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            rows = list(pool.map(solve_problem, tasks, chunksize=4))
    else:
        rows = [solve_problem(t) for t in tasks]
    solved: dict[str, dict[str, dict[int, int]]] = {}
    for name, variant, playouts, ok, _move in rows:
        solved.setdefault(name, {}).setdefault(variant, {}).setdefault(playouts, 0)
        solved[name][variant][playouts] += ok
    needed: dict[str, dict[str, int | None]] = {}
    for name, by_variant in solved.items():
        for variant, by_budget in by_variant.items():
            first = None
            for budget in sorted(by_budget, reverse=True):
                if by_budget[budget] >= 0.8 * seeds:
                    first = budget
                else:
                    break
            needed.setdefault(name, {})[variant] = first
    return {"seeds": seeds, "budgets": budgets, "solved": solved, "needed": needed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--playouts", type=int, default=400, help="playouts per move in the match")
    parser.add_argument("--workers", type=int, default=2, help="processes (one game at a time each)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--challenger", default="weighted", help="weighted | weighted-literal")
    parser.add_argument("--problem-seeds", type=int, default=10)
    parser.add_argument("--budgets", default="50,100,200,400,800,1600,3200")
    parser.add_argument("--problem-variants", default="plain,weighted,weighted-literal")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    output: dict = {"command": " ".join(["benchmarks/rave_experiment.py", *sys.argv[1:]])}
    if args.games > 0:
        match = run_match(args.games, args.playouts, args.workers, args.seed, args.challenger, "plain")
        output["match"] = match
        low, high = match["wilson95"]
        print(f"match: {match['challenger']} vs plain, {match['games']} games at {match['playouts']} playouts/move "
              f"({match['seconds']:.0f} s)")
        print(f"  {match['challenger']} scored {match['challenger_points']:g}/{match['games']} = {match['share']:.1%}, "
              f"95% Wilson [{low:.1%}, {high:.1%}]")
        print(f"  as Black {match['challenger_as_black'][0]:g}/{match['challenger_as_black'][1]}, "
              f"as White {match['challenger_as_white'][0]:g}/{match['challenger_as_white'][1]}; "
              f"Black won {match['black_wins']}; mean length {match['mean_moves']:.0f} moves; "
              f"{match['resignations']} resignations")
    if args.problem_seeds > 0:
        budgets = [int(b) for b in args.budgets.split(",")]
        variants = args.problem_variants.split(",")
        problems = run_problems(variants, budgets, args.problem_seeds, args.workers)
        output["problems"] = problems
        header = "| problem | variant | " + " | ".join(str(b) for b in budgets) + " | needed |"
        print(header)
        print("|" + "---|" * (len(budgets) + 3))
        for name, by_variant in problems["solved"].items():
            for variant, by_budget in by_variant.items():
                cells = " | ".join(f"{by_budget[b]}/{args.problem_seeds}" for b in budgets)
                needed = problems["needed"][name][variant]
                print(f"| {name} | {variant} | {cells} | {needed if needed is not None else '—'} |")
    if args.json:
        args.json.write_text(json.dumps(output, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
