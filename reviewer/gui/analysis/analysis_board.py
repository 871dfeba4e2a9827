"""The analysis board's wiring: moves from the boards and the move box go to the session (which asks
the rules), the lines added are kept, and live analysis follows the position on show.

The main window creates the widgets and hands them here; this object owns no widget and keeps no
game state of its own (the session does, the live lines on show included).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, Signal, Slot

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.engines.base import Engine
from reviewer.core.explain import Why, threat_of
from reviewer.core.games import game_support
from reviewer.core.gametree import Game, Node
from reviewer.core.scoring.trust import judge_engine
from reviewer.core.services.live import LiveUpdate
from reviewer.core.services.saved_lines import SavedLines, added_lines, game_fingerprint, game_source, graft, leaf_paths
from reviewer.core.variations import line_game
from reviewer.gui.analysis.live_panel import EvalBar, LinesPanel, LiveBridge
from reviewer.gui.analysis.region_tool import Region, RegionTool
from reviewer.gui.analysis.threat import ThreatSearch
from reviewer.gui.board.views import BoardView
from reviewer.gui.common.board_shapes import BoardShapes
from reviewer.gui.common.move_entry import MoveEntry
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.presenters.messages import BoardCause
from reviewer.gui.trainer.retro_panel import RetroController

EngineFactoryFor = Callable[[str, tuple[int, int] | None], Callable[[], Engine]]


class BoardMessages(Protocol):
    """Where the board's messages go, each under its cause (`presenters.messages.BoardCause`), so
    that it can be taken away when its cause goes."""

    def show(self, cause: BoardCause, text: str, note: bool = False) -> None: ...

    def clear(self, cause: BoardCause) -> None: ...
HIDDEN_LINES_TEXT = "Engine lines are hidden while you look for a better move."
THREAT_BUDGET_STEP = 1  # the threat is searched with live analysis's second budget (100k nodes, 8 visits)


class AnalysisBoard(QObject):
    lines_shown = Signal(object)  # the LiveUpdate now on show
    lines_loaded = Signal(str, str, object)  # fingerprint, source, saved lines (from the store's thread)
    store_failed = Signal(str)
    lines_restored = Signal()  # the lines kept for the open game are back in its tree (or there were none)
    threat_shown = Signal(object)  # the Why of the threat now on show (None: none shown)
    region_changed = Signal(object)  # the region of interest now ((row, col), (row, col)), or None
    region_choosing = Signal(bool)  # whether the next drag on the board chooses the region

    def __init__(
        self,
        session: ReviewSession,
        lines: LinesPanel,
        eval_bar: EvalBar,
        entry: MoveEntry,
        engine_factory_for: EngineFactoryFor,
        show_message: Callable[[str], None],
        saved_lines: SavedLines | None = None,
        parent: QObject | None = None,
        show_note: Callable[[str], None] | None = None,
        messages: BoardMessages | None = None,
    ) -> None:
        """`messages`: where the board's messages go by cause; without it they go to `show_message`
        (and the notes to `show_note`) and stay."""
        super().__init__(parent)
        self.session = session
        self.lines = lines
        self.eval_bar = eval_bar
        self.entry = entry
        self._engine_factory_for = engine_factory_for
        self._show_message = show_message
        self._show_note = show_note or show_message  # what was asked for and found, not a problem
        self._messages = messages
        self._views: dict[str, BoardView] = {}  # each game's board, by its kind
        self._region_tools: dict[str, RegionTool] = {}  # the boards of points': the region of interest's
        self.region: Region | None = None
        self._bridge: LiveBridge | None = None
        self._bridge_kind: tuple[str, tuple[int, int] | None] | None = None
        self._live = False
        self._show_ownership = False
        self._show_policy = False
        self._told_no_maps = False
        self._multipv = 3
        self._show_numbers = False
        self._saved_lines = saved_lines
        self.retro: RetroController | None = None
        self._fingerprint = ""
        self._source = ""  # where the open game was read from (saved_lines.game_source)
        self._original_paths: set[tuple[str, ...]] = set()
        self._restoring = False
        self._entering = False  # a move from the move box is being played
        self._closed = False
        self._tasks = Tasks(self)  # the saved lines' lane: reads and writes in order
        self._threat_on = False
        self._threat_why: Why | None = None
        self._threat_request: tuple[Node, Game, int] | None = None  # the position on show, the game and ply searched
        self._threat = ThreatSearch(self)
        self.shapes = BoardShapes(session, self)  # the player's arrows and marks, kept on the node on show
        self._threat.found.connect(self._on_threat)
        self._threat.failed.connect(self._on_engine_failed)
        self.lines_loaded.connect(self._graft_saved_lines)
        self.store_failed.connect(self._on_store_failed)
        session.move_refused.connect(self._on_refused)
        session.tree_changed.connect(self._on_tree_changed)
        session.current_changed.connect(self._on_current_changed)
        session.game_loaded.connect(self._on_game_loaded)
        session.engine_hidden_changed.connect(self._on_engine_hidden_changed)
        session.live_lines_changed.connect(self._on_live_lines_changed)
        entry.move_entered.connect(self._on_entry)
        lines.line_clicked.connect(self._on_line_clicked)
        lines.line_hovered.connect(self._on_line_hovered)

    # ------------------------------------------------------------------------------ boards

    def attach(self, view: BoardView) -> None:
        """The board of `view`'s game: its moves are played here, and it shows what this board shows."""
        self._views[view.kind] = view
        view.connect_moves(self.play, self._on_tried)
        self.shapes.attach(view)
        widget = view.widget
        if all(hasattr(widget, name) for name in ("point_at", "point_center", "cell_size")):
            tool = RegionTool(widget)
            tool.changed.connect(self._on_region_chosen)
            tool.choosing_changed.connect(self.region_choosing)
            self._region_tools[view.kind] = tool

    # ----------------------------------------------------------------- region of interest

    def region_tools(self) -> dict[str, RegionTool]:
        """Each board of points' region tool, by its game's kind."""
        return dict(self._region_tools)

    def region_tool(self) -> RegionTool | None:
        """The region tool of the board on show; None where the board has no points to choose."""
        game = self.session.model.game
        return self._region_tools.get(game.kind) if game is not None else None

    def choose_region(self) -> bool:
        """The next drag on the board chooses the region; False where the board has none."""
        tool = self.region_tool()
        if tool is None:
            return False
        tool.begin()
        self._say("move", "Drag a rectangle on the board: live analysis and threats keep to it. Esc clears it.", note=True)
        return True

    def clear_region(self) -> bool:
        tool = self.region_tool()
        return tool is not None and tool.clear()

    def set_region(self, region: Region | None) -> None:
        tool = self.region_tool()
        if tool is not None:
            tool.set_region(region)  # announces it through _on_region_chosen
        elif region is None:
            self._on_region_chosen(None)

    def _on_region_chosen(self, region: object) -> None:
        chosen = region if isinstance(region, tuple) else None
        if chosen == self.region:
            return
        self.region = chosen
        self._unsay("move")
        if self._bridge is not None:
            self._bridge.set_region(chosen)
        if self._threat_on:
            self._search_threat(self.session.model.current_node)
        self.region_changed.emit(chosen)

    def _view(self) -> BoardView | None:
        """The board of the game open, once one is attached."""
        game = self.session.model.game
        return self._views.get(game.kind) if game is not None else None

    # -------------------------------------------------------------------------------- API

    @property
    def live(self) -> bool:
        return self._live

    def set_live(self, enabled: bool) -> None:
        """The engine toggle (lichess's L): analyse the position on show until switched off."""
        self._live = enabled
        if enabled:
            self._unsay("maps")  # "press L" is done; a map the engine lacks is told anew
            self._told_no_maps = False
        elif not self._threat_on:
            self._unsay("engine")
        if not enabled:
            if self._bridge is not None:
                self._bridge.stop()
            self.session.model.clear_live_lines()
            self._paint_maps(None)
            self.lines.clear_lines("Engine off")
            self.eval_bar.set_evaluation(None)
            return
        self._follow(self.session.model.current_node)

    @property
    def threat(self) -> Why | None:
        """What the opponent threatens in the position on show, while threat mode is on and it is known."""
        return self._threat_why

    @property
    def threat_mode(self) -> bool:
        return self._threat_on

    def set_threat(self, enabled: bool) -> None:
        """Threat mode (lichess's X): the opponent's best move if it were its turn, with what it would win."""
        self._threat_on = enabled
        self._show_threat(None)
        self._unsay("threat")
        if not enabled and not self._live:
            self._unsay("engine")
        if enabled:
            self._search_threat(self.session.model.current_node)
        else:
            self._threat_request = None
            self._threat.cancel()

    def set_multipv(self, lines: int) -> None:
        self._multipv = max(1, min(LinesPanel.MAX_LINES, lines))
        if self._bridge is not None:
            self._bridge.set_multipv(self._multipv)
        if self._live:
            self._follow(self.session.model.current_node)

    def set_maps(self, ownership: bool | None = None, policy: bool | None = None) -> None:
        """Go overlays from the live lines: territory (ownership) and the policy's favourite points."""
        if ownership is not None:
            self._show_ownership = ownership
        if policy is not None:
            self._show_policy = policy
        self._told_no_maps = False
        self._unsay("maps")
        if (self._show_ownership or self._show_policy) and not self._live:
            self._say("maps", "Territory and policy come with the engine lines: press L to switch them on.")
        latest = self.session.model.live_lines
        self._paint_maps(latest.evaluation if latest is not None else None)

    def set_move_numbers(self, shown: bool) -> None:
        self._show_numbers = shown
        self._refresh_numbers()

    @property
    def restoring_lines(self) -> bool:
        """True while the lines kept for the game just opened are being read back."""
        return self._restoring

    def latest_update(self) -> LiveUpdate | None:
        return self.session.model.live_lines

    @Slot(str)
    def play(self, move: str) -> Node | None:
        """A move from the board: an answer while "Learn from your mistakes" asks, else a move of the game."""
        if self.retro is not None and self.retro.active:
            self.retro.offer_move(move)
            return None
        return self.session.model.play_move(move)

    def pass_move(self) -> Node | None:
        game = self.session.model.game
        passing = game_support(game.kind).pass_move if game is not None else ""
        return self.session.model.play_move(passing) if passing else None

    def close(self) -> None:
        self._closed = True  # lines read back after this are for a board no longer shown
        self._tasks.shutdown(timeout_s=30)
        self._threat.close()
        if self._bridge is not None:
            self._bridge.close()
            self._bridge = None

    # ---------------------------------------------------------------------------- slots

    def _on_entry(self, text: str) -> None:
        before = self.session.model.current_node
        self._entering = True
        try:
            node = self.session.model.play_move(text)
        finally:
            self._entering = False
        if node is not None and node is not before:
            self.entry.accept_move()

    def _on_tried(self, move: str) -> None:
        """A piece dropped where it cannot go: the rules say why, as for a typed move."""
        self.session.model.play_move(move)

    def _on_refused(self, reason: str) -> None:
        if self._entering:  # the move box marks its own refused text; a board move leaves it alone
            self.entry.refuse(reason)
        self._say("move", reason)

    def _on_game_loaded(self) -> None:
        self.entry.clear_refusal()
        for tool in self._region_tools.values():
            tool.clear()  # another game: its own region, if any, is set again by whoever opened it
        game = self.session.model.game
        if game is not None and self._saved_lines is not None:
            collection = self.session.model.collection
            self._fingerprint, self._original_paths = game_fingerprint(game), leaf_paths(game)
            self._source = game_source(collection.path if collection is not None else None, self.session.model.game_index)
            self._restoring = True
            fingerprint, source = self._fingerprint, self._source
            task = self._tasks.submit(self._saved_lines.load, game, source, lane="saved-lines")
            task.done.connect(lambda lines: self.lines_loaded.emit(fingerprint, source, lines))
            task.failed.connect(lambda message: self._lines_unreadable(fingerprint, source, message))
        if self._live:
            self._follow(self.session.model.current_node)

    def _on_tree_changed(self, _mainline_changed: bool) -> None:
        game = self.session.model.game
        if game is None:
            return
        if self._saved_lines is not None and self._fingerprint and not self._closed:
            lines = added_lines(game, self._original_paths)
            # Played before the kept lines are back: added to them, as they are not on the board yet.
            keep_stored = self._restoring
            task = self._tasks.submit(
                self._saved_lines.save, self._fingerprint, lines, self._source, keep_stored,
                lane="saved-lines", must_finish=True,
            )
            task.failed.connect(lambda message: self.store_failed.emit(f"Could not keep the lines you added: {message}"))

    def file_saved(self, game: Game, path: str, index: int, written: bool = True) -> None:
        """`game` was written into game `index` of `path` (Save, Save As): the file holds its lines
        from now on, so the lines added later are those beyond it, kept under that file's name."""
        if not written or game is not self.session.model.game or self._saved_lines is None or self._closed:
            return
        self._fingerprint, self._original_paths = game_fingerprint(game), leaf_paths(game)
        self._source = game_source(path, index)
        self._restoring = False
        task = self._tasks.submit(self._saved_lines.save, self._fingerprint, [], self._source,
                                  lane="saved-lines", must_finish=True)
        task.failed.connect(lambda message: self.store_failed.emit(f"Could not keep the lines you added: {message}"))

    def _lines_unreadable(self, fingerprint: str, source: str, message: str) -> None:
        """An unreadable store hides the saved lines, never the game."""
        self.store_failed.emit(f"Could not read the lines you added before: {message}")
        self.lines_loaded.emit(fingerprint, source, [])

    def _graft_saved_lines(self, fingerprint: str, source: str, lines: object) -> None:
        game = self.session.model.game
        if self._closed or game is None or (fingerprint, source) != (self._fingerprint, self._source):
            return  # about a game no longer open
        self._restoring = False
        if isinstance(lines, list) and lines:
            added, problems = graft(game, lines)
            for problem in problems:
                self._say("saved-lines", problem)
            if added:
                self.session.model.tree_edited_elsewhere()
        self.lines_restored.emit()

    def _on_current_changed(self, node: Node) -> None:
        self.entry.clear_refusal()  # it was about the position before
        self._unsay("move")  # so was a refused move
        self._unsay("threat")  # and the threat
        self._refresh_numbers()
        self._paint_maps(None)  # the maps on show were of the position before
        self._clear_previews()  # so were the hovered line's arrows and stones
        if self._threat_on:
            self._show_threat(None)
            self._search_threat(node)
        if self._live:
            self._follow(node)

    def _on_engine_hidden_changed(self) -> None:
        """While the player looks for a move the live lines, evaluation bar, maps and threat are
        hidden (and not searched); they come back for the position on show once the answer is in."""
        if self.session.model.engine_hidden_from is None:
            if self._live:
                self._follow(self.session.model.current_node)
            if self._threat_on:
                self._search_threat(self.session.model.current_node)
            return
        if self._bridge is not None:
            self._bridge.stop()
        self.session.model.clear_live_lines()
        self._paint_maps(None)
        self.eval_bar.set_evaluation(None)
        view, game, node = self._view(), self.session.model.game, self.session.model.current_node
        if view is not None and game is not None and node is not None:
            view.show_live(game, node, None, rough=False)
        self._threat_request = None
        self._threat.cancel()
        self._show_threat(None)
        self._unsay("threat")
        if self._live:
            self.lines.clear_lines(HIDDEN_LINES_TEXT)

    def _on_line_clicked(self, moves: tuple[str, ...]) -> None:
        self.session.model.play_line(list(moves))

    def _clear_previews(self) -> None:
        view, game, node = self._view(), self.session.model.game, self.session.model.current_node
        if view is not None and game is not None and node is not None:
            view.show_line(game, node, ())

    def _on_line_hovered(self, moves: object) -> None:
        game, node = self.session.model.game, self.session.model.current_node
        if game is None or node is None:
            return
        sequence = list(moves) if isinstance(moves, tuple) else []
        if not sequence and self._threat_why is not None:
            self._paint_threat()  # the mouse left the line: the threat is back
            return
        view = self._view()
        if view is not None:
            view.show_line(game, node, sequence)

    def _on_update(self, update: LiveUpdate) -> None:
        game, node = self.session.model.game, self.session.model.current_node
        hidden = self.session.model.engine_hidden_from is not None
        if not self._live or hidden or game is None or node is None or update.token is not node:
            return  # an answer about a position that is no longer on show
        self.session.model.set_live_lines(node, update)  # shown on live_lines_changed

    def _on_live_lines_changed(self, node: Node) -> None:
        """The lines, evaluation bar, maps and candidates of the live lines kept for the position on
        show. Lines cleared say nothing here: what cleared them says why (engine off, thinking…)."""
        model = self.session.model
        game, update = model.game, model.live_lines
        if not self._live or game is None or update is None or node is not model.current_node:
            return
        if not self._threat_on:  # the engine works again (the threat search may still fail)
            self._unsay("engine")
        support = game_support(game.kind)
        numbering = support.move_number(game, node) if support.numbered_moves else None
        self.lines.show_update(update, numbering, self._multipv)
        if game_support(game.kind).has_eval_bar:
            self.eval_bar.set_evaluation(update.evaluation)
        self._paint_maps(update.evaluation)
        self._mark_candidates(game, node, update.evaluation)
        self.lines_shown.emit(update)

    def _on_engine_failed(self, message: str) -> None:
        self._say("engine", message)

    def _on_store_failed(self, message: str) -> None:
        self._say("saved-lines", message)

    def _on_failed(self, message: str) -> None:
        self.lines.clear_lines(message)
        self._say("engine", message)

    # -------------------------------------------------------------------------- helpers

    def _follow(self, node: Node | None) -> None:
        game = self.session.model.game
        if game is None or node is None:
            return
        if self.session.model.engine_hidden_from is not None:
            self.lines.clear_lines(HIDDEN_LINES_TEXT)
            return
        board_size = (game.board_width, game.board_height)
        wanted = (game.kind, board_size)
        if self._bridge is None or self._bridge_kind != wanted:
            if self._bridge is not None:
                self._bridge.close()
            self._bridge = LiveBridge(self._engine_factory_for(game.kind, board_size), self._multipv, self)
            self._bridge.set_region(self.region)
            self._bridge.updated.connect(self._on_update)
            self._bridge.failed.connect(self._on_failed)
            self._bridge_kind = wanted
        support = game_support(game.kind)
        if support.is_over(support.rules.after(game, node)):
            self.lines.clear_lines("Game over: nothing to analyse")
            self._bridge.stop()
            return
        shown, ply = line_game(game, node)
        self.session.model.clear_live_lines()
        self.lines.clear_lines("thinking…")  # the lines on show were of another position: not to be clicked
        self._bridge.set_position(shown, ply, node)

    def _search_threat(self, node: Node | None) -> None:
        game = self.session.model.game
        threat = threat_of(game.kind) if game is not None else None
        self._threat_request = None
        if game is None or node is None or threat is None or self.session.model.engine_hidden_from is not None:
            self._threat.cancel()
            return
        found = threat.search(game, node)
        if found is None:
            self._threat.cancel()
            self._say("threat", "No threat to show here: the side to move is in check, or the game is over.", note=True)
            return
        searched, ply = found
        self._threat_request = (node, searched, ply)
        budget = game_support(game.kind).live_budgets()[THREAT_BUDGET_STEP]
        size = (game.board_width, game.board_height)
        limit = Limit(nodes=budget.nodes, visits=budget.visits, region=self.region)
        self._threat.search((game.kind, size), self._engine_factory_for(game.kind, size), searched, ply, limit, node)

    def _on_threat(self, token: object, evaluation: object) -> None:
        request, game = self._threat_request, self.session.model.game
        if not self._threat_on or request is None or game is None or token is not request[0]:
            return  # about a position no longer on show, or threat mode was switched off
        if token is not self.session.model.current_node:
            return
        threat = threat_of(game.kind)
        assert threat is not None
        why = threat.explain(request[1], request[2], evaluation if isinstance(evaluation, Evaluation) else None)
        self._show_threat(why)
        self._say("threat", why.text if why is not None else "The engine's answer shows no threat here.", note=True)

    def _show_threat(self, why: Why | None) -> None:
        changed = why != self._threat_why
        self._threat_why = why
        self._paint_threat()
        if changed:
            self.threat_shown.emit(why)

    def _paint_threat(self) -> None:
        """The threat's first move over the board (chess: an arrow; Go: a ghost stone numbered 1); nothing when none."""
        why, request, game = self._threat_why, self._threat_request, self.session.model.game
        move = why.line[0] if why is not None and why.line and request is not None and game is not None else None
        if move is None or request is None or game is None:
            self._clear_previews()
            return
        searched, ply = request[1], request[2]
        view = self._view()
        if view is not None:
            view.show_line(searched, searched.node_at_ply(ply), [move])

    def remark_live(self, game: Game, node: Node) -> None:
        """The live lines' candidates back on the board of `node` after it was drawn again from the
        review's figures (a theme switched, a review's figure arrived): the board keeps showing what
        the lines panel shows."""
        model = self.session.model
        update = model.live_lines
        if not self._live or update is None or model.engine_hidden_from is not None or node is not model.current_node:
            return
        self._mark_candidates(game, node, update.evaluation)

    def _mark_candidates(self, game: Game, node: Node, evaluation: Evaluation) -> None:
        """The live search's candidates on the board where it marks them (Go, KaTrain style: grey
        when the engine is too weak for its numbers to be more than a rough estimate)."""
        view = self._view()
        if view is None:
            return
        trust = judge_engine(evaluation.engine_id, game.kind, max(game.board_width, game.board_height))
        view.show_live(game, node, evaluation, rough=not trust.labels)

    def _paint_maps(self, evaluation: Evaluation | None) -> None:
        game, view = self.session.model.game, self._view()
        if game is None or view is None or not game_support(game.kind).point_maps:
            return
        ownership = evaluation.ownership_first if evaluation is not None and self._live else None
        policy = evaluation.policy if evaluation is not None and self._live else None
        view.show_maps(ownership if self._show_ownership else None, policy if self._show_policy else None)
        wanted = self._show_ownership or self._show_policy
        if wanted and evaluation is not None and ownership is None and policy is None and not self._told_no_maps:
            self._told_no_maps = True
            self._say("maps", "This engine gives no territory or policy map: KataGo does (Engines ▸ Install KataGo).")

    def _say(self, cause: BoardCause, text: str, note: bool = False) -> None:
        if self._messages is not None:
            self._messages.show(cause, text, note)
        elif note:
            self._show_note(text)
        else:
            self._show_message(text)

    def _unsay(self, cause: BoardCause) -> None:
        """`cause` is gone: so is its message."""
        if self._messages is not None:
            self._messages.clear(cause)

    def _refresh_numbers(self) -> None:
        game, node, view = self.session.model.game, self.session.model.current_node, self._view()
        if view is None or game is None or node is None:
            return
        view.show_move_numbers(game, node, self._show_numbers)

