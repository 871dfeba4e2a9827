"""'Your repertoire' in the collection insights: the lines a player plays with each colour and the
positions where their choice varies, counted from real games and checked by an independent count."""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from typing import Any

import pytest
from support import CORPUS_DIR

from reviewer.core.analysis import EvaluationTable
from reviewer.core.formats import open_collection
from reviewer.core.report import build_report
from reviewer.core.services.insights import collection_insights, insights_csv, insights_html
from reviewer.core.services.insights.repertoire import LEAST_GAMES, LINE_PLIES, line_text

MORPHY = ("pgn", "chesslib__Morphy_UTF8.pgn")
PLAYER = "Morphy, Paul"
GAMES = 80


@pytest.fixture(scope="module")
def morphy() -> tuple[list[Any], list[dict[str, Any]]]:
    if not CORPUS_DIR.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS_DIR}")
    collection = open_collection(CORPUS_DIR.joinpath(*MORPHY))
    games = [collection.game(index) for index in range(GAMES)]
    return games, [build_report(game, EvaluationTable()) for game in games]


def _points(result: str, color: str) -> float | None:
    won = {"1-0": "white", "0-1": "black"}.get(result)
    if result.startswith("1/2"):
        return 0.5
    return None if won is None else float(won == color)


def test_lines_and_choices_equal_a_count_of_the_games_themselves(morphy) -> None:
    games, reports = morphy
    insights = collection_insights(reports, player=PLAYER)
    repertoire = insights["players"][0]["repertoire"]
    for color in ("white", "black"):
        his = [game for game in games if (game.white if color == "white" else game.black) == PLAYER and not game.start_fen]
        lines = Counter(tuple(game.mainline_moves()[:LINE_PLIES]) for game in his)
        side = repertoire[color]
        assert side["games"] == len(his) > 10
        for line in side["lines"]:
            assert line["games"] == lines[tuple(line["moves"])]
        assert [line["games"] for line in side["lines"]] == sorted(lines.values(), reverse=True)[: len(side["lines"])]
        # the choices: each position (moves before it) where he was to move, his moves there and his score
        played: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
        scores: dict[tuple[tuple[str, ...], str], list[float]] = defaultdict(list)
        for game in his:
            moves = game.mainline_moves()
            for ply in range(0 if color == "white" else 1, min(len(moves), 16), 2):
                before = tuple(moves[:ply])
                played[before][moves[ply]] += 1
                points = _points(game.result, color)
                if points is not None:
                    scores[(before, moves[ply])].append(points)
        expected = {before: counts for before, counts in played.items() if sum(counts.values()) >= LEAST_GAMES and len(counts) > 1}
        assert side["choices"], color
        shares = [choice["kept_share"] for choice in side["choices"]]
        assert shares == sorted(shares)  # the least settled first
        for choice in side["choices"]:
            counts = expected[tuple(choice["after"])]
            assert {m["move"]: m["games"] for m in choice["moves"]} == dict(counts)
            assert choice["usual_games"] == max(counts.values()) and choice["games"] == sum(counts.values())
            for m in choice["moves"]:
                known = scores[(tuple(choice["after"]), m["move"])]
                assert m["score"] == (round(sum(known) / len(known), 3) if known else None)
        least_settled = min(max(c.values()) / sum(c.values()) for c in expected.values())
        assert shares[0] == round(least_settled, 3)


def test_the_repertoire_is_in_the_csv_and_the_page(morphy) -> None:
    _games, reports = morphy
    insights = collection_insights(reports, player=PLAYER)
    side = insights["players"][0]["repertoire"]["black"]
    rows = list(csv.DictReader(io.StringIO(insights_csv(insights))))
    line_rows = [row for row in rows if row["section"] == "line" and row["color"] == "black"]
    assert [row["label"] for row in line_rows] == [line_text(line["moves"], True) for line in side["lines"]]
    assert line_rows[0]["label"].startswith("1.e4 ")
    choice_rows = [row for row in rows if row["section"] == "choice" and row["color"] == "black"]
    first = side["choices"][0]
    assert choice_rows[0]["move"] == first["usual"] and int(choice_rows[0]["games"]) == first["games"]
    assert f"{first['usual']} in {first['usual_games']} of {first['games']} games" in choice_rows[0]["label"]
    page = insights_html(insights)
    assert "<h2>Your repertoire</h2>" in page and "With black" in page and "Your moves there" in page


def _go_report(size: int, moves: list[str], result: str, handicap: int = 0) -> dict[str, Any]:
    colours = ("black", "white")
    return {
        "schema": "reviewer.report/1",
        "game": {"kind": "go", "white": "Wen", "black": "Bea", "result": result, "date": None,
                 "board_size": [size, size], "handicap": handicap},
        "moves": [{"ply": ply, "color": colours[(ply - 1) % 2], "move": move, "loss": None} for ply, move in enumerate(moves, start=1)],
        "summary": {"white": {}, "black": {}},
    }


def test_go_lines_of_two_board_sizes_never_meet_and_handicap_games_are_left_out() -> None:
    reports = [
        _go_report(19, ["Q16", "D4", "Q3"], "B+R"),
        _go_report(19, ["Q16", "D4", "D16"], "W+3.5"),
        _go_report(19, ["Q16", "D4", "Q3"], "B+2.5"),
        _go_report(9, ["Q16", "D4", "Q3"], "B+R"),  # the same letters on another board
        _go_report(19, ["Q3", "D4"], "B+R", handicap=2),
    ]
    bea = collection_insights(reports, player="Bea")["players"][0]
    side = bea["repertoire"]["black"]
    assert side["games"] == 4 and bea["games"] == 5
    assert [(line.get("board"), line["moves"], line["games"]) for line in side["lines"]] == [
        ("19x19", ["Q16", "D4", "Q3"], 2), ("19x19", ["Q16", "D4", "D16"], 1), ("9x9", ["Q16", "D4", "Q3"], 1)]
    [choice] = side["choices"]
    assert (choice["board"], choice["after"], choice["usual"], choice["usual_games"], choice["games"]) == ("19x19", ["Q16", "D4"], "Q3", 2, 3)
    assert [m["score"] for m in choice["moves"]] == [1.0, 0.0]
    assert line_text(["Q16", "D4"], numbered=False, first="black") == "B Q16 W D4"
