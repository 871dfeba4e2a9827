"""How well each Go engine setting's move labels agree with KataGo's at a high visit count.

    # once: the reference (slow; KataGo on a CPU does a few visits per second)
    nice -n 10 .venv/bin/python benchmarks/engine_agreement.py reference --visits 9:64,19:32
    # then: every setting against it
    nice -n 10 .venv/bin/python benchmarks/engine_agreement.py compare

The reference is KataGo at `--visits` (per board size) on slices of real games from the shared corpus (REFERENCE_SLICES
below), stored in benchmarks/data/katago_reference.json with the engine identity and the command
that made it. `compare` evaluates the same positions with each setting (the built-in engine at
several playout counts, KataGo at 1, 4 and 16 visits), judges every move whose position before and
after lie in the slice with `reviewer.core.scoring` (docs/SCORING.md, Go), and prints per board size:

- agreement: the share of moves with the same label (best / good / inaccuracy / mistake / blunder);
- recall and precision of "mistake or blunder" (the labels a player acts on) against the reference;
- the mean absolute difference of points lost per move.

`--json` also writes the table (benchmarks/data/engine_agreement.json). The verdicts of
reviewer/core/scoring/trust.py and the table in docs/SCORING.md come from this output.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.gametree import Game  # noqa: E402
from reviewer.core.scoring import assess_game  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "sgf"
if not CORPUS.exists():
    CORPUS = Path("/work/shared/corpus/sgf")
DATA = REPO / "benchmarks" / "data"
REFERENCE = DATA / "katago_reference.json"
RESULTS = DATA / "engine_agreement.json"

# (file in the corpus's sgf/, first ply, last ply): positions first..last are evaluated. The
# corpus has no 13x13 game; 19x19 gets slices of an amateur game and of a professional one.
REFERENCE_SLICES: tuple[tuple[str, int, int], ...] = (
    ("katago__sampletest9x9.sgf", 0, 38),
    ("katrain__xmgt97.sgf", 0, 40),
    ("sabaki__endgame-9.sgf", 0, 40),
    ("sabaki__shodan_game.sgf", 12, 36),
    ("katrain__LS_vs_AG_G4_English.sgf", 40, 64),
)
BUILTIN_PLAYOUTS = (50, 400, 2000, 10000)
KATAGO_VISITS = (1, 4, 16)
SERIOUS = frozenset({"mistake", "blunder"})


@dataclass
class Slice:
    file: str
    game: Game
    plies: list[int]

    @property
    def board(self) -> int:
        return max(self.game.board_width, self.game.board_height)


def load_slices(spec: tuple[tuple[str, int, int], ...] = REFERENCE_SLICES) -> list[Slice]:
    out = []
    for name, first, last in spec:
        game = load_game(CORPUS / name)
        last = min(last, len(game.mainline_nodes()))
        out.append(Slice(name, game, list(range(first, last + 1))))
    return out


def open_katago():
    from reviewer.core.engines.install import installed_katago
    from reviewer.core.engines.katago import KataGoEngine

    installed = installed_katago()
    if installed is None:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    return KataGoEngine(installed.command(), start_timeout_s=180)


def evaluate(engine, piece: Slice, limit: Limit) -> dict[int, Evaluation]:
    return {e.ply: e for e in engine.analyse(piece.game, piece.plies, limit, threading.Event())}


def make_reference(
    visits_by_board: dict[int, int], command: str, spec: tuple[tuple[str, int, int], ...], append: bool, out: Path
) -> None:
    """KataGo's evaluations of every slice, written after each slice (a stopped run keeps them);
    with `append`, slices already stored (of other files) are kept."""
    katago = open_katago()
    stored: list[dict] = []
    if append and out.exists():
        names = {name for name, _, _ in spec}
        stored = [x for x in json.loads(out.read_text())["slices"] if x["file"] not in names]
    started = time.perf_counter()
    try:
        for piece in load_slices(spec):
            visits = visits_by_board.get(piece.board, max(visits_by_board.values()))
            t = time.perf_counter()
            evaluations = evaluate(katago, piece, Limit(visits=visits))
            print(f"{piece.file}: {len(evaluations)} positions at {visits} visits in {time.perf_counter() - t:.0f} s", flush=True)
            stored.append({"file": piece.file, "board": piece.board, "visits": visits, "plies": piece.plies,
                           "command": command, "engine": katago.identity, "date": datetime.date.today().isoformat(),
                           "evaluations": [evaluations[p].to_json() for p in sorted(evaluations)]})
            DATA.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps({
                "engine": katago.identity, "produced_by": command,
                "date": datetime.date.today().isoformat(), "seconds": round(time.perf_counter() - started),
                "slices": stored,
            }, separators=(",", ":")) + "\n")
    finally:
        katago.close()
    print(f"wrote {out}")


def parse_slices(items: list[str]) -> tuple[tuple[str, int, int], ...]:
    """`FILE:FIRST:LAST` items (files in the corpus's sgf/)."""
    out = []
    for item in items:
        name, first, last = item.rsplit(":", 2)
        out.append((name, int(first), int(last)))
    return tuple(out)


def labels_and_losses(game: Game, evaluations: dict[int, Evaluation], plies: list[int]) -> dict[int, tuple[str, float]]:
    """Judgement and points lost of every move whose positions before and after were evaluated."""
    table = EvaluationTable()
    for evaluation in evaluations.values():
        table.add(evaluation)
    assessment = assess_game(game, table)
    inside = set(plies)
    out = {}
    for move in assessment.moves:
        if move.ply in inside and move.ply - 1 in inside and move.judgement is not None and move.loss is not None:
            out[move.ply] = (move.judgement, max(0.0, move.loss))
    return out


def compare_labels(reference: dict[int, tuple[str, float]], other: dict[int, tuple[str, float]]) -> dict:
    common = sorted(set(reference) & set(other))
    same = sum(reference[p][0] == other[p][0] for p in common)
    ref_serious = {p for p in common if reference[p][0] in SERIOUS}
    got_serious = {p for p in common if other[p][0] in SERIOUS}
    hit = len(ref_serious & got_serious)
    return {
        "moves": len(common), "same_label": same,
        "reference_serious": len(ref_serious), "flagged_serious": len(got_serious), "serious_hit": hit,
        "loss_abs_diff_sum": sum(abs(reference[p][1] - other[p][1]) for p in common),
    }


def add(total: dict, part: dict) -> None:
    for key, value in part.items():
        total[key] = total.get(key, 0) + value


def ratios(total: dict) -> dict:
    moves = total.get("moves", 0)
    return {
        "moves": moves,
        "agreement": total["same_label"] / moves if moves else None,
        "recall_serious": total["serious_hit"] / total["reference_serious"] if total.get("reference_serious") else None,
        "precision_serious": total["serious_hit"] / total["flagged_serious"] if total.get("flagged_serious") else None,
        "flagged_serious": total.get("flagged_serious", 0), "reference_serious": total.get("reference_serious", 0),
        "loss_mae": total["loss_abs_diff_sum"] / moves if moves else None,
    }


def compare(builtin_playouts: list[int], katago_visits: list[int], json_out: Path | None, boards: set[int] | None) -> None:
    from reviewer.core.engines.builtin_go import BuiltinGoEngine

    stored = json.loads(REFERENCE.read_text())
    stored["slices"] = [x for x in stored["slices"] if boards is None or x["board"] in boards]
    slices = {s.file: s for s in load_slices(tuple((x["file"], x["plies"][0], x["plies"][-1]) for x in stored["slices"]))}
    references = {}
    for item in stored["slices"]:
        piece = slices[item["file"]]
        evaluations = {e["ply"]: Evaluation.from_json(e) for e in item["evaluations"]}
        references[item["file"]] = labels_and_losses(piece.game, evaluations, piece.plies)
    settings: list[tuple[str, object, Limit]] = [(f"builtin {n} playouts", "builtin", Limit(visits=n)) for n in builtin_playouts]
    settings += [(f"KataGo {v} visits", "katago", Limit(visits=v)) for v in katago_visits]
    katago = open_katago() if katago_visits else None
    builtin = BuiltinGoEngine(seed=0)
    rows: dict[str, dict[int, dict]] = {}
    try:
        for name, which, limit in settings:
            engine = builtin if which == "builtin" else katago
            by_board: dict[int, dict] = {}
            t = time.perf_counter()
            for file, piece in slices.items():
                evaluations = evaluate(engine, piece, limit)
                add(by_board.setdefault(piece.board, {}), compare_labels(references[file], labels_and_losses(piece.game, evaluations, piece.plies)))
            rows[name] = {board: ratios(total) for board, total in by_board.items()}
            print(f"{name}: {time.perf_counter() - t:.0f} s", file=sys.stderr, flush=True)
    finally:
        if katago is not None:
            katago.close()
    described = "; ".join(f"{x['file']} positions {x['plies'][0]}-{x['plies'][-1]} at {x['visits']} visits"
                          for x in stored["slices"])
    print(f"reference: {stored['engine']}: {described}")
    boards = sorted({board for row in rows.values() for board in row})
    for board in boards:
        print(f"\n{board}x{board}")
        print("| setting | moves | label agreement | mistake+blunder recall | precision | flagged/ref | mean |Δ loss| |")
        print("|---|---|---|---|---|---|---|")
        for name, row in rows.items():
            r = row.get(board)
            if r is None:
                continue
            def pct(x: float | None) -> str:
                return "—" if x is None else f"{x:.0%}"

            print(f"| {name} | {r['moves']} | {pct(r['agreement'])} | {pct(r['recall_serious'])} | "
                  f"{pct(r['precision_serious'])} | {r['flagged_serious']}/{r['reference_serious']} | {r['loss_mae']:.1f} |")
    if json_out is not None:
        table = json.loads(json_out.read_text()) if json_out.exists() else {"rows": {}}
        reference = table.setdefault("reference", {"engine": stored["engine"], "slices": []})
        used = [{k: x[k] for k in ("file", "board", "visits")} | {"first": x["plies"][0], "last": x["plies"][-1]}
                for x in stored["slices"]]
        names = {x["file"] for x in used}
        reference["slices"] = [x for x in reference["slices"] if x["file"] not in names] + used
        for name, row in rows.items():
            for board, r in row.items():
                table["rows"].setdefault(name, {})[str(board)] = r
        json_out.write_text(json.dumps(table, indent=1) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ref = sub.add_parser("reference", help="compute and store the KataGo reference")
    ref.add_argument("--visits", default="9:64,19:32", help="visits per board size, e.g. 9:64,19:32")
    ref.add_argument("--slice", action="append", default=[], metavar="FILE:FIRST:LAST",
                     help="positions to evaluate instead of the built-in list (repeatable)")
    ref.add_argument("--append", action="store_true", help="keep the stored slices of other files")
    ref.add_argument("--out", type=Path, default=REFERENCE, help="where to store it")
    cmp_ = sub.add_parser("compare", help="compare settings against the stored reference")
    cmp_.add_argument("--builtin-playouts", default=",".join(map(str, BUILTIN_PLAYOUTS)))
    cmp_.add_argument("--katago-visits", default=",".join(map(str, KATAGO_VISITS)))
    cmp_.add_argument("--json", type=Path, default=None,
                      help=f"write (merge) the table here (e.g. {RESULTS.relative_to(REPO)})")
    cmp_.add_argument("--boards", default="", help="only these board sizes, e.g. 9 or 9,19")
    args = parser.parse_args()
    if args.command == "reference":
        visits_by_board = {int(b): int(v) for b, v in (item.split(":") for item in args.visits.split(","))}
        spec = parse_slices(args.slice) if args.slice else REFERENCE_SLICES
        make_reference(visits_by_board, "benchmarks/engine_agreement.py " + " ".join(sys.argv[1:]), spec, args.append, args.out)
    else:
        playouts = [int(x) for x in args.builtin_playouts.split(",") if x]
        visits = [int(x) for x in args.katago_visits.split(",") if x]
        boards = {int(b) for b in args.boards.split(",") if b} or None
        compare(playouts, visits, args.json, boards)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
