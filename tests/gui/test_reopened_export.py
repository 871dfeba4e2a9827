"""An exported game reopens without the app's own words twice, and its export never repeats a
variation the game already has as the engine's best line."""

from __future__ import annotations

from dataclasses import replace

from support import scholars_mate

from reviewer.core.export import export_game_text
from reviewer.core.formats import game_from_pgn_text
from reviewer.core.gametree import Node
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.presenters.comment import comment_html


def with_best_line(table):
    before = table.get(5)
    table.add(replace(before, pv=("g6", "Qf3", "Nf6")))
    return table


def test_a_reopened_export_says_its_verdict_once(qtbot):
    game, table = scholars_mate()
    text = export_game_text(game, with_best_line(table), with_analysis=True)
    assert text.count("Checkmate is now unavoidable.") == 1
    reopened = game_from_pgn_text(text)
    from reviewer.core.embedded_evals import evaluations_from_game

    session = ReviewSession()
    session.model.load_game(reopened)
    session.model.add_evaluations(evaluations_from_game(reopened).ordered())
    session.model.settle_assessment()
    session.model.set_current_ply(6)
    shown = comment_html(session.model, session.model.current_node)
    assert shown.count("was best") == 1 and shown.count("Checkmate is now unavoidable") <= 1

    again = export_game_text(reopened, evaluations_from_game(reopened), with_analysis=True)
    assert again.count("Checkmate is now unavoidable.") == 1 and again.count("(3... g6") == 1


def test_the_best_line_is_not_added_beside_the_same_variation(qtbot):
    game, table = scholars_mate()
    parent = game.node_at_ply(5)  # before 3...Nf6??
    own = parent.add_child(Node(move="g6", color="black", uci="g7g6"))
    own.add_child(Node(move="Qf3", color="white", uci="h5f3"))
    text = export_game_text(game, with_best_line(table))
    assert text.count("(3... g6") == 1  # the person's variation, not a second copy of it
