"""The board editor's rules per game (no Qt): what it refuses and why, notation in and out, and the
game a set-up position opens as, read back by python-chess and sgfmill."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest
from sgfmill import sgf

from reviewer.core.analysis import EvaluationTable
from reviewer.core.export.pgn import export_pgn
from reviewer.core.export.sgf import export_sgf
from reviewer.core.games import game_support
from reviewer.core.games.setup import SetupRefused


@pytest.fixture
def chess_setup():
    return game_support("chess").position_setup


@pytest.fixture
def go_setup():
    return game_support("go").position_setup


def square(name: str) -> tuple[int, int]:
    parsed = chess.parse_square(name)
    return (chess.square_rank(parsed), chess.square_file(parsed))


def test_the_chess_editor_starts_from_the_usual_position_and_writes_its_fen(chess_setup):
    draft = chess_setup.start(None)
    assert chess_setup.text(draft) == chess.STARTING_FEN
    assert chess_setup.problem(draft) is None


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.with_piece(square("e8"), None), "Black has no king"),
        (lambda d: d.with_piece(square("a4"), "k"), "more than one king"),
        (lambda d: d.moved(square("a2"), square("a1")), "first or the last rank"),
        (lambda d: d.with_piece(square("d7"), None).moved(square("d1"), square("a4")), "not to move is in check"),
        (lambda d: d.with_piece(square("h1"), None), "castling right does not fit"),
        (lambda d: d.with_choice("en_passant", "e6"), "en passant square does not fit"),
        (lambda d: d.with_choice("en_passant", "z9"), "is not a square"),
    ],
)
def test_an_illegal_chess_position_is_refused_with_its_reason(chess_setup, change, reason):
    draft = change(chess_setup.start(None))
    problem = chess_setup.problem(draft)
    assert problem is not None and reason in problem
    with pytest.raises(SetupRefused, match=reason):
        chess_setup.game(draft)


def test_a_set_up_chess_position_opens_as_a_game_python_chess_reads_back(chess_setup):
    fen = "4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 30"
    draft = chess_setup.read(fen)
    assert draft.choices["en_passant"] == "d6" and draft.choices["K"] and not draft.choices["q"]
    game = chess_setup.game(draft)
    board = game_support("chess").rules.start(game)
    assert board.fen() == fen and board.has_legal_en_passant()
    played = chess.pgn.read_game(io.StringIO(export_pgn(game, EvaluationTable({}))))
    assert played is not None and played.board().fen() == fen


def test_a_fen_that_does_not_read_says_so(chess_setup):
    with pytest.raises(SetupRefused, match="Not a FEN"):
        chess_setup.read("rnbqkbnr/pppppppp/8 w")


def test_clearing_keeps_the_kings_and_drops_the_castling_rights(chess_setup):
    cleared = chess_setup.cleared(chess_setup.start(None))
    assert sorted(cleared.pieces.values()) == ["K", "k"]
    assert chess_setup.problem(cleared) is None and chess_setup.text(cleared).split()[2] == "-"


def test_a_go_stone_without_a_liberty_is_refused(go_setup):
    draft = go_setup.start(None)
    draft = draft.with_piece((0, 0), "white").with_piece((0, 1), "black").with_piece((1, 0), "black")
    assert go_setup.problem(draft) == "The white stone at A1 has no liberty"
    with pytest.raises(SetupRefused, match="no liberty"):
        go_setup.game(draft)
    assert go_setup.problem(draft.with_piece((0, 1), None)) is None


def test_a_go_position_round_trips_through_its_sgf_and_opens_as_a_game(go_setup):
    draft = go_setup.resized(go_setup.start(None), 9, 9)
    draft = draft.with_piece((6, 2), "black").with_piece((2, 6), "white").with_choice("komi", 5.5)
    draft = type(draft)(draft.width, draft.height, draft.pieces, "white", draft.choices)
    text = go_setup.text(draft)
    assert text == "(;GM[1]FF[4]SZ[9]KM[5.5]PL[W]AB[cc]AW[gg])"
    assert go_setup.read(text) == draft
    game = go_setup.game(draft)
    position = game_support("go").rules.start(game)
    assert position.to_move == "white" and position.black == frozenset({(6, 2)}) and position.width == 9
    root = sgf.Sgf_game.from_bytes(export_sgf(game, EvaluationTable({})).encode()).get_root()
    assert root.get("SZ") == 9 and root.get("KM") == 5.5 and root.get("PL") == "w"
    assert root.get("AB") == {(6, 2)} and root.get("AW") == {(2, 6)}


def test_an_sgf_position_that_does_not_read_says_why(go_setup):
    with pytest.raises(SetupRefused, match="off a 9×9 board"):
        go_setup.read("(;SZ[9]AB[zz])")
    with pytest.raises(SetupRefused, match="starts with"):
        go_setup.read("AB[cc]")
