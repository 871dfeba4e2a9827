"""A third game added from the tests alone: Connect Four (tests/games/connect_four.py) registers its
support object, and its file opens, a fake engine reviews it, the report and the export come out,
with nothing in `reviewer/` knowing the game."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from support import fake_engine_command

from reviewer.cli import main
from reviewer.core.analysis import Evaluation
from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection, read_extensions
from reviewer.core.games import GameSupport, game_support, register_game, registered_games, rules_for, unregister_game
from reviewer.core.variations import TreeEditor
from tests.games.connect_four import KIND, SUPPORT

GAME_TEXT = "Black: Alice\nWhite: Bob\nResult: B+\nMoves: d d c a e\n"


@pytest.fixture
def connect_four() -> Iterator[GameSupport]:
    register_game(SUPPORT)
    try:
        yield SUPPORT
    finally:
        unregister_game(KIND)


def test_chess_and_go_are_registered_and_an_unknown_game_is_refused() -> None:
    assert [support.kind for support in registered_games()][:2] == ["chess", "go"]
    assert game_support("go").rules is rules_for("go")
    with pytest.raises(ValueError, match="unknown kind of game: 'connect4'"):
        game_support(KIND)


def test_its_files_open_only_once_it_is_registered(tmp_path, connect_four) -> None:
    path = tmp_path / "club.c4"
    path.write_text(GAME_TEXT)
    game = open_collection(path).game(0)
    assert (game.kind, game.black, game.mainline_moves()) == (KIND, "Alice", ["d", "d", "c", "a", "e"])
    assert ".c4" in read_extensions()  # folders are searched for its files too (batch, rating)
    unregister_game(KIND)
    with pytest.raises(GameFileError, match="unknown file type"):
        open_collection(path)
    assert ".c4" not in read_extensions()


def test_moves_are_played_by_its_rules(connect_four) -> None:
    from tests.games.connect_four import game_from_text

    game = game_from_text("Moves: d")
    editor = TreeEditor(game)
    added = editor.play(game.root.children[0], "D")
    assert (added.node.move, added.node.color) == ("d", "white")
    with pytest.raises(ValueError, match="not a column"):
        editor.play(added.node, "z")


def test_its_values_are_its_first_players_leads(connect_four) -> None:
    support = game_support(KIND)
    black_ahead = Evaluation(ply=2, kind=KIND, score_lead_first=1.5)
    assert support.position_value(black_ahead) == 1.5
    assert (support.mover_value(black_ahead, "black", "black"), support.mover_value(black_ahead, "white", "black")) == (1.5, -1.5)


def test_a_third_game_is_reviewed_reported_and_exported(tmp_path, capsys, connect_four) -> None:
    path = tmp_path / "club.c4"
    path.write_text(GAME_TEXT)
    report_path, exported = tmp_path / "report.json", tmp_path / "reviewed.c4"
    engine = shlex.join(fake_engine_command("fake_connect_four.py"))

    code = main(["analyze", str(path), "--engine-cmd", engine, "--json", str(report_path), "-o", str(exported)])

    assert code == 0, capsys.readouterr().err
    report = json.loads(report_path.read_text())
    assert report["game"]["kind"] == KIND
    assert report["complete"] is True
    moves = {move["ply"]: move for move in report["moves"]}
    assert (moves[1]["move"], moves[1]["best"], moves[1]["is_best"]) == ("d", "d", True)
    assert (moves[4]["move"], moves[4]["color"], moves[4]["best"], moves[4]["is_best"]) == ("a", "white", "d", False)
    assert moves[4]["loss"] > 0 and moves[4]["eval_before_text"].startswith(("B+", "W+", "even"))
    assert report["summary"]["white"]["mean_loss"] > report["summary"]["black"]["mean_loss"]
    text = exported.read_text()
    assert text.startswith(GAME_TEXT) and "Review: a " in text
    assert open_collection(exported).game(0).mainline_moves() == ["d", "d", "c", "a", "e"]
