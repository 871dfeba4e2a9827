"""File ▸ Save: the open game written back into the file it came from, and Save As.

    source = record_source(collection, index, game)   when the game is read, before any edit
    has_unsaved_edits(game, source)                   what the game's writer would change in the file
    save_in_place(game, source) -> SaveResult         the game's text replaced in its own file
    save_as(game, path) -> SaveResult                 the game alone, in a new PGN or SGF file

Both take the game or its `GameText` (`text_of(game)`), which a caller makes on the thread that
edits the game and hands to a worker: the writing then never reads a tree being edited.

Saving in place replaces the game's own bytes and nothing else: in a file of many games the others
stay byte for byte as they were, and so does the text around them (a BOM, lines before the first
game). The new text keeps the file's line endings and, where its characters allow, its charset. A
game whose writer's text is what it was when read is not written at all.

What protects the file:
- the write is atomic (`reviewer.core.atomic`): killed half-way, the file is the old version or the new;
- the version before the save is kept beside it as `name.pgn.bak` (`backup_path`), written first;
- a file changed on disk since it was read (size, modification time, content hash: `FileStamp`)
  raises `FileChangedOnDisk` unless the caller says to overwrite it;
- a read-only file, a folder that cannot be written or a full disk raise `SaveFailed` with a
  sentence that says so, before the file is touched;
- a format written elsewhere (GIB, NGF, UGF, a compressed PGN) raises `NeedsSaveAs` with a
  sensible name for the new file beside it.
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from reviewer.core.atomic import write_bytes_atomic
from reviewer.core.errors import GameFileError
from reviewer.core.formats.collection import GameCollection
from reviewer.core.formats.compressed import COMPRESSED_SUFFIXES
from reviewer.core.formats.pgn import PgnCollection, write_pgn
from reviewer.core.formats.sgf import SgfCollection, write_sgf
from reviewer.core.formats.textio import codec_for_charset, is_utf8
from reviewer.core.gametree import Game

IN_PLACE_FORMATS = {".pgn": "pgn", ".sgf": "sgf"}
BACKUP_SUFFIX = ".bak"
HASHED_BYTES_LIMIT = 256 * 1024 * 1024  # bigger files are compared by size and modification time only


class SaveError(GameFileError):
    """The game could not be saved; the file is as it was."""


class FileChangedOnDisk(SaveError):
    """The file changed on disk since the game was read: overwrite it only when the player says so."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{Path(path).name} was changed on disk by another program since it was opened")
        self.path = path


class NeedsSaveAs(SaveError):
    """This file cannot take the game back in place; `suggested` is where Save As should offer to write."""

    def __init__(self, message: str, suggested: Path) -> None:
        super().__init__(message)
        self.suggested = suggested


class SaveFailed(SaveError):
    """Writing was refused or failed (read-only, disk full, ...); nothing was changed."""


@dataclass(frozen=True)
class FileStamp:
    """A version of a file: its size, modification time and (up to `HASHED_BYTES_LIMIT`) content hash."""

    size: int
    mtime_ns: int
    sha256: str | None

    @classmethod
    def of_file(cls, path: str | os.PathLike[str], data: bytes | None = None) -> FileStamp:
        info = os.stat(path)
        if data is None and info.st_size <= HASHED_BYTES_LIMIT:
            data = Path(path).read_bytes()
        digest = hashlib.sha256(data).hexdigest() if data is not None and len(data) <= HASHED_BYTES_LIMIT else None
        return cls(info.st_size, info.st_mtime_ns, digest)

    def same_version(self, other: FileStamp) -> bool:
        """Whether `other` is this version: same size, and the same time or (when both have one) the same hash."""
        if self.size != other.size:
            return False
        if self.sha256 is not None and other.sha256 is not None:
            return self.sha256 == other.sha256
        return self.mtime_ns == other.mtime_ns


@dataclass(frozen=True)
class SaveSource:
    """Where an open game came from, as Save needs it; recorded when the game is read, before any edit."""

    path: str
    index: int  # which game of the file (0-based)
    stamp: FileStamp | None  # None when the file could not be looked at
    read_text: str  # the writer's text of the game as read: what the file holds of it


@dataclass(frozen=True)
class SaveResult:
    path: str
    written: bool  # False when the game had no change to write: the file was left alone
    backup: str | None  # the copy of the version before, when one was written
    source: SaveSource  # the game's source from now on (the new version's stamp and text)


def backup_path(path: str | os.PathLike[str]) -> Path:
    """`game.pgn` -> `game.pgn.bak`: beside the file, and not read as a game file by Reviewer."""
    target = Path(path)
    return target.with_name(target.name + BACKUP_SUFFIX)


def writer_format(game: Game) -> str:
    """'pgn' or 'sgf': the format the game's kind is written in."""
    from reviewer.core.games import game_support

    return game_support(game.kind).export_extension


@dataclass(frozen=True)
class GameText:
    """A game as its writer writes it, with what writing it into a file needs to know of it."""

    format: str  # "pgn" or "sgf"
    text: str
    declared_charset: str = ""  # SGF: the CA[] the game was read with ("" when none)


def text_of(game: Game) -> GameText:
    """The game's `GameText` (on the thread that edits the game)."""
    format_name = writer_format(game)
    declared = game.root.properties.get("CA", [""])[0].strip() if format_name == "sgf" else ""
    return GameText(format_name, game_text(game, format_name), declared)


def game_text(game: Game, format_name: str) -> str:
    """The game as the writers write it (`write_pgn`, `write_sgf`): everything they know of comes along."""
    if format_name == "pgn":
        return write_pgn(game)
    if format_name == "sgf":
        return write_sgf(game)
    raise SaveFailed(f"Reviewer cannot write {format_name} files; save as PGN or SGF")


def record_source(collection: GameCollection, index: int, game: Game) -> SaveSource:
    """What Save needs to know of the game just read (call it before the game is edited)."""
    path = collection.path or game.source.path or ""
    try:
        stamp = FileStamp.of_file(path) if path else None
    except OSError:
        stamp = None
    try:
        text = game_text(game, writer_format(game))
    except (SaveError, ValueError):
        text = ""
    return SaveSource(path=str(path), index=index, stamp=stamp, read_text=text)


def has_unsaved_edits(game: Game, source: SaveSource | None) -> bool:
    """Whether saving would change the file: the game's text differs from what was read (or last saved)."""
    if source is None:
        return False
    try:
        return game_text(game, writer_format(game)) != source.read_text
    except (SaveError, ValueError):
        return False


def save_as_suggestion(game: Game | GameText, path: str | os.PathLike[str]) -> Path:
    """Where Save As offers to write a game whose file cannot take it back: a PGN or SGF beside it."""
    source = Path(path)
    name = source.name
    for suffix in COMPRESSED_SUFFIXES:
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    stem = Path(name).stem if Path(name).suffix else name
    extension = game.format if isinstance(game, GameText) else writer_format(game)
    suggestion = source.with_name(f"{stem}.{extension}")
    if suggestion.exists():
        suggestion = source.with_name(f"{stem}-saved.{extension}")
    return suggestion


def in_place_problem(game: Game | GameText, path: str | os.PathLike[str]) -> NeedsSaveAs | None:
    """Why this game cannot be saved into `path` itself (None when it can)."""
    target = Path(path)
    format_name = game.format if isinstance(game, GameText) else writer_format(game)
    if target.suffix.lower() in COMPRESSED_SUFFIXES:
        return NeedsSaveAs(f"{target.name} is compressed: Save writes a new file beside it", save_as_suggestion(game, target))
    if target.suffix.lower() not in IN_PLACE_FORMATS:
        return NeedsSaveAs(
            f"Reviewer reads {target.suffix or 'this'} files but does not write them: Save writes a new file beside it",
            save_as_suggestion(game, target),
        )
    if IN_PLACE_FORMATS[target.suffix.lower()] != format_name:
        return NeedsSaveAs(f"a game written as {format_name.upper()} is not written into {target.name}", save_as_suggestion(game, target))
    return None


# ---------------------------------------------------------------- saving


def save_in_place(game: Game | GameText, source: SaveSource, overwrite_changed: bool = False) -> SaveResult:
    """Write `game` back into its own file in place of the game it was read as.

    Raises `NeedsSaveAs`, `FileChangedOnDisk` (unless `overwrite_changed`: then the game replaces
    game `source.index` of the file as it is now, and the version found is the backup) or `SaveFailed`.
    """
    written = game if isinstance(game, GameText) else text_of(game)
    problem = in_place_problem(written, source.path)
    if problem is not None:
        raise problem
    format_name, text = written.format, written.text
    if text == source.read_text:
        return SaveResult(source.path, written=False, backup=None, source=source)
    path = Path(source.path)
    _check_writable(path)
    try:
        data = path.read_bytes()
        stamp = FileStamp.of_file(path, data)
    except FileNotFoundError:
        raise FileChangedOnDisk(source.path) from None
    except OSError as error:
        raise SaveFailed(_os_sentence(error, path)) from error
    if not overwrite_changed and (source.stamp is None or not source.stamp.same_version(stamp)):
        raise FileChangedOnDisk(source.path)
    collection = _collection_of(format_name, path, data)
    if source.index >= len(collection):
        raise NeedsSaveAs(
            f"{path.name} no longer holds a game {source.index + 1}: save the game as a new file",
            save_as_suggestion(written, path),
        )
    new_data = _replaced(collection, source.index, data, written)
    if new_data is None:
        raise NeedsSaveAs(
            f"{path.name} is in a charset Reviewer cannot write back around its other games: save the game as a new file",
            save_as_suggestion(written, path),
        )
    check = _collection_of(format_name, path, new_data)
    if len(check) != len(collection):
        raise SaveFailed(f"{path.name}: the saved game would not read back as one game; nothing was written")
    backup = backup_path(path)
    _write(backup, data, path)
    _write(path, new_data, path)
    new_source = replace(source, stamp=FileStamp.of_file(path, new_data), read_text=text)
    return SaveResult(str(path), written=True, backup=str(backup), source=new_source)


def save_as(game: Game | GameText, path: str | os.PathLike[str]) -> SaveResult:
    """Write `game` alone into a new PGN or SGF file (by the extension); an existing file there is kept as its backup."""
    target = Path(path)
    written = game if isinstance(game, GameText) else text_of(game)
    format_name = IN_PLACE_FORMATS.get(target.suffix.lower())
    if format_name is None:
        raise SaveFailed(f"{target.name}: Reviewer writes .pgn and .sgf files; choose one of those")
    if format_name != written.format:
        raise SaveFailed(f"this game is written as .{written.format}, not {target.suffix}")
    text = written.text
    data = text.encode("utf-8")
    backup: Path | None = None
    if target.exists():
        _check_writable(target)
        try:
            old = target.read_bytes()
        except OSError as error:
            raise SaveFailed(_os_sentence(error, target)) from error
        backup = backup_path(target)
        _write(backup, old, target)
    else:
        _check_folder_writable(target)
    _write(target, data, target)
    new_source = SaveSource(str(target), 0, FileStamp.of_file(target, data), text)
    return SaveResult(str(target), written=True, backup=str(backup) if backup else None, source=new_source)


def _collection_of(format_name: str, path: Path, data: bytes) -> GameCollection:
    try:
        if format_name == "pgn":
            return PgnCollection(str(path), data)
        return SgfCollection(str(path), data)
    except GameFileError as error:
        raise SaveFailed(f"{path.name} cannot be read as it is now ({error}); save the game as a new file") from error


def _replaced(collection: GameCollection, index: int, data: bytes, written: GameText) -> bytes | None:
    """The file's bytes with game `index`'s text replaced by `written`; None when its other games
    cannot be kept as they are."""
    format_name = written.format
    buffer, span = collection.text_bytes(), collection.game_span(index)
    if buffer is None or span is None:
        return None if len(collection) > 1 else _game_bytes(written, "utf-8", "\n") + b"\n"
    start, end = span
    old = buffer[start:end]
    newline = "\r\n" if b"\r\n" in old else "\n"
    body = old.rstrip()
    trailing = old[len(body):]
    if not trailing and end < len(buffer):
        trailing = newline.encode("ascii") * (2 if format_name == "pgn" else 1)
    codec = _text_codec(collection, old)
    new_game = _game_bytes(written, codec, newline) + trailing
    new_buffer = buffer[:start] + new_game + buffer[end:]
    for offset in (0, 3):  # the file's bytes, or them without a UTF-8 byte order mark
        if data[offset : offset + len(buffer)] == buffer:
            return data[:offset] + new_buffer + data[offset + len(buffer):]
    codec16 = (collection.encoding or "").lower().replace("_", "-")
    if codec16.startswith("utf-16"):
        bom = data[:2] if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else b""
        if bom + buffer.decode("utf-8").encode(codec16) == data:
            return bom + new_buffer.decode("utf-8").encode(codec16)
    if len(collection) == 1:  # the file is this one game: written whole
        return _game_bytes(written, codec, newline) + newline.encode("ascii")
    return None


def _text_codec(collection: GameCollection, old: bytes) -> str:
    """The charset the game's new text is written in: the one its old bytes were in where that is one
    charset for all the file (UTF-8 otherwise, which the readers take line by line)."""
    if old.isascii() or is_utf8(old):
        return "utf-8"
    name = collection.encoding or ""
    codec = codec_for_charset(name) if name and "+" not in name else None
    return codec or "utf-8"


def _game_bytes(written: GameText, codec: str, newline: str) -> bytes:
    """The writer's text with the file's line endings, in `codec` when every character has a place in
    it (an SGF then declares that charset, as it did), else in UTF-8 (an SGF says CA[UTF-8])."""
    text = written.text.rstrip().replace("\r\n", "\n").replace("\n", newline)
    if codec != "utf-8":
        own_text = text
        if written.format == "sgf":
            declared = written.declared_charset
            own = declared if declared and codec_for_charset(declared) == codec else codec.upper()
            own_text = text.replace("CA[UTF-8]", f"CA[{own}]", 1)
        try:
            return own_text.encode(codec)
        except UnicodeEncodeError:
            pass
    return text.encode("utf-8")


def _check_writable(path: Path) -> None:
    """SaveFailed for a file that is read-only (its mode says so even to an administrator)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        _check_folder_writable(path)
        return
    except OSError as error:
        raise SaveFailed(_os_sentence(error, path)) from error
    if not stat.S_IMODE(info.st_mode) & 0o222 or not os.access(path, os.W_OK):
        raise SaveFailed(f"{path.name} is read-only: nothing was saved. Save the game as a new file, or allow writing to it")
    _check_folder_writable(path)


def _check_folder_writable(path: Path) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    if not os.access(folder, os.W_OK):
        raise SaveFailed(f"the folder {folder} cannot be written: nothing was saved. Save the game elsewhere")


def _write(path: Path, data: bytes, saved: Path) -> None:
    """`data` into `path` atomically; a failure is told as the saving of `saved` failing."""
    try:
        write_bytes_atomic(path, data)
    except OSError as error:
        raise SaveFailed(_os_sentence(error, saved)) from error


def _os_sentence(error: OSError, path: Path) -> str:
    if error.errno == errno.ENOSPC:
        return f"the disk is full: {path.name} was not saved and is as it was. Free some space and save again"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{path.name} cannot be written ({error.strerror}): nothing was saved. Save the game as a new file"
    return f"{path.name} could not be saved ({error.strerror or error}); the file is as it was"
