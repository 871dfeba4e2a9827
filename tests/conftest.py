"""Shared fixtures: where the shared corpus is, and a private data/cache/config per test."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
CORPUS_DIR = SHARED_DIR / "corpus"
FAKES_DIR = Path(__file__).resolve().parent / "fakes"


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS_DIR.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS_DIR}")
    return CORPUS_DIR


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory, monkeypatch):
    """Every test gets its own cache and settings; installed engines stay where they are."""
    from reviewer.core import paths

    real_engines = paths.engines_dir()
    base = tmp_path_factory.mktemp("userdirs")
    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(real_engines))
    monkeypatch.setenv("REVIEWER_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("REVIEWER_CACHE_DIR", str(base / "cache"))
    monkeypatch.setenv("REVIEWER_CONFIG_DIR", str(base / "config"))
    yield


def fake_engine_command(script_name: str, *args: str) -> list[str]:
    """The command line that runs one of the fake engines in tests/fakes/."""
    return [sys.executable, str(FAKES_DIR / script_name), *args]
