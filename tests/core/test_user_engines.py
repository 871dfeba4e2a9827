"""The user's engines: a program is asked what it speaks before it is added to engines.json, and the
options stored there reach the engine when it runs."""

from __future__ import annotations

import json
import stat
import sys

import pytest
from support import fake_engine_command

from reviewer.core.engines.discovery import find_engines, settings_path
from reviewer.core.engines.registry import open_engine
from reviewer.core.engines.user_engines import (
    EngineOptions,
    ProbeError,
    add_engine,
    probe_engine,
    remove_engine,
    set_options,
    user_engines,
)


def _script(tmp_path, name: str, body: str):
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\n{body}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_uci_engine_is_recognised_by_its_answer():
    probed = probe_engine(fake_engine_command("fake_uci.py", "--name", "LabFish 2"))
    assert (probed.protocol, probed.kind, probed.name) == ("uci", "chess", "LabFish 2")


def test_katago_analysis_is_recognised_by_its_version_answer():
    probed = probe_engine(fake_engine_command("fake_katago.py", "--version", "1.16.0"))
    assert (probed.protocol, probed.kind, probed.name) == ("katago", "go", "KataGo 1.16.0")


def test_gtp_is_recognised_and_refused_with_what_to_do():
    with pytest.raises(ProbeError, match=r"fake_gtp.py answers GTP \(FakeGnu 3.8\).*KataGo"):
        probe_engine(fake_engine_command("fake_gtp.py"))


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("print('hello')", "answered neither UCI"),
        ("import sys; sys.exit(3)", "answered neither UCI"),
    ],
)
def test_a_program_that_is_no_engine_gets_a_clear_error(tmp_path, body, words):
    with pytest.raises(ProbeError, match=words):
        probe_engine(str(_script(tmp_path, "tool", body)))


def test_a_missing_or_unrunnable_path_is_refused(tmp_path):
    with pytest.raises(ProbeError, match="does not exist"):
        probe_engine(str(tmp_path / "nothing"))
    plain = tmp_path / "notes.txt"
    plain.write_text("uciok\n")
    with pytest.raises(ProbeError, match="is not a program"):
        probe_engine(str(plain))


def test_added_engines_are_found_used_and_removed(tmp_path):
    engine = add_engine(probe_engine(fake_engine_command("fake_uci.py", "--name", "LabFish 2")))
    again = add_engine(probe_engine(fake_engine_command("fake_uci.py", "--name", "LabFish 2")))
    assert (engine.name, again.name) == ("labfish-2", "labfish-2-2")
    found = {e.name: e for e in find_engines(kind="chess")}
    assert found["labfish-2"].usable and found["labfish-2"].version == "LabFish 2"
    with open_engine("chess", name="labfish-2") as running:
        assert "LabFish 2" in running.identity
    assert remove_engine("labfish-2") and not remove_engine("labfish-2")
    assert [e.name for e in user_engines()] == ["labfish-2-2"]
    assert "labfish-2" not in {e.name for e in find_engines(kind="chess")}


def test_options_are_stored_and_reach_katago(tmp_path):
    log = tmp_path / "args.log"
    command = [*fake_engine_command("fake_katago.py", "--log", str(log))]
    probed = probe_engine(command)
    engine = add_engine(probed, "lab-katago")
    set_options(engine.name, EngineOptions(threads=3, visits=64, model=str(tmp_path / "net.bin.gz")), "go", "katago", command)
    (stored,) = user_engines()
    assert stored.options == EngineOptions(threads=3, visits=64, model=str(tmp_path / "net.bin.gz"))
    assert json.loads(settings_path().read_text())["engines"][0]["options"]["visits"] == 64
    info = next(e for e in find_engines(kind="go") if e.name == "lab-katago")
    assert dict(info.options) == {"threads": 3, "visits": 64, "model": str(tmp_path / "net.bin.gz")}
    with open_engine("go", name="lab-katago") as running:
        arguments = running.command  # type: ignore[attr-defined]
    assert arguments[arguments.index("-model") + 1] == str(tmp_path / "net.bin.gz")
    assert "numSearchThreadsPerAnalysisThread=3,maxVisits=64" in arguments


def test_options_of_a_found_engine_make_an_entry_that_takes_its_place():
    stockfish = next((e for e in find_engines(kind="chess") if e.name == "stockfish" and e.usable), None)
    if stockfish is None:
        pytest.skip("Stockfish is not installed")
    set_options("stockfish", EngineOptions(threads=1, hash_mb=32), "chess", "uci", stockfish.command)
    listed = [e for e in find_engines(kind="chess") if e.name == "stockfish"]
    assert len(listed) == 1 and dict(listed[0].options) == {"threads": 1, "hash_mb": 32}
    with open_engine("chess", name="stockfish") as running:
        assert running.hash_mb == 32  # type: ignore[attr-defined]


def test_a_broken_engines_json_is_not_overwritten():
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text("{not json")
    with pytest.raises(ValueError, match="fix or remove it first"):
        add_engine(probe_engine(fake_engine_command("fake_uci.py")))
    assert settings_path().read_text() == "{not json"
