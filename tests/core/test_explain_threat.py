"""What the opponent threatens: the position with the other side to move, and what its best line wins."""

from __future__ import annotations

import chess

from reviewer.core.analysis import Evaluation
from reviewer.core.explain import threat_of
from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.games import rules_for
from reviewer.core.gametree import Game, Node, point_from_gtp

SIZE = 9


def chess_game(moves: str) -> Game:
    return game_from_pgn_text(f"{moves} *\n")


def go_game(moves: list[str]) -> Game:
    game = Game(kind="go", board_width=SIZE, board_height=SIZE, first_player="black", komi=6.5)
    node = game.root
    color = "black"
    for move in moves:
        node = node.add_child(Node(move=move, color=color, point=point_from_gtp(move, SIZE)))
        color = "white" if color == "black" else "black"
    return game


def last(game: Game) -> Node:
    return game.node_at_ply(game.ply_count)


def test_chess_threat_is_the_position_with_the_other_side_to_move():
    game = chess_game("1. e4 e5 2. Nf3")
    threat = threat_of("chess")
    assert threat is not None
    searched, ply = threat.search(game, last(game))
    board = rules_for("chess").after(searched, searched.node_at_ply(ply))
    assert board.turn == chess.WHITE  # Black is to move in the game; White would move again
    assert board.board_fen() == rules_for("chess").after(game, last(game)).board_fen()
    why = threat.explain(searched, ply, Evaluation(ply=ply, kind="chess", pv=("Nxe5", "Nc6")))
    assert why is not None
    assert why.text == "Threatens Nxe5, winning a pawn."
    assert why.line[0] == "Nxe5" and set(why.focus) == {"f3", "e5"}


def test_chess_threat_of_mate_and_of_nothing():
    game = chess_game("1. e4 e5 2. Bc4 Nc6 3. Qh5")
    threat = threat_of("chess")
    assert threat is not None
    searched, ply = threat.search(game, last(game))
    mate = threat.explain(searched, ply, Evaluation(ply=ply, kind="chess", pv=("Qxf7#",), mate_first=1))
    assert mate is not None and mate.text == "Threatens Qxf7#, with mate in 1."
    quiet = threat.explain(searched, ply, Evaluation(ply=ply, kind="chess", pv=("Nc3",)))
    assert quiet is not None and quiet.text == "White's best move if it were its turn: Nc3."
    assert threat.explain(searched, ply, Evaluation(ply=ply, kind="chess", pv=("Ke3",))) is None  # refused by the rules


def test_a_chess_threat_says_what_it_wins_though_its_line_trades_on_later():
    game = chess_game("1. d4 e6 2. Bg5")  # Black to move: the bishop eyes the queen
    threat = threat_of("chess")
    assert threat is not None
    searched, ply = threat.search(game, last(game))
    for line in (("Bxd8", "Kxd8"), ("Bxd8", "Kxd8", "e4", "d5", "exd5", "exd5"), ("Bxd8", "Kxd8", "Nc3", "Bb4", "a3", "Bxc3+", "bxc3")):
        why = threat.explain(searched, ply, Evaluation(ply=ply, kind="chess", pv=line, score_cp_first=700))
        assert why is not None and why.text == "Threatens Bxd8, winning a queen for a bishop.", line


def test_no_chess_threat_while_in_check():
    game = chess_game("1. e4 f5 2. Qh5+")
    threat = threat_of("chess")
    assert threat is not None and threat.search(game, last(game)) is None


def test_go_threat_is_the_opponent_playing_next():
    # Black's C3 has one liberty left (C2) and Black is to move.
    game = go_game(["C3", "B3", "G7", "C4", "G3", "D3"])
    threat = threat_of("go")
    assert threat is not None
    searched, ply = threat.search(game, last(game))
    assert ply == game.ply_count + 1 and searched.node_at_ply(ply).move == "pass"
    assert game.ply_count == 6  # the game itself is left alone
    why = threat.explain(searched, ply, Evaluation(ply=ply, kind="go", pv=("C2",)))
    assert why is not None and why.motifs == ("capture",)
    assert why.text == "Threatens C2, capturing 1 stone at C3."
    assert why.focus == ("C2", "C3")


def test_go_threat_of_atari_and_of_nothing():
    game = go_game(["C3", "B3", "G7", "C4", "G3"])  # White to move: Black's C3 has two liberties
    threat = threat_of("go")
    assert threat is not None
    searched, ply = threat.search(game, last(game))
    quiet = threat.explain(searched, ply, Evaluation(ply=ply, kind="go", pv=("E5",)))
    assert quiet is not None and quiet.text == "Black's best move if it were its turn: E5." and quiet.motifs == ()
    game = go_game(["C3", "B3", "G7", "C4", "G3", "H3"])  # Black to move; White threatens D3, an atari on C3
    searched, ply = threat.search(game, last(game))
    atari = threat.explain(searched, ply, Evaluation(ply=ply, kind="go", pv=("D3",)))
    assert atari is not None and atari.motifs == ("atari",)
    assert atari.text == "Threatens D3, putting 1 stone at C3 in atari."
