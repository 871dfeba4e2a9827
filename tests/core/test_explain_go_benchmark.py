"""The independent tests benchmarks/explain_go.py checks Go explanations with: each holds where the
claim is true and fails where it is not."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewer.core.gametree import Game, Node, point_from_gtp

REPO_ROOT = Path(__file__).resolve().parents[2]
SIZE = 9


@pytest.fixture(scope="module")
def bench() -> Any:
    spec = importlib.util.spec_from_file_location("explain_go", REPO_ROOT / "benchmarks" / "explain_go.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["explain_go"] = module
    spec.loader.exec_module(module)
    return module


def go_game(moves: list[str]) -> Game:
    game = Game(kind="go", board_width=SIZE, board_height=SIZE, first_player="black", komi=6.5)
    node, color = game.root, "black"
    for move in moves:
        node = node.add_child(Node(move=move, color=color, point=point_from_gtp(move, SIZE)))
        color = "white" if color == "black" else "black"
    return game


def deep(lead: float = 0.0, best: str | None = None, pv: list[str] | None = None,
         black: dict[str, float] | None = None) -> dict[str, Any]:
    ownership = [0.0] * (SIZE * SIZE)
    for name, value in (black or {}).items():
        row, col = point_from_gtp(name, SIZE)  # type: ignore[misc]
        ownership[row * SIZE + col] = value
    return {"lead_black": lead, "best_move": best, "pv": pv or ([best] if best else []), "ownership_black": ownership}


def check(bench: Any, game: Game, ply: int, motif: str, points: list[str], line: list[str],
          before: dict[str, Any], after: dict[str, Any], sentence: str = "") -> bool:
    move = {"ply": ply, "color": game.node_at_ply(ply).color, "line": line}
    holds, _ = bench._check({"motif": motif, "points": points, "sentence": sentence}, move, game, before, after)
    return bool(holds)


def test_capture_holds_when_the_line_and_the_deeper_line_take_the_stones(bench):
    game = go_game(["E5", "B1", "A1"])  # Black's A1 has one liberty left: White's A2 takes it
    assert check(bench, game, 3, "capture", ["A1"], ["A2"], deep(), deep(best="A2"))
    assert not check(bench, game, 3, "capture", ["A1"], ["A2"], deep(), deep(best="J9"))  # the deeper search disagrees
    assert check(bench, game, 3, "capture", ["A1"], ["A2"], deep(), deep(best="J9", black={"A1": -0.9}))  # its map
    assert not check(bench, game, 3, "capture", ["E5"], ["A2"], deep(), deep(best="A2"))  # not the stones taken


def test_atari_holds_when_the_reply_leaves_one_liberty(bench):
    game = go_game(["E5", "D5", "A9", "F5", "A8"])
    assert check(bench, game, 5, "atari", ["E5"], ["E6"], deep(), deep(best="E6"))
    assert not check(bench, game, 5, "atari", ["E5"], ["J1"], deep(), deep(best="J1"))  # a quiet reply
    assert not check(bench, game, 5, "atari", ["E5"], ["E6"], deep(), deep(best="J1"))  # the deeper search plays elsewhere


def test_dead_and_alive_groups_by_the_deeper_maps(bench):
    game = go_game(["C3", "G7", "C4", "G6", "D3", "F7", "J9"])
    group = ["C3", "C4", "D3"]
    assert check(bench, game, 7, "deadGroup", group, [], deep(black=dict.fromkeys(group, 0.9)),
                 deep(black=dict.fromkeys(group, -0.8)))
    assert not check(bench, game, 7, "deadGroup", group, [], deep(black=dict.fromkeys(group, 0.9)),
                     deep(black=dict.fromkeys(group, -0.3)))
    white = ["G7", "G6", "F7"]  # from Black's view (the mover at ply 7): captured before, White's after
    assert check(bench, game, 7, "aliveGroup", white, [], deep(black=dict.fromkeys(white, 0.9)),
                 deep(black=dict.fromkeys(white, -0.9)))
    assert not check(bench, game, 7, "aliveGroup", white, [], deep(black=dict.fromkeys(white, 0.3)),
                     deep(black=dict.fromkeys(white, -0.9)))


def test_territory_needs_half_the_points_claimed(bench):
    game = go_game(["E5", "E3", "J1"])
    area = [f"{col}{row}" for col in "ABC" for row in (7, 8, 9)]  # 9 points
    before = deep(black=dict.fromkeys(area, 0.8))
    assert check(bench, game, 3, "territory", area, [], before, deep(black=dict.fromkeys(area, 0.0)), "About 13 points")
    assert not check(bench, game, 3, "territory", area, [], before, deep(black=dict.fromkeys(area, 0.4)), "About 13 points")


def test_slow_needs_the_loss_and_a_best_move_far_away(bench):
    game = go_game(["C3", "G7", "A1"])
    assert check(bench, game, 3, "slow", ["E5", "A1"], [], deep(lead=4, best="E5"), deep(lead=-1))
    assert not check(bench, game, 3, "slow", ["E5", "A1"], [], deep(lead=4, best="B2"), deep(lead=-1))  # local
    assert not check(bench, game, 3, "slow", ["E5", "A1"], [], deep(lead=4, best="E5"), deep(lead=2))  # 2 points


def summary(black: dict[str, float] | None, pv: list[str] | None = None, stored: bool = True) -> dict[str, Any]:
    ownership = deep(black=black)["ownership_black"]
    return {"lead_black": 0.0, "best_move": None, "pv": pv or [], "visits": 32, "review_pass": 2, "maps": True,
            "ownership_black": ownership if stored else None, "policy": None}


def test_score_explains_a_stored_move_again_from_its_stored_maps(bench):
    game = go_game(["C3", "G7", "C4", "G6", "D3", "F7", "J9"])
    group = ["C3", "C4", "D3"]
    move = {"ply": 7, "motifs": ["territory"], "claims": [],
            "before": summary(dict.fromkeys(group, 0.9)), "after": summary(dict.fromkeys(group, -0.9), ["D4"])}
    assert bench.reexplain(game, move)
    assert move["motifs"] == ["deadGroup"] and move["line"] == ["D4"]
    assert [c["motif"] for c in move["claims"]] == ["deadGroup"] and set(move["claims"][0]["points"]) == set(group)
    # maps that were not stored: the explanation made at the build stays
    old = {"ply": 7, "motifs": ["territory"], "claims": [],
           "before": summary(None, stored=False), "after": summary(None, stored=False)}
    assert not bench.reexplain(game, old) and old["motifs"] == ["territory"]
