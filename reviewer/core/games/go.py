"""Go rules on one board: captures, suicide, ko and superko, passes, setup stones, any width × height.

Recorded games are replayed as the file has them (a file may hold a move the rules refuse: it is
placed, with its captures, as other programs do); a user's move goes through `GoRules.play`, which
refuses an occupied point, a lone stone's suicide, a chain's suicide (unless the rules allow it),
retaking a ko at once, and under superko rules any move that recreates an earlier position.
What the game's rules decide comes from `go_rules.ruleset_of(game.rules)`.
Points are (row, col), row 0 at the bottom, col 0 at the left (as in `gametree`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from reviewer.core.analysis import Limit
from reviewer.core.games.base import IllegalMove, Phase, PlayedMove, Position, opaque_rules
from reviewer.core.games.facets import Ref, is_text, is_threat
from reviewer.core.games.go_rules import BOARD_LINES, DEFAULT, GoRuleset, even_komi, ruleset_of
from reviewer.core.games.memo import NodeMemo, lock
from reviewer.core.games.support import GameSupport, OpponentStrength, RatingScale, ScoreUnits, is_position_setup
from reviewer.core.gametree import Color, Game, GameKind, Node, Point, gtp_from_point, other_color, point_from_gtp

# Reviewer's own search over KataGo's network (`engines.katago_search`): the one name people see
# wherever the engine is named, and how its identity (what the cache keys its figures by) begins.
SEARCH_NAME = "KataGo network, Reviewer's search"
SEARCH_IDENTITY_PREFIX = "Reviewer search "


@dataclass(frozen=True)
class GoPosition:
    """The stones on a Go board after a node, with captures so far.

    `captures_by_black` counts white stones that Black has taken off the board. `ko_point` is the
    point the side to move may not play at once (it would retake a single stone in a ko).
    `earlier` is the position before the last move or pass, back to the start or the last setup:
    the history the superko rules compare against; under button rules the first pass takes the
    button (`button_taken`) and starts that history again."""

    width: int
    height: int
    black: frozenset[Point]
    white: frozenset[Point]
    captures_by_black: int = 0
    captures_by_white: int = 0
    last_move: Point | None = None  # the stone just played; None at the root, after a pass or setup
    to_move: Color = "black"
    ko_point: Point | None = None
    rules: GoRuleset = DEFAULT
    button_taken: bool = False
    earlier: GoPosition | None = field(default=None, compare=False, repr=False)

    @property
    def suicide_allowed(self) -> bool:
        """Whether a chain of two or more stones may take its own last liberty."""
        return self.rules.suicide

    def stone_at(self, point: Point) -> Color | None:
        if point in self.black:
            return "black"
        if point in self.white:
            return "white"
        return None

    def on_board(self, point: Point) -> bool:
        return 0 <= point[0] < self.height and 0 <= point[1] < self.width


def _neighbours_of(point: Point, width: int, height: int) -> tuple[Point, ...]:
    row, col = point
    candidates = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return tuple((r, c) for r, c in candidates if 0 <= r < height and 0 <= c < width)


@functools.lru_cache(maxsize=64)
def _neighbour_table(width: int, height: int) -> dict[Point, tuple[Point, ...]]:
    """Each point's neighbours on a board of this size (looked up for every stone of every group)."""
    return {(row, col): _neighbours_of((row, col), width, height) for row in range(height) for col in range(width)}


class GoBoard:
    """A mutable board with the capture rule, for replaying and trying moves."""

    def __init__(self, width: int, height: int, black: frozenset[Point], white: frozenset[Point]) -> None:
        self.width, self.height = width, height
        self.stones: dict[Point, Color] = dict.fromkeys(black, "black")
        self.stones.update(dict.fromkeys(white, "white"))
        self._neighbours = _neighbour_table(width, height)

    @staticmethod
    def of(position: GoPosition) -> GoBoard:
        return GoBoard(position.width, position.height, position.black, position.white)

    def on_board(self, point: Point) -> bool:
        return 0 <= point[0] < self.height and 0 <= point[1] < self.width

    def neighbours(self, point: Point) -> tuple[Point, ...]:
        found = self._neighbours.get(point)
        return found if found is not None else _neighbours_of(point, self.width, self.height)

    def group_without_liberties(self, start: Point) -> set[Point] | None:
        """The group at `start` when it has no liberty left, else None."""
        color = self.stones[start]
        group, frontier = {start}, [start]
        while frontier:
            for neighbour in self.neighbours(frontier.pop()):
                occupant = self.stones.get(neighbour)
                if occupant is None:
                    return None
                if occupant == color and neighbour not in group:
                    group.add(neighbour)
                    frontier.append(neighbour)
        return group

    def play(self, point: Point, color: Color) -> tuple[set[Point], set[Point]]:
        """Place a stone and take off what it captures; returns (opponent stones captured, own
        stones lost to suicide)."""
        if not self.on_board(point):
            raise ValueError(f"move {point} is off a {self.width}x{self.height} board")
        self.stones[point] = color
        captured: set[Point] = set()
        for neighbour in self.neighbours(point):
            if self.stones.get(neighbour) == other_color(color):
                dead = self.group_without_liberties(neighbour)
                if dead:
                    captured |= dead
                    for stone in dead:
                        del self.stones[stone]
        suicide = self.group_without_liberties(point) or set()
        for stone in suicide:
            del self.stones[stone]
        return captured, suicide

    def setup(self, black: list[Point], white: list[Point], empty: list[Point]) -> None:
        for point in empty:
            self.stones.pop(point, None)
        for point in black:
            if self.on_board(point):
                self.stones[point] = "black"
        for point in white:
            if self.on_board(point):
                self.stones[point] = "white"

    def freeze(self) -> tuple[frozenset[Point], frozenset[Point]]:
        black = frozenset(p for p, c in self.stones.items() if c == "black")
        white = frozenset(p for p, c in self.stones.items() if c == "white")
        return black, white


def player_from_properties(node: Node) -> Color | None:
    """The player to move that a node's `PL[]` names, if any."""
    values = node.properties.get("PL")
    if values:
        letter = values[0].strip().upper()[:1]
        if letter in ("B", "W"):
            return "black" if letter == "B" else "white"
    return None


def start_position(game: Game) -> GoPosition:
    """Setup stones (handicap included) of the game and its root, and the first player."""
    root = game.root
    board = GoBoard(game.board_width, game.board_height, frozenset(), frozenset())
    board.setup(list(game.setup_black), list(game.setup_white), [])
    board.setup(root.setup_black, root.setup_white, root.setup_empty)
    black, white = board.freeze()
    to_move = player_from_properties(root) or game.first_player
    rules = ruleset_of(game.rules)
    return GoPosition(game.board_width, game.board_height, black, white, to_move=to_move, rules=rules)


def _ko_point(board: GoBoard, played: Point, captured: set[Point]) -> Point | None:
    """After a single stone captured a single stone, the captured point is a ko for the other side."""
    if len(captured) != 1:
        return None
    group_size = 1 + sum(1 for n in board.neighbours(played) if board.stones.get(n) == board.stones[played])
    liberties = [n for n in board.neighbours(played) if n not in board.stones]
    if group_size == 1 and len(liberties) == 1:
        return next(iter(captured))
    return None


def _after_stone(position: GoPosition, board: GoBoard, point: Point, color: Color) -> GoPosition:
    captured, lost = board.play(point, color)
    black, white = board.freeze()
    by_black, by_white = position.captures_by_black, position.captures_by_white
    if color == "black":
        by_black, by_white = by_black + len(captured), by_white + len(lost)
    else:
        by_white, by_black = by_white + len(captured), by_black + len(lost)
    return replace(
        position,
        black=black,
        white=white,
        captures_by_black=by_black,
        captures_by_white=by_white,
        last_move=None if lost else point,
        to_move=other_color(color),
        ko_point=None if lost else _ko_point(board, point, captured),
        earlier=position,
    )


def _after_pass(position: GoPosition, color: Color) -> GoPosition:
    takes_button = position.rules.button and not position.button_taken
    return replace(
        position,
        to_move=other_color(color),
        last_move=None,
        ko_point=None,
        button_taken=position.button_taken or takes_button,
        earlier=None if takes_button else position,
    )


def after_recorded(position: GoPosition, node: Node) -> GoPosition:
    """The position after `node` as recorded: its setup first, then its move (captures included)."""
    if node.setup_black or node.setup_white or node.setup_empty:
        board = GoBoard.of(position)
        board.setup(node.setup_black, node.setup_white, node.setup_empty)
        black, white = board.freeze()
        position = replace(position, black=black, white=white, ko_point=None, last_move=None, earlier=None)
    if node.color is not None:
        if node.point is not None:
            position = _after_stone(position, GoBoard.of(position), node.point, node.color)
        else:
            position = _after_pass(position, node.color)
    named = player_from_properties(node)
    return replace(position, to_move=named) if named is not None else position


def refusal(position: GoPosition, point: Point, color: Color) -> str | None:
    """Why the rules refuse `color` at `point`, or None when the move is legal."""
    if not position.on_board(point):
        return f"off the {position.width}x{position.height} board"
    if position.stone_at(point) is not None:
        return "the point is occupied"
    if point == position.ko_point and color == position.to_move:
        return "ko: the stone cannot be retaken at once; play elsewhere first"
    board = GoBoard.of(position)
    _captured, lost = board.play(point, color)
    if len(lost) == 1:
        return "suicide: the stone would have no liberty"
    if lost and not position.rules.suicide:
        return "suicide: the stones would have no liberty"
    if position.rules.ko != "simple" and _repeats(position, board, other_color(color)):
        return f"superko ({position.rules.ko}): the move would repeat an earlier position"
    return None


def _repeats(position: GoPosition, board: GoBoard, to_move: Color) -> bool:
    """Whether the board, `to_move` to play, is one the ko rule bans: the stones of any earlier
    position (positional superko), or its stones and player to move (situational superko)."""
    black, white = board.freeze()
    positional = position.rules.ko == "positional"
    earlier: GoPosition | None = position
    while earlier is not None:
        if earlier.black == black and earlier.white == white and (positional or earlier.to_move == to_move):
            return True
        earlier = earlier.earlier
    return False


_positions: NodeMemo[GoPosition] = NodeMemo()


def position_after(game: Game, node: Node) -> GoPosition:
    """The stones after `node` (setup applied first, then its move, with captures), remembered per node."""
    chain: list[Node] = [*reversed(node.path_from_root())]
    chain.append(game.root)  # chain runs from `node` up to the root
    position: GoPosition | None = None
    known = len(chain)
    with lock:
        for index, step in enumerate(chain):
            cached = _positions.get(step)
            if cached is not None:
                position, known = cached, index
                break
    if position is None:
        position = start_position(game)
        known = len(chain) - 1
        with lock:
            _positions.put(game.root, position)
    for index in range(known - 1, -1, -1):
        position = after_recorded(position, chain[index])
        with lock:
            _positions.put(chain[index], position)
    return position


# KaTrain's game report: the opening is the first 14% of the board's points in moves, the
# middlegame runs to 40%, the endgame is the rest (19x19: moves 1-50, 51-144, 145-).
OPENING_SHARE_OF_POINTS = 0.14
MIDDLEGAME_SHARE_OF_POINTS = 0.40


def phase_bands(width: int, height: int) -> tuple[int, int]:
    """The first move number of the middlegame and of the endgame on a width × height board."""
    points = width * height
    return math.ceil(OPENING_SHARE_OF_POINTS * points), math.ceil(MIDDLEGAME_SHARE_OF_POINTS * points)


def phase_of_move(number: int, width: int, height: int) -> Phase:
    """The phase of the main line's node `number` (1 = the first after the root), as KaTrain counts depth."""
    middlegame_from, endgame_from = phase_bands(width, height)
    if number >= endgame_from:
        return "endgame"
    return "middlegame" if number >= middlegame_from else "opening"


class GoRules:
    kind: GameKind = "go"

    def start(self, game: Game) -> GoPosition:
        return start_position(game)

    def after(self, game: Game, node: Node) -> GoPosition:
        return position_after(game, node)

    def play(self, position: GoPosition, text: str) -> PlayedMove[GoPosition]:
        color = position.to_move
        try:
            point = point_from_gtp(text, position.height)
        except ValueError:
            raise IllegalMove(text, "not a point on this board (say e.g. D4, or pass)") from None
        if point is None:
            return PlayedMove(_after_pass(position, color), "pass", "", color)
        reason = refusal(position, point, color)
        if reason is not None:
            raise IllegalMove(gtp_from_point(point, position.height), reason)
        after = _after_stone(position, GoBoard.of(position), point, color)
        return PlayedMove(after, gtp_from_point(point, position.height), sgf_coordinate(point, position.height), color)

    def side_to_move(self, position: GoPosition) -> Color:
        return position.to_move

    def to_record(self, position: GoPosition, game: Game) -> dict[str, Any]:
        def gtp(points: frozenset[Point]) -> list[str]:
            return sorted(gtp_from_point(p, position.height) for p in points)

        return {
            "width": position.width,
            "height": position.height,
            "black": gtp(position.black),
            "white": gtp(position.white),
            "to_move": position.to_move,
            "ko": None if position.ko_point is None else gtp_from_point(position.ko_point, position.height),
            "komi": game.komi,
            "rules": game.rules,
        }

    def from_record(self, record: dict[str, Any]) -> GoPosition:
        height = int(record["height"])

        def points(texts: list[str]) -> frozenset[Point]:
            return frozenset(p for t in texts if (p := point_from_gtp(t, height)) is not None)

        ko = record.get("ko")
        return GoPosition(
            width=int(record["width"]),
            height=height,
            black=points(record["black"]),
            white=points(record["white"]),
            to_move=record["to_move"],
            ko_point=None if not ko else point_from_gtp(ko, height),
            rules=ruleset_of(record.get("rules")),
        )

    def record_game(self, record: dict[str, Any], first_player: Color) -> Game:
        position = self.from_record(record)
        return Game(
            kind="go",
            board_width=position.width,
            board_height=position.height,
            komi=record.get("komi"),
            rules=record.get("rules"),
            setup_black=sorted(position.black),
            setup_white=sorted(position.white),
            first_player=first_player,
        )

    def phases(self, game: Game) -> list[Phase | None]:
        return [phase_of_move(ply, game.board_width, game.board_height) for ply in range(1, game.ply_count + 1)]

    def position_key(self, position: GoPosition) -> str:
        rows = []
        for row in range(position.height):
            rows.append("".join(_STONE_CHAR[position.stone_at((row, col))] for col in range(position.width)))
        ko = "" if position.ko_point is None else f" ko={gtp_from_point(position.ko_point, position.height)}"
        return f"{position.width}x{position.height} {'/'.join(rows)} {position.to_move[0]}{ko}"


_STONE_CHAR: dict[Color | None, str] = {"black": "X", "white": "O", None: "."}


def sgf_coordinate(point: Point, height: int) -> str:
    """(row, col) -> SGF `pd` (columns from the left, rows from the top)."""
    row, col = point
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[col] + letters[height - 1 - row]


RULES = GoRules()


def move_numbers(game: Game, node: Node) -> dict[Point, int]:
    """The move number of every stone on the board after `node` (the latest stone played on a point
    wins; setup stones and captured stones carry none)."""
    numbers: dict[Point, int] = {}
    for number, step in enumerate(node.path_from_root(), start=1):
        if step.point is not None and step.color is not None:
            numbers[step.point] = number
    position = position_after(game, node)
    return {point: number for point, number in numbers.items() if position.stone_at(point) is not None}


def new_node(game: Game, played: PlayedMove[Position]) -> Node:
    point = point_from_gtp(played.move, game.board_height) if played.machine else None
    return Node(move=played.move, color=played.color, point=point)


def cache_keys(game: Game, plies: Sequence[int]) -> dict[int, str]:
    """The analysis cache's key of each main-line position `plies`: a digest of the board, the
    rules, komi and setup, and every move up to there (so a repeated position keeps its history)."""
    wanted = set(plies)
    header = {
        "size": [game.board_width, game.board_height],
        "rules": (game.rules or "").lower(),
        "komi": game.komi,
        "first": game.first_player,
        "black": sorted(game.setup_black),
        "white": sorted(game.setup_white),
    }
    digest = hashlib.sha256(json.dumps(header, sort_keys=True).encode())
    keys: dict[int, str] = {}
    if 0 in wanted:
        keys[0] = "go:" + digest.hexdigest()
    last = max(wanted, default=0)
    for ply, node in enumerate(game.mainline_nodes(), start=1):
        if ply > last:
            break
        step = [node.color, node.point, sorted(node.setup_black), sorted(node.setup_white), sorted(node.setup_empty)]
        digest.update(b"|" + json.dumps(step).encode())
        if ply in wanted:
            keys[ply] = "go:" + digest.hexdigest()
    missing = wanted - keys.keys()
    if missing:
        raise ValueError(f"the main line has no position {min(missing)}")
    return keys




# The NAGs an SGF holds as themselves (its properties TE/BM/DO/IT, GB/GW/DM/UC, HO); others, such
# as ⩲, would be written GW[1] and read back as ±. tests/gui/test_presenters_notes.py checks this
# against the SGF writer and reader (the games layer does not import the formats).
_SGF_KEPT_NAGS = frozenset({1, 2, 3, 4, 5, 6, 10, 11, 13, 16, 17, 18, 19, 146})


def _sgf_keeps(nag: int) -> bool:
    return nag in _SGF_KEPT_NAGS

SUPPORT = GameSupport(
    kind="go",
    title="Go",
    rules=opaque_rules(RULES),
    first_player="black",
    new_node=new_node,
    numbered_moves=False,
    bottom_player="black",
    scores=ScoreUnits(
        field="score_lead_first", unit="points", per_shown_unit=1.0, shown_decimals=1, loss_decimals=1,
        loss_label="Loss (pts)", average_loss_label="Weighted loss (pts)", average_loss_title="Weighted points lost per move",
        summary_loss_key="weighted_loss", loss_floor=4.0, loss_cap=20.0, shift_worth_saying=2.0, style="lead", averaging="weighted", log_offset=0.1,
        accuracy_names={"accuracy": "KaTrain accuracy"},
        value_first_ref=Ref("reviewer.core.scoring.go:lead_black"), mover_value_ref=Ref("reviewer.core.scoring.go:lead_of_mover"),
        accept_mover_loss=1.5,  # KaTrain's "good" colour class
    ),
    rating=RatingScale(
        unit="rank", description="rank (1k = 0, 1d = 1, 5k = -4)", plural="ranks", decimals=3, spread=2.0,
        format_ref=Ref("reviewer.core.rating.scale:go_rank_text"), parse_ref=Ref("reviewer.core.rating.scale:parse_go_rank"),
        result_ref=Ref("reviewer.core.rating.records:parse_go_result"), header_tags=("WR", "BR"), even_komi=even_komi,
    ),
    assess_ref=Ref("reviewer.core.scoring.go:assess_go"),
    explain_ref=Ref("reviewer.core.explain.go:explain_game_move"),
    threat_ref=Ref("reviewer.core.explain.go:THREAT", is_threat, "a Threat"),
    uses_thresholds=False,
    has_openings=False,
    first_move_needs_start=True,
    engine_protocols=("katago", "builtin"),
    engine_name="KataGo",
    engine_key="katago",
    engine_command_example="katago analysis -model m.bin.gz -config a.cfg",
    install_action="install-katago",
    offers_engine_setup=False,
    open_command_ref=Ref("reviewer.core.engines.katago_adapter:open_command"),
    engine_openers={"katago": Ref("reviewer.core.engines.katago_adapter:open_found"),
                    "builtin": Ref("reviewer.core.engines.builtin_go.adapter:open_found")},
    fingerprint_marks={"katago": Ref("reviewer.core.engines.katago_adapter:fingerprint_marks")},
    engine_listing={"katago": Ref("reviewer.core.engines.katago_adapter:listed")},
    live_budgets_ref=Ref("reviewer.core.services.live:go_budgets"),
    work_unit="visits",
    default_passes_ref=Ref("reviewer.core.passes:default_go_passes"),
    export_extension="sgf",
    export_ref=Ref("reviewer.core.export.sgf:export_go_text"),
    annotate_ref=Ref("reviewer.core.export.sgf:annotate_go_text"),
    own_comment_ref=Ref("reviewer.core.export.sgf:without_generated_lines"),
    embedded_ref=Ref("reviewer.core.embedded_evals:sabaki_evaluations"),
    embedded_name="evaluations (RVW, SBKV or SBKS properties)",
    record_store="property",
    cache_keys=cache_keys,
    report_game_ref=Ref("reviewer.core.report:go_game_fields"),
    report_move_ref=Ref("reviewer.core.report:go_move_fields"),
    graph_modes=("winrate", "lead"),
    database_record_ref=Ref("reviewer.core.database.go:go_record_from_game"),
    database_position_ref=Ref("reviewer.core.database.go:go_position_of_node"),
    default_graph_mode="lead",
    has_eval_bar=False,
    board_header=True,
    board_lines=BOARD_LINES,
    usual_board_sizes=((19, 19), (13, 13), (9, 9)),
    pass_move="pass",
    move_examples=("D4", "pass"),
    nag_names={146: "Hotspot", 16: "Good for White", 17: "Good for Black", 18: "Very good for White",
               19: "Very good for Black", 10: "Even position"},
    keeps_nag=lambda nag: _sgf_keeps(nag),
    point_maps=True,
    engine_identity_prefix="KataGo",  # KataGoEngine.identity
    fallback_engine="builtin",
    fallback_identity_prefix="builtin-go ",  # BuiltinGoEngine.identity
    engine_names=((SEARCH_IDENTITY_PREFIX, SEARCH_NAME),),
    fallback_version_ref=Ref("reviewer.core.engines.builtin_go:VERSION", is_text, "a text"),
    fallback_opener_ref=Ref("reviewer.core.engines.builtin_go.adapter:open_fallback"),
    preload_network_ref=Ref("reviewer.core.engines.katago_adapter:preload_found"),
    setup_ref=Ref("reviewer.core.games.go_setup:SETUP", is_position_setup, "a PositionSetup"),
    frame_ref=Ref("reviewer.core.games.go_frame:frame_position"),
    opponent=OpponentStrength(unit="visits", minimum=1, maximum=3200, default=50, step=10, limit=lambda visits: Limit(visits=visits)),
)
