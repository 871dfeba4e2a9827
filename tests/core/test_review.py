"""analyse_game: the cache answers first, the engine the rest; crashes and stops lose nothing."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from reviewer.core.analysis import Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.engines.base import EngineCrashed
from reviewer.core.engines.uci import UciEngine
from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.review import analyse_game, engine_key
from support import REPO_ROOT, fake_engine_command

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
    with fake("--crash-after-total", "10", "--log", str(log)) as engine:
        with pytest.raises(EngineCrashed):
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
    assert evaluations[5].ply == 5 and evaluations[5].score_cp_white == evaluations[1].score_cp_white
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
