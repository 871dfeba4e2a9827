"""The window's actions (with their shortcuts), its menus and its toolbar.

The actions, menus and toolbar widgets are held by a `WindowActions` the window owns
(`window.commands.analyse_action`); each action is added to the host window so that its shortcut
works with the menu bar hidden; what each one does comes in `ActionSlots`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence, QPainter, QPixmap, QPolygonF
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QMainWindow,
    QMenu,
    QSizePolicy,
    QStyle,
    QToolBar,
    QToolButton,
    QWidget,
)

from reviewer.gui.analysis.live_panel import LinesPanel
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.settings import PRESETS
from reviewer.gui.common.style import is_dark_palette, judgement_color
from reviewer.gui.files.exports import GameExports
from reviewer.gui.presenters.action_states import ActionStates
from reviewer.gui.presenters.text import preset_label

if TYPE_CHECKING:
    from reviewer.core.gametree import Node


@dataclass(frozen=True)
class ActionSlots:
    """What the actions do: the file, dialog, analysis, view and board operations they trigger."""

    choose_file: Callable[[], None]
    choose_export: Callable[[], None]
    choose_game: Callable[[], None]
    show_players: Callable[[], None]
    show_collection: Callable[[], None]
    show_settings: Callable[[], None]
    show_shortcuts: Callable[[], None]
    show_about: Callable[[], None]
    show_trainer: Callable[[], None]
    show_engine_manager: Callable[..., Any]  # the engine to install, or none
    toggle_analysis: Callable[[], None]
    jump_flagged: Callable[[int], None]  # +1 the next mistake or blunder, -1 the one before
    set_graph_mode: Callable[[str], None]
    toggle_flip: Callable[[], None]
    toggle_fullscreen: Callable[[], None]
    toggle_dark: Callable[[], None]
    pass_move: Callable[[], object]
    set_multipv: Callable[[int], None]
    set_move_numbers: Callable[[bool], None]
    set_maps: Callable[..., None]  # ownership=, policy=
    set_live: Callable[[bool], None]
    set_threat: Callable[[bool], None]
    learn_from_mistakes: Callable[[str], None]  # the colour
    set_preset: Callable[[str], None]
    set_time_chart: Callable[[bool], None]  # the time chart under the graph shown (for games that carry times)
    set_up_position: Callable[[], None]  # the board editor
    play_from_here: Callable[[bool], None]  # True: play the position out against the engine; False: stop
    save: Callable[[], object] = lambda: None  # the game into its own file
    save_as: Callable[[], object] = lambda: None  # the game into a new file
    undo: Callable[[], object] | None = None  # None: the model's undo, as is
    redo: Callable[[], object] | None = None


class WindowActions:
    """The window's actions, menus and toolbar widgets, made by `build_actions`, `build_menus` and `build_toolbar`."""

    open_action: QAction
    save_action: QAction
    save_as_action: QAction
    export_action: QAction
    undo_action: QAction
    redo_action: QAction
    choose_game_action: QAction
    quit_action: QAction
    players_action: QAction
    collection_action: QAction
    analyse_action: QAction
    settings_action: QAction
    previous_action: QAction
    next_action: QAction
    start_action: QAction
    end_action: QAction
    next_mistake_action: QAction
    previous_mistake_action: QAction
    flip_action: QAction
    fullscreen_action: QAction
    dark_action: QAction
    shortcuts_action: QAction
    about_action: QAction
    engine_manager_action: QAction
    install_stockfish_action: QAction
    install_katago_action: QAction
    live_action: QAction
    threat_action: QAction
    move_numbers_action: QAction
    ownership_action: QAction
    policy_action: QAction
    retro_white_action: QAction
    retro_black_action: QAction
    train_action: QAction
    pass_action: QAction
    graph_mode_group: QActionGroup
    graph_mode_actions: dict[str, QAction]
    time_chart_action: QAction
    set_up_action: QAction
    play_action: QAction
    variation_actions: list[QAction]
    lines_count_group: QActionGroup
    lines_count_actions: list[QAction]
    preset_group: QActionGroup
    recent_menu: QMenu
    preset_menu: QMenu
    engine_menu: QMenu
    toolbar: QToolBar
    engine_button: QToolButton
    analyse_button: QToolButton
    limit_combo: QComboBox
    preset_combo: QComboBox


def make_action(
    host: QWidget,
    text: str,
    slot: Any,
    shortcuts: Sequence[QKeySequence | QKeySequence.StandardKey | str] = (),
    tip: str = "",
    icon: QStyle.StandardPixmap | None = None,
    checkable: bool = False,
) -> QAction:
    action = QAction(text, host)
    if icon is not None:
        action.setIcon(host.style().standardIcon(icon))
    keys = [QKeySequence(key) if not isinstance(key, QKeySequence) else key for key in shortcuts]
    if keys:
        action.setShortcuts(keys)
    if tip:
        shown_key = keys[0].toString(QKeySequence.SequenceFormat.NativeText) if keys else ""
        action.setToolTip(f"{tip} ({shown_key})" if shown_key else tip)
        action.setStatusTip(tip)
    action.setCheckable(checkable)
    action.triggered.connect(slot)
    host.addAction(action)  # shortcuts work even with the menu bar hidden (full screen)
    return action


def build_actions(host: QMainWindow, session: ReviewSession, slots: ActionSlots) -> WindowActions:
    """The actions, added to `host` so that their shortcuts work with the menu bar hidden; menus and
    toolbar follow (`build_menus`, `build_toolbar`)."""
    actions = WindowActions()
    sp = QStyle.StandardPixmap
    actions.open_action = make_action(host,
        "&Open…", slots.choose_file, [QKeySequence.StandardKey.Open], "Open a PGN or SGF file", sp.SP_DialogOpenButton
    )
    actions.save_action = make_action(host,
        "&Save", slots.save, [QKeySequence("Ctrl+S")], "Save the game and your notes into its own file", sp.SP_DialogSaveButton,
    )
    actions.save_as_action = make_action(host,
        "Save &As…", slots.save_as, [QKeySequence("Ctrl+Shift+S")], "Save the game and your notes into a new file",
    )
    actions.export_action = make_action(host,
        "&Export…",
        slots.choose_export,
        [QKeySequence("Ctrl+Shift+E")],
        "Export the annotated game (PGN/SGF) or a JSON report",
    )  # no icon: the floppy is Save's; the text says it in both themes
    actions.choose_game_action = make_action(host,
        "Another &game of this file…",
        slots.choose_game,
        [QKeySequence("Ctrl+G")],
        "Pick another game of the open file",
    )
    actions.quit_action = make_action(host, "&Quit", host.close, [QKeySequence("Ctrl+Q")], "Quit Reviewer")
    actions.players_action = make_action(host,
        "&Players…", slots.show_players, [QKeySequence("Ctrl+P")], "Estimate players' strength from many games"
    )
    actions.collection_action = make_action(host,
        "Review a &collection…", slots.show_collection, [],
        "Review many games in the background and see what they say about a player",
    )
    actions.analyse_action = make_action(host,
        "Analyse", slots.toggle_analysis, [QKeySequence("Space")], "Analyse the game with the engine"
    )
    actions.analyse_action.setIcon(media_icon(running=False))
    actions.settings_action = make_action(host,
        "Engine && &settings…",
        slots.show_settings,
        [QKeySequence("Ctrl+,")],
        "Choose the engine, the search limit and the thresholds",
        sp.SP_FileDialogDetailedView,
    )
    actions.previous_action = make_action(host, "&Previous move", lambda: session.model.step(-1), ["Left"], "Previous move")
    actions.next_action = make_action(host, "&Next move", lambda: session.model.step(1), ["Right"], "Next move")
    actions.start_action = make_action(host, "&Start of the game", session.model.go_to_start, ["Home", "Up"], "Start of the game")
    actions.end_action = make_action(host, "&End of the line", session.model.go_to_end, ["End", "Down"], "End of the line")
    actions.next_mistake_action = make_action(host,
        "Next &mistake or blunder", lambda: slots.jump_flagged(1), ["N", "Ctrl+Right"], "Next mistake or blunder"
    )
    actions.previous_mistake_action = make_action(host,
        "Previous m&istake or blunder",
        lambda: slots.jump_flagged(-1),
        ["P", "Ctrl+Left"],
        "Previous mistake or blunder",
    )
    actions.flip_action = make_action(host, "&Flip board", slots.toggle_flip, ["F"], "Flip the board", checkable=True)
    actions.fullscreen_action = make_action(host,
        "&Full screen", slots.toggle_fullscreen, [QKeySequence("F11")], "Full screen", checkable=True
    )
    actions.dark_action = make_action(host, "&Dark theme", slots.toggle_dark, [], "Dark theme", checkable=True)
    actions.dark_action.setChecked(is_dark_palette(QApplication.palette()))
    actions.shortcuts_action = make_action(host, "&Keyboard shortcuts", slots.show_shortcuts, ["F1"], "Keyboard shortcuts")
    actions.about_action = make_action(host, "&About Reviewer", slots.show_about)
    actions.engine_manager_action = make_action(host,
        "&Engine manager…", lambda: slots.show_engine_manager(), [QKeySequence("Ctrl+E")],
        "Engines found, the default per game, your own engines, installs",
    )
    actions.install_stockfish_action = make_action(host, "Install &Stockfish…", lambda: slots.show_engine_manager("stockfish"))
    actions.install_katago_action = make_action(host, "Install &KataGo…", lambda: slots.show_engine_manager("katago"))

    build_board_actions(host, session, slots, actions)
    actions.time_chart_action = make_action(host,
        "&Time chart", lambda checked=False: slots.set_time_chart(checked), [],
        "Time spent per move and the clocks, under the graph (games whose file carries times)", checkable=True,
    )
    actions.time_chart_action.setChecked(True)
    actions.play_action = make_action(host,
        "&Play from here…", lambda checked=False: slots.play_from_here(checked), [],
        "Play the position on show out against the engine at a strength you choose", checkable=True,
    )
    actions.set_up_action = make_action(host,
        "&Set up position…", slots.set_up_position, [QKeySequence("Ctrl+Shift+N")],
        "Place pieces or stones and open the position as a new game",
    )

    actions.graph_mode_group = QActionGroup(host)
    actions.graph_mode_actions = {}
    for mode, text in (("win", "Win chance"), ("cp", "Centipawns / points")):
        action = QAction(text, host, checkable=True)
        action.setData(mode)
        action.triggered.connect(lambda _checked=False, m=mode: slots.set_graph_mode(m))
        actions.graph_mode_group.addAction(action)
        actions.graph_mode_actions[mode] = action
    return actions


def build_board_actions(host: QWidget, session: ReviewSession, slots: ActionSlots, actions: WindowActions) -> None:
    """Playing on the board: variations, live engine lines, learning from mistakes."""

    def on_current(act: Callable[[Node], None]) -> Callable[[], None]:
        def run() -> None:
            if session.model.current_node is not None:
                act(session.model.current_node)

        return run

    actions.undo_action = make_action(host,
        "&Undo", slots.undo or session.model.undo_edit, [QKeySequence.StandardKey.Undo],
        "Take back the last change: a move, a line, a note",
    )
    actions.redo_action = make_action(host,
        "&Redo", slots.redo or session.model.redo_edit, [QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")],
        "Make the change taken back again",
    )
    follow_undo_state(session, actions)
    actions.variation_actions = [
        make_action(host, "Pro&mote variation", on_current(session.model.promote), [], "One step up"),
        make_action(host, "Make &main line", on_current(session.model.make_mainline), [], "Main line"),
        make_action(host, "&Delete from here", on_current(session.model.delete_from), ["Ctrl+Del"], "Delete"),
    ]
    actions.pass_action = make_action(host, "&Pass (Go)", lambda: slots.pass_move(), ["Shift+P"], "Pass")
    actions.variation_actions.append(actions.pass_action)
    actions.live_action = make_action(host,
        "Show &engine lines", lambda checked=False: slots.set_live(checked), ["L"], "Live engine lines for the position on show",
        checkable=True,
    )
    actions.threat_action = make_action(host,
        "Show &threat", lambda checked=False: slots.set_threat(checked), ["X"],
        "What the opponent threatens: its best move if it were its turn", checkable=True,
    )
    actions.lines_count_group = QActionGroup(host)
    actions.lines_count_actions = []
    for count in range(1, LinesPanel.MAX_LINES + 1):
        action = QAction(f"{count} line{'s' if count > 1 else ''}", host, checkable=True)
        action.setChecked(count == 3)
        action.triggered.connect(lambda _checked=False, k=count: slots.set_multipv(k))
        actions.lines_count_group.addAction(action)
        actions.lines_count_actions.append(action)
    actions.move_numbers_action = make_action(host,
        "Move &numbers (Go)", lambda checked=False: slots.set_move_numbers(checked), [], "Move numbers",
        checkable=True,
    )
    actions.ownership_action = make_action(host,
        "&Territory (Go, KataGo)", lambda checked=False: slots.set_maps(ownership=checked), ["O"],
        "Who owns each point, from the live engine lines", checkable=True,
    )
    actions.policy_action = make_action(host,
        "&Policy (Go, KataGo)", lambda checked=False: slots.set_maps(policy=checked), [],
        "The network's first instinct for the side to move, from the live engine lines", checkable=True,
    )
    actions.retro_white_action = make_action(host,
        "Learn from your mistakes: &White", lambda: slots.learn_from_mistakes("white"), [], "Find better moves"
    )
    actions.retro_black_action = make_action(host,
        "Learn from your mistakes: &Black", lambda: slots.learn_from_mistakes("black"), [], "Find better moves"
    )
    actions.train_action = make_action(host, "&Train…", slots.show_trainer, ["Ctrl+T"], "Your mistakes, brought back")


def follow_undo_state(session: ReviewSession, actions: WindowActions) -> None:
    """Undo and Redo enabled only when there is something to take back or make again."""

    def update(*_args: object) -> None:
        actions.undo_action.setEnabled(session.model.can_undo)
        actions.redo_action.setEnabled(session.model.can_redo)

    for signal in (session.game_loaded, session.tree_changed, session.notes_changed):
        signal.connect(update)
    update()


def build_menus(
    host: QMainWindow, session: ReviewSession, slots: ActionSlots, actions: WindowActions, exports: GameExports, recent_menu: QMenu
) -> None:
    bar = host.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(actions.open_action)
    actions.recent_menu = recent_menu
    file_menu.addMenu(actions.recent_menu)
    file_menu.addAction(actions.choose_game_action)
    file_menu.addSeparator()
    file_menu.addAction(actions.save_action)
    file_menu.addAction(actions.save_as_action)
    file_menu.addAction(actions.export_action)
    exports.add_to(file_menu)
    file_menu.addSeparator()
    file_menu.addAction(actions.players_action)
    file_menu.addAction(actions.collection_action)
    file_menu.addSeparator()
    file_menu.addAction(actions.quit_action)

    edit_menu = bar.addMenu("&Edit")
    edit_menu.addAction(actions.undo_action)
    edit_menu.addAction(actions.redo_action)
    edit_menu.addSeparator()
    edit_menu.addAction(actions.set_up_action)

    move_menu = bar.addMenu("&Moves")
    for action in (actions.previous_action, actions.next_action, actions.start_action, actions.end_action):
        move_menu.addAction(action)
    move_menu.addSeparator()
    move_menu.addAction(actions.previous_mistake_action)
    move_menu.addAction(actions.next_mistake_action)
    move_menu.addSeparator()
    for action in actions.variation_actions:
        move_menu.addAction(action)

    analysis_menu = bar.addMenu("&Analysis")
    analysis_menu.addAction(actions.analyse_action)
    analysis_menu.addAction(actions.live_action)
    analysis_menu.addAction(actions.threat_action)
    analysis_menu.addAction(actions.play_action)
    lines_menu = analysis_menu.addMenu("&Number of engine lines")
    for action in actions.lines_count_actions:
        lines_menu.addAction(action)
    analysis_menu.addSeparator()
    analysis_menu.addAction(actions.retro_white_action)
    analysis_menu.addAction(actions.retro_black_action)
    analysis_menu.addAction(actions.train_action)
    analysis_menu.addSeparator()
    actions.preset_menu = analysis_menu.addMenu("&Thresholds")
    actions.preset_group = QActionGroup(host)
    for preset in PRESETS:
        action = QAction(preset_label(preset), host, checkable=True)
        action.setChecked(preset == session.model.preset)
        action.triggered.connect(lambda _checked=False, p=preset: slots.set_preset(p))
        actions.preset_group.addAction(action)
        actions.preset_menu.addAction(action)
    analysis_menu.addSeparator()
    analysis_menu.addAction(actions.settings_action)

    engines_menu = bar.addMenu("En&gines")
    engines_menu.addAction(actions.engine_manager_action)
    engines_menu.addSeparator()
    engines_menu.addAction(actions.install_stockfish_action)
    engines_menu.addAction(actions.install_katago_action)

    view_menu = bar.addMenu("&View")
    view_menu.addAction(actions.flip_action)
    view_menu.addAction(actions.move_numbers_action)
    view_menu.addAction(actions.ownership_action)
    view_menu.addAction(actions.policy_action)
    graph_menu = view_menu.addMenu("&Graph shows")
    for action in actions.graph_mode_actions.values():
        graph_menu.addAction(action)
    view_menu.addAction(actions.time_chart_action)
    view_menu.addAction(actions.dark_action)
    view_menu.addSeparator()
    view_menu.addAction(actions.fullscreen_action)

    help_menu = bar.addMenu("&Help")
    help_menu.addAction(actions.shortcuts_action)
    help_menu.addAction(actions.about_action)


def build_toolbar(host: QMainWindow, session: ReviewSession, slots: ActionSlots, actions: WindowActions) -> None:
    toolbar = QToolBar("Main", host)
    toolbar.setObjectName("main-toolbar")
    toolbar.setMovable(False)
    toolbar.setFloatable(False)
    toolbar.setIconSize(QSize(18, 18))
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    toolbar.toggleViewAction().setEnabled(False)
    host.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
    actions.toolbar = toolbar

    toolbar.addAction(actions.open_action)
    toolbar.addSeparator()

    actions.engine_button = QToolButton(host)
    actions.engine_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    actions.engine_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    actions.engine_button.setToolTip("The engine that analyses this kind of game")
    # The text ends in ▾; the style's own indicator would sit on top of the text.
    actions.engine_button.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")
    actions.engine_menu = QMenu(actions.engine_button)
    actions.engine_button.setMenu(actions.engine_menu)
    toolbar.addWidget(actions.engine_button)

    actions.limit_combo = QComboBox(host)
    actions.limit_combo.setToolTip("How long the engine searches each position")
    actions.limit_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    toolbar.addWidget(actions.limit_combo)

    actions.analyse_button = QToolButton(host)
    actions.analyse_button.setDefaultAction(actions.analyse_action)
    actions.analyse_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    actions.analyse_button.setObjectName("analyse-button")
    actions.analyse_button.setStyleSheet("QToolButton { font-weight: 600; padding: 2px 8px; }")
    toolbar.addWidget(actions.analyse_button)
    toolbar.addSeparator()

    actions.preset_combo = QComboBox(host)
    actions.preset_combo.setToolTip("Thresholds for inaccuracies, mistakes and blunders (chess)")
    for preset in PRESETS:
        actions.preset_combo.addItem(preset_label(preset), preset)
    actions.preset_combo.setCurrentIndex(PRESETS.index(session.model.preset))
    actions.preset_combo.activated.connect(lambda index: slots.set_preset(actions.preset_combo.itemData(index)))
    toolbar.addWidget(actions.preset_combo)
    toolbar.addSeparator()
    toolbar.addAction(actions.save_action)
    toolbar.addAction(actions.export_action)

    spacer = QWidget(host)
    spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    toolbar.addWidget(spacer)
    toolbar.addAction(actions.flip_action)
    toolbar.addAction(actions.settings_action)


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


def apply_action_states(actions: WindowActions, states: ActionStates) -> None:
    """Enable and name the actions as `states` (the presenter's rules) says."""
    actions.analyse_action.setEnabled(states.analyse_enabled)
    actions.analyse_action.setText(states.analyse_text)
    actions.analyse_action.setIcon(media_icon(states.running))
    actions.analyse_action.setToolTip(states.analyse_tip)
    actions.export_action.setEnabled(states.export_enabled)
    actions.save_action.setEnabled(states.export_enabled)
    actions.save_as_action.setEnabled(states.export_enabled)
    actions.choose_game_action.setEnabled(states.choose_game_enabled)
    actions.preset_combo.setEnabled(states.thresholds_enabled)
    actions.preset_menu.setEnabled(states.thresholds_enabled)
    actions.pass_action.setEnabled(states.pass_enabled)
    for action in (actions.move_numbers_action, actions.ownership_action, actions.policy_action):
        action.setEnabled(states.point_maps_enabled)
    actions.threat_action.setEnabled(states.threat_enabled)
    for action in (
        actions.previous_action,
        actions.next_action,
        actions.start_action,
        actions.end_action,
        actions.next_mistake_action,
        actions.previous_mistake_action,
    ):
        action.setEnabled(states.navigation_enabled)
