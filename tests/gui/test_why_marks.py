"""Why a move lost, in the window: the comment pane's text and the board's marks, reached by clicking
the move in the move list."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import Qt
from support import KATAGO_ID, STOCKFISH_ID

from reviewer.core.analysis import Evaluation
from reviewer.core.gametree import point_from_gtp
from reviewer.gui.window.main_window import MainWindow

FORK_PGN = """[Event "Why test"]
[White "White"]
[Black "Black"]
[Result "*"]
[SetUp "1"]
[FEN "r3k3/7p/8/3N4/8/8/8/4K3 b - - 0 1"]

1... h6 2. Nc7+ Kd7 *
"""

GO_SGF = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[chinese];B[cg];W[gc];B[cf];W[gd];B[dg];W[fc];B[ia])"
GROUP = ["C3", "C4", "D3"]


@pytest.fixture
def window(qtbot) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1200, 800)
    main.show()
    qtbot.waitExposed(main)
    return main


def open_file(qtbot, window: MainWindow, path) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=10000):
        window.open_file(path)


def click_move(qtbot, window: MainWindow, ply: int) -> None:
    node = window.session.model.game.node_at_ply(ply)
    rect = window.move_list.item_rect(node)
    assert rect is not None
    qtbot.mouseClick(window.move_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.session.model.current_node is node


def wait_for_judgement(qtbot, window: MainWindow, ply: int) -> None:
    """The assessment is made in the background: wait until it has judged the move."""

    def judged() -> bool:
        move = window.session.model.move_assessment(ply)
        return move is not None and move.judgement == "blunder"

    qtbot.waitUntil(judged, timeout=20_000)


def test_clicking_a_forking_blunder_shows_why_and_marks_the_fork(qtbot, window, tmp_path) -> None:
    path = tmp_path / "fork.pgn"
    path.write_text(FORK_PGN)
    open_file(qtbot, window, path)
    window.session.model.add_evaluation(
        Evaluation(ply=0, kind="chess", engine_id=STOCKFISH_ID, score_cp_first=0, side_to_move="black", best_move="Kd8", pv=("Kd8",))
    )
    window.session.model.add_evaluation(
        Evaluation(ply=1, kind="chess", engine_id=STOCKFISH_ID, score_cp_first=900, side_to_move="white",
                   best_move="Nc7+", pv=("Nc7+", "Kd7", "Nxa8"))
    )
    window.session.model.add_evaluation(
        Evaluation(ply=2, kind="chess", engine_id=STOCKFISH_ID, score_cp_first=900, side_to_move="black", best_move="Kd7", pv=("Kd7",))
    )
    wait_for_judgement(qtbot, window, 1)
    click_move(qtbot, window, 2)
    click_move(qtbot, window, 1)
    board = window.board
    assert {chess.C7, chess.E8, chess.A8} <= set(board.focus())
    assert any(a.from_sq == chess.D5 and a.to_sq == chess.C7 for a in board.arrows())
    assert "Why:" in window.comment_view.toPlainText()
    assert "forking the king on e8 and the rook on a8" in window.comment_view.toPlainText()
    click_move(qtbot, window, 2)  # a move without an explanation clears the marks
    assert board.focus() == frozenset()


def test_clicking_a_go_move_that_lets_a_group_die_outlines_the_group(qtbot, window, tmp_path) -> None:
    path = tmp_path / "group.sgf"
    path.write_text(GO_SGF)
    open_file(qtbot, window, path)
    size = 9

    def ownership(value: float) -> tuple[float, ...]:
        values = [0.0] * (size * size)
        for name in GROUP:
            row, col = point_from_gtp(name, size)
            values[row * size + col] = value
        return tuple(values)

    for ply in range(6):
        window.session.model.add_evaluation(
            Evaluation(ply=ply, kind="go", engine_id=KATAGO_ID, score_lead_first=5.0, winrate_first=0.7,
                       best_move="D4", ownership_first=ownership(0.9))
        )
    window.session.model.add_evaluation(
        Evaluation(ply=6, kind="go", engine_id=KATAGO_ID, score_lead_first=5.0, winrate_first=0.7, best_move="D4",
                   pv=("D4",), ownership_first=ownership(0.9))
    )
    window.session.model.add_evaluation(
        Evaluation(ply=7, kind="go", engine_id=KATAGO_ID, score_lead_first=-9.0, winrate_first=0.1, best_move="D4",
                   pv=("D4", "E3"), ownership_first=ownership(-0.9))
    )
    wait_for_judgement(qtbot, window, 7)
    click_move(qtbot, window, 7)
    board = window.board
    assert {point_from_gtp(name, size) for name in GROUP} <= set(board.focus())
    assert board.why_line()[0] == (point_from_gtp("D4", size), "white", 1)
    assert "The black group at C3 (3 stones) can now be killed" in window.comment_view.toPlainText()


SCHOLARS_PGN = """[Event "Why test"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""


def test_learn_from_your_mistakes_says_why_after_show_me(qtbot, window, tmp_path) -> None:
    from support import scholars_mate

    path = tmp_path / "scholar.pgn"
    path.write_text(SCHOLARS_PGN)
    open_file(qtbot, window, path)
    _game, table = scholars_mate()
    window.session.model.add_evaluations(table.ordered(), from_analysis=True)
    wait_for_judgement(qtbot, window, 6)
    window.learn_from_mistakes("black")
    panel = window.retro_panel
    assert "Nf6 was a blunder" in panel.prompt.text()
    qtbot.mouseClick(panel.show_me, Qt.MouseButton.LeftButton)
    assert panel.feedback.text() == "The best move was g6. Nf6 lost: Allows 4. Qxf7#, mate."
