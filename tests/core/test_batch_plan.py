"""The games of a batch: folders searched, every reader's formats, keys, texts, the player filter."""

from __future__ import annotations

import shutil
from pathlib import Path

from support import REPO_ROOT

from reviewer.core.analysis import Limit
from reviewer.core.cache import position_keys
from reviewer.core.formats import load_game, open_collection
from reviewer.core.services.batch import find_game_files, game_key, plan_batch, plays_in
from reviewer.core.services.batch.task import EngineSettings, GameTask, parse_task_game

DATA = REPO_ROOT / "tests" / "data"


def test_folders_are_searched_recursively_and_each_file_is_taken_once(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    shutil.copy(DATA / "chess_three_games.pgn", tmp_path / "a" / "three.pgn")
    shutil.copy(DATA / "go_9x9_passes.sgf", tmp_path / "a" / "b" / "nine.SGF")
    (tmp_path / "a" / "notes.txt").write_text("not a game")
    (tmp_path / "a" / ".hidden.pgn").write_text("[White \"x\"]\n\n1. e4 *\n")
    files, problems = find_game_files([tmp_path / "a", tmp_path / "a" / "three.pgn", tmp_path / "missing"])
    assert files == [tmp_path / "a" / "b" / "nine.SGF", tmp_path / "a" / "three.pgn"]
    assert problems == [f"{tmp_path / 'missing'}: no such file or folder"]


def test_every_game_of_every_format_is_planned_with_its_text(corpus_dir):
    paths = [
        DATA / "chess_three_games.pgn",
        corpus_dir / "sgf" / "analyze-sgf__t-complex.sgf",  # two games in one SGF
        corpus_dir / "sgf" / "katrain__test.gib",
        corpus_dir / "sgf" / "sabaki__even.ngf",
        corpus_dir / "sgf" / "sabaki__amateur.ugf",
    ]
    plan = plan_batch(paths)
    assert plan.problems == [] and plan.files == 5
    assert [(Path(game.path).name, game.index) for game in plan.games] == [
        ("chess_three_games.pgn", 0), ("chess_three_games.pgn", 1), ("chess_three_games.pgn", 2),
        ("analyze-sgf__t-complex.sgf", 0), ("analyze-sgf__t-complex.sgf", 1),
        ("katrain__test.gib", 0), ("sabaki__even.ngf", 0), ("sabaki__amateur.ugf", 0),
    ]
    formats = [(game.kind, game.text_format, game.source_format) for game in plan.games]
    assert formats[0] == ("chess", "pgn", "pgn")
    assert formats[5:] == [("go", "sgf", "gib"), ("go", "sgf", "ngf"), ("go", "sgf", "ugf")]
    for game in plan.games:
        original = open_collection(game.path).game(game.index)
        task = GameTask(game.key, game.label, game.kind, game.text_format, game.text, game.plies, EngineSettings(), Limit())
        again = parse_task_game(task)  # the text a worker gets is the same game, position by position
        plies = range(original.ply_count + 1)
        assert position_keys(again, plies) == position_keys(original, plies)
        assert (again.white, again.black, again.komi) == (original.white, original.black, original.komi)


def test_the_key_names_the_game_not_the_file(tmp_path):
    shutil.copy(DATA / "chess_three_games.pgn", tmp_path / "copy.pgn")
    game, same = load_game(DATA / "chess_three_games.pgn", 0), load_game(tmp_path / "copy.pgn", 0)
    assert game_key(game) == game_key(same)
    other_players = load_game(DATA / "chess_three_games.pgn", 0)
    other_players.white = "Someone else"
    assert game_key(other_players) != game_key(game)
    plan = plan_batch([DATA / "chess_three_games.pgn", tmp_path / "copy.pgn"])
    assert len(plan.games) == 3  # the copy's games are the same games: reviewed once
    assert plan.duplicates[0] == (f"{tmp_path / 'copy.pgn'}#1", f"{DATA / 'chess_three_games.pgn'}#1")


def test_an_unreadable_file_or_game_is_one_line_and_the_rest_is_planned(tmp_path):
    (tmp_path / "binary.pgn").write_bytes(b"\x00\x01\x02 not a game")
    (tmp_path / "empty.sgf").write_text("")
    bad_fen = '[White "A"]\n[Black "B"]\n[FEN "this is no position"]\n[SetUp "1"]\n\n1. e4 *\n'
    (tmp_path / "bad_start.pgn").write_text(bad_fen + "\n" + (DATA / "chess_fools_mate.pgn").read_text())
    shutil.copy(DATA / "go_9x9_passes.sgf", tmp_path / "fine.sgf")
    plan = plan_batch([tmp_path])
    assert [game.label for game in plan.games] == [f"{tmp_path / 'bad_start.pgn'}#2", f"{tmp_path / 'fine.sgf'}#1"]
    assert len(plan.problems) == 3
    text = "\n".join(plan.problems)
    assert str(tmp_path / "binary.pgn") in text and str(tmp_path / "empty.sgf") in text
    assert f"{tmp_path / 'bad_start.pgn'}#1: its start position" in text


def test_the_player_filter_takes_a_part_of_a_name_in_any_case():
    assert plays_in("carlsen", "Carlsen, Magnus", "Nakamura, Hikaru")
    assert plays_in("MAGNUS  carlsen", "", "Magnus Carlsen")
    assert not plays_in("Carlsen", "Caruana, Fabiano", "Nakamura, Hikaru")
    plan = plan_batch([DATA / "chess_three_games.pgn"], player="b2")
    assert [(game.white, game.black) for game in plan.games] == [("A2", "B2")]
    assert plan.not_played == 2


def test_games_carrying_evaluations_are_marked(corpus_dir):
    plan = plan_batch([corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn", DATA / "chess_three_games.pgn"])
    marked = {Path(game.path).name for game in plan.games if game.carries_evaluations}
    assert marked == {"scalachess__FWWRC_full_eval_clk.pgn"}
