"""Every analysed game feeds the trainer: `reviewer analyze`, `reviewer batch` and `train --add` on
the files a batch reviewed, through one core function that never duplicates a card."""

from __future__ import annotations

import json
import shlex

from support import fake_engine_command, scholars_mate

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
