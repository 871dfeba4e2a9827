"""KataGo's board bookkeeping, for the network's input features and the ladder search.

The board keeps KataGo's layout and its chain lists exactly (`Board` in KataGo's board.cpp): a point
(x, y), y = 0 at the top, lives at `loc = (x + 1) + (y + 1) * (width + 1)`; every chain is a circular
list of its stones (`nxt`) with its head, stone count and liberty count stored at the head. Merges,
captures and the undo of a ladder move rebuild those lists in the same order as KataGo, so the ladder
search (`tactics`) visits liberties in KataGo's order and gives its answers even in the rare positions
where that order matters.
"""

from __future__ import annotations

import random

__all__ = ["BLACK", "EMPTY", "NULL_LOC", "WALL", "WHITE", "Board", "Record"]

EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3
NULL_LOC = 0  # always a wall: "no point"

# A ladder move's undo record: (point, player, ko point before the move, bit i set = captured in direction i).
Record = tuple[int, int, int, int]

_ZOBRIST_CACHE: dict[int, list[tuple[int, int, int]]] = {}


def _zobrist(size: int) -> list[tuple[int, int, int]]:
    """Random 64-bit keys per point and colour (EMPTY -> 0), the same for every board of this array size."""
    table = _ZOBRIST_CACHE.get(size)
    if table is None:
        rng = random.Random(0x4B617461 + size)
        table = [(0, rng.getrandbits(64), rng.getrandbits(64)) for _ in range(size)]
        _ZOBRIST_CACHE[size] = table
    return table


class Board:
    """Stones, chains (circular lists with head, size and liberties), the simple-ko point and a position hash."""

    __slots__ = (
        "adj",
        "captured",
        "colors",
        "head",
        "height",
        "ko_loc",
        "libs",
        "locs",
        "nxt",
        "pos_hash",
        "size",
        "stones",
        "stride",
        "width",
        "zobrist",
    )

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.stride = stride = width + 1
        array = stride * (height + 2) + 1
        self.colors = [WALL] * array
        self.locs = [(x + 1) + (y + 1) * stride for y in range(height) for x in range(width)]  # row-major from the top
        for loc in self.locs:
            self.colors[loc] = EMPTY
        self.head = [NULL_LOC] * array
        self.nxt = [NULL_LOC] * array
        self.libs = [0] * array
        self.size = [0] * array
        self.adj = (-stride, -1, 1, stride)  # up, left, right, down: KataGo's order
        self.ko_loc = NULL_LOC
        self.pos_hash = 0
        self.stones = 0
        self.captured = [0, 0, 0]  # captured[BLACK]: black stones taken off the board (KataGo's numBlackCaptures)
        self.zobrist = _zobrist(array)

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.width, other.height, other.stride = self.width, self.height, self.stride
        other.colors, other.head, other.nxt = self.colors[:], self.head[:], self.nxt[:]
        other.libs, other.size, other.captured = self.libs[:], self.size[:], self.captured[:]
        other.locs, other.adj, other.zobrist = self.locs, self.adj, self.zobrist
        other.ko_loc, other.pos_hash, other.stones = self.ko_loc, self.pos_hash, self.stones
        return other

    def loc(self, x: int, y: int) -> int:
        return (x + 1) + (y + 1) * self.stride

    # ----------------------------------------------------------------------------- queries

    def liberties(self, loc: int) -> int:
        return self.libs[self.head[loc]]

    def immediate_liberties(self, loc: int) -> int:
        colors = self.colors
        return sum(1 for d in self.adj if colors[loc + d] == EMPTY)

    def is_suicide(self, loc: int, pla: int) -> bool:
        colors, head, libs = self.colors, self.head, self.libs
        opp = 3 - pla
        for d in self.adj:
            a = loc + d
            c = colors[a]
            if c == EMPTY or (c == pla and libs[head[a]] > 1) or (c == opp and libs[head[a]] == 1):
                return False
        return True

    def is_illegal_suicide(self, loc: int, pla: int, multi_stone_suicide_legal: bool) -> bool:
        """Suicide the rules forbid: a lone stone's suicide always, a chain's unless the rules allow it."""
        colors, head, libs = self.colors, self.head, self.libs
        opp = 3 - pla
        for d in self.adj:
            a = loc + d
            c = colors[a]
            if c == EMPTY:
                return False
            if c == pla:
                if multi_stone_suicide_legal or libs[head[a]] > 1:
                    return False
            elif c == opp and libs[head[a]] == 1:
                return False
        return True

    def is_legal(self, loc: int, pla: int, multi_stone_suicide_legal: bool) -> bool:
        """An empty point, not the simple-ko point, not an illegal suicide (a pass is not asked here)."""
        return (
            self.colors[loc] == EMPTY
            and loc != self.ko_loc
            and not self.is_illegal_suicide(loc, pla, multi_stone_suicide_legal)
        )

    def would_be_ko_capture(self, loc: int, pla: int) -> bool:
        colors, head, libs = self.colors, self.head, self.libs
        if colors[loc] != EMPTY:
            return False
        opp = 3 - pla
        capturable = NULL_LOC
        for d in self.adj:
            a = loc + d
            c = colors[a]
            if c != WALL and c != opp:
                return False
            if c == opp and libs[head[a]] == 1:
                if capturable != NULL_LOC:
                    return False
                capturable = a
        return capturable != NULL_LOC and self.size[head[capturable]] == 1

    def bound_liberties_after_play(self, loc: int, pla: int) -> tuple[int, int]:
        """KataGo's quick (lower, upper) bound on a new stone's liberties, counted per direction."""
        colors, head, libs, size = self.colors, self.head, self.libs, self.size
        opp = 3 - pla
        immediate = caps = cap_stones = conn = max_conn = 0
        for d in self.adj:
            a = loc + d
            c = colors[a]
            if c == EMPTY:
                immediate += 1
            elif c == opp:
                h = head[a]
                if libs[h] == 1:
                    caps += 1
                    cap_stones += size[h]
            elif c == pla:
                extra = libs[head[a]] - 1
                conn += extra
                max_conn = max(max_conn, extra)
        return caps + max(max_conn, immediate), immediate + cap_stones + conn

    def liberties_after_play(self, loc: int, pla: int, cap: int) -> int:
        """The exact liberties of the chain a stone here would make (after its captures), or `cap` if at least that."""
        colors, head, libs, nxt = self.colors, self.head, self.libs, self.nxt
        opp = 3 - pla
        found: list[int] = []
        captured_heads: list[int] = []
        for d in self.adj:
            a = loc + d
            c = colors[a]
            if c == EMPTY or (c == opp and libs[head[a]] == 1):
                found.append(a)
                if len(found) >= cap:
                    return cap
                if c == opp and head[a] not in captured_heads:
                    captured_heads.append(head[a])
        joined: list[int] = []
        for d in self.adj:
            a = loc + d
            if colors[a] != pla or head[a] in joined:
                continue
            joined.append(head[a])
            cur = a
            while True:
                for d2 in self.adj:
                    lib = cur + d2
                    if lib == loc or lib in found:
                        continue
                    c2 = colors[lib]
                    if c2 == EMPTY or (c2 == opp and head[lib] in captured_heads):
                        found.append(lib)
                        if len(found) >= cap:
                            return cap
                cur = nxt[cur]
                if cur == a:
                    break
        return len(found)

    def connection_heuristic_x2(self, loc: int, pla: int) -> int:
        colors, head, libs = self.colors, self.head, self.libs
        total = 0
        for d in self.adj:
            a = loc + d
            if colors[a] == pla:
                chain_libs = libs[head[a]]
                if chain_libs > 1:
                    total += chain_libs * 2 - 3
        return total

    def find_liberties(self, loc: int, out: list[int]) -> None:
        """Append the chain's liberties not yet in `out`, walking the chain from `loc` (KataGo's order)."""
        colors, nxt, adj = self.colors, self.nxt, self.adj
        cur = loc
        while True:
            for d in adj:
                lib = cur + d
                if colors[lib] == EMPTY and lib not in out:
                    out.append(lib)
            cur = nxt[cur]
            if cur == loc:
                break

    def find_liberty_gaining_captures(self, loc: int, out: list[int]) -> None:
        """Append the capturing points of the opponent chains in atari around the chain (KataGo's order)."""
        colors, head, libs, nxt, adj = self.colors, self.head, self.libs, self.nxt, self.adj
        opp = 3 - colors[loc]
        checked: list[int] = []
        cur = loc
        while True:
            for d in adj:
                a = cur + d
                if colors[a] == opp:
                    h = head[a]
                    if libs[h] == 1 and h not in checked:
                        self.find_liberties(a, out)
                        checked.append(h)
            cur = nxt[cur]
            if cur == loc:
                break

    def has_liberty_gaining_captures(self, loc: int) -> bool:
        colors, head, libs, nxt, adj = self.colors, self.head, self.libs, self.nxt, self.adj
        opp = 3 - colors[loc]
        cur = loc
        while True:
            for d in adj:
                a = cur + d
                if colors[a] == opp and libs[head[a]] == 1:
                    return True
            cur = nxt[cur]
            if cur == loc:
                return False

    def _removed_by_move(self, loc: int, pla: int) -> tuple[list[int], int]:
        """The heads of the chains `pla` playing at the empty `loc` takes off the board (the opponent's
        captured ones, else, for a suicide, its own) and whose stones they are."""
        colors, head, libs = self.colors, self.head, self.libs
        opp = 3 - pla
        suicide = True
        captured: list[int] = []
        for d in self.adj:
            a = loc + d
            c = colors[a]
            if c == EMPTY or (c == pla and libs[head[a]] > 1):
                suicide = False
            elif c == opp and libs[head[a]] == 1:
                suicide = False
                if head[a] not in captured:
                    captured.append(head[a])
        if not suicide:
            return captured, opp
        own: list[int] = []
        for d in self.adj:
            a = loc + d
            if colors[a] == pla and head[a] not in own:
                own.append(head[a])
        return own, pla

    def stones_after_move(self, loc: int, pla: int) -> int:
        """How many stones the board would hold after `pla` plays at the empty `loc` (captures, suicide)."""
        removed, whose = self._removed_by_move(loc, pla)
        placed = 0 if whose == pla else 1  # a suicide takes the new stone off too
        return self.stones + placed - sum(self.size[h] for h in removed)

    def hash_after_move(self, loc: int, pla: int) -> int:
        """The position hash after `pla` plays at the empty `loc` (KataGo's getPosHashAfterMove)."""
        nxt, zobrist = self.nxt, self.zobrist
        removed, whose = self._removed_by_move(loc, pla)
        result = self.pos_hash ^ zobrist[loc][pla]
        for start in removed:
            cur = start
            while True:
                result ^= zobrist[cur][whose]
                cur = nxt[cur]
                if cur == start:
                    break
        if whose == pla:
            result ^= zobrist[loc][pla]
        return result

    # ----------------------------------------------------------------------------- moves

    def play(self, loc: int, pla: int) -> None:
        """Put a stone, merge, capture, set the simple-ko point, remove a suicided chain (playMoveAssumeLegal)."""
        colors, head, libs, size = self.colors, self.head, self.libs, self.size
        opp = 3 - pla
        colors[loc] = pla
        self.pos_hash ^= self.zobrist[loc][pla]
        self.stones += 1
        size[loc] = 1
        libs[loc] = self.immediate_liberties(loc)
        head[loc] = loc
        self.nxt[loc] = loc
        captured = 0
        possible_ko = NULL_LOC
        seen: list[int] = []
        for d in self.adj:
            a = loc + d
            c = colors[a]
            if c == pla:
                if head[a] != head[loc]:
                    libs[head[a]] -= 1
                    self._merge(a, loc)
            elif c == opp:
                h = head[a]
                if h in seen:
                    continue
                libs[h] -= 1
                seen.append(h)
                if libs[h] == 0:
                    captured += self._remove_chain(a)
                    possible_ko = a
        h = head[loc]
        self.ko_loc = possible_ko if captured == 1 and size[h] == 1 and libs[h] == 1 else NULL_LOC
        self.captured[opp] += captured
        if libs[h] == 0:
            self.captured[pla] += size[h]
            self._remove_chain(loc)

    def play_recorded(self, loc: int, pla: int) -> Record:
        """`play` for a move that is not a suicide, with what `undo` needs."""
        colors, head, libs = self.colors, self.head, self.libs
        opp = 3 - pla
        directions = 0
        for i, d in enumerate(self.adj):
            a = loc + d
            if colors[a] == opp and libs[head[a]] == 1:
                directions |= 1 << i
        record = (loc, pla, self.ko_loc, directions)
        self.play(loc, pla)
        return record

    def undo(self, record: Record) -> None:
        """Take back a `play_recorded` move: KataGo's `undo`, which re-links chains in its own order."""
        loc, pla, ko_loc, directions = record
        colors, head, libs, size, nxt = self.colors, self.head, self.libs, self.size, self.nxt
        self.ko_loc = ko_loc
        opp = 3 - pla
        for i, d in enumerate(self.adj):
            a = loc + d
            if directions & (1 << i) and colors[a] == EMPTY:
                self._add_chain(a, opp)
                self.captured[opp] -= size[head[a]]
        self.pos_hash ^= self.zobrist[loc][pla]
        colors[loc] = EMPTY
        self.stones -= 1
        self._change_liberties(loc, opp, 1)
        h = head[loc]
        if size[h] <= 1:
            return
        neighbours = sum(1 for d in self.adj if colors[loc + d] == pla)
        if neighbours <= 1:
            if h == loc:
                new_head = nxt[loc]
                self._set_head(loc, new_head)
                size[new_head], libs[new_head] = size[h], libs[h]
                h = new_head
            cur = h
            while nxt[cur] != loc:
                cur = nxt[cur]
            nxt[cur] = nxt[loc]
            delta = 1
            for d in self.adj:
                a = loc + d
                if colors[a] == EMPTY and not self._is_liberty_of(a, h):
                    delta -= 1
            libs[h] += delta
            size[h] -= 1
        else:
            self._set_head(loc, NULL_LOC)
            for d in self.adj:
                a = loc + d
                if colors[a] == pla and head[a] == NULL_LOC:
                    self._rebuild_chain(a, pla)

    # ----------------------------------------------------------------------------- chain bookkeeping

    def chain_stones(self, start: int) -> list[int]:
        """The stones of the chain through `start`, in the order of its list (from `start`)."""
        nxt = self.nxt
        stones, cur = [start], nxt[start]
        while cur != start:
            stones.append(cur)
            cur = nxt[cur]
        return stones

    def _set_head(self, start: int, new_head: int) -> None:
        """Every stone of the chain list through `start` gets `new_head` as its head."""
        head = self.head
        for stone in self.chain_stones(start):
            head[stone] = new_head

    def _is_liberty_of(self, loc: int, h: int) -> bool:
        colors, head = self.colors, self.head
        color = colors[h]
        for d in self.adj:
            a = loc + d
            if colors[a] == color and head[a] == h:
                return True
        return False

    def _change_liberties(self, loc: int, pla: int, delta: int) -> None:
        """Add `delta` to the liberties of each distinct `pla` chain next to `loc`."""
        colors, head, libs = self.colors, self.head, self.libs
        seen: list[int] = []
        for d in self.adj:
            a = loc + d
            if colors[a] == pla:
                h = head[a]
                if h not in seen:
                    seen.append(h)
                    libs[h] += delta

    def _merge(self, loc1: int, loc2: int) -> None:
        """KataGo's mergeChains: the smaller chain (loc2's on a tie) goes right after the other's head."""
        colors, head, libs, size, nxt = self.colors, self.head, self.libs, self.size, self.nxt
        h1, h2 = head[loc1], head[loc2]
        if size[h1] < size[h2]:
            h1, h2 = h2, h1
        size[h1] += size[h2]
        new_libs = 0
        cur = h2
        while True:
            for d in self.adj:
                a = cur + d
                if colors[a] == EMPTY and not self._is_liberty_of(a, h1):
                    new_libs += 1
            head[cur] = h1
            if nxt[cur] == h2:
                break
            cur = nxt[cur]
        libs[h1] += new_libs
        nxt[cur] = nxt[h1]
        nxt[h1] = h2

    def _remove_chain(self, loc: int) -> int:
        colors, nxt, zobrist = self.colors, self.nxt, self.zobrist
        color = colors[loc]
        opp = 3 - color
        removed = 0
        cur = loc
        while True:
            self.pos_hash ^= zobrist[cur][color]
            colors[cur] = EMPTY
            removed += 1
            self._change_liberties(cur, opp, 1)
            cur = nxt[cur]
            if cur == loc:
                break
        self.stones -= removed
        return removed

    def _flood(self, start: int, pla: int, h: int, fill: bool) -> None:
        """Visit points depth-first in KataGo's recursive order, threading the circular list as it does:
        each visited stone points to the one visited before it and `start` to the last one.

        fill=True (addChain): turn connected empty points into `pla` stones of head `h`.
        fill=False (rebuildChain): re-link the `pla` stones whose head is not `h`, counting liberties."""
        colors, head, libs, size, nxt, adj, zobrist = (
            self.colors,
            self.head,
            self.libs,
            self.size,
            self.nxt,
            self.adj,
            self.zobrist,
        )
        opp = 3 - pla
        libs[h] = 0
        size[h] = 0
        previous = start

        def visit(loc: int, tail: int) -> None:
            if fill:
                colors[loc] = pla
                self.pos_hash ^= zobrist[loc][pla]
                self.stones += 1
            else:
                for d in adj:
                    a = loc + d
                    if colors[a] == EMPTY and not self._is_liberty_of(a, h):
                        libs[h] += 1
            head[loc] = h
            size[h] += 1
            nxt[loc] = tail
            if fill:
                self._change_liberties(loc, opp, -1)

        visit(start, start)
        stack = [(start, 0)]
        while stack:
            loc, i = stack.pop()
            while i < 4:
                a = loc + adj[i]
                i += 1
                if (colors[a] == EMPTY) if fill else (colors[a] == pla and head[a] != h):
                    stack.append((loc, i))
                    visit(a, previous)
                    previous = a
                    stack.append((a, 0))
                    break
        nxt[start] = previous

    def _add_chain(self, loc: int, pla: int) -> None:
        self._flood(loc, pla, loc, fill=True)

    def _rebuild_chain(self, loc: int, pla: int) -> None:
        self._flood(loc, pla, loc, fill=False)


# --------------------------------------------------------------------------------- ladders
