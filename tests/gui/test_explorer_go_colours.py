"""The explorer's "colours swapped too" for Go: shown only where a position can be looked up so,
it counts the games that reached the board with the colours swapped, as this board's; remembered."""

from __future__ import annotations

import screenshots
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from support import CORPUS_DIR, TRANSFORMS, transformed_copy
from test_explorer_panel import _open, _wait_answer, _window

from reviewer.core.database import GameDatabase, default_database_path, import_paths
from reviewer.core.formats import load_game, write_sgf
from reviewer.gui.common.settings import Settings


def test_colours_swapped_too_counts_the_go_games_of_the_board_with_its_colours_swapped(qtbot, tmp_path, morphy_file):
    original = load_game(CORPUS_DIR / "sgf" / "katrain__LS_vs_AG_G4_English.sgf")
    folder = tmp_path / "games"
    folder.mkdir()
    swapped = transformed_copy(original, TRANSFORMS[4], swap_colours=True)
    for name, game in (("original", original), ("swapped", swapped)):
        (folder / f"{name}.sgf").write_text(write_sgf(game), encoding="utf-8")
    with GameDatabase(default_database_path()) as database:
        assert import_paths(database, [folder, morphy_file]).stored == 2 + 211
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    assert not panel.either_colours.isVisible()  # a chess position has no colours to swap
    _open(qtbot, window, folder / "original.sgf", 0)
    window.go_to_ply(9)
    _wait_answer(qtbot, panel, 1)
    assert panel.either_colours.isVisible() and not panel.either_colours.isChecked()
    QTest.mouseClick(panel.either_colours, Qt.MouseButton.LeftButton)
    _wait_answer(qtbot, panel, 2)
    own = original.mainline_nodes()[9].move
    assert [(m.move, m.games, m.white_wins) for m in panel.answer.exploration.moves] == [(own, 2, 2)]
    assert Settings().explorer_filter("either_colours") == "yes"
    screenshots.shoot(qtbot, window, "explorer-go-colours", follows=panel)
    QTest.mouseClick(panel.either_colours, Qt.MouseButton.LeftButton)
    _wait_answer(qtbot, panel, 1)
