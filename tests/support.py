"""Paths and helpers the tests share (import as `from support import ...`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
CORPUS_DIR = SHARED_DIR / "corpus"
FAKES_DIR = Path(__file__).resolve().parent / "fakes"


def fake_engine_command(script_name: str, *args: str) -> list[str]:
    """The command line that runs one of the fake engines in tests/fakes/."""
    return [sys.executable, str(FAKES_DIR / script_name), *args]
