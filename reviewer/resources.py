"""Where the bundled, read-only resources live.

One folder, `resources/` at the top of the source tree, found wherever the app runs from:
- an installed wheel or sdist: `reviewer/_resources/` (the build maps `resources/` there);
- a PyInstaller bundle: `reviewer/_resources/` inside the bundle (the spec puts it there);
- a source checkout or an editable install: `resources/` beside the `reviewer` package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_CANDIDATES = (_PACKAGE_DIR / "_resources", _PACKAGE_DIR.parent / "resources")
_MARKER = "openings"  # a folder every complete copy holds


def _find_resources_dir() -> Path:
    for candidate in _CANDIDATES:
        if (candidate / _MARKER).is_dir():
            return candidate
    return _CANDIDATES[-1]


RESOURCES_DIR = _find_resources_dir()


def resource_path(*parts: str) -> Path:
    return RESOURCES_DIR.joinpath(*parts)
