"""Finding engines (PATH, the installed KataGo, engines.json, the built-in) and `reviewer engines`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from reviewer import cli
from reviewer.core import paths
from reviewer.core.engines import discovery, install
from reviewer.core.engines.install import InstalledKataGo, StepResult
from tests.conftest import fake_engine_command

pytestmark = pytest.mark.timeout(60)


def write_settings(engines: list[dict]) -> Path:
    path = discovery.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"engines": engines}))
    return path


def fake_katago_home(root: Path, launcher_body: str = 'echo "KataGo v1.18.1"', tuning: Path | None = None) -> Path:
    """An installed-looking KataGo folder whose launcher is a shell script."""
    home = root / "katago"
    (home / "bin").mkdir(parents=True)
    (home / "models").mkdir()
    (home / "bin" / "katago").write_text("")
    (home / "models" / "m.bin.gz").write_text("")
    (home / "analysis.cfg").write_text("reportAnalysisWinratesAs = BLACK\n")
    launcher = home / "katago"
    launcher.write_text(f"#!/bin/sh\n{launcher_body}\n")
    launcher.chmod(0o755)
    stamp = {"format": 1, "version": "1.18.1", "models": {"m": "models/m.bin.gz"}, "default_model": "m",
             "tuning_files": [str(tuning)] if tuning else [], "tuning_status": "ok", "device": "cpu"}
    (home / "installed.json").write_text(json.dumps(stamp))
    return home


@pytest.fixture
def engines_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "engines"
    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(folder))
    return folder


@pytest.fixture
def no_system_katago(monkeypatch):
    monkeypatch.setattr(discovery, "_system_katago", lambda: None)


def by_name(engines) -> dict:
    return {engine.name: engine for engine in engines}


def test_lists_stockfish_katago_and_builtin_always(engines_dir, no_system_katago, monkeypatch):
    monkeypatch.setattr(install, "stockfish_path", lambda: None)
    engines = by_name(discovery.find_engines())
    assert {"stockfish", "katago", "builtin"} <= set(engines)
    assert engines["stockfish"].status == "missing" and "reviewer engines install" in engines["stockfish"].detail
    assert engines["katago"].status == "missing" and "reviewer engines install" in engines["katago"].detail
    assert engines["builtin"].status == "ok" and engines["builtin"].protocol == "builtin"
    assert engines["builtin"].kind == "go" and engines["stockfish"].kind == "chess"


def test_stockfish_found_is_asked_its_name(engines_dir, no_system_katago, monkeypatch, tmp_path):
    script = tmp_path / "stockfish"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {fake_engine_command('fake_uci.py')[1]} --name 'Stockfish 99'\n")
    script.chmod(0o755)
    monkeypatch.setattr(install, "stockfish_path", lambda: script)
    stockfish = by_name(discovery.find_engines(kind="chess"))["stockfish"]
    assert (stockfish.status, stockfish.version, stockfish.command) == ("ok", "Stockfish 99", (str(script),))


def test_stockfish_that_does_not_answer_is_broken(engines_dir, no_system_katago, monkeypatch, tmp_path):
    script = tmp_path / "stockfish"
    script.write_text("#!/bin/sh\nexit 3\n")
    script.chmod(0o755)
    monkeypatch.setattr(install, "stockfish_path", lambda: script)
    assert by_name(discovery.find_engines(kind="chess"))["stockfish"].status == "broken"


def test_installed_katago_is_found_with_its_command(engines_dir, no_system_katago):
    home = fake_katago_home(engines_dir)
    katago = by_name(discovery.find_engines(kind="go"))["katago"]
    assert katago.status == "ok" and katago.version == "1.18.1" and katago.source == "installed"
    assert katago.command == (str(home / "katago"), "analysis", "-config", str(home / "analysis.cfg"),
                              "-model", str(home / "models" / "m.bin.gz"))


def test_installed_katago_without_its_tuning_file_needs_tuning(engines_dir, no_system_katago, tmp_path):
    fake_katago_home(engines_dir, tuning=tmp_path / "gone" / "tune13_gpuX_x19_y19_c192_mv8.txt")
    assert by_name(discovery.find_engines(kind="go"))["katago"].status == "needs-tuning"


def test_installed_katago_that_does_not_run_is_broken(engines_dir, no_system_katago):
    fake_katago_home(engines_dir, launcher_body="exit 1")
    assert by_name(discovery.find_engines(kind="go"))["katago"].status == "broken"


def test_a_stamp_with_missing_files_counts_as_not_installed(engines_dir, no_system_katago):
    home = fake_katago_home(engines_dir)
    (home / "models" / "m.bin.gz").unlink()
    assert install.installed_katago() is None
    assert by_name(discovery.find_engines(kind="go"))["katago"].status == "missing"


def test_user_engines_from_settings(engines_dir, no_system_katago):
    write_settings([
        {"name": "my-uci", "kind": "chess", "protocol": "uci", "command": fake_engine_command("fake_uci.py")},
        {"name": "my-kata", "kind": "go", "protocol": "katago", "command": fake_engine_command("fake_katago.py")},
        {"name": "ghost", "kind": "chess", "protocol": "uci", "command": ["/no/such/engine"]},
    ])
    engines = by_name(discovery.find_engines())
    assert engines["my-uci"].status == "ok" and engines["my-uci"].version  # it answered `uci`
    assert engines["my-kata"].status == "ok" and engines["my-kata"].protocol == "katago"
    assert engines["ghost"].status == "missing"
    assert {"stockfish", "katago", "builtin"} <= set(engines)
    assert discovery.find_engine("MY-KATA", "go").name == "my-kata"


def test_bad_settings_are_reported_and_the_rest_still_listed(engines_dir, no_system_katago):
    path = discovery.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    problems: list[str] = []
    engines = by_name(discovery.find_engines(problems=problems))
    assert "builtin" in engines and len(problems) == 1 and "engines.json" in problems[0]
    write_settings([{"name": "", "command": []}, {"name": "ok", "protocol": "uci", "command": "echo hi"}])
    problems.clear()
    engines = by_name(discovery.find_engines(problems=problems, check=False))
    assert "ok" in engines and len(problems) == 1 and "engine 1 ignored" in problems[0]


def test_reviewer_engines_prints_a_table(engines_dir, no_system_katago, capsys):
    fake_katago_home(engines_dir)
    assert cli.main(["engines"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:] if line.strip() and not line.startswith("Your")}
    assert rows["katago"][1:5] == ["go", "katago", "1.18.1", "ok"]
    assert rows["builtin"][1:3] == ["go", "builtin"] and rows["builtin"][4] == "ok"
    assert rows["stockfish"][1:3] == ["chess", "uci"]


def test_reviewer_engines_json(engines_dir, no_system_katago, capsys):
    assert cli.main(["engines", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {"stockfish", "katago", "builtin"} <= {entry["name"] for entry in listed}
    assert all(entry["status"] in ("ok", "missing", "broken", "needs-tuning") for entry in listed)


@pytest.mark.parametrize(
    "results, code",
    [
        ([StepResult("stockfish", True, "ok"), StepResult("opencl", True, "ok"), StepResult("katago", False, "no")], 0),
        ([StepResult("stockfish", False, "no"), StepResult("opencl", True, "ok"), StepResult("katago", True, "ok")], 0),
        ([StepResult("stockfish", False, "no"), StepResult("opencl", False, "no"), StepResult("katago", False, "no")], 1),
    ],
)
def test_reviewer_engines_install_fails_only_when_nothing_is_usable(monkeypatch, capsys, results, code):
    monkeypatch.setattr(install, "install_all", lambda progress, force=False: results)
    assert cli.main(["engines", "install"]) == code
    err = capsys.readouterr().err
    if not results[2].ok:
        assert "warning: no" in err


def test_engines_dir_comes_from_the_environment(engines_dir):
    assert paths.engines_dir() == engines_dir and install.katago_home() == engines_dir / "katago"


def test_installed_katago_command_with_threads(tmp_path):
    katago = InstalledKataGo(home=tmp_path, version="1", models={"m": "models/m.bin.gz"}, default_model="m",
                             tuning_files=(), tuning_status="ok")
    assert katago.command(threads=3)[-2:] == ["-override-config", "numSearchThreadsPerAnalysisThread=3"]


def test_installed_katago_that_failed_its_check_is_broken(engines_dir, no_system_katago):
    home = fake_katago_home(engines_dir)
    stamp = json.loads((home / "installed.json").read_text())
    (home / "installed.json").write_text(json.dumps({**stamp, "tuning_status": "broken", "problem": "no OpenCL"}))
    katago = by_name(discovery.find_engines(kind="go"))["katago"]
    assert katago.status == "broken" and "no OpenCL" in katago.detail


def test_a_settings_entry_without_a_field_says_which(engines_dir, no_system_katago):
    write_settings([{"name": "no-command", "protocol": "uci"}, "just text", {"name": "ok", "command": "echo hi"}])
    problems: list[str] = []
    engines = by_name(discovery.find_engines(problems=problems, check=False))
    assert "ok" in engines
    assert [problem.split(": ", 1)[1] for problem in problems] == [
        'engine 1 ignored: no "command"',
        "engine 2 ignored: not an object with a name and a command",
    ]
