"""The player's words on the move on show, editable in place under the comment pane.

What is typed goes to the model (`ReviewModel.annotate(node, words=…)`) as one edit per burst of
typing: when the editor loses the keyboard, after a pause (`PAUSE_MS`), on Ctrl+Enter or Escape,
and before Undo or Redo. The model's undo stack is the one undo: the editor keeps none of its own,
so Ctrl+Z in the editor takes back the last burst (and then what came before), as anywhere in the
window. As in the move box, the navigation keys (←/→/Home/End/↑/↓) step through the game while
the editor is empty (they have nothing to move through in it); Escape hands the keyboard back.
The comment's `[%clk]`-style commands are kept by `annotate`; the sentences a Reviewer
export wrote are not shown here (the comment pane says them from the analysis).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QKeySequence, QPalette
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QWidget

from reviewer.core.gametree import Node
from reviewer.gui.common.move_entry import NAVIGATION_KEYS, is_text_box_key
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.presenters.notes import player_words

PLACEHOLDER = "Your notes on this move… (Ctrl+Enter keeps them)"
HIDDEN_PLACEHOLDER = "The notes are hidden until you answer."
PAUSE_MS = 1500  # a pause in typing this long ends a burst
EDITOR_LINES = 1  # the editor's least height, in lines (it scrolls for more; it grows with the window)


class CommentEditor(QPlainTextEdit):
    """Signals: `left()` when Escape hands the keyboard back (to the board)."""

    left = Signal()

    def __init__(self, session: ReviewSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("comment-editor")
        self.session = session
        self._node: Node | None = None
        self._shown = ""  # the words the editor was given for `_node`: what a burst is compared with
        self._loading = False
        self._committing = False
        self.setUndoRedoEnabled(False)  # the model's undo is the one undo
        self.setTabChangesFocus(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.viewport().setBackgroundRole(QPalette.ColorRole.AlternateBase)  # the editable part stands apart, in both themes
        self.setPlaceholderText(PLACEHOLDER)
        self.setToolTip("Your words on the move on show: saved into the file with File ▸ Save")
        self.document().setDocumentMargin(3)
        margins = round(2 * (self.document().documentMargin() + self.frameWidth()))
        self.setMinimumHeight(round(self.fontMetrics().lineSpacing() * EDITOR_LINES) + margins)
        self.pause_timer = QTimer(self)
        self.pause_timer.setSingleShot(True)
        self.pause_timer.setInterval(PAUSE_MS)
        self.pause_timer.timeout.connect(self.commit)
        self.textChanged.connect(self._on_text_changed)
        session.game_loaded.connect(self._on_game_loaded)
        session.current_changed.connect(self.show_node)
        session.notes_changed.connect(self._on_notes_changed)
        session.engine_hidden_changed.connect(self._on_hidden_changed)
        self.setEnabled(False)

    # ------------------------------------------------------------------------------ API
    @property
    def node(self) -> Node | None:
        """The node whose words are on show."""
        return self._node

    @property
    def pending(self) -> bool:
        """Typed words not yet handed to the model."""
        return self._node is not None and self.toPlainText().strip() != self._shown.strip()

    def commit(self) -> bool:
        """Hand the burst typed so far to the model (one undo step); False when there was none."""
        self.pause_timer.stop()
        node = self._node
        if node is None or not self.pending or self.session.model.game is None:
            return False
        text = self.toPlainText()
        self._committing = True
        try:
            changed = self.session.model.annotate(node, words=text)
        finally:
            self._committing = False
        self._shown = text
        return changed

    def show_node(self, node: Node | None) -> None:
        """Show `node`'s words (the burst typed for the node before is kept first). While the player
        looks for a better move (`engine_hidden_from`), none: a file's words may name the answer."""
        if node is not self._node:
            self.commit()
        self._node = node
        hidden = self.session.model.engine_hidden_from is not None
        self.setEnabled(node is not None and self.session.model.game is not None and not hidden)
        self.setPlaceholderText(HIDDEN_PLACEHOLDER if hidden else PLACEHOLDER)
        game = self.session.model.game
        self._load(player_words(node.comment, game.kind) if node is not None and game is not None and not hidden else "")

    # ---------------------------------------------------------------------------- events
    def _on_game_loaded(self) -> None:
        self.pause_timer.stop()
        self._node = None  # the words typed for the game before went with it (or were kept on leaving)
        self.show_node(self.session.model.current_node)

    def _on_hidden_changed(self) -> None:
        self.commit()
        self.show_node(self.session.model.current_node)

    def _on_notes_changed(self, node: Node) -> None:
        if node is not self._node or self._committing or self.session.model.engine_hidden_from is not None:
            return
        game = self.session.model.game
        words = player_words(node.comment, game.kind) if game is not None else ""
        if self.pending:  # typed words stay on screen; the burst will replace the words now in the tree
            self._shown = words
        elif words.strip() != self.toPlainText().strip():
            self._load(words)

    def _load(self, words: str) -> None:
        self._loading = True
        try:
            self.setPlainText(words)
            self.moveCursor(self.textCursor().MoveOperation.End)
        finally:
            self._loading = False
        self._shown = words

    def _on_text_changed(self) -> None:
        if not self._loading:
            self.pause_timer.start()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.commit()
        super().focusOutEvent(event)

    def event(self, event: QEvent) -> bool:
        # Undo and Redo are the window's: the burst is kept first, then the window's action runs.
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            if _is_undo_key(event):
                self.commit()
                event.ignore()
                return True
            if not self.toPlainText() and Qt.Key(event.key()) in NAVIGATION_KEYS:
                event.ignore()  # nothing to move through here: the window's navigation takes the key
                return True
            if is_text_box_key(event):
                event.accept()
                return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.commit()
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.commit()
            self.left.emit()
            event.accept()
            return
        super().keyPressEvent(event)


def _is_undo_key(event: QKeyEvent) -> bool:
    if event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo):
        return True
    pressed = event.keyCombination().toCombined()
    return any(QKeySequence(text).matches(QKeySequence(pressed)) == QKeySequence.SequenceMatch.ExactMatch for text in ("Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y"))
