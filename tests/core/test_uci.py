"""UciEngine against the fake UCI engine (and, marked `engine`, real Stockfish at tiny limits)."""

from __future__ import annotations

import re
import shutil
import threading
from pathlib import Path

import chess
import pytest
from support import REPO_ROOT, fake_engine_command

from reviewer.core.analysis import Limit
from reviewer.core.engines.base import Engine, EngineCrashed, EngineNotFound, EngineTimeout
from reviewer.core.engines.uci import UciEngine, default_arrangement, parse_info_line
from reviewer.core.formats.pgn import game_from_pgn_text

OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
STOCKFISH = "/usr/games/stockfish"


def opera_game():
    return game_from_pgn_text(OPERA.read_text())


def fake(*args: str, **kwargs) -> UciEngine:
    kwargs.setdefault("processes", 2)
    return UciEngine(fake_engine_command("fake_uci.py", *args), **kwargs)


def logged_fens(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_every_position_is_searched_once_and_scores_are_whites_view(tmp_path):
    game = opera_game()
    log = tmp_path / "searches.log"
    plies = list(range(game.ply_count + 1))
    with fake("--log", str(log)) as engine:
        assert isinstance(engine, Engine)
        evaluations = {e.ply: e for e in engine.analyse(game, plies, Limit(nodes=1000), threading.Event())}
    assert sorted(evaluations) == plies
    # The final position is mate: answered without a search, so one search per other position.
    assert len(logged_fens(log)) == game.ply_count
    assert len(set(logged_fens(log))) == game.ply_count
    final = evaluations[game.ply_count]
    assert final.terminal == "checkmate" and final.side_to_move == "black" and final.best_move is None
    # Material is level at the start: only the fake's small offset remains.
    start = evaluations[0]
    assert start.side_to_move == "white" and start.score_cp_first is not None
    assert abs(start.score_cp_first) <= 20
    # After 16...Nxb8 White mates at once (17. Rd8#): a mate for White, whoever reports it.
    assert evaluations[32].mate_first == 1 and evaluations[32].best_move == "Rd8#"
    assert evaluations[32].score_cp_first is None
    assert evaluations[0].engine_id == "FakeFish 1.0 | nodes=1000,multipv=1"


def test_score_signs_follow_the_side_to_move():
    board_game = game_from_pgn_text('[FEN "4k3/8/8/8/8/8/8/QQQQK3 b - - 0 1"]\n\n1... Kf7 *')
    with fake(processes=1) as engine:
        evaluations = {e.ply: e for e in engine.analyse(board_game, [0, 1], Limit(nodes=10), threading.Event())}
    # White is four queens up in both positions, whoever is to move.
    assert evaluations[0].side_to_move == "black"
    assert evaluations[0].score_cp_first > 3000
    assert evaluations[1].side_to_move == "white"
    assert evaluations[1].score_cp_first > 3000
    assert evaluations[0].wdl_first is not None and evaluations[0].wdl_first[0] > evaluations[0].wdl_first[2]


def test_best_move_pv_and_candidates_are_san():
    game = game_from_pgn_text("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 *")
    with fake(processes=1) as engine:
        (evaluation,) = engine.analyse(game, [6], Limit(nodes=10, multipv=3), threading.Event())
    assert evaluation.best_move == "Qxf7#"
    assert evaluation.mate_first == 1 and evaluation.score_cp_first is None
    assert evaluation.pv == ("Qxf7#",)
    assert [c.order for c in evaluation.candidates] == [0, 1, 2]
    assert evaluation.candidates[0].move == "Qxf7#"
    assert all(c.move and c.move[0] in "KQRBNabcdefgh" for c in evaluation.candidates)
    assert evaluation.candidates[1].score_cp_first is not None
    assert len(evaluation.candidates[1].pv) == 2


def test_stalemate_and_dead_draw_are_not_searched(tmp_path):
    log = tmp_path / "log"
    stalemate = game_from_pgn_text('[FEN "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"]\n\n1. Kh6 *')
    with fake("--log", str(log), processes=1) as engine:
        evaluations = {e.ply: e for e in engine.analyse(stalemate, [0, 1], Limit(nodes=10), threading.Event())}
    assert evaluations[1].terminal == "stalemate" and evaluations[1].score_cp_first == 0
    assert evaluations[0].terminal is None
    assert len(logged_fens(log)) == 1


def test_without_wdl_support_there_is_no_wdl():
    game = opera_game()
    with fake("--no-wdl", processes=1) as engine:
        (evaluation,) = engine.analyse(game, [3], Limit(nodes=10), threading.Event())
        assert not engine.supports_wdl
    assert evaluation.wdl_first is None and evaluation.score_cp_first is not None


def test_garbage_lines_are_tolerated():
    game = opera_game()
    with fake("--garbage") as engine:
        evaluations = list(engine.analyse(game, range(10), Limit(nodes=10), threading.Event()))
    assert sorted(e.ply for e in evaluations) == list(range(10))
    assert all(e.score_cp_first is not None or e.mate_first is not None for e in evaluations)


def test_a_dead_process_is_restarted_and_its_position_asked_again(tmp_path):
    game = opera_game()
    log = tmp_path / "log"
    with fake("--crash-after", "5", "--log", str(log)) as engine:
        evaluations = list(engine.analyse(game, range(game.ply_count + 1), Limit(nodes=10), threading.Event()))
    assert sorted(e.ply for e in evaluations) == list(range(game.ply_count + 1))
    assert len(logged_fens(log)) == game.ply_count  # nothing searched twice to the end


def test_an_engine_that_keeps_dying_raises_after_yielding_what_it_finished(tmp_path):
    game = opera_game()
    log = tmp_path / "log"
    seen = []
    with fake("--crash-after-total", "8", "--log", str(log)) as engine, pytest.raises(EngineCrashed, match="crashed twice"):
        for evaluation in engine.analyse(game, range(game.ply_count + 1), Limit(nodes=10), threading.Event()):
            seen.append(evaluation.ply)
    # Every finished search reached the caller, plus the final mate, which needs none.
    assert len(logged_fens(log)) == 8
    assert sorted(seen) == sorted({*seen}) and len(seen) == 8 + 1 and game.ply_count in seen


def test_a_silent_engine_times_out(tmp_path):
    game = opera_game()
    with fake("--hang-after", "2", processes=1, timeout_s=1.0) as engine, pytest.raises(EngineTimeout, match="stopped answering"):
        list(engine.analyse(game, range(6), Limit(nodes=10), threading.Event()))


def test_stop_ends_the_searches_under_way_and_drops_them(tmp_path):
    # One search answers; every other one runs until it is told `stop`: only `stop` can end it.
    game = opera_game()
    log, release = tmp_path / "searches.log", tmp_path / "release"
    stop = threading.Event()
    seen = []
    plies = range(game.ply_count)  # the final position (mate) needs no search
    with fake("--log", str(log), "--wait-for-stop-after-total", "1", "--release", str(release)) as engine:
        for evaluation in engine.analyse(game, plies, Limit(nodes=10), stop):
            seen.append(evaluation)
            stop.set()
        release.write_text("searches answer at once from now on")
        # The pool is usable again right away.
        again = list(engine.analyse(game, [5], Limit(nodes=10), threading.Event()))
    assert len(seen) == 1  # the searches cut short are never reported
    assert len(logged_fens(log)) >= 2  # another search was under way and was stopped
    assert [e.ply for e in again] == [5]


def test_stop_with_an_engine_that_ignores_it_still_returns():
    # Whenever `stop` comes (even before the search starts), nothing is reported and the call
    # returns: a process that ignores `stop` is killed.
    game = opera_game()
    stop = threading.Event()
    timer = threading.Timer(0.5, stop.set)
    timer.start()
    try:
        with fake("--hang-after", "0", processes=1, timeout_s=30) as engine:
            assert list(engine.analyse(game, [1, 2], Limit(nodes=10), stop)) == []
    finally:
        timer.cancel()


def test_missing_binary_is_engine_not_found(tmp_path):
    with pytest.raises(EngineNotFound, match="not found"):
        UciEngine([str(tmp_path / "no-such-engine")])


def test_engine_dying_at_start_is_reported():
    with pytest.raises(EngineCrashed):
        fake("--exit-on-start", processes=1)


@pytest.mark.parametrize("command", ["uci", "isready"])
def test_an_engine_killed_during_its_handshake_is_started_again(tmp_path, command):
    started = tmp_path / "started.log"
    marker = tmp_path / "killed"
    game = opera_game()
    with fake("--killed-on", command, "--killed-marker", str(marker), "--started-log", str(started),
              processes=1) as engine:
        assert engine.name == "FakeFish 1.0"
        evaluations = list(engine.analyse(game, [0, 1, 2], Limit(nodes=10), threading.Event()))
    assert sorted(e.ply for e in evaluations) == [0, 1, 2]
    assert marker.exists() and started.read_text().splitlines() == ["started", "started"]


@pytest.mark.parametrize("command", ["uci", "isready"])
def test_an_engine_killed_in_every_handshake_fails_clearly_after_one_restart(tmp_path, command):
    started = tmp_path / "started.log"
    with pytest.raises(EngineCrashed, match=r"died .*(handshake|isready).*\(twice\)"):
        fake("--killed-on", command, "--started-log", str(started), processes=1)
    assert started.read_text().splitlines() == ["started", "started"]


def test_an_engine_restarted_after_a_crash_and_killed_in_that_handshake_gets_one_more_start(tmp_path):
    # The first process dies on its first search; its replacement is killed answering `uci` once.
    started, log = tmp_path / "started.log", tmp_path / "searches.log"
    marker = tmp_path / "killed"
    marker.write_text("the first process lives")
    game = opera_game()
    with fake("--crash-after-total", "0", "--log", str(log), "--killed-on", "uci", "--killed-marker", str(marker),
              "--started-log", str(started), processes=1) as engine:
        marker.unlink()
        with pytest.raises(EngineCrashed, match="crashed twice"):
            list(engine.analyse(game, [1], Limit(nodes=10), threading.Event()))
    # 1 (first) + 2 (restart: killed in its handshake, then started again) + 0: the second crash ends it
    assert started.read_text().splitlines() == ["started"] * 3


def test_identity_has_name_and_options_that_change_results():
    with fake(processes=1, options={"Hash": 32}) as engine:
        assert engine.identity == "FakeFish 1.0"
    with fake("--name", "Other 2", processes=1) as engine:
        assert engine.identity == "Other 2"
        assert engine.engine_id(Limit(depth=3, multipv=2)) == "Other 2 | depth=3,multipv=2"


def test_a_limit_is_required():
    with fake(processes=1) as engine, pytest.raises(ValueError, match="limit"):
        list(engine.analyse(opera_game(), [0], Limit(), threading.Event()))


@pytest.mark.engine
@pytest.mark.skipif(shutil.which(STOCKFISH) is None, reason="Stockfish is not installed")
def test_stockfish_on_the_opera_game():
    game = opera_game()
    with UciEngine([STOCKFISH], processes=2) as engine:
        assert engine.identity.startswith("Stockfish")
        assert engine.supports_wdl
        evaluations = {e.ply: e for e in engine.analyse(game, range(game.ply_count + 1), Limit(nodes=2000), threading.Event())}
    assert sorted(evaluations) == list(range(game.ply_count + 1))
    assert evaluations[33].terminal == "checkmate"
    assert evaluations[32].mate_first == 1 and evaluations[32].best_move == "Rd8#"
    assert abs(evaluations[0].score_cp_first) < 100
    assert evaluations[0].wdl_first is not None and sum(evaluations[0].wdl_first) == 1000
    board = chess.Board()
    assert board.parse_san(evaluations[0].best_move) in board.legal_moves


def test_info_lines_are_turned_to_whites_view():
    line = "info depth 12 seldepth 18 multipv 1 score cp 35 lowerbound wdl 120 800 80 nodes 5000 nps 1 time 3 pv e2e4 e7e5"
    white = parse_info_line(line, white_to_move=True)
    black = parse_info_line(line, white_to_move=False)
    assert (white.score_cp_first, white.wdl_first, white.depth, white.nodes) == (35, (120, 800, 80), 12, 5000)
    assert (black.score_cp_first, black.wdl_first) == (-35, (80, 800, 120))
    assert white.pv == ("e2e4", "e7e5")
    mated = parse_info_line("info depth 5 score mate -3 pv g1h1", white_to_move=False)
    assert mated.mate_first == 3 and mated.score_cp_first is None


@pytest.mark.parametrize(
    "line",
    ["info score cp banana pv e2e4", "info depth 3 pv e2e4", "info score wdl 1 2", "info string score cp 3 pv e2e4",
     "info score mate 0 pv e2e4", "info score"],
)
def test_unusable_info_lines_give_nothing(line):
    assert parse_info_line(line, white_to_move=True) is None


def test_a_program_that_never_speaks_uci_times_out_at_start():
    with pytest.raises(EngineTimeout, match="UCI"):
        UciEngine(["/bin/cat"], processes=1, start_timeout_s=0.5)


def test_default_arrangement_of_processes_and_threads():
    assert default_arrangement(1) == (1, 1)
    assert default_arrangement(2) == (1, 2)  # measured fastest on 2 cores
    assert default_arrangement(8) == (2, 4)
    assert default_arrangement(64) == (8, 4)


def test_chess960_without_uci_chess960_is_refused_before_any_search(tmp_path):
    from reviewer.core.engines.base import EngineUnsuitable

    game = game_from_pgn_text((REPO_ROOT / "tests" / "data" / "chess960_castling.pgn").read_text())
    assert game.chess960
    log = tmp_path / "searches.log"
    with fake("--log", str(log), processes=1) as engine, pytest.raises(EngineUnsuitable, match=r"FakeFish 1.0 does not play Chess960 \(no UCI_Chess960 option\)"):
        list(engine.analyse(game, range(game.ply_count + 1), Limit(depth=2), threading.Event()))
    assert logged_fens(log) == []
    with fake("--log", str(log), "--chess960", processes=1) as engine:
        evaluations = list(engine.analyse(game, range(game.ply_count + 1), Limit(depth=2), threading.Event()))
    assert len(evaluations) == game.ply_count + 1
    castled = next(e for e in evaluations if e.ply == game.ply_count - 1)  # Black to castle next
    assert castled.best_move is not None


# The event loop is torn down at exit; asyncio reports what it finds left over on stderr. Run in a
# child process, which prints nothing else, with the cases that used to leave something behind:
# several processes dying at start (one failure left the other starts pending), and a hung search
# given up (its process killed while python-chess still waited on it).
_TEARDOWN_SCRIPT = """
import sys, threading
from reviewer.core.analysis import Limit
from reviewer.core.engines.base import EngineError
from reviewer.core.engines.uci import UciEngine
from reviewer.core.formats.pgn import game_from_pgn_text

fake = [sys.executable, sys.argv[1]]
try:
    UciEngine(fake + ["--exit-on-start"], processes=3)
except EngineError:
    pass
game = game_from_pgn_text("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *")
engine = UciEngine(fake + ["--hang-after", "1"], processes=2, timeout_s=1.0)
try:
    list(engine.analyse(game, range(7), Limit(depth=2), threading.Event()))
except EngineError:
    pass
engine.close()

# Closed while an analysis runs in another thread: the searches are stopped, the analysis ends
# with an EngineError, and no task is left pending when the loop closes.
log, release = sys.argv[2], sys.argv[3]
waiting = fake + ["--log", log, "--wait-for-stop-after-total", "1", "--release", release]
engine = UciEngine(waiting, processes=2)
first = threading.Event()
outcome = []

def consume():
    try:
        for _ in engine.analyse(game, range(7), Limit(depth=2), threading.Event()):
            first.set()
    except EngineError as error:
        outcome.append(type(error).__name__)
    first.set()

consumer = threading.Thread(target=consume)
consumer.start()
first.wait()
engine.close()
consumer.join()
assert outcome == ["EngineError"], outcome

# An analysis abandoned after its first result, then the engine closed.
open(log, "w").close()
engine = UciEngine(waiting, processes=2)
results = engine.analyse(game, range(7), Limit(depth=2), threading.Event())
next(results)
engine.close()
del results
print("done")
"""


def test_failures_leave_nothing_for_asyncio_to_complain_about(tmp_path):
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-X", "dev", "-c", _TEARDOWN_SCRIPT, str(REPO_ROOT / "tests" / "fakes" / "fake_uci.py"),
         str(tmp_path / "searches.log"), str(tmp_path / "release")],
        capture_output=True, text=True, timeout=120, cwd=REPO_ROOT, env={**os.environ, "PYTHONASYNCIODEBUG": "1"},
    )
    assert done.stdout.strip() == "done", done.stderr
    # Debug mode also notes each callback slower than 0.1 s: a loaded machine's timing, not a leak.
    complaints = [line for line in done.stderr.splitlines() if not _SLOW_CALLBACK.fullmatch(line)]
    assert complaints == [], done.stderr


_SLOW_CALLBACK = re.compile(r"Executing <.*> took \d+\.\d+ seconds")
