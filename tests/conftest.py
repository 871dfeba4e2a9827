"""Shared fixtures: where the shared corpus is, and a private data/cache/config per test.

Hypothesis draws the same examples on every run (profile "ci"), so that no test fails by chance
on one machine and passes on the next; `HYPOTHESIS_PROFILE=explore make test` (or pytest) draws
new ones, many more of them, to look for what the fixed set misses.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from support import CORPUS_DIR, FAKES_DIR, REPO_ROOT, SHARED_DIR, fake_engine_command  # noqa: F401

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # every test that makes a QApplication, whichever folder it is in

settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("explore", max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without the shared corpus beside the checkout, the modules that read it are skipped, named."""
    if CORPUS_DIR.is_dir():
        return
    skip = pytest.mark.skip(reason=f"reads the shared corpus, which is not at {CORPUS_DIR}")
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and any(hasattr(module, name) for name in ("CORPUS_DIR", "SHARED_DIR")):
            item.add_marker(skip)


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

