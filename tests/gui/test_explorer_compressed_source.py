"""Games the database read from a compressed file open in the window like any other: the file
itself opened (decompressed once into the cache) and a game listed by the explorer opened at its
position, as the compressed file's."""

from __future__ import annotations

import lzma

from PySide6.QtCore import Qt
from test_explorer_panel import _click, _expected, _open, _wait_answer, _window
from window_support import OPEN_TIMEOUT_MS

from reviewer.core.database import GameDatabase, default_database_path, import_paths


def test_a_game_of_a_compressed_file_is_opened_from_the_explorer_at_its_position(qtbot, tmp_path, morphy_file):
    packed = tmp_path / "morphy.pgn.xz"
    packed.write_bytes(lzma.compress(morphy_file.read_bytes()))
    with GameDatabase(default_database_path()) as database:
        report = import_paths(database, [packed])
        assert report.stored > 200 and not report.unreadable
    window = _window(qtbot)
    _open(qtbot, window, packed, 3)  # the compressed file itself
    assert window.session.model.game.source.path == str(packed)
    panel = window.explorer_panel
    window.go_to_ply(4)
    expected = _expected(default_database_path(), window.session.model.game, 4)
    _wait_answer(qtbot, panel, expected.games)
    item = panel.games.topLevelItem(1)
    stored, ply = item.data(0, Qt.ItemDataRole.UserRole)
    assert stored.source_path == str(packed)
    with qtbot.waitSignal(window.file_opened, timeout=OPEN_TIMEOUT_MS):
        _click(panel.games, item, double=True)
    model = window.session.model
    assert (model.game.source.path, model.game_index, model.current_ply) == (str(packed), stored.source_index, ply)
    assert _expected(default_database_path(), model.game, ply).games == expected.games
