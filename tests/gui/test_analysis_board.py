"""The analysis board end to end, with real widgets and real mouse events: moves played on the
board and typed in the box become variations, live lines follow the position and can be played."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QVBoxLayout, QWidget
from support import fake_engine_command

from reviewer.core.engines.uci import UciEngine
from reviewer.core.games.chess import board_after
from reviewer.core.gametree import Game
from reviewer.core.services.saved_lines import SavedLines
from reviewer.core.variations import TreeEditor
from reviewer.gui.analysis.analysis_board import AnalysisBoard
from reviewer.gui.analysis.live_panel import EvalBar, LinesPanel
from reviewer.gui.board.chess_play import PlayableChessBoard
from reviewer.gui.board.chess_view import ChessView
from reviewer.gui.board.go_view import GoView
from reviewer.gui.common.move_entry import MoveEntry
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.review.move_list import MoveListWidget

WAIT_MS = 120_000  # a bound for a loaded machine, not a measure


class Harness:
    def __init__(self, qtbot, engine_command: list[str], saved_lines: SavedLines | None = None) -> None:
        self.messages: list[str] = []
        self.session = ReviewSession()
        self.window = QWidget()
        layout = QVBoxLayout(self.window)
        self.board = PlayableChessBoard()
        self.move_list = MoveListWidget()
        self.lines = LinesPanel()
        self.bar = EvalBar()
        self.entry = MoveEntry()
        for widget in (self.board, self.move_list, self.lines, self.entry):
            layout.addWidget(widget)
        qtbot.addWidget(self.window)
        self.window.resize(420, 900)
        self.window.show()
        qtbot.waitExposed(self.window)
        self.analysis = AnalysisBoard(
            self.session,
            self.lines,
            self.bar,
            self.entry,
            lambda _kind, _size: lambda: UciEngine(engine_command),
            self.messages.append,
            saved_lines,
        )
        self.analysis.attach(ChessView(self.board))
        self.session.current_changed.connect(self._show)
        self.session.game_loaded.connect(lambda: self.move_list.set_game(self.session.model.game))
        self.session.tree_changed.connect(lambda _mainline_changed: self.move_list.refresh_tree())
        game = Game(kind="chess", first_player="white")
        TreeEditor(game).play_line(game.root, ["e4", "e5", "Nf3", "Nc6"])
        self.session.model.load_game(game)

    def _show(self, node) -> None:
        self.board.set_position(board_after(self.session.model.game, node))
        self.move_list.set_current_node(node)

    def click(self, square: int) -> None:
        QTest.mouseClick(self.board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, self.board.square_center(square).toPoint())


@pytest.fixture
def harness(qtbot):
    made = Harness(qtbot, fake_engine_command("fake_uci.py"))
    yield made
    made.analysis.close()


def test_a_move_clicked_on_the_board_becomes_a_variation_in_the_move_list(harness, qtbot):
    harness.session.model.set_current_ply(2)
    harness.click(chess.F1)
    with qtbot.waitSignal(harness.session.tree_changed):
        harness.click(chess.C4)
    node = harness.session.model.current_node
    assert node.move == "Bc4" and not node.is_mainline
    assert harness.move_list.item_rect(node).isValid()  # drawn in the list
    assert harness.board.board().piece_at(chess.C4) == chess.Piece(chess.BISHOP, chess.WHITE)


def test_a_typed_move_is_played_and_an_illegal_one_stays_with_its_reason(harness, qtbot):
    harness.session.model.go_to_end()
    qtbot.keyClicks(harness.entry, "Bb5")
    QTest.keyClick(harness.entry, Qt.Key.Key_Return)
    assert harness.session.model.current_node.move == "Bb5" and harness.entry.text() == ""
    qtbot.keyClicks(harness.entry, "Qxf7")
    QTest.keyClick(harness.entry, Qt.Key.Key_Return)
    assert harness.entry.text() == "Qxf7" and "not legal" in harness.entry.refusal()
    assert harness.messages[-1].startswith("Qxf7 is not legal")
    assert harness.session.model.current_node.move == "Bb5"  # nothing lost, nothing played


def test_live_lines_follow_the_position_and_a_clicked_line_is_played(harness, qtbot):
    harness.session.model.set_current_ply(4)
    harness.analysis.set_live(True)
    qtbot.waitUntil(lambda: harness.analysis.latest_update() is not None, timeout=WAIT_MS)
    update = harness.analysis.latest_update()
    assert update.token is harness.session.model.current_node and harness.lines.rows()
    first_line = harness.lines.rows()[0].moves
    label = harness.lines.line_label(0)
    last = len(first_line) - 1
    QTest.mouseClick(label, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, label.move_rect(last).center())
    played = harness.session.model.current_node
    assert [step.move for step in played.path_from_root()[4:]] == list(first_line)
    qtbot.waitUntil(
        lambda: harness.analysis.latest_update() is not None and harness.analysis.latest_update().token is played,
        timeout=WAIT_MS,
    )
    harness.analysis.set_live(False)
    assert harness.lines.header_text() == "Engine off" and harness.lines.rows() == []


def test_the_live_lines_on_show_are_the_sessions(harness, qtbot):
    harness.session.model.set_current_ply(2)
    with qtbot.waitSignal(harness.session.live_lines_changed, timeout=WAIT_MS) as changed:
        harness.analysis.set_live(True)
    shown = harness.session.model.current_node
    assert changed.args == [shown] and harness.session.model.live_lines is harness.analysis.latest_update()
    assert harness.session.model.live_lines.token is shown
    harness.session.model.step(1)  # another position: the lines of the one before are gone at once
    assert harness.session.model.live_lines is None
    harness.analysis.set_live(False)
    assert harness.session.model.live_lines is None and harness.analysis.latest_update() is None


def test_an_engine_that_dies_in_live_analysis_is_reported(qtbot, tmp_path):
    log = tmp_path / "searches.log"
    made = Harness(qtbot, fake_engine_command("fake_uci.py", "--log", str(log), "--crash-after-total", "1"))
    try:
        made.analysis.set_live(True)
        qtbot.waitUntil(lambda: any("live analysis stopped" in m for m in made.messages), timeout=WAIT_MS)
        assert "live analysis stopped" in made.lines.header_text()
    finally:
        made.analysis.close()


def test_lines_added_on_the_board_come_back_when_the_game_is_opened_again(qtbot, tmp_path):
    store = SavedLines(tmp_path / "lines.sqlite")
    first = Harness(qtbot, fake_engine_command("fake_uci.py"), store)
    first.session.model.set_current_ply(2)
    first.session.model.play_line(["Bc4", "Bc5"])
    first.analysis.close()  # waits for the write
    again = Harness(qtbot, fake_engine_command("fake_uci.py"), store)
    try:
        qtbot.waitUntil(lambda: len(again.session.model.game.node_at_ply(2).children) == 2, timeout=WAIT_MS)
        variation = again.session.model.game.node_at_ply(2).children[1]
        assert variation.move == "Bc4" and variation.children[0].move == "Bc5"
        assert again.move_list.item_rect(variation).isValid()
    finally:
        again.analysis.close()


def test_a_line_played_before_the_kept_lines_are_back_loses_none_of_them(qtbot, tmp_path):
    store = SavedLines(tmp_path / "lines.sqlite")
    first = Harness(qtbot, fake_engine_command("fake_uci.py"), store)
    first.session.model.set_current_ply(2)
    first.session.model.play_line(["Bc4", "Bc5"])
    first.analysis.close()
    hasty = Harness(qtbot, fake_engine_command("fake_uci.py"), store)
    assert hasty.analysis.restoring_lines  # the kept line is not back yet
    hasty.session.model.set_current_ply(2)
    hasty.session.model.play_move("Qh5")
    hasty.analysis.close()  # closed before the kept line came back
    again = Harness(qtbot, fake_engine_command("fake_uci.py"), store)
    try:
        qtbot.waitUntil(lambda: not again.analysis.restoring_lines, timeout=WAIT_MS)
        assert [child.move for child in again.session.model.game.node_at_ply(2).children] == ["Nf3", "Bc4", "Qh5"]
    finally:
        again.analysis.close()


def test_learn_from_your_mistakes_takes_the_moves_played_on_the_board(qtbot):
    from reviewer.core.analysis import Candidate, Evaluation
    from reviewer.gui.trainer.retro_panel import RetroController, RetroPanel

    made = Harness(qtbot, fake_engine_command("fake_uci.py"))
    try:
        game = Game(kind="chess", first_player="white")
        TreeEditor(game).play_line(game.root, ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"])
        made.session.model.load_game(
            game,
            evaluations=[
                Evaluation(
                    ply=5, kind="chess", engine_id="Stockfish | nodes=1", score_cp_first=50, side_to_move="black",
                    best_move="g6",
                    candidates=(Candidate(move="g6", order=0, score_cp_first=50), Candidate(move="Qe7", order=1, score_cp_first=60)),
                ),
                Evaluation(ply=6, kind="chess", engine_id="Stockfish | nodes=1", mate_first=1, side_to_move="white"),
                Evaluation(ply=7, kind="chess", engine_id="Stockfish | nodes=1", side_to_move="black", terminal="checkmate"),
            ],
        )
        panel = RetroPanel()
        qtbot.addWidget(panel)
        made.analysis.retro = RetroController(made.session, panel, lambda _card: None)
        assert made.analysis.retro.start("black")
        assert made.session.model.current_ply == 5 and "Nf6 was a blunder" in panel.prompt.text()
        made.board.set_flipped(True)
        made.click(chess.G8)
        made.click(chess.F6)  # the game's move again
        assert panel.feedback.text().startswith("Not this one") and made.session.model.current_ply == 5
        assert len(game.node_at_ply(5).children) == 1  # an answer is not added to the game
        made.click(chess.G7)
        made.click(chess.G6)
        assert panel.feedback.text().startswith("Good, that's the best move.")
        assert "Nf6 was a blunder" in panel.prompt.text()  # the feedback stays with its own mistake
        panel.next.click()
        assert panel.prompt.text() == "Done. 1 of 1 found (0 at the first try), 0 shown, 0 skipped"
        assert not made.analysis.retro.active
        made.analysis.retro.close()
    finally:
        made.analysis.close()


def test_go_territory_and_policy_maps_come_from_the_live_lines(qtbot):
    from PySide6.QtGui import QColor

    from reviewer.core.engines.katago import KataGoEngine
    from reviewer.core.games.go import position_after
    from reviewer.core.gametree import point_from_gtp
    from reviewer.gui.board.go_play import PlayableGoBoard

    messages: list[str] = []
    session = ReviewSession()
    window = QWidget()
    layout = QVBoxLayout(window)
    board, move_list, lines, bar, entry = PlayableGoBoard(), MoveListWidget(), LinesPanel(), EvalBar(), MoveEntry()
    for widget in (board, move_list, lines, entry):
        layout.addWidget(widget)
    qtbot.addWidget(window)
    window.resize(500, 900)
    window.show()
    qtbot.waitExposed(window)
    command = fake_engine_command("fake_katago.py")
    analysis = AnalysisBoard(
        session, lines, bar, entry, lambda _kind, _size: lambda: KataGoEngine(command), messages.append, None
    )
    analysis.attach(GoView(board))
    session.current_changed.connect(lambda node: board.set_position(position_after(session.model.game, node)))
    game = Game(kind="go", board_width=9, board_height=9, first_player="black", komi=7.0)
    TreeEditor(game).play_line(game.root, ["E5", "C3"])
    session.model.load_game(game)
    try:
        session.model.set_current_ply(2)
        left, right = board.point_center(point_from_gtp("A5", 9)), board.point_center(point_from_gtp("J5", 9))
        quarter = board.cell_size() / 4

        def shade(center) -> int:
            return QColor(board.grab().toImage().pixel(int(center.x() + quarter), int(center.y() + quarter))).lightness()

        plain_left, plain_right = shade(left), shade(right)
        analysis.set_maps(ownership=True)
        assert any("press L" in m for m in messages)
        analysis.set_live(True)
        qtbot.waitUntil(lambda: analysis.latest_update() is not None, timeout=WAIT_MS)
        evaluation = analysis.latest_update().evaluation
        assert evaluation.ownership_first is not None and evaluation.policy is not None
        # The live candidates are marked on the board, the engine's choice first.
        marks = board.candidates
        assert [m.point for m in marks][:1] == [point_from_gtp("C3", 9)] and marks[0].is_best
        # The fake gives Black the left half: darker there, lighter on White's side.
        qtbot.waitUntil(lambda: shade(left) < plain_left and shade(right) > plain_right, timeout=WAIT_MS)
        analysis.set_maps(ownership=False)
        qtbot.waitUntil(lambda: shade(left) == plain_left and shade(right) == plain_right, timeout=WAIT_MS)
    finally:
        analysis.close()
