"""Evaluations are kept by node, not by main-line ply: a variation analysed live keeps its figures,
they follow the node when its line becomes the main line (and the old main line's come back with
an undo), and an annotated export writes them in the variation where any reader finds them again."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_review_model import other_legal_move

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable
from reviewer.core.embedded_evals import evaluations_from_game
from reviewer.core.embedded_evals.pgn import evaluations_from_pgn_comments
from reviewer.core.export.pgn import export_pgn
from reviewer.core.export.sgf import export_sgf
from reviewer.core.formats import game_from_pgn_text, game_from_sgf_text, load_game
from reviewer.core.gametree import Game, Node
from reviewer.core.services.live import LiveUpdate
from reviewer.core.services.review_model import ReviewModel

FILE_WITH_EVALS = Path("pgn") / "scalachess__FWWRC_full_eval_clk.pgn"
ENGINE = "Stockfish 15.1|nodes=100000"


@pytest.fixture
def game(corpus_dir: Path) -> Game:
    return load_game(corpus_dir / FILE_WITH_EVALS)


def loaded(game: Game) -> ReviewModel:
    model = ReviewModel()
    model.load_game(game, evaluations=evaluations_from_pgn_comments(game).ordered())
    return model


def _live(node: Node, score_cp: int, best: str) -> LiveUpdate:
    verdict = Evaluation(ply=0, kind="chess", engine_id=ENGINE, score_cp_first=score_cp, best_move=best, pv=(best,),
                         candidates=(Candidate(move=best, order=0, score_cp_first=score_cp),), nodes=100_000)
    return LiveUpdate(token=node, evaluation=verdict, step=2, seconds=1.0, last=True)


def _variation(model: ReviewModel, ply: int) -> Node:
    model.set_current_ply(ply)
    node = model.play_move(other_legal_move(model.game, model.mainline_node(ply)))
    assert node is not None and not node.is_mainline
    return node


def test_a_variation_analysed_live_keeps_its_figures_and_brings_them_to_the_main_line(game) -> None:
    model = loaded(game)
    variation = _variation(model, 20)
    assert model.evaluation_of(variation) is None
    assert model.set_live_lines(variation, _live(variation, -35, "e7e5"))
    kept = model.evaluation_of(variation)
    assert kept is not None and kept.score_cp_first == -35 and kept.ply == variation.ply == 21
    assert model.evaluations.variations == {variation: kept}
    before_ply_30 = model.evaluations.get(30)
    assert before_ply_30 is not None

    model.make_mainline(variation)
    assert model.mainline_node(21) is variation
    # the node's figures came along; they are another engine's than the main line's set, so they
    # are the node's own and not mixed into that set
    assert model.evaluation_of(variation) == kept and model.evaluations.get(21) is None
    assert model.evaluations.get(30) is None  # no position after it was ever evaluated
    old_line_node = variation.parent.children[1]
    assert model.evaluation_of(old_line_node) is not None  # the old main line's node keeps its figures as a variation

    assert model.undo_edit()
    assert model.mainline_node(21) is not variation and model.evaluations.get(30) == before_ply_30  # back, not re-computed
    assert model.evaluation_of(variation) == kept


def test_main_line_live_lines_do_not_change_the_reviewed_figures(game) -> None:
    model = loaded(game)
    model.set_current_ply(10)
    node = model.current_node
    before = model.evaluations.get(10)
    assert model.set_live_lines(node, _live(node, 999, "a2a3"))
    assert model.evaluations.get(10) == before and model.evaluations.variations == {}


def test_a_pgn_export_writes_the_variations_figures_and_reading_it_back_finds_them(game) -> None:
    model = loaded(game)
    variation = _variation(model, 20)
    model.set_live_lines(variation, _live(variation, 48, "g8f6"))
    deeper = model.play_move(other_legal_move(model.game, variation))
    assert deeper is not None and not deeper.is_mainline
    model.set_live_lines(deeper, _live(deeper, 52, "b1c3"))

    for with_analysis in (False, True):
        text = export_pgn(model.game, model.evaluations, model.assessment, with_analysis=with_analysis)
        assert "[%eval 0.48]" in text and "[%eval 0.52]" in text
        again = game_from_pgn_text(text)
        table = evaluations_from_game(again)
        by_line = {tuple(n.move for n in node.path_from_root()): evaluation for node, evaluation in table.variations.items()}
        line = tuple(n.move for n in variation.path_from_root())
        assert by_line[line].score_cp_first == 48 and by_line[(*line, deeper.move)].score_cp_first == 52
        if with_analysis:  # Reviewer's own record: the whole verdict, engine and best move included
            assert by_line[line].engine_id == ENGINE and by_line[line].best_move == "g8f6" and by_line[line].nodes == 100_000
        # the main line's figures are as before
        assert {ply: e.score_cp_first for ply, e in table.by_ply.items() if ply <= 20} == {
            ply: e.score_cp_first for ply, e in model.evaluations.by_ply.items() if ply <= 20}


def test_an_sgf_export_writes_the_variations_figures_in_reviewers_own_record() -> None:
    game = game_from_sgf_text("(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc](;B[gg])(;B[cg]))")
    variation = game.root.children[0].children[0].children[1]
    assert not variation.is_mainline and variation.move is not None
    verdict = Evaluation(ply=3, kind="go", engine_id="KataGo|visits=32", winrate_first=0.61, score_lead_first=2.5,
                         best_move="G3", pv=("G3",))
    model = ReviewModel()
    model.load_game(game, variation_evaluations={variation: verdict})
    assert model.evaluation_of(variation) == verdict
    text = export_sgf(model.game, model.evaluations, model.assessment)
    again = evaluations_from_game(game_from_sgf_text(text))
    [(node, evaluation)] = again.variations.items()
    assert node.move == variation.move and (evaluation.winrate_first, evaluation.score_lead_first) == (0.61, 2.5)
    assert evaluation.engine_id == "KataGo|visits=32" and evaluation.best_move == "G3"
    assert again.by_ply == {} and EvaluationTable().variations == {}
