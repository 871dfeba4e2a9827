"""The main window: board on the left, summary / moves / comment on the right, graph below.

The window composes widgets and wires them to the one `ReviewSession`; it keeps no review state
of its own. Views that are costly to redraw (graph, summary, move labels) refresh on a timer
while evaluations stream in, at most `REFRESH_HZ` times a second.
"""

from __future__ import annotations

import gc
import json
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import chess
from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QIcon,
    QKeySequence,
    QPainter,
    QPixmap,
    QPolygonF,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStyle,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit
from reviewer.core.embedded_evals import evaluations_from_game
from reviewer.core.engines.discovery import EngineInfo, find_engines
from reviewer.core.export import save_annotated, save_text
from reviewer.core.formats.collection import GameCollection
from reviewer.core.gametree import Game, Node, point_from_gtp
from reviewer.core.passes import pass_text
from reviewer.core.report import build_report
from reviewer.core.score_text import score_text, value_text
from reviewer.core.scoring.chess import normalised_cp_white
from reviewer.gui.analysis_board import AnalysisBoard
from reviewer.gui.live_panel import EvalBar, LinesPanel
from reviewer.gui.message_bar import MessageBar
from reviewer.gui.move_entry import MoveEntry
from reviewer.gui.presenters.analysis_state import AnalysisState, state_text
from reviewer.gui.presenters.messages import Message, game_warning
from reviewer.gui.presenters.move_problems import problem_plies
from reviewer.gui.presenters.verdict import verdict
from reviewer.gui.retro_panel import RetroController, RetroPanel
from reviewer.gui.session import ReviewSession, assess_safely
from reviewer.gui.settings import (
    PRESETS,
    EngineChoice,
    Settings,
    describe_limit,
    engine_label,
    limit_choices,
)
from reviewer.gui.style import (
    FLAGGED_JUDGEMENTS,
    is_dark_palette,
    judgement_color,
    paint_stone_icon,
    themed_html,
)
from reviewer.gui.workers import (
    AnalysisJob,
    AnalysisProgress,
    AnalysisRunner,
    AssessmentRunner,
    TaskRunner,
    builtin_go_identity,
    cached_evaluations,
    engine_display_name,
    import_go_engine_modules,
    remembered_identity,
)

if TYPE_CHECKING:
    from reviewer.gui.eval_graph import EvalGraphWidget

GRAPH_DELAY_MS = 300  # after the first paint
WARM_UP_DELAY_MS = 2000  # unless a game is opened sooner:
WARM_UP_AFTER_OPEN_MS = 300  # once it is on screen
REFRESH_HZ = 10  # at most, while an analysis runs
MAX_REFRESH_MS = 1000
BEST_ARROW = "#1f6fd1d0"  # #RRGGBBAA: the engine's choice
CANDIDATE_ARROW = "#1f6fd160"  # other candidate moves, fainter
GAME_FILE_FILTER = "Game files (*.pgn *.sgf *.gib *.ngf *.ugf *.ugi);;PGN (*.pgn);;SGF (*.sgf);;All files (*)"
SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("← / →", "previous / next move (also the mouse wheel over the board)"),
    ("↑ / Home", "start of the game"),
    ("↓ / End", "end of the line"),
    ("N  or  Ctrl+→", "next inaccuracy, mistake or blunder"),
    ("P  or  Ctrl+←", "previous inaccuracy, mistake or blunder"),
    ("Space", "analyse the game / stop the analysis"),
    ("F", "flip the board"),
    ("Ctrl+O", "open a game file (or drop one on the window)"),
    ("Ctrl+G", "another game of the open file"),
    ("Ctrl+P", "players' strength from many games"),
    ("Ctrl+S", "export annotated PGN/SGF or a JSON report"),
    ("Ctrl+,", "engine and analysis settings"),
    ("F11", "full screen"),
    ("Ctrl+Q", "quit"),
)


class MainWindow(QMainWindow):
    """The review window. `open_file` and `start_analysis` drive it from code and tests."""

    file_opened = Signal(str)  # path, once its game is on screen
    open_failed = Signal(str)  # one-line message
    export_finished = Signal(str)  # path written
    analysis_finished = Signal(bool)  # True when every position was analysed
    cache_checked = Signal(int)  # evaluations the analysis cache had for the game just opened

    def __init__(
        self,
        settings: Settings | None = None,
        analysis_runner: AnalysisRunner | None = None,
        discover_engines: bool = True,
        remember_layout: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        """`remember_layout`: restore the window's size and splitters from the settings and save
        them on close (False for a screenshot: the same picture whatever the user's layout)."""
        super().__init__(parent)
        self.settings = settings or Settings()
        self._remember_layout = remember_layout
        self.session = ReviewSession(preset=self.settings.preset, parent=self)
        self.analysis = analysis_runner or AnalysisRunner(parent=self)
        if self.analysis.parent() is None:
            self.analysis.setParent(self)
        self.tasks = TaskRunner(self)
        self.assessor = AssessmentRunner(assess_safely, self)
        self.session.set_background_assessor(self.assessor.request)
        self.assessor.ready.connect(self.session.accept_assessment)
        self._pending_tasks: dict[int, tuple[str, Any]] = {}
        self._pending_ply: int | None = None
        self._engine_overrides: dict[str, EngineChoice] = {}
        self._limit_overrides: dict[str, Limit] = {}
        self._known_engines: list[EngineInfo] = []
        self._engines_pending = True
        self._flipped = False
        self._players_window: QWidget | None = None
        self._train_window: Any = None
        self._analysis_state = AnalysisState()

        self.setWindowTitle("Reviewer")
        self.setAcceptDrops(True)
        self.setMinimumSize(900, 600)

        _import_shared_dependencies()
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._build_central()
        self._build_status_bar()
        self._connect()
        self._build_analysis_board()

        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(1000 // REFRESH_HZ)
        self._refresh_timer.timeout.connect(self._refresh_views)

        self._restore_geometry()
        self._update_enabled()
        self._show_welcome()
        self._warmed_up = False
        self._discovery_wanted, self._discovery_started = discover_engines, False
        QTimer.singleShot(WARM_UP_DELAY_MS, self._warm_up)
        QTimer.singleShot(GRAPH_DELAY_MS, self._ensure_graph)
        if not discover_engines:
            self._engines_pending = False

    # ------------------------------------------------------------------------------ building
    def _action(
        self,
        text: str,
        slot: Any,
        shortcuts: Sequence[QKeySequence | QKeySequence.StandardKey | str] = (),
        tip: str = "",
        icon: QStyle.StandardPixmap | None = None,
        checkable: bool = False,
    ) -> QAction:
        action = QAction(text, self)
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        keys = [QKeySequence(key) if not isinstance(key, QKeySequence) else key for key in shortcuts]
        if keys:
            action.setShortcuts(keys)
        if tip:
            shown_key = keys[0].toString(QKeySequence.SequenceFormat.NativeText) if keys else ""
            action.setToolTip(f"{tip} ({shown_key})" if shown_key else tip)
            action.setStatusTip(tip)
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        self.addAction(action)  # shortcuts work even with the menu bar hidden (full screen)
        return action

    def _build_actions(self) -> None:
        sp = QStyle.StandardPixmap
        self.open_action = self._action(
            "&Open…", self.choose_file, [QKeySequence.StandardKey.Open], "Open a PGN or SGF file", sp.SP_DialogOpenButton
        )
        self.export_action = self._action(
            "&Export…",
            self.choose_export,
            [QKeySequence("Ctrl+S")],
            "Export the annotated game (PGN/SGF) or a JSON report",
            sp.SP_DialogSaveButton,
        )
        self.choose_game_action = self._action(
            "Another &game of this file…",
            self.choose_game,
            [QKeySequence("Ctrl+G")],
            "Pick another game of the open file",
        )
        self.quit_action = self._action("&Quit", self.close, [QKeySequence("Ctrl+Q")], "Quit Reviewer")
        self.players_action = self._action(
            "&Players…", self.show_players, [QKeySequence("Ctrl+P")], "Estimate players' strength from many games"
        )
        self.analyse_action = self._action(
            "Analyse", self.toggle_analysis, [QKeySequence("Space")], "Analyse the game with the engine"
        )
        self.analyse_action.setIcon(_media_icon(running=False))
        self.settings_action = self._action(
            "Engine && &settings…",
            self.show_settings,
            [QKeySequence("Ctrl+,")],
            "Choose the engine, the search limit and the thresholds",
            sp.SP_FileDialogDetailedView,
        )
        self.previous_action = self._action("&Previous move", lambda: self.session.step(-1), ["Left"], "Previous move")
        self.next_action = self._action("&Next move", lambda: self.session.step(1), ["Right"], "Next move")
        self.start_action = self._action("&Start", self.session.go_to_start, ["Home", "Up"], "Start of the game")
        self.end_action = self._action("&End", self.session.go_to_end, ["End", "Down"], "End of the line")
        self.next_mistake_action = self._action(
            "Next &mistake", lambda: self._jump_flagged(1), ["N", "Ctrl+Right"], "Next inaccuracy, mistake or blunder"
        )
        self.previous_mistake_action = self._action(
            "Previous m&istake",
            lambda: self._jump_flagged(-1),
            ["P", "Ctrl+Left"],
            "Previous inaccuracy, mistake or blunder",
        )
        self.flip_action = self._action("&Flip board", self.toggle_flip, ["F"], "Flip the board", checkable=True)
        self.fullscreen_action = self._action(
            "&Full screen", self.toggle_fullscreen, [QKeySequence("F11")], "Full screen", checkable=True
        )
        self.dark_action = self._action("&Dark theme", self.toggle_dark, [], "Dark theme", checkable=True)
        self.dark_action.setChecked(is_dark_palette(QApplication.palette()))
        self.shortcuts_action = self._action("&Keyboard shortcuts", self.show_shortcuts, ["F1"], "Keyboard shortcuts")
        self.about_action = self._action("&About Reviewer", self.show_about)
        self.engine_manager_action = self._action(
            "&Engine manager…", lambda: self.show_engine_manager(), [QKeySequence("Ctrl+E")],
            "Engines found, the default per game, your own engines, installs",
        )
        self.install_stockfish_action = self._action("Install &Stockfish…", lambda: self.show_engine_manager("stockfish"))
        self.install_katago_action = self._action("Install &KataGo…", lambda: self.show_engine_manager("katago"))

        self._build_board_actions()

        self.graph_mode_group = QActionGroup(self)
        self.graph_mode_actions: dict[str, QAction] = {}
        for mode, text in (("win", "Win chance"), ("cp", "Centipawns / points")):
            action = QAction(text, self, checkable=True)
            action.setData(mode)
            action.triggered.connect(lambda _checked=False, m=mode: self.set_graph_mode(m))
            self.graph_mode_group.addAction(action)
            self.graph_mode_actions[mode] = action

    def _build_board_actions(self) -> None:
        """Playing on the board: variations, live engine lines, learning from mistakes."""
        session = self.session
        current = lambda: session.current_node  # noqa: E731
        self.variation_actions = [
            self._action("&Undo the last change", session.undo_edit, [QKeySequence.StandardKey.Undo], "Undo"),
            self._action("Pro&mote variation", lambda: current() and session.promote(current()), [], "One step up"),
            self._action("Make &main line", lambda: current() and session.make_mainline(current()), [], "Main line"),
            self._action("&Delete from here", lambda: current() and session.delete_from(current()), ["Ctrl+Del"], "Delete"),
            self._action("&Pass (Go)", lambda: self.analysis_board.pass_move(), ["Shift+P"], "Pass"),
        ]
        self.live_action = self._action(
            "&Engine lines", lambda checked=False: self.set_live(checked), ["L"], "Live engine lines for the position on show",
            checkable=True,
        )
        self.lines_count_group = QActionGroup(self)
        self.lines_count_actions = []
        for count in range(1, LinesPanel.MAX_LINES + 1):
            action = QAction(f"{count} line{'s' if count > 1 else ''}", self, checkable=True)
            action.setChecked(count == 3)
            action.triggered.connect(lambda _checked=False, k=count: self.analysis_board.set_multipv(k))
            self.lines_count_group.addAction(action)
            self.lines_count_actions.append(action)
        self.move_numbers_action = self._action(
            "Move &numbers (Go)", lambda checked=False: self.analysis_board.set_move_numbers(checked), [], "Move numbers",
            checkable=True,
        )
        self.ownership_action = self._action(
            "&Territory (Go, KataGo)", lambda checked=False: self.analysis_board.set_maps(ownership=checked), ["O"],
            "Who owns each point, from the live engine lines", checkable=True,
        )
        self.policy_action = self._action(
            "&Policy (Go, KataGo)", lambda checked=False: self.analysis_board.set_maps(policy=checked), [],
            "The network's first instinct for the side to move, from the live engine lines", checkable=True,
        )
        self.retro_white_action = self._action(
            "Learn from your mistakes: &White", lambda: self.learn_from_mistakes("white"), [], "Find better moves"
        )
        self.retro_black_action = self._action(
            "Learn from your mistakes: &Black", lambda: self.learn_from_mistakes("black"), [], "Find better moves"
        )
        self.train_action = self._action("&Train…", self.show_trainer, ["Ctrl+T"], "Your mistakes, brought back")

    def _build_analysis_board(self) -> None:
        from reviewer.core.services.saved_lines import SavedLines

        self.analysis_board = AnalysisBoard(
            self.session,
            self.move_list,
            self.lines_panel,
            self.eval_bar,
            self.move_entry,
            self._live_engine_factory,
            self._show_board_message,
            SavedLines(),
            self,
        )
        self.retro = RetroController(self.session, self.retro_panel, self._answer_evaluator, self)
        self.analysis_board.retro = self.retro
        self.retro.best_move_shown.connect(lambda move: self._show_board_message(f"The best move was {move}."))

    def _live_engine_factory(self, kind: str, board_size: tuple[int, int] | None) -> Any:
        from reviewer.gui.workers import open_engine_from_registry

        choice = self.engine_choice(kind)
        return lambda: open_engine_from_registry(choice)

    def _answer_evaluator(self, card: Any) -> Any:
        from reviewer.core.services.trainer.judge import engine_evaluator

        choice = self.engine_choice(card.kind)
        return engine_evaluator(choice.command, choice.name)

    def _show_board_message(self, text: str) -> None:
        level = "error" if text.startswith(("live analysis stopped", "Could not")) else "warning"
        self.message_bar.replace(Message(key="board", level=level, text=text, scope="game"))

    def set_live(self, enabled: bool) -> None:
        """The engine toggle: live lines (and the evaluation bar for chess) for the position on show."""
        self.live_action.setChecked(enabled)
        game = self.session.game
        self.lines_panel.setVisible(enabled)
        self.eval_bar.setVisible(enabled and game is not None and game.kind == "chess")
        self.board_column.relayout()
        self.analysis_board.set_live(enabled)

    def learn_from_mistakes(self, color: str) -> None:
        if not self.session.basis.trust.labels or not self.retro.start(color):  # type: ignore[arg-type]
            self._show_board_message("Learn from your mistakes needs a finished analysis by an engine that labels moves.")
        elif self.retro.retro is not None and not self.retro.retro.items:
            self._show_board_message(f"No mistake or blunder by {color} to learn from in this game.")

    def show_trainer(self) -> None:
        from reviewer.core.services.trainer.deck import Deck
        from reviewer.gui.train_window import TrainWindow

        if self._train_window is None:
            self._train_window = TrainWindow(Deck, self._answer_evaluator)
        self._train_window.show()
        self._train_window.raise_()
        self._train_window.reload()

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addAction(self.open_action)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addAction(self.choose_game_action)
        file_menu.addAction(self.export_action)
        from reviewer.gui.exports import GameExports

        self.exports = GameExports(self)
        self.exports.add_to(file_menu)
        file_menu.addSeparator()
        file_menu.addAction(self.players_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        move_menu = bar.addMenu("&Moves")
        for action in (self.previous_action, self.next_action, self.start_action, self.end_action):
            move_menu.addAction(action)
        move_menu.addSeparator()
        move_menu.addAction(self.previous_mistake_action)
        move_menu.addAction(self.next_mistake_action)
        move_menu.addSeparator()
        for action in self.variation_actions:
            move_menu.addAction(action)

        analysis_menu = bar.addMenu("&Analysis")
        analysis_menu.addAction(self.analyse_action)
        analysis_menu.addAction(self.live_action)
        lines_menu = analysis_menu.addMenu("Engine &lines")
        for action in self.lines_count_actions:
            lines_menu.addAction(action)
        analysis_menu.addSeparator()
        analysis_menu.addAction(self.retro_white_action)
        analysis_menu.addAction(self.retro_black_action)
        analysis_menu.addAction(self.train_action)
        analysis_menu.addSeparator()
        self.preset_menu = analysis_menu.addMenu("&Thresholds")
        self.preset_group = QActionGroup(self)
        for preset in PRESETS:
            action = QAction(_preset_label(preset), self, checkable=True)
            action.setChecked(preset == self.session.preset)
            action.triggered.connect(lambda _checked=False, p=preset: self.set_preset(p))
            self.preset_group.addAction(action)
            self.preset_menu.addAction(action)
        analysis_menu.addSeparator()
        analysis_menu.addAction(self.settings_action)

        engines_menu = bar.addMenu("&Engines")
        engines_menu.addAction(self.engine_manager_action)
        engines_menu.addSeparator()
        engines_menu.addAction(self.install_stockfish_action)
        engines_menu.addAction(self.install_katago_action)

        view_menu = bar.addMenu("&View")
        view_menu.addAction(self.flip_action)
        view_menu.addAction(self.move_numbers_action)
        view_menu.addAction(self.ownership_action)
        view_menu.addAction(self.policy_action)
        graph_menu = view_menu.addMenu("&Graph shows")
        for action in self.graph_mode_actions.values():
            graph_menu.addAction(action)
        view_menu.addAction(self.dark_action)
        view_menu.addSeparator()
        view_menu.addAction(self.fullscreen_action)

        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.shortcuts_action)
        help_menu.addAction(self.about_action)

    def _build_toolbar(self) -> None:
        toolbar = QToolBar("Main", self)
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        toolbar.setFloatable(False)
        toolbar.setIconSize(QSize(18, 18))
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.toggleViewAction().setEnabled(False)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
        self.toolbar = toolbar

        toolbar.addAction(self.open_action)
        toolbar.addSeparator()

        self.engine_button = QToolButton(self)
        self.engine_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.engine_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.engine_button.setToolTip("The engine that analyses this kind of game")
        # The text ends in ▾; the style's own indicator would sit on top of the text.
        self.engine_button.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")
        self.engine_menu = QMenu(self.engine_button)
        self.engine_menu.aboutToShow.connect(self._fill_engine_menu)
        self.engine_button.setMenu(self.engine_menu)
        toolbar.addWidget(self.engine_button)

        self.limit_combo = QComboBox(self)
        self.limit_combo.setToolTip("How long the engine searches each position")
        self.limit_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.limit_combo.activated.connect(self._on_limit_chosen)
        toolbar.addWidget(self.limit_combo)

        self.analyse_button = QToolButton(self)
        self.analyse_button.setDefaultAction(self.analyse_action)
        self.analyse_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.analyse_button.setObjectName("analyse-button")
        self.analyse_button.setStyleSheet("QToolButton { font-weight: 600; padding: 2px 8px; }")
        toolbar.addWidget(self.analyse_button)
        toolbar.addSeparator()

        self.preset_combo = QComboBox(self)
        self.preset_combo.setToolTip("Thresholds for inaccuracies, mistakes and blunders (chess)")
        for preset in PRESETS:
            self.preset_combo.addItem(_preset_label(preset), preset)
        self.preset_combo.setCurrentIndex(PRESETS.index(self.session.preset))
        self.preset_combo.activated.connect(lambda index: self.set_preset(self.preset_combo.itemData(index)))
        toolbar.addWidget(self.preset_combo)
        toolbar.addSeparator()
        toolbar.addAction(self.export_action)

        spacer = QWidget(self)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        toolbar.addWidget(spacer)
        toolbar.addAction(self.flip_action)
        toolbar.addAction(self.settings_action)
        self._update_engine_controls()

    def _build_central(self) -> None:
        from reviewer.gui.move_list import MoveListWidget
        from reviewer.gui.summary_panel import SummaryPanel

        self.board_stack = QStackedWidget(self)
        self.chess_board: Any = None
        self.go_board: Any = None
        self.welcome_label = QLabel(self)
        self.welcome_label.setObjectName("welcome")
        self.welcome_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.welcome_label.setWordWrap(True)
        self.welcome_label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.welcome_label.linkActivated.connect(lambda index: self.open_file(Path(self._welcome_files[int(index)])))
        self._welcome_files: list[str] = []
        self.board_stack.addWidget(self.welcome_label)

        self.top_player = _PlayerStrip(self)
        self.bottom_player = _PlayerStrip(self)
        self.eval_bar = EvalBar(self)
        self.eval_bar.hide()
        board_column = _BoardColumn(self.top_player, self.board_stack, self.bottom_player, self, bar=self.eval_bar)
        self.board_column = board_column

        self.header_label = QLabel(self)
        self.header_label.setObjectName("game-header")
        self.header_label.setWordWrap(True)
        self.header_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_panel = SummaryPanel(self)
        self.move_list = MoveListWidget(self)
        self.comment_view = QTextBrowser(self)
        self.comment_view.setObjectName("comment")
        self.comment_view.setOpenLinks(False)
        self.comment_view.setFrameShape(QFrame.Shape.NoFrame)
        # the move's title, the verdict, the best line, the engine's line and its alternatives
        lines = self.comment_view.fontMetrics().lineSpacing()
        self.comment_view.setMinimumHeight(round(lines * 6.2) + 8)
        self.comment_view.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.setSpacing(6)
        right_layout.addWidget(self.header_label)
        right_layout.addWidget(self.summary_panel)
        self.lines_panel = LinesPanel(self)
        self.lines_panel.hide()
        self.retro_panel = RetroPanel(self)
        right_layout.addWidget(self.retro_panel)
        right_layout.addWidget(self.lines_panel)
        right_splitter = QSplitter(Qt.Orientation.Vertical, right)
        right_splitter.setChildrenCollapsible(False)
        right_splitter.addWidget(self.move_list)
        right_splitter.addWidget(self.comment_view)
        right_splitter.setStretchFactor(0, 3)
        right_splitter.setStretchFactor(1, 1)
        right_splitter.setSizes([330, 140])
        right_layout.addWidget(right_splitter, 1)
        self.move_entry = MoveEntry(self)
        right_layout.addWidget(self.move_entry)
        self.right_splitter = right_splitter

        top = _BoardAndPanel(board_column, right, self)
        self.board_and_panel = top

        # The graph (pyqtgraph: a second of imports) is made after the first paint: see _ensure_graph.
        self.eval_graph: EvalGraphWidget | None = None
        self.main_splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.main_splitter.setObjectName("main-splitter")
        self.main_splitter.setChildrenCollapsible(False)
        self.main_splitter.addWidget(top)

        self.message_bar = MessageBar(self)
        self.message_bar.action_triggered.connect(self._on_message_action)

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(10, 8, 10, 4)
        layout.addWidget(self.message_bar)
        layout.addWidget(self.main_splitter)
        self.setCentralWidget(central)

    def _ensure_graph(self) -> EvalGraphWidget:
        if self.eval_graph is None:
            from reviewer.gui.eval_graph import EvalGraphWidget

            graph = EvalGraphWidget(self)
            graph.setMinimumHeight(110)
            graph.setVisible(self.session.game is not None)
            self.main_splitter.addWidget(graph)
            self.main_splitter.setStretchFactor(0, 1)
            self.main_splitter.setStretchFactor(1, 0)
            state = self.settings.window_state("main-splitter") if self._remember_layout else None
            if state is None or not self.main_splitter.restoreState(state):
                graph_height = max(120, min(190, round(self.height() * 0.2)))
                self.main_splitter.setSizes([max(200, self.main_splitter.height() - graph_height), graph_height])
            graph.ply_clicked.connect(self.session.set_current_ply)
            graph.ply_scrubbed.connect(self.session.set_current_ply)
            self.eval_graph = graph
            _freeze_startup_objects()
        return self.eval_graph

    def _ensure_board(self, kind: str) -> Any:
        if kind == "chess":
            if self.chess_board is None:
                from reviewer.gui.board.chess_play import PlayableChessBoard

                self.chess_board = PlayableChessBoard(self)
                self.chess_board.wheel_steps.connect(self.session.step)
                self.analysis_board.attach_chess_board(self.chess_board)
                self.board_stack.addWidget(self.chess_board)
            board = self.chess_board
        else:
            if self.go_board is None:
                from reviewer.gui.board.go_play import PlayableGoBoard

                self.go_board = PlayableGoBoard(self)
                self.go_board.wheel_steps.connect(self.session.step)
                self.analysis_board.attach_go_board(self.go_board)
                self.board_stack.addWidget(self.go_board)
            board = self.go_board
        board.set_flipped(self._flipped) if hasattr(board, "set_flipped") else None
        self.board_stack.setCurrentWidget(board)
        return board

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        status.setSizeGripEnabled(True)
        self.engine_label = QLabel(self)
        self.engine_label.setObjectName("status-engine")
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setFixedWidth(190)
        self.progress_bar.setMaximumHeight(16)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.hide()
        self.rate_label = QLabel(self)
        self.eta_label = QLabel(self)
        self.state_label = QLabel(self)
        self.state_label.setObjectName("status-state")
        for widget in (self.state_label, self.engine_label, self.progress_bar, self.rate_label, self.eta_label):
            status.addPermanentWidget(widget)

    def _connect(self) -> None:
        session = self.session
        session.game_loaded.connect(self._on_game_loaded)
        session.current_changed.connect(self._on_current_changed)
        session.assessment_changed.connect(self._schedule_refresh)
        self.move_list.node_selected.connect(session.set_current_node)
        self.summary_panel.judgement_clicked.connect(self._jump_to_judgement)

        self.analysis.evaluation_ready.connect(session.add_evaluation)
        self.analysis.progress_changed.connect(self._on_progress)
        self.analysis.failed.connect(self._on_analysis_failed)
        self.analysis.warned.connect(self._on_engine_warning)
        self.analysis.finished.connect(self._on_analysis_finished)
        self.analysis.started.connect(lambda _job: self._update_enabled())
        self.analysis.engine_identified.connect(self._remember_engine_identity)

        self.tasks.succeeded.connect(self._on_task_done)
        self.tasks.failed.connect(self._on_task_failed)

    # --------------------------------------------------------------------------------- files
    @Slot()
    def choose_file(self) -> None:
        folder = self.settings.last_directory or str(Path.home())
        path, _filter = QFileDialog.getOpenFileName(self, "Open a game", folder, GAME_FILE_FILTER)
        if path:
            self.open_file(Path(path))

    def open_file(self, path: str | Path, game_index: int | None = None, ply: int | None = None) -> None:
        """Read `path` off the GUI thread; a file of many games asks which one (unless given)."""
        path = Path(path)
        self._pending_ply = ply
        self.statusBar().showMessage(f"Opening {path.name}…")
        task = self.tasks.submit(_read_collection, path, game_index is None)
        self._pending_tasks[task] = ("collection", (path, game_index))

    def _on_collection_read(self, path: Path, game_index: int | None, collection: GameCollection) -> None:
        count = len(collection)
        if count == 0:
            self._open_failed(f"{path.name}: the file holds no game")
            return
        if game_index is None:
            if count == 1:
                game_index = 0
            else:
                from reviewer.gui.dialogs.game_chooser import GameChooserDialog

                dialog = GameChooserDialog(collection, path.name, self)
                if dialog.exec() != GameChooserDialog.DialogCode.Accepted or dialog.chosen_index() is None:
                    self.statusBar().showMessage("No game opened", 3000)
                    return
                game_index = dialog.chosen_index()
        if not 0 <= game_index < count:
            self._open_failed(f"{path.name}: there is no game {game_index + 1} (the file has {count})")
            return
        task = self.tasks.submit(_read_game, collection, game_index)
        self._pending_tasks[task] = ("game", (path, collection, game_index))

    def _on_game_read(
        self, path: Path, collection: GameCollection, index: int, game: Game, embedded: tuple[Evaluation, ...]
    ) -> None:
        self.analysis.stop()
        try:
            self.session.load_game(game, collection, index, embedded)
        finally:
            self._finish_opening(path, collection, index, game)

    def _finish_opening(self, path: Path, collection: GameCollection, index: int, game: Game) -> None:
        if self._pending_ply is not None:
            self.session.set_current_ply(self._pending_ply)
            self._pending_ply = None
        self.settings.add_recent_file(path)
        self.settings.last_directory = str(path.parent)
        title = f"{_player_line(game)} — {path.name}"
        if len(collection) > 1:
            title += f" [{index + 1}/{len(collection)}]"
        self.setWindowTitle(f"{title} — Reviewer")
        self.statusBar().showMessage(f"Opened {path.name}", 3000)
        self._look_up_cached_analysis(game)
        self.file_opened.emit(str(path))
        QTimer.singleShot(WARM_UP_AFTER_OPEN_MS, self._warm_up)

    @Slot()
    def choose_game(self) -> None:
        collection = self.session.collection
        game = self.session.game
        if collection is None or game is None or len(collection) < 2:
            return
        from reviewer.gui.dialogs.game_chooser import GameChooserDialog

        path = Path(game.source.path or "")
        dialog = GameChooserDialog(collection, path.name, self)
        dialog.select_game(self.session.game_index)
        if dialog.exec() == GameChooserDialog.DialogCode.Accepted and dialog.chosen_index() is not None:
            task = self.tasks.submit(_read_game, collection, dialog.chosen_index())
            self._pending_tasks[task] = ("game", (path, collection, dialog.chosen_index()))

    def _open_failed(self, message: str) -> None:
        self.statusBar().clearMessage()  # "Opening …" is over
        self.message_bar.add(Message(key=f"open:{message}", level="error", text=message, scope="app"))
        self.open_failed.emit(message)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.settings.recent_files()
        for path in files:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _checked=False, p=path: self.open_file(Path(p)))
        if not files:
            self.recent_menu.addAction("No recent files").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear the list", self.settings.clear_recent_files)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                event.acceptProposedAction()
                self.open_file(Path(url.toLocalFile()))
                return

    # -------------------------------------------------------------------------------- export
    @Slot()
    def choose_export(self) -> None:
        game = self.session.game
        if game is None:
            return
        source = Path(game.source.path) if game.source.path else Path.home() / "game"
        extension = "pgn" if game.kind == "chess" else "sgf"
        suggestion = source.with_name(f"{source.stem}-reviewed.{extension}")
        annotated = f"Annotated {extension.upper()} (*.{extension})"
        report = "JSON report (*.json)"
        path, chosen = QFileDialog.getSaveFileName(self, "Export the review", str(suggestion), f"{annotated};;{report}")
        if not path:
            return
        target = Path(path)
        if chosen == report and target.suffix.lower() != ".json":
            target = target.with_suffix(".json")
        self.export(target)

    def export(self, path: str | Path) -> None:
        """Write the annotated game (.pgn/.sgf) or the JSON report (.json) to `path`, off the GUI thread."""
        game = self.session.game
        if game is None:
            return
        target = Path(path)
        self.session.settle_assessment()  # the export covers every evaluation so far
        evaluations = tuple(self.session.evaluations.ordered())
        assessment = self.session.assessment
        engine_name = self.engine_label.text()
        task = self.tasks.submit(
            _write_export, target, game, evaluations, assessment, self.session.preset, engine_name, must_finish=True
        )
        self._pending_tasks[task] = ("export", target)
        self.statusBar().showMessage(f"Writing {target.name}…")

    # ------------------------------------------------------------------------------ analysis
    def engine_choice(self, kind: str) -> EngineChoice:
        return self._engine_overrides.get(kind) or self.settings.engine_choice(kind)  # type: ignore[arg-type]

    def set_engine_choice(self, choice: EngineChoice, remember: bool = True) -> None:
        if remember:
            self.settings.set_engine_choice(choice)
            self._engine_overrides.pop(choice.kind, None)
        else:
            self._engine_overrides[choice.kind] = choice
        self._update_engine_controls()

    def limit(self, kind: str) -> Limit:
        return self._limit_overrides.get(kind) or self.settings.limit(kind)  # type: ignore[arg-type]

    def set_limit(self, kind: str, limit: Limit, remember: bool = True) -> None:
        if remember:
            self.settings.set_limit(kind, limit)  # type: ignore[arg-type]
            self._limit_overrides.pop(kind, None)
        else:
            self._limit_overrides[kind] = limit
        self._update_engine_controls()

    def _current_kind(self) -> str:
        return self.session.game.kind if self.session.game is not None else "chess"

    @Slot()
    def toggle_analysis(self) -> None:
        if self.analysis.is_running():
            self.stop_analysis()
        else:
            self.start_analysis()

    def start_analysis(self) -> None:
        game = self.session.game
        if game is None:
            return
        plies = tuple(range(self.session.ply_count + 1))
        kind = game.kind
        job = AnalysisJob(game=game, engine=self.engine_choice(kind), limit=self.limit(kind), plies=plies)
        self.message_bar.remove("analysis-failed")
        self._analysis_state = AnalysisState().running(0, len(plies), None)
        self.analysis.start(job)
        self._update_enabled()
        self._show_analysis_state()

    def stop_analysis(self) -> None:
        self.analysis.stop()
        self._update_enabled()

    def _on_progress(self, progress: AnalysisProgress) -> None:
        self.engine_label.setText(progress.engine_name)
        self.progress_bar.setMaximum(max(1, progress.total))
        self.progress_bar.setValue(progress.done)
        stage = f" · {progress.stage}" if progress.stage else ""
        self.progress_bar.setFormat(f"{progress.done}/{progress.total} positions{stage}")
        self.progress_bar.show()
        self.rate_label.setText(f"{progress.positions_per_s:.1f} pos/s" if progress.positions_per_s else "")
        self.eta_label.setText("")
        self._analysis_state = self._analysis_state.running(progress.done, progress.total, progress.eta_s)
        self._show_analysis_state()

    def _on_analysis_failed(self, message: str) -> None:
        self._analysis_state = self._analysis_state.failed(message)
        kind = self._current_kind()
        actions: tuple[str, ...] = ()
        if kind == "chess" and _engine_missing(message):
            actions = ("locate-engine", "install-stockfish")
        self.message_bar.replace(
            Message(key="analysis-failed", level="error", text=f"The analysis failed: {message}", actions=actions, scope="app")
        )
        self._show_analysis_state()

    def _on_analysis_finished(self, completed: bool) -> None:
        self._update_enabled()
        self.rate_label.setText("")
        self.eta_label.setText("")
        self.progress_bar.hide()
        self._analysis_state = self._analysis_state.finished(completed)
        self._show_analysis_state()
        try:
            if self.session.assessment_settled:
                self._refresh_views()
            else:  # the last evaluations are still being scored: score them now, once
                self.session.settle_assessment()  # the views follow on assessment_changed
        finally:
            self.analysis_finished.emit(completed)


    def _on_engine_warning(self, text: str) -> None:
        self.message_bar.add(Message(key=f"game:engine:{text}", level="warning", text=text))

    def _show_analysis_state(self) -> None:
        """Running (with its ETA), stopped, done or failed (why): in the status bar and the summary."""
        coverage = self.session.basis.coverage if self.session.game is not None else None
        text = state_text(self._analysis_state, coverage)
        self.state_label.setText(text)
        self.summary_panel.set_state(text, self._analysis_state.phase, coverage, self.session.basis.trust)

    # ------------------------------------------------------------ messages and their actions
    def _on_message_action(self, key: str, action: str) -> None:
        if action == "locate-engine":
            self.locate_engine()
        elif action == "install-stockfish":
            self.install_stockfish()

    def locate_engine(self, path: str | None = None) -> None:
        """Ask for a chess engine program; it is used once it answers `uci` (checked off the GUI thread)."""
        if path is None:
            path, _filter = QFileDialog.getOpenFileName(self, "Locate a UCI chess engine", "/usr/games", "All files (*)")
        if not path:
            return
        from reviewer.gui.engine_actions import check_uci_engine

        task = self.tasks.submit(check_uci_engine, path)
        self._pending_tasks[task] = ("locate", path)
        self.statusBar().showMessage(f"Checking {Path(path).name}…")

    def install_stockfish(self) -> None:
        """Run Reviewer's Stockfish installer off the GUI thread."""
        from reviewer.gui.engine_actions import install_stockfish_now

        task = self.tasks.submit(install_stockfish_now)
        self._pending_tasks[task] = ("install-stockfish", None)
        self.message_bar.replace(Message(key="install-stockfish", level="info", text="Installing Stockfish…", scope="app"))

    def _on_engine_located(self, path: str, name: str) -> None:
        import shlex

        self.set_engine_choice(EngineChoice(kind="chess", command=shlex.quote(path)))
        self.message_bar.remove("analysis-failed")
        self.message_bar.replace(
            Message(key="engine-located", level="info", text=f"Chess engine set: {name} ({path}). Press Analyse.", scope="app")
        )

    def _on_stockfish_installed(self, result: tuple[bool, str]) -> None:
        ok, message = result
        self.message_bar.remove("install-stockfish")
        if ok:
            self.message_bar.remove("analysis-failed")
            self._known_engines = []
            self._discovery_started = False
            self._discover_engines()
        self.message_bar.replace(
            Message(key="stockfish-installed", level="info" if ok else "error", text=message, scope="app")
        )

    # ------------------------------------------------------------------- the analysis cache
    def _remember_engine_identity(self, choice: EngineChoice, identity: str) -> None:
        self.settings.set_engine_identity(choice, identity)
        self._update_engine_controls()

    def _look_up_cached_analysis(self, game: Game) -> None:
        """Show at once what the cache already holds for this game from the chosen engine and
        limit (looked up off the GUI thread); `cache_checked` tells how much it found."""
        choice, limit = self.engine_choice(game.kind), self.limit(game.kind)
        identities = [self.settings.engine_identity(choice), *self._likely_identities(choice)]
        known = tuple(identity for identity in identities if identity)
        with_builtin = self._resolves_to_builtin(choice)
        task = self.tasks.submit(_cached_analysis, game, choice, known, with_builtin, limit)
        self._pending_tasks[task] = ("cache", (game, choice, limit))

    def _chosen_engine_info(self, choice: EngineChoice) -> EngineInfo | None:
        """The discovered engine that `choice` will run (as `registry.open_engine` picks it)."""
        if choice.command:
            return None
        usable = [engine for engine in self._known_engines if engine.kind == choice.kind and engine.usable]
        if choice.name:
            return next((engine for engine in usable if engine.name.lower() == choice.name.lower()), None)
        preferred = ("uci",) if choice.kind == "chess" else ("katago", "builtin")
        for protocol in preferred:
            for engine in usable:
                if engine.protocol == protocol:
                    return engine
        return None

    def _likely_identities(self, choice: EngineChoice) -> list[str]:
        """What the chosen engine will most likely call itself, from what discovery found."""
        engine = self._chosen_engine_info(choice)
        if engine is None or not engine.version:
            return []
        if engine.protocol == "uci":
            return [engine.version]  # the engine's `id name`, e.g. "Stockfish 15.1"
        if engine.protocol == "katago":
            model = re.search(r"\(model ([^)]+)\)", engine.detail)
            return [f"KataGo {engine.version}" + (f" {model.group(1)}" if model else "")]
        return []

    def _resolves_to_builtin(self, choice: EngineChoice) -> bool:
        if choice.kind != "go" or choice.command:
            return False
        if choice.name:
            return choice.name.lower() == "builtin"
        engine = self._chosen_engine_info(choice)
        return engine is None or engine.protocol == "builtin"

    def _on_cached_analysis(self, game: Game, choice: EngineChoice, limit: Limit, found: Any) -> None:
        count = 0
        if found is not None and self.session.game is game and not self.analysis.is_running():
            identity, evaluations = found
            self.session.add_evaluations(evaluations)
            count = len(evaluations)
            self.settings.set_engine_identity(choice, identity)  # it matched: no guessing next time
            self.engine_label.setText(engine_display_name(identity))  # also the engine an export names
            self._update_engine_controls()
            total = self.session.ply_count + 1
            self.statusBar().showMessage(
                f"From the analysis cache: {count} of {total} positions ({describe_limit(limit)})", 6000
            )
        self.cache_checked.emit(count)

    # --------------------------------------------------------------------------- engine menu
    def _warm_up(self) -> None:
        """Load the opening table off the GUI thread before the first scoring needs it.

        Not at once: it competes with opening the first game for the interpreter.
        """
        if not self._warmed_up:
            self._warmed_up = True
            self.tasks.submit(_load_opening_book)
        self._discover_engines()

    def _discover_engines(self) -> None:
        """Look for engines once (in the warm-up, or when the engine menu opens first): asking
        each engine its version costs processes and imports that opening a game should not wait for."""
        if not self._discovery_wanted or self._discovery_started:
            return
        self._discovery_started = True
        task = self.tasks.submit(_find_engines)
        self._pending_tasks[task] = ("engines", None)

    def _fill_engine_menu(self) -> None:
        self._discover_engines()
        self.engine_menu.clear()
        kind = self._current_kind()
        current = self.engine_choice(kind)
        found = [engine for engine in self._known_engines if engine.kind == kind]
        for engine in found:
            action = self.engine_menu.addAction(engine_label(engine))
            action.setCheckable(True)
            action.setChecked(not current.command and current.name == engine.name)
            action.setEnabled(engine.usable)
            action.setToolTip(engine.detail)
            action.setStatusTip(engine.detail)
            action.triggered.connect(
                lambda _checked=False, n=engine.name: self.set_engine_choice(EngineChoice(kind=kind, name=n))  # type: ignore[arg-type]
            )
        if not found:
            self.engine_menu.addAction("Looking for engines…" if self._engines_pending else "No engine found").setEnabled(
                False
            )
        if current.command:
            action = self.engine_menu.addAction(f"Custom: {current.command}")
            action.setCheckable(True)
            action.setChecked(True)
        self.engine_menu.addSeparator()
        self.engine_menu.addAction(self.engine_manager_action)
        self.engine_menu.addAction(self.settings_action)

    def _engine_text(self, choice: EngineChoice) -> str:
        """What the engine button says: the engine that will run, as discovery names it (or as
        it named itself when it last ran, while discovery is under way)."""
        if choice.command:
            return choice.describe()
        usable = [engine for engine in self._known_engines if engine.kind == choice.kind and engine.usable]
        if choice.name is not None:
            usable = [engine for engine in usable if engine.name.lower() == choice.name.lower()]
        if usable:
            return engine_label(usable[0])
        identity = self.settings.engine_identity(choice)
        if identity:  # name and version: "Stockfish 15.1", "KataGo 1.18.1", "builtin-go 1.0"
            words = engine_display_name(identity).split()[:2]
            return " ".join(["Built-in" if words[0] == "builtin-go" else words[0], *words[1:]])
        return choice.describe()

    def _update_engine_controls(self) -> None:
        kind = self._current_kind()
        choice = self.engine_choice(kind)
        self.engine_button.setText(f"{self._engine_text(choice)} ▾")
        limit = self.limit(kind)
        self.limit_combo.blockSignals(True)
        self.limit_combo.clear()
        current_index = -1
        for index, option in enumerate(limit_choices(kind)):  # type: ignore[arg-type]
            self.limit_combo.addItem(option.label, option.limit)
            if option.limit == limit:
                current_index = index
        if current_index < 0:
            self.limit_combo.addItem(f"Custom · {describe_limit(limit)}", limit)
            current_index = self.limit_combo.count() - 1
        self.limit_combo.addItem("Custom…", None)
        self.limit_combo.setCurrentIndex(current_index)
        self.limit_combo.blockSignals(False)

    def _on_limit_chosen(self, index: int) -> None:
        limit = self.limit_combo.itemData(index)
        if limit is None:
            self._update_engine_controls()
            self.show_settings()
            return
        self.set_limit(self._current_kind(), limit)

    # ------------------------------------------------------------------------------- preset
    def set_preset(self, preset: str) -> None:
        self.settings.preset = preset
        self.session.set_preset(preset)
        self.preset_combo.setCurrentIndex(PRESETS.index(preset))
        for action in self.preset_group.actions():
            action.setChecked(action.text() == _preset_label(preset))

    # --------------------------------------------------------------------------- navigation
    def _jump_flagged(self, direction: int) -> None:
        if not self.session.go_to_next_flagged(direction):
            word = "next" if direction > 0 else "previous"
            self.statusBar().showMessage(f"No {word} inaccuracy, mistake or blunder", 2000)

    def _jump_to_judgement(self, color: str, judgement: str) -> None:
        """Cycle through `color`'s moves with `judgement` (a click on a count in the summary)."""
        plies = self.session.flagged_plies((judgement,), color)
        if not plies:
            return
        here = self.session.current_ply if self.session.current_is_mainline else -1
        later = [ply for ply in plies if ply > here]
        self.session.set_current_ply(later[0] if later else plies[0])

    @Slot()
    def toggle_flip(self) -> None:
        self._flipped = not self._flipped
        self.flip_action.setChecked(self._flipped)
        for board in (self.chess_board, self.go_board):
            if board is not None and hasattr(board, "set_flipped"):
                board.set_flipped(self._flipped)
        self.eval_bar.set_flipped(self._flipped)
        self._update_player_strips()

    @Slot()
    def toggle_fullscreen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self.fullscreen_action.setChecked(self.isFullScreen())

    @Slot()
    def toggle_dark(self) -> None:
        dark = self.dark_action.isChecked()
        self.settings.dark_theme = dark
        from reviewer.gui.app import apply_theme

        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, dark)
        for widget in (self.eval_graph, self.summary_panel, self.move_list, self.chess_board, self.go_board):
            if widget is not None and hasattr(widget, "set_dark"):
                widget.set_dark(dark)
        self._refresh_views()

    def set_graph_mode(self, mode: str) -> None:
        kind = self._current_kind()
        if kind == "chess":
            self.settings.graph_mode_chess = "win" if mode == "win" else "cp"
        else:
            self.settings.graph_mode_go = "winrate" if mode == "win" else "lead"
        self._refresh_views()

    def _graph_mode(self, kind: str) -> str:
        return self.settings.graph_mode_chess if kind == "chess" else self.settings.graph_mode_go

    # ------------------------------------------------------------------------------- dialogs
    @Slot()
    def show_settings(self) -> None:
        from reviewer.gui.dialogs.settings_dialog import SettingsDialog

        kind = self._current_kind()
        dialog = SettingsDialog(
            kind=kind,  # type: ignore[arg-type]
            engines=self._known_engines,
            engine=self.engine_choice(kind),
            limit=self.limit(kind),
            preset=self.session.preset,
            parent=self,
        )
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.set_engine_choice(dialog.engine_choice())
            self.set_limit(kind, dialog.limit())
            self.set_preset(dialog.preset())

    def show_engine_manager(self, install: str | None = None) -> Any:
        """The engine manager over this window; `install` ("stockfish"/"katago") starts that install."""
        from reviewer.gui.dialogs.engine_manager import open_engine_manager

        dialog = open_engine_manager(self, self.settings, self._current_kind(), install)  # type: ignore[arg-type]
        dialog.engines_changed.connect(self.refresh_engines)
        dialog.default_chosen.connect(self.set_engine_choice)
        return dialog

    def refresh_engines(self) -> None:
        """Look for engines again (one was added, removed or installed)."""
        self._discovery_wanted, self._discovery_started, self._engines_pending = True, False, True
        self._discover_engines()

    @Slot()
    def show_shortcuts(self) -> None:
        from reviewer.gui.dialogs.shortcuts import ShortcutsDialog

        ShortcutsDialog(SHORTCUTS, self).exec()

    @Slot()
    def show_about(self) -> None:
        from reviewer.gui.dialogs.about import AboutDialog

        AboutDialog(self).exec()

    @Slot()
    def show_players(self) -> None:
        try:
            from reviewer.gui.players_window import PlayersWindow
        except ImportError:
            self.statusBar().showMessage("The players window is not available in this build", 5000)
            return
        if self._players_window is None:
            self._players_window = PlayersWindow()  # a window of its own; closed with this one
        self._players_window.show()
        if QGuiApplication.platformName() != "offscreen":  # nothing to raise without a screen
            self._players_window.raise_()
            self._players_window.activateWindow()

    # ------------------------------------------------------------------------------- updates
    def _on_game_loaded(self) -> None:
        game = self.session.game
        assert game is not None
        self._ensure_board(game.kind)
        self.move_list.set_game(game)
        self.summary_panel.show()
        self._ensure_graph().show()
        self._update_engine_controls()
        mode_action = self.graph_mode_actions["win" if self._graph_mode(game.kind) in ("win", "winrate") else "cp"]
        mode_action.setChecked(True)
        self.progress_bar.hide()
        self.engine_label.setText("")  # no engine has analysed this game yet
        self.message_bar.new_game()
        for index, warning in enumerate(game.warnings):
            self.message_bar.add(game_warning(index, warning))
        self.move_list.set_problems(problem_plies(game))
        self._analysis_state = AnalysisState()
        self._update_enabled()  # the views follow on the session's assessment_changed

    def _on_current_changed(self, node: Node) -> None:
        self._show_current(node)

    def _show_current(self, node: Node) -> None:
        game = self.session.game
        if game is None:
            return
        ply = node.ply if node.is_mainline else None
        if game.kind == "chess" and self.chess_board is not None:
            self._show_chess(game, node, ply)
        elif game.kind == "go" and self.go_board is not None:
            self._show_go(game, node, ply)
        self.move_list.set_current_node(node)
        if self.eval_graph is not None:
            self.eval_graph.set_current_ply(_mainline_anchor(node))
        self.comment_view.setHtml(themed_html(comment_html(self.session, node)))

    def _show_chess(self, game: Game, node: Node, ply: int | None) -> None:
        from reviewer.core.games.chess import board_after as chess_board_at
        from reviewer.gui.board.chess_board import Arrow

        board = chess_board_at(game, node)
        last_move = board.peek() if board.move_stack else None
        self.chess_board.set_position(board, last_move)
        evaluation = self.session.evaluations.get(ply) if ply is not None else None
        self.chess_board.set_arrows(chess_arrows(board, evaluation, Arrow))
        judgement = self._judgement_at(ply)
        if last_move is not None:
            self.chess_board.set_move_badge(last_move.to_square, judgement)
        else:
            self.chess_board.set_move_badge(None, None)

    def _show_go(self, game: Game, node: Node, ply: int | None) -> None:
        from reviewer.core.games.go import position_after as go_position_at
        from reviewer.gui.board.go_board import CandidateMark

        position = go_position_at(game, node)
        self.go_board.set_position(position)
        evaluation = self.session.evaluations.get(ply) if ply is not None else None
        marks = go_candidate_marks(game, position.to_move, evaluation, CandidateMark)
        self.go_board.set_candidates(marks, rough=not self.session.basis.trust.labels)
        self.go_board.set_best_move(next((mark.point for mark in marks if mark.is_best), None))
        self.go_board.set_move_badge(node.point, self._judgement_at(ply))

    def _judgement_at(self, ply: int | None) -> str | None:
        if ply is None or ply == 0:
            return None
        move = self.session.move_assessment(ply)
        return move.judgement if move is not None else None

    def _schedule_refresh(self) -> None:
        """Refresh now, or - while evaluations stream in - at most every `_refresh_timer` interval."""
        if self.analysis.is_running():
            if not self._refresh_timer.isActive():
                self._refresh_timer.start()
        else:
            self._refresh_views()

    def _refresh_views(self) -> None:
        """Redraw everything derived from the assessment: graph, summary, move labels, board, comment."""
        self._refresh_timer.stop()
        if self.session.game is None:
            return
        started = time.perf_counter()
        self._redraw_assessment()
        # A long game costs more to score and draw; keep the GUI thread mostly free meanwhile.
        spent_ms = (time.perf_counter() - started) * 1000
        self._refresh_timer.setInterval(int(min(MAX_REFRESH_MS, max(1000 // REFRESH_HZ, 4 * spent_ms))))

    def _redraw_assessment(self) -> None:
        game = self.session.game
        assert game is not None
        assessment = self.session.assessment
        if self.session.assessment_error:
            self.message_bar.add(Message(key=f"game:scoring:{self.session.assessment_error}", level="error", text=self.session.assessment_error))
        judgements = self.session.judgements()
        self.move_list.set_judgements(judgements)
        mode = self._graph_mode(game.kind)
        basis = self.session.basis
        evals, losses = graph_series(game, self.session.evaluations.by_ply, assessment, mode)
        graph = self._ensure_graph()
        graph.set_series(game.kind, evals, losses, judgements, mode, ply_count=self.session.ply_count)
        graph.set_coverage(basis.coverage.missing_plies if basis.coverage.analysed else (), rough=not basis.trust.labels)
        graph.set_point_texts(graph_point_texts(game, self.session.mainline_node, self.session.evaluations, self.session.ply_count))
        white, black = summary_dicts(assessment)
        self.summary_panel.set_summary(game.kind, white, black, (game.white or "White", game.black or "Black"))
        self._show_analysis_state()
        self.header_label.setText(themed_html(header_html(game, assessment)))
        self._update_player_strips()
        node = self.session.current_node
        if node is not None:
            self._show_current(node)

    def _update_player_strips(self) -> None:
        game = self.session.game
        if game is None:
            self.top_player.hide()
            self.bottom_player.hide()
            return
        assessment = self.session.assessment
        coverage = self.session.basis.coverage
        partial = coverage.analysed and not coverage.complete
        white = (game.white or "White", game.white_rank, _side_accuracy(assessment, "white"), partial)
        black = (game.black or "Black", game.black_rank, _side_accuracy(assessment, "black"), partial)
        # Chess shows White at the bottom, Go (KaTrain-style) Black at the bottom; flipping swaps.
        bottom_is_white = (game.kind == "chess") != self._flipped
        top, bottom = (black, white) if bottom_is_white else (white, black)
        self.top_player.set_player("black" if bottom_is_white else "white", *top)
        self.bottom_player.set_player("white" if bottom_is_white else "black", *bottom)
        self.top_player.show()
        self.bottom_player.show()
        self.board_and_panel.relayout()

    def _update_enabled(self) -> None:
        has_game = self.session.game is not None
        running = self.analysis.is_running()
        self.analyse_action.setEnabled(has_game)
        self.analyse_action.setText("Stop" if running else "Analyse")
        self.analyse_action.setIcon(_media_icon(running))
        self.analyse_action.setToolTip(
            "Stop the analysis (Space)" if running else "Analyse the game with the engine (Space)"
        )
        self.export_action.setEnabled(has_game)
        collection = self.session.collection
        self.choose_game_action.setEnabled(collection is not None and len(collection) > 1)
        self.preset_combo.setEnabled(self._current_kind() == "chess")
        for action in (
            self.previous_action,
            self.next_action,
            self.start_action,
            self.end_action,
            self.next_mistake_action,
            self.previous_mistake_action,
        ):
            action.setEnabled(has_game)

    def _show_welcome(self) -> None:
        recent = [path for path in self.settings.recent_files() if Path(path).is_file()][:6]
        links = "".join(
            f"<div style='margin-top:4px'><a href='{index}'>{_escape(Path(path).name)}</a></div>"
            for index, path in enumerate(recent)
        )
        self._welcome_files = recent
        self.welcome_label.setText(themed_html(
            "<div style='font-size:15pt; font-weight:600'>Open a game to review</div>"
            "<div style='margin-top:8px'>Ctrl+O, or drop a PGN or SGF file here</div>"
            + (f"<div style='margin-top:22px; color:gray'>Recent files</div>{links}" if links else "")
        ))
        self.summary_panel.hide()
        if self.eval_graph is not None:
            self.eval_graph.hide()
        self.top_player.hide()
        self.bottom_player.hide()
        self.board_and_panel.relayout()
        self.header_label.setText("")
        self.comment_view.setHtml("")

    # ------------------------------------------------------------------------------- tasks
    def _on_task_done(self, task_id: int, result: Any) -> None:
        what, payload = self._pending_tasks.pop(task_id, ("", None))
        if what == "locate":
            self._on_engine_located(payload, result)
        elif what == "install-stockfish":
            self._on_stockfish_installed(result)
        elif what == "collection":
            path, game_index = payload
            self._on_collection_read(path, game_index, result)
        elif what == "game":
            path, collection, index = payload
            game, embedded = result
            self._on_game_read(path, collection, index, game, embedded)
        elif what == "export":
            self.statusBar().showMessage(f"Wrote {payload}", 6000)
            self.export_finished.emit(str(payload))
        elif what == "engines":
            self._known_engines = list(result or [])
            self._engines_pending = False
            self._update_engine_controls()
            game = self.session.game
            if game is not None and len(self.session.evaluations) == 0 and not self.analysis.is_running():
                self._look_up_cached_analysis(game)  # now the engine's name is known
        elif what == "cache":
            game, choice, limit = payload
            self._on_cached_analysis(game, choice, limit, result)

    def _on_task_failed(self, task_id: int, message: str) -> None:
        what, payload = self._pending_tasks.pop(task_id, ("", None))
        if what in ("collection", "game"):
            self._open_failed(message)
        elif what == "export":
            self.message_bar.add(Message(key=f"export:{payload}:{message}", level="error", text=f"Could not write {payload}: {message}", scope="app"))
        elif what == "locate":
            self.message_bar.replace(Message(key="engine-located", level="error", text=f"Not used: {message}", actions=("locate-engine",), scope="app"))
        elif what == "install-stockfish":
            self._on_stockfish_installed((False, message))
        elif what == "engines":
            self._known_engines = []
            self._engines_pending = False
        elif what == "cache":  # an unreadable cache only means analysing again
            self.message_bar.add(
                Message(key=f"game:cache:{message}", level="warning",
                        text=f"The analysis cache could not be read ({message}): the game will be analysed again.")
            )
            self.cache_checked.emit(0)

    # ------------------------------------------------------------------------ window state
    def _restore_geometry(self) -> None:
        geometry = self.settings.window_state("geometry") if self._remember_layout else None
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1400, 900)

    def save_window_state(self) -> None:
        self.settings.set_window_state("geometry", self.saveGeometry())
        if self.eval_graph is not None:
            self.settings.set_window_state("main-splitter", self.main_splitter.saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._remember_layout:
            self.save_window_state()
        self.analysis.shutdown(timeout_s=3.0)
        self.analysis_board.close()
        self.retro.close()
        if self._train_window is not None:
            self._train_window.close_deck()
            self._train_window.close()
        self.assessor.shutdown(timeout_s=2.0)
        self.tasks.shutdown(timeout_s=5.0)
        if self._players_window is not None:
            self._players_window.close()
        super().closeEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.WindowStateChange:
            self.fullscreen_action.setChecked(self.isFullScreen())
        super().changeEvent(event)


# ------------------------------------------------------------------------------ layout parts
def _media_icon(running: bool) -> QIcon:
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


class _PlayerStrip(QWidget):
    """One player above or below the board: a stone/colour chip, the name, rank and accuracy."""

    CHIP = 14

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._color = "white"
        self.label = QLabel(self)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(self.CHIP + 10, 2, 2, 2)
        layout.addWidget(self.label)
        self.setFixedHeight(28)

    def set_player(self, color: str, name: str, rank: str, accuracy: float | None, partial: bool = False) -> None:
        self._color = color
        rank_text = f" <span style='color:gray'>({_escape(rank)})</span>" if rank else ""
        accuracy_text = (
            f"&nbsp;&nbsp;<span style='color:gray'>accuracy</span> <b>{accuracy:.1f}%</b>" if accuracy is not None else ""
        )
        if accuracy is not None and partial:
            accuracy_text += " <span style='color:gray'>(partial analysis)</span>"
        self.label.setText(themed_html(f"<b>{_escape(name)}</b>{rank_text}{accuracy_text}"))
        self.update()

    def paintEvent(self, event: Any) -> None:
        painter = QPainter(self)
        center = QPointF(4 + self.CHIP / 2, self.height() / 2)
        paint_stone_icon(painter, center, self.CHIP / 2 - 0.5, self._color, is_dark_palette(self.palette()))
        painter.end()


class _BoardColumn(QWidget):
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


class _BoardAndPanel(QWidget):
    """Gives the board column a square's width of the height and the right panel the rest."""

    RIGHT_MIN = 380
    GAP = 14

    def __init__(self, board_column: _BoardColumn, panel: QWidget, parent: QWidget | None = None) -> None:
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


# ---------------------------------------------------------------------- what the views show
def _graph_loss(game: Game, move: Any) -> float | None:
    """Chess: the mover's drop in win % (what the judgements read); Go: points lost."""
    if game.kind == "go":
        return None if move.loss is None else float(move.loss)
    if move.win_pct_before is None or move.win_pct_after is None:
        return None
    sign_mover = 1.0 if move.color == "white" else -1.0
    return max(0.0, sign_mover * (move.win_pct_before - move.win_pct_after))


def graph_series(
    game: Game, evaluations: dict[int, Evaluation], assessment: Any, mode: str
) -> tuple[dict[int, float], dict[int, float]]:
    """Position values by ply in the graph's unit, and each move's loss by ply (see _graph_loss).

    Chess: E(P) (normalised centipawns, White's view) in every mode; Go: S(P) (lead, Black's
    view) in "lead" mode, W(P) (winrate, Black's view) in "winrate" mode.
    """
    losses = {
        move.ply: loss for move in getattr(assessment, "moves", ()) or () if (loss := _graph_loss(game, move)) is not None
    }
    evals: dict[int, float] = {}
    for ply, evaluation in evaluations.items():
        if game.kind == "go" and mode == "winrate":
            value = evaluation.winrate_black
        else:
            value = _position_value(game, evaluation)
        if value is not None:
            evals[ply] = float(value)
    return evals, losses


def _position_value(game: Game, evaluation: Evaluation) -> float | None:
    """E(P) for chess (normalised centipawns, White's view), S(P) for Go (lead, Black's view)."""
    if game.kind == "go":
        return evaluation.score_lead_black
    return normalised_cp_white(evaluation)


def summary_dicts(assessment: Any) -> tuple[dict | None, dict | None]:
    if assessment is None:
        return None, None
    summary = getattr(assessment, "summary", {}) or {}
    white, black = summary.get("white"), summary.get("black")
    return (white.to_json() if white is not None else None, black.to_json() if black is not None else None)


def _side_accuracy(assessment: Any, color: str) -> float | None:
    summary = (getattr(assessment, "summary", {}) or {}).get(color) if assessment is not None else None
    return getattr(summary, "accuracy", None)


def chess_arrows(board: chess.Board, evaluation: Evaluation | None, arrow_type: Any) -> list[Any]:
    """The engine's candidate moves in the position on the board, best first and widest."""
    if evaluation is None or board.is_game_over():
        return []
    moves: list[tuple[int, str]] = [(c.order, c.move) for c in evaluation.candidates[:3]]
    if not moves and evaluation.best_move:
        moves = [(0, evaluation.best_move)]
    arrows = []
    for order, san in sorted(moves, reverse=True):  # the best arrow is drawn last, on top
        try:
            move = board.parse_san(san)
        except ValueError:
            continue
        colour = BEST_ARROW if order == 0 else CANDIDATE_ARROW
        arrows.append(arrow_type(move.from_square, move.to_square, colour, 0.2 if order == 0 else 0.11))
    return arrows


def go_candidate_marks(game: Game, to_move: str, evaluation: Evaluation | None, mark_type: Any) -> list[Any]:
    """KaTrain-style marks for the engine's candidate moves, with the points each one loses."""
    if evaluation is None or not evaluation.candidates:
        return []
    sign = 1 if to_move == "black" else -1
    root_lead = evaluation.score_lead_black
    most_visits = max((c.visits or 0 for c in evaluation.candidates), default=0)
    marks = []
    for candidate in evaluation.candidates:
        if candidate.move.lower() == "pass":
            continue
        if candidate.order > 0 and candidate.visits is not None and candidate.visits < max(2, 0.02 * most_visits):
            continue  # too few visits for its value to mean anything
        try:
            point = point_from_gtp(candidate.move, game.board_height)
        except ValueError:
            continue
        loss = None
        if root_lead is not None and candidate.score_lead_black is not None:
            loss = max(0.0, sign * (root_lead - candidate.score_lead_black))
        marks.append(mark_type(point, loss, candidate.visits, candidate.order == 0, candidate.order))
    return marks


def format_eval(kind: str, value: float | None) -> str:
    """'+0.41' (pawns, White's view) / 'B+2.5' (points for the leader); a value at the mate bound
    has lost its distance: give the evaluation to `score_text` where there is one."""
    return value_text(kind, value)


def graph_point_texts(game: Game, node_at: Any, evaluations: EvaluationTable, ply_count: int) -> dict[int, str]:
    """The graph's tooltip at each ply: the move and the score after it, mates with their distance."""
    texts: dict[int, str] = {}
    offset = 0 if game.first_player == "white" else 1
    for ply in range(ply_count + 1):
        node = node_at(ply)
        if ply == 0:
            where = "Start"
        elif game.kind == "chess":
            dots = ". " if node.color == "white" else "… "
            where = f"{(ply + offset + 1) // 2}{dots}{node.move or ''}"
        else:
            where = f"{ply}. {node.move or ''}"
        evaluation = evaluations.get(ply)
        texts[ply] = f"{where}  {score_text(game.kind, evaluation) if evaluation is not None else 'not analysed'}"
    return texts


def _engine_missing(message: str) -> bool:
    """The analysis failed because no usable chess engine was found (the registry's words)."""
    lowered = message.lower()
    return any(words in lowered for words in ("no chess engine", "is not installed", "does not work", "not found"))


def _numbered_line(game: Game, from_ply: int, moves: Sequence[str], first_mover: str | None) -> str:
    """'12. Nf3 Nc6 13. Bb5' for chess; 'Q16 D4 R4' for Go."""
    if game.kind != "chess":
        return " ".join(moves)
    parts: list[str] = []
    move_number = from_ply // 2 + 1 if game.first_player == "white" else (from_ply + 1) // 2 + 1
    white_to_move = first_mover == "white"
    for index, san in enumerate(moves):
        if white_to_move:
            parts.append(f"{move_number}. {san}")
        elif index == 0:
            parts.append(f"{move_number}… {san}")
        else:
            parts.append(san)
        if not white_to_move:
            move_number += 1
        white_to_move = not white_to_move
    return " ".join(parts)


def comment_html(session: ReviewSession, node: Node) -> str:
    """What the comment pane says about the move that led to `node` and the position after it."""
    game = session.game
    if game is None:
        return ""
    parts: list[str] = []
    ply = node.ply if node.is_mainline else None
    move = session.move_assessment(ply) if ply else None
    if node.move:
        mover = node.color or ""
        number = _move_number_text(game, node)
        parts.append(f"<div style='font-size:12pt'><b>{number}{_escape(node.move)}</b>"
                     f"<span style='color:gray'> · {mover}</span></div>")
    elif node.parent is None and session.evaluations.get(0) is not None:
        parts.append("<div style='font-size:12pt'><b>Start position</b></div>")
    said = verdict(game.kind, move, session.evaluations.get(ply - 1), session.evaluations.get(ply)) if move and ply else None
    if move is not None and said is not None:
        colour = judgement_color(move.judgement).name()
        sentence = f"{_escape(said.change)} <b style='color:{colour}'>{_escape(said.title)}.</b>"
        if said.best:
            sentence += f" <b>{_escape(said.best)}</b> was best."
        if said.detail:
            sentence += f" <span style='color:gray'>{_escape(said.detail)}</span>"
        before = session.evaluations.get(ply - 1) if ply else None
        judged_in = _pass_of_move(before, session.evaluations.get(ply) if ply else None)
        if judged_in:
            sentence += f" <span style='color:gray'>({_escape(judged_in)})</span>"
        parts.append(f"<div style='margin-top:4px'>{sentence}</div>")
        if move.judgement in FLAGGED_JUDGEMENTS and before is not None and before.pv:
            line = _numbered_line(game, ply - 1, before.pv[:8], move.color)
            parts.append(f"<div style='margin-top:4px; color:gray'>Best line: {_escape(line)}</div>")
    elif move is not None and ply and not session.basis.trust.labels and move.eval_after is not None:
        before, after = session.evaluations.get(ply - 1), session.evaluations.get(ply)
        change = f"({score_text(game.kind, before, move.eval_before)} → {score_text(game.kind, after, move.eval_after)})"
        parts.append(f"<div style='margin-top:4px'>{_escape(change)} <span style='color:gray'>rough estimate, "
                     "no label</span></div>")
    here = session.evaluations.get(ply) if ply is not None else None
    if here is not None and here.best_move:
        value = _position_value(game, here)
        mover = _to_move_at(game, node)
        line = _numbered_line(game, node.ply, here.pv[:8] or (here.best_move,), mover)
        rough = " (rough estimate)" if not session.basis.trust.labels else ""
        parts.append(
            f"<div style='margin-top:4px; color:gray'>Engine{rough} {_escape(score_text(game.kind, here, value))}"
            f" · {_escape(line)}</div>"
        )
        others = _candidate_losses(game, here, mover)
        if others:
            parts.append(f"<div style='color:gray'>Also: {_escape(others)}</div>")
    own_comment = _readable_comment(node.comment)
    if own_comment:
        parts.append(f"<div style='margin-top:6px; font-style:italic'>{_escape(own_comment)}</div>")
    if not parts and node.parent is None:
        parts.append("<div style='color:gray'>Start position. Press → to step through the game, "
                     "Space to analyse it.</div>")
    return "".join(parts)


def _pass_of_move(before: Evaluation | None, after: Evaluation | None) -> str | None:
    """Which pass of a review in passes the deeper of a move's two evaluations came from."""
    known = [e for e in (before, after) if e is not None and e.review_pass is not None]
    if not known:
        return None
    deepest = max(known, key=lambda e: e.review_pass or 0)
    return pass_text(deepest.engine_id, deepest.review_pass)


def _candidate_losses(game: Game, evaluation: Evaluation, to_move: str) -> str:
    """'Nf3 −0.35 · c4 −0.60': the engine's other candidates and what each gives away."""
    best = evaluation.candidates[0] if evaluation.candidates else None
    texts: list[str] = []
    for candidate in evaluation.candidates[1:4]:
        loss = _candidate_loss(game, best, candidate, to_move)
        if loss is None:
            continue
        shown = f"{loss / 100:.2f}" if game.kind == "chess" else f"{loss:.1f}"
        texts.append(f"{candidate.move} −{shown}" if float(shown) > 0 else f"{candidate.move} ±0")
    return " · ".join(texts)


def _candidate_loss(game: Game, best: Any, candidate: Any, to_move: str) -> float | None:
    """How much worse than the engine's choice `candidate` is, from the side to move (cp / points)."""
    sign = 1 if (to_move == "white") == (game.kind == "chess") else -1
    if game.kind == "chess":
        if best.score_cp_white is None or candidate.score_cp_white is None:
            return None
        return max(0.0, sign * (best.score_cp_white - candidate.score_cp_white))
    if best.score_lead_black is None or candidate.score_lead_black is None:
        return None
    return max(0.0, sign * (best.score_lead_black - candidate.score_lead_black))


_COMMENT_COMMAND = re.compile(r"\[%[^\]]*\]")


def _readable_comment(comment: str) -> str:
    """A file's comment without the machine commands ([%eval], [%clk], [%cal] …) lichess embeds."""
    return " ".join(_COMMENT_COMMAND.sub(" ", comment).split())


def header_html(game: Game, assessment: Any) -> str:
    players = f"<b>{_escape(game.white or 'White')}</b> – <b>{_escape(game.black or 'Black')}</b>"
    if game.kind == "go":
        players = f"<b>{_escape(game.black or 'Black')}</b> (B) – <b>{_escape(game.white or 'White')}</b> (W)"
    details = [text for text in (game.result, game.event, game.date) if text and text not in ("?", "????.??.??")]
    if game.kind == "go":
        details.append(f"{game.board_width}×{game.board_height}")
        if game.komi is not None:
            details.append(f"komi {game.komi:g}")
    opening = getattr(assessment, "opening", None)
    if opening is not None:
        details.append(f"{opening.eco} {opening.name}")
    return f"{players}<br><span style='color:gray'>{_escape(' · '.join(details))}</span>"


def _move_number_text(game: Game, node: Node) -> str:
    if game.kind != "chess":
        return f"{node.ply}. "
    ply = node.ply
    offset = 0 if game.first_player == "white" else 1
    number = (ply + offset + 1) // 2
    return f"{number}. " if node.color == "white" else f"{number}… "


def _to_move_at(game: Game, node: Node) -> str:
    if node.color is not None:
        return "black" if node.color == "white" else "white"
    return game.first_player


def _mainline_anchor(node: Node) -> int:
    current: Node | None = node
    while current is not None and not current.is_mainline:
        current = current.parent
    return current.ply if current is not None else 0


def _player_line(game: Game) -> str:
    return f"{game.white or 'White'} – {game.black or 'Black'}"


def _preset_label(preset: str) -> str:
    return {"lichess": "lichess thresholds", "seed": "Strict thresholds"}.get(preset, preset)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")




_startup_frozen = False


def _freeze_startup_objects() -> None:
    """Once, when the app is built (the graph's libraries are the last to come): what exists now
    lives as long as the app, so keep it out of the garbage collector's full passes, which
    otherwise stall the GUI thread for ~50 ms each during an analysis."""
    global _startup_frozen
    if not _startup_frozen:
        _startup_frozen = True
        gc.freeze()


def _import_shared_dependencies() -> None:
    """Import here, on the GUI thread and before any worker starts, what a worker and the GUI
    would otherwise import at the same moment: two threads importing one package can leave one
    of them with a half-made module (colorama, imported by numba in the engine thread and by
    pyqtgraph for the graph, raised KeyError: 'colorama')."""
    try:
        import colorama.winterm  # noqa: F401
    except ImportError:
        pass


# -------------------------------------------------------------- work done off the GUI thread
def _read_collection(path: Path, first_games_only: bool = False) -> GameCollection:
    """The file's games; with `first_games_only`, a big PGN lists its first games now and the rest
    while the game chooser shows them."""
    from reviewer.core.formats import open_collection
    from reviewer.core.formats.pgn import FIRST_BATCH

    return open_collection(path, first_games=FIRST_BATCH if first_games_only else None)


def _read_game(collection: GameCollection, index: int) -> tuple[Game, tuple[Evaluation, ...]]:
    """Game `index` of the collection, with the analysis the file itself carries (if any)."""
    game = collection.game(index)
    carried = evaluations_from_game(game).ordered()
    if all(evaluation.terminal is not None for evaluation in carried):
        carried = []  # only game-over verdicts: nothing was analysed
    return game, tuple(carried)


def _cached_analysis(
    game: Game, choice: EngineChoice, identities: tuple[str, ...], with_builtin: bool, limit: Limit
) -> tuple[str, tuple[Evaluation, ...]] | None:
    """The cache's evaluations of `game` by the chosen engine, tried by every identity it may have."""
    remembered = remembered_identity(choice)
    if remembered:
        identities = (remembered, *identities)
    if with_builtin:
        identities = (*identities, builtin_go_identity())
    return cached_evaluations(game, identities, limit)


def _load_opening_book() -> None:
    from reviewer.core.openings import book

    book()


def _find_engines() -> list[EngineInfo]:
    import_go_engine_modules()  # discovery asks the built-in engine its version
    return list(find_engines())


def _write_export(
    path: Path, game: Game, evaluations: tuple[Evaluation, ...], assessment: Any, preset: str, engine: str
) -> Path:
    """The annotated game (.pgn / .sgf, by the game's kind) or the JSON report (.json)."""
    table = EvaluationTable()
    for evaluation in evaluations:
        table.add(evaluation)
    sources = [game.source.path]
    if path.suffix.lower() == ".json":
        report = build_report(game, table, assessment if assessment is not None else {"preset": preset}, engine or None)
        save_text(path, json.dumps(report, indent=2, ensure_ascii=False) + "\n", sources)
    else:
        save_annotated(path, [(game, table, engine or None)], sources, preset=preset)  # type: ignore[arg-type]
    return path
