"""A panel only the tests know: the number of the move on show and its position's evaluation,
made the way any panel is (a callable of the session and a parent, following the session's signals)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from reviewer.core.score_text import score_text
from reviewer.gui.common.session import ReviewSession

OBJECT_NAME = "move-figure-panel"


class MoveFigurePanel(QLabel):
    def __init__(self, session: ReviewSession, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName(OBJECT_NAME)
        self._session = session
        session.game_loaded.connect(self._show)
        session.current_changed.connect(self._show)
        session.evaluation_added.connect(self._show)
        self._show()

    def _show(self, *_changed: object) -> None:
        model = self._session.model
        node = model.current_node
        if model.game is None or node is None:
            self.setText("No game")
            return
        evaluation = model.evaluations.get(node.ply) if node.is_mainline else None
        figure = score_text(model.game.kind, evaluation) if evaluation is not None else "not evaluated"
        self.setText(f"Ply {node.ply} · {figure}")
