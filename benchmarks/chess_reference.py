"""The deep reference for benchmarks/chess_review.py: every position of a few real games, searched once.

Stockfish with Threads=1 (deterministic), Hash=256 MB, a fixed node count per position (5M by
default), each game analysed backwards from its last position after one `ucinewgame`, so the hash
carries what the engine learnt about the ending into the earlier positions. Results are appended to
a JSON-lines file as each search ends, so an interrupted run resumes where it stopped (a resumed
game starts with a fresh hash at the position it reached). `--finish` gathers the lines into the
JSON file the benchmark reads.

    nice -n 10 .venv/bin/python benchmarks/chess_reference.py [--nodes 5000000] [--workers 2]
    .venv/bin/python benchmarks/chess_reference.py --finish
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import chess  # noqa: E402
import chess.engine  # noqa: E402

from reviewer.core.formats import load_game  # noqa: E402
from reviewer.core.games.chess import boards_at_plies  # noqa: E402

CORPUS_PGN = Path(os.environ.get("REVIEWER_CORPUS", "/work/shared/corpus")) / "pgn"
DATA_DIR = REPO_ROOT / "benchmarks" / "data"
LINES_PATH = DATA_DIR / "chess_reference.jsonl"
JSON_PATH = DATA_DIR / "chess_reference.json"
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games") or "/usr/games/stockfish"
HASH_MB = 256

# (corpus file, 0-based game index): ordinary games with mistakes, in the order they are computed.
GAMES: tuple[tuple[str, int], ...] = (
    ("scalachess__FWWRC_full_eval_clk.pgn", 20),  # Heinemann-Narva, rapid, 79 plies
    ("mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn", 1),  # lichess blitz ~1800, 77 plies
    ("mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn", 4),  # lichess blitz ~1800, 73 plies
    ("mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn", 2),  # lichess blitz ~1800, 109 plies
    ("mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn", 0),  # lichess blitz ~1800, 58 plies
)


def game_key(file_name: str, index: int) -> str:
    return f"{file_name}#{index}"


def evaluation_record(board: chess.Board, info: chess.engine.InfoDict) -> dict[str, Any]:
    score = info["score"].white()
    pv = info.get("pv") or []
    wdl = info.get("wdl")
    return {
        "score_cp_first": score.score(),
        "mate_first": score.mate(),
        "wdl_first": list(wdl.white()) if wdl is not None else None,
        "best_move_uci": pv[0].uci() if pv else None,
        "best_move": board.san(pv[0]) if pv else None,
        "depth": info.get("depth"),
        "seldepth": info.get("seldepth"),
        "nodes": info.get("nodes"),
    }


def done_positions() -> set[tuple[str, int]]:
    done: set[tuple[str, int]] = set()
    if LINES_PATH.exists():
        for line in LINES_PATH.read_text().splitlines():
            if line.strip():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by an interruption
                done.add((record["game"], record["ply"]))
    return done


def analyse_game(file_name: str, index: int, nodes: int) -> None:
    key = game_key(file_name, index)
    game = load_game(CORPUS_PGN / file_name, index)
    boards = boards_at_plies(game, range(game.ply_count + 1))
    done = done_positions()
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        engine.configure({"Threads": 1, "Hash": HASH_MB, "UCI_ShowWDL": True})
        token = object()
        for ply in sorted(boards, reverse=True):
            if (key, ply) in done:
                continue
            board = boards[ply]
            started = time.monotonic()
            if board.outcome(claim_draw=False) is not None:
                record: dict[str, Any] = {"terminal": True}
            else:
                info = engine.analyse(board, chess.engine.Limit(nodes=nodes), game=token)
                record = evaluation_record(board, info)
            record.update(game=key, ply=ply, fen=board.fen(), seconds=round(time.monotonic() - started, 2))
            with LINES_PATH.open("a") as out:
                out.write(json.dumps(record) + "\n")
            print(f"{key} ply {ply}: {record.get('score_cp_first')} {record.get('best_move')} "
                  f"d{record.get('depth')} {record['seconds']}s", flush=True)
    finally:
        engine.quit()


def finish(nodes: int) -> None:
    records = [json.loads(line) for line in LINES_PATH.read_text().splitlines() if line.strip()]
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        engine_name = engine.id.get("name", "?")
    finally:
        engine.quit()
    by_game: dict[str, dict[int, dict[str, Any]]] = {}
    for record in records:
        by_game.setdefault(record["game"], {})[record["ply"]] = record
    games = []
    for file_name, index in GAMES:
        key = game_key(file_name, index)
        positions = by_game.get(key, {})
        game = load_game(CORPUS_PGN / file_name, index)
        complete = len(positions) == game.ply_count + 1
        games.append({
            "game": key, "file": file_name, "index": index, "white": game.headers.get("White"),
            "black": game.headers.get("Black"), "plies": game.ply_count, "complete": complete,
            "positions": [positions[ply] for ply in sorted(positions)],
        })
    document = {
        "produced_by": "benchmarks/chess_reference.py",
        "engine": engine_name,
        "settings": {"nodes_per_position": nodes, "Threads": 1, "Hash_MB": HASH_MB,
                     "order": "each game backwards from its last position, one ucinewgame per game"},
        "finished": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "games": games,
    }
    JSON_PATH.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {JSON_PATH}: {sum(len(g['positions']) for g in games)} positions, "
          f"{sum(g['complete'] for g in games)} complete games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=5_000_000)
    parser.add_argument("--workers", type=int, default=2, help="games analysed at once (one engine thread each)")
    parser.add_argument("--finish", action="store_true", help="gather the computed positions into the JSON file")
    args = parser.parse_args()
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    if args.finish:
        finish(args.nodes)
        return
    with multiprocessing.Pool(args.workers) as pool:
        pool.starmap(analyse_game, [(file_name, index, args.nodes) for file_name, index in GAMES], chunksize=1)


if __name__ == "__main__":
    main()
