"""The game list of a big PGN, kept in the cache folder so that opening the file again is instant.

One file per PGN under `<cache>/pgn-index/`, named by a hash of the PGN's absolute path. It is used
only while the PGN has the same size, modification time and first and last 64 KiB as when it was
indexed; anything else (or a broken cache file) means a fresh scan. Small files are not cached:
scanning them is faster than reading a cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from array import array
from dataclasses import dataclass
from pathlib import Path

from reviewer.core.atomic import write_bytes_atomic
from reviewer.core.formats.pgn_index import COLUMNS, Buffer, PgnIndex
from reviewer.core.paths import cache_dir

FORMAT_VERSION = 4
MIN_CACHED_BYTES = 1 << 20
_EDGE_BYTES = 1 << 16
_MAGIC = b"RVWPGNIX"


@dataclass(frozen=True)
class FileKey:
    path: str
    size: int
    mtime_ns: int
    edges_sha1: str


def file_key(path: Path, data: Buffer) -> FileKey | None:
    """What identifies this version of the file; None for a file too small to be worth caching."""
    size = len(data)
    if size < MIN_CACHED_BYTES:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    edges = hashlib.sha1(data[:_EDGE_BYTES])
    edges.update(data[max(0, size - _EDGE_BYTES) : size])
    return FileKey(str(path.resolve()), size, stat.st_mtime_ns, edges.hexdigest())


def cache_path(key: FileKey) -> Path:
    name = hashlib.sha1(key.path.encode("utf-8", errors="surrogateescape")).hexdigest()
    return cache_dir() / "pgn-index" / f"{name}.idx"


def _meta(key: FileKey, index: PgnIndex) -> dict[str, object]:
    return {
        "version": FORMAT_VERSION,
        "path": key.path,
        "size": key.size,
        "mtime_ns": key.mtime_ns,
        "edges_sha1": key.edges_sha1,
        "games": len(index),
        "non_utf8": index.non_utf8,
    }


def save(key: FileKey | None, index: PgnIndex) -> None:
    """Write the complete index; a cache that cannot be written is only a slower next opening."""
    if key is None or not index.complete:
        return
    meta = json.dumps(_meta(key, index)).encode("utf-8")
    columns = b"\x01".join(_encode_column(index.columns[name]) for name in COLUMNS)
    parts = [_MAGIC, struct.pack("<QQ", len(meta), len(columns)), meta, columns]
    parts += [index.starts.tobytes(), index.movetexts.tobytes()]
    try:
        write_bytes_atomic(cache_path(key), b"".join(parts))
    except OSError:
        pass


def _encode_column(values: list[str]) -> bytes:
    """A column as its values joined by NUL (fast to split again), or as JSON when a value holds
    a NUL or a \x01 (the column separator)."""
    joined = "\x00".join(values)
    if "\x01" in joined or joined.count("\x00") != max(0, len(values) - 1):
        return b"J" + json.dumps(values).encode("ascii")
    return b"N" + joined.encode("utf-8")


def _decode_column(data: bytes) -> list[str]:
    if data[:1] == b"J":
        values = json.loads(data[1:])
        if not isinstance(values, list):
            raise ValueError("not a column")
        return [str(value) for value in values]
    if data[:1] != b"N":
        raise ValueError("not a column")
    return data[1:].decode("utf-8").split("\x00")


def load(key: FileKey | None) -> PgnIndex | None:
    """The cached index of this very version of the file, or None."""
    if key is None:
        return None
    try:
        blob = cache_path(key).read_bytes()
    except OSError:
        return None
    try:
        return _decode(blob, key)
    except (ValueError, KeyError, TypeError, struct.error, UnicodeDecodeError):
        return None


def _decode(blob: bytes, key: FileKey) -> PgnIndex | None:
    if not blob.startswith(_MAGIC):
        return None
    offset = len(_MAGIC)
    meta_size, columns_size = struct.unpack_from("<QQ", blob, offset)
    offset += 16
    meta = json.loads(blob[offset : offset + meta_size])
    offset += meta_size
    expected = {name: value for name, value in _meta(key, PgnIndex()).items() if name not in ("games", "non_utf8")}
    if any(meta.get(name) != value for name, value in expected.items()):
        return None
    games = int(meta["games"])
    columns = [_decode_column(part) for part in blob[offset : offset + columns_size].split(b"\x01")]
    offset += columns_size
    starts = array("q")
    movetexts = array("q")
    width = starts.itemsize * games
    starts.frombytes(blob[offset : offset + width])
    movetexts.frombytes(blob[offset + width : offset + 2 * width])
    if len(columns) != len(COLUMNS) or any(len(column) != games for column in columns) or len(movetexts) != games:
        return None
    return PgnIndex(
        starts=starts,
        movetexts=movetexts,
        columns=dict(zip(COLUMNS, columns, strict=False)),
        size=key.size,
        non_utf8=str(meta["non_utf8"]),
        complete=True,
    )
