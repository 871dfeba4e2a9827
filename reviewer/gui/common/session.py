"""The review model's events as Qt signals: `ReviewSession` holds the Qt-free
`reviewer.core.services.review_model.ReviewModel` (`session.model`), which owns the open game, its
evaluations, the labels, the node on show and its live lines, and emits one Qt signal for each of
its events, with the event's fields as arguments.

Views connect to the signals and read the state from `session.model`; they change it through the
model's methods. The model is used on the GUI thread only, so its events, and the signals emitted
for them, are delivered on the GUI thread; work done elsewhere comes back through queued signals
(`accept_assessment` is a slot for the background assessor's results).
"""

from __future__ import annotations

from dataclasses import fields

from PySide6.QtCore import QObject, Signal, Slot

from reviewer.core.scoring import GameAssessment
from reviewer.core.services.review_model import (
    AssessmentChanged,
    BackgroundAssessor,
    CurrentChanged,
    EngineHiddenChanged,
    EvaluationAdded,
    GameLoaded,
    LiveLinesChanged,
    MoveRefused,
    NotesChanged,
    ReviewEvent,
    ReviewModel,
    TreeChanged,
    assess_safely,
)

__all__ = ["SIGNAL_OF_EVENT", "BackgroundAssessor", "ReviewSession", "assess_safely"]

# Each event of the model -> the name of the signal that announces it.
SIGNAL_OF_EVENT: dict[type[ReviewEvent], str] = {
    GameLoaded: "game_loaded",
    EvaluationAdded: "evaluation_added",
    AssessmentChanged: "assessment_changed",
    CurrentChanged: "current_changed",
    TreeChanged: "tree_changed",
    MoveRefused: "move_refused",
    LiveLinesChanged: "live_lines_changed",
    EngineHiddenChanged: "engine_hidden_changed",
    NotesChanged: "notes_changed",
}


class ReviewSession(QObject):
    """The open game's review for Qt: `model` holds the state, the signals say when it changed."""

    game_loaded = Signal()
    evaluation_added = Signal(int)  # main-line ply
    assessment_changed = Signal()
    current_changed = Signal(object)  # Node
    tree_changed = Signal(bool)  # moves were added, removed or reordered; True when the main line changed
    move_refused = Signal(str)  # a move the rules refused, with the reason
    live_lines_changed = Signal(object)  # Node whose live lines were set or cleared
    engine_hidden_changed = Signal()  # the player began or ended looking for a move on their own
    notes_changed = Signal(object)  # Node whose NAGs, comment words or shapes changed

    def __init__(self, preset: str = "lichess", parent: QObject | None = None, model: ReviewModel | None = None) -> None:
        super().__init__(parent)
        self.model = model if model is not None else ReviewModel(preset)
        self.model.subscribe_all(self._relay)

    def _relay(self, event: ReviewEvent) -> None:
        arguments = (getattr(event, field.name) for field in fields(event))  # not astuple: it copies the nodes
        getattr(self, SIGNAL_OF_EVENT[type(event)]).emit(*arguments)

    @Slot(int, object, object)
    def accept_assessment(self, generation: int, assessment: GameAssessment | None, error: str | None) -> None:
        self.model.accept_assessment(generation, assessment, error)
