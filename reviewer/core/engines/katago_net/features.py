"""KataGo's input features (inputs version 7, as model version 8 nets take them) for a KataGo query's positions.

The positions are exactly those of `QueryPlan.query(segment_index, turns)` as KataGo's analysis engine
builds them, and the features are what its search feeds the network at the root of each query
(`NNInputs::fillRowV7` with the analysis engine's defaults): the history is ignored before the root
(`ignorePreRootHistory`), so channels 9-13 and globals 0-4 stay zero and the previous-board ladder
channels 15 and 16 repeat channel 14; `conservativePass` hides "a pass would end the game" at the root;
the cleanup phase is prevented, so there is never an encore (channels 7, 20, 21, globals 12, 13 are zero);
no playout doubling advantage; draws count half.

The replay follows the analysis engine: initial stones are placed one by one in the query's order
(a placement that would capture does capture); a move by the player who moved last (or, first, by the
player not named to move) clears the history there, as KataGo does (`hist.clear`); moves are played
tolerantly (a simple-ko recapture or a multi-stone suicide is played whatever the rules), and a move
on an occupied point or a lone stone's suicide makes KataGo reject the whole query, so it raises
`EngineError` here, as the analysis engine's answer would.

Tensors are (positions, rows, columns, channels) with row 0 at the top of the board (KataGo's y) and
column 0 at the left; a policy index is `y * width + x`, the pass last.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from reviewer.core.engines.base import EngineError
from reviewer.core.engines.katago import QueryPlan
from reviewer.core.engines.katago_net.board import BLACK, EMPTY, NULL_LOC, WHITE, Board
from reviewer.core.engines.katago_net.tactics import area, independent_life_area, ladders
from reviewer.core.games.go_rules import GoRuleset, parse_rules
from reviewer.core.gametree import Color, Point, gtp_from_point

__all__ = [
    "GLOBAL_CHANNELS",
    "SPATIAL_CHANNELS",
    "NetInputs",
    "SearchState",
    "inputs_after_moves",
    "inputs_for_turns",
    "inputs_of_states",
    "root_state",
    "root_states",
    "rule_set",
]

SPATIAL_CHANNELS = 22
GLOBAL_CHANNELS = 19
KOMI_CLIP_RADIUS = 20.0
PASS = -1  # a pass in the move history (KataGo's PASS_LOC)


def rule_set(name: str) -> GoRuleset:
    """The rules a query names (`GoRuleset.katago`: 'japanese', 'tromp-taylor', a rule string, ...)."""
    rules = parse_rules(name)
    if rules is None:
        raise ValueError(f"unknown KataGo rules {name!r}")
    return rules


@dataclass(frozen=True)
class NetInputs:
    """The network's inputs for some positions of one query, and what KataGo's post-processing needs.

    `legal`: (positions, height * width + 1), the moves KataGo lets the policy choose (pass always);
    `no_result_possible`: False where KataGo forces the no-result probability to zero (a ko rule other
    than simple with area scoring)."""

    spatial: NDArray[np.float32]  # (positions, height, width, 22)
    global_inputs: NDArray[np.float32]  # (positions, 19)
    to_move: list[Color]
    legal: NDArray[np.bool_]
    no_result_possible: bool


# Keys for the positions KataGo's superko and pass rules compare (its ko hash): the stones, and for every
# ko rule but positional also the player to move.
_PLAYER_KEY = (0, 0x6A09E667F3BCC908, 0xBB67AE8584CAA73B)


class _History:
    """The part of KataGo's BoardHistory that reaches the features (encore phase always 0)."""

    def __init__(self, board: Board, pla: int, rules: GoRuleset, komi: float) -> None:
        self.rules = rules
        self.komi = komi
        self.clear(board, pla)

    def clear(self, board: Board, pla: int) -> None:
        """KataGo's `BoardHistory::clear` followed by `setAssumeMultipleStartingBlackMovesAreHandicap(true)`."""
        self.moves: list[tuple[int, int]] = []
        self.ko_keys = {self._ko_key(board, pla)}
        self.ko_key_stones = {board.stones}
        self.ever_occupied = [color in (BLACK, WHITE) for color in board.colors]
        self.consecutive_passes = 0
        self.keys_before_pass: dict[int, set[int]] = {BLACK: set(), WHITE: set()}
        self.has_button = self.rules.button
        self.start_black = sum(1 for loc in board.locs if board.colors[loc] == BLACK)
        self.start_white = sum(1 for loc in board.locs if board.colors[loc] == WHITE)
        self.white_bonus = 0.0
        if self.rules.territory:  # one point per stone played, captured ones included
            self.white_bonus = float(
                self.start_black - self.start_white - (board.captured[WHITE] - board.captured[BLACK])
            )
        self.white_has_moved = False
        self.handicap_bonus = self._handicap_bonus()

    def copy(self) -> _History:
        """An independent copy (the containers copied, the rules shared)."""
        other = copy.copy(self)
        other.moves = self.moves[:]
        other.ko_keys = set(self.ko_keys)
        other.ko_key_stones = set(self.ko_key_stones)
        other.ever_occupied = self.ever_occupied[:]
        other.keys_before_pass = {pla: set(keys) for pla, keys in self.keys_before_pass.items()}
        return other

    def _ko_key(self, board: Board, pla: int) -> int:
        return board.pos_hash if self.rules.ko == "positional" else board.pos_hash ^ _PLAYER_KEY[pla]

    def _handicap_stones(self) -> int:
        """KataGo's computeNumHandicapStones with assumeMultipleStartingBlackMovesAreHandicap."""
        black_moves = 0
        moves = self.moves
        for i, (loc, pla) in enumerate(moves):
            if pla != BLACK:
                if i + 1 < len(moves) and moves[i + 1][1] != BLACK:
                    black_moves = 0  # White moved twice: a set-up position, not handicap
                    break
                if loc == PASS:
                    continue
                break
            if loc != PASS:
                black_moves += 1
        if self.start_white != 0:
            return 0
        stones = self.start_black + black_moves
        return 0 if stones <= 1 else stones

    def _handicap_bonus(self) -> float:
        rule = self.rules.handicap_bonus
        if rule == "0":
            return 0.0
        stones = self._handicap_stones()
        if rule == "N":
            return float(stones)
        return float(stones - 1) if stones > 1 else 0.0

    def play(self, board: Board, loc: int, pla: int) -> None:
        """KataGo's makeBoardMoveAssumeLegal (a pass is PASS), with the cleanup phase prevented."""
        rules = self.rules
        if loc != PASS:
            self.consecutive_passes = 0
        elif self.has_button:  # the first pass takes the button: half a point, and a fresh ko history
            self.has_button = False
            self.white_bonus += 0.5 if pla == WHITE else -0.5
            self.consecutive_passes = 0
            self.keys_before_pass = {BLACK: set(), WHITE: set()}
            self.ko_keys.clear()
            self.ko_key_stones.clear()
        else:
            if rules.ko == "simple":  # passes lift simple-ko histories (for spight-style phase ends)
                self.ko_keys.clear()
                self.ko_key_stones.clear()
            self.consecutive_passes += 1
            self.keys_before_pass[pla].add(self._ko_key(board, pla))
        if loc == PASS:
            board.ko_loc = NULL_LOC
        else:
            board.play(loc, pla)
            self.ever_occupied[loc] = True
        self.ko_keys.add(self._ko_key(board, 3 - pla))
        self.ko_key_stones.add(board.stones)
        self.moves.append((loc, pla))
        if rules.territory and loc != PASS:
            self.white_bonus += 1.0 if pla == BLACK else -1.0
        if pla == WHITE and loc != PASS:
            self.white_has_moved = True
        if not self.white_has_moved and pla == BLACK and rules.handicap_bonus != "0":
            self.handicap_bonus = self._handicap_bonus()

    def self_komi(self, pla: int) -> float:
        """KataGo's currentSelfKomi in float32 (the draw adjustment is zero when draws count half)."""
        white = float(np.float32(self.white_bonus + self.handicap_bonus + self.komi))
        return white if pla == WHITE else -white

    def pass_would_end_phase(self, board: Board, pla: int) -> bool:
        if self.consecutive_passes + 1 >= 2:
            return True
        return self.repeats_before_pass(board, pla)

    def repeats_before_pass(self, board: Board, pla: int) -> bool:
        """Whether `pla` passed before in this very position (simple ko: a pass then ends the phase)."""
        return self.rules.ko == "simple" and self._ko_key(board, pla) in self.keys_before_pass[pla]

    def superko_banned(self, board: Board, pla: int) -> list[int]:
        """The points KataGo bans for `pla` as recreating an earlier position (positional/situational ko).

        Only points that held a stone before (or a suicide) can repeat a position, and only a position
        with as many stones as an earlier one can equal it: both are checked before any hash is made."""
        rules = self.rules
        if rules.ko == "simple" or not self.moves:
            return []
        banned = []
        colors, ever_occupied, ko_loc = board.colors, self.ever_occupied, board.ko_loc
        after_key = 0 if rules.ko == "positional" else _PLAYER_KEY[3 - pla]
        for loc in board.locs:
            if colors[loc] != EMPTY or loc == ko_loc:
                continue
            if not ever_occupied[loc] and not board.is_suicide(loc, pla):
                continue
            if board.is_illegal_suicide(loc, pla, rules.suicide):
                continue
            if board.stones_after_move(loc, pla) not in self.ko_key_stones:
                continue
            if board.hash_after_move(loc, pla) ^ after_key in self.ko_keys:
                banned.append(loc)
        return banned


def _wave(self_komi: float, board_area: int) -> float:
    """Global 18: a triangle wave of the komi's distance to the komis that allow a draw on this board."""
    if board_area % 2 == 0:
        floor = math.floor(self_komi / 2.0) * 2.0
    else:
        floor = math.floor((self_komi - 1.0) / 2.0) * 2.0 + 1.0
    delta = min(2.0, max(0.0, self_komi - floor))
    if delta < 0.5:
        return delta
    if delta < 1.5:
        return 1.0 - delta
    return delta - 2.0


class _Featurizer:
    """Writes one position's features into preallocated rows."""

    def __init__(self, width: int, height: int, rules: GoRuleset, count: int) -> None:
        self.width, self.height, self.rules = width, height, rules
        self.spatial = np.zeros((count, height * width, SPATIAL_CHANNELS), np.float32)
        self.global_inputs = np.zeros((count, GLOBAL_CHANNELS), np.float32)
        self.legal = np.zeros((count, height * width + 1), np.bool_)
        self.legal[:, -1] = True
        self.spatial[:, :, 0] = 1.0
        stride = width + 1
        self.pos_of = {(x + 1) + (y + 1) * stride: y * width + x for y in range(height) for x in range(width)}
        constant = np.zeros(GLOBAL_CHANNELS, np.float32)
        if rules.ko == "positional":
            constant[6], constant[7] = 1.0, 0.5
        elif rules.ko == "situational":
            constant[6], constant[7] = 1.0, -0.5
        constant[8] = float(rules.suicide)
        constant[9] = float(rules.territory)
        constant[10] = float(rules.tax != "none")
        constant[11] = float(rules.tax == "all")
        self.global_inputs[:] = constant

    def fill(
        self, row: int, board: Board, history: _History, pla: int, since_root: Sequence[tuple[int, Board]] | None = None
    ) -> None:
        """Position `row`: at the root of a query, or below it with `since_root` = the moves played
        since the root, each with the board it was played on (oldest first; the last five count),
        as KataGo's search evaluates the nodes of its tree."""
        rules, pos_of = self.rules, self.pos_of
        opp = 3 - pla
        colors, head, libs = board.colors, board.head, board.libs
        own: list[int] = []
        other: list[int] = []
        libs1: list[int] = []
        libs2: list[int] = []
        libs3: list[int] = []
        legal: list[int] = []
        banned = set(history.superko_banned(board, pla))
        ko_loc = board.ko_loc
        for pos, loc in enumerate(board.locs):
            color = colors[loc]
            if color == EMPTY:
                if loc != ko_loc and loc not in banned and not board.is_illegal_suicide(loc, pla, rules.suicide):
                    legal.append(pos)
                continue
            (own if color == pla else other).append(pos)
            chain_libs = libs[head[loc]]
            if chain_libs <= 3:
                (libs1, libs2, libs3)[chain_libs - 1].append(pos)
        spatial = self.spatial[row]
        spatial[own, 1] = 1.0
        spatial[other, 2] = 1.0
        spatial[libs1, 3] = 1.0
        spatial[libs2, 4] = 1.0
        spatial[libs3, 5] = 1.0
        self.legal[row, legal] = True
        ko_points = [pos_of[loc] for loc in banned]
        if ko_loc != NULL_LOC:
            ko_points.append(pos_of[ko_loc])
        spatial[ko_points, 6] = 1.0
        laddered, working = ladders(board, pla)
        laddered_points = [pos_of[loc] for loc in laddered]
        spatial[laddered_points, 14] = 1.0
        spatial[[pos_of[loc] for loc in working], 17] = 1.0
        owned_margin = 0  # the area channels' points for pla minus those for opp (with the stones tax)
        if not rules.territory:  # territory scoring shows area only in the encore, which never comes
            if rules.tax == "none":
                owners = area(board, rules.suicide)
            else:
                owners, tax_count = independent_life_area(board, rules.suicide)
                if rules.tax == "all":
                    owned_margin = -2 * tax_count if pla == WHITE else 2 * tax_count
            mine = [pos for pos, loc in enumerate(board.locs) if owners[loc] == pla]
            theirs = [pos for pos, loc in enumerate(board.locs) if owners[loc] == opp]
            spatial[mine, 18] = 1.0
            spatial[theirs, 19] = 1.0
            owned_margin += len(mine) - len(theirs)

        unclipped_komi = history.self_komi(pla)
        pass_ends_phase = history.pass_would_end_phase(board, pla)
        pass_ends_game = pass_ends_phase and not rules.territory
        if since_root is None:  # conservativePass hides a pass that would end the game at the root
            hidden = pass_ends_game
        else:  # KataGo's friendly-pass and passing hacks below the root
            friendly = rules.friendly_pass and history.consecutive_passes + 1 == 2 and not history.repeats_before_pass(board, pla)
            losing = not rules.territory and float(np.float32(owned_margin)) + unclipped_komi <= 0
            hidden = pass_ends_game and (friendly or losing)
        previous = before_previous = board
        if since_root and not hidden:
            recent = since_root[-5:]
            for back, (move, _) in enumerate(reversed(recent)):  # the last move first: channel 9, global 0
                if move == PASS:
                    self.global_inputs[row, back] = 1.0
                else:
                    spatial[pos_of[move], 9 + back] = 1.0
            previous = since_root[-1][1]
            before_previous = since_root[-2][1] if len(since_root) >= 2 else previous
        # the boards 1 and 2 moves ago, as far as the history since the root goes
        for channel, past in ((15, previous), (16, before_previous)):
            points = laddered_points if past is board else [pos_of[loc] for loc in ladders(past, opp)[0]]
            spatial[points, channel] = 1.0

        board_area = self.width * self.height
        self_komi = min(board_area + KOMI_CLIP_RADIUS, max(-board_area - KOMI_CLIP_RADIUS, unclipped_komi))
        glob = self.global_inputs[row]
        glob[5] = np.float32(self_komi) / np.float32(20.0)
        glob[14] = float(pass_ends_phase and not hidden)
        glob[17] = float(history.has_button)
        if not rules.territory:
            glob[18] = _wave(self_komi, board_area)


def _loc(board: Board, point: Point, height: int) -> int:
    row, col = point
    return board.loc(col, height - 1 - row)


def _color_code(color: Color) -> int:
    return BLACK if color == "black" else WHITE


def _replay(plan: QueryPlan, segment_index: int) -> Iterator[tuple[int, Board, _History, int]]:
    """(turn, board, history, player to move) before each move of the segment and after the last,
    replayed as KataGo's analysis engine does; the board and history are the same objects, changed
    in place between turns. Raises EngineError where KataGo would reject the query."""
    segment = plan.segments[segment_index]
    height = plan.height
    rules = rule_set(plan.rules)
    board = Board(plan.width, height)
    for stone, stone_color in sorted(segment.initial_stones.items()):  # the query's order, placed like setStone
        loc = _loc(board, stone, height)
        pla = _color_code(stone_color)
        if board.colors[loc] == EMPTY and not board.is_illegal_suicide(loc, pla, True):
            board.play(loc, pla)
        board.ko_loc = NULL_LOC
    next_pla = _color_code(segment.side_to_move(0))
    history = _History(board, next_pla, rules, float(np.float32(plan.komi)))
    moves = segment.moves
    for turn in range(len(moves) + 1):
        yield turn, board, history, next_pla
        if turn == len(moves):
            return
        color, point = moves[turn]
        pla = _color_code(color)
        if pla != next_pla:
            board.ko_loc = NULL_LOC
            history.clear(board, pla)
        history.play(board, _checked_loc(board, point, pla, height, f"move {turn} ({color})"), pla)
        next_pla = 3 - pla


def _checked_loc(board: Board, point: Point | None, pla: int, height: int, what: str) -> int:
    if point is None:
        return PASS
    loc = _loc(board, point, height)
    if board.colors[loc] != EMPTY or board.is_illegal_suicide(loc, pla, True):
        problem = "occupied point" if board.colors[loc] != EMPTY else "suicide"
        raise EngineError(f"KataGo refuses {what} {gtp_from_point(point, height)}: {problem}")
    return loc


def _wanted_rows(plan: QueryPlan, segment_index: int, turns: Sequence[int]) -> dict[int, list[int]]:
    last = len(plan.segments[segment_index].moves)
    wanted: dict[int, list[int]] = {}
    for row, turn in enumerate(turns):
        if not 0 <= turn <= last:
            raise ValueError(f"turn {turn} is outside segment {segment_index} ({last} moves)")
        wanted.setdefault(turn, []).append(row)
    return wanted


def _inputs(plan: QueryPlan, featurizer: _Featurizer, to_move: list[Color]) -> NetInputs:
    rules = featurizer.rules
    return NetInputs(
        spatial=featurizer.spatial.reshape(len(to_move), plan.height, plan.width, SPATIAL_CHANNELS),
        global_inputs=featurizer.global_inputs,
        to_move=to_move,
        legal=featurizer.legal,
        no_result_possible=rules.ko == "simple" or rules.territory,
    )


def _color_name(pla: int) -> Color:
    return "black" if pla == BLACK else "white"


def inputs_for_turns(plan: QueryPlan, segment_index: int, turns: Sequence[int]) -> NetInputs:
    """The network inputs of the positions after the first `t` moves of the segment, for each t in `turns`
    (in that order), as KataGo's analysis engine evaluates them for `plan.query(segment_index, turns)`.

    Replays the whole segment once. Raises EngineError where KataGo would reject the query (a move on
    an occupied point or a lone stone's suicide anywhere in the segment), ValueError for a turn outside
    the segment or unknown rules."""
    wanted = _wanted_rows(plan, segment_index, turns)
    featurizer = _Featurizer(plan.width, plan.height, rule_set(plan.rules), len(turns))
    to_move: list[Color] = ["black"] * len(turns)
    for turn, board, history, next_pla in _replay(plan, segment_index):  # to the end: KataGo checks every move
        for row in wanted.get(turn, ()):
            featurizer.fill(row, board, history, next_pla)
            to_move[row] = _color_name(next_pla)
    return _inputs(plan, featurizer, to_move)


def inputs_after_moves(plan: QueryPlan, segment_index: int, moves: Sequence[tuple[int, Point | None]]) -> NetInputs:
    """For each (turn, move): the inputs of the position after the segment's first `turn` moves and
    then `move` (None = pass) by the player to move, as KataGo's search evaluates that child of the
    root of `plan.query(segment_index, [turn])` (its history since the root: that one move)."""
    wanted = _wanted_rows(plan, segment_index, [turn for turn, _ in moves])
    featurizer = _Featurizer(plan.width, plan.height, rule_set(plan.rules), len(moves))
    to_move: list[Color] = ["black"] * len(moves)
    for turn, board, history, next_pla in _replay(plan, segment_index):
        for row in wanted.get(turn, ()):
            child, child_history = board.copy(), copy.deepcopy(history)
            point = moves[row][1]
            loc = _checked_loc(child, point, next_pla, plan.height, "the move after the root")
            child_history.play(child, loc, next_pla)
            featurizer.fill(row, child, child_history, 3 - next_pla, since_root=[(loc, board)])
            to_move[row] = _color_name(3 - next_pla)
    return _inputs(plan, featurizer, to_move)


@dataclass(frozen=True)
class SearchState:
    """A position of a search tree over one query's root: the board and history there, the player to
    move, and the moves since the root with the boards they were played on (oldest first, the last
    five: what the network sees of them). `game_over`: the last move was a pass that ended the game."""

    board: Board
    history: _History
    pla: int
    since_root: tuple[tuple[int, Board], ...]
    game_over: bool = False
    depth: int = 0

    @property
    def to_move(self) -> Color:
        return _color_name(self.pla)

    def child(self, index: int) -> SearchState:
        """The position after the move at policy index `index` (y * width + x; width * height = pass)
        by the player to move; the move must be legal (one the policy of this position allows)."""
        board = self.board
        loc = PASS if index == board.width * board.height else board.locs[index]
        game_over = loc == PASS and self.history.pass_would_end_phase(board, self.pla)
        child_board, child_history = board.copy(), self.history.copy()
        child_history.play(child_board, loc, self.pla)
        since_root = (*self.since_root, (loc, board))[-5:]
        return SearchState(child_board, child_history, 3 - self.pla, since_root, game_over, self.depth + 1)

    def rerooted(self, depth: int) -> SearchState:
        """This position seen from a root `depth` moves further down its line: only the moves
        since that root stay in its history (`depth` 0: this position is the root)."""
        kept = self.depth - depth
        since_root = self.since_root[max(0, len(self.since_root) - kept) :] if kept > 0 else ()
        return replace(self, since_root=since_root, depth=max(0, kept))


def root_states(plan: QueryPlan, segment_index: int, turns: Sequence[int]) -> dict[int, SearchState]:
    """The positions of `plan.query(segment_index, turns)`'s roots, as KataGo's analysis engine replays
    them, by turn; one replay of the segment (EngineError where KataGo would reject the query,
    ValueError for a turn outside the segment)."""
    wanted = _wanted_rows(plan, segment_index, turns)
    found: dict[int, SearchState] = {}
    for turn, board, history, next_pla in _replay(plan, segment_index):  # to the end: KataGo checks every move
        if turn in wanted:
            found[turn] = SearchState(board.copy(), history.copy(), next_pla, ())
    return found


def root_state(plan: QueryPlan, segment_index: int, turn: int) -> SearchState:
    """`root_states` of one turn."""
    return root_states(plan, segment_index, [turn])[turn]


def inputs_of_states(plan: QueryPlan, states: Sequence[SearchState]) -> NetInputs:
    """The network's inputs for positions of search trees over `plan`'s queries: a root (depth 0)
    as KataGo's search evaluates its root, a deeper one with the history since its root."""
    featurizer = _Featurizer(plan.width, plan.height, rule_set(plan.rules), len(states))
    for row, state in enumerate(states):
        featurizer.fill(row, state.board, state.history, state.pla, state.since_root if state.depth else None)
    return _inputs(plan, featurizer, [state.to_move for state in states])
