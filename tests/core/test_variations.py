"""Exploring on the board: variations are made, reused, promoted, deleted and undone."""

from __future__ import annotations

import pytest

from reviewer.core.games import IllegalMove
from reviewer.core.games.go import position_after
from reviewer.core.gametree import Game
from reviewer.core.variations import TreeEditor


def chess_main_line() -> tuple[Game, TreeEditor]:
    game = Game(kind="chess", first_player="white")
    editor = TreeEditor(game)
    editor.play_line(game.root, ["e4", "e5", "Nf3", "Nc6"])
    return game, editor


def test_a_different_move_starts_a_variation_and_the_same_move_reuses_the_node():
    game, editor = chess_main_line()
    after_e4 = game.node_at_ply(1)
    again = editor.play(after_e4, "e7e5")
    assert not again.created and again.node is game.node_at_ply(2)
    sicilian = editor.play(after_e4, "c5")
    assert sicilian.created and after_e4.children[1] is sicilian.node
    assert (sicilian.node.move, sicilian.node.uci, sicilian.node.color) == ("c5", "c7c5", "black")
    assert game.mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]  # the main line is untouched


def test_an_illegal_move_changes_nothing_and_says_why():
    game, editor = chess_main_line()
    with pytest.raises(IllegalMove, match="not legal"):
        editor.play(game.node_at_ply(2), "Ke3")
    assert [len(n.children) for n in (game.root, *game.mainline_nodes())] == [1, 1, 1, 1, 0]


def test_a_line_is_played_whole_or_not_at_all():
    game, editor = chess_main_line()
    with pytest.raises(IllegalMove, match=r"move 3 of the line"):
        editor.play_line(game.node_at_ply(1), ["c5", "Nf3", "Qxh7"])
    assert len(game.node_at_ply(1).children) == 1


def test_promote_make_mainline_delete_and_undo():
    game, editor = chess_main_line()
    deep = editor.play_line(game.node_at_ply(2), ["Bc4", "Bc5"])
    editor.promote(deep)
    assert game.mainline_moves() == ["e4", "e5", "Bc4", "Bc5"]
    assert editor.undo() is not None
    assert game.mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]
    editor.make_mainline(deep)
    assert game.mainline_moves() == ["e4", "e5", "Bc4", "Bc5"]
    parent = editor.delete(game.node_at_ply(3))
    assert parent is game.node_at_ply(2) and game.mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]
    shown = editor.undo()
    assert shown is deep.parent and game.mainline_moves() == ["e4", "e5", "Bc4", "Bc5"]
    with pytest.raises(ValueError):
        editor.delete(game.root)


def test_undo_of_a_played_move_removes_it():
    game, editor = chess_main_line()
    created = editor.play(game.node_at_ply(4), "Bb5").node
    assert editor.undo() is game.node_at_ply(4)
    assert created.parent is None and game.ply_count == 4
    while editor.can_undo:
        editor.undo()
    assert game.ply_count == 0 and editor.undo() is None


def test_go_moves_get_their_point_and_captures_show_in_the_position():
    game = Game(kind="go", board_width=9, board_height=9, first_player="black")
    editor = TreeEditor(game)
    end = editor.play_line(game.root, ["A2", "B2", "B1", "J9", "C2", "J8", "B3"])
    assert end.point == (2, 1) and end.move == "B3"
    assert position_after(game, end).stone_at((1, 1)) is None  # White's B2 was taken
    passed = editor.play(end, "pass").node
    assert (passed.move, passed.point, passed.color) == ("pass", None, "white")
    with pytest.raises(IllegalMove, match="occupied"):
        editor.play(passed, "A2")


def test_move_numbers_leave_out_captured_stones():
    from reviewer.core.games.go import move_numbers

    game = Game(kind="go", board_width=9, board_height=9, first_player="black")
    end = TreeEditor(game).play_line(game.root, ["A2", "B2", "B1", "J9", "C2", "J8", "B3"])
    numbers = move_numbers(game, end)
    assert numbers[(2, 1)] == 7 and numbers[(1, 0)] == 1
    assert (1, 1) not in numbers  # White's B2 (move 2) was captured


def test_a_line_played_at_once_is_taken_back_in_one_undo():
    game, editor = chess_main_line()
    start = game.node_at_ply(2)
    end = editor.play_line(start, ["Bc4", "Bc5", "c3"])
    assert end.ply == 5 and len(start.children) == 2
    assert editor.undo() is start
    assert len(start.children) == 1 and game.mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]
    assert editor.can_undo  # the line played before it is undone apart
