"""The reason a game is not stored says what the database did: the game is left out whole, and the
import names the game once."""

from __future__ import annotations

import lzma

import pytest

from reviewer.core.database import GameDatabase, import_paths

BROKEN = """[Event "Broken"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Ke3 Nf6 *

[Event "Sound"]
[White "C"]
[Black "D"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""


def test_an_illegal_move_leaves_the_game_out_whole_and_the_reason_says_no_more(tmp_path):
    source = tmp_path / "two.pgn"
    source.write_text(BROKEN, encoding="utf-8")
    database = GameDatabase(tmp_path / "games.sqlite")
    report = import_paths(database, [source])
    assert report.stored == 1
    [(_path, number, reason)] = report.skipped
    assert number == 1
    assert reason == "illegal move 'Ke3' at 3. in the main line"
    assert database.skipped() == [(str(source.resolve()), 1, reason)]


CUT_IN_A_COMMENT = """[Event "Cut short"]
[White "E"]
[Black "F"]
[Result "*"]

1. d4 { [%eval 0.2] } 1... d5 { [%eval 0.1] } 2. c4 { [%eval
[Event "Whole"]
[Site "Here"]
[White "G"]
[Black "H"]
[Result "0-1"]

1. f3 { [%eval -0.5] } 1... e5 2. g4 { a blunder } 2... Qh4# 0-1

[Event "Last"]
[White "I"]
[Black "J"]
[Result "1/2-1/2"]

1. e4 { [%eval 0.3] } 1... c5 1/2-1/2
"""


@pytest.mark.parametrize("name", ["cut.pgn", "cut.pgn.xz"])
def test_a_game_cut_off_inside_a_comment_does_not_swallow_the_next_game(name, tmp_path):
    source = tmp_path / name
    data = CUT_IN_A_COMMENT.encode("utf-8")
    source.write_bytes(lzma.compress(data) if name.endswith(".xz") else data)  # .xz: read as a stream
    with GameDatabase(tmp_path / "games.sqlite") as database:
        report = import_paths(database, [source])
        rows = database.connection.execute("SELECT white, source_index, moves FROM games ORDER BY source_index").fetchall()
    assert [(white, index) for white, index, _moves in rows if white != "E"] == [("G", 1), ("I", 2)]
    assert {white: moves for white, _index, moves in rows}["G"] == "f3 e5 g4 Qh4#"
    assert all(number != 2 for _path, number, _reason in report.skipped)  # the whole game is never named broken
    assert report.stored + len(report.skipped) == 3


def test_tags_quoted_in_a_comment_stay_in_the_comment(tmp_path):
    source = tmp_path / "quoted.pgn"
    source.write_text('[Event "One"]\n[White "K"]\n[Result "1-0"]\n\n1. e4 { as in\n[Event "Other"]\n[Site "There"]\n'
                      "the game went on } 1... e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n", encoding="utf-8")
    with GameDatabase(tmp_path / "games.sqlite") as database:
        report = import_paths(database, [source])
        assert database.connection.execute("SELECT plies FROM games").fetchall() == [(7,)]
    assert report.stored == 1 and not report.skipped
