"""Every analysed game feeds the trainer: `reviewer analyze`, `reviewer batch` and `train --add` on
the files a batch reviewed, through one core function that never duplicates a card."""

from __future__ import annotations

import json
import shlex

from support import BOTH_BLUNDER, fake_engine_command, scholars_mate

from reviewer.cli import main
from reviewer.core.services.trainer.deck import Deck
from reviewer.core.services.trainer.harvest import add_game_cards

SCHOLARS_MATE = '[White "Alice"]\n[Black "Bob"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'


def fake_cmd() -> str:
    return shlex.join(fake_engine_command("fake_uci.py"))


def due_cards(capsys, *extra: str) -> list[dict]:
    capsys.readouterr()
    assert main(["train", "--due", "--json", "-", *extra]) == 0
    return json.loads(capsys.readouterr().out)["cards"]


def test_the_same_game_analysed_twice_makes_its_cards_once(tmp_path):
    game, table = scholars_mate()
    deck_path = tmp_path / "deck.sqlite"
    assert add_game_cards(game, table, deck=deck_path) == 1
    assert add_game_cards(game, table, deck=deck_path) == 0
    with Deck(deck_path) as deck:
        (card,) = deck.cards()
    assert (card.played, card.side, card.best) == ("Nf6", "black", "g6")


def test_reviewer_analyze_adds_the_games_mistakes_to_the_trainer(tmp_path, capsys):
    pgn = tmp_path / "game.pgn"
    pgn.write_text(SCHOLARS_MATE)
    assert main(["analyze", str(pgn), "--engine-cmd", fake_cmd(), "--nodes", "100"]) == 0
    assert "1 new training card(s)" in capsys.readouterr().err
    (card,) = due_cards(capsys)
    assert (card["played"], card["side"], card["judgement"]) == ("Nf6", "black", "blunder")
    assert main(["analyze", str(pgn), "--engine-cmd", fake_cmd(), "--nodes", "100"]) == 0
    assert "0 new training card(s)" in capsys.readouterr().err
    assert len(due_cards(capsys)) == 1


def test_no_cards_leaves_the_deck_alone(tmp_path, capsys):
    pgn = tmp_path / "game.pgn"
    pgn.write_text(SCHOLARS_MATE)
    assert main(["analyze", str(pgn), "--engine-cmd", fake_cmd(), "--nodes", "100", "--no-cards", "-q"]) == 0
    assert due_cards(capsys) == []


def test_reviewer_batch_adds_cards_and_train_add_finds_the_batch_analysis_of_its_files(tmp_path, capsys):
    pgn = tmp_path / "games" / "game.pgn"
    pgn.parent.mkdir()
    pgn.write_text(SCHOLARS_MATE)
    store = str(tmp_path / "batch.sqlite")
    assert main(["batch", str(pgn.parent), "--engine-cmd", fake_cmd(), "--nodes", "100", "--store", store]) == 0
    assert "1 new training card(s)" in capsys.readouterr().err
    (card,) = due_cards(capsys)
    assert card["played"] == "Nf6" and card["game"]["path"] == str(pgn)

    other_deck = str(tmp_path / "other.sqlite")  # the game file carries no analysis: the cache has it
    assert main(["train", "--deck", other_deck, "--add", str(pgn)]) == 0
    captured = capsys.readouterr()
    assert "1 new card(s) from 1 analysed game(s)" in captured.out and "carry no analysis" not in captured.err


def test_side_of_player_prefers_the_exact_name_then_the_one_name_that_holds_it():
    from reviewer.core.services.trainer.cards import side_of_player

    assert side_of_player("me", "Me", "Mehmet") == "white"
    assert side_of_player(" ME ", "Mehmet", "Me") == "black"
    assert side_of_player("carlsen", "Carlsen,  Magnus", "Nakamura, Hikaru") == "white"
    assert side_of_player("a", "Anand", "Kasparov") is None  # both names hold it: nobody's
    assert side_of_player("nobody", "Anand", "Kasparov") is None


def test_batch_with_a_player_makes_cards_of_that_players_moves_alone(tmp_path, capsys):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(BOTH_BLUNDER)
    code = main(["batch", str(pgn), "--player", "Me", "--engine-cmd", fake_cmd(), "--nodes", "100",
                 "--store", str(tmp_path / "batch.sqlite")])
    assert code == 0
    err = capsys.readouterr().err
    cards = due_cards(capsys)
    assert len(cards) == 6 and f"{len(cards)} new training card(s) from Me's mistakes" in err
    assert {card["player"] for card in cards} == {"Me"}
    assert {(card["game"]["index"], card["side"]) for card in cards} == {(1, "white"), (2, "black")}


def test_batch_without_a_player_says_the_cards_are_both_players(tmp_path, capsys):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(BOTH_BLUNDER)
    assert main(["batch", str(pgn), "--engine-cmd", fake_cmd(), "--nodes", "100", "--store", str(tmp_path / "b.sqlite")]) == 0
    err = capsys.readouterr().err
    cards = due_cards(capsys)
    assert f"{len(cards)} new training card(s) from both players' mistakes" in err
    assert {card["player"] for card in cards} == {"Me", "Mehmet"}
    capsys.readouterr()
    assert main(["train", "--due"]) == 0
    lines = capsys.readouterr().out.splitlines()[:-1]
    assert all(" Me (" in line or " Mehmet (" in line for line in lines)  # each card names its player


def test_train_add_with_a_player_takes_the_name_held_by_one_side(tmp_path, capsys):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(BOTH_BLUNDER)
    assert main(["batch", str(pgn), "--engine-cmd", fake_cmd(), "--nodes", "100", "--no-cards", "-q",
                 "--store", str(tmp_path / "b.sqlite")]) == 0
    deck = str(tmp_path / "mine.sqlite")
    assert main(["train", "--deck", deck, "--add", str(pgn), "--player", "mehm"]) == 0
    with Deck(deck) as opened:
        players = {card.player for card in opened.cards()}
    assert players == {"Mehmet"}
