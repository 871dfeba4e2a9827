"""Reading and writing game files, chosen by extension behind one interface.

    open_collection(path) -> GameCollection   lazy: len(), summary(i), summaries(), game(i), warnings
    load_game(path, index=0) -> Game
    write_pgn(game) -> str, write_sgf(game) -> str, save_game(game, path)
    game_from_pgn_text(text) -> Game, game_from_sgf_text(text_or_bytes) -> Game

A file that cannot be read at all raises `GameFileError` with one line naming the file; problems
inside a game that can still be shown become `game.warnings` (and `collection.warnings` for the file).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from reviewer.core.atomic import write_text_atomic
from reviewer.core.errors import GameFileError
from reviewer.core.formats.collection import GameCollection, GameSummary
from reviewer.core.formats.compressed import decompressed_copy, is_compressed, plain_name
from reviewer.core.formats.pgn import (
    PgnBlock,
    PgnCollection,
    game_from_pgn_text,
    pgn_blocks,
    streams_as_text,
    write_pgn,
)
from reviewer.core.formats.sgf import SgfCollection, game_from_sgf_text, write_sgf
from reviewer.core.formats.textio import SNIFF_BYTES, read_game_file
from reviewer.core.gametree import Game

__all__ = [
    "READ_EXTENSIONS",
    "WRITE_EXTENSIONS",
    "CollectionBlock",
    "GameCollection",
    "GameFileError",
    "GameSummary",
    "game_from_pgn_text",
    "game_from_sgf_text",
    "load",
    "load_game",
    "open_collection",
    "read_extensions",
    "save_game",
    "streamed_collection",
    "write_pgn",
    "write_sgf",
]


def _open_gib(path: str, data: bytes) -> GameCollection:
    from reviewer.core.formats.gib import GibCollection

    return GibCollection(path, data)


def _open_ngf(path: str, data: bytes) -> GameCollection:
    from reviewer.core.formats.ngf import NgfCollection

    return NgfCollection(path, data)


def _open_ugf(path: str, data: bytes) -> GameCollection:
    from reviewer.core.formats.ugf import UgfCollection

    return UgfCollection(path, data)


_READERS: dict[str, Callable[[str, bytes], GameCollection]] = {
    ".pgn": PgnCollection,
    ".sgf": SgfCollection,
    ".gib": _open_gib,
    ".ngf": _open_ngf,
    ".ugf": _open_ugf,
    ".ugi": _open_ugf,
}
READ_EXTENSIONS = tuple(_READERS)
WRITE_EXTENSIONS = (".pgn", ".sgf")


def read_extensions() -> tuple[str, ...]:
    """Every extension Reviewer reads: its own formats' and those the registered games bring."""
    from reviewer.core.games.support import readers

    return (*READ_EXTENSIONS, *readers())


def _reader_for(path: Path) -> Callable[[str, bytes], GameCollection]:
    suffix = plain_name(path).suffix.lower()  # a compressed file's: that of its name without the compression suffix
    from reviewer.core.games.support import readers  # the readers registered games bring

    reader = _READERS.get(suffix) or readers().get(suffix)
    if reader is None:
        known = ", ".join([*READ_EXTENSIONS, *readers()])
        shown = suffix or "no extension"
        raise GameFileError(f"{path}: unknown file type ({shown}); Reviewer reads {known}")
    return reader


def open_collection(path: str | os.PathLike[str], first_games: int | None = None) -> GameCollection:
    """Open a game file and list its games; moves are parsed only when a game is asked for.

    A PGN is memory-mapped; with `first_games`, only that many of its games are listed before this
    returns (the rest with `index_more()`, `complete_index()` or `index_in_background()`).
    """
    file_path = Path(path)
    if is_compressed(file_path):
        _reader_for(file_path)  # the message for a file of no game format, before decompressing it
        collection = open_collection(decompressed_copy(file_path), first_games)
        collection.path = str(file_path)  # its games are the compressed file's
        return collection
    reader = _reader_for(file_path)
    try:
        if reader is PgnCollection:
            if not file_path.is_file():
                read_game_file(file_path)  # the message for a missing file or a folder
            return PgnCollection.open_file(file_path, first_games)
        data = read_game_file(file_path)
        return reader(str(file_path), data)
    except GameFileError:
        raise
    except (ValueError, UnicodeError, IndexError, KeyError) as error:
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise GameFileError(f"{file_path}: cannot be read ({detail})") from error


CollectionBlock = PgnBlock  # whole games of a file read as a stream: its games first.. as games 0..count-1 of a collection


def streamed_collection(path: str, stream: IO[bytes]) -> Iterator[CollectionBlock] | None:
    """The games of the file at `path` (compressed or not) read from `stream` in blocks of whole
    games (memory bounded by the block, whatever the file's size); None where its format (or its
    text: UTF-16) is read whole, the stream's first bytes then read."""
    if plain_name(path).suffix.lower() != ".pgn":
        return None
    head = stream.read(SNIFF_BYTES)
    return pgn_blocks(path, stream, prefix=head) if streams_as_text(head) else None


def load_game(path: str | os.PathLike[str], index: int = 0) -> Game:
    """Game `index` (0-based) of a file."""
    collection = open_collection(path)
    try:
        return collection.game(index)
    except IndexError as error:
        raise GameFileError(str(error)) from error


load = load_game


def save_game(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the game as PGN or SGF (by the extension), atomically."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".pgn":
        text = write_pgn(game)
    elif suffix == ".sgf":
        text = write_sgf(game)
    else:
        raise GameFileError(f"{target}: cannot write this file type ({suffix or 'no extension'}); use .pgn or .sgf")
    write_text_atomic(target, text, encoding="utf-8")
