"""The game database at scale for Go: Reviewer's import and explorer on real Tygem games.

The games are the first N of ../shared/bigsets/go-tygem.sgf.xz (Tygem 9d against 9d, 19×19, one
SGF game per line), decompressed into a temporary SGF collection. For each size:
- import: `reviewer db import` in a process of its own (games/s over the games in the file, peak
  RSS from wait4, bytes on disk per game stored);
- explorer latency over fixed positions: the empty board, the line of the most played move four
  times over (a common corner opening: each move the most played one from the board before it), and
  a rare line (the first 30 moves of the set's middle game), with and without a player filter (the
  set's most frequent player, either colour). Warm: the same query again in one process
  (`--repeats` times); cold: the first query of a fresh process that has just opened the database;
- the counts against a plain sgfmill loop (replay every game, compare its boards with the targets
  under the 8 symmetries), over the same games (with `--replay`).
No desktop tool a Go player would use instead keeps such an index to compare with (Kombilo, the
reference, is not packaged for this system).
Run: .venv/bin/python benchmarks/database_go.py --games 10000 [--games 0] [--repeats 20] [--cold-runs 3] [--replay]
"""

from __future__ import annotations

import json
import lzma
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from database import BIGSETS, REPO, latencies, measuring_parser, reviewer_queries, run_measured

GO_SET = BIGSETS / "go-tygem.sgf.xz"
RARE_PLIES = 30

def first_games(count: int, target: Path) -> int:
    """The first `count` games of the set (all when 0) into `target`: the number written."""
    written = 0
    with lzma.open(GO_SET, "rb") as packed, open(target, "wb") as out:
        for line in packed:
            if not line.strip():
                continue
            if count and written == count:
                break
            out.write(line if line.endswith(b"\n") else line + b"\n")
            written += 1
    return written


def queries(database: Path, lines: list[list[str]], player: str, repeats: int) -> list[dict[str, object]]:
    return reviewer_queries(database, lines, player, repeats, game="go")


def most_played_line(database: Path, moves: int) -> list[str]:
    line: list[str] = []
    for _ in range(moves):
        answer = queries(database, [line], "", 1)[0]
        played = {move: counts[0] for move, counts in answer["moves"].items() if move != "pass"}  # type: ignore[attr-defined]
        line.append(max(played, key=played.__getitem__))
    return line


def replay_counts(collection: Path, lines: list[list[str]]) -> tuple[float, list[int]]:
    """A plain sgfmill loop: each game's boards compared with the targets' under the 8 symmetries
    (the side to move too); each game counted once per target, a game stored twice once."""
    from sgfmill import boards, common, sgf

    def transforms(stones: frozenset[tuple[int, int, str]]) -> set[frozenset[tuple[int, int, str]]]:
        n = 18
        maps = [lambda r, c: (r, c), lambda r, c: (n - r, n - c), lambda r, c: (r, n - c), lambda r, c: (n - r, c),
                lambda r, c: (c, n - r), lambda r, c: (n - c, r), lambda r, c: (c, r), lambda r, c: (n - c, n - r)]
        return {frozenset((*f(r, c), colour) for r, c, colour in stones) for f in maps}

    def board_stones(board: boards.Board) -> frozenset[tuple[int, int, str]]:
        return frozenset((row, col, colour) for colour, (row, col) in board.list_occupied_points())

    targets: dict[tuple[frozenset[tuple[int, int, str]], str], int] = {}
    for number, line in enumerate(lines):
        board, to_move = boards.Board(19), "b"
        for text in line:
            row, col = common.move_from_vertex(text, 19)  # type: ignore[misc]
            board.play(row, col, to_move)
            to_move = "w" if to_move == "b" else "b"
        for shape in transforms(board_stones(board)):
            targets[(shape, to_move)] = number
    counts = [0] * len(lines)
    seen: set[bytes] = set()
    started = time.perf_counter()
    with open(collection, "rb") as handle:
        for text in handle:
            if text in seen:
                continue
            seen.add(text)
            try:
                game = sgf.Sgf_game.from_bytes(text)
            except ValueError:
                continue
            board, hit = boards.Board(19), set()
            to_move = "b"
            for node in [*game.get_main_sequence()[1:], None]:
                number = targets.get((board_stones(board), to_move))
                if number is not None and number not in hit:
                    hit.add(number)
                    counts[number] += 1
                if node is None:
                    break
                colour, point = node.get_move()
                if colour is None:
                    continue
                if point is not None:
                    board.play(point[0], point[1], colour)
                to_move = "w" if colour == "b" else "b"
    return time.perf_counter() - started, counts


def measure(size: int, work: Path, repeats: int, cold_runs: int, replay: bool) -> dict[str, object]:
    sgf = work / f"go-{size}.sgf"
    database = work / f"reviewer-go-{size}.sqlite"
    games_in_file = first_games(size, sgf)
    for stale in work.glob(f"{database.name}*"):
        shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
    env = {**os.environ, "PYTHONPATH": str(REPO), "REVIEWER_CACHE_DIR": str(work / "cache")}
    seconds, rss, output, cpu_seconds = run_measured(
        [sys.executable, "-m", "reviewer", "db", "import", "--db", str(database), str(sgf), "--json"], env=env)
    summary = json.loads(output)
    stored = int(summary["stored"])
    on_disk = database.stat().st_size + sum(path.stat().st_size for path in database.with_name(database.name + ".positions").iterdir())
    result: dict[str, object] = {"games_in_file": games_in_file, "sgf_bytes": sgf.stat().st_size, "import": {
        "seconds": round(seconds, 2), "games_per_s": round(games_in_file / seconds, 1), "cpu_seconds": round(cpu_seconds, 2),
        "stored": stored, "duplicates": summary["duplicates"], "skipped": len(summary["skipped"]),
        "peak_rss_mb": round(rss / 2**20, 1), "bytes_per_game": round(on_disk / max(1, stored))}}
    import sqlite3

    connection = sqlite3.connect(database)
    player = connection.execute(
        "SELECT name FROM (SELECT white AS name FROM games UNION ALL SELECT black FROM games) WHERE name != ''"
        " GROUP BY name ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    middle = connection.execute("SELECT moves FROM games WHERE plies >= ? ORDER BY id LIMIT 1 OFFSET ?",
                                (RARE_PLIES, stored // 2)).fetchone()[0]
    connection.close()
    lines = [[], most_played_line(database, 4), middle.split()[:RARE_PLIES]]
    result["positions"] = ["the empty board", "the most played line: " + " ".join(lines[1]),
                           f"a rare line: the first {RARE_PLIES} moves of the middle game"]
    result["player_name"] = player
    for filtered, who in (("all", ""), ("player", player)):
        warm = queries(database, lines, who, repeats + 1)
        cold = [queries(database, [line], who, 1)[0]["times"][0] for _ in range(cold_runs) for line in lines]  # type: ignore[index]
        warm_times = [t for row in warm for t in row["times"][1:]]  # type: ignore[index]
        result[f"reviewer_{filtered}"] = {
            "games": [row["games"] for row in warm],
            **latencies(warm_times, cold),
        }
    if replay:
        replay_seconds, counts = replay_counts(sgf, lines)
        result["sgfmill_loop"] = {"seconds": round(replay_seconds, 2), "counts": counts,
                                  "equal": counts == result["reviewer_all"]["games"]}  # type: ignore[index]
    return result


def main() -> None:
    parser = measuring_parser(__doc__)
    parser.add_argument("--replay", action="store_true", help="count the positions with a plain sgfmill loop too")
    parser.add_argument("--work", type=Path, default=None, help="folder for the files (default: a temporary one)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="reviewer-db-go-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        for size in args.games or [10000]:
            started = time.perf_counter()
            result = measure(size, work, args.repeats, args.cold_runs, args.replay)
            print(json.dumps({"size": size, **result, "bench_seconds": round(time.perf_counter() - started, 1)},
                             ensure_ascii=False, indent=1), flush=True)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
