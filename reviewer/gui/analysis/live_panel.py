"""The engine side of the analysis board: the lines panel, the evaluation bar, and the bridge
that runs `LiveAnalysis` for the window (updates cross to the GUI thread as queued signals).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from reviewer.core.analysis import Evaluation
from reviewer.core.engines.base import Engine
from reviewer.core.games import game_support
from reviewer.core.games.support import MoveNumber
from reviewer.core.gametree import Game, Point
from reviewer.core.services.live import LiveAnalysis, LiveUpdate
from reviewer.gui.common import style
from reviewer.gui.common.live_text import LineRow, chess_score_text, line_rows, speed_text, win_pct_white
from reviewer.gui.presenters.text import visits_text


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

    def set_region(self, region: tuple[Point, Point] | None) -> None:
        self._live.set_region(region)

    def stop(self) -> None:
        self._live.stop()

    def close(self) -> None:
        self._live.close()


class _LineLabel(QWidget):
    """One engine line: its score, its detail and its moves, each move a target of its own.

    Signals carry the line's index and how many of its moves lead to the point under the mouse
    (the whole line off the moves; -1 when the mouse leaves)."""

    clicked = Signal(int, int)
    hovered = Signal(int, int)

    def __init__(self, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self._score = ""
        self._detail = ""
        self._tokens: list[tuple[str, int | None]] = []  # text, 0-based move index (None: a move number)
        self._move_rects: list[QRectF] = []
        self._hovered: int | None = None  # the move under the mouse
        self._hover_plies = -1  # what the last `hovered` said
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(f"Engine line {index + 1}")

    def set_line(self, score: str, detail: str, tokens: list[tuple[str, int | None]]) -> None:
        self._score, self._detail, self._tokens = score, detail, tokens
        self._hovered, self._hover_plies = None, -1
        self._move_rects = []
        self.setAccessibleDescription(self.text())
        self.updateGeometry()
        self.update()

    def text(self) -> str:
        return "  ".join(part for part in (self._score, self._detail, " ".join(text for text, _ in self._tokens)) if part)

    def move_rect(self, move_index: int) -> QRect:
        """Where move `move_index` (0 = the first) of the line is drawn (empty when not shown)."""
        self._lay_out()
        rects = self._move_rects
        return rects[move_index].toAlignedRect() if move_index < len(rects) else QRect()

    def sizeHint(self) -> QSize:
        return QSize(200, round(QFontMetricsF(self.font()).height() * 1.5))

    def _lay_out(self) -> list[tuple[QRectF, str, str, int | None]]:
        """(rect, text, role, move index) of every piece of the line that fits, left to right."""
        bold = QFont(self.font())
        bold.setBold(True)
        plain, strong = QFontMetricsF(self.font()), QFontMetricsF(bold)
        height = float(self.height())
        pieces: list[tuple[QRectF, str, str, int | None]] = []
        x = 2.0
        for text, role, metrics, gap in ((self._score, "score", strong, 12.0), (self._detail, "detail", plain, 12.0)):
            if text:
                width = metrics.horizontalAdvance(text)
                pieces.append((QRectF(x, 0, width, height), text, role, None))
                x += width + gap
        space = plain.horizontalAdvance(" ")
        self._move_rects = []
        for text, index in self._tokens:
            width = plain.horizontalAdvance(text)
            if x + width > self.width() - 2:
                break
            rect = QRectF(x, 0, width, height)
            pieces.append((rect, text, "move" if index is not None else "number", index))
            if index is not None:
                self._move_rects.append(rect.adjusted(-space / 2, 0, space / 2, 0))
            x += width + space
        return pieces

    def _move_at(self, x: float) -> int | None:
        self._lay_out()
        return next((index for index, rect in enumerate(self._move_rects) if rect.left() <= x < rect.right()), None)

    def paintEvent(self, event: QPaintEvent) -> None:
        theme = style.theme_for(self)
        painter = QPainter(self)
        try:
            bold = QFont(self.font())
            bold.setBold(True)
            for rect, text, role, index in self._lay_out():
                if role == "move" and index == self._hovered:
                    hover = style.color(theme.hover_background)
                    painter.setPen(Qt.PenStyle.NoPen)
                    painter.setBrush(hover)
                    painter.drawRoundedRect(rect.adjusted(-2, 2, 2, -2), 3, 3)
                painter.setFont(bold if role == "score" else self.font())
                muted = role in ("detail", "number")
                painter.setPen(QColor(theme.text_muted) if muted else self.palette().color(self.foregroundRole()))
                painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
        finally:
            painter.end()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        index = self._move_at(event.position().x())
        if index != self._hovered:
            self._hovered = index
            self.update()
        if self._plies(index) != self._hover_plies:
            self._hover_plies = self._plies(index)
            self.hovered.emit(self.index, self._hover_plies)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.index, self._plies(self._move_at(event.position().x())))
        event.accept()

    def _plies(self, move_index: int | None) -> int:
        """Moves to play for a point on the line: up to the move there; off the moves, all of them."""
        return move_index + 1 if move_index is not None else sum(1 for _text, index in self._tokens if index is not None)

    def leaveEvent(self, event: QEvent) -> None:
        self._hovered, self._hover_plies = None, -1
        self.update()
        self.hovered.emit(self.index, -1)


def move_tokens(moves: tuple[str, ...], moves_text: str) -> list[tuple[str, int | None]]:
    """The words of a line's text, each move with its index in `moves` (move numbers with None)."""
    tokens: list[tuple[str, int | None]] = []
    index = 0
    for word in moves_text.split():
        if index < len(moves) and word == moves[index]:
            tokens.append((word, index))
            index += 1
        else:
            tokens.append((word, None))
    return tokens


class LinesPanel(QFrame):
    """Up to five engine lines: score, depth or visits, the moves. Click a move of a line to play
    the line up to that move (off the moves: the whole line); hover to see it on the board.

    Signals:
        line_clicked(tuple[str, ...]): the moves to play, from the position on show.
        line_hovered(object): the moves of the line under the mouse (up to the move there), or None.
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

    def line_label(self, index: int) -> _LineLabel:
        return self._labels[index]

    def show_status(self, text: str) -> None:
        self._header.setText(text)

    def clear_lines(self, status: str) -> None:
        self._rows = []
        for label in self._labels:
            label.hide()
        self._header.setText(status)

    def show_update(self, update: LiveUpdate, numbering: MoveNumber | None, lines: int) -> None:
        """The live search's lines, their moves numbered from `numbering` (None: plain moves)."""
        evaluation = update.evaluation
        self._rows = line_rows(evaluation, numbering, limit=lines)
        for label, row in zip(self._labels, self._rows, strict=False):
            label.set_line(row.score, row.detail, move_tokens(row.moves, row.moves_text))
            label.setToolTip(row.moves_text)
            label.show()
        for label in self._labels[len(self._rows) :]:
            label.hide()
        counts_nodes = game_support(evaluation.kind).work_unit == "nodes"
        work = f"depth {evaluation.depth}" if counts_nodes and evaluation.depth else visits_text(evaluation.nodes or 0)
        # an engine that does not say how long it searched (KataGo's process): the time since the
        # position was set, which its visits took
        timed = evaluation if evaluation.seconds else replace(evaluation, seconds=update.seconds)
        speed = speed_text(timed)
        state = "done" if update.last else "thinking…"
        self._header.setText(" · ".join(part for part in ("live", work, speed, state) if part))

    def _clicked(self, index: int, plies: int) -> None:
        if index < len(self._rows):
            self.line_clicked.emit(self._rows[index].moves[: max(1, plies)])

    def _hovered(self, index: int, plies: int) -> None:
        if not 0 <= index < len(self._rows) or plies < 0:
            self.line_hovered.emit(None)
            return
        self.line_hovered.emit(self._rows[index].moves[: max(1, plies)])


class EvalBar(QWidget):
    """A vertical bar beside the chess board: White's share from the bottom (flipped: the top)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._white_pct: float | None = None
        self._text = ""  # the score in full, the tooltip
        self._bar_text = ""
        self._flipped = False
        self.setFixedWidth(22)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        self.setAccessibleName("Evaluation bar")

    def white_pct(self) -> float | None:
        return self._white_pct

    def set_evaluation(self, evaluation: Evaluation | None) -> None:
        if evaluation is None:
            self._white_pct, self._text, self._bar_text = None, "", ""
        else:
            self._white_pct = win_pct_white(evaluation)
            self._text = chess_score_text(evaluation.score_cp_first, evaluation.mate_first)
            cp = evaluation.score_cp_first
            self._bar_text = (  # what fits in the bar: one decimal, as lichess's bar
                f"{abs(cp) / 100:.1f}" if evaluation.mate_first is None and cp is not None else self._text.lstrip("+")
            )
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
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), self._bar_text)
        painter.setPen(QColor("#8a8783"))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.end()

