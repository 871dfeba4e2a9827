"""The player's notes' costs on the window's thread: the diff against the file that the notes'
keeper makes after every change (`saved_notes.player_notes`), and the writer's text that File ▸ Save
takes before it hands the writing to a worker (`save.text_of`); then one save in place (a worker's).
The longest game of a many-game PGN, a NAG and words on every third move, best of 20 runs.

    PYTHONPATH=. .venv/bin/python benchmarks/notes_costs.py [PGN]
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reviewer.core.formats import open_collection
from reviewer.core.formats.save import record_source, save_in_place, text_of
from reviewer.core.services.saved_notes import notes_snapshot, player_notes
from reviewer.core.variations import TreeEditor

CORPUS = Path(os.environ.get("REVIEWER_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "corpus"


def best_ms(work: Callable[[], object], runs: int = 20) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def main() -> None:
    source_file = Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn"
    copy = Path(tempfile.mkdtemp()) / source_file.name
    shutil.copyfile(source_file, copy)
    collection = open_collection(copy)
    index = max(range(len(collection)), key=lambda i: len(collection.game(i).mainline_moves()))
    game = collection.game(index)
    source = record_source(collection, index, game)
    read_notes = notes_snapshot(game)
    editor = TreeEditor(game)
    for ply in range(1, len(game.mainline_moves()) + 1, 3):
        editor.annotate(game.node_at_ply(ply), nags=[2], words=f"note {ply}")
    print(f"{len(collection)} games, {copy.stat().st_size} bytes; game {index + 1}: {len(game.mainline_moves())} plies")
    print(f"player_notes (after each change): {best_ms(lambda: player_notes(game, read_notes)):.2f} ms")
    print(f"text_of (before each save): {best_ms(lambda: text_of(game)):.2f} ms")
    started = time.perf_counter()
    result = save_in_place(text_of(game), source)
    print(f"save_in_place (in a worker): {(time.perf_counter() - started) * 1000:.1f} ms, written: {result.written}")


if __name__ == "__main__":
    main()
