"""Black-box runs of the `reviewer` command: a child process, as a user (or a checker) runs it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from report_contract import load_strict_json

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
FAKES_DIR = REPO_ROOT / "tests" / "fakes"
DATA_DIR = REPO_ROOT / "tests" / "data"
RECORDER = HERE / "record_engine.py"
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130


def reviewer_command() -> list[str]:
    script = Path(sys.executable).with_name("reviewer")
    return [str(script)] if script.exists() else [sys.executable, "-m", "reviewer"]


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str

    @property
    def error_lines(self) -> list[str]:
        """stderr without progress lines: what the user is told."""
        return [line for line in self.stderr.splitlines() if line.strip() and " positions" not in line]


def run_reviewer(*args: str | os.PathLike[str], timeout: float = 60, **popen: Any) -> Run:
    popen.setdefault("cwd", REPO_ROOT)
    done = subprocess.run([*reviewer_command(), *map(str, args)], capture_output=True, text=True, timeout=timeout, **popen)
    return Run(done.returncode, done.stdout, done.stderr)


def fake_cmd(script: str, *args: str) -> str:
    """An --engine-cmd value that runs a fake engine from tests/fakes/."""
    return shlex.join([sys.executable, str(FAKES_DIR / script), *args])


def recorded_cmd(log: Path, engine_cmd: str) -> str:
    """An --engine-cmd value that runs `engine_cmd` and writes all it is sent into `log`."""
    return shlex.join([sys.executable, str(RECORDER), str(log), *shlex.split(engine_cmd)])


def read_json(path: Path) -> Any:
    return load_strict_json(path.read_text(encoding="utf-8"))


def reports_of(path: Path) -> list[dict[str, Any]]:
    data = read_json(path)
    return data if isinstance(data, list) else [data]


def assert_one_line_error(run: Run, *fragments: str) -> None:
    """A clear message: one line, no traceback, naming what went wrong."""
    lines = run.error_lines
    assert "Traceback" not in run.stderr, run.stderr
    assert len(lines) >= 1, f"no message on stderr (rc {run.returncode})"
    text = "\n".join(lines)
    for fragment in fragments:
        assert fragment.lower() in text.lower(), f"{fragment!r} not in {text!r}"


@pytest.fixture
def data_dir() -> Path:
    return DATA_DIR


@pytest.fixture
def fake_uci() -> str:
    return fake_cmd("fake_uci.py")


@pytest.fixture
def fake_katago() -> str:
    return fake_cmd("fake_katago.py")
