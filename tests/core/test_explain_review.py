"""The default Go review carries the ownership maps a flagged move's explanation needs."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from support import fake_engine_command

from reviewer.core.analysis import EvaluationTable
from reviewer.core.cache import AnalysisCache, position_keys
from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.explain import explain_assessed
from reviewer.core.explain.go import NO_MAPS_NOTE
from reviewer.core.gametree import Game, Node, point_from_gtp
from reviewer.core.passes import default_go_passes, pass_cache_id
from reviewer.core.review import analyse_game, identity_key
from reviewer.core.scoring.go import assess_go

pytestmark = pytest.mark.timeout(120)

SIZE = 9
# Black's stones mostly on the left half (columns A-D), where the fake's map follows the lead.
MOVES = ["C3", "G7", "C4", "G3", "D5", "F4", "B6", "F6", "C7", "G5", "D3", "E5", "B4", "H4"]


def go_game(moves: list[str]) -> Game:
    game = Game(kind="go", board_width=SIZE, board_height=SIZE, first_player="black", komi=6.5)
    node = game.root
    color = "black"
    for gtp in moves:
        node = node.add_child(Node(move=gtp, color=color, point=point_from_gtp(gtp, SIZE)))
        color = "white" if color == "black" else "black"
    return game


def queries(log: Path) -> list[dict]:
    found = []
    for line in log.read_text().splitlines():
        message = json.loads(line)
        if message.get("action") is None and "moves" in message:
            found.append(message)
    return found


def test_flagged_moves_of_the_default_go_review_are_explained_by_ownership(tmp_path: Path) -> None:
    game = go_game(MOVES)
    log = tmp_path / "katago.log"
    scheme = default_go_passes()
    table = EvaluationTable()
    command = fake_engine_command("fake_katago.py", "--log", str(log), "--ownership-follows-lead")
    with KataGoEngine(command) as engine:
        for evaluation in analyse_game(game, engine, scheme.limit(), threading.Event()):
            table.add(evaluation)
    fast = [q for q in queries(log) if q.get("maxVisits") == scheme.visits[0]]
    deep = [q for q in queries(log) if q.get("maxVisits") == scheme.visits[1]]
    assert fast and deep
    assert not any(q.get("includeOwnership") for q in fast)  # the fast pass over every position asks for no maps
    assert all(q.get("includeOwnership") for q in deep)
    flagged = [m for m in assess_go(game, table).moves if m.judgement in ("inaccuracy", "mistake", "blunder")]
    assert flagged, "the fake's made-up values flag some moves"
    crossing = []
    for move in flagged:
        before, after = table.get(move.ply - 1), table.get(move.ply)
        assert before is not None and after is not None
        assert before.ownership_first is not None and after.ownership_first is not None
        why = explain_assessed(game, table, move)
        assert why is None or NO_MAPS_NOTE not in why.text
        sign = 1 if move.color == "black" else -1
        gave_the_left_away = sign * (before.score_lead_first or 0) > 0 > sign * (after.score_lead_first or 0)
        if gave_the_left_away:
            # Black's stones stand on the left: a Black move loses them, a White move lets them live.
            crossing.append(move.color)
            motif = "deadGroup" if move.color == "black" else "aliveGroup"
            assert why is not None and motif in why.motifs, (move.ply, why)
    assert "black" in crossing, "some flagged Black move hands the left half to White"


def test_a_refined_result_cached_without_maps_is_still_used_and_explained_with_less(tmp_path: Path) -> None:
    """Results cached before the refining pass asked for maps are read, not searched again."""
    game = go_game(MOVES)
    log = tmp_path / "katago.log"
    scheme = default_go_passes()
    limit = scheme.limit()
    command = fake_engine_command("fake_katago.py", "--log", str(log), "--ownership-follows-lead")
    with AnalysisCache(tmp_path / "cache.sqlite") as cache, KataGoEngine(command) as engine:
        fresh = EvaluationTable()
        for evaluation in analyse_game(game, engine, limit, threading.Event(), cache):
            fresh.add(evaluation)
        refined = [e for e in fresh.ordered() if e.review_pass == 2]
        assert refined and all(e.ownership_first is not None for e in refined)
        keys = position_keys(game, [e.ply for e in refined])
        refined_id = pass_cache_id(identity_key(engine.identity, limit), 2)
        for evaluation in refined:  # as a version that did not ask for maps left them
            old = replace(evaluation, ownership_first=None, policy=None, review_pass=None, engine_id="")
            cache.put(keys[evaluation.ply], refined_id, old)
        log.write_text("")
        again = EvaluationTable()
        for evaluation in analyse_game(game, engine, limit, threading.Event(), cache):
            again.add(evaluation)
    assert queries(log) == []  # everything came from the cache
    assert all(again.get(e.ply).review_pass == 2 and again.get(e.ply).ownership_first is None for e in refined)
    for move in assess_go(game, again).moves:
        assert move.judgement == next(m for m in assess_go(game, fresh).moves if m.ply == move.ply).judgement
        why = explain_assessed(game, again, move)
        assert why is None or set(why.motifs) <= {"capture", "atari"}
