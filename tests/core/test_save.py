"""File ▸ Save in the core: the game written back into its own file, the rest of the file kept."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from reviewer.core.formats import open_collection
from reviewer.core.formats.save import (
    FileChangedOnDisk,
    NeedsSaveAs,
    SaveFailed,
    backup_path,
    has_unsaved_edits,
    record_source,
    save_as,
    save_in_place,
)

THREE_GAMES = (
    b'[Event "One"]\r\n[White "A"]\r\n[Black "B"]\r\n[Result "1-0"]\r\n[MyTag "kept"]\r\n\r\n1. e4 e5 2. Nf3 1-0\r\n\r\n'
    b'[Event "Two"]\r\n[White "C"]\r\n[Black "D"]\r\n[Result "*"]\r\n\r\n1. d4 {odd   spacing}  d5 *\r\n\r\n'
    b'[Event "Three"]\r\n[White "E"]\r\n[Black "F"]\r\n[Result "0-1"]\r\n\r\n1. c4 e5 0-1\r\n'
)
SGF_COLLECTION = b"(;GM[1]FF[4]SZ[9]PB[a]XX[mine];B[cc];W[gg])\n(;GM[1]FF[4]SZ[9]PB[b];B[dd]C[ keep  me ])\n"


def _open(path: Path, index: int):
    collection = open_collection(path)
    game = collection.game(index)
    return game, record_source(collection, index, game)


def _spans(path: Path) -> list[bytes]:
    collection = open_collection(path)
    data = collection.text_bytes()
    return [data[slice(*collection.game_span(i))] for i in range(len(collection))]


def test_a_game_of_a_pgn_is_replaced_and_the_others_stay_byte_for_byte(tmp_path) -> None:
    path = tmp_path / "three.pgn"
    path.write_bytes(THREE_GAMES)
    before = _spans(path)
    game, source = _open(path, 1)
    game.root.children[0].comment = "my note"
    game.root.children[0].nags = [1]
    result = save_in_place(game, source)
    assert result.written and not has_unsaved_edits(game, result.source)
    after = _spans(path)
    assert after[0] == before[0] and after[2] == before[2]
    assert b"my note" in after[1] and b"\r\n" in after[1] and b"\n" not in after[1].replace(b"\r\n", b"")
    back = open_collection(path).game(1)
    assert back.root.children[0].comment == "my note" and back.root.children[0].nags == [1]
    assert backup_path(path).read_bytes() == THREE_GAMES


def test_a_touched_game_keeps_the_tags_it_did_not_understand(tmp_path) -> None:
    path = tmp_path / "three.pgn"
    path.write_bytes(THREE_GAMES)
    game, source = _open(path, 0)
    game.root.children[0].comment = "x"
    save_in_place(game, source)
    assert open_collection(path).game(0).headers["MyTag"] == "kept"


def test_an_sgf_collection_keeps_the_other_game_and_unknown_properties(tmp_path) -> None:
    path = tmp_path / "two.sgf"
    path.write_bytes(SGF_COLLECTION)
    game, source = _open(path, 0)
    game.root.children[0].comment = "a note"
    save_in_place(game, source)
    data = path.read_bytes()
    assert data.endswith(b"(;GM[1]FF[4]SZ[9]PB[b];B[dd]C[ keep  me ])\n")
    back = open_collection(path).game(0)
    assert back.root.children[0].comment == "a note" and back.root.properties["XX"] == ["mine"]


def test_an_untouched_game_is_not_written(tmp_path) -> None:
    path = tmp_path / "three.pgn"
    path.write_bytes(THREE_GAMES)
    game, source = _open(path, 2)
    result = save_in_place(game, source)
    assert not result.written and path.read_bytes() == THREE_GAMES and not backup_path(path).exists()


@pytest.mark.parametrize("name", ["pgn/chesslib__31_events.pgn", "pgn/mliebelt-pgn-parser__twic-01-232games.pgn",
                                  "sgf/sgfmill__sample_sgf_var.sgf", "sgf/sabaki-sgf__korean.sgf", "sgf/sabaki-sgf__utf16le.sgf"])
def test_real_files_untouched_stay_and_touched_keep_the_rest(tmp_path, corpus_dir, name) -> None:
    original = corpus_dir / name
    path = tmp_path / original.name
    shutil.copyfile(original, path)
    count = len(open_collection(path))
    index = count // 2
    game, source = _open(path, index)
    assert not save_in_place(game, source).written and path.read_bytes() == original.read_bytes()
    before = _spans(path)
    (game.root.children[0] if game.root.children else game.root).comment = "my note"
    save_in_place(game, source)
    after = _spans(path)
    assert len(after) == count
    assert all(after[i] == before[i] for i in range(count) if i != index)
    back = open_collection(path).game(index)
    assert (back.root.children[0] if back.root.children else back.root).comment.endswith("my note")


def test_a_file_changed_on_disk_is_not_overwritten_without_asking(tmp_path) -> None:
    path = tmp_path / "three.pgn"
    path.write_bytes(THREE_GAMES)
    game, source = _open(path, 0)
    game.root.children[0].comment = "mine"
    changed = THREE_GAMES.replace(b"Three", b"Tres")
    path.write_bytes(changed)
    with pytest.raises(FileChangedOnDisk):
        save_in_place(game, source)
    assert path.read_bytes() == changed
    save_in_place(game, source, overwrite_changed=True)
    assert b"mine" in path.read_bytes() and b"Tres" in path.read_bytes()
    assert backup_path(path).read_bytes() == changed


def test_a_read_only_file_says_so_and_is_untouched(tmp_path) -> None:
    path = tmp_path / "three.pgn"
    path.write_bytes(THREE_GAMES)
    game, source = _open(path, 0)
    game.root.children[0].comment = "mine"
    os.chmod(path, 0o444)
    with pytest.raises(SaveFailed, match="read-only"):
        save_in_place(game, source)
    assert path.read_bytes() == THREE_GAMES and has_unsaved_edits(game, source)


def _failing_half_way(monkeypatch, error_number: int) -> None:
    import reviewer.core.atomic as atomic

    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, handle):
            self._handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._handle.close()
            return False

        def fileno(self):
            return self._handle.fileno()

        def write(self, data):
            self._handle.write(data[: len(data) // 2])
            self._handle.flush()
            raise OSError(error_number, os.strerror(error_number))

        def flush(self):
            self._handle.flush()

    monkeypatch.setattr(atomic.os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))


@pytest.mark.parametrize(("error_number", "words"), [(errno.ENOSPC, "disk is full"), (errno.EIO, "could not be saved")])
def test_a_write_that_fails_half_way_leaves_the_old_file(tmp_path, monkeypatch, error_number, words) -> None:
    path = tmp_path / "three.pgn"
    path.write_bytes(THREE_GAMES)
    game, source = _open(path, 0)
    game.root.children[0].comment = "mine"
    _failing_half_way(monkeypatch, error_number)
    with pytest.raises(SaveFailed, match=words):
        save_in_place(game, source)
    assert path.read_bytes() == THREE_GAMES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["three.pgn"]  # no temporary file left


@pytest.mark.parametrize(("name", "suggested"), [("game.gib", "game.pgn"), ("big.pgn.zst", "big.pgn")])
def test_formats_not_written_in_place_go_to_save_as(tmp_path, name, suggested) -> None:
    path = tmp_path / "one.pgn"
    path.write_bytes(THREE_GAMES)
    game, source = _open(path, 0)
    game.root.children[0].comment = "mine"
    from dataclasses import replace

    with pytest.raises(NeedsSaveAs) as refused:
        save_in_place(game, replace(source, path=str(tmp_path / name)))
    target = refused.value.suggested
    assert target.name == suggested
    result = save_as(game, target)
    assert result.written and open_collection(target).game(0).root.children[0].comment == "mine"
