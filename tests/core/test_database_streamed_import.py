"""A compressed PGN, or a plain one too large to list whole, is imported as a stream of blocks of
whole games: the same games, positions, skips and reasons as the file read whole, in memory
bounded by the block size, resumed where a cut import stopped."""

from __future__ import annotations

import bz2
import importlib
import lzma
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from support import CORPUS_DIR

from reviewer.core.database import GameDatabase, import_paths, importer
from reviewer.core.database.position_index import merge_runs
from reviewer.core.formats import compressed, pgn

# Plain games, comments and clocks, broken games, a game that starts with a BOM file.
SOURCES = ("mliebelt-pgn-parser__twic-01-232games.pgn", "mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn",
           "chesslib__err.pgn", "chesslib__promoting.pgn", "chesslib__longest.pgn")
BLOCK_BYTES = 3000  # smaller than the longest games: such a game makes its block longer


@pytest.fixture
def joined_pgn(tmp_path: Path) -> Path:
    joined = tmp_path / "joined.pgn"
    joined.write_bytes(b"\n\n".join((CORPUS_DIR / "pgn" / name).read_bytes() for name in SOURCES))
    return joined


def _stored(database: GameDatabase) -> tuple[object, ...]:
    games = database.connection.execute("SELECT * FROM games ORDER BY id").fetchall()
    skipped = database.connection.execute("SELECT source_index, reason FROM skipped ORDER BY source_index").fetchall()
    # The positions as one run, however the import cut them into runs
    positions = {name: values.tolist() for name, values in merge_runs(database.positions.runs()).items()}
    read = database.connection.execute("SELECT games_read, complete FROM sources").fetchall()
    return games, skipped, positions, read


def _whole(tmp_path: Path, source: Path) -> tuple[object, ...]:
    with GameDatabase(tmp_path / "whole.sqlite") as database:
        import_paths(database, [source], chunk_games=40, merge_rows=10**9)
        return _stored(database)


def _block_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every PGN text a collection is made of from here on."""
    monkeypatch.setattr(pgn, "STREAM_BLOCK_BYTES", BLOCK_BYTES)
    sizes: list[int] = []
    made = pgn.PgnCollection.__init__

    def sized(self: pgn.PgnCollection, path: str | None, data: bytes, **options: object) -> None:
        sizes.append(len(data))
        made(self, path, data, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(pgn.PgnCollection, "__init__", sized)
    return sizes


@pytest.mark.parametrize("packing", ["xz", "bz2", "plain"])
def test_a_pgn_read_as_a_stream_stores_what_the_file_read_whole_stores(tmp_path, joined_pgn, monkeypatch, packing):
    whole = _whole(tmp_path, joined_pgn)
    if packing == "plain":  # a plain file as large as STREAMED_FILE_BYTES
        streamed_file = joined_pgn
        monkeypatch.setattr(importer, "STREAMED_FILE_BYTES", joined_pgn.stat().st_size)
    else:
        streamed_file = tmp_path / f"joined.pgn.{packing}"
        streamed_file.write_bytes((lzma.compress if packing == "xz" else bz2.compress)(joined_pgn.read_bytes()))
    sizes = _block_sizes(monkeypatch)
    with GameDatabase(tmp_path / "streamed.sqlite") as database:
        report = import_paths(database, [streamed_file], chunk_games=40, merge_rows=10**9)
        assert not report.unreadable
        assert _stored(database) == whole
    longest_game = max(len(game) for game in joined_pgn.read_bytes().split(b"[Event "))
    assert len(sizes) > 20  # many blocks, none much more than a block and the game it ended in
    assert max(sizes) <= 2 * BLOCK_BYTES + longest_game


def test_a_streamed_import_cut_goes_on_where_it_stopped(tmp_path, joined_pgn, monkeypatch):
    whole = _whole(tmp_path, joined_pgn)
    packed = tmp_path / "joined.pgn.xz"
    packed.write_bytes(lzma.compress(joined_pgn.read_bytes()))
    _block_sizes(monkeypatch)
    cancel = threading.Event()
    progress: list[importer.ImportProgress] = []

    def told(step: importer.ImportProgress) -> None:
        progress.append(step)
        if len(progress) == 3:
            cancel.set()

    with GameDatabase(tmp_path / "streamed.sqlite") as database:
        cut = import_paths(database, [packed], chunk_games=40, merge_rows=10**9, progress=told, cancel=cancel)
        assert cut.cancelled and not cut.unreadable
        assert not progress[0].listed_all and progress[0].games_read <= progress[0].games_in_file
        read_before = database.connection.execute("SELECT games_read FROM sources").fetchone()[0]
        assert 0 < read_before < len(whole[0])
        resumed = import_paths(database, [packed], chunk_games=40, merge_rows=10**9)
        assert resumed.resumed == {str(packed): read_before}
        assert _stored(database) == whole
        # The games read before were not read again (each duplicate counted once, by one of the two).
        assert cut.stored + resumed.stored == len(whole[0])
        with GameDatabase(tmp_path / "again.sqlite") as again:
            assert cut.duplicates + resumed.duplicates == import_paths(again, [joined_pgn]).duplicates


def test_a_utf16_pgn_compressed_is_read_whole(tmp_path):
    text = (CORPUS_DIR / "pgn" / "chesslib__promoting.pgn").read_text(encoding="utf-8")
    packed = tmp_path / "wide.pgn.bz2"
    packed.write_bytes(bz2.compress(text.encode("utf-16")))
    with GameDatabase(tmp_path / "a.sqlite") as a, GameDatabase(tmp_path / "b.sqlite") as b:
        wide = import_paths(a, [packed])
        narrow = import_paths(b, [CORPUS_DIR / "pgn" / "chesslib__promoting.pgn"])
        assert not wide.unreadable and wide.stored == narrow.stored > 0


def test_a_compressed_file_that_holds_no_game_is_named(tmp_path):
    packed = tmp_path / "empty.pgn.xz"
    packed.write_bytes(lzma.compress(b"just some words\n" * 5000))
    with GameDatabase(tmp_path / "a.sqlite") as database:
        report = import_paths(database, [packed])
        assert report.stored == 0 and len(report.unreadable) == 1 and "no chess game" in report.unreadable[0]


def test_a_plain_pgn_is_read_while_its_games_are_still_being_listed(tmp_path):
    source = tmp_path / "twic.pgn"  # a copy: no list of its games kept from an earlier reading
    source.write_bytes((CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn").read_bytes())
    progress: list[importer.ImportProgress] = []
    with GameDatabase(tmp_path / "a.sqlite") as database:
        report = import_paths(database, [source], chunk_games=5, progress=progress.append)
        assert report.stored == database.game_count() > 200
    first, last = progress[0], progress[-1]
    assert not first.listed_all and first.games_read == 5 < first.games_in_file < 232
    assert last.listed_all and last.games_read == last.games_in_file == 232


@pytest.mark.skipif(shutil.which("zstd") is None, reason="the zstd program is not installed")
def test_a_zst_pgn_cancelled_while_zstd_still_writes_is_not_called_damaged_and_goes_on(tmp_path, joined_pgn, monkeypatch):
    whole = _whole(tmp_path, joined_pgn)
    packed = tmp_path / "joined.pgn.zst"
    subprocess.run(["zstd", "-q", "-o", str(packed), str(joined_pgn)], check=True)
    monkeypatch.setattr(compressed.importlib, "import_module", _without_zstandard)  # the zstd program's path
    _block_sizes(monkeypatch)
    cancel = threading.Event()
    with GameDatabase(tmp_path / "streamed.sqlite") as database:
        cut = import_paths(database, [packed], chunk_games=40, merge_rows=10**9, cancel=cancel,
                           progress=lambda _step: cancel.set())
        assert cut.cancelled and not cut.unreadable and 0 < cut.stored < len(whole[0])
        rest = import_paths(database, [packed], chunk_games=40, merge_rows=10**9)
        assert not rest.unreadable and rest.resumed
        assert _stored(database) == whole


_import_module = importlib.import_module


def _without_zstandard(name: str) -> object:
    if name == "zstandard":
        raise ImportError(name)
    return _import_module(name)


@pytest.mark.parametrize("packing", ["xz", "zst"])
def test_a_damaged_compressed_pgn_is_named_and_keeps_the_games_read_before_the_damage(tmp_path, joined_pgn, monkeypatch, packing):
    packed = tmp_path / f"joined.pgn.{packing}"
    if packing == "zst":
        if shutil.which("zstd") is None:
            pytest.skip("the zstd program is not installed")
        subprocess.run(["zstd", "-q", "-o", str(packed), str(joined_pgn)], check=True)
        monkeypatch.setattr(compressed.importlib, "import_module", _without_zstandard)
    else:
        packed.write_bytes(lzma.compress(joined_pgn.read_bytes()))
    packed.write_bytes(packed.read_bytes()[: packed.stat().st_size * 2 // 3])  # cut short
    _block_sizes(monkeypatch)
    with GameDatabase(tmp_path / "streamed.sqlite") as database:
        report = import_paths(database, [packed], chunk_games=40)
        assert len(report.unreadable) == 1 and str(packed) in report.unreadable[0]
        assert "decompress" in report.unreadable[0]
        assert report.stored == database.game_count() > 0
        assert database.connection.execute("SELECT complete FROM sources").fetchone()[0] == 0


@pytest.mark.parametrize("packing", ["xz", "plain"])
def test_the_progress_says_how_much_of_the_file_is_read_by_its_bytes(tmp_path, joined_pgn, monkeypatch, packing):
    source = joined_pgn
    if packing == "xz":
        source = tmp_path / "joined.pgn.xz"
        source.write_bytes(lzma.compress(joined_pgn.read_bytes()))
        _block_sizes(monkeypatch)
    steps: list[importer.ImportProgress] = []
    with GameDatabase(tmp_path / "a.sqlite") as database:
        import_paths(database, [source], chunk_games=20, progress=steps.append)
    fractions = [step.file_fraction for step in steps]
    assert len(fractions) > 10 and fractions == sorted(fractions) and 0 < fractions[0] < 0.5
    assert fractions[-1] == 1.0
    if packing == "plain":  # where a game begins, as a share of the file's bytes
        assert fractions[len(fractions) // 2] == pytest.approx(0.5, abs=0.25)


@pytest.mark.parametrize("text", [b"\x17\x80not a game at all " * 400, b'[Event "a"]\n\n1. e4 {' + b"a comment that never ends " * 400])
def test_a_stream_with_no_game_or_a_game_without_end_is_named_unreadable_in_bounded_memory(tmp_path, monkeypatch, text):
    # A huge file named .pgn.xz that holds no PGN, or one whose game never ends, is refused once
    # its text passes STREAM_GAME_MOST_BYTES, instead of being held in memory to its end.
    sizes = _block_sizes(monkeypatch)
    monkeypatch.setattr(pgn, "STREAM_GAME_MOST_BYTES", 4 * BLOCK_BYTES)
    packed = tmp_path / "big.pgn.xz"
    packed.write_bytes(lzma.compress(text * 10))
    with GameDatabase(tmp_path / "streamed.sqlite") as database:
        report = import_paths(database, [packed])
    assert len(report.unreadable) == 1
    reason = report.unreadable[0]
    assert "the rest of the file is not read" in reason
    assert ("no game begins in its first" in reason) == text.startswith(b"\x17")
    assert max(sizes, default=0) <= 6 * BLOCK_BYTES
