"""Reviewer's own search over KataGo's network (`katago_net.search`, `engines.katago_search`) on the
installed network: its visits add up, it stops when asked, and its figures are its own."""

from __future__ import annotations

import threading

import pytest

from reviewer.core.analysis import Limit
from reviewer.core.engines.install import installed_katago
from reviewer.core.engines.katago_search import KataGoNetworkSearch
from reviewer.core.formats import load_game

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
