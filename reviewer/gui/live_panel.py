"""The engine side of the analysis board: the lines panel, the evaluation bar, and the bridge
that runs `LiveAnalysis` for the window (updates cross to the GUI thread as queued signals).
"""

from __future__ import annotations

from collections.abc import Callable

import chess
from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from reviewer.core.analysis import Evaluation
from reviewer.core.engines.base import Engine
from reviewer.core.gametree import Game
from reviewer.core.services.live import LiveAnalysis, LiveUpdate
from reviewer.gui import style
from reviewer.gui.live_text import LineRow, chess_score_text, line_rows, speed_text, win_pct_white


class LiveBridge(QObject):
    """Owns one `LiveAnalysis`; its callbacks run on the worker thread and only emit signals."""

    updated = Signal(object)  # LiveUpdate
    failed = Signal(str)

    def __init__(self, engine_factory: Callable[[], Engine], multipv: int = 3, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._live = LiveAnalysis(engine_factory, self.updated.emit, self.failed.emit, multipv=multipv)

    def set_position(self, game: Game, ply: int, token: object) -> None:
        self._live.set_position(game, ply, token)

    def set_multipv(self, multipv: int) -> None:
        self._live.set_multipv(multipv)

    def stop(self) -> None:
        self._live.stop()

    def close(self) -> None:
        self._live.close()


class _LineLabel(QLabel):
    clicked = Signal(int)
    hovered = Signal(int)  # -1 when the mouse leaves

    def __init__(self, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(False)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.index)
        event.accept()

    def enterEvent(self, event: object) -> None:
        self.hovered.emit(self.index)

    def leaveEvent(self, event: object) -> None:
        self.hovered.emit(-1)


class LinesPanel(QFrame):
    """Up to five engine lines: score, depth or visits, the moves. Click a line to play it; hover
    to see it on the board.

    Signals:
        line_clicked(tuple[str, ...]): the moves of the clicked line.
        line_hovered(object): the moves of the line under the mouse, or None.
    """

    line_clicked = Signal(tuple)
    line_hovered = Signal(object)
    MAX_LINES = 5

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._header = QLabel("Engine off")
        self._header.setAccessibleName("Engine status")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        layout.addWidget(self._header)
        self._labels: list[_LineLabel] = []
        for index in range(self.MAX_LINES):
            label = _LineLabel(index, self)
            label.clicked.connect(self._clicked)
            label.hovered.connect(self._hovered)
            label.hide()
            layout.addWidget(label)
            self._labels.append(label)
        self._rows: list[LineRow] = []

    def rows(self) -> list[LineRow]:
        return list(self._rows)

    def header_text(self) -> str:
        return self._header.text()

    def line_label(self, index: int) -> QLabel:
        return self._labels[index]

    def show_status(self, text: str) -> None:
        self._header.setText(text)

    def clear_lines(self, status: str) -> None:
        self._rows = []
        for label in self._labels:
            label.hide()
        self._header.setText(status)

    def show_update(self, update: LiveUpdate, board: chess.Board | None, lines: int) -> None:
        evaluation = update.evaluation
        self._rows = line_rows(evaluation, board, limit=lines)
        theme = style.theme_for(self)
        for label, row in zip(self._labels, self._rows, strict=False):
            label.setText(
                f"<b>{row.score}</b>&nbsp;&nbsp;<span style='color:{theme.text_muted}'>{row.detail}</span>"
                f"&nbsp;&nbsp;{row.moves_text}"
            )
            label.setToolTip(row.moves_text)
            label.show()
        for label in self._labels[len(self._rows) :]:
            label.hide()
        work = f"depth {evaluation.depth}" if evaluation.kind == "chess" and evaluation.depth else f"{evaluation.nodes or 0} visits"
        speed = speed_text(evaluation)
        state = "done" if update.last else "thinking…"
        self._header.setText(" · ".join(part for part in ("live", work, speed, state) if part))

    def _clicked(self, index: int) -> None:
        if index < len(self._rows):
            self.line_clicked.emit(self._rows[index].moves)

    def _hovered(self, index: int) -> None:
        self.line_hovered.emit(self._rows[index].moves if 0 <= index < len(self._rows) else None)


class EvalBar(QWidget):
    """A vertical bar beside the chess board: White's share from the bottom (flipped: the top)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._white_pct: float | None = None
        self._text = ""
        self._flipped = False
        self.setFixedWidth(22)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        self.setAccessibleName("Evaluation bar")

    def white_pct(self) -> float | None:
        return self._white_pct

    def set_evaluation(self, evaluation: Evaluation | None) -> None:
        if evaluation is None:
            self._white_pct, self._text = None, ""
        else:
            self._white_pct = win_pct_white(evaluation)
            self._text = chess_score_text(evaluation.score_cp_white, evaluation.mate_white)
        self.setToolTip(self._text)
        self.update()

    def set_flipped(self, flipped: bool) -> None:
        self._flipped = flipped
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = QRectF(self.rect())
        painter.fillRect(rect, QColor("#403d39"))
        if self._white_pct is not None:
            white_height = rect.height() * self._white_pct / 100
            top = rect.top() if self._flipped else rect.bottom() - white_height
            painter.fillRect(QRectF(rect.left(), top, rect.width(), white_height), QColor("#f4f4f2"))
            painter.setFont(style.pixel_font(9.0, bold=True))
            white_ahead = self._white_pct >= 50
            at_bottom = white_ahead != self._flipped
            box = QRectF(rect.left(), rect.bottom() - 16 if at_bottom else rect.top(), rect.width(), 16)
            painter.setPen(QColor("#262421") if white_ahead else QColor("#f4f4f2"))
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), self._text.lstrip("+"))
        painter.setPen(QColor("#8a8783"))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.end()

