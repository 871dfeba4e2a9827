"""KataGo's network is built off the GUI thread when a Go game opens, so that the first engine
line does not wait for it; only for the KataGo the game would run."""

from __future__ import annotations

import pytest

from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.engines.install import installed_katago
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.engines.network_warmup import katago_to_warm
from reviewer.gui.window.main_window import MainWindow

KATAGO = EngineInfo("katago", "go", "katago", ("katago", "analysis", "-model", "m.bin.gz"), "1.18.1", "ok")
BUILTIN = EngineInfo("builtin", "go", "builtin", (), "1.2", "ok")


def test_the_katago_the_game_would_run_is_the_one_warmed():
    assert katago_to_warm(EngineChoice(kind="go"), [BUILTIN, KATAGO]) is KATAGO
    assert katago_to_warm(EngineChoice(kind="go", name="builtin"), [BUILTIN, KATAGO]) is None
    assert katago_to_warm(EngineChoice(kind="go"), []) is None  # discovery has not answered yet
    assert katago_to_warm(EngineChoice(kind="go", command="/opt/katago analysis -model 'my net.bin.gz'"), []) == [
        "/opt/katago", "analysis", "-model", "my net.bin.gz"
    ]


@pytest.mark.engine
def test_opening_a_go_game_builds_the_network_for_its_board(qtbot, corpus_dir, monkeypatch):
    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo is not installed: run `reviewer engines install`")
    from reviewer.core.engines.katago_net import evaluate

    monkeypatch.setattr(evaluate, "_runners", {})
    window = MainWindow(discover_engines=False)
    qtbot.addWidget(window)
    found = EngineInfo("katago", "go", "katago", tuple(installed.command()), installed.version, "ok")
    monkeypatch.setattr(window.analysis_controller, "known_engines", lambda: [found])
    with qtbot.waitSignal(window.file_opened, timeout=20_000):
        window.open_file(corpus_dir / "sgf" / "sabaki__endgame-9.sgf")
    qtbot.waitUntil(lambda: not window.tasks.busy() and bool(evaluate._runners), timeout=120_000)
    (runner,) = evaluate._runners.values()
    if runner.backend == "onnxruntime":
        assert runner.built(9, 9)
