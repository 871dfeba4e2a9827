"""The opening explorer walked as a player does, with the mouse and the keys, in both themes: what
it showed wrong once stays right."""

from __future__ import annotations

import screenshots
from PySide6.QtCore import QPoint, Qt
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


def test_a_go_game_in_the_top_games_names_black_first_as_the_window_does(qtbot, corpus_dir):
    from reviewer.core.database import GameDatabase, default_database_path, import_paths

    path = corpus_dir / "sgf" / "katrain__LS_vs_AG_G4_English.sgf"  # AlphaGo (Black) – Lee Sedol (White)
    with GameDatabase(default_database_path()) as made:
        import_paths(made, [path])
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, path, 0)
    _wait_answer(qtbot, panel, 1)
    _click(window.move_list.viewport(), window.move_list.viewport().rect().topLeft() + QPoint(40, 10))  # the first move
    QTest.keyClick(window.move_list, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: window.session.model.current_ply == 2, timeout=WAIT_MS)
    _wait_answer(qtbot, panel, 1)
    row = panel.games.topLevelItem(0)
    assert window.header_label.text().index("AlphaGo") < window.header_label.text().index("Lee Sedol")
    assert row.text(0) == "AlphaGo – Lee Sedol"  # Black first, as a Go player reads a pairing
    assert row.text(0).split("\n")[0] in row.toolTip(0)
    screenshots.shoot(qtbot, window, "explorer-go-players", follows=panel)


def _indicator_contrast(box) -> float:
    """How the outline of a check box's square stands out from the window behind it."""
    from PySide6.QtWidgets import QStyle, QStyleOptionButton

    option = QStyleOptionButton()
    option.initFrom(box)
    square = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = box.grab().toImage()
    edge = image.pixelColor(square.left(), square.center().y())
    return style.contrast_ratio(edge, box.palette().window().color())


def test_the_filters_check_boxes_show_as_boxes_on_the_dark_theme(qtbot, database, morphy_file):
    window = _window(qtbot, player="Morphy")
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    if not window.commands.dark_action.isChecked():
        window.commands.dark_action.trigger()
    qtbot.waitUntil(lambda: style.is_dark_palette(panel.mine.palette()), timeout=WAIT_MS)
    for checked in (False, True):
        assert panel.mine.isChecked() == checked
        assert _indicator_contrast(panel.mine) >= 3.0, checked  # a box to tick, not bare words
        _click(panel.mine, QPoint(8, panel.mine.height() // 2))
        _wait_answer(qtbot, panel)
    window.commands.dark_action.trigger()
    qtbot.waitUntil(lambda: not style.is_dark_palette(panel.mine.palette()), timeout=WAIT_MS)
    assert _indicator_contrast(panel.mine) >= 3.0
    screenshots.shoot(qtbot, window, "explorer-check-boxes", shown=panel)


def _title_span(header, column: int) -> tuple[int, int]:
    """Where a header section's title is drawn, in the header's coordinates (left, right)."""
    metrics = header.fontMetrics()
    width = metrics.horizontalAdvance(header.model().headerData(column, Qt.Orientation.Horizontal))
    left, size = header.sectionViewportPosition(column), header.sectionSize(column)
    alignment = Qt.AlignmentFlag(header.model().headerData(column, Qt.Orientation.Horizontal,
                                                           Qt.ItemDataRole.TextAlignmentRole) or 0)
    if alignment & Qt.AlignmentFlag.AlignRight:
        return left + size - width, left + size
    if alignment & Qt.AlignmentFlag.AlignHCenter:
        return left + (size - width) // 2, left + (size + width) // 2
    return left, left + width


def test_the_titles_over_the_moves_figures_stand_apart(qtbot, database, morphy_file):
    # "Games" is a figure's title, on the right of its column; the results bar's beside it must
    # not run into it ("GamesResults").
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    header = panel.moves.header()
    spans = [_title_span(header, column) for column in range(header.count())]
    space = header.fontMetrics().horizontalAdvance(" ")
    for (_left, right), (next_left, _right) in zip(spans, spans[1:]):
        assert next_left - right >= 2 * space, spans
