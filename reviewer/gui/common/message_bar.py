"""The message bar above the board: every warning of the open game, each until it is dismissed.

Each message is a row: a coloured mark for its level, the text, the actions it offers (buttons)
and a ✕ that dismisses it. The bar hides itself when nothing is left. In the window it lies over
the top of the review panel, below the game's header (`float_over`), so that a message never
changes the board's size nor hides the players' names. At most `MAX_SHOWN` rows stack, the newest;
the others wait behind a "more" button. The messages themselves live in a `MessageLog` (Qt-free);
the bar only shows it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from reviewer.gui.common import style
from reviewer.gui.presenters.messages import Message, MessageLog

ACTION_TITLES = {
    "locate-engine": "Locate engine…",
    "install-stockfish": "Install Stockfish",
    "install-katago": "Install KataGo",
    "retry": "Try again",
}
LEVEL_WORDS = {"info": "Note", "warning": "Warning", "error": "Error"}
MAX_SHOWN = 3  # rows stacked at once, unless the player asks for all


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
        self._clear_of: QWidget | None = None
        self._expanded = False
        self.more_button = QToolButton(self)
        self.more_button.setAutoRaise(True)
        self.more_button.clicked.connect(self._toggle_more)
        self.more_button.hide()
        self.hide()

    def float_over(self, anchor: QWidget, clear_of: QWidget | None = None) -> None:
        """Lie over the top of `anchor` (a widget in this bar's parent) instead of taking room in a
        layout: a message then never resizes what is under it; below `clear_of` (a widget inside
        `anchor` that stays in sight) when given."""
        self._anchor, self._clear_of = anchor, clear_of
        anchor.installEventFilter(self)
        if clear_of is not None:
            clear_of.installEventFilter(self)
        self.setAutoFillBackground(True)
        self._place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched in (self._anchor, self._clear_of) and event.type() in (QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.Show):
            self._place()
        return False

    def _place(self) -> None:
        anchor, parent = self._anchor, self.parentWidget()
        if anchor is None or parent is None or not self._rows:
            return
        top_left = anchor.mapTo(parent, QPoint(0, 0))
        top = top_left.y()
        clear_of = self._clear_of
        if clear_of is not None and clear_of.isVisible() and clear_of.height() > 0:
            top = max(top, clear_of.mapTo(parent, QPoint(0, clear_of.height())).y() + 2)
        width = anchor.width()
        wanted = self._layout.heightForWidth(width) if self._layout.hasHeightForWidth() else self.sizeHint().height()
        room = top_left.y() + anchor.height() - top
        self.setGeometry(QRect(top_left.x(), top, width, max(1, min(wanted, room * 2 // 3))))
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

    def shown_rows(self) -> list[_MessageRow]:
        """The rows on show, oldest first (at most `MAX_SHOWN` unless all were asked for)."""
        return list(self._rows)

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
    def _toggle_more(self) -> None:
        self._expanded = not self._expanded
        self._rebuild()

    def _rebuild(self) -> None:
        for row in self._rows:
            self._layout.removeWidget(row)
            row.hide()
            row.deleteLater()
        messages = self.log.messages
        if len(messages) <= MAX_SHOWN:
            self._expanded = False
        shown = messages if self._expanded else messages[-MAX_SHOWN:]
        self._rows = [_MessageRow(self, message) for message in shown]
        for row in self._rows:
            self._layout.addWidget(row)
            row.show()  # now, not on the next turn of the event loop: the bar's height counts it
        hidden = len(messages) - len(shown)
        self._layout.removeWidget(self.more_button)
        if hidden or self._expanded:
            self.more_button.setText("Show fewer messages" if self._expanded else f"{hidden} more message{'s' if hidden > 1 else ''}…")
            self._layout.addWidget(self.more_button, 0, Qt.AlignmentFlag.AlignRight)
        self.more_button.setVisible(bool(hidden or self._expanded))
        self.setVisible(bool(self._rows))
        self._place()
