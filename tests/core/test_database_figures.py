"""The analysis cache's figures joined to the database's games: a game analysed in full gets the
accuracy its review gives, a game analysed in part says so and passes no accuracy filter, and the
command line lists and filters games by them."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from support import fake_engine_command

from reviewer.cli import main as reviewer_main
from reviewer.core.analysis import EvaluationTable, Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.database import ExploreFilters, GameDatabase, chess_position, games_at, import_paths
from reviewer.core.database.figures import figures_of, join_analysis
from reviewer.core.engines.uci import UciEngine
from reviewer.core.formats import open_collection
from reviewer.core.review import analyse_game
from reviewer.core.scoring import assess_game

GAMES = (
    ("Anna", "Bob", "1-0", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1-0"),
    ("Carl", "Anna", "0-1", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"),
    ("Anna", "Dora", "1/2-1/2", "1. e4 c5 2. Nf3 d6 3. d4 cxd4 1/2-1/2"),
)


@pytest.fixture
def setting(tmp_path) -> tuple[Path, Path, Path]:
    games_file = tmp_path / "club.pgn"
    games_file.write_text("".join(f'[White "{w}"]\n[Black "{b}"]\n[Result "{r}"]\n\n{moves}\n\n' for w, b, r, moves in GAMES),
                          encoding="utf-8")
    database_path, cache_path = tmp_path / "games.sqlite", tmp_path / "cache.sqlite"
    with GameDatabase(database_path) as database:
        import_paths(database, [games_file])
    collection = open_collection(games_file)
    limit = Limit(nodes=1000)
    with AnalysisCache(cache_path) as cache, UciEngine(fake_engine_command("fake_uci.py")) as engine:
        # the first in full, the third in part; the second shares the first's first three positions
        for index, plies in ((0, None), (2, [0, 1, 2])):
            list(analyse_game(collection.game(index), engine, limit, threading.Event(), cache, plies=plies))
    return games_file, database_path, cache_path


def test_a_game_analysed_in_full_gets_its_reviews_accuracy_and_a_partial_one_says_so(setting) -> None:
    games_file, database_path, cache_path = setting
    collection = open_collection(games_file)
    with GameDatabase(database_path) as database, AnalysisCache(cache_path) as cache:
        report = join_analysis(database, cache)
        assert (report.games, report.joined, report.unreadable) == (3, 3, 0)
        ids = {row[1]: int(row[0]) for row in database.connection.execute("SELECT id, source_index FROM games")}
        figures = figures_of(database, list(ids.values()))
        assert set(figures) == set(ids.values())
        first, second, third = figures[ids[0]], figures[ids[1]], figures[ids[2]]
        assert not second.complete and (second.positions_analysed, second.positions_total) == (3, 8)  # the cache is by position
        assert first.complete and (first.positions_analysed, first.positions_total) == (9, 9)
        # the same figures as the review of the same evaluations
        evaluations = EvaluationTable()
        with UciEngine(fake_engine_command("fake_uci.py")) as engine:
            for evaluation in analyse_game(collection.game(0), engine, Limit(nodes=1000), threading.Event(), cache):
                evaluations.add(evaluation)
        reviewed = assess_game(collection.game(0), evaluations)
        # the accuracy the review shows (the preset's: lichess's), not another of its accuracies
        assert first.accuracy == {color: reviewed.summary[color].accuracy_lichess for color in ("white", "black")}
        assert first.accuracy != {color: reviewed.summary[color].accuracy for color in ("white", "black")}
        assert first.loss["white"] == reviewed.summary["white"].acpl and first.accuracy["white"] is not None
        assert not third.complete and (third.positions_analysed, third.positions_total) == (3, 7)
        # only complete figures pass the filter; the player's own side counts
        start = chess_position()
        everyone = {game.source_index for game, _ply, _move in games_at(database, start, ExploreFilters(min_accuracy=0.0))}
        assert everyone == {0}
        anna_white = ExploreFilters(player="Anna", color="white", min_accuracy=first.accuracy["white"])
        assert [game.source_index for game, _ply, _move in games_at(database, start, anna_white)] == [0]
        above = ExploreFilters(player="Anna", min_accuracy=first.accuracy["white"] + 0.1)
        assert games_at(database, start, above) == []
        # a second join looks only at the games without complete figures
        assert join_analysis(database, cache).games == 2
        assert join_analysis(database, cache, again=True).games == 3


def test_the_command_line_joins_lists_and_filters(setting, capsys) -> None:
    _games_file, database_path, cache_path = setting
    assert reviewer_main(["db", "join-analysis", "--db", str(database_path), "--cache", str(cache_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"games": 3, "joined": 3, "unreadable": 0}
    assert reviewer_main(["db", "games", "--db", str(database_path), "--json"]) == 0
    listed = {game["index"]: game["analysis"] for game in json.loads(capsys.readouterr().out)}
    assert listed[0]["complete"] and not listed[1]["complete"] and not listed[2]["complete"]
    assert listed[2]["positions_analysed"] == 3 and listed[2]["positions_total"] == 7
    assert reviewer_main(["db", "games", "--db", str(database_path), "--min-accuracy", "0"]) == 0
    text = capsys.readouterr().out
    assert "Anna" in text and "Bob" in text and "Dora" not in text and "Carl" not in text and "accuracy" in text
    assert reviewer_main(["db", "games", "--db", str(database_path)]) == 0
    assert "(partial: 3 of 7 positions)" in capsys.readouterr().out
