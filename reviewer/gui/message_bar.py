"""The message bar above the board: every warning of the open game, each until it is dismissed.

Each message is a row: a coloured mark for its level, the text, the actions it offers (buttons)
and a ✕ that dismisses it. The bar hides itself when nothing is left. In the window it lies over
the top of the review panel (`float_over`), so that a message never changes the board's size. The messages themselves
live in a `MessageLog` (Qt-free); the bar only shows it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from reviewer.gui import style
from reviewer.gui.presenters.messages import Message, MessageLog

ACTION_TITLES = {
    "locate-engine": "Locate engine…",
    "install-stockfish": "Install Stockfish",
    "install-katago": "Install KataGo",
    "retry": "Try again",
}
LEVEL_WORDS = {"info": "Note", "warning": "Warning", "error": "Error"}


class _MessageRow(QFrame):
    def __init__(self, bar: MessageBar, message: Message) -> None:
        super().__init__(bar)
        self.message = message
        self.setObjectName("message-row")
        self.setProperty("level", message.level)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 3, 4, 3)
        layout.setSpacing(8)
        theme = style.theme_for(bar)
        colour = {"info": theme.info_text, "warning": theme.warning_text, "error": theme.error_text}[message.level]
        self.level_label = QLabel(LEVEL_WORDS[message.level], self)
        self.level_label.setStyleSheet(f"color: {colour}; font-weight: 600;")
        self.text_label = QLabel(message.text, self)
        self.text_label.setWordWrap(True)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.level_label, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.text_label, 1)
        self.buttons: dict[str, QPushButton] = {}
        for action in message.actions:
            button = QPushButton(ACTION_TITLES.get(action, action), self)
            button.clicked.connect(lambda _checked=False, a=action: bar.action_triggered.emit(message.key, a))
            self.buttons[action] = button
            layout.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        self.close_button = QToolButton(self)
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Dismiss this message")
        self.close_button.clicked.connect(lambda: bar.dismiss(message.key))
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.setStyleSheet(
            f"QFrame#message-row {{ border-left: 4px solid {colour}; border-radius: 2px;"
            f" background: palette(alternate-base); }}"
        )


class MessageBar(QWidget):
    """Signals:
    action_triggered(str key, str action): a message's button was clicked.
    dismissed(str key): the user closed a message.
    """

    action_triggered = Signal(str, str)
    dismissed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message-bar")
        self.log = MessageLog()
        self._rows: list[_MessageRow] = []
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 6)
        self._layout.setSpacing(3)
        self._anchor: QWidget | None = None
        self.hide()

    def float_over(self, anchor: QWidget) -> None:
        """Lie over the top of `anchor` (a widget in this bar's parent) instead of taking room in a
        layout: a message then never resizes what is under it."""
        self._anchor = anchor
        anchor.installEventFilter(self)
        self.setAutoFillBackground(True)
        self._place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._anchor and event.type() in (QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.Show):
            self._place()
        return False

    def _place(self) -> None:
        anchor, parent = self._anchor, self.parentWidget()
        if anchor is None or parent is None or not self._rows:
            return
        top_left = anchor.mapTo(parent, QPoint(0, 0))
        width = anchor.width()
        wanted = self._layout.heightForWidth(width) if self._layout.hasHeightForWidth() else self.sizeHint().height()
        self.setGeometry(QRect(top_left.x(), top_left.y(), width, max(1, min(wanted, anchor.height() * 2 // 3))))
        self.raise_()

    # ------------------------------------------------------------------------------- API
    def add(self, message: Message) -> None:
        if self.log.add(message):
            self._rebuild()

    def replace(self, message: Message) -> None:
        self.log.replace(message)
        self._rebuild()

    def remove(self, key: str) -> None:
        self.log.remove(key)
        self._rebuild()

    def dismiss(self, key: str) -> None:
        self.log.dismiss(key)
        self._rebuild()
        self.dismissed.emit(key)

    def new_game(self) -> None:
        self.log.new_game()
        self._rebuild()

    def messages(self) -> list[Message]:
        return list(self.log.messages)

    def row(self, key: str) -> _MessageRow | None:
        return next((row for row in self._rows if row.message.key == key), None)

    def restyle(self) -> None:
        """After a theme change: rows take the new palette's colours."""
        self._rebuild()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and self._rows:
            self._rebuild()
        super().changeEvent(event)

    # ---------------------------------------------------------------------------- drawing
    def _rebuild(self) -> None:
        for row in self._rows:
            self._layout.removeWidget(row)
            row.hide()
            row.deleteLater()
        self._rows = [_MessageRow(self, message) for message in self.log.messages]
        for row in self._rows:
            self._layout.addWidget(row)
            row.show()  # now, not on the next turn of the event loop: the bar's height counts it
        self.setVisible(bool(self._rows))
        self._place()
