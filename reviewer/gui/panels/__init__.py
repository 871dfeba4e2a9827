"""Panels that follow the review on their own, beside the board under the engine lines.

A panel is a callable `(session, parent) -> QWidget`: it makes its widget, connects it to the
session's signals and reads what it shows from `session.model`; nothing else knows it. A new panel
is its module (in this package, or anywhere) and one line in `PANELS`, the order they are laid out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from reviewer.gui.common.session import ReviewSession


class Panel(Protocol):
    def __call__(self, session: ReviewSession, parent: QWidget) -> QWidget: ...


PANELS: list[Panel] = []
