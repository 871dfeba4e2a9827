"""KataGo's JSON analysis engine (`katago analysis`), driven over stdin/stdout JSON lines.

A whole main line goes to KataGo as ONE query (`analyzeTurns`), so KataGo can batch positions.
Results arrive in any order; each position ends with exactly one final response
(`isDuringSearch` false), which is the only one taken. Values are turned to Black's point of view
here, whatever `reportAnalysisWinratesAs` says, and moves stay GTP.

Searches of 1 and 2 visits are answered in-process from the command's `-model` when Reviewer can
read it (`katago_net`: the same numbers as KataGo's, several times faster than its OpenCL build on
a CPU); more visits, or a network it cannot read, go to KataGo.

Everything sent is built from the game model (points, colours, numbers) and a whitelist of rule
names: no text from a game file reaches the engine. A process that dies is restarted and asked
again only for the positions still missing; one that dies more than `max_restarts` times ends the
analysis with `EngineCrashed`.
"""

from __future__ import annotations

import collections
import json
import logging
import math
import queue
import re
import subprocess
import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

from reviewer.core.analysis import Candidate, Evaluation, Limit
from reviewer.core.engines.base import EngineCrashed, EngineError, EngineNotFound, EngineTimeout, EngineUnsuitable
from reviewer.core.games.go import GoBoard, player_from_properties, position_after
from reviewer.core.games.go_rules import ruleset_of
from reviewer.core.gametree import Color, Game, GameKind, Node, Point, gtp_from_point, other_color

if TYPE_CHECKING:
    from reviewer.core.engines.katago_net.evaluate import NetworkEvaluator

__all__ = [
    "KataGoEngine",
    "QueryPlan",
    "ReportAs",
    "Segment",
    "katago_komi",
    "katago_rules",
    "plan_queries",
    "to_black_view",
]

log = logging.getLogger(__name__)

ReportAs = Literal["BLACK", "WHITE", "SIDETOMOVE"]
REPORT_AS_VALUES: tuple[ReportAs, ...] = ("BLACK", "WHITE", "SIDETOMOVE")

# KataGo's analysis engine writes only JSON lines on stdout; a program that writes something else
# and then no JSON for this long is another program (a UCI engine, a GTP KataGo, a shell script).
FOREIGN_ANSWER_WAIT_S = 2.0


def katago_rules(game: Game) -> str:
    """KataGo's name for the game's rules; unknown or missing rules count as Japanese."""
    return ruleset_of(game.rules).katago


def katago_komi(game: Game, rules: str | None = None) -> float:
    """The komi to tell KataGo: a half-integer in [-150, 150].

    `game.komi` is already the komi in points (the SGF reader undoes Fox's way of writing it).
    Missing komi: 0.5 with handicap, else the even komi of the rules (6.5 territory, 7.5 area).
    """
    komi = game.komi
    if komi is None or not math.isfinite(komi):
        komi = 0.5 if game.handicap >= 2 else ruleset_of(rules or game.rules).komi
    return max(-150.0, min(150.0, round(komi * 2) / 2))


def _letter(color: Color) -> str:
    return "B" if color == "black" else "W"


def _color(letter: str) -> Color:
    return "black" if letter.upper().startswith("B") else "white"


@dataclass
class Segment:
    """One KataGo query: a start position and the moves played from it."""

    initial_stones: dict[Point, Color]
    initial_player: Color | None
    moves: list[tuple[Color, Point | None]] = field(default_factory=list)

    def side_to_move(self, turn: int) -> Color:
        if turn == 0:
            if self.initial_player is not None:
                return self.initial_player
            return self.moves[0][0] if self.moves else "black"
        return other_color(self.moves[turn - 1][0])


@dataclass
class QueryPlan:
    """How a game's main line maps onto KataGo queries: ply -> (segment, turn number)."""

    width: int
    height: int
    rules: str
    komi: float
    segments: list[Segment]
    turn_of_ply: dict[int, tuple[int, int]]

    def query(self, segment_index: int, turns: Sequence[int]) -> dict[str, Any]:
        segment = self.segments[segment_index]
        initial_player = segment.side_to_move(0)
        return {
            "rules": self.rules,
            "komi": self.komi,
            "boardXSize": self.width,
            "boardYSize": self.height,
            "initialStones": [
                [_letter(color), gtp_from_point(point, self.height)]
                for point, color in sorted(segment.initial_stones.items())
            ],
            "initialPlayer": _letter(initial_player),
            "moves": [[_letter(color), gtp_from_point(point, self.height)] for color, point in segment.moves],
            "analyzeTurns": sorted(turns),
        }


def _node_move(game: Game, node: Node, ply: int) -> tuple[Color, Point | None] | None:
    if node.move is None:
        return None
    color: Color = node.color or game.mover_at_ply(ply)
    point = node.point
    if point is not None:
        row, col = point
        if not (0 <= row < game.board_height and 0 <= col < game.board_width):
            raise EngineError(f"move {ply} ({node.move}) lies off the {game.board_width}x{game.board_height} board")
    return color, point


def plan_queries(game: Game) -> QueryPlan:
    """Split the main line into KataGo queries: one, unless stones are set up inside the game."""
    if game.kind != KataGoEngine.kind:
        raise ValueError("KataGo analyses Go games only")
    width, height = game.board_width, game.board_height
    if not (2 <= width <= 25 and 2 <= height <= 25):
        raise EngineError(f"KataGo cannot analyse a {width}x{height} board")
    stones: dict[Point, Color] = dict.fromkeys(game.setup_black, "black")
    stones.update(dict.fromkeys(game.setup_white, "white"))
    for point in stones:
        if not (0 <= point[0] < height and 0 <= point[1] < width):
            raise EngineError(f"a setup stone lies off the {width}x{height} board")
    nodes = game.mainline_nodes()
    first_move = next((_node_move(game, n, i) for i, n in enumerate(nodes, 1) if n.move is not None), None)
    first_player = player_from_properties(game.root)
    if first_player is None:
        first_player = first_move[0] if first_move else game.first_player
    segments = [Segment(stones, first_player)]
    turn_of_ply: dict[int, tuple[int, int]] = {0: (0, 0)}
    for ply, node in enumerate(nodes, start=1):
        segment = segments[-1]
        move = _node_move(game, node, ply)
        if node.setup_black or node.setup_white or node.setup_empty:
            board = GoBoard.of(position_after(game, node.parent or game.root))
            board.setup(node.setup_black, node.setup_white, node.setup_empty)
            to_move = player_from_properties(node)
            if to_move is None:
                to_move = move[0] if move else segment.side_to_move(len(segment.moves))
            segment = Segment(board.stones, to_move)
            segments.append(segment)
        if move is not None:
            segment.moves.append(move)
        turn_of_ply[ply] = (len(segments) - 1, len(segment.moves))
    rules = katago_rules(game)
    return QueryPlan(width, height, rules, katago_komi(game, rules), segments, turn_of_ply)


def to_black_view(
    score_lead: float, winrate: float, report_as: ReportAs, side_to_move: Color
) -> tuple[float, float]:
    """(scoreLead, winrate) as KataGo reported them -> in Black's view, Go's first player's:
    (score_lead_first, winrate_first)."""
    if report_as == "WHITE" or (report_as == "SIDETOMOVE" and side_to_move == "white"):
        return -score_lead, 1.0 - winrate
    return score_lead, winrate


def map_from_response(
    values: Any, width: int, height: int, flip: bool = False
) -> tuple[float, ...] | None:
    """A KataGo map (rows from the top, maybe a pass entry last) -> rows from the bottom; None if malformed.
    `flip` negates every value (ownership reported from White's point of view); negative policy = illegal = 0."""
    if not isinstance(values, list) or len(values) < width * height:
        return None
    numbers = [_number(v) for v in values[: width * height]]
    if any(n is None for n in numbers):
        return None
    rows_from_top = [numbers[r * width : (r + 1) * width] for r in range(height)]
    sign = -1.0 if flip else 1.0
    return tuple(sign * float(n) for row in reversed(rows_from_top) for n in row if n is not None)


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _gtp_list(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(str(move) for move in value if isinstance(move, str))


def evaluation_from_response(
    response: dict[str, Any],
    ply: int,
    side_to_move: Color,
    report_as: ReportAs,
    engine_id: str,
    size: tuple[int, int] | None = None,
) -> Evaluation | None:
    """A final KataGo response -> an Evaluation from Black's point of view (None without results)."""
    root = response.get("rootInfo")
    if not isinstance(root, dict):
        return None
    current = root.get("currentPlayer")
    if isinstance(current, str) and current.upper() in ("B", "W"):
        side_to_move = _color(current)
    lead, winrate = _number(root.get("scoreLead")), _number(root.get("winrate"))
    if lead is None or winrate is None:
        return None
    lead_first, winrate_first = to_black_view(lead, winrate, report_as, side_to_move)
    candidates: list[Candidate] = []
    infos = response.get("moveInfos")
    for info in infos if isinstance(infos, list) else ():
        if not isinstance(info, dict) or not isinstance(info.get("move"), str):
            continue
        move_lead, move_winrate = _number(info.get("scoreLead")), _number(info.get("winrate"))
        move_lead_first = move_winrate_first = None
        if move_lead is not None and move_winrate is not None:
            move_lead_first, move_winrate_first = to_black_view(move_lead, move_winrate, report_as, side_to_move)
        order = info.get("order")
        visits = info.get("visits")
        candidates.append(
            Candidate(
                move=info["move"],
                order=order if isinstance(order, int) else len(candidates),
                visits=visits if isinstance(visits, int) else None,
                prior=_number(info.get("prior")),
                score_lead_first=move_lead_first,
                winrate_first=move_winrate_first,
                pv=_gtp_list(info.get("pv")) or (info["move"],),
            )
        )
    candidates.sort(key=lambda c: c.order)
    best = candidates[0] if candidates else None
    visits = root.get("visits")
    white_view = report_as == "WHITE" or (report_as == "SIDETOMOVE" and side_to_move == "white")
    ownership = policy = None
    if size is not None:
        ownership = map_from_response(response.get("ownership"), size[0], size[1], flip=white_view)
        raw_policy = map_from_response(response.get("policy"), size[0], size[1])
        policy = tuple(max(0.0, p) for p in raw_policy) if raw_policy is not None else None
    return Evaluation(
        ply=ply,
        kind="go",
        engine_id=engine_id,
        score_lead_first=lead_first,
        winrate_first=winrate_first,
        side_to_move=side_to_move,
        best_move=best.move if best else None,
        pv=best.pv if best else (),
        candidates=tuple(candidates),
        nodes=visits if isinstance(visits, int) else None,
        ownership_first=ownership,
        policy=policy,
    )


def config_report_as(command: Sequence[str]) -> ReportAs:
    """`reportAnalysisWinratesAs` from the `-config` file of a KataGo command (KataGo's default: BLACK)."""
    args = list(command)
    report_as: ReportAs = "BLACK"
    for index, arg in enumerate(args[:-1]):
        if arg == "-config":
            try:
                text = Path(args[index + 1]).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            for line in text.splitlines():
                key, _, value = line.split("#", 1)[0].partition("=")
                if key.strip() == "reportAnalysisWinratesAs" and value.strip().upper() in REPORT_AS_VALUES:
                    report_as = value.strip().upper()  # type: ignore[assignment]
        if arg == "-override-config":
            for pair in args[index + 1].split(","):
                key, _, value = pair.partition("=")
                if key.strip() == "reportAnalysisWinratesAs" and value.strip().upper() in REPORT_AS_VALUES:
                    report_as = value.strip().upper()  # type: ignore[assignment]
    return report_as


def model_path(command: Sequence[str]) -> str | None:
    """The network file a KataGo command names with `-model`, if any."""
    args = list(command)
    for index, arg in enumerate(args[:-1]):
        if arg == "-model":
            return args[index + 1]
    return None


def model_name(command: Sequence[str]) -> str:
    path = model_path(command)
    if path is None:
        return ""
    name = Path(path).name
    for suffix in (".gz", ".bin", ".txt"):
        name = name.removesuffix(suffix)
    return name


def _network_evaluator(command: Sequence[str], searched: bool = False) -> NetworkEvaluator | None:
    """The in-process evaluator of the command's `-model`, unless REVIEWER_KATAGO_NETWORK=process
    (KataGo then searches every position itself, as benchmarks compare). `searched`: in the
    precision Reviewer's own search runs it in, where that search will search it (else float32,
    KataGo's own figures)."""
    from reviewer.core.engines.katago_net.evaluate import NetworkEvaluator
    from reviewer.core.engines.katago_net.network_path import network_path
    from reviewer.core.engines.katago_net.runtime import chosen_precision, wanted_path

    path = model_path(command)
    if wanted_path() == "process" or path is None or not Path(path).is_file():
        return None
    if searched and network_path(path) == "search":
        return NetworkEvaluator(path, precision=chosen_precision())
    return NetworkEvaluator(path)


def preload_network(command: Sequence[str], board_size: tuple[int, int]) -> bool:
    """Read the in-process network of KataGo's `command` and build it for `board_size` ahead of
    the first search (a Go game just opened); shared with every KataGo engine of this process.
    False when the command's network is not evaluated in-process. Takes seconds: not on a GUI thread."""
    evaluator = _network_evaluator(command, searched=True)
    return evaluator is not None and evaluator.warm(board_size)


_EOF = object()


def _is_tuning_line(line: str) -> bool:
    lowered = line.lower()
    return "autotuning" in lowered or "beginning gpu tuning" in lowered or line.startswith("Tuning ")


def _log_stderr(line: str) -> None:
    """KataGo's stderr: tuning progress is worth seeing (it can take very long), the rest is chatter."""
    if _is_tuning_line(line):
        log.warning("KataGo: %s", line)
    else:
        log.debug("KataGo: %s", line)


class _Process:
    """One running KataGo: stdout lines into a queue, stderr lines kept (the last few) and passed on."""

    def __init__(self, command: Sequence[str], env: dict[str, str] | None, on_stderr: Callable[[str], None]) -> None:
        try:
            self.popen = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                bufsize=0,
            )
        except (FileNotFoundError, PermissionError, NotADirectoryError) as error:
            raise EngineNotFound(f"cannot run KataGo ({command[0]}): {error.strerror or error}") from error
        except OSError as error:
            raise EngineNotFound(f"cannot run KataGo ({command[0]}): {error}") from error
        self.lines: queue.Queue[object] = queue.Queue()
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self.tuning = False
        self._on_stderr = on_stderr
        self._write_lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._read_stdout, name="katago-stdout", daemon=True),
            threading.Thread(target=self._read_stderr, name="katago-stderr", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read_stdout(self) -> None:
        assert self.popen.stdout is not None
        try:
            for raw in self.popen.stdout:
                self.lines.put(raw.decode("utf-8", errors="replace").strip())
        except (OSError, ValueError):  # closed under the reader: a child of KataGo kept it open
            pass
        self.lines.put(_EOF)

    def _read_stderr(self) -> None:
        assert self.popen.stderr is not None
        try:
            self._pass_stderr_on(self.popen.stderr)
        except (OSError, ValueError):  # closed under the reader: a child of KataGo kept it open
            pass

    def _pass_stderr_on(self, stream: IO[bytes]) -> None:
        for raw in stream:
            line = raw.decode("utf-8", errors="replace").rstrip()
            if not line:
                continue
            if _is_tuning_line(line):
                self.tuning = True
            self.stderr_tail.append(line)
            try:
                self._on_stderr(line)
            except Exception:  # a faulty listener must not stop the reader
                log.exception("KataGo stderr listener failed")

    def send(self, message: dict[str, Any]) -> bool:
        """Write one JSON line; False when the process no longer reads."""
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        assert self.popen.stdin is not None
        with self._write_lock:
            try:
                self.popen.stdin.write(data)
                self.popen.stdin.flush()
                return True
            except (BrokenPipeError, OSError, ValueError):
                return False

    def why_dead(self, wait_s: float = 5.0) -> str:
        """Why the process ended: its exit status and last stderr lines.

        Its stdout has ended when this is asked; the exit status and the last stderr lines arrive
        a moment later, so both are waited for (bounded) rather than read too early.
        """
        try:
            self.popen.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            pass
        if self.popen.poll() is not None:
            self._threads[1].join(timeout=wait_s)  # stderr: read to its end
        code = self.popen.poll()
        tail = " | ".join(list(self.stderr_tail)[-3:])
        status = f"exit status {code}" if code is not None else "stopped answering"
        return f"{status}{': ' + tail if tail else ''}"

    def stop(self, grace_s: float = 2.0) -> None:
        if self.popen.poll() is None:
            try:
                assert self.popen.stdin is not None
                self.popen.stdin.close()
            except OSError:
                pass
            try:
                self.popen.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                self.popen.terminate()
                try:
                    self.popen.wait(timeout=grace_s)
                except subprocess.TimeoutExpired:
                    self.popen.kill()
                    self.popen.wait()
        # The process has ended: its pipes reach their end and the readers stop by themselves.
        # Closing a pipe under a reader would break its read instead.
        for thread in self._threads:
            thread.join(timeout=5.0)
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def _board_size_message(error: str, plan: QueryPlan) -> str:
    """KataGo refusing the board size, said in the user's terms (it is built for a largest board)."""
    largest = re.search(r"from \d+ to (\d+)", error)
    size = f"{plan.width}×{plan.height}"
    if largest is None:
        return f"KataGo cannot play {size} boards ({error}); use --engine builtin"
    return f"KataGo plays boards up to {largest.group(1)}×{largest.group(1)}, not {size}; use --engine builtin"


def _parse_line(line: object) -> dict[str, Any] | None:
    if not isinstance(line, str) or not line.startswith("{"):
        return None
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


class KataGoEngine:
    """KataGo's analysis engine as an `Engine`: `command` is the full command line, run as given.

    The process starts at once (so a broken command fails here, not mid-review) and must answer
    within `start_timeout_s`; its stderr lines go to `on_stderr` (tuning progress is logged as a
    warning by default). `report_as` is sent with every query as `reportAnalysisWinratesAs`
    (`forced_report_as`); None leaves KataGo's configured value (read from the command's `-config`
    file) in force. Either way `report_as` says how to read answers and values come out from
    Black's view. `idle_timeout_s` bounds the wait for the next result (default: from the visits).
    """

    kind: GameKind = "go"

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str = "KataGo",
        report_as: ReportAs | None = "BLACK",
        start_timeout_s: float = 60.0,
        idle_timeout_s: float | None = None,
        max_restarts: int = 2,
        on_stderr: Callable[[str], None] | None = None,
        env: dict[str, str] | None = None,
        start_in_background: bool = False,
        version: str = "",
    ) -> None:
        self.command = list(command)
        if not self.command:
            raise EngineNotFound("no KataGo command given")
        if report_as is not None and report_as not in REPORT_AS_VALUES:
            raise ValueError(f"reportAnalysisWinratesAs must be one of {REPORT_AS_VALUES}")
        self._name = name
        self.forced_report_as = report_as
        self.report_as: ReportAs = report_as or config_report_as(self.command)
        self.start_timeout_s = start_timeout_s
        self.idle_timeout_s = idle_timeout_s
        self.max_restarts = max_restarts
        self.on_stderr = on_stderr or _log_stderr
        self.env = env
        self.version = version  # as discovery read it, until KataGo answers itself
        self.warnings: list[str] = []
        self.restarts = 0
        self._model = model_name(self.command)
        self._network = _network_evaluator(self.command)
        self._counter = 0
        self._process: _Process | None = None
        self._closed = False
        self._lock = threading.Lock()  # one analysis at a time
        if self._network is not None:  # read the network while KataGo starts (it waits for its answer)
            threading.Thread(target=self._network.usable, name="katago-network", daemon=True).start()
        self._starting: threading.Thread | None = None
        self._start_error: BaseException | None = None
        if start_in_background:
            # The first visits come from the in-process network: they need not wait for KataGo, whose
            # start (seconds) goes on meanwhile; a start that fails is raised by the first search it serves.
            self._starting = threading.Thread(target=self._start_quietly, name="katago-start", daemon=True)
            self._starting.start()
        else:
            self._start()

    # -- the Engine protocol -----------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def identity(self) -> str:
        model = f" {self._model}" if self._model else ""
        return f"KataGo {self.version or '?'}{model}"

    def engine_id(self, limit: Limit) -> str:
        return f"{self.identity} | {limit.describe()}"

    def analyse(self, game: Game, plies: Sequence[int], limit: Limit, stop: threading.Event) -> Generator[Evaluation, None, None]:
        if self._closed:
            raise EngineError("KataGo has been closed")
        plan = plan_queries(game)
        wanted: dict[tuple[int, int], list[int]] = {}
        for ply in dict.fromkeys(plies):
            if ply not in plan.turn_of_ply:
                raise ValueError(f"ply {ply} is not on the main line (0..{len(plan.turn_of_ply) - 1})")
            wanted.setdefault(plan.turn_of_ply[ply], []).append(ply)
        if not wanted:
            return
        if not self._lock.acquire(blocking=False):
            raise EngineError("KataGo is already analysing a game")
        try:
            if self._network_answers(limit):
                assert self._network is not None and limit.visits is not None
                from reviewer.core.engines.katago_net.evaluate import allowed_at_root

                yield from self._network.analyse(plan, wanted, limit.visits, self.engine_id(limit), stop, limit.maps,
                                                 allowed_at_root(plan, limit))
            else:
                yield from self._analyse(plan, wanted, limit, stop)
        finally:
            self._lock.release()

    def _network_answers(self, limit: Limit) -> bool:
        """Whether this search is only the network's first visits, computed in-process (faster than
        KataGo's OpenCL on a CPU) rather than by the KataGo process."""
        from reviewer.core.engines.katago_net.evaluate import NETWORK_VISITS

        if self._network is None or limit.visits not in NETWORK_VISITS or limit.movetime_s is not None:
            return False
        if self._network.usable():
            return True
        if self._network.problem is not None and self._network.problem not in self.warnings:
            self.warnings.append(self._network.problem)
            log.info("KataGo's network is searched by KataGo itself: %s", self._network.problem)
        return False

    def close(self) -> None:
        self._closed = True
        if self._starting is not None:
            starting = self._process
            if starting is not None:
                starting.stop(grace_s=0.5)  # a start under way ends now, not at its deadline
            self._starting.join(self.start_timeout_s)
        if self._process is not None:
            self._process.stop()
            self._process = None

    def __enter__(self) -> KataGoEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the work ----------------------------------------------------------------------------------

    def _next_id(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    def _start(self) -> None:
        """Start KataGo; one that dies before it answers is started once more, then given up."""
        try:
            self._start_once()
        except EngineCrashed as error:
            log.info("%s; starting it again", error)
            try:
                self._start_once()
            except EngineCrashed as again:
                raise EngineCrashed(f"{again}, twice") from None

    def _start_quietly(self) -> None:
        try:
            self._start()
        except BaseException as error:  # kept for the first search that needs the process
            self._start_error = error

    def _wait_started(self) -> None:
        """Wait for a start under way in the background; raise what it failed with."""
        starting = self._starting
        if starting is None:
            return
        starting.join()
        self._starting = None
        error, self._start_error = self._start_error, None
        if error is not None:
            raise error

    def _start_once(self) -> None:
        """Start KataGo and wait (bounded) until it answers `query_version`."""
        if self._closed:
            raise EngineError("KataGo has been closed")
        process = _Process(self.command, self.env, self.on_stderr)
        self._process = process
        version_id = self._next_id("version")
        deadline = time.monotonic() + self.start_timeout_s
        process.send({"id": version_id, "action": "query_version"})
        foreign: tuple[float, str] | None = None  # (when, what): the first stdout line that is not JSON
        while True:
            if foreign is not None and time.monotonic() - foreign[0] > FOREIGN_ANSWER_WAIT_S:
                self._process = None
                process.stop(grace_s=0.5)
                said = foreign[1] if len(foreign[1]) <= 60 else foreign[1][:57] + "..."
                raise EngineUnsuitable(
                    f"{Path(self.command[0]).name} did not answer as KataGo's analysis engine (it said {said!r})"
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                reason = " (it is tuning OpenCL: run `reviewer engines install`)" if process.tuning else ""
                self._process = None
                process.stop(grace_s=0.5)
                raise EngineTimeout(f"KataGo did not start within {self.start_timeout_s:g} s{reason}")
            try:
                line = process.lines.get(timeout=min(remaining, 0.2))
            except queue.Empty:
                continue
            if line is _EOF:
                self._process = None
                process.stop(grace_s=0.5)
                raise EngineCrashed(f"KataGo exited while starting ({process.why_dead()})")
            message = _parse_line(line)
            if message is None:
                if foreign is None and isinstance(line, str) and line.strip():
                    foreign = (time.monotonic(), line.strip())
                continue
            if message.get("id") == version_id:
                if "error" in message:
                    self.version = "unknown"
                else:
                    self.version = str(message.get("version", "unknown"))
                return
            if "error" in message and "id" not in message:
                self.version = "unknown"  # very old KataGo without query_version
                return

    def _restart(self) -> None:
        if self._process is not None:
            self._process.stop(grace_s=0.5)
            self._process = None
        self.restarts += 1
        self._start()

    def _query_settings(self, limit: Limit, plan: QueryPlan) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        visits = limit.visits if limit.visits is not None else limit.nodes
        if visits is not None:
            extra["maxVisits"] = max(1, int(visits))
        settings: dict[str, Any] = {}
        if self.forced_report_as is not None:
            settings["reportAnalysisWinratesAs"] = self.forced_report_as
        if limit.movetime_s is not None:
            settings["maxTime"] = float(limit.movetime_s)
        if settings:
            extra["overrideSettings"] = settings
        if limit.maps:
            extra["includeOwnership"] = True
            extra["includePolicy"] = True
        if limit.region is not None:
            # Every point outside the region is avoided at the root, for either side to move (a
            # query's turns may have either); the search below the root is free, as KaTrain's.
            outside = [gtp_from_point((row, col), plan.height) for row in range(plan.height)
                       for col in range(plan.width) if not limit.in_region((row, col))]
            extra["avoidMoves"] = [{"player": player, "moves": outside, "untilDepth": 1} for player in ("B", "W")]
        return extra

    def _idle_timeout(self, limit: Limit) -> float:
        if self.idle_timeout_s is not None:
            return self.idle_timeout_s
        visits = limit.visits or limit.nodes or 1000
        return 120.0 + 4.0 * visits + 4.0 * (limit.movetime_s or 0.0)

    def _send_queries(
        self, plan: QueryPlan, pending: set[tuple[int, int]], limit: Limit
    ) -> dict[str, int]:
        """Ask for every pending (segment, turn); returns query id -> segment."""
        assert self._process is not None
        queries: dict[str, int] = {}
        by_segment: dict[int, list[int]] = {}
        for segment, turn in pending:
            by_segment.setdefault(segment, []).append(turn)
        for segment, turns in sorted(by_segment.items()):
            query_id = self._next_id("analysis")
            message = {"id": query_id, **plan.query(segment, turns), **self._query_settings(limit, plan)}
            queries[query_id] = segment
            if not self._process.send(message):
                break  # the reader will report the end of the process
        return queries

    def _terminate(self, queries: dict[str, int]) -> None:
        if self._process is None:
            return
        for query_id in queries:
            self._process.send({"id": self._next_id("terminate"), "action": "terminate", "terminateId": query_id})

    def _analyse(
        self, plan: QueryPlan, wanted: dict[tuple[int, int], list[int]], limit: Limit, stop: threading.Event
    ) -> Generator[Evaluation, None, None]:
        self._wait_started()
        if self._process is None:
            self._restart()
        pending = set(wanted)
        engine_id = self.engine_id(limit)
        idle_timeout = self._idle_timeout(limit)
        crashes = 0
        queries = self._send_queries(plan, pending, limit)
        last_result = time.monotonic()
        try:
            while pending:
                if stop.is_set():
                    return
                assert self._process is not None
                try:
                    line = self._process.lines.get(timeout=0.1)
                except queue.Empty:
                    if time.monotonic() - last_result > idle_timeout:
                        raise EngineTimeout(f"KataGo gave no result for {idle_timeout:g} s") from None
                    continue
                if line is _EOF:
                    crashes += 1
                    why = self._process.why_dead()
                    if crashes > self.max_restarts:
                        raise EngineCrashed(f"KataGo died {crashes} times ({why})")
                    log.warning("KataGo died (%s); restarting and asking %d positions again", why, len(pending))
                    queries = {}
                    self._restart()
                    queries = self._send_queries(plan, pending, limit)
                    last_result = time.monotonic()
                    continue
                message = _parse_line(line)
                if message is None:
                    if line:
                        log.debug("KataGo printed a line that is not JSON: %.200s", line)
                    continue
                query_id = message.get("id")
                if "error" in message:
                    if query_id is None or query_id in queries:
                        field_name = message.get("field")
                        if field_name in ("boardXSize", "boardYSize"):
                            raise EngineUnsuitable(_board_size_message(str(message["error"]), plan))
                        where = f" (field {field_name})" if isinstance(field_name, str) else ""
                        raise EngineError(f"KataGo: {message['error']}{where}")
                    continue
                if "warning" in message:
                    if query_id in queries:
                        warning = f"KataGo: {message['warning']}"
                        self.warnings.append(warning)
                        log.warning("%s", warning)
                    continue
                if query_id not in queries or message.get("isDuringSearch") or message.get("noResults"):
                    continue
                turn = message.get("turnNumber")
                key = (queries[query_id], turn)
                if not isinstance(turn, int) or key not in pending:
                    continue
                plies = wanted[key]
                side = plan.segments[key[0]].side_to_move(turn)
                size = (plan.width, plan.height) if limit.maps else None
                evaluation = evaluation_from_response(message, plies[0], side, self.report_as, engine_id, size)
                if evaluation is None:
                    continue
                pending.discard(key)
                last_result = time.monotonic()
                for ply in plies:
                    yield evaluation.with_ply(ply)
        finally:
            if pending and queries:
                self._terminate(queries)
