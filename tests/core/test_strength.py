"""One game's strength from its moves (reviewer.core.scoring.strength, docs/strength.md)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from test_scoring_games import chess_game, cp_table, go_eval, go_game

from reviewer.core.analysis import EvaluationTable
from reviewer.core.gametree import Color
from reviewer.core.report import build_report
from reviewer.core.scoring import GameAssessment, MoveAssessment
from reviewer.core.scoring.common import ChessSideSummary, GoSideSummary
from reviewer.core.scoring.population import GamePopulation
from reviewer.core.scoring.strength import (
    MODEL_SCHEMA,
    StrengthModel,
    estimate_strength,
    load_model,
    side_features,
    strength_or_reason,
)

CHESS_MODEL = StrengthModel.from_json(
    {
        "schema": MODEL_SCHEMA,
        "kind": "chess",
        "unit": "elo",
        "intercept": 2500.0,
        "terms": [{"feature": "log_loss", "coefficient": -100.0, "low": 0.0, "high": 6.0}],
        "interval": {"level": 0.8, "below": 200.0, "above": 150.0},
        "min_moves": 10,
        "board_sizes": [],
        "basis": "a test line",
        "beats_guessing": True,
        "populations": [
            {"name": "FIDE-rated rapid games (ratings 1600–2600)", "rating_system": "fide", "time_classes": ["rapid"],
             "ratings": [1600, 2600], "sides": 100, "coverage": 0.8, "checked": "cross-validation",
             "settings": [{"engine": "Stockfish", "budget": "nodes=100000"}]}
        ],
    }
)
GO_MODEL = StrengthModel.from_json(
    {
        "schema": MODEL_SCHEMA,
        "kind": "go",
        "unit": "rank",
        "intercept": 2.0,
        "terms": [{"feature": "log_loss", "coefficient": -5.0, "low": -2.0, "high": 3.0}],
        "interval": {"level": 0.8, "below": 4.0, "above": 4.0},
        "min_moves": 20,
        "board_sizes": [[19, 19]],
        "basis": "a test line",
        "beats_guessing": True,
        "populations": [
            {"name": "ranked 19×19 games (ranks 15k–9d)", "rating_system": "go ranks", "boards": [[19, 19]],
             "ratings": [-14, 9], "sides": 27, "coverage": 0.74, "checked": "leave-one-game-out",
             "settings": [{"engine": "KataGo", "budget": "visits=8"}]}
        ],
    }
)
STOCKFISH_100K = "Stockfish 16.1 | nodes=100000,multipv=1"
KATAGO_8 = "KataGo 1.18.1 g170e-b15c192 | visits=8,multipv=1"
KATAGO_PASSES = "KataGo 1.18.1 g170e-b15c192 | scheme=go-passes-v1:visits2>32:refine2:batch4,multipv=1"
FIDE_RAPID = GamePopulation("chess", "fide", "rapid", (2200.0, 2300.0), ("2200", "2300"))
RANKED_19 = GamePopulation("go", "go ranks", "unstated", (-4.0, 2.0), ("5k", "2d"), (19, 19))
NO_SKILL = replace(CHESS_MODEL, beats_guessing=False, basis="3 games; held-out error 9, against 7 for guessing")


def chess_assessment(white_losses: list[float], black_losses: list[float]) -> GameAssessment:
    moves = []
    for index in range(max(len(white_losses), len(black_losses))):
        for color, losses in (("white", white_losses), ("black", black_losses)):
            if index < len(losses):
                moves.append(MoveAssessment(ply=len(moves) + 1, color=color, move="", loss=losses[index], accuracy=50.0))  # type: ignore[arg-type]
    empty = ChessSideSummary(0, None, None, None, None, None, None)
    return GameAssessment("chess", "lichess", False, tuple(moves), {"white": empty, "black": empty})


def go_assessment(black_losses: list[float], weight: float = 1.0) -> GameAssessment:
    moves = [MoveAssessment(ply=i + 1, color="black", move="", loss=loss, weight=weight) for i, loss in enumerate(black_losses)]
    empty = GoSideSummary(0, None, None, None, None, None)
    return GameAssessment("go", "lichess", False, tuple(moves), {"white": empty, "black": empty})


def test_features_are_the_sides_mean_loss_and_its_logarithm():
    features = side_features(chess_assessment([0, 10, 20] * 4, [30] * 12), "white")
    assert features is not None
    assert features["moves"] == 12 and features["loss"] == 10.0
    assert math.isclose(features["log_loss"], math.log(11.0))
    assert math.isclose(features["log_opponent_loss"], math.log(31.0))


def test_top_move_match_is_the_share_of_the_sides_moves_that_were_the_engines_choice():
    assessment = go_assessment([0.0, 1.0, 2.0, 0.5])
    assert "top_match" not in (side_features(assessment, "black") or {})  # the engine's choices unknown
    chosen = [True, False, False, True]
    moves = tuple(replace(move, is_best=best) for move, best in zip(assessment.moves, chosen))
    features = side_features(replace(assessment, moves=moves), "black")
    assert features is not None and features["top_match"] == 0.5
    partly_known = tuple(replace(move, is_best=None) if move.ply == 1 else move for move in moves)
    assert "top_match" not in (side_features(replace(assessment, moves=partly_known), "black") or {})


def test_chess_estimate_falls_as_the_loss_grows_with_the_models_interval():
    estimates = [estimate_strength(chess_assessment([loss] * 20, [20] * 20), "white", CHESS_MODEL, None, FIDE_RAPID, STOCKFISH_100K) for loss in (2, 10, 40, 150)]
    assert all(e is not None for e in estimates)
    values = [e.value for e in estimates if e is not None]
    assert values == sorted(values, reverse=True) and len(set(values)) == 4
    first = estimates[0]
    assert first is not None
    assert math.isclose(first.value, 2500.0 - 100.0 * math.log(3.0))
    assert (first.low, first.high) == (first.value - 200.0, first.value + 150.0)
    basis = ("a test line; checked on FIDE-rated rapid games (ratings 1600–2600) analysed by Stockfish at 100000 nodes: "
             "the 80% interval held 80% of 100 held-out sides' ratings")
    assert first.to_json() == {"elo": round(first.value), "low": round(first.low), "high": round(first.high), "level": 0.8, "basis": basis}


def test_go_estimate_falls_as_the_points_lost_grow():
    values = []
    for loss in (0.2, 1.0, 3.0):
        estimate = estimate_strength(go_assessment([loss] * 30), "black", GO_MODEL, (19, 19), RANKED_19, KATAGO_8)
        assert estimate is not None and estimate.unit == "rank" and estimate.low < estimate.value < estimate.high
        values.append(estimate.value)
    assert values[0] > values[1] > values[2]


@pytest.mark.parametrize(
    ("assessment", "color", "model", "board", "reason"),
    [
        (chess_assessment([10] * 9, [10] * 9), "white", CHESS_MODEL, None, "fewer than 10 scored moves"),
        (chess_assessment([500] * 20, [10] * 20), "white", CHESS_MODEL, None, "outside the range"),  # log(501) > 6
        (chess_assessment([10] * 20, [10] * 20), "white", None, None, "no chess strength model"),
        (chess_assessment([10] * 20, [10] * 20), "white", GO_MODEL, None, "no chess strength model"),
        (go_assessment([1.0] * 30), "black", GO_MODEL, (9, 9), "fitted on 19×19 boards only"),
        (go_assessment([1.0] * 30), "white", GO_MODEL, (19, 19), "fewer than 20 scored moves"),
        (chess_assessment([10] * 20, [10] * 20), "white", NO_SKILL, None, "no better than guessing on held-out games (3 games"),
    ],
)
def test_no_estimate_where_the_model_cannot_apply(assessment, color: Color, model, board, reason):
    population, engine_id = (RANKED_19, KATAGO_8) if assessment.kind == "go" else (FIDE_RAPID, STOCKFISH_100K)
    result = strength_or_reason(assessment, color, model, board, population, engine_id)
    assert isinstance(result, str) and reason in result
    assert estimate_strength(assessment, color, model, board, population, engine_id) is None


@pytest.mark.parametrize(
    ("engine_id", "analysis"),
    [
        (KATAGO_PASSES, "KataGo in passes of 2 → 32 visits"),
        ("KataGo 1.18.1 g170e-b15c192 | visits=2,multipv=1", "KataGo at 2 visits"),
        ("KataGo 1.18.1 g170e-b15c192 | visits=64,multipv=1,maps", "KataGo at 64 visits"),
        ("builtin-go 1.2 | visits=400,multipv=1", "builtin-go at 400 visits"),
        (None, "an unknown engine setting"),
    ],
)
def test_no_estimate_from_an_engine_setting_the_model_was_not_checked_on(engine_id, analysis):
    # A line checked at 8 visits says nothing of figures at 2 or 64: fewer visits find other losses.
    result = strength_or_reason(go_assessment([1.0] * 30), "black", GO_MODEL, (19, 19), RANKED_19, engine_id)
    assert result == (
        "the model was checked on ranked 19×19 games (ranks 15k–9d) analysed by KataGo at 8 visits; "
        f"this analysis is by {analysis}"
    )
    chess = strength_or_reason(chess_assessment([10] * 20, [10] * 20), "white", CHESS_MODEL, None, FIDE_RAPID,
                               "Stockfish 16.1 | nodes=40000,multipv=1")
    assert chess == ("the model was checked on FIDE-rated rapid games (ratings 1600–2600) analysed by Stockfish at "
                     "100000 nodes; this analysis is by Stockfish at 40000 nodes")


def test_the_bundled_go_model_is_shown_only_for_the_setting_it_was_checked_on():
    # The default Go review (passes of 2 → 32 visits) was never checked against real ranks.
    model = load_model("go")
    assert model is not None
    black = go_assessment([1.5] * 40)
    both = replace(black, moves=black.moves + tuple(replace(m, color="white") for m in black.moves))
    reason = strength_or_reason(both, "black", model, (19, 19), RANKED_19, KATAGO_PASSES)
    assert isinstance(reason, str) and reason.endswith(
        "analysed by KataGo at 8 visits; this analysis is by KataGo in passes of 2 → 32 visits"
    )
    assert estimate_strength(both, "black", model, (19, 19), RANKED_19, KATAGO_8) is not None


def test_the_bundled_models_load_and_say_what_they_stand_on():
    for kind in ("chess", "go"):
        model = load_model(kind)  # type: ignore[arg-type]
        assert model is not None, f"resources/strength/{kind}.json is missing or unreadable"
        assert model.kind == kind and 0 < model.level < 1 and model.below > 0 and model.above > 0
        assert "held-out error" in model.basis
    chess_model = load_model("chess")
    assert chess_model is not None and chess_model.terms[0].coefficient < 0  # more loss, lower Elo
    assert chess_model.beats_guessing


def test_the_bundled_go_model_ranks_a_19x19_game_with_its_interval():
    model = load_model("go")
    assert model is not None and model.beats_guessing and model.board_sizes == ((19, 19),)
    assert all(term.coefficient < 0 for term in model.terms)  # more points lost, lower rank
    values = []
    for loss in (0.8, 1.5, 3.0):
        black = go_assessment([loss] * 40)
        both = replace(black, moves=black.moves + tuple(replace(m, color="white") for m in black.moves))
        estimate = estimate_strength(both, "black", model, (19, 19), RANKED_19, KATAGO_8)
        assert estimate is not None and estimate.low < estimate.value < estimate.high and estimate.level == 0.8
        values.append(estimate.value)
    assert values[0] > values[1] > values[2]
    assert estimate_strength(both, "black", model, (13, 13), replace(RANKED_19, board=(13, 13)), KATAGO_8) is None
    assert estimate_strength(both, "black", model, (19, 19), None, KATAGO_8) is None  # the game's population unknown


# ------------------------------------------------------------------------------------ in the report


def long_chess_game():
    sans = "Nf3 Nf6 Ng1 Ng8 " * 6  # 24 plies, every position evaluated
    return chess_game(sans.split())


FWWRC_HEADERS = {
    "Event": "FIDE Women’s World Rapid Championships 2024",
    "Site": "New York, United States",
    "WhiteElo": "2289",
    "BlackElo": "2401",
    "TimeControl": "15 min. + 10 s. per move",
}
LICHESS_HEADERS = {
    "Event": "Rated Blitz game",
    "Site": "https://lichess.org/izqA4zcL",
    "WhiteElo": "1854",
    "BlackElo": "1824",
    "WhiteRatingDiff": "-6",
    "BlackRatingDiff": "+6",
    "TimeControl": "180+0",
}


def rated_game(headers: dict[str, str]):
    game = long_chess_game()
    game.headers = dict(headers)
    game.white_rank, game.black_rank = headers.get("WhiteElo", ""), headers.get("BlackElo", "")
    return game


def lichess_evaluations(table):
    """The evaluations as a file's own [%eval] comments give them (the chess fit's setting)."""
    return EvaluationTable({ply: replace(e, engine_id="pgn-comments") for ply, e in table.by_ply.items()})


def test_report_carries_both_sides_strength_for_a_complete_analysis():
    game = rated_game(FWWRC_HEADERS)
    table = lichess_evaluations(cp_table([20, -10] * 12 + [20]))  # every move loses 30 centipawns
    report = build_report(game, table)
    for color in ("white", "black"):
        strength = report["strength"][color]
        assert strength is not None, report["notes"]
        assert set(strength) == {"elo", "low", "high", "level", "basis"}
        assert strength["low"] < strength["elo"] < strength["high"]
        assert "checked on FIDE-rated rapid games (ratings 1626–2536)" in strength["basis"]


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        (LICHESS_HEADERS, "this is a lichess blitz game"),
        ({**FWWRC_HEADERS, "WhiteElo": "2780"}, "this game's players are rated 2780 and 2401"),
        ({key: value for key, value in FWWRC_HEADERS.items() if key != "BlackElo"}, "this game does not give both players' ratings"),
        ({}, "this is an unrated game whose time control is not stated"),
    ],
)
def test_report_gives_no_estimate_outside_the_population_the_model_was_checked_on(headers, reason):
    report = build_report(rated_game(headers), cp_table([20, -10] * 12 + [20]))
    assert report["strength"] == {"white": None, "black": None}
    notes = [note for note in report["notes"] if note.startswith("no strength estimate: ")]
    assert len(notes) == 1 and notes[0].endswith(f"; {reason}"), report["notes"]
    assert notes[0].startswith("no strength estimate: the model was checked on FIDE-rated rapid games (ratings 1626–2536)")


def test_report_strength_is_null_for_a_partial_analysis():
    game = long_chess_game()
    table = cp_table([20, -10] * 12 + [None])
    report = build_report(game, table)
    assert report["strength"] == {"white": None, "black": None}
    assert any("no strength estimate: it needs every move analysed" in note for note in report["notes"])


def test_report_strength_is_null_where_labels_are_withheld():
    game = go_game(["D4", "Q16", "Q4", "D16"] * 8)
    table = EvaluationTable()
    for ply in range(33):
        table.add(replace(go_eval(ply, 0.5), engine_id="KataGo 1.18.1 m | visits=4,multipv=1"))
    report = build_report(game, table)
    assert report["trust"]["labels"] is False
    assert report["strength"] == {"white": None, "black": None}
    assert any("no strength estimate: the scores are a rough estimate" in note for note in report["notes"])


def test_report_strength_is_null_for_a_side_with_too_few_moves():
    game = chess_game("e4 e5 Nf3 Nc6")
    game.headers, game.white_rank, game.black_rank = dict(FWWRC_HEADERS), "2289", "2401"
    report = build_report(game, lichess_evaluations(cp_table([20, 30, 20, 30, 20])))
    assert report["strength"] == {"white": None, "black": None}
    assert any("fewer than 10 scored moves" in note for note in report["notes"])


def test_report_says_the_chess_line_was_not_checked_on_this_engine_setting():
    game = rated_game(FWWRC_HEADERS)
    table = cp_table([20, -10] * 12 + [20])
    table = EvaluationTable({ply: replace(e, engine_id=STOCKFISH_100K) for ply, e in table.by_ply.items()})
    report = build_report(game, table)
    assert report["strength"] == {"white": None, "black": None}
    assert any(note.endswith("; this analysis is by Stockfish at 100000 nodes") for note in report["notes"]), report["notes"]
