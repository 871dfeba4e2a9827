"""Analysis ▸ Region of interest (R), Clear region (Esc) and Frame the problem: the life-and-death
study tools of the analysis board (`region_tool`), enabled where the board on show has points to
choose and, for the frame, where its game can frame a position."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from reviewer.core.games import game_support
from reviewer.gui.analysis.analysis_board import AnalysisBoard
from reviewer.gui.common.board_shapes import BoardShapes
from reviewer.gui.common.session import ReviewSession

REGION_TIP = "Drag a rectangle on the board: live analysis and threats consider only moves inside it"
FRAME_TIP = "Fill the rest of the board around a corner or side problem so that the engine reads the problem"


def region_text(region: tuple[tuple[int, int], tuple[int, int]], board_height: int) -> str:
    from reviewer.core.gametree import gtp_from_point

    (low_row, low_col), (high_row, high_col) = region
    return f"{gtp_from_point((low_row, low_col), board_height)}–{gtp_from_point((high_row, high_col), board_height)}"


class RegionActions:
    """The three actions, in `menu` after `after` (the threat action), and their states."""

    def __init__(
        self,
        host: QMainWindow,
        session: ReviewSession,
        board: AnalysisBoard,
        shapes: BoardShapes,
        menu: QMenu,
        after: QAction,
        say: Callable[[str], None],
        stop_analysis: Callable[[], None],
        may_leave: Callable[[Callable[[], object]], bool] = lambda _then: True,
    ) -> None:
        """`may_leave(then)`: whether the game on show may be replaced by the framed problem now
        (unsaved edits ask first; Save runs `then`)."""
        self._host, self._session, self._board, self._shapes = host, session, board, shapes
        self._say, self._stop_analysis, self._may_leave = say, stop_analysis, may_leave
        self.choose_action = self._action("&Region of interest", "R", REGION_TIP, self.choose)
        self.clear_action = self._action("&Clear region", "Esc", "Consider every move again", self.clear)
        self.frame_action = self._action("&Frame the problem", "", FRAME_TIP, self.frame)
        actions = menu.actions()
        position = actions.index(after) + 1 if after in actions else len(actions)
        before = actions[position] if position < len(actions) else None
        for action in (self.choose_action, self.clear_action, self.frame_action):
            menu.insertAction(before, action) if before is not None else menu.addAction(action)
        board.region_changed.connect(self._region_changed)
        shapes.tool_changed.connect(lambda _tool: self.refresh())
        session.game_loaded.connect(self.refresh)
        board.region_choosing.connect(lambda _choosing: self.refresh())
        self.refresh()

    def _region_changed(self, region: object) -> None:
        self.refresh()
        game = self._session.model.game
        if isinstance(region, tuple) and game is not None:
            offer = " Analysis ▸ Frame the problem fills the rest of the board." if self.frame_action.isEnabled() else ""
            self._say(f"Region {region_text(region, game.board_height)}: live analysis and threats keep to it; Esc clears it.{offer}")

    def _action(self, text: str, key: str, tip: str, slot: Callable[[], object]) -> QAction:
        action = QAction(text, self._host)
        if key:
            action.setShortcut(QKeySequence(key))
            tip = f"{tip} ({key})"
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self._host.addAction(action)  # the key works with the menu bar hidden
        return action

    def refresh(self) -> None:
        tool = self._board.region_tool()  # None before the board of the game is made, and for chess
        game = self._session.model.game
        self.choose_action.setEnabled(game is not None)
        markup_on = bool(self._shapes.tool)
        # Esc is the markup tools' (back to playing) while one is chosen, and the move box's otherwise
        self.clear_action.setEnabled(tool is not None and not markup_on and (tool.region is not None or tool.choosing))
        self.frame_action.setEnabled(game is not None and bool(game_support(game.kind).frame_ref))

    def choose(self) -> None:
        if self._shapes.tool:
            self._shapes.choose_tool("")  # a drag chooses the region, not a mark
        if not self._board.choose_region():
            self._say("A region of interest is chosen on a board of points (Go)")
        self.refresh()

    def clear(self) -> None:
        if self._board.clear_region():
            self._say("Region cleared: every move is considered again")
        self.refresh()

    def frame(self) -> None:
        """The position on show, framed, opened as a new game with its region set."""
        model = self._session.model
        game, node = model.game, model.current_node
        if game is None or node is None:
            return
        try:
            framed, region = game_support(game.kind).frame_problem(game, node, self._board.region)
        except ValueError as refused:
            self._say(f"No frame: {refused}")
            return
        if not self._may_leave(self.frame):
            return
        self._stop_analysis()
        model.load_game(framed)
        self._board.set_region(region)
        self._host.setWindowTitle(f"Framed problem ({game_support(game.kind).title}) – Reviewer")
        self._say(f"The problem framed as a new game; the region {region_text(region, game.board_height)} is kept")
