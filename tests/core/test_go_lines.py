"""The compiled replay of a Go main line (`_go_lines`) against the database's Python one: the same
rows (canonical keys, symmetries, move codes, plies) for real games of every source in the corpus
and the bigsets, and for made-up games full of captures, suicides and odd setups on any board; the
same game skipped for the same reason."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.core.database import go as go_records
from reviewer.core.database.records import SkippedGame
from reviewer.core.formats import open_collection
from reviewer.core.formats.sgf import game_from_raw, plain_main_line, raw_game
from reviewer.core.gametree import Game, Node

BIGSETS = Path(__file__).resolve().parents[3] / "shared" / "bigsets"
SHARED_DIR = BIGSETS.parent


def _both(game: Game) -> tuple[object, object]:
    """(the compiled replay's rows or skip reason, the Python replay's)."""
    assert go_records._go_lines is not None, "reviewer/core/database/_go_lines.c was not built (pip install -e . builds it)"

    def rows() -> object:
        try:
            return go_records.go_positions(game)
        except SkippedGame as skipped:
            return f"skipped: {skipped}"

    compiled = rows()
    module, go_records._go_lines = go_records._go_lines, None
    try:
        plain = rows()
    finally:
        go_records._go_lines = module
    return compiled, plain


def test_every_go_game_of_the_corpus_replays_to_the_same_rows(corpus_dir) -> None:
    files = [path for path in sorted(corpus_dir.rglob("*")) if path.suffix.lower() in (".sgf", ".gib", ".ngf", ".ugf", ".ugi")]
    compared = 0
    for path in files:
        try:
            collection = open_collection(path)
        except Exception:  # an unreadable file is the readers' tests' matter
            continue
        for index in range(len(collection)):
            game = collection.game(index)
            compiled, plain = _both(game)
            assert compiled == plain, f"{path.name} game {index + 1}"
            compared += 1
    assert compared >= 60


def test_real_tygem_games_replay_to_the_same_rows() -> None:
    for number, text in enumerate(_tygem_games(300)):
        compiled, plain = _both(game_from_raw(raw_game(text), number + 1, "go-tygem.sgf"))
        assert compiled == plain, f"game {number + 1}"


def _tygem_games(count: int) -> list[str]:
    """The text of the first `count` games of the bigsets' Tygem set (one a line)."""
    source = BIGSETS / "go-tygem.sgf.xz"
    if not source.is_file():
        pytest.skip(f"the bigsets are not at {BIGSETS}")
    with lzma.open(source, "rt", encoding="utf-8") as lines:
        return [line.strip() for _number, line in zip(range(count), lines)]


_SIZES = st.sampled_from([(2, 2), (3, 3), (5, 5), (9, 9), (4, 7), (7, 3), (19, 19), (1, 6)])


@st.composite
def _games(draw) -> Game:
    width, height = draw(_SIZES)
    point = st.tuples(st.integers(-1, height), st.integers(-1, width))  # off the board now and then
    on_board = st.tuples(st.integers(0, height - 1), st.integers(0, width - 1))
    game = Game(kind="go", board_width=width, board_height=height, first_player=draw(st.sampled_from(["black", "white"])))
    game.setup_black = draw(st.lists(point, max_size=6))  # repeated points and points of both colours too
    game.setup_white = draw(st.lists(point, max_size=6))
    node = game.root
    colour = game.first_player
    for _ in range(draw(st.integers(0, 60))):
        move = draw(st.one_of(on_board, on_board, on_board, st.none(), point))
        colour = draw(st.sampled_from([colour, colour, colour, "white" if colour == "black" else "black"]))
        node = node.add_child(Node(move="pass" if move is None else f"{move}", color=colour, point=move))
        colour = "white" if colour == "black" else "black"
    return game


@settings(max_examples=400, deadline=None)
@given(_games())
def test_made_up_games_replay_to_the_same_rows_or_are_skipped_for_the_same_reason(game) -> None:
    compiled, plain = _both(game)
    assert compiled == plain


def test_a_move_onto_a_stone_skips_the_game_in_both() -> None:
    game = Game(kind="go", board_width=9, board_height=9)
    game.root.add_child(Node(move="C3", color="black", point=(6, 2))).add_child(Node(move="C3", color="white", point=(6, 2)))
    compiled, plain = _both(game)
    assert compiled == plain == "skipped: move 2 (C3) is on a point that holds a stone"


def _record_or_reason(game: Game) -> object:
    try:
        record = go_records.go_record_from_game(game)
    except SkippedGame as skipped:
        return f"skipped: {skipped}"
    return (record.fingerprint, record.white, record.black, record.result, record.outcome, record.date, record.event,
            record.board_size, record.moves_and_plies(), record.positions)


def test_a_go_game_read_for_its_main_line_alone_makes_the_record_of_the_game_read_in_full(corpus_dir) -> None:
    # The database reads a Go game without its variations, comments and marks: its fingerprint
    # (so that a game is stored once, and found again in its file), fields and positions must not change.
    compared = 0
    for path in sorted(corpus_dir.rglob("*")):
        if path.suffix.lower() not in (".sgf", ".gib", ".ngf", ".ugf", ".ugi"):
            continue
        try:
            collection = open_collection(path)
        except Exception:  # an unreadable file is the readers' tests' matter
            continue
        for index in range(len(collection)):
            assert _record_or_reason(collection.main_line(index)) == _record_or_reason(collection.game(index)), \
                f"{path.name} game {index + 1}"
            compared += 1
    assert compared >= 60


def test_a_game_read_for_its_main_line_keeps_no_variation_and_says_where_it_came_from(corpus_dir) -> None:
    path = next(path for path in sorted(corpus_dir.rglob("*.sgf"))
                if any(len(node.children) > 1 for node in _nodes(open_collection(path).game(0))))
    full, main_line = open_collection(path).game(0), open_collection(path).main_line(0)
    assert [node.move for node in main_line.root.mainline()] == [node.move for node in full.root.mainline()]
    assert all(len(node.children) <= 1 for node in _nodes(main_line))
    assert (main_line.source.path, main_line.source.index) == (full.source.path, 0)


def _nodes(game: Game) -> list[Node]:
    found, stack = [], [game.root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children)
    return found


def test_a_plain_games_text_read_straight_makes_the_record_the_tokeniser_makes() -> None:
    for number, text in enumerate(_tygem_games(300)):
        plain = plain_main_line(text)
        assert plain is not None, f"game {number + 1} is plain"
        assert _record_or_reason(game_from_raw(plain, number + 1, "t.sgf", True)) == \
            _record_or_reason(game_from_raw(raw_game(text), number + 1, "t.sgf")), f"game {number + 1}"


@pytest.mark.parametrize("text", [
    "(;GM[1]SZ[9]PB[a \\] b]PW[c\\\\d]C[two\r\nlines\tand a tab]AB[cc][gg];W[ee];B[];W[tt])",
    "(;GM[1]SZ[19]RE[B+R]\n;B[pd]\n;W[dp] ;B[pp])\n",
    "(;GM[1]SZ[13])",
])
def test_plain_games_read_straight_as_the_tokeniser_reads_them(text) -> None:
    plain = plain_main_line(text)
    assert plain is not None
    assert _record_or_reason(game_from_raw(plain, 1, "t.sgf", True)) == _record_or_reason(game_from_raw(raw_game(text), 1, "t.sgf"))
    assert plain.props == raw_game(text).props


@pytest.mark.parametrize("text", [
    "(;GM[1]SZ[9];B[ee]C[a comment];W[cc])",  # another property in a move's node
    "(;GM[1]SZ[9];B[ee](;W[cc])(;W[gg]))",  # a variation
    "(;GM[1]SZ[9]B[ee];W[cc])",  # a move in the root
    "(;GM[1]SZ[9]Comment[x];B[ee])",  # an identifier with lower-case letters
    "(;GM[1]SZ[9];B[ee];W[cc]",  # cut off
    "(GM[1]SZ[9];B[ee])",  # the root's ";" missing
    "(;GM[1]SZ[9];AB[cc];B[ee])",  # a setup node
])
def test_any_other_game_is_left_to_the_tokeniser(text) -> None:
    assert plain_main_line(text) is None
