"""Positions at any node: chess boards and Go stones (captures, setup, rectangular boards)."""

from __future__ import annotations

import chess
import pytest

from reviewer.core.games import forget_positions
from reviewer.core.games.chess import board_after as chess_board_at
from reviewer.core.games.go import GoPosition
from reviewer.core.games.go import position_after as go_position_at
from reviewer.core.gametree import Game, Node, Point, point_from_gtp


def chess_game(sans: list[str], fen: str | None = None, chess960: bool = False) -> Game:
    game = Game(kind="chess", start_fen=fen, chess960=chess960)
    board = chess.Board(fen or chess.STARTING_FEN, chess960=chess960)
    node = game.root
    for san in sans:
        move = board.parse_san(san)
        color = "white" if board.turn == chess.WHITE else "black"
        node = node.add_child(Node(move=san, uci=board.uci(move), color=color))
        board.push(move)
    return game


def go_game(moves: list[str], size: int | tuple[int, int] = 9, **fields) -> Game:
    """moves like ['B D4', 'W E5', 'B pass']; size is N or (width, height)."""
    width, height = (size, size) if isinstance(size, int) else size
    game = Game(kind="go", board_width=width, board_height=height, first_player="black", **fields)
    node = game.root
    for text in moves:
        letter, where = text.split()
        point = point_from_gtp(where, height)
        color = "black" if letter == "B" else "white"
        node = node.add_child(Node(move=where, color=color, point=point))
    return game


def gtp(text: str, height: int = 9) -> Point:
    point = point_from_gtp(text, height)
    assert point is not None
    return point


# ------------------------------------------------------------------------------------- chess


def test_chess_board_at_replays_main_line_and_root():
    game = chess_game(["e4", "e5", "Nf3", "Nc6", "Bb5"])
    assert chess_board_at(game, game.root).fen() == chess.STARTING_FEN
    board = chess_board_at(game, game.node_at_ply(5))
    assert board.piece_at(chess.B5) == chess.Piece.from_symbol("B")
    assert board.turn == chess.BLACK
    assert board.fullmove_number == 3
    assert board.move_stack == [chess.Move.from_uci("f1b5")]  # only the move that led here
    assert chess_board_at(game, game.root).move_stack == []


def test_chess_board_follows_a_variation():
    game = chess_game(["e4", "e5", "Nf3"])
    after_e4 = game.node_at_ply(1)
    variation = after_e4.add_child(Node(move="c5", uci="c7c5", color="black"))
    board = chess_board_at(game, variation)
    assert board.piece_at(chess.C5) == chess.Piece.from_symbol("p")
    assert board.piece_at(chess.E5) is None


def test_chess_board_from_a_fen_and_the_caller_owns_the_result():
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    game = chess_game(["e4", "Kd7", "e5"], fen=fen)
    board = chess_board_at(game, game.node_at_ply(3))
    assert board.piece_at(chess.E5) == chess.Piece.from_symbol("P")
    board.push(chess.Move.from_uci("d7c6"))  # changing it must not leak into the cache
    again = chess_board_at(game, game.node_at_ply(3))
    assert again.piece_at(chess.D7) == chess.Piece.from_symbol("k")


def test_chess_long_game_uses_checkpoints_and_matches_a_fresh_replay():
    sans: list[str] = []
    board = chess.Board()
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"] * 40  # 160 plies, legal forever (no 50-move end in python-chess)
    for san in shuffle:
        board.push_san(san)
        sans.append(san)
    game = chess_game(sans)
    for ply in (160, 3, 77, 78, 159, 0, 8, 16, 160):
        expected = chess.Board()
        for san in sans[:ply]:
            expected.push_san(san)
        board = chess_board_at(game, game.node_at_ply(ply))
        assert board.fen() == expected.fen()
        if ply:
            assert board.peek() == expected.peek()


def test_chess960_castling_from_king_takes_rook_uci():
    fen = "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"
    game = Game(kind="chess", start_fen=fen, chess960=True)
    game.root.add_child(Node(move="O-O", uci="g1h1", color="white"))
    board = chess_board_at(game, game.node_at_ply(1))
    assert board.piece_at(chess.G1) == chess.Piece.from_symbol("K")
    assert board.piece_at(chess.F1) == chess.Piece.from_symbol("R")


def test_illegal_chess_move_is_a_clear_error():
    game = chess_game(["e4"])
    game.node_at_ply(1).add_child(Node(move="e4", uci="e2e4", color="black"))
    with pytest.raises(ValueError, match="not legal"):
        chess_board_at(game, game.node_at_ply(2))


# ---------------------------------------------------------------------------------------- Go


def test_go_root_is_empty_with_black_to_move():
    game = go_game([])
    position = go_position_at(game, game.root)
    assert position == GoPosition(9, 9, frozenset(), frozenset(), 0, 0, None, "black")


def test_go_single_capture_counts_for_the_capturer():
    # White E5 surrounded by black D5, F5, E6 then E4.
    game = go_game(["B D5", "W E5", "B F5", "W A1", "B E6", "W A2", "B E4"])
    position = go_position_at(game, game.node_at_ply(7))
    assert gtp("E5") not in position.white
    assert position.captures_by_black == 1 and position.captures_by_white == 0
    assert position.last_move == gtp("E4")
    assert position.to_move == "white"
    assert position.stone_at(gtp("A1")) == "white"
    # the position before the capture still has the stone
    assert gtp("E5") in go_position_at(game, game.node_at_ply(6)).white


def test_go_group_capture_in_the_corner():
    # Two white stones A1, B1 captured by black A2, B2, C1.
    game = go_game(["W A1", "B A2", "W B1", "B B2", "W J9", "B C1"])
    game.first_player = "white"
    position = go_position_at(game, game.node_at_ply(6))
    assert not ({gtp("A1"), gtp("B1")} & position.white)
    assert position.captures_by_black == 2


def test_go_suicide_removes_own_stones_and_pass_keeps_board():
    game = go_game(["B A2", "W J9", "B B1", "W A1", "B pass"])
    position = go_position_at(game, game.node_at_ply(4))
    assert gtp("A1") not in position.white  # suicide: the stone comes off
    assert position.captures_by_black == 1
    assert position.last_move is None
    after_pass = go_position_at(game, game.node_at_ply(5))
    assert after_pass.black == position.black and after_pass.white == position.white
    assert after_pass.last_move is None and after_pass.to_move == "white"


def test_go_handicap_setup_and_node_setup():
    stones = [gtp("D4", 19), gtp("Q16", 19)]
    game = go_game(["W Q4", "B C3"], size=19, setup_black=stones)
    game.first_player = "white"
    root = go_position_at(game, game.root)
    assert root.black == frozenset(stones) and root.to_move == "white"
    # a node that edits the board: removes D4, adds a white stone at K10
    edit = game.node_at_ply(1)
    edit.setup_empty.append(gtp("D4", 19))
    edit.setup_white.append(gtp("K10", 19))
    position = go_position_at(game, game.node_at_ply(2))
    assert gtp("D4", 19) not in position.black
    assert {gtp("K10", 19), gtp("Q4", 19)} <= position.white
    assert position.to_move == "white"


def test_go_player_property_overrides_who_moves():
    game = go_game([])
    game.root.properties["PL"] = ["W"]
    assert go_position_at(game, game.root).to_move == "white"


def test_go_rectangular_board_capture_on_the_long_edge():
    # 5 wide × 3 high. White at E2 (right edge, middle row) captured by E1, E3, D2.
    game = go_game(["B E1", "W E2", "B E3", "W A1", "B D2"], size=(5, 3))
    position = go_position_at(game, game.node_at_ply(5))
    assert (position.width, position.height) == (5, 3)
    assert gtp("E2", 3) not in position.white
    assert position.captures_by_black == 1
    assert position.black == frozenset({gtp("E1", 3), gtp("E3", 3), gtp("D2", 3)})


def test_go_move_off_a_rectangular_board_is_a_clear_error():
    game = go_game([], size=(5, 3))
    game.root.add_child(Node(move="A5", color="black", point=(4, 0)))
    with pytest.raises(ValueError, match="off a 5x3 board"):
        go_position_at(game, game.node_at_ply(1))


def test_go_cache_is_dropped_by_forget_positions():
    game = go_game(["B D4", "W E5"])
    first = go_position_at(game, game.node_at_ply(2))
    assert go_position_at(game, game.node_at_ply(2)) is first
    game.node_at_ply(1).point = gtp("C3")
    forget_positions(game.node_at_ply(1))
    assert gtp("C3") in go_position_at(game, game.node_at_ply(2)).black


def test_go_variation_does_not_see_main_line_stones():
    game = go_game(["B D4", "W E5", "B F6"])
    variation = game.node_at_ply(1).add_child(Node(move="C3", color="white", point=gtp("C3")))
    go_position_at(game, game.node_at_ply(3))
    position = go_position_at(game, variation)
    assert position.white == frozenset({gtp("C3")})
    assert position.black == frozenset({gtp("D4")})


def test_go_real_game_keeps_count_of_every_stone(corpus_dir):
    from reviewer.core.formats import load_game

    game = load_game(corpus_dir / "sgf" / "katrain__LS_vs_AG_G4_English.sgf")
    played = {"black": len(game.setup_black), "white": len(game.setup_white)}
    for node in game.mainline_nodes():
        if node.color is not None and node.point is not None:
            played[node.color] += 1
        position = go_position_at(game, node)
        assert len(position.black) + position.captures_by_white == played["black"]
        assert len(position.white) + position.captures_by_black == played["white"]
        assert not (position.black & position.white)
    assert position.captures_by_black + position.captures_by_white > 0


def test_chess_real_game_with_variations(corpus_dir):
    from reviewer.core.formats import load_game

    game = load_game(corpus_dir / "pgn" / "chesslib__rav_alternative.pgn")
    nodes = [game.root]
    while nodes:
        node = nodes.pop()
        board = chess_board_at(game, node)
        expected = chess.Board(game.start_fen or chess.STARTING_FEN)
        for step in node.path_from_root():
            expected.push(expected.parse_uci(step.uci))
        assert board.fen() == expected.fen()
        if node.parent is not None:
            assert board.peek() == expected.peek()
        nodes.extend(node.children)
