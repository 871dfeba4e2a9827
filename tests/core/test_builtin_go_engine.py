"""The built-in Go engine: tactics, determinism, and the Engine protocol's output."""

from __future__ import annotations

import threading

import pytest

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.engines.base import Engine, EngineError
from reviewer.core.engines.builtin_go import BuiltinGoEngine
from reviewer.core.engines.builtin_go.engine import DEFAULT_PLAYOUTS, position_at_ply, search_position
from reviewer.core.engines.builtin_go.problems import CAPTURE, KO, SAVE
from reviewer.core.gametree import Game, Node


@pytest.mark.parametrize("problem", [CAPTURE, SAVE, KO], ids=lambda p: p.name)
@pytest.mark.parametrize("variant", ["plain", "weighted"])
def test_finds_the_only_capturing_or_saving_move(problem, variant):
    result = search_position(problem.position(), 1500, seed=11, variant=variant)
    assert result is not None
    assert result.best.move in problem.answers, [(m.move, m.visits) for m in result.moves[:5]]


def test_capture_is_seen_as_winning_and_the_score_reflects_the_captured_stones():
    result = search_position(CAPTURE.position(), 1000, seed=2)
    assert result.winrate_first > 0.8
    best = result.best
    assert best.score_lead_first > 20  # eight stones and their area change hands


def test_same_seed_same_analysis_other_seed_other_search():
    position = CAPTURE.position()
    first = search_position(position, 600, seed=5)
    second = search_position(position, 600, seed=5)
    assert first.moves == second.moves
    assert first.score_lead_first == second.score_lead_first
    other = search_position(position, 600, seed=6)
    assert other.moves != first.moves


def _small_game() -> Game:
    game = Game(kind="go", board_width=9, board_height=9, komi=7.5, rules="chinese", first_player="black")
    node = game.root
    for color, point, move in [("black", (4, 4), "E5"), ("white", (2, 6), "G3"), ("black", (6, 2), "C7")]:
        node = node.add_child(Node(move=move, color=color, point=point))
    return game


def test_engine_protocol_output_is_sane():
    engine = BuiltinGoEngine(playouts=300, seed=1)
    assert isinstance(engine, Engine)
    assert engine.kind == "go"
    game = _small_game()
    evaluations = list(engine.analyse(game, [0, 1, 2, 3], Limit(), threading.Event()))
    engine.close()
    assert [e.ply for e in evaluations] == [0, 1, 2, 3]
    for evaluation in evaluations:
        assert isinstance(evaluation, Evaluation)
        assert evaluation.kind == "go"
        assert evaluation.nodes == 300
        assert 0.0 <= evaluation.winrate_first <= 1.0
        assert evaluation.side_to_move == ("black" if evaluation.ply % 2 == 0 else "white")
        candidates = evaluation.candidates
        assert candidates and [c.order for c in candidates] == list(range(len(candidates)))
        visits = [c.visits for c in candidates]
        assert visits == sorted(visits, reverse=True)
        assert sum(c.prior for c in candidates) == pytest.approx(1.0, abs=1e-6)
        assert all(0.0 <= c.winrate_first <= 1.0 and c.score_lead_first is not None for c in candidates)
        assert evaluation.best_move == candidates[0].move
        assert evaluation.pv[0] == evaluation.best_move and candidates[0].pv[0] == candidates[0].move
        assert evaluation.engine_id.startswith(engine.identity)
        # the root lead is the mean over all playouts: between the candidates' extremes
        leads = [c.score_lead_first for c in candidates]
        assert min(leads) - 1e-6 <= evaluation.score_lead_first <= max(leads) + 1e-6
    occupied = {"E5", "G3", "C7"}
    assert evaluations[3].best_move not in occupied


def test_identity_names_version_playouts_and_variant():
    plain = BuiltinGoEngine(playouts=500, seed=3)
    weighted = BuiltinGoEngine(playouts=500, seed=3, weighted_rave=True)
    assert "500" in plain.identity and "builtin-go" in plain.identity
    assert plain.identity != weighted.identity and "weighted" in weighted.identity
    assert str(DEFAULT_PLAYOUTS) in BuiltinGoEngine().identity


def test_identity_names_only_the_fallback_budget_and_the_cache_key_the_budget_used():
    from reviewer.core.review import engine_key

    engine = BuiltinGoEngine()
    words = engine.identity.split()
    assert f"default-playouts={DEFAULT_PLAYOUTS}" in words
    assert not any(word.startswith("playouts=") for word in words)  # no claim of a budget used
    # no limit: the fallback budget is part of the key, so other fallbacks get other keys
    assert str(DEFAULT_PLAYOUTS) in engine_key(engine, Limit())
    assert engine_key(engine, Limit()) != engine_key(BuiltinGoEngine(playouts=500), Limit())
    # a limit with visits or nodes: the key names that budget, and different budgets differ
    assert "visits=200" in engine_key(engine, Limit(visits=200))
    keys = {engine_key(engine, limit) for limit in (Limit(), Limit(visits=200), Limit(visits=300), Limit(nodes=200))}
    assert len(keys) == 4


def test_limit_visits_overrides_the_playouts():
    engine = BuiltinGoEngine(playouts=5000)
    (evaluation,) = engine.analyse(_small_game(), [1], Limit(visits=64), threading.Event())
    assert evaluation.nodes == 64
    assert "visits=64" in evaluation.engine_id


def test_stop_event_ends_the_analysis_without_more_positions():
    engine = BuiltinGoEngine(playouts=100)
    stop = threading.Event()
    stop.set()
    assert list(engine.analyse(_small_game(), [0, 1, 2], Limit(), stop)) == []
    stop = threading.Event()
    got = []
    for evaluation in engine.analyse(_small_game(), [0, 1, 2], Limit(), stop):
        got.append(evaluation.ply)
        stop.set()
    assert got == [0]


def test_a_stop_during_a_search_abandons_that_position():
    position = CAPTURE.position()
    stop = threading.Event()
    timer = threading.Timer(0.05, stop.set)
    timer.start()
    try:
        assert search_position(position, 5_000_000, seed=1, stop=stop) is None
    finally:
        timer.cancel()


def test_positions_follow_setup_stones_handicap_and_the_next_mover():
    game = Game(kind="go", board_width=9, board_height=9, komi=0.5, handicap=2, first_player="black")
    game.setup_black = [(2, 2), (6, 6)]
    node = game.root.add_child(Node(move="C7", color="white", point=(6, 2)))
    edit = node.add_child(Node(move="D4", color="black", point=(3, 3)))
    edit.setup_white = [(0, 0)]
    edit.setup_empty = [(2, 2)]
    start = position_at_ply(game, 0)
    assert start.to_move == "white"  # the first recorded move is White's
    assert start.color_at((2, 2)) == "black" and start.komi == 0.5
    after = position_at_ply(game, 2)
    assert after.color_at((0, 0)) == "white" and after.color_at((2, 2)) is None
    assert after.color_at((3, 3)) == "black" and after.to_move == "white"


def test_a_game_record_capture_is_replayed():
    game = Game(kind="go", board_width=5, board_height=5, komi=0.5, first_player="black")
    node = game.root
    moves = [("black", (1, 0)), ("white", (0, 0)), ("black", (0, 1))]  # black captures the corner stone
    for color, point in moves:
        node = node.add_child(Node(move="x", color=color, point=point))
    position = position_at_ply(game, 3)
    assert position.color_at((0, 0)) is None and position.to_move == "white"


def test_unsupported_games_are_refused_with_a_clear_error():
    with pytest.raises(EngineError, match="Go"):
        position_at_ply(Game(kind="chess"), 0)
    with pytest.raises(EngineError, match="25x25"):
        position_at_ply(Game(kind="go", board_width=37, board_height=37), 0)
