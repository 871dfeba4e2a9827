"""ReviewModel without Qt: a real game, its evaluations, labels that survive exploring, the selection,
live lines, and the events, in order."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.core.analysis import Evaluation
from reviewer.core.embedded_evals.pgn import evaluations_from_pgn_comments
from reviewer.core.formats import load_game
from reviewer.core.games.chess import board_after
from reviewer.core.gametree import Game, Node, Shape
from reviewer.core.services.live import LiveUpdate
from reviewer.core.services.review_model import (
    AssessmentChanged,
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
)

FILE_WITH_EVALS = Path("pgn") / "scalachess__FWWRC_full_eval_clk.pgn"  # one game, lichess [%eval] on its moves


@pytest.fixture
def game(corpus_dir: Path) -> Game:
    return load_game(corpus_dir / FILE_WITH_EVALS)


def recorded(model: ReviewModel) -> list[ReviewEvent]:
    events: list[ReviewEvent] = []
    model.subscribe_all(events.append)
    return events


def other_legal_move(game: Game, node: Node) -> str:
    """A legal move after `node` that is not the game's continuation there (UCI)."""
    taken = {child.uci for child in node.children}
    return next(move.uci() for move in board_after(game, node).legal_moves if move.uci() not in taken)


def loaded(game: Game) -> ReviewModel:
    model = ReviewModel()
    model.load_game(game, evaluations=evaluations_from_pgn_comments(game).ordered())
    return model


def test_loading_a_corpus_game_announces_it_then_its_labels_then_the_start(game) -> None:
    model = ReviewModel()
    events = recorded(model)
    model.load_game(game, evaluations=evaluations_from_pgn_comments(game).ordered())
    assert events == [GameLoaded(), AssessmentChanged(), CurrentChanged(game.root)]
    assert model.game is game and model.current_node is game.root and model.ply_count == game.ply_count > 100
    assert model.basis.coverage.engine_id == "pgn-comments"
    judgements = model.judgements()
    assert len(judgements) > 100 and model.flagged_plies()  # a real game has its inaccuracies


def test_new_evaluations_are_announced_by_ply_then_one_assessment(game) -> None:
    model = ReviewModel()
    model.load_game(game)
    events = recorded(model)
    table = evaluations_from_pgn_comments(game)
    model.add_evaluations(table.ordered())
    plies = [e.ply for e in table.ordered()]
    assert events == [*(EvaluationAdded(ply) for ply in plies), AssessmentChanged()]
    assert model.judgements()  # scored on demand, no background assessor


def test_a_move_played_off_the_main_line_never_clears_its_labels(game) -> None:
    model = loaded(game)
    before = model.judgements()
    evaluations_before = dict(model.evaluations.by_ply)
    model.set_current_ply(20)
    events = recorded(model)
    node = model.play_move(other_legal_move(game, model.mainline_node(20)))
    assert node is not None and not node.is_mainline and node.parent is model.mainline_node(20)
    assert events == [TreeChanged(False), CurrentChanged(node)]  # no AssessmentChanged: nothing to score again
    assert model.judgements() == before and dict(model.evaluations.by_ply) == evaluations_before

    deeper = model.play_move(other_legal_move(game, node))
    assert deeper is not None and model.current_node is deeper
    assert model.judgements() == before


def test_undoing_a_variation_goes_back_and_keeps_the_labels(game) -> None:
    model = loaded(game)
    before = model.judgements()
    branch_point = model.mainline_node(30)
    model.set_current_node(branch_point)
    line = [other_legal_move(game, branch_point)]
    node = model.play_line(line)
    assert node is not None and node.parent is branch_point
    events = recorded(model)
    assert model.undo_edit()
    assert events == [TreeChanged(False), CurrentChanged(branch_point)]
    assert branch_point.children == [model.mainline_node(31)] and model.judgements() == before
    assert not model.undo_edit() and events[-1] == CurrentChanged(branch_point)  # nothing left to undo


def test_the_games_own_move_is_followed_and_a_refused_one_changes_nothing(game) -> None:
    model = loaded(game)
    model.set_current_ply(10)
    events = recorded(model)
    assert model.play_move(model.mainline_node(11).uci or "") is model.mainline_node(11)
    assert events == [CurrentChanged(model.mainline_node(11))]
    events.clear()
    tree_before = [node.children[:] for node in model.mainline_node(11).path_from_root()]
    assert model.play_move("a1a1") is None
    assert len(events) == 1 and isinstance(events[0], MoveRefused) and events[0].reason == "a1a1 is not legal: a piece must move to another square"
    assert model.current_ply == 11 and [node.children for node in model.mainline_node(11).path_from_root()] == tree_before


def test_a_change_in_the_middle_of_the_main_line_voids_what_follows(game) -> None:
    model = loaded(game)
    model.set_current_ply(40)
    variation = model.play_move(other_legal_move(game, model.mainline_node(40)))
    assert variation is not None
    events = recorded(model)
    model.make_mainline(variation)
    assert events == [AssessmentChanged(), TreeChanged(True)]
    assert model.ply_count == 41 and model.mainline_node(41) is variation
    assert max(model.evaluations.by_ply) <= 40  # the evaluations of the replaced moves are gone
    assert model.judgements()[41] is None  # the new move waits for an evaluation of its position


def test_selection_events_go_to_the_subscribers_of_their_type_until_they_leave(game) -> None:
    model = loaded(game)
    seen: list[int] = []
    unsubscribe = model.subscribe(CurrentChanged, lambda event: seen.append(event.node.ply))
    refusals: list[str] = []
    model.subscribe(MoveRefused, lambda event: refusals.append(event.reason))
    model.step(2)
    model.set_current_ply(2)  # already there: silent
    model.set_current_ply(10_000)
    model.go_to_start()
    assert model.go_to_next_flagged(1)
    assert seen == [2, game.ply_count, 0, model.flagged_plies()[0]] and refusals == []
    unsubscribe()
    model.go_to_end()
    assert len(seen) == 4 and model.current_ply == game.ply_count


def test_live_lines_belong_to_the_node_on_show(game) -> None:
    model = loaded(game)
    model.set_current_ply(5)
    here, elsewhere = model.current_node, model.mainline_node(6)
    assert here is not None
    update = LiveUpdate(token=here, evaluation=Evaluation(ply=5, kind="chess", engine_id="live", score_cp_first=40), step=0, seconds=0.1, last=False)
    events = recorded(model)
    assert not model.set_live_lines(elsewhere, update)  # about a position not on show
    assert model.set_live_lines(here, update)
    assert model.live_lines is update and events == [LiveLinesChanged(here)]
    model.step(1)
    assert model.live_lines is None  # a new position has no lines yet
    model.clear_live_lines()
    assert events == [LiveLinesChanged(here), CurrentChanged(elsewhere)]
    model.step(-1)
    assert model.live_lines is None  # they were dropped, not kept for coming back


def test_the_background_assessor_protocol(game) -> None:
    model = ReviewModel()
    requests: list[tuple[int, int]] = []
    model.set_background_assessor(lambda generation, _game, table, _preset: requests.append((generation, len(table))))
    table = evaluations_from_pgn_comments(game).ordered()
    model.load_game(game, evaluations=table[:10])
    model.add_evaluations(table[10:20])
    assert [count for _generation, count in requests] == [10, 20]
    assert model.assessment is None and not model.assessment_settled
    events = recorded(model)
    model.accept_assessment(requests[-1][0], None, "scored elsewhere")
    model.accept_assessment(requests[0][0], None, "older: dropped")
    assert events == [AssessmentChanged()] and model.assessment_error == "scored elsewhere" and model.assessment_settled
    model.add_evaluations(table[20:])
    model.settle_assessment()  # here, now
    assert model.assessment is not None and model.assessment_settled and model.judgements()
    stale = requests[-1][0]
    model.load_game(game)
    events.clear()
    model.accept_assessment(stale, None, "of the game before")
    assert events == [] and model.assessment is None


def test_a_subscriber_reading_the_assessment_as_evaluations_come_leaves_it_to_the_background(game) -> None:
    model = ReviewModel()
    requests: list[int] = []
    model.set_background_assessor(lambda generation, _game, _table, _preset: requests.append(generation))
    table = evaluations_from_pgn_comments(game).ordered()
    model.load_game(game, evaluations=table[:10])
    model.accept_assessment(requests[-1], None, "the first ten")
    read_during: list[str | None] = []
    model.subscribe(EvaluationAdded, lambda _event: read_during.append(model.assessment_error))
    model.add_evaluations(table[10:20])
    assert read_during == ["the first ten"] * 10  # the last one finished, nothing scored here
    events = recorded(model)
    model.accept_assessment(requests[-1], None, "all twenty")
    assert events == [AssessmentChanged()] and model.assessment_error == "all twenty" and model.assessment_settled


def test_the_engine_hidden_from_a_move_hides_its_labels_and_the_later_ones_and_is_announced_once(game) -> None:
    model = loaded(game)
    events = recorded(model)
    judged = model.judgements()
    model.hide_engine_from(20)
    model.hide_engine_from(20)
    assert events == [EngineHiddenChanged()]
    assert model.engine_hidden_from == 20
    assert model.shown_judgements() == {ply: label for ply, label in judged.items() if ply < 20}
    model.hide_engine_from(None)
    assert events == [EngineHiddenChanged(), EngineHiddenChanged()]
    assert model.shown_judgements() == judged


def test_notes_are_undone_and_redone_with_the_moves_and_counted_as_unsaved(game) -> None:
    model = loaded(game)
    node = model.mainline_node(14)
    words_before = node.comment
    assert model.unsaved_edits == 0 and not model.can_undo
    events = recorded(model)
    assert model.toggle_nag(node, 6) and 6 in node.nags
    assert model.toggle_nag(node, 2) and 2 in node.nags and 6 not in node.nags  # one move quality at a time
    assert model.toggle_nag(node, 16) and 16 in node.nags  # a position NAG beside it
    assert model.annotate(node, words="I missed Nd5 here")
    assert "I missed Nd5 here" in node.comment and "[%clk" in node.comment  # the file's clock kept
    arrow = Shape("arrow", (1, 4), (3, 4), "G")
    assert model.toggle_shape(node, arrow) and node.shapes == [arrow]
    assert not model.annotate(node, words="I missed Nd5 here")  # nothing changed, nothing to undo
    assert [type(event) for event in events] == [NotesChanged] * 5 and model.unsaved_edits == 5
    events.clear()
    assert model.undo_edit() and node.shapes == []
    assert model.undo_edit() and node.comment == words_before
    assert events[0] == NotesChanged(node) and model.current_node is node
    assert model.can_redo and model.redo_edit() and "I missed Nd5 here" in node.comment
    assert model.redo_edit() and node.shapes == [arrow] and not model.can_redo
    model.mark_saved()
    assert model.unsaved_edits == 0
    model.play_move(other_legal_move(game, node))
    assert model.unsaved_edits == 1


def test_undoing_back_to_the_saved_game_leaves_nothing_unsaved_until_an_edit_drops_the_way_back(game) -> None:
    model = loaded(game)
    node = model.mainline_node(14)
    assert model.toggle_nag(node, 2) and model.annotate(node, words="a plan")
    assert model.unsaved_edits == 2
    assert model.undo_edit() and model.undo_edit()
    assert model.unsaved_edits == 0  # the game as opened, as in the file
    assert model.redo_edit() and model.unsaved_edits > 0
    model.mark_saved()
    assert model.unsaved_edits == 0
    assert model.undo_edit() and model.unsaved_edits > 0  # the file holds the NAG, the game on show not
    assert model.redo_edit() and model.unsaved_edits == 0
    assert model.undo_edit() and model.toggle_nag(node, 6)  # the saved state's redo is gone
    assert model.undo_edit() and model.unsaved_edits > 0  # back to a tree that is not the file's


def test_notes_put_back_by_other_code_are_announced_but_neither_undoable_nor_unsaved(game) -> None:
    model = loaded(game)
    node = model.mainline_node(3)
    events = recorded(model)
    node.nags = [1]  # as Reviewer's kept notes put them back
    model.notes_edited_elsewhere(node)
    assert events == [NotesChanged(node)]
    assert model.unsaved_edits == 0 and not model.can_undo
