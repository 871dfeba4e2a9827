"""KataGo's first visits on a CPU: KataGo's OpenCL build against Reviewer's in-process paths, in one run.

KataGo's Linux build here runs its network through OpenCL on PoCL. Reviewer computes searches of
1 and 2 visits itself (reviewer/core/engines/katago_net: KataGo's model file, input features and
post-processing), the network in ONNX Runtime or numpy. On the positions of a real 19x19 game, in
the same run, each through KataGoEngine.analyse:

  katago       the installed KataGo (symmetry 0: nnRandomize=false), REVIEWER_KATAGO_NETWORK=process
  onnxruntime  REVIEWER_KATAGO_NETWORK=onnxruntime (Reviewer's default when it is installed)
  numpy        REVIEWER_KATAGO_NETWORK=numpy
  agree        the largest and the median differences from KataGo, per position (winrate in
               percentage points, lead in points)

    nice -n 10 .venv/bin/python benchmarks/network_cpu_paths.py [--sgf FILE] [--positions 60] [--visits 1,2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.analysis import Evaluation, Limit  # noqa: E402
from reviewer.core.engines.install import installed_katago  # noqa: E402
from reviewer.core.engines.katago import KataGoEngine  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.gametree import Game  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
DEFAULT_SGF = SHARED / "corpus" / "sgf" / "katrain__LS_vs_AG_G4_English.sgf"
PATHS = {"katago": "process", "onnxruntime": "onnxruntime", "numpy": "numpy"}


def _engine(command: list[str], path: str) -> KataGoEngine:
    previous = os.environ.get("REVIEWER_KATAGO_NETWORK")
    os.environ["REVIEWER_KATAGO_NETWORK"] = PATHS[path]
    try:
        return KataGoEngine([*command, "-override-config", "nnRandomize=false"], start_timeout_s=300)
    finally:
        if previous is None:
            del os.environ["REVIEWER_KATAGO_NETWORK"]
        else:
            os.environ["REVIEWER_KATAGO_NETWORK"] = previous


def timed(engine: KataGoEngine, game: Game, plies: list[int], visits: int) -> tuple[float, dict[int, Evaluation]]:
    list(engine.analyse(game, plies[:2], Limit(visits=visits), threading.Event()))  # started and warm
    started = time.perf_counter()
    found = {e.ply: e for e in engine.analyse(game, plies, Limit(visits=visits), threading.Event())}
    return len(found) / (time.perf_counter() - started), found


def compare(sgf: Path, positions: int, visits: tuple[int, ...]) -> None:
    katago = installed_katago()
    if katago is None:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    game = load_game(sgf)
    plies = list(range(min(positions, game.ply_count + 1)))
    print(f"{sgf.name}: {len(plies)} positions of {game.board_width}x{game.board_height}")
    for count in visits:
        rates: dict[str, float] = {}
        results: dict[str, dict[int, Evaluation]] = {}
        for path in PATHS:
            engine = _engine(list(katago.command()), path)
            try:
                rates[path], results[path] = timed(engine, game, plies, count)
            finally:
                engine.close()
        line = [f"{count} visit(s): katago {rates['katago']:6.2f} positions/s"]
        for path in ("onnxruntime", "numpy"):
            winrate = [abs(results[path][p].winrate_first - results["katago"][p].winrate_first) * 100 for p in plies]  # type: ignore[operator]
            lead = [abs(results[path][p].score_lead_first - results["katago"][p].score_lead_first) for p in plies]  # type: ignore[operator]
            line.append(
                f"  {path} {rates[path]:6.2f} positions/s = {rates[path] / rates['katago']:4.1f}x katago;"
                f" agree: winrate max {max(winrate):.3f} median {statistics.median(winrate):.4f} points of %,"
                f" lead max {max(lead):.3f} median {statistics.median(lead):.4f}"
            )
        print("\n".join(line), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sgf", type=Path, default=DEFAULT_SGF, help="a 19x19 game")
    parser.add_argument("--positions", type=int, default=60, help="positions of the game evaluated by each path")
    parser.add_argument("--visits", default="1,2", help="visit counts compared (1 and/or 2)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    compare(args.sgf, args.positions, tuple(int(v) for v in args.visits.split(",")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
