"""The batch store: finished games by (game, setting), shared by processes, an error when unusable."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest

from reviewer.core.services.batch import BatchStore, StoreError, default_store_path


def report(name: str) -> dict:
    return {"schema": "reviewer.report/1", "game": {"white": name}, "source": {"path": "g.pgn", "index": 0}}


def test_a_finished_game_is_found_again_by_game_and_setting(tmp_path):
    path = tmp_path / "store" / "batch.sqlite"
    with BatchStore(path) as store:
        store.record("game-1", "setting-a", "{}", "g.pgn", 0, False, report("A"))
        store.record("game-2", "setting-a", "{}", "g.pgn", 1, True, report("B"))
    with BatchStore(path) as store:  # another run
        found = store.finished([("game-1", "setting-a"), ("game-2", "setting-a"), ("game-1", "setting-b"), ("game-3", "setting-a")])
        assert set(found) == {("game-1", "setting-a"), ("game-2", "setting-a")}
        assert found[("game-2", "setting-a")].imported and found[("game-2", "setting-a")].index == 1
        assert found[("game-1", "setting-a")].report == report("A")
        assert store.count() == 2 and store.count("setting-b") == 0


def test_recording_a_game_again_replaces_it(tmp_path):
    with BatchStore(tmp_path / "b.sqlite") as store:
        store.record("game-1", "s", "{}", "g.pgn", 0, False, report("old"))
        store.record("game-1", "s", "{}", "g.pgn", 0, False, report("new"))
        assert store.count() == 1
        assert store.finished([("game-1", "s")])[("game-1", "s")].report["game"]["white"] == "new"


def test_many_games_are_looked_up_at_once(tmp_path):
    with BatchStore(tmp_path / "b.sqlite") as store:
        for number in range(1200):
            store.record(f"game-{number}", "s", "{}", "g.pgn", number, False, report(str(number)))
        found = store.finished((f"game-{number}", "s") for number in range(0, 1300, 2))
        assert len(found) == 600


def _record_many(path: str, worker: int) -> None:
    with BatchStore(path) as store:
        for number in range(40):
            store.record(f"game-{worker}-{number}", "s", "{}", "g.pgn", number, False, report("x"))


def test_several_processes_share_one_store(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_record_many, args=(path, worker)) for worker in range(3)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(60)
    assert [process.exitcode for process in workers] == [0, 0, 0]
    with BatchStore(path) as store:
        assert store.count() == 120
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_store_that_cannot_be_opened_is_an_error_naming_it(tmp_path):
    not_a_database = tmp_path / "batch.sqlite"
    not_a_database.write_bytes(b"this is not an SQLite file" * 100)
    with pytest.raises(StoreError, match=str(not_a_database)):
        BatchStore(not_a_database)
    blocked = tmp_path / "a_file"
    blocked.write_text("")
    with pytest.raises(StoreError, match="cannot open the batch store"):
        BatchStore(blocked / "batch.sqlite")


def test_the_default_store_lies_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("REVIEWER_DATA_DIR", str(tmp_path / "data"))
    assert default_store_path() == tmp_path / "data" / "batch.sqlite"
