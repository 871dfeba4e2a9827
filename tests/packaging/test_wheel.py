"""The wheel, built from the sources and installed into a fresh virtual environment, runs on its own.

The environment is new and holds only the wheel; the libraries it needs come from the test's own
environment through a `.pth` line (offline and quick), which adds them without the editable
install of the checkout. Every command runs outside the checkout, with private user folders.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from pkgsupport import isolated_env, png_size, run
from support import REPO_ROOT

from reviewer import __version__
from reviewer.core.engines.install import stockfish_path

SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "CONTRIBUTING.md", "Makefile", "reviewer", "resources", "packaging", "docs")
RESOURCE_FILES = ("openings/a.tsv", "openings/e.tsv", "samples/opera-game.pgn", "icons/reviewer.svg",
                  "katago/opencltuning/README.md", "strength/chess.json", "strength/go.json")


def _copy_sources(target: Path) -> Path:
    """The files a build reads, without the checkout's build/ or caches (a clean build)."""
    for name in SOURCES:
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "_resources", "build", "dist"))
        else:
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    tree = _copy_sources(tmp_path_factory.mktemp("src"))
    out = tmp_path_factory.mktemp("wheelhouse")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(out), str(tree)],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = out.glob("reviewer-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120)
    python = root / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "reviewer-test-libraries.pth").write_text("\n".join(sorted(ours)) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return root


@pytest.fixture
def home(tmp_path) -> Path:
    return tmp_path / "home"


def test_the_wheel_carries_the_resources(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in RESOURCE_FILES:
        assert f"reviewer/_resources/{name}" in names, name
    assert "reviewer/cli.py" in names and not any(name.startswith(("tests/", "resources/")) for name in names)
    for compiled in ("formats/_pgn_blocks", "database/_chess_lines", "database/_first_visits", "database/_go_lines"):
        assert any(name.startswith(f"reviewer/core/{compiled}.") and name.endswith(".so") for name in names), compiled


def test_the_sdist_carries_everything_and_builds_the_same_wheel(wheel, tmp_path_factory):
    tree = _copy_sources(tmp_path_factory.mktemp("sdist-src"))
    out = tmp_path_factory.mktemp("sdist")
    done = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(out), str(tree)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    (sdist,) = out.glob("reviewer-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for name in RESOURCE_FILES:
        assert f"resources/{name}" in names, name
    for name in ("setup.py", "Makefile", "packaging/desktop/io.github.reviewer.Reviewer.desktop",
                 "packaging/icons/hicolor/256x256/apps/io.github.reviewer.Reviewer.png", "packaging/desktop-integration.sh"):
        assert name in names, name
    # A wheel built from the sdist alone holds the same files as the one built from the sources.
    rebuilt = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
                              "-w", str(out), str(sdist)], capture_output=True, text=True, timeout=600)
    assert rebuilt.returncode == 0, rebuilt.stderr[-3000:]
    (from_sdist,) = out.glob("reviewer-*.whl")
    assert set(zipfile.ZipFile(from_sdist).namelist()) == set(zipfile.ZipFile(wheel).namelist())


def test_the_installed_app_uses_its_own_files(venv, home, tmp_path):
    env = isolated_env(home)
    version = run([str(venv / "bin" / "reviewer"), "--version"], env, tmp_path)
    assert version.returncode == 0 and version.stdout.strip() == f"reviewer {__version__}"
    where = run([str(venv / "bin" / "python"), "-c",
                 "import reviewer, reviewer.resources as r, reviewer.core.openings as o; "
                 "print(reviewer.__file__); print(r.RESOURCES_DIR); print(len(o.book('chess').names))"], env, tmp_path)
    assert where.returncode == 0, where.stderr
    package, resources, openings = where.stdout.split()
    assert Path(package).is_relative_to(venv) and Path(resources).is_relative_to(venv)
    assert Path(resources).name == "_resources" and int(openings) > 3000


def test_info_and_the_gui_run_from_the_wheel(venv, home, tmp_path):
    env = isolated_env(home)
    sample = _installed_sample(venv)
    info = run([str(venv / "bin" / "reviewer"), "info", str(sample)], env, tmp_path)
    assert info.returncode == 0, info.stderr
    assert "Paul Morphy - Duke Karl / Count Isouard" in info.stdout and "33 plies" in info.stdout
    shot = tmp_path / "window.png"
    gui = run([str(venv / "bin" / "reviewer"), "gui", str(sample), "--ply", "10", "--screenshot", str(shot)], env, tmp_path)
    assert gui.returncode == 0, gui.stderr
    assert png_size(shot) == (1400, 900)


@pytest.mark.engine
def test_analyze_with_stockfish_from_the_wheel(venv, home, tmp_path):
    if stockfish_path() is None:
        pytest.skip("Stockfish is not installed (apt-get install stockfish)")
    env = isolated_env(home)
    report_path = tmp_path / "report.json"
    done = run([str(venv / "bin" / "reviewer"), "analyze", str(_installed_sample(venv)), "--engine", "stockfish",
                "--nodes", "2000", "-q", "--json", str(report_path)], env, tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["engine"]["name"].lower().startswith("stockfish")
    assert len(report["moves"]) == 33
    assert report["game"]["opening"]["eco"] == "C41"  # the bundled opening table, read from the wheel
    assert any(move["book"] for move in report["moves"])


def _installed_sample(venv: Path) -> Path:
    (sample,) = venv.glob("lib/python*/site-packages/reviewer/_resources/samples/opera-game.pgn")
    return sample
