"""The review of the open game, the one owner of its state: the game tree with its variations, the
evaluations, the labels (the assessment), the node on show, the live lines of that node, and
whether the engine's view is hidden while the player looks for a move.

Views never keep their own copy of this state: they subscribe to its events and read from here, and
change it only through its methods. It knows nothing of Qt; the GUI wraps it in
`reviewer.gui.common.session.ReviewSession`, which emits a Qt signal for each of `REVIEW_EVENTS`. It is not
thread-safe: all calls, and so all events, happen on one thread (the GUI thread in the app), and
subscribers are called synchronously, in the order they subscribed, before the method returns.

The assessment (judgements, accuracy, ...) is a pure function of the game, the evaluations and the
preset; it is recomputed after a change and never stored anywhere else. Scoring a long game takes
tens of milliseconds. With a background assessor attached (`set_background_assessor`), new
evaluations are scored elsewhere, newest first: while that runs, the assessment on show is the last
one finished (a few evaluations behind) and `AssessmentChanged` follows when the new one is handed
to `accept_assessment`. `settle_assessment()` makes it exact at once (the end of an analysis, an
export). Without an assessor it is computed on demand.

Evaluations of several engines or limits may arrive for one game (the file's [%eval] comments,
the cache, a new analysis): all are kept, and `evaluations` is the one set that
`reviewer.core.coverage.select_analysis` picks — the analysis run last (`prefer`), else the
newest complete one. Figures are never made from a mix; `basis.coverage` says how much of the
game the set covers and `basis.trust` whether it may give labels at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.coverage import AnalysisBasis, Coverage, assess_basis, select_analysis
from reviewer.core.formats.collection import GameCollection
from reviewer.core.games import IllegalMove
from reviewer.core.gametree import Game, Node, Shape
from reviewer.core.passes import PassStanding
from reviewer.core.scoring import FLAGGED_JUDGEMENTS, GameAssessment, MoveAssessment
from reviewer.core.services.live import LiveUpdate
from reviewer.core.variations import TreeEditor

# (generation, game, a snapshot of the evaluations, preset): score it and hand the result to
# `ReviewModel.accept_assessment` on the model's thread.
BackgroundAssessor = Callable[[int, Game, EvaluationTable, str], None]


# -- events ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReviewEvent:
    """Something in the review changed; subscribers read the new state from the model."""


@dataclass(frozen=True)
class GameLoaded(ReviewEvent):
    """Another game is open (followed by `AssessmentChanged` and `CurrentChanged`)."""


@dataclass(frozen=True)
class EvaluationAdded(ReviewEvent):
    ply: int  # the main-line position evaluated


@dataclass(frozen=True)
class AssessmentChanged(ReviewEvent):
    """The labels on show changed (or were voided)."""


@dataclass(frozen=True)
class CurrentChanged(ReviewEvent):
    node: Node  # the node now on show; it has no live lines yet


@dataclass(frozen=True)
class TreeChanged(ReviewEvent):
    mainline_changed: bool  # moves were added, removed or reordered; True when the main line changed


@dataclass(frozen=True)
class MoveRefused(ReviewEvent):
    reason: str  # why the rules refused the move, in words


@dataclass(frozen=True)
class LiveLinesChanged(ReviewEvent):
    node: Node  # the node whose live lines were set or cleared


@dataclass(frozen=True)
class EngineHiddenChanged(ReviewEvent):
    """The player began or ended looking for a move on their own (`engine_hidden_from`)."""


@dataclass(frozen=True)
class NotesChanged(ReviewEvent):
    node: Node  # the node whose NAGs, comment words or shapes the player changed (or an undo/redo did)


# Every event the model announces, in the order of the fields a subscriber is handed: the one list a
# bridge to another event system (the GUI's Qt signals) is checked against.
REVIEW_EVENTS: tuple[type[ReviewEvent], ...] = (
    GameLoaded,
    EvaluationAdded,
    AssessmentChanged,
    CurrentChanged,
    TreeChanged,
    MoveRefused,
    LiveLinesChanged,
    EngineHiddenChanged,
    NotesChanged,
)


EventT = TypeVar("EventT", bound=ReviewEvent)


class ReviewModel:
    """The open game and its review. All navigation goes through `set_current_node`."""

    def __init__(self, preset: str = "lichess") -> None:
        self._game: Game | None = None
        self._mainline: list[Node] = []
        self._collection: GameCollection | None = None
        self._game_index = 0
        self._evaluations = EvaluationTable()
        # every evaluation of the open game: by node, then by engine id, the newest last. A node
        # keeps its figures wherever an edit moves its line (a variation made the main line brings
        # them along; the old main line's come back with an undo).
        self._all: dict[Node, dict[str, Evaluation]] = {}
        self._prefer: str | None = None
        self._standings: dict[str, PassStanding] = {}  # how far each review in passes got, by its engine id
        self._basis: AnalysisBasis | None = None
        self._preset = preset
        self._current: Node | None = None
        self._assessment: GameAssessment | None = None
        self._assessment_error: str | None = None
        # Every change to what the assessment depends on is a new generation; the assessment on
        # show belongs to `_assessed_generation`. Results older than `_floor_generation` belong
        # to another game or preset and are dropped.
        self._generation = 0
        self._assessed_generation = -1
        self._floor_generation = 0
        self._pending_generation: int | None = None
        self._background_assessor: BackgroundAssessor | None = None
        self._tree_editor: TreeEditor | None = None
        self._edits = 0
        self._live_lines: tuple[Node, LiveUpdate] | None = None
        self._engine_hidden_from: int | None = None
        # (event type, or None for every event; callback), in the order they subscribed
        self._subscribers: list[tuple[type[ReviewEvent] | None, Callable[[ReviewEvent], None]]] = []

    # -- events --------------------------------------------------------------------------------
    def subscribe(self, event_type: type[EventT], callback: Callable[[EventT], None]) -> Callable[[], None]:
        """Call `callback(event)` after every change of `event_type`; returns what unsubscribes it."""
        entry: tuple[type[ReviewEvent] | None, Callable[[ReviewEvent], None]] = (event_type, callback)  # type: ignore[assignment]
        self._subscribers.append(entry)
        return lambda: self._unsubscribe(entry)

    def subscribe_all(self, callback: Callable[[ReviewEvent], None]) -> Callable[[], None]:
        """Call `callback(event)` after every change, whatever its type; returns what unsubscribes it."""
        entry: tuple[type[ReviewEvent] | None, Callable[[ReviewEvent], None]] = (None, callback)
        self._subscribers.append(entry)
        return lambda: self._unsubscribe(entry)

    def _unsubscribe(self, entry: tuple[type[ReviewEvent] | None, Callable[[ReviewEvent], None]]) -> None:
        if entry in self._subscribers:
            self._subscribers.remove(entry)

    def _emit(self, event: ReviewEvent) -> None:
        for event_type, callback in list(self._subscribers):
            if event_type is None or isinstance(event, event_type):
                callback(event)

    # -- the game ------------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        return self._game

    @property
    def collection(self) -> GameCollection | None:
        """What `open_collection` returned for the file the game came from (None when unknown)."""
        return self._collection

    @property
    def game_index(self) -> int:
        return self._game_index

    def load_game(
        self,
        game: Game,
        collection: GameCollection | None = None,
        index: int = 0,
        evaluations: Iterable[Evaluation] = (),
        variation_evaluations: Mapping[Node, Evaluation] | None = None,
    ) -> None:
        """Show `game`; any evaluations it already carries come along (e.g. from the cache or the
        file): those of the main line by ply, those of its variations by node."""
        self._game = game
        self._mainline = [game.root, *game.root.mainline()]
        self._collection = collection
        self._game_index = index
        self._all = {}
        self._prefer = None
        self._standings = {}
        for evaluation in evaluations:
            if 0 <= evaluation.ply < len(self._mainline):
                self._keep(self._mainline[evaluation.ply], evaluation)
        for node, evaluation in (variation_evaluations or {}).items():
            if evaluation.kind == game.kind:
                self._keep(node, evaluation)
        self._select()
        self._current = game.root
        self._live_lines = None
        self._edits = 0
        self._invalidate_assessment(reset=True)
        if self._background_assessor is not None and len(self._evaluations) > 0:
            self._request_background_assessment()
        self._emit(GameLoaded())
        self._emit(AssessmentChanged())
        self._emit(CurrentChanged(self._current))

    @property
    def ply_count(self) -> int:
        """Plies on the main line (0 when nothing is open)."""
        return max(0, len(self._mainline) - 1)

    def mainline_node(self, ply: int) -> Node:
        return self._mainline[ply]

    # -- evaluations and assessment -------------------------------------------------------------
    @property
    def evaluations(self) -> EvaluationTable:
        return self._evaluations

    @property
    def basis(self) -> AnalysisBasis:
        """The evaluations on show, their coverage of the game and the trust in their engine setting."""
        if self._basis is None:
            self._select()
        assert self._basis is not None
        return self._basis

    def add_evaluation(self, evaluation: Evaluation) -> None:
        self.add_evaluations((evaluation,), from_analysis=True)

    def add_evaluations(self, evaluations: Iterable[Evaluation], from_analysis: bool = False) -> None:
        """Store evaluations of the open game (others are ignored); one new assessment for all.

        `from_analysis`: they come from the analysis the user ran, whose set is then the one shown."""
        if self._game is None:
            return
        added = []
        for evaluation in evaluations:
            if evaluation.kind == self._game.kind and 0 <= evaluation.ply <= self.ply_count:
                self._keep(self._mainline[evaluation.ply], evaluation)
                added.append(evaluation.ply)
                if from_analysis:
                    self._prefer = evaluation.engine_id
        if not added:
            return
        self._select()
        self._invalidate_assessment()
        if self._background_assessor is not None:
            # A subscriber reading the assessment meanwhile gets the last one, not one made here
            # (which would leave the background's, of the same generation, dropped unannounced).
            self._pending_generation = self._generation
        for ply in added:
            self._emit(EvaluationAdded(ply))
        if self._background_assessor is not None:
            self._request_background_assessment()
        else:
            self._emit(AssessmentChanged())

    def set_pass_standing(self, standing: PassStanding) -> None:
        """How far the review in passes of `standing.engine_id` got (from the run, or the cache):
        until its last pass is done, its figures are not final."""
        if self._standings.get(standing.engine_id) == standing:
            return
        self._standings[standing.engine_id] = standing
        self._select()

    def _keep(self, node: Node, evaluation: Evaluation) -> None:
        by_engine = self._all.setdefault(node, {})
        by_engine.pop(evaluation.engine_id, None)  # the newest goes last
        by_engine[evaluation.engine_id] = evaluation

    def evaluation_of(self, node: Node) -> Evaluation | None:
        """The figures on show for `node`: on the main line those of the set the review shows, else
        (a variation analysed live, or a main-line position that set lacks) the node's newest."""
        if node.is_mainline and node.ply < len(self._mainline) and self._mainline[node.ply] is node:
            shown = self._evaluations.get(node.ply)
            if shown is not None:
                return shown
        own = self._all.get(node)
        return self._shown_of(own) if own else None

    def add_variation_evaluation(self, node: Node, evaluation: Evaluation) -> None:
        """Keep the engine's verdict on a position off the main line (its figures follow the node
        when an edit makes its line the main line)."""
        if self._game is None or evaluation.kind != self._game.kind or node.is_mainline:
            return
        self._keep(node, evaluation if evaluation.ply == node.ply else evaluation.with_ply(node.ply))
        self._evaluations.variations[node] = self._all[node][evaluation.engine_id]

    def _select(self) -> None:
        if self._game is None:
            self._evaluations = EvaluationTable()
            self._basis = AnalysisBasis(self._evaluations, Coverage("", 0, 0, 0, 0))
            return
        mainline = [
            evaluation if evaluation.ply == ply else evaluation.with_ply(ply)
            for ply, node in enumerate(self._mainline)
            for evaluation in self._all.get(node, {}).values()
        ]
        basis = select_analysis(self._game, mainline, prefer=self._prefer, ply_count=self.ply_count)
        standing = self._standings.get(basis.coverage.engine_id)
        if standing is not None:
            basis = replace(basis, coverage=replace(basis.coverage, passes=standing))
        on_mainline = set(self._mainline)
        basis.evaluations.variations = {
            node: self._shown_of(by_engine) for node, by_engine in self._all.items()
            if node not in on_mainline and by_engine and _in_tree(node, self._game.root)
        }
        self._basis = basis
        self._evaluations = self._basis.evaluations

    def _shown_of(self, by_engine: Mapping[str, Evaluation]) -> Evaluation:
        """A variation node's evaluation: the engine of the main line's figures, else the newest."""
        chosen = by_engine.get(self._basis.coverage.engine_id) if self._basis is not None else None
        return chosen if chosen is not None else list(by_engine.values())[-1]

    def _request_background_assessment(self) -> None:
        assert self._background_assessor is not None and self._game is not None
        self._pending_generation = self._generation
        snapshot = EvaluationTable(dict(self._evaluations.by_ply))  # the evaluations are immutable
        self._background_assessor(self._generation, self._game, snapshot, self._preset)

    @property
    def preset(self) -> str:
        return self._preset

    def set_preset(self, preset: str) -> None:
        if preset == self._preset:
            return
        self._preset = preset
        self._invalidate_assessment(reset=True)
        self._emit(AssessmentChanged())

    @property
    def assessment(self) -> GameAssessment | None:
        """The scoring of the game from the evaluations so far (None before any evaluation).

        While a background assessment is on its way, the last one finished.
        """
        if self._assessed_generation != self._generation and self._pending_generation is None:
            self._assess_now()
        return self._assessment

    @property
    def assessment_settled(self) -> bool:
        """True when the assessment on show covers every evaluation (nothing on its way)."""
        return self._assessed_generation == self._generation or self._pending_generation is None

    def settle_assessment(self) -> None:
        """Make the assessment exact now, on this thread, instead of waiting for the background."""
        if self._assessed_generation != self._generation:
            self._assess_now()
            self._emit(AssessmentChanged())
        self._pending_generation = None

    def set_background_assessor(self, assessor: BackgroundAssessor | None) -> None:
        """Score new evaluations with `assessor` (elsewhere, e.g. off the GUI thread); None: on demand, here."""
        self._background_assessor = assessor
        self._pending_generation = None

    def accept_assessment(self, generation: int, assessment: GameAssessment | None, error: str | None) -> None:
        """A background assessment of `generation` is done: show it unless a newer one is shown."""
        if generation < self._floor_generation or generation <= self._assessed_generation:
            return
        self._assessment, self._assessment_error = assessment, error
        self._assessed_generation = generation
        if generation == self._generation:
            self._pending_generation = None
        self._emit(AssessmentChanged())

    def _assess_now(self) -> None:
        self._assessment, self._assessment_error = assess_safely(self._game, self._evaluations, self._preset)
        self._assessed_generation = self._generation

    @property
    def assessment_error(self) -> str | None:
        """Why the last assessment could not be made, in words (None when it could)."""
        self.assessment  # noqa: B018 - refreshes the error with the assessment
        return self._assessment_error

    def judgements(self) -> dict[int, str | None]:
        """Main-line ply -> judgement ("best", "mistake", ...) for every scored move."""
        assessment = self.assessment
        return {move.ply: move.judgement for move in assessment.moves} if assessment is not None else {}

    def move_assessment(self, ply: int) -> MoveAssessment | None:
        """The scored move that led to main-line position `ply` (None when not scored)."""
        assessment = self.assessment
        return assessment.move_at_ply(ply) if assessment is not None else None

    def _invalidate_assessment(self, reset: bool = False) -> None:
        """A new generation; `reset`: what was assessed before (another game, preset) is void."""
        self._generation += 1
        if reset:
            self._floor_generation = self._generation
            self._pending_generation = None
            self._assessment, self._assessment_error = None, None

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
            self._emit(EngineHiddenChanged())

    def shown_judgements(self) -> dict[int, str | None]:
        """The labels the move list and graph may show: `judgements` less the hidden ones."""
        judgements, hidden = self.judgements(), self._engine_hidden_from
        return judgements if hidden is None else {ply: label for ply, label in judgements.items() if ply < hidden}

    # -- navigation ----------------------------------------------------------------------------
    @property
    def current_node(self) -> Node | None:
        return self._current

    @property
    def current_ply(self) -> int:
        return self._current.ply if self._current is not None else 0

    @property
    def current_is_mainline(self) -> bool:
        return self._current is not None and self._current.is_mainline

    def set_current_node(self, node: Node | None) -> None:
        if node is None or self._game is None or node is self._current:
            return
        self._current = node
        self._live_lines = None  # they were of the position before
        self._emit(CurrentChanged(node))

    def set_current_ply(self, ply: int) -> None:
        """Go to main-line position `ply`, clamped to the game."""
        if self._game is None:
            return
        self.set_current_node(self._mainline[max(0, min(ply, self.ply_count))])

    def step(self, plies: int) -> None:
        """Move along the current line: forward follows the first continuation, back the parent."""
        node = self._current
        if node is None:
            return
        for _ in range(abs(plies)):
            if plies > 0 and node.children:
                node = node.children[0]
            elif plies < 0 and node.parent is not None:
                node = node.parent
        self.set_current_node(node)

    def go_to_start(self) -> None:
        self.set_current_ply(0)

    def go_to_end(self) -> None:
        """The end of the current line (the main line's end from a main-line node)."""
        node = self._current
        if node is None:
            return
        while node.children:
            node = node.children[0]
        self.set_current_node(node)

    def flagged_plies(self, judgements: Sequence[str] = FLAGGED_JUDGEMENTS, color: str | None = None) -> list[int]:
        """Main-line plies whose move was judged one of `judgements` (by `color` only, when given)."""
        plies = sorted(ply for ply, judgement in self.judgements().items() if judgement in judgements)
        if color is not None and self._game is not None:
            plies = [ply for ply in plies if self._game.mover_at_ply(ply) == color]
        return plies

    def go_to_next_flagged(self, direction: int, judgements: Sequence[str] = FLAGGED_JUDGEMENTS) -> bool:
        """Jump to the next (+1) / previous (-1) flagged move on the main line; False when none."""
        here = self._mainline_anchor()
        plies = self.flagged_plies(judgements)
        targets = [ply for ply in plies if ply > here] if direction > 0 else [ply for ply in plies if ply < here][::-1]
        if not targets:
            return False
        self.set_current_ply(targets[0])
        return True

    def _mainline_anchor(self) -> int:
        """The main-line ply the current node hangs from (itself when on the main line)."""
        node = self._current
        while node is not None and not node.is_mainline:
            node = node.parent
        return node.ply if node is not None else 0

    # -- live lines of the position on show ------------------------------------------------------
    @property
    def live_lines(self) -> LiveUpdate | None:
        """The latest live analysis of the current node (None when none has come since it was shown)."""
        if self._live_lines is None or self._live_lines[0] is not self._current:
            return None
        return self._live_lines[1]

    def set_live_lines(self, node: Node, update: LiveUpdate) -> bool:
        """Keep `update` as the live lines of `node`; refused (False) when `node` is not on show."""
        if self._game is None or node is not self._current:
            return False
        self._live_lines = (node, update)
        if not node.is_mainline:
            self.add_variation_evaluation(node, update.evaluation)
        self._emit(LiveLinesChanged(node))
        return True

    def clear_live_lines(self) -> None:
        """The lines on show are void (the engine was switched off, a new search started)."""
        if self._live_lines is None:
            return
        node = self._live_lines[0]
        self._live_lines = None
        self._emit(LiveLinesChanged(node))

    # -- exploring: moves played on the board, variations ----------------------------------------
    def play_move(self, text: str) -> Node | None:
        """Play `text` (SAN/UCI, a Go coordinate or "pass") after the current node, by the game's
        rules: an existing continuation is followed, another move starts a variation. A refused
        move changes nothing and is announced by `MoveRefused` with the reason."""
        if self._game is None or self._current is None:
            return None
        try:
            result = self._editor().play(self._current, text)
        except IllegalMove as illegal:
            self._emit(MoveRefused(illegal.sentence))
            return None
        if result.created:
            self._after_edit(mainline_changed=result.node.is_mainline)
        self.set_current_node(result.node)
        return result.node

    def play_line(self, moves: Sequence[str]) -> Node | None:
        """Play several moves from the current node, all or nothing."""
        if self._game is None or self._current is None:
            return None
        try:
            node = self._editor().play_line(self._current, list(moves))
        except IllegalMove as illegal:
            self._emit(MoveRefused(illegal.sentence))
            return None
        self._after_edit(mainline_changed=node.is_mainline)
        self.set_current_node(node)
        return node

    def delete_from(self, node: Node) -> None:
        """Delete `node` and what follows it (the start position stays)."""
        if self._game is None or node.parent is None:
            return
        was_mainline = node.is_mainline
        current_inside = self._current is not None and node in self._current.path_from_root()
        parent = self._editor().delete(node)
        if current_inside:  # first: what the edit's listeners redraw is the move on show, in the tree
            self.set_current_node(parent)
        self._after_edit(mainline_changed=was_mainline)

    def promote(self, node: Node) -> None:
        if self._game is None or node.is_mainline:
            return
        self._editor().promote(node)
        self._after_edit(mainline_changed=node.is_mainline)

    def make_mainline(self, node: Node) -> None:
        if self._game is None or node.is_mainline:
            return
        self._editor().make_mainline(node)
        self._after_edit(mainline_changed=True)

    # -- the player's notes: NAGs, the words of the comment, shapes --------------------------------
    def annotate(self, node: Node, nags: Sequence[int] | None = None, words: str | None = None,
                 shapes: Sequence[Shape] | None = None) -> bool:
        """Give `node` these NAGs, these words or these shapes (undoable with the moves); False when
        that changes nothing."""
        if self._game is None:
            return False
        changed = self._editor().annotate(
            node,
            nags=list(nags) if nags is not None else None,
            words=words,
            shapes=list(shapes) if shapes is not None else None,
        )
        if changed:
            self._note_edit(node)
        return changed

    def toggle_nag(self, node: Node, nag: int) -> bool:
        """Put NAG `nag` on `node`, or take it off when it is there. A move-quality NAG ($1-$6)
        replaces the one the move had; a position NAG ($10-$19) the position one; others add up."""
        nags = list(node.nags)
        if nag in nags:
            nags.remove(nag)
        else:
            for group in (range(1, 7), range(10, 20)):
                if nag in group:
                    nags = [other for other in nags if other not in group]
            nags.append(nag)
        return self.annotate(node, nags=nags)

    def toggle_shape(self, node: Node, shape: Shape) -> bool:
        """Draw `shape` on `node`, or take it away when it is there (`TreeEditor.toggle_shape`)."""
        if self._game is None:
            return False
        changed = self._editor().toggle_shape(node, shape)
        if changed:
            self._note_edit(node)
        return changed

    def notes_edited_elsewhere(self, node: Node) -> None:
        """`node`'s notes were put back by other code (the player's notes kept in Reviewer's data):
        announced, neither undoable nor counted as an unsaved edit."""
        if self._game is not None:
            self._emit(NotesChanged(node))

    def _note_edit(self, node: Node) -> None:
        self._edits += 1
        self._emit(NotesChanged(node))

    @property
    def can_undo(self) -> bool:
        return self._tree_editor is not None and self._tree_editor.game is self._game and self._tree_editor.can_undo

    @property
    def can_redo(self) -> bool:
        return self._tree_editor is not None and self._tree_editor.game is self._game and self._tree_editor.can_redo

    @property
    def unsaved_edits(self) -> int:
        """Edits (moves, variations, notes; undos and redos count too) since the game was opened or
        `mark_saved`: 0 means the game on show is the one in its file, also when undoing came
        back to it."""
        editor = self._tree_editor
        if editor is not None and editor.game is self._game and editor.is_clean:
            return 0
        return self._edits

    def mark_saved(self) -> None:
        self._edits = 0
        if self._tree_editor is not None and self._tree_editor.game is self._game:
            self._tree_editor.mark_clean()

    def undo_edit(self) -> bool:
        if self._game is None or self._tree_editor is None or not self._tree_editor.can_undo:
            return False
        node = self._tree_editor.undo()
        self._after_undo_or_redo(node, self._tree_editor.last_was_notes)
        return True

    def redo_edit(self) -> bool:
        """Make the last undone edit again (moves and notes alike)."""
        if self._game is None or self._tree_editor is None or not self._tree_editor.can_redo:
            return False
        node = self._tree_editor.redo()
        self._after_undo_or_redo(node, self._tree_editor.last_was_notes)
        return True

    def _after_undo_or_redo(self, node: Node | None, of_notes: bool) -> None:
        if of_notes and node is not None:
            self._note_edit(node)
        else:
            self._after_edit(mainline_changed=True)
        if node is not None:
            self.set_current_node(node)

    def tree_edited_elsewhere(self) -> None:
        """Moves were added to the open game by other code (saved lines grafted back)."""
        if self._game is not None:
            self._after_edit(mainline_changed=True, by_player=False)

    def _editor(self) -> TreeEditor:
        assert self._game is not None
        if self._tree_editor is None or self._tree_editor.game is not self._game:
            self._tree_editor = TreeEditor(self._game)
        return self._tree_editor

    def _after_edit(self, mainline_changed: bool, by_player: bool = True) -> None:
        """The tree changed. When the main line did, its figures are those its new nodes have.

        `mainline_changed` may say True for an edit that could have changed it (an undo): the main
        line is compared node by node, and the assessment is kept when it is the same."""
        assert self._game is not None
        if by_player:
            self._edits += 1
        new_mainline = [self._game.root, *self._game.root.mainline()]
        same = len(new_mainline) == len(self._mainline) and all(a is b for a, b in zip(new_mainline, self._mainline, strict=True))
        mainline_changed = not same
        if mainline_changed:
            old_mainline = self._mainline
            self._mainline = new_mainline
            keep = 0
            while keep < min(len(old_mainline), len(self._mainline)) and old_mainline[keep] is self._mainline[keep]:
                keep += 1
            self._standings = {}  # they were of the old main line
            self._select()
            # Moves added after the main line's end leave every scored move as it was: its labels
            # stay on show until the new assessment comes. Any other change voids them at once.
            self._invalidate_assessment(reset=keep < len(old_mainline))
            if self._background_assessor is not None and len(self._evaluations) > 0:
                self._request_background_assessment()
            self._emit(AssessmentChanged())
        self._emit(TreeChanged(mainline_changed))


def _in_tree(node: Node, root: Node) -> bool:
    """Whether `node` hangs from `root` (a deleted line's nodes keep their parent, not their place)."""
    while node.parent is not None:
        if not any(child is node for child in node.parent.children):
            return False
        node = node.parent
    return node is root


def assess_safely(
    game: Game | None, evaluations: EvaluationTable, preset: str
) -> tuple[GameAssessment | None, str | None]:
    """The scoring of `reviewer.core.scoring` of one engine setting's evaluations, labels withheld
    where that setting may not give them; (None, reason) when it cannot be made. Any thread."""
    if game is None or len(evaluations) == 0:
        return None, None
    try:
        return assess_basis(game, select_analysis(game, evaluations), preset=preset), None  # type: ignore[arg-type]
    except Exception as error:  # a scoring failure must never take the window down
        return None, f"scoring failed: {error}"
