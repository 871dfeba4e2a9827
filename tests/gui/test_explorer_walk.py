"""The opening explorer walked as a player does, with the mouse and the keys, in both themes: what
it showed wrong once stays right."""

from __future__ import annotations

import screenshots
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_explorer_panel import WAIT_MS, _open, _wait_answer, _window

from reviewer.gui.common import style


def _click(widget, point=None) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point or widget.rect().center())


def test_a_bad_dates_red_frame_takes_the_new_theme(qtbot, database, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    if window.commands.dark_action.isChecked():
        window.commands.dark_action.trigger()
    _click(panel.since)
    QTest.keyClicks(panel.since, "1858.13")
    QTest.keyClick(panel.since, Qt.Key.Key_Return)
    light, dark = style.LIGHT_THEME.error_text, style.DARK_THEME.error_text
    assert light in panel.since.styleSheet()
    window.commands.dark_action.trigger()  # the View menu's Dark theme, as the player switches
    qtbot.waitUntil(lambda: style.is_dark_palette(panel.palette()), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: dark in panel.since.styleSheet(), timeout=WAIT_MS)  # not the light theme's red
    assert panel.until.styleSheet() == ""  # the good box stays unframed
    screenshots.shoot(qtbot, window, "explorer-bad-date-theme", shown=panel)
    window.commands.dark_action.trigger()
    qtbot.waitUntil(lambda: light in panel.since.styleSheet(), timeout=WAIT_MS)
