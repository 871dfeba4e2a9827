"""Screenshots of what a GUI test shows, light and dark, when REVIEWER_SHOTS names a folder
(import as `from screenshots import shoot`). Without it, nothing is saved."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget

THEME_WAIT_MS = 60_000


def shots_folder() -> Path | None:
    folder = os.environ.get("REVIEWER_SHOTS")
    return Path(folder) if folder else None


def shoot(qtbot, window, name: str, shown: QWidget | None = None, follows: QWidget | None = None,
          before_grab: Callable[[], None] | None = None) -> None:
    """Save `shown` (the window by default) as `name-light.png` and `name-dark.png`, once `follows`
    (a widget the new palette must reach first; `shown` by default) has taken each theme, then the
    window back in light."""
    folder = shots_folder()
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    grabbed = shown or window
    themed = follows or grabbed
    for dark in (False, True):
        if window.commands.dark_action.isChecked() != dark:
            window.commands.dark_action.trigger()
        wanted = QApplication.palette().window().color()
        qtbot.waitUntil(lambda wanted=wanted: themed.palette().window().color() == wanted, timeout=THEME_WAIT_MS)
        if before_grab is not None:
            before_grab()
        QApplication.sendPostedEvents()  # the layouts asked for (a plot's axes make room for their labels)
        QApplication.processEvents()
        grabbed.grab().save(str(folder / f"{name}-{'dark' if dark else 'light'}.png"), "PNG", 0)
    window.commands.dark_action.trigger()
    wanted = QApplication.palette().window().color()
    qtbot.waitUntil(lambda: themed.palette().window().color() == wanted, timeout=THEME_WAIT_MS)
