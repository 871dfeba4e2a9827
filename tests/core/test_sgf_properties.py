"""Properties of the SGF reader: any bytes open or give one clear error; writing and reading back
keeps every move and comment.

No deadline (a loaded machine must not fail a test), a bounded input size, and a fixed number of
examples; pytest-timeout catches a hang.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewer.core.errors import GameFileError
from reviewer.core.formats import game_from_sgf_text, open_collection, write_sgf
from reviewer.core.gametree import Game, Node, Point, gtp_from_point

pytestmark = pytest.mark.timeout(600)

SETTINGS = settings(
    deadline=None,
    max_examples=150,
    derandomize=True,  # the same examples on every run: a failure is reproducible, never a fluke
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)

# Pieces of real SGF, and of the ways real files go wrong, for inputs that get past the first checks.
PIECES = [
    "(", ")", ";", "(;", ")(", "GM[1]", "GM[2]", "FF[4]", "SZ[9]", "SZ[19]", "SZ[7:5]", "SZ[52]", "SZ[x]", "SZ[0]",
    "SZ[:]", "KM[6.5]", "KM[375]", "KM[nan]", "KM[1e400]", "KM[]", "HA[2]", "HA[x]", "AP[foxwq]", "RU[Chinese]",
    "CA[UTF-8]", "CA[GB2312]", "CA[nonsense]", "PL[W]", "B[aa]", "W[bb]", "B[]", "W[tt]", "B[zz]", "B[a]", "B[aaa]",
    "AB[aa:cc]", "AW[dd]", "AE[aa]", "AB[cc:aa]", "AB[a:]", "C[a comment]", "C[esc\\]aped]", "C[\\", "C[",
    "PB[黑]", "RE[黑中盘胜]", "RE[B+R]", "DT[2024]", "X[1]", "b[aa]", "Black[cc]", " ", "\n", "[", "]", "\\", "\x00",
    "é", "\u3000", "%",
]


@st.composite
def sgf_like_bytes(draw: st.DrawFn) -> bytes:
    pieces = draw(st.lists(st.sampled_from(PIECES), max_size=60))
    text = "".join(pieces)
    encoding = draw(st.sampled_from(["utf-8", "utf-16", "gb18030", "latin-1"]))
    return text.encode(encoding, errors="replace")


def open_bytes(data: bytes) -> None:
    """Open the bytes as a file, read every game, and write each one back, as the app would."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.sgf"
        path.write_bytes(data)
        try:
            collection = open_collection(path)
        except GameFileError as error:
            message = str(error)
            assert message and "\n" not in message and str(path) in message
            return
        assert len(collection) >= 1
        for warning in collection.warnings:
            assert isinstance(warning, str) and warning
        for game in collection.games():
            assert game.kind == "go"
            write_sgf(game)


@SETTINGS
@given(st.binary(max_size=2000))
def test_any_bytes_open_or_give_one_clear_error(data):
    open_bytes(data)


@SETTINGS
@given(sgf_like_bytes())
def test_sgf_like_text_opens_or_gives_one_clear_error(data):
    open_bytes(data)


# ---------------------------------------------------------------- round trips

COMMENT_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\r") | st.sampled_from("\n]\\[:;()"),
    max_size=40,
).map(lambda text: text.strip())


@st.composite
def go_games(draw: st.DrawFn) -> Game:
    width = draw(st.integers(2, 25))
    height = draw(st.sampled_from([width, draw(st.integers(2, 25))]))
    game = Game(kind="go", board_width=width, board_height=height, first_player="black")
    game.komi = draw(st.sampled_from([None, 0.0, 0.5, 6.5, 7.5, -3.0]))
    game.root.comment = draw(COMMENT_TEXT)
    points = st.tuples(st.integers(0, height - 1), st.integers(0, width - 1))
    node = game.root
    color = "black"
    for _ in range(draw(st.integers(0, 40))):
        point: Point | None = draw(st.one_of(st.none(), points)) if draw(st.booleans()) else draw(points)
        child = Node(move=gtp_from_point(point, height), color=color, point=point, comment=draw(COMMENT_TEXT))
        if draw(st.integers(0, 9)) == 0:  # now and then, a variation beside the main line
            other = draw(points)
            node.add_child(Node(move=gtp_from_point(other, height), color=color, point=other, comment=draw(COMMENT_TEXT)))
            node.children.insert(0, node.children.pop())  # the main line stays first
        node.add_child(child)
        if len(node.children) > 1:
            node.children.insert(0, node.children.pop())
        node = child
        color = "white" if color == "black" else "black"
    return game


def moves_and_comments(game: Game) -> list[tuple]:
    records, stack = [], [game.root]
    while stack:
        node = stack.pop()
        records.append((node.color, node.point, node.comment, len(node.children)))
        stack.extend(reversed(node.children))
    return records


@SETTINGS
@given(go_games())
def test_writing_and_reading_back_keeps_every_move_and_comment(game):
    again = game_from_sgf_text(write_sgf(game))
    assert moves_and_comments(again) == moves_and_comments(game)
    assert (again.board_width, again.board_height, again.komi) == (game.board_width, game.board_height, game.komi)
    # random moves may land on a stone: that damage is flagged (and kept), nothing else is
    assert [w for w in again.warnings if "already holds a stone" not in w] == []
    # and a second round changes nothing more
    assert write_sgf(game_from_sgf_text(write_sgf(again))) == write_sgf(again)
