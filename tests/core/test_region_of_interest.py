"""A region of interest (issue: life and death study): the side to move chooses only among the
points of a rectangle, in KataGo's query, in Reviewer's own search over KataGo's network and in the
built-in engine; the figures of such a search are named apart from the others."""

from __future__ import annotations

import json
import threading

import pytest
from support import fake_engine_command
from test_katago_search import CORNER, CUTTING_STONE, _problem

from reviewer.core.analysis import Limit
from reviewer.core.engines.builtin_go import BuiltinGoEngine
from reviewer.core.engines.install import installed_katago
from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.engines.katago_search import KataGoNetworkSearch
from reviewer.core.formats import game_from_sgf_text
from reviewer.core.gametree import point_from_gtp

LOWER_LEFT = ((0, 0), (3, 3))  # A1-D4 of the 9x9 board: far from F5, the cutting stone's answer
TOP_LEFT = ((8, 0), (6, 3))  # A9-D7, corners given the other way round: the corner problem's vital point B9 in it


def _inside(moves, region) -> bool:
    limit = Limit(region=region)
    return all(move == "pass" or limit.in_region(point_from_gtp(move, 9)) for move in moves)


def test_the_region_is_part_of_the_limits_description_and_read_back() -> None:
    limit = Limit(visits=32, region=TOP_LEFT)
    assert limit.describe() == "visits=32,multipv=1,region=8.0.6.3"
    assert Limit.parse(limit.describe()) == limit
    assert Limit(visits=32).describe() != limit.describe()  # cached apart
    assert limit.in_region((7, 2)) and not limit.in_region((5, 2)) and not limit.in_region((7, 4))


def test_katagos_query_avoids_every_point_outside_the_region_for_either_side(tmp_path) -> None:
    log = tmp_path / "katago.log"
    game = game_from_sgf_text(_problem(CUTTING_STONE, "W", 7))
    with KataGoEngine(fake_engine_command("fake_katago.py", "--log", str(log))) as engine:
        list(engine.analyse(game, [0], Limit(visits=8, region=LOWER_LEFT), threading.Event()))
    queries = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{") and '"moves"' in line]
    (query,) = [q for q in queries if "avoidMoves" in q]
    assert [entry["player"] for entry in query["avoidMoves"]] == ["B", "W"]
    avoided = set(query["avoidMoves"][0]["moves"])
    assert len(avoided) == 81 - 16 and "F5" in avoided and "A1" not in avoided and "D4" not in avoided
    assert all(entry["untilDepth"] == 1 for entry in query["avoidMoves"])


def test_the_builtin_engine_chooses_only_inside_the_region() -> None:
    game = game_from_sgf_text(_problem(CUTTING_STONE, "W", 7))
    engine = BuiltinGoEngine(seed=3)
    free = engine.evaluate(game, 0, Limit(visits=300))
    kept = engine.evaluate(game, 0, Limit(visits=300, region=LOWER_LEFT))
    assert free is not None and kept is not None
    assert not _inside([c.move for c in free.candidates], LOWER_LEFT)  # it looks elsewhere when free to
    assert kept.candidates and _inside([c.move for c in kept.candidates], LOWER_LEFT)
    assert _inside([kept.best_move], LOWER_LEFT) and kept.engine_id != free.engine_id


@pytest.fixture(scope="module")
def network_search():
    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo's network is not installed: run `reviewer engines install`")
    engine = KataGoNetworkSearch(installed.command())
    yield engine
    engine.close()


@pytest.mark.parametrize("visits", [2, 16])
def test_the_network_search_keeps_to_the_region_and_finds_the_vital_point_in_it(network_search, visits) -> None:
    cutting = game_from_sgf_text(_problem(CUTTING_STONE, "W", 7))
    (free,) = network_search.analyse(cutting, [0], Limit(visits=16), threading.Event())
    assert free.best_move == "F5"
    (kept,) = network_search.analyse(cutting, [0], Limit(visits=visits, region=LOWER_LEFT), threading.Event())
    assert kept.best_move != "F5" and _inside([kept.best_move, *(c.move for c in kept.candidates)], LOWER_LEFT)
    corner = game_from_sgf_text(_problem(CORNER, "B", 7))
    (in_corner,) = network_search.analyse(corner, [0], Limit(visits=16, region=TOP_LEFT), threading.Event())
    assert in_corner.best_move == "B9" and _inside([c.move for c in in_corner.candidates], TOP_LEFT)


def test_katagos_first_visits_computed_in_process_keep_to_the_region(network_search) -> None:
    installed = installed_katago()
    assert installed is not None
    cutting = game_from_sgf_text(_problem(CUTTING_STONE, "W", 7))
    with KataGoEngine(installed.command()) as engine:
        (free,) = engine.analyse(cutting, [0], Limit(visits=2), threading.Event())
        (kept,) = engine.analyse(cutting, [0], Limit(visits=2, region=LOWER_LEFT), threading.Event())
    assert free.best_move == "F5"
    assert kept.best_move != "F5" and _inside([kept.best_move], LOWER_LEFT) and kept.engine_id != free.engine_id


def test_live_analysis_searches_again_inside_the_region_when_one_is_set() -> None:
    from reviewer.core.services.live import LiveAnalysis

    updates: list = []
    done = threading.Event()

    def on_update(update) -> None:
        updates.append(update)
        if update.last:
            done.set()

    game = game_from_sgf_text(_problem(CUTTING_STONE, "W", 7))
    live = LiveAnalysis(lambda: BuiltinGoEngine(seed=1), on_update, lambda message: None)
    try:
        live.set_region(LOWER_LEFT)
        assert live.region == LOWER_LEFT
        live.set_position(game, 0, "here")
        assert done.wait(120)
        assert all(_inside([c.move for c in update.evaluation.candidates], LOWER_LEFT) for update in updates)
        assert all("region=0.0.3.3" in update.evaluation.engine_id for update in updates)
    finally:
        live.close()
