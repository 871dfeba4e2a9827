"""Playing out a position against the engine (no Qt): Stockfish set to an Elo, its move in a
set-up position, none where the game is over; Go through the fake KataGo at a number of visits."""

from __future__ import annotations

import shutil

import chess
import pytest
from support import fake_engine_command

from reviewer.core.engines.registry import open_engine
from reviewer.core.games import game_support
from reviewer.core.services.play_out import engine_move, opponent_strength, position_game, prepare_engine


def test_each_game_says_how_strong_its_engine_can_play():
    chess_strength, go_strength = opponent_strength("chess"), opponent_strength("go")
    assert (chess_strength.unit, chess_strength.minimum, chess_strength.maximum) == ("Elo", 1350, 2850)
    assert go_strength.unit == "visits" and go_strength.limit(80).visits == 80


@pytest.mark.skipif(shutil.which("stockfish") is None and shutil.which("/usr/games/stockfish") is None, reason="no Stockfish")
def test_stockfish_at_1500_answers_a_set_up_position():
    setup = game_support("chess").position_setup
    game = setup.game(setup.read("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1"))  # White must take the queen
    engine = open_engine("chess", command=shutil.which("stockfish") or "/usr/games/stockfish")
    try:
        prepare_engine("chess", engine, 1500)
        assert "UCI_Elo=1500" in engine.identity and "UCI_LimitStrength=True" in engine.identity
        assert engine_move(game, game.root, engine, 1500) == "Kxe2"
    finally:
        engine.close()


def test_a_checkmate_leaves_the_engine_nothing_to_play():
    setup = game_support("chess").position_setup
    game = setup.game(setup.read("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"))
    assert chess.Board(game.start_fen).is_checkmate()
    assert position_game(game, game.root) is None


def test_go_is_played_out_at_a_number_of_visits():
    setup = game_support("go").position_setup
    draft = setup.resized(setup.start(None), 9, 9).with_piece((4, 4), "black")
    game = setup.game(type(draft)(9, 9, draft.pieces, "white", draft.choices))
    engine = open_engine("go", command=fake_engine_command("fake_katago.py"))
    try:
        prepare_engine("go", engine, 20)  # nothing to set: the visits are the strength
        move = engine_move(game, game.root, engine, 20)
        assert move is not None
        assert game_support("go").rules.play(game_support("go").rules.start(game), move).color == "white"
    finally:
        engine.close()
