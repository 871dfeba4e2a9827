"""The real KataGo (installed by `reviewer engines install`) on a tiny 9x9 query."""

from __future__ import annotations

import threading
import time

import pytest

from reviewer.core.analysis import Limit
from reviewer.core.engines.install import installed_katago
from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.formats import load_game
from reviewer.core.games.go import position_after
from reviewer.core.gametree import point_from_gtp

pytestmark = [pytest.mark.engine, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def katago():
    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo is not installed: run `reviewer engines install`")
    if installed.tuning_status == "needs-tuning":
        pytest.skip("KataGo has no OpenCL tuning for this machine: its first start would take very long")
    engine = KataGoEngine(installed.command(), start_timeout_s=120)
    yield engine
    engine.close()


def test_real_katago_analyses_a_few_turns_of_a_9x9_game(katago, corpus_dir):
    game = load_game(corpus_dir / "sgf" / "sabaki__endgame-9.sgf")
    started = time.monotonic()
    results = {e.ply: e for e in katago.analyse(game, [0, 1, 2], Limit(visits=2), threading.Event())}
    print(f"KataGo: 3 positions x 2 visits in {time.monotonic() - started:.1f} s")
    assert sorted(results) == [0, 1, 2]
    assert katago.identity.startswith("KataGo 1.")
    for ply, evaluation in results.items():
        assert evaluation.side_to_move == ("black" if ply % 2 == 0 else "white")
        assert 0.0 <= evaluation.winrate_first <= 1.0 and abs(evaluation.score_lead_first) < 81
        assert evaluation.nodes >= 2 and evaluation.candidates and evaluation.candidates[0].order == 0
        assert evaluation.best_move == evaluation.candidates[0].move
        point_from_gtp(evaluation.best_move, 9)  # a move on this board (or pass)
        assert all(c.prior is not None and 0 <= c.prior <= 1 for c in evaluation.candidates)
    # In this endgame Black is clearly ahead (komi 0.5), whoever is to move.
    assert all(e.score_lead_first > 0 and e.winrate_first > 0.5 for e in results.values())


def test_real_katago_side_to_move_reports_are_turned_to_black(katago, corpus_dir):
    game = load_game(corpus_dir / "sgf" / "sabaki__endgame-9.sgf")
    katago.forced_report_as = katago.report_as = "SIDETOMOVE"
    try:
        # 3 visits: KataGo's process searches (1 and 2 are answered in-process, from Black's view)
        white_to_move = next(iter(katago.analyse(game, [1], Limit(visits=3), threading.Event())))
    finally:
        katago.forced_report_as = katago.report_as = "BLACK"
    assert white_to_move.side_to_move == "white"
    assert white_to_move.score_lead_first > 0 and white_to_move.winrate_first > 0.5


@pytest.mark.parametrize("visits", [2, 3], ids=["in-process", "katago-process"])
def test_real_katago_gives_ownership_and_policy_maps_when_asked(katago, corpus_dir, visits):
    game = load_game(corpus_dir / "sgf" / "sabaki__endgame-9.sgf")
    ply = game.ply_count
    (evaluation,) = katago.analyse(game, [ply], Limit(visits=visits, maps=True), threading.Event())
    ownership, policy = evaluation.ownership_first, evaluation.policy
    assert ownership is not None and policy is not None
    assert len(ownership) == len(policy) == game.board_width * game.board_height
    assert all(-1.0 <= v <= 1.0 for v in ownership) and all(0.0 <= p <= 1.0 for p in policy)
    # In an endgame most stones are their owners' points (a few may be dead), and none can be played on:
    # the same map upside down or from White's side would disagree with most of them.
    position = position_after(game, game.node_at_ply(ply))
    stones = [(point, "black") for point in position.black] + [(point, "white") for point in position.white]
    agreeing = sum((ownership[row * game.board_width + col] > 0) == (color == "black") for (row, col), color in stones)
    assert len(stones) > 20 and agreeing >= 0.8 * len(stones)
    assert all(policy[row * game.board_width + col] == 0.0 for (row, col), _ in stones)
