"""Annotated SGF: what sgfmill reads back, what Reviewer reads back, what survives from the file."""

from __future__ import annotations

import pytest
from sgfmill import sgf
from support import fake_engine_command
from test_export_helpers import analyse, go_evaluations

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit
from reviewer.core.export import annotate_game, evaluations_from_game, export_game_text
from reviewer.core.export.codec import decode_evaluation
from reviewer.core.export.sgf import COMMENT_PREFIX
from reviewer.core.formats import game_from_sgf_text, load_game, write_sgf
from reviewer.core.gametree import point_from_gtp
from reviewer.core.scoring import assess_game

ANNOTATION = {"inaccuracy": ("DO", b""), "mistake": ("BM", b"1"), "blunder": ("BM", b"2"), "best": ("TE", b"1")}


@pytest.fixture(scope="module")
def go_review():
    from support import CORPUS_DIR

    from reviewer.core.engines.katago import KataGoEngine

    path = CORPUS_DIR / "sgf" / "sabaki__endgame-9.sgf"
    if not path.exists():
        pytest.skip(f"the shared corpus is not at {CORPUS_DIR}")
    game = load_game(path)
    with KataGoEngine(fake_engine_command("fake_katago.py")) as engine:
        table = analyse(game, engine, Limit(visits=16, multipv=3))  # enough for labels (scoring/trust.py)
    return game, table


def mainline(sgf_game):
    node = sgf_game.get_root()
    nodes = [node]
    while len(node):
        node = node[0]
        nodes.append(node)
    return nodes


def judgements_and_graph(game, table):
    return [(m.judgement, m.best, m.eval_before, m.eval_after, m.loss, m.weight) for m in assess_game(game, table).moves]


def test_sgfmill_reads_values_judgements_comments_and_lines(go_review):
    game, table = go_review
    text = export_game_text(game, table)
    nodes = mainline(sgf.Sgf_game.from_string(text))
    assessment = assess_game(game, table)
    assert len(nodes) == game.ply_count + 1
    for ply, node in enumerate(nodes):
        evaluation = table.get(ply)
        assert float(node.get("SBKV")) == pytest.approx(100 * evaluation.winrate_first, abs=0.005)
        assert float(node.get("SBKS")) == pytest.approx(evaluation.score_lead_first, abs=0.005)
        assert decode_evaluation(node.get("RVW"), ply, "go", table.get(0).engine_id) == evaluation
    flagged = 0
    for move in assessment.moves:
        node = nodes[move.ply]
        present = {ident for ident in ("BM", "DO", "IT", "TE") if node.has_property(ident)}
        if move.judgement in ANNOTATION:
            ident, raw = ANNOTATION[move.judgement]
            assert present == {ident} and node.get_raw(ident) == raw
        else:
            assert present == set()
        comment = node.get("C")
        assert comment.startswith(COMMENT_PREFIX + {"best": "Best move", "good": "Good"}.get(move.judgement, move.judgement.capitalize()))
        assert move.judgement == "best" or f"{abs(move.loss):.1f} points {'lost' if move.loss >= 0 else 'gained'}" in comment
        parent = node.parent
        lines = [child for child in parent[1:] if child.has_property("RVWL")]
        if move.judgement in ("inaccuracy", "mistake", "blunder"):
            flagged += 1
            assert f"{move.best} was best" in comment
            line, moves = lines[0], []
            while True:
                colour, point = line.get_move()
                moves.append((colour, point))
                if not len(line):
                    break
                line = line[0]
            before = table.get(move.ply - 1)
            expected = [point_from_gtp(m, game.board_height) for m in before.pv[:12]]
            assert [p for _, p in moves] == expected
            assert moves[0][0] == ("b" if move.color == "black" else "w")
        else:
            assert lines == []
    assert flagged > 0
    root = nodes[0]
    assert root.get("AN").startswith("Reviewer ") and root.get("C").startswith(COMMENT_PREFIX)


def test_reviewer_reads_back_the_same_review(go_review):
    game, table = go_review
    text = export_game_text(game, table)
    reopened = game_from_sgf_text(text)
    table_back = evaluations_from_game(reopened)
    assert table_back.by_ply == table.by_ply
    assert judgements_and_graph(reopened, table_back) == judgements_and_graph(game, table)
    assert export_game_text(reopened, table_back) == text  # Reviewer's parts are replaced, not added


def test_sabaki_values_alone_still_give_the_graph(go_review):
    game, table = go_review
    reopened = game_from_sgf_text(export_game_text(game, table))
    for node in [reopened.root, *reopened.mainline_nodes()]:
        node.properties.pop("RVW")
    table_back = evaluations_from_game(reopened)
    assert sorted(table_back.by_ply) == sorted(table.by_ply)
    for ply, evaluation in table.by_ply.items():
        assert table_back.get(ply).score_lead_first == pytest.approx(evaluation.score_lead_first, abs=0.005)
        assert table_back.get(ply).winrate_first == pytest.approx(evaluation.winrate_first, abs=0.00005)
    losses = [m.loss for m in assess_game(reopened, table_back).moves]
    assert losses == pytest.approx([m.loss for m in assess_game(game, table).moves], abs=0.01)


def test_escaping_of_the_private_property():
    game = game_from_sgf_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc])")
    table = EvaluationTable()
    odd_id = "Kata]Go \\ [weird] | visits=5"
    for ply in range(3):
        table.add(Evaluation(ply=ply, kind="go", engine_id=odd_id, score_lead_first=0.5 * ply, winrate_first=0.5))
    text = export_game_text(game, table)
    root = sgf.Sgf_game.from_string(text).get_root()
    assert decode_evaluation(root.get("RVW"), 0, "go").engine_id == odd_id
    assert evaluations_from_game(game_from_sgf_text(text)).by_ply == table.by_ply


def test_users_comments_annotations_and_variations_survive(corpus_dir):
    game = load_game(corpus_dir / "sgf" / "analyze-sgf__t-sabaki-1.sgf")
    original = sgf.Sgf_game.from_string(write_sgf(game))
    table = go_evaluations(game)
    exported = sgf.Sgf_game.from_string(export_game_text(game, table))

    def walk(node, path=()):
        yield path, node
        for index, child in enumerate(node):
            yield from walk(child, (*path, index))

    exported_nodes = dict(walk(exported.get_root()))
    mainline_paths = {(0,) * ply for ply in range(game.ply_count + 1)}
    compared = 0
    for path, node in walk(original.get_root()):
        twin = exported_nodes[path]  # Reviewer's lines come after the file's own variations
        assert twin.get_move() == node.get_move()
        for ident in node.properties():
            if ident in ("BM", "DO", "IT", "TE") and path in mainline_paths:
                continue  # a judged main-line move gets Reviewer's annotation
            assert twin.get_raw_list(ident) == node.get_raw_list(ident), (path, ident)
            compared += ident in ("BM", "DO", "IT", "TE")
    assert compared == 2 and len(exported_nodes) > len(dict(walk(original.get_root())))


def test_long_commentary_survives(corpus_dir):
    game = load_game(corpus_dir / "sgf" / "katrain__LS_vs_AG_G4_English.sgf")
    table = go_evaluations(game)
    reopened = game_from_sgf_text(export_game_text(game, table))
    before = [n.comment for n in [game.root, *game.mainline_nodes()]]
    after = [n.comment for n in [reopened.root, *reopened.mainline_nodes()]]
    for old, new in zip(before, after):
        assert new.startswith(old)
    assert sum(1 for text in before if text) > 5
    # The file's comments come back unchanged when Reviewer's lines are taken away.
    from reviewer.core.export.sgf import strip_generated

    assert [strip_generated(text)[0] for text in after] == [text.strip() for text in before]


def test_a_users_bad_move_mark_stays_on_a_move_judged_good():
    game = game_from_sgf_text("(;GM[1]FF[4]SZ[9];B[ee]BM[1]C[I hesitated];W[cc])")
    table = EvaluationTable()
    for ply in range(3):
        table.add(Evaluation(ply=ply, kind="go", score_lead_first=1.0, winrate_first=0.55, best_move="A1"))
    assert assess_game(game, table).move_at_ply(1).judgement == "good"
    first = mainline(sgf.Sgf_game.from_string(export_game_text(game, table)))[1]
    assert first.get("BM") == 1 and first.get("C").startswith("I hesitated\n\nReviewer: Good")


def test_the_game_itself_is_not_changed(go_review):
    game, table = go_review
    before = [(dict(n.properties), len(n.children)) for n in [game.root, *game.mainline_nodes()]]
    annotate_game(game, table)
    assert [(dict(n.properties), len(n.children)) for n in [game.root, *game.mainline_nodes()]] == before


def test_a_partial_review_keeps_the_files_evaluations_elsewhere(go_review):
    game, table = go_review
    reopened = game_from_sgf_text(export_game_text(game, table))
    newer = EvaluationTable()
    for ply in range(5, 9):
        newer.add(Evaluation(ply=ply, kind="go", engine_id="Other | visits=1", score_lead_first=float(ply), winrate_first=0.5))
    back = evaluations_from_game(game_from_sgf_text(export_game_text(reopened, newer)))
    assert sorted(back.by_ply) == sorted(table.by_ply)
    for ply, evaluation in table.by_ply.items():
        assert back.get(ply) == (newer.get(ply) or evaluation), ply


def test_files_with_and_without_evaluations_are_told_apart(go_review):
    from reviewer.core.export import has_embedded_evaluations

    game, table = go_review
    assert not has_embedded_evaluations(game)
    assert has_embedded_evaluations(game_from_sgf_text(export_game_text(game, table)))
    assert has_embedded_evaluations(game_from_sgf_text("(;GM[1]SZ[9];B[ee]SBKV[40.5])"))
    assert len(evaluations_from_game(game_from_sgf_text("(;GM[1]SZ[9];B[ee]SBKV[40.5])"))) == 1
