"""The compiled reader of a chunk of a PGN's games (`_chess_lines.plain_games`, through
`chess.plain_chess_games`) against the per-game readers: every game it reads has the row, the
fingerprint and the positions of `record_from_collection`'s record, on the corpus, on longtail and
master games and on odd files (a broken game mid-chunk, a variant, a set-up position, a BOM, CRLF
lines, names beyond ASCII, Latin-1 bytes, a last game without a newline); an import with it
stores, counts and skips what one without it does; its hash is records.fingerprint_of_bytes's."""

from __future__ import annotations

import os

import numpy as np
import pytest
from support import CORPUS_DIR, SHARED_DIR, first_games

from reviewer.core.database import GameDatabase, import_paths
from reviewer.core.database import chess as chess_records
from reviewer.core.database.importer import _fields_of
from reviewer.core.database.records import fingerprint_of_bytes
from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection
from reviewer.core.formats.pgn import PgnCollection

lines = chess_records._chess_lines
pytestmark = pytest.mark.skipif(lines is None, reason="the compiled reader was not built")

BIGSETS = SHARED_DIR / "bigsets"


def _compare_chunks(collection: PgnCollection, where: str, chunk: int = 100) -> tuple[int, list[int]]:
    """(games the chunk reader read, indices it left) of one file, each read game checked."""
    read, left = 0, []
    for first in range(0, len(collection), chunk):
        end = min(len(collection), first + chunk)
        plain = chess_records.plain_chess_games(collection, first, end)
        assert plain is not None
        keys = np.frombuffer(plain.keys, dtype=np.int64)
        moves = np.frombuffer(plain.moves, dtype=np.int16)
        assert sorted([index for index, _fingerprint, _fields in plain.games] + list(plain.left)) == list(range(first, end))
        start = 0
        for index, fingerprint, fields in plain.games:
            record = chess_records.record_from_collection(collection, index)
            assert record is not None and record.packed is not None, f"{where} game {index + 1}: read by the chunk reader only"
            assert (fingerprint, fields) == (record.fingerprint, _fields_of(record)), f"{where} game {index + 1}"
            stop = start + fields[10] + 1
            assert keys[start:stop].tobytes() == record.packed.keys, f"{where} game {index + 1}"
            assert moves[start:stop].tobytes() == record.packed.moves, f"{where} game {index + 1}"
            start = stop
            read += 1
        assert start == len(keys) == len(moves)
        left += sorted(plain.left)
    return read, left


def test_the_compiled_hash_is_the_fingerprints_blake2b():
    for size in (0, 1, 5, 127, 128, 129, 255, 256, 257, 1000, 4096):
        for _ in range(8):
            data = os.urandom(size)
            assert lines.fingerprint_of_input(data) == fingerprint_of_bytes(data), size


_ODD_FILE = (
    "\ufeff[Event \"BOM first\"]\r\n[White \"Müller, Jörg\"]\r\n[Black \"Łukasz ♞\"]\r\n[Result \"1-0\"]\r\n\r\n"
    "1. e4 e5 2. Nf3 Nc6 1-0\r\n\r\n"
    '[Event "CRLF"]\r\n[White "Иванов"]\r\n[Black "李"]\r\n[Result "*"]\r\n\r\n1. d4 d5 2. c4 dxc4 0-1\r\n\r\n'
    '[Event "broken"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n'
    '[Event "a variant"]\n[Variant "Crazyhouse"]\n[Result "*"]\n\n1. e4 e5 *\n\n'
    '[Event "standard named"]\n[Variant "Standard"]\n[Result "*"]\n\n1. e4 e5 *\n\n'
    '[Event "set up"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[Result "*"]\n\n1. e4 *\n\n'
    '[Event "repeated tags"]\n[White "first"]\n[White "second"]\n[Date "2020.01.02"]\n\n1. c4 {comment} e5 $1 1/2-1/2\n\n'
    '[Event "no result tag"]\n[UTCDate "2021.03.04"]\n[TimeControl "180+2"]\n\n1. e4 { [%clk 0:03:00] } c5 0-1\n\n'
    '[Event "escaped"]\n[Result "*"]\n\n1. e4 (1. d4) e5 *\n\n'
    '[Event "no newline at the end"]\n[White "Last"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 0-1'
)


def test_a_chunk_of_odd_games_is_read_as_the_per_game_readers_read_it(tmp_path):
    path = tmp_path / "odd.pgn"
    path.write_bytes(_ODD_FILE.encode() + b"")
    latin = tmp_path / "latin.pgn"  # a name in Latin-1 bytes: the file's own 8-bit text, read game by game
    latin.write_bytes('[Event "x"]\n[White "Müller"]\n[Result "*"]\n\n1. e4 *\n\n[Event "y"]\n\n1. d4 *\n'.encode("latin-1"))
    collection = open_collection(path)
    assert isinstance(collection, PgnCollection) and len(collection) == 10
    for chunk in (1, 3, 10):
        read, left = _compare_chunks(collection, f"odd, chunks of {chunk}", chunk)
        assert read == 5 and left == [2, 3, 4, 5, 8]  # broken, two variant tags, a set-up position, a variation
    plain = chess_records.plain_chess_games(collection, 0, 10)
    assert plain is not None
    rows = {index: fields for index, _fingerprint, fields in plain.games}
    assert rows[0][:2] == ("Müller, Jörg", "Łukasz ♞") and rows[1][:2] == ("Иванов", "李")
    assert rows[1][4] == "0-1" and rows[7][4] == "0-1" and rows[7][6] == "2021.03.04" and rows[7][8] == "blitz"
    assert rows[6][0] == "second" and rows[6][4] == "1/2-1/2" and rows[9][11] == "f3 e5 g4 Qh4#"
    latin_collection = open_collection(latin)
    assert isinstance(latin_collection, PgnCollection)
    read, left = _compare_chunks(latin_collection, "latin-1")
    assert (read, left) == (1, [0])


def test_every_corpus_and_longtail_game_the_chunk_reader_reads_is_the_per_game_record(tmp_path):
    if not (CORPUS_DIR / "pgn").is_dir():
        pytest.skip("the corpus is not there")
    paths = sorted((CORPUS_DIR / "pgn").glob("*.pgn"))
    for name, count in (("chess-longtail.pgn.xz", 3000), ("chess-pgnmentor-players.pgn.xz", 1500)):
        if (BIGSETS / name).is_file():
            paths.append(first_games(BIGSETS / name, count, tmp_path / f"{name}.pgn"))
    read = 0
    for path in paths:
        try:
            collection = open_collection(path)
        except Exception:  # files the database names as unreadable
            continue
        if isinstance(collection, PgnCollection):
            read += _compare_chunks(collection, path.name)[0]
    assert read > 3000


def test_an_import_stores_and_skips_alike_with_the_chunk_reader_or_without(tmp_path, monkeypatch):
    sources = [tmp_path / "odd.pgn"]
    sources[0].write_bytes(_ODD_FILE.encode())
    if (BIGSETS / "chess-longtail.pgn.xz").is_file():
        sources.append(first_games(BIGSETS / "chess-longtail.pgn.xz", 1500, tmp_path / "longtail.pgn"))
    results = []
    for name in ("chunks", "games"):
        if name == "games":
            monkeypatch.setattr("reviewer.core.database.importer._fast_chunk_readers", list)
        with GameDatabase(tmp_path / f"{name}.sqlite") as database:
            report = import_paths(database, sources, chunk_games=7)
            connection = database.connection
            results.append((
                connection.execute("SELECT * FROM games ORDER BY id").fetchall(),
                connection.execute("SELECT source_index, reason FROM skipped ORDER BY source_id, source_index").fetchall(),
                sorted(row for run in database.positions.runs()
                       for row in zip(*(run.columns[column].tolist() for column in ("keys", "games", "plies", "moves")))),
                report.stored, report.duplicates, [(number, reason) for _file, number, reason in report.skipped],
            ))
    assert results[0] == results[1]
    assert results[0][3] > 9 and [number for number, _reason in results[0][5]][:1] == [3]


def test_a_file_cut_short_while_open_is_left_to_each_games_reader(tmp_path):
    path = tmp_path / "games.pgn"
    game = '[Event "x"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n'
    path.write_text(game * 2000)
    collection = open_collection(path)
    assert isinstance(collection, PgnCollection) and len(collection) == 2000
    assert chess_records.plain_chess_games(collection, 1990, 2000) is not None
    path.write_text(game * 10)  # rewritten in place, shorter
    assert chess_records.plain_chess_games(collection, 1990, 2000) is None  # each game's reader names the change
    with pytest.raises(GameFileError, match="changed while open"):
        collection.movetext(1995)
