"""The trainer: cards from analysed mistakes, answers judged by the acceptance rules, FSRS scheduling."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta

import chess
import pytest
from support import STOCKFISH_ID, chess_card, go_game_with_a_blunder, scholars_mate

from reviewer.cli import main
from reviewer.core.analysis import Evaluation
from reviewer.core.scoring import assess_game
from reviewer.core.scoring.chess import win_pct
from reviewer.core.services.trainer.cards import cards_from_game, judge_answer, loss_from_evaluation
from reviewer.core.services.trainer.deck import CardFilter, Deck, grade

# ------------------------------------------------------------------------------- cards


def test_a_chess_blunder_becomes_a_card_with_the_good_enough_answers():
    card = chess_card()
    assert (card.kind, card.side, card.played, card.best, card.judgement) == ("chess", "black", "Nf6", "g6", "blunder")
    assert chess.Board(card.position["fen"]).fen() == chess.Board(
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    ).fen()
    assert card.acceptable == ("g6", "Qe7")  # Qe7 loses less than 2 win points against g6
    assert (card.white, card.black, card.ply) == ("Alice", "Bob", 6)


def test_chess_answers_follow_the_retro_rules():
    card = chess_card()
    assert judge_answer(card, "g6").message == "Good, that's the best move."
    assert judge_answer(card, "g7g6").accepted is True  # UCI works the same
    second = judge_answer(card, "Qe7")
    assert second.accepted is True and "g6 was best" in second.message
    assert judge_answer(card, "Nf6").accepted is False  # the game's own move
    unknown = judge_answer(card, "a6")
    assert unknown.accepted is None and "cannot judge" in unknown.message
    costly = judge_answer(card, "a6", evaluate=lambda _card, _move: 35.0)
    assert costly.accepted is False and "(−35.0 win %)" in costly.message
    assert judge_answer(card, "a6", evaluate=lambda _card, _move: 1.0).accepted is True
    illegal = judge_answer(card, "Kd7")
    assert illegal.accepted is False and illegal.move == "" and "not legal" in illegal.message


def test_an_engine_verdict_on_an_unknown_answer_is_measured_against_the_baseline():
    card = chess_card()
    after_a6 = Evaluation(ply=1, kind="chess", engine_id=STOCKFISH_ID, mate_first=1, side_to_move="white")
    assert loss_from_evaluation(card, after_a6) == pytest.approx(card.baseline - win_pct(-1000), abs=1e-3)
    after_g6 = Evaluation(ply=1, kind="chess", engine_id=STOCKFISH_ID, score_cp_first=50, side_to_move="white")
    assert loss_from_evaluation(card, after_g6) == pytest.approx(0.0, abs=1e-6)


def test_a_go_blunder_becomes_a_card_and_answers_are_judged_in_points():
    game, table = go_game_with_a_blunder()
    cards = cards_from_game(game, table, assess_game(game, table))
    assert len(cards) == 1
    card = cards[0]
    assert (card.side, card.played, card.best, card.loss) == ("black", "A1", "G5", 13.0)
    assert card.position["black"] == ["E5"] and card.position["white"] == ["C3"]
    assert card.acceptable == ("G5", "C5")
    assert judge_answer(card, "g5").accepted is True
    assert judge_answer(card, "C5").accepted is True
    refused = judge_answer(card, "D7")
    assert refused.accepted is False and "4.0 points" in refused.message
    occupied = judge_answer(card, "E5")
    assert occupied.accepted is False and "occupied" in occupied.message


def test_no_card_from_an_engine_too_weak_to_label_moves_nor_for_another_player():
    game, table = go_game_with_a_blunder("builtin-go 1 rave seed=0 default-playouts=2000 | visits=50,multipv=1")
    assert cards_from_game(game, table, assess_game(game, table)) == []
    game, table = go_game_with_a_blunder()
    assert cards_from_game(game, table, assess_game(game, table), player="Wei") == []
    assert len(cards_from_game(game, table, assess_game(game, table), player="bai")) == 1


def test_a_mistake_whose_position_was_not_analysed_makes_no_card():
    game, table = scholars_mate()
    del table.by_ply[5]  # the position before the blunder was not analysed
    assert cards_from_game(game, table, assess_game(game, table)) == []


# -------------------------------------------------------------------------------- deck


def test_grades_come_from_correctness_attempts_and_time():
    assert grade(False, 1, 3.0).name == "Again"
    assert grade(True, 3, 3.0).name == "Hard"
    assert grade(True, 1, 4.0).name == "Easy"
    assert grade(True, 1, 40.0).name == "Good"
    assert grade(True, 1, None).name == "Good"


def test_the_deck_keeps_one_card_per_position_and_schedules_with_fsrs(tmp_path):
    now = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
    path = tmp_path / "deck.sqlite"
    card = chess_card()
    with Deck(path) as deck:
        assert deck.add([card, card], now=now) == 1
        assert deck.add([card], now=now) == 0
        assert [d.card.card_id for d in deck.due(now)] == [card.card_id]
        wrong = deck.review(card.card_id, "Nf6", accepted=False, now=now)
        assert wrong.rating == "again" and now < wrong.next_due <= now + timedelta(minutes=10)
        right = deck.review(card.card_id, "g6", accepted=True, seconds=3.0, now=now + timedelta(minutes=10))
        assert right.rating == "easy" and right.next_due >= now + timedelta(days=1)
        assert deck.due(now + timedelta(hours=1)) == []
    with Deck(path) as reopened:  # survives a restart
        assert reopened.get(card.card_id) == card
        progress = reopened.progress(now + timedelta(hours=1))
        assert (progress.cards, progress.due_now, progress.review, progress.reviews_today) == (1, 0, 1, 2)
        assert progress.streak_days == 1


def test_filters_pick_cards_by_kind_side_and_player(tmp_path):
    game, table = go_game_with_a_blunder()
    go_card = cards_from_game(game, table, assess_game(game, table))[0]
    with Deck(tmp_path / "deck.sqlite") as deck:
        deck.add([chess_card(), go_card])
        assert {c.kind for c in deck.cards()} == {"chess", "go"}
        assert [c.kind for c in deck.cards(CardFilter(kind="go"))] == ["go"]
        assert [c.player for c in deck.cards(CardFilter(player="bob"))] == ["Bob"]
        assert deck.cards(CardFilter(side="white")) == []


def test_a_deck_from_a_newer_version_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "deck.sqlite"
    Deck(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE name = 'schema_version'")
    with pytest.raises(RuntimeError, match="newer Reviewer"):
        Deck(path)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta").fetchone() == ("99",)


# --------------------------------------------------------------------------------- CLI


def test_the_command_line_adds_lists_and_answers_cards(tmp_path, capsys):
    from reviewer.core.export import export_game_text

    game, table = scholars_mate()
    pgn = tmp_path / "analysed.pgn"
    pgn.write_text(export_game_text(game, table, with_analysis=True))
    deck = str(tmp_path / "deck.sqlite")

    assert main(["train", "--deck", deck, "--add", str(pgn)]) == 0
    assert "1 new card(s) from 1 analysed game(s)" in capsys.readouterr().out
    assert main(["train", "--deck", deck, "--due", "--json", "-"]) == 0
    due = json.loads(capsys.readouterr().out)
    assert due["schema"] == "reviewer.train.due/1" and len(due["cards"]) == 1
    card_id = due["cards"][0]["card"]
    assert due["cards"][0]["played"] == "Nf6" and due["cards"][0]["side"] == "black"

    assert main(["train", "--deck", deck, "--answer", card_id, "Kd7"]) == 2
    assert "not legal" in capsys.readouterr().err
    assert main(["train", "--deck", deck, "--answer", card_id, "Nf6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("not accepted: Not this one, try again") and "graded again" in out
    assert main(["train", "--deck", deck, "--answer", card_id, "g6", "--attempts", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("accepted: Good, that's the best move.") and "graded hard" in out
    assert main(["train", "--deck", deck, "--answer", "nosuchcard", "g6"]) == 2
    assert main(["train", "--deck", deck, "--stats", "--json", "-"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["cards"] == 1 and stats["reviews_today"] == 2


def test_a_card_whose_game_file_vanished_is_still_trained_and_a_corrupt_file_stops_nothing(tmp_path, capsys):
    from reviewer.core.export import export_game_text

    game, table = scholars_mate()
    pgn = tmp_path / "analysed.pgn"
    pgn.write_text(export_game_text(game, table, with_analysis=True))
    broken = tmp_path / "broken.sgf"
    broken.write_bytes(b"(;GM[1]SZ[19];B[")
    deck = str(tmp_path / "deck.sqlite")
    assert main(["train", "--deck", deck, "--add", str(broken), str(pgn)]) == 0  # the rest is added
    captured = capsys.readouterr()
    assert "broken.sgf" in captured.err and "1 new card(s)" in captured.out
    pgn.unlink()  # the game file is gone: the card carries its position and answers
    assert main(["train", "--deck", deck, "--due", "--json", "-"]) == 0
    card_id = json.loads(capsys.readouterr().out)["cards"][0]["card"]
    assert main(["train", "--deck", deck, "--answer", card_id, "g6"]) == 0
    assert capsys.readouterr().out.startswith("accepted")


@pytest.mark.engine
def test_an_unknown_answer_is_judged_by_real_stockfish(tmp_path, capsys):
    stockfish_path = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if stockfish_path is None:
        pytest.skip("Stockfish is not installed")
    card = chess_card()
    deck = str(tmp_path / "deck.sqlite")
    with Deck(deck) as opened:
        opened.add([card])
    assert main(["train", "--deck", deck, "--answer", card.card_id, "a6", "--engine-cmd", stockfish_path, "--nodes", "20000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("not accepted: Not this one, try again")  # 4.Qxf7# follows


# ------------------------------------------------------------------------- retro (one game)


def test_learn_from_your_mistakes_walks_one_sides_mistakes_and_sums_up():
    from reviewer.core.services.trainer.retro import Retro

    game, table = scholars_mate()
    white = Retro.for_game(game, table, assess_game(game, table), "white")
    assert white.done and white.prompt().startswith("Done. 0 of 0")
    retro = Retro.for_game(game, table, assess_game(game, table), "black")
    assert len(retro.items) == 1 and retro.prompt().startswith("Mistake 1 of 1 (move 3): Nf6 was a blunder.")
    wrong = retro.answer("Nf6")
    assert wrong.accepted is False and retro.current is not None and retro.current.attempts == 1
    illegal = retro.answer("Kd7")
    assert illegal.accepted is False and retro.current.attempts == 1  # an illegal move is no attempt
    right = retro.answer("Qe7")
    assert right.accepted is True and retro.done
    summary = retro.summary()
    assert (summary.total, summary.solved_first_try, summary.solved_later, summary.shown) == (1, 0, 1, 0)
    assert summary.text == "1 of 1 found (0 at the first try), 0 shown, 0 skipped"


def test_show_me_and_skip_move_on():
    from reviewer.core.services.trainer.retro import Retro

    game, table = scholars_mate()
    retro = Retro.for_game(game, table, assess_game(game, table), "black")
    assert retro.show_me() == "g6" and retro.done and retro.summary().shown == 1
    retro = Retro.for_game(game, table, assess_game(game, table), "black")
    retro.skip()
    assert retro.summary().skipped == 1 and retro.answer("g6").message == "No mistake left to answer."
