"""Go board rules for the built-in engine, compiled with numba.

The board is a padded one-dimensional array: a point (row, col) lives at index
`(row + 1) * stride + col + 1` with `stride = width + 2`, so every point has four
neighbours and the frame holds `BORDER`. All state is in two int64 arrays so that a
position is copied with two `np.copyto` calls:

- `b` (shape `(ROWS, size)`): per index, colour, group representative, next stone of the
  group (a circular list), and at a group's representative its pseudo-liberty count, sum and
  sum of squares (one entry per stone/empty-neighbour adjacency). A group is in atari exactly
  when all its pseudo-liberties are the same point: `count * sum_sq == sum ** 2`.
  Two more rows hold the list of empty points and each empty point's index in it.
- `meta`: the ko point, who is to move, how many empty points, consecutive passes, the last
  move and the move count.

`cfg` is fixed per board: width, height, stride, size, and whether a chain's suicide is legal
(`GoRuleset.suicide`: tromp-taylor, new-zealand and Ing allow it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
PASS = -1

# rows of b
COLOR, GROUP, NEXT, LIBS, LIBSUM, LIBSQ, SIZE, EMPTIES, EMPTY_INDEX = range(9)
ROWS = 9

# entries of meta
KO, TO_MOVE, N_EMPTY, PASSES, LAST, MOVES = range(6)
META_SIZE = 8

# entries of cfg
CFG_WIDTH, CFG_HEIGHT, CFG_STRIDE, CFG_SIZE, CFG_SUICIDE = range(5)
CFG_LEN = 5


def new_board(width: int, height: int, suicide_allowed: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty board, Black to move: (b, meta, cfg)."""
    stride = width + 2
    size = stride * (height + 2)
    cfg = np.array([width, height, stride, size, int(suicide_allowed)], dtype=np.int64)
    b = np.zeros((ROWS, size), dtype=np.int64)
    b[COLOR, :] = BORDER
    for row in range(height):
        for col in range(width):
            b[COLOR, (row + 1) * stride + col + 1] = EMPTY
    meta = np.zeros(META_SIZE, dtype=np.int64)
    meta[TO_MOVE] = BLACK
    rebuild(b, meta, cfg)
    return b, meta, cfg


@njit(cache=True)
def rebuild(b, meta, cfg):
    """Recompute groups, liberties and the empty list from the colours alone (after setup stones)."""
    stride = cfg[CFG_STRIDE]
    size = cfg[CFG_SIZE]
    offsets = (-1, 1, -stride, stride)
    meta[N_EMPTY] = 0
    meta[KO] = PASS
    for p in range(size):
        b[GROUP, p] = -1
        b[NEXT, p] = p
        b[LIBS, p] = 0
        b[LIBSUM, p] = 0
        b[LIBSQ, p] = 0
        b[SIZE, p] = 0
        b[EMPTY_INDEX, p] = -1
    stack = np.empty(size, dtype=np.int64)
    for p in range(size):
        color = b[COLOR, p]
        if color == EMPTY:
            _add_empty(b, meta, p)
        elif (color == BLACK or color == WHITE) and b[GROUP, p] < 0:
            # flood the group, linking its stones into a circular list with p as representative
            top = 0
            stack[top] = p
            top += 1
            b[GROUP, p] = p
            last = p
            count = 0
            while top > 0:
                top -= 1
                s = stack[top]
                count += 1
                if s != p:
                    b[NEXT, last] = s
                    last = s
                for k in range(4):
                    n = s + offsets[k]
                    if b[COLOR, n] == EMPTY:
                        _add_lib(b, p, n)
                    elif b[COLOR, n] == color and b[GROUP, n] < 0:
                        b[GROUP, n] = p
                        stack[top] = n
                        top += 1
            b[NEXT, last] = p
            b[SIZE, p] = count


@njit(cache=True, inline="always")
def _add_lib(b, g, p):
    b[LIBS, g] += 1
    b[LIBSUM, g] += p
    b[LIBSQ, g] += p * p


@njit(cache=True, inline="always")
def _remove_lib(b, g, p):
    b[LIBS, g] -= 1
    b[LIBSUM, g] -= p
    b[LIBSQ, g] -= p * p


@njit(cache=True, inline="always")
def _add_empty(b, meta, p):
    n = meta[N_EMPTY]
    b[EMPTIES, n] = p
    b[EMPTY_INDEX, p] = n
    meta[N_EMPTY] = n + 1


@njit(cache=True, inline="always")
def _remove_empty(b, meta, p):
    i = b[EMPTY_INDEX, p]
    n = meta[N_EMPTY] - 1
    last = b[EMPTIES, n]
    b[EMPTIES, i] = last
    b[EMPTY_INDEX, last] = i
    b[EMPTY_INDEX, p] = -1
    meta[N_EMPTY] = n


@njit(cache=True, inline="always")
def in_atari(b, g):
    """The group with representative g has exactly one liberty."""
    libs = b[LIBS, g]
    return libs > 0 and libs * b[LIBSQ, g] == b[LIBSUM, g] * b[LIBSUM, g]


@njit(cache=True, inline="always")
def atari_liberty(b, g):
    """The one liberty of a group in atari."""
    return b[LIBSUM, g] // b[LIBS, g]


@njit(cache=True)
def _merge(b, g1, g2):
    if b[SIZE, g1] < b[SIZE, g2]:
        g1, g2 = g2, g1
    s = g2
    while True:
        b[GROUP, s] = g1
        s = b[NEXT, s]
        if s == g2:
            break
    t = b[NEXT, g1]
    b[NEXT, g1] = b[NEXT, g2]
    b[NEXT, g2] = t
    b[SIZE, g1] += b[SIZE, g2]
    b[LIBS, g1] += b[LIBS, g2]
    b[LIBSUM, g1] += b[LIBSUM, g2]
    b[LIBSQ, g1] += b[LIBSQ, g2]
    return g1


@njit(cache=True)
def _remove_group(b, meta, cfg, g):
    stride = cfg[CFG_STRIDE]
    s = g
    while True:
        b[COLOR, s] = EMPTY
        _add_empty(b, meta, s)
        s = b[NEXT, s]
        if s == g:
            break
    s = g
    while True:
        for n in (s - 1, s + 1, s - stride, s + stride):
            c = b[COLOR, n]
            if c == BLACK or c == WHITE:
                _add_lib(b, b[GROUP, n], s)
        nxt = b[NEXT, s]
        b[GROUP, s] = -1
        b[NEXT, s] = s
        s = nxt
        if s == g:
            break


@njit(cache=True)
def play(b, meta, cfg, p, color):
    """Put a stone of `color` on empty point p, capture, and pass the turn; returns stones captured.

    No legality check (callers check with `is_legal`); a move that leaves its own group
    without liberties removes that group (suicide), which only rulesets allowing it produce.
    """
    stride = cfg[CFG_STRIDE]
    opponent = 3 - color
    b[COLOR, p] = color
    _remove_empty(b, meta, p)
    b[GROUP, p] = p
    b[NEXT, p] = p
    b[SIZE, p] = 1
    b[LIBS, p] = 0
    b[LIBSUM, p] = 0
    b[LIBSQ, p] = 0
    for n in (p - 1, p + 1, p - stride, p + stride):
        c = b[COLOR, n]
        if c == EMPTY:
            _add_lib(b, p, n)
        elif c == BLACK or c == WHITE:
            _remove_lib(b, b[GROUP, n], p)
    g = p
    for n in (p - 1, p + 1, p - stride, p + stride):
        if b[COLOR, n] == color:
            gn = b[GROUP, n]
            if gn != g:
                g = _merge(b, g, gn)
    captured = 0
    captured_point = PASS
    for n in (p - 1, p + 1, p - stride, p + stride):
        if b[COLOR, n] == opponent:
            gn = b[GROUP, n]
            if b[LIBS, gn] == 0:
                captured += b[SIZE, gn]
                captured_point = n
                _remove_group(b, meta, cfg, gn)
    g = b[GROUP, p]
    if b[LIBS, g] == 0:
        _remove_group(b, meta, cfg, g)
        meta[KO] = PASS
    elif captured == 1 and b[SIZE, g] == 1 and b[LIBS, g] == 1:
        meta[KO] = captured_point
    else:
        meta[KO] = PASS
    meta[TO_MOVE] = opponent
    meta[PASSES] = 0
    meta[LAST] = p
    meta[MOVES] += 1
    return captured


@njit(cache=True)
def play_pass(meta):
    meta[TO_MOVE] = 3 - meta[TO_MOVE]
    meta[PASSES] += 1
    meta[KO] = PASS
    meta[LAST] = PASS
    meta[MOVES] += 1


@njit(cache=True)
def is_suicide(b, cfg, p, color):
    """Playing empty point p would leave the new stone's group without liberties (no capture)."""
    stride = cfg[CFG_STRIDE]
    for n in (p - 1, p + 1, p - stride, p + stride):
        c = b[COLOR, n]
        if c == EMPTY:
            return False
        if c == color:
            g = b[GROUP, n]
            if not (in_atari(b, g) and atari_liberty(b, g) == p):
                return False
        elif c == 3 - color:  # noqa: SIM102 (numba kernel: plain control flow)
            if in_atari(b, b[GROUP, n]):
                return False
    return True


@njit(cache=True)
def is_legal(b, meta, cfg, p, color):
    """Legal for `color` under the board's rules: empty, not the simple-ko point, no suicide but a
    chain's where the rules allow it (a lone stone's suicide is never legal)."""
    if b[COLOR, p] != EMPTY:
        return False
    if p == meta[KO] and color == meta[TO_MOVE]:
        return False
    if not is_suicide(b, cfg, p, color):
        return True
    if cfg[CFG_SUICIDE] == 0:
        return False
    stride = cfg[CFG_STRIDE]
    for n in (p - 1, p + 1, p - stride, p + stride):  # noqa: SIM110 (numba kernel: plain control flow)
        if b[COLOR, n] == color:
            return True
    return False


@njit(cache=True)
def is_playable(b, meta, cfg, p, color):
    """What search and playouts consider: legal, not a suicide, not filling an own eye."""
    if b[COLOR, p] != EMPTY or p == meta[KO]:
        return False
    if is_own_eye(b, cfg, p, color):
        return False
    return not is_suicide(b, cfg, p, color)


@njit(cache=True)
def is_own_eye(b, cfg, p, color):
    """An empty point surrounded by `color` whose diagonals the opponent does not hold
    (none of them on the edge, at most one in the middle)."""
    stride = cfg[CFG_STRIDE]
    for n in (p - 1, p + 1, p - stride, p + stride):
        c = b[COLOR, n]
        if c != color and c != BORDER:
            return False
    opponent = 3 - color
    enemy = 0
    edge = 0
    for d in (p - stride - 1, p - stride + 1, p + stride - 1, p + stride + 1):
        c = b[COLOR, d]
        if c == opponent:
            enemy += 1
        elif c == BORDER:
            edge = 1
    if edge:
        return enemy == 0
    return enemy < 2


@njit(cache=True)
def area_score(b, cfg, mark, stack):
    """Black's area minus White's (stones plus empty regions bordering one colour only)."""
    stride = cfg[CFG_STRIDE]
    width = cfg[CFG_WIDTH]
    height = cfg[CFG_HEIGHT]
    for row in range(height):
        base = (row + 1) * stride + 1
        for col in range(width):
            mark[base + col] = 0
    score = 0
    for row in range(height):
        base = (row + 1) * stride + 1
        for col in range(width):
            p = base + col
            c = b[COLOR, p]
            if c == BLACK:
                score += 1
            elif c == WHITE:
                score -= 1
            elif mark[p] == 0:
                region = 0
                touches = 0  # bit 1 black, bit 2 white
                top = 0
                stack[top] = p
                top += 1
                mark[p] = 1
                while top > 0:
                    top -= 1
                    s = stack[top]
                    region += 1
                    for n in (s - 1, s + 1, s - stride, s + stride):
                        cn = b[COLOR, n]
                        if cn == EMPTY:
                            if mark[n] == 0:
                                mark[n] = 1
                                stack[top] = n
                                top += 1
                        elif cn == BLACK:
                            touches |= 1
                        elif cn == WHITE:
                            touches |= 2
                if touches == 1:
                    score += region
                elif touches == 2:
                    score -= region
    return score
