"""The bundled opening table: names by deepest position, book moves by position (transpositions count)."""

from __future__ import annotations

import chess
from test_scoring_games import chess_game

from reviewer.core import openings
from reviewer.resources import resource_path


def epds(sans: str, fen: str | None = None) -> list[str]:
    board = chess.Board(fen) if fen else chess.Board()
    out = [board.epd()]
    for san in sans.split():
        board.push_san(san)
        out.append(board.epd())
    return out


def test_the_table_and_its_licence_are_bundled():
    assert resource_path("openings", "COPYING.txt").is_file()
    assert sorted(p.name for p in resource_path("openings").glob("*.tsv")) == ["a.tsv", "b.tsv", "c.tsv", "d.tsv", "e.tsv"]


def test_index_is_built_once_and_holds_every_line():
    book = openings.book("chess")
    assert openings.book("chess") is book  # cached in memory
    assert chess.Board().epd() in book
    assert len(book.names) > 3000  # 3,807 named lines, each ending in its own position
    assert len(book.positions) > len(book.names)  # the positions on the way count too


def test_deepest_named_position_names_the_opening():
    game = chess_game("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3")
    opening = openings.name_opening(game)
    assert opening is not None
    assert (opening.eco, opening.name, opening.ply) == ("C92", "Ruy Lopez: Closed", 17)
    assert all(openings.book_flags(game))


def test_transposed_move_orders_meet_the_same_book_position():
    # 1. Nf3 d5 2. d4 and 1. d4 d5 2. Nf3 reach one position
    one, other = chess_game("Nf3 d5 d4"), chess_game("d4 d5 Nf3")
    assert openings.name_opening(one) == openings.name_opening(other)
    assert openings.book_flags(one) == openings.book_flags(other) == [True, True, True]


def test_book_ends_for_good_once_a_position_is_not_in_the_table():
    # 1. a3 is book, 1... a6 is not; 2. a4 a5 reaches the position of 1. a4 a5 (in the table),
    # but the game left the book at ply 2, so plies 3 and 4 are not book moves
    flags = openings.book_flags_from_epds(epds("a3 a6 a4 a5"), openings.book("chess"))
    assert flags == [True, False, False, False]
    # ... while the name still comes from the deepest named position (a transposition)
    opening = openings.opening_from_epds(epds("a3 a6 a4 a5"), openings.book("chess"))
    assert opening is not None and opening.ply == 4 and opening.eco == "A00"


def test_a_game_from_another_start_position_has_no_book_moves():
    fen = "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert openings.book_flags(chess_game("e4 e5", fen=fen)) == [False, False]
    assert openings.name_opening(chess_game("e4 e5", fen=fen)) is None


def test_no_moves_no_book():
    assert openings.book_flags(chess_game("")) == []
    assert openings.name_opening(chess_game("")) is None


def test_a_move_that_cannot_be_replayed_ends_the_book():
    assert openings.book_flags_from_epds([chess.Board().epd(), None], openings.book("chess")) == [False]


def test_every_position_is_named_by_the_deepest_line_on_the_way_to_it_variations_too(corpus_dir):
    from reviewer.core.formats import open_collection
    from reviewer.core.gametree import Node
    from reviewer.core.openings import opening_at

    game = open_collection(corpus_dir / "pgn" / "chesslib__Morphy_UTF8.pgn").game(11)  # Morphy – Morphy, Ernest
    assert opening_at(game, game.root) is None
    named = [opening_at(game, game.node_at_ply(ply)) for ply in (1, 5, 7, 20)]
    assert [(found.eco, found.name, found.ply) for found in named if found] == [
        ("B00", "King's Pawn Game", 1),
        ("C50", "Italian Game", 5),
        ("C53", "Italian Game: Classical Variation", 7),
        ("C53", "Italian Game: Classical Variation", 7),  # out of the book: the last name it had
    ]
    gambit = game.node_at_ply(6).add_child(Node(move="b4", uci="b2b4", color="white"))  # 4.b4 instead of 4.c3
    found = opening_at(game, gambit)
    assert found is not None and found.eco == "C51" and found.name.startswith("Italian Game: Evans Gambit")


def test_only_a_game_that_names_a_table_has_one():
    import pytest

    with pytest.raises(ValueError, match="'Go' has no opening table"):
        openings.book("go")
    assert openings.loaded_book("go") is None
