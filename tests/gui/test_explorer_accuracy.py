"""The accuracy of the games in the opening explorer: a game reviewed in the window gets the
accuracy its analysis gives, shown beside it among the top games and filtered by, driven by real
mouse and key events on Morphy's games of the shared corpus and an analysis cache filled by an engine."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from support import fake_engine_command
from test_explorer_panel import WAIT_MS, _open, _shoot, _wait_answer, _window

from reviewer.core.analysis import Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.database import GameDatabase, default_database_path, import_paths
from reviewer.core.database.figures import figures_of, join_analysis
from reviewer.core.engines.uci import UciEngine
from reviewer.core.formats import open_collection
from reviewer.core.review import analyse_game
from reviewer.gui.presenters.figures import side_accuracy


@pytest.fixture
def analysed_first_game(morphy_file):
    """The database of Morphy's games, and the analysis cache holding the whole of the first one."""
    with GameDatabase(default_database_path()) as made:
        import_paths(made, [morphy_file])
    with AnalysisCache() as cache, UciEngine(fake_engine_command("fake_uci.py")) as engine:
        list(analyse_game(open_collection(morphy_file).game(0), engine, Limit(nodes=1000), threading.Event(), cache))
    return default_database_path()


def _first_game_row(panel):
    for place in range(panel.games.topLevelItemCount()):
        item = panel.games.topLevelItem(place)
        stored, _ply = item.data(0, Qt.ItemDataRole.UserRole)
        if stored.source_index == 0:
            return item
    return None


def test_a_reviewed_game_shows_its_accuracy_and_is_kept_by_the_accuracy_filter(qtbot, analysed_first_game, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)  # its analysis is in the cache: the window's review of it is joined
    window.go_to_ply(20)
    qtbot.waitUntil(lambda: (row := _first_game_row(panel)) is not None and row.text(3) != "–", timeout=WAIT_MS)
    with GameDatabase(analysed_first_game) as database:
        game_id = int(database.connection.execute("SELECT id FROM games WHERE source_index = 0").fetchone()[0])
        joined = figures_of(database, [game_id])[game_id]
    with GameDatabase(analysed_first_game) as database, AnalysisCache() as cache:  # what the command line joins
        join_analysis(database, cache, again=True)
        assert figures_of(database, [game_id])[game_id] == joined
    assert joined.complete
    row = _first_game_row(panel)
    assert row.text(3) == f"{joined.accuracy['white']:.0f} / {joined.accuracy['black']:.0f}"
    assert "Accuracy: White" in row.toolTip(3)
    reviewed = window.session.model.assessment  # the same accuracy as the review on show
    assert row.text(3) == " / ".join(f"{side_accuracy(reviewed, color):.0f}" for color in ("white", "black"))
    lowest = int(min(joined.accuracy["white"], joined.accuracy["black"]))
    box = panel.min_accuracy
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, box.rect().center())
    box.selectAll()
    QTest.keyClicks(box, str(max(1, lowest - 1)))
    QTest.keyClick(box, Qt.Key.Key_Return)
    answer = _wait_answer(qtbot, panel, 1)  # the one game analysed in full
    assert [game.source_index for game, _move in answer.exploration.top_games] == [0]
    _shoot(qtbot, window, "accuracy")
