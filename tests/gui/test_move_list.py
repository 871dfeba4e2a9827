"""The move list: clicking moves (main line and variations), the current move, judgements."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor

from reviewer.core.gametree import Game, Node, point_from_gtp
from reviewer.gui.common import style
from reviewer.gui.review.move_list import MoveListWidget


def chess_game(sans: list[str]) -> Game:
    game = Game(kind="chess")
    board = chess.Board()
    node = game.root
    for san in sans:
        move = board.parse_san(san)
        color = "white" if board.turn == chess.WHITE else "black"
        node = node.add_child(Node(move=san, uci=move.uci(), color=color))
        board.push(move)
    return game


def long_chess_game(plies: int) -> Game:
    cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    return chess_game([cycle[i % 4] for i in range(plies)])


@pytest.fixture
def move_list(qtbot) -> MoveListWidget:
    widget = MoveListWidget()
    qtbot.addWidget(widget)
    widget.resize(300, 400)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def click(qtbot, widget: MoveListWidget, point: QPoint) -> None:
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_clicking_a_main_line_move_emits_its_node(move_list, qtbot):
    game = chess_game(["e4", "e5", "Nf3", "Nc6"])
    move_list.set_game(game)
    target = game.node_at_ply(3)
    rect = move_list.item_rect(target)
    assert rect is not None
    with qtbot.waitSignal(move_list.node_selected) as blocker:
        click(qtbot, move_list, rect.center())
    assert blocker.args == [target]


def test_white_and_black_share_a_row_with_the_move_number(move_list):
    game = chess_game(["e4", "e5", "Nf3"])
    move_list.set_game(game)
    e4, e5, nf3 = (move_list.item_rect(game.node_at_ply(ply)) for ply in (1, 2, 3))
    assert e4.top() == e5.top() and e4.left() < e5.left()
    assert nf3.top() > e4.top() and nf3.left() == e4.left()


def test_clicking_a_variation_move_emits_the_variation_node(move_list, qtbot):
    game = chess_game(["e4", "e5", "Nf3"])
    sicilian = game.node_at_ply(1).add_child(Node(move="c5", uci="c7c5", color="black"))
    deeper = sicilian.add_child(Node(move="Nf3", uci="g1f3", color="white"))
    move_list.set_game(game)
    rect = move_list.item_rect(deeper)
    assert rect is not None
    # the variation sits below the row of the move it replaces and above the next row
    assert move_list.item_rect(game.node_at_ply(2)).bottom() < rect.top() < move_list.item_rect(game.node_at_ply(3)).top()
    with qtbot.waitSignal(move_list.node_selected) as blocker:
        click(qtbot, move_list, rect.center())
    assert blocker.args == [deeper]


def test_clicking_a_move_number_selects_nothing(move_list, qtbot):
    game = chess_game(["e4", "e5"])
    move_list.set_game(game)
    e4 = move_list.item_rect(game.node_at_ply(1))
    with qtbot.assertNotEmitted(move_list.node_selected):
        click(qtbot, move_list, QPoint(5, e4.center().y()))


def test_current_move_is_scrolled_into_view_without_a_new_layout(move_list):
    game = long_chess_game(320)
    move_list.set_game(game)
    layout = move_list._layout
    last = game.node_at_ply(320)
    move_list.set_current_node(last)
    rect = move_list.item_rect(last)
    assert move_list.verticalScrollBar().value() > 0
    assert move_list.viewport().rect().contains(rect)
    move_list.set_current_node(game.node_at_ply(1))
    assert move_list.viewport().rect().contains(move_list.item_rect(game.node_at_ply(1)))
    assert move_list._layout is layout  # stepping only repaints


def test_the_current_move_comes_back_into_view_when_the_list_gets_shorter(move_list):
    game = long_chess_game(120)
    move_list.set_game(game)
    node = game.node_at_ply(60)
    move_list.set_current_node(node)
    assert move_list.viewport().rect().contains(move_list.item_rect(node))
    move_list.resize(300, 90)  # only the height changes: no new layout
    assert move_list.viewport().rect().contains(move_list.item_rect(node))
    move_list.resize(220, 150)  # a new width lays the moves out again
    assert move_list.viewport().rect().contains(move_list.item_rect(node))


def test_the_scroll_range_follows_the_height(move_list):
    game = long_chess_game(120)
    move_list.set_game(game)
    move_list.resize(300, 300)  # the scroll bar is there from now on: the width stays
    tall = move_list.verticalScrollBar().maximum()
    move_list.resize(300, 200)
    assert move_list.verticalScrollBar().maximum() == tall + 100


def test_stepping_down_a_long_list_paints_the_same_as_drawing_it_afresh(move_list):
    game = long_chess_game(200)
    move_list.set_game(game)
    move_list.set_judgements(dict.fromkeys(range(3, 200, 7), "mistake"))
    for ply in range(1, 90):  # scrolls a row at a time, moving what is drawn
        move_list.set_current_node(game.node_at_ply(ply))
        move_list.viewport().repaint()
    assert move_list.verticalScrollBar().value() > 0  # the list did scroll under the steps
    stepped = move_list.viewport().grab().toImage()
    move_list.viewport().update()
    afresh = move_list.viewport().grab().toImage()
    assert stepped == afresh


def test_current_move_is_painted_highlighted(move_list):
    game = chess_game(["e4", "e5", "Nf3"])
    move_list.set_game(game)
    node = game.node_at_ply(2)
    rect = move_list.item_rect(node)
    probe = QPoint(rect.right() - 6, rect.center().y())
    before = move_list.viewport().grab().toImage().pixelColor(probe)
    move_list.set_current_node(node)
    after = move_list.viewport().grab().toImage().pixelColor(probe)
    assert after != before
    assert abs(after.hue() - QColor(style.theme_for(move_list).current_background).hue()) < 10


def test_judgement_tints_the_move(move_list):
    game = chess_game(["e4", "e5", "Qh5", "Ke7"])
    move_list.set_game(game)
    rect = move_list.item_rect(game.node_at_ply(4))
    probe = QPoint(rect.right() - 6, rect.center().y())
    plain = move_list.viewport().grab().toImage().pixelColor(probe)
    move_list.set_judgements({4: "blunder"})
    tinted = move_list.viewport().grab().toImage().pixelColor(probe)
    assert tinted != plain
    assert tinted.red() > tinted.blue()


def test_the_annotators_glyph_shows_before_the_engines_judgement(move_list):
    game = chess_game(["e4", "e5", "Qh5", "Nc6"])
    game.node_at_ply(3).nags = [2]  # $2: the annotator calls 2. Qh5 a mistake
    game.node_at_ply(4).nags = [1]
    move_list.set_game(game)
    assert [move_list.symbol_for(game.node_at_ply(ply)) for ply in (1, 3, 4)] == ["", "?", "!"]
    rect = move_list.item_rect(game.node_at_ply(3))
    glyph_area = QRect(rect.left() + 2, rect.top() + 2, rect.width() - 4, rect.height() - 4)

    def ink() -> int:
        image = move_list.viewport().grab().toImage()
        background = image.pixelColor(glyph_area.right(), glyph_area.top())
        return sum(
            image.pixelColor(x, y) != background
            for x in range(glyph_area.left(), glyph_area.right())
            for y in range(glyph_area.top(), glyph_area.bottom())
        )

    with_glyph = ink()
    game.node_at_ply(3).nags = []
    move_list.viewport().update()
    assert with_glyph > ink()  # the "?" was painted after the move
    game.node_at_ply(3).nags = [2]
    game.node_at_ply(4).nags = []
    move_list.set_judgements({3: "good", 4: "blunder"})
    # The player's (or the file's) own glyph is theirs to say; a move without one shows the engine's.
    assert move_list.symbol_for(game.node_at_ply(3)) == "?" and move_list.symbol_for(game.node_at_ply(4)) == "??"


def test_go_moves_are_listed_and_clickable(move_list, qtbot):
    game = Game(kind="go", board_width=19, board_height=19, first_player="black")
    node = game.root
    for index, where in enumerate(["Q16", "D4", "pass", "C3"]):
        color = "black" if index % 2 == 0 else "white"
        node = node.add_child(Node(move=where, color=color, point=point_from_gtp(where, 19)))
    move_list.set_game(game)
    black_first, white_second = move_list.item_rect(game.node_at_ply(1)), move_list.item_rect(game.node_at_ply(2))
    assert black_first.top() == white_second.top() and black_first.left() < white_second.left()
    with qtbot.waitSignal(move_list.node_selected) as blocker:
        click(qtbot, move_list, move_list.item_rect(game.node_at_ply(3)).center())
    assert blocker.args == [game.node_at_ply(3)]


def test_real_pgn_with_variations(move_list, qtbot, corpus_dir):
    from reviewer.core.formats import load_game

    game = load_game(corpus_dir / "pgn" / "chesslib__rav_alternative.pgn")
    move_list.set_game(game)
    variations = [child for node in [game.root, *game.mainline_nodes()] for child in node.children[1:]]
    assert variations
    for node in [*game.mainline_nodes(), *variations]:
        assert move_list.item_rect(node) is not None
    target = variations[-1]
    move_list.set_current_node(target)
    with qtbot.waitSignal(move_list.node_selected) as blocker:
        click(qtbot, move_list, move_list.item_rect(target).center())
    assert blocker.args == [target]


def test_empty_game_and_no_game(move_list):
    move_list.set_game(Game(kind="chess"))
    move_list.set_current_node(None)
    move_list.grab()
    move_list.set_game(None)
    assert move_list.verticalScrollBar().maximum() == 0


@pytest.mark.parametrize("dark", [False, True])
def test_the_black_stone_icon_is_a_filled_disc_on_either_theme(dark):
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QImage, QPainter

    background = style.make_palette(dark).color(style.QPalette.ColorRole.Base)
    image = QImage(40, 20, QImage.Format.Format_ARGB32)
    image.fill(background)
    painter = QPainter(image)
    style.paint_stone_icon(painter, QPointF(10, 10), 6.0, "black", dark)
    style.paint_stone_icon(painter, QPointF(30, 10), 6.0, "white", dark)
    painter.end()
    black_inside = [image.pixelColor(x, y) for x, y in ((10, 10), (11, 12), (8, 11), (12, 9))]
    white_centre = image.pixelColor(30, 10)
    for colour in black_inside:  # filled, not a ring around the background
        assert abs(colour.lightness() - background.lightness()) > 20 or colour.lightness() < 60
        assert colour.lightness() < white_centre.lightness() - 80
    if dark:
        assert all(colour.lightness() > background.lightness() + 10 for colour in black_inside)
