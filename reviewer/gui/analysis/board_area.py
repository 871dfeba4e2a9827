"""The board column: the board (chess or Go, made when first needed) or the welcome page, with a
player strip above and below and the evaluation bar beside it; the board stays square."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QStackedWidget, QWidget

from reviewer.core.analysis import Evaluation
from reviewer.core.explain import Why
from reviewer.core.gametree import Game, GameKind, Node
from reviewer.gui.analysis.live_panel import EvalBar
from reviewer.gui.board.views import BoardView, PlayerNote, ReviewMarks, make_board_view
from reviewer.gui.common.style import is_dark_palette, paint_stone_icon, theme_for, themed_html
from reviewer.gui.presenters.figures import side_accuracy
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.text import player_figures_html, player_name_html, welcome_html
from reviewer.gui.presenters.times import ShownClock


def _html_width(html: str, font: QFont) -> float:
    """The width of rich text on one line."""
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.setDefaultFont(font)
    document.setHtml(html)
    return document.idealWidth()


class _ResizeTold(QLabel):
    """A label that calls `resized` after each change of its size."""

    def __init__(self, resized: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._resized = resized

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._resized()


class PlayerStrip(QWidget):
    """One player above or below the board: a stone/colour chip, the name and rank (`name_label`,
    cut short with an ellipsis when the column is narrow), what the analysis says (`label`: the
    accuracy, "partial analysis"; never cut) and, in Go, the captures."""

    CHIP = 14

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._color = "white"
        self._name, self._rank = "", ""
        self._accuracy: float | None = None
        self._partial = False
        self.name_label = _ResizeTold(self._show_name, self)
        self.name_label.setTextFormat(Qt.TextFormat.RichText)
        self.name_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label = QLabel(self)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.captures_label = QLabel(self)  # Go: the stones this player has taken; crazyhouse: the pieces in hand
        self.clock_label = QLabel(self)  # the player's clock in the position on show, where the file gives it
        self.clock_label.setObjectName("player-clock")
        self.clock_label.hide()
        self.captures_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(self.CHIP + 10, 2, 6, 2)
        layout.setSpacing(10)
        layout.addWidget(self.name_label, 1)
        layout.addWidget(self.label)
        layout.addWidget(self.captures_label)
        layout.addWidget(self.clock_label)
        self.setFixedHeight(28)

    @property
    def color(self) -> str:
        return self._color

    def set_player(self, color: str, name: str, rank: str, accuracy: float | None, partial: bool = False) -> None:
        self._color = color
        self._name, self._rank = name, rank
        self._accuracy, self._partial = accuracy, partial
        self._show_name()
        self.update()

    def _show_name(self) -> None:
        """The name, with an ellipsis where the whole of it and the rank would not fit beside the
        figures (in their short form when the name would be cut)."""
        full = player_figures_html(self._accuracy, self._partial)
        figures = full if self._fits(full) else player_figures_html(self._accuracy, self._partial, short=True)
        if figures != self.label.text():
            self.label.setText(themed_html(figures))
            self.label.setToolTip(themed_html(full) if figures != full else "")
        self.label.setVisible(bool(figures))
        width = self.name_label.contentsRect().width()
        bold = QFont(self.name_label.font())
        bold.setBold(True)
        rank_width = self.name_label.fontMetrics().horizontalAdvance(f" ({self._rank})") if self._rank else 0
        name = QFontMetrics(bold).elidedText(self._name, Qt.TextElideMode.ElideRight, max(0, width - rank_width))
        self.name_label.setText(themed_html(player_name_html(name, self._rank)))
        self.name_label.setToolTip(self._name if name != self._name else "")

    def _fits(self, figures: str) -> bool:
        """Whether the name and rank fit whole beside `figures` in the strip as it is now."""
        layout = self.layout()
        assert layout is not None
        margins, spacing = layout.contentsMargins(), layout.spacing()
        room = self.width() - margins.left() - margins.right() - spacing
        if self.captures_label.text():
            room -= self.captures_label.sizeHint().width() + spacing
        if self.clock_text():
            room -= self.clock_label.sizeHint().width() + spacing
        name = player_name_html(self._name, self._rank)
        return _html_width(figures, self.label.font()) + _html_width(name, self.name_label.font()) <= room

    def set_clock(self, text: str, low: bool) -> None:
        """The player's clock ('4:05'; '' hides it); `low`: in time trouble (shown in the warning colour)."""
        self.clock_label.setText(text)
        self.clock_label.setVisible(bool(text))
        self.clock_label.setProperty("low", low)
        self._style_clock()
        self._show_name()  # the room left for the name changed
        self.clock_label.setToolTip("Time left on this player's clock (in time trouble)" if low else "Time left on this player's clock")

    def _style_clock(self) -> None:
        theme = theme_for(self)
        low = bool(self.clock_label.property("low"))
        colour = theme.warning_text if low else theme.text
        border = theme.warning_text if low else theme.graph_axis
        self.clock_label.setStyleSheet(
            f"QLabel#player-clock {{ color: {colour}; border: 1px solid {border}; border-radius: 3px;"
            f" padding: 0px 6px; font-weight: bold; font-family: monospace; }}"
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._style_clock()
        super().changeEvent(event)

    def clock_text(self) -> str:
        return self.clock_label.text() if not self.clock_label.isHidden() else ""

    def set_note(self, note: PlayerNote | None) -> None:
        """What the board says of this player's position: '3 captured' (Go), 'in hand: ♟2 ♞'
        (crazyhouse); None: nothing."""
        self.captures_label.setText("" if note is None else note.text)
        self.captures_label.setToolTip("" if note is None else note.tooltip)

    def paintEvent(self, event: Any) -> None:
        painter = QPainter(self)
        center = QPointF(4 + self.CHIP / 2, self.height() / 2)
        paint_stone_icon(painter, center, self.CHIP / 2 - 0.5, self._color, is_dark_palette(self.palette()))
        painter.end()


class BoardColumn(QWidget):
    """The board with a player strip above and below; the board stays square."""

    BAR_GAP = 6

    def __init__(
        self, top: QWidget, board: QWidget, bottom: QWidget, parent: QWidget | None = None, bar: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        for child in (top, board, bottom, bar):
            if child is not None:
                child.setParent(self)
        self._top, self._board, self._bottom, self._bar = top, board, bottom, bar

    def side_for_height(self, height: int) -> int:
        """The column's width for `height`: the square board, and the evaluation bar when shown."""
        strips = sum(widget.height() for widget in (self._top, self._bottom) if not widget.isHidden())
        bar = self._bar.width() + self.BAR_GAP if self._bar is not None and not self._bar.isHidden() else 0
        return max(120, height - strips) + bar

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.relayout()
        super().resizeEvent(event)

    def showEvent(self, event: Any) -> None:
        self.relayout()
        super().showEvent(event)

    def relayout(self) -> None:
        width, height = self.width(), self.height()
        top_h = self._top.height() if not self._top.isHidden() else 0
        bottom_h = self._bottom.height() if not self._bottom.isHidden() else 0
        bar = self._bar if self._bar is not None and not self._bar.isHidden() else None
        left = bar.width() + self.BAR_GAP if bar is not None else 0
        side = max(50, min(width - left, height - top_h - bottom_h))
        self._top.setGeometry(QRect(left, 0, side, top_h))
        self._board.setGeometry(QRect(left, top_h, side, side))
        self._bottom.setGeometry(QRect(left, top_h + side, side, bottom_h))
        if bar is not None:
            bar.setGeometry(QRect(0, top_h, bar.width(), side))


class BoardAndPanel(QWidget):
    """Gives the board column a square's width of the height and the right panel the rest."""

    RIGHT_MIN = 380
    GAP = 14

    def __init__(self, board_column: BoardColumn, panel: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        board_column.setParent(self)
        panel.setParent(self)
        self._column, self._panel = board_column, panel

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.relayout()
        super().resizeEvent(event)

    def relayout(self) -> None:
        """Place both again: after a resize, and when the player strips appear or go."""
        width, height = self.width(), self.height()
        side = self._column.side_for_height(height)
        column_width = max(200, min(side, width - self.RIGHT_MIN - self.GAP))
        self._column.setGeometry(QRect(0, 0, column_width, height))
        self._column.relayout()
        self._panel.setGeometry(QRect(column_width + self.GAP, 0, max(0, width - column_width - self.GAP), height))

    def sizeHint(self) -> QSize:
        return QSize(1200, 700)

    def minimumSizeHint(self) -> QSize:
        return QSize(600, 300)



class BoardArea:
    """The board column's widgets and what they show; the window places `column` and feeds it.

    Each game's board (`board.views.BoardView`) is made the first time one of its games is shown."""

    def __init__(self, parent: QWidget, open_recent: Callable[[str], None]) -> None:
        self.board_stack = QStackedWidget(parent)
        self._views: dict[GameKind, BoardView] = {}
        self._shown: BoardView | None = None
        self.analysis_board: Any = None  # attaches each board when it is made
        self.flipped = False
        self._wheel_steps: Callable[[int], None] | None = None
        self.welcome_label = QLabel(parent)
        self.welcome_label.setObjectName("welcome")
        self.welcome_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.welcome_label.setWordWrap(True)
        self.welcome_label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.welcome_label.linkActivated.connect(lambda index: open_recent(self._welcome_files[int(index)]))
        self._welcome_files: list[str] = []
        self.board_stack.addWidget(self.welcome_label)

        self.top_player = PlayerStrip(parent)
        self.bottom_player = PlayerStrip(parent)
        self._notes: Mapping[str, PlayerNote] = {}
        self.eval_bar = EvalBar(parent)
        self.eval_bar.hide()
        self.column = BoardColumn(self.top_player, self.board_stack, self.bottom_player, parent, bar=self.eval_bar)

    def step_with_wheel(self, step: Callable[[int], None]) -> None:
        self._wheel_steps = step

    def ensure_board(self, kind: GameKind) -> BoardView:
        """The board for `kind`, made the first time, on show."""
        view = self._views.get(kind)
        if view is None:
            view = make_board_view(kind, self.board_stack)
            if self._wheel_steps is not None:
                view.connect_wheel(self._wheel_steps)
            self.analysis_board.attach(view)
            self.board_stack.addWidget(view.widget)
            self._views[kind] = view
        view.set_flipped(self.flipped)
        self.board_stack.setCurrentWidget(view.widget)
        self._shown = view
        return view

    @property
    def view(self) -> BoardView | None:
        """The board of the game on show (None before one is opened)."""
        return self._shown

    def views(self) -> tuple[BoardView, ...]:
        return tuple(self._views.values())

    def show_node(
        self,
        game: Game,
        node: Node,
        evaluation: Evaluation | None,
        judgement: str | None,
        rough: Callable[[], bool],
        why: Why | None = None,
    ) -> None:
        """The position after `node` on its game's board, with the engine's view of it and the
        judgement of the move that led there; `rough`: the engine's values are estimates only;
        `why`: why that move lost, drawn as the refutation's first moves and the focus."""
        view = self._views.get(game.kind)
        if view is None:
            return
        self._show_notes(view.show_review(game, node, ReviewMarks(evaluation, judgement, rough, why)))
        self.analysis_board.remark_live(game, node)  # live analysis' candidates stay over the review's

    def _show_notes(self, notes: Mapping[str, PlayerNote]) -> None:
        self._notes = notes
        for strip in (self.top_player, self.bottom_player):
            strip.set_note(notes.get(strip.color))

    def set_flipped(self, flipped: bool) -> None:
        self.flipped = flipped
        for view in self._views.values():
            view.set_flipped(flipped)
        self.eval_bar.set_flipped(flipped)

    def show_players(self, game: Game | None, assessment: Any, partial: bool) -> None:
        """The player strips: names, ranks and accuracies, or none before a game is open."""
        if game is None:
            self.top_player.hide()
            self.bottom_player.hide()
            return
        white = (game.white or "White", game.white_rank, side_accuracy(assessment, "white"), partial)
        black = (game.black or "Black", game.black_rank, side_accuracy(assessment, "black"), partial)
        # Chess shows White at the bottom, Go (KaTrain-style) Black at the bottom; flipping swaps.
        bottom_is_white = (presentation(game.kind).bottom_player == "white") != self.flipped
        top, bottom = (black, white) if bottom_is_white else (white, black)
        self.top_player.set_player("black" if bottom_is_white else "white", *top)
        self.bottom_player.set_player("white" if bottom_is_white else "black", *bottom)
        self._show_notes(self._notes)
        self.top_player.show()
        self.bottom_player.show()

    def show_clocks(self, clocks: Mapping[str, ShownClock]) -> None:
        """Each player's clock in the position on show beside the name ({}: a game without times)."""
        for strip in (self.top_player, self.bottom_player):
            clock = clocks.get(strip.color)
            strip.set_clock(clock.text if clock is not None else "", clock.low if clock is not None else False)

    def show_welcome(self, recent_paths: list[str]) -> None:
        self._welcome_files = recent_paths
        self.welcome_label.setText(themed_html(welcome_html(recent_paths)))
        self.top_player.hide()
        self.bottom_player.hide()
