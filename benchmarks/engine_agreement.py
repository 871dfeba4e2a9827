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

The reference is written every `--chunk` positions; run the same command again with `--append` and
a stopped slice is resumed (the positions stored at the same visits are kept, the others searched).

`review` measures the default Go review as the app runs it: KataGo opened by the registry (its
first visits computed in-process), `reviewer.core.review.analyse_game` with `default_go_passes()`
(2 visits on every position, then 32 visits on both positions of every move that lost 2 points or
more), no cache; `--settings passes` keeps KataGo's process, `passes-search` runs Reviewer's own
search over its network, `default` runs what the machine chooses (REVIEWER_KATAGO_NETWORK unset:
the search without a GPU); and, for comparison, a uniform review at 32 visits (`--settings uniform32`). Only
reference slices searched at `--min-reference-visits` (64) or more are used: a reference at the
review's own 32 visits would compare it with itself. Each slice's labels, wall time (KataGo's start
once per setting included, the network's build not) and the machine's load are stored in
benchmarks/data/go_review_agreement.json as soon as the slice is done (a stopped run keeps them;
slices already stored are skipped unless `--again`); `review --table-only` prints the table again
from the stored labels without an engine:

    nice -n 15 .venv/bin/python benchmarks/engine_agreement.py reference --append --visits 19:64 \
        --slice katrain__fox_sgf_error.sgf:0:186
    nice -n 15 .venv/bin/python benchmarks/engine_agreement.py review [--settings passes,uniform32]
    .venv/bin/python benchmarks/engine_agreement.py review --table-only

per board size: scheme | wall s | positions searched | moves | labels equal | mistake+blunder recall
| precision | the reference's mistakes+blunders among those moves. The row "its fast pass alone" is
the same review's labels after its first pass (wall: until the second pass starts).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
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
REVIEW_RESULTS = DATA / "go_review_agreement.json"

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
    visits_by_board: dict[int, int], command: str, spec: tuple[tuple[str, int, int], ...], append: bool, out: Path,
    chunk: int = 10,
) -> None:
    """KataGo's evaluations of every slice, written after every `chunk` positions (a stopped run keeps
    them); with `append`, slices already stored of other files are kept, and a slice stored for the
    same file at the same visits is resumed: its positions are kept and only the missing ones searched."""
    katago = open_katago()
    stored: list[dict] = json.loads(out.read_text())["slices"] if append and out.exists() else []
    started = time.perf_counter()

    def write() -> None:
        DATA.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({
            "engine": katago.identity, "produced_by": command,
            "date": datetime.date.today().isoformat(), "seconds": round(time.perf_counter() - started),
            "slices": stored,
        }, separators=(",", ":")) + "\n")

    try:
        for piece in load_slices(spec):
            visits = visits_by_board.get(piece.board, max(visits_by_board.values()))
            earlier = next((x for x in stored if x["file"] == piece.file), None)
            kept: dict[int, dict] = {}
            if earlier is not None and earlier["visits"] == visits:
                kept = {e["ply"]: e for e in earlier["evaluations"] if e["ply"] in set(piece.plies)}
            entry = {"file": piece.file, "board": piece.board, "visits": visits, "plies": sorted(kept),
                     "command": command, "engine": katago.identity, "date": datetime.date.today().isoformat(),
                     "evaluations": [kept[p] for p in sorted(kept)]}
            missing = [p for p in piece.plies if p not in kept]
            print(f"{piece.file}: positions {piece.plies[0]}-{piece.plies[-1]} at {visits} visits, "
                  f"{len(kept)} already stored, {len(missing)} to search", flush=True)
            t = time.perf_counter()
            for at in range(0, len(missing), chunk):
                plies = missing[at:at + chunk]
                for evaluation in katago.analyse(piece.game, plies, Limit(visits=visits), threading.Event()):
                    kept[evaluation.ply] = evaluation.to_json()
                entry["plies"] = sorted(kept)
                entry["evaluations"] = [kept[p] for p in sorted(kept)]
                stored = [x for x in stored if x["file"] != piece.file] + [entry]
                write()
                done = at + len(plies)
                rate = done / (time.perf_counter() - t)
                print(f"  {done}/{len(missing)} searched, {rate:.3f} positions/s, "
                      f"about {(len(missing) - done) / rate:.0f} s left in this slice", flush=True)
    finally:
        katago.close()
    print(f"wrote {out}")


def stored_slices(stored: dict) -> list[Slice]:
    """The slices of a stored reference, with the positions it holds."""
    games: dict[str, Game] = {}
    out = []
    for item in stored["slices"]:
        game = games.setdefault(item["file"], load_game(CORPUS / item["file"]))
        out.append(Slice(item["file"], game, list(item["plies"])))
    return out


def reference_labels(piece: Slice, item: dict) -> dict[int, tuple[str, float]]:
    """The reference's label and points lost of every move of a stored slice."""
    evaluations = {e["ply"]: Evaluation.from_json(e) for e in item["evaluations"]}
    return labels_and_losses(piece.game, evaluations, piece.plies)


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
    slices = {piece.file: piece for piece in stored_slices(stored)}
    references = {piece.file: reference_labels(piece, item) for piece, item in zip(slices.values(), stored["slices"], strict=True)}
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


# -- the default review, as the app runs it -------------------------------------------------------------

REVIEW_SETTINGS = ("passes", "uniform32")
# The same passes with KataGo's network searched by Reviewer's own search (REVIEWER_KATAGO_NETWORK=search).
SEARCH_SETTING = "passes-search"
# The same passes with REVIEWER_KATAGO_NETWORK unset: the program the machine gets by default
# (Reviewer's search without a GPU, KataGo's process with one; the engine is stored with the labels).
DEFAULT_SETTING = "default"
STORED_SETTINGS = (*REVIEW_SETTINGS, SEARCH_SETTING, DEFAULT_SETTING)
FAST_OF = {SEARCH_SETTING: "fast-search", DEFAULT_SETTING: "fast-default"}
SETTING_NAMES = {
    "passes": "the passes with KataGo's process (2 → 32 visits)",
    "fast": "its fast pass alone (2 visits)",
    "uniform32": "uniform 32 visits",
    SEARCH_SETTING: "the same passes, Reviewer's search over the network",
    "fast-search": "its fast pass alone (2 visits, the network in-process)",
    DEFAULT_SETTING: "the default passes as this machine runs them",
    "fast-default": "its fast pass alone (2 visits)",
}


def in_passes(setting: str) -> bool:
    return setting in ("passes", SEARCH_SETTING, DEFAULT_SETTING)


def open_as_the_app(board: int, setting: str = "passes"):
    """KataGo as a review of a `board` game opens it (the registry's choice; its first visits computed
    in-process), with the network built ahead, as the window does before a review. For
    SEARCH_SETTING, REVIEWER_KATAGO_NETWORK=search opens Reviewer's search over the same network; for
    DEFAULT_SETTING, nothing is set (the machine's default); for the others, REVIEWER_KATAGO_NETWORK
    names the backend of KataGo's first visits, which keeps KataGo's process where no GPU would
    make the search the default."""
    from reviewer.core.engines.katago_net.runtime import chosen_backend
    from reviewer.core.engines.registry import EnginePlan

    if setting == SEARCH_SETTING:
        os.environ["REVIEWER_KATAGO_NETWORK"] = "search"
    elif setting == DEFAULT_SETTING:
        os.environ.pop("REVIEWER_KATAGO_NETWORK", None)
    else:
        os.environ.pop("REVIEWER_KATAGO_NETWORK", None)
        os.environ["REVIEWER_KATAGO_NETWORK"] = chosen_backend()

    plan = EnginePlan("go", board_size=(board, board))
    if not plan.runs_katago:
        raise SystemExit("KataGo is not installed: run `reviewer engines install`")
    plan.preload_network()
    return plan.open(fallback_to_builtin=False)


def review_slice(engine, piece: Slice, setting: str) -> dict:
    """Review a slice's positions with `setting` through reviewer.core.review.analyse_game (no cache):
    the labels of its moves, and for the review in passes those after its fast pass alone too."""
    from reviewer.core.passes import PassStart, default_go_passes
    from reviewer.core.review import analyse_game

    limit = default_go_passes().limit() if in_passes(setting) else Limit(visits=int(setting.removeprefix("uniform")))
    passes: list[dict] = []
    latest: dict[int, Evaluation] = {}
    fast: dict[int, Evaluation] = {}
    started = time.perf_counter()
    load = os.getloadavg()[0]

    def on_pass(start: PassStart) -> None:
        passes.append({"index": start.index, "positions": start.positions, "budget": start.budget,
                       "started_s": round(time.perf_counter() - started, 2)})

    for evaluation in analyse_game(piece.game, engine, limit, threading.Event(), plies=piece.plies, on_pass=on_pass):
        latest[evaluation.ply] = evaluation
        if (evaluation.review_pass or 1) == 1:
            fast[evaluation.ply] = evaluation
    wall = time.perf_counter() - started
    out = {"file": piece.file, "board": piece.board, "plies": piece.plies, "wall_s": round(wall, 2),
           "load": [round(load, 2), round(os.getloadavg()[0], 2)], "passes": passes,
           "positions_searched": sum(p["positions"] for p in passes) if passes else len(latest),
           "labels": labels_json(labels_and_losses(piece.game, latest, piece.plies))}
    if in_passes(setting):
        out["fast_labels"] = labels_json(labels_and_losses(piece.game, fast, piece.plies))
        out["fast_wall_s"] = passes[1]["started_s"] if len(passes) > 1 else out["wall_s"]
    return out


def labels_json(labels: dict[int, tuple[str, float]]) -> dict[str, list]:
    return {str(ply): [label, round(loss, 3)] for ply, (label, loss) in sorted(labels.items())}


def labels_from_json(stored: dict[str, list]) -> dict[int, tuple[str, float]]:
    return {int(ply): (label, float(loss)) for ply, (label, loss) in stored.items()}


def deep_enough(stored: dict, min_visits: int) -> dict:
    """The reference with only its slices searched at `min_visits` or more (a reference at the
    review's own 32 visits would compare it with itself)."""
    return stored | {"slices": [x for x in stored["slices"] if x["visits"] >= min_visits]}


def run_review(settings: list[str], boards: set[int], out: Path, command: str, again: bool,
               spec: tuple[tuple[str, int, int], ...] | None, reference: Path = REFERENCE, min_visits: int = 64) -> None:
    """Review every reference slice of `boards` searched at `min_visits` or more (or the slices of
    `spec`) with each setting, storing each slice's labels and wall time in `out` as soon as it is
    done; slices already stored with the same positions are kept unless `again`."""
    stored = deep_enough(json.loads(reference.read_text()), min_visits)
    pieces = load_slices(spec) if spec else [p for p in stored_slices(stored) if p.board in boards]
    results = json.loads(out.read_text()) if out.exists() else {"settings": {}}
    for setting in settings:
        for board in sorted({p.board for p in pieces}):
            todo = []
            for piece in (p for p in pieces if p.board == board):
                done = next((x for x in results["settings"].get(setting, {}).get("slices", [])
                             if x["file"] == piece.file and x["plies"] == piece.plies), None)
                if done is None or again:
                    todo.append(piece)
            if not todo:
                continue
            started = time.perf_counter()
            engine = open_as_the_app(board, setting)
            start_s = time.perf_counter() - started
            try:
                for piece in todo:
                    result = review_slice(engine, piece, setting)
                    entry = results["settings"].setdefault(setting, {"slices": []})
                    entry.update({"engine": engine.identity, "command": command,
                                  "date": datetime.date.today().isoformat(), "engine_start_s": round(start_s, 1)})
                    entry["slices"] = [x for x in entry["slices"] if x["file"] != piece.file] + [result]
                    DATA.mkdir(parents=True, exist_ok=True)
                    out.write_text(json.dumps(results, indent=1) + "\n")
                    print(f"{setting}: {piece.file} positions {piece.plies[0]}-{piece.plies[-1]}: "
                          f"{result['positions_searched']} searched in {result['wall_s']:.0f} s "
                          f"(load {result['load'][0]:.1f} → {result['load'][1]:.1f})", flush=True)
            finally:
                engine.close()
    print_review_table(out, reference, min_visits)


def review_rows(references: dict[str, dict[int, tuple[str, float]]], boards_by_file: dict[str, int],
                results: dict) -> dict[int, list[dict]]:
    """Per board size, one row per setting: its wall time, positions searched and its labels against
    the reference's on the moves both hold."""
    rows: dict[int, list[dict]] = {}
    for setting in STORED_SETTINGS:
        entry = results["settings"].get(setting)
        if entry is None:
            continue
        fast = FAST_OF.get(setting, "fast")
        kinds = [(setting, "labels", "wall_s"), (fast, "fast_labels", "fast_wall_s")] if in_passes(setting) else \
            [(setting, "labels", "wall_s")]
        for name, labels_key, wall_key in kinds:
            by_board: dict[int, dict] = {}
            for item in entry["slices"]:
                if item["file"] not in references or labels_key not in item:
                    continue
                total = by_board.setdefault(boards_by_file[item["file"]], {"wall_s": 0.0, "searched": 0, "slices": 0})
                total["wall_s"] += item[wall_key]
                total["searched"] += item["positions_searched"] if name != fast else item["passes"][0]["positions"]
                total["slices"] += 1
                add(total, compare_labels(references[item["file"]], labels_from_json(item[labels_key])))
            for board, total in by_board.items():
                rows.setdefault(board, []).append(
                    {"setting": name, "wall_s": total["wall_s"], "searched": total["searched"],
                     "slices": total["slices"]} | ratios(total) | {"serious_hit": total.get("serious_hit", 0)})
    return rows


def format_review_table(board: int, rows: list[dict]) -> list[str]:
    def pct(x: float | None) -> str:
        return "—" if x is None else f"{x:.0%}"

    lines = [f"{board}x{board}",
             "| scheme | wall s | positions searched | moves | labels equal | M+B recall | precision | reference M+B |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(
            f"| {SETTING_NAMES[r['setting']]} | {r['wall_s']:.0f} | {r['searched']} | {r['moves']} | {pct(r['agreement'])} | "
            f"{pct(r['recall_serious'])} ({r['serious_hit']}/{r['reference_serious']}) | "
            f"{pct(r['precision_serious'])} ({r['serious_hit']}/{r['flagged_serious']}) | {r['reference_serious']} |")
    return lines


def print_review_table(results_path: Path, reference: Path = REFERENCE, min_visits: int = 64) -> None:
    everything = json.loads(reference.read_text())
    stored = deep_enough(everything, min_visits)
    results = json.loads(results_path.read_text())
    files = {x["file"] for entry in results["settings"].values() for x in entry["slices"]}
    items = [x for x in stored["slices"] if x["file"] in files]
    left_out = [x for x in everything["slices"] if x not in stored["slices"]]
    if left_out:
        print("left out (reference below " + str(min_visits) + " visits): " + "; ".join(
            f"{x['file']} ({x['board']}x{x['board']}, {x['visits']} visits)" for x in left_out))
    pieces = stored_slices({"slices": items})
    references = {piece.file: reference_labels(piece, item) for piece, item in zip(pieces, items, strict=True)}
    boards_by_file = {piece.file: piece.board for piece in pieces}
    described = "; ".join(f"{x['file']} positions {x['plies'][0]}-{x['plies'][-1]} at {x['visits']} visits" for x in items)
    print(f"reference: {stored['engine']}: {described}")
    for setting, entry in results["settings"].items():
        loads = [load for x in entry["slices"] for load in x["load"]]
        print(f"{setting}: {entry['engine']}, {entry['date']}, `{entry['command']}`, engine start {entry['engine_start_s']} s "
              f"(not in wall), load {min(loads):.1f}–{max(loads):.1f}")
    for board, rows in sorted(review_rows(references, boards_by_file, results).items()):
        print()
        print("\n".join(format_review_table(board, rows)))


def summarise_reference(reference: Path = REFERENCE) -> int:
    """Print each stored slice's moves and its own mistakes+blunders; return the 19x19 ones at 64
    visits or more."""
    stored = json.loads(reference.read_text())
    deep = 0
    print(f"{reference.name}: {stored['engine']}")
    for piece, item in zip(stored_slices(stored), stored["slices"], strict=True):
        labels = reference_labels(piece, item)
        serious = sum(label in SERIOUS for label, _ in labels.values())
        if piece.board == 19 and item["visits"] >= 64:
            deep += serious
        print(f"  {piece.file}: {piece.board}x{piece.board}, positions {piece.plies[0]}-{piece.plies[-1]} "
              f"({len(piece.plies)}), {item['visits']} visits, {item['date']}: {len(labels)} moves, "
              f"{serious} mistakes+blunders")
    print(f"19x19 at 64 visits or more: {deep} mistakes+blunders")
    return deep


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ref = sub.add_parser("reference", help="compute and store the KataGo reference")
    ref.add_argument("--visits", default="9:64,19:32", help="visits per board size, e.g. 9:64,19:32")
    ref.add_argument("--slice", action="append", default=[], metavar="FILE:FIRST:LAST",
                     help="positions to evaluate instead of the built-in list (repeatable)")
    ref.add_argument("--append", action="store_true", help="keep the stored slices of other files")
    ref.add_argument("--out", type=Path, default=REFERENCE, help="where to store it")
    ref.add_argument("--chunk", type=int, default=10, help="positions searched between two writes")
    cmp_ = sub.add_parser("compare", help="compare settings against the stored reference")
    cmp_.add_argument("--builtin-playouts", default=",".join(map(str, BUILTIN_PLAYOUTS)))
    cmp_.add_argument("--katago-visits", default=",".join(map(str, KATAGO_VISITS)))
    cmp_.add_argument("--json", type=Path, default=None,
                      help=f"write (merge) the table here (e.g. {RESULTS.relative_to(REPO)})")
    cmp_.add_argument("--boards", default="", help="only these board sizes, e.g. 9 or 9,19")
    rev = sub.add_parser("review", help="the default Go review (in passes, as the app runs it) against the reference")
    rev.add_argument("--settings", default=",".join(REVIEW_SETTINGS), help=f"passes, uniform32 (uniformN: N visits), {SEARCH_SETTING} (the passes, Reviewer's search), {DEFAULT_SETTING} (the passes, the machine's default program)")
    rev.add_argument("--boards", default="19", help="board sizes of the reference to review, e.g. 19 or 9,19")
    rev.add_argument("--slice", action="append", default=[], metavar="FILE:FIRST:LAST",
                     help="review these positions instead of the reference's slices (repeatable)")
    rev.add_argument("--again", action="store_true", help="review again slices already stored")
    rev.add_argument("--table-only", action="store_true", help="print the stored table; run no engine")
    rev.add_argument("--out", type=Path, default=REVIEW_RESULTS, help="where the results are stored")
    rev.add_argument("--reference", type=Path, default=REFERENCE, help="the stored reference to compare with")
    rev.add_argument("--min-reference-visits", type=int, default=64,
                     help="compare only with reference slices searched at this many visits or more")
    summary = sub.add_parser("summary", help="each stored reference slice's moves and mistakes+blunders")
    summary.add_argument("--reference", type=Path, default=REFERENCE)
    args = parser.parse_args()
    if args.command == "summary":
        summarise_reference(args.reference)
    elif args.command == "review":
        if args.table_only:
            print_review_table(args.out, args.reference, args.min_reference_visits)
        else:
            run_review([x for x in args.settings.split(",") if x], {int(b) for b in args.boards.split(",") if b}, args.out,
                       "benchmarks/engine_agreement.py " + " ".join(sys.argv[1:]), args.again,
                       parse_slices(args.slice) if args.slice else None, args.reference, args.min_reference_visits)
    elif args.command == "reference":
        visits_by_board = {int(b): int(v) for b, v in (item.split(":") for item in args.visits.split(","))}
        spec = parse_slices(args.slice) if args.slice else REFERENCE_SLICES
        make_reference(visits_by_board, "benchmarks/engine_agreement.py " + " ".join(sys.argv[1:]), spec, args.append, args.out,
                       args.chunk)
    else:
        playouts = [int(x) for x in args.builtin_playouts.split(",") if x]
        visits = [int(x) for x in args.katago_visits.split(",") if x]
        boards = {int(b) for b in args.boards.split(",") if b} or None
        compare(playouts, visits, args.json, boards)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
