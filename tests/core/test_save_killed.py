"""File ▸ Save killed in the middle of writing: the file is the old version or the new one, whole,
never a mix, and the other games of the file are byte for byte as they were. The saving process is
killed at whatever moment it has reached: every moment must leave a file that reads."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from support import CORPUS_DIR, REPO_ROOT

from reviewer.core.formats import open_collection
from reviewer.core.formats.save import backup_path

SOURCE = CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn"
GAME = 117  # a game in the middle of the file: both its neighbours' bytes must stay
SAVER = textwrap.dedent('''
    import sys
    from reviewer.core.formats import open_collection
    from reviewer.core.formats.save import record_source, save_in_place

    path, index = sys.argv[1], int(sys.argv[2])
    collection = open_collection(path)
    game = collection.game(index)
    source = record_source(collection, index, game)
    for round_number in range(1, 10_000):
        game.root.children[0].comment = f"round {round_number}"
        source = save_in_place(game, source).source
        print(round_number, flush=True)
''')


def _spans(path: Path) -> list[bytes]:
    collection = open_collection(path)
    data = collection.text_bytes()
    assert data is not None
    spans = [collection.game_span(index) for index in range(len(collection))]
    return [data[slice(*span)] for span in spans if span is not None]


def test_a_save_killed_at_any_moment_leaves_the_old_file_or_the_new_one(tmp_path) -> None:
    path = tmp_path / "games.pgn"
    path.write_bytes(SOURCE.read_bytes() * 4)  # about 1 MB: a write takes a while
    before = _spans(path)
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    for kill_after in (1, 2, 5):
        process = subprocess.Popen([sys.executable, "-c", SAVER, str(path), str(GAME)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=environment, cwd=REPO_ROOT)
        assert process.stdout is not None
        done = 0
        try:
            while done < kill_after:
                line = process.stdout.readline()
                assert line, f"the saver stopped before it was killed: {process.stderr.read() if process.stderr else ''}"
                done = int(line)
            process.send_signal(signal.SIGKILL)
        finally:
            process.wait()
            process.stdout.close()
            if process.stderr is not None:
                process.stderr.close()
        game = open_collection(path).game(GAME)
        comment = game.root.children[0].comment
        assert comment in (f"round {done}", f"round {done + 1}"), comment  # the old version or the new one
        after = _spans(path)
        assert len(after) == len(before)
        assert after[: GAME] == before[: GAME] and after[GAME + 1 :] == before[GAME + 1 :]
        assert backup_path(path).exists()  # the version before the last save that finished
