"""The column right of the board: game header, summary, learn-from-mistakes and engine lines panels,
the move list over the comment (the engine's words, read-only, then the player's own, editable),
and the move box."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from reviewer.gui import panels
from reviewer.gui.analysis.live_panel import LinesPanel
from reviewer.gui.common.move_entry import MoveEntry
from reviewer.gui.review.comment_editor import CommentEditor
from reviewer.gui.trainer.retro_panel import RetroPanel

COMMENT_SHARE = 0.36  # of the height the moves and the comment share, the comment's at first
MOVES_SLACK_PX = 12  # beyond the move list's least height (its five rows), what its frame and margins take
COMMENT_MIN_LINES = 2.4  # with the editor under it, the move list keeps its five rows at 900×600; both scroll

if TYPE_CHECKING:
    from reviewer.gui.common.session import ReviewSession


class ReviewPanel(QWidget):
    """Its widgets are attributes; the window fills them, but for the `panels.PANELS` (in `extra_panels`),
    which follow the session on their own."""

    def __init__(self, session: ReviewSession, parent: QWidget | None = None) -> None:
        from reviewer.gui.review.move_list import MoveListWidget
        from reviewer.gui.review.summary_panel import SummaryPanel

        super().__init__(parent)
        self.header_label = QLabel(self)
        self.header_label.setObjectName("game-header")
        self.header_label.setWordWrap(True)
        self.header_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_panel = SummaryPanel(self)
        # never squeezed under what it needs: its rows would be drawn over the move list
        self.summary_panel.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.move_list = MoveListWidget(self)
        self.comment_view = QTextBrowser(self)
        self.comment_view.setObjectName("comment")
        self.comment_view.setOpenLinks(False)
        self.comment_view.setFrameShape(QFrame.Shape.NoFrame)
        # the move's title and the start of the verdict at least (it scrolls for the rest)
        lines = self.comment_view.fontMetrics().lineSpacing()
        self.comment_view.setMinimumHeight(round(lines * COMMENT_MIN_LINES) + 8)
        self.comment_view.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

        right_layout = QVBoxLayout(self)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.setSpacing(6)
        right_layout.addWidget(self.header_label)
        right_layout.addWidget(self.summary_panel)
        self.lines_panel = LinesPanel(self)
        self.lines_panel.hide()
        self.retro_panel = RetroPanel(self)
        right_layout.addWidget(self.retro_panel)
        right_layout.addWidget(self.lines_panel)
        self.extra_panels = [make_panel(session, self) for make_panel in panels.PANELS]
        for extra in self.extra_panels:
            right_layout.addWidget(extra)
        right_splitter = _MovesOverComment(self.move_list, self)
        right_splitter.setChildrenCollapsible(False)
        right_splitter.addWidget(self.move_list)
        self.comment_editor = CommentEditor(session, self)
        comment_area = QWidget(self)
        comment_area.setObjectName("comment-area")
        comment_layout = QVBoxLayout(comment_area)
        comment_layout.setContentsMargins(0, 0, 0, 0)
        comment_layout.setSpacing(1)
        comment_layout.addWidget(self.comment_view, 3)
        comment_layout.addWidget(self.comment_editor, 2)
        right_splitter.addWidget(comment_area)
        right_splitter.comment_area = comment_area
        right_splitter.setStretchFactor(0, 3)
        right_splitter.setStretchFactor(1, 1)
        right_layout.addWidget(right_splitter, 1)
        self.move_entry = MoveEntry(self)
        right_layout.addWidget(self.move_entry)
        self.splitter = right_splitter
        self._layout = right_layout

    def show_messages(self, bar: QWidget) -> None:
        """The message bar takes its room below the game's figures: it covers neither the players'
        names nor their figures, and the board beside keeps its size."""
        policy = bar.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)  # a long message wraps; the board keeps its width
        bar.setSizePolicy(policy)
        self._layout.insertWidget(self._layout.indexOf(self.summary_panel) + 1, bar)


class _MovesOverComment(QSplitter):
    """The move list over the comment area. The comment gets `COMMENT_SHARE` of the height once
    there is room for both (the player may drag it then), and gives height back whenever the move
    list would show fewer than its five rows."""

    def __init__(self, move_list: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self._move_list = move_list
        self.comment_area: QWidget | None = None
        self._shared = False

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.share_height()

    def share_height(self) -> None:
        sizes = self.sizes()
        if len(sizes) != 2 or self.comment_area is None:
            return
        total = sum(sizes)
        comment_least = self.comment_area.minimumSizeHint().height()
        moves_wanted = self._move_list.minimumSizeHint().height() + MOVES_SLACK_PX
        if total < comment_least + moves_wanted:
            return  # no room for both: the splitter squeezes them as it does
        if not self._shared:
            self._shared = True
            comment = max(comment_least, min(round(total * COMMENT_SHARE), total - moves_wanted))
        elif sizes[0] < moves_wanted:
            comment = max(comment_least, total - moves_wanted)
        else:
            return
        self.setSizes([total - comment, comment])
