"""Reviewer's own search over KataGo's network (`katago_net.search`, `engines.katago_search`) on the
installed network: its visits add up, it stops when asked, its figures are its own, and on positions
whose answer is known (a capture, a corner to kill or to save, a ladder broken or not) it finds the
move at a few visits."""

from __future__ import annotations

import threading

import pytest

from reviewer.core.analysis import Limit
from reviewer.core.engines.install import installed_katago
from reviewer.core.engines.katago_search import KataGoNetworkSearch
from reviewer.core.formats import game_from_sgf_text, load_game

pytestmark = [pytest.mark.engine, pytest.mark.timeout(300)]
GAME = "sgf/katago__sampletest9x9.sgf"


@pytest.fixture(scope="module")
def search():
    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo's network is not installed: run `reviewer engines install`")
    engine = KataGoNetworkSearch(installed.command())
    yield engine
    engine.close()


def test_a_search_of_16_visits_spends_them_on_the_moves_it_reports(search, corpus_dir):
    game = load_game(corpus_dir / GAME, 0)
    (evaluation,) = list(search.analyse(game, [10], Limit(visits=16), threading.Event()))
    assert evaluation.ply == 10
    spent = sum(candidate.visits or 0 for candidate in evaluation.candidates)
    assert spent == 15  # the root's own visit and one per child visit
    assert evaluation.candidates[0].visits == max(c.visits or 0 for c in evaluation.candidates)
    assert evaluation.candidates[0].pv, "the best move has a line"


def test_consecutive_positions_reuse_the_tree_and_give_one_figure_each(search, corpus_dir):
    game = load_game(corpus_dir / GAME, 0)
    evaluations = list(search.analyse(game, [10, 11, 12], Limit(visits=8), threading.Event()))
    assert [e.ply for e in evaluations] == [10, 11, 12]


def test_it_stops_at_once_when_asked(search, corpus_dir):
    game = load_game(corpus_dir / GAME, 0)
    stop = threading.Event()
    stop.set()
    assert list(search.analyse(game, [10, 11], Limit(visits=64), stop)) == []


def test_its_figures_are_keyed_apart_from_katagos(search):
    engine_id = search.engine_id(Limit(visits=16))
    assert engine_id.startswith("Reviewer search ") and not engine_id.startswith("KataGo")


def _problem(diagram: str, to_play: str, komi: float) -> str:
    """SGF text of a 9x9 position set up with AB/AW from `diagram` (X black, O white, top row first)."""
    rows = [row.split() for row in diagram.strip().splitlines()]

    def points(color: str) -> str:
        return "".join(f"[{chr(97 + c)}{chr(97 + r)}]" for r, row in enumerate(rows) for c, v in enumerate(row) if v == color)

    return f"(;GM[1]FF[4]SZ[{len(rows)}]KM[{komi}]RU[Chinese]AB{points('X')}AW{points('O')}PL[{to_play}])"


# White's corner group has a straight three of eye space (A9 B9 C9) and no outside liberty: the
# middle point kills it (Black to play) or makes two eyes (White to play); the rest of the board is
# settled, and the corner decides the game.
CORNER = """
. . . O X . O . .
O O O O X . O . .
X X X X X . O . .
. . . . X . O . .
. . . . X . O . .
. . . . X . O . .
. . . . X . O . .
. . . . X . O . .
. . . . X . O . .
"""
# Black's stone at G5 cuts White's wall and has one liberty, F5: White captures it there (else Black
# connects it out at F5 and White's wall is cut in two).
CUTTING_STONE = """
. . . . X . O . .
. . . . X . O . .
. . . . X . O . .
. . . . X . O . .
. . . . X . X O .
. . . . X . O . .
. . . . X . O . .
. . . . X . O . .
. . . . X . O . .
"""


def _best(search, sgf: str, visits: int):
    (evaluation,) = list(search.analyse(game_from_sgf_text(sgf), [0], Limit(visits=visits), threading.Event()))
    return evaluation


@pytest.mark.parametrize("to_play, winrate_above", [("B", 0.9), ("W", None)])
def test_the_vital_point_of_a_straight_three_kills_or_saves_the_corner(search, to_play, winrate_above):
    evaluation = _best(search, _problem(CORNER, to_play, 7), 16)
    assert evaluation.best_move == "B9"
    if winrate_above is not None:
        assert evaluation.winrate_first > winrate_above  # Black, having killed, wins
    else:
        assert evaluation.winrate_first < 0.1  # White, alive, wins


def test_white_captures_the_cutting_stone_in_atari(search):
    evaluation = _best(search, _problem(CUTTING_STONE, "W", 17), 16)
    assert evaluation.best_move == "F5"
    assert evaluation.pv[0] == "F5"


def test_a_won_position_keeps_its_winrate_when_only_one_move_is_worth_visiting(search):
    # With 4 leaves a batch, virtual loss sent visits to moves of prior 0.001 (F1, A9, C9) that
    # throw the corner away, and the root's winrate fell from 0.99 to 0.63 at 8 visits.
    evaluation = _best(search, _problem(CORNER, "B", 7), 8)
    assert [(c.move, c.visits) for c in evaluation.candidates] == [("B9", 7)]
    assert evaluation.winrate_first > 0.95


# White's stone on D4 has two liberties, D3 and E4 (Black's D5, C4 and E3 around it). Run out at E4,
# it is chased in a ladder up and to the right to the edge, unless a white stone on H8 breaks it.
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
"""
LADDER_BROKEN = """
. . . . . . . . .
. . . . . . . O .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_the_stone_runs_out_where_a_ladder_breaker_waits_and_is_worth_less_where_the_ladder_works(search):
    broken = _best(search, _problem(LADDER_BROKEN, "W", 7), 16)
    working = _best(search, _problem(LADDER, "W", 7), 16)
    assert broken.best_move == "E4"

    def lead_after_running(evaluation) -> float:
        (run,) = [c for c in evaluation.candidates if c.move == "E4"]
        return run.score_lead_first

    # Black's lead after White's E4: the escape saves the stone only where the ladder is broken
    assert lead_after_running(broken) < lead_after_running(working) - 4


# -- positions side by side, live analysis' growing budgets ---------------------------------------


def _figures(evaluations):
    return [(e.ply, e.best_move, e.nodes, e.score_lead_first, tuple((c.move, c.visits) for c in e.candidates))
            for e in evaluations]


def test_positions_searched_side_by_side_give_what_one_worker_gives_in_the_games_order(corpus_dir):
    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo's network is not installed: run `reviewer engines install`")
    game = load_game(corpus_dir / GAME, 0)
    plies = [30, 10, 11, 31, 20]
    alone = KataGoNetworkSearch(installed.command(), workers=1)
    together = KataGoNetworkSearch(installed.command(), workers=2)
    by_one = list(alone.analyse(game, plies, Limit(visits=8), threading.Event()))
    by_two = list(together.analyse(game, plies, Limit(visits=8), threading.Event()))
    assert [e.ply for e in by_two] == [10, 11, 20, 30, 31]
    assert _figures(by_two) == _figures(by_one)


def test_positions_searched_side_by_side_stop_at_once_when_asked(corpus_dir):
    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo's network is not installed: run `reviewer engines install`")
    game = load_game(corpus_dir / GAME, 0)
    engine = KataGoNetworkSearch(installed.command(), workers=2)
    stop = threading.Event()
    results = engine.analyse(game, [5, 15, 25, 35], Limit(visits=400), stop)
    first = next(results)
    stop.set()
    rest = list(results)
    assert first.ply == 5 and len(rest) < 3
    assert not [t for t in threading.enumerate() if t.name.startswith("network-search")]  # the workers are gone


def test_the_same_position_asked_again_with_more_visits_grows_its_tree(search, corpus_dir, monkeypatch):
    """Live analysis asks 8, then 32 visits of the position on show: the second search adds 24."""
    game = load_game(corpus_dir / GAME, 0)
    stop = threading.Event()
    (small,) = list(search.analyse(game, [14], Limit(visits=8, maps=True), stop))
    runner = search._evaluator.network()
    calls = []  # positions the search asked the network for (from its cache or not)
    evaluate = runner.evaluate
    monkeypatch.setattr(runner, "evaluate", lambda *args: calls.append(1) or evaluate(*args))
    (grown,) = list(search.analyse(game, [14], Limit(visits=32, maps=True), stop))
    assert (small.nodes, grown.nodes) == (8, 32)
    assert len(calls) == 24
    calls.clear()
    (other,) = list(search.analyse(game, [15], Limit(visits=8), stop))
    assert other.nodes == 8 and len(calls) == 8  # another position: a tree of its own, its root evaluated too


def test_a_search_says_how_long_its_visits_took_and_a_grown_tree_counts_its_first_visits_time(search, corpus_dir):
    game = load_game(corpus_dir / GAME, 0)
    stop = threading.Event()
    (small,) = list(search.analyse(game, [16], Limit(visits=8), stop))
    (grown,) = list(search.analyse(game, [16], Limit(visits=24), stop))
    assert small.seconds is not None and grown.seconds is not None
    assert 0 < small.seconds < grown.seconds  # the 24 visits' time: the first 8's and the 16 added
