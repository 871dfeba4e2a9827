"""Playing on the boards with real mouse events: click-click, drag, promotion, the right button, Go clicks."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from reviewer.core.games.support import MoveNumber
from reviewer.core.gametree import Shape
from reviewer.gui.board.chess_play import PlayableChessBoard


@pytest.fixture
def board(qtbot) -> PlayableChessBoard:
    widget = PlayableChessBoard()
    qtbot.addWidget(widget)
    widget.resize(400, 400)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_position(chess.Board())
    return widget


def at(widget: PlayableChessBoard, square: int) -> QPoint:
    return widget.square_center(square).toPoint()


def click(widget, point: QPoint, button=Qt.MouseButton.LeftButton) -> None:
    QTest.mouseClick(widget, button, Qt.KeyboardModifier.NoModifier, point)


def test_click_click_plays_a_move(board, qtbot):
    click(board, at(board, chess.E2))
    assert board.selected_square() == chess.E2 and board.targets(chess.E2) == {chess.E3, chess.E4}
    with qtbot.waitSignal(board.move_played) as played:
        click(board, at(board, chess.E4))
    assert played.args == ["e2e4"] and board.selected_square() is None


def test_a_click_on_a_square_the_piece_cannot_reach_plays_nothing(board, qtbot):
    click(board, at(board, chess.E2))
    with qtbot.assertNotEmitted(board.move_played):
        click(board, at(board, chess.E5))
    assert board.selected_square() is None
    with qtbot.assertNotEmitted(board.move_played):
        click(board, at(board, chess.E7))  # not the side to move
    assert board.selected_square() is None


def test_drag_and_drop_plays_a_move_and_a_drop_off_target_cancels(board, qtbot):
    start, end = at(board, chess.G1), at(board, chess.F3)
    with qtbot.waitSignal(board.move_played) as played:
        QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
        QTest.mouseMove(board, start + QPoint(10, -10))
        QTest.mouseMove(board, end)
        QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    assert played.args == ["g1f3"]
    with qtbot.assertNotEmitted(board.move_played):
        QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
        QTest.mouseMove(board, start + QPoint(10, -10))
        QTest.mouseMove(board, at(board, chess.G4))
        QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at(board, chess.G4))
    assert board.selected_square() is None


def test_a_promotion_opens_the_chooser_and_takes_the_piece_clicked(board, qtbot):
    board.set_position(chess.Board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"))
    click(board, at(board, chess.A7))
    with qtbot.assertNotEmitted(board.move_played):
        click(board, at(board, chess.A8))
    assert board.promotion_open()
    knight = board.promotion_choice_rect(1).center().toPoint()
    with qtbot.waitSignal(board.move_played) as played:
        click(board, knight)
    assert played.args == ["a7a8n"] and not board.promotion_open()
    click(board, at(board, chess.A7))
    click(board, at(board, chess.A8))
    with qtbot.assertNotEmitted(board.move_played):
        click(board, at(board, chess.H1))  # elsewhere: the chooser closes, nothing is played
    assert not board.promotion_open()


def test_the_right_button_offers_arrows_and_circles_and_draws_those_it_is_given(board, qtbot):
    e2, e4 = at(board, chess.E2), at(board, chess.E4)
    with qtbot.waitSignal(board.shape_drawn) as drawn:
        QTest.mousePress(board, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, e2)
        QTest.mouseRelease(board, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, e4)
    arrow = Shape("arrow", (1, 4), (3, 4), "G")
    assert drawn.args == [arrow] and board.shapes() == ()  # the caller keeps it and gives it back
    with qtbot.waitSignal(board.shape_drawn) as drawn:
        click(board, at(board, chess.D5), Qt.MouseButton.RightButton)
    assert drawn.args == [Shape("highlight", (4, 3), colour="G")]
    board.set_shapes([arrow])
    image = board.grab().toImage()
    middle = QPointF(board.square_center(chess.E3))
    assert image.pixelColor(middle.toPoint()).green() > image.pixelColor(middle.toPoint()).red() + 30
    with qtbot.assertNotEmitted(board.shape_drawn):
        click(board, at(board, chess.A3))
    assert board.shapes() == (arrow,)  # a left click clears none of the kept shapes


def test_a_flipped_board_offers_the_same_arrow_and_shows_the_shapes_it_is_given(board, qtbot):
    board.set_flipped(True)
    with qtbot.waitSignal(board.shape_drawn) as drawn:
        QTest.mousePress(board, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, at(board, chess.E2))
        QTest.mouseRelease(board, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, at(board, chess.E4))
    assert drawn.args == [Shape("arrow", (1, 4), (3, 4), "G")]
    board.set_shapes(drawn.args)
    colour = board.grab().toImage().pixelColor(at(board, chess.E3))
    assert colour.green() > colour.red() + 30
    assert board.contextMenuPolicy() == Qt.ContextMenuPolicy.PreventContextMenu  # the right button is the arrows'


def test_a_flipped_board_plays_the_same_squares(board, qtbot):
    board.set_flipped(True)
    click(board, at(board, chess.D2))
    with qtbot.waitSignal(board.move_played) as played:
        click(board, at(board, chess.D4))
    assert played.args == ["d2d4"]
    assert at(board, chess.D2).y() < at(board, chess.D7).y()  # White at the top


# --------------------------------------------------------------------------------------- Go


@pytest.fixture
def go_board(qtbot):
    from reviewer.core.games.go import GoPosition
    from reviewer.gui.board.go_play import PlayableGoBoard

    widget = PlayableGoBoard()
    qtbot.addWidget(widget)
    widget.resize(400, 400)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_position(GoPosition(9, 9, frozenset({(4, 4)}), frozenset({(2, 2)}), to_move="black"))
    return widget


def test_a_click_on_the_go_board_proposes_that_point(go_board, qtbot):
    with qtbot.waitSignal(go_board.move_played) as played:
        click(go_board, go_board.point_center((3, 3)).toPoint())
    assert played.args == ["D4"]
    with qtbot.waitSignal(go_board.move_played) as played:  # occupied: proposed, the rules refuse it
        click(go_board, go_board.point_center((4, 4)).toPoint())
    assert played.args == ["E5"]


def test_the_ghost_stone_follows_the_mouse_over_legal_points_only(go_board):
    QTest.mouseMove(go_board, go_board.point_center((6, 6)).toPoint())
    assert go_board.hover_point() == (6, 6)
    QTest.mouseMove(go_board, go_board.point_center((4, 4)).toPoint())
    assert go_board.hover_point() is None  # occupied


def test_move_numbers_are_painted_on_the_stones(go_board):
    center = go_board.point_center((4, 4)).toPoint()
    def light_pixels() -> int:
        image = go_board.grab().toImage()
        return sum(
            1
            for dx in range(-8, 9)
            for dy in range(-8, 9)
            if image.pixelColor(center.x() + dx, center.y() + dy).lightness() > 200
        )
    before = light_pixels()
    go_board.set_move_numbers({(4, 4): 7})
    assert light_pixels() > before + 5  # the white "7" on the black stone


def test_the_move_box_proposes_typed_moves_and_keeps_a_refused_one_marked(qtbot):
    from reviewer.gui.common.move_entry import MoveEntry

    entry = MoveEntry()
    qtbot.addWidget(entry)
    entry.show()
    qtbot.keyClicks(entry, "Nf3")
    with qtbot.waitSignal(entry.move_entered) as entered:
        QTest.keyClick(entry, Qt.Key.Key_Return)
    assert entered.args == ["Nf3"]
    entry.refuse("Nf3 is not legal in this position (black to move)")
    assert entry.text() == "Nf3" and "not legal" in entry.toolTip()
    qtbot.keyClicks(entry, "x")
    assert entry.refusal() == "" and entry.toolTip() == ""
    entry.accept_move()
    assert entry.text() == ""


def test_the_lines_panel_plays_a_clicked_line_and_shows_a_hovered_one(qtbot):
    from reviewer.core.analysis import Candidate, Evaluation
    from reviewer.core.services.live import LiveUpdate
    from reviewer.gui.analysis.live_panel import LinesPanel

    panel = LinesPanel()
    qtbot.addWidget(panel)
    panel.resize(420, 160)
    panel.show()
    qtbot.waitExposed(panel)
    evaluation = Evaluation(
        ply=0,
        kind="chess",
        score_cp_first=30,
        depth=12,
        candidates=(
            Candidate(move="e4", order=0, score_cp_first=30, pv=("e4", "e5")),
            Candidate(move="d4", order=1, mate_first=-3, pv=("d4", "d5")),
        ),
    )
    panel.show_update(LiveUpdate("start", evaluation, 0, 0.1, False), MoveNumber(1, True), lines=2)
    assert [row.score for row in panel.rows()] == ["+0.30", "#-3"]
    assert panel.header_text().startswith("live · depth 12") and panel.line_label(1).isVisible()
    second = panel.line_label(1)
    with qtbot.waitSignal(panel.line_clicked) as clicked:  # its second move: the line up to there
        QTest.mouseClick(second, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, second.move_rect(1).center())
    assert clicked.args == [("d4", "d5")]
    with qtbot.waitSignal(panel.line_clicked) as clicked:  # its first move
        QTest.mouseClick(second, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, second.move_rect(0).center())
    assert clicked.args == [("d4",)]
    with qtbot.waitSignal(panel.line_hovered) as hovered:
        QTest.mouseMove(second, second.move_rect(1).center())
    assert hovered.args == [("d4", "d5")]
    panel.clear_lines("Engine off")
    assert panel.rows() == [] and not panel.line_label(0).isVisible()


def test_a_click_on_an_engine_line_off_its_moves_plays_the_whole_line(qtbot):
    from reviewer.core.analysis import Candidate, Evaluation
    from reviewer.core.services.live import LiveUpdate
    from reviewer.gui.analysis.live_panel import LinesPanel

    panel = LinesPanel()
    qtbot.addWidget(panel)
    panel.resize(520, 160)
    panel.show()
    qtbot.waitExposed(panel)
    line = ("e4", "e5", "Nf3", "Nc6")
    evaluation = Evaluation(ply=0, kind="chess", score_cp_first=30, depth=12,
                            candidates=(Candidate(move="e4", order=0, score_cp_first=30, pv=line),))
    panel.show_update(LiveUpdate("start", evaluation, 0, 0.1, False), MoveNumber(1, True), lines=1)
    label = panel.line_label(0)
    on_the_score = QPoint(4, label.height() // 2)
    with qtbot.waitSignal(panel.line_clicked) as clicked:
        QTest.mouseClick(label, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, on_the_score)
    assert clicked.args == [line]
    number = label.move_rect(2).topLeft() - QPoint(8, -label.height() // 2)  # on "2." before Nf3
    with qtbot.waitSignal(panel.line_clicked) as clicked:
        QTest.mouseClick(label, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, number)
    assert clicked.args == [line]
    with qtbot.waitSignal(panel.line_clicked) as clicked:  # a move: up to it
        QTest.mouseClick(label, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, label.move_rect(2).center())
    assert clicked.args == [line[:3]]


def test_the_eval_bar_fills_with_whites_share(qtbot):
    from reviewer.core.analysis import Evaluation
    from reviewer.gui.analysis.live_panel import EvalBar

    bar = EvalBar()
    qtbot.addWidget(bar)
    bar.resize(22, 300)
    bar.set_evaluation(Evaluation(ply=0, kind="chess", mate_first=2))
    image = bar.grab().toImage()
    assert bar.white_pct() == 100.0 and image.pixelColor(11, 150).lightness() > 200
    bar.set_evaluation(Evaluation(ply=0, kind="chess", score_cp_first=-400))
    image = bar.grab().toImage()
    assert bar.white_pct() < 20 and image.pixelColor(11, 100).lightness() < 100 and image.pixelColor(11, 295).lightness() > 200


def test_ownership_tints_empty_points_by_owner_and_policy_marks_likely_moves(go_board):
    empty_black, empty_white, untouched = (0, 0), (8, 8), (0, 8)
    before = go_board.grab().toImage()
    ownership = [0.0] * 81
    ownership[0] = 1.0  # A1 Black's
    ownership[80] = -1.0  # J9 White's
    go_board.set_ownership(ownership)
    after = go_board.grab().toImage()

    def lightness(image, point) -> int:
        return image.pixelColor(go_board.point_center(point).toPoint() + QPoint(5, 5)).lightness()

    assert lightness(after, empty_black) < lightness(before, empty_black) - 40
    assert lightness(after, empty_white) > lightness(before, empty_white) + 20
    assert lightness(after, untouched) == lightness(before, untouched)
    go_board.set_ownership(None)
    policy = [0.0] * 81
    policy[3 * 9 + 3] = 0.6  # D4
    go_board.set_policy(policy)
    marked = go_board.grab().toImage().pixelColor(go_board.point_center((3, 3)).toPoint())
    assert marked.blue() > marked.red() + 40
