"""The engine manager and the About dialog: real dialogs, real engines (fakes speaking the real
protocols), real clicks; the installer is a real process that tests replace with a small script."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from support import fake_engine_command

from reviewer import __version__
from reviewer.core.engines.discovery import EngineInfo, find_engines, settings_path
from reviewer.core.engines.user_engines import EngineOptions, user_engines
from reviewer.gui.common.settings import EngineChoice, Settings
from reviewer.gui.dialogs.about import AboutDialog
from reviewer.gui.dialogs.engine_manager import EngineManagerDialog, install_command

CHESS = EngineInfo("stockfish", "chess", "uci", ("/usr/games/stockfish",), "Stockfish 16", "ok", "/usr/games/stockfish", "path")
KATAGO = EngineInfo("katago", "go", "katago", (), None, "missing", "not installed; run `reviewer engines install`", "installed")
BUILTIN = EngineInfo("builtin", "go", "builtin", (), "1.0", "ok", "built-in Monte Carlo engine", "builtin")


def _dialog(qtbot, find=None, installer=install_command, kind="chess"):
    dialog = EngineManagerDialog(Settings(), kind, find=find or (lambda: [CHESS, KATAGO, BUILTIN]), installer=installer)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.engines_listed, timeout=60_000):
        dialog.show()
    return dialog


def _click(button):
    assert button.isEnabled(), button.text()
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def _cells(dialog, row):
    return [dialog.table.item(row, column).text() for column in range(dialog.table.columnCount())]


def test_lists_each_engine_with_version_path_protocol_and_game(qtbot):
    dialog = _dialog(qtbot)
    assert _cells(dialog, 0) == ["stockfish  ★ default", "chess", "Stockfish 16", "UCI", "ok", "/usr/games/stockfish"]
    assert _cells(dialog, 1)[:5] == ["katago", "go", "–", "KataGo analysis", "missing"]
    assert _cells(dialog, 2)[0] == "builtin  ★ default"  # the first usable Go engine analyses Go now
    assert "KataGo is not installed" in dialog.status_label.text()


def test_a_katago_whose_network_reviewers_search_searches_says_so(qtbot):
    searched = EngineInfo("katago", "go", "katago", ("/opt/katago", "analysis", "-model", "m.bin.gz"), "1.18.1", "ok",
                          "/opt/katago; its network searched by Reviewer's own search (no GPU found)", "installed",
                          searched_in_process=True, shown_name="KataGo network, Reviewer's search")  # as the adapter lists it
    dialog = _dialog(qtbot, find=lambda: [CHESS, searched, BUILTIN], kind="go")
    (row,) = [r for r in range(dialog.table.rowCount()) if _cells(dialog, r)[1] == "go" and "katago" in _cells(dialog, r)[0]]
    assert _cells(dialog, row)[3] == "KataGo network, Reviewer's search"
    assert "Reviewer's own search" in dialog.table.item(row, 3).toolTip()


def test_add_by_path_probes_off_the_gui_thread_then_lists_and_removes_it(qtbot):
    dialog = _dialog(qtbot, find=lambda: list(find_engines(check=True)))
    command = shlex.join(fake_engine_command("fake_uci.py", "--name", "LabFish 2"))
    with qtbot.waitSignal(dialog.engines_listed, timeout=60_000):
        dialog.add_program(command)
    assert "Added labfish-2" in dialog.status_label.text()
    row = next(i for i, e in enumerate(dialog.engines) if e.name == "labfish-2")
    assert _cells(dialog, row)[1:5] == ["chess", "LabFish 2", "UCI", "ok"]
    assert dialog.selected_engine().name == "labfish-2"
    assert [e.name for e in user_engines()] == ["labfish-2"]

    _click(dialog.default_button)
    assert Settings().engine_choice("chess") == EngineChoice("chess", "labfish-2")
    assert dialog.table.item(row, 0).text() == "labfish-2  ★ default"

    with qtbot.waitSignal(dialog.engines_listed, timeout=60_000):
        _click(dialog.remove_button)
    assert user_engines() == [] and "labfish-2" not in [e.name for e in dialog.engines]


def test_a_program_that_is_no_engine_gets_a_message_that_stays(qtbot, tmp_path):
    dialog = _dialog(qtbot)
    gtp = shlex.join(fake_engine_command("fake_gtp.py"))
    dialog.add_program(gtp)
    qtbot.waitUntil(lambda: dialog.status_label.text().startswith("Not added"), timeout=60_000)
    assert "answers GTP (FakeGnu 3.8)" in dialog.status_label.text() and dialog.status_label.property("problem")
    assert not settings_path().exists()
    assert dialog.add_button.isEnabled()


def test_found_engines_cannot_be_removed_but_take_options(qtbot):
    dialog = _dialog(qtbot)
    dialog.select("stockfish")
    assert not dialog.remove_button.isEnabled() and dialog.options_button.isEnabled()
    with qtbot.waitSignal(dialog.engines_changed, timeout=60_000):
        dialog.store_options(dialog.selected_engine(), EngineOptions(threads=2, hash_mb=64))
    (stored,) = user_engines()
    assert (stored.name, stored.command, stored.options) == ("stockfish", CHESS.command, EngineOptions(threads=2, hash_mb=64))
    dialog.select("builtin")
    assert not dialog.options_button.isEnabled() and not dialog.remove_button.isEnabled()


def _installer_script(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "installer.py"
    script.write_text(body, encoding="utf-8")
    return script


def test_install_shows_each_step_and_lists_the_engine_after(qtbot, tmp_path):
    script = _installer_script(tmp_path, (
        "import sys\n"
        "print('reviewer engines: apt-get install stockfish', file=sys.stderr, flush=True)\n"
        "print('ok: Stockfish is installed: /usr/games/stockfish')\n"
    ))
    lists = []
    dialog = _dialog(qtbot, find=lambda: lists.append(1) or [CHESS, KATAGO, BUILTIN],
                     installer=lambda engine: [sys.executable, str(script), engine])
    with qtbot.waitSignal(dialog.install_finished, timeout=60_000) as finished:
        _click(dialog.install_buttons["stockfish"])
        assert dialog.progress.isVisible() and dialog.cancel_button.isVisible()
        assert not dialog.install_buttons["katago"].isEnabled()
    assert finished.args == ["stockfish", True]
    assert dialog.status_label.text() == "Stockfish is installed."
    assert not dialog.progress.isVisible()
    qtbot.waitUntil(lambda: len(lists) == 2, timeout=60_000)  # listed again after the install


def test_an_install_can_be_cancelled(qtbot, tmp_path):
    script = _installer_script(tmp_path, (
        "import sys, time\n"
        "print('reviewer engines: downloading katrain 1.20.0', file=sys.stderr, flush=True)\n"
        "sys.stdin.read()\n"  # waits until it is stopped
    ))
    dialog = _dialog(qtbot, installer=lambda engine: [sys.executable, str(script)])
    with qtbot.waitSignal(dialog.install_finished, timeout=60_000) as finished:
        _click(dialog.install_buttons["katago"])
        qtbot.waitUntil(lambda: "downloading katrain" in dialog.status_label.text(), timeout=60_000)
        _click(dialog.cancel_button)
    assert finished.args == ["katago", False]
    assert "cancelled" in dialog.status_label.text() and dialog.install_buttons["katago"].isEnabled()


def test_a_failed_install_says_why(qtbot, tmp_path):
    script = _installer_script(tmp_path, (
        "import sys\n"
        "print('error: Stockfish is not installed: run apt-get install stockfish as root', file=sys.stderr)\n"
        "sys.exit(1)\n"
    ))
    dialog = _dialog(qtbot, installer=lambda engine: [sys.executable, str(script)])
    with qtbot.waitSignal(dialog.install_finished, timeout=60_000):
        _click(dialog.install_buttons["stockfish"])
    assert dialog.status_label.text() == (
        "Stockfish could not be installed: error: Stockfish is not installed: run apt-get install stockfish as root"
    )


def test_the_engines_menu_opens_the_manager_and_an_install_from_it(qtbot, tmp_path, monkeypatch):
    from reviewer.gui import dialogs
    from reviewer.gui.dialogs import engine_manager
    from reviewer.gui.window.main_window import MainWindow

    script = _installer_script(tmp_path, "import sys\nsys.stdin.read()\n")
    monkeypatch.setattr(engine_manager, "install_command", lambda engine: [sys.executable, str(script), engine])
    window = MainWindow(discover_engines=False)
    qtbot.addWidget(window)
    menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Engines")
    assert [a.text() for a in menu.actions() if a.text()] == ["&Engine manager…", "Install &Stockfish…", "Install &KataGo…"]
    window.commands.install_katago_action.trigger()
    dialog = window.findChild(engine_manager.EngineManagerDialog)
    assert dialog is not None and dialog.isVisible() and dialog.progress.isVisible()
    assert dialogs is not None
    with qtbot.waitSignal(dialog.install_finished, timeout=60_000):
        dialog.reject()  # closing stops the installation


def test_install_runs_this_reviewer():
    command = install_command("katago")
    assert command[-5:] == ["reviewer", "engines", "install", "--only", "katago"] or command[-4:] == [
        "engines", "install", "--only", "katago"]
    assert command[0] == sys.executable


def test_about_lists_versions_and_the_engines_found_in_a_worker(qtbot):
    dialog = AboutDialog(find=lambda: [CHESS, KATAGO])
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.engines_table.item(0, 0).text() == "Looking for engines…"
    qtbot.waitUntil(lambda: dialog.engines_found is not None, timeout=60_000)
    text = dialog.text()
    import chess
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import qVersion

    for line in (f"Reviewer: {__version__}", f"Qt: {qVersion()}", f"PySide6: {pyside_version}", f"python-chess: {chess.__version__}"):
        assert line in text
    assert "engine: stockfish · chess · Stockfish 16 · ok" in text
    assert "engine: katago · go · – · missing: not installed" in text
    _click(dialog.copy_button)
    assert QGuiApplication.clipboard().text() == text


def test_about_from_the_help_menu(qtbot, monkeypatch):
    from reviewer.gui.dialogs import about
    from reviewer.gui.window.main_window import MainWindow

    shown = []
    monkeypatch.setattr(about.AboutDialog, "exec", lambda self: shown.append(self.windowTitle()) or 0)
    window = MainWindow(discover_engines=False)
    qtbot.addWidget(window)
    window.commands.about_action.trigger()
    assert shown == ["About Reviewer"]


def test_a_katago_without_a_model_asks_for_one_then_is_added(qtbot, tmp_path, monkeypatch):
    from reviewer.core.engines import install
    from reviewer.gui.dialogs import engine_manager

    fake = fake_engine_command("fake_katago.py")
    binary = tmp_path / "katago"  # answers `katago version` as KataGo does, else is the fake analysis engine
    binary.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = version ]; then echo "KataGo v1.18.1"; exit 0; fi\n'
        f"exec {shlex.join(fake)} \"$@\"\n"
    )
    binary.chmod(0o755)
    model = tmp_path / "net.bin.gz"
    model.write_bytes(b"not a real network; the fake engine does not read it")
    monkeypatch.setattr(install, "installed_katago", lambda home=None: None)
    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(tmp_path / "engines"))  # where its config is written
    asked = []
    monkeypatch.setattr(engine_manager, "choose_model_file", lambda parent: asked.append(1) or str(model))
    dialog = _dialog(qtbot, find=lambda: list(find_engines(check=False)))
    dialog.add_program(str(binary))
    qtbot.waitUntil(lambda: dialog.status_label.text().startswith("Added"), timeout=60_000)
    assert asked == [1]
    (added,) = user_engines()
    assert added.protocol == "katago" and added.options.model == str(model)
    assert added.command[:4] == (str(binary), "analysis", "-model", str(model))
    config = Path(added.command[added.command.index("-config") + 1])
    assert config.is_relative_to(tmp_path / "engines") and "reportAnalysisWinratesAs = BLACK" in config.read_text()


def test_katago_put_in_place_while_the_app_runs_is_offered_everywhere_after_the_managers_refresh(qtbot, tmp_path, monkeypatch):
    from support import REPO_ROOT, found_katago

    from reviewer.core.engines import discovery
    from reviewer.gui.dialogs.settings_dialog import SettingsDialog
    from reviewer.gui.window.main_window import MainWindow

    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(tmp_path / "nothing-installed"))
    monkeypatch.setattr(discovery, "_system_katago", lambda: None)
    window = MainWindow(discover_engines=True)
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.file_opened, timeout=10_000):
        window.open_file(REPO_ROOT / "tests" / "data" / "go_9x9_passes.sgf")
    controller = window.analysis_controller
    qtbot.waitUntil(lambda: any(e.name == "katago" for e in controller.known_engines()), timeout=60_000)

    def katago_in_menu():
        menu = window.commands.engine_menu
        menu.aboutToShow.emit()
        return next(action for action in menu.actions() if action.text().lower().startswith("katago"))

    assert not katago_in_menu().isEnabled()  # not installed yet: greyed out
    settings = SettingsDialog("go", controller.known_engines(), window.engine_choice("go"), controller.limit("go"), "lichess", window)
    qtbot.addWidget(settings)
    controller.engines_known.connect(settings.set_engines)

    found_katago(tmp_path, monkeypatch)  # KataGo put in place while the app runs
    dialog = window.dialogs.show_engine_manager()
    qtbot.waitUntil(lambda: dialog.refresh_button.isEnabled(), timeout=60_000)
    with qtbot.waitSignal(dialog.engines_listed, timeout=60_000):
        _click(dialog.refresh_button)
    assert any(e.name == "katago" and e.usable for e in dialog.engines)
    assert katago_in_menu().isEnabled()
    assert window.commands.engine_button.text().startswith("KataGo")  # the choice follows: KataGo first for Go
    labels = [settings.engine_combo.itemText(i) for i in range(settings.engine_combo.count())]
    assert any(label.lower().startswith("katago") and "not usable" not in label for label in labels)
    dialog.reject()
