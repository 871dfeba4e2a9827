"""Default window sizes that fit the screen the window opens on: a 1366×768 laptop shows every
window whole, with its title bar and the desktop's panel, however large the size a window asks for."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# What the window manager adds outside a window's own size: its frame and title bar.
FRAME_PX = QSize(16, 40)


def fitted_size(wanted: QSize, available: QRect) -> QSize:
    """`wanted`, made smaller where the screen's available area (less the frame) is smaller."""
    return QSize(
        max(1, min(wanted.width(), available.width() - FRAME_PX.width())),
        max(1, min(wanted.height(), available.height() - FRAME_PX.height())),
    )


def resize_to_fit(top_level: QWidget, width: int, height: int) -> None:
    """Give a window (`top_level`) its default size of width×height, or what its screen leaves room for."""
    screen = top_level.screen() or QGuiApplication.primaryScreen()
    wanted = QSize(width, height)
    top_level.resize(fitted_size(wanted, screen.availableGeometry()) if screen is not None else wanted)
