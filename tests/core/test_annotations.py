"""The player's marks kept per node: chess arrows and highlighted squares (`[%cal]`/`[%csl]`), Go markup
(TR, SQ, CR, MA, LB, AR, LN) and NAGs, read from real files, written back so that python-chess and
sgfmill read the same marks, and edited with undo."""

from __future__ import annotations

import io

import chess
import chess.pgn
from sgfmill import sgf

from reviewer.core.analysis import EvaluationTable
from reviewer.core.export.pgn import export_pgn
from reviewer.core.export.sgf import export_sgf
from reviewer.core.formats import load_game
from reviewer.core.formats.annotations import nag_glyph, toggled_nag, typed_nag
from reviewer.core.gametree import Shape
from reviewer.core.variations import TreeEditor

ARROWS = "pgn/scalachess_fx__chessbaseArrows.pgn"
GO_MARKUP = "sgf/analyze-sgf__t-complex.sgf"


def _nodes(root):
    stack, out = [root], []
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def test_chess_shapes_leave_the_comment_and_keep_their_colours(corpus_dir):
    game = load_game(corpus_dir / ARROWS, 0)
    e4 = next(iter(game.root.mainline()))
    assert e4.shapes[:3] == [Shape("highlight", (3, 1), colour="G"), Shape("highlight", (4, 3), colour="Y"),
                             Shape("highlight", (5, 5), colour="R")]
    assert "%csl" not in e4.comment and "%cal" not in e4.comment


def test_python_chess_reads_our_arrows_and_squares_back(corpus_dir):
    game = load_game(corpus_dir / ARROWS, 0)
    read = chess.pgn.read_game(io.StringIO(export_pgn(game, EvaluationTable({}))))
    assert read is not None
    ours = [node.shapes for node in game.root.mainline()]
    theirs = [node.arrows() for node in read.mainline()]
    for shapes, arrows in zip(ours, theirs, strict=True):
        wanted = {(chess.square(s.at[1], s.at[0]), chess.square((s.to or s.at)[1], (s.to or s.at)[0]))
                  for s in shapes if s.colour in "GRYB"}
        assert {(a.tail, a.head) for a in arrows} == wanted


def test_go_markup_survives_a_round_trip_through_sgfmill(corpus_dir):
    game = load_game(corpus_dir / GO_MARKUP, 0)
    ours = sorted(s.at for n in _nodes(game.root) for s in n.shapes if s.kind == "triangle")
    assert ours
    root = sgf.Sgf_game.from_bytes(export_sgf(game, EvaluationTable({})).encode("utf-8")).get_root()
    size = game.board_height
    theirs = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node)
        if node.has_property("TR"):
            theirs += [(row, col) for row, col in node.get("TR")]
    assert sorted(theirs) == ours or sorted((size - 1 - r, c) for r, c in theirs) == ours


def test_nag_keys_build_the_glyphs_players_type():
    assert typed_nag([], "!") == [1]
    assert typed_nag([1], "!") == [3]  # !!
    assert typed_nag([1], "?") == [5]  # !?
    assert toggled_nag([1], 2) == [2]  # one move glyph at a time
    assert nag_glyph(3) == "!!"


def test_an_annotation_is_undone_and_redone(corpus_dir):
    game = load_game(corpus_dir / ARROWS, 0)
    editor = TreeEditor(game)
    node = next(iter(game.root.mainline()))
    before = (list(node.nags), node.comment, list(node.shapes))
    editor.annotate(node, nags=[2], words="I missed Nd5 here", shapes=[Shape("arrow", (0, 6), (2, 5), "R")])
    assert node.nags == [2] and "I missed Nd5 here" in node.comment
    editor.undo()
    assert (list(node.nags), node.comment, list(node.shapes)) == before
    editor.redo()
    assert node.nags == [2] and node.shapes[-1] == Shape("arrow", (0, 6), (2, 5), "R")
