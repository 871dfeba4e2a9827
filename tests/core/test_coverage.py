"""One engine setting's evaluations behind every figure: selection, coverage, withheld labels."""

from __future__ import annotations

import dataclasses
import json
import shlex

from support import REPO_ROOT, fake_engine_command
from test_scoring_games import chess_game, cp_table, go_eval, go_game

from reviewer.cli import main
from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.coverage import assess_basis, describe_engine_id, select_analysis, withhold_labels
from reviewer.core.export import export_game_text, moves_csv, report_html
from reviewer.core.report import build_report
from reviewer.core.score_text import score_text, value_text
from reviewer.core.scoring import assess_game

STOCKFISH = "Stockfish 16.1 | nodes=100000,multipv=1"
STOCKFISH_FAST = "Stockfish 16.1 | nodes=1000,multipv=1"
BUILTIN = "builtin-go 1.0 playouts=50 rave seed=0 | visits=50,multipv=1"
KATAGO = "KataGo 1.18.1 b18c384 | visits=500,multipv=1"


def tagged(table: EvaluationTable, engine_id: str) -> list[Evaluation]:
    return [dataclasses.replace(e, engine_id=engine_id) for e in table.ordered()]


def test_describe_engine_id_names_engine_version_and_limit():
    assert describe_engine_id(STOCKFISH) == ("Stockfish 16.1", "16.1", "nodes=100000,multipv=1")
    assert describe_engine_id(BUILTIN) == ("builtin-go 1.0 rave", "1.0", "visits=50,multipv=1")
    assert describe_engine_id("pgn-comments")[0] == "the file's [%eval] comments"


def test_a_few_cached_positions_are_a_partial_analysis_not_a_game_review():
    game = chess_game("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6")
    cached = tagged(cp_table([20, 30, 25]), STOCKFISH)
    basis = select_analysis(game, cached)
    coverage = basis.coverage
    assert (coverage.positions_analysed, coverage.positions_total) == (3, 9)
    assert (coverage.moves_analysed, coverage.moves_total) == (2, 8)
    assert not coverage.complete
    assert coverage.missing_plies == (3, 4, 5, 6, 7, 8)
    assert coverage.text() == "analysed 2 of 8 moves · Stockfish 16.1 (nodes=100000)"
    report = build_report(game, EvaluationTable({e.ply: e for e in cached}))
    assert report["coverage"]["moves_analysed"] == 2 and report["coverage"]["moves_total"] == 8
    assert report["coverage"]["engine"] == {"id": STOCKFISH, "name": "Stockfish 16.1", "version": "16.1"}
    assert report["coverage"]["limit"] == "nodes=100000,multipv=1" and report["coverage"]["complete"] is False
    assert any(note.startswith("partial analysis: analysed 2 of 8 moves") for note in report["notes"])
    assert report["scored_moves"] == {"white": 1, "black": 1}  # only the moves whose positions were analysed


def test_nothing_analysed_says_so_and_has_no_figures():
    game = chess_game("e4 e5")
    basis = select_analysis(game, [])
    assert basis.coverage.text() == "not analysed" and not basis.coverage.analysed
    assert assess_basis(game, basis) is None


def test_two_engines_are_never_averaged_the_newest_complete_set_wins():
    game = chess_game("e4 e5 Nf3")
    old = tagged(cp_table([20, 30, 25, 30]), STOCKFISH_FAST)
    new = tagged(cp_table([20, 400, 380, 390]), STOCKFISH)
    basis = select_analysis(game, [*old, *new])
    assert basis.coverage.engine_id == STOCKFISH
    assert {e.engine_id for e in basis.evaluations.ordered()} == {STOCKFISH}
    assert basis.coverage.left_out == ((STOCKFISH_FAST, 4),)
    assert basis.coverage.left_out_text() == "4 positions by Stockfish 16.1 (nodes=1000,multipv=1) not mixed in"
    # the other way round, the other set
    assert select_analysis(game, [*new, *old]).coverage.engine_id == STOCKFISH_FAST


def test_a_complete_set_wins_over_a_newer_partial_one_unless_the_user_ran_it():
    game = chess_game("e4 e5 Nf3")
    complete = tagged(cp_table([20, 30, 25, 30]), STOCKFISH_FAST)
    partial = tagged(cp_table([20, 400]), STOCKFISH)
    assert select_analysis(game, [*complete, *partial]).coverage.engine_id == STOCKFISH_FAST
    ran = select_analysis(game, [*complete, *partial], prefer=STOCKFISH)
    assert ran.coverage.engine_id == STOCKFISH and ran.coverage.moves_text() == "analysed 1 of 3 moves"


def test_mixed_evaluations_in_one_table_are_scored_from_one_engine_only():
    game = chess_game("e4 e5 Nf3 Nc6")
    table = EvaluationTable()
    for evaluation in tagged(cp_table([20, 30, 25, 30, 25]), STOCKFISH):
        table.add(evaluation)
    table.add(Evaluation(ply=4, kind="chess", score_cp_first=-900, engine_id=STOCKFISH_FAST))  # one stray
    report = build_report(game, table)
    assert report["coverage"]["moves_analysed"] == 3 and report["coverage"]["left_out"] == [
        {"engine_id": STOCKFISH_FAST, "positions": 1}
    ]
    nc6 = report["moves"][3]
    assert (nc6["eval_after"], nc6["loss"], nc6["accuracy"]) == (None, None, None)  # not the stray -900
    assert report["summary"]["black"]["acpl"] == 0


def test_an_untrusted_engine_gives_a_rough_estimate_without_labels_or_figures():
    game = go_game(["Q16", "D4", "Q4"])
    table = EvaluationTable()
    for ply, lead in enumerate([0.5, 0.8, -12.0, -11.0]):
        table.add(dataclasses.replace(go_eval(ply, lead, [("D16", 0.5, lead)]), engine_id=BUILTIN))
    basis = select_analysis(game, table)
    assert not basis.trust.labels and "engines install" in basis.trust.remedy
    assessment = assess_basis(game, basis)
    assert assessment is not None
    assert all(move.judgement is None and move.weight is None for move in assessment.moves)
    assert assessment.moves[1].loss is not None  # the score graph stays
    report = build_report(game, table)
    assert report["trust"]["labels"] is False and report["trust"]["reason"] and report["trust"]["remedy"]
    for side in ("white", "black"):
        assert all(value is None for value in report["summary"][side].values())
    assert all(move["judgement"] is None for move in report["moves"])
    assert any(note.startswith("rough estimate") for note in report["notes"])
    json.dumps(report, allow_nan=False)
    # and in the exports
    sgf = export_game_text(game, table)
    assert "Rough estimate, no move labels or accuracy" in sgf and "BM[" not in sgf and "accuracy 1" not in sgf
    page = report_html([report])
    assert "Rough estimate" in page and "Blunder (??)</td><td class=\"num\">–" in page


def test_a_trusted_engine_keeps_its_labels():
    game = go_game(["Q16", "D4", "Q4"])
    table = EvaluationTable()
    for ply, lead in enumerate([0.5, 0.8, 0.5, -12.0]):
        table.add(dataclasses.replace(go_eval(ply, lead, [("D16", 0.5, lead)]), engine_id=KATAGO))
    report = build_report(game, table)
    assert report["trust"] == {"labels": True, "reason": None, "remedy": None}
    assert report["moves"][2]["judgement"] == "blunder"
    assert report["summary"]["black"]["counts"]["blunder"] == 1


def test_withholding_is_idempotent():
    game = chess_game("e4 e5")
    assessment = assess_game(game, cp_table([20, 30, 25]))
    once = withhold_labels(assessment)
    assert withhold_labels(once) == once
    assert once.summary["white"].accuracy is None and once.summary["white"].counts == {}


def test_partial_analysis_is_said_in_every_export():
    game = chess_game("e4 e5 Nf3 Nc6 Bb5")
    table = EvaluationTable({e.ply: e for e in tagged(cp_table([20, 30, 25]), STOCKFISH)})
    pgn = export_game_text(game, table)
    assert '[ReviewerCoverage "analysed 2 of 5 moves"]' in pgn
    assert '[ReviewerEngine "Stockfish 16.1"]' in pgn and '[ReviewerLimit "nodes=100000,multipv=1"]' in pgn
    assert "Partial analysis: analysed 2 of 5 moves" in pgn
    report = build_report(game, table)
    csv_text = moves_csv([report])
    header, first = csv_text.splitlines()[:2]
    assert header.endswith("coverage") and first.endswith("analysed 2 of 5 moves · Stockfish 16.1 (nodes=100000)")
    page = report_html([report])
    assert "Partial analysis: 2 of 5 moves analysed" in page
    assert page.count('class="not-analysed"') == 3  # P3, P4, P5 shaded in the graph


def test_go_partial_analysis_is_said_in_the_sgf():
    game = go_game(["Q16", "D4", "Q4", "D16"])
    table = EvaluationTable()
    for ply, lead in enumerate([0.5, 0.8]):
        table.add(dataclasses.replace(go_eval(ply, lead, [("D16", 0.5, lead)]), engine_id=KATAGO))
    sgf = export_game_text(game, table)
    assert "Reviewer: Partial analysis: analysed 1 of 4 moves · KataGo 1.18.1 b18c384 (visits=500)" in sgf


def test_scores_keep_the_mate_distance():
    assert score_text("chess", Evaluation(ply=1, kind="chess", mate_first=3)) == "#3"
    assert score_text("chess", Evaluation(ply=1, kind="chess", mate_first=-3)) == "#-3"
    assert score_text("chess", Evaluation(ply=1, kind="chess", score_cp_first=-41)) == "-0.41"
    assert score_text("chess", Evaluation(ply=1, kind="chess", terminal="checkmate")) == "checkmate"
    assert score_text("go", Evaluation(ply=1, kind="go", score_lead_first=-2.46)) == "W+2.5"
    assert value_text("chess", 1000) == "#+" and value_text("chess", None) == "?"
    game = chess_game("e4 f6 d4 g5 Qh5")
    report = build_report(game, cp_table([20, 30, "#3", "#2", "#1", None]))
    assert [m["eval_after_text"] for m in report["moves"]][1:4] == ["#3", "#2", "#1"]
    assert report["moves"][4]["eval_after_text"] is None
    assert "#3" in moves_csv([report])


def test_lichess_evals_without_the_start_position_are_complete_and_the_cli_says_what_it_scored(tmp_path, capsys):
    path = tmp_path / "evals.pgn"
    path.write_text(
        '[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 { [%eval 0.3] } 1... g5 { [%eval 1.5] } 2. Nc3 { [%eval 1.4] } 2... f6 *\n',
        encoding="utf-8",
    )
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Analysis: analysed 3 of 4 moves · the file's [%eval] comments (partial" in " ".join(out.split())
    assert main(["report", str(path), "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["coverage"]["moves_analysed"] == 3 and report["coverage"]["missing_plies"] == [4]


def test_an_analysis_cut_short_says_how_much_it_covers(tmp_path, capsys):
    opera = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
    engine = shlex.join(fake_engine_command("fake_uci.py", "--log", str(tmp_path / "log"), "--crash-after-total", "6"))
    report_path = tmp_path / "r.json"
    assert main(["analyze", str(opera), "--engine-cmd", engine, "--nodes", "500", "--json", str(report_path)]) == 1
    out = capsys.readouterr().out
    report = json.loads(report_path.read_text())
    coverage = report["coverage"]
    assert coverage["complete"] is False and coverage["positions_analysed"] == 7  # six searches and the final mate
    assert coverage["moves_analysed"] == 5 and coverage["moves_total"] == report["game"]["plies"]
    assert coverage["engine"]["name"] and coverage["limit"] == "nodes=500,multipv=1"
    assert f"Analysis: analysed 5 of {coverage['moves_total']} moves" in out and "(partial" in out


def test_reviewer_report_on_a_built_in_review_prints_the_rough_estimate(tmp_path, capsys):
    game = go_game(["Q16", "D4", "Q4"])
    table = EvaluationTable()
    for ply, lead in enumerate([0.5, 0.8, 0.5, -12.0]):
        table.add(dataclasses.replace(go_eval(ply, lead, [("D16", 0.5, lead)]), engine_id=BUILTIN))
    path = tmp_path / "builtin.sgf"
    path.write_text(export_game_text(game, table), encoding="utf-8")
    assert main(["report", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Rough estimate, no move labels or accuracy" in out and "reviewer engines install" in out
    assert "Blunders ?? │ - │ - │" in out  # counts withheld, not zero


def test_the_coverage_of_a_game_without_moves_or_with_one_is_said_in_good_english():
    from reviewer.core.coverage import Coverage

    engine_id = "Reviewer search 2 over KataGo's network m | visits=32"
    assert Coverage(engine_id, 1, 1, 0, 0).moves_text() == "the position analysed"  # a problem: AB/AW only
    assert Coverage(engine_id, 2, 2, 1, 1).moves_text() == "its 1 move analysed"
    assert Coverage(engine_id, 1, 2, 0, 1, missing_plies=(1,)).moves_text() == "analysed 0 of 1 move"
    assert Coverage(engine_id, 69, 69, 68, 68).moves_text() == "all 68 moves analysed"
