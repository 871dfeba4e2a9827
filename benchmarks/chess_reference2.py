"""The two-run consensus reference for benchmarks/chess_review.py: every position of the reference
games searched twice at 5M nodes, each run with its own fresh hash.

Run 1 is benchmarks/data/chess_reference.json (benchmarks/chess_reference.py: Threads=1, Hash=256 MB,
each game backwards from its last position after one `ucinewgame`). Run 2 takes the second 5M-node
search that benchmarks/chess_depth_curve.py `--again` stored (key `again` of chess_depth_curve.json:
two single-thread engines, Hash=64 MB, each a fixed run of the searched positions backwards after one
`ucinewgame`) and searches the positions it lacks here: Threads=1, Hash=256 MB, each game's missing
positions backwards from the last after one `ucinewgame` (a hash that never saw run 1). Results are
appended to a JSON-lines file as each search ends, so an interrupted run resumes where it stopped.
`--finish` writes benchmarks/data/chess_reference2.json: both runs' figures for every position.

A move is a mistake or blunder in the consensus when both runs say so (benchmarks/chess_review.py);
a label counts as equal when it matches either run.

    nice -n 15 .venv/bin/python benchmarks/chess_reference2.py [--workers 2]
    .venv/bin/python benchmarks/chess_reference2.py --finish
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

import chess  # noqa: E402
import chess.engine  # noqa: E402
from chess_reference import CORPUS_PGN, DATA_DIR, GAMES, HASH_MB, JSON_PATH, STOCKFISH, evaluation_record, game_key  # noqa: E402

from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.games.chess import boards_at_plies  # noqa: E402

NODES = 5_000_000
LINES2_PATH = DATA_DIR / "chess_reference2.jsonl"
JSON2_PATH = DATA_DIR / "chess_reference2.json"
DEPTH_CURVE_PATH = DATA_DIR / "chess_depth_curve.json"
KEPT = ("score_cp_first", "mate_first", "wdl_first", "best_move", "depth", "nodes")


def run1() -> dict[str, dict[int, dict[str, Any]]]:
    document = json.loads(JSON_PATH.read_text())
    return {game["game"]: {record["ply"]: record for record in game["positions"]} for game in document["games"]}


def stored_again() -> dict[str, dict[int, dict[str, Any]]]:
    again = json.loads(DEPTH_CURVE_PATH.read_text())["again"]["evaluations"]
    return {key: {int(ply): record for ply, record in by_ply.items()} for key, by_ply in again.items()}


def computed_here() -> dict[str, dict[int, dict[str, Any]]]:
    found: dict[str, dict[int, dict[str, Any]]] = {}
    if LINES2_PATH.exists():
        for line in LINES2_PATH.read_text().splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by an interruption
            found.setdefault(record["game"], {})[record["ply"]] = record
    return found


def missing_plies(key: str) -> list[int]:
    have = set(stored_again().get(key, {})) | set(computed_here().get(key, {}))
    return sorted(ply for ply in run1().get(key, {}) if ply not in have)


def analyse_game(file_name: str, index: int) -> None:
    key = game_key(file_name, index)
    plies = missing_plies(key)
    if not plies:
        return
    game = load_game(CORPUS_PGN / file_name, index)
    boards = boards_at_plies(game, plies)
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        engine.configure({"Threads": 1, "Hash": HASH_MB, "UCI_ShowWDL": True})
        token = object()  # one ucinewgame for this game's run
        for ply in sorted(plies, reverse=True):
            board = boards[ply]
            started = time.monotonic()
            if board.outcome(claim_draw=False) is not None:
                record: dict[str, Any] = {"terminal": True}
            else:
                info = engine.analyse(board, chess.engine.Limit(nodes=NODES), game=token)
                record = evaluation_record(board, info)
            record.update(game=key, ply=ply, fen=board.fen(), seconds=round(time.monotonic() - started, 2))
            with LINES2_PATH.open("a") as out:
                out.write(json.dumps(record) + "\n")
            print(f"{key} ply {ply}: {record.get('score_cp_first')} {record.get('mate_first')} {record.get('best_move')} "
                  f"d{record.get('depth')} {record['seconds']}s", flush=True)
    finally:
        engine.quit()


def finish() -> None:
    first = json.loads(JSON_PATH.read_text())
    again, here = stored_again(), computed_here()
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        engine_name = engine.id.get("name", "?")
    finally:
        engine.quit()
    games = []
    for game_entry in first["games"]:
        key = game_entry["game"]
        positions = []
        for record in game_entry["positions"]:
            ply = record["ply"]
            second: dict[str, Any] | None
            if record.get("terminal"):
                second, source = {"terminal": True}, "terminal"
            elif ply in again.get(key, {}):
                stored = again[key][ply]
                second = {name: stored.get(name) for name in KEPT}
                if stored.get("terminal"):
                    second["terminal"] = True
                source = "chess_depth_curve.json again"
            elif ply in here.get(key, {}):
                second = {name: here[key][ply].get(name) for name in KEPT}
                if here[key][ply].get("terminal"):
                    second["terminal"] = True
                source = "chess_reference2.py"
            else:
                second, source = None, "missing"
            first_kept = {name: record.get(name) for name in KEPT}
            if record.get("terminal"):
                first_kept["terminal"] = True
            positions.append({"ply": ply, "fen": record.get("fen"), "run1": first_kept, "run2": second, "run2_from": source})
        games.append({**{k: v for k, v in game_entry.items() if k != "positions"},
                      "complete": all(p["run2"] is not None for p in positions) and game_entry["complete"],
                      "positions": positions})
    document = {
        "produced_by": "benchmarks/chess_reference2.py",
        "engine": engine_name,
        "nodes_per_position": NODES,
        "runs": {
            "run1": {"source": "benchmarks/data/chess_reference.json", "finished": first["finished"], **first["settings"]},
            "run2": {
                "sources": {
                    "chess_depth_curve.json again": "benchmarks/chess_depth_curve.py --again: Threads=1, Hash_MB=64, "
                    "two engines, each a fixed run of the searched positions backwards after one ucinewgame",
                    "chess_reference2.py": f"Threads=1, Hash_MB={HASH_MB}, each game's remaining positions backwards "
                    "after one ucinewgame (a hash of its own)",
                },
            },
        },
        "consensus": "a move is a mistake or blunder when both runs say so; a label is equal when it matches either run",
        "finished": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "games": games,
    }
    JSON2_PATH.write_text(json.dumps(document, indent=1) + "\n")
    counts: dict[str, int] = {}
    for game in games:
        for position in game["positions"]:
            counts[position["run2_from"]] = counts.get(position["run2_from"], 0) + 1
    print(f"wrote {JSON2_PATH}: {sum(len(g['positions']) for g in games)} positions; run 2 from {counts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="games analysed at once (one engine thread each)")
    parser.add_argument("--finish", action="store_true", help="gather both runs into the JSON file")
    args = parser.parse_args()
    if args.finish:
        finish()
        return
    # The games with the most work first, so the two workers end about together.
    order = sorted(GAMES, key=lambda g: -len(missing_plies(game_key(*g))))
    with multiprocessing.Pool(args.workers) as pool:
        pool.starmap(analyse_game, order, chunksize=1)


if __name__ == "__main__":
    main()
