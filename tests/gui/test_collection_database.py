"""A collection reviewed in the Collection window feeds the game database: its games are stored
(once, however often it is reviewed) with the accuracy their review found, driven by a real click
on Review, an engine, and the explorer's figures read back."""

from __future__ import annotations

from test_collection_window import GAMES, WAIT_MS, fake_settings, make_window, pgn_text, review

from reviewer.core.database import GameDatabase, default_database_path
from reviewer.core.database.figures import figures_of


def test_the_reviewed_games_go_into_the_database_with_their_accuracy(qtbot, tmp_path):
    games_file = tmp_path / "club.pgn"
    games_file.write_text("".join(pgn_text(*game) for game in GAMES), encoding="utf-8")
    window = make_window(qtbot, fake_settings())
    try:
        window.set_paths([games_file])
        window.player_edit.setText("Anna")
        review(qtbot, window)
        qtbot.waitUntil(lambda: not window._tasks.busy() and default_database_path().exists(), timeout=WAIT_MS)
        with GameDatabase(default_database_path()) as database:
            ids = [int(row[0]) for row in database.connection.execute("SELECT id FROM games ORDER BY source_index")]
            figures = figures_of(database, ids)
        assert len(ids) == len(GAMES)
        assert set(figures) == set(ids) and all(figure.complete for figure in figures.values())
        assert all(figure.accuracy["white"] is not None for figure in figures.values())
        review(qtbot, window)  # again: nothing new
        qtbot.waitUntil(lambda: not window._tasks.busy(), timeout=WAIT_MS)
        with GameDatabase(default_database_path()) as database:
            assert database.game_count() == len(GAMES)
    finally:
        window.shutdown()
