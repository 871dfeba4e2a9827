"""KataGo on a CPU: which settings make the fast pass fast, and how long a review in two passes takes.

With the installed KataGo (`reviewer engines install`) on a real 19x19 game of the shared corpus:

  settings  the first --plies positions at the fast pass's visits, once per KataGo setting given
            (`-override-config` values: analysis threads, NN batch size, cache, wideRootNoise...);
            each line is a fresh KataGo process (start time apart) with an empty NN cache
  passes    the whole game through reviewer.core.review.analyse_game with the Go review in passes
            (no analysis cache): seconds from the start (KataGo's start included) until every
            position has its fast-pass score, then until every move that lost >= 2 points is
            refined; how many positions each pass searched. Once per --paths: "in-process" (1 and 2
            visits computed by Reviewer from KataGo's network, as reviews do) and "process" (KataGo
            searches every position itself: REVIEWER_KATAGO_NETWORK=process)

The settings lines always time KataGo's own process.

    nice -n 10 .venv/bin/python benchmarks/katago_passes.py [--sgf FILE] [--plies 24] [--fast 2] [--deep 32] [--moves N]
        [--settings "|numAnalysisThreads=8,nnMaxBatchSize=8"] [--passes-settings KEY=VALUE,...] [--skip-passes]
        [--paths in-process,process]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.analysis import EvaluationTable, Limit  # noqa: E402
from reviewer.core.engines.install import installed_katago  # noqa: E402
from reviewer.core.engines.katago import KataGoEngine  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.passes import GoPasses, PassStart  # noqa: E402
from reviewer.core.review import analyse_game  # noqa: E402
from reviewer.core.scoring.go import assess_go  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
DEFAULT_SGF = SHARED / "corpus" / "sgf" / "katrain__LS_vs_AG_G4_English.sgf"
DEFAULT_SETTINGS = (
    "",
    "numAnalysisThreads=8,nnMaxBatchSize=8",
    "numAnalysisThreads=16,nnMaxBatchSize=16",
)


def katago_command(model: str | None, override: str) -> list[str]:
    katago = installed_katago()
    if katago is None:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    command = katago.command(model or katago.default_model)
    return command + (["-override-config", override] if override else [])


@contextlib.contextmanager
def katago_path(path: str):  # type: ignore[no-untyped-def]
    """Engines made inside answer 1 and 2 visits in-process ("in-process") or by KataGo ("process")."""
    previous = os.environ.get("REVIEWER_KATAGO_NETWORK")
    os.environ["REVIEWER_KATAGO_NETWORK"] = "process" if path == "process" else ""
    try:
        yield
    finally:
        if previous is None:
            del os.environ["REVIEWER_KATAGO_NETWORK"]
        else:
            os.environ["REVIEWER_KATAGO_NETWORK"] = previous


def time_settings(args: argparse.Namespace, game: object, override: str) -> None:
    started = time.monotonic()
    with katago_path("process"):
        engine = KataGoEngine(katago_command(args.model, override), start_timeout_s=300)
    start_s = time.monotonic() - started
    plies = list(range(min(args.plies, game.ply_count + 1)))  # type: ignore[attr-defined]
    try:
        started = time.monotonic()
        count = sum(1 for _ in engine.analyse(game, plies, Limit(visits=args.fast), threading.Event()))  # type: ignore[arg-type]
        seconds = time.monotonic() - started
    finally:
        engine.close()
    print(f"  {override or '(installed config)':<48} start {start_s:5.1f} s  {count} positions in {seconds:6.1f} s"
          f"  {count / seconds:5.2f} positions/s", flush=True)


def time_passes(args: argparse.Namespace, game: object, path: str) -> None:
    scheme = GoPasses(visits=(args.fast, args.deep), refine_loss=args.refine)
    override = args.passes_settings
    started = time.monotonic()
    with katago_path(path):
        engine = KataGoEngine(katago_command(args.model, override), start_timeout_s=300)
    marks: list[tuple[PassStart, float]] = []
    table = EvaluationTable()
    last = game.ply_count  # type: ignore[attr-defined]
    plies = list(range(max(0, last - args.moves), last + 1)) if args.moves else None
    try:
        for evaluation in analyse_game(
            game, engine, scheme.limit(), threading.Event(), plies=plies,  # type: ignore[arg-type]
            on_pass=lambda start: marks.append((start, time.monotonic() - started)),
        ):
            table.add(evaluation)
    finally:
        engine.close()
    total = time.monotonic() - started
    reviewed = f"the last {args.moves} moves" if args.moves else "the whole game"
    print(f"passes {scheme.scheme_id} over {reviewed}, first visits {path}, settings: {override or '(installed config)'}")
    ends = [at for _, at in marks[1:]] + [total]
    for (start, at), end in zip(marks, ends, strict=True):
        print(f"  pass {start.index} ({start.budget}): {start.positions} positions, "
              f"done {end:6.1f} s after the start ({end - at:6.1f} s in this pass)")
    assessment = assess_go(game, table)  # type: ignore[arg-type]
    refined = sum(1 for move in assessment.moves if move.loss is not None and move.loss >= args.refine)
    print(f"  moves that lost >= {args.refine:g} points after both passes: {refined} of {len(assessment.moves)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sgf", type=Path, default=DEFAULT_SGF)
    parser.add_argument("--model", default=None)
    parser.add_argument("--plies", type=int, default=24, help="positions timed per setting")
    parser.add_argument("--fast", type=int, default=2, help="visits of the fast pass")
    parser.add_argument("--deep", type=int, default=32, help="visits of the refining pass")
    parser.add_argument("--refine", type=float, default=2.0, help="points lost that are refined")
    parser.add_argument("--settings", default="|".join(DEFAULT_SETTINGS),
                        help="KataGo settings to compare, separated by |, each KEY=VALUE,KEY=VALUE")
    parser.add_argument("--passes-settings", default="numAnalysisThreads=8,nnMaxBatchSize=8")
    parser.add_argument("--moves", type=int, default=0,
                        help="review in passes only the last N moves (0: the whole game)")
    parser.add_argument("--skip-settings", action="store_true")
    parser.add_argument("--skip-passes", action="store_true")
    parser.add_argument("--paths", default="in-process,process", help="who answers 1 and 2 visits, per passes run")
    args = parser.parse_args()
    game = load_game(args.sgf)
    print(f"{args.sgf.name}: {game.board_width}x{game.board_height}, {game.ply_count} moves; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    if not args.skip_settings:
        print(f"fast pass settings ({args.fast} visits):")
        for override in args.settings.split("|"):
            time_settings(args, game, override.strip())
    if not args.skip_passes:
        for path in args.paths.split(","):
            time_passes(args, game, path.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
