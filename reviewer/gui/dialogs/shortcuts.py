"""The keyboard shortcuts, listed: read from the window's actions themselves, so that the list
says what the keys do today."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QGridLayout, QLabel, QVBoxLayout, QWidget

_KEY_SIGNS = {"Left": "←", "Right": "→", "Up": "↑", "Down": "↓"}


def key_text(sequence: QKeySequence) -> str:
    """"Ctrl+→", "Shift+P", "F1": a shortcut as the list shows it."""
    text = sequence.toString(QKeySequence.SequenceFormat.NativeText)
    return "+".join(_KEY_SIGNS.get(part, part) for part in text.split("+")) if text != "+" else text


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(keys, what they do) for each action with a shortcut, in the order given."""
    rows: list[tuple[str, str]] = []
    for action in actions:
        keys = [key_text(sequence) for sequence in action.shortcuts() if not sequence.isEmpty()]
        if keys:
            meaning = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")
            rows.append(("  or  ".join(keys), meaning))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, shortcuts: Sequence[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        grid = QGridLayout()
        grid.setHorizontalSpacing(24)
        grid.setVerticalSpacing(6)
        for row, (keys, meaning) in enumerate(shortcuts):
            key_label = QLabel(f"<b>{keys}</b>")
            key_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(key_label, row, 0)
            grid.addWidget(QLabel(meaning), row, 1)
        hint = QLabel(
            "Click a point of the graph, a move in the list or a count in the summary to jump there; "
            "a move of an engine line to play the line up to it."
        )
        hint.setWordWrap(True)
        hint.setEnabled(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addSpacing(8)
        layout.addWidget(hint)
        layout.addWidget(buttons)
