"""The session plays moves through the game's rules and keeps the tree, the main line and the
evaluations consistent."""

from __future__ import annotations

import chess
import pytest

from reviewer.core.analysis import Evaluation
from reviewer.core.gametree import Game, Node
from reviewer.gui.common.session import ReviewSession


def chess_game(sans: list[str]) -> Game:
    game = Game(kind="chess", first_player="white")
    board = chess.Board()
    node = game.root
    for san in sans:
        move = board.parse_san(san)
        node = node.add_child(Node(move=san, color="white" if board.turn else "black", uci=move.uci()))
        board.push(move)
    return game


@pytest.fixture
def session(qtbot) -> ReviewSession:
    session = ReviewSession()
    session.model.load_game(chess_game(["e4", "e5", "Nf3", "Nc6"]))
    for ply in range(5):
        session.model.add_evaluation(Evaluation(ply=ply, kind="chess", engine_id="t", score_cp_first=20))
    return session


def test_a_move_off_the_main_line_starts_a_variation_and_keeps_the_evaluations(session, qtbot):
    session.model.set_current_ply(2)
    with qtbot.waitSignal(session.tree_changed) as changed:
        node = session.model.play_move("Bc4")
    assert changed.args == [False] and node is session.model.current_node
    assert not node.is_mainline and node.move == "Bc4"
    assert len(session.model.evaluations) == 5 and session.model.ply_count == 4


def test_the_game_move_is_followed_not_duplicated(session, qtbot):
    session.model.set_current_ply(2)
    with qtbot.assertNotEmitted(session.tree_changed):
        node = session.model.play_move("g1f3")
    assert node is session.model.mainline_node(3)


def test_an_illegal_move_is_refused_with_the_reason_and_changes_nothing(session, qtbot):
    session.model.set_current_ply(4)
    with qtbot.waitSignal(session.move_refused) as refused, qtbot.assertNotEmitted(session.tree_changed):
        assert session.model.play_move("Qxf7") is None
    assert refused.args[0].startswith("Qxf7 is not legal in this position") and session.model.current_ply == 4


def test_extending_the_main_line_and_promoting_a_variation(session, qtbot):
    session.model.go_to_end()
    session.model.play_move("Bb5")
    assert session.model.ply_count == 5 and session.model.current_is_mainline
    session.model.set_current_ply(2)
    variation = session.model.play_line(["Bc4", "Bc5"])
    assert variation is not None and not variation.is_mainline
    with qtbot.waitSignal(session.tree_changed) as changed:
        session.model.promote(variation)
    assert changed.args == [True] and session.model.ply_count == 4
    assert [session.model.mainline_node(p).move for p in (3, 4)] == ["Bc4", "Bc5"]
    assert sorted(session.model.evaluations.by_ply) == [0, 1, 2]  # the plies after the change are void
    assert session.model.undo_edit() and session.model.mainline_node(3).move == "Nf3"


def test_deleting_the_line_under_the_current_move_moves_back_to_its_parent(session):
    session.model.set_current_ply(2)
    branch = session.model.play_line(["Bc4", "Bc5", "c3"])
    assert branch is not None
    first = branch.parent.parent
    session.model.delete_from(first)
    assert session.model.current_node is session.model.mainline_node(2)
    assert len(session.model.mainline_node(2).children) == 1


def test_undoing_a_variation_keeps_the_assessment_on_show(session, qtbot):
    requests: list[int] = []
    session.model.set_background_assessor(lambda generation, *_rest: requests.append(generation))
    session.model.settle_assessment()
    assert session.model.assessment is not None
    session.model.set_current_ply(2)
    session.model.play_line(["Bc4", "Bc5"])
    asked = len(requests)
    with qtbot.waitSignal(session.tree_changed) as changed:
        assert session.model.undo_edit()
    assert changed.args == [False]  # the main line is as it was
    assert session.model.assessment is not None and len(requests) == asked  # nothing to score again


def test_moves_after_the_end_keep_the_labels_on_show_until_the_new_assessment(session, qtbot):
    requests: list[int] = []
    session.model.set_background_assessor(lambda generation, *_rest: requests.append(generation))
    session.model.settle_assessment()
    before = session.model.judgements()
    assert before
    session.model.go_to_end()
    with qtbot.waitSignal(session.tree_changed) as changed:
        session.model.play_move("Bb5")
    assert changed.args == [True] and session.model.ply_count == 5
    assert session.model.judgements() == before and len(requests) == 1  # shown while the new one is made
    session.model.set_current_ply(2)
    session.model.make_mainline(session.model.play_move("Bc4"))  # the main line changes in the middle
    assert session.model.judgements() == {}  # the old labels would name other moves: gone at once
