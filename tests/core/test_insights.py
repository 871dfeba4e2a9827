"""Collection insights over hand-made reports (docs/SCORING.md, "Collection insights"); every figure
below is worked out by hand from the reports built here."""

from __future__ import annotations

import csv
import io
import math
import re
from typing import Any

import pytest

from reviewer.core.services.insights import INSIGHTS_CSV_COLUMNS, collection_insights, insights_csv, insights_html
from reviewer.core.services.insights.collect import known_date


def move(ply: int, color: str, phase: str, loss: float, accuracy: float | None = None, weight: float | None = None,
         judgement: str = "good", san: str = "a3", best: str | None = "e4") -> dict[str, Any]:
    return {
        "ply": ply, "color": color, "move": san, "best": best, "judgement": judgement, "loss": loss,
        "accuracy": accuracy, "weight": weight, "eval_before": 0.0, "eval_after": 0.0, "phase": phase,
        "eval_before_text": "+0.00", "eval_after_text": "-1.00",
    }


def report(white: str, black: str, result: str, date: str | None, moves: list[dict[str, Any]], *, kind: str = "chess",
           complete: bool = True, labels: bool = True, summary: dict[str, dict[str, Any]] | None = None,
           opening: dict[str, Any] | None = None, index: int = 0, strength: dict[str, Any] | None = None) -> dict[str, Any]:
    analysed = len(moves) if complete else len(moves) - 1
    return {
        "schema": "reviewer.report/1",
        "game": {"kind": kind, "white": white, "black": black, "result": result, "date": date, "opening": opening,
                 "white_rank": None, "black_rank": None},
        "coverage": {"moves_analysed": analysed, "moves_total": len(moves), "complete": complete,
                     "missing_plies": [] if complete else [len(moves)]},
        "trust": {"labels": labels, "reason": None if labels else "too weak", "remedy": None if labels else "more visits"},
        "skip_book": False,
        "moves": moves,
        "summary": summary or {"white": {}, "black": {}},
        "scored_moves": {"white": 2, "black": 2},
        "strength": strength or {"white": None, "black": None},
        "source": {"path": "/games/alice.pgn", "index": index, "key": f"key{index}", "imported": "2025-01-01"},
    }


ELO = {"elo": 2000.0, "low": 1800.0, "high": 2150.0, "level": 0.8, "basis": "test"}

# Alice's chess games. 1 and 2 are scored; 3 has labels withheld, 4 is partial: counted, not scored.
GAME_1 = report(  # Alice White, wins; a blunder of 300 cp in the middlegame
    "Alice", "Bob", "1-0", "2024.01.02",
    [move(1, "white", "opening", 0.0, 100.0), move(2, "black", "opening", 10.0, 90.0),
     move(3, "white", "middlegame", 300.0, 20.0, judgement="blunder", san="Qh5", best="Nf3"),
     move(4, "black", "middlegame", 0.0, 100.0)],
    summary={"white": {"accuracy": 60.0, "acpl": 150.0}, "black": {"accuracy": 95.0, "acpl": 5.0}},
    opening={"eco": "C20", "name": "King's Pawn Game"}, index=0, strength={"white": ELO, "black": None},
)
GAME_2 = report(  # Alice Black, draw; a mistake of 120 cp in the endgame
    "Carol", "alice", "1/2-1/2", "2024.01.01",
    [move(1, "white", "opening", 0.0, 100.0), move(2, "black", "opening", 20.0, 80.0),
     move(3, "white", "endgame", 0.0, 100.0),
     move(4, "black", "endgame", 120.0, 40.0, judgement="mistake", san="Kd7", best="Ke7")],
    summary={"white": {"accuracy": 100.0, "acpl": 0.0}, "black": {"accuracy": 53.3, "acpl": 70.0}},
    opening={"eco": "C20", "name": "King's Pawn Game"}, index=1,
)
GAME_3 = report(  # Alice White, loses; labels withheld
    "ALICE", "Bob", "0-1", "2024.01.03",
    [move(1, "white", "opening", 500.0, None, judgement=None), move(2, "black", "opening", 0.0, None, judgement=None)],
    labels=False, opening={"eco": "A00", "name": "Polish Opening"}, index=2,
)
GAME_4 = report(  # Alice Black, wins; partial analysis
    "Dave", "Alice", "0-1", None,
    [move(1, "white", "opening", 0.0, 100.0), move(2, "black", "opening", 900.0, 0.0, judgement="blunder")],
    complete=False, summary={"white": {"accuracy": 100.0, "acpl": 0.0}, "black": {"accuracy": 1.0, "acpl": 900.0}},
    opening={"eco": "B00", "name": "King's Pawn"}, index=3,
)
GO_GAME = report(  # Alice plays Go too: kept apart. Black moves: losses 2 (weight 1) and 0 (weight 0.5)
    "Eve", "Alice", "B+R", "2024-02-01",
    [move(1, "black", "opening", 2.0, weight=1.0, judgement="good", san="D4", best="Q16"),
     move(2, "white", "opening", 1.0, weight=1.0, san="Q4", best="Q4"),
     move(3, "black", "middlegame", -1.0, weight=0.5, san="C16", best="C16"),
     move(4, "white", "middlegame", 7.0, weight=1.0, judgement="mistake", san="R3", best="R16")],
    kind="go", summary={"white": {"accuracy": 20.0, "weighted_loss": 4.0}, "black": {"accuracy": 82.0, "weighted_loss": 1.3}},
    index=4,
)
REPORTS = [GAME_1, GAME_2, GAME_3, GAME_4, GO_GAME]


def player(insights: dict[str, Any], name: str, kind: str) -> dict[str, Any]:
    found = [p for p in insights["players"] if p["name"].casefold() == name.casefold() and p["kind"] == kind]
    assert len(found) == 1, [(p["name"], p["kind"]) for p in insights["players"]]
    return found[0]


def test_every_game_counts_in_the_results_by_colour():
    alice = player(collection_insights(REPORTS), "Alice", "chess")
    assert alice["games"] == 4
    assert alice["results"]["all"] == {"games": 4, "wins": 2, "draws": 1, "losses": 1, "unknown": 0}
    assert alice["results"]["white"] == {"games": 2, "wins": 1, "draws": 0, "losses": 1, "unknown": 0}
    assert alice["results"]["black"] == {"games": 2, "wins": 1, "draws": 1, "losses": 0, "unknown": 0}


def test_untrusted_and_partial_games_are_counted_but_left_out_of_the_figures():
    insights = collection_insights(REPORTS)
    alice = player(insights, "Alice", "chess")
    assert alice["scored_games"] == 2
    assert alice["left_out"] == {"count": 2, "reasons": {"labels withheld (rough estimate)": 1, "partial analysis": 1}}
    assert [p["game"] for p in alice["timeline"]] == [2, 1]  # by date: 2024-01-01, then 2024-01-02
    assert {m["game"] for m in alice["mistakes"]} == {1, 2}  # game 4's 900 cp blunder is not listed
    assert any("2 of 5 games" in note for note in insights["notes"])


def test_timeline_points_carry_the_summary_figures_and_the_source():
    alice = player(collection_insights(REPORTS), "Alice", "chess")
    second, first = alice["timeline"]
    assert (second["date"], second["color"], second["result"], second["accuracy"], second["loss"]) == (
        "2024-01-01", "black", "draw", 53.3, 70.0)
    assert (first["opponent"], first["result"], first["accuracy"], first["loss"]) == ("Bob", "win", 60.0, 150.0)
    assert first["source"] == {"path": "/games/alice.pgn", "index": 0, "key": "key0", "imported": "2025-01-01"}
    assert first["strength"] == ELO
    assert alice["strength_by_game"] == [
        {"game": 1, "game_in_file": 1, "source": first["source"], "date": "2024-01-02", "color": "white", "estimate": ELO}
    ]


def test_phases_pool_the_scored_moves_of_the_player():
    alice = player(collection_insights(REPORTS), "Alice", "chess")
    phases = alice["by_phase"]
    # opening: game 1 ply 1 (100 %, 0 cp) and game 2 ply 2 (80 %, 20 cp)
    assert phases["opening"]["moves"] == 2
    assert math.isclose(phases["opening"]["accuracy"], 2 / (1 / 100 + 1 / 80))
    assert phases["opening"]["loss"] == 10.0
    assert phases["middlegame"] == {"moves": 1, "accuracy": 20.0, "loss": 300.0}
    assert phases["endgame"] == {"moves": 1, "accuracy": 40.0, "loss": 120.0}


def test_by_colour_and_by_opening_average_the_scored_games():
    alice = player(collection_insights(REPORTS), "Alice", "chess")
    white = alice["by_colour"]["white"]
    assert (white["games"], white["wins"], white["losses"], white["scored_games"], white["accuracy"], white["loss"]) == (
        2, 1, 1, 1, 60.0, 150.0)
    openings = {(o["eco"], o["name"]): o for o in alice["by_opening"]}
    c20 = openings[("C20", "King's Pawn Game")]
    assert (c20["games"], c20["wins"], c20["draws"], c20["losses"], c20["scored_games"]) == (2, 1, 1, 0, 2)
    assert math.isclose(c20["accuracy"], (60.0 + 53.3) / 2) and c20["loss"] == 110.0
    polish = openings[("A00", "Polish Opening")]
    assert (polish["games"], polish["losses"], polish["scored_games"], polish["accuracy"]) == (1, 1, 0, None)
    assert alice["by_opening"][0]["eco"] == "C20"  # the most played first


def test_mistakes_biggest_first_with_game_move_and_best():
    alice = player(collection_insights(REPORTS), "Alice", "chess")
    assert [(m["game"], m["move_label"], m["best"], m["loss"], m["judgement"], m["phase"]) for m in alice["mistakes"]] == [
        (1, "2. Qh5", "Nf3", 300.0, "blunder", "middlegame"),
        (2, "2... Kd7", "Ke7", 120.0, "mistake", "endgame"),
    ]


def test_go_players_are_kept_apart_with_weighted_loss_by_phase():
    insights = collection_insights(REPORTS)
    alice_go = player(insights, "Alice", "go")
    assert alice_go["games"] == 1 and alice_go["results"]["black"]["wins"] == 1  # Alice had Black: B+R
    assert alice_go["by_opening"] == []
    # Alice (Black): opening loss 2 at weight 1; middlegame -1 counts as 0, at weight 0.5
    assert alice_go["by_phase"]["opening"]["loss"] == 2.0
    assert math.isclose(alice_go["by_phase"]["opening"]["accuracy"], 100 * 0.75**2)
    assert alice_go["by_phase"]["middlegame"] == {"moves": 1, "accuracy": 100.0, "loss": 0.0}
    assert alice_go["by_phase"]["endgame"] == {"moves": 0, "accuracy": None, "loss": None}
    eve = player(insights, "Eve", "go")  # White: opening loss 1, middlegame loss 7 (a mistake)
    assert eve["by_phase"]["opening"]["loss"] == 1.0 and math.isclose(eve["by_phase"]["opening"]["accuracy"], 75.0)
    assert eve["by_phase"]["middlegame"]["loss"] == 7.0
    assert [(m["move_label"], m["loss"]) for m in eve["mistakes"]] == [("4. W R3", 7.0)]
    assert player(insights, "Alice", "chess")["games"] == 4  # the Go game is not one of them


def test_the_player_filter_matches_names_case_insensitively():
    insights = collection_insights(REPORTS, player="  aLiCe ")
    assert {(p["name"].casefold(), p["kind"]) for p in insights["players"]} == {("alice", "chess"), ("alice", "go")}
    assert insights["player"] == "  aLiCe "
    nobody = collection_insights(REPORTS, player="Zed")
    assert nobody["players"] == [] and any("no game of 'Zed'" in note for note in nobody["notes"])


def test_the_collection_rating_comes_from_the_results():
    alice = player(collection_insights(REPORTS), "Alice", "chess")
    rating = alice["rating"]
    assert rating is not None and rating["level"] == 0.95 and rating["games_rated"] == 4
    assert isinstance(rating["text"], str) and "maximum likelihood" in rating["basis"]


def test_schema_and_placeholder_names():
    insights = collection_insights([*REPORTS, report("?", "Bob", "1-0", None, [], index=9)])
    assert insights["schema"] == "reviewer.insights/1" and insights["reports"] == 6
    assert all(p["name"] != "?" for p in insights["players"])


def test_csv_parses_with_one_row_per_fact():
    text = insights_csv(collection_insights(REPORTS, player="Alice"))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0].keys()) == INSIGHTS_CSV_COLUMNS
    chess_rows = [r for r in rows if r["kind"] == "chess"]
    sections = [r["section"] for r in chess_rows]
    assert sections.count("game") == 2 and sections.count("phase") == 3 and sections.count("colour") == 2
    assert sections.count("opening") == 3 and sections.count("mistake") == 2 and sections.count("left_out") == 2
    game_1 = next(r for r in chess_rows if r["section"] == "game" and r["game"] == "1")
    assert (game_1["accuracy"], game_1["loss"], game_1["estimate"], game_1["low"], game_1["high"]) == ("60", "150", "2000", "1800", "2150")
    assert (game_1["source_path"], game_1["source_index"], game_1["source_key"]) == ("/games/alice.pgn", "0", "key0")
    blunder = next(r for r in chess_rows if r["section"] == "mistake" and r["judgement"] == "blunder")
    assert (blunder["label"], blunder["move"], blunder["best"], blunder["loss"]) == ("2. Qh5", "Qh5", "Nf3", "300")


def test_html_is_one_self_contained_page():
    page = insights_html(collection_insights(REPORTS))
    assert page.startswith("<!DOCTYPE html>") and page.count("<html") == 1 and page.rstrip().endswith("</html>")
    assert not re.search(r"(src|href)=", page)  # no external reference: style and images are inline
    assert "<svg" in page and "Alice" in page and "2. Qh5" in page
    assert "left out of the figures" in page


def test_insights_over_real_reports_of_the_corpus(corpus_dir):
    """Reports built from the FWWRC games' own [%eval]s: every game is either scored or left out with a reason."""
    from reviewer.core.embedded_evals import evaluations_from_game
    from reviewer.core.formats import open_collection
    from reviewer.core.report import build_report

    collection = open_collection(corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn")
    reports = []
    for index in range(8):
        game = collection.game(index)
        reports.append(build_report(game, evaluations_from_game(game)))
    insights = collection_insights(reports)
    assert sum(p["games"] for p in insights["players"]) == 16  # two players per game
    for entry in insights["players"]:
        assert entry["kind"] == "chess"
        assert entry["scored_games"] + entry["left_out"]["count"] == entry["games"]
        assert sum(f["moves"] for f in entry["by_phase"].values()) > 0 or entry["scored_games"] == 0
        for point in entry["timeline"]:
            assert 0 <= point["accuracy"] <= 100 and point["loss"] >= 0
    rows = list(csv.DictReader(io.StringIO(insights_csv(insights))))
    assert {row["section"] for row in rows} >= {"game", "phase", "colour", "opening", "rating"}


@pytest.mark.parametrize(("header", "shown"), [
    ("1848.??.??", "1848"), ("2024.05.??", "2024-05"), ("2024.05.17", "2024-05-17"), ("2016-03-13,14", "2016-03-13"),
    ("2023.02.30", "2023-02"), ("????.??.??", None), ("", None),
])
def test_a_date_is_shown_as_far_as_the_header_knows_it(header, shown):
    assert known_date(header) == shown
    dated = report("Alice", "Bob", "1-0", header, [move(1, "white", "opening", 0.0, 100.0)],
                   summary={"white": {"accuracy": 60.0, "acpl": 10.0}, "black": {"accuracy": 50.0, "acpl": 20.0}})
    assert player(collection_insights([dated]), "Alice", "chess")["timeline"][0]["date"] == shown


def _scored(game_block: dict[str, Any], index: int) -> dict[str, Any]:
    """A scored report (both sides) of a real game's header block, lying at `index` of its file."""
    scored = report("?", "?", "*", None, [move(1, "white", "opening", 0.0, 100.0), move(2, "black", "opening", 0.0, 100.0)],
                    summary={"white": {"accuracy": 90.0, "acpl": 10.0}, "black": {"accuracy": 80.0, "acpl": 20.0}}, index=index)
    scored["game"] = {**game_block, "kind": "chess"}
    return scored


def test_same_day_games_of_a_newest_first_export_are_in_the_order_they_were_played(corpus_dir):
    from reviewer.core.analysis import EvaluationTable
    from reviewer.core.formats import open_collection
    from reviewer.core.report import build_report

    collection = open_collection(corpus_dir / "pgn" / "mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn")
    reports = [_scored(build_report(collection.game(index), EvaluationTable())["game"], index) for index in range(len(collection))]
    timeline = player(collection_insights(reports), "mliebelt", "chess")["timeline"]
    assert [(p["date"], p["time"]) for p in timeline] == sorted((p["date"], p["time"]) for p in timeline)
    assert [p["game_in_file"] for p in timeline] == list(range(len(collection), 0, -1))  # the file is newest first


def test_games_without_a_time_of_day_keep_the_files_order_on_their_day():
    untimed = [_scored({"white": "Alice", "black": f"Bob{n}", "result": "1-0", "date": "2024.03.01"}, n) for n in range(3)]
    timeline = player(collection_insights(untimed), "Alice", "chess")["timeline"]
    assert [p["game_in_file"] for p in timeline] == [1, 2, 3]


@pytest.mark.parametrize(("headers", "date", "time"), [
    ({"UTCDate": "2024.01.02", "UTCTime": "17:14:13", "Time": "18:14:13"}, "2024.01.02", "17:14:13"),
    ({"Date": "2024.01.02", "Time": "9:05"}, "2024.01.02", "09:05:00"),
    ({"DT": "2024-01-05 14:30:12"}, "2024-01-05 14:30:12", "14:30:12"),
    ({"DT": "2024-01-05T08:01"}, "2024-01-05T08:01", "08:01:00"),
    ({"Date": "2024.01.02", "Time": "??:??:??"}, "2024.01.02", None),
    ({"DT": "2024-01-05"}, "2024-01-05", None),
])
def test_the_time_of_day_comes_from_the_time_tags_or_the_date_that_holds_one(headers, date, time):
    from reviewer.core.gametree import Game
    from reviewer.core.report import time_of_day

    assert time_of_day(Game(kind="chess", headers=headers, date=date)) == time


def test_mistakes_and_exports_number_a_game_as_its_file_does():
    later = report("Bob", "Alice", "1-0", "2024.05.02", [move(1, "white", "opening", 0.0, 100.0),
                   move(2, "black", "opening", 300.0, 10.0, judgement="blunder", san="f6", best="e5")],
                   summary={"white": {"accuracy": 99.0, "acpl": 1.0}, "black": {"accuracy": 10.0, "acpl": 300.0}}, index=1)
    earlier = report("Alice", "Carol", "1-0", "2024.05.03", [move(1, "white", "opening", 0.0, 100.0)],
                     summary={"white": {"accuracy": 99.0, "acpl": 1.0}, "black": {"accuracy": 99.0, "acpl": 1.0}}, index=0)
    insights = collection_insights([earlier, later], "Alice")  # the plot puts file game 2 first: it was played first
    alice = player(insights, "Alice", "chess")
    assert [p["game_in_file"] for p in alice["timeline"]] == [2, 1]
    (mistake,) = alice["mistakes"]
    assert mistake["game_in_file"] == 2
    rows = [row for row in csv.DictReader(io.StringIO(insights_csv(insights))) if row["section"] == "mistake"]
    assert [row["game"] for row in rows] == ["2"]
    assert "<tr><td>2</td><td>1... f6??</td>" in insights_html(insights)


def test_a_one_move_game_is_left_out_of_the_figures_as_too_short_to_score():
    abandoned = report("Alice", "Bob", "0-1", "2024.06.01", [move(1, "white", "opening", 0.0, 100.0)],
                       summary={"white": {"accuracy": 100.0, "acpl": 0.0}, "black": {"accuracy": None, "acpl": None}})
    bob = player(collection_insights([abandoned]), "Bob", "chess")
    assert bob["timeline"] == [] and bob["scored_games"] == 0
    assert bob["left_out"] == {"count": 1, "reasons": {"too short to score (no move of theirs scored)": 1}}
    assert player(collection_insights([abandoned]), "Alice", "chess")["scored_games"] == 1
