"""Keeping the views in step with the session: the board, move list, graph, summary, header, player
strips and comment for the current move, redrawn when the assessment changes (throttled while an
analysis streams evaluations in)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QTextBrowser

from reviewer.core.games import game_support
from reviewer.core.gametree import Node
from reviewer.core.report import strength_by_side
from reviewer.gui.common.style import themed_html
from reviewer.gui.presenters.board_marks import mainline_anchor
from reviewer.gui.presenters.comment import comment_html, header_html
from reviewer.gui.presenters.figures import graph_point_texts, graph_series, side_bases, summary_dicts
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.judgements import MISTAKE_JUDGEMENTS
from reviewer.gui.presenters.messages import Message
from reviewer.gui.presenters.times import clocks_at, time_series
from reviewer.gui.presenters.why import move_why

if TYPE_CHECKING:
    from reviewer.gui.analysis.board_area import BoardAndPanel, BoardArea
    from reviewer.gui.common.message_bar import MessageBar
    from reviewer.gui.common.session import ReviewSession
    from reviewer.gui.common.settings import Settings
    from reviewer.gui.review.eval_graph import EvalGraphWidget
    from reviewer.gui.review.move_list import MoveListWidget
    from reviewer.gui.review.summary_panel import SummaryPanel
    from reviewer.gui.review.time_chart import TimeChartWidget

REFRESH_HZ = 10  # at most, while an analysis runs
MAX_REFRESH_MS = 1000


@dataclass(frozen=True)
class ReviewWidgets:
    """The widgets that show the review. The graph is made late (its libraries take a second):
    `graph` is the one made so far (or None), `ensure_graph` makes it when needed."""

    board_area: BoardArea
    board_and_panel: BoardAndPanel
    move_list: MoveListWidget
    summary_panel: SummaryPanel
    header_label: QLabel
    comment_view: QTextBrowser
    message_bar: MessageBar
    graph: Callable[[], EvalGraphWidget | None]
    ensure_graph: Callable[[], EvalGraphWidget]
    status_message: Callable[[str, int], None]  # text, milliseconds
    time_chart: Callable[[], TimeChartWidget | None] = lambda: None  # made with the graph


class AnalysisState(Protocol):
    """What the views ask of the analysis controller: the kind of game it is about, and to show its state."""

    def current_kind(self) -> Any: ...

    def show_analysis_state(self) -> None: ...


class ReviewViews(QObject):
    """Redraws the review's widgets from the session's signals (the window also calls `refresh`)."""

    def __init__(
        self,
        session: ReviewSession,
        settings: Settings,
        widgets: ReviewWidgets,
        analysis: AnalysisState,
        is_analysing: Callable[[], bool],
        parent: QObject | None = None,
    ) -> None:
        """`is_analysing`: True while an analysis streams evaluations in (the redraws are then throttled)."""
        super().__init__(parent)
        self.notes: dict[int, str] = {}  # main-line ply → a line after the comment (the opening explorer's)
        self.session = session
        self.settings = settings
        self.widgets = widgets
        self.analysis = analysis
        self._is_analysing = is_analysing
        self._time_chart_wanted = True
        self.refresh_timer = QTimer(self)
        self.refresh_timer.setSingleShot(True)
        self.refresh_timer.setInterval(1000 // REFRESH_HZ)
        self.refresh_timer.timeout.connect(self.refresh)
        session.current_changed.connect(self.show_current)
        session.tree_changed.connect(self._on_tree_changed)
        session.evaluation_added.connect(self._on_evaluation_added)
        session.assessment_changed.connect(self.schedule_refresh)
        session.engine_hidden_changed.connect(self.refresh)
        session.notes_changed.connect(self._on_notes_changed)

    def set_graph_mode(self, mode: str) -> None:
        """`mode`: "win" (win chance / winrate) or the game's own value (centipawns / points)."""
        kind = self.analysis.current_kind()
        win_mode, value_mode = presentation(kind).graph_modes
        self.settings.set_graph_mode(kind, win_mode if mode == "win" else value_mode)
        self.refresh()

    def set_time_chart_wanted(self, shown: bool) -> None:
        """The View menu's toggle: the time chart under the graph, for games whose file carries times."""
        self._time_chart_wanted = shown
        self.refresh()

    def graph_mode(self, kind: str) -> str:
        chosen = self.settings.graph_mode(kind)
        support = game_support(kind)
        return chosen if chosen in support.graph_modes else support.default_graph_mode

    def show_current(self, node: Node) -> None:
        game = self.session.model.game
        if game is None:
            return
        ply = node.ply if node.is_mainline else None
        hidden = self.session.model.engine_hidden_from is not None  # the player looks for a move: no engine view
        evaluation = self.session.model.evaluations.get(ply) if ply is not None and not hidden else None
        rough = lambda: not self.session.model.basis.trust.labels  # noqa: E731
        widgets = self.widgets
        why = move_why(self.session.model, node) if not hidden else None
        judgement = self._judgement_at(ply) if not hidden else None
        widgets.board_area.show_node(game, node, evaluation, judgement, rough, why)
        widgets.move_list.set_current_node(node)
        graph = widgets.graph()
        if graph is not None:
            graph.set_current_ply(mainline_anchor(node))
        chart = widgets.time_chart()
        if chart is not None:
            chart.set_current_ply(mainline_anchor(node))
        widgets.board_area.show_clocks(clocks_at(game, node))
        html = comment_html(self.session.model, node, with_words=False)  # the player's words are in the editor
        note = self.notes.get(node.ply, "") if node.is_mainline else ""
        if note:
            html += f"<p>{escape(note)}</p>"
        widgets.comment_view.setHtml(themed_html(html))

    def _on_tree_changed(self, _mainline_changed: bool) -> None:
        model = self.session.model
        if model.game is None:
            return
        move_list = self.widgets.move_list
        move_list.refresh_tree()
        move_list.set_judgements(model.shown_judgements())
        if model.current_node is not None:
            move_list.set_current_node(model.current_node)

    def _on_notes_changed(self, _node: Node) -> None:
        """A move's glyphs or words changed: the move list says them (a variation's width may change)."""
        if self.session.model.game is not None:
            self.widgets.move_list.refresh_tree()

    def _on_evaluation_added(self, ply: int) -> None:
        """A figure of the move on show came (its position's or the one before it): shown at once,
        the labels, graph and summary follow with the assessment."""
        node = self.session.model.current_node
        if node is not None and node.is_mainline and ply in (node.ply - 1, node.ply):
            self.show_current(node)

    def _judgement_at(self, ply: int | None) -> str | None:
        if ply is None or ply == 0:
            return None
        move = self.session.model.move_assessment(ply)
        return move.judgement if move is not None else None

    def schedule_refresh(self) -> None:
        """Refresh now, or - while evaluations stream in - at most every `refresh_timer` interval."""
        if self._is_analysing():
            if not self.refresh_timer.isActive():
                self.refresh_timer.start()
        else:
            self.refresh()

    def refresh(self) -> None:
        """Redraw everything derived from the assessment: graph, summary, move labels, board, comment."""
        self.refresh_timer.stop()
        if self.session.model.game is None:
            return
        started = time.perf_counter()
        self.redraw_assessment()
        # A long game costs more to score and draw; keep the GUI thread mostly free meanwhile.
        spent_ms = (time.perf_counter() - started) * 1000
        self.refresh_timer.setInterval(int(min(MAX_REFRESH_MS, max(1000 // REFRESH_HZ, 4 * spent_ms))))

    def redraw_assessment(self) -> None:
        game = self.session.model.game
        assert game is not None
        assessment = self.session.model.assessment
        widgets = self.widgets
        if self.session.model.assessment_error:
            widgets.message_bar.add(Message(key=f"game:scoring:{self.session.model.assessment_error}", level="error", text=self.session.model.assessment_error))
        judgements = self.session.model.shown_judgements()
        widgets.move_list.set_judgements(judgements)
        mode = self.graph_mode(game.kind)
        basis = self.session.model.basis
        evals, losses = graph_series(game, self.session.model.evaluations.by_ply, assessment, mode)
        point_texts = graph_point_texts(game, self.session.model.mainline_node, self.session.model.evaluations, self.session.model.ply_count)
        hidden = self.session.model.engine_hidden_from
        if hidden is not None:  # neither the position asked nor any after it: their figures would tell
            evals = {ply: value for ply, value in evals.items() if ply < hidden - 1}
            losses = {ply: value for ply, value in losses.items() if ply < hidden}
            point_texts = {ply: text for ply, text in point_texts.items() if ply < hidden - 1}
        graph = widgets.ensure_graph()
        graph.set_series(game.kind, evals, losses, judgements, mode, ply_count=self.session.model.ply_count)
        coverage = basis.coverage
        partial = coverage.analysed and not coverage.complete
        graph.set_coverage(
            coverage.missing_plies if coverage.analysed else (),
            rough=not basis.trust.labels,
            partial_text=f"Not final: {coverage.moves_text()}" if partial else "",
        )
        graph.set_point_texts(point_texts)
        times = time_series(game, judgements if hidden is None else {})
        chart = widgets.time_chart()
        if chart is not None:
            shown = times if self._time_chart_wanted else None
            chart.set_series(shown, self.session.model.ply_count)
            chart.setVisible(shown is not None)
        widgets.move_list.set_time_trouble(
            {ply: times.texts[ply] for ply in times.trouble_mistakes} if times is not None else {}
        )
        white, black = summary_dicts(assessment)
        strengths = strength_by_side(game, assessment, basis) if assessment is not None else None
        widgets.summary_panel.set_summary(
            game.kind,
            white,
            black,
            (game.white or "White", game.black or "Black"),
            dict(strengths or {}),  # type: ignore[arg-type]
            side_bases(game, assessment, coverage),
        )
        self.analysis.show_analysis_state()
        widgets.header_label.setText(themed_html(header_html(game, assessment)))
        self.update_player_strips()
        node = self.session.model.current_node
        if node is not None:
            self.show_current(node)

    def update_player_strips(self) -> None:
        game = self.session.model.game
        coverage = self.session.model.basis.coverage if game is not None else None
        partial = coverage is not None and coverage.analysed and not coverage.complete
        self.widgets.board_area.show_players(game, self.session.model.assessment, partial)
        if game is not None:
            self.widgets.board_and_panel.relayout()

    def jump_flagged(self, direction: int) -> None:
        """To the next (+1) / previous (-1) mistake or blunder of the main line."""
        if not self.session.model.go_to_next_flagged(direction, MISTAKE_JUDGEMENTS):
            word = "next" if direction > 0 else "previous"
            self.widgets.status_message(f"No {word} mistake or blunder", 2000)

    def jump_to_judgement(self, color: str, judgement: str) -> None:
        """Cycle through `color`'s moves with `judgement` (a click on a count in the summary)."""
        plies = self.session.model.flagged_plies((judgement,), color)
        if not plies:
            return
        here = self.session.model.current_ply if self.session.model.current_is_mainline else -1
        later = [ply for ply in plies if ply > here]
        self.session.model.set_current_ply(later[0] if later else plies[0])
