"""The review model as Qt sees it: `ReviewSession` wraps the Qt-free
`reviewer.core.services.review_model.ReviewModel`, which owns the open game, its evaluations, the
labels, the node on show and its live lines, and re-emits the model's events as Qt signals.

Every method and property forwards to the model, but for one state of the views alone: the engine's
view hidden while the player looks for a move (`hide_engine_from`). Views connect to the signals
and read through here (or `session.model`). The model is used on the GUI thread only, so its events, and the
signals emitted for them, are delivered on the GUI thread; work done elsewhere comes back through
queued signals (`accept_assessment` is a slot for the background assessor's results).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QObject, Signal, Slot

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.coverage import AnalysisBasis
from reviewer.core.formats.collection import GameCollection
from reviewer.core.gametree import Game, Node
from reviewer.core.passes import PassStanding
from reviewer.core.scoring import FLAGGED_JUDGEMENTS, GameAssessment, MoveAssessment
from reviewer.core.services.live import LiveUpdate
from reviewer.core.services.review_model import (
    AssessmentChanged,
    BackgroundAssessor,
    CurrentChanged,
    EvaluationAdded,
    GameLoaded,
    LiveLinesChanged,
    MoveRefused,
    ReviewEvent,
    ReviewModel,
    TreeChanged,
    assess_safely,
)

__all__ = ["BackgroundAssessor", "ReviewSession", "assess_safely"]


class ReviewSession(QObject):
    """The open game and its review, for Qt. All navigation goes through `set_current_node`."""

    game_loaded = Signal()
    evaluation_added = Signal(int)  # ply
    assessment_changed = Signal()
    current_changed = Signal(object)  # Node
    tree_changed = Signal(bool)  # moves were added, removed or reordered; True when the main line changed
    move_refused = Signal(str)  # a move the rules refused, with the reason
    live_lines_changed = Signal(object)  # Node whose live lines were set or cleared
    engine_hidden_changed = Signal()  # the player began or ended looking for a move on their own

    def __init__(self, preset: str = "lichess", parent: QObject | None = None, model: ReviewModel | None = None) -> None:
        super().__init__(parent)
        self.model = model if model is not None else ReviewModel(preset)
        self.model.subscribe_all(self._relay)
        self._engine_hidden_from: int | None = None

    def _relay(self, event: ReviewEvent) -> None:
        match event:
            case GameLoaded():
                self.game_loaded.emit()
            case EvaluationAdded(ply=ply):
                self.evaluation_added.emit(ply)
            case AssessmentChanged():
                self.assessment_changed.emit()
            case CurrentChanged(node=node):
                self.current_changed.emit(node)
            case TreeChanged(mainline_changed=mainline_changed):
                self.tree_changed.emit(mainline_changed)
            case MoveRefused(reason=reason):
                self.move_refused.emit(reason)
            case LiveLinesChanged(node=node):
                self.live_lines_changed.emit(node)

    # -- the game ------------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        return self.model.game

    @property
    def collection(self) -> GameCollection | None:
        return self.model.collection

    @property
    def game_index(self) -> int:
        return self.model.game_index

    def load_game(
        self,
        game: Game,
        collection: GameCollection | None = None,
        index: int = 0,
        evaluations: Iterable[Evaluation] = (),
    ) -> None:
        self.model.load_game(game, collection, index, evaluations)

    @property
    def ply_count(self) -> int:
        return self.model.ply_count

    def mainline_node(self, ply: int) -> Node:
        return self.model.mainline_node(ply)

    # -- evaluations and assessment -------------------------------------------------------------
    @property
    def evaluations(self) -> EvaluationTable:
        return self.model.evaluations

    @property
    def basis(self) -> AnalysisBasis:
        return self.model.basis

    def add_evaluation(self, evaluation: Evaluation) -> None:
        self.model.add_evaluation(evaluation)

    def add_evaluations(self, evaluations: Iterable[Evaluation], from_analysis: bool = False) -> None:
        self.model.add_evaluations(evaluations, from_analysis)

    def set_pass_standing(self, standing: PassStanding) -> None:
        self.model.set_pass_standing(standing)

    @property
    def preset(self) -> str:
        return self.model.preset

    def set_preset(self, preset: str) -> None:
        self.model.set_preset(preset)

    @property
    def assessment(self) -> GameAssessment | None:
        return self.model.assessment

    @property
    def assessment_settled(self) -> bool:
        return self.model.assessment_settled

    def settle_assessment(self) -> None:
        self.model.settle_assessment()

    def set_background_assessor(self, assessor: BackgroundAssessor | None) -> None:
        self.model.set_background_assessor(assessor)

    @Slot(int, object, object)
    def accept_assessment(self, generation: int, assessment: GameAssessment | None, error: str | None) -> None:
        self.model.accept_assessment(generation, assessment, error)

    @property
    def assessment_error(self) -> str | None:
        return self.model.assessment_error

    def judgements(self) -> dict[int, str | None]:
        return self.model.judgements()

    def move_assessment(self, ply: int) -> MoveAssessment | None:
        return self.model.move_assessment(ply)

    # -- the engine's view hidden while the player looks for a move ---------------------------------
    @property
    def engine_hidden_from(self) -> int | None:
        """The ply of the move the player is asked to better ("Learn from your mistakes"), while
        asked: the views then show no engine figure of any position, nor the labels and graph
        points from that move on. None when nothing is hidden."""
        return self._engine_hidden_from

    def hide_engine_from(self, ply: int | None) -> None:
        if ply != self._engine_hidden_from:
            self._engine_hidden_from = ply
            self.engine_hidden_changed.emit()

    def shown_judgements(self) -> dict[int, str | None]:
        """The labels the move list and graph may show: `judgements` less the hidden ones."""
        judgements, hidden = self.model.judgements(), self._engine_hidden_from
        return judgements if hidden is None else {ply: label for ply, label in judgements.items() if ply < hidden}

    # -- navigation ----------------------------------------------------------------------------
    @property
    def current_node(self) -> Node | None:
        return self.model.current_node

    @property
    def current_ply(self) -> int:
        return self.model.current_ply

    @property
    def current_is_mainline(self) -> bool:
        return self.model.current_is_mainline

    def set_current_node(self, node: Node | None) -> None:
        self.model.set_current_node(node)

    def set_current_ply(self, ply: int) -> None:
        self.model.set_current_ply(ply)

    def step(self, plies: int) -> None:
        self.model.step(plies)

    def go_to_start(self) -> None:
        self.model.go_to_start()

    def go_to_end(self) -> None:
        self.model.go_to_end()

    def flagged_plies(self, judgements: Sequence[str] = FLAGGED_JUDGEMENTS, color: str | None = None) -> list[int]:
        return self.model.flagged_plies(judgements, color)

    def go_to_next_flagged(self, direction: int, judgements: Sequence[str] = FLAGGED_JUDGEMENTS) -> bool:
        return self.model.go_to_next_flagged(direction, judgements)

    # -- live lines of the position on show ------------------------------------------------------
    @property
    def live_lines(self) -> LiveUpdate | None:
        return self.model.live_lines

    def set_live_lines(self, node: Node, update: LiveUpdate) -> bool:
        return self.model.set_live_lines(node, update)

    def clear_live_lines(self) -> None:
        self.model.clear_live_lines()

    # -- exploring: moves played on the board, variations ----------------------------------------
    def play_move(self, text: str) -> Node | None:
        return self.model.play_move(text)

    def play_line(self, moves: Sequence[str]) -> Node | None:
        return self.model.play_line(moves)

    def delete_from(self, node: Node) -> None:
        self.model.delete_from(node)

    def promote(self, node: Node) -> None:
        self.model.promote(node)

    def make_mainline(self, node: Node) -> None:
        self.model.make_mainline(node)

    def undo_edit(self) -> bool:
        return self.model.undo_edit()

    def tree_edited_elsewhere(self) -> None:
        self.model.tree_edited_elsewhere()
