"""Workers: analysis and file jobs run off the GUI thread and report back through signals."""

from __future__ import annotations

import shlex
import threading
from collections.abc import Iterator, Sequence

import pytest
from support import fake_engine_command, found_katago

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit
from reviewer.core.engines.base import EngineCrashed, EngineNotFound
from reviewer.core.formats import load_game
from reviewer.core.games import game_support
from reviewer.core.gametree import Game
from reviewer.core.review import EngineOnDemand
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.engines.workers import (
    AnalysisJob,
    AnalysisRunner,
    AssessmentRunner,
    analyse_with_review,
    cached_evaluations,
)


def deliver_posted_signals() -> None:
    """Deliver every signal already queued for the GUI thread (instead of waiting a while for them)."""
    from PySide6.QtCore import QCoreApplication

    QCoreApplication.sendPostedEvents()
    QCoreApplication.processEvents()


class ScriptedEngine:
    """An in-process engine: answers each position with a fixed score, optionally slowly."""

    kind = "chess"
    identity = "scripted 1"

    def __init__(self, wait_for_stop: bool = False, crash_at: int | None = None) -> None:
        self.wait_for_stop = wait_for_stop
        self.crash_at = crash_at
        self.closed = threading.Event()
        self.threads: set[str] = set()

    def analyse(self, game: Game, plies: Sequence[int], limit: Limit, stop: threading.Event) -> Iterator[Evaluation]:
        for ply in plies:
            self.threads.add(threading.current_thread().name)
            if self.crash_at is not None and ply == self.crash_at:
                raise EngineCrashed(f"scripted engine died at ply {ply}")
            if self.wait_for_stop and ply > 0:
                stop.wait(10)
            if stop.is_set():
                return
            yield Evaluation(ply=ply, kind="chess", engine_id=self.identity, score_cp_first=10 * ply)

    def close(self) -> None:
        self.closed.set()


def direct_analyse(game, engine, limit, stop, plies, on_progress, on_pass=None) -> Iterator[Evaluation]:
    yield from engine.open().analyse(game, plies, limit, stop)


@pytest.fixture
def game(corpus_dir) -> Game:
    return load_game(corpus_dir / "pgn" / "chesslib__promoting.pgn")


def job_for(game: Game, plies: Sequence[int] | None = None, command: str | None = None) -> AnalysisJob:
    return AnalysisJob(
        game=game,
        engine=EngineChoice(kind="chess", command=command),
        limit=Limit(nodes=1000),
        plies=tuple(plies if plies is not None else range(game.ply_count + 1)),
    )


def test_evaluations_reach_the_gui_thread_in_order_and_the_engine_closes(qtbot, game) -> None:
    engine = ScriptedEngine()
    runner = AnalysisRunner(open_engine=lambda _choice: engine, analyse=direct_analyse)
    received: list[tuple[int, str]] = []
    runner.evaluation_ready.connect(lambda ev: received.append((ev.ply, threading.current_thread().name)))
    progress = []
    runner.progress_changed.connect(progress.append)
    with qtbot.waitSignal(runner.finished, timeout=5000) as finished:
        runner.start(job_for(game, range(6)))
    assert finished.args == [True]
    assert [ply for ply, _ in received] == [0, 1, 2, 3, 4, 5]
    assert {name for _, name in received} == {threading.main_thread().name}
    assert engine.threads and threading.main_thread().name not in engine.threads
    assert engine.closed.is_set()
    assert (progress[-1].done, progress[-1].total) == (6, 6)
    assert not runner.is_running()


def test_stop_returns_at_once_and_the_engine_is_closed(qtbot, game) -> None:
    engine = ScriptedEngine(wait_for_stop=True)
    runner = AnalysisRunner(open_engine=lambda _choice: engine, analyse=direct_analyse)
    received: list[int] = []
    runner.evaluation_ready.connect(lambda ev: received.append(ev.ply))
    with qtbot.waitSignal(runner.evaluation_ready, timeout=5000):
        runner.start(job_for(game, range(5)))
    with qtbot.waitSignal(runner.finished, timeout=20_000) as finished:
        runner.stop()
    assert finished.args == [False]
    assert runner.shutdown(timeout_s=20.0)
    assert engine.closed.is_set()
    deliver_posted_signals()  # anything the stopped analysis still sent arrives now
    assert received == [0]


def test_a_missing_engine_is_reported_in_one_line(qtbot, game) -> None:
    def refuse(choice: EngineChoice):
        raise EngineNotFound(f"engine {choice.command!r} not found")

    runner = AnalysisRunner(open_engine=refuse, analyse=direct_analyse)
    events: list[tuple[str, object]] = []
    runner.failed.connect(lambda message: events.append(("failed", message)))
    runner.finished.connect(lambda completed: events.append(("finished", completed)))
    with qtbot.waitSignal(runner.finished, timeout=5000):
        runner.start(job_for(game, command="no-such-engine"))
    assert events == [("failed", "engine 'no-such-engine' not found"), ("finished", False)]


def test_an_engine_crash_keeps_what_was_done(qtbot, game) -> None:
    engine = ScriptedEngine(crash_at=3)
    runner = AnalysisRunner(open_engine=lambda _choice: engine, analyse=direct_analyse)
    received: list[int] = []
    messages: list[str] = []
    runner.evaluation_ready.connect(lambda ev: received.append(ev.ply))
    runner.failed.connect(messages.append)
    with qtbot.waitSignal(runner.finished, timeout=5000) as finished:
        runner.start(job_for(game, range(6)))
    assert finished.args == [False]
    assert received == [0, 1, 2]
    assert messages == ["scripted engine died at ply 3"]
    assert engine.closed.is_set()


def test_a_new_job_drops_the_late_results_of_the_old_one(qtbot, game) -> None:
    slow = ScriptedEngine(wait_for_stop=True)
    fast = ScriptedEngine()
    engines = iter([slow, fast])
    runner = AnalysisRunner(open_engine=lambda _choice: next(engines), analyse=direct_analyse)
    received: list[str] = []
    runner.evaluation_ready.connect(lambda ev: received.append(ev.engine_id))
    with qtbot.waitSignal(runner.evaluation_ready, timeout=5000):
        runner.start(job_for(game, range(3)))
    received.clear()
    with qtbot.waitSignal(runner.finished, timeout=5000, check_params_cb=lambda done: done):
        runner.start(job_for(game, range(3)))
    assert received == ["scripted 1"] * 3
    assert slow.closed.wait(60)


def run_to_the_end(qtbot, runner: AnalysisRunner, job: AnalysisJob) -> tuple[bool, list[Evaluation]]:
    """Run `job`; whether it completed, and the evaluations it gave in the order they came."""
    received: list[Evaluation] = []
    runner.evaluation_ready.connect(received.append)
    try:
        with qtbot.waitSignal(runner.finished, timeout=20000) as finished:
            runner.start(job)
    finally:
        runner.evaluation_ready.disconnect(received.append)
    return finished.args == [True], received


def test_fake_uci_engine_through_the_review_loop_and_the_cache(qtbot, game, tmp_path) -> None:
    log = tmp_path / "searches.log"
    command = shlex.join(fake_engine_command("fake_uci.py", "--log", str(log)))
    runner = AnalysisRunner()  # the registry and the user's cache, as the app uses them
    plies = tuple(range(min(8, game.ply_count + 1)))
    completed, received = run_to_the_end(qtbot, runner, job_for(game, plies, command=command))
    assert completed
    assert sorted(ev.ply for ev in received) == list(plies)
    assert all(ev.best_move for ev in received if ev.terminal is None)
    searched = log.read_text().splitlines()
    # Resuming is starting again: every position now comes from the cache.
    _completed, received = run_to_the_end(qtbot, runner, job_for(game, plies, command=command))
    assert sorted(ev.ply for ev in received) == list(plies)
    assert log.read_text().splitlines() == searched


def test_a_game_analysed_before_is_answered_without_starting_the_engine(qtbot, game, tmp_path) -> None:
    started_log = tmp_path / "started.log"
    # One argument, so the log the engine writes is no file named in its command: the engine
    # keeps its fingerprint from one run to the next.
    command = shlex.join(fake_engine_command("fake_uci.py", f"--started-log={started_log}"))
    runner = AnalysisRunner()
    job = job_for(game, tuple(range(min(8, game.ply_count + 1))), command=command)
    completed, first = run_to_the_end(qtbot, runner, job)
    assert completed
    assert started_log.read_text().splitlines() == ["started"]
    completed, again = run_to_the_end(qtbot, runner, job)
    assert completed
    assert sorted(ev.ply for ev in again) == list(job.plies)
    assert {ev.ply: ev.score_cp_first for ev in again} == {ev.ply: ev.score_cp_first for ev in first}
    assert started_log.read_text().splitlines() == ["started"]  # not started again
    assert runner.shutdown(3.0)


def test_analyse_with_review_passes_progress(game) -> None:
    engine = ScriptedEngine()
    reports: list[tuple[int, int]] = []
    results = list(
        analyse_with_review(game, EngineOnDemand(lambda: engine), Limit(nodes=1), threading.Event(), [0, 1, 2], lambda d, t, r, e: reports.append((d, t)))
    )
    assert [ev.ply for ev in results] == [0, 1, 2]
    assert reports[-1] == (3, 3)


def test_assessment_runner_scores_the_newest_request_and_skips_the_ones_between(qtbot) -> None:
    started = threading.Event()
    release = threading.Event()
    scored: list[int] = []

    def assess(_game, evaluations, _preset):
        if not scored:
            started.set()
            release.wait(5)
        scored.append(len(evaluations))
        return f"assessment of {len(evaluations)}", None

    runner = AssessmentRunner(assess)
    runner.PAUSE_PER_WORK = 0.0
    delivered: list[tuple[int, object]] = []
    runner.ready.connect(lambda generation, assessment, _error: delivered.append((generation, assessment)))
    game = Game(kind="chess")
    tables = [EvaluationTable({ply: Evaluation(ply=ply, kind="chess") for ply in range(n)}) for n in range(1, 6)]
    runner.request(1, game, tables[0], "lichess")
    assert started.wait(5)
    for generation, table in enumerate(tables[1:], start=2):
        runner.request(generation, game, table, "lichess")  # while the first is being scored
    release.set()
    qtbot.waitUntil(lambda: len(delivered) == 2, timeout=5000)
    assert scored == [1, 5]
    assert delivered == [(1, "assessment of 1"), (5, "assessment of 5")]
    assert runner.shutdown(2.0)
    assert not runner.busy()


def test_cached_evaluations_come_from_the_first_identity_the_cache_knows(game, tmp_path) -> None:
    from reviewer.core.cache import AnalysisCache, position_keys

    path = tmp_path / "cache.sqlite"
    limit = Limit(nodes=1000)
    keys = position_keys(game, [0, 1, 2])
    with AnalysisCache(path) as cache:
        for ply in (0, 2):
            cache.put(keys[ply], f"Fish 2 | {limit.describe()}", Evaluation(ply=ply, kind="chess", score_cp_first=ply))
        cache.put(keys[1], f"Fish 2 | {Limit(nodes=5).describe()}", Evaluation(ply=1, kind="chess"))
    found = cached_evaluations(game, ["Fish 1", "Fish 2"], limit, str(path))
    assert found is not None
    identity, evaluations = found
    assert identity == "Fish 2"
    assert [(ev.ply, ev.score_cp_first) for ev in evaluations] == [(0, 0), (2, 2)]
    assert cached_evaluations(game, ["Fish 1"], limit, str(path)) is None
    assert cached_evaluations(game, ["Fish 2"], Limit(depth=3), str(path)) is None


@pytest.mark.parametrize("with_fallback_limit", [True, False])
def test_a_katago_that_does_not_start_leaves_the_game_to_the_built_in_engine_at_its_own_visits(
    qtbot, tmp_path, monkeypatch, with_fallback_limit
) -> None:
    from reviewer.core.formats import game_from_sgf_text
    from reviewer.core.passes import default_go_passes

    found_katago(tmp_path, monkeypatch, "--exit-on-start")  # found by discovery; its analysis engine fails
    monkeypatch.setenv("REVIEWER_CACHE_DIR", str(tmp_path / "cache"))
    game = game_from_sgf_text("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gc];W[cg])")
    job = AnalysisJob(
        game=game,
        engine=EngineChoice(kind="go"),
        limit=default_go_passes().limit(),  # the default with KataGo: 2 visits first, too few playouts
        plies=tuple(range(5)),
        limit_with_builtin=Limit(visits=8) if with_fallback_limit else None,
    )
    runner = AnalysisRunner()
    warnings: list[str] = []
    runner.warned.connect(warnings.append)
    completed, received = run_to_the_end(qtbot, runner, job)
    deliver_posted_signals()
    assert completed and sorted(ev.ply for ev in received) == list(range(5))
    assert all(ev.engine_id.startswith("builtin-go") for ev in received)
    if with_fallback_limit:
        assert all("visits=8" in ev.engine_id and "go-passes" not in ev.engine_id for ev in received)
        assert warnings == ["KataGo does not start: the built-in engine reviews the game at its own visits instead"]
    else:  # a limit the user chose stays as it is
        assert all("go-passes" in ev.engine_id for ev in received)
        assert warnings == []


def test_the_best_cached_analysis_needs_no_engine_and_prefers_the_chosen_budget_when_complete(game, tmp_path) -> None:
    from reviewer.core.cache import AnalysisCache, position_keys
    from reviewer.gui.engines.workers import best_cached_analysis

    path = tmp_path / "cache.sqlite"
    chosen, other = Limit(visits=50), Limit(depth=10)
    plies = list(range(game.ply_count + 1))
    keys = position_keys(game, plies)
    builtin = "builtin-go 1.0 rave seed=0 default-playouts=2000"  # the built-in engine names its options
    with AnalysisCache(path) as cache:
        for ply in plies:  # complete at another budget
            cache.put(keys[ply], f"Fish 2 | {other.describe()}", Evaluation(ply=ply, kind="chess", score_cp_first=ply))
        cache.put(keys[0], f"{builtin} | {chosen.describe()}", Evaluation(ply=0, kind="chess", score_cp_first=0))
    best = best_cached_analysis(game, [], chosen, str(path), also_chosen=game_support("go").is_fallback_identity)
    assert best is not None and best.identity == "Fish 2" and best.complete and not best.chosen  # complete beats partial
    with AnalysisCache(path) as cache:
        for ply in plies[1:]:
            cache.put(keys[ply], f"{builtin} | {chosen.describe()}", Evaluation(ply=ply, kind="chess", score_cp_first=ply))
    best = best_cached_analysis(game, [], chosen, str(path), also_chosen=game_support("go").is_fallback_identity)
    assert best is not None and best.identity == builtin and best.chosen and best.matched_identity and best.complete
