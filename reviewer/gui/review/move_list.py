"""The list of moves, lichess style: the main line in rows (move number, White, Black), each
variation in an indented block of flowing text right after the move it branches from.

Chess rows read `12.  Nf3  Nc6`; Go cells read `13 ● Q16` (the move number, a stone, the point).
Main-line moves carry their judgement as colour and ?!/?/??, the player's (or the file's) own glyphs
in its place (`e4!?`, `Nf3? ±`) and a ✎ when the move carries words; a move where the file has a problem
(e.g. the next move could not be read) carries a ⚠ whose tooltip says what. Everything is laid out once per game
(and again when the width changes); moving the current move only repaints two cells.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen, QResizeEvent
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from reviewer.core.games import game_support
from reviewer.core.gametree import Game, Node
from reviewer.gui.common import style
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.notes import displayable, move_glyph, other_glyphs, words_mark
from reviewer.gui.presenters.times import TIME_TROUBLE_MARK

_CELL_PAD = 8.0  # text inset inside a cell, pixels
_BLOCK_INDENT = 14.0  # variation block inset from the left

PROBLEM_MARK = "⚠"
DEPARTURE_MARK = "◆"  # the game left the database with this move
LINE_MARK = "●"  # the player left their usual line with this move
_GO_STONE = 0.62  # the stone glyph's diameter as a fraction of the text height


@dataclass
class _Item:
    """One clickable move (or a number/parenthesis when `node` is None) at a place in the content."""

    rect: QRectF
    text: str
    node: Node | None
    kind: str  # "main", "variation", "number", "paren", "placeholder"
    ply: int = 0  # main-line ply for "main" items (judgement look-up)


@dataclass
class _Layout:
    items: list[_Item] = field(default_factory=list)
    tops: list[float] = field(default_factory=list)  # items' top edges, for bisecting
    blocks: list[QRectF] = field(default_factory=list)  # variation blocks' backgrounds
    number_column: list[QRectF] = field(default_factory=list)  # chess move-number cells
    height: float = 0.0
    by_node: dict[Node, _Item] = field(default_factory=dict)


MIN_ROWS = 5  # move pairs the list shows however small the window


class MoveListWidget(QAbstractScrollArea):
    """Signals:
    node_selected(object): the Node the user clicked (main line or variation).
    """

    node_selected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._game: Game | None = None
        self._judgements: dict[int, str | None] = {}
        self._problems: dict[int, list[str]] = {}
        self._departures: dict[int, str] = {}
        self._left_database: frozenset[int] = frozenset()  # of those plies, where the game left the database
        self._left_line: frozenset[int] = frozenset()  # where the player left their usual line
        self._time_trouble: dict[int, str] = {}  # main-line ply -> the ◷ tooltip of a mistake made in time trouble
        self._current: Node | None = None
        self._hover: _Item | None = None
        self._layout = _Layout()
        self._layout_width = -1.0
        self._start_fullmove = 1
        self._start_white = True
        self._fonts: dict[bool, QFont] = {}
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # a click takes the keyboard from the move box
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.viewport().setMouseTracking(True)
        self.setFrameShape(QAbstractScrollArea.Shape.NoFrame)
        self.verticalScrollBar().setSingleStep(20)

    # ------------------------------------------------------------------------------- API

    def set_game(self, game: Game | None) -> None:
        """Show a new game (or nothing); the current move goes back to the start."""
        self._game = game
        self._judgements = {}
        self._problems = {}
        self._departures = {}
        self._left_database = self._left_line = frozenset()
        self._time_trouble = {}
        self._current = None
        self._hover = None
        self._start_fullmove, self._start_white = 1, True
        if game is not None and game_support(game.kind).numbered_moves:
            start = game_support(game.kind).start_move_number(game)
            self._start_fullmove, self._start_white = start.number, start.first_to_move
        self._relayout()
        self.verticalScrollBar().setValue(0)

    def refresh_tree(self) -> None:
        """The tree of the game on show changed (a move played, a line deleted): lay it out again,
        keeping the labels, problems and current move (the caller hands fresh labels if they changed)."""
        self._relayout()
        self._reveal_current()

    def set_judgements(self, judgements: dict[int, str | None]) -> None:
        """Main-line ply → judgement (book/best/good/inaccuracy/mistake/blunder or None)."""
        self._judgements = dict(judgements)
        self.viewport().update()

    def set_problems(self, problems: dict[int, list[str]]) -> None:
        """Main-line ply → what is wrong in the file at that move (a ⚠ and a tooltip)."""
        self._problems = {ply: list(texts) for ply, texts in problems.items() if texts}
        self.viewport().update()

    def set_departures(self, departures: dict[int, str], left_database: frozenset[int], left_line: frozenset[int]) -> None:
        """Main-line ply → what its tooltip says of where the game left the database (a ◆ at the plies
        of `left_database`) or the player their usual line (a ● at those of `left_line`)."""
        self._departures = {ply: text for ply, text in departures.items() if text}
        self._left_database, self._left_line = left_database, left_line
        self.viewport().update()

    def departure_text(self, ply: int) -> str:
        return self._departures.get(ply, "")

    def departure_marks(self, ply: int) -> list[tuple[str, str]]:
        """The marks after main-line move `ply`, each with the theme's colour it is drawn in (out of the
        database: info, off the player's line: warning)."""
        theme = style.theme_for(self)
        return ([(DEPARTURE_MARK, theme.info_text)] if ply in self._left_database else []) + (
            [(LINE_MARK, theme.warning_text)] if ply in self._left_line else [])

    def set_time_trouble(self, marks: dict[int, str]) -> None:
        """Main-line ply -> what the ◷ after a mistake made in time trouble says when hovered."""
        self._time_trouble = dict(marks)
        self.viewport().update()

    def time_trouble_plies(self) -> tuple[int, ...]:
        return tuple(sorted(self._time_trouble))

    def problem_text(self, ply: int) -> str:
        """The tooltip of the ⚠ at main-line move `ply` ('' when none)."""
        return "\n".join(self._problems.get(ply, ()))

    def tooltip_at(self, position: QPoint | QPointF) -> str:
        """What hovering the viewport at `position` shows: the problem at that move ('' for none)."""
        item = self._item_at(QPointF(position))
        if item is None or item.kind != "main":
            return ""
        texts = (self.problem_text(item.ply), self._time_trouble.get(item.ply, ""), self.departure_text(item.ply))
        return "\n".join(text for text in texts if text)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(event.pos())  # type: ignore[attr-defined]
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())  # type: ignore[attr-defined]
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def set_current_node(self, node: Node | None) -> None:
        """Highlight `node` (None or the root: nothing) and scroll it into view."""
        if node is self._current:
            return
        old = self._layout.by_node.get(self._current) if self._current is not None else None
        self._current = node
        new = self._layout.by_node.get(node) if node is not None else None
        if new is not None:
            self._ensure_visible(new)
        elif node is not None and node.parent is None:
            self.verticalScrollBar().setValue(0)
        for item in (old, new):  # where they are after any scrolling
            if item is not None:
                self._update_item(item)

    def current_node(self) -> Node | None:
        return self._current

    def symbol_for(self, node: Node, ply: int | None = None) -> str:
        """The glyph after a main-line move: the annotator's own (the player's or the file's NAG),
        else the engine's judgement."""
        own = move_glyph(node)
        if own:
            return own
        judgement = self._judgements.get(node.ply if ply is None else ply)
        return style.judgement_symbol(judgement) if judgement is not None else ""

    def notes_text(self, node: Node) -> str:
        """What follows a move's glyph: the position's and other glyphs (`±`, `N`) and ✎ for words."""
        kind = self._game.kind if self._game is not None else ""
        text = " ".join(part for part in (other_glyphs(node), words_mark(node, kind) if kind else "") if part)
        metrics = QFontMetricsF(self._font())
        return displayable(text, lambda sign: metrics.inFontUcs4(ord(sign)))

    def shown_text(self, node: Node) -> str:
        """The move as the list draws it: `Nf3?` and, after a space, its other glyphs and ✎."""
        item = self._layout.by_node.get(node)
        if item is None:
            return ""
        if item.kind == "variation":
            return item.text
        extra = self.notes_text(node)
        return f"{item.text}{self.symbol_for(node, item.ply)}" + (f" {extra}" if extra else "")

    def item_rect(self, node: Node) -> QRect | None:
        """Where `node`'s move is drawn, in viewport coordinates (None if it is not listed)."""
        item = self._layout.by_node.get(node)
        if item is None:
            return None
        return item.rect.translated(0, -self.verticalScrollBar().value()).toAlignedRect()

    # -------------------------------------------------------------------------- Qt events

    def sizeHint(self) -> QSize:
        return QSize(300, 400)

    def minimumSizeHint(self) -> QSize:
        """Room for MIN_ROWS moves: fewer makes the list useless to read a game by."""
        return QSize(180, round(self._row_height() * MIN_ROWS) + 2 * self.frameWidth())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if abs(self.viewport().width() - self._layout_width) >= 1:
            self._relayout()
        else:
            self._update_scroll_range()
        self._reveal_current()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        # Move what is already drawn and paint only the strip that comes into view.
        self.viewport().scroll(dx, dy)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fonts.clear()
            self._relayout()
            self._reveal_current()
        super().changeEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        item = self._item_at(event.position())
        if item is not self._hover:
            for old in (self._hover, item):
                if old is not None:
                    self._update_item(old)
            self._hover = item
            shape = Qt.CursorShape.PointingHandCursor if item is not None else Qt.CursorShape.ArrowCursor
            self.viewport().setCursor(shape)
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        if self._hover is not None:
            self._update_item(self._hover)
            self._hover = None
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            item = self._item_at(event.position())
            if item is not None and item.node is not None:
                self.node_selected.emit(item.node)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        event.accept()  # presses select; releases only need to be taken

    def paintEvent(self, event: QPaintEvent) -> None:
        theme = style.theme_for(self)
        palette = self.palette()
        painter = QPainter(self.viewport())
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
            painter.fillRect(self.viewport().rect(), palette.color(QPalette.ColorRole.Base))
            scroll = self.verticalScrollBar().value()
            painter.translate(0, -scroll)
            exposed = event.region().translated(0, scroll)  # two cells after a step, not the rows between
            visible = QRectF(exposed.boundingRect())
            self._paint_backgrounds(painter, palette, theme, visible)
            layout = self._layout
            first = max(0, bisect.bisect_left(layout.tops, visible.top() - 200) - 1)
            for item in layout.items[first:]:
                if item.rect.top() > visible.bottom():
                    break
                if exposed.intersects(item.rect.toAlignedRect()):
                    self._paint_item(painter, item, palette, theme)
            if not layout.items:
                painter.setPen(QColor(theme.text_muted))
                painter.setFont(self._font())
                message = "No moves" if self._game is not None else "Open a game to see its moves"
                painter.drawText(QRectF(0, 0, self.viewport().width(), 60), Qt.AlignmentFlag.AlignCenter, message)
        finally:
            painter.end()

    # ------------------------------------------------------------------------------ layout

    def _font(self, bold: bool = False) -> QFont:
        font = self._fonts.get(bold)
        if font is None:
            font = QFont(self.font())
            font.setBold(bold)
            self._fonts[bold] = font
        return font

    def _row_height(self) -> float:
        return round(QFontMetricsF(self._font(True)).height() * 1.75)

    def _number_width(self) -> float:
        return QFontMetricsF(self._font()).horizontalAdvance("888.") + 2 * _CELL_PAD

    def _relayout(self) -> None:
        self._layout_width = self.viewport().width()
        self._layout = _Layout()
        if self._game is not None:
            self._build(self._game)
        layout = self._layout
        layout.items.sort(key=lambda item: (item.rect.top(), item.rect.left()))
        layout.tops = [item.rect.top() for item in layout.items]
        layout.by_node = {item.node: item for item in layout.items if item.node is not None}
        self._update_scroll_range()
        self._hover = None
        self.viewport().update()

    def _update_scroll_range(self) -> None:
        scrollbar = self.verticalScrollBar()
        scrollbar.setRange(0, max(0, round(self._layout.height - self.viewport().height())))
        scrollbar.setPageStep(self.viewport().height())

    def _fullmove_before(self, ply: int) -> int:
        """Chess: the move number of move `ply` (1-based), counted from the start position."""
        offset = 0 if self._start_white else 1
        return self._start_fullmove + (ply - 1 + offset) // 2

    def _build(self, game: Game) -> None:
        width = max(120.0, float(self.viewport().width()))
        row_height = self._row_height()
        numbered = presentation(game.kind).numbered_moves  # chess: "12." before White's move, two per row
        number_width = self._number_width() if numbered else 0.0
        cell_width = (width - number_width) / 2
        layout = self._layout
        y = 0.0
        column = 0  # next free cell in the current row; 2 = the row is full
        row_open = False
        # Chess rows hold White then Black; Go rows start with whoever moved first (White after handicap).
        first = next(iter(game.root.mainline()), None)
        left_color = "white" if numbered else (first.color if first is not None and first.color else "black")

        def open_row(first_move_ply: int) -> None:
            nonlocal row_open, column
            row_open, column = True, 0
            if numbered:
                number_rect = QRectF(0, y, number_width, row_height)
                layout.number_column.append(number_rect)
                text = f"{self._fullmove_before(first_move_ply)}."
                layout.items.append(_Item(number_rect, text, None, "number"))

        def close_row() -> None:
            nonlocal row_open, y, column
            if row_open:
                y += row_height
            row_open, column = False, 0

        for ply, node in enumerate(game.root.mainline(), start=1):
            wanted = 0 if (node.color or self._color_of_ply(ply)) == left_color else 1
            if not row_open or wanted < column or column >= 2:
                close_row()
                open_row(ply)
            if wanted > column:  # Black's move opens the row: an ellipsis stands for White's
                rect = QRectF(number_width, y, cell_width, row_height)
                layout.items.append(_Item(rect, "…", None, "placeholder"))
            rect = QRectF(number_width + wanted * cell_width, y, cell_width, row_height)
            layout.items.append(_Item(rect, node.move or "", node, "main", ply))
            column = wanted + 1
            parent = node.parent
            alternatives = parent.children[1:] if parent is not None else []
            if alternatives:
                if column == 1:
                    rect = QRectF(number_width + cell_width, y, cell_width, row_height)
                    layout.items.append(_Item(rect, "…", None, "placeholder"))
                close_row()
                y = self._build_variations(alternatives, y, width)
        close_row()
        layout.height = y + row_height * 0.5

    def _color_of_ply(self, ply: int) -> str:
        """Who played move `ply` when the node does not say (alternating from the first player)."""
        if self._game is not None and not game_support(self._game.kind).numbered_moves:
            white_first = self._game.first_player == "white"
        else:
            white_first = self._start_white
        return "white" if (ply % 2 == 1) == white_first else "black"

    def _build_variations(self, alternatives: list[Node], y: float, width: float) -> float:
        """Lay out each alternative as a paragraph in one block; returns the y below the block."""
        metrics = QFontMetricsF(self._font())
        line_height = round(metrics.height() * 1.5)
        space = metrics.horizontalAdvance(" ")
        left, right = _BLOCK_INDENT + 6, width - 8
        top = y + 4
        y = top + 2
        for alternative in alternatives:
            x = left
            tokens = self._line_tokens(alternative)
            for index, (text, node, kind) in enumerate(tokens):
                token_width = metrics.horizontalAdvance(text) + (6 if node is not None else 0)
                if x + token_width > right and x > left:
                    x, y = left + 10, y + line_height  # continuation lines hang a little
                rect = QRectF(x, y, token_width, line_height)
                self._layout.items.append(_Item(rect, text, node, kind))
                following = tokens[index + 1][0] if index + 1 < len(tokens) else ""
                gap = 0.0 if text == "(" or following == ")" else space * (0.4 if kind == "number" else 0.8)
                x += token_width + gap
            y += line_height + 2
        bottom = y + 2
        self._layout.blocks.append(QRectF(_BLOCK_INDENT, top, width - _BLOCK_INDENT - 4, bottom - top))
        return bottom + 4

    def _line_tokens(self, start: Node) -> list[tuple[str, Node | None, str]]:
        """A variation as tokens: numbers, moves, and nested variations in parentheses."""
        tokens: list[tuple[str, Node | None, str]] = []
        tokens.extend(self._move_tokens(start, force_number=True))
        node = start
        after_parenthesis = False
        while node.children:
            main = node.children[0]
            tokens.extend(self._move_tokens(main, force_number=after_parenthesis))
            after_parenthesis = False
            for alternative in node.children[1:]:
                tokens.append(("(", None, "paren"))
                tokens.extend(self._line_tokens(alternative))
                tokens.append((")", None, "paren"))
                after_parenthesis = True
            node = main
        return tokens

    def _move_tokens(self, node: Node, force_number: bool) -> list[tuple[str, Node | None, str]]:
        ply = node.ply
        if self._game is not None and presentation(self._game.kind).numbered_moves:
            color = node.color or self._color_of_ply(ply)
            number = self._fullmove_before(ply)
            text = self._variation_text(node, node.move or "")
            if color == "white":
                return [(f"{number}.", None, "number"), (text, node, "variation")]
            if force_number:
                return [(f"{number}…", None, "number"), (text, node, "variation")]
            return [(text, node, "variation")]
        return [(str(ply), None, "number"), (self._variation_text(node, self._go_move_text(node)), node, "variation")]

    def _variation_text(self, node: Node, move: str) -> str:
        """A variation's move with its glyphs and ✎: `Bc4!? ±`."""
        extra = self.notes_text(node)
        return f"{move}{move_glyph(node)}" + (f" {extra}" if extra else "")

    @staticmethod
    def _go_move_text(node: Node) -> str:
        stone = "●" if node.color == "black" else "○" if node.color == "white" else ""
        return f"{stone}{node.move or ''}"

    # ---------------------------------------------------------------------------- painting

    def _paint_backgrounds(self, painter: QPainter, palette: QPalette, theme: style.Theme, visible: QRectF) -> None:
        alternate = palette.color(QPalette.ColorRole.AlternateBase)
        for rect in self._layout.number_column:
            if rect.intersects(visible):
                painter.fillRect(rect, alternate)
        border = QColor(theme.text_muted)
        border.setAlpha(90)
        for rect in self._layout.blocks:
            if rect.intersects(visible):
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(alternate)
                painter.drawRoundedRect(rect, 4, 4)
                painter.setPen(QPen(border, 2))
                painter.drawLine(QPointF(rect.left() + 1, rect.top() + 3), QPointF(rect.left() + 1, rect.bottom() - 3))

    def _paint_item(self, painter: QPainter, item: _Item, palette: QPalette, theme: style.Theme) -> None:
        text_color = palette.color(QPalette.ColorRole.Text)
        muted = QColor(theme.text_muted)
        if item.kind == "number":
            painter.setFont(self._font())
            painter.setPen(muted)
            if item.rect.left() < 1 and item.rect.width() >= self._number_width() - 1:
                align = Qt.AlignmentFlag.AlignCenter
            else:
                align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
            painter.drawText(item.rect, align, item.text)
            return
        if item.kind in ("paren", "placeholder"):
            painter.setFont(self._font())
            painter.setPen(muted)
            inset = item.rect.adjusted(_CELL_PAD if item.kind == "placeholder" else 0, 0, 0, 0)
            painter.drawText(inset, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, item.text)
            return
        current = item.node is self._current and item.node is not None
        hovered = item is self._hover
        box = item.rect.adjusted(1, 1, -1, -1) if item.kind == "main" else item.rect.adjusted(0, 1, 0, -1)
        if current:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(theme.current_background))
            painter.drawRoundedRect(box, 3, 3)
        elif hovered:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.color(theme.hover_background))
            painter.drawRoundedRect(box, 3, 3)
        if item.kind == "variation":
            painter.setFont(self._font())
            painter.setPen(QColor(theme.current_text) if current else QColor(theme.variation_text))
            painter.drawText(item.rect, Qt.AlignmentFlag.AlignCenter, item.text)
            return
        judgement = self._judgements.get(item.ply)
        symbol = self.symbol_for(item.node, item.ply) if item.node is not None else ""
        from_annotator = item.node is not None and bool(move_glyph(item.node))
        flagged = judgement in style.FLAGGED_JUDGEMENTS
        move_color = text_color
        if current:
            move_color = QColor(theme.current_text)
        elif flagged or judgement == "book":
            move_color = style.judgement_color(judgement)
            if flagged and not theme.dark:
                move_color = move_color.darker(118)
        if flagged and not current:
            tint = style.judgement_color(judgement)
            tint.setAlpha(34 if theme.dark else 26)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(tint)
            painter.drawRoundedRect(box, 3, 3)
        x = item.rect.left() + _CELL_PAD
        metrics = QFontMetricsF(self._font(True))
        if self._game is not None and not game_support(self._game.kind).numbered_moves:  # a stone before each move
            x = self._paint_go_prefix(painter, item, x, current, theme)
        bold = self._font(True)
        painter.setFont(bold)
        painter.setPen(move_color)
        text_rect = QRectF(x, item.rect.top(), item.rect.right() - x, item.rect.height())
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(text_rect, align, item.text)
        x += metrics.horizontalAdvance(item.text) + 1
        if symbol:
            if current:
                painter.setPen(QColor(theme.current_text))
            else:
                painter.setPen(muted if from_annotator else style.judgement_color(judgement))
            painter.drawText(QRectF(x, item.rect.top(), item.rect.right() - x, item.rect.height()), align, symbol)
            x += metrics.horizontalAdvance(symbol) + 2
        notes = self.notes_text(item.node) if item.node is not None else ""
        if notes:
            painter.setFont(self._font())
            painter.setPen(QColor(theme.current_text) if current else muted)
            x += 3
            painter.drawText(QRectF(x, item.rect.top(), item.rect.right() - x, item.rect.height()), align, notes)
            x += QFontMetricsF(self._font()).horizontalAdvance(notes) + 2
            painter.setFont(bold)
        if item.ply in self._problems:
            painter.setPen(QColor(theme.current_text) if current else QColor(theme.warning_text))
            painter.drawText(QRectF(x, item.rect.top(), item.rect.right() - x, item.rect.height()), align, PROBLEM_MARK)
            x += metrics.horizontalAdvance(PROBLEM_MARK) + 2
        if item.ply in self._time_trouble and item.kind == "main":
            painter.setFont(self._font())
            painter.setPen(QColor(theme.current_text) if current else QColor(theme.warning_text))
            painter.drawText(QRectF(x, item.rect.top(), item.rect.right() - x, item.rect.height()), align, TIME_TROUBLE_MARK)
            x += QFontMetricsF(self._font()).horizontalAdvance(TIME_TROUBLE_MARK) + 2
        for mark, color in self.departure_marks(item.ply) if item.kind == "main" else []:
            painter.setPen(QColor(theme.current_text) if current else QColor(color))
            painter.drawText(QRectF(x, item.rect.top(), item.rect.right() - x, item.rect.height()), align, mark)
            x += metrics.horizontalAdvance(mark) + 1

    def _paint_go_prefix(self, painter: QPainter, item: _Item, x: float, current: bool, theme: style.Theme) -> float:
        """Go cells start with the move number and a small stone; returns where the point text goes."""
        painter.setFont(self._font())
        metrics = QFontMetricsF(self._font())
        number_width = metrics.horizontalAdvance("888")
        painter.setPen(QColor(theme.current_text) if current else QColor(theme.text_muted))
        number_rect = QRectF(x, item.rect.top(), number_width, item.rect.height())
        painter.drawText(number_rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(item.ply))
        x += number_width + 6
        diameter = metrics.height() * _GO_STONE
        center = QPointF(x + diameter / 2, item.rect.center().y())
        color = item.node.color if item.node is not None else None
        style.paint_stone_icon(painter, center, diameter / 2, "black" if color == "black" else "white", theme.dark)
        return x + diameter + 6

    # ----------------------------------------------------------------------------- helpers

    def _item_at(self, position: QPointF) -> _Item | None:
        point = QPointF(position.x(), position.y() + self.verticalScrollBar().value())
        layout = self._layout
        index = bisect.bisect_right(layout.tops, point.y())
        for item in reversed(layout.items[max(0, index - 40) : index]):
            if item.node is not None and item.rect.contains(point):
                return item
        return None

    def _update_item(self, item: _Item) -> None:
        rect = item.rect.translated(0, -self.verticalScrollBar().value()).toAlignedRect()
        self.viewport().update(rect.adjusted(-2, -2, 2, 2))

    def _reveal_current(self) -> None:
        """Scroll the current move back into view (after the list was resized or laid out again)."""
        item = self._layout.by_node.get(self._current) if self._current is not None else None
        if item is not None:
            self._ensure_visible(item)

    def _ensure_visible(self, item: _Item) -> None:
        scrollbar = self.verticalScrollBar()
        top, bottom = item.rect.top(), item.rect.bottom()
        height = self.viewport().height()
        margin = item.rect.height()
        if top - margin < scrollbar.value():
            scrollbar.setValue(max(0, round(top - margin)))
        elif bottom + margin > scrollbar.value() + height:
            scrollbar.setValue(round(bottom + margin - height))
