"""The dark theme's small marks read: Black's area of the graph, the black stone icons (move list,
header, player strips) and the settings dialog's radio buttons stand out from what is behind them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage, QPainter, QPalette

from reviewer.gui.common import style
from reviewer.gui.common.settings import EngineChoice, default_limit
from reviewer.gui.dialogs.settings_dialog import SettingsDialog
from reviewer.gui.window.app import apply_theme

NON_TEXT_CONTRAST = 3.0  # WCAG 1.4.11: graphical objects a person must see


def ratio(a: QColor, b: QColor) -> float:
    return style.contrast_ratio(a, b)


def most_contrast(image: QImage, background: QColor, columns: range) -> float:
    return max(
        ratio(QColor(image.pixel(x, y)), background) for x in columns for y in range(image.height())
    )


def test_blacks_area_of_the_graph_stands_out_from_its_background():
    theme = style.DARK_THEME
    assert ratio(QColor(theme.graph_black_area), QColor(theme.graph_background)) >= 2.0
    assert ratio(QColor(theme.graph_white_area), QColor(theme.graph_black_area)) >= 2.0  # and from White's


def test_a_black_stone_icon_has_a_visible_edge_on_the_dark_window():
    window = QColor(style.make_palette(True).color(QPalette.ColorRole.Window))
    image = QImage(24, 24, QImage.Format.Format_RGB32)
    image.fill(window)
    painter = QPainter(image)
    style.paint_stone_icon(painter, QPointF(12, 12), 7, "black", True)
    painter.end()
    edge = [  # the pixels of its outline, where it meets the window
        QColor(image.pixel(x, y)) for x in range(24) for y in range(24) if 6.0 <= ((x + 0.5 - 12) ** 2 + (y + 0.5 - 12) ** 2) ** 0.5 <= 7.5
    ]
    assert max(ratio(colour, window) for colour in edge) >= NON_TEXT_CONTRAST


@pytest.mark.parametrize("dark", [False, True])
def test_radio_buttons_of_the_settings_dialog_are_visible(qtbot, qapp, dark):
    apply_theme(qapp, dark)
    try:
        dialog = SettingsDialog(kind="chess", engines=[], engine=EngineChoice(kind="chess"), limit=default_limit("chess"), preset="lichess")
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        button = dialog._limit_rows["nodes"][0]  # not checked: its ring alone must show
        image = button.grab().toImage()
        window = dialog.palette().color(QPalette.ColorRole.Window)
        assert most_contrast(image, window, range(min(18, image.width()))) >= NON_TEXT_CONTRAST
    finally:
        apply_theme(qapp, False)
