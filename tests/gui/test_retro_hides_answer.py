"""Learn from your mistakes in the real window: while the player looks for a better move nothing on
screen tells it (no engine arrow, line, label, evaluation, threat or why); an answer's feedback stays
with its own mistake until the player clicks Next."""

from __future__ import annotations

import shlex

import chess
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from support import fake_engine_command, scholars_mate

from reviewer.gui.analysis.analysis_board import HIDDEN_LINES_TEXT
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

SCHOLARS_PGN = """[Event "Retro test"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""
ASKED_PLY = 6  # 3... Nf6, the blunder
WAIT_MS = 60_000


@pytest.fixture
def window(qtbot, tmp_path):
    main = MainWindow(discover_engines=False, remember_layout=False)
    qtbot.addWidget(main)
    main.resize(1300, 860)
    main.show()
    qtbot.waitExposed(main)
    main.set_engine_choice(EngineChoice(kind="chess", command=shlex.join(fake_engine_command("fake_uci.py"))), remember=False)
    path = tmp_path / "scholar.pgn"
    path.write_text(SCHOLARS_PGN)
    with qtbot.waitSignal(main.file_opened, timeout=WAIT_MS):
        main.open_file(path)
    _game, table = scholars_mate()
    main.session.model.add_evaluations(table.ordered(), from_analysis=True)

    def judged() -> bool:
        move = main.session.model.move_assessment(ASKED_PLY)
        return move is not None and move.judgement == "blunder"

    qtbot.waitUntil(judged, timeout=WAIT_MS)
    main.views.refresh()
    yield main
    main.close()


def click_squares(window: MainWindow, *squares: int) -> None:
    board = window.board
    for square in squares:
        QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.square_center(square).toPoint())


def comment_text(window: MainWindow) -> str:
    return window.comment_view.toPlainText()


def assert_nothing_tells_the_answer(window: MainWindow) -> None:
    assert window.session.model.current_ply == ASKED_PLY - 1
    assert window.board.arrows() == []
    assert "g6" not in comment_text(window) and "Engine" not in comment_text(window)
    assert "Why" not in comment_text(window)
    assert window.move_list._judgements.get(ASKED_PLY) is None
    graph = window.eval_graph
    assert graph is not None and graph.tooltip_at(ASKED_PLY - 1) == "" and graph.tooltip_at(ASKED_PLY) == ""
    assert window.eval_bar.white_pct() is None
    assert window.analysis_board.threat is None
    assert "Nf6 lost" not in window.retro_panel.feedback.text()


def test_while_asked_no_engine_view_shows_and_the_answer_waits_for_next(qtbot, window) -> None:
    window.session.model.set_current_ply(ASKED_PLY - 1)
    assert window.board.arrows()  # the review's best-move arrow, before the question
    assert "Engine" in comment_text(window)
    window.commands.retro_black_action.trigger()
    panel = window.retro_panel
    assert "Nf6 was a blunder" in panel.prompt.text()
    assert_nothing_tells_the_answer(window)

    QTest.keyClick(window, Qt.Key.Key_L)  # the engine's lines, asked for while looking
    assert window.lines_panel.header_text() == HIDDEN_LINES_TEXT and window.lines_panel.rows() == []
    QTest.keyClick(window, Qt.Key.Key_X)  # and the threat
    assert window.analysis_board.threat_mode and window.analysis_board._threat_request is None
    QTest.keyClick(window, Qt.Key.Key_X)
    assert_nothing_tells_the_answer(window)

    click_squares(window, chess.G8, chess.F6)  # the game's move again: wrong, and still no why
    assert panel.feedback.text().startswith("Not this one")
    assert_nothing_tells_the_answer(window)

    click_squares(window, chess.G7, chess.G6)
    assert panel.feedback.text().startswith("Good, that's the best move.")
    assert "Nf6 was a blunder" in panel.prompt.text()  # the feedback is under its own mistake
    assert panel.next.isEnabled() and not panel.show_me.isEnabled()
    assert window.session.model.current_ply == ASKED_PLY - 1
    assert window.board.arrows() and "Engine" in comment_text(window)  # answered: the engine's view is back
    qtbot.waitUntil(lambda: bool(window.lines_panel.rows()), timeout=WAIT_MS)

    QTest.mouseClick(panel.next, Qt.MouseButton.LeftButton)
    assert panel.prompt.text().startswith("Done.") and panel.feedback.text() == ""
    assert not window.retro.active


def test_show_me_keeps_the_best_move_with_its_own_mistake(qtbot, window) -> None:
    window.commands.retro_black_action.trigger()
    panel = window.retro_panel
    QTest.mouseClick(panel.show_me, Qt.MouseButton.LeftButton)
    assert panel.feedback.text().startswith("The best move was g6.")
    assert "Nf6 was a blunder" in panel.prompt.text() and panel.next.isEnabled()
    assert not any("best move" in message.text for message in window.message_bar.messages())  # said once, in the panel
    click_squares(window, chess.G7, chess.G6)  # answered already: not a move of the game either
    assert len(window.session.model.mainline_node(ASKED_PLY - 1).children) == 1
    QTest.mouseClick(panel.next, Qt.MouseButton.LeftButton)
    assert panel.prompt.text().startswith("Done.")


def test_opening_another_game_ends_the_questions(qtbot, window, tmp_path) -> None:
    window.commands.retro_black_action.trigger()
    assert window.session.model.engine_hidden_from == ASKED_PLY
    other = tmp_path / "other.pgn"
    other.write_text(SCHOLARS_PGN.replace("Retro test", "Another"))
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(other)
    assert window.session.model.engine_hidden_from is None and not window.retro_panel.isVisible()


def test_a_go_mistake_asked_shows_no_candidate_nor_best_point(qtbot, window) -> None:
    from support import go_game_with_a_blunder

    game, table = go_game_with_a_blunder()
    window.session.model.load_game(game, evaluations=table.ordered())

    def judged() -> bool:
        move = window.session.model.move_assessment(3)
        return move is not None and move.judgement in ("mistake", "blunder")

    qtbot.waitUntil(judged, timeout=WAIT_MS)
    window.views.refresh()
    window.session.model.set_current_ply(2)
    board = window.board
    assert board.candidates  # the review's candidates, before the question
    window.commands.retro_black_action.trigger()
    assert "A1 was a" in window.retro_panel.prompt.text() and window.session.model.current_ply == 2
    assert board.candidates == [] and board._best_move is None
    assert "G5" not in comment_text(window) and "Engine" not in comment_text(window)
    QTest.mouseClick(window.retro_panel.show_me, Qt.MouseButton.LeftButton)
    assert window.retro_panel.feedback.text().startswith("The best move was G5.")
    assert board.candidates and board._best_move is not None  # answered: the engine's view is back
