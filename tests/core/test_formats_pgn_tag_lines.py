"""PGN tag sections with a broken line, and forfeit results: one game each, on every path.

A line that begins with `[` among the tags but is no tag (`[Round "1"` without its bracket,
`[Site!"x"]`, ...) is skipped with a warning that names it; the tags above it stay with the game.
The same holds for the compiled block scanner and the regular expression it stands in for, for
bytes in memory and for a memory-mapped file, and for `reviewer info`.
"""

from __future__ import annotations

import json

import pytest

from reviewer.core.formats import open_collection, pgn_index, write_pgn
from reviewer.core.formats.pgn import PgnCollection
from reviewer.core.formats.pgn_index import forfeit_result, shown_result

BROKEN_LINES = [
    '[Round "1"',  # no closing bracket
    '[Round "1"  ',  # no closing bracket, trailing blanks
    '[Site!"Town"]',  # no blank between name and value
    "[Site Town]",  # no quotes
    '[ "Town"]',  # no name
    "[Annotator",  # cut off
    '[Round "1"]]]',  # tag then junk: a tag, read
]


def _two_games(broken: str, position: str) -> str:
    tags = ['[Event "Open"]', '[Date "2020.01.01"]', '[White "Alpha, A"]', '[Black "Beta, B"]', '[Result "1-0"]']
    at = {"first": 0, "middle": 2, "last": len(tags)}[position]
    tags.insert(at, broken)
    second = '[Event "Open"]\n[White "Gamma"]\n[Black "Delta"]\n[Result "0-1"]\n\n1. d4 d5 0-1\n'
    return "\n".join(tags) + "\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n" + second


def _collections(data: bytes, tmp_path, monkeypatch) -> list[PgnCollection]:
    path = tmp_path / "games.pgn"
    path.write_bytes(data)
    found = [PgnCollection(None, data), PgnCollection.open_file(path)]
    monkeypatch.setattr(pgn_index, "_pgn_blocks", None)  # the regular expression, not compiled code
    found += [PgnCollection(None, data), PgnCollection.open_file(path)]
    return found


@pytest.mark.parametrize("position", ["first", "middle", "last"])
@pytest.mark.parametrize("broken", BROKEN_LINES)
def test_a_broken_tag_line_is_skipped_and_named_not_a_game_of_its_own(broken, position, tmp_path, monkeypatch):
    data = _two_games(broken, position).encode("utf-8")
    for collection in _collections(data, tmp_path, monkeypatch):
        assert len(collection) == 2
        columns = collection.columns()
        assert columns["white"][:2] == ["Alpha, A", "Gamma"] and columns["result"][:2] == ["1-0", "0-1"]
        game = collection.game(0)
        assert (game.event, game.date, game.white, game.black, game.result) == (
            "Open",
            "2020.01.01",
            "Alpha, A",
            "Beta, B",
            "1-0",
        )
        assert game.mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]
        if broken.endswith("]]]"):
            assert collection.headers(0)["Round"] == "1"
        else:
            assert any(broken.strip() in warning and "skipped" in warning for warning in game.warnings), game.warnings
        assert collection.game(1).mainline_moves() == ["d4", "d5"] and not collection.game(1).warnings


@pytest.mark.parametrize("broken", BROKEN_LINES[:-1])
def test_a_broken_first_tag_line_of_a_later_game_is_named_on_that_game(broken, tmp_path, monkeypatch):
    text = (
        '[Event "A"]\n[White "W1"]\n[Black "B1"]\n[Result "1-0"]\n\n1. e4 { a clock\n[%clk 0:03:00] } e5 1-0\n\n'
        f'{broken}\n[Event "A"]\n[White "W2"]\n[Black "B2"]\n[Result "0-1"]\n\n1. d4 d5 0-1\n'
    )
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 2
        first, second = collection.game(0), collection.game(1)
        assert first.mainline_moves() == ["e4", "e5"] and not first.warnings
        assert (second.white, second.black, second.result) == ("W2", "B2", "0-1")
        assert any(broken.strip() in warning and "skipped" in warning for warning in second.warnings), second.warnings


def test_several_broken_lines_in_one_tag_section_and_header_only_games(tmp_path, monkeypatch):
    text = (
        '[Event "A"]\n[Round "1"\n[White "W1"]\n[Site!"x"]\n[Black "B1"]\n[Result "*"]\n\n'
        '[Event "A"]\n[Round "2"\n[White "W2"]\n[Black "B2"]\n[Result "*"]\n\n'
        '[Event "A"]\n[White "W3"]\n[Black "B3"]\n[Result "*"]\n'
    )
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 3
        assert collection.columns()["white"][:3] == ["W1", "W2", "W3"]
        warnings = collection.game(0).warnings
        assert len(warnings) == 2 and '[Round "1"' in warnings[0] and '[Site!"x"]' in warnings[1]


def test_a_broken_line_in_a_big_file_keeps_the_count(tmp_path, monkeypatch):
    good = '[Event "E"]\n[White "W{n}"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
    bad = '[Event "E"]\n[Round "{n}"\n[White "W{n}"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
    text = "".join((bad if n % 7 == 0 else good).format(n=n) for n in range(500))
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 500
        assert collection.columns()["white"][:500] == [f"W{n}" for n in range(500)]


@pytest.mark.parametrize(
    "written, shown",
    [
        ("(+)-(-)", "1-0 (forfeit)"),
        ("(-)-(+)", "0-1 (forfeit)"),
        ("(-)-(-)", "0-0 (forfeit)"),
        ("(=)-(=)", "1/2-1/2 (forfeit)"),
        ("+--", "1-0 (forfeit)"),
        ("--+", "0-1 (forfeit)"),
        ("+:-", "1-0 (forfeit)"),
        ("-:+", "0-1 (forfeit)"),
        ("+/-", "1-0 (forfeit)"),
        ("(+) - (-)", "1-0 (forfeit)"),
        ("1-0 ff", "1-0 (forfeit)"),
        ("0-1F", "0-1 (forfeit)"),
        ("0-0", "0-0 (forfeit)"),
    ],
)
def test_forfeit_results_are_kept_as_forfeits(written, shown, tmp_path, monkeypatch):
    assert forfeit_result(written) == shown == shown_result(written)
    closing = "*" if written[0].isdigit() else written  # `0-0` in movetext is castling
    text = f'[Event "TWIC"]\n[White "A"]\n[Black "B"]\n[Result "{written}"]\n\n{closing}\n\n[Event "TWIC"]\n[White "C"]\n[Black "D"]\n[Result "1-0"]\n\n1. e4 1-0\n'
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 2
        assert collection.columns()["result"][:2] == [shown, "1-0"]
        game = collection.game(0)
        assert game.result == shown and game.mainline_moves() == [] and not game.warnings
    again = open_collection(tmp_path / "games.pgn").game(0)
    written_back = write_pgn(again)
    assert f'[Result "{written}"]' in written_back  # the tag as written is kept


@pytest.mark.parametrize("value", ["1-0", "0-1", "1/2-1/2", "*", "", "?", "--", "-", "+", "(+)-(+)", "1-0 good"])
def test_other_results_are_no_forfeits(value):
    assert forfeit_result(value) == ""


def test_a_forfeit_with_moves_keeps_its_moves(tmp_path, monkeypatch):
    text = '[White "A"]\n[Black "B"]\n[Result "(+)-(-)"]\n\n1. e4 e5 1-0\n'
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        game = collection.game(0)
        assert game.result == "1-0 (forfeit)" and game.mainline_moves() == ["e4", "e5"]
        assert write_pgn(game).rstrip().endswith("1-0")


def test_reviewer_info_counts_and_names_with_a_broken_tag_line(tmp_path, capsys):
    from reviewer.cli import main

    path = tmp_path / "twic.pgn"
    path.write_text(_two_games('[Round "1"', "middle").replace('[Result "0-1"]', '[Result "(-)-(+)"]'), encoding="utf-8")
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 games" in out and "Alpha, A - Beta, B  1-0" in out and "Gamma - Delta  0-1 (forfeit)" in out
    assert 'warning: game 1: the tag line [Round "1" is not a tag' in out
    assert main(["info", "--json", str(path)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["games_total"] == 2
    assert [g["white"] for g in document["games"]] == ["Alpha, A", "Gamma"]


def test_a_forfeit_is_not_counted_as_a_played_game_by_ratings():
    from reviewer.core.rating.records import parse_chess_result

    assert {parse_chess_result(result) for result in ("1-0 (forfeit)", "0-1 (forfeit)", "0-0 (forfeit)")} == {"unknown"}


def test_movetext_on_the_line_of_a_tag_still_ends_the_game(tmp_path, monkeypatch):
    text = '[Event "A"]\n[White "x"] 1. e4 e5 *\n[Site "B"]\n[Black "y"]\n\n1. d4 *\n'
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 2
        assert collection.headers(1) == {"Site": "B", "Black": "y"}
        assert [collection.game(i).mainline_moves() for i in range(2)] == [["e4", "e5"], ["d4"]]
