"""The player's arrows, circles and Go markup, drawn on the boards of the real window with real mouse
events and keys, kept in the node's shapes (undoable), drawn again from the node, and exported."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from screenshots import shoot
from window_support import open_game, shown_window

from reviewer.core.formats.sgf import game_from_sgf_text
from reviewer.core.gametree import Shape
from reviewer.gui.board.chess_board import Arrow
from reviewer.gui.board.chess_shapes import SHAPE_COLOURS
from reviewer.gui.files.exports import game_text
from reviewer.gui.presenters.board_marks import BEST_ARROW, CANDIDATE_ARROW

NONE = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier
CTRL = Qt.KeyboardModifier.ControlModifier
RIGHT, LEFT = Qt.MouseButton.RightButton, Qt.MouseButton.LeftButton

PGN = '[Event "t"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n'
PGN_WITH_SHAPES = (
    '[Event "t"]\n[Result "*"]\n\n1. e4 {[%cal Ge2e4]} e5 {[%csl Rd4][%cal Bg1f3]} 2. Nf3 *\n'
)
SGF = "(;GM[1]FF[4]SZ[9]KM[6.5];B[cc];W[gg];B[cg])"
SGF_WITH_MARKS = "(;GM[1]FF[4]SZ[9]KM[6.5];B[cc]TR[cc]LB[ee:A][gc:B];W[gg]SQ[gg])"


@pytest.fixture
def window(qtbot):
    return shown_window(qtbot)


def opened(qtbot, window, tmp_path, text: str, name: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    open_game(qtbot, window, path)
    return window.board


def at(board, square: int) -> QPoint:
    return board.square_center(square).toPoint()


def right_drag(board, start: int, end: int, modifiers=NONE) -> None:
    QTest.mousePress(board, RIGHT, modifiers, at(board, start))
    QTest.mouseMove(board, at(board, end))
    QTest.mouseRelease(board, RIGHT, modifiers, at(board, end))


def arrow(start: str, end: str, colour: str = "G") -> Shape:
    a, b = chess.parse_square(start), chess.parse_square(end)
    return Shape("arrow", (chess.square_rank(a), chess.square_file(a)), (chess.square_rank(b), chess.square_file(b)), colour)


def ring(square: str, colour: str = "G") -> Shape:
    s = chess.parse_square(square)
    return Shape("highlight", (chess.square_rank(s), chess.square_file(s)), colour=colour)


def pixel(board, square: int) -> QColor:
    return board.grab().toImage().pixelColor(at(board, square))


def step(qtbot, window, key) -> None:
    QTest.keyClick(window, key)
    qtbot.wait(0)


def goes_to(qtbot, window, node) -> None:
    qtbot.waitUntil(lambda: window.session.model.current_node is node)


# ------------------------------------------------------------------------------------------ chess


def test_a_right_drag_draws_a_green_arrow_kept_on_the_node_and_a_second_takes_it_away(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN, "game.pgn")
    model = window.session.model
    node = model.current_node
    with qtbot.waitSignal(window.session.notes_changed):
        right_drag(board, chess.E2, chess.E4)
    assert node.shapes == [arrow("e2", "e4")] and board.shapes() == (arrow("e2", "e4"),)
    colour = pixel(board, chess.E3)  # the shaft crosses e3
    assert colour.green() > colour.red() + 30 and colour.green() > colour.blue() + 30
    right_drag(board, chess.E2, chess.E4)
    assert node.shapes == [] and board.shapes() == ()


def test_modifiers_give_lichess_colours_and_another_colour_replaces_the_arrow(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN, "game.pgn")
    node = window.session.model.current_node
    right_drag(board, chess.D2, chess.D4, SHIFT)
    right_drag(board, chess.G1, chess.F3, ALT)
    right_drag(board, chess.B1, chess.C3, CTRL)
    right_drag(board, chess.C2, chess.C4, SHIFT | ALT)
    assert node.shapes == [arrow("d2", "d4", "R"), arrow("g1", "f3", "B"), arrow("b1", "c3", "Y"), arrow("c2", "c4", "Y")]
    red = pixel(board, chess.D3)
    assert red.red() > red.green() + 40
    right_drag(board, chess.D2, chess.D4)  # green on the same squares takes red's place
    assert arrow("d2", "d4", "R") not in node.shapes and node.shapes[-1] == arrow("d2", "d4", "G")


def test_a_right_click_draws_a_circle_and_a_left_click_still_plays_and_clears_nothing(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN, "game.pgn")
    model = window.session.model
    start = model.current_node
    QTest.mouseClick(board, RIGHT, NONE, at(board, chess.D5))
    assert start.shapes == [ring("d5")]
    rect = board.square_rect(chess.D5)
    on_ring = QPoint(round(rect.left() + rect.width() * 0.051), round(rect.center().y()))
    ring_pixel = board.grab().toImage().pixelColor(on_ring)
    assert ring_pixel.green() > ring_pixel.red()
    QTest.mouseClick(board, LEFT, NONE, at(board, chess.A3))  # an empty square: nothing cleared
    assert start.shapes == [ring("d5")]
    QTest.mouseClick(board, LEFT, NONE, at(board, chess.E2))
    QTest.mouseClick(board, LEFT, NONE, at(board, chess.E4))
    qtbot.waitUntil(lambda: model.current_node is not start)
    assert start.shapes == [ring("d5")] and board.shapes() == ()


def test_the_shapes_come_back_when_the_move_is_shown_again_and_undo_and_redo_change_them(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN, "game.pgn")
    model = window.session.model
    model.set_current_node(model.game.root.children[0])
    e4 = model.current_node
    goes_to(qtbot, window, e4)
    right_drag(board, chess.G8, chess.F6)
    assert e4.shapes == [arrow("g8", "f6")]
    step(qtbot, window, Qt.Key.Key_Right)
    goes_to(qtbot, window, e4.children[0])
    assert board.shapes() == ()
    step(qtbot, window, Qt.Key.Key_Left)
    goes_to(qtbot, window, e4)
    assert board.shapes() == (arrow("g8", "f6"),)
    with qtbot.waitSignal(window.session.notes_changed):
        QTest.keyClick(window, Qt.Key.Key_Z, CTRL)
    assert e4.shapes == [] and board.shapes() == ()
    with qtbot.waitSignal(window.session.notes_changed):
        assert model.redo_edit()
    assert e4.shapes == [arrow("g8", "f6")] and board.shapes() == (arrow("g8", "f6"),)


def test_a_variation_keeps_its_own_shapes(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN, "game.pgn")
    model = window.session.model
    QTest.mouseClick(board, LEFT, NONE, at(board, chess.D2))
    QTest.mouseClick(board, LEFT, NONE, at(board, chess.D4))  # 1. d4: a variation beside 1. e4
    qtbot.waitUntil(lambda: model.current_node is not None and model.current_node.move == "d4")
    d4 = model.current_node
    assert not d4.is_mainline
    right_drag(board, chess.D4, chess.D5, ALT)
    assert d4.shapes == [arrow("d4", "d5", "B")] and model.game.root.children[0].shapes == []


def test_a_pgn_with_cal_and_csl_shows_them_and_the_export_writes_what_was_drawn(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN_WITH_SHAPES, "arrows.pgn")
    model = window.session.model
    e4 = model.game.root.children[0]
    model.set_current_node(e4)
    goes_to(qtbot, window, e4)
    assert board.shapes() == (arrow("e2", "e4"),)
    model.set_current_node(e4.children[0])
    goes_to(qtbot, window, e4.children[0])
    assert set(board.shapes()) == {ring("d4", "R"), arrow("g1", "f3", "B")}
    model.set_current_node(e4)
    goes_to(qtbot, window, e4)
    right_drag(board, chess.D7, chess.D5, SHIFT)
    text = game_text(window.exports.snapshot())
    assert "1. e4 { [%cal Ge2e4,Rd7d5] }" in text and "[%csl Rd4][%cal Bg1f3]" in text


def test_while_the_player_looks_for_a_move_the_files_arrows_are_hidden_and_drawing_is_a_sketch(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN_WITH_SHAPES, "arrows.pgn")
    model = window.session.model
    e4 = model.game.root.children[0]
    model.set_current_node(e4)
    goes_to(qtbot, window, e4)
    assert board.shapes() == (arrow("e2", "e4"),)
    with qtbot.waitSignal(window.session.engine_hidden_changed):
        model.hide_engine_from(2)  # "find a better move than 1... e5": the annotator's arrows could tell
    assert board.shapes() == ()
    right_drag(board, chess.G8, chess.F6)
    assert board.shapes() == (arrow("g8", "f6"),) and e4.shapes == [arrow("e2", "e4")]  # kept nowhere
    with qtbot.waitSignal(window.session.engine_hidden_changed):
        model.hide_engine_from(None)
    assert board.shapes() == (arrow("e2", "e4"),)


def test_the_lichess_study_arrows_of_the_corpus_are_drawn(qtbot, window, corpus_dir):
    path = corpus_dir / "pgn" / "scalachess_fx__chessbaseArrows.pgn"
    if not path.exists():
        pytest.skip("corpus file missing")
    open_game(qtbot, window, path)
    model, board = window.session.model, window.board
    model.set_current_node(model.game.root)
    goes_to(qtbot, window, model.game.root)
    assert set(board.shapes()) >= {arrow("e2", "e4"), arrow("e2", "d4", "Y"), ring("b4"), ring("d5", "Y")}
    colour = pixel(board, chess.E3)
    assert colour.green() > colour.red() + 30


def test_chess_board_with_shapes_in_four_colours_screenshot(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN, "game.pgn")
    right_drag(board, chess.E2, chess.E4)
    right_drag(board, chess.D1, chess.H5, SHIFT)
    right_drag(board, chess.G1, chess.F3, ALT)
    right_drag(board, chess.F1, chess.C4, CTRL)
    for square, modifiers in ((chess.E5, NONE), (chess.F7, SHIFT), (chess.D5, ALT), (chess.C6, CTRL)):
        QTest.mouseClick(board, RIGHT, modifiers, at(board, square))
    assert {shape.colour for shape in window.session.model.current_node.shapes} == set("GRBY")
    assert set(SHAPE_COLOURS) >= set("GRBY")

    def with_engine_arrows() -> None:  # the engine's best move and a candidate, to tell them apart
        board.set_arrows([Arrow(chess.B1, chess.A3, CANDIDATE_ARROW, 0.11), Arrow(chess.C2, chess.C4, BEST_ARROW, 0.2)])

    shoot(qtbot, window, "chess-shapes", shown=board, before_grab=with_engine_arrows)


def test_a_right_drag_shows_the_arrow_while_it_is_drawn(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN, "game.pgn")
    before = pixel(board, chess.E3)
    QTest.mousePress(board, RIGHT, SHIFT, at(board, chess.E2))
    QTest.mouseMove(board, at(board, chess.E4))
    during = pixel(board, chess.E3)
    assert during.red() > during.green() + 40 and during != before
    assert window.session.model.current_node.shapes == []  # not kept until the button is let go
    QTest.mouseRelease(board, RIGHT, SHIFT, at(board, chess.E4))
    assert window.session.model.current_node.shapes == [arrow("e2", "e4", "R")]


def test_the_markup_tools_are_off_on_a_chess_board(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, PGN, "game.pgn")
    menu = window.markup_menu
    menu.refresh()
    assert not any(action.isEnabled() for action in menu.tool_actions.values())
    QTest.keyClick(window, Qt.Key.Key_T)
    assert window.analysis_board.shapes.tool == "" and menu.play_action.isChecked()
    with qtbot.waitSignal(board.move_played):
        QTest.mouseClick(board, LEFT, NONE, at(board, chess.E2))
        QTest.mouseClick(board, LEFT, NONE, at(board, chess.E4))


# --------------------------------------------------------------------------------------------- Go


def point_at(board, point) -> QPoint:
    return board.point_center(point).toPoint()


def click(board, point, button=LEFT) -> None:
    QTest.mouseClick(board, button, NONE, point_at(board, point))


def test_go_the_triangle_tool_marks_a_stone_and_esc_goes_back_to_playing(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, SGF, "game.sgf")
    model = window.session.model
    last = model.game.root.children[0].children[0].children[0]
    model.set_current_node(last)
    goes_to(qtbot, window, last)
    menu = window.markup_menu
    menu.refresh()
    assert menu.tool_actions["triangle"].isEnabled()
    QTest.keyClick(window, Qt.Key.Key_T)
    assert board.tool() == "triangle" and menu.tool_actions["triangle"].isChecked()
    assert window.statusBar().currentMessage().startswith("Markup tool: triangle")
    with qtbot.assertNotEmitted(board.move_played):
        click(board, (6, 2))  # Black's first stone, C7 (SGF cc)
    assert last.shapes == [Shape("triangle", (6, 2))] and board.shapes() == (Shape("triangle", (6, 2)),)
    image = board.grab().toImage()
    assert image.pixelColor(point_at(board, (6, 2)) + QPoint(0, -round(board.cell_size() * 0.3))).lightness() > 200
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert board.tool() == "" and menu.play_action.isChecked() and window.statusBar().currentMessage() == ""
    with qtbot.waitSignal(board.move_played) as played:
        click(board, (4, 4))
    assert played.args == ["E5"]
    qtbot.waitUntil(lambda: model.current_node is not last)
    assert model.current_node.move == "E5" and model.current_node.parent is last


def test_go_a_tool_shows_faintly_what_a_click_would_draw_under_the_mouse(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, SGF, "game.sgf")
    empty = (4, 4)
    cell = board.cell_size()
    centre = board.point_center(empty)
    box = (round(centre.x() - cell / 2), round(centre.y() - cell / 2), round(cell), round(cell))
    window.markup_menu.tool_actions["square"].trigger()
    QTest.mouseMove(board, point_at(board, (0, 0)))
    away = board.grab().toImage().copy(*box)
    QTest.mouseMove(board, point_at(board, empty))
    qtbot.waitUntil(lambda: board.grab().toImage().copy(*box) != away)
    assert window.session.model.current_node.shapes == []  # shown, not drawn


def test_go_label_tools_give_the_next_free_letter_and_number_and_the_tool_again_plays(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, SGF, "game.sgf")
    model = window.session.model
    node = model.current_node
    window.markup_menu.tool_actions["letter"].trigger()
    assert board.tool() == "letter"
    click(board, (0, 0))
    click(board, (0, 1))
    assert [(s.at, s.text) for s in node.shapes] == [((0, 0), "A"), ((0, 1), "B")]
    click(board, (0, 0))  # a label clicked again is taken away: A is free again
    click(board, (0, 2))
    assert [(s.at, s.text) for s in node.shapes] == [((0, 1), "B"), ((0, 2), "A")]
    window.markup_menu.tool_actions["number"].trigger()
    click(board, (1, 0))
    click(board, (1, 1))
    assert [s.text for s in node.shapes[-2:]] == ["1", "2"]
    window.markup_menu.tool_actions["number"].trigger()  # the tool again: play
    assert board.tool() == "" and window.markup_menu.play_action.isChecked()


def test_go_arrows_and_lines_by_two_clicks_or_a_drag_and_the_right_button_repeats_the_last_mark(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, SGF, "game.sgf")
    node = window.session.model.current_node
    window.markup_menu.tool_actions["arrow"].trigger()
    click(board, (2, 2))
    assert board.first_point() == (2, 2) and node.shapes == []
    click(board, (5, 5))
    assert node.shapes == [Shape("arrow", (2, 2), (5, 5))] and board.first_point() is None
    click(board, (2, 2))
    click(board, (2, 2))  # the first point again: no arrow after all
    assert board.first_point() is None and len(node.shapes) == 1
    window.markup_menu.tool_actions["line"].trigger()
    QTest.mousePress(board, LEFT, NONE, point_at(board, (0, 8)))
    QTest.mouseMove(board, point_at(board, (8, 8)))
    QTest.mouseRelease(board, LEFT, NONE, point_at(board, (8, 8)))
    assert node.shapes[-1] == Shape("line", (0, 8), (8, 8))
    window.markup_menu.tool_actions["cross"].trigger()
    click(board, (3, 3))
    QTest.keyClick(window, Qt.Key.Key_Escape)
    click(board, (6, 6), RIGHT)  # no tool: the last one used
    assert node.shapes[-2:] == [Shape("cross", (3, 3)), Shape("cross", (6, 6))] and board.tool() == ""


def test_go_an_sgf_with_marks_shows_them_and_the_export_writes_the_triangle(qtbot, window, tmp_path):
    board = opened(qtbot, window, tmp_path, SGF_WITH_MARKS, "marks.sgf")
    model = window.session.model
    first = model.game.root.children[0]
    model.set_current_node(first)
    goes_to(qtbot, window, first)
    assert set(board.shapes()) == {Shape("triangle", (6, 2)), Shape("label", (4, 4), text="A"), Shape("label", (6, 6), text="B")}
    model.set_current_node(first.children[0])
    goes_to(qtbot, window, first.children[0])
    assert board.shapes() == (Shape("square", (2, 6)),)
    window.markup_menu.tool_actions["triangle"].trigger()
    click(board, (0, 0))
    text = game_text(window.exports.snapshot())
    again = game_from_sgf_text(text).root.children[0]
    assert set(again.shapes) == {Shape("triangle", (6, 2)), Shape("label", (4, 4), text="A"), Shape("label", (6, 6), text="B")}
    assert set(again.children[0].shapes) == {Shape("square", (2, 6)), Shape("triangle", (0, 0))}
    assert "TR[ai]" in text


def test_go_each_mark_on_black_white_and_empty_points_screenshot(qtbot, window, tmp_path):
    sgf = "(;GM[1]FF[4]SZ[9]KM[6.5]AB[ba][bb][bc][bd][be][bf]AW[da][db][dc][dd][de][df];B[ii])"
    board = opened(qtbot, window, tmp_path, sgf, "marks.sgf")
    model = window.session.model
    node = model.game.root.children[0]
    model.set_current_node(node)
    goes_to(qtbot, window, node)
    for tool, row in (("triangle", 8), ("square", 7), ("circle", 6), ("cross", 5), ("letter", 4), ("number", 3)):
        window.markup_menu.tool_actions[tool].trigger()
        for col in (1, 3, 5):  # black, white, empty
            click(board, (row, col))
    window.markup_menu.tool_actions["arrow"].trigger()
    click(board, (1, 0))
    click(board, (1, 6))
    menu = window.markup_menu.menu
    menu.adjustSize()  # drawn without popping it up (the offscreen platform cannot)
    shoot(qtbot, window, "markup-menu", shown=menu, follows=board)
    window.markup_menu.tool_actions["line"].trigger()
    click(board, (0, 1))
    click(board, (0, 7))
    assert len(node.shapes) == 20
    image = board.grab().toImage()
    for col, bright in ((1, True), (3, False)):  # the triangle's top corner on a black and a white stone
        colour = image.pixelColor(point_at(board, (8, col)) + QPoint(0, -round(board.cell_size() * 0.3)))
        assert (colour.lightness() > 200) if bright else (colour.lightness() < 60)
    shoot(qtbot, window, "go-marks", shown=board)
    window.markup_menu.tool_actions["triangle"].trigger()
    shoot(qtbot, window, "go-marks-window", follows=board)


# ------------------------------------------------------------------------------- a training card


def test_a_training_card_board_keeps_arrows_for_the_card_on_show_only(qtbot, tmp_path):
    from support import chess_card

    from reviewer.core.services.trainer.deck import Deck
    from reviewer.gui.trainer.train_window import TrainWindow

    deck_path = tmp_path / "deck.sqlite"
    with Deck(deck_path) as deck:
        deck.add([chess_card()])
    window = TrainWindow(lambda: Deck(deck_path))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.current() is not None, timeout=60_000)
    board = window.board
    right_drag(board, chess.G8, chess.F6)
    assert [shape.kind for shape in board.shapes()] == ["arrow"]
    right_drag(board, chess.G8, chess.F6)
    assert board.shapes() == ()
    right_drag(board, chess.G8, chess.F6, SHIFT)
    assert board.shapes()[0].colour == "R"
    window.close_deck()


def test_the_marks_of_a_katrain_commentary_file_are_drawn(qtbot, window, corpus_dir):
    path = corpus_dir / "sgf" / "katrain__LS_vs_AG_G4_English.sgf"
    if not path.exists():
        pytest.skip("corpus file missing")
    open_game(qtbot, window, path)
    model, board = window.session.model, window.board
    marked = next(node for node in model.game.mainline_nodes() if any(shape.kind == "label" for shape in node.shapes))
    model.set_current_node(marked)
    goes_to(qtbot, window, marked)
    assert board.shapes() == tuple(marked.shapes)
    label = next(shape for shape in marked.shapes if shape.kind == "label")
    cell = board.cell_size()
    around = board.point_center(label.at)
    box = (round(around.x() - cell / 2), round(around.y() - cell / 2), round(cell), round(cell))
    with_marks = board.grab().toImage().copy(*box)
    board.set_shapes(())
    assert board.grab().toImage().copy(*box) != with_marks  # the label is drawn there


# -------------------------------------------------------------------------------------- the rules


def test_the_next_free_label_and_what_a_click_on_a_marked_point_toggles():
    from reviewer.gui.board.go_markup import next_letter, next_number, point_shape, two_point_shape

    labels = [Shape("label", (0, 0), text="A"), Shape("label", (0, 1), text="C"), Shape("label", (0, 2), text="1")]
    assert next_letter(labels) == "B" and next_number(labels) == "2"
    assert next_letter([Shape("label", (0, i), text=chr(65 + i)) for i in range(26)]) == "A"
    assert point_shape("letter", (0, 1), labels) == labels[1]  # a labelled point: its label goes
    assert point_shape("number", (5, 5), labels) == Shape("label", (5, 5), text="2")
    assert point_shape("cross", (0, 0), labels) == Shape("cross", (0, 0))  # it takes the label's place
    line = Shape("line", (1, 1), (3, 3))
    assert two_point_shape("line", (3, 3), (1, 1), [line]) == line  # the same line the other way round
    assert two_point_shape("arrow", (3, 3), (1, 1), [line]) == Shape("arrow", (3, 3), (1, 1))
    assert two_point_shape("arrow", (3, 3), (3, 3), []) is None


def test_the_keys_held_give_lichess_colours():
    from reviewer.gui.board.chess_shapes import colour_for, drawn_shape

    assert [colour_for(keys) for keys in (NONE, SHIFT, ALT, SHIFT | ALT, CTRL, CTRL | SHIFT)] == list("GRBYYY")
    assert drawn_shape(chess.E2, chess.E4, NONE) == arrow("e2", "e4")
    assert drawn_shape(chess.D5, chess.D5, ALT) == ring("d5", "B")


def test_every_kind_of_sgf_markup_of_the_ff4_example_file_is_drawn_screenshot(qtbot, window, corpus_dir):
    path = corpus_dir / "sgf" / "analyze-sgf__t-complex.sgf"
    if not path.exists():
        pytest.skip("corpus file missing")
    with qtbot.waitSignal(window.file_opened, timeout=60_000):
        window.open_file(path, 0)  # its first game tree (no chooser asked)
    model, board = window.session.model, window.board

    def nodes(node):
        yield node
        for child in node.children:
            yield from nodes(child)

    marked = next(node for node in nodes(model.game.root) if {"arrow", "line"} <= {shape.kind for shape in node.shapes})
    model.set_current_node(marked)
    goes_to(qtbot, window, marked)
    kinds = {shape.kind for shape in board.shapes()}
    assert {"triangle", "cross", "circle", "square", "arrow", "line"} <= kinds
    assert board.shapes() == tuple(marked.shapes)
    shoot(qtbot, window, "go-ff4-markup", shown=board)
