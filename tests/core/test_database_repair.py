"""A damaged game database is named by every command and built again from its games' files, and the
lines a player added to a game (kept in the lines store, apart from the database) are still there."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer.core.database import (
    DamagedDatabase,
    ExploreFilters,
    GameDatabase,
    check_database,
    chess_position,
    explore,
    import_paths,
    rebuild_database,
)
from reviewer.core.formats import open_collection
from reviewer.core.services.saved_lines import SavedLines, game_fingerprint, game_source, graft
from reviewer.core.variations import TreeEditor

REPO_ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pgn/mliebelt-pgn-parser__twic-01-232games.pgn", "pgn/chesslib__31_events.pgn")
PAGE_BYTES = 4096


def _command(*arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run([sys.executable, "-m", "reviewer", "db", *arguments], capture_output=True, text=True,
                          env=environment, cwd=REPO_ROOT, timeout=300, check=False)


def _figures(path: Path) -> tuple[int, int, list[tuple[str, int]]]:
    with GameDatabase(path) as database:
        after_e4 = explore(database, chess_position(moves=["e4"]), ExploreFilters())
        return database.game_count(), database.position_count(), [(move.move, move.games) for move in after_e4.moves]


@pytest.fixture
def database(tmp_path, corpus_dir) -> Path:
    path = tmp_path / "games.sqlite"
    with GameDatabase(path) as opened:
        import_paths(opened, [corpus_dir / name for name in SOURCES])
    return path


def _spoil_pages(path: Path, first_page: int, pages: int) -> None:
    with path.open("r+b") as file:
        file.seek(first_page * PAGE_BYTES)
        file.write(bytes(range(256)) * (PAGE_BYTES * pages // 256))


def test_spoiled_pages_are_found_and_a_rebuild_gives_back_every_game_and_the_players_lines(database, tmp_path, corpus_dir) -> None:
    before = _figures(database)
    assert before[0] > 200 and check_database(database) is None
    # The player's lines on a game of the first file, kept in the lines store by the game's file and place.
    source_file = corpus_dir / SOURCES[0]
    game = open_collection(source_file).game(3)
    TreeEditor(game).play_line(game.node_at_ply(6), ["a3", "h6"])
    lines_store = SavedLines(tmp_path / "lines.sqlite")
    lines = [[*game.mainline_moves()[:6], "a3", "h6"]]
    lines_store.save(game_fingerprint(game), lines, source=game_source(source_file, 3))

    _spoil_pages(database, first_page=3, pages=40)
    problem = check_database(database)
    assert problem is not None
    checked = _command("check", "--db", str(database))
    assert checked.returncode == 1 and "is damaged" in checked.stderr and "reviewer db rebuild" in checked.stderr

    report = rebuild_database(database)
    assert report.damaged_copy is not None and report.damaged_copy.exists()  # kept for whoever wants to look
    assert [path.name for path in report.sources] == [Path(name).name for name in SOURCES] and report.missing == []
    assert check_database(database) is None
    assert _figures(database) == before

    with GameDatabase(database) as rebuilt:
        stored = next(row for row in rebuilt.games_by_id(list(range(1, 400))) if row.source_index == 3
                      and Path(row.source_path).name == source_file.name)
    reopened = open_collection(Path(stored.source_path)).game(stored.source_index)
    kept = lines_store.load(reopened, source=game_source(stored.source_path, stored.source_index))
    assert kept == lines and graft(reopened, kept) == (1, [])


def test_a_file_that_is_no_database_any_more_is_named_and_read_again_from_the_list_beside_it(database) -> None:
    before = _figures(database)
    _spoil_pages(database, first_page=0, pages=2)  # the header too: not even the sources table reads
    with pytest.raises(DamagedDatabase, match="rebuild"):
        GameDatabase(database)
    explored = _command("explore", "--db", str(database), "--moves", "e4", "--json")
    assert explored.returncode == 1 and "is damaged" in explored.stderr and explored.stdout == ""

    rebuilt = _command("rebuild", "--db", str(database), "--json")
    assert rebuilt.returncode == 0, rebuilt.stderr
    summary = json.loads(rebuilt.stdout)
    assert [Path(path).name for path in summary["files"]] == [Path(name).name for name in SOURCES]
    assert Path(summary["damaged_copy"]).exists() and summary["stored"] == before[0]
    assert _figures(database) == before


def test_a_source_that_is_gone_is_named_and_the_others_come_back(database, tmp_path, corpus_dir) -> None:
    copy = tmp_path / "mine.pgn"
    copy.write_bytes((corpus_dir / SOURCES[1]).read_bytes())
    with GameDatabase(database) as opened:
        import_paths(opened, [copy])
    copy.unlink()
    _spoil_pages(database, first_page=0, pages=2)
    report = rebuild_database(database)
    assert report.missing == [copy.resolve()] and report.stored > 200


def test_a_run_of_the_position_index_that_is_gone_is_named_and_a_rebuild_brings_it_back(database) -> None:
    before = _figures(database)
    with GameDatabase(database) as opened:
        run = opened.positions.runs()[0]
    run.path.unlink()
    problem = check_database(database)
    assert problem is not None and run.name in problem
    with GameDatabase(database) as opened, pytest.raises(DamagedDatabase, match="rebuild"):
        explore(opened, chess_position(moves=["e4"]))
    report = rebuild_database(database)
    assert report.damaged_copy is not None and check_database(database) is None
    assert _figures(database) == before


def test_a_database_of_the_earlier_schema_is_named_and_read_again_into_the_new_one(database) -> None:
    before = _figures(database)
    connection = sqlite3.connect(database)
    with connection:
        connection.execute("UPDATE meta SET value = '1' WHERE name = 'schema'")
    connection.close()
    with pytest.raises(DamagedDatabase, match="earlier version"):
        GameDatabase(database)
    rebuild_database(database)
    assert _figures(database) == before


def test_a_run_cut_short_is_named_by_the_check(database) -> None:
    with GameDatabase(database) as opened:
        run = opened.positions.runs()[-1]
    with run.path.open("r+b") as file:
        file.truncate(run.path.stat().st_size // 2)
    problem = check_database(database)
    assert problem is not None and "cut short" in problem
    checked = _command("check", "--db", str(database))
    assert checked.returncode == 1 and "is damaged" in checked.stderr
