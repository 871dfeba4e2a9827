"""The explanation in the report JSON, the annotated PGN and SGF, and the HTML report."""

from __future__ import annotations

import dataclasses
import json
import shlex

from support import REPO_ROOT, fake_engine_command, go_game_with_a_blunder, scholars_mate

from reviewer.cli import main
from reviewer.core.export.pgn import annotate_chess_game
from reviewer.core.export.reports import report_html
from reviewer.core.export.sgf import annotate_go_game
from reviewer.core.report import build_report

MATE_WHY = {"motifs": ["mateIn1"], "text": "Allows 4. Qxf7#, mate.", "line": ["Qxf7#"], "focus": ["e8", "f7"]}


def test_report_gives_each_flagged_move_its_why_and_other_moves_none():
    game, table = scholars_mate()
    report = build_report(game, table)
    moves = report["moves"]
    assert moves[5]["judgement"] == "blunder"
    assert moves[5]["why"] == MATE_WHY
    assert all(move["why"] is None for move in moves if move["judgement"] not in ("inaccuracy", "mistake", "blunder"))


def test_pgn_comment_carries_the_why_and_a_second_export_does_not_repeat_it():
    game, table = scholars_mate()
    game.node_at_ply(6).comment = "my own note"
    annotated = annotate_chess_game(game, table)
    comment = annotated.node_at_ply(6).comment
    assert "Checkmate is now unavoidable." in comment and "Why: Allows 4. Qxf7#, mate.\nmy own note" in comment
    again = annotate_chess_game(annotated, table).node_at_ply(6).comment
    assert again == comment


def test_pgn_comment_without_why_when_the_line_is_missing():
    game, table = scholars_mate()
    table.add(dataclasses.replace(table.get(6), best_move=None, pv=(), mate_first=None, score_cp_first=900))
    comment = annotate_chess_game(game, table).node_at_ply(6).comment
    assert "Why:" not in comment


def test_html_report_shows_the_why():
    game, table = scholars_mate()
    assert "Allows 4. Qxf7#, mate." in report_html([build_report(game, table)])


def test_sgf_comment_carries_the_why_on_its_own_reviewer_line():
    game, table = go_game_with_a_blunder()
    after = table.get(3)
    # White's best reply takes Black's A1 stone's second liberty: the line alone proves it
    table.add(dataclasses.replace(after, pv=("B1", "A2")))
    annotated = annotate_go_game(game, table)
    lines = annotated.node_at_ply(3).comment.splitlines()
    assert any(line.startswith("Reviewer: Blunder") for line in lines)
    why_lines = [line for line in lines if line.startswith("Reviewer: Why: ")]
    assert why_lines == [
        "Reviewer: Why: Allows B1, putting 1 stone at A1 in atari. "
        "The engine gave no ownership map, so life and death and territory are not judged."
    ]
    assert annotate_go_game(annotated, table).node_at_ply(3).comment == annotated.node_at_ply(3).comment


def test_go_report_why_is_null_when_the_line_shows_nothing():
    game, table = go_game_with_a_blunder()
    report = build_report(game, table)
    assert report["moves"][2]["judgement"] == "blunder"
    assert report["moves"][2]["why"] is None


def test_analyze_asks_katago_for_maps_with_maps(tmp_path):
    sgf, report_path = REPO_ROOT / "tests" / "data" / "go_9x9_passes.sgf", tmp_path / "r.json"
    command = shlex.join(fake_engine_command("fake_katago.py"))
    arguments = ["analyze", str(sgf), "--engine-cmd", command, "--no-cache", "-q", "--visits", "8"]
    assert main([*arguments, "--maps", "--json", str(report_path)]) == 0
    report = json.loads(report_path.read_text())
    assert report["engine"]["id"].endswith(",maps")
    assert all("why" in move for move in report["moves"])
    assert main([*arguments, "--json", str(report_path)]) == 0
    assert "maps" not in json.loads(report_path.read_text())["engine"]["id"]


def test_a_flagged_move_whose_line_shows_no_motif_still_says_what_the_line_and_figures_do():
    game, table = scholars_mate()
    table.add(dataclasses.replace(table.get(6), mate_first=None, score_cp_first=250, pv=("a3", "a6")))
    move = build_report(game, table)["moves"][5]
    assert move["judgement"] in ("mistake", "blunder")
    assert move["why"]["motifs"] == [] and move["why"]["line"] == ["a3", "a6"] and move["why"]["focus"] == ["a2", "a3"]
    assert move["why"]["text"].startswith("No tactic shows in the engine's line 4. a3 a6; the engine's evaluation for Black falls")
    assert move["why"]["text"].endswith("to -2.50.")


def test_a_go_move_whose_figures_show_nothing_gets_the_reply_and_the_lead_and_says_what_is_missing():
    game, table = go_game_with_a_blunder()
    table.add(dataclasses.replace(table.get(3), pv=("D5",)))
    why = build_report(game, table)["moves"][2]["why"]
    assert why["motifs"] == [] and why["line"] == ["D5"] and why["focus"] == ["D5"]
    assert why["text"] == (
        "No group, capture or area in the engine's figures explains this loss: Black's lead goes from +7.0 to -6.0 "
        "points. White's best reply is D5. The engine gave no ownership map, so life and death and territory are not judged."
    )
