"""The database's fast path (a record straight from a PGN's movetext, comments and NAGs passed
over) against its full reader (python-chess's whole game): the same record wherever the fast path
reads a game, and every game the full reader skips refused by the fast path, on every game of the
corpus, on commented (clock) games and on master games; and an import of odd SAN spellings and
broken moves stores what the full reader stores and skips what it skips, with its reasons."""

from __future__ import annotations

from dataclasses import asdict

import chess
import numpy as np
import pytest
from support import CORPUS_DIR, SHARED_DIR, first_games

from reviewer.core.database import GameDatabase, import_paths
from reviewer.core.database import chess as chess_records
from reviewer.core.database.records import GameRecord, SkippedGame, fingerprint_of, fingerprint_of_bytes
from reviewer.core.formats import open_collection
from reviewer.core.formats.pgn import PgnCollection, fill_fields_from_headers, parse_tags
from reviewer.core.gametree import Game

BIGSETS = SHARED_DIR / "bigsets"


def _full(collection: PgnCollection, index: int) -> GameRecord | str:
    try:
        return chess_records.chess_record_from_game(collection.game(index))
    except SkippedGame as error:
        return f"skipped: {error}"


def _compare(collection: PgnCollection, where: str) -> tuple[int, int]:
    """(games the fast path read, of them games with comments) of one file."""
    read = commented = 0
    for index in range(len(collection)):
        fast = chess_records.record_from_collection(collection, index)
        if fast is None:
            continue
        full = _full(collection, index)
        assert isinstance(full, GameRecord), f"{where} game {index + 1}: the fast path stores a game the full reader {full}"
        assert asdict(fast) == asdict(full), f"{where} game {index + 1}"
        read += 1
        commented += "{" in collection.movetext(index)
    return read, commented


def test_every_corpus_game_the_fast_path_reads_is_the_full_readers_record():
    folder = CORPUS_DIR / "pgn"
    if not folder.is_dir():
        pytest.skip(f"the shared corpus is not at {folder}")
    read = commented = 0
    for path in sorted(folder.iterdir()):
        try:
            collection = open_collection(path)
        except Exception:  # files the database names as unreadable
            continue
        if isinstance(collection, PgnCollection):
            file_read, file_commented = _compare(collection, path.name)
            read, commented = read + file_read, commented + file_commented
    assert read > 500 and commented > 50


@pytest.mark.parametrize(("name", "count"), [("chess-longtail.pgn.xz", 3000), ("chess-pgnmentor-players.pgn.xz", 1500)])
def test_bigset_games_the_fast_path_reads_are_the_full_readers_records(tmp_path, name, count):
    source = BIGSETS / name
    if not source.is_file():
        pytest.skip(f"{source} is not there")
    collection = open_collection(first_games(source, count, tmp_path / "games.pgn"))
    assert isinstance(collection, PgnCollection)
    read, commented = _compare(collection, name)
    assert read >= 0.8 * len(collection)
    if name.startswith("chess-longtail"):
        assert commented > 300  # clock and evaluation comments read on the fast path


def test_the_fields_read_from_the_tags_are_those_of_the_full_reader():
    for headers in ({}, {"White": " ? ", "Black": "Tal", "WhiteElo": "0", "BlackElo": "2700", "Result": "1-0",
                         "Event": "??", "UTCDate": "2020.01.02"},
                    {"Date": "1999.??.??", "WhiteElo": "-", "Result": "+--"}, {"Result": "garbage"}):
        game = Game(kind="chess")
        fill_fields_from_headers(game, headers)
        fields = chess_records._HeaderFields.of_headers(headers)
        assert fields == chess_records._HeaderFields.of_game(game), headers


def test_the_compiled_fingerprint_is_records_fingerprint():
    lines = chess_records._chess_lines
    if lines is None:
        pytest.skip("the compiled reader was not built")
    for headers in ({}, {"White": "Müller", "Event": "Ölympiad ♞", "Round": "1.2"}, {"b": "x", "a": "y", "B": ""}):
        data = lines.fingerprint_input("chess", headers, "", "e2e4 e7e5")
        assert data is not None
        assert fingerprint_of_bytes(data) == fingerprint_of("chess", headers, "", "e2e4 e7e5")
    assert lines.fingerprint_input("chess", {"White": "\udcff"}, "", "") is None  # records.py encodes it


_TAGS = '[Event "odd spellings"]\n[White "A"]\n[Black "B"]\n[Result "{result}"]\n\n'
_ODD_GAMES = [
    # castling written with zeros, promotion without `=`, a capture without `x`, missing and stray check signs
    ("1-0", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. 0-0 Be7 5. d4 exd4 6. e5 Ne4 7. Bd5 Nc5 8. Nd4 O-O 9. Nf5 d6 10. Qg4 Bf5 1-0"),
    ("1-0", "1. h4 g5 2. hxg5 h6 3. gxh6 Nf6 4. h7 Ng8 5. hg8Q Rxg8 6. Rh7 Rh8 7. Rxh8 a6 8. Rxf8# 1-0"),
    ("1-0", "1. e4 {[%clk 0:03:00]} e5 {[%clk 0:03:00]} 2. Qh5 $1 Nc6 3. Bc4 Nf6?? 4. Qxf7 1-0"),
    ("0-1", "1. f3 e5 2. g4 Qh4+ 0-1"),
    ("0-1", "1. f3 e5 2. g4 Qh4 0-1"),  # the game before without its check sign: the same game, stored once
    ("1-0", "1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8=Q Nb6 6. Qxb8+ 1-0"),
    ("*", "1. e4 e6 2. e5 d5 3. exd6 { en passant } cxd6 4. d4 Ne7 5. Nf3 Nd5 6. c4 Nc7+ *"),
    ("1/2-1/2", "1. d4 {a comment (with brackets) and 100% sure; and more} d5 2. c4 e6 1/2-1/2"),
    # broken: an illegal move, an ambiguous one, a move to a square no piece reaches; then a comment
    # never closed (the full reader keeps the moves before it)
    ("*", "1. e4 e5 2. Ke3 *"),
    ("*", "1. Nf3 d5 2. d4 e6 3. Nd2 *"),
    ("*", "1. e4 e5 2. Qh6 *"),
    ("*", "1. e4 {never closed e5 2. Nf3 *"),
]


def test_an_import_of_odd_spellings_stores_and_skips_as_the_full_reader_does(tmp_path, monkeypatch):
    source = tmp_path / "odd.pgn"
    source.write_text("".join(_TAGS.format(result=result) + text + "\n\n" for result, text in _ODD_GAMES))
    collection = open_collection(source)
    assert isinstance(collection, PgnCollection)
    expected = [_full(collection, index) for index in range(len(collection))]
    assert [isinstance(record, str) for record in expected] == [False] * 8 + [True] * 3 + [False]
    fast = [chess_records.record_from_collection(collection, index) for index in range(len(collection))]
    assert fast[0] is None  # `0-0`: the full reader reads it
    assert fast[1] is not None and fast[2] is not None and fast[-1] is None and fast[8:11] == [None] * 3
    results = []
    for name in ("fast", "full"):
        if name == "full":  # the full reader only
            monkeypatch.setattr("reviewer.core.database.importer._fast_readers", list)
            monkeypatch.setattr("reviewer.core.database.importer._fast_chunk_readers", list)
        with GameDatabase(tmp_path / f"{name}.sqlite") as database:
            report = import_paths(database, [source])
            connection = database.connection
            results.append((
                connection.execute("SELECT source_index, fingerprint, plies, moves, result FROM games ORDER BY id").fetchall(),
                connection.execute("SELECT source_index, reason FROM skipped ORDER BY source_index").fetchall(),
                sorted(row for run in database.positions.runs()
                       for row in zip(*(run.columns[column].tolist() for column in ("keys", "games", "plies", "moves")))),
                [(number, reason) for _file, number, reason in report.skipped],
            ))
    assert results[0] == results[1]
    stored, skipped = results[0][0], results[0][1]
    assert [index for index, *_ in stored] == [0, 1, 2, 3, 5, 6, 7, 11]
    assert [index for index, _reason in skipped] == [8, 9, 10]
    assert all("move" in reason for _index, reason in skipped)
    moves = {index: text for index, _fingerprint, _plies, text, _result in stored}
    # the moves as python-chess writes them: signs added where the move checks or mates, dropped where it does not
    assert moves[0].split()[6] == "O-O" and moves[0].split()[14] == "Nxd4" and moves[1].split()[8] == "hxg8=Q"
    assert moves[1].endswith("Rxf8+") and moves[2].endswith("Qxf7#") and moves[3].endswith("Qh4#")
    assert moves[5].endswith("bxa8=Q Nb6 Qb8") and moves[6].split()[4] == "exd6" and moves[6].endswith("Nc7")
    board = chess.Board()
    for san in moves[5].split():
        board.push_san(san)
    assert not board.is_check()


def test_plain_tag_lines_read_in_c_as_parse_tags_reads_them(tmp_path):
    lines = chess_records._chess_lines
    if lines is None:
        pytest.skip("the compiled reader was not built")
    texts = ['[Event "x"]\r\n[White "Mü]ller"]\n\n', '[Event ""]\n[Event "2"]\n', "", '[E1 "\\"]\n \t\n[Round "-"]']
    odd = ['[Event "a" ]', '[ Event "a"]', '[Event "a"b"]', '[E "\udcff"]', '[Event "a"] x', '[_E "a"]', '[Event  "a"]',
           '[Event "a\n b"]', '%x\n[Event "a"]']
    for text in texts:
        assert lines.plain_tags(text) == parse_tags(text), text
    for text in odd:
        assert lines.plain_tags(text) is None, text
    longtail = BIGSETS / "chess-longtail.pgn.xz"
    if not longtail.is_file() or not (CORPUS_DIR / "pgn").is_dir():
        pytest.skip("the corpus or the big sets are not there")
    plain = 0
    for path in [*sorted((CORPUS_DIR / "pgn").glob("*.pgn")), first_games(longtail, 3000, tmp_path / "l.pgn")]:
        try:
            collection = open_collection(path)
        except Exception:  # files the database names as unreadable
            continue
        if isinstance(collection, PgnCollection):
            for index in range(len(collection)):
                tags = lines.plain_tags(collection._header_text(index))
                if tags is not None:
                    plain += 1
                    assert list(tags.items()) == list(collection.headers(index).items()), f"{path.name} game {index + 1}"
    assert plain > 3000


def test_the_runs_order_of_rows_is_a_stable_sort_of_their_keys():
    from reviewer.core.database.position_index import _stable_order

    rng = np.random.default_rng(7)
    for size, distinct in ((0, 1), (1, 1), (50, 3), (10000, 100), (10000, 10**9)):
        keys = rng.integers(0, distinct, size=size, dtype=np.int64)
        assert np.array_equal(_stable_order(keys), np.argsort(keys, kind="stable")), (size, distinct)
