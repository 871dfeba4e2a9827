"""Annotated PGN: what python-chess reads back, what Reviewer reads back, what survives from the file."""

from __future__ import annotations

import io
import re

import chess.pgn
import pytest
from support import REPO_ROOT, fake_engine_command
from test_export_helpers import analyse, chess_evaluations

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit
from reviewer.core.export import annotate_game, evaluations_from_game, export_game_text
from reviewer.core.export.pgn import GENERATED_JUDGEMENT
from reviewer.core.formats import game_from_pgn_text, load_game, open_collection, write_pgn
from reviewer.core.scoring import assess_game

OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
SYMBOL_NAGS = {"inaccuracy": 6, "mistake": 2, "blunder": 4}


@pytest.fixture(scope="module")
def opera_review():
    from reviewer.core.engines.uci import UciEngine

    game = load_game(OPERA)
    with UciEngine(fake_engine_command("fake_uci.py")) as engine:
        table = analyse(game, engine, Limit(nodes=500, multipv=2))
    return game, table


def judgements_and_graph(game, table):
    assessment = assess_game(game, table)
    return [(m.judgement, m.best, m.eval_before, m.eval_after, m.loss, m.accuracy) for m in assessment.moves]


def test_python_chess_reads_every_eval_symbol_and_line(opera_review):
    game, table = opera_review
    text = export_game_text(game, table)
    read = chess.pgn.read_game(io.StringIO(text))
    assessment = assess_game(game, table)
    nodes = list(read.mainline())
    assert [n.san() for n in nodes] == game.mainline_moves()
    flagged = 0
    for move, node in zip(assessment.moves, nodes):
        evaluation = table.get(move.ply)
        score = node.eval()
        if evaluation.terminal is None:
            expected = chess.engine.Mate(evaluation.mate_first) if evaluation.mate_first else chess.engine.Cp(evaluation.score_cp_first)
            assert score.white() == expected, move.ply
        else:
            assert score is None
        if move.judgement in SYMBOL_NAGS:
            flagged += 1
            assert SYMBOL_NAGS[move.judgement] in node.nags
            assert f"{move.best} was best." in node.comment
            assert GENERATED_JUDGEMENT.search(node.comment)
            line = node.parent.variations[1]
            before = table.get(move.ply - 1)
            sans = [line.san()] + [n.san() for n in line.mainline()]
            assert sans == list(before.pv[:12])
        else:
            assert not set(node.nags) & set(SYMBOL_NAGS.values())
            assert len(node.parent.variations) == 1
    assert flagged > 3
    assert read.eval().white() == chess.engine.Cp(table.get(0).score_cp_first)
    headers = read.headers
    assert headers["Annotator"] == "Reviewer 0.1.0 (FakeFish 1.0)"
    assert headers["WhiteAccuracy"] == f"{assessment.white.accuracy_lichess:.1f}"  # lichess thresholds: lichess's
    assert headers["ReviewerAccuracy"] == "lichess accuracy"
    assert headers["BlackACPL"] == f"{assessment.black.acpl:.0f}"
    assert headers["ECO"] == "C41" and headers["Opening"] == "Philidor Defense"
    assert "C41 Philidor Defense" in nodes[assessment.opening.ply - 1].comment


def test_reviewer_reads_back_the_same_review(opera_review):
    game, table = opera_review
    text = export_game_text(game, table, with_analysis=True)
    reopened = game_from_pgn_text(text)
    table_back = evaluations_from_game(reopened)
    assert table_back.by_ply == table.by_ply  # full fidelity: candidates, depth, WDL, engine id
    assert judgements_and_graph(reopened, table_back) == judgements_and_graph(game, table)
    # Exporting the reopened game again changes nothing: Reviewer's words are replaced, not added.
    assert export_game_text(reopened, table_back, with_analysis=True) == text


def test_a_plain_export_carries_no_private_record_and_drops_an_old_one(opera_review):
    game, table = opera_review
    with_analysis = export_game_text(game, table, with_analysis=True)
    plain = export_game_text(game, table)
    assert with_analysis.count("[%rvw ") == len(table) and "[%rvw" not in plain
    # Only the private records differ: the same evals, words, symbols and lines.
    def without_records(text):
        stripped = re.sub(r" ?\[%rvw [^\]]*\]", "", text)
        return write_pgn(game_from_pgn_text(stripped))

    assert without_records(with_analysis) == write_pgn(game_from_pgn_text(plain))
    # A file saved with analysis, exported plainly, loses its records (even where this review has none).
    reopened = game_from_pgn_text(with_analysis)
    partial = EvaluationTable()
    partial.add(table.get(3))
    assert "[%rvw" not in export_game_text(reopened, partial)
    assert export_game_text(reopened, partial, with_analysis=True).count("[%rvw ") == len(table)


def test_lichess_evals_alone_give_the_same_graph(opera_review):
    game, table = opera_review
    text = export_game_text(game, table)
    assert "[%rvw" not in text
    reopened = game_from_pgn_text(text)
    table_back = evaluations_from_game(reopened)
    original = assess_game(game, table)
    back = assess_game(reopened, table_back)
    assert [m.eval_after for m in back.moves] == [m.eval_after for m in original.moves]
    assert [m.loss for m in back.moves] == [m.loss for m in original.moves]


LICHESS_STYLE = """[Event "Casual"]
[White "Anna"]
[Black "Ben"]
[Result "*"]
[Opening "?"]
[Annotator "Coach Carla"]

{ Before the game. } 1. e4 { [%eval 0.2] [%clk 0:10:00] } 1... e5 { [%clk 0:09:58] Solid. }
2. Nf3 $14 { [%clk 0:09:50] } 2... f6? { (0.30 → 1.20) Mistake. Nc6 was best. [%clk 0:09:40] } (2... Nc6 3. Bb5)
(2... d6 { Philidor } 3. d4) 3. Nxe5 { [%clk 0:09:30] [%csl Ge5] } *
"""


def test_existing_comments_clocks_nags_variations_and_tags_survive():
    game = game_from_pgn_text(LICHESS_STYLE)
    table = chess_evaluations(game)
    exported = export_game_text(game, table)
    read = chess.pgn.read_game(io.StringIO(exported))
    nodes = list(read.mainline())
    assert read.comment.startswith("[%eval") and "Before the game." in read.comment
    assert nodes[0].clock() == 600 and nodes[1].clock() == 598 and nodes[4].clock() == 570
    assert "Solid." in nodes[1].comment and "[%csl Ge5]" in nodes[4].comment
    assert 14 in nodes[2].nags
    assert nodes[0].comment.count("[%eval") == 1
    variations = [[v.san()] + [n.san() for n in v.mainline()] for v in nodes[3].parent.variations[1:]]
    assert ["d6", "d4"] in variations and any(v.comment == "Philidor" for v in nodes[3].parent.variations)
    assert read.headers["Annotator"] == "Coach Carla"  # a person's name stays
    assert read.headers["Opening"] != "?"  # an empty tag is filled
    assessment = assess_game(game, table)
    for move, node in zip(assessment.moves, nodes):
        assert len(GENERATED_JUDGEMENT.findall(node.comment)) == (1 if move.judgement in SYMBOL_NAGS else 0)


def test_an_old_reviewer_judgement_and_line_are_replaced_not_kept():
    game = game_from_pgn_text(
        "1. a3 e5 2. f3? { Hasty. (0.30 \u2192 1.20) Mistake. Nc3 was best. } (2. Nc3 Nf6) (2. b3 { mine }) d5 *"
    )
    table = EvaluationTable()
    for ply, cp in enumerate((20, 30, 30, -400, -400)):
        table.add(Evaluation(ply=ply, kind="chess", score_cp_first=cp, best_move="h3", pv=("h3", "d5")))
    assert assess_game(game, table).move_at_ply(3).judgement == "blunder"
    node = list(chess.pgn.read_game(io.StringIO(export_game_text(game, table))).mainline())[2]
    assert node.nags == {4}
    assert GENERATED_JUDGEMENT.findall(node.comment) == ["h3"] and "Nc3 was best" not in node.comment
    assert node.comment.endswith("(0.30 \u2192 -4.00) Blunder. h3 was best. Hasty.")
    lines = [[v.san()] + [n.san() for n in v.mainline()] for v in node.parent.variations[1:]]
    assert lines == [["b3"], ["h3", "d5"]]


def test_lichess_broadcast_words_without_values_are_the_users():
    game = game_from_pgn_text("1. a3 e5 2. f3? { Mistake. Nc3 was best. } (2. Nc3 Nf6) d5 *")
    table = EvaluationTable()
    for ply in range(5):
        table.add(Evaluation(ply=ply, kind="chess", score_cp_first=20, best_move="h3"))
    node = list(chess.pgn.read_game(io.StringIO(export_game_text(game, table))).mainline())[2]
    assert "Mistake. Nc3 was best." in node.comment and node.nags == {2}
    assert [v.san() for v in node.parent.variations[1:]] == ["Nc3"]


def test_a_users_question_mark_stays_on_a_move_judged_good():
    game = game_from_pgn_text("1. a3 e5 2. f3? { hmm } d5 *")
    table = EvaluationTable()
    for ply in range(5):
        table.add(Evaluation(ply=ply, kind="chess", engine_id="x", score_cp_first=20, best_move="Nc3"))
    assert assess_game(game, table).move_at_ply(3).judgement == "good"
    third = list(chess.pgn.read_game(io.StringIO(export_game_text(game, table))).mainline())[2]
    assert third.nags == {2} and third.comment.endswith("hmm")


def test_mate_wording_follows_lichess():
    game = game_from_pgn_text("1. a3 e5 2. f3 d5 3. g4 Qh4# *")
    table = EvaluationTable()
    for ply, cp in enumerate((20, -10, -20, -60, -40)):
        table.add(Evaluation(ply=ply, kind="chess", score_cp_first=cp, best_move="Nc3"))
    table.add(Evaluation(ply=5, kind="chess", mate_first=-1, best_move="Qh4#"))
    table.add(Evaluation(ply=6, kind="chess", terminal="checkmate", side_to_move="white"))
    node = list(chess.pgn.read_game(io.StringIO(export_game_text(game, table))).mainline())[4]
    assert "(-0.40 \u2192 #-1) Checkmate is now unavoidable. Nc3 was best." in node.comment
    assert "[%eval #-1]" in node.comment and node.nags == {4}
    assert node.parent.variations[1].san() == "Nc3"


def test_the_game_itself_is_not_changed(opera_review):
    game, table = opera_review
    before = [(n.comment, list(n.nags), len(n.children)) for n in [game.root, *game.mainline_nodes()]]
    headers = dict(game.headers)
    annotate_game(game, table)
    assert [(n.comment, list(n.nags), len(n.children)) for n in [game.root, *game.mainline_nodes()]] == before
    assert game.headers == headers


def _all_nodes(pc_game):
    stack = [pc_game]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.variations)


def test_corpus_game_with_clocks_keeps_them_all(corpus_dir):
    path = corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn"
    game = open_collection(path).game(0)
    original = chess.pgn.read_game(io.StringIO(path.read_text(encoding="utf-8")))
    exported = chess.pgn.read_game(io.StringIO(export_game_text(game, chess_evaluations(game))))
    assert [n.clock() for n in exported.mainline()] == [n.clock() for n in original.mainline()]
    kept = 0
    for old, new in zip(original.mainline(), exported.mainline()):
        words = re.sub(r"\s*\[%[^\]]*\]\s*", " ", old.comment).strip()
        assert words in new.comment  # the broadcast's own words stay
        kept += bool(words)
        assert set(old.nags) - {1, 2, 3, 4, 5, 6} <= set(new.nags)
        assert new.comment.count("[%eval") == 1 and new.comment.count("[%clk") == old.comment.count("[%clk")
    assert kept >= 5


def test_corpus_game_with_comments_and_variations_keeps_them_all(corpus_dir):
    path = corpus_dir / "pgn" / "pgn-read__calgames_05.pgn"
    collection = open_collection(path)
    games = (collection.game(i) for i in range(len(collection)))
    game = next(g for g in games if any(len(n.children) > 1 for n in g.mainline_nodes()))
    original = chess.pgn.read_game(io.StringIO(write_pgn(game)))
    exported = chess.pgn.read_game(io.StringIO(export_game_text(game, chess_evaluations(game))))
    exported_nodes = {(n.board().fen(), n.san() if n.parent else ""): n for n in _all_nodes(exported)}
    kept = 0
    for node in _all_nodes(original):
        key = (node.board().fen(), node.san() if node.parent else "")
        assert key in exported_nodes, key
        twin = exported_nodes[key]
        if node.comment:
            assert node.comment.strip() in twin.comment
            kept += 1
        assert set(node.nags) - {1, 2, 3, 4, 5, 6} <= set(twin.nags)
    assert kept > 3


def test_a_partial_review_keeps_the_files_evaluations_elsewhere(opera_review):
    game, table = opera_review
    reopened = game_from_pgn_text(export_game_text(game, table, with_analysis=True))
    newer = EvaluationTable()
    for ply in range(10, 20):
        newer.add(Evaluation(ply=ply, kind="chess", engine_id="Other 2 | depth=3", score_cp_first=ply, best_move="h3"))
    twice = game_from_pgn_text(export_game_text(reopened, newer, with_analysis=True))
    back = evaluations_from_game(twice)
    assert sorted(back.by_ply) == sorted(table.by_ply)
    for ply, evaluation in table.by_ply.items():
        assert back.get(ply) == (newer.get(ply) or evaluation), ply
    assert all(node.comment.count("[%eval") <= 1 and node.comment.count("[%rvw") == 1 for node in twice.mainline_nodes())
