"""The PGN index on real files: the same games, tags and moves as python-chess where it is right,
and the files that fooled the old index (a `;` inside a comment, UTF-16, a FEN over two lines, a
cut-off file, NUL bytes, mixed encodings), plus its cache and its batches."""

from __future__ import annotations

import io
import os
from pathlib import Path

import chess.pgn
import pytest

from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection, pgn_index_cache
from reviewer.core.formats.pgn import PgnCollection
from reviewer.core.formats.pgn_index import build_index

# Where python-chess lists other games than Reviewer, and why Reviewer is right there.
PYTHON_CHESS_DIFFERS = {
    "chesslib__ep.pgn": "a blank line before the result token starts a phantom game in python-chess",
    "chesslib__err.pgn": "the same",
    "chesslib__z0.pgn": "the same",
    "scalachess_fx__gameWithComments.pgn": "a blank line inside the movetext",
    "pgn-read__crafty06_01.pgn": "e-mail header lines between games become a game of their own",
    "scalachess_fx__fromCrafty.pgn": "blank lines inside Crafty's annotated movetext",
    "scalachess__FWWRC.pgn": "header-only games one after another: python-chess merges them all",
    "scalachess__uzchesscup.pgn": "the same",
}
# Files python-chess cannot read (an unclosed quote, HTML line breaks after the tags, a forum's
# [pgn] wrapper): only the games, and the moves when it found any, are compared.
PYTHON_CHESS_MISREADS_TAGS = {
    "scalachess_fx__unclosedQuote.pgn",
    "scalachess_fx__whiteResignsInMoves.pgn",
    "scalachess_fx__whiteResignsInTags.pgn",
    "scalachess_fx__whiteResignsInTagsAndMoves.pgn",
    "scalachess_fx__stackOverflow.pgn",
    "scalachess_fx__withDelimiters.pgn",
    "scalachess_fx__withDelimitersOnNewLines.pgn",
    *(f"pgn-read__Little_{n:02d}.pgn" for n in range(1, 18)),
}
# Where python-chess reads a move Reviewer does not: the forfeit mark `+--` is no null move.
PYTHON_CHESS_READS_A_MOVE = {"scalachess_fx__blackAbsentResult.pgn"}
NOT_A_GAME_FILE = {"pgn-read__crafty06_02.pgn", "pgn-read__crafty06_03.pgn"}  # HTML newsletters

_CORPUS_PGN = Path(os.environ.get("REVIEWER_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "corpus" / "pgn"
CORPUS_PGNS = sorted(p.name for p in _CORPUS_PGN.glob("*.pgn")) if _CORPUS_PGN.is_dir() else []


def _python_chess_games(data: bytes) -> list[chess.pgn.Game]:
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


def _sans(game: chess.pgn.Game) -> list[str]:
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


@pytest.mark.parametrize("name", [n for n in CORPUS_PGNS if n not in PYTHON_CHESS_DIFFERS and n not in NOT_A_GAME_FILE])
def test_games_tags_and_moves_match_python_chess(corpus_dir, name):
    path = corpus_dir / "pgn" / name
    collection = open_collection(path)
    theirs = _python_chess_games(path.read_bytes())
    assert len(collection) == len(theirs)
    for index in range(len(collection) if name not in PYTHON_CHESS_MISREADS_TAGS else 0):
        ours, their_headers = collection.headers(index), dict(theirs[index].headers)
        # python-chess fills in the roster's missing tags, and Result from the movetext.
        filled_in = {name: value for name, value in their_headers.items() if name not in ours and name != "Result"}
        assert set(filled_in.values()) <= {"?", "????.??.??"}, index
        assert ours == {name: value for name, value in their_headers.items() if name in ours}, index
    for index in sorted({0, len(collection) // 2, len(collection) - 1}):
        their_game = theirs[index]
        if their_game.errors or (not their_game.headers.is_chess960() and their_game.headers.get("Variant", "Standard").lower() not in ("standard", "chess", "normal", "from position")):
            continue  # python-chess gave up on a move or reads another variant: not a reference
        if name in PYTHON_CHESS_READS_A_MOVE:
            continue
        if name in PYTHON_CHESS_MISREADS_TAGS and not their_game.variations:
            continue  # tags it cannot read left it without moves too
        ours = collection.game(index)
        assert ours.mainline_moves() == _sans(their_game), index


@pytest.mark.parametrize("name", sorted(PYTHON_CHESS_DIFFERS))
def test_where_python_chess_differs_each_tag_section_is_one_game(corpus_dir, name):
    data = (corpus_dir / "pgn" / name).read_bytes()
    collection = open_collection(corpus_dir / "pgn" / name)
    # Every game of these files has a Round tag (uzchesscup has Event on its first game only).
    assert len(collection) == data.count(b'[Round "') > 0
    assert len(collection) != len(_python_chess_games(data))


def test_a_semicolon_inside_a_comment_does_not_merge_games(corpus_dir, tmp_path):
    pgn = corpus_dir / "pgn"
    # Annotated games whose comments hold `;` on the same line, followed by other games.
    parts = [
        (pgn / "chesslib__rav_alternative.pgn").read_bytes(),  # 1 game, `; ` inside `{...}`
        (pgn / "mliebelt-pgn-parser__twic-01-232games.pgn").read_bytes(),  # 232 games
        (pgn / "chesslib__rav_alternative.pgn").read_bytes(),
        (pgn / "chesslib__3_events.pgn").read_bytes(),
    ]
    expected = 1 + 232 + 1 + len(open_collection(pgn / "chesslib__3_events.pgn"))
    path = tmp_path / "joined.pgn"
    path.write_bytes(b"\n\n".join(part.strip() for part in parts) + b"\n")
    collection = open_collection(path)
    assert len(collection) == expected
    assert collection.summary(1).white == "Carlsen,M" and collection.summary(233).white == collection.summary(0).white
    assert collection.game(0).mainline_moves() == collection.game(233).mainline_moves()


def test_a_semicolon_inside_a_comment_before_a_tag_like_line():
    data = b'[Event "a"]\n\n1. e4 { see; here } e5 *\n\n[Event "b"]\n\n1. d4 { open;\n[Event "not a tag"]\n} *\n'
    index = build_index(data)
    assert index.columns["event"] == ["a", "b"]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_with_a_bom_opens_with_its_tags_and_moves(corpus_dir, tmp_path, codec):
    source = corpus_dir / "pgn" / "chesslib__Morphy_UTF8.pgn"
    utf8 = open_collection(source)
    path = tmp_path / "morphy16.pgn"
    path.write_bytes("\ufeff".encode(codec) + source.read_bytes().decode("utf-8-sig").encode(codec))
    utf16 = open_collection(path)
    assert utf16.encoding == codec
    assert len(utf16) == len(utf8) > 1
    for index in (0, len(utf8) - 1):
        assert utf16.headers(index) == utf8.headers(index) and utf16.headers(index)
        assert utf16.game(index).mainline_moves() == utf8.game(index).mainline_moves() != []


def test_a_nul_only_file_is_called_binary_not_empty(tmp_path):
    path = tmp_path / "zeros.pgn"
    path.write_bytes(b"\x00" * 4096)
    with pytest.raises(GameFileError, match="NUL bytes") as raised:
        open_collection(path)
    assert "empty" not in str(raised.value)
    empty = tmp_path / "blank.pgn"
    empty.write_bytes(b" \n\n")
    with pytest.raises(GameFileError, match="empty"):
        open_collection(empty)


def test_a_fen_tag_broken_over_two_lines_is_read_with_a_warning(tmp_path):
    path = tmp_path / "fen.pgn"
    path.write_bytes(
        b'[Event "Study"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3\nw - - 0 1"]\n\n1. e4 Kd7 *\n\n[Event "Next"]\n\n1. d4 *\n'
    )
    collection = open_collection(path)
    assert len(collection) == 2
    game = collection.game(0)
    assert game.start_fen == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert game.mainline_moves() == ["e4", "Kd7"]
    assert any("FEN tag is broken over two lines" in warning for warning in game.warnings)


def test_a_cut_off_file_opens_its_last_game_with_a_warning(corpus_dir, tmp_path):
    data = (corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn").read_bytes()
    last_game = data.rfind(b"\n[Event ")
    cut = data.find(b"[%clk", last_game + 3000)  # inside a comment of the last game's movetext
    path = tmp_path / "cut.pgn"
    path.write_bytes(data[:cut])
    collection = open_collection(path)
    whole = open_collection(corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn")
    assert len(collection) == len(whole)
    last = collection.game(len(collection) - 1)
    assert 0 < last.ply_count < whole.game(len(whole) - 1).ply_count
    (warning,) = [w for w in last.warnings if "the rest is missing" in w]
    assert warning.startswith(f"game {len(collection)}: the file ends inside a comment")
    assert collection.game(len(collection) - 2).warnings == []


def test_a_game_with_a_null_move_says_where_analysis_stops(corpus_dir):
    from reviewer.core.review import analysable_ply_count

    game = open_collection(corpus_dir / "pgn" / "chesslib__z0.pgn").game(0)
    assert game.mainline_nodes()[-1].move == "--"
    assert analysable_ply_count(game) == game.ply_count - 1 == 57
    (warning,) = game.warnings
    assert "null move (--) at 29..." in warning and "stops after ply 57" in warning


def test_crlf_bom_escape_lines_and_rest_of_line_comments(tmp_path):
    text = (
        '\ufeff[Event "One"]\r\n[White "Ann"]\r\n\r\n'
        "% [Event \"escaped\"] {\r\n"
        '1. e4 ; a comment { that never closes\r\n'
        "e5 *\r\n\r\n"
        '[Event "Two"]\r\n[White "Bob"]\r\n\r\n1. d4 d5 *\r\n'
    )
    path = tmp_path / "crlf.pgn"
    path.write_bytes(text.encode("utf-8"))
    collection = open_collection(path)
    assert [collection.summary(i).white for i in range(len(collection))] == ["Ann", "Bob"]
    assert collection.game(0).mainline_moves() == ["e4", "e5"]
    assert collection.game(1).mainline_moves() == ["d4", "d5"]


def test_each_game_is_decoded_on_its_own(tmp_path):
    path = tmp_path / "mixed.pgn"
    path.write_bytes(
        '[White "Müller"]\n[Black "Ødegaard"]\n\n1. e4 {très bien} *\n\n'.encode()
        + '[White "René"]\n[Black "Zoë"]\n\n1. d4 {déjà vu} *\n\n'.encode("cp1252")
    )
    collection = open_collection(path)
    assert [(collection.summary(i).white, collection.summary(i).black) for i in range(2)] == [
        ("Müller", "Ødegaard"),
        ("René", "Zoë"),
    ]
    assert collection.game(1).mainline_nodes()[0].comment == "déjà vu"
    assert collection.encoding == "cp1252"


def _big_file(corpus_dir: Path, folder: Path, copies: int = 6) -> Path:
    data = (corpus_dir / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn").read_bytes().strip() + b"\n\n"
    path = folder / "big.pgn"
    path.write_bytes(data * copies)
    return path


def test_the_index_is_cached_and_a_changed_file_is_indexed_again(corpus_dir, tmp_path):
    path = _big_file(corpus_dir, tmp_path)
    assert path.stat().st_size >= pgn_index_cache.MIN_CACHED_BYTES
    first = open_collection(path)
    assert isinstance(first, PgnCollection) and not first.from_cache
    first.wait_until_cached()
    again = open_collection(path)
    assert again.from_cache and len(again) == len(first) == 232 * 6
    assert again.summary(500) == first.summary(500)
    assert again.game(700).mainline_moves() == first.game(700).mainline_moves()

    # Same size and modification time, other bytes at the end: noticed.
    stat = path.stat()
    data = bytearray(path.read_bytes())
    name_at = data.rfind(b'[White "') + len(b'[White "')
    data[name_at] = ord("X") if data[name_at] != ord("X") else ord("Y")
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    changed = open_collection(path)
    assert not changed.from_cache
    assert changed.summary(len(changed) - 1).white[0] == chr(data[name_at])
    changed.wait_until_cached()

    # Appended games: noticed too.
    with path.open("ab") as handle:
        handle.write(b'\n[Event "Appended"]\n[White "New"]\n\n1. e4 *\n')
    grown = open_collection(path)
    assert not grown.from_cache and len(grown) == 232 * 6 + 1 and grown.summary(len(grown) - 1).white == "New"


def test_a_broken_cache_file_is_ignored(corpus_dir, tmp_path):
    path = _big_file(corpus_dir, tmp_path)
    first = open_collection(path)
    first.wait_until_cached()
    key = pgn_index_cache.file_key(path, path.read_bytes())
    cache_file = pgn_index_cache.cache_path(key)
    cache_file.write_bytes(cache_file.read_bytes()[:100])
    again = open_collection(path)
    assert not again.from_cache and len(again) == len(first)


def test_the_index_grows_in_batches_and_ends_as_a_full_scan(corpus_dir, tmp_path):
    path = _big_file(corpus_dir, tmp_path, copies=2)
    whole = open_collection(path)
    partial = open_collection(path, first_games=10)
    assert 10 <= len(partial) < len(whole) and not partial.index_complete
    assert partial.summary(3) == whole.summary(3)
    while not partial.index_more(100):
        pass
    assert len(partial) == len(whole) and partial.index_complete
    assert partial.columns() == whole.columns()
    background = open_collection(path, first_games=10)
    background.index_in_background()
    background.complete_index()  # waits for the thread's batches, then finishes
    assert background.columns() == whole.columns()


@pytest.mark.engine
def test_analyze_stops_at_a_null_move_and_says_where(corpus_dir, tmp_path, capsys):
    import json

    from reviewer import cli

    out = tmp_path / "z0.json"
    code = cli.main(["analyze", str(corpus_dir / "pgn" / "chesslib__z0.pgn"), "--depth", "4", "--no-cache", "-q", "--json", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "null move (--) at 29... --" in err and "stops after ply 57" in err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["complete"] is False
    assert report["evaluated_positions"] == 58  # plies 0..57: every position before the null move


def test_a_file_cut_short_while_open_is_refused_not_read(corpus_dir, tmp_path):
    path = _big_file(corpus_dir, tmp_path, copies=2)
    collection = open_collection(path, first_games=10)
    first_game = collection.game(0).mainline_moves()
    path.write_bytes(path.read_bytes()[:1000])  # rewritten in place, shorter
    with pytest.raises(GameFileError, match="changed while open"):
        collection.game(5)
    collection.complete_index()
    assert collection.index_complete and len(collection) == 10
    assert any("changed while its games were listed" in warning for warning in collection.warnings)
    assert first_game
