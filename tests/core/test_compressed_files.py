"""A compressed game file opens like the plain one: decompressed once into the cache while it is
unchanged, again once it changes; damage and unknown formats named with the file's own name."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os

import pytest
from support import CORPUS_DIR

from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection
from reviewer.core.formats.compressed import decompressed_copy

PGN = CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn"
SGF = CORPUS_DIR / "sgf" / "sgfmill__sample_sgf_var.sgf"


@pytest.mark.parametrize(("source", "suffix", "pack"), [
    (PGN, ".xz", lzma.compress), (PGN, ".bz2", bz2.compress), (SGF, ".gz", gzip.compress)])
def test_a_compressed_file_lists_and_reads_the_games_of_the_plain_one(tmp_path, source, suffix, pack):
    packed = tmp_path / (source.name + suffix)
    packed.write_bytes(pack(source.read_bytes()))
    plain, compressed = open_collection(source), open_collection(packed)
    compressed.complete_index()
    plain.complete_index()
    assert len(compressed) == len(plain) > 0
    assert compressed.path == str(packed)
    last = len(plain) - 1
    game = compressed.game(last)
    assert game.source.path == str(packed) and game.source.index == last
    assert game.headers == plain.game(last).headers
    assert [node.move for node in game.root.mainline()] == [node.move for node in plain.game(last).root.mainline()]


def test_the_decompressed_copy_is_made_once_and_again_when_the_file_changes(tmp_path):
    packed = tmp_path / "twic.pgn.xz"
    packed.write_bytes(lzma.compress(PGN.read_bytes()))
    first = decompressed_copy(packed)
    made_ns = first.stat().st_mtime_ns
    assert decompressed_copy(packed) == first and first.stat().st_mtime_ns == made_ns
    packed.write_bytes(lzma.compress(PGN.read_bytes()[: len(PGN.read_bytes()) // 2]))
    os.utime(packed, ns=(made_ns + 10**9, made_ns + 10**9))
    second = decompressed_copy(packed)
    assert second != first and not first.exists()  # the earlier version's copy is gone
    assert second.read_bytes() == PGN.read_bytes()[: len(PGN.read_bytes()) // 2]


def test_a_damaged_or_unknown_compressed_file_is_named(tmp_path):
    damaged = tmp_path / "twic.pgn.bz2"
    damaged.write_bytes(bz2.compress(PGN.read_bytes())[:5000])
    with pytest.raises(GameFileError, match=r"twic\.pgn\.bz2: cannot be decompressed"):
        open_collection(damaged)
    unknown = tmp_path / "notes.txt.xz"
    unknown.write_bytes(lzma.compress(b"words"))
    with pytest.raises(GameFileError, match=r"notes\.txt\.xz: unknown file type \(\.txt\)"):
        open_collection(unknown)
