"""Game files compressed whole (.bz2, .zst, .xz, .gz): read as a stream (the database's import) or,
to be opened in the window, as a decompressed copy kept in the cache folder while the file is
unchanged."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import importlib
import lzma
import os
import shutil
import subprocess
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import IO, Any, cast

from reviewer.core.errors import GameFileError
from reviewer.core.paths import cache_dir

__all__ = ["COMPRESSED_SUFFIXES", "decompressed", "decompressed_as_read", "decompressed_copy", "is_compressed", "plain_name",
           "readable_copy"]

COMPRESSED_SUFFIXES = (".zst", ".bz2", ".gz", ".xz")
_COPIES_FOLDER = "decompressed"


def is_compressed(path: str | os.PathLike[str]) -> bool:
    return Path(path).suffix.lower() in COMPRESSED_SUFFIXES


def plain_name(path: str | os.PathLike[str]) -> Path:
    """The file's name without its compression suffix: games.pgn.zst -> games.pgn."""
    file_path = Path(path)
    return file_path.with_suffix("") if is_compressed(file_path) else file_path


def _opener(path: Path, raw: IO[bytes]) -> Callable[[], AbstractContextManager[IO[bytes]]]:
    """How to read the file's bytes decompressed from `raw`, the file opened (whose position says
    how far the compressed file has been read)."""
    suffix = path.suffix.lower()
    if suffix == ".bz2":
        return lambda: bz2.BZ2File(raw, "rb")
    if suffix == ".xz":
        return lambda: lzma.LZMAFile(raw, "rb")
    if suffix == ".gz":
        return lambda: cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))
    try:
        zstandard: Any = importlib.import_module("zstandard")
    except ImportError:
        zstandard = None
    if zstandard is not None:
        return lambda: cast(IO[bytes], zstandard.ZstdDecompressor().stream_reader(raw))
    if shutil.which("zstd") is None:
        raise GameFileError(f"{path}: a .zst file needs the zstandard module or the zstd program; neither is installed")

    @contextmanager
    def run_zstd() -> Iterator[IO[bytes]]:
        # zstd reads `raw` itself: the file's position, shared with it, still says how far it is
        process = subprocess.Popen(["zstd", "-dc"], stdin=raw, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert process.stdout is not None
        read_to_the_end = False
        try:
            yield process.stdout
            read_to_the_end = process.stdout.read(1) == b""
        finally:
            if not read_to_the_end:  # a reader that stopped early (cancelled): zstd has nothing to say
                process.kill()
            process.stdout.close()
            code = process.wait()
            problem = process.stderr.read().decode(errors="replace").strip() if process.stderr else ""
            if process.stderr:
                process.stderr.close()
        if read_to_the_end and code != 0:  # a damaged file would otherwise read as a short one
            raise GameFileError(f"{path}: zstd could not decompress it ({problem or f'exit {code}'})")

    return run_zstd


@contextmanager
def decompressed(path: Path) -> Iterator[IO[bytes]]:
    """The file's bytes decompressed, as a stream; GameFileError where it cannot be decompressed
    (also when that is found only as the stream is read)."""
    with decompressed_as_read(path) as (stream, _read):
        yield stream


@contextmanager
def decompressed_as_read(path: Path) -> Iterator[tuple[IO[bytes], Callable[[], float]]]:
    """`decompressed`'s stream, and how much of the compressed file it has read so far (0 to 1)."""
    with open(path, "rb") as raw:
        size = max(1, os.fstat(raw.fileno()).st_size)
        try:
            with _opener(path, raw)() as stream:
                yield stream, lambda: min(1.0, os.lseek(raw.fileno(), 0, os.SEEK_CUR) / size)
        except (EOFError, lzma.LZMAError, zlib.error) as error:
            raise GameFileError(f"{path}: cannot be decompressed ({error})") from error
        except (FileNotFoundError, IsADirectoryError, PermissionError):
            raise
        except OSError as error:  # bz2's and gzip's damaged data
            raise GameFileError(f"{path}: cannot be decompressed ({error})") from error


def decompressed_copy(path: Path) -> Path:
    """A decompressed copy of the file (its name the file's without the compression suffix), made
    once in the cache folder and kept while the file is unchanged; the copy of an earlier version
    of the same file is removed."""
    resolved = path.resolve()
    try:
        status = resolved.stat()
    except FileNotFoundError as error:
        raise GameFileError(f"{path}: no such file") from error
    folder = cache_dir() / _COPIES_FOLDER / hashlib.sha1(str(resolved).encode("utf-8", "surrogateescape")).hexdigest()
    copy = folder / f"{status.st_size}-{status.st_mtime_ns}" / plain_name(path).name
    if copy.is_file():
        return copy
    copy.parent.mkdir(parents=True, exist_ok=True)
    _write_decompressed(path, copy)
    for earlier in folder.iterdir():
        if earlier != copy.parent:
            shutil.rmtree(earlier, ignore_errors=True)
    return copy


def _write_decompressed(path: Path, copy: Path) -> None:
    """The file decompressed into `copy` (streamed), whole or not at all."""
    handle, temporary = tempfile.mkstemp(dir=copy.parent, prefix=".partial-")
    try:
        with os.fdopen(handle, "wb") as target, decompressed(path) as source:
            shutil.copyfileobj(source, target, 1 << 20)
        os.replace(temporary, copy)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextmanager
def readable_copy(path: Path) -> Iterator[Path]:
    """The file itself, or a compressed file decompressed into a temporary file, removed after
    (a file read once, as an import reads it, needs no copy kept in the cache)."""
    if not is_compressed(path):
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="reviewer-import-") as folder:
        target = Path(folder) / plain_name(path).name
        _write_decompressed(path, target)
        yield target
