"""The one-folder PyInstaller bundle (`make dist`) runs on its own: started off screen on a sample game,
it analyses the game with Stockfish and saves a screenshot.

`make dist-test` builds the bundle and runs these tests with REVIEWER_BUNDLE set (then a missing
bundle fails); `make test` skips them unless a bundle was built before (dist/reviewer/reviewer).
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from pkgsupport import SAMPLE, isolated_env, png_size, run
from support import REPO_ROOT

from reviewer import __version__
from reviewer.core.engines.install import stockfish_path

DEFAULT_BUNDLE = REPO_ROOT / "dist" / "reviewer" / "reviewer"


@pytest.fixture(scope="module")
def bundle() -> Path:
    asked = os.environ.get("REVIEWER_BUNDLE")
    path = Path(asked) if asked else DEFAULT_BUNDLE
    if not path.is_absolute():
        path = REPO_ROOT / path
    if not path.is_file():
        if asked:
            pytest.fail(f"REVIEWER_BUNDLE={asked}: no bundle there (make dist builds it)")
        pytest.skip("no bundle built: `make dist-test` builds it and runs these tests")
    return path


def test_the_bundle_starts_and_reads_its_resources(bundle, tmp_path):
    env = isolated_env(tmp_path / "home")
    version = run([str(bundle), "--version"], env, tmp_path)
    assert version.returncode == 0 and version.stdout.strip() == f"reviewer {__version__}"
    info = run([str(bundle), "info", str(SAMPLE)], env, tmp_path)
    assert info.returncode == 0 and "33 plies" in info.stdout, info.stderr
    samples = list(bundle.parent.glob("_internal/reviewer/_resources/samples/*.pgn"))
    assert samples and (bundle.parent / "_internal" / "reviewer" / "_resources" / "openings" / "c.tsv").is_file()
    assert list(bundle.parent.glob("_internal/reviewer/core/formats/_pgn_blocks.*.so")), "the compiled PGN scanner"


@pytest.mark.engine
def test_the_bundle_analyses_a_game_and_takes_a_screenshot(bundle, tmp_path):
    if stockfish_path() is None:
        pytest.skip("Stockfish is not installed (apt-get install stockfish)")
    env = isolated_env(tmp_path / "home")
    shot = tmp_path / "analysed.png"
    gui = run([str(bundle), "gui", str(SAMPLE), "--engine", "stockfish", "--nodes", "2000", "--analyse", "--ply", "20",
               "--screenshot", str(shot)], env, tmp_path)
    assert gui.returncode == 0, gui.stderr
    assert png_size(shot) == (1400, 900)
    with sqlite3.connect(tmp_path / "home" / "cache" / "analysis.sqlite") as cache:
        (stored,) = cache.execute("SELECT COUNT(*) FROM evaluations").fetchone()
    assert stored == 34  # every position of the game, analysed by the window's worker
    report_path = tmp_path / "report.json"
    cli = run([str(bundle), "analyze", str(SAMPLE), "--engine", "stockfish", "--nodes", "2000", "-q",
               "--json", str(report_path)], env, tmp_path)
    assert cli.returncode == 0, cli.stderr
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["complete"] and len(report["moves"]) == 33
    assert report["game"]["opening"]["eco"] == "C41"
    assert any(move["judgement"] in ("inaccuracy", "mistake", "blunder") for move in report["moves"])
