"""analyse_game: the cache answers first, the engine the rest; crashes and stops lose nothing."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from support import REPO_ROOT, fake_engine_command

from reviewer.core.analysis import Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.engines.base import EngineCrashed
from reviewer.core.engines.uci import UciEngine
from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.review import analyse_game, engine_key

OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
LIMIT = Limit(nodes=1000)


def opera_game():
    return game_from_pgn_text(OPERA.read_text())


def fake(*args: str, processes: int = 2) -> UciEngine:
    return UciEngine(fake_engine_command("fake_uci.py", *args), processes=processes)


def searches(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_a_game_analysed_twice_is_answered_by_the_cache_the_second_time(tmp_path):
    game = opera_game()
    log = tmp_path / "searches.log"
    cache = AnalysisCache()
    with fake("--log", str(log)) as engine:
        first = {e.ply: e for e in analyse_game(game, engine, LIMIT, threading.Event(), cache=cache)}
    assert len(searches(log)) == game.ply_count  # the final mate needs no search
    with fake("--log", str(log)) as engine:
        second = {e.ply: e for e in analyse_game(game, engine, LIMIT, threading.Event(), cache=cache)}
    assert len(searches(log)) == game.ply_count  # not one more search
    assert second == first
    assert sorted(second) == list(range(game.ply_count + 1))


def test_another_limit_is_another_cache_entry(tmp_path):
    game = opera_game()
    log = tmp_path / "log"
    cache = AnalysisCache()
    with fake("--log", str(log)) as engine:
        list(analyse_game(game, engine, LIMIT, cache=cache, plies=[0, 1, 2]))
        list(analyse_game(game, engine, Limit(nodes=2000), cache=cache, plies=[0, 1, 2]))
        assert engine_key(engine, LIMIT) != engine_key(engine, Limit(nodes=2000))
    assert len(searches(log)) == 6


def test_a_crash_keeps_what_was_done_and_a_rerun_finishes_the_rest(tmp_path):
    game = opera_game()
    log = tmp_path / "log"
    cache = AnalysisCache()
    seen = []
    with fake("--crash-after-total", "10", "--log", str(log)) as engine, pytest.raises(EngineCrashed):
        for evaluation in analyse_game(game, engine, LIMIT, threading.Event(), cache=cache):
            seen.append(evaluation.ply)
    assert len(searches(log)) == 10
    assert cache.count() == 11  # ten searched positions and the final mate
    rerun_log = tmp_path / "rerun.log"
    with fake("--log", str(rerun_log)) as engine:
        finished = {e.ply: e for e in analyse_game(game, engine, LIMIT, threading.Event(), cache=cache)}
    assert sorted(finished) == list(range(game.ply_count + 1))
    assert len(searches(rerun_log)) == game.ply_count - 10
    assert not set(searches(rerun_log)) & set(searches(log))


def test_stop_returns_promptly_and_what_finished_is_cached(tmp_path):
    game = opera_game()
    stop = threading.Event()
    cache = AnalysisCache()
    seen = []
    with fake("--search-ms", "300") as engine:
        started = time.monotonic()
        for evaluation in analyse_game(game, engine, LIMIT, stop, cache=cache):
            seen.append(evaluation.ply)
            if len(seen) == 3:
                stop.set()
        elapsed = time.monotonic() - started
    assert elapsed < 3.0
    assert 3 <= len(seen) < game.ply_count
    assert cache.count() == len(seen)


def test_a_repeated_position_is_searched_once_and_reported_at_both_plies(tmp_path):
    game = game_from_pgn_text("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 *")
    log = tmp_path / "log"
    with fake("--log", str(log)) as engine:
        evaluations = {e.ply: e for e in analyse_game(game, engine, LIMIT)}
    assert sorted(evaluations) == [0, 1, 2, 3, 4, 5]
    # Plies 4 and 5 repeat plies 0 and 1: four searches for six positions.
    assert len(searches(log)) == 4
    assert evaluations[5].ply == 5 and evaluations[5].score_cp_first == evaluations[1].score_cp_first
    assert evaluations[4].ply == 4 and evaluations[4].best_move == evaluations[0].best_move


def test_only_the_asked_plies_and_progress_reports(tmp_path):
    game = opera_game()
    reports = []
    with fake() as engine:
        evaluations = list(
            analyse_game(game, engine, LIMIT, plies=[3, 4, 5, 6], on_progress=lambda *r: reports.append(r))
        )
    assert sorted(e.ply for e in evaluations) == [3, 4, 5, 6]
    assert reports[0] == (0, 4, None, None)
    assert [r[0] for r in reports] == [0, 1, 2, 3, 4]
    assert all(r[1] == 4 for r in reports)
    assert reports[-1][2] > 0 and reports[-1][3] == 0


def test_progress_counts_cached_positions_as_done(tmp_path):
    game = opera_game()
    cache = AnalysisCache()
    reports = []
    with fake() as engine:
        list(analyse_game(game, engine, LIMIT, cache=cache, plies=[1, 2]))
        list(analyse_game(game, engine, LIMIT, cache=cache, plies=[1, 2, 3], on_progress=lambda *r: reports.append(r)))
    assert reports[0] == (2, 3, None, None)
    assert reports[-1][:2] == (3, 3)


class CountingFactory:
    """Opens the fake engine on demand and counts how often it was asked to."""

    def __init__(self, *args: str) -> None:
        self.args = args
        self.calls = 0
        self.engines: list[UciEngine] = []

    def __call__(self) -> UciEngine:
        self.calls += 1
        engine = fake(*self.args, processes=1)
        self.engines.append(engine)
        return engine

    def close(self) -> None:
        for engine in self.engines:
            engine.close()


def test_an_engine_factory_is_not_called_when_the_cache_has_every_position(tmp_path):
    game = opera_game()
    cache = AnalysisCache()
    first = CountingFactory()
    try:
        done = list(analyse_game(game, None, LIMIT, cache=cache, engine_factory=first, engine_fingerprint="fp"))
    finally:
        first.close()
    assert first.calls == 1 and len(done) == game.ply_count + 1
    again = CountingFactory()
    rerun = {e.ply: e for e in analyse_game(game, None, LIMIT, cache=cache, engine_factory=again, engine_fingerprint="fp")}
    assert again.calls == 0
    assert rerun == {e.ply: e for e in done}
    assert {e.engine_id for e in rerun.values()} == {"FakeFish 1.0 | nodes=1000,multipv=1"}


def test_an_engine_factory_is_called_once_for_the_missing_positions_only(tmp_path):
    game = opera_game()
    cache = AnalysisCache()
    log = tmp_path / "log"
    factory = CountingFactory("--log", str(log))
    try:
        list(analyse_game(game, None, LIMIT, cache=cache, plies=[0, 1, 2], engine_factory=factory, engine_fingerprint="fp"))
        list(analyse_game(game, None, LIMIT, cache=cache, plies=[0, 1, 2, 3], engine_factory=factory, engine_fingerprint="fp"))
    finally:
        factory.close()
    assert factory.calls == 2
    assert len(searches(log)) == 4


def test_when_the_opened_engine_is_not_the_remembered_one_its_own_results_are_used(tmp_path):
    game = opera_game()
    cache = AnalysisCache()
    old = CountingFactory("--name", "OldFish 1")
    new = CountingFactory("--name", "NewFish 2")
    try:
        list(analyse_game(game, None, LIMIT, cache=cache, plies=[0, 1], engine_factory=old, engine_fingerprint="fp"))
        # position 2 is missing: the engine opened turns out to be another one, so none of the
        # old engine's evaluations may be given for it
        evaluations = list(analyse_game(game, None, LIMIT, cache=cache, plies=[0, 1, 2], engine_factory=new, engine_fingerprint="fp"))
        assert {e.engine_id for e in evaluations} == {"NewFish 2 | nodes=1000,multipv=1"}
        assert sorted(e.ply for e in evaluations) == [0, 1, 2]
        # the fingerprint now stands for the new engine: a third run needs no engine at all
        third = CountingFactory()
        list(analyse_game(game, None, LIMIT, cache=cache, plies=[0, 1, 2], engine_factory=third, engine_fingerprint="fp"))
        assert third.calls == 0
    finally:
        old.close()
        new.close()
    assert cache.engine_identity("fp") == "NewFish 2"


def test_without_a_fingerprint_or_a_cache_the_factory_is_called(tmp_path):
    game = opera_game()
    cache = AnalysisCache()
    with fake() as engine:
        list(analyse_game(game, engine, LIMIT, cache=cache, plies=[0, 1]))
    factory = CountingFactory()
    try:
        assert len(list(analyse_game(game, None, LIMIT, cache=cache, plies=[0, 1], engine_factory=factory))) == 2
        assert len(list(analyse_game(game, None, LIMIT, plies=[0, 1], engine_factory=factory, engine_fingerprint="fp"))) == 2
    finally:
        factory.close()
    assert factory.calls == 2
    with pytest.raises(TypeError):
        list(analyse_game(game, None, LIMIT))


def test_engine_on_demand_opens_once_and_knows_the_identity_from_the_cache(tmp_path):
    from reviewer.core.review import EngineOnDemand

    cache = AnalysisCache()
    factory = CountingFactory()
    on_demand = EngineOnDemand(factory, "fp")
    assert on_demand.identity(cache) is None and factory.calls == 0
    try:
        assert on_demand.open() is on_demand.open()
        assert factory.calls == 1 and on_demand.identity() == "FakeFish 1.0"
    finally:
        on_demand.close()
    cache.remember_engine("fp", "FakeFish 1.0")
    assert EngineOnDemand(factory, "fp").identity(cache) == "FakeFish 1.0"
