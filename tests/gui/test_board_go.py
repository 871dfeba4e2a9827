"""The Go board paints stones, grid, markers and candidates where the points are."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication

from reviewer.core.games.go import GoPosition
from reviewer.core.games.go import position_after as go_position_at
from reviewer.core.gametree import point_from_gtp
from reviewer.gui.board.go_board import CandidateMark, GoBoardWidget, star_points
from reviewer.gui.common import style


def gtp(text: str, height: int = 19):
    return point_from_gtp(text, height)


@pytest.fixture
def go_widget(qtbot) -> GoBoardWidget:
    widget = GoBoardWidget()
    qtbot.addWidget(widget)
    widget.resize(500, 500)
    return widget


def render(widget) -> QImage:
    return widget.grab().toImage()


def pixel(image: QImage, point: QPointF) -> QColor:
    return image.pixelColor(round(point.x()), round(point.y()))


def test_stones_are_drawn_at_their_points(go_widget):
    position = GoPosition(19, 19, frozenset({gtp("D4")}), frozenset({gtp("Q16")}))
    go_widget.set_position(position)
    image = render(go_widget)
    assert pixel(image, go_widget.point_center(gtp("D4"))).lightness() < 70
    assert pixel(image, go_widget.point_center(gtp("Q16"))).lightness() > 200
    # between grid lines on an empty area: wood
    cell = go_widget.cell_size()
    between = go_widget.point_center(gtp("K12")) + QPointF(cell / 2, cell / 2)
    wood = pixel(image, between)
    assert wood.red() > wood.blue() + 60 and 120 < wood.lightness() < 220


def test_point_geometry_row_zero_is_the_bottom(go_widget):
    go_widget.set_position(GoPosition(19, 19, frozenset(), frozenset()))
    a1, t19 = go_widget.point_center((0, 0)), go_widget.point_center((18, 18))
    assert a1.x() < t19.x() and a1.y() > t19.y()
    assert go_widget.point_at(go_widget.point_center(gtp("Q16")) + QPointF(3, -3)) == gtp("Q16")
    assert go_widget.point_at(QPointF(1, 1)) is None


def test_rectangular_board_fits_and_places_stones(go_widget):
    go_widget.resize(600, 300)
    position = GoPosition(7, 4, frozenset({(0, 0)}), frozenset({(3, 6)}))
    go_widget.set_position(position)
    wood = go_widget.wood_rect()
    assert wood.width() > wood.height() * 1.4
    image = render(go_widget)
    bottom_left, top_right = go_widget.point_center((0, 0)), go_widget.point_center((3, 6))
    assert bottom_left.y() > top_right.y() and bottom_left.x() < top_right.x()
    assert pixel(image, bottom_left).lightness() < 70
    assert pixel(image, top_right).lightness() > 200


@pytest.mark.parametrize(("width", "height", "expected"), [(19, 19, 9), (13, 13, 5), (9, 9, 5), (7, 7, 5), (2, 2, 0), (25, 25, 9), (4, 3, 0)])
def test_star_points(width, height, expected):
    points = star_points(width, height)
    assert len(points) == expected
    assert all(0 <= r < height and 0 <= c < width for r, c in points)


def test_star_point_is_painted_on_an_empty_board(go_widget):
    go_widget.set_position(GoPosition(19, 19, frozenset(), frozenset()))
    image = render(go_widget)
    cell = go_widget.cell_size()
    centre = go_widget.point_center(gtp("K10"))
    off_line = centre + QPointF(cell * 0.045, cell * 0.045)  # inside the dot, off the grid lines
    plain = go_widget.point_center(gtp("L11")) + QPointF(cell * 0.045, cell * 0.045)
    assert pixel(image, off_line).lightness() < 80
    assert pixel(image, plain).lightness() > 120


def test_last_move_marker_contrasts_with_the_stone(go_widget):
    point = gtp("D4")
    go_widget.set_position(GoPosition(19, 19, frozenset({point}), frozenset(), last_move=point))
    image = render(go_widget)
    ring = go_widget.point_center(point) + QPointF(go_widget.cell_size() * 0.22, 0)
    assert pixel(image, ring).lightness() > 180  # a white ring on the black stone


def test_candidates_take_katrain_colours_and_best_is_ringed(go_widget):
    go_widget.set_position(GoPosition(19, 19, frozenset(), frozenset()))
    go_widget.set_candidates(
        [
            CandidateMark(gtp("D4"), 0.0, 500, True, 0),
            CandidateMark(gtp("Q4"), 8.0, 50, False, 1),
        ]
    )
    image = render(go_widget)
    cell = go_widget.cell_size()
    red_spot = pixel(image, go_widget.point_center(gtp("Q4")) + QPointF(-cell * 0.3, cell * 0.2))
    assert red_spot.red() > 150 and red_spot.green() < 100  # KaTrain's red (≥ 6 points)
    ring = pixel(image, go_widget.point_center(gtp("D4")) + QPointF(cell * 0.46, 0))
    assert ring.blue() > 180 and ring.red() < 100  # the cyan ring of the top move
    go_widget.set_candidates([])
    cleared = pixel(render(go_widget), go_widget.point_center(gtp("Q4")) + QPointF(-cell * 0.3, cell * 0.2))
    assert cleared.green() > 100


def test_badge_and_best_move(go_widget):
    point = gtp("C3")
    go_widget.set_position(GoPosition(19, 19, frozenset(), frozenset({point}), last_move=point))
    go_widget.set_move_badge(point, "mistake")
    go_widget.set_best_move(gtp("K10"))
    image = render(go_widget)
    cell = go_widget.cell_size()
    badge_edge = go_widget.point_center(point) + QPointF(cell * 0.36 + cell * 0.25 * 0.7, -cell * 0.36)
    assert abs(pixel(image, badge_edge).hue() - style.judgement_color("mistake").hue()) < 12
    best_ring = pixel(image, go_widget.point_center(gtp("K10")) + QPointF(0, -cell * 0.44))
    assert best_ring.blue() > 180


def test_a_real_game_position_renders(go_widget, corpus_dir):
    from reviewer.core.formats import load_game

    game = load_game(corpus_dir / "sgf" / "sabaki__beginner_game.sgf")
    node = game.node_at_ply(game.ply_count)
    position = go_position_at(game, node)
    go_widget.set_position(position)
    image = render(go_widget)
    for point in position.black:
        assert pixel(image, go_widget.point_center(point)).lightness() < 80
    for point in position.white:
        if point != position.last_move:
            assert pixel(image, go_widget.point_center(point)).lightness() > 190


def test_the_cached_board_follows_the_widget_size_the_board_size_and_coordinates(go_widget):
    position = GoPosition(19, 19, frozenset({gtp("D4")}), frozenset({gtp("Q16")}))
    go_widget.set_position(position)
    render(go_widget)
    go_widget.resize(320, 320)  # the wood, grid and stones are drawn for the new size
    image = render(go_widget)
    assert pixel(image, go_widget.point_center(gtp("D4"))).lightness() < 70
    assert pixel(image, go_widget.point_center(gtp("Q16"))).lightness() > 200
    go_widget.set_position(GoPosition(9, 9, frozenset({(4, 4)}), frozenset()))  # another board size
    image = render(go_widget)
    assert pixel(image, go_widget.point_center((4, 4))).lightness() < 70
    cell = go_widget.cell_size()
    assert pixel(image, go_widget.point_center((0, 0)) + QPointF(cell / 2, -cell / 2)).red() > 150  # wood
    with_letters = render(go_widget)
    go_widget.set_show_coordinates(False)
    without = render(go_widget)
    assert with_letters != without


def test_stone_shadows_never_darken_a_neighbouring_stone(go_widget):
    row = [gtp(f"{column}10") for column in "DEFGH"]
    go_widget.set_position(GoPosition(19, 19, frozenset(row[::2]), frozenset(row[1::2])))
    image = render(go_widget)
    cell = go_widget.cell_size()
    for point in row[1::2]:  # white stones between black ones: even their left edges stay light
        left_edge = go_widget.point_center(point) - QPointF(cell * 0.38, 0)
        assert pixel(image, left_edge).lightness() > 170


def test_wheel_emits_steps(go_widget):
    steps: list[int] = []
    go_widget.wheel_steps.connect(steps.append)
    centre = QPointF(250, 250)
    for delta in (-120, 120):
        event = QWheelEvent(
            centre,
            go_widget.mapToGlobal(centre),
            QPoint(0, 0),
            QPoint(0, delta),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(go_widget, event)
    assert steps == [1, -1]
