"""KataGo's ladder search and pass-alive area on a `board.Board`, for the network's input features.

`ladders` is KataGo's `iterLadders` with `searchIsLadderCaptured` and
`searchIsLadderCapturedAttackerFirst2Libs`; `area` is `calculateArea` (Benson's pass-alive chains and
territory plus every single-coloured region and every remaining stone) and `independent_life_area`
is `calculateIndependentLifeArea` (area scoring with a group tax).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from reviewer.core.engines.katago_net.board import BLACK, EMPTY, NULL_LOC, WHITE, Board, Record

__all__ = ["area", "independent_life_area", "ladders"]

T = TypeVar("T")
LADDER_NODE_BUDGET = 25000  # KataGo's MAX_LADDER_SEARCH_NODE_BUDGET


def _ladder_captured(board: Board, loc: int, defender_first: bool) -> bool:
    """KataGo's searchIsLadderCaptured: can the chain at `loc` (1 liberty if the defender moves first, else
    at most 2) be captured by a sequence of ataris? Iterative, like KataGo's, with its move order and budget."""
    colors, head, libs = board.colors, board.head, board.libs
    if colors[loc] not in (BLACK, WHITE):
        return False
    chain_libs = libs[head[loc]]
    if chain_libs > 2 or (defender_first and chain_libs > 1):
        return False
    pla = colors[loc]
    opp = 3 - pla
    saved_ko = board.ko_loc
    if defender_first:
        board.ko_loc = NULL_LOC  # at the root every ko is assumed to favour the defender
    stack_size = board.width * board.height * 3 // 2 + 1
    moves: list[list[int]] = [[]]  # per level: the moves to try, the one being tried, its undo record
    current = [-1]
    records: list[Record] = [(0, 0, 0, 0)]
    level = 0
    nodes = 0
    result = False
    from_deeper = False
    adjacent = (1, board.stride)
    while True:
        if level <= -1:
            board.ko_loc = saved_ko
            return result
        if level >= stack_size - 1:
            result, from_deeper, level = True, True, level - 1
            continue
        if nodes >= LADDER_NODE_BUDGET:
            # Like KataGo: undo everything and say "not captured"; the ko point is not restored.
            level -= 1
            while level >= 0:
                board.undo(records[level])
                level -= 1
            return False
        defender = (level % 2 == 0) if defender_first else (level % 2 == 1)
        if current[level] == -1:
            chain_libs = libs[head[loc]]
            if not defender and chain_libs <= 1:
                result, from_deeper, level = True, True, level - 1
                continue
            if not defender and chain_libs >= 3:
                result, from_deeper, level = False, True, level - 1
                continue
            if defender and (chain_libs >= 2 or board.ko_loc != NULL_LOC):
                result, from_deeper, level = False, True, level - 1
                continue
            options: list[int] = []
            if defender:
                board.find_liberty_gaining_captures(loc, options)
                board.find_liberties(loc, options)
                lower, upper = board.bound_liberties_after_play(options[-1], pla)
                if lower >= 3:
                    result, from_deeper, level = False, True, level - 1
                    continue
                if len(options) == 1 and upper <= 1:
                    result, from_deeper, level = True, True, level - 1
                    continue
            else:
                board.find_liberties(loc, options)
                move0, move1 = options[0], options[1]
                libs0, libs1 = board.immediate_liberties(move0), board.immediate_liberties(move1)
                if (
                    libs0 == 0
                    and libs1 == 0
                    and board.would_be_ko_capture(move0, opp)
                    and board.would_be_ko_capture(move1, opp)
                    and board.liberties_after_play(move0, pla, 3) <= 2
                    and board.liberties_after_play(move1, pla, 3) <= 2
                    and not board.has_liberty_gaining_captures(loc)
                ):
                    result, from_deeper, level = True, True, level - 1  # double-ko death
                    continue
                if abs(move0 - move1) not in adjacent:
                    if libs0 >= 3 and libs1 >= 3:
                        result, from_deeper, level = False, True, level - 1
                        continue
                    if libs0 >= 3:
                        options = [move0]
                    elif libs1 >= 3:
                        options = [move1]
                if len(options) > 1:
                    score0 = libs0 * 2 + board.connection_heuristic_x2(move0, pla)
                    score1 = libs1 * 2 + board.connection_heuristic_x2(move1, pla)
                    if score1 > score0:
                        options = [move1, move0]
            moves[level] = options
            current[level] = 0
        else:
            if from_deeper:
                board.undo(records[level])
            if defender != result:  # the defender escaped, or the attacker captured: this level is decided
                from_deeper, level = True, level - 1
                continue
            current[level] += 1
        if current[level] >= len(moves[level]):
            result, from_deeper, level = defender, True, level - 1
            continue
        move = moves[level][current[level]]
        mover = pla if defender else opp
        if not board.is_legal(move, mover, False):  # an illegal move counts as a failed one
            result, from_deeper = defender, False
            continue
        records[level] = board.play_recorded(move, mover)
        nodes += 1
        level += 1
        if level == len(current):
            moves.append([])
            current.append(-1)
            records.append((0, 0, 0, 0))
        else:
            current[level] = -1


def _ladder_working_moves(board: Board, loc: int) -> list[int] | None:
    """KataGo's searchIsLadderCapturedAttackerFirst2Libs: the attacker's ataris on a 2-liberty chain that
    lead to a ladder capture (None if neither does)."""
    if board.colors[loc] not in (BLACK, WHITE) or board.libs[board.head[loc]] != 2:
        return None
    attacker = 3 - board.colors[loc]
    options: list[int] = []
    board.find_liberties(loc, options)
    working: list[int] = []
    for move in options[:2]:
        if board.is_legal(move, attacker, False):
            record = board.play_recorded(move, attacker)
            if _ladder_captured(board, loc, True):
                working.append(move)
            board.undo(record)
    return working or None


def ladders(board: Board, pla: int) -> tuple[list[int], list[int]]:
    """KataGo's iterLadders on `board` with `pla` to move: (stones, of either colour, of chains with 1 or 2
    liberties that are ladder-captured; the attacker's working moves against `pla`'s opponent's
    2-liberty chains). Every search runs on one copy of the board, as KataGo's do."""
    colors, head, libs = board.colors, board.head, board.libs
    opp = 3 - pla
    search = board.copy()
    solved: dict[int, bool] = {}
    laddered: list[int] = []
    working: list[int] = []
    for loc in board.locs:
        color = colors[loc]
        if color == EMPTY:
            continue
        chain_libs = libs[head[loc]]
        if chain_libs != 1 and chain_libs != 2:
            continue
        h = head[loc]
        known = solved.get(h)
        if known is not None:
            if known:
                laddered.append(loc)
            continue
        if chain_libs == 1:
            captured = _ladder_captured(search, loc, True)
            moves: list[int] = []
        else:
            found = _ladder_working_moves(search, loc)
            captured = found is not None
            moves = found or []
        solved[h] = captured
        if captured:
            laddered.append(loc)
            if color == opp:
                working.extend(moves)
    return laddered, working


# --------------------------------------------------------------------------------- area


def _area_for(board: Board, pla: int, suicide_legal: bool, result: list[int]) -> None:
    """KataGo's calculateAreaForPla with safe and unsafe big territories: Benson's pass-alive chains and
    territory, and every region of empty (and opponent) points that touches no opponent stone."""
    colors, head, adj = board.colors, board.head, board.adj
    opp = 3 - pla
    region_of = [-1] * len(colors)
    members: list[list[int]] = []
    vital: list[list[int]] = []
    internal: list[int] = []
    contains_opp: list[bool] = []
    any_pla = False
    for loc in board.locs:
        if region_of[loc] != -1:
            continue
        color = colors[loc]
        if color != EMPTY:
            any_pla = any_pla or color == pla
            continue
        index = len(members)
        heads: list[int] = []
        for d in adj:
            a = loc + d
            if colors[a] == pla and head[a] not in heads:
                heads.append(head[a])
        queue = [loc]
        region_of[loc] = index
        spaces = 0
        has_opp = False
        at = 0
        while at < len(queue):
            point = queue[at]
            at += 1
            point_color = colors[point]
            if heads and (suicide_legal or point_color == EMPTY):
                heads = [h for h in heads if any(colors[point + d] == pla and head[point + d] == h for d in adj)]
            if spaces < 2 and not any(colors[point + d] == pla for d in adj):
                spaces += 1
            if point_color == opp:
                has_opp = True
            for d in adj:
                a = point + d
                if region_of[a] == -1 and (colors[a] == EMPTY or colors[a] == opp):
                    region_of[a] = index
                    queue.append(a)
        members.append(queue)
        vital.append(heads)
        internal.append(spaces)
        contains_opp.append(has_opp)

    pla_heads = [loc for loc in board.locs if colors[loc] == pla and head[loc] == loc]
    vital_count = dict.fromkeys(pla_heads, 0)
    for heads in vital:
        for h in heads:
            vital_count[h] += 1
    killed: set[int] = set()
    borders_dead = [False] * len(members)
    changed = True
    while changed:
        changed = False
        for h in pla_heads:
            if h in killed or vital_count[h] >= 2:
                continue
            killed.add(h)
            changed = True
            for stone in board.chain_stones(h):
                for d in adj:
                    a = stone + d
                    index = region_of[a]
                    if index >= 0 and not borders_dead[index] and colors[a] != pla:
                        borders_dead[index] = True
                        for other in vital[index]:
                            vital_count[other] -= 1
    for h in pla_heads:
        if h not in killed:
            for stone in board.chain_stones(h):
                result[stone] = pla
    if not any_pla:
        return
    for index, points in enumerate(members):
        if not borders_dead[index] and (internal[index] <= 1 or not contains_opp[index]):
            for point in points:
                result[point] = pla
        elif not contains_opp[index]:
            for point in points:
                if result[point] == EMPTY:
                    result[point] = pla


def _basic_area(board: Board, suicide_legal: bool) -> list[int]:
    result = [EMPTY] * len(board.colors)
    _area_for(board, BLACK, suicide_legal, result)
    _area_for(board, WHITE, suicide_legal, result)
    colors = board.colors
    for loc in board.locs:
        if result[loc] == EMPTY:
            result[loc] = colors[loc]
    return result


def area(board: Board, suicide_legal: bool) -> list[int]:
    """KataGo's calculateArea(nonPassAliveStones, safeBig, unsafeBig) per point: BLACK, WHITE or EMPTY (dame)."""
    return _basic_area(board, suicide_legal)


def _fill(start: int, adj: Sequence[int], basic: list[int], owner: int, marks: list[T], value: T) -> None:
    """Set `marks` to `value` at `start` and every point 4-connected to it through points that
    `basic` gives `owner` (and `marks` does not hold `value` yet)."""
    marks[start] = value
    queue = [start]
    while queue:
        point = queue.pop()
        for d in adj:
            a = point + d
            if basic[a] == owner and marks[a] != value:
                marks[a] = value
                queue.append(a)


def independent_life_area(board: Board, suicide_legal: bool) -> tuple[list[int], int]:
    """KataGo's calculateIndependentLifeArea keeping stones, not territories (area scoring with a group tax):
    (area per point, white minus black count of independent-life regions)."""
    colors, head, libs, adj = board.colors, board.head, board.libs, board.adj
    basic = _basic_area(board, suicide_legal)
    seki = [False] * len(colors)
    for loc in board.locs:
        owner = basic[loc]
        if owner == EMPTY or seki[loc]:
            continue
        if (colors[loc] == owner and libs[head[loc]] == 1) or any(
            colors[loc + d] == EMPTY and basic[loc + d] == EMPTY for d in adj
        ):
            _fill(loc, adj, basic, owner, seki, True)
    result = [EMPTY] * len(colors)
    white_minus_black = 0
    for loc in board.locs:
        owner = basic[loc]
        if owner == EMPTY or seki[loc] or result[loc] == owner:
            continue
        white_minus_black += 1 if owner == WHITE else -1
        _fill(loc, adj, basic, owner, result, owner)
    for loc in board.locs:
        if basic[loc] != EMPTY and basic[loc] == colors[loc]:
            result[loc] = basic[loc]
    return result, white_minus_black
