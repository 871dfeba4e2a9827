"""The reviewer.report/1 object and the `reviewer report` command."""

from __future__ import annotations

import json

import pytest
from test_scoring_games import chess_game, cp_table, go_eval, go_game

from reviewer.cli import main
from reviewer.core.analysis import EvaluationTable
from reviewer.core.embedded_evals.pgn import evaluations_from_pgn_comments
from reviewer.core.report import ReportOptions, build_report, report_to_json
from reviewer.core.scoring import assess_game

MOVE_FIELDS = {"ply", "color", "move", "best", "judgement", "loss", "accuracy", "weight", "eval_before", "eval_after"}
CHESS_SUMMARY = {"accuracy", "accuracy_lichess", "accuracy_mean", "acpl", "stdcpl", "elo_estimate", "counts"}
GO_SUMMARY = {"accuracy", "weighted_loss", "mean_loss", "top_move_match", "top5_match", "top5_moves", "counts"}
JUDGEMENTS = {"book", "best", "good", "inaccuracy", "mistake", "blunder"}

EVAL_PGN = """[Event "Test"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 { [%eval 0.3] } 1... g5 { [%eval 1.5] } 2. Nc3 { [%eval 1.4] } 2... f6 { [%eval #1] } 3. Qh5# 1-0
"""


def chess_report(**options):
    game = chess_game("e4 e5 Nf3 Nc6 h3 h6")
    game.white, game.black, game.result = "Alice", "Bob", "1/2-1/2"
    table = cp_table([20, 30, 25, 30, 25, -20, None], best={4: "Bb5"})
    return build_report(game, table, ReportOptions(**options), {"name": "Stockfish 16", "limit": "depth=12"})


def test_chess_report_names_every_field_and_keeps_unknowns_as_null():
    report = chess_report()
    assert report["schema"] == "reviewer.report/1"
    assert report["game"]["kind"] == "chess" and report["game"]["white"] == "Alice" and report["game"]["result"] == "1/2-1/2"
    assert report["engine"]["name"] == "Stockfish 16"
    assert report["game"]["opening"]["eco"] == "C44"
    assert [m["ply"] for m in report["moves"]] == [1, 2, 3, 4, 5, 6]
    for move in report["moves"]:
        assert move.keys() >= MOVE_FIELDS
        assert move["weight"] is None  # a Go figure
    h3, h6 = report["moves"][4], report["moves"][5]
    assert h3["move"] == "h3" and h3["color"] == "white" and h3["best"] == "Bb5"
    assert h3["loss"] == 45 and h3["eval_before"] == 25 and h3["eval_after"] == -20
    assert h3["judgement"] in JUDGEMENTS
    # P6 has no evaluation: the last move's figures are null, not invented
    assert (h6["loss"], h6["accuracy"], h6["judgement"], h6["eval_after"]) == (None, None, None, None)
    for side in ("white", "black"):
        assert report["summary"][side].keys() >= CHESS_SUMMARY
        assert set(report["summary"][side]["counts"]) == JUDGEMENTS
    assert report["summary"]["white"]["acpl"] == 15  # (0 + 0 + 45) / 3
    assert report["preset"] == "lichess" and report["skip_book"] is False


def test_report_is_strict_json_and_round_trips():
    report = chess_report(preset="seed", skip_book=True)
    text = report_to_json(report)
    assert json.loads(text) == report
    assert report["preset"] == "seed" and report["summary"]["white"]["acpl"] == 45


def test_report_from_an_assessment_or_a_dict_of_options():
    game = chess_game("e4 e5")
    table = cp_table([20, 30, 25])
    assessment = assess_game(game, table, preset="seed")
    assert build_report(game, table, assessment)["preset"] == "seed"
    assert build_report(game, table, {"skip_book": True})["skip_book"] is True
    assert build_report(game, table, None)["engine"] == {"name": None, "version": None, "limit": None, "ids": []}


def test_report_without_evaluations_says_so():
    report = build_report(chess_game("e4"), EvaluationTable())
    assert report["summary"]["white"]["accuracy"] is None
    assert any("no evaluations" in note for note in report["notes"])


def test_go_report():
    game = go_game(["Q16", "D4"])
    game.white, game.black = "W", "B"
    table = EvaluationTable()
    table.add(go_eval(0, 2.0, [("D4", 0.5, 2.5), ("Q16", 0.3, 1.0), ("C3", 0.2, 0.0)]))
    table.add(go_eval(1, 1.2, [("D4", 1.0, 1.2)]))
    table.add(go_eval(2, 1.0))
    report = build_report(game, table, None, "KataGo")
    assert report["engine"]["name"] == "KataGo"
    assert report["game"]["board_size"] == [19, 19]
    q16, d4 = report["moves"]
    assert q16.keys() >= MOVE_FIELDS
    assert q16["move"] == "Q16" and q16["accuracy"] is None
    assert q16["loss"] == pytest.approx(0.8) and q16["weight"] == pytest.approx(0.7)
    assert q16["colour_class"] == 4 and q16["best"] == "D4"
    # White's D4 was the only candidate: best; it lost -(1.2 - 1.0) = -0.2 (a gain for White)
    assert d4["judgement"] == "best" and d4["loss"] == pytest.approx(-0.2)
    for side in ("white", "black"):
        assert report["summary"][side].keys() >= GO_SUMMARY
    assert report["summary"]["white"]["top_move_match"] == 1.0


def test_report_of_pgn_evals_says_the_best_rule_did_not_apply():
    from test_scoring_games import chess_game_from_pgn

    game = chess_game_from_pgn(EVAL_PGN)
    report = build_report(game, evaluations_from_pgn_comments(game))
    assert report["notes"][0] == "best rule not applied: evaluations came from the file's [%eval] comments"
    assert report["best_rule_applied"] is False
    # 2... f6 allowed mate from +1.4 (-140 for Black, not < -700): a blunder by lichess's mate rule
    assert report["moves"][3]["judgement"] == "blunder"
    # 3. Qh5# mates: Black to move is checkmated, +1000 for White, no flag
    assert report["moves"][4]["eval_after"] == 1000 and report["moves"][4]["judgement"] == "good"


# ------------------------------------------------------------------------------ the command


@pytest.fixture
def eval_pgn(tmp_path):
    path = tmp_path / "evals.pgn"
    path.write_text(EVAL_PGN + "\n" + EVAL_PGN.replace("[%eval", "[%noeval"), encoding="utf-8")
    return path


def test_command_writes_json_to_stdout(eval_pgn, capsys):
    assert main(["report", str(eval_pgn), "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schema"] == "reviewer.report/1" and report["game"]["white"] == "Alice"
    assert report["summary"]["black"]["counts"]["blunder"] == 1


def test_command_writes_json_to_a_file(eval_pgn, tmp_path, capsys):
    out = tmp_path / "out" / "report.json"
    assert main(["report", str(eval_pgn), "--preset", "seed", "--skip-book", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["preset"] == "seed" and report["skip_book"] is True
    assert str(out) in capsys.readouterr().out


def test_command_prints_a_summary_table(eval_pgn, capsys):
    assert main(["report", str(eval_pgn)]) == 0
    out = capsys.readouterr().out
    assert "Lichess accuracy" in out and "En Croissant accuracy" in out and "ACPL" in out and "Blunders" in out
    assert "best rule not applied" in out


def test_command_refuses_a_game_without_evals(eval_pgn, capsys):
    assert main(["report", str(eval_pgn), "--game", "2"]) == 2
    assert "no [%eval]" in capsys.readouterr().err


def test_command_bad_input(eval_pgn, tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing.pgn")]) == 2
    assert main(["report", str(eval_pgn), "--game", "9"]) == 2
    assert main(["report", str(eval_pgn), "--game", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("reviewer report:") == 3 and "Traceback" not in err


def test_command_on_the_lichess_broadcast_export(corpus_dir, capsys):
    path = corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn"
    assert main(["report", str(path), "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    # lichess's own annotations of game 1: White 21. Rd3?? 23. h3?! 27. Ng4? 53. Ke1?? 56. Kg1?!,
    # Black 15... Ned5? 20... Rc8?! 25... Bb6?!
    white, black = report["summary"]["white"]["counts"], report["summary"]["black"]["counts"]
    assert (white["inaccuracy"], white["mistake"], white["blunder"]) == (2, 1, 2)
    assert (black["inaccuracy"], black["mistake"], black["blunder"]) == (2, 1, 0)
    assert report["game"]["opening"]["eco"] == "E54"


SABAKI_WINRATES_ONLY_SGF = "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee]SBKV[55.2];W[cc]SBKV[48.0];B[gg]SBKV[60.1])"
SABAKI_WITH_LEADS_SGF = "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee]SBKV[55.2]SBKS[1.5];W[cc]SBKV[48.0]SBKS[-0.5];B[gg]SBKV[60.1]SBKS[2.0])"


def test_go_winrates_only_says_score_leads_are_needed(tmp_path, capsys):
    path = tmp_path / "sabaki.sgf"
    path.write_text(SABAKI_WINRATES_ONLY_SGF, encoding="utf-8")
    assert main(["report", str(path), "--json", "-"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["scored_moves"] == {"white": 0, "black": 0}
    note = report["notes"][0]
    assert "SBKS" in note and "RVW" in note and "winrates only" in note
    assert note in captured.err and "reviewer report:" in captured.err


def test_go_with_score_leads_has_no_winrates_only_note(tmp_path, capsys):
    path = tmp_path / "sabaki.sgf"
    path.write_text(SABAKI_WITH_LEADS_SGF, encoding="utf-8")
    assert main(["report", str(path), "--json", "-"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["scored_moves"]["black"] >= 1
    assert not any("winrates only" in note for note in report["notes"])
    assert "winrates only" not in captured.err
