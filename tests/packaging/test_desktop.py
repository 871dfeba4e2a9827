"""Desktop integration: the menu entry, AppStream metainfo, icons and file types, and their install.

The validators of freedesktop.org and AppStream run when they are installed
(packaging/install-system-deps.sh installs desktop-file-utils and appstream).
"""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pkgsupport import png_size
from support import REPO_ROOT

PACKAGING = REPO_ROOT / "packaging"
APP_ID = "io.github.reviewer.Reviewer"
DESKTOP = PACKAGING / "desktop" / f"{APP_ID}.desktop"
METAINFO = PACKAGING / "desktop" / f"{APP_ID}.metainfo.xml"
MIME = PACKAGING / "desktop" / f"{APP_ID}.xml"
SCRIPT = PACKAGING / "desktop-integration.sh"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (Debian: apt-get install {package})")
    return found


def _entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry_passes_desktop_file_validate():
    done = subprocess.run([_tool("desktop-file-validate", "desktop-file-utils"), str(DESKTOP)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "", done.stdout + done.stderr


def test_metainfo_passes_appstreamcli_validate():
    done = subprocess.run([_tool("appstreamcli", "appstream"), "validate", "--no-net", str(METAINFO)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "E:" not in done.stdout and "W:" not in done.stdout, done.stdout


def test_entry_metainfo_mime_and_icons_agree():
    entry = _entry(DESKTOP)
    types = {t for t in entry["MimeType"].split(";") if t}
    assert types == {"application/x-chess-pgn", "application/x-go-sgf"}
    assert entry["Exec"] == "reviewer %F" and entry["Icon"] == APP_ID
    component = ET.parse(METAINFO).getroot()
    assert component.findtext("id") == APP_ID
    assert component.findtext("launchable") == DESKTOP.name
    assert {m.text for m in component.iter("mediatype")} == types
    declared = {node.get("type"): [g.get("pattern") for g in node.iter(f"{MIME_NS}glob")]
                for node in ET.parse(MIME).getroot().iter(f"{MIME_NS}mime-type")}
    assert declared == {"application/x-chess-pgn": ["*.pgn"], "application/x-go-sgf": ["*.sgf"]}
    for size in ICON_SIZES:
        assert png_size(PACKAGING / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png") == (size, size)


def test_the_png_icons_are_the_svg_drawn_again(qapp, tmp_path):
    import importlib.util

    from PySide6.QtGui import QImage

    spec = importlib.util.spec_from_file_location("render_icons", PACKAGING / "render_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.render(tmp_path)
    for size in (16, 48, 256):
        relative = Path("hicolor") / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        fresh, kept = QImage(str(tmp_path / relative)), QImage(str(PACKAGING / "icons" / relative))
        assert not kept.isNull() and fresh.size() == kept.size(), f"run `make icons`: {relative} is stale"
        # Qt releases round the SVG's anti-aliased edges differently by one level of a channel.
        difference = np.abs(_channels(fresh).astype(int) - _channels(kept).astype(int))
        assert difference.max() <= 2, f"run `make icons`: {relative} is stale (a channel differs by {difference.max()})"


def _channels(image: Any) -> np.ndarray:
    argb = image.convertToFormat(type(image).Format.Format_ARGB32)
    return np.frombuffer(argb.constBits(), dtype=np.uint8, count=argb.sizeInBytes()).copy()


def _install(data_home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home)}
    return subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=120)


def test_install_and_uninstall_for_the_user(tmp_path):
    data_home = tmp_path / "share"
    program = tmp_path / "bin" / "reviewer"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    done = _install(data_home, "install", str(program))
    assert done.returncode == 0, done.stderr
    installed = data_home / "applications" / DESKTOP.name
    entry = _entry(installed)
    assert entry["Exec"] == f"{program} %F" and entry["TryExec"] == str(program)
    assert (data_home / "metainfo" / METAINFO.name).is_file()
    assert (data_home / "mime" / "packages" / MIME.name).is_file()
    for size in ICON_SIZES:
        assert (data_home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    assert (data_home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(installed)], capture_output=True, text=True)
        assert check.returncode == 0 and not check.stdout.strip(), check.stdout
    if shutil.which("update-desktop-database"):  # a double-click on a .pgn or .sgf file opens Reviewer
        cache = (data_home / "applications" / "mimeinfo.cache").read_text()
        assert f"application/x-chess-pgn={DESKTOP.name};" in cache and f"application/x-go-sgf={DESKTOP.name};" in cache
    if shutil.which("update-mime-database"):
        globs = (data_home / "mime" / "globs2").read_text()
        assert "application/x-chess-pgn:*.pgn" in globs and "application/x-go-sgf:*.sgf" in globs

    done = _install(data_home, "uninstall")
    assert done.returncode == 0, done.stderr
    left = list(data_home.rglob(f"{APP_ID}*"))
    assert left == []
    if shutil.which("update-desktop-database"):
        assert DESKTOP.name not in (data_home / "applications" / "mimeinfo.cache").read_text()


def test_install_refuses_a_command_that_is_not_there_or_cannot_be_quoted(tmp_path):
    data_home = tmp_path / "share"
    done = _install(data_home, "install", str(tmp_path / "nothing" / "reviewer"))
    assert done.returncode == 2 and "no reviewer command found" in done.stderr
    spaced = tmp_path / "my apps" / "reviewer"
    spaced.parent.mkdir()
    spaced.write_text("#!/bin/sh\n")
    spaced.chmod(0o755)
    done = _install(data_home, "install", str(spaced))
    assert done.returncode == 2 and "cannot run" in done.stderr
    assert not (data_home / "applications").exists()
