"""Properties of the PGN reader: any bytes open or fail with GameFileError (never another error,
never a hang), the index agrees with itself however it is built, and games written by python-chess
or by Reviewer read back with every move, comment, NAG and variation."""

from __future__ import annotations

import os
import tempfile

import chess
import chess.pgn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewer.core.errors import GameFileError
from reviewer.core.formats import game_from_pgn_text, open_collection, write_pgn
from reviewer.core.formats.compare import game_differences
from reviewer.core.formats.pgn import PgnCollection
from reviewer.core.formats.pgn_index import _pgn_blocks, tag_blocks

# Pieces real files are made of, and the ones that broke readers: comments holding `;`, `[`, `%`,
# `{`; escape lines; rest-of-line comments; CRLF; BOMs; NULs; 8-bit text; tags split over lines.
PIECES = [
    '[Event "x"]\n', '[White "Ann"]\n', '[Black "Bob"]\r\n', '[Result "1-0"]\n', '[FEN "8/8/8/8/8/8/8/K6k\nw - - 0 1"]\n',
    '[SetUp "1"]\n', '[Event "unclosed]\n', "1. e4 ", "e5 ", "2. Nf3 ", "Nc6 ", "--", " Z0 ", "{ [%eval 0.3] [%clk 0:01:00] } ",
    "{ a; b } ", "{ [Event \"in a comment\"]\n} ", "; rest { of line\n", "\n% escaped {\n", "( 1... c5 2. c3 ) ",
    "(", ")", "$1 ", "1-0", "0-1", "1/2-1/2", "*", "\n", "\n\n", "\r\n", "{", "}", "[", "]", '"', "O-O ",
    "e8=Q ", "\x00", "\ufeff", "é", "\xa0", "<br>", "[pgn]", "[/pgn]", "37.",
]  # fmt: skip
NEVER = {'deadline': None, 'suppress_health_check': [HealthCheck.too_slow]}


def _open_bytes(data: bytes) -> PgnCollection | None:
    """open_collection on a real file (memory map and all); None when it refuses with GameFileError."""
    handle, name = tempfile.mkstemp(suffix=".pgn")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        try:
            collection = open_collection(name)
        except GameFileError as error:
            assert str(error) and "\n" not in str(error)
            return None
        assert isinstance(collection, PgnCollection)
        for index in range(min(len(collection), 4)):
            game = collection.game(index)
            assert all("\n" not in warning for warning in game.warnings)
            collection.summary(index)
        return collection
    finally:
        os.unlink(name)


@settings(max_examples=150, **NEVER)
@given(data=st.binary(max_size=600))
def test_any_bytes_open_or_fail_clearly(data):
    _open_bytes(data)


@settings(max_examples=200, **NEVER)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=40), encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16"]))
def test_pgn_like_text_opens_or_fails_clearly_and_lists_the_same_games_in_batches(pieces, encoding):
    text = "".join(pieces)
    data = text.encode(encoding, errors="replace")
    collection = _open_bytes(data)
    if collection is None:
        return
    whole = PgnCollection(None, data)
    batched = PgnCollection(None, data, first_games=1)
    while not batched.index_more(1):
        pass
    assert batched.columns() == whole.columns() == collection.columns()


_COMMENT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="}\r"), min_size=1, max_size=30
).filter(lambda text: text.strip() == text and text)


# What a block of tag lines is made of, and what ends one or spoils a line of it.
BLOCK_PIECES = [
    "\n", "\r\n", "\r", "[", "]", '"', " ", "\t", '[White "A"]', '[Black "B"]', '[WhiteElo "2700"]', '[Event "E"]',
    '[Date "2024.01.01"]', '[UTCDate "2024.01.02"]', '[Result "1-0"]', '[BlackElo ""]', '[Site "S"]', '[White-X "y"]',
    '[ White "A"]', '[White  "A"]', '[White "A" ]', '[White "A"]x', '[White "a"b"]', "[9 \"", "[_x", "[%eval 1]",
    "1. e4 e5", "{ [Event \"c\"] }", "White", ' "', '"]', "é",
]  # fmt: skip


def test_the_compiled_block_scanner_is_built():
    assert _pgn_blocks is not None, "reviewer/core/formats/_pgn_blocks.c was not built (pip install -e . builds it)"


@settings(max_examples=400, **NEVER)
@given(pieces=st.lists(st.sampled_from(BLOCK_PIECES), max_size=60), position=st.integers(0, 8))
def test_the_compiled_scanner_finds_the_blocks_the_regular_expression_finds(pieces, position):
    data = "".join(pieces).encode("utf-8")
    assert list(tag_blocks(data, position, native=True)) == list(tag_blocks(data, position, native=False))


@st.composite
def games(draw):
    """A python-chess game of legal moves, with comments, NAGs and one-move variations."""
    game = chess.pgn.Game()
    game.headers["White"] = draw(st.sampled_from(["Ann", "Zoë", "O'Neil, J."]))
    node = game
    board = game.board()
    for _ in range(draw(st.integers(0, 30))):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = moves[draw(st.integers(0, len(moves) - 1))]
        if len(moves) > 1 and draw(st.booleans()):
            other = next(m for m in moves if m != move)
            node.add_variation(other, comment=draw(st.one_of(st.just(""), _COMMENT)))
        node = node.add_main_variation(move)
        if draw(st.booleans()):
            node.comment = draw(_COMMENT)
        if draw(st.integers(0, 4)) == 0:
            node.nags.add(draw(st.integers(1, 6)))
        board.push(move)
    return game


def _tree(node: chess.pgn.GameNode) -> list:
    return [(child.san(), child.comment, sorted(child.nags), _tree(child)) for child in node.variations]


def _our_tree(node) -> list:
    return [(child.move, child.comment, sorted(child.nags), _our_tree(child)) for child in node.children]


@settings(max_examples=80, **NEVER)
@given(game=games())
def test_export_then_read_keeps_every_move_comment_nag_and_variation(game):
    text = str(game)
    ours = game_from_pgn_text(text)
    assert _our_tree(ours.root) == _tree(game)
    again = game_from_pgn_text(write_pgn(ours))
    assert game_differences(ours, again) == []
