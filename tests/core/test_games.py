"""The rules of each game in one place: playing a user's move, refusing illegal ones with the reason."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards

from reviewer.core.games import IllegalMove, rules_for
from reviewer.core.games.go import GoPosition
from reviewer.core.gametree import Game


def go_game(size: int = 9, rules: str = "chinese") -> Game:
    return Game(kind="go", board_width=size, board_height=size, rules=rules, first_player="black")


def play_all(kind: str, game: Game, moves: list[str]):
    rules = rules_for(kind)  # type: ignore[arg-type]
    position = rules.start(game)
    for move in moves:
        position = rules.play(position, move).position
    return position


# ------------------------------------------------------------------------------------ chess


def test_chess_takes_san_and_uci_and_names_the_move_in_both():
    rules = rules_for("chess")
    played = rules.play(rules.start(Game(kind="chess")), "Nf3")
    assert (played.move, played.machine, played.color) == ("Nf3", "g1f3", "white")
    again = rules.play(played.position, "e7e5")
    assert (again.move, again.machine, again.color) == ("e5", "e7e5", "black")
    assert rules.side_to_move(again.position) == "white"


@pytest.mark.parametrize(
    ("fen", "typed", "reason"),
    [
        (chess.STARTING_FEN, "Nf6", "not legal in this position (white to move)"),
        (chess.STARTING_FEN, "e2e5", "a pawn cannot go from e2 to e5"),
        (chess.STARTING_FEN, "d1d3", "the way from d1 to d3 is blocked"),
        (chess.STARTING_FEN, "e7e5", "it is White's move"),
        (chess.STARTING_FEN, "e1g1", "castling is not possible now"),
        ("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "d2f3", "the knight on d2 is pinned to the king"),
        ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1e2", "the king would be in check on e2"),
        ("4k3/4r3/8/8/8/8/N7/4K3 w - - 0 1", "a2b4", "the king is in check and this move does not stop it"),
        (chess.STARTING_FEN, "hello", "not a move in SAN (Nf3) or UCI (g1f3)"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "it is a promotion: say the piece (e.g. e7e8q)"),
        ("4k3/8/8/8/8/8/8/N3K2N w - - 0 1", "Nf2", None),  # only one knight reaches f2
        ("4k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1", "Nd3", "it is ambiguous: say which piece moves (e.g. Nbd2)"),
    ],
)
def test_chess_refuses_with_a_reason(fen, typed, reason):
    rules = rules_for("chess")
    board = chess.Board(fen)
    if reason is None:
        assert rules.play(board, typed).move == "Nf2"
        return
    with pytest.raises(IllegalMove) as refused:
        rules.play(board, typed)
    assert refused.value.reason == reason


@pytest.mark.parametrize(
    ("fen", "typed", "sentence"),
    [
        (chess.STARTING_FEN, "e2e5", "e2–e5 is not legal: a pawn cannot go from e2 to e5"),
        (chess.STARTING_FEN, "d1d3", "Qd1–d3 is not legal: the way from d1 to d3 is blocked"),
        ("r3k3/8/8/R7/8/8/8/4K3 b - - 0 1", "a8a4", "Ra8–a4 is not legal: the way from a8 to a4 is blocked"),
        (chess.STARTING_FEN, "Nf6", "Nf6 is not legal in this position (white to move)"),
        (chess.STARTING_FEN, "hello", "hello is not a move in SAN (Nf3) or UCI (g1f3)"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "a7–a8 is not legal: it is a promotion: say the piece (e.g. e7e8q)"),
    ],
)
def test_a_refused_chess_move_is_named_as_players_name_moves(fen, typed, sentence):
    with pytest.raises(IllegalMove) as refused:
        rules_for("chess").play(chess.Board(fen), typed)
    assert refused.value.sentence == sentence


@pytest.mark.parametrize(
    ("fen", "typed", "san"),
    [
        (chess.STARTING_FEN, "nf3", "Nf3"),
        (chess.STARTING_FEN, "NF3", "Nf3"),
        ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "bb5", "Bb5"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "o-o", "O-O"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=q", "a8=Q+"),
        ("4k3/1q6/8/8/8/8/8/4K3 b - - 0 1", "qb1+", "Qb1+"),
        ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", "exd5"),
        ("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "bxc3", "bxc3"),  # the b-file pawn, though the bishop could
        ("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "Bxc3", "Bxc3"),
        ("4k3/8/8/8/8/2n5/3B4/4K3 w - - 0 1", "bxc3", "Bxc3"),  # no pawn can: the bishop
    ],
)
def test_chess_reads_san_whatever_its_case_when_it_means_one_move(fen, typed, san):
    assert rules_for("chess").play(chess.Board(fen), typed).move == san


def test_chess_promotion_by_uci_and_san():
    rules = rules_for("chess")
    board = chess.Board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert rules.play(board, "a7a8n").move == "a8=N"
    assert rules.play(board, "a8=Q+").machine == "a7a8q"


def test_chess_position_key_ignores_the_move_order():
    one = play_all("chess", Game(kind="chess"), ["Nf3", "Nf6", "g3"])
    other = play_all("chess", Game(kind="chess"), ["g3", "Nf6", "Nf3"])
    rules = rules_for("chess")
    assert rules.position_key(one) == rules.position_key(other)


# --------------------------------------------------------------------------------------- Go


def test_go_capture_takes_the_stone_off_and_counts_it():
    # White's stone at B2 (row 1, col 1) surrounded by black A2, B1, C2 then B3.
    position = play_all("go", go_game(), ["A2", "B2", "B1", "J9", "C2", "J8", "B3"])
    assert position.stone_at((1, 1)) is None
    assert position.captures_by_black == 1
    assert position.last_move == (2, 1)


def test_go_refuses_an_occupied_point():
    rules = rules_for("go")
    position = play_all("go", go_game(), ["D4"])
    with pytest.raises(IllegalMove) as refused:
        rules.play(position, "D4")
    assert refused.value.reason == "the point is occupied"


def test_go_refuses_suicide_unless_the_rules_allow_a_chains():
    moves = ["A2", "A1", "B2", "J9", "C1"]  # White's A1 has one liberty left, B1
    rules = rules_for("go")
    position = play_all("go", go_game(), moves)
    with pytest.raises(IllegalMove) as refused:
        rules.play(position, "B1")
    assert refused.value.reason.startswith("suicide")
    allowed = play_all("go", go_game(rules="tromp-taylor"), moves)
    after = rules.play(allowed, "B1").position
    assert after.stone_at((0, 0)) is None and after.stone_at((0, 1)) is None
    assert after.captures_by_black == 2  # the chain died at once


def test_go_refuses_a_lone_stones_suicide_under_every_rules():
    moves = ["A2", "J9", "B1", "J8", "H1"]  # black stones around A1; White to move into it
    for rules_name in ("japanese", "tromp-taylor", "NZ"):
        position = play_all("go", go_game(rules=rules_name), moves)
        with pytest.raises(IllegalMove) as refused:
            rules_for("go").play(position, "A1")
        assert refused.value.reason.startswith("suicide")


def test_go_refuses_retaking_a_ko_at_once_and_allows_it_after_a_move_elsewhere():
    rules = rules_for("go")
    position = play_all("go", go_game(), ["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2"])
    assert position.stone_at((1, 2)) is None  # White's B2 took Black's C2
    assert position.ko_point == (1, 2)
    with pytest.raises(IllegalMove) as refused:
        rules.play(position, "C2")
    assert refused.value.reason.startswith("ko")
    later = play_all("go", go_game(), ["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2", "J9", "J8"])
    retaken = rules.play(later, "C2").position
    assert retaken.stone_at((1, 1)) is None and retaken.stone_at((1, 2)) == "black"


def test_go_pass_and_bad_coordinates():
    rules = rules_for("go")
    start = rules.start(go_game())
    passed = rules.play(start, "pass")
    assert (passed.move, passed.machine, passed.position.to_move) == ("pass", "", "white")
    for text in ("Z9", "A10", "I3", ""):
        with pytest.raises(IllegalMove):
            rules.play(start, text)


def test_go_setup_and_first_player_come_from_the_game():
    game = go_game()
    game.setup_black = [(2, 2), (6, 6)]
    game.first_player = "white"
    position = rules_for("go").start(game)
    assert position.black == frozenset({(2, 2), (6, 6)}) and position.to_move == "white"


def _sgfmill_stones(board: boards.Board, size: int) -> tuple[frozenset, frozenset]:
    black = frozenset((r, c) for r in range(size) for c in range(size) if board.get(r, c) == "b")
    white = frozenset((r, c) for r in range(size) for c in range(size) if board.get(r, c) == "w")
    return black, white


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=120))
def test_go_captures_agree_with_sgfmill_on_random_games(points):
    """Every move our rules accept leaves the same stones as sgfmill's board (an independent implementation)."""
    size = 7
    rules = rules_for("go")
    position: GoPosition = rules.start(go_game(size))
    reference = boards.Board(size)
    for row, col in points:
        try:
            played = rules.play(position, "ABCDEFG"[col] + str(row + 1))
        except IllegalMove as refused:
            assert refused.reason in ("the point is occupied", "suicide: the stone would have no liberty") or refused.reason.startswith("ko")
            continue
        reference.play(row, col, "b" if position.to_move == "black" else "w")
        position = played.position
        assert (position.black, position.white) == _sgfmill_stones(reference, size)
