"""The run file's encodings: keys by bucket and low bytes, games as their places in the run, short
plies with a table of long ones, symmetries only where a run has any; and an index of the earlier
format named as damaged and read again from its sources."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.core.database import ExploreFilters, GameDatabase, chess_position, explore, import_paths, position_index
from reviewer.core.database.position_index import (
    ENDED,
    PLY_MOST,
    SPEEDS,
    Run,
    RunWriter,
    merge_runs,
    write_run,
)
from reviewer.core.database.repair import DamagedDatabase, rebuild_database

INT64_MIN, INT64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)


def _writer(first_id: int, games: list[list[int]], plies: list[list[int]] | None = None,
            symmetries: list[list[int] | None] | None = None) -> RunWriter:
    writer = RunWriter()
    for place, keys in enumerate(games):
        game_id = first_id + place
        writer.add_game(game_id, "go" if symmetries is not None else "chess", 1, 2000, 2100, "", "2020.01.01")
        writer.add_positions(game_id, keys, plies[place] if plies is not None else range(len(keys)),
                             [place % 7] * (len(keys) - 1) + [None],
                             symmetries[place] if symmetries is not None else None)
    return writer


def _written(tmp_path: Path, columns: dict[str, np.ndarray], name: str = "a.run") -> Run:
    path = tmp_path / name
    write_run(path, columns)
    return Run(path)


def _rows(keys_by_game: list[list[int]], first_id: int) -> list[tuple[int, int]]:
    """(key, game id) of each game's first visit of each position, sorted."""
    return sorted({(key, first_id + place) for place, keys in enumerate(keys_by_game) for key in keys})


@pytest.mark.parametrize("games", [1, 40, 3000])
def test_keys_at_the_extremes_and_many_equal_keys_are_found_exactly(tmp_path, games) -> None:
    generator = np.random.default_rng(games)
    extremes = [0, -1, 1, INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 1 << 62, -(1 << 62)]
    keys_by_game = [[*extremes[: 1 + place % len(extremes)], 12345, *generator.integers(INT64_MIN, INT64_MAX, 30).tolist()]
                    for place in range(games)]
    run = _written(tmp_path, _writer(7, keys_by_game).columns())
    rows = _rows(keys_by_game, 7)
    assert run.rows == len(rows)
    assert run.columns["keys"].tolist() == [key for key, _game in rows]
    assert run.columns["games"].tolist() == [game for _key, game in rows]
    for key in {*extremes, 12345, *keys_by_game[-1], 2, -2, INT64_MIN + 2}:
        low, high = run.span(key)
        assert [(int(k), int(g)) for k, g in zip(run.columns["keys"][low:high], run.game_ids(slice(low, high)))] == [
            row for row in rows if row[0] == key]


def test_a_run_of_no_rows_is_written_and_read(tmp_path) -> None:
    writer = RunWriter()
    writer.add_game(1, "chess", None, None, None, "", "")
    writer.add_positions(1, [], [], [], None)
    run = _written(tmp_path, writer.columns())
    assert run.rows == 0 and run.span(0) == (0, 0) and run.span(INT64_MIN) == (0, 0) and run.games == 1


def test_a_run_of_fewer_than_65536_games_keeps_them_in_two_bytes_and_one_of_more_in_four(tmp_path) -> None:
    for games, game_bytes in ((65_535, 2), (65_536, 4)):
        keys_by_game = [[place % 1000, 5_000_000 + place] for place in range(games)]
        run = _written(tmp_path, _writer(100, keys_by_game).columns(), f"{games}.run")
        assert run.game_bytes == game_bytes and run.games == games
        low, high = run.span(999)
        assert run.game_ids(slice(low, high)).tolist() == [100 + place for place in range(999, games, 1000)]
        low, high = run.span(5_000_000 + games - 1)
        assert run.game_ids(slice(low, high)).tolist() == [100 + games - 1]


def test_plies_of_255_and_more_are_kept_exactly_and_past_65535_as_65535(tmp_path) -> None:
    plies = [[0, 254, 255, 256, 300, 65_535, 70_000], [1, 2, 3, 255, 254, 1000, 4]]
    keys_by_game = [[10, 20, 30, 40, 50, 60, 70], [70, 60, 50, 40, 30, 20, 10]]
    run = _written(tmp_path, _writer(1, keys_by_game, plies).columns())
    expected = {(key, 1 + place): min(ply, PLY_MOST) for place, keys in enumerate(keys_by_game)
                for key, ply in zip(keys, plies[place])}
    assert dict(zip(zip(run.columns["keys"].tolist(), run.columns["games"].tolist()), run.columns["plies"].tolist())) == expected
    low, high = run.span(40)
    assert run.plies_at(slice(low, high)).tolist() == [256, 255]
    assert run.plies_at(np.array([low + 1, low])).tolist() == [255, 256]


def test_a_run_of_go_symmetries_beside_one_of_chess_merges_with_both_kept(tmp_path) -> None:
    chess = _written(tmp_path, _writer(1, [[5, 6], [6, 7]]).columns(), "chess.run")
    go = _written(tmp_path, _writer(3, [[6, 8], [9, 5]], symmetries=[[3, 7], None]).columns(), "go.run")
    assert not chess.keeps_symmetries and go.keeps_symmetries
    merged = _written(tmp_path, merge_runs([chess, go]), "merged.run")
    assert merged.keeps_symmetries
    rows = list(zip(*(merged.columns[name].tolist() for name in ("keys", "games", "symmetries", "moves"))))
    assert rows == [(5, 1, 0, 0), (5, 4, 0, ENDED), (6, 1, 0, ENDED), (6, 2, 0, 1), (6, 3, 3, 0), (7, 2, 0, ENDED),
                    (8, 3, 7, ENDED), (9, 4, 0, 1)]
    assert merged.stored["local_games"].tolist() == [0, 3, 0, 1, 2, 1, 2, 3]
    chess_again = _written(tmp_path, merge_runs([chess, chess]), "chess2.run")
    assert not chess_again.keeps_symmetries


SOURCES = ("pgn/mliebelt-pgn-parser__twic-01-232games.pgn", "pgn/chesslib__31_events.pgn")


def _figures(path: Path) -> tuple[int, int, list[tuple[str, int]]]:
    with GameDatabase(path) as database:
        after_e4 = explore(database, chess_position(moves=["e4"]), ExploreFilters())
        return database.game_count(), database.position_count(), [(move.move, move.games) for move in after_e4.moves]


def test_a_database_whose_runs_are_of_the_earlier_format_is_named_damaged_and_read_again(tmp_path, corpus_dir) -> None:
    path = tmp_path / "games.sqlite"
    with GameDatabase(path) as opened:
        import_paths(opened, [corpus_dir / name for name in SOURCES])
        run = opened.positions.runs()[0]
    before = _figures(path)
    with run.path.open("r+b") as file:
        file.write(b"RVPOSRUN")  # the earlier format's magic
    with GameDatabase(path) as opened, pytest.raises(DamagedDatabase, match="not a run"):
        explore(opened, chess_position(moves=["e4"]))
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("UPDATE meta SET value = '2' WHERE name = 'schema'")
    connection.close()
    with pytest.raises(DamagedDatabase, match="earlier version"):
        GameDatabase(path)
    rebuild_database(path)
    assert _figures(path) == before


_GAME = st.tuples(st.one_of(st.none(), st.sampled_from([-1, 0, 1])), st.one_of(st.none(), st.integers(0, 3500)),
                  st.one_of(st.none(), st.integers(0, 3500)), st.sampled_from([*SPEEDS, "bullet?", "correspondence-ish"]),
                  st.one_of(st.sampled_from(["", "2024.05.??", "????.??.??", "1858.01.02", "2020-03-04T12:00:00Z long"]),
                            st.text(max_size=20)))


@settings(max_examples=60, deadline=None)
@given(st.lists(_GAME, min_size=1, max_size=12))
def test_games_added_at_once_have_the_columns_of_games_added_one_by_one(games) -> None:
    # Dates of any text (the first 16 bytes of their UTF-8, a multi-byte letter cut at the edge),
    # unknown outcomes and ratings, speeds the run keeps no code for.
    one_by_one, at_once = RunWriter(), RunWriter()
    for place, (outcome, white_elo, black_elo, speed, date) in enumerate(games):
        one_by_one.add_game(7 + place, "chess", outcome, white_elo, black_elo, speed, date)
        one_by_one.add_packed_positions(7 + place, np.array([place, 100 + place], dtype=np.int64),
                                        np.array([1, ENDED], dtype=np.int16))
    outcomes, white_elos, black_elos, speeds, dates = (list(column) for column in zip(*games))
    at_once.add_games(range(7, 7 + len(games)), "chess", outcomes, white_elos, black_elos, speeds, dates)
    for place in range(len(games)):
        at_once.add_packed_positions(7 + place, np.array([place, 100 + place], dtype=np.int64),
                                     np.array([1, ENDED], dtype=np.int16))
    expected, found = one_by_one.columns(), at_once.columns()
    assert expected.keys() == found.keys()
    for name, values in expected.items():
        assert values.dtype == found[name].dtype, name
        assert values.tolist() == found[name].tolist(), name


_KEY = st.integers(INT64_MIN, INT64_MAX)


@settings(max_examples=200, deadline=None)
@given(st.lists(_KEY, min_size=1, max_size=6), st.lists(st.lists(st.integers(0, 5), max_size=40), max_size=12),
       st.lists(_KEY, max_size=40))
def test_the_compiled_sort_of_a_chunks_positions_keeps_each_games_first_visits_as_numpy_does(pool, games, loose) -> None:
    # Keys drawn from a small pool (positions many games reach, again and again) and any keys.
    assert position_index._first_visits is not None, "reviewer/core/database/_first_visits.c was not built"
    keys = np.array([pool[choice % len(pool)] for game in games for choice in game] + loose, dtype=np.int64)
    per_game = np.array([len(game) for game in games] + ([len(loose)] if loose else []), dtype=np.int64)
    compiled = position_index.sorted_first_visits(keys, per_game)
    module, position_index._first_visits = position_index._first_visits, None
    try:
        plain = position_index.sorted_first_visits(keys, per_game)
    finally:
        position_index._first_visits = module
    assert compiled[0].tolist() == plain[0].tolist()
    assert compiled[1].tolist() == plain[1].tolist()
    visits = [(int(keys[row]), int(game)) for row, game in zip(*compiled)]
    assert visits == sorted(set(visits))


def test_the_compiled_sort_refuses_counts_that_do_not_add_up_to_the_keys() -> None:
    assert position_index._first_visits is not None
    with pytest.raises(ValueError, match="do not add up"):
        position_index.sorted_first_visits(np.arange(5, dtype=np.int64), np.array([2, 2], dtype=np.int64))
