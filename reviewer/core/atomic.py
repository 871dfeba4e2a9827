"""Atomic writes: a temporary file in the target's folder, flushed, then renamed over it.

A target that exists and is not a regular file (`/dev/stdout`, `/dev/null`, a pipe) is written
into directly: renaming over it would replace a device with a file. A symbolic link is followed,
so the file it names is replaced and the link stays. The new file gets the mode the old one had,
or the usual mode for a new file (0666 less the umask), not the private mode of a temporary file.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path


def _write_in_place(target: Path, data: bytes) -> None:
    with open(target, "wb") as handle:
        handle.write(data)
        handle.flush()


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    target = Path(path)
    try:
        existing = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        existing = None
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise IsADirectoryError(21, "Is a directory", str(target))
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        _write_in_place(target, data)
        return
    target = Path(os.path.realpath(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temp_name = str(target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(temp_name, flags, 0o666)  # the umask applies, as for any new file
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"no free temporary name next to {target}")
    try:
        with os.fdopen(fd, "wb") as handle:
            if existing is not None and hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), stat.S_IMODE(existing.st_mode))
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    write_bytes_atomic(path, text.encode(encoding))
