"""The app's icon, drawn from resources/icons/reviewer.svg."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QIcon

from reviewer.resources import resource_path


@lru_cache(maxsize=1)
def app_icon() -> QIcon:
    """The app icon (empty when the SVG is missing, as in a partial checkout)."""
    path = resource_path("icons", "reviewer.svg")
    return QIcon(str(path)) if path.is_file() else QIcon()
