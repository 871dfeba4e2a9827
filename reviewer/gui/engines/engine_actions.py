"""What the "Locate engine…" and "Install Stockfish" buttons run, off the GUI thread."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

UCI_CHECK_TIMEOUT_S = 15.0


class NotAnEngine(ValueError):
    """The chosen file does not answer as a UCI chess engine."""


def check_uci_engine(path: str | os.PathLike[str], timeout_s: float = UCI_CHECK_TIMEOUT_S) -> str:
    """The engine's `id name` when `path` runs and answers `uci` with `uciok`; else NotAnEngine."""
    program = Path(path)
    if not program.is_file():
        raise NotAnEngine(f"{program} is not a file")
    if not os.access(program, os.X_OK):
        raise NotAnEngine(f"{program.name} is not a program (it cannot be run)")
    try:
        done = subprocess.run(
            [str(program)], input="uci\nisready\nquit\n", capture_output=True, text=True, timeout=timeout_s, errors="replace"
        )
    except subprocess.TimeoutExpired as error:
        raise NotAnEngine(f"{program.name} did not answer `uci` within {timeout_s:.0f} s") from error
    except OSError as error:
        raise NotAnEngine(f"{program.name} cannot be run: {error.strerror or error}") from error
    lines = done.stdout.splitlines()
    if not any(line.strip() == "uciok" for line in lines):
        raise NotAnEngine(f"{program.name} does not speak UCI (no `uciok` after `uci`)")
    name = next((line.strip()[len("id name "):] for line in lines if line.strip().startswith("id name ")), "")
    return name or program.name


def install_stockfish_now() -> tuple[bool, str]:
    """Reviewer's installer for Stockfish: (usable afterwards, what happened)."""
    from reviewer.core.engines.install import install_stockfish

    result = install_stockfish()
    return result.ok, result.message
