"""One candidate, one figure: the board's label, the comment and the engine lines show the same
loss for the same search of the same position, and say which search it is."""

from __future__ import annotations

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable
from reviewer.core.gametree import Game, Node
from reviewer.gui.board.go_board import CandidateMark
from reviewer.gui.common.live_text import line_rows
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.presenters.board_marks import go_candidate_marks, loss_text
from reviewer.gui.presenters.comment import comment_html

ENGINE = "KataGo 1.18.1 test-model | visits=400,multipv=1"


def position() -> tuple[Game, Evaluation]:
    game = Game(kind="go", board_width=19, board_height=19, komi=6.5, rules="japanese", first_player="black")
    node = game.root
    for color, move, point in (("black", "Q16", (15, 15)), ("white", "D4", (3, 3))):
        node = node.add_child(Node(move=move, color=color, point=point))  # type: ignore[arg-type]
    # KataGo's verdict on the position (its root) is not its first candidate's value: a view that
    # measures from one and a view that measures from the other disagree.
    evaluation = Evaluation(
        ply=2, kind="go", engine_id=ENGINE, score_lead_first=2.3, winrate_first=0.6, side_to_move="black",
        best_move="R4", pv=("R4", "C16"), nodes=400,
        candidates=(
            Candidate(move="R4", order=0, score_lead_first=1.9, winrate_first=0.58, visits=250, pv=("R4", "C16")),
            Candidate(move="K7", order=1, score_lead_first=1.2, winrate_first=0.55, visits=90, pv=("K7", "C16")),
            Candidate(move="C16", order=2, score_lead_first=0.4, winrate_first=0.52, visits=60, pv=("C16",)),
        ),
    )
    return game, evaluation


def test_the_board_the_comment_and_the_lines_show_one_figure_for_k7(qtbot):
    game, evaluation = position()
    marks = {mark.order: mark for mark in go_candidate_marks(game, "black", evaluation, CandidateMark)}
    on_board = loss_text("go", marks[1].loss_points)  # what the board paints on K7
    assert on_board == "−1.1"  # 2.3 (the position) − 1.2 (K7), Black's view

    session = ReviewSession()
    table = EvaluationTable()
    table.add(evaluation)
    session.model.load_game(game)
    session.model.add_evaluations(table.ordered())
    session.model.set_current_ply(2)
    comment = comment_html(session.model, session.model.current_node)
    assert f"K7 {on_board}" in comment
    assert "review · 400 visits" in comment  # which search the figures come from

    (_, k7_row, _) = line_rows(evaluation)
    assert k7_row.detail.split(" · ")[0] == on_board
