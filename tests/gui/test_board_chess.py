"""The chess board paints what it is given: squares, coordinates, pieces, highlights, badges."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication

from reviewer.gui.board.chess_board import Arrow, ChessBoardWidget
from reviewer.gui.common import style

LIGHT = QColor(style.LIGHT_THEME.square_light)
DARK = QColor(style.LIGHT_THEME.square_dark)


def close(a: QColor, b: QColor, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3]))


@pytest.fixture
def board_widget(qtbot) -> ChessBoardWidget:
    widget = ChessBoardWidget()
    qtbot.addWidget(widget)
    widget.resize(400, 400)
    return widget


def render(widget: ChessBoardWidget) -> QImage:
    return widget.grab().toImage()


def pixel(image: QImage, point: QPointF) -> QColor:
    return image.pixelColor(round(point.x()), round(point.y()))


def differing_pixels(image: QImage, widget: ChessBoardWidget, square: int, background: QColor) -> int:
    rect = widget.square_rect(square).toRect().adjusted(3, 3, -3, -3)
    return sum(
        not close(image.pixelColor(x, y), background)
        for x in range(rect.left(), rect.right(), 2)
        for y in range(rect.top(), rect.bottom(), 2)
    )


def test_board_is_square_and_centred_in_a_wide_widget(board_widget):
    board_widget.resize(600, 400)
    rect = board_widget.board_rect()
    assert rect.width() == rect.height() == 400
    assert rect.left() == 100 and rect.top() == 0


def test_empty_squares_have_lichess_colours_and_pieces_are_drawn(board_widget):
    board_widget.set_position(chess.Board())
    image = render(board_widget)
    assert close(pixel(image, board_widget.square_center(chess.E4)), LIGHT)  # e4 is light
    assert close(pixel(image, board_widget.square_center(chess.D4)), DARK)
    assert differing_pixels(image, board_widget, chess.E4, LIGHT) == 0
    assert differing_pixels(image, board_widget, chess.E2, DARK) > 40  # the pawn
    # the black king is mostly dark on its light square
    rect = board_widget.square_rect(chess.E8).toRect()
    dark_pixels = sum(
        image.pixelColor(x, y).lightness() < 50 for x in range(rect.left(), rect.right()) for y in range(rect.top(), rect.bottom())
    )
    assert dark_pixels > rect.width() * rect.height() * 0.2


def test_coordinates_sit_in_the_edge_squares(board_widget):
    board_widget.set_position(chess.Board(None))  # empty board: only coordinates remain
    image = render(board_widget)
    # 'a' in a1's bottom-right corner, '1' in its top-left; b2 carries no label
    assert differing_pixels(image, board_widget, chess.A1, DARK) > 0
    assert differing_pixels(image, board_widget, chess.H8, LIGHT) > 0  # the '8'
    assert differing_pixels(image, board_widget, chess.B2, DARK) == 0
    board_widget.set_show_coordinates(False)
    assert differing_pixels(render(board_widget), board_widget, chess.A1, DARK) == 0


def test_flipped_board_puts_black_at_the_bottom(board_widget):
    board_widget.set_flipped(True)
    board_widget.set_position(chess.Board())
    rect = board_widget.board_rect()
    a1 = board_widget.square_rect(chess.A1)
    assert a1.right() == pytest.approx(rect.right()) and a1.top() == pytest.approx(rect.top())
    assert board_widget.square_at(board_widget.square_center(chess.E7)) == chess.E7
    image = render(board_widget)
    assert differing_pixels(image, board_widget, chess.E7, LIGHT) > 40


def test_last_move_is_highlighted(board_widget):
    board = chess.Board()
    move = chess.Move.from_uci("e2e4")
    board.push(move)
    board_widget.set_position(board, move)
    image = render(board_widget)
    corner = board_widget.square_rect(chess.E4).topLeft() + QPointF(board_widget.square_rect(0).width() * 0.8, 4)
    assert not close(pixel(image, corner), LIGHT)
    assert not close(pixel(image, board_widget.square_center(chess.E2)), DARK)


def test_check_tints_the_king_red(board_widget):
    board = chess.Board("4k3/8/8/8/8/8/8/4K2R b - - 0 1")
    board_widget.set_position(chess.Board("4k3/4R3/8/8/8/8/8/4K3 b - - 0 1"))
    image = render(board_widget)
    edge = board_widget.square_rect(chess.E8).topLeft() + QPointF(8, 8)
    color = pixel(image, edge)
    assert color.red() > color.green() + 40
    board_widget.set_position(board)
    assert close(pixel(render(board_widget), edge), LIGHT)  # e8 is a light square


def test_badge_shows_the_judgement_colour(board_widget):
    board = chess.Board()
    board.push_san("f3")
    board_widget.set_position(board, board.peek())
    board_widget.set_move_badge(chess.F3, "blunder")
    rect = board_widget.square_rect(chess.F3)
    radius = rect.width() * 0.2
    centre = QPointF(rect.right() - radius * 0.75, rect.top() + radius * 0.75)
    edge_of_badge = centre + QPointF(radius * 0.7, 0)
    assert close(pixel(render(board_widget), edge_of_badge), style.judgement_color("blunder"), 25)
    board_widget.set_move_badge(chess.F3, "good")  # no symbol: no badge
    assert not close(pixel(render(board_widget), edge_of_badge), style.judgement_color("blunder"), 25)


def test_arrow_is_drawn_between_squares(board_widget):
    board_widget.set_position(chess.Board(None))
    board_widget.set_arrows([Arrow(chess.A4, chess.H4, "#0000ff")])
    image = render(board_widget)
    middle = (board_widget.square_center(chess.D4) + board_widget.square_center(chess.E4)) / 2
    color = pixel(image, middle)
    assert color.blue() > 150 and color.red() < 100
    board_widget.set_arrows([])
    assert not close(pixel(render(board_widget), middle), QColor("#0000ff"), 60)


def test_set_position_copies_the_board(board_widget):
    board = chess.Board()
    board_widget.set_position(board)
    board.push_san("e4")
    assert board_widget.board().piece_at(chess.E2) is not None


def wheel(widget, delta_y: int) -> None:
    centre = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(
        centre,
        widget.mapToGlobal(centre),
        QPoint(0, 0),
        QPoint(0, delta_y),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def test_wheel_emits_steps(board_widget, qtbot):
    steps: list[int] = []
    board_widget.wheel_steps.connect(steps.append)
    wheel(board_widget, -120)  # towards the user: forward
    wheel(board_widget, 240)  # two notches away: back twice
    assert steps == [1, -1, -1]


def test_touchpad_wheel_deltas_add_up_to_a_step(board_widget):
    steps: list[int] = []
    board_widget.wheel_steps.connect(steps.append)
    for _ in range(3):
        wheel(board_widget, -50)
    assert steps == [1]  # 150 units: one step, 30 kept for the next


def test_a_highlighted_edge_square_keeps_its_coordinate(board_widget):
    import chess as chess_module

    board = chess_module.Board()
    board.push_san("Na3")
    board_widget.set_position(board, board.peek())
    image = render(board_widget)
    rect = board_widget.square_rect(chess_module.A3)
    label_area = rect.adjusted(2, 2, -rect.width() * 0.6, -rect.height() * 0.6).toRect()
    colours = {image.pixelColor(x, y).rgb() for x in range(label_area.left(), label_area.right()) for y in range(label_area.top(), label_area.bottom())}
    assert len(colours) > 3  # the "3" is drawn over the highlight, not hidden under it


def test_the_cached_squares_follow_the_size_and_the_flip(board_widget):
    board_widget.set_position(chess.Board())
    render(board_widget)
    board_widget.resize(240, 240)
    image = render(board_widget)
    assert close(pixel(image, board_widget.square_center(chess.E4)), LIGHT)
    assert close(pixel(image, board_widget.square_center(chess.D4)), DARK)
    board_widget.set_flipped(True)
    image = render(board_widget)
    assert close(pixel(image, board_widget.square_center(chess.E4)), LIGHT)
    assert board_widget.square_center(chess.E4).y() < board_widget.square_center(chess.E5).y()
