"""Helpers of the packaging tests: PNG sizes, running an installed `reviewer` away from the checkout."""

from __future__ import annotations

import os
import struct
import subprocess
from pathlib import Path

from support import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
COMMAND_TIMEOUT_S = 600


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from a PNG's header; AssertionError when it is not a PNG."""
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def isolated_env(home: Path) -> dict[str, str]:
    """An environment where nothing of the checkout is importable and every user folder is private."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "REVIEWER_"))}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        HOME=str(home),
        XDG_RUNTIME_DIR=str(home / "runtime"),
        REVIEWER_DATA_DIR=str(home / "data"),
        REVIEWER_CACHE_DIR=str(home / "cache"),
        REVIEWER_CONFIG_DIR=str(home / "config"),
        NUMBA_CACHE_DIR=str(home / "numba"),
    )
    (home / "runtime").mkdir(parents=True, exist_ok=True, mode=0o700)
    return env


def run(command: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S,
                          stdin=subprocess.DEVNULL)
