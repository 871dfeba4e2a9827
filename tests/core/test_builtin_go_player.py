"""The built-in engine playing games: when it passes, when it resigns, and the GTP match against GNU Go."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from reviewer.core.engines.builtin_go.player import PASS_MOVE, RESIGN_MOVE, GamePlayer
from reviewer.core.engines.builtin_go.position import position_from_rows

REPO_ROOT = Path(__file__).resolve().parents[2]


def _player_on(rows: list[str], *, komi: float, playouts: int = 600, **options) -> GamePlayer:
    player = GamePlayer(len(rows), komi=komi, playouts=playouts, seed=3, **options)
    player.position = position_from_rows(rows, komi=komi)
    player.moves = 40
    return player


# Black owns the left four columns (28 points), White the right three (21): settled, with room
# left inside Black's corner.
SETTLED = [
    ". . . X O . O",
    ". . . X O O O",
    ". . . X O . O",
    "X X X X O O O",
    ". X . X O . O",
    "X X X X O O O",
    ". X . X O . O",
]


def test_passes_back_when_the_game_is_settled_and_won():
    player = _player_on(SETTLED, komi=0.5)
    assert player.board_margin("black") == 28 - 21 - 0.5
    player.play("white", PASS_MOVE)
    assert player.genmove("black").move == PASS_MOVE


def test_never_passes_first_while_moves_remain():
    player = _player_on(SETTLED, komi=0.5)
    decision = player.genmove("black")
    assert decision.move != PASS_MOVE  # a move inside its own area costs nothing under area rules


def test_does_not_pass_while_a_group_would_die():
    # White passed, but Black's three stones on the right edge are in atari: passing loses them
    rows = [
        ". X . X X O O",
        "X X X X X O .",
        ". X . X X O O",
        "X X X X X X O",
        ". X . X O X O",
        "X X X X O X O",
        ". X . X O . O",
    ]
    player = _player_on(rows, komi=0.5, playouts=1500)
    player.play("white", PASS_MOVE)
    decision = player.genmove("black")
    assert decision.move != PASS_MOVE, decision


def test_resigns_only_when_allowed_and_hopeless():
    # Black has a single stone against White's whole board
    rows = ["O O O O O", "O . O . O", "O O O O O", "O . O . O", "O O O . X"]
    hopeless = _player_on(rows, komi=7.0, playouts=300, resign_below=0.05, resign_after=10)
    assert hopeless.genmove("black").move == RESIGN_MOVE
    stubborn = _player_on(rows, komi=7.0, playouts=300)
    assert stubborn.genmove("black").move != RESIGN_MOVE


def _match_module():
    spec = importlib.util.spec_from_file_location("gnugo_match", REPO_ROOT / "benchmarks" / "gnugo_match.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_match_summary_counts_wins_by_colour_with_an_interval():
    match = _match_module()
    assert match.parse_final_score("B+3.0") == 3.0
    assert match.parse_final_score("W+12.5") == -12.5
    assert match.parse_final_score("0") == 0.0
    def game(ours, winner, counted, gnugo, ended="passes"):
        return {"ours": ours, "winner": winner, "margin_black": counted, "gnugo_margin_black": gnugo,
                "board_margin_black": 9.0 if counted is None else counted, "moves": 60, "seconds": 1, "ended": ended}

    results = [
        game("black", "black", 4.0, 4.0),
        game("white", "black", None, None, "resign"),
        # the played-out board is White's; GNU Go's guess of the dead stones says Black's
        game("white", "white", -2.0, 3.0),
        game("black", "jigo", 0.0, 0.0, "move cap"),
    ]
    lines = match.summarise(results)
    assert lines[0].startswith("built-in engine vs GNU Go: 2.5/4 = 62.5%, 95% Wilson [")
    assert "as Black: 1/2" in lines[1] and "as White: 1/2" in lines[2]
    assert "games won: 2 (mean margin 3.0 points over 2 counted, 0 by resignation)" in lines[3]
    assert "1 by resignation" in lines[4]
    assert "2/3 agree" in lines[5]
    assert "1 game reached the move cap" in lines[6]
    low, high = match.wilson(75, 100)
    assert low == pytest.approx(0.657, abs=0.001) and high == pytest.approx(0.825, abs=0.001)


@pytest.mark.engine
def test_a_short_game_against_real_gnugo_over_gtp():
    if shutil.which("gnugo") is None and not Path("/usr/games/gnugo").exists():
        pytest.skip("GNU Go is not installed (packaging/install-system-deps.sh installs it)")
    match = _match_module()
    result = match.play_game((1, 60, 5, 10, 8, 0.0))  # game 1: the built-in engine is White
    assert result["ours"] == "white"
    moves = result["record"].split()
    assert len(moves) == result["moves"] == 8
    assert result["ended"] == "move cap"
    # every move is a board point or a pass, and none repeats an occupied point in 8 opening moves
    points = [m for m in moves if m != PASS_MOVE]
    assert len(points) == len(set(points))
    assert result["gnugo_margin_black"] is not None and result["winner"] in {"black", "white", "jigo"}
