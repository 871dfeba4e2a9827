"""Which engine settings may label moves (reviewer/core/scoring/trust.py), per board size."""

from __future__ import annotations

import pytest

from reviewer.core.analysis import Limit
from reviewer.core.engines.builtin_go import BuiltinGoEngine
from reviewer.core.scoring.trust import (
    BUILTIN_MIN_PLAYOUTS,
    INSTALL_KATAGO,
    KATAGO_MIN_VISITS,
    board_class,
    builtin_playouts_in,
    judge_engine,
)

KATAGO = "KataGo 1.18.1 g170e-b15c192-s1672170752-d466197061"


def builtin_id(limit: Limit, playouts: int | None = None) -> str:
    """The engine id the built-in engine writes into its evaluations for this limit."""
    return f"{BuiltinGoEngine(playouts=playouts).identity} | {limit.describe()}"


def katago_id(visits: int | None) -> str:
    return f"{KATAGO} | {Limit(visits=visits).describe()}"


@pytest.mark.parametrize("size", [9, 13, 19])
@pytest.mark.parametrize("playouts", [50, 200, 1000, 2000])
def test_the_builtin_engine_at_the_offered_budgets_never_labels_moves(size, playouts):
    verdict = judge_engine(builtin_id(Limit(visits=playouts)), "go", size)
    assert not verdict.labels and verdict.rough
    assert "built-in" in verdict.reason and f"{size}×{size}" in verdict.reason
    assert verdict.remedy == INSTALL_KATAGO


@pytest.mark.parametrize("size", [13, 19])
def test_the_builtin_engine_never_labels_on_big_boards_whatever_the_budget(size):
    assert not judge_engine(builtin_id(Limit(visits=1_000_000)), "go", size).labels
    assert BUILTIN_MIN_PLAYOUTS[board_class(size)] is None


def test_the_builtin_budget_is_read_as_the_engine_picks_it():
    assert builtin_playouts_in(builtin_id(Limit(visits=50))) == 50
    assert builtin_playouts_in(builtin_id(Limit(nodes=300))) == 300
    assert builtin_playouts_in(builtin_id(Limit(), playouts=700)) == 700  # the fallback budget
    assert builtin_playouts_in(builtin_id(Limit())) == 2000
    # the id says exactly what the engine would use
    engine = BuiltinGoEngine(playouts=700)
    for limit in (Limit(visits=50), Limit(nodes=300), Limit()):
        assert builtin_playouts_in(f"{engine.identity} | {limit.describe()}") == engine.playouts_for(limit)


@pytest.mark.parametrize("size", [9, 13, 19])
def test_katago_labels_from_its_threshold_on_and_not_below(size):
    needed = KATAGO_MIN_VISITS[board_class(size)]
    assert judge_engine(katago_id(needed), "go", size).labels
    assert judge_engine(katago_id(1000), "go", size).labels
    below = judge_engine(katago_id(needed - 1), "go", size)
    assert not below.labels
    assert f"{needed - 1} visits" in below.reason and str(needed) in below.remedy


@pytest.mark.parametrize("size", [9, 19])
def test_katago_at_one_visit_is_a_rough_estimate(size):
    assert not judge_engine(katago_id(1), "go", size).labels


def test_katago_with_its_configured_visits_is_trusted():
    assert judge_engine(f"{KATAGO} | movetime=2.0,multipv=1", "go", 19).labels


def test_board_classes():
    assert [board_class(s) for s in (5, 7, 9, 11, 13, 17, 19, 25)] == [9, 9, 9, 13, 13, 19, 19, 19]


def test_chess_and_unknown_ids_are_not_judged_here():
    assert judge_engine("Stockfish 17 | nodes=1000,multipv=1", "chess", 8).labels
    assert judge_engine(builtin_id(Limit(visits=50)), "chess", 8).labels
    assert judge_engine("", "go", 19).labels
