"""The test-only third game (tests/games/connect_four.py) in the real main window: with the game
and its board view registered from the tests alone, a Connect Four file opens, the keys step
through it, a click on the board plays a move, its fake engine (a real line protocol) reviews it
(the graph and the move list's labels appear) and the export writes a file that reads back.
Nothing in `reviewer/` names the game.

With REVIEWER_SHOTS=DIR, the window is saved as DIR/third-game-*.png, light and dark.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
import screenshots
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from support import fake_engine_command
from window_support import open_game, shown_window

from reviewer.core.formats import open_collection
from reviewer.core.games import register_game, unregister_game
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow
from tests.games import connect_four_board
from tests.games.connect_four import KIND, SUPPORT, ConnectFourRules

WAIT_MS = 60_000
# Alice (first, the red discs) plays the centre; Bob's "a" on move 4 gives the lead away.
GAME_TEXT = "Black: Alice\nWhite: Bob\nResult: B+\nMoves: d d c a e\n"


@pytest.fixture
def third_game() -> Iterator[None]:
    register_game(SUPPORT)
    connect_four_board.register()
    try:
        yield
    finally:
        connect_four_board.unregister()
        unregister_game(KIND)


@pytest.fixture
def window(qtbot, third_game) -> Iterator[MainWindow]:
    main = shown_window(qtbot, 1200, 800, remember_layout=False)
    engine = shlex.join(fake_engine_command("fake_connect_four.py"))
    main.set_engine_choice(EngineChoice(kind=KIND, command=engine), remember=False)
    yield main
    main.close()


def board(window: MainWindow) -> connect_four_board.ConnectFourBoard:
    shown = window.board
    assert isinstance(shown, connect_four_board.ConnectFourBoard)
    return shown


def click_column(window: MainWindow, column: str) -> None:
    widget = board(window)
    where = widget.hole_center(column, 2).toPoint()
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, where)


def analyse_with_space(qtbot, window: MainWindow) -> None:
    window.setFocus()
    with qtbot.waitSignal(window.analysis_finished, timeout=WAIT_MS) as finished:
        QTest.keyClick(window, Qt.Key.Key_Space)
    assert finished.args == [True]
    window.session.model.settle_assessment()
    qtbot.waitUntil(lambda: not window._refresh_timer.isActive(), timeout=WAIT_MS)


def test_a_third_game_opens_steps_plays_is_reviewed_and_exported_in_the_window(qtbot, window, tmp_path: Path) -> None:
    original = tmp_path / "club.c4"
    original.write_text(GAME_TEXT)
    open_game(qtbot, window, original)
    model = window.session.model
    assert (model.game.kind, model.ply_count) == (KIND, 5)
    assert window.move_entry.placeholderText() == "Type a move: d"
    assert not window.exports.copy_fen_action.isEnabled()  # a position of it has no one-line notation

    window.setFocus()
    QTest.keyClick(window, Qt.Key.Key_Home)
    assert model.current_ply == 0
    assert board(window).position == ConnectFourRules().start(model.game)
    QTest.keyClick(window, Qt.Key.Key_Right)
    QTest.keyClick(window, Qt.Key.Key_Right)
    assert model.current_ply == 2
    assert [len(discs) for discs in board(window).position.columns] == [0, 0, 0, 2, 0, 0, 0]
    QTest.keyClick(window, Qt.Key.Key_End)
    assert model.current_ply == 5

    analyse_with_space(qtbot, window)
    graph = window.eval_graph
    assert (graph.mode(), graph.missing_plies(), graph.plotted_plies()) == ("value", (), (0, 1, 2, 3, 4, 5))
    assert all(graph.tooltip_at(ply) and "not analysed" not in graph.tooltip_at(ply) for ply in range(6)), graph.tooltip_at(4)
    labels = {ply: window.move_list.symbol_for(model.mainline_node(ply), ply) for ply in model.flagged_plies()}
    assert labels == {3: "?!", 4: "?", 5: "?!"}  # Bob's "a" leaves the centre: a mistake
    screenshots.shoot(qtbot, window, "third-game-reviewed", before_grab=lambda: qtbot.waitUntil(
        lambda: not window._refresh_timer.isActive(), timeout=WAIT_MS))

    click_column(window, "f")  # Bob answers on the board
    qtbot.waitUntil(lambda: model.current_ply == 6, timeout=WAIT_MS)
    node = model.current_node
    assert node is not None and (node.move, node.color) == ("f", "white")
    assert [len(discs) for discs in board(window).position.columns] == [1, 0, 1, 2, 1, 1, 0]

    exported = tmp_path / "reviewed.c4"
    with qtbot.waitSignal(window.exports.finished, timeout=WAIT_MS):
        window.exports.export_annotated(exported, with_analysis=False)
    text = exported.read_text()
    assert text.startswith("Black: Alice\nWhite: Bob\n") and "Review: a " in text
    assert open_collection(exported).game(0).mainline_moves()[:5] == ["d", "d", "c", "a", "e"]
