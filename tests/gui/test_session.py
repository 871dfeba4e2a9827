"""ReviewSession: the one stateful object — navigation, evaluations, the derived assessment."""

from __future__ import annotations

import chess
import pytest

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.formats import load_game
from reviewer.core.gametree import Game, Node
from reviewer.gui.common.session import ReviewSession


def chess_game(sans: list[str]) -> Game:
    game = Game(kind="chess", white="Anna", black="Boris")
    board = chess.Board()
    node = game.root
    for san in sans:
        move = board.parse_san(san)
        color = "white" if board.turn == chess.WHITE else "black"
        board.push(move)
        node = node.add_child(Node(move=san, color=color, uci=move.uci()))
    return game


def cp_eval(ply: int, cp_white: int, best: str | None = None) -> Evaluation:
    side = "white" if ply % 2 == 0 else "black"
    return Evaluation(ply=ply, kind="chess", engine_id="test", score_cp_first=cp_white, side_to_move=side, best_move=best)


@pytest.fixture
def session(qtbot) -> ReviewSession:
    return ReviewSession()


def test_loading_a_game_announces_it_and_starts_at_the_root(session, qtbot) -> None:
    game = chess_game(["e4", "e5", "Nf3"])
    with qtbot.waitSignals([session.game_loaded, session.current_changed]):
        session.model.load_game(game)
    assert session.model.game is game
    assert session.model.current_node is game.root
    assert session.model.ply_count == 3


def test_navigation_clamps_and_steps_along_the_line(session, qtbot) -> None:
    game = chess_game(["e4", "e5", "Nf3", "Nc6"])
    session.model.load_game(game)
    seen: list[int] = []
    session.current_changed.connect(lambda node: seen.append(node.ply))
    session.model.step(1)
    session.model.step(2)
    session.model.set_current_ply(99)
    session.model.step(-1)
    session.model.go_to_start()
    session.model.go_to_end()
    session.model.set_current_ply(-5)
    assert seen == [1, 3, 4, 3, 0, 4, 0]


def test_stepping_forward_from_a_variation_stays_in_it(session) -> None:
    game = chess_game(["e4", "e5"])
    side = game.root.children[0].add_child(Node(move="c5", color="black", uci="c7c5"))
    deeper = side.add_child(Node(move="Nf3", color="white", uci="g1f3"))
    session.model.load_game(game)
    session.model.set_current_node(side)
    session.model.step(1)
    assert session.model.current_node is deeper
    session.model.go_to_start()
    session.model.step(2)
    assert session.model.current_node is game.node_at_ply(2)


def test_setting_the_same_node_again_is_silent(session, qtbot) -> None:
    session.model.load_game(chess_game(["e4"]))
    with qtbot.assertNotEmitted(session.current_changed):
        session.model.set_current_ply(0)


def test_evaluations_drive_the_assessment_and_judgements(session, qtbot) -> None:
    game = chess_game(["e4", "e5", "Qh5", "Ke7"])
    session.model.load_game(game)
    assert session.model.assessment is None
    evaluations = [
        cp_eval(0, 30, "e4"),
        cp_eval(1, 30, "e5"),
        cp_eval(2, 30, "Nf3"),
        cp_eval(3, 0, "Nc6"),
        cp_eval(4, 600, None),
    ]
    for evaluation in evaluations:
        with qtbot.waitSignals([session.evaluation_added, session.assessment_changed]):
            session.model.add_evaluation(evaluation)
    judgements = session.model.judgements()
    assert judgements[1] in ("book", "best")  # 1. e4 is in the opening table
    assert judgements[4] == "blunder"
    assert session.model.move_assessment(4).best == "Nc6"
    assert 4 in session.model.flagged_plies()
    assert session.model.flagged_plies(color="white") == []


def test_preset_change_recomputes_the_labels_without_new_evaluations(session) -> None:
    game = chess_game(["a4", "h5", "Ra3"])  # out of the opening table from move 1... h5
    session.model.load_game(game)
    for evaluation in (cp_eval(0, 20, "d4"), cp_eval(1, 20, "c5"), cp_eval(2, 20, "d5"), cp_eval(3, -45, "Nc6")):
        session.model.add_evaluation(evaluation)
    lichess = session.model.judgements()[3]
    session.model.set_preset("seed")
    seed = session.model.judgements()[3]
    assert lichess == "inaccuracy"  # a drop of about 6 win points
    assert seed == "good"


def test_evaluations_of_another_game_or_out_of_range_are_ignored(session, qtbot) -> None:
    session.model.load_game(chess_game(["e4"]))
    with qtbot.assertNotEmitted(session.evaluation_added):
        session.model.add_evaluation(cp_eval(7, 10))
        session.model.add_evaluation(Evaluation(ply=0, kind="go", score_lead_first=1.0))
    assert len(session.model.evaluations) == 0


def test_next_and_previous_flagged_move(session) -> None:
    game = chess_game(["e4", "e5", "Qh5", "Ke7", "Qxe5#"])
    session.model.load_game(game)
    for ply, cp, best in ((0, 30, "e4"), (1, 30, "e5"), (2, 30, "Nf3"), (3, 0, "Nc6"), (4, 800, "g6"), (5, 1000, None)):
        session.model.add_evaluation(cp_eval(ply, cp, best))
    flagged = session.model.flagged_plies()
    assert flagged, "the blunder Ke7 must be flagged"
    assert session.model.go_to_next_flagged(1)
    assert session.model.current_ply == flagged[0]
    session.model.go_to_end()
    assert session.model.go_to_next_flagged(-1)
    assert session.model.current_ply == flagged[-1]
    session.model.go_to_start()
    assert not session.model.go_to_next_flagged(-1)
    assert session.model.current_ply == 0


def test_go_game_from_the_corpus(session, corpus_dir) -> None:
    game = load_game(corpus_dir / "sgf" / "sabaki__endgame-9.sgf")
    session.model.load_game(game)
    session.model.go_to_end()
    assert session.model.current_ply == game.ply_count > 10
    before = Evaluation(
        ply=10,
        kind="go",
        score_lead_first=2.0,
        best_move=game.node_at_ply(11).move,
        candidates=(Candidate(move=game.node_at_ply(11).move or "pass", order=0, prior=0.5, score_lead_first=2.0),),
    )
    after = Evaluation(ply=11, kind="go", score_lead_first=2.0)  # the best move, and no points lost
    session.model.add_evaluation(before)
    session.model.add_evaluation(after)
    assert session.model.judgements()[11] == "best"


def test_with_a_background_assessor_the_assessment_follows_the_newest_result(session, qtbot) -> None:
    requests: list[tuple[int, int]] = []
    session.model.set_background_assessor(lambda generation, _game, table, _preset: requests.append((generation, len(table))))
    game = chess_game(["e4", "e5", "Qh5", "Ke7"])
    session.model.load_game(game)
    for ply, cp, best in ((0, 30, "e4"), (1, 30, "e5"), (2, 30, "Nf3")):
        session.model.add_evaluation(cp_eval(ply, cp, best))
    assert [count for _generation, count in requests] == [1, 2, 3]  # a snapshot each time
    assert session.model.assessment is None and not session.model.assessment_settled  # nothing scored here

    first, _ = requests[0]
    newest, _ = requests[-1]
    with qtbot.waitSignal(session.assessment_changed):
        session.accept_assessment(first, "after one", None)
    assert session.model.assessment == "after one" and not session.model.assessment_settled
    session.accept_assessment(newest, "after three", None)
    assert session.model.assessment == "after three" and session.model.assessment_settled
    with qtbot.assertNotEmitted(session.assessment_changed):
        session.accept_assessment(requests[1][0], "after two, too late", None)
    assert session.model.assessment == "after three"

    session.model.add_evaluation(cp_eval(3, 0, "Nc6"))
    session.model.add_evaluation(cp_eval(4, 600, None))
    session.model.settle_assessment()  # scored here, now
    assert session.model.assessment_settled
    assert session.model.judgements()[4] == "blunder"
    stale_generation = requests[-1][0]
    session.model.load_game(chess_game(["d4"]))  # another game: what was on its way is void
    with qtbot.assertNotEmitted(session.assessment_changed):
        session.accept_assessment(stale_generation, "of the old game", None)
    assert session.model.assessment is None


def test_evaluations_of_two_engines_are_kept_apart_and_one_set_is_shown(session) -> None:
    assert session.model.basis.coverage.text() == "not analysed"  # nothing open
    game = chess_game(["e4", "e5", "Nf3", "Nc6"])
    file_id, engine_id = "pgn-comments", "Stockfish 16.1 | nodes=1000,multipv=1"
    session.model.load_game(game, evaluations=[Evaluation(ply=p, kind="chess", engine_id=file_id, score_cp_first=10) for p in range(game.ply_count + 1)])
    assert session.model.basis.coverage.complete and session.model.basis.coverage.engine_id == file_id
    session.model.add_evaluation(Evaluation(ply=0, kind="chess", engine_id=engine_id, score_cp_first=-500))
    session.model.add_evaluation(Evaluation(ply=1, kind="chess", engine_id=engine_id, score_cp_first=-480))
    # the analysis the user runs is shown, alone; the file's values wait, not mixed in
    assert {e.engine_id for e in session.model.evaluations.ordered()} == {engine_id}
    assert session.model.basis.coverage.moves_text() == f"analysed 1 of {game.ply_count} moves"
    assert session.model.basis.coverage.left_out == ((file_id, game.ply_count + 1),)
    # another game: nothing of this one stays
    session.model.load_game(chess_game(["d4", "d5"]))
    assert len(session.model.evaluations) == 0 and not session.model.basis.coverage.left_out
