"""The main window: board on the left, summary / moves / comment on the right, graph below.

The window creates the widgets and wires them to the one `ReviewSession`; it keeps no review state
of its own. What the views say comes from `gui.presenters`; the parts it composes: the actions,
menus and toolbar (`window_actions.WindowActions`, held as `commands`), the board column
(`BoardArea`), the panel beside it (`ReviewPanel`), the status area, files opened and exported
(`GameFiles`), the analysis run (`AnalysisController`), the dialogs (`WindowDialogs`) and the views
kept in step with the session (`ReviewViews`). Each part
takes the collaborators it needs (the session, the settings, the runners, widgets, small callables),
never the window.

The window's public API, by which the composition root (`gui.window.app`, `commands.gui`) drives a scripted
run and tests drive the window:
- `open_file`, `save`, `save_as`, `close_without_saving`, `export`, `start_analysis`, `set_live`,
  `show_lines` (live lines, ownership, policy), `shown_line_count`, `go_to_ply`, `play_line`, `restoring_lines`, and for one run's engine
  `set_engine_choice`, `set_limit` (with remember=False) and `session.model.set_preset`;
- its signals `file_opened`, `open_failed`, `export_finished`, `analysis_finished`, `analysis_failed`,
  `cache_checked`, `lines_shown`, `lines_restored`.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QMenu,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from reviewer.core.analysis import Limit
from reviewer.core.games import game_support
from reviewer.core.gametree import other_color
from reviewer.gui.analysis.analysis_board import AnalysisBoard
from reviewer.gui.analysis.board_area import BoardAndPanel, BoardArea
from reviewer.gui.common.message_bar import MessageBar
from reviewer.gui.common.session import ReviewSession, assess_safely
from reviewer.gui.common.settings import PRESETS, EngineChoice, Settings
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.common.window_size import resize_to_fit
from reviewer.gui.engines.analysis_controller import AnalysisController, EngineControls
from reviewer.gui.engines.status_area import StatusArea
from reviewer.gui.engines.workers import AnalysisRunner, AssessmentRunner
from reviewer.gui.files.game_files import WARM_UP_AFTER_OPEN_MS, GameFiles
from reviewer.gui.presenters.action_states import action_states
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.messages import (
    BoardCause,
    Message,
    board_key,
    board_message,
    board_note,
    file_warning,
    game_warning,
)
from reviewer.gui.presenters.move_problems import problem_plies
from reviewer.gui.presenters.text import preset_label
from reviewer.gui.review.review_panel import ReviewPanel
from reviewer.gui.review.review_views import ReviewViews, ReviewWidgets
from reviewer.gui.trainer.retro_panel import RetroController
from reviewer.gui.window.window_actions import (
    ActionSlots,
    apply_action_states,
    build_actions,
    build_menus,
    build_toolbar,
)
from reviewer.gui.window.window_dialogs import WindowDialogs

if TYPE_CHECKING:
    from reviewer.gui.review.eval_graph import EvalGraphWidget
    from reviewer.gui.review.time_chart import TimeChartWidget

GRAPH_DELAY_MS = 300  # after the first paint
WARM_UP_DELAY_MS = 2000  # unless a game is opened sooner (then `game_files.WARM_UP_AFTER_OPEN_MS`)
GRAPH_MIN_HEIGHT_PX = 84  # the curve and the loss bars still read at 900×600
TIME_CHART_MIN_HEIGHT_PX = 40


class MainWindow(QMainWindow):
    """The review window. `open_file` and `start_analysis` drive it from code and tests."""

    file_opened = Signal(str)  # path, once its game is on screen
    open_failed = Signal(str)  # one-line message
    export_finished = Signal(str)  # path written
    analysis_finished = Signal(bool)  # True when every position was analysed
    cache_checked = Signal(int)  # evaluations the analysis cache had for the game just opened
    analysis_failed = Signal(str)  # one-line message
    lines_shown = Signal(object)  # the live engine lines now on show (a LiveUpdate)
    lines_restored = Signal()  # the lines kept for the open game are back in its tree (or there were none)

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
        self.analysis.failed.connect(self.analysis_failed)
        self.tasks = Tasks(self)
        self.assessor = AssessmentRunner(assess_safely, self)
        self.session.model.set_background_assessor(self.assessor.request)
        self.assessor.ready.connect(self.session.accept_assessment)

        self.setWindowTitle("Reviewer")
        self.setAcceptDrops(True)
        self.setMinimumSize(900, 600)

        _import_shared_dependencies()
        self.message_bar = MessageBar(self)  # below the game's figures once the panel is made
        from reviewer.gui.files.game_saving import GameSaving

        self.saving = GameSaving(
            self.session, self.tasks, self.message_bar, self.statusBar().showMessage, self,
            before_save=lambda: self.comment_editor.commit(),
        )
        self.saving.title_changed.connect(self.setWindowTitle)
        self.files = GameFiles(
            self.session,
            self.settings,
            self.tasks,
            self.analysis.stop,
            self.export,
            self.message_bar,
            self.statusBar(),
            self,
            record_source=self.saving.record_source,
            may_leave=self.saving.may_leave_game,
        )
        self.files.title_changed.connect(self.saving.set_base_title)
        self.files.opened.connect(self._on_file_opened)
        self.files.open_failed.connect(self.open_failed)
        self.status_area = StatusArea(self.statusBar(), self)
        self.analysis_controller = AnalysisController(
            self.session,
            self.settings,
            self.analysis,
            self.tasks,
            self.message_bar,
            self.status_area,
            self.statusBar(),
            self,
            discover_engines,
        )
        self.analysis_controller.enabled_changed.connect(self._update_enabled)
        self.analysis_controller.analysis_finished.connect(self.analysis_finished)
        self.analysis_controller.cache_checked.connect(self.cache_checked)
        self.dialogs = WindowDialogs(
            self.session,
            self.settings,
            self.analysis_controller,
            self.answer_evaluator,
            self.set_preset,
            self.open_file,
            self.statusBar(),
            self,
            may_leave=self.saving.may_leave_game,
        )
        self._build_exports()
        slots = ActionSlots(
            choose_file=self.files.choose_file,
            choose_export=self.files.choose_export,
            choose_game=self.files.choose_game,
            show_players=self.dialogs.show_players,
            show_collection=self.dialogs.show_collection,
            show_settings=self.dialogs.show_settings,
            show_shortcuts=self.dialogs.show_shortcuts,
            show_about=self.dialogs.show_about,
            show_trainer=self.dialogs.show_trainer,
            show_engine_manager=self.dialogs.show_engine_manager,
            toggle_analysis=self.analysis_controller.toggle_analysis,
            jump_flagged=lambda step: self.views.jump_flagged(step),
            set_graph_mode=lambda mode: self.views.set_graph_mode(mode),
            toggle_flip=self.toggle_flip,
            toggle_fullscreen=self.toggle_fullscreen,
            toggle_dark=self.toggle_dark,
            pass_move=lambda: self.analysis_board.pass_move(),
            set_multipv=lambda count: self.analysis_board.set_multipv(count),
            set_move_numbers=lambda shown: self.analysis_board.set_move_numbers(shown),
            set_maps=lambda **maps: self.analysis_board.set_maps(**maps),
            set_threat=lambda checked: self.analysis_board.set_threat(checked),
            set_live=self.set_live,
            learn_from_mistakes=self.learn_from_mistakes,
            set_preset=self.set_preset,
            set_time_chart=lambda shown: self.views.set_time_chart_wanted(shown),
            set_up_position=lambda: self.dialogs.show_position_setup(),
            play_from_here=self.play_from_here,
            save=lambda: self.save(),
            save_as=lambda: self.save_as(),
            undo=self.undo,
            redo=self.redo,
        )
        self.commands = build_actions(self, self.session, slots)
        build_menus(self, self.session, slots, self.commands, self.exports, self.files.recent_menu)
        from reviewer.gui.review.annotate_menu import AnnotateMenu

        moves_menu = next((item for item in self.menuBar().actions() if item.text() == "&Moves"), None)
        self.annotate = AnnotateMenu(self, self.session, before=moves_menu)
        self.saving.saved.connect(lambda _path: self.annotate.break_chord())
        build_toolbar(self, self.session, slots, self.commands)
        self.analysis_controller.attach_engine_controls(
            EngineControls(
                self.commands.engine_button,
                self.commands.engine_menu,
                self.commands.limit_combo,
                (self.commands.engine_manager_action, self.commands.settings_action),
            )
        )
        self.analysis_controller.settings_wanted.connect(self.dialogs.show_settings)
        self._build_central()
        self.analysis_controller.state_shown.connect(self.summary_panel.set_state)
        status = self.status_area
        self.engine_label, self.progress_bar, self.state_label = status.engine_label, status.progress_bar, status.state_label
        self.rate_label, self.eta_label = status.rate_label, status.eta_label
        self.views = ReviewViews(
            self.session,
            self.settings,
            ReviewWidgets(
                board_area=self.board_area,
                board_and_panel=self.board_and_panel,
                move_list=self.move_list,
                summary_panel=self.summary_panel,
                header_label=self.header_label,
                comment_view=self.comment_view,
                message_bar=self.message_bar,
                graph=lambda: self.eval_graph,
                ensure_graph=self._ensure_graph,
                time_chart=lambda: self.time_chart,
                status_message=self.statusBar().showMessage,
            ),
            self.analysis_controller,
            self.analysis.is_running,
            self,
        )
        self.analysis_controller.refresh_wanted.connect(self.views.refresh)
        self._connect()
        self._build_analysis_board()
        self._refresh_timer = self.views.refresh_timer  # tests wait on it
        self._restore_geometry()
        self._update_enabled()
        self._show_welcome()
        QTimer.singleShot(WARM_UP_DELAY_MS, self.analysis_controller.warm_up)
        QTimer.singleShot(GRAPH_DELAY_MS, self._ensure_graph)

    @property
    def board(self) -> Any:
        """The board widget of the game on show (None before a game is opened)."""
        view = self.board_area.view
        return view.widget if view is not None else None

    # ------------------------------------------------------------------------------ building
    def _build_exports(self) -> None:
        from reviewer.gui.files.exports import GameExports

        self.exports = GameExports(
            self.session,
            self.settings,
            self.tasks,
            lambda: self.engine_label.text(),
            lambda: self.board_stack.currentWidget(),
            self.statusBar().showMessage,
            self,
        )
        self.exports.finished.connect(lambda done: self.export_finished.emit(done) if done != "clipboard" else None)
        self.exports.failed.connect(
            lambda text: self.message_bar.add(Message(key=f"export:{text}", level="error", text=text, scope="app"))
        )

    def _build_analysis_board(self) -> None:
        from reviewer.core.services.saved_lines import SavedLines

        self.analysis_board = AnalysisBoard(
            self.session,
            self.lines_panel,
            self.eval_bar,
            self.move_entry,
            self._live_engine_factory,
            self._show_board_message,
            SavedLines(),
            self,
            messages=_BoardMessages(self.message_bar),
        )
        from reviewer.gui.analysis.play_out import PlayOut

        self.play_out = PlayOut(self.session, self.tasks, lambda kind: self._live_engine_factory(kind, None), self)
        self.play_out.state_changed.connect(self._on_play_state)
        self.play_out.failed.connect(lambda text: self.message_bar.add(Message(key=f"play:{text}", level="error", text=text)))
        self.retro = RetroController(self.session, self.retro_panel, self.answer_evaluator, self)
        self.analysis_board.retro = self.retro
        self.board_area.analysis_board = self.analysis_board
        from reviewer.gui.review.markup_menu import add_markup_menu

        self.markup_menu = add_markup_menu(self, self.analysis_board.shapes)
        from reviewer.gui.analysis.region_actions import RegionActions

        analysis_menu = next(item.menu() for item in self.menuBar().actions() if item.text() == "&Analysis")
        assert isinstance(analysis_menu, QMenu)
        self.region_actions = RegionActions(self, self.session, self.analysis_board, self.analysis_board.shapes, analysis_menu,
                                            self.commands.threat_action, lambda text: self.statusBar().showMessage(text, 8000),
                                            self.analysis_controller.stop_analysis, may_leave=self.saving.may_leave_game)
        self.analysis_board.lines_shown.connect(self.lines_shown)
        from reviewer.core.services.saved_notes import SavedNotes
        from reviewer.gui.files.notes_keeper import NotesKeeper

        self.notes_keeper = NotesKeeper(self.session, SavedNotes(), self)
        self.notes_keeper.failed.connect(
            lambda text: self.message_bar.add(Message(key=f"notes:{text}", level="warning", text=text))
        )
        self.saving.on_saved.append(self.notes_keeper.game_saved)
        self.saving.on_saved.append(lambda saved: self.analysis_board.file_saved(
            saved.game, saved.result.source.path, saved.result.source.index, saved.result.written))
        self.analysis_board.lines_restored.connect(self.notes_keeper.lines_restored)  # the notes on those lines come next
        self.analysis_board.lines_restored.connect(self.lines_restored)

    def _live_engine_factory(self, kind: str, board_size: tuple[int, int] | None) -> Any:
        from reviewer.gui.engines.workers import open_engine_from_registry

        choice = self.engine_choice(kind)
        return lambda: open_engine_from_registry(choice, live=True)

    def answer_evaluator(self, card: Any) -> Any:
        from reviewer.core.services.trainer.judge import engine_evaluator

        choice = self.engine_choice(card.kind)
        return engine_evaluator(choice.command, choice.name)

    def _show_board_message(self, text: str, cause: BoardCause = "retro") -> None:
        self.message_bar.replace(board_message(text, cause))

    def set_live(self, enabled: bool) -> None:
        """The engine toggle: live lines (and the evaluation bar for chess) for the position on show."""
        self.commands.live_action.setChecked(enabled)
        self._show_live_widgets()
        self.analysis_board.set_live(enabled)
        if not enabled:
            self.views.refresh()  # the review's own marks come back where the live ones were

    def show_lines(self, count: int, ownership: bool = False, policy: bool = False) -> None:
        """Turn the engine on with `count` lines, and the ownership and policy maps when asked."""
        self.analysis_board.set_multipv(count)
        self.set_live(True)
        for wanted, action in ((ownership, self.commands.ownership_action), (policy, self.commands.policy_action)):
            if wanted and not action.isChecked():
                action.trigger()

    def play_from_here(self, start: bool) -> None:
        """*Play from here*: ask the strength and the engine's side, then play on against it; False stops."""
        if not start:
            self.play_out.stop()
            return
        game, node = self.session.model.game, self.session.model.current_node
        opponent = game_support(game.kind).opponent if game is not None else None
        if game is None or node is None or opponent is None:
            self.commands.play_action.setChecked(False)
            return
        from reviewer.gui.dialogs.play_out_dialog import PlayOutDialog

        rules = game_support(game.kind).rules
        to_move = rules.side_to_move(rules.after(game, node))
        players = game_support(game.kind).player_order
        dialog = PlayOutDialog(opponent, players, other_color(to_move), parent=self)
        self.play_dialog = dialog
        dialog.accepted.connect(lambda: self._start_play(dialog.engine_color(), dialog.strength()))
        dialog.rejected.connect(lambda: self.commands.play_action.setChecked(False))
        dialog.open()

    def _start_play(self, engine_color: Any, strength: int) -> None:
        self.activateWindow()  # the keys (Ctrl+Z takes a move back) are the board's again
        self._focus_board()
        self.play_out.start(engine_color, strength)

    def _on_play_state(self, text: str) -> None:
        self.commands.play_action.setChecked(bool(text) and self.play_out.active)
        if text:
            self.statusBar().showMessage(text)
        else:
            self.statusBar().clearMessage()

    def shown_line_count(self) -> int:
        return len(self.lines_panel.rows())

    @property
    def restoring_lines(self) -> bool:
        """True while the lines kept for the open game come back (`lines_restored` follows)."""
        return bool(self.analysis_board.restoring_lines)

    def go_to_ply(self, ply: int) -> None:
        self.session.model.set_current_ply(ply)

    def play_line(self, moves: list[str]) -> bool:
        """Play `moves` from the position on show as a variation; False when they cannot be played."""
        return self.session.model.play_line(moves) is not None

    def _show_live_widgets(self) -> None:
        """The lines panel while the engine is on, and the evaluation bar too for a game that has one."""
        enabled, game = self.commands.live_action.isChecked(), self.session.model.game
        self.lines_panel.setVisible(enabled)
        self.eval_bar.setVisible(enabled and game is not None and presentation(game.kind).has_eval_bar)
        self.board_column.relayout()

    def learn_from_mistakes(self, color: str) -> None:
        self.message_bar.remove(board_key("retro"))  # what the last request was told
        if not self.session.model.basis.trust.labels or not self.retro.start(color):  # type: ignore[arg-type]
            self._show_board_message("Learn from your mistakes needs a finished analysis by an engine that labels moves.")
        elif self.retro.retro is not None and not self.retro.retro.items:
            self._show_board_message(f"No mistake or blunder by {color} to learn from in this game.")

    def _build_central(self) -> None:
        self.board_area = BoardArea(self, lambda path: self.open_file(Path(path)))
        self.board_area.step_with_wheel(self.session.model.step)
        area = self.board_area
        self.board_stack, self.welcome_label, self.eval_bar = area.board_stack, area.welcome_label, area.eval_bar
        self.top_player, self.bottom_player, self.board_column = area.top_player, area.bottom_player, area.column

        self.review_panel = ReviewPanel(self.session, self)
        panel = self.review_panel
        self.header_label, self.summary_panel, self.move_list = panel.header_label, panel.summary_panel, panel.move_list
        self.comment_view, self.lines_panel, self.retro_panel = panel.comment_view, panel.lines_panel, panel.retro_panel
        self.move_entry, self.right_splitter = panel.move_entry, panel.splitter
        self.comment_editor = panel.comment_editor
        self.move_entry.left.connect(self._focus_board)
        self.comment_editor.left.connect(self._focus_board)
        self._build_explorer()

        top = BoardAndPanel(self.board_column, self.review_panel, self)
        self.board_and_panel = top

        # The graph (pyqtgraph: a second of imports) is made after the first paint: see _ensure_graph.
        self.eval_graph: EvalGraphWidget | None = None
        self.time_chart: TimeChartWidget | None = None  # under the graph, for games that carry times
        self.graph_area: QWidget | None = None  # the graph and the time chart
        self.main_splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.main_splitter.setObjectName("main-splitter")
        self.main_splitter.setChildrenCollapsible(False)
        self.main_splitter.addWidget(top)

        self.message_bar.action_triggered.connect(self.analysis_controller.on_message_action)

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(10, 8, 10, 4)
        layout.addWidget(self.main_splitter)
        self.setCentralWidget(central)
        self.review_panel.show_messages(self.message_bar)

    def _build_explorer(self) -> None:
        from PySide6.QtGui import QAction

        from reviewer.core.database import default_database_path
        from reviewer.gui.explorer.explorer_panel import DepartureMarks, ExplorerPanel

        self.explorer_panel = ExplorerPanel(
            self.session,
            self.tasks,
            default_database_path,
            lambda: self.settings.collection_player,
            lambda path, index, ply: self.open_file(path, index, ply),
            self,
        )
        # beside the move list: the two share the height above the comment
        beside = QSplitter(Qt.Orientation.Horizontal, self.right_splitter)
        beside.setObjectName("moves-and-explorer")
        beside.setChildrenCollapsible(False)
        self.right_splitter.insertWidget(0, beside)
        beside.addWidget(self.move_list)
        beside.addWidget(self.explorer_panel)
        beside.setStretchFactor(0, 2)
        beside.setStretchFactor(1, 3)
        self.right_splitter.setStretchFactor(0, 3)
        self.explorer_panel.setVisible(self.settings.explorer_shown)
        self.files.opened.connect(lambda path, _game: self.explorer_panel.feed(path))
        self.explorer_panel.left.connect(self._focus_board)
        self.departure_marks = DepartureMarks(
            self.session, self.tasks, default_database_path, lambda: self.settings.collection_player, self._show_departures, self
        )
        self.explorer_panel.imported.connect(lambda report: self.departure_marks.look() if report.stored else None)
        action = QAction("Opening &explorer", self)
        action.setCheckable(True)
        action.setChecked(self.settings.explorer_shown)
        action.toggled.connect(self.set_explorer_shown)
        self.explorer_action = action
        from PySide6.QtWidgets import QMenu

        view = next(item.menu() for item in self.menuBar().actions() if item.text() == "&View")
        assert isinstance(view, QMenu)
        view.insertAction(self.commands.dark_action, action)

    def _show_departures(self, notes: dict[int, str], left_database: frozenset[int], left_line: frozenset[int]) -> None:
        """Where the game left the database or the player their line: a mark in the move list, a line in the comment."""
        self.move_list.set_departures(notes, left_database, left_line)
        self.views.notes = notes
        node = self.session.model.current_node
        if node is not None and self.session.model.game is not None:
            self.views.show_current(node)

    def set_explorer_shown(self, shown: bool) -> None:
        """The opening explorer under the move list, remembered for the next start."""
        self.settings.explorer_shown = shown
        self.explorer_action.setChecked(shown)
        self.explorer_panel.setVisible(shown)

    def _ensure_graph(self) -> EvalGraphWidget:
        if self.eval_graph is None:
            from reviewer.gui.review.eval_graph import EvalGraphWidget
            from reviewer.gui.review.time_chart import TimeChartWidget

            area = QWidget(self)
            area.setObjectName("graph-area")
            area_layout = QVBoxLayout(area)
            area_layout.setContentsMargins(0, 0, 0, 0)
            area_layout.setSpacing(2)
            graph = EvalGraphWidget(area)
            graph.setMinimumHeight(GRAPH_MIN_HEIGHT_PX)
            chart = TimeChartWidget(area)
            chart.setMinimumHeight(TIME_CHART_MIN_HEIGHT_PX)
            chart.hide()  # until a game with times is on show
            area_layout.addWidget(graph, 3)
            area_layout.addWidget(chart, 2)
            area.setVisible(self.session.model.game is not None)
            self.main_splitter.addWidget(area)
            self.main_splitter.setStretchFactor(0, 1)
            self.main_splitter.setStretchFactor(1, 0)
            state = self.settings.window_state("main-splitter") if self._remember_layout else None
            if state is None or not self.main_splitter.restoreState(state):
                graph_height = max(120, min(190, round(self.height() * 0.2)))
                self.main_splitter.setSizes([max(200, self.main_splitter.height() - graph_height), graph_height])
            graph.ply_clicked.connect(self.session.model.set_current_ply)
            graph.ply_scrubbed.connect(self.session.model.set_current_ply)
            chart.ply_clicked.connect(self.session.model.set_current_ply)
            self.eval_graph, self.time_chart, self.graph_area = graph, chart, area
            _freeze_startup_objects()
        return self.eval_graph

    def _connect(self) -> None:
        session = self.session
        session.game_loaded.connect(self._on_game_loaded)
        self.move_list.node_selected.connect(session.model.set_current_node)
        self.summary_panel.judgement_clicked.connect(self.views.jump_to_judgement)
        self.analysis_controller.connect_workers()
        from reviewer.gui.trainer.training_cards import TrainingCards

        self.training_cards = TrainingCards(
            self.session, self.tasks, self.analysis.is_running, self._reload_trainer, self.statusBar().showMessage, self,
            player=lambda: self.settings.collection_player,
        )
        self.analysis_finished.connect(lambda _completed: self.training_cards.harvest())
        from reviewer.gui.engines.network_warmup import NetworkWarmUp

        self.network_warm_up = NetworkWarmUp(
            self.session, self.tasks, self.engine_choice, lambda: self.analysis_controller.known_engines(), self
        )
        self.analysis_controller.engines_known.connect(lambda _engines: self.network_warm_up.maybe_warm())

    def _on_file_opened(self, path: str, game: Any) -> None:
        self.analysis_controller.look_up_cached_analysis(game)
        self.file_opened.emit(path)
        QTimer.singleShot(WARM_UP_AFTER_OPEN_MS, self.analysis_controller.warm_up)

    def _reload_trainer(self) -> None:
        trainer = self.dialogs.train_window
        if trainer is not None and trainer.isVisible():
            trainer.reload()

    # ----------------------------------------------------------- driven from code and tests
    def open_file(self, path: str | Path, game_index: int | None = None, ply: int | None = None) -> None:
        """Read `path` off the GUI thread; a file of many games asks which one (unless given)."""
        self.files.open_file(path, game_index, ply)

    def save(self) -> None:
        """File ▸ Save: the game and the notes into the game's own file, off the GUI thread
        (`saving.saved` or `saving.save_failed` follows)."""
        self.saving.save()

    def save_as(self, path: str | Path | None = None) -> None:
        """File ▸ Save As: into a new file (`path`, else the one the player chooses)."""
        if path is not None:
            chosen = Path(path)
            ask, self.saving.choose_path = self.saving.choose_path, lambda _suggested: chosen
            try:
                self.saving.save_as()
            finally:
                self.saving.choose_path = ask
        else:
            self.saving.save_as()

    def close_without_saving(self) -> None:
        """Close the window without asking: unsaved edits stay out of the file (Reviewer's data keeps the notes)."""
        self.saving.ask_unsaved = lambda _path: "discard"
        self.close()

    def undo(self) -> None:
        """Edit ▸ Undo: the words being typed are kept first, then the last change is taken back."""
        self.comment_editor.commit()
        self.session.model.undo_edit()

    def redo(self) -> None:
        self.comment_editor.commit()
        self.session.model.redo_edit()

    def export(self, path: str | Path) -> None:
        """Write the annotated game (.pgn/.sgf) or the JSON report (.json) to `path`, off the GUI thread."""
        target = Path(path)
        if target.suffix.lower() == ".json":
            self.exports.export_report(target, "json")
        else:
            self.exports.export_annotated(target)

    def start_analysis(self) -> None:
        self.analysis_controller.start_analysis()

    def stop_analysis(self) -> None:
        self.analysis_controller.stop_analysis()

    def engine_choice(self, kind: str) -> EngineChoice:
        return self.analysis_controller.engine_choice(kind)

    def set_engine_choice(self, choice: EngineChoice, remember: bool = True) -> None:
        self.analysis_controller.set_engine_choice(choice, remember)

    def limit(self, kind: str) -> Limit:
        return self.analysis_controller.limit(kind)

    def set_limit(self, kind: str, limit: Limit, remember: bool = True) -> None:
        self.analysis_controller.set_limit(kind, limit, remember)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self.files.accept_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.files.drop(event)

    def set_preset(self, preset: str) -> None:
        self.settings.preset = preset
        self.session.model.set_preset(preset)
        self.commands.preset_combo.setCurrentIndex(PRESETS.index(preset))
        for action in self.commands.preset_group.actions():
            action.setChecked(action.text() == preset_label(preset))


    @Slot()
    def toggle_flip(self) -> None:
        self.board_area.set_flipped(not self.board_area.flipped)
        self.commands.flip_action.setChecked(self.board_area.flipped)
        self.views.update_player_strips()

    @Slot()
    def toggle_fullscreen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self.commands.fullscreen_action.setChecked(self.isFullScreen())

    @Slot()
    def toggle_dark(self) -> None:
        dark = self.commands.dark_action.isChecked()
        self.settings.dark_theme = dark
        from reviewer.gui.window.app import apply_theme

        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, dark)
        boards = [view.widget for view in self.board_area.views()]
        for widget in (self.eval_graph, self.time_chart, self.summary_panel, self.move_list, *boards):
            if widget is not None and hasattr(widget, "set_dark"):
                widget.set_dark(dark)
        self.views.refresh()

    # ------------------------------------------------------------------------------- updates
    def _on_game_loaded(self) -> None:
        game = self.session.model.game
        assert game is not None
        self.board_area.ensure_board(game.kind)
        self.move_entry.show_examples(game_support(game.kind).move_examples)
        self.eval_bar.set_evaluation(None)  # the last game's
        self._show_live_widgets()  # another kind of game may have an evaluation bar, or none
        self.move_list.set_game(game)
        self.summary_panel.show()
        self._ensure_graph()
        assert self.graph_area is not None
        self.graph_area.show()
        self.analysis_controller.update_engine_controls()
        shows_win = self.views.graph_mode(game.kind) == presentation(game.kind).graph_modes[0]
        self.commands.graph_mode_actions["win" if shows_win else "cp"].setChecked(True)
        self.status_area.new_game()
        self.message_bar.new_game()
        collection = self.session.model.collection
        for warning in collection.warnings if collection is not None else ():
            self.message_bar.add(file_warning(warning))
        for index, warning in enumerate(game.warnings):
            self.message_bar.add(game_warning(index, warning))
        self.move_list.set_problems(problem_plies(game))
        self.analysis_controller.new_game()
        self._update_enabled()  # the views follow on the session's assessment_changed
        if not self.move_entry.text():  # the keys step through the new game, unless a move is being typed
            self._focus_board()

    def _focus_board(self) -> None:
        board = self.board_stack.currentWidget()
        if board is not None:
            board.setFocus(Qt.FocusReason.OtherFocusReason)

    def _update_enabled(self) -> None:
        collection = self.session.model.collection
        games_in_file = len(collection) if collection is not None else 0
        kind = self.analysis_controller.current_kind()
        apply_action_states(self.commands, action_states(self.session.model.game is not None, self.analysis.is_running(), games_in_file, kind))

    def _show_welcome(self) -> None:
        self.board_area.show_welcome([path for path in self.settings.recent_files() if Path(path).is_file()][:6])
        self.summary_panel.hide()
        if self.graph_area is not None:
            self.graph_area.hide()
        self.board_and_panel.relayout()
        self.header_label.setText("")
        self.comment_view.setHtml("")

    # ------------------------------------------------------------------------ window state
    def _restore_geometry(self) -> None:
        geometry = self.settings.window_state("geometry") if self._remember_layout else None
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            resize_to_fit(self, 1400, 900)

    def save_window_state(self) -> None:
        self.settings.set_window_state("geometry", self.saveGeometry())
        if self.eval_graph is not None:
            self.settings.set_window_state("main-splitter", self.main_splitter.saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.comment_editor.commit()
        if not self.saving.may_leave_game(self.close):  # asked: saved first (then closed), or not closed
            event.ignore()
            return
        if self._remember_layout:
            self.save_window_state()
        self.analysis.shutdown(timeout_s=3.0)
        self.analysis_board.close()
        self.play_out.stop()
        self.retro.close()
        self.dialogs.close()
        self.assessor.shutdown(timeout_s=2.0)
        self.explorer_panel.stop_imports()
        self.notes_keeper.shutdown(timeout_s=5.0)
        self.tasks.shutdown(timeout_s=5.0)
        super().closeEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.WindowStateChange:
            self.commands.fullscreen_action.setChecked(self.isFullScreen())
        super().changeEvent(event)


class _BoardMessages:
    """The board's messages in the window's message bar, one per cause."""

    def __init__(self, bar: MessageBar) -> None:
        self._bar = bar

    def show(self, cause: BoardCause, text: str, note: bool = False) -> None:
        self._bar.replace(board_note(text, cause) if note else board_message(text, cause))

    def clear(self, cause: BoardCause) -> None:
        self._bar.remove(board_key(cause))


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
