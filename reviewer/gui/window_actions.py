"""The window's actions (with their shortcuts), its menus and its toolbar.

Each action is an attribute of the window (`window.analyse_action`), added to the window so that
its shortcut works with the menu bar hidden; the slots are the window's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence, QPainter, QPixmap, QPolygonF
from PySide6.QtWidgets import QApplication, QComboBox, QMenu, QSizePolicy, QStyle, QToolBar, QToolButton, QWidget

from reviewer.gui.live_panel import LinesPanel
from reviewer.gui.presenters.action_states import ActionStates
from reviewer.gui.presenters.messages import Message
from reviewer.gui.presenters.text import preset_label
from reviewer.gui.settings import PRESETS
from reviewer.gui.style import is_dark_palette, judgement_color

if TYPE_CHECKING:
    from reviewer.core.gametree import Node
    from reviewer.gui.main_window import MainWindow


def make_action(
    window: MainWindow,
    text: str,
    slot: Any,
    shortcuts: Sequence[QKeySequence | QKeySequence.StandardKey | str] = (),
    tip: str = "",
    icon: QStyle.StandardPixmap | None = None,
    checkable: bool = False,
) -> QAction:
    action = QAction(text, window)
    if icon is not None:
        action.setIcon(window.style().standardIcon(icon))
    keys = [QKeySequence(key) if not isinstance(key, QKeySequence) else key for key in shortcuts]
    if keys:
        action.setShortcuts(keys)
    if tip:
        shown_key = keys[0].toString(QKeySequence.SequenceFormat.NativeText) if keys else ""
        action.setToolTip(f"{tip} ({shown_key})" if shown_key else tip)
        action.setStatusTip(tip)
    action.setCheckable(checkable)
    action.triggered.connect(slot)
    window.addAction(action)  # shortcuts work even with the menu bar hidden (full screen)
    return action


def build_actions(window: MainWindow) -> None:
    sp = QStyle.StandardPixmap
    window.open_action = make_action(window,
        "&Open…", window.files.choose_file, [QKeySequence.StandardKey.Open], "Open a PGN or SGF file", sp.SP_DialogOpenButton
    )
    window.export_action = make_action(window,
        "&Export…",
        window.files.choose_export,
        [QKeySequence("Ctrl+S")],
        "Export the annotated game (PGN/SGF) or a JSON report",
        sp.SP_DialogSaveButton,
    )
    window.choose_game_action = make_action(window,
        "Another &game of this file…",
        window.files.choose_game,
        [QKeySequence("Ctrl+G")],
        "Pick another game of the open file",
    )
    window.quit_action = make_action(window, "&Quit", window.close, [QKeySequence("Ctrl+Q")], "Quit Reviewer")
    window.players_action = make_action(window,
        "&Players…", window.dialogs.show_players, [QKeySequence("Ctrl+P")], "Estimate players' strength from many games"
    )
    window.collection_action = make_action(window,
        "Review a &collection…", window.dialogs.show_collection, [],
        "Review many games in the background and see what they say about a player",
    )
    window.analyse_action = make_action(window,
        "Analyse", window.analysis_controller.toggle_analysis, [QKeySequence("Space")], "Analyse the game with the engine"
    )
    window.analyse_action.setIcon(media_icon(running=False))
    window.settings_action = make_action(window,
        "Engine && &settings…",
        window.dialogs.show_settings,
        [QKeySequence("Ctrl+,")],
        "Choose the engine, the search limit and the thresholds",
        sp.SP_FileDialogDetailedView,
    )
    window.previous_action = make_action(window, "&Previous move", lambda: window.session.step(-1), ["Left"], "Previous move")
    window.next_action = make_action(window, "&Next move", lambda: window.session.step(1), ["Right"], "Next move")
    window.start_action = make_action(window, "&Start", window.session.go_to_start, ["Home", "Up"], "Start of the game")
    window.end_action = make_action(window, "&End", window.session.go_to_end, ["End", "Down"], "End of the line")
    window.next_mistake_action = make_action(window,
        "Next &mistake or blunder", lambda: window.views.jump_flagged(1), ["N", "Ctrl+Right"], "Next mistake or blunder"
    )
    window.previous_mistake_action = make_action(window,
        "Previous m&istake or blunder",
        lambda: window.views.jump_flagged(-1),
        ["P", "Ctrl+Left"],
        "Previous mistake or blunder",
    )
    window.flip_action = make_action(window, "&Flip board", window.toggle_flip, ["F"], "Flip the board", checkable=True)
    window.fullscreen_action = make_action(window,
        "&Full screen", window.toggle_fullscreen, [QKeySequence("F11")], "Full screen", checkable=True
    )
    window.dark_action = make_action(window, "&Dark theme", window.toggle_dark, [], "Dark theme", checkable=True)
    window.dark_action.setChecked(is_dark_palette(QApplication.palette()))
    window.shortcuts_action = make_action(window, "&Keyboard shortcuts", window.dialogs.show_shortcuts, ["F1"], "Keyboard shortcuts")
    window.about_action = make_action(window, "&About Reviewer", window.dialogs.show_about)
    window.engine_manager_action = make_action(window,
        "&Engine manager…", lambda: window.dialogs.show_engine_manager(), [QKeySequence("Ctrl+E")],
        "Engines found, the default per game, your own engines, installs",
    )
    window.install_stockfish_action = make_action(window, "Install &Stockfish…", lambda: window.dialogs.show_engine_manager("stockfish"))
    window.install_katago_action = make_action(window, "Install &KataGo…", lambda: window.dialogs.show_engine_manager("katago"))

    build_board_actions(window)

    window.graph_mode_group = QActionGroup(window)
    window.graph_mode_actions = {}
    for mode, text in (("win", "Win chance"), ("cp", "Centipawns / points")):
        action = QAction(text, window, checkable=True)
        action.setData(mode)
        action.triggered.connect(lambda _checked=False, m=mode: window.views.set_graph_mode(m))
        window.graph_mode_group.addAction(action)
        window.graph_mode_actions[mode] = action


def build_board_actions(window: MainWindow) -> None:
    """Playing on the board: variations, live engine lines, learning from mistakes."""
    session = window.session

    def on_current(act: Callable[[Node], None]) -> Callable[[], None]:
        def run() -> None:
            if session.current_node is not None:
                act(session.current_node)

        return run

    window.variation_actions = [
        make_action(window, "&Undo the last change", session.undo_edit, [QKeySequence.StandardKey.Undo], "Undo"),
        make_action(window, "Pro&mote variation", on_current(session.promote), [], "One step up"),
        make_action(window, "Make &main line", on_current(session.make_mainline), [], "Main line"),
        make_action(window, "&Delete from here", on_current(session.delete_from), ["Ctrl+Del"], "Delete"),
        make_action(window, "&Pass (Go)", lambda: window.analysis_board.pass_move(), ["Shift+P"], "Pass"),
    ]
    window.live_action = make_action(window,
        "Show &engine lines", lambda checked=False: window.set_live(checked), ["L"], "Live engine lines for the position on show",
        checkable=True,
    )
    window.threat_action = make_action(window,
        "Show &threat", lambda checked=False: window.analysis_board.set_threat(checked), ["X"],
        "What the opponent threatens: its best move if it were its turn", checkable=True,
    )
    window.lines_count_group = QActionGroup(window)
    window.lines_count_actions = []
    for count in range(1, LinesPanel.MAX_LINES + 1):
        action = QAction(f"{count} line{'s' if count > 1 else ''}", window, checkable=True)
        action.setChecked(count == 3)
        action.triggered.connect(lambda _checked=False, k=count: window.analysis_board.set_multipv(k))
        window.lines_count_group.addAction(action)
        window.lines_count_actions.append(action)
    window.move_numbers_action = make_action(window,
        "Move &numbers (Go)", lambda checked=False: window.analysis_board.set_move_numbers(checked), [], "Move numbers",
        checkable=True,
    )
    window.ownership_action = make_action(window,
        "&Territory (Go, KataGo)", lambda checked=False: window.analysis_board.set_maps(ownership=checked), ["O"],
        "Who owns each point, from the live engine lines", checkable=True,
    )
    window.policy_action = make_action(window,
        "&Policy (Go, KataGo)", lambda checked=False: window.analysis_board.set_maps(policy=checked), [],
        "The network's first instinct for the side to move, from the live engine lines", checkable=True,
    )
    window.retro_white_action = make_action(window,
        "Learn from your mistakes: &White", lambda: window.learn_from_mistakes("white"), [], "Find better moves"
    )
    window.retro_black_action = make_action(window,
        "Learn from your mistakes: &Black", lambda: window.learn_from_mistakes("black"), [], "Find better moves"
    )
    window.train_action = make_action(window, "&Train…", window.dialogs.show_trainer, ["Ctrl+T"], "Your mistakes, brought back")


def build_menus(window: MainWindow) -> None:
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(window.open_action)
    window.recent_menu = file_menu.addMenu("Open &Recent")
    window.recent_menu.aboutToShow.connect(window.files.fill_recent_menu)
    file_menu.addAction(window.choose_game_action)
    file_menu.addAction(window.export_action)
    from reviewer.gui.exports import GameExports

    window.exports = GameExports(window)
    window.exports.finished.connect(lambda done: window.export_finished.emit(done) if done != "clipboard" else None)
    window.exports.failed.connect(
        lambda text: window.message_bar.add(Message(key=f"export:{text}", level="error", text=text, scope="app"))
    )
    window.exports.add_to(file_menu)
    file_menu.addSeparator()
    file_menu.addAction(window.players_action)
    file_menu.addAction(window.collection_action)
    file_menu.addSeparator()
    file_menu.addAction(window.quit_action)

    move_menu = bar.addMenu("&Moves")
    for action in (window.previous_action, window.next_action, window.start_action, window.end_action):
        move_menu.addAction(action)
    move_menu.addSeparator()
    move_menu.addAction(window.previous_mistake_action)
    move_menu.addAction(window.next_mistake_action)
    move_menu.addSeparator()
    for action in window.variation_actions:
        move_menu.addAction(action)

    analysis_menu = bar.addMenu("&Analysis")
    analysis_menu.addAction(window.analyse_action)
    analysis_menu.addAction(window.live_action)
    analysis_menu.addAction(window.threat_action)
    lines_menu = analysis_menu.addMenu("&Number of engine lines")
    for action in window.lines_count_actions:
        lines_menu.addAction(action)
    analysis_menu.addSeparator()
    analysis_menu.addAction(window.retro_white_action)
    analysis_menu.addAction(window.retro_black_action)
    analysis_menu.addAction(window.train_action)
    analysis_menu.addSeparator()
    window.preset_menu = analysis_menu.addMenu("&Thresholds")
    window.preset_group = QActionGroup(window)
    for preset in PRESETS:
        action = QAction(preset_label(preset), window, checkable=True)
        action.setChecked(preset == window.session.preset)
        action.triggered.connect(lambda _checked=False, p=preset: window.set_preset(p))
        window.preset_group.addAction(action)
        window.preset_menu.addAction(action)
    analysis_menu.addSeparator()
    analysis_menu.addAction(window.settings_action)

    engines_menu = bar.addMenu("&Engines")
    engines_menu.addAction(window.engine_manager_action)
    engines_menu.addSeparator()
    engines_menu.addAction(window.install_stockfish_action)
    engines_menu.addAction(window.install_katago_action)

    view_menu = bar.addMenu("&View")
    view_menu.addAction(window.flip_action)
    view_menu.addAction(window.move_numbers_action)
    view_menu.addAction(window.ownership_action)
    view_menu.addAction(window.policy_action)
    graph_menu = view_menu.addMenu("&Graph shows")
    for action in window.graph_mode_actions.values():
        graph_menu.addAction(action)
    view_menu.addAction(window.dark_action)
    view_menu.addSeparator()
    view_menu.addAction(window.fullscreen_action)

    help_menu = bar.addMenu("&Help")
    help_menu.addAction(window.shortcuts_action)
    help_menu.addAction(window.about_action)


def build_toolbar(window: MainWindow) -> None:
    toolbar = QToolBar("Main", window)
    toolbar.setObjectName("main-toolbar")
    toolbar.setMovable(False)
    toolbar.setFloatable(False)
    toolbar.setIconSize(QSize(18, 18))
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    toolbar.toggleViewAction().setEnabled(False)
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
    window.toolbar = toolbar

    toolbar.addAction(window.open_action)
    toolbar.addSeparator()

    window.engine_button = QToolButton(window)
    window.engine_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    window.engine_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    window.engine_button.setToolTip("The engine that analyses this kind of game")
    # The text ends in ▾; the style's own indicator would sit on top of the text.
    window.engine_button.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")
    window.engine_menu = QMenu(window.engine_button)
    window.engine_menu.aboutToShow.connect(window.analysis_controller.fill_engine_menu)
    window.engine_button.setMenu(window.engine_menu)
    toolbar.addWidget(window.engine_button)

    window.limit_combo = QComboBox(window)
    window.limit_combo.setToolTip("How long the engine searches each position")
    window.limit_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    window.limit_combo.activated.connect(window.analysis_controller.on_limit_chosen)
    toolbar.addWidget(window.limit_combo)

    window.analyse_button = QToolButton(window)
    window.analyse_button.setDefaultAction(window.analyse_action)
    window.analyse_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    window.analyse_button.setObjectName("analyse-button")
    window.analyse_button.setStyleSheet("QToolButton { font-weight: 600; padding: 2px 8px; }")
    toolbar.addWidget(window.analyse_button)
    toolbar.addSeparator()

    window.preset_combo = QComboBox(window)
    window.preset_combo.setToolTip("Thresholds for inaccuracies, mistakes and blunders (chess)")
    for preset in PRESETS:
        window.preset_combo.addItem(preset_label(preset), preset)
    window.preset_combo.setCurrentIndex(PRESETS.index(window.session.preset))
    window.preset_combo.activated.connect(lambda index: window.set_preset(window.preset_combo.itemData(index)))
    toolbar.addWidget(window.preset_combo)
    toolbar.addSeparator()
    toolbar.addAction(window.export_action)

    spacer = QWidget(window)
    spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    toolbar.addWidget(spacer)
    toolbar.addAction(window.flip_action)
    toolbar.addAction(window.settings_action)
    window.analysis_controller.update_engine_controls()


def media_icon(running: bool) -> QIcon:
    """A green ▶ to analyse, a red ■ to stop: coloured, so they read on light and dark toolbars."""
    size = 36  # drawn at twice the toolbar's icon size, for sharp scaling
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(Qt.PenStyle.NoPen)
    if running:
        painter.setBrush(judgement_color("blunder"))
        painter.drawRoundedRect(QRectF(7, 7, 22, 22), 3, 3)
    else:
        painter.setBrush(judgement_color("best"))
        painter.drawPolygon(QPolygonF([QPointF(8, 5), QPointF(31, 18), QPointF(8, 31)]))
    painter.end()
    return QIcon(pixmap)


def apply_action_states(window: MainWindow, states: ActionStates) -> None:
    """Enable and name the actions as `states` (the presenter's rules) says."""
    window.analyse_action.setEnabled(states.analyse_enabled)
    window.analyse_action.setText(states.analyse_text)
    window.analyse_action.setIcon(media_icon(states.running))
    window.analyse_action.setToolTip(states.analyse_tip)
    window.export_action.setEnabled(states.export_enabled)
    window.choose_game_action.setEnabled(states.choose_game_enabled)
    window.preset_combo.setEnabled(states.thresholds_enabled)
    for action in (
        window.previous_action,
        window.next_action,
        window.start_action,
        window.end_action,
        window.next_mistake_action,
        window.previous_mistake_action,
    ):
        action.setEnabled(states.navigation_enabled)
