"""A keyboard move box, as lichess and En Croissant have: type `Nf3`, `e2e4`, `D4` or `pass`, Enter.

The box only proposes the text (`move_entered`); the session asks the rules. A refused move keeps
its text, marked, with the reason as the tooltip, until the text is changed.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLineEdit, QWidget


class MoveEntry(QLineEdit):
    move_entered = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText("Type a move: Nf3, e2e4, D4, pass")
        self.setClearButtonEnabled(True)
        self.setAccessibleName("Move entry")
        self.returnPressed.connect(self._enter)
        self.textEdited.connect(lambda _text: self.clear_refusal())
        self._refused = ""

    def refusal(self) -> str:
        return self._refused

    def refuse(self, reason: str) -> None:
        """Keep the text and mark it with `reason` (shown as a tooltip)."""
        self._refused = reason
        self.setToolTip(reason)
        self.setStyleSheet("QLineEdit { border: 2px solid #c33; }")

    def clear_refusal(self) -> None:
        if self._refused:
            self._refused = ""
            self.setToolTip("")
            self.setStyleSheet("")

    def accept_move(self) -> None:
        self.clear_refusal()
        self.clear()

    def _enter(self) -> None:
        text = self.text().strip()
        if text:
            self.move_entered.emit(text)
