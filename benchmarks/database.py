"""The game database at scale: Reviewer's import and explorer beside SCID's, on the same real games.

The games are the first N of ../shared/bigsets/chess-pgnmentor-players.pgn.xz (human master games,
about 18% of them twice: a database stores them once), decompressed on the fly into a temporary
PGN that both programs read. For each size:
- import: `reviewer db import` in a process of its own (games/s over the games in the file, peak
  RSS from wait4) and SCID 4.7's `sc_base create` + `sc_base import` in `tkscid` (under xvfb-run);
- bytes on disk per game stored: the SQLite file and its position index's folder against SCID's
  .si4 + .sg4 + .sn4; and the floor of any exact position index of the same games, whatever its
  format (the information its keys and its lists of games hold: `index_floor_bytes`);
- explorer latency over a fixed set of positions (the start, after 1.e4, a common 10-move line,
  a rare 20-move line: the first 40 plies of the middle game of the set), with and without a
  player filter (the set's most frequent player, either colour): Reviewer's `explore()` against
  SCID's `sc_filter search <base> tree board` + `sc_tree stats` (the tree window's work; with the
  player, the tree filter is composed with a header search, as the tree window does). Warm: the
  same query again in the same process (`--repeats` times); cold: the first query of a fresh
  process that has just opened the database (the operating system's file cache is not dropped);
- a plain python-chess loop (replay every game, compare FENs) for the same positions, whose counts
  must equal the explorer's (with `--replay-games`, over that many games, as it is slow).
Run: nice -n 15 .venv/bin/python benchmarks/database.py --games 10000 [--games 100000] [--repeats 20]
         [--cold-runs 3] [--replay-games 10000] [--copies N] [--no-scid] [--import-only] [--work DIR [--reuse]]
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIGSETS = REPO.parent / "shared" / "bigsets"
if not BIGSETS.is_dir():
    BIGSETS = Path("/work/shared/bigsets")
CHESS_SET = BIGSETS / "chess-pgnmentor-players.pgn.xz"
COMMON_LINE = ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"]


def first_games(sources: list[Path], count: int, target: Path, copies: int = 1) -> int:
    """The first `count` games of xz PGNs read one after the other (all when 0) into `target`,
    `copies` times (each copy after the first with a tag of its own, so that a database stores it
    as another game); the number written."""
    written = 0
    with open(target, "wb") as out:
        for copy in range(copies):
            read = 0
            for source in sources:
                if count and read == count:
                    break
                with lzma.open(source, "rb") as packed:
                    for line in packed:
                        if line.startswith(b"[Event "):
                            if count and read == count:
                                break
                            read += 1
                            written += 1
                            if copy:
                                out.write(b'[BenchmarkCopy "%d"]\r\n' % copy)
                        out.write(line)
                out.write(b"\n")
    return written


def run_measured(command: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str, float]:
    """(wall seconds, peak RSS in bytes, stdout, CPU seconds: user + system, its own children's
    included) of a child process. On a machine shared with other work the CPU seconds move less."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, env=env, cwd=REPO)
        assert process.stdout is not None
        output = process.stdout.read().decode("utf-8", "replace")
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace")
            raise RuntimeError(f"{command[:4]} failed with {process.returncode}: {output[-2000:]}{said[-2000:]}")
    return elapsed, usage.ru_maxrss * 1024, output, usage.ru_utime + usage.ru_stime


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def latencies(warm_seconds: list[float], cold_seconds: list[float]) -> dict[str, float]:
    """p50 and p95 of the warm and the cold queries, in ms."""
    return {
        "warm_p50_ms": round(1000 * statistics.median(warm_seconds), 2),
        "warm_p95_ms": round(1000 * percentile(warm_seconds, 0.95), 2),
        "cold_p50_ms": round(1000 * statistics.median(cold_seconds), 2),
        "cold_p95_ms": round(1000 * percentile(cold_seconds, 0.95), 2),
    }


_QUERY_CHILD = r"""
import json, sys, time
from pathlib import Path
from reviewer.core.database import ExploreFilters, GameDatabase, chess_position, explore, go_position
path, lines, player, repeats = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], int(sys.argv[4])
game = sys.argv[5] if len(sys.argv) > 5 else "chess"
database = GameDatabase(Path(path))
filters = ExploreFilters(player=player) if player else ExploreFilters()
out = []
for line in lines:
    position = go_position(19, line) if game == "go" else chess_position(None, line)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        found = explore(database, position, filters)
        times.append(time.perf_counter() - started)
    out.append({"times": times, "games": found.games,
                "moves": {m.move: [m.games, m.white_wins, m.draws, m.black_wins] for m in found.moves}})
print(json.dumps(out))
"""


def reviewer_queries(database: Path, lines: list[list[str]], player: str, repeats: int, game: str = "chess") -> list[dict[str, object]]:
    """In a fresh process: each line's position asked `repeats` times (the times, the games, the moves).
    `game`: "chess" (SAN from the start) or "go" (GTP on 19×19)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", _QUERY_CHILD, str(database), json.dumps(lines), player, str(repeats), game]
    return json.loads(subprocess.run(command, capture_output=True, check=True, env=env, cwd=REPO).stdout)  # type: ignore[no-any-return]


_SCID_IMPORT = """
set started [clock microseconds]
set base [sc_base create {%(base)s}]
set result [sc_base import $base {%(pgn)s}]
sc_base close $base
puts "[lindex $result 0] [expr {([clock microseconds] - $started) / 1e6}]"
exit
"""

_SCID_QUERY = """
set base [sc_base open {%(base)s}]
sc_base switch $base
set out {}
foreach line {%(lines)s} {
    sc_game new
    foreach move $line { sc_move addSan $move }
    set times {}
    for {set i 0} {$i < %(repeats)d} {incr i} {
        set started [clock microseconds]
        if {{%(player)s} ne {}} {
            sc_filter search $base dbfilter header -filter RESET -white {%(player)s}
            sc_filter search $base dbfilter header -filter OR -black {%(player)s}
        }
        sc_filter search $base tree board
        if {{%(player)s} ne {}} {
            set filter [sc_filter compose $base dbfilter tree]
        } else {
            set filter tree
        }
        set stats [sc_tree stats $base $filter 0 frequency]
        lappend times [expr {([clock microseconds] - $started) / 1e6}]
    }
    lappend out "[sc_filter count $base $filter] $times"
}
sc_base close $base
foreach row $out { puts $row }
exit
"""


def tcl_list(lines: list[list[str]]) -> str:
    return " ".join("{" + " ".join(line) + "}" for line in lines)


def scid_run(script: str, folder: Path) -> tuple[float, int, str, float]:
    path = folder / "script.tcl"
    path.write_text(script, encoding="utf-8")
    return run_measured(["xvfb-run", "-a", "/usr/games/tkscid", str(path)])


def index_bytes(database: Path) -> int:
    """The position index's folder beside the SQLite file."""
    folder = database.with_name(database.name + ".positions")
    return sum(path.stat().st_size for path in folder.iterdir()) if folder.is_dir() else 0


def reviewer_bytes(database: Path) -> int:
    """The SQLite file and the position index's folder beside it."""
    return database.stat().st_size + index_bytes(database)


def index_floor_bytes(database: Path) -> dict[str, float]:
    """What any exact position index of these games must hold at least, whatever its format: the
    set of distinct 64-bit keys (log2 C(2^64, K) bits) and, per key, which of the G games reached
    it (log2 C(G, n) bits) -- before moves, plies, results or anything to search it by."""
    import math

    import numpy as np

    from reviewer.core.database.position_index import Run

    folder = database.with_name(database.name + ".positions")
    runs = [Run(path) for path in sorted(folder.glob("*.run"))]
    keys = np.concatenate([run.columns["keys"] for run in runs])
    games = sum(run.games for run in runs)
    _distinct, reached_by = np.unique(keys, return_counts=True)
    distinct = len(reached_by)
    key_bits = 64 * distinct - math.lgamma(distinct + 1) / math.log(2)  # log2 C(2^64, K), K being far below 2^64
    counts, times = np.unique(reached_by, return_counts=True)
    posting_bits = sum(int(times[place]) * (math.lgamma(games + 1) - math.lgamma(int(count) + 1)
                                            - math.lgamma(games - int(count) + 1)) / math.log(2)
                       for place, count in enumerate(counts))
    return {
        "positions_per_game": round(len(keys) / games, 1),
        "distinct_positions_per_game": round(distinct / games, 1),
        "reached_by_one_game": round(float(np.mean(reached_by == 1)), 3),
        "floor_bytes_per_game": round((key_bits + posting_bits) / 8 / games),
    }


def scid_bytes(base: Path) -> int:
    return sum(base.with_suffix(suffix).stat().st_size for suffix in (".si4", ".sg4", ".sn4"))


def replay_counts(pgn: Path, lines: list[list[str]], limit: int) -> tuple[float, list[int]]:
    """A plain python-chess loop: replay each game, compare each position's FEN with the targets."""
    import chess
    import chess.pgn

    targets = {}
    for number, line in enumerate(lines):
        board = chess.Board()
        for san in line:
            board.push_san(san)
        targets[board.fen().rsplit(" ", 2)[0]] = number
    counts = [0] * len(lines)
    seen_games: set[tuple[str, ...]] = set()
    started = time.perf_counter()
    with open(pgn, encoding="utf-8", errors="replace") as handle:
        for _ in range(limit):
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            if game.errors:
                continue
            moves = [move.uci() for move in game.mainline_moves()]
            identity = (*sorted(f"{k}={v}" for k, v in game.headers.items()), "|", *moves)
            if identity in seen_games:
                continue
            seen_games.add(identity)
            board = game.board()
            hit: set[int] = set()
            for move in [*game.mainline_moves(), None]:
                number = targets.get(board.fen().rsplit(" ", 2)[0])
                if number is not None and number not in hit:
                    hit.add(number)
                    counts[number] += 1
                if move is not None:
                    board.push(move)
    return time.perf_counter() - started, counts


def measure(
    size: int, work: Path, repeats: int, cold_runs: int, replay_games: int, with_scid: bool, reuse: bool = False,
    copies: int = 1, sources: list[Path] | None = None, queries: bool = True,
) -> dict[str, object]:
    sources = sources or [CHESS_SET]
    label = f"{size}" if copies == 1 else f"{size}x{copies}"
    if sources != [CHESS_SET]:
        label += f"-{len(sources)}sets"
    pgn = work / f"chess-{label}.pgn"
    database = work / f"reviewer-{label}.sqlite"
    base = work / f"scid-{label}"
    reuse = reuse and pgn.exists() and database.exists() and (not with_scid or base.with_suffix(".si4").exists())
    import sqlite3

    if reuse:  # the queries again, on the files and databases of an earlier run
        games_in_file = int(sqlite3.connect(database).execute("SELECT sum(games_read) FROM sources").fetchone()[0])
    else:
        games_in_file = first_games(sources, size, pgn, copies)
    result: dict[str, object] = {"games_in_file": games_in_file, "pgn_bytes": pgn.stat().st_size, "reused": reuse}
    if not reuse:
        for stale in work.glob(f"reviewer-{label}.sqlite*"):
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink()
        env = {**os.environ, "PYTHONPATH": str(REPO), "REVIEWER_CACHE_DIR": str(work / "cache")}
        seconds, rss, output, cpu_seconds = run_measured(
            [sys.executable, "-m", "reviewer", "db", "import", "--db", str(database), str(pgn), "--json"], env=env
        )
        summary = json.loads(output)
        result["reviewer_import"] = {
            "seconds": round(seconds, 2),
            "games_per_s": round(games_in_file / seconds, 1),
            "command_seconds": summary["seconds"],  # the command's own time, as SCID's is timed inside tkscid
            "cpu_seconds": round(cpu_seconds, 2),  # the whole process: Python's start and imports too
            "games_per_cpu_s": round(games_in_file / cpu_seconds, 1),
            "stored": int(summary["stored"]),
            "duplicates": summary["duplicates"],
            "skipped": len(summary["skipped"]),
            "peak_rss_mb": round(rss / 2**20, 1),
            "bytes_per_game": round(reviewer_bytes(database) / int(summary["stored"])),
            "position_index_bytes_per_game": round(index_bytes(database) / int(summary["stored"])),
            "position_index_floor": index_floor_bytes(database),
        }
    if with_scid and not reuse:
        for stale in work.glob(f"{base.name}.s*4"):
            stale.unlink()
        seconds, rss, output, cpu_seconds = scid_run(_SCID_IMPORT % {"base": base, "pgn": pgn}, work)
        imported, scid_seconds = output.split()[:2]
        result["scid_import"] = {
            "seconds": round(float(scid_seconds), 2),
            "process_seconds": round(seconds, 2),
            "process_cpu_seconds": round(cpu_seconds, 2),  # xvfb-run, Xvfb and tkscid's start too
            "games_per_s": round(games_in_file / float(scid_seconds), 1),
            "stored": int(imported),
            "peak_rss_mb": round(rss / 2**20, 1),
            "bytes_per_game": round(scid_bytes(base) / int(imported)),
        }
    if not queries:
        return result
    connection = sqlite3.connect(database)
    stored = int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    player = connection.execute(
        "SELECT name FROM (SELECT white AS name FROM games UNION ALL SELECT black FROM games) WHERE name != ''"
        " GROUP BY name ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    middle = connection.execute(
        "SELECT moves FROM games WHERE plies >= 40 ORDER BY id LIMIT 1 OFFSET ?", (stored // 2,)
    ).fetchone()[0]
    connection.close()
    rare = middle.split()[:40]
    lines = [[], ["e4"], COMMON_LINE, rare]
    result["positions"] = ["start", "1.e4", "1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6", "a 20-move line: " + " ".join(rare)]
    result["player"] = player
    for filtered, who in (("all", ""), ("player", player)):
        warm = reviewer_queries(database, lines, who, repeats + 1)
        cold_times = [reviewer_queries(database, [line], who, 1)[0]["times"][0] for _ in range(cold_runs) for line in lines]
        warm_times = [t for row in warm for t in row["times"][1:]]  # type: ignore[index]
        result[f"reviewer_{filtered}"] = {
            "games": [row["games"] for row in warm],
            **latencies(warm_times, cold_times),
            "warm_median_ms_by_position": [round(1000 * statistics.median(row["times"][1:]), 2) for row in warm],  # type: ignore[index]
        }
    if with_scid:
        for filtered, who in (("all", ""), ("player", player)):
            _, _, output, _ = scid_run(_SCID_QUERY % {"base": base, "lines": tcl_list(lines), "repeats": repeats + 1, "player": who}, work)
            rows = [[float(x) for x in row.split()] for row in output.strip().splitlines()]
            warm_times = [t for row in rows for t in row[2:]]
            cold_times = []
            for _ in range(cold_runs):
                for line in lines:
                    _, _, cold, _ = scid_run(_SCID_QUERY % {"base": base, "lines": tcl_list([line]), "repeats": 1, "player": who}, work)
                    cold_times.append(float(cold.split()[1]))
            result[f"scid_{filtered}"] = {
                "games": [int(row[0]) for row in rows],
                **latencies(warm_times, cold_times),
                "warm_median_ms_by_position": [round(1000 * statistics.median(row[2:]), 2) for row in rows],
            }
    if replay_games:
        seconds, counts = replay_counts(pgn, lines, min(replay_games, games_in_file))
        result["python_chess_loop"] = {"games": min(replay_games, games_in_file), "seconds_for_all_positions": round(seconds, 2), "counts": counts}
    return result


def measuring_parser(description: str | None) -> argparse.ArgumentParser:
    """The options of every database benchmark: the set sizes, warm repeats and cold runs."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, action="append", help="set sizes (0 = the whole set); repeatable")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--cold-runs", type=int, default=3)
    return parser


def main() -> None:
    parser = measuring_parser(__doc__)
    parser.add_argument("--replay-games", type=int, default=10000, help="games the python-chess loop replays (0 = none)")
    parser.add_argument("--copies", type=int, default=1,
                        help="the games this many times, each copy tagged apart (a bigger database than the set)")
    parser.add_argument("--set", type=Path, action="append", dest="sets", metavar="XZ_PGN",
                        help="read the games from these xz PGNs, one after the other (default: the pgnmentor set); repeatable")
    parser.add_argument("--no-scid", action="store_true")
    parser.add_argument("--import-only", action="store_true", help="the imports only, no explorer queries")
    parser.add_argument("--reuse", action="store_true", help="with --work: query the databases an earlier run built there")
    parser.add_argument("--work", type=Path, default=None, help="folder for the files (default: a temporary one)")
    args = parser.parse_args()
    with_scid = not args.no_scid and shutil.which("xvfb-run") is not None and Path("/usr/games/tkscid").exists()
    work = args.work or Path(tempfile.mkdtemp(prefix="reviewer-db-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        for size in args.games or [10000]:
            result = measure(size, work, args.repeats, args.cold_runs, args.replay_games, with_scid, args.reuse, args.copies,
                             args.sets, queries=not args.import_only)
            print(json.dumps({"size": size, "copies": args.copies, "sets": [str(path) for path in args.sets or [CHESS_SET]], **result}, ensure_ascii=False, indent=1), flush=True)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
