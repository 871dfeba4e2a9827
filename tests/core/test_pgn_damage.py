"""PGN files that are damaged or unusual in ways a reader could miss: each is read right or said.

Games glued together after a result token, charsets other than UTF-8 and Windows-1252, a Result tag
the moves contradict, a file cut off inside a game, and a FEN tag broken over two lines. The lazy
index (compiled scanner and regular expression, bytes and memory-mapped file) and the full reader
agree on the games.
"""

from __future__ import annotations

import io
import re

import chess.pgn
import pytest

from reviewer.core.formats import open_collection, pgn_index
from reviewer.core.formats.pgn import PgnCollection


def _collections(data: bytes, tmp_path, monkeypatch) -> list[PgnCollection]:
    path = tmp_path / "games.pgn"
    path.write_bytes(data)
    found = [PgnCollection(None, data), PgnCollection.open_file(path)]
    monkeypatch.setattr(pgn_index, "_pgn_blocks", None)  # the regular expression, not compiled code
    found += [PgnCollection(None, data), PgnCollection.open_file(path)]
    monkeypatch.undo()
    return found


def _python_chess_games(text: str) -> list[chess.pgn.Game]:
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


# ---------------------------------------------------------------- a result token ends a game

E4_E5, D4_D5, C4_C5 = ["e4", "e5"], ["d4", "d5"], ["c4", "c5"]
GLUED = {
    "no tags at all": ("1. e4 e5 1-0\n\n1. d4 d5 0-1\n", [E4_E5, D4_D5], ["1-0", "0-1"]),
    "tags, then a game without": (
        '[White "A"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n1. d4 d5 0-1\n',
        [E4_E5, D4_D5],
        ["1-0", "0-1"],
    ),
    "on one line": ("1. e4 e5 1-0 1. d4 d5 0-1\n", [E4_E5, D4_D5], ["1-0", "0-1"]),
    "a draw and an unknown result": (
        "1. e4 e5 1/2-1/2\n1. d4 d5 *\n1. c4 c5 1-0\n",
        [E4_E5, D4_D5, C4_C5],
        ["1/2-1/2", "*", "1-0"],
    ),
    "a comment before the second": ("1. e4 e5 1-0\n{ next game } 1. d4 d5 0-1\n", [E4_E5, D4_D5], ["1-0", "0-1"]),
    "only broken tag lines": (
        '[White "A"]\n\n1. e4 e5 1-0\n\n[Whi\n[Black B]\n1. d4 d5 0-1\n',
        [E4_E5, D4_D5],
        ["1-0", "0-1"],
    ),
}


@pytest.mark.parametrize("name", GLUED)
def test_a_game_after_a_result_token_is_a_game_of_its_own(name, tmp_path, monkeypatch):
    text, moves, results = GLUED[name]
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == len(moves), name
        games = [collection.game(index) for index in range(len(collection))]
        assert [game.mainline_moves() for game in games] == moves
        assert [game.result for game in games] == results
        assert [collection.summary(index).result for index in range(len(collection))] == results


def test_python_chess_also_reads_two_games_where_a_blank_line_follows_the_result():
    text = GLUED["no tags at all"][0]
    assert [[move.uci() for move in game.mainline_moves()] for game in _python_chess_games(text)] == [
        ["e2e4", "e7e5"],
        ["d2d4", "d7d5"],
    ]


def test_results_inside_comments_variations_and_escape_lines_end_no_game(tmp_path, monkeypatch):
    text = (
        '[White "A"]\n[Result "1-0"]\n\n1. e4 { after 1-0 1. d4 } e5 (1... c5 0-1 2. Nf3) 2. Nf3 ; 1-0 3. d4\n'
        "%1-0 1. d4\nNc6 1-0\n"
    )
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 1
        assert collection.game(0).mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]


def test_the_compiled_and_the_python_scan_for_results_agree_on_every_corpus_file(corpus_dir):
    for path in sorted((corpus_dir / "pgn").glob("*.pgn")):
        data = path.read_bytes()
        assert pgn_index.texts_after_results(data, 0, len(data)) == pgn_index.texts_after_results(
            data, 0, len(data), native=False
        ), path.name


def test_a_tagless_game_after_any_result_of_a_corpus_file_is_counted(corpus_dir):
    for path in sorted((corpus_dir / "pgn").glob("*.pgn")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        if "crafty06_0" in path.name and "_01" not in path.name:
            continue  # e-mail pages (HTML) without a game
        glued, added = re.subn(r"(\s(?:1-0|0-1|1/2-1/2|\*))(\s*\n\[)", r"\1\n\n1. e4 e5 0-1\2", text, count=3)
        before = PgnCollection(None, text.encode("utf-8"))
        after = PgnCollection(None, glued.encode("utf-8"))
        assert len(after) == len(before) + added, path.name
        tagless = [index for index in range(len(after)) if not after.headers(index)]
        assert len(tagless) >= added, path.name
        for index in tagless[-added:] if added else []:
            assert after.game(index).mainline_moves() == ["e4", "e5"], path.name


def test_open_collection_counts_the_games_of_a_glued_file(tmp_path):
    path = tmp_path / "glued.pgn"
    path.write_text(GLUED["no tags at all"][0], encoding="utf-8")
    assert len(open_collection(path)) == 2
