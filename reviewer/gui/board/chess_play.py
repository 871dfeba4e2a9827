"""A chess board you can play on, as on lichess: click-click or drag a piece, dots on the squares it
may go to, a chooser for promotions, and the player's arrows and circles drawn with the right button
(`chess_shapes`: lichess's colours with Shift, Alt and Ctrl).

The widget only proposes moves (`move_played`, in UCI); the session asks the rules and adds the move
to the game, and the board is then given the new position.
"""

from __future__ import annotations

from collections.abc import Sequence

import chess
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QWidget

from reviewer.core.gametree import Shape
from reviewer.gui.board._common import Layer
from reviewer.gui.board.chess_board import Arrow, ChessBoardWidget
from reviewer.gui.board.chess_shapes import drawn_shape, paint_shapes
from reviewer.gui.common import style

PROMOTION_CHOICES = (chess.QUEEN, chess.KNIGHT, chess.ROOK, chess.BISHOP)
DRAG_THRESHOLD_PX = 4


class PlayableChessBoard(ChessBoardWidget):
    """Signals:
    move_played(str): a legal move the user made on the board, in UCI (`e2e4`, `e7e8q`).
    move_tried(str): a piece dropped where the rules do not let it go, in UCI (the caller says why).
    shape_drawn(Shape): an arrow (right-drag) or circle (right-click) the player drew, to be drawn
        or taken away (a toggle) on the node on show; the board draws only what `set_shapes` gives it.
    """

    kind = "chess"  # the game it shows
    move_played = Signal(str)
    move_tried = Signal(str)
    shape_drawn = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._interactive = True
        self._selected: int | None = None
        self._press_at: QPointF | None = None
        self._drag_at: QPointF | None = None  # the cursor while a piece is dragged
        self._only_dragged = False  # the piece pressed has no move now: it may be dragged, not selected
        self._promotion: tuple[int, int] | None = None  # (from, to) while the chooser is open
        self._right_from: int | None = None
        self._right_to: int | None = None  # the square under the mouse while the right button draws
        self._right_modifiers = Qt.KeyboardModifier.NoModifier
        self._shapes: tuple[Shape, ...] = ()
        self._shape_layer = Layer()  # the shapes, not drawn again for each frame of a dragged piece
        self._preview: list[Arrow] = []
        self.setMouseTracking(False)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.PreventContextMenu)  # the right button draws

    # ------------------------------------------------------------------------------- API

    def set_interactive(self, interactive: bool) -> None:
        self._interactive = interactive
        self._reset_input()

    def set_position(self, board: chess.Board, last_move: chess.Move | None = None) -> None:
        self._reset_input()
        super().set_position(board, last_move)

    def set_shapes(self, shapes: Sequence[Shape]) -> None:
        """The player's (or the file's) arrows and circles of the position on show."""
        self._shapes = tuple(shapes)
        self.update()

    def shapes(self) -> tuple[Shape, ...]:
        return self._shapes

    def set_preview_arrows(self, arrows: list[tuple[int, int]]) -> None:
        """A line shown over everything else while the mouse is on it (empty: none)."""
        self._preview = [Arrow(a, b, color="#003088cc", width_frac=0.13) for a, b in arrows]
        self.update()

    def preview_arrows(self) -> list[tuple[int, int]]:
        return [(arrow.from_sq, arrow.to_sq) for arrow in self._preview]

    def selected_square(self) -> int | None:
        return self._selected

    def promotion_open(self) -> bool:
        return self._promotion is not None

    def targets(self, square: int) -> set[int]:
        """The squares the piece on `square` may move to."""
        return {move.to_square for move in self._board.legal_moves if move.from_square == square}

    def promotion_choice_rect(self, index: int) -> QRectF:
        """Where choice `index` (queen, knight, rook, bishop) of the open chooser is drawn."""
        if self._promotion is None:
            return QRectF()
        to_square = self._promotion[1]
        step = -1 if chess.square_rank(to_square) == 7 else 1
        rank = chess.square_rank(to_square) + step * index
        return self.square_rect(chess.square(chess.square_file(to_square), rank))

    # ---------------------------------------------------------------------------- mouse

    def mousePressEvent(self, event: QMouseEvent) -> None:
        position = event.position()
        square = self.square_at(position)
        if event.button() == Qt.MouseButton.RightButton:
            self._right_from = self._right_to = square
            self._right_modifiers = event.modifiers()
            event.accept()
            return
        if event.button() != Qt.MouseButton.LeftButton or not self._interactive:
            super().mousePressEvent(event)
            return
        event.accept()
        if self._promotion is not None:
            self._choose_promotion(position)
            return
        if square is None:
            self._reset_input()
            return
        if self._selected is not None and square in self.targets(self._selected):
            self._try_move(self._selected, square)
            return
        piece = self._board.piece_at(square)
        if piece is not None:  # any piece may be dragged; one that cannot go there is told why
            self._selected, self._press_at = square, position
            self._only_dragged = piece.color != self._board.turn or not self.targets(square)
        else:
            self._selected = None
        self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._right_from is not None and event.buttons() & Qt.MouseButton.RightButton:
            square = self.square_at(event.position())
            if square != self._right_to:
                self._right_to = square
                self.update()
        if self._press_at is not None and event.buttons() & Qt.MouseButton.LeftButton:
            moved = event.position() - self._press_at
            if self._drag_at is not None or abs(moved.x()) + abs(moved.y()) >= DRAG_THRESHOLD_PX:
                self._drag_at = event.position()
                self.update()
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        square = self.square_at(event.position())
        if event.button() == Qt.MouseButton.RightButton:
            start, modifiers = self._right_from, self._right_modifiers
            self._right_from = self._right_to = None
            self.update()
            if start is not None and square is not None:
                self.shape_drawn.emit(drawn_shape(start, square, modifiers))
            event.accept()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        dragged = self._drag_at is not None
        origin = self._selected
        self._press_at = self._drag_at = None
        if dragged and origin is not None:
            if square is not None and square in self.targets(origin):
                self._try_move(origin, square)
            elif square != origin:
                self._selected = None
                if square is not None:
                    self.move_tried.emit(chess.Move(origin, square).uci())
        if self._only_dragged:  # a piece with no move to offer is not kept selected by a click
            self._selected = None
        self._only_dragged = False
        self.update()
        event.accept()

    # ----------------------------------------------------------------------------- moves

    def _try_move(self, from_square: int, to_square: int) -> None:
        candidates = [m for m in self._board.legal_moves if m.from_square == from_square and m.to_square == to_square]
        if not candidates:
            return
        if any(m.promotion for m in candidates):
            self._promotion = (from_square, to_square)
            self._press_at = self._drag_at = None
            self.update()
            return
        self._selected = None
        self.update()
        self.move_played.emit(candidates[0].uci())

    def _choose_promotion(self, position: QPointF) -> None:
        assert self._promotion is not None
        from_square, to_square = self._promotion
        for index, piece in enumerate(PROMOTION_CHOICES):
            if self.promotion_choice_rect(index).contains(position):
                self._reset_input()
                self.update()
                self.move_played.emit(chess.Move(from_square, to_square, promotion=piece).uci())
                return
        self._reset_input()  # a click elsewhere closes the chooser
        self.update()

    def _reset_input(self) -> None:
        self._selected = None
        self._press_at = self._drag_at = None
        self._promotion = None

    # -------------------------------------------------------------------------- painting

    def _paint_marks(self, painter: QPainter, theme: style.Theme) -> None:
        dragged_piece = None
        if self._drag_at is not None and self._selected is not None:
            dragged_piece = self._board.remove_piece_at(self._selected)
        try:
            if self._selected is not None:
                painter.fillRect(self.square_rect(self._selected), style.color(theme.last_move))
            super()._paint_marks(painter, theme)
        finally:
            if dragged_piece is not None and self._selected is not None:
                self._board.set_piece_at(self._selected, dragged_piece)
        if self._selected is not None:
            self._paint_targets(painter)
        drawn = tuple(self._drawn_now())
        if drawn:
            key = (drawn, self._flipped, self.board_rect().getRect())
            self._shape_layer.draw(painter, self, key, lambda layer: paint_shapes(layer, drawn, self.square_rect))
        if self._preview:
            self._paint_preview(painter)
        if dragged_piece is not None and self._drag_at is not None:
            size = self.board_rect().width() / 8
            pixmap = self._piece_pixmap(dragged_piece.symbol(), round(size * self.devicePixelRatioF()))
            painter.drawPixmap(self._drag_at - QPointF(size / 2, size / 2), pixmap)
        if self._promotion is not None:
            self._paint_promotion(painter)

    def _paint_targets(self, painter: QPainter) -> None:
        assert self._selected is not None
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        hint = QColor(20, 85, 30, 110)
        for square in self.targets(self._selected):
            rect = self.square_rect(square)
            if self._board.piece_at(square) is None:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(hint)
                radius = rect.width() * 0.14
                painter.drawEllipse(rect.center(), radius, radius)
            else:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(hint, rect.width() * 0.08))
                inset = rect.width() * 0.06
                painter.drawEllipse(rect.adjusted(inset, inset, -inset, -inset))

    def _drawn_now(self) -> list[Shape]:
        """The kept shapes, with the one the right button is drawing (not yet kept) over them."""
        shapes = list(self._shapes)
        if self._right_from is not None and self._right_to is not None and self._right_to != self._right_from:
            shapes.append(drawn_shape(self._right_from, self._right_to, self._right_modifiers))
        return shapes

    def _paint_preview(self, painter: QPainter) -> None:
        saved = self._arrows
        self._arrows = self._preview
        try:
            self._paint_arrows(painter)
        finally:
            self._arrows = saved

    def _paint_promotion(self, painter: QPainter) -> None:
        assert self._promotion is not None
        painter.fillRect(self.board_rect(), QColor(0, 0, 0, 90))
        color = self._board.turn
        size = self.board_rect().width() / 8
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for index, piece_type in enumerate(PROMOTION_CHOICES):
            rect = self.promotion_choice_rect(index)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(235, 235, 235))
            painter.drawEllipse(rect.adjusted(2, 2, -2, -2))
            symbol = chess.Piece(piece_type, color).symbol()
            pixmap = self._piece_pixmap(symbol, round(size * self.devicePixelRatioF()))
            painter.drawPixmap(rect.topLeft(), pixmap)
