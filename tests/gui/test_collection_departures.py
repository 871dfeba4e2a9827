"""The collection's insights say where each reviewed game left the player's repertoire, as the
game database holds their other games: a real click on Review with an engine, the table read back,
and a double-click on its row opening the game at that move."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_collection_window import WAIT_MS, fake_settings, make_window, pgn_text, review

# Anna opens 1.e4 as White three times, 1.d4 once; as Black she answers 1.e4 with 1...e5 each time.
GAMES = (
    ("Anna", "Bob", "1-0", "2024.01.02", "e4 e5 Nf3 Nc6 Bb5 a6"),
    ("Anna", "Carl", "0-1", "2024.01.09", "e4 c5 Nf3 d6 d4 cxd4"),
    ("Anna", "Dora", "1/2-1/2", "2024.02.01", "e4 e6 d4 d5 Nc3 Nf6"),
    ("Anna", "Eve", "1-0", "2024.03.01", "d4 d5 c4 e6 Nc3 Nf6"),
    ("Fred", "Anna", "0-1", "2024.03.05", "e4 e5 Nf3 Nc6 Bc4 Bc5"),
    ("Gus", "Anna", "1-0", "2024.03.09", "e4 e5 Nf3 Nc6 d4 exd4"),
)


def test_the_insights_list_where_each_game_left_the_players_usual_line(qtbot, tmp_path):
    games_file = tmp_path / "club.pgn"
    games_file.write_text("".join(pgn_text(*game) for game in GAMES), encoding="utf-8")
    window = make_window(qtbot, fake_settings())
    window.show()
    qtbot.waitExposed(window)
    try:
        window.set_paths([games_file])
        window.player_edit.setText("Anna")
        review(qtbot, window)
        view = window.panel.departures_table
        qtbot.waitUntil(lambda: view.model.rowCount() > 0, timeout=WAIT_MS)
        rows = [row.cells for row in view.model.table.rows]
        assert rows == [("White", "Eve", "2024.03.01", "1.d4", "1.e4", "3 of 3")]
        tab = window.panel.tabs
        tab.setCurrentWidget(view)
        requested = []
        window.game_requested.connect(lambda path, index, ply: requested.append((path, index, ply)))
        table = view.view
        point = table.visualRect(table.model().index(0, 0)).center()
        QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)  # then the second press
        QTest.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
        assert requested == [(str(games_file), 3, 1)]
    finally:
        window.shutdown()
