"""run_batch: finished games come from the store, carried figures are imported, the rest is reviewed,
each game recorded as it finishes; failures stay with their game; a worker's cache rows reach the driver."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import chess
import pytest
from support import REPO_ROOT, fake_engine_command

from reviewer.core.analysis import Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.formats import open_collection, write_pgn
from reviewer.core.passes import ChessPasses
from reviewer.core.services.batch import (
    BatchSettings,
    BatchStore,
    EngineSettings,
    GameResult,
    LocalExecutor,
    plan_batch,
    run_batch,
)
from reviewer.core.services.batch.task import EnginePool, GameTask, replay_into_cache, review_game, review_game_detached

DATA = REPO_ROOT / "tests" / "data"
CHESS_GAMES = [DATA / "chess_three_games.pgn", DATA / "chess_fools_mate.pgn"]  # 4 games


def chess_settings(*engine_args: str, limit: Limit | None = None) -> BatchSettings:
    command = tuple(fake_engine_command("fake_uci.py", *engine_args))
    return BatchSettings(EngineSettings(command=command), chess_limit=limit or Limit(nodes=1000), go_limit=Limit(visits=10))


def searches(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


class Run:
    """One batch run with a local executor, its store and cache in tmp_path, events kept."""

    def __init__(self, tmp_path: Path) -> None:
        self.store_path = tmp_path / "batch.sqlite"
        self.cache_path = tmp_path / "analysis.sqlite"

    def __call__(self, games, settings, stop=None, on_progress=None, cache=True):
        self.events = []
        with BatchStore(self.store_path) as store, AnalysisCache(self.cache_path) as analysis_cache:
            used_cache = analysis_cache if cache else None
            executor = LocalExecutor(used_cache)
            try:
                return run_batch(games, settings, store, executor, cache=used_cache, stop=stop,
                                 on_progress=on_progress, on_event=self.events.append)
            finally:
                executor.close()


@pytest.fixture
def batch(tmp_path):
    return Run(tmp_path)


def test_every_game_is_reviewed_recorded_and_reported_with_its_source(tmp_path, batch):
    plan = plan_batch(CHESS_GAMES)
    log = tmp_path / "searches.log"
    outcome = batch(plan.games, chess_settings("--log", str(log)))
    assert (outcome.analysed, outcome.imported, outcome.already_done, outcome.failures) == (4, 0, 0, [])
    assert [event.status for event in batch.events] == ["analysed"] * 4
    with BatchStore(batch.store_path) as store:
        assert store.count() == 4
    reports = outcome.reports(plan.games)
    assert [report["source"] for report in reports] == [
        {"path": game.path, "index": game.index, "key": game.key, "imported": False} for game in plan.games
    ]
    assert all(report["complete"] and report["schema"] == "reviewer.report/1" for report in reports)
    assert [report["game"]["white"] for report in reports] == ["A1", "A2", "A3", "Fool"]
    assert reports[0]["engine"]["name"] == "FakeFish 1.0"
    assert len(searches(log)) > 0


def test_a_second_run_reviews_nothing_that_was_finished(tmp_path, batch):
    plan = plan_batch(CHESS_GAMES)
    log = tmp_path / "searches.log"
    first = batch(plan.games, chess_settings("--log", str(log)))
    searched = len(searches(log))
    second = batch(plan.games, chess_settings("--log", str(log)), cache=False)  # not even the cache is asked
    assert second.already_done == 4 and second.analysed == 0 and batch.events == []
    assert len(searches(log)) == searched
    assert second.reports(plan.games) == first.reports(plan.games)


def test_another_limit_is_another_batch(tmp_path, batch):
    plan = plan_batch([DATA / "chess_fools_mate.pgn"])
    batch(plan.games, chess_settings())
    again = batch(plan.games, chess_settings(limit=Limit(nodes=2000)))
    assert again.already_done == 0 and again.analysed == 1


def test_a_game_cut_short_is_not_recorded_and_its_positions_are_kept(tmp_path, batch):
    plan = plan_batch([DATA / "chess_three_games.pgn"])
    fresh_log = tmp_path / "fresh.log"
    Run(tmp_path / "fresh")(plan.games, chess_settings("--log", str(fresh_log)))
    log = tmp_path / "searches.log"
    stop = threading.Event()

    def stop_in_the_second_game(progress):
        if progress.done == 1 and progress.positions and progress.positions[0] >= 2:
            stop.set()

    outcome = batch(plan.games, chess_settings("--log", str(log)), stop=stop, on_progress=stop_in_the_second_game)
    assert outcome.interrupted and outcome.analysed == 1
    assert [report["game"]["white"] for report in outcome.reports(plan.games)] == ["A1"]
    with sqlite3.connect(batch.cache_path) as connection:
        cached = {row[0] for row in connection.execute("SELECT position_key FROM evaluations")}
    searched_first = searches(log)
    finished_first = {fen for fen in searched_first if "chess:" + chess.Board(fen).epd() in cached}
    assert len(finished_first) > 7  # the first game's positions and some of the second's
    rest = batch(plan.games, chess_settings("--log", str(log)))
    assert rest.already_done == 1 and rest.analysed == 2
    searched_again = searches(log)[len(searched_first):]
    assert not finished_first & set(searched_again)  # nothing finished was searched again
    assert finished_first | set(searched_again) == set(searches(fresh_log))  # and nothing was left out
    assert rest.reports(plan.games) == Run(tmp_path / "fresh")(plan.games, chess_settings()).reports(plan.games)


def write_collection(path: Path, source: Path, indices: list[int]) -> Path:
    collection = open_collection(source)
    path.write_text("\n\n".join(write_pgn(collection.game(index)) for index in indices), encoding="utf-8")
    return path


FULL_SBKS = "(;GM[1]FF[4]SZ[9]KM[7]PB[Bai]PW[Wei]SBKV[50]SBKS[0.5];B[ee]SBKV[60]SBKS[2.5];W[cc]SBKV[58]SBKS[2.0];B[gg]SBKV[61]SBKS[3.0])"
SBKV_ONLY = "(;GM[1]FF[4]SZ[9]KM[7]PB[Bai]PW[Wei]SBKV[50];B[ee]SBKV[60];W[cc]SBKV[58];B[gg]SBKV[61])"


def test_figures_the_file_carries_for_every_move_are_imported_without_an_engine(tmp_path, batch, corpus_dir):
    evals = corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn"  # games 8-10: [%eval] after every move
    pgn = write_collection(tmp_path / "evals.pgn", evals, [7, 8, 9])
    (tmp_path / "sabaki.sgf").write_text(FULL_SBKS)
    plan = plan_batch([pgn, tmp_path / "sabaki.sgf"])
    nowhere = EngineSettings(command=(str(tmp_path / "no-such-engine"),))
    settings = BatchSettings(nowhere, chess_limit=Limit(nodes=1000), go_limit=Limit(visits=10))
    outcome = batch(plan.games, settings)
    assert (outcome.imported, outcome.analysed, outcome.failures) == (4, 0, [])
    assert [event.status for event in batch.events] == ["imported"] * 4
    reports = outcome.reports(plan.games)
    assert all(report["source"]["imported"] for report in reports)
    assert reports[0]["engine"]["name"] == "[%eval] comments of the game file"
    assert reports[0]["coverage"]["complete"] and reports[0]["summary"]["white"]["accuracy"] is not None
    assert reports[3]["summary"]["black"]["mean_loss"] is not None


def test_winrates_alone_or_evaluations_with_gaps_are_analysed(tmp_path, batch, corpus_dir):
    (tmp_path / "winrates.sgf").write_text(SBKV_ONLY)
    pgn = write_collection(tmp_path / "gaps.pgn", corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn", [0])
    go = plan_batch([tmp_path / "winrates.sgf"])
    katago = EngineSettings(command=tuple(fake_engine_command("fake_katago.py")))
    outcome = batch(go.games, BatchSettings(katago, chess_limit=Limit(nodes=1000), go_limit=Limit(visits=10)))
    assert outcome.analysed == 1 and "winrates only" in batch.events[0].message
    chess = plan_batch([pgn])
    outcome = batch(chess.games, chess_settings())
    assert outcome.analysed == 1 and "cover 123 of 126 moves" in batch.events[0].message


def test_a_missing_engine_is_told_once_and_the_other_games_of_its_kind_wait(tmp_path, batch):
    plan = plan_batch(CHESS_GAMES)
    nowhere = EngineSettings(command=(str(tmp_path / "no-such-engine"),))
    outcome = batch(plan.games, BatchSettings(nowhere, chess_limit=Limit(nodes=1000), go_limit=Limit(visits=10)))
    assert len(outcome.failures) == 1 and outcome.skipped == 3
    (failure,) = outcome.failures
    assert failure.error_kind == "engine-missing" and "no-such-engine" in failure.message
    assert outcome.engines_missing == {"chess": failure.message}
    assert outcome.finished == {}


def test_a_game_no_engine_plays_fails_alone(batch, corpus_dir):
    plan = plan_batch([corpus_dir / "pgn" / "scalachess_fx__atomicPromotion.pgn", DATA / "chess_fools_mate.pgn"])
    outcome = batch(plan.games, chess_settings())
    assert outcome.analysed == 1 and [event.game.path for event in outcome.failures] == [str(plan.games[0].path)]
    assert outcome.failures[0].error_kind == "bad-game" and "atomic" in outcome.failures[0].message


def test_an_engine_that_crashes_fails_its_game_and_the_batch_goes_on(tmp_path, batch):
    plan = plan_batch([DATA / "chess_three_games.pgn"])
    log = tmp_path / "searches.log"
    outcome = batch(plan.games, chess_settings("--log", str(log), "--crash-after-total", "9"))
    assert outcome.analysed == 1  # the first game's 7 searches fit; every later search crashes
    assert [event.error_kind for event in outcome.failures] == ["engine-failed", "engine-failed"]
    assert not outcome.interrupted


def test_a_detached_review_sends_its_cache_rows_to_the_driver(tmp_path, monkeypatch):
    (game,) = plan_batch([DATA / "chess_fools_mate.pgn"]).games
    passes = ChessPasses(nodes=(500, 2000), engines=1).limit()
    task = GameTask(game.key, game.label, game.kind, game.text_format, game.text, game.plies,
                    EngineSettings(command=tuple(fake_engine_command("fake_uci.py"))), passes)
    detached = review_game_detached(task)
    assert detached.finished and detached.cache_entries and detached.engines_seen
    assert "pid" in detached.worker
    with AnalysisCache(tmp_path / "driver.sqlite") as cache:
        replay_into_cache(cache, detached)

        def no_engine(*args, **kwargs):
            raise AssertionError("the cache should have answered")

        monkeypatch.setattr("reviewer.core.engines.registry.open_engine", no_engine)
        engines = EnginePool()
        local = review_game(task, engines, cache)
        engines.close()
    assert local.finished
    assert local.report == detached.report


class CannedExecutor:
    """Gives each task a canned result after `seconds` of a fake clock."""

    def __init__(self, clock: list[float], seconds: float, results=None) -> None:
        self.clock, self.seconds, self.results = clock, seconds, results or {}
        self.started: list[str] = []

    def run(self, tasks, stop, on_result, wanted, on_positions):
        for task in tasks:
            if not wanted(task):
                continue
            self.started.append(task.key)
            self.clock[0] += self.seconds
            result = self.results.get(task.key) or GameResult(task.key, report={"game": {}}, complete=True)
            on_result(task, result)

    def close(self):
        pass


def test_the_eta_comes_from_the_positions_reviewed_in_this_run(tmp_path):
    plan = plan_batch(CHESS_GAMES)  # 8, 4, 9 and 5 positions
    clock = [100.0]
    progress = []
    with BatchStore(tmp_path / "b.sqlite") as store:
        run_batch(plan.games, chess_settings(), store, CannedExecutor(clock, 26.0), on_progress=progress.append,
                  clock=lambda: clock[0])
    assert [(p.done, p.total) for p in progress] == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4), (4, 4)]
    assert progress[0].eta_s is None
    assert progress[1].eta_s == pytest.approx((4 + 9 + 5) * 26.0 / 8)
    assert progress[2].eta_s == pytest.approx((9 + 5) * 52.0 / 12)
    assert progress[-1].eta_s == 0


class PassesExecutor(CannedExecutor):
    """Each game in two passes: its positions counted from 0 twice, the second pass slower."""

    def run(self, tasks, stop, on_result, wanted, on_positions):
        for task in tasks:
            if not wanted(task):
                continue
            for searched, seconds in ((task.plies + 1, 2.0), (2, 10.0)):
                for done in range(searched + 1):
                    on_positions(task, done, searched)
                    self.clock[0] += seconds / (searched + 1)
            on_result(task, GameResult(task.key, report={"game": {}}, complete=True))


def test_the_eta_is_smooth_across_passes_and_counts_down_between_games(tmp_path):
    plan = plan_batch(CHESS_GAMES)  # 8, 4, 9 and 5 positions
    clock = [100.0]
    progress = []
    with BatchStore(tmp_path / "b.sqlite") as store:
        run_batch(plan.games, chess_settings(), store, PassesExecutor(clock, 0.0), on_progress=progress.append,
                  clock=lambda: clock[0])
    first_done = next(index for index, p in enumerate(progress) if p.done == 1)
    assert all(p.eta_s is None for p in progress[:first_done])  # nothing finished: no guess from a fast first pass
    assert progress[first_done].eta_s == pytest.approx((4 + 9 + 5) * 12.0 / 8)
    during_second = [p.eta_s for p in progress[first_done:] if p.done == 1]
    assert during_second == sorted(during_second, reverse=True)  # counts down, never jumps up within a game
    assert progress[-1].eta_s == 0


def test_the_eta_leaves_out_games_whose_files_carry_figures(tmp_path):
    from dataclasses import replace

    plan = plan_batch(CHESS_GAMES)  # 8, 4, 9 and 5 positions; the second game's figures are imported
    games = [plan.games[0], replace(plan.games[1], carries_evaluations=True), *plan.games[2:]]
    imported = GameResult(games[1].key, report={"game": {}}, imported=True, complete=True)
    clock = [100.0]
    progress = []
    with BatchStore(tmp_path / "b.sqlite") as store:
        run_batch(games, chess_settings(), store, CannedExecutor(clock, 26.0, {games[1].key: imported}),
                  on_progress=progress.append, clock=lambda: clock[0])
    assert progress[1].eta_s == pytest.approx((9 + 5) * 26.0 / 8)


def test_a_lost_worker_fails_its_game_only(tmp_path):
    plan = plan_batch(CHESS_GAMES)
    lost = GameResult(plan.games[1].key, error="the Ray workers reviewing it died 4 times", error_kind="worker-lost")
    clock = [0.0]
    with BatchStore(tmp_path / "b.sqlite") as store:
        executor = CannedExecutor(clock, 1.0, {plan.games[1].key: lost})
        outcome = run_batch(plan.games, chess_settings(), store, executor, clock=lambda: clock[0])
        assert store.count() == 3
    assert len(executor.started) == 4 and len(outcome.finished) == 3
    assert [event.game.key for event in outcome.failures] == [plan.games[1].key]


def test_a_game_whose_figures_cannot_be_imported_is_read_once_for_the_import_and_the_review(tmp_path, batch, corpus_dir, monkeypatch):
    from reviewer.core.services.batch import task as task_module

    pgn = write_collection(tmp_path / "gaps.pgn", corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn", [0])
    plan = plan_batch([pgn])
    reads = []
    real_read = task_module.game_from_pgn_text
    monkeypatch.setattr(task_module, "game_from_pgn_text", lambda text: reads.append(text) or real_read(text))
    outcome = batch(plan.games, chess_settings())
    assert outcome.analysed == 1 and "cover 123 of 126 moves" in batch.events[0].message
    assert len(reads) == 1


def test_figures_a_file_carries_are_imported_after_its_kinds_engine_was_found_missing(tmp_path, batch, corpus_dir):
    pgn = write_collection(tmp_path / "evals.pgn", corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn", [0, 7])
    plan = plan_batch([pgn])  # game 1: evaluations with gaps (needs the engine); game 2: every move
    nowhere = EngineSettings(command=(str(tmp_path / "no-such-engine"),))
    outcome = batch(plan.games, BatchSettings(nowhere, chess_limit=Limit(nodes=1000), go_limit=Limit(visits=10)))
    assert [event.status for event in batch.events] == ["failed", "imported"]
    assert batch.events[0].error_kind == "engine-missing"
    assert (outcome.imported, outcome.analysed, outcome.skipped) == (1, 0, 0)

