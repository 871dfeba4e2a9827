"""Desktop app responsiveness: step latency on a long analysed game, live-analysis stalls, cold start.

step latency  one step (→ / ←) through a 300-ply analysed game: `session.model.step` and every repaint
              it causes (board, move list, graph cursor, comment), measured up to the end of the
              event processing that paints them. Chess and Go (19×19), evaluations synthetic but
              complete (root score, best move, three candidates with lines), so every annotation
              is drawn. Targets: p95 ≤ 8 ms.
live analysis evaluations of a 300-ply game arrive at 50 positions/s while the views refresh
              (throttled) as during an analysis: how late a 2 ms heartbeat timer fires on
              the GUI thread (a stall over 16 ms is a dropped frame), with the scoring on it
              (as before) and off it (the app's way).
first paint   a fresh interpreter that imports the app, opens the window and a 300-ply game:
              seconds from its first line until the imports are done, the window's first paint,
              and the game on screen (not counting the interpreter's own start, ~20 ms).
cold start    a fresh `python -m reviewer gui FILE --screenshot PNG` process, launch to exit:
              the CLI, imports, window, reading the file, first frame, PNG written.
              Target for start: ≤ 1 s. The first run of each series warms the disk cache and is
              not counted.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/gui.py [--steps 600] [--starts 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402

from reviewer.core.analysis import Candidate, Evaluation  # noqa: E402
from reviewer.core.atomic import write_text_atomic  # noqa: E402
from reviewer.core.formats.pgn import write_pgn  # noqa: E402
from reviewer.core.gametree import Game, Node, gtp_from_point  # noqa: E402

PLIES = 300


def random_chess_game(plies: int, seed: int = 1) -> Game:
    """A legal game of exactly `plies` plies (random moves, restarted when a game ends early)."""
    rng = random.Random(seed)
    while True:
        board = chess.Board()
        game = Game(kind="chess", white="Random A", black="Random B", result="*")
        node = game.root
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over(claim_draw=False):
                break
            move = rng.choice(moves)
            color = "white" if board.turn == chess.WHITE else "black"
            san = board.san(move)
            board.push(move)
            node = node.add_child(Node(move=san, color=color, uci=move.uci()))
        if game.ply_count == plies:
            return game


def random_go_game(plies: int, size: int = 19, seed: int = 1) -> Game:
    """Moves on distinct random points (no captures needed for a timing run)."""
    rng = random.Random(seed)
    points = [(row, col) for row in range(size) for col in range(size)]
    rng.shuffle(points)
    game = Game(kind="go", board_width=size, board_height=size, komi=6.5, first_player="black")
    node = game.root
    for index in range(plies):
        color = "black" if index % 2 == 0 else "white"
        point = points[index]
        node = node.add_child(Node(move=gtp_from_point(point, size), color=color, point=point))
    return game


def chess_evaluations(game: Game) -> list[Evaluation]:
    rng = random.Random(2)
    board = chess.Board()
    evaluations = []
    score = 20
    nodes = [game.root, *game.mainline_nodes()]
    for ply, node in enumerate(nodes):
        if ply:
            board.push_uci(node.uci or "")
        legal = list(board.legal_moves)[:3]
        candidates = []
        for order, move in enumerate(legal):
            line = [board.san(move)]
            candidates.append(Candidate(move=line[0], order=order, score_cp_first=score - 30 * order, pv=tuple(line)))
        evaluations.append(
            Evaluation(
                ply=ply,
                kind="chess",
                engine_id="bench",
                score_cp_first=score,
                side_to_move="white" if board.turn == chess.WHITE else "black",
                best_move=candidates[0].move if candidates else None,
                pv=candidates[0].pv if candidates else (),
                candidates=tuple(candidates),
            )
        )
        score = max(-900, min(900, score + rng.randint(-120, 120)))
    return evaluations


def go_evaluations(game: Game) -> list[Evaluation]:
    rng = random.Random(3)
    size = game.board_height
    taken = {node.point for node in game.mainline_nodes()}
    free = [(r, c) for r in range(size) for c in range(size) if (r, c) not in taken]
    lead = 0.5
    evaluations = []
    for ply in range(game.ply_count + 1):
        picks = rng.sample(free, 5)
        candidates = tuple(
            Candidate(
                move=gtp_from_point(point, size),
                order=order,
                visits=400 // (order + 1),
                prior=0.3 / (order + 1),
                score_lead_first=lead - order * 1.5,
                winrate_first=0.5,
                pv=(gtp_from_point(point, size),),
            )
            for order, point in enumerate(picks)
        )
        evaluations.append(
            Evaluation(
                ply=ply,
                kind="go",
                engine_id="bench",
                score_lead_first=lead,
                winrate_first=max(0.01, min(0.99, 0.5 + lead / 40)),
                best_move=candidates[0].move,
                pv=candidates[0].pv,
                candidates=candidates,
            )
        )
        lead = max(-40.0, min(40.0, lead + rng.uniform(-4, 4)))
    return evaluations


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def step_latency(kind: str, steps: int) -> list[float]:
    from reviewer.gui.window.app import create_application
    from reviewer.gui.window.main_window import MainWindow

    app = create_application(dark=False)
    window = MainWindow(discover_engines=False)
    window.resize(1400, 900)
    window.show()
    game = random_chess_game(PLIES) if kind == "chess" else random_go_game(PLIES)
    evaluations = chess_evaluations(game) if kind == "chess" else go_evaluations(game)
    window.session.model.load_game(game, evaluations=evaluations)
    window._on_game_loaded()
    window.session.model.settle_assessment()
    window.analysis_controller.warm_up()
    deadline = time.monotonic() + 10
    while (window.tasks.busy() or window.assessor.busy()) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    for _ in range(5):
        app.processEvents()

    board = window.chess_board if kind == "chess" else window.go_board
    paints = {name: _timed_paints(widget) for name, widget in (
        ("board", board), ("move list", window.move_list), ("graph", window.eval_graph.view), ("comment", window.comment_view)
    )}
    timings: list[float] = []
    direction = 1
    for _ in range(steps):
        if window.session.model.current_ply in (0, PLIES) and timings:
            direction = -direction
        if window.session.model.current_ply == 0:
            direction = 1
        started = time.perf_counter()
        window.session.model.step(direction)
        app.processEvents()
        timings.append((time.perf_counter() - started) * 1000)
    window.close()
    for name, spent in paints.items():
        if spent:
            print(f"         {name:9} paint  p50 {statistics.median(spent):5.2f}   p95 {percentile(spent, 0.95):5.2f}")
    return timings


def live_analysis(kind: str, background: bool, interval_ms: int = 20) -> tuple[list[float], int]:
    """Evaluations of a 300-ply game arrive one every `interval_ms` as from a fast engine, with the
    views refreshing as they do during an analysis. Returns the GUI thread's stalls (ms: how late
    a 2 ms heartbeat timer fired) and how many refreshes there were. `background`: the scoring
    runs off the GUI thread (the app's way); False scores on the GUI thread, as before."""
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer

    from reviewer.gui.window.app import create_application
    from reviewer.gui.window.main_window import MainWindow

    app = create_application(dark=False)
    window = MainWindow(discover_engines=False)
    window.resize(1400, 900)
    window.show()
    if not background:
        window.session.model.set_background_assessor(None)
    game = random_chess_game(PLIES) if kind == "chess" else random_go_game(PLIES)
    evaluations = chess_evaluations(game) if kind == "chess" else go_evaluations(game)
    window.session.model.load_game(game)
    window._on_game_loaded()
    window.session.model.set_current_ply(PLIES // 2)
    window.analysis.is_running = lambda: True  # type: ignore[method-assign]  # refreshes are throttled
    for _ in range(5):
        app.processEvents()
    refreshes = 0
    original = window.views.redraw_assessment

    def counted() -> None:
        nonlocal refreshes
        refreshes += 1
        original()

    window.views.redraw_assessment = counted  # type: ignore[method-assign]
    pending = list(evaluations)
    stalls: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    last = [clock.nsecsElapsed()]
    loop = QEventLoop()

    def feed() -> None:
        if pending:
            window.session.model.add_evaluation(pending.pop(0))
        else:
            feeder.stop()
            QTimer.singleShot(300, loop.quit)  # the last refreshes

    def beat() -> None:
        now = clock.nsecsElapsed()
        stalls.append(max(0.0, (now - last[0]) / 1e6 - 2.0))
        last[0] = now

    feeder, heartbeat = QTimer(), QTimer()
    feeder.timeout.connect(feed)
    heartbeat.timeout.connect(beat)
    heartbeat.setTimerType(heartbeat.timerType().PreciseTimer)
    feeder.start(interval_ms)
    heartbeat.start(2)
    loop.exec()
    heartbeat.stop()
    window.assessor.shutdown()
    window.close()
    return stalls, refreshes


def _timed_paints(widget: Any) -> list[float]:
    """Record how long each paintEvent of `widget` takes (ms), to tell where a step's time goes."""
    spent: list[float] = []
    original = type(widget).paintEvent

    def paint(event: Any) -> None:
        started = time.perf_counter()
        original(widget, event)
        spent.append((time.perf_counter() - started) * 1000)

    widget.paintEvent = paint
    return spent


def cold_starts(count: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        game_path = Path(folder) / "long.pgn"
        write_text_atomic(game_path, write_pgn(random_chess_game(PLIES)))
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", REVIEWER_CONFIG_DIR=folder, REVIEWER_CACHE_DIR=folder)
        times: list[float] = []
        for run in range(count + 1):
            shot = Path(folder) / f"shot{run}.png"
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "reviewer", "gui", str(game_path), "--ply", "150", "--screenshot", str(shot)],
                check=True,
                env=env,
                cwd=REPO_ROOT,
                stdout=subprocess.DEVNULL,
            )
            if run:  # the first run only warms the disk cache
                times.append(time.perf_counter() - started)
        return times


FIRST_PAINT_PROBE = r"""
import sys, time
started = time.perf_counter()
from PySide6.QtCore import QEvent, QObject, QTimer
from reviewer.gui.window.app import create_application
from reviewer.gui.window.main_window import MainWindow
imported = time.perf_counter()
app = create_application()
window = MainWindow(discover_engines=False)
marks = {}

class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and "paint" not in marks:
            marks["paint"] = time.perf_counter()
        return False

probe = FirstPaint()
window.centralWidget().installEventFilter(probe)
window.file_opened.connect(lambda _path: QTimer.singleShot(0, lambda: (marks.setdefault("game", time.perf_counter()), app.quit())))
window.resize(1400, 900)
window.show()
window.open_file(sys.argv[1], game_index=0, ply=150)
app.exec()
print(imported - started, marks["paint"] - started, marks["game"] - started)
"""


def first_paint(count: int) -> list[tuple[float, float, float]]:
    """(imports done, first paint, game on screen) in seconds from the start of the interpreter's work."""
    with tempfile.TemporaryDirectory() as folder:
        game_path = Path(folder) / "long.pgn"
        write_text_atomic(game_path, write_pgn(random_chess_game(PLIES)))
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", REVIEWER_CONFIG_DIR=folder, REVIEWER_CACHE_DIR=folder)
        results = []
        for run in range(count + 1):
            output = subprocess.run(
                [sys.executable, "-c", FIRST_PAINT_PROBE, str(game_path)],
                check=True, env=env, cwd=REPO_ROOT, capture_output=True, text=True,
            ).stdout.split()
            if run:
                results.append(tuple(float(value) for value in output[-3:]))
        return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()

    print(f"step latency over {args.steps} steps of a {PLIES}-ply analysed game (ms):")
    for kind in ("chess", "go"):
        print(f"  {kind}")
        timings = step_latency(kind, args.steps)
        print(
            f"         whole step     p50 {statistics.median(timings):5.2f}   p95 {percentile(timings, 0.95):5.2f}"
            f"   max {max(timings):6.2f}"
        )
    print(f"GUI thread stalls while a {PLIES}-ply analysis streams in (50 positions/s), ms:")
    for kind in ("chess", "go"):
        for background in (False, True):
            stalls, refreshes = live_analysis(kind, background)
            where = "scoring off the GUI thread" if background else "scoring on the GUI thread"
            janky = sum(stall > 16 for stall in stalls)
            print(
                f"  {kind:5} {where:27} stalls > 16 ms: {janky:3}   p99 {percentile(stalls, 0.99):5.1f}"
                f"   max {max(stalls):6.1f}   ({refreshes} refreshes)"
            )
    probes = first_paint(args.starts)
    for label, index in (("imports done", 0), ("first paint", 1), ("game on screen", 2)):
        values = [probe[index] for probe in probes]
        print(f"in-process {label:15} median {statistics.median(values):.2f} s   best {min(values):.2f} s")
    starts = cold_starts(args.starts)
    print(
        f"cold start, launch to screenshot written and exit ({len(starts)} runs, s): median {statistics.median(starts):.2f}"
        f"   best {min(starts):.2f}   worst {max(starts):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
