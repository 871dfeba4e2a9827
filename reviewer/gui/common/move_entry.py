"""A keyboard move box, as lichess and En Croissant have: type a move (`Nf3`, `e2e4`, `D4`, `pass`), Enter;
the placeholder names moves of the game on show (`GameSupport.move_examples`).

The box only proposes the text (`move_entered`); the session asks the rules. A refused move keeps
its text, marked, with the reason as the tooltip, until the text is changed.

The box holds the keyboard only while a move is typed in it: with nothing typed the window's
navigation keys (←/→/Home/End/↑/↓, Ctrl+←/→) still step through the game, and Esc, Enter on
nothing or a move played leave the box (`left`: the window gives the keyboard back to the board).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

PLACEHOLDER = "Type a move"
NAVIGATION_KEYS = frozenset({Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Up, Qt.Key.Key_Down})
# While a text box has the keyboard these are its own, whatever the window's shortcuts: Ctrl+Del
# deletes a word (not the moves from here on), Esc leaves the box (not the markup tool).
TEXT_BOX_KEYS = frozenset({Qt.Key.Key_Delete, Qt.Key.Key_Backspace, Qt.Key.Key_Escape})


def is_text_box_key(event: QKeyEvent) -> bool:
    return Qt.Key(event.key()) in TEXT_BOX_KEYS


class MoveEntry(QLineEdit):
    move_entered = Signal(str)
    left = Signal()  # the player is done with the box (Esc, Enter, a move played)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText(PLACEHOLDER)
        self.setClearButtonEnabled(True)
        self.setAccessibleName("Move entry")
        self.returnPressed.connect(self._enter)
        self.textEdited.connect(lambda _text: self.clear_refusal())
        self._refused = ""

    def show_examples(self, moves: tuple[str, ...]) -> None:
        """The placeholder names moves as the game on show writes them ("Type a move: D4, pass")."""
        self.setPlaceholderText(f"{PLACEHOLDER}: {', '.join(moves)}" if moves else PLACEHOLDER)

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
        self.leave()

    def leave(self) -> None:
        self.clearFocus()
        self.left.emit()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            if self._passes_on(event):
                event.ignore()  # not the box's: the window's shortcut takes the key
                return True
            if is_text_box_key(event):
                event.accept()
                return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.leave()
            return
        super().keyPressEvent(event)

    def _passes_on(self, event: QKeyEvent) -> bool:
        """A navigation key with nothing typed: it has nothing to move in the box."""
        return not self.text() and Qt.Key(event.key()) in NAVIGATION_KEYS

    def _enter(self) -> None:
        text = self.text().strip()
        if text:
            self.move_entered.emit(text)
        else:
            self.leave()
