"""Connect Four on 7 columns × 6 rows: a third game that lives only in the tests.

It brings what a game brings (`reviewer.core.games.GameSupport`): rules, a reader for its own
few-line text format (`.c4`), an engine adapter for a tiny line protocol (tests/fakes/fake_connect_four.py),
and a writer for its annotated file; scoring and the report's fields are Go's (a lead in points for
the first player, who plays the "black" discs). Nothing outside this module knows it.

The format:

    Black: Alice
    White: Bob
    Result: B+
    Moves: d d c e

Moves are column letters a..g; a disc falls to the lowest empty row of its column.
"""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable, Limit
from reviewer.core.engines.base import EngineCrashed
from reviewer.core.formats.collection import BuiltCollection, GameCollection
from reviewer.core.games import IllegalMove, Phase, PlayedMove
from reviewer.core.games.base import Position as AnyPosition
from reviewer.core.games.base import opaque_rules
from reviewer.core.games.support import GameSupport, RatingScale, Ref, ScoreUnits
from reviewer.core.gametree import Color, Game, Node, other_color

KIND = "connect4"
COLUMNS = "abcdefg"
ROWS = 6


@dataclass(frozen=True)
class Position:
    columns: tuple[tuple[Color, ...], ...]  # each column's discs, bottom first
    to_move: Color


class ConnectFourRules:
    kind = KIND

    def start(self, game: Game) -> Position:
        return Position(tuple(() for _ in COLUMNS), game.first_player)

    def after(self, game: Game, node: Node) -> Position:
        position = self.start(game)
        for step in node.path_from_root():
            position = self.play(position, step.move or "").position
        return position

    def play(self, position: Position, text: str) -> PlayedMove[Position]:
        column = COLUMNS.find(text.strip().lower()) if len(text.strip()) == 1 else -1
        if column < 0:
            raise IllegalMove(text, "not a column a..g")
        if len(position.columns[column]) >= ROWS:
            raise IllegalMove(text, "the column is full")
        columns = list(position.columns)
        columns[column] = (*columns[column], position.to_move)
        letter = COLUMNS[column]
        return PlayedMove(Position(tuple(columns), other_color(position.to_move)), letter, letter, position.to_move)

    def side_to_move(self, position: Position) -> Color:
        return position.to_move

    def position_key(self, position: Position) -> str:
        return "/".join("".join(color[0] for color in column) for column in position.columns) + " " + position.to_move[0]

    def to_record(self, position: Position, game: Game) -> dict[str, Any]:
        return {"columns": [list(column) for column in position.columns], "to_move": position.to_move}

    def from_record(self, record: dict[str, Any]) -> Position:
        return Position(tuple(tuple(column) for column in record["columns"]), record["to_move"])

    def record_game(self, record: dict[str, Any], first_player: Color) -> Game:
        raise NotImplementedError("games from a recorded position are not needed here")

    def phases(self, game: Game) -> list[Phase | None]:
        return ["opening" if ply < 8 else "middlegame" for ply in range(game.ply_count)]


RULES = ConnectFourRules()


def new_node(game: Game, played: PlayedMove[AnyPosition]) -> Node:
    return Node(move=played.move, color=played.color)


def game_from_text(text: str) -> Game:
    fields: dict[str, str] = {}
    for line in text.splitlines():
        name, colon, value = line.partition(":")
        if colon:
            fields[name.strip().lower()] = value.strip()
    game = Game(kind=KIND, black=fields.get("black", ""), white=fields.get("white", ""), result=fields.get("result", ""),
                board_width=len(COLUMNS), board_height=ROWS, first_player="black")
    position, node = RULES.start(game), game.root
    for text_move in fields.get("moves", "").split():
        played = RULES.play(position, text_move)  # IllegalMove (a ValueError): the file cannot be read
        node = node.add_child(new_node(game, played))
        position = played.position
    return game


def open_file(path: str, data: bytes) -> GameCollection:
    text = data.decode("utf-8")
    return BuiltCollection(path, "utf-8", "c4", [lambda: game_from_text(text)])


def write_text(game: Game) -> str:
    moves = " ".join(node.move or "" for node in game.mainline_nodes())
    return f"Black: {game.black}\nWhite: {game.white}\nResult: {game.result}\nMoves: {moves}\n"


def annotate(game: Game, evaluations: EvaluationTable, assessment: Any, engine_info: Any, with_analysis: bool) -> Game:
    annotated = game_from_text(write_text(game))
    if assessment is not None:
        for node, move in zip(annotated.mainline_nodes(), assessment.moves):
            node.comment = f"{move.judgement or ''} {move.loss if move.loss is not None else ''}".strip()
    return annotated


def export_text(game: Game, evaluations: EvaluationTable, assessment: Any, engine_info: Any, with_analysis: bool) -> str:
    annotated = annotate(game, evaluations, assessment, engine_info, with_analysis)
    lines = [f"Review: {node.move} {node.comment}" for node in annotated.mainline_nodes()]
    return write_text(annotated) + "\n".join(lines) + "\n"


class LineEngine:
    """The fake engine's protocol: `position <moves>` in, `candidates <move>:<lead> ...` out, best first."""

    kind = KIND

    def __init__(self, command: Sequence[str], threads: int | None = None) -> None:
        self._process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    @property
    def identity(self) -> str:
        return "fake-connect-four 1"

    def analyse(self, game: Game, plies: Sequence[int], limit: Limit, stop: threading.Event) -> Generator[Evaluation, None, None]:
        assert self._process.stdin is not None and self._process.stdout is not None
        moves = game.mainline_moves()
        for ply in plies:
            if stop.is_set():
                return
            self._process.stdin.write(f"position {' '.join(moves[:ply])}\n")
            self._process.stdin.flush()
            answer = self._process.stdout.readline().split()
            if not answer or answer[0] != "candidates":
                raise EngineCrashed(f"the fake engine answered {answer!r}")
            candidates = tuple(
                Candidate(move=move, order=order, score_lead_first=float(lead))
                for order, (move, _, lead) in enumerate(item.partition(":") for item in answer[1:])
            )
            side = game.first_player if ply % 2 == 0 else other_color(game.first_player)
            yield Evaluation(
                ply=ply, kind=KIND, engine_id=f"{self.identity} | {limit.describe()}", side_to_move=side,
                score_lead_first=candidates[0].score_lead_first if candidates else 0.0,
                best_move=candidates[0].move if candidates else None, candidates=candidates,
            )

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=10)
        if self._process.stdout is not None:
            self._process.stdout.close()


def open_engine(command: list[str], threads: int | None) -> LineEngine:
    return LineEngine(command, threads)


def live_budgets() -> list[Limit]:
    return [Limit(visits=1)]


_PASSES_ID = re.compile(r"^connect4-passes-v1:visits(?P<fast>\d+)>(?P<deep>\d+):tail(?P<tail>\d+)$")


@dataclass(frozen=True)
class ConnectFourPasses:
    """A review in two passes of its own (`passes.PassScheme`): every position, then again, one at a
    time, the positions of the last `tail` moves, where a game of Connect Four is decided."""

    visits: tuple[int, int] = (1, 4)
    tail: int = 2
    kind: str = KIND

    @property
    def scheme_id(self) -> str:
        return f"connect4-passes-v1:visits{self.visits[0]}>{self.visits[1]}:tail{self.tail}"

    @property
    def pass_count(self) -> int:
        return len(self.visits)

    @property
    def pass_budgets(self) -> tuple[int, ...]:
        return self.visits

    def from_id(self, scheme_id: str) -> ConnectFourPasses | None:
        match = _PASSES_ID.match(scheme_id)
        return None if match is None else ConnectFourPasses((int(match["fast"]), int(match["deep"])), int(match["tail"]))

    def with_budgets(self, budgets: Sequence[int]) -> ConnectFourPasses:
        return ConnectFourPasses((budgets[0], budgets[-1]))

    def limit(self, multipv: int = 1) -> Limit:
        return Limit(scheme=self.scheme_id, multipv=multipv)

    def pass_limit(self, index: int) -> Limit:
        return Limit(visits=self.visits[index - 1])

    def describe_pass(self, index: int) -> str:
        return f"{self.visits[index - 1]} visits"

    def describe(self) -> str:
        return f"passes · {self.visits[0]} → {self.visits[1]} visits"

    def targets(self, game: Game, index: int, latest: dict[int, Evaluation], earlier: dict[int, Evaluation],
                touched: set[int]) -> set[int]:
        return set(range(max(0, game.ply_count - self.tail), game.ply_count + 1))

    def batches(self, game: Game, index: int, to_search: list[int], latest: dict[int, Evaluation],
                focus: Callable[[], Sequence[int]] | None, wanted: set[int]) -> Iterator[list[int]]:
        for ply in to_search:
            yield [ply]

    def further_targets(self, game: Game, index: int, latest: dict[int, Evaluation]) -> set[int]:
        return set()

    def searcher(self, engine: LineEngine, scheme_engine_id: str) -> Callable[..., Iterator[Evaluation]]:
        return engine.analyse


def default_passes(cores: int | None) -> ConnectFourPasses:
    return ConnectFourPasses()


SUPPORT = GameSupport(
    kind=KIND,
    title="Connect Four",
    rules=opaque_rules(RULES),
    first_player="black",
    new_node=new_node,
    numbered_moves=False,
    bottom_player="black",
    scores=ScoreUnits(
        field="score_lead_first", unit="points", per_shown_unit=1.0, shown_decimals=1, loss_decimals=1,
        loss_label="Loss (pts)", average_loss_label="Weighted loss (pts)", average_loss_title="Weighted points lost",
        summary_loss_key="weighted_loss", loss_floor=1.0, loss_cap=10.0, shift_worth_saying=1.0, style="lead",
        averaging="weighted", log_offset=0.1, value_first_ref=Ref("reviewer.core.scoring.go:lead_black"),
        mover_value_ref=Ref("reviewer.core.scoring.go:lead_of_mover"), accept_mover_loss=1.5,
    ),
    rating=RatingScale(
        unit="Elo", description="Elo", plural="ratings", decimals=1, spread=200.0, format_ref=Ref("reviewer.core.rating.scale:elo_text"),
        parse_ref=Ref("reviewer.core.rating.scale:parse_elo"), result_ref=Ref("reviewer.core.rating.records:parse_go_result"),
    ),
    assess_ref=Ref("reviewer.core.scoring.go:assess_go"),
    uses_thresholds=False,
    has_openings=False,
    first_move_needs_start=True,
    engine_protocols=("fake-connect-four",),
    engine_name="Fake Connect Four",
    engine_key="fake-connect-four",
    engine_command_example="python fake_connect_four.py",
    install_action="",
    offers_engine_setup=False,
    open_command_ref=Ref(f"{__name__}:open_engine"),
    live_budgets_ref=Ref(f"{__name__}:live_budgets"),
    work_unit="visits",
    export_extension="c4",
    export_ref=Ref(f"{__name__}:export_text"),
    annotate_ref=Ref(f"{__name__}:annotate"),
    readers={".c4": Ref(f"{__name__}:open_file")},
    report_game_ref=Ref(""),
    report_move_ref=Ref("reviewer.core.report:go_move_fields"),
    move_examples=("d",),
    default_graph_mode="value",  # its engine tells leads only, no win chances
)
