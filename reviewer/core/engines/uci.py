"""UCI engines (Stockfish and the like) driven through python-chess, as a pool of processes.

Every position is searched once: the evaluation after move i is the evaluation of position i.
The pool runs `processes` engine processes with `threads` each (by default what measured fastest:
see `default_arrangement`). Each process takes a run of consecutive positions (its hash table still
holds much of the last position's tree); one that finishes early takes positions from the end of
the longest remaining run. Results arrive as they finish, in any order. Scores are turned to
White's point of view and moves to SAN here, at the edge; nothing downstream converts again.
`info` lines are kept as text while the engine talks and only the last one of each line is parsed,
which leaves the CPU to the engines.

A dead process is restarted and its position asked again; a position that kills the engine twice
ends the analysis with `EngineCrashed`. A process that dies during its handshake (`uci`,
`isready`) is started once more, then the start fails with `EngineCrashed`. An engine silent for `timeout_s` ends it with
`EngineTimeout`. A Chess960 game for an engine without `UCI_Chess960` ends it at once with
`EngineUnsuitable`. Setting `stop` returns within about a second; searches cut short are dropped,
never reported.

The event loop runs in its own thread. Closing waits (briefly) until every process started has
been seen to exit and every task has ended before the loop closes, so that nothing is left for
asyncio to complain about on stderr when the interpreter exits.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import os
import queue
import threading
import time
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
import chess.engine

from reviewer.core.analysis import Candidate, Evaluation, Limit, Terminal
from reviewer.core.engines.base import EngineCrashed, EngineError, EngineNotFound, EngineTimeout, EngineUnsuitable
from reviewer.core.games.chess import boards_at_plies
from reviewer.core.gametree import Color, Game, GameKind

__all__ = ["InfoLine", "UciEngine", "default_arrangement", "parse_info_line", "terminal_evaluation"]

# Options that change speed or bookkeeping but not what the engine says about a position.
_NEUTRAL_OPTIONS = frozenset(
    name.lower()
    for name in ("Threads", "Hash", "Ponder", "MultiPV", "UCI_ShowWDL", "UCI_AnalyseMode", "Debug Log File",
                 "Move Overhead", "Slow Mover", "Minimum Thinking Time", "Clear Hash", "nodestime")
)
_LOG = logging.getLogger(__name__)
_STOP_GRACE_S = 0.8  # how long a stopped search may take to answer before its process is killed
_POLL_S = 0.01  # how soon a waiting analysis notices its stop event
_EXIT_WAIT_S = 2.0  # how long closing waits for the other tasks to end once cancelled
# How long closing waits for killed processes to be seen exiting by asyncio's child watcher (a killed
# process exits at once, but a loaded machine may schedule the watcher's thread late; a transport
# closed before would reap the process itself and the watcher complain on stderr).
_REAP_WAIT_S = 15.0


def default_arrangement(cores: int | None = None) -> tuple[int, int]:
    """(processes, Threads per process) for whole-game analysis on this many cores.

    Measured on 2 cores (benchmarks/analysis.py, fixed nodes): one process with Threads=2 analyses
    a game about 20% faster than two processes with Threads=1, and spends less CPU per position,
    since consecutive positions share one hash table. Threads stop at 4 per process so that on
    bigger machines several processes keep the cores busy between searches (not measured).
    """
    cores = max(1, cores or os.cpu_count() or 1)
    threads = min(cores, 4)
    return max(1, min(8, cores // threads)), threads


class _LeanUciProtocol(chess.engine.UciProtocol):
    """python-chess's UCI protocol, but `info` lines are only kept as text, not parsed as they come.

    A search prints dozens of `info` lines and only the last scored one of each MultiPV line
    matters; parsing every PV on the event loop costs CPU the engines need.
    """

    def __init__(self) -> None:
        super().__init__()
        self.latest_info: dict[int, str] = {}  # MultiPV index -> its latest scored line with a PV
        self.last_heard = time.monotonic()

    def line_received(self, line: str) -> None:
        self.last_heard = time.monotonic()
        if line.startswith("info ") and " score " in line and " pv " in line:
            index = 1
            at = line.find(" multipv ")
            if at >= 0:
                try:
                    index = int(line[at + 9 :].split(" ", 1)[0])
                except ValueError:
                    return
            self.latest_info[index] = line


@dataclass
class _Slot:
    index: int
    transport: asyncio.SubprocessTransport | None = None
    protocol: _LeanUciProtocol | None = None

    @property
    def alive(self) -> bool:
        return (
            self.protocol is not None
            and self.transport is not None
            and self.transport.get_returncode() is None
            and not self.protocol.returncode.done()
        )

    def kill(self) -> None:
        if self.transport is not None and self.protocol is not None:
            _kill(self.transport, self.protocol)
        self.transport, self.protocol = None, None


@dataclass
class _Run:
    """One call of `analyse`: its queue of positions and its in-flight searches."""

    jobs: collections.deque[tuple[int, chess.Board]]  # in game order, before they are shared out
    limit: chess.engine.Limit
    multipv: int
    results: queue.Queue[Any]
    token: object = field(default_factory=object)  # a new game for the engine: ucinewgame
    crashes: dict[int, int] = field(default_factory=dict)
    in_flight: set[chess.engine.AnalysisResult] = field(default_factory=set)
    stopping: bool = False
    silence_limit_s: float = 30.0  # an engine quiet for this long during a search has hung
    fixed_shares: bool = False  # each process searches exactly its own run: no taking from others
    backwards: bool = False  # each run is searched from its last position to its first
    options: dict[str, int] = field(default_factory=dict)  # set before every search (UCI options)
    processes: int | None = None  # how many of the pool's processes take part (None: all)

    shares: list[collections.deque[tuple[int, chess.Board]]] = field(default_factory=list)

    def share_out(self, workers: int) -> None:
        """Each process gets a run of consecutive positions: the engine's hash table still holds
        much of the previous position's tree, so its nodes are cheaper (measured: ~10% less CPU)."""
        jobs = list(self.jobs)
        size, extra = divmod(len(jobs), workers)
        start = 0
        self.shares = []
        for index in range(workers):
            end = start + size + (1 if index < extra else 0)
            share = jobs[start:end]
            self.shares.append(collections.deque(reversed(share) if self.backwards else share))
            start = end

    def next_job(self, worker: int) -> tuple[int, chess.Board] | None:
        """The next position of this worker's run; when it is done, the end of the longest other run."""
        own = self.shares[worker]
        if own:
            return own.popleft()
        if self.fixed_shares:
            return None
        longest = max(self.shares, key=len)
        return longest.pop() if longest else None

    def request_stop(self) -> None:
        self.stopping = True
        for analysis in list(self.in_flight):
            analysis.stop()

    def fail(self, error: BaseException) -> None:
        if not self.stopping:
            self.results.put_nowait(error)
        self.request_stop()


class _Stopped(Exception):
    pass


class _DiedStarting(EngineCrashed):
    """The process ended during its handshake (killed, or crashed): worth one more start."""


def _exit_text(started: list[_LeanUciProtocol]) -> str:
    """' (exit code N)' of the process started last, when it is known."""
    if started and started[-1].returncode.done() and not started[-1].returncode.cancelled():
        return f" (exit code {started[-1].returncode.result()})"
    return ""


class UciEngine:
    """Any UCI engine command (a list of arguments), as a pool of `processes` engine processes."""

    kind: GameKind = "chess"

    def __init__(
        self,
        command: Sequence[str] | str,
        *,
        processes: int | None = None,
        threads: int | None = None,
        hash_mb: int | None = None,
        options: Mapping[str, str | int | bool] | None = None,
        timeout_s: float = 30.0,
        start_timeout_s: float = 10.0,
    ) -> None:
        self.command = [command] if isinstance(command, str) else list(command)
        if not self.command:
            raise EngineNotFound("no engine command given")
        cores = os.cpu_count() or 1
        if processes is None and threads is None:
            processes, threads = default_arrangement(cores)
        elif processes is None:
            processes = max(1, min(8, cores // max(1, threads or 1)))
        elif threads is None:
            threads = max(1, cores // max(1, processes))
        self.threads = max(1, threads or 1)
        self.hash_mb = hash_mb
        self.user_options = dict(options or {})
        self.timeout_s = timeout_s
        self.start_timeout_s = start_timeout_s
        self._slots = [_Slot(i) for i in range(max(1, processes or 1))]
        self._engine_name = Path(self.command[0]).name
        self.supports_wdl = False
        self.supports_chess960 = False
        # True: every `analyse` call is a new game for the engine (`ucinewgame`, a cleared hash), as
        # reproducible reviews want. Live analysis sets it False: the hash carries over between
        # positions, and no clearing delays the first line.
        self.new_game_each_call = True
        self._session_token = object()
        self._started: list[_LeanUciProtocol] = []  # every process started, until it is seen to exit
        self._closed = False
        self._busy = threading.Lock()
        self._running: tuple[_Run, concurrent.futures.Future[None]] | None = None
        self._loop = asyncio.new_event_loop()
        self._loop.set_exception_handler(_quiet_teardown_races)
        self._thread = threading.Thread(target=self._loop.run_forever, name="uci-engine-loop", daemon=True)
        self._thread.start()
        try:
            self._call(self._start_missing())
        except BaseException:
            self.close()
            raise

    # -- the Engine protocol ---------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._engine_name

    @property
    def processes(self) -> int:
        return len(self._slots)

    @property
    def identity(self) -> str:
        relevant = sorted(
            (name, str(value)) for name, value in self.user_options.items() if name.lower() not in _NEUTRAL_OPTIONS
        )
        options = "".join(f" [{name}={value}]" for name, value in relevant)
        return f"{self._engine_name}{options}"

    def engine_id(self, limit: Limit) -> str:
        return f"{self.identity} | {limit.describe()}"

    def analyse(self, game: Game, plies: Sequence[int], limit: Limit, stop: threading.Event) -> Generator[Evaluation, None, None]:
        return self._analyse(game, plies, limit, stop, fixed_shares=False, backwards=False, options={})

    def analyse_reproducibly(
        self,
        game: Game,
        plies: Sequence[int],
        limit: Limit,
        stop: threading.Event,
        *,
        processes: int,
        hash_mb: int,
        engine_id: str | None = None,
    ) -> Generator[Evaluation, None, None]:
        """Like `analyse`, but the same call gives the same results.

        `processes` processes take part (the pool grows to that many when it is smaller). Each starts
        with `ucinewgame` (a cleared hash of `hash_mb`), searches with one thread and takes one fixed run of consecutive positions (split by the number of processes),
        from its last position back to its first, so the hash carries what later positions taught it.
        Nothing is taken from another process's run. With a node or depth limit (not a time limit)
        Stockfish then answers the same every time. `engine_id` replaces the one written on results.
        """
        return self._analyse(
            game, plies, limit, stop, fixed_shares=True, backwards=True,
            options={"Threads": 1, "Hash": hash_mb}, engine_id=engine_id, processes=max(1, processes),
        )

    def _analyse(
        self,
        game: Game,
        plies: Sequence[int],
        limit: Limit,
        stop: threading.Event,
        *,
        fixed_shares: bool,
        backwards: bool,
        options: dict[str, int],
        engine_id: str | None = None,
        processes: int | None = None,
    ) -> Generator[Evaluation, None, None]:
        if game.kind != self.kind:
            raise ValueError(f"a UCI engine analyses {self.kind} games only")
        if self._closed:
            raise EngineError(f"{self._engine_name} has been closed")
        if game.chess960 and not self.supports_chess960:
            raise EngineUnsuitable(f"{self._engine_name} does not play Chess960 (no UCI_Chess960 option)")
        chess_limit = _chess_limit(limit)
        engine_id = engine_id if engine_id is not None else self.engine_id(limit)
        boards = boards_at_plies(game, plies)
        run = _Run(collections.deque(), chess_limit, max(1, limit.multipv), queue.Queue())
        if not self.new_game_each_call:
            run.token = self._session_token
        run.fixed_shares, run.backwards = fixed_shares, backwards
        run.options = dict(options)
        run.processes = processes
        run.silence_limit_s = self.timeout_s if limit.movetime_s is None else max(self.timeout_s, limit.movetime_s + 5.0)
        for ply in plies:
            board = boards[ply]
            evaluation = terminal_evaluation(board, ply, engine_id)
            if evaluation is not None:
                yield evaluation
            else:
                run.jobs.append((ply, board))
        if not run.jobs or stop.is_set():
            return
        with self._busy:
            pending = len(run.jobs)
            future = asyncio.run_coroutine_threadsafe(self._run(run), self._loop)
            self._running = (run, future)
            try:
                while pending:
                    if stop.is_set():
                        return
                    if self._closed:
                        raise EngineError(f"{self._engine_name} was closed during the analysis")
                    try:
                        item = run.results.get(timeout=_POLL_S)
                    except queue.Empty:
                        if future.done() and run.results.empty():
                            if self._closed:
                                raise EngineError(f"{self._engine_name} was closed during the analysis") from None
                            future.result()  # surfaces an unexpected error in the pool
                            raise EngineCrashed(f"{self._engine_name} stopped before finishing the game") from None
                        continue
                    if isinstance(item, BaseException):
                        raise item
                    pending -= 1
                    yield self._evaluation(engine_id, *item)
            finally:
                self._running = None
                self._stop_run(run, future)

    def _stop_run(self, run: _Run, future: concurrent.futures.Future[None]) -> None:
        """Stop a run's searches and wait (bounded: a process that ignores `stop` is killed) until
        its task has ended, so that no task is left pending when the loop closes."""
        if future.done():
            return
        try:
            self._loop.call_soon_threadsafe(run.request_stop)
        except RuntimeError:  # the loop is closed already
            return
        try:
            future.result(timeout=_STOP_GRACE_S + 2.0)
        except (concurrent.futures.TimeoutError, concurrent.futures.CancelledError, Exception):
            pass

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        running = self._running
        if running is not None and self._loop.is_running():
            self._stop_run(*running)  # an analysis still under way (in another thread, or abandoned)
        if self._loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(self._shut_down(), self._loop).result(timeout=8.0)
            except Exception:
                for slot in self._slots:
                    self._loop.call_soon_threadsafe(slot.kill)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5.0)
        if not self._loop.is_running() and not self._loop.is_closed():
            self._loop.close()

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- processes --------------------------------------------------------------------------------

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    async def _start_missing(self) -> None:
        dead = [slot for slot in self._slots if not slot.alive]
        # Every start runs to its end even when one fails, so that none is left pending.
        outcomes = await asyncio.gather(*(self._start(slot) for slot in dead), return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome

    async def _start(self, slot: _Slot) -> None:
        """Start the slot's process; one that dies during its handshake is started once more."""
        try:
            await self._start_once(slot)
        except _DiedStarting as error:
            _LOG.info("%s; starting it again", error)
            try:
                await self._start_once(slot)
            except _DiedStarting as again:
                raise EngineCrashed(f"{again} (twice)") from None

    async def _start_once(self, slot: _Slot) -> None:
        slot.kill()
        program = self.command[0]
        try:
            transport, protocol = await asyncio.wait_for(
                _popen_lean_uci(self.command, self._started), self.start_timeout_s
            )
        except (FileNotFoundError, NotADirectoryError):
            raise EngineNotFound(f"engine not found: {program}") from None
        except PermissionError:
            raise EngineNotFound(f"engine cannot be executed (permission denied): {program}") from None
        except TimeoutError:
            raise EngineTimeout(
                f"{program} did not finish the UCI handshake within {self.start_timeout_s:g} s — is it a UCI engine?"
            ) from None
        except chess.engine.EngineTerminatedError as error:
            raise _DiedStarting(f"{program} died during the UCI handshake{_exit_text(self._started)}: {error}") from None
        except (chess.engine.EngineError, OSError) as error:
            raise EngineCrashed(f"{program} failed to start as a UCI engine: {error}") from None
        slot.transport, slot.protocol = transport, protocol
        self._engine_name = protocol.id.get("name") or self._engine_name
        self.supports_wdl = "UCI_ShowWDL" in protocol.options
        self.supports_chess960 = "UCI_Chess960" in protocol.options
        settings: dict[str, str | int | bool] = {}
        if "Threads" in protocol.options:
            settings["Threads"] = self.threads
        if self.hash_mb is not None and "Hash" in protocol.options:
            settings["Hash"] = self.hash_mb
        if self.supports_wdl:
            settings["UCI_ShowWDL"] = True
        settings.update(self.user_options)
        try:
            await protocol.configure(settings)
            await asyncio.wait_for(protocol.ping(), self.start_timeout_s)
        except chess.engine.EngineTerminatedError as error:
            code = transport.get_returncode()
            slot.kill()
            exit_text = f" (exit code {code})" if code is not None else ""
            raise _DiedStarting(f"{self._engine_name} died answering 'isready'{exit_text}: {error}") from None
        except chess.engine.EngineError as error:
            slot.kill()
            raise EngineError(f"{self._engine_name}: {error}") from None
        except TimeoutError:
            slot.kill()
            raise EngineTimeout(f"{self._engine_name} did not answer 'isready' after its options were set") from None

    async def _shut_down(self) -> None:
        """Quit every process (kill those that do not), see each one exit, end every other task."""

        async def quit_one(slot: _Slot) -> None:
            if slot.alive and slot.protocol is not None:
                try:
                    await asyncio.wait_for(slot.protocol.quit(), 2.0)
                except Exception:
                    pass
            slot.kill()

        await asyncio.gather(*(quit_one(slot) for slot in self._slots))
        await self._reap()
        this = asyncio.current_task()
        others = [task for task in asyncio.all_tasks() if task is not this]
        for task in others:
            task.cancel()
        if others:
            await asyncio.wait(others, timeout=_EXIT_WAIT_S)

    async def _reap(self) -> None:
        """Wait until every process started is known to have exited (its connection lost)."""
        exits = [protocol.returncode for protocol in self._started if not protocol.returncode.done()]
        for protocol in self._started:
            transport = protocol.transport
            if not protocol.returncode.done() and transport is not None:
                try:
                    transport.kill()
                except (ProcessLookupError, OSError):
                    pass
        if exits:
            await asyncio.wait(exits, timeout=_REAP_WAIT_S)
        self._started = [protocol for protocol in self._started if not protocol.returncode.done()]

    # -- the pool -----------------------------------------------------------------------------------

    async def _run(self, run: _Run) -> None:
        slots = self._slots
        if run.processes is not None:
            while len(self._slots) < run.processes:
                self._slots.append(_Slot(len(self._slots)))
            slots = self._slots[: run.processes]
        try:
            await self._start_missing()
        except EngineError as error:
            run.fail(error)
            return
        run.share_out(len(slots))
        await asyncio.gather(*(self._work(slot, run) for slot in slots))

    async def _work(self, slot: _Slot, run: _Run) -> None:
        retry: tuple[int, chess.Board] | None = None
        while not run.stopping:
            # A position whose process died is asked again of the restarted process, not handed
            # to another one: if it dies twice, the position itself is the trouble.
            job = retry if retry is not None else run.next_job(slot.index)
            if job is None:
                return
            ply, board = job
            retry = None
            started = time.perf_counter()
            try:
                info_lines, best = await self._search(slot, board, run)
            except _Stopped:
                return
            except EngineTimeout as error:
                run.fail(error)
                return
            except chess.engine.EngineError as error:
                if run.stopping:
                    return
                code = slot.transport.get_returncode() if slot.transport is not None else None
                slot.kill()
                crashes = run.crashes[ply] = run.crashes.get(ply, 0) + 1
                if crashes >= 2:
                    run.fail(EngineCrashed(_crash_message(self._engine_name, ply, board, code, error)))
                    return
                retry = (ply, board)
                try:
                    await self._start(slot)
                except EngineError as start_error:
                    run.fail(EngineCrashed(f"{self._engine_name} died and could not be restarted: {start_error}"))
                    return
                continue
            run.results.put_nowait((ply, board, info_lines, best, time.perf_counter() - started))

    async def _search(self, slot: _Slot, board: chess.Board, run: _Run) -> tuple[dict[int, str], chess.Move | None]:
        protocol = slot.protocol
        if protocol is None or not slot.alive:
            raise chess.engine.EngineTerminatedError("engine process is not running")
        protocol.latest_info = {}
        protocol.last_heard = time.monotonic()
        try:
            analysis = await asyncio.wait_for(
                protocol.analysis(
                    board, run.limit, multipv=run.multipv, game=run.token, info=chess.engine.INFO_NONE,
                    options={name: value for name, value in run.options.items() if name in protocol.options},
                ),
                self.timeout_s,
            )
        except TimeoutError:
            slot.kill()
            raise EngineTimeout(f"{self._engine_name} did not answer 'isready' within {self.timeout_s:g} s") from None
        run.in_flight.add(analysis)
        if run.stopping:  # the stop came while the search was being started: it missed this one
            analysis.stop()
        # Never cancelled: that would cancel the analysis's own future, which python-chess still
        # completes (with an error) when the process dies later. Its outcome is always retrieved.
        finished = asyncio.ensure_future(analysis.wait())
        finished.add_done_callback(_retrieve)
        stop_sent_at: float | None = None
        try:
            while True:
                done, _ = await asyncio.wait((finished,), timeout=0.25)
                if done:
                    best = finished.result()
                    break
                now = time.monotonic()
                if run.stopping:
                    stop_sent_at = stop_sent_at or now
                    analysis.stop()
                    if now - stop_sent_at > _STOP_GRACE_S:
                        slot.kill()  # it ignores `stop`: a fresh process next time
                        raise _Stopped
                elif now - protocol.last_heard > run.silence_limit_s:
                    slot.kill()
                    raise EngineTimeout(
                        f"{self._engine_name} stopped answering: nothing for {run.silence_limit_s:g} s "
                        f"while searching {board.fen()}"
                    )
        finally:
            run.in_flight.discard(analysis)
        if run.stopping:
            raise _Stopped  # cut short: weaker than asked, never reported
        return dict(protocol.latest_info), best.move

    # -- conversion at the edge ----------------------------------------------------------------------

    def _evaluation(
        self,
        engine_id: str,
        ply: int,
        board: chess.Board,
        info_lines: dict[int, str],
        best: chess.Move | None,
        seconds: float,
    ) -> Evaluation:
        white_to_move = board.turn == chess.WHITE
        root = board.copy(stack=False)
        lines = []
        for index in sorted(info_lines):
            info = parse_info_line(info_lines[index], white_to_move)
            if info is not None:
                lines.append(info)
        if not lines:
            raise EngineCrashed(f"{self._engine_name} gave no score for {board.fen()}")
        main = lines[0]
        candidates = []
        for order, info in enumerate(lines):
            san_line = _san_line(root, info.pv)
            if san_line:
                candidates.append(
                    Candidate(
                        move=san_line[0],
                        order=order,
                        visits=info.nodes,
                        score_cp_first=info.score_cp_first,
                        mate_first=info.mate_first,
                        pv=san_line,
                    )
                )
        pv_moves = list(main.pv)
        if best is None or best not in root.legal_moves:
            best = _first_legal(root, pv_moves)
        if best is not None and (not pv_moves or pv_moves[0] != best.uci()):
            pv_moves = [best.uci()]
        return Evaluation(
            ply=ply,
            kind="chess",
            engine_id=engine_id,
            score_cp_first=main.score_cp_first,
            mate_first=main.mate_first,
            wdl_first=main.wdl_first,
            side_to_move="white" if white_to_move else "black",
            best_move=root.san(best) if best is not None else None,
            pv=_san_line(root, pv_moves),
            candidates=tuple(candidates),
            depth=main.depth,
            nodes=main.nodes,
            seconds=round(seconds, 4),
        )


@dataclass(frozen=True)
class InfoLine:
    """One UCI `info` line, scores already turned from the side to move's view to White's (chess's first
    player); moves still UCI text."""

    score_cp_first: int | None
    mate_first: int | None
    wdl_first: tuple[int, int, int] | None
    depth: int | None
    nodes: int | None
    pv: tuple[str, ...]


_ONE_VALUE = frozenset(
    ("depth", "seldepth", "nodes", "multipv", "time", "nps", "hashfull", "tbhits", "sbhits", "cpuload",
     "currmove", "currmovenumber", "ebf")
)


def parse_info_line(line: str, white_to_move: bool) -> InfoLine | None:
    """The score, WDL, depth, nodes and PV of an `info` line; None when it has no usable score."""
    tokens = line.split()
    sign = 1 if white_to_move else -1
    cp = mate = depth = nodes = None
    wdl: tuple[int, int, int] | None = None
    pv: tuple[str, ...] = ()
    index = 1
    try:
        while index < len(tokens):
            token = tokens[index]
            if token == "score":
                kind, value = tokens[index + 1], int(tokens[index + 2])
                if kind == "cp":
                    cp = sign * value
                elif kind == "mate":
                    mate = sign * value
                else:
                    return None
                index += 3
                while index < len(tokens) and tokens[index] in ("lowerbound", "upperbound"):
                    index += 1
            elif token == "wdl":
                win, draw, loss = (int(tokens[index + offset]) for offset in (1, 2, 3))
                wdl = (win, draw, loss) if white_to_move else (loss, draw, win)
                index += 4
            elif token in ("pv", "refutation", "currline"):
                if token == "pv":
                    pv = tuple(tokens[index + 1 :])
                break
            elif token == "string":
                break
            elif token in _ONE_VALUE:
                if token == "depth":
                    depth = int(tokens[index + 1])
                elif token == "nodes":
                    nodes = int(tokens[index + 1])
                index += 2
            else:
                index += 1
    except (ValueError, IndexError):
        return None
    if cp is None and mate is None:
        return None
    if mate == 0:
        return None  # "mate 0" means the side to move is mated: never true of a searched position
    return InfoLine(cp, mate, wdl, depth, nodes, pv)


async def _popen_lean_uci(
    command: list[str], started: list[_LeanUciProtocol]
) -> tuple[asyncio.SubprocessTransport, _LeanUciProtocol]:
    """Start the process and do the UCI handshake; every process started is added to `started`."""
    transport, protocol = await _LeanUciProtocol.popen(command, setpgrp=True)
    started[:] = [known for known in started if not known.returncode.done()]
    started.append(protocol)
    try:
        await protocol.initialize()
    except BaseException:
        _kill(transport, protocol)
        raise
    return transport, protocol


def _kill(transport: asyncio.SubprocessTransport, protocol: _LeanUciProtocol) -> None:
    """Kill the process; close its transport once asyncio has seen it exit.

    Closing at once would poll the process, and if it has just died, reap it under the nose of
    asyncio's child watcher, which then complains on stderr ("Unknown child process pid ...").
    """
    try:
        transport.kill()
    except (ProcessLookupError, OSError):
        pass
    if protocol.returncode.done():
        transport.close()
    else:
        protocol.returncode.add_done_callback(lambda _: transport.close())


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a future's outcome as seen, so that an error nobody waits for any more is not printed."""
    if not future.cancelled():
        future.exception()


def _quiet_teardown_races(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """python-chess may complete a finished analysis again when its process dies while being torn
    down (InvalidStateError in a connection-lost callback): harmless, so logged, not printed."""
    if isinstance(context.get("exception"), asyncio.InvalidStateError):
        _LOG.debug("ignored while an engine was torn down: %s", context.get("message"))
        return
    loop.default_exception_handler(context)


def _first_legal(board: chess.Board, moves: Sequence[str]) -> chess.Move | None:
    if not moves:
        return None
    try:
        move = chess.Move.from_uci(moves[0])
    except ValueError:
        return None
    return move if move in board.legal_moves else None


def _chess_limit(limit: Limit) -> chess.engine.Limit:
    if limit.nodes is None and limit.depth is None and limit.movetime_s is None:
        raise ValueError("a chess analysis needs a limit: nodes, depth or movetime")
    return chess.engine.Limit(nodes=limit.nodes, depth=limit.depth, time=limit.movetime_s)


def _san_line(root: chess.Board, moves: Sequence[str]) -> tuple[str, ...]:
    """UCI move texts as SAN, up to the first one that is not legal."""
    board = root.copy(stack=False)
    sans: list[str] = []
    for text in moves:
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            break
        if move not in board.legal_moves:
            break
        sans.append(board.san(move))
        board.push(move)
    return tuple(sans)


def _crash_message(name: str, ply: int, board: chess.Board, code: int | None, error: BaseException) -> str:
    exit_text = f" (exit code {code})" if code is not None else ""
    return f"{name} crashed twice on position {ply} ({board.fen()}){exit_text}: {error}"


def terminal_evaluation(board: chess.Board, ply: int, engine_id: str = "") -> Evaluation | None:
    """The verdict on a finished position (mate, stalemate, dead draw), which no engine is asked about."""
    outcome = board.outcome(claim_draw=False)
    if outcome is None:
        return None
    side_to_move: Color = "white" if board.turn == chess.WHITE else "black"
    if outcome.termination == chess.Termination.CHECKMATE:
        wdl = (1000, 0, 0) if outcome.winner == chess.WHITE else (0, 0, 1000)
        return Evaluation(
            ply=ply, kind="chess", engine_id=engine_id, wdl_first=wdl, side_to_move=side_to_move, terminal="checkmate"
        )
    terminal: Terminal = "stalemate" if outcome.termination == chess.Termination.STALEMATE else "draw"
    return Evaluation(
        ply=ply,
        kind="chess",
        engine_id=engine_id,
        score_cp_first=0,
        wdl_first=(0, 1000, 0),
        side_to_move=side_to_move,
        terminal=terminal,
    )


def limit_strength(engine: object, elo: int) -> None:
    """Have a UCI engine play at `elo` (UCI_LimitStrength and UCI_Elo; Stockfish 15.1 takes
    1350–2850), set before its first search; an engine that is not a UCI engine is left as it is."""
    if isinstance(engine, UciEngine):
        engine.user_options.update({"UCI_LimitStrength": True, "UCI_Elo": int(elo)})
