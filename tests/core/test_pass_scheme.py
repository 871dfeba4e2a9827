"""A review in passes runs any game's `PassScheme`: the driver never asks which game it reviews,
and a third game's scheme (Connect Four's, from the tests alone) is read back from its id and run
by the same driver as chess's and Go's."""

from __future__ import annotations

import ast
import dataclasses
import threading
from pathlib import Path

import pytest
from support import fake_engine_command

from reviewer.core.games import game_support, register_game, unregister_game
from reviewer.core.games.support import Ref
from reviewer.core.passes import ChessPasses, GoPasses, PassStart, pass_text, scheme_from_id, scheme_text
from reviewer.core.review import analyse_game
from tests.games.connect_four import KIND, SUPPORT, ConnectFourPasses, LineEngine, game_from_text

PASSES = Path(__file__).resolve().parents[2] / "reviewer" / "core" / "passes.py"
SCHEMES = frozenset({"ChessPasses", "GoPasses"})


def scheme_switches(tree: ast.AST) -> list[int]:
    """The line of each `isinstance(…, ChessPasses)` / `isinstance(…, GoPasses | …)`."""
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
        and len(node.args) == 2 and any(isinstance(name, ast.Name) and name.id in SCHEMES for name in ast.walk(node.args[1]))
    )


def test_the_counter_sees_a_switch_on_the_scheme() -> None:
    source = "a = isinstance(scheme, ChessPasses)\nb = isinstance(s, (GoPasses, int))\nc = isinstance(s, Limit)\n"
    assert scheme_switches(ast.parse(source)) == [1, 2]


def test_the_driver_never_asks_which_scheme_it_runs() -> None:
    lines = scheme_switches(ast.parse(PASSES.read_text(encoding="utf-8")))
    print(f"\n{len(lines)} isinstance on ChessPasses/GoPasses in reviewer/core/passes.py: {lines}")
    assert lines == []


def test_each_games_default_scheme_comes_from_its_support() -> None:
    chess, go = game_support("chess").default_passes(4), game_support("go").default_passes()
    assert isinstance(chess, ChessPasses) and (chess.engines, chess.nodes[-1], chess.flags_from) == (4, 5_000_000, 3)
    assert chess.with_budgets((100, 200)) == ChessPasses(nodes=(100, 200), engines=4)
    assert go == GoPasses() and go.with_budgets((3, 9, 27)) == GoPasses(visits=(3, 27))
    assert scheme_text(chess.scheme_id) == "passes · 40k → 250k → 1M → 5M nodes"


@pytest.fixture
def connect_four_in_passes():
    register_game(dataclasses.replace(SUPPORT, default_passes_ref=Ref("tests.games.connect_four:default_passes")))
    try:
        yield game_support(KIND).default_passes()
    finally:
        unregister_game(KIND)


def test_a_third_games_scheme_is_read_back_from_its_id(connect_four_in_passes) -> None:
    scheme = connect_four_in_passes
    assert scheme == ConnectFourPasses()
    assert scheme_from_id(scheme.with_budgets((2, 8)).scheme_id) == ConnectFourPasses((2, 8))
    assert scheme_text(scheme.scheme_id) == "passes · 1 → 4 visits"
    unregister_game(KIND)
    with pytest.raises(ValueError, match="unknown review scheme"):
        scheme_from_id(scheme.scheme_id)


def test_a_third_games_scheme_runs_through_the_same_driver(connect_four_in_passes) -> None:
    scheme = connect_four_in_passes
    game = game_from_text("Black: Alice\nWhite: Bob\nResult: B+\nMoves: d d c a e\n")
    engine = LineEngine(fake_engine_command("fake_connect_four.py"))
    starts: list[PassStart] = []
    try:
        results = list(analyse_game(game, engine, scheme.limit(), threading.Event(), on_pass=starts.append))  # type: ignore[arg-type]
    finally:
        engine.close()
    assert [(start.index, start.count, start.positions, start.budget) for start in starts] == [
        (1, 2, 6, "1 visits"), (2, 2, 3, "4 visits")]
    assert [(e.ply, e.review_pass) for e in results] == [(p, 1) for p in range(6)] + [(3, 2), (4, 2), (5, 2)]
    assert pass_text(results[-1].engine_id or "", 2) == "pass 2 of 2 · 4 visits"
