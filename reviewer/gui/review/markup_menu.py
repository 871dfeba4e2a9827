"""The Markup menu: the board's markup tools (`board.views.MARKUP_TOOLS`, Sabaki's), each with its
key, and Play (Esc) to go back to playing moves with a click. Only the tools the board on show offers
are enabled (a chess board draws with the right button instead)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QStatusBar

from reviewer.gui.board.views import MARKUP_TOOLS
from reviewer.gui.common.board_shapes import BoardShapes

STATUS_START = "Markup tool:"
PLAY_TIP = "A click on the board plays a move again"
RIGHT_BUTTON_HINTS = ("Chess: the right button draws (Shift red, Alt blue, Ctrl yellow)", "Go: the right button draws the last mark")


class MarkupMenu:
    """The menu and its actions; the window's actions too, so their keys work with the menu bar hidden."""

    def __init__(self, host: QMainWindow, shapes: BoardShapes) -> None:
        self._shapes = shapes
        self._status: QStatusBar = host.statusBar()
        self.menu = QMenu("Mar&kup", host)
        self.menu.setToolTipsVisible(True)
        self.group = QActionGroup(host)
        self.group.setExclusive(True)
        self.play_action = self._action(host, "", "&Play (no markup)", "Esc", PLAY_TIP)
        self.play_action.setChecked(True)
        self.menu.addSeparator()
        self.tool_actions: dict[str, QAction] = {}
        for tool in MARKUP_TOOLS:
            self.tool_actions[tool.name] = self._action(host, tool.name, tool.text, tool.shortcut, tool.tip)
        self.menu.addSeparator()
        for text in RIGHT_BUTTON_HINTS:
            self.menu.addAction(text).setEnabled(False)
        self.menu.aboutToShow.connect(self.refresh)
        shapes.tool_changed.connect(self._show_tool)
        shapes.tools_offered_changed.connect(self.refresh)
        self._show_tool(shapes.tool)

    def _action(self, host: QMainWindow, tool: str, text: str, key: str, tip: str) -> QAction:
        action = QAction(text, host)
        action.setShortcut(QKeySequence(key))
        action.setToolTip(f"{tip} ({key})")
        action.setStatusTip(tip)
        action.setCheckable(True)
        action.setActionGroup(self.group)
        # the tool's action again goes back to playing
        action.triggered.connect(lambda _checked=False, tool=tool: self._choose(tool))
        host.addAction(action)
        self.menu.addAction(action)
        return action

    def _choose(self, tool: str) -> None:
        self._shapes.choose_tool(tool)
        self._show_tool(self._shapes.tool)  # the same tool again, or one the board lacks: Play

    def refresh(self) -> None:
        """Enable the tools the board on show offers."""
        offered = self._shapes.tools_on_show()
        for name, action in self.tool_actions.items():
            action.setEnabled(name in offered)

    def _show_tool(self, tool: str) -> None:
        action = self.tool_actions.get(tool)
        (action or self.play_action).setChecked(True)
        self.play_action.setEnabled(bool(tool))  # Esc is the move box's and the dialogs' otherwise
        if action is not None:
            words = action.text().replace("&", "").lower()
            self._status.showMessage(f"{STATUS_START} {words}. A click on the board draws it; Esc plays moves again.")
        elif self._status.currentMessage().startswith(STATUS_START):
            self._status.clearMessage()


def add_markup_menu(host: QMainWindow, shapes: BoardShapes) -> MarkupMenu:
    """The Markup menu in `host`'s menu bar, before Help (the last menu)."""
    markup = MarkupMenu(host, shapes)
    menus = host.menuBar().actions()
    if menus:
        host.menuBar().insertMenu(menus[-1], markup.menu)
    else:
        host.menuBar().addMenu(markup.menu)
    return markup
