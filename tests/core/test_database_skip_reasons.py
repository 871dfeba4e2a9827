"""The reason a game is not stored says what the database did: the game is left out whole, and the
import names the game once."""

from __future__ import annotations

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
