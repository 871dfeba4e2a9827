"""The SQLite analysis cache: keys, round trips, and going on without it when it breaks."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from reviewer.core import paths
from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.cache import AnalysisCache, position_key, position_keys
from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.gametree import Game, Node

EVALUATION = Evaluation(
    ply=7,
    kind="chess",
    engine_id="E | nodes=10,multipv=1",
    score_cp_first=-35,
    wdl_first=(10, 900, 90),
    side_to_move="black",
    best_move="Nf6",
    pv=("Nf6", "Nc3"),
    candidates=(Candidate(move="Nf6", order=0, score_cp_first=-35, pv=("Nf6", "Nc3")),),
    depth=12,
    nodes=1000,
)


def test_round_trip_and_default_location():
    with AnalysisCache() as cache:
        assert cache.path == paths.analysis_cache_path()
        cache.put("k1", "E", EVALUATION)
        assert cache.get("k1", "E") == EVALUATION
        assert cache.get("k1", "other engine") is None
        assert cache.get("k2", "E") is None
    with AnalysisCache() as reopened:
        assert reopened.get_many(["k1", "k2"], "E") == {"k1": EVALUATION}
        assert reopened.count() == 1


def test_writes_from_several_threads(tmp_path):
    cache = AnalysisCache(tmp_path / "c.sqlite")

    def write(start: int) -> None:
        for index in range(start, start + 50):
            cache.put(f"k{index}", "E", EVALUATION.with_ply(index))

    threads = [threading.Thread(target=write, args=(start,)) for start in (0, 50, 100)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.count() == 150 and cache.warning is None
    assert cache.get("k120", "E").ply == 120


def test_each_stored_evaluation_survives_a_process_that_never_closes(tmp_path):
    path = tmp_path / "c.sqlite"
    cache = AnalysisCache(path)
    cache.put("k", "E", EVALUATION)
    # No close(): a second connection (another process after a crash) already sees the row.
    assert AnalysisCache(path).get("k", "E") == EVALUATION
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_corrupt_file_warns_and_goes_on_without_caching(tmp_path, caplog):
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"this is not a database at all" * 100)
    cache = AnalysisCache(path)
    assert not cache.enabled
    assert cache.warning is not None and "without the cache" in cache.warning and str(path) in cache.warning
    cache.put("k", "E", EVALUATION)
    assert cache.get("k", "E") is None
    assert path.read_bytes().startswith(b"this is not")  # the user's file is left alone


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_folder_warns(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        cache = AnalysisCache(folder / "sub" / "c.sqlite")
        assert not cache.enabled and cache.warning
    finally:
        folder.chmod(0o700)


def test_a_failing_write_turns_the_cache_off(tmp_path):
    cache = AnalysisCache(tmp_path / "c.sqlite")
    cache.put("k", "E", EVALUATION)
    # Make the file read-only under the open connection, as a full or read-only disk would.
    cache._connection.execute("PRAGMA query_only = ON")
    cache.put("k2", "E", EVALUATION)
    assert not cache.enabled
    assert "cannot write" in cache.warning
    cache.put("k3", "E", EVALUATION)  # still no exception


def test_chess_keys_ignore_move_counters_and_history():
    one = game_from_pgn_text("1. Nf3 Nf6 2. Ng1 Ng8 3. e4 *")
    two = game_from_pgn_text("1. e4 *")
    keys = position_keys(one, range(6))
    assert keys[0] == keys[4]  # back at the start, with other move counters
    assert keys[5] == position_key(two, 1)
    assert keys[1] != keys[0]
    assert keys[0].startswith("chess:")


def test_chess_keys_keep_side_to_move_castling_and_legal_en_passant():
    castled = game_from_pgn_text("1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 *")
    plain = game_from_pgn_text("1. e4 e5 *")
    assert position_key(castled, 6) != position_key(plain, 2)  # castling rights differ
    # No black pawn can take on e3, so the en passant square is not part of the position.
    assert position_key(game_from_pgn_text("1. e4 *"), 1) == "chess:rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
    capture = game_from_pgn_text("1. e4 d5 2. e5 f5 *")
    assert position_key(capture, 4).endswith(" f6")


def _go_game(moves: list[tuple[str, tuple[int, int] | None]], komi: float = 6.5, size: int = 9) -> Game:
    game = Game(kind="go", board_width=size, board_height=size, komi=komi, rules="japanese", first_player="black")
    node = game.root
    for color, point in moves:
        node = node.add_child(Node(move="pass" if point is None else "x", color=color, point=point))  # type: ignore[arg-type]
    return game


def test_go_keys_depend_on_moves_komi_size_and_setup():
    base = _go_game([("black", (2, 2)), ("white", (6, 6)), ("black", None)])
    keys = position_keys(base, range(4))
    assert len(set(keys.values())) == 4
    assert keys[2] == position_key(_go_game([("black", (2, 2)), ("white", (6, 6))]), 2)
    assert keys[2] != position_key(_go_game([("black", (2, 2)), ("white", (6, 6))], komi=0.5), 2)
    assert keys[2] != position_key(_go_game([("black", (2, 2)), ("white", (6, 6))], size=13), 2)
    handicap = _go_game([("black", (2, 2)), ("white", (6, 6))])
    handicap.setup_black = [(4, 4)]
    assert keys[2] != position_key(handicap, 2)
    # The same stones reached in another order are another history: another key.
    swapped = _go_game([("black", (2, 2)), ("white", (6, 6)), ("black", (3, 3)), ("white", (5, 5))])
    other = _go_game([("black", (3, 3)), ("white", (5, 5)), ("black", (2, 2)), ("white", (6, 6))])
    assert position_key(swapped, 4) != position_key(other, 4)
    assert keys[0].startswith("go:")


def test_a_cache_folder_that_cannot_be_made_warns(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    cache = AnalysisCache(blocker / "c.sqlite")
    assert not cache.enabled and "cannot open" in cache.warning
    assert cache.get_many(["k"], "E") == {}


def test_a_cache_busy_in_another_program_skips_one_write_and_stays_on(tmp_path):
    path = tmp_path / "c.sqlite"
    cache = AnalysisCache(path, busy_timeout_s=0.1)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    cache.put("k", "E", EVALUATION)
    other.execute("ROLLBACK")
    other.close()
    assert cache.enabled and cache.warning is None
    cache.put("k", "E", EVALUATION)
    assert cache.get("k", "E") == EVALUATION


def test_an_engines_identity_is_remembered_by_fingerprint(tmp_path):
    path = tmp_path / "cache.sqlite"
    with AnalysisCache(path) as cache:
        assert cache.engine_identity("fp-1") is None
        cache.remember_engine("fp-1", "Stockfish 16")
        cache.remember_engine("fp-2", "KataGo 1.15 b18")
        cache.remember_engine("fp-1", "Stockfish 17")  # the same program file, upgraded
    with AnalysisCache(path) as cache:
        assert cache.engine_identity("fp-1") == "Stockfish 17"
        assert cache.engine_identity("fp-2") == "KataGo 1.15 b18"


def test_a_cache_made_before_engines_were_remembered_gains_the_table(tmp_path):
    path = tmp_path / "old.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO meta VALUES ('schema', '1');"
        "CREATE TABLE evaluations (position_key TEXT NOT NULL, engine_id TEXT NOT NULL, evaluation TEXT NOT NULL,"
        " stored_at REAL NOT NULL, PRIMARY KEY (position_key, engine_id)) WITHOUT ROWID;"
    )
    connection.close()
    with AnalysisCache(path) as cache:
        assert cache.warning is None
        cache.remember_engine("fp", "E")
        assert cache.engine_identity("fp") == "E"


# A process that opens the cache the moment it reads "go" on stdin, writes its share, and says
# what happened. Several start at once on a file that does not exist yet.
HAMMER = r"""
import json, sys
from reviewer.core.analysis import Evaluation
from reviewer.core.cache import AnalysisCache

path, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
print("ready", flush=True)
sys.stdin.readline()
cache = AnalysisCache(path)
evaluation = Evaluation(ply=0, kind="go", engine_id="E", score_lead_first=1.5, winrate_first=0.6)
for index in range(first, first + count):
    cache.put(f"k{index}", "E", evaluation.with_ply(index))
    cache.remember_engine(f"fp{index % 3}", "E")
seen = len(cache.get_many([f"k{index}" for index in range(first, first + count)], "E"))
print(json.dumps({"warning": cache.warning, "enabled": cache.enabled, "seen": seen}), flush=True)
cache.close()
"""


@pytest.mark.parametrize("round_", range(3))
def test_processes_creating_one_new_cache_at_once_all_store_their_results(tmp_path, round_):
    import json
    import subprocess
    import sys

    path = tmp_path / "new" / "cache.sqlite"
    processes, share = 6, 40
    children = [
        subprocess.Popen(
            [sys.executable, "-c", HAMMER, str(path), str(index * share), str(share)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for index in range(processes)
    ]
    try:
        for child in children:
            assert child.stdout.readline().strip() == "ready"
        for child in children:  # released together: all of them create the file at once
            child.stdin.write("go\n")
            child.stdin.flush()
        outcomes = []
        for child in children:
            out, err = child.communicate()
            assert child.returncode == 0, err
            assert "locked" not in err, err
            outcomes.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    assert outcomes == [{"warning": None, "enabled": True, "seen": share}] * processes
    with AnalysisCache(path) as cache:
        assert cache.count() == processes * share
        assert cache.engine_identity("fp2") == "E"
        journal = cache._connection.execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "wal"


def test_a_lock_that_sqlite_reports_at_once_is_tried_again(tmp_path, monkeypatch):
    # SQLite answers some races ("database is locked" while another process creates the file)
    # without waiting for its busy timeout: opening and writing try again instead of giving up.
    from reviewer.core import cache as cache_module

    real_create = cache_module._create_schema
    failures = {"schema": 2}

    def create_after_two_locks(connection):
        if failures["schema"]:
            failures["schema"] -= 1
            raise sqlite3.OperationalError("database is locked")
        real_create(connection)

    monkeypatch.setattr(cache_module, "_create_schema", create_after_two_locks)
    with AnalysisCache(tmp_path / "c.sqlite") as cache:
        assert failures["schema"] == 0 and cache.enabled and cache.warning is None
        cache.put("k", "E", EVALUATION)
        assert cache.get("k", "E") == EVALUATION


def test_an_error_that_is_not_a_lock_is_not_tried_again(tmp_path, monkeypatch):
    from reviewer.core import cache as cache_module

    calls = []

    def broken(connection):
        calls.append(1)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(cache_module, "_create_schema", broken)
    cache = AnalysisCache(tmp_path / "c.sqlite")
    assert calls == [1] and not cache.enabled and "disk I/O error" in cache.warning
