"""The engine shown to the user is the one that runs: where Reviewer's own search searches KataGo's
network, the toolbar's engine button, the engine menu, the status bar and the engine manager all
name that search, never KataGo's process."""

from __future__ import annotations

import pytest
from window_support import open_game

from reviewer.core.engines.discovery import find_engines
from reviewer.core.engines.katago_search import SEARCH_VERSION
from reviewer.core.engines.katago_search_name import SEARCH_NAME, search_identity
from reviewer.gui.common.settings import engine_label
from reviewer.gui.engines.workers import engine_display_name
from reviewer.gui.window.main_window import MainWindow

GO_GAME = ("sgf", "sabaki__endgame-9.sgf")


def _installed_katago():
    found = [engine for engine in find_engines() if engine.name == "katago" and engine.usable]
    if not found:
        pytest.skip("KataGo and its network are not installed")
    return found[0]


def test_the_toolbar_and_the_engine_menu_name_reviewers_search_when_it_runs(qtbot, corpus_dir, monkeypatch):
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "search")
    _installed_katago()
    main = MainWindow(discover_engines=True)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    open_game(qtbot, main, corpus_dir.joinpath(*GO_GAME))
    button = main.commands.engine_button
    qtbot.waitUntil(lambda: button.text() == f"{SEARCH_NAME} ▾", timeout=30_000)
    assert "1.18" not in button.text()
    main.analysis_controller.fill_engine_menu()
    texts = [action.text() for action in main.commands.engine_menu.actions()]
    assert SEARCH_NAME in texts and not any(text.startswith("KataGo 1.") for text in texts)


def test_a_search_that_ran_before_discovery_answers_is_named_as_the_search(qtbot, corpus_dir):
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    open_game(qtbot, main, corpus_dir.joinpath(*GO_GAME))
    choice = main.engine_choice("go")
    main.settings.set_engine_identity(choice, search_identity(SEARCH_VERSION, "g170e-b15c192"))
    main.analysis_controller.update_engine_controls()
    assert main.commands.engine_button.text() == f"{SEARCH_NAME} ▾"


def test_every_name_of_the_search_is_the_same():
    identity = search_identity(SEARCH_VERSION, "g170e-b15c192")
    assert engine_display_name(identity) == SEARCH_NAME  # the status bar and the exports
    assert engine_display_name(f"{identity} | 32 visits") == SEARCH_NAME
    assert engine_display_name("KataGo 1.18.1 g170e-b15c192") == "KataGo 1.18.1 g170e-b15c192"


def test_a_katago_searched_in_process_is_labelled_as_the_search(monkeypatch):
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "search")
    from reviewer.core.engines.registry import engines_as_run

    (listed,) = engines_as_run([_installed_katago()])
    assert listed.searched_in_process
    assert engine_label(listed) == SEARCH_NAME
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "process")
    (process,) = engines_as_run([_installed_katago()])
    assert engine_label(process).startswith("KataGo 1.")
