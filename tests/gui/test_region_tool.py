"""The region of interest chosen on a real Go board with the mouse: a drag chooses it (and plays
nothing), the frame is drawn over the board, Esc's clear takes it away."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from reviewer.core.games.go import GoPosition
from reviewer.core.gametree import point_from_gtp
from reviewer.gui.analysis.region_tool import RegionTool
from reviewer.gui.board.go_play import PlayableGoBoard


def _board(qtbot) -> PlayableGoBoard:
    board = PlayableGoBoard()
    qtbot.addWidget(board)
    board.resize(600, 600)
    board.set_position(GoPosition(19, 19, frozenset({point_from_gtp("C3", 19)}), frozenset({point_from_gtp("D4", 19)}), "black"))
    board.show()
    qtbot.waitExposed(board)
    return board


def _at(board, text: str) -> QPoint:
    return board.point_center(point_from_gtp(text, 19)).toPoint()


def test_a_drag_chooses_the_region_and_plays_nothing(qtbot) -> None:
    board = _board(qtbot)
    tool = RegionTool(board)
    played: list[str] = []
    board.move_played.connect(played.append)
    chosen: list[object] = []
    tool.changed.connect(chosen.append)
    tool.begin()
    QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, _at(board, "F2"))
    QTest.mouseMove(board, _at(board, "D4"))
    QTest.mouseMove(board, _at(board, "A6"))
    assert tool.dragging == (point_from_gtp("F2", 19), point_from_gtp("A6", 19))
    QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, _at(board, "A6"))
    assert tool.region == ((1, 0), (5, 5)) and chosen == [((1, 0), (5, 5))] and not tool.choosing
    assert played == []  # choosing played no stone
    # the frame is drawn: the outline's blue on the region's edge, a veil outside
    image = board.grab().toImage()
    cell = board.cell_size()
    edge = board.point_center((3, 5)) + QPointF(cell / 2, 0)
    outline = QColor(image.pixel(edge.toPoint()))
    assert outline.blue() > 150 and outline.red() < 120, outline.name()
    inside, outside = board.point_center((3, 3)), board.point_center((12, 12))
    assert QColor(image.pixel(outside.toPoint())).lightness() < QColor(image.pixel(inside.toPoint())).lightness()
    # the next click plays again
    QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, _at(board, "Q16"))
    assert played == ["Q16"]


def test_clear_takes_the_region_away_and_says_whether_there_was_one(qtbot) -> None:
    board = _board(qtbot)
    tool = RegionTool(board)
    tool.set_region(((5, 5), (1, 0)))
    assert tool.region == ((1, 0), (5, 5))
    chosen: list[object] = []
    tool.changed.connect(chosen.append)
    assert tool.clear() and tool.region is None and chosen == [None]
    assert not tool.clear()
    tool.begin()
    assert tool.choosing and tool.clear() and not tool.choosing
