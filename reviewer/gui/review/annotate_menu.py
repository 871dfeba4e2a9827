"""The Annotate menu: the glyphs (NAGs) a player puts on the move on show, each a toggle through
`ReviewModel.toggle_nag`, checked while the move carries it.

- Ctrl+1 … Ctrl+6 put $1 … $6 (! ? !! ?? !? ?!) as in ChessBase's and SCID's menus;
- the `!` and `?` keys type them: a second key on the same move, straight after, makes the
  two-sign glyph (`!` `!` → !!, `!` `?` → !?, `?` `!` → ?!, `?` `?` → ??; a third takes it away),
  a key on its own toggles the one-sign glyph. Like every one-key shortcut of the window they do
  not fire while a text box (the move box, the comment editor) has the keyboard: it takes them as text;
- the position's judgements (=, ∞, ⩲ … −+) and the others (□ only move, ⨀ zugzwang, N novelty …).

For Go, the glyphs an SGF cannot hold are shown disabled; the others are written as TE/BM/IT/DO,
GW/GB/DM/UC and HO (`reviewer.core.formats.annotations`).
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QFontMetricsF, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from reviewer.core.formats.annotations import MOVE_NAGS, typed_nag
from reviewer.core.gametree import Node
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.presenters.notes import (
    MOVE_ROWS,
    OTHER_ROWS,
    POSITION_ROWS,
    NagRow,
    displayable,
    row_available,
    row_text,
)


class AnnotateMenu(QObject):
    """The menu (`menu`), its NAG actions by NAG (`nag_actions`) and the two typing keys' actions."""

    def __init__(self, host: QMainWindow, session: ReviewSession, before: QAction | None = None) -> None:
        """`before`: the menu bar's item the Annotate menu goes in front of (None: at the end)."""
        super().__init__(host)
        self.session = session
        self._chord_node: Node | None = None  # the move the last `!`/`?` key was typed on, while nothing else happened
        self._typing = False
        self.menu = QMenu("A&nnotate", host)
        self.menu.setObjectName("annotate-menu")
        bar = host.menuBar()
        if before is not None:
            bar.insertMenu(before, self.menu)
        else:
            bar.addMenu(self.menu)
        self.nag_actions: dict[int, QAction] = {}
        for rows in (MOVE_ROWS, POSITION_ROWS, OTHER_ROWS):
            for row in rows:
                self.nag_actions[row.nag] = self._nag_action(host, row)
            if rows is MOVE_ROWS:
                self.menu.addSeparator()
                self.type_actions = {key: self._typing_action(host, key) for key in ("!", "?")}
            self.menu.addSeparator()
        self.clear_action = QAction("Remove the move's glyphs", host)
        self.clear_action.triggered.connect(self.clear)
        self.menu.addAction(self.clear_action)
        session.game_loaded.connect(self.update_states)
        session.current_changed.connect(self._on_current_changed)
        session.notes_changed.connect(self._on_notes_changed)
        self.menu.aboutToShow.connect(self.update_states)
        self.update_states()

    def _text(self, row: NagRow, kind: str) -> str:
        metrics = QFontMetricsF(self.menu.font())
        return displayable(row_text(row, kind), lambda sign: metrics.inFontUcs4(ord(sign)))

    def _nag_action(self, host: QMainWindow, row: NagRow) -> QAction:
        action = QAction(self._text(row, "chess"), host)
        action.setCheckable(True)
        if row.shortcut:
            action.setShortcut(QKeySequence(row.shortcut))
        action.setStatusTip(f"Put {row.glyph} ({row.name.lower()}) on the move on show, or take it away")
        action.triggered.connect(lambda _checked=False, nag=row.nag: self.toggle(nag))
        host.addAction(action)  # the shortcut works with the menu bar hidden
        self.menu.addAction(action)
        return action

    def _typing_action(self, host: QMainWindow, key: str) -> QAction:
        other = "?" if key == "!" else "!"
        action = QAction(f"Type {key}   (again: {key}{key}, then {other}: {key}{other})", host)
        # the sign alone, and with the Shift most keyboards type it with (not every platform maps that to the sign)
        action.setShortcuts([QKeySequence(key), QKeySequence(f"Shift+{key}")])
        action.setStatusTip(f"{key} on the move on show; typed again straight after, {key}{key}; then {other}, {key}{other}")
        action.triggered.connect(lambda _checked=False, typed=key: self.type_key(typed))
        host.addAction(action)
        self.menu.addAction(action)
        return action

    # ------------------------------------------------------------------------------ API
    def _node(self) -> Node | None:
        node = self.session.model.current_node
        return node if node is not None and node.parent is not None and self.session.model.game is not None else None

    def toggle(self, nag: int) -> None:
        """Put `nag` on the move on show, or take it away."""
        node = self._node()
        if node is not None:
            self.session.model.toggle_nag(node, nag)
        self.update_states()

    def type_key(self, key: str) -> None:
        """`!` or `?` typed on the move on show (see the module's note)."""
        node = self._node()
        if node is None:
            return
        current = next((nag for nag in node.nags if nag in MOVE_NAGS), None)
        single = 1 if key == "!" else 2
        if self._chord_node is node:
            wanted = next((nag for nag in typed_nag(list(node.nags), key) if nag in MOVE_NAGS), None)
        else:
            wanted = None if current == single else single
        self._typing = True
        try:
            if wanted is not None:
                self.session.model.toggle_nag(node, wanted)
            elif current is not None:
                self.session.model.toggle_nag(node, current)
        finally:
            self._typing = False
        self._chord_node = node if wanted is not None else None
        self.update_states()

    def break_chord(self) -> None:
        """Something else was done (a save): the next `!`/`?` key starts afresh."""
        self._chord_node = None

    def clear(self) -> None:
        node = self._node()
        if node is not None and node.nags:
            self.session.model.annotate(node, nags=[])

    def update_states(self) -> None:
        """Checked: the glyphs the move on show carries; enabled: a move is on show (and, for Go,
        the glyph has a place in an SGF)."""
        node = self._node()
        game = self.session.model.game
        kind = game.kind if game is not None else "chess"
        nags = set(node.nags) if node is not None else set()
        for row in (*MOVE_ROWS, *POSITION_ROWS, *OTHER_ROWS):
            action = self.nag_actions[row.nag]
            action.setText(self._text(row, kind))
            action.setEnabled(node is not None and row_available(row, kind))
            action.setChecked(row.nag in nags)
        for action in self.type_actions.values():
            action.setEnabled(node is not None)
        self.clear_action.setEnabled(bool(nags))

    def _on_current_changed(self, _node: Node) -> None:
        self._chord_node = None
        self.update_states()

    def _on_notes_changed(self, _node: Node) -> None:
        if not self._typing:
            self._chord_node = None  # something else changed the notes: the next key starts afresh
        self.update_states()
