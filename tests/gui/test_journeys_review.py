"""More journeys through the real window, as a player makes them: learn from your mistakes (the
answer hidden while asked, the feedback kept with its mistake), a review in passes under way (every
figure says what it stands on), no engine installed (one message, with its way out), and damaged
files (cut off, glued together) that open with what can be read and say what is wrong.

With REVIEWER_SHOTS=DIR, the key states are saved as DIR/journey-*.png, light and dark.
"""

from __future__ import annotations

import re
import shlex

import chess
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from support import fake_engine_command, scholars_mate
from test_journeys import WAIT_MS, make_window, open_file, settle, shoot

from reviewer.core.passes import default_chess_passes
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

SCHOLARS_PGN = """[Event "Club night"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""
BLUNDER_PLY = 6  # 3... Nf6??
CHESS_GAME = ("pgn", "chesslib__promoting.pgn")

CHESS_PASSES = len(default_chess_passes().nodes)


def click_square(window: MainWindow, square: int) -> None:
    board = window.board
    QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.square_center(square).toPoint())


def banner_texts(window: MainWindow) -> list[str]:
    return [message.text for message in window.message_bar.messages()]


def test_learn_from_your_mistakes_hides_the_answer_and_keeps_the_feedback_with_its_mistake(qtbot, tmp_path) -> None:
    window = make_window(qtbot)
    path = tmp_path / "club.pgn"
    path.write_text(SCHOLARS_PGN)
    open_file(qtbot, window, path)
    _game, table = scholars_mate()
    window.session.model.add_evaluations(table.ordered(), from_analysis=True)
    settle(qtbot, window)
    window.commands.retro_black_action.trigger()
    panel = window.retro_panel
    assert "Nf6 was a blunder" in panel.prompt.text()
    assert window.session.model.current_ply == BLUNDER_PLY - 1
    assert window.board.arrows() == [] and "Engine" not in window.comment_view.toPlainText()
    shoot(qtbot, window, "learn-asked")

    click_square(window, chess.G8)
    click_square(window, chess.F6)  # the game's own move: wrong
    assert panel.feedback.text().startswith("Not this one")
    click_square(window, chess.G7)
    click_square(window, chess.G6)  # the best move
    assert panel.feedback.text().startswith("Good, that's the best move.")
    assert "Nf6 was a blunder" in panel.prompt.text() and panel.next.isEnabled()
    assert window.board.arrows()  # answered: the engine's view is back, on the same mistake
    shoot(qtbot, window, "learn-answered")
    QTest.mouseClick(panel.next, Qt.MouseButton.LeftButton)
    assert panel.prompt.text().startswith("Done.") and panel.feedback.text() == ""
    window.close()


def test_a_review_in_passes_under_way_says_what_each_figure_stands_on(qtbot, corpus_dir) -> None:
    window = make_window(qtbot)
    open_file(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    slow = shlex.join(fake_engine_command("fake_uci.py", "--search-ms", "60"))
    window.set_engine_choice(EngineChoice(kind="chess", command=slow), remember=False)
    arrived: list[int] = []
    window.session.evaluation_added.connect(arrived.append)
    window.setFocus()
    QTest.keyClick(window, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: len(arrived) >= 30, timeout=WAIT_MS)
    settle(qtbot, window)
    for color in ("white", "black"):
        assert re.fullmatch(rf"\d+/\d+ moves · pass 1 of {CHESS_PASSES}", window.summary_panel.basis_text(color))
    assert window.eval_graph.partial_text().startswith("Not final: ")
    shoot(qtbot, window, "passes-under-way")
    with qtbot.waitSignal(window.analysis_finished, timeout=WAIT_MS):
        QTest.keyClick(window, Qt.Key.Key_Space)  # stopped
    settle(qtbot, window)
    assert f"pass 1 of {CHESS_PASSES}" in window.summary_panel.state_text()
    window.close()


def test_with_no_engine_installed_one_message_says_so_with_its_way_out(qtbot, corpus_dir) -> None:
    window = make_window(qtbot)
    window.set_engine_choice(EngineChoice(kind="chess", command="/nonexistent/stockfish"), remember=False)
    open_file(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    window.setFocus()
    with qtbot.waitSignal(window.analysis_finished, timeout=WAIT_MS) as finished:
        QTest.keyClick(window, Qt.Key.Key_Space)
    assert finished.args == [False]
    QTest.keyClick(window, Qt.Key.Key_L)  # the engine lines meet the same missing engine
    qtbot.waitUntil(lambda: any("/nonexistent/stockfish" in text for text in banner_texts(window)), timeout=WAIT_MS)
    about_it = [m for m in window.message_bar.messages() if "/nonexistent/stockfish" in m.text]
    assert len(about_it) == 1 and about_it[0].actions  # once, with Locate / Install
    shoot(qtbot, window, "no-engine")
    window.close()


def test_damaged_files_open_with_what_can_be_read_and_say_what_is_wrong(qtbot, tmp_path) -> None:
    window = make_window(qtbot)
    cut = tmp_path / "cut.pgn"
    cut.write_text(SCHOLARS_PGN.replace("3. Bc4 Nf6 4. Qxf7# 1-0", "3. B"))
    open_file(qtbot, window, cut)
    assert window.session.model.ply_count == 4
    qtbot.waitUntil(lambda: any("the rest is missing" in text for text in banner_texts(window)), timeout=WAIT_MS)
    shoot(qtbot, window, "damaged-pgn")

    glued = tmp_path / "glued.pgn"
    glued.write_text("1. e4 e5 1-0\n\n1. d4 d5 0-1\n")
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(glued, game_index=1)  # the second game of two: a result token ends a game
    assert window.session.model.game is not None and window.session.model.game.mainline_moves() == ["d4", "d5"]
    assert window.session.model.collection is not None and len(window.session.model.collection) == 2

    truncated_sgf = tmp_path / "cut.sgf"
    truncated_sgf.write_text("(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gg];W[cg")
    open_file(qtbot, window, truncated_sgf)
    assert window.session.model.ply_count == 3
    qtbot.waitUntil(lambda: any("missing" in text for text in banner_texts(window)), timeout=WAIT_MS)
    shoot(qtbot, window, "damaged-sgf")
    window.close()
