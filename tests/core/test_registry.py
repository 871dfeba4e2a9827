"""Opening engines by command, by name, or the best one for a kind of game."""

from __future__ import annotations

import json
import sys
import threading

import pytest
from support import found_katago, version_calls

from reviewer.core.analysis import Limit
from reviewer.core.engines import discovery, registry
from reviewer.core.engines.base import Engine, EngineNotFound
from reviewer.core.engines.builtin_go import BuiltinGoEngine
from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.engines.uci import UciEngine
from reviewer.core.gametree import Game, Node, point_from_gtp
from tests.conftest import fake_engine_command

pytestmark = pytest.mark.timeout(60)


def listing(monkeypatch, *engines: EngineInfo) -> None:
    monkeypatch.setattr(registry, "find_engines", lambda kind=None: [e for e in engines if kind in (None, e.kind)])


def info(name, kind, protocol, command=(), status="ok") -> EngineInfo:
    return EngineInfo(name, kind, protocol, tuple(command), "1", status, "", "test")


BUILTIN = info("builtin", "go", "builtin")


def small_go_game() -> Game:
    game = Game(kind="go", board_width=5, board_height=5, first_player="black", komi=0.5)
    game.root.add_child(Node(move="C3", color="black", point=point_from_gtp("C3", 5)))
    return game


def test_a_chess_command_opens_a_uci_engine():
    engine = registry.open_engine("chess", command=fake_engine_command("fake_uci.py"))
    try:
        assert isinstance(engine, UciEngine) and isinstance(engine, Engine) and engine.kind == "chess"
    finally:
        engine.close()


def test_a_go_command_opens_katago_analysis_and_threads_go_to_its_config():
    engine = registry.open_engine("go", command=fake_engine_command("fake_katago.py"), threads=3)
    try:
        assert isinstance(engine, KataGoEngine) and isinstance(engine, Engine)
        assert engine.command[-2:] == ["-override-config", "numSearchThreadsPerAnalysisThread=3"]
        results = list(engine.analyse(small_go_game(), [0, 1], Limit(visits=2), threading.Event()))
        assert sorted(e.ply for e in results) == [0, 1]
    finally:
        engine.close()


def test_a_command_string_is_split_like_a_shell():
    command = " ".join(fake_engine_command("fake_katago.py", "--version", "9.9.9"))
    engine = registry.open_engine("go", command=command)
    try:
        assert engine.identity.startswith("KataGo 9.9.9")
    finally:
        engine.close()


def test_builtin_by_name():
    assert isinstance(registry.open_engine("go", name="builtin"), BuiltinGoEngine)


def test_builtin_by_name_starts_no_program(monkeypatch):
    import subprocess

    started: list[list[str]] = []
    real_popen = subprocess.Popen

    class RecordingPopen(real_popen):  # type: ignore[misc,valid-type]
        def __init__(self, args, *rest, **options):
            started.append(list(args) if not isinstance(args, str) else [args])
            super().__init__(args, *rest, **options)

    monkeypatch.setattr(subprocess, "Popen", RecordingPopen)
    engine = registry.open_engine("go", name="builtin")
    assert isinstance(engine, BuiltinGoEngine)
    assert started == []  # not even `katago version`


def test_a_builtin_named_in_engines_json_still_wins():
    path = discovery.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"engines": [
        {"name": "builtin", "kind": "go", "protocol": "katago", "command": fake_engine_command("fake_katago.py")}
    ]}))
    engine = registry.open_engine("go", name="builtin")
    try:
        assert isinstance(engine, KataGoEngine)
    finally:
        engine.close()


def test_a_name_from_engines_json(monkeypatch):
    path = discovery.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"engines": [
        {"name": "my-kata", "kind": "go", "protocol": "katago", "command": fake_engine_command("fake_katago.py")}
    ]}))
    engine = registry.open_engine("go", name="My-Kata")
    try:
        assert isinstance(engine, KataGoEngine) and engine.name == "my-kata"
    finally:
        engine.close()


def test_unknown_name_says_what_is_known_and_how_to_install(monkeypatch):
    listing(monkeypatch, info("stockfish", "chess", "uci", ["sf"]), BUILTIN)
    with pytest.raises(EngineNotFound, match=r"no chess engine named 'lc0' \(known: stockfish\).*reviewer engines install"):
        registry.open_engine("chess", name="lc0")


@pytest.mark.parametrize("status, words", [("missing", "is not installed"), ("broken", "does not work"),
                                           ("needs-tuning", "tune OpenCL")])
def test_an_unusable_engine_by_name_says_why(monkeypatch, status, words):
    listing(monkeypatch, info("katago", "go", "katago", ["katago"], status=status), BUILTIN)
    with pytest.raises(EngineNotFound, match=words):
        registry.open_engine("go", name="katago")


def test_best_go_engine_is_katago_when_it_works(monkeypatch):
    listing(monkeypatch, info("katago", "go", "katago", fake_engine_command("fake_katago.py")), BUILTIN)
    engine = registry.open_engine("go")
    try:
        assert isinstance(engine, KataGoEngine)
    finally:
        engine.close()


def test_best_go_engine_is_builtin_without_katago(monkeypatch):
    listing(monkeypatch, info("katago", "go", "katago", status="missing"), BUILTIN)
    assert isinstance(registry.open_engine("go"), BuiltinGoEngine)


def test_best_go_engine_is_builtin_when_katago_does_not_start(monkeypatch):
    listing(monkeypatch, info("katago", "go", "katago", fake_engine_command("fake_katago.py", "--exit-on-start")),
            BUILTIN)
    assert isinstance(registry.open_engine("go"), BuiltinGoEngine)


def test_best_chess_engine_is_stockfish(monkeypatch):
    listing(monkeypatch, info("stockfish", "chess", "uci", fake_engine_command("fake_uci.py")))
    engine = registry.open_engine("chess")
    try:
        assert isinstance(engine, UciEngine)
    finally:
        engine.close()


def test_no_chess_engine_says_how_to_install(monkeypatch):
    listing(monkeypatch, info("stockfish", "chess", "uci", status="missing"), BUILTIN)
    with pytest.raises(EngineNotFound, match="reviewer engines install"):
        registry.open_engine("chess")


def test_empty_command_and_unknown_kind_are_refused():
    with pytest.raises(EngineNotFound):
        registry.open_engine("go", command=[])
    with pytest.raises(ValueError):
        registry.open_engine("shogi")  # type: ignore[arg-type]


def test_a_commands_fingerprint_is_stable_and_changes_with_its_files(tmp_path):
    script = tmp_path / "engine.py"
    script.write_text("print('v1')\n")
    command = [sys.executable, str(script), "--flag"]
    first = registry.engine_fingerprint("chess", command=command)
    assert first is not None
    assert registry.engine_fingerprint("chess", command=list(command)) == first
    assert registry.engine_fingerprint("go", command=command) != first  # another protocol
    assert registry.engine_fingerprint("chess", command=[*command[:2], "--other"]) != first
    script.write_text("print('version two')\n")
    assert registry.engine_fingerprint("chess", command=command) != first


def test_no_fingerprint_for_what_cannot_be_told_without_running_it(tmp_path):
    assert registry.engine_fingerprint("chess", command=[str(tmp_path / "no-such-engine")]) is None
    assert registry.engine_fingerprint("chess", command="'unbalanced") is None
    assert registry.engine_fingerprint("go", name="katago") is None
    assert registry.engine_fingerprint("chess", name="my-settings-engine") is None


def test_a_board_bigger_than_katago_plays_gets_the_builtin_engine(monkeypatch):
    def no_discovery(kind=None):
        raise AssertionError("no need to look for KataGo for a 21x21 board")

    monkeypatch.setattr(registry, "find_engines", no_discovery)
    assert isinstance(registry.open_engine("go", board_size=(21, 21)), BuiltinGoEngine)
    assert isinstance(registry.open_engine("go", board_size=(19, 25)), BuiltinGoEngine)
    assert registry.katago_plays((19, 19)) and registry.katago_plays(None) and not registry.katago_plays((20, 9))


def test_katago_by_name_for_a_board_it_cannot_play_says_so_before_starting(monkeypatch):
    from reviewer.core.engines.base import EngineUnsuitable

    listing(monkeypatch, info("katago", "go", "katago", ["no-such-program"]), BUILTIN)
    with pytest.raises(EngineUnsuitable, match=r"KataGo plays boards up to 19×19, not 21×21; use --engine builtin"):
        registry.open_engine("go", name="katago", board_size=(21, 21))
    assert isinstance(registry.open_engine("go", name="builtin", board_size=(21, 21)), BuiltinGoEngine)


def test_best_go_engine_for_a_board_katago_plays_is_still_katago(monkeypatch):
    listing(monkeypatch, info("katago", "go", "katago", fake_engine_command("fake_katago.py")), BUILTIN)
    engine = registry.open_engine("go", board_size=(19, 19))
    try:
        assert isinstance(engine, KataGoEngine)
    finally:
        engine.close()


def test_whether_go_is_reviewed_by_katago_is_told_without_starting_it(monkeypatch):
    listing(monkeypatch, info("katago", "go", "katago", ["no-such-program"]), BUILTIN)
    def go_engine_is_katago(name=None, command=None, board_size=None) -> bool:
        return registry.EnginePlan("go", name, command, board_size).runs_katago

    assert go_engine_is_katago()
    assert go_engine_is_katago(name="KataGo")
    assert not go_engine_is_katago(name="builtin")
    assert not go_engine_is_katago(board_size=(25, 25))  # too big: the built-in engine plays it
    assert go_engine_is_katago(command=["my-katago", "analysis"])
    listing(monkeypatch, info("katago", "go", "katago", status="missing"), BUILTIN)
    assert not go_engine_is_katago()


def test_a_plan_looks_for_engines_once_for_whether_katago_plays_and_every_engine_it_opens(tmp_path, monkeypatch):
    versions = found_katago(tmp_path, monkeypatch)
    plan = registry.EnginePlan("go")
    assert plan.runs_katago and [engine.name for engine in plan.candidates] == ["katago"]
    for _ in range(2):
        engine = plan.open()
        try:
            assert isinstance(engine, KataGoEngine)
        finally:
            engine.close()
    assert version_calls(versions) == 1
    assert registry.EnginePlan("go").runs_katago and version_calls(versions) == 2  # a plan of its own


def test_without_the_fallback_a_katago_that_does_not_start_is_told_and_then_left_out(tmp_path, monkeypatch):
    starts = tmp_path / "starts"
    found_katago(tmp_path, monkeypatch, "--exit-on-start", "--started-log", str(starts))
    with pytest.raises(registry.KataGoDoesNotStart, match=r"^KataGo does not start \(KataGo exited .*could not open model"):
        registry.open_engine("go", fallback_to_builtin=False)
    plan = registry.EnginePlan("go")
    assert plan.runs_katago
    with pytest.raises(registry.KataGoDoesNotStart):
        plan.open(fallback_to_builtin=False)
    tried = len(starts.read_text().splitlines())
    assert not plan.runs_katago and plan.candidates == ()  # not tried again: the built-in engine plays
    assert isinstance(plan.open(fallback_to_builtin=False), BuiltinGoEngine)
    assert len(starts.read_text().splitlines()) == tried
    assert isinstance(registry.open_engine("go"), BuiltinGoEngine)  # the fallback, as before


def test_without_the_fallback_no_katago_found_still_means_the_builtin_engine(monkeypatch):
    listing(monkeypatch, info("katago", "go", "katago", status="missing"), BUILTIN)
    assert isinstance(registry.open_engine("go", fallback_to_builtin=False), BuiltinGoEngine)
    assert isinstance(registry.open_engine("go", board_size=(21, 21), fallback_to_builtin=False), BuiltinGoEngine)


def test_a_plan_keeps_what_discovery_said_about_a_name(monkeypatch):
    calls: list[str | None] = []

    def find(kind=None):
        calls.append(kind)
        return [BUILTIN]

    monkeypatch.setattr(registry, "find_engines", find)
    plan = registry.EnginePlan("go", name="nothing-like-it")
    assert not plan.runs_katago
    with pytest.raises(EngineNotFound, match="no go engine named 'nothing-like-it'"):
        plan.open()
    assert calls == ["go"]
    with pytest.raises(ValueError):
        registry.EnginePlan("shogi")  # type: ignore[arg-type]
