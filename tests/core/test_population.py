"""Which population of rated games a game's headers put it in (reviewer.core.scoring.population)."""

from __future__ import annotations

import pytest

from reviewer.core.gametree import Game
from reviewer.core.rating.scale import parse_declared
from reviewer.core.scoring.population import (
    CheckedPopulation,
    GamePopulation,
    chess_rating_system,
    population_of,
    population_reason,
    time_class,
)
from reviewer.core.scoring.strength import load_model

FIDE_RAPID = CheckedPopulation.from_json(
    {"name": "FIDE-rated rapid games (ratings 1626–2536)", "rating_system": "fide", "time_classes": ["rapid"],
     "ratings": [1626, 2536], "sides": 1206, "coverage": 0.8, "checked": "5-fold cross-validation",
     "settings": [{"engine": "Stockfish", "budget": "nodes=100000"}]}
)
RANKED_19 = CheckedPopulation.from_json(
    {"name": "ranked 19×19 games (ranks 15k–9d)", "rating_system": "go ranks", "boards": [[19, 19]],
     "ratings": [-14, 9], "sides": 27, "coverage": 0.74, "checked": "leave-one-game-out",
     "settings": [{"engine": "KataGo", "budget": "visits=8"}]}
)


def chess_population(headers: dict[str, str]) -> GamePopulation:
    game = Game(kind="chess", headers=dict(headers))
    game.white_rank, game.black_rank = headers.get("WhiteElo", ""), headers.get("BlackElo", "")
    return population_of(game, parse_declared("chess", game.white_rank), parse_declared("chess", game.black_rank))


def go_population(black: str, white: str, size: int = 19) -> GamePopulation:
    game = Game(kind="go", board_width=size, board_height=size, black_rank=black, white_rank=white)
    return population_of(game, parse_declared("go", white), parse_declared("go", black))


@pytest.mark.parametrize(
    ("headers", "system", "clock", "text"),
    [
        (  # lichess's own export
            {"Event": "Rated Blitz game", "Site": "https://lichess.org/izqA4zcL", "WhiteElo": "1854",
             "BlackElo": "1824", "WhiteRatingDiff": "-6", "TimeControl": "180+0"},
            "lichess", "blitz", "a lichess blitz game",
        ),
        (  # a lichess arena game: the event names no clock, the TimeControl does
            {"Event": "Hourly Crazyhouse Inc Arena", "Site": "https://lichess.org/vjT6KovO", "TimeControl": "300+0",
             "WhiteElo": "1943", "BlackElo": "2319"},
            "lichess", "blitz", "a lichess blitz game",
        ),
        (
            {"Event": "Live Chess", "Site": "Chess.com", "WhiteElo": "1267", "BlackElo": "1308", "TimeControl": "60"},
            "chess.com", "bullet", "a chess.com bullet game",
        ),
        (
            {"Event": "Live Chess", "Site": "Chess.com", "WhiteElo": "800", "BlackElo": "2390", "TimeControl": "900+10"},
            "chess.com", "rapid", "a chess.com rapid game",
        ),
        (  # the fit's own event: a clock written in words
            {"Event": "FIDE Women’s World Rapid Championships 2024", "Site": "New York, United States",
             "WhiteElo": "2289", "BlackElo": "2536", "TimeControl": "15 min. + 10 s. per move"},
            "fide", "rapid", "a FIDE-rated rapid game",
        ),
        (  # over the board, no TimeControl
            {"Event": "65th ch-RUS HL", "Site": "Tyumen RUS", "WhiteElo": "2286", "BlackElo": "2631"},
            "fide", "unstated", "a FIDE-rated game whose time control is not stated",
        ),
        (
            {"Event": "World Rapid Open", "Site": "Riga LAT", "WhiteElo": "2286", "BlackElo": "2631"},
            "fide", "rapid", "a FIDE-rated rapid game",
        ),
        (
            {"Event": "Olympiad", "Site": "Chennai IND", "WhiteElo": "2500", "BlackElo": "2400",
             "TimeControl": "40/5400+30:1800+30"},
            "fide", "classical", "a FIDE-rated classical game",
        ),
        (  # TWIC writes online events as "… INT"
            {"Event": "Lindores Abbey Prelim", "Site": "chess24.com INT", "WhiteElo": "2863", "BlackElo": "2777"},
            "online", "unstated", "an online game whose time control is not stated",
        ),
        (
            {"Event": "ICC 5 3", "Site": "Internet Chess Club", "WhiteElo": "2796", "TimeControl": "300+3"},
            "online", "blitz", "an online blitz game",
        ),
        (  # a lichess-style rating change without a site
            {"Event": "Casual", "Site": "?", "WhiteElo": "1500", "BlackElo": "1510", "WhiteRatingDiff": "+7"},
            "online", "unstated", "an online game whose time control is not stated",
        ),
        (
            {"Event": "Daily", "Site": "https://lichess.org/abc", "TimeControl": "1/259200", "WhiteElo": "1500"},
            "lichess", "correspondence", "a lichess correspondence game",
        ),
        ({"Event": "?", "Site": "?"}, "unrated", "unstated", "an unrated game whose time control is not stated"),
        (
            {"Event": "Rated Crazyhouse game", "Site": "https://lichess.org/x", "Variant": "Crazyhouse",
             "TimeControl": "180+2"},
            "lichess", "blitz", "a lichess crazyhouse blitz game",
        ),
        ({"WhiteElo": "?", "BlackElo": "0", "TimeControl": "-"}, "unrated", "correspondence", "an unrated correspondence game"),
    ],
)
def test_the_headers_give_the_rating_system_and_the_time_class(headers, system, clock, text):
    population = chess_population(headers)
    assert (population.rating_system, population.time_class, population.text()) == (system, clock, text)
    assert chess_rating_system(headers) == system and time_class(headers) == clock


def test_a_game_of_the_checked_population_within_its_ratings_has_no_reason():
    game = chess_population({"Site": "Riga LAT", "WhiteElo": "2289", "BlackElo": "2401", "TimeControl": "900+10"})
    assert population_reason([FIDE_RAPID], game, "Stockfish 16.1 | nodes=100000,multipv=1") is None


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        (
            {"Site": "https://lichess.org/x", "WhiteElo": "1854", "BlackElo": "1824", "TimeControl": "180+0"},
            "the model was checked on FIDE-rated rapid games (ratings 1626–2536); this is a lichess blitz game",
        ),
        (
            {"Site": "Sao Paulo", "WhiteElo": "2716", "BlackElo": "2823", "TimeControl": "900+10"},
            "the model was checked on FIDE-rated rapid games (ratings 1626–2536); this game's players are rated 2716 and 2823",
        ),
        (
            {"Site": "Sao Paulo", "WhiteElo": "1500", "BlackElo": "2000", "TimeControl": "900+10"},
            "this game's players are rated 1500 and 2000",
        ),
        (
            {"Site": "Sao Paulo", "WhiteElo": "2200", "TimeControl": "900+10"},
            "this game does not give both players' ratings",
        ),
        ({"Site": "Sao Paulo", "WhiteElo": "2200", "BlackElo": "2300"}, "this is a FIDE-rated game whose time control is not stated"),
        ({}, "this is an unrated game whose time control is not stated"),
        (
            {"Site": "Riga LAT", "WhiteElo": "2289", "BlackElo": "2401", "TimeControl": "900+10", "Variant": "Chess960"},
            "this is a FIDE-rated Chess960 rapid game",
        ),
    ],
)
def test_the_reason_names_the_checked_population_and_what_the_game_is(headers, reason):
    result = population_reason([FIDE_RAPID], chess_population(headers))
    assert result is not None and result.endswith(reason) and result.startswith("the model was checked on FIDE-rated rapid games")


def test_no_checked_population_or_no_headers_read_gives_no_estimate():
    game = chess_population({"Site": "Riga LAT", "WhiteElo": "2289", "BlackElo": "2401", "TimeControl": "900+10"})
    assert population_reason([], game) == "the model names no population of games it was checked on"
    assert population_reason([FIDE_RAPID], None) == (
        "the model was checked on FIDE-rated rapid games (ratings 1626–2536); this game's headers were not read"
    )


@pytest.mark.parametrize(
    ("black", "white", "size", "reason"),
    [
        ("5k", "2d", 19, None),
        ("15k", "9d", 19, None),
        ("5k", "2d", 13, "this is a ranked 13×13 game"),
        ("", "", 19, "this is an unranked 19×19 game"),
        ("5k", "", 19, "this game does not give both players' ratings"),
        ("9p", "7p", 19, "this is a professional 19×19 game"),
        ("20k", "18k", 19, "this game's players are rated 18k and 20k"),  # white's first
    ],
)
def test_go_games_are_checked_on_ranked_19x19_games_only(black, white, size, reason):
    result = population_reason([RANKED_19], go_population(black, white, size), "KataGo 1.18.1 m | visits=8,multipv=1")
    assert result == (None if reason is None else f"the model was checked on ranked 19×19 games (ranks 15k–9d); {reason}")


def test_the_bundled_models_name_the_populations_they_were_checked_on():
    chess = load_model("chess")
    go = load_model("go")
    assert chess is not None and go is not None
    assert chess.populations[0].name == "FIDE-rated rapid games (ratings 1626–2536)"
    assert (chess.populations[0].rating_system, chess.populations[0].time_classes) == ("fide", ("rapid",))
    assert all(0.7 <= p.coverage <= 0.9 for p in chess.populations + go.populations)
    assert [p.name for p in go.populations] == ["ranked 19×19 games (ranks 15k–9d)"]
    lichess = chess_population({"Site": "https://lichess.org/x", "WhiteElo": "1854", "BlackElo": "1824", "TimeControl": "180+0"})
    assert population_reason(chess.populations, lichess) is not None
