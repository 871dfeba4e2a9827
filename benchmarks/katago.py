"""KataGo: one batched query for a game's positions against one query per position.

On the same game, positions and visits, with the installed KataGo (`reviewer engines install`):
  start     seconds from launching KataGo to its first answer (model load, OpenCL set-up)
  batched   ONE query with `analyzeTurns` = every position (what KataGoEngine sends)
  single    one query per position, each waiting for the previous one to finish
visits/s counts the root visits KataGo reports; each measure keeps the best of --repeat runs
(the machine is shared). KataGo's neural-net cache is cleared before every run.

    .venv/bin/python benchmarks/katago.py [--sgf FILE] [--plies 8] [--visits 16] [--model NAME] [--repeat 1]
                                          [--override numAnalysisThreads=4,nnMaxBatchSize=16]
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.analysis import Limit  # noqa: E402
from reviewer.core.engines.install import installed_katago  # noqa: E402
from reviewer.core.engines.katago import KataGoEngine  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
DEFAULT_SGF = SHARED / "corpus" / "sgf" / "sabaki__endgame-9.sgf"


def clear_cache(engine: KataGoEngine) -> None:
    """Ask KataGo to empty its neural-net cache and wait for the echo."""
    process = engine._process  # the benchmark measures KataGo itself, so it talks to it directly
    assert process is not None
    process.send({"id": "clear", "action": "clear_cache"})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.lines.get(timeout=30)
        if isinstance(line, str) and '"clear_cache"' in line:
            return


def run(engine: KataGoEngine, game, plies: list[int], limit: Limit, batched: bool) -> tuple[float, int]:
    clear_cache(engine)
    stop = threading.Event()
    started = time.monotonic()
    visits = 0
    batches = [plies] if batched else [[ply] for ply in plies]
    for batch in batches:
        for evaluation in engine.analyse(game, batch, limit, stop):
            visits += evaluation.nodes or 0
    return time.monotonic() - started, visits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgf", type=Path, default=DEFAULT_SGF)
    parser.add_argument("--plies", type=int, default=8, help="positions 0..N-1 of the main line")
    parser.add_argument("--visits", type=int, default=16)
    parser.add_argument("--model", default=None, help="an installed model name (default: the installed default)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--override", default="", help="KataGo settings to try, as KEY=VALUE,KEY=VALUE")
    args = parser.parse_args()
    katago = installed_katago()
    if katago is None:
        print("KataGo is not installed: run `reviewer engines install`", file=sys.stderr)
        return 1
    model = args.model or katago.default_model
    if model not in katago.models:
        print(f"unknown model {model!r}; installed: {', '.join(katago.models)}", file=sys.stderr)
        return 2
    game = load_game(args.sgf)
    plies = list(range(min(args.plies, game.ply_count + 1)))
    limit = Limit(visits=args.visits)
    print(f"KataGo {katago.version}, model {model}, {args.sgf.name} "
          f"({game.board_width}x{game.board_height}), {len(plies)} positions x {args.visits} visits, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    started = time.monotonic()
    command = katago.command(model) + (["-override-config", args.override] if args.override else [])
    if args.override:
        print(f"settings  {args.override}")
    engine = KataGoEngine(command, start_timeout_s=300)
    print(f"start     {time.monotonic() - started:6.1f} s")
    try:
        for label, batched in (("batched", True), ("single", False)):
            best_seconds, visits = min(run(engine, game, plies, limit, batched) for _ in range(max(1, args.repeat)))
            print(f"{label:8s}  {best_seconds:6.1f} s  {visits / best_seconds:6.1f} visits/s  "
                  f"{len(plies) / best_seconds:5.2f} positions/s")
    finally:
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
