"""Small things that must read right: one accuracy with the other explained, menu entries with one
name each, N to the next mistake or blunder, the settings dialog showing the toolbar's limit, and
export dialogs that start in a folder that can be written."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from reviewer.gui.common.settings import EngineChoice, default_limit, describe_limit
from reviewer.gui.dialogs.settings_dialog import SettingsDialog
from reviewer.gui.files.exports import suggested_export_path
from reviewer.gui.window.main_window import MainWindow


@pytest.fixture
def window(qtbot) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1200, 800)
    main.show()
    qtbot.waitExposed(main)
    return main


def all_actions(menu) -> list:
    found = []
    for action in menu.actions():
        found.append(action)
        if action.menu() is not None:
            found.extend(all_actions(action.menu()))
    return found


def test_every_menu_entry_has_its_own_name(window) -> None:
    for top in window.menuBar().actions():
        names = [a.text().replace("&", "") for a in all_actions(top.menu()) if a.text() and not a.isSeparator()]
        repeated = {name for name in names if names.count(name) > 1 and not name[:1].isdigit()}
        assert not repeated, f"{top.text()}: {repeated}"
    assert window.commands.next_mistake_action.text().replace("&", "") == "Next mistake or blunder"


def test_n_goes_to_the_next_mistake_or_blunder_past_inaccuracies(qtbot, window, corpus_dir, monkeypatch) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=10_000):
        window.open_file(corpus_dir / "pgn" / "chesslib__promoting.pgn")
    judged = {3: "inaccuracy", 7: "mistake", 9: "inaccuracy", 12: "blunder"}
    monkeypatch.setattr(window.session.model, "judgements", lambda: judged)
    qtbot.keyClick(window, Qt.Key.Key_N)
    assert window.session.model.current_ply == 7
    qtbot.keyClick(window, Qt.Key.Key_N)
    assert window.session.model.current_ply == 12
    qtbot.keyClick(window, Qt.Key.Key_P)
    assert window.session.model.current_ply == 7


def test_the_settings_dialog_shows_the_limit_the_toolbar_shows(qtbot) -> None:
    passes = default_limit("chess")  # the toolbar's default: a review in passes
    assert passes.scheme is not None
    dialog = SettingsDialog(kind="chess", engines=[], engine=EngineChoice(kind="chess"), limit=passes, preset="lichess")
    qtbot.addWidget(dialog)
    button, label = dialog._limit_rows["passes"]
    assert button.isChecked() and label.text() == describe_limit(passes)
    assert not dialog._limit_rows["nodes"][0].isChecked()
    assert dialog.limit() == passes  # OK keeps it


def test_an_export_starts_beside_the_game_unless_that_folder_is_read_only(tmp_path) -> None:
    games, exports = tmp_path / "games", tmp_path / "exports"
    games.mkdir()
    exports.mkdir()
    source = str(games / "club.pgn")
    assert suggested_export_path(source, str(exports), "pgn") == games / "club-reviewed.pgn"
    read_only = lambda folder: folder != games  # noqa: E731
    assert suggested_export_path(source, str(exports), "pgn", writable=read_only) == exports / "club-reviewed.pgn"
    assert suggested_export_path(source, "", "json", "report", writable=read_only) == Path.home() / "club-report.json"
