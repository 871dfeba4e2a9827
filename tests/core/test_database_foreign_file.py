"""A path given as the game database that is no game database (a folder, a game file typed in its
place) is said to be so and left as it is: never read as damaged, never moved aside by a rebuild;
a damaged game database (its position index beside it) is still named damaged and rebuilt."""

from __future__ import annotations

import pytest

from reviewer.cli import main
from reviewer.core.database import GameDatabase, import_paths, rebuild_database
from reviewer.core.database.repair import NotAGameDatabase

GAME_TEXT = '[White "Anna"]\n[Black "Bob"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'


@pytest.mark.parametrize("action", [["explore"], ["games"], ["check"], ["rebuild"], ["join-analysis"], ["import", "GAME"]])
def test_a_game_file_given_as_the_database_is_refused_and_left_alone(action, tmp_path, capsys):
    games = tmp_path / "games.pgn"
    games.write_text(GAME_TEXT, encoding="utf-8")
    arguments = ["db", *[str(games) if word == "GAME" else word for word in action], "--db", str(games)]
    assert main(arguments) == 2
    assert f"{games} is not a game database" in capsys.readouterr().err
    assert games.read_text(encoding="utf-8") == GAME_TEXT
    assert sorted(path.name for path in tmp_path.iterdir()) == ["games.pgn"]  # nothing moved, nothing made
    with pytest.raises(NotAGameDatabase):
        rebuild_database(games)
    with pytest.raises(NotAGameDatabase):
        GameDatabase(games)


def test_a_folder_given_as_the_database_is_refused(tmp_path, capsys):
    assert main(["db", "explore", "--db", str(tmp_path)]) == 2
    assert "it is a folder" in capsys.readouterr().err


def test_check_says_when_there_is_no_database(tmp_path, capsys):
    assert main(["db", "check", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "there is no game database at" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


def test_a_game_database_with_its_header_gone_is_still_damaged_and_rebuilt(tmp_path, capsys):
    games = tmp_path / "games.pgn"
    games.write_text(GAME_TEXT, encoding="utf-8")
    database = tmp_path / "games.sqlite"
    with GameDatabase(database) as made:
        import_paths(made, [games])
    with database.open("r+b") as file:
        file.write(bytes(range(256)) * 32)
    assert main(["db", "explore", "--db", str(database)]) == 1
    assert "is damaged" in capsys.readouterr().err
    assert main(["db", "rebuild", "--db", str(database)]) == 0
    with GameDatabase(database) as rebuilt:
        assert rebuilt.game_count() == 1
