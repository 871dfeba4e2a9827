"""What the Collection window says, decided without Qt: progress, the outcome of a run, a missing
engine, and one player's insights as texts, table rows and plot points."""

from __future__ import annotations

import copy

import pytest
from support import KATAGO_ID, STOCKFISH_ID, go_game_with_a_blunder, scholars_mate

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.report import build_report
from reviewer.core.services.insights import collection_insights
from reviewer.gui.presenters import collection as present


def chess_report(evaluated: bool = True, date: str = "2024.01.05", index: int = 0) -> dict:
    """Scholar's mate, Bob (Black) blunders 3...Nf6; every position evaluated unless told."""
    game, table = scholars_mate()
    game.date, game.result = date, "1-0"
    if evaluated:
        for ply, cp in ((0, 20), (1, 30), (2, 25), (3, 40), (4, 45)):
            side = "white" if ply % 2 == 0 else "black"
            table.add(Evaluation(ply=ply, kind="chess", engine_id=STOCKFISH_ID, score_cp_first=cp, side_to_move=side, best_move="e4"))
    else:
        table = EvaluationTable()
    report = build_report(game, table, {"preset": "lichess"}, STOCKFISH_ID if evaluated else None)
    report["source"] = {"path": "/games/club.pgn", "index": index, "key": f"k{index}", "imported": False}
    return report


def go_report() -> dict:
    game, table = go_game_with_a_blunder()
    game.result = "W+R"
    for ply, lead in ((0, 7.0), (1, 7.2)):
        table.add(Evaluation(ply=ply, kind="go", engine_id=KATAGO_ID, score_lead_first=lead, winrate_first=0.8, best_move="E5"))
    report = build_report(game, table, {"preset": "lichess"}, KATAGO_ID)
    report["source"] = {"path": "/games/go.sgf", "index": 0, "key": "go", "imported": False}
    return report


def player(insights: dict, name: str) -> dict:
    return next(p for p in insights["players"] if p["name"] == name)


def test_progress_says_games_done_of_all_and_the_eta():
    assert present.progress_text(12, 40, 200.0) == "12 of 40 games · ETA 3:20"
    assert present.progress_text(0, 40, None) == "0 of 40 games · ETA …"
    assert present.progress_text(3, 5, 61.0, failed=1, later_kind="go") == "3 of 5 games · ETA 1:01 (then the go games) · 1 failed"
    assert present.progress_text(1, 1, None) == "1 of 1 game"
    assert present.current_text("/games/club.pgn#3", (12, 40)) == "Analysing club.pgn#3: 12 of 40 positions"
    assert present.current_text("", None) == "Reviewing…"


def test_the_outcome_of_a_run_in_one_line():
    done = present.RunCounts(total=40, already_done=8, imported=12, analysed=20)
    assert present.outcome_text(done) == "40 games: 20 analysed, 12 imported from the files' evaluations, 8 from an earlier run"
    cancelled = present.RunCounts(total=10, analysed=3, failed=1, cancelled=True, unreadable=2)
    assert present.outcome_text(cancelled) == "10 games: 3 analysed · 1 failed · cancelled: 6 not reviewed · 2 problems reading the files"
    no_engine = present.RunCounts(total=4, skipped=4)
    assert present.outcome_text(no_engine) == "4 games: none reviewed · 4 skipped (no engine)"
    assert present.outcome_text(present.RunCounts(total=0, not_played=7)) == "No game found with that player (7 other games)"


def test_a_missing_engine_says_how_to_get_one():
    message = present.engine_missing_message("chess", "engine not found: stockfish")
    assert message.actions == ("install-stockfish",) and message.level == "error"
    assert "Install Stockfish" in message.text and "what is finished is kept" in message.text
    assert present.engine_missing_message("go", "no KataGo").actions == ("install-katago",)
    assert present.problem_line("a.pgn#3", "a.pgn#3: cannot be read\nmore") == "a.pgn#3: cannot be read"
    assert present.problem_line("a.pgn#3", "the engine crashed") == "a.pgn#3: the engine crashed"


def test_games_left_out_are_counted_and_said():
    insights = collection_insights([chess_report(), chess_report(False, "2024.02.01", 1), chess_report(False, "2024.03.01", 2)])
    bob = player(insights, "Bob")
    assert present.left_out_text(bob) == "2 games left out of the figures: not analysed"
    assert present.player_summary(bob) == "3 games: 0 won, 0 drawn, 3 lost · 1 with a complete, labelled analysis"
    mixed = copy.deepcopy(bob)
    mixed["left_out"] = {"count": 3, "reasons": {"not analysed": 2, "partial analysis": 1}}
    assert present.left_out_text(mixed) == "3 games left out of the figures: 2 not analysed, 1 partial analysis"
    assert present.left_out_text(player(collection_insights([chess_report()]), "Bob")) is None
    timeline = present.timeline(bob, "accuracy")
    assert [p.x for p in timeline.points] == [1.0]  # the games left out are not drawn


def test_an_estimate_is_never_shown_without_its_interval():
    assert present.estimate_text("chess", {"elo": 2254.0, "low": 2037.0, "high": 2422.0, "level": 0.8}) == "2254 (2037 – 2422, 80%)"
    assert present.estimate_text("chess", {"elo": 2254.0, "low": None, "high": 2422.0}) == "–"
    assert present.estimate_text("go", {"rank": -4.2, "low": -6.0, "high": -2.0, "level": 0.8}) == "5k (7k – 3k, 80%)"
    assert present.estimate_text("chess", None) == "–"
    rated = {"kind": "chess", "rating": {"rating": 2435.7, "low": 2036.3, "high": 2835.1, "level": 0.95, "text": "2436?",
                                          "interval_text": "2036 – 2835", "uncertain": True, "games_rated": 8}}
    assert present.rating_text(rated) == (
        "Strength from the results: 2436? (2036 – 2835, 95% sure) over 8 games · uncertain: too few results"
    )
    assert present.rating_text({"kind": "go", "rating": None}).startswith("Strength from the results: none")


def test_the_tables_carry_the_insights_figures_and_where_each_game_lies():
    insights = collection_insights([chess_report(), go_report()])
    bob = player(insights, "Bob")
    phases = present.phase_table(bob)
    assert [row.cells[0] for row in phases.rows] == ["Opening", "Middlegame", "Endgame"]
    opening = bob["by_phase"]["opening"]
    assert phases.rows[0].cells[1:] == (str(opening["moves"]), f"{opening['accuracy']:.1f}", f"{opening['loss']:.0f}")
    colours = present.colour_table(bob)
    assert colours.rows[1].cells[:5] == ("Black", "1", "0", "0", "1")
    mistakes = present.mistake_table(bob)
    first = mistakes.rows[0]
    assert first.cells[:4] == ("950", "3... Nf6", "g6", "blunder")
    assert first.ply == 6 and first.source == {"path": "/games/club.pgn", "index": 0, "key": "k0", "imported": False}
    assert present.opening_table(bob).rows[0].cells[2] == "1"
    bai = player(insights, "Bai")
    go_openings = present.opening_table(bai)
    assert go_openings.rows == () and "not grouped by opening" in go_openings.empty_text
    assert present.mistake_table(bai).columns[0] == "Loss (pts)"
    assert present.mistake_table(bai).rows[0].cells[:2] == ("13.0", "3. B A1")
    assert present.strength_table(bob).rows == () and present.strength_table(bob).empty_text


def test_the_plot_has_one_point_per_scored_game_that_opens_it():
    reports = [chess_report(date="2024.01.05", index=0), chess_report(date="2024.01.02", index=1)]
    bob = player(collection_insights(reports), "Bob")
    timeline = present.timeline(bob, "accuracy")
    assert [p.source["index"] for p in timeline.points] == [1, 0]  # date order
    assert timeline.x_label == "games in date order" and timeline.title.endswith("2024-01-02 – 2024-01-05")
    assert timeline.y_range[1] == 100.0 and timeline.y_range[0] <= min(p.y for p in timeline.points)
    assert all(p.result == "loss" for p in timeline.points)
    assert "against Alice · lost" in timeline.points[0].tooltip and "Click to open" in timeline.points[0].tooltip
    loss = present.timeline(bob, "loss")
    assert loss.y_label == "Average centipawn loss" and loss.y_range[0] == 0.0
    mistakes = present.mistake_table(bob).rows  # numbered as in their file
    assert [(row.cells[-1], row.source["index"]) for row in mistakes] == [("1", 0), ("2", 1)]
    assert present.measures("go")[0] == ("loss", "Weighted loss")
    assert present.RESULT_COLOURS["win"] != present.RESULT_COLOURS["loss"]


@pytest.mark.parametrize(("wanted", "expected"), [("bob", "Bob"), ("  ALICE ", "Alice"), ("ali", "Alice"), (None, "Alice")])
def test_the_player_asked_for_is_shown_first(wanted, expected):
    insights = collection_insights([chess_report(), chess_report(index=1, date="2024.02.02")])
    choices = present.player_choices(insights)
    assert [c.label for c in choices] == ["Alice · 2 games", "Bob · 2 games"]
    assert choices[present.default_choice(choices, wanted)].name == expected
    both = present.player_choices(collection_insights([chess_report(), go_report()]))
    assert any(c.label == "Bai (go) · 1 game" for c in both)
