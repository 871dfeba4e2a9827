"""How fast a huge PGN lists its games: Reviewer's lazy index against python-chess's header reader.

Writes a PGN of N short games (default 100 000) to a temporary folder, then times
- Reviewer: `open_collection(path)` and every game's summary (headers only), then opening one game;
- python-chess: `chess.pgn.read_headers` over the whole file (the library's own fastest listing).
Run: .venv/bin/python benchmarks/formats.py [--games N]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import chess.pgn

from reviewer.core.formats import open_collection

MOVES = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O"


def write_collection(path: Path, games: int) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for index in range(games):
            handle.write(
                f'[Event "Club {index % 97}"]\n[Site "?"]\n[Date "2024.01.{index % 28 + 1:02d}"]\n'
                f'[Round "{index}"]\n[White "Player {index % 1000}"]\n[Black "Player {(index * 7) % 1000}"]\n'
                f'[Result "1-0"]\n\n{MOVES} 1-0\n\n'
            )


def time_reviewer(path: Path) -> tuple[float, float, int]:
    started = time.perf_counter()
    collection = open_collection(path)
    count = sum(1 for _ in collection.summaries())
    listed_s = time.perf_counter() - started
    started = time.perf_counter()
    collection.game(count // 2)
    return listed_s, time.perf_counter() - started, count


def time_python_chess(path: Path) -> tuple[float, int]:
    started = time.perf_counter()
    count = 0
    with path.open(encoding="utf-8") as handle:
        while chess.pgn.read_headers(handle) is not None:
            count += 1
    return time.perf_counter() - started, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "collection.pgn"
        write_collection(path, args.games)
        size_mb = os.path.getsize(path) / 1e6
        listed_s, one_game_s, count = time_reviewer(path)
        library_s, library_count = time_python_chess(path)
    print(f"{count} games, {size_mb:.1f} MB")
    print(f"reviewer: list every game (headers)   {listed_s:7.2f} s")
    print(f"reviewer: then open one game          {one_game_s * 1000:7.1f} ms")
    print(f"python-chess read_headers, whole file {library_s:7.2f} s  ({library_count} games)")
    print(f"reviewer listing / python-chess listing: {listed_s / library_s:.2f}x the time")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
