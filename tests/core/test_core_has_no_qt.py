"""The core runs without Qt: importing every reviewer.core module loads no Qt binding or Qt helper."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "superqt", "reviewer.gui")

PROBE = """
import importlib, json, pkgutil, sys
import reviewer.core
failed = {}
names = []
for info in pkgutil.walk_packages(reviewer.core.__path__, "reviewer.core."):
    names.append(info.name)
    try:
        importlib.import_module(info.name)
    except Exception as error:  # a module that cannot import is reported, not hidden
        failed[info.name] = repr(error)
print(json.dumps({"names": names, "failed": failed, "loaded": sorted(sys.modules)}))
"""


def test_importing_every_core_module_loads_no_qt():
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert "reviewer.core.scoring.chess" in data["names"] and "reviewer.core.report" in data["names"]
    assert data["failed"] == {}
    offenders = [name for name in data["loaded"] if name.split(".")[0] in FORBIDDEN or name.startswith("reviewer.gui")]
    assert offenders == []
