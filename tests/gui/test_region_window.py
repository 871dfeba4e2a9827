"""Life-and-death study in the real window: R and a mouse drag set a region of interest, live
analysis keeps to it (the built-in engine here), Esc clears it, and Analysis ▸ Frame the problem
opens a corner problem with the rest of the board filled, its region kept."""

from __future__ import annotations

import pytest
import screenshots
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer.core.analysis import Limit
from reviewer.core.gametree import point_from_gtp
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

WAIT_MS = 120_000  # a bound for a loaded machine, not a measure
# White to play: Black's G5 cuts White's wall and has one liberty, F5 (White's move when free).
CUTTING = ("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PL[W]"
           "AB[ea][eb][ec][ed][ee][ef][eg][eh][ei][ge]AW[ga][gb][gc][gd][he][gf][gg][gh][gi])")
# A lower-left corner problem on 19x19: White's group in the corner, Black around it; no moves.
CORNER = "(;GM[1]FF[4]SZ[19]KM[6.5]PL[B]AB[aq][bq][cq][dq][er][fr][fs]AW[ar][br][cr][cs][dr][es])"
LOWER_LEFT = ((0, 0), (3, 3))


@pytest.fixture
def window(qtbot):
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1300, 860)
    main.show()
    qtbot.waitExposed(main)
    main.set_engine_choice(EngineChoice(kind="go", name="builtin"), remember=False)
    yield main
    main.close()


def _open(qtbot, window, path, text) -> None:
    path.write_text(text)
    with qtbot.waitSignal(window.file_opened, timeout=20000):
        window.open_file(path)


def _at(window, gtp: str):
    board = window.board
    return board.point_center(point_from_gtp(gtp, board.position().height)).toPoint()


def _latest_with(qtbot, window, wanted) -> object:
    qtbot.waitUntil(lambda: window.analysis_board.latest_update() is not None and wanted(window.analysis_board.latest_update()),
                    timeout=WAIT_MS)
    return window.analysis_board.latest_update()


def test_a_dragged_region_keeps_live_analysis_to_it_and_esc_frees_it(qtbot, window, tmp_path) -> None:
    _open(qtbot, window, tmp_path / "cut.sgf", CUTTING)
    QTest.keyClick(window, Qt.Key.Key_L)
    assert window.commands.live_action.isChecked()
    QTest.keyClick(window, Qt.Key.Key_R)
    board = window.board
    QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, _at(window, "A1"))
    QTest.mouseMove(board, _at(window, "C3"))
    QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, _at(window, "D4"))
    assert window.analysis_board.region == LOWER_LEFT
    assert window.session.model.game.ply_count == 0  # the drag played nothing
    assert window.region_actions.clear_action.isEnabled() and "Region A1–D4" in window.statusBar().currentMessage()
    region_limit = Limit(region=LOWER_LEFT)
    kept = _latest_with(qtbot, window, lambda update: "region=0.0.3.3" in update.evaluation.engine_id and update.step >= 1)
    moves = [candidate.move for candidate in kept.evaluation.candidates]
    assert moves and all(move == "pass" or region_limit.in_region(point_from_gtp(move, 9)) for move in moves)
    assert all(row.moves[0] in moves for row in window.lines_panel.rows() if row.moves)
    screenshots.shoot(qtbot, window, "region-of-interest")

    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert window.analysis_board.region is None and not window.region_actions.clear_action.isEnabled()
    free = _latest_with(qtbot, window, lambda update: "region=" not in update.evaluation.engine_id and update.step >= 1)
    assert any(not region_limit.in_region(point_from_gtp(c.move, 9)) for c in free.evaluation.candidates if c.move != "pass")


def _menu_click(qtbot, window, menu_title: str, action) -> None:
    bar = window.menuBar()
    item = next(a for a in bar.actions() if a.text() == menu_title)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.actionGeometry(item).center())
    menu = item.menu()
    qtbot.waitUntil(menu.isVisible, timeout=5000)
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, menu.actionGeometry(action).center())


@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")  # the offscreen platform's notes
def test_frame_the_problem_opens_it_framed_with_its_region(qtbot, window, tmp_path) -> None:
    _open(qtbot, window, tmp_path / "corner.sgf", CORNER)
    problem = window.session.model.game
    assert window.region_actions.frame_action.isEnabled()
    _menu_click(qtbot, window, "&Analysis", window.region_actions.frame_action)
    framed = window.session.model.game
    assert framed is not problem and framed.event == "Tsumego frame" and framed.first_player == "black"
    assert set(problem.setup_black) < set(framed.setup_black) and set(problem.setup_white) < set(framed.setup_white)
    assert window.analysis_board.region == ((0, 0), (4, 7))  # the problem's stones and two lines beyond
    assert "Framed problem" in window.windowTitle()
    screenshots.shoot(qtbot, window, "tsumego-frame")


def test_a_chess_game_has_no_region_to_choose(qtbot, window, tmp_path) -> None:
    _open(qtbot, window, tmp_path / "g.pgn", "1. e4 e5 *\n")
    QTest.keyClick(window, Qt.Key.Key_R)
    assert window.analysis_board.region is None
    assert "board of points" in window.statusBar().currentMessage()
    assert not window.region_actions.frame_action.isEnabled()


@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")  # the offscreen platform's notes
def test_framing_a_problem_asks_before_it_replaces_a_game_with_unsaved_edits(qtbot, window, tmp_path) -> None:
    _open(qtbot, window, tmp_path / "corner.sgf", CORNER)
    problem = window.session.model.game
    assert window.session.model.annotate(window.session.model.current_node, words="the corner lives?")
    asked: list[str] = []
    answers = iter(["cancel", "discard"])
    window.saving.ask_unsaved = lambda name: asked.append(name) or next(answers)
    _menu_click(qtbot, window, "&Analysis", window.region_actions.frame_action)
    assert window.session.model.game is problem and window.session.model.unsaved_edits == 1
    _menu_click(qtbot, window, "&Analysis", window.region_actions.frame_action)
    assert window.session.model.game is not problem and window.session.model.game.event == "Tsumego frame"
    assert len(asked) == 2
