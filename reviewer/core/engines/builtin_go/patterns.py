"""Mogo-style 3x3 shape patterns and local tactics, compiled with numba.

A point's 3x3 neighbourhood is coded from its eight neighbours' board values (empty 0, black 1,
white 2, off-board 3) as a base-4 number; `PATTERN_TABLE[code]` says whether a move on the
(empty) centre point matches one of the patterns below in any rotation, reflection or colour
swap. The patterns are the hane, cut and edge shapes of Gelly et al., "Modification of UCT with
patterns in Monte-Carlo Go" (2006), as written down in Petr Baudis's Michi:

    X, O  a stone of either colour (the other one for O)  .  empty   ␣ (space)  off the board
    x     not X (O, empty or off-board)      o  not O      ?  anything

The centre is the move; a pattern matches for either side to move.
"""

from __future__ import annotations

from itertools import product

import numpy as np
from numba import njit

from reviewer.core.engines.builtin_go.board import (
    BLACK,
    BORDER,
    CFG_STRIDE,
    COLOR,
    EMPTY,
    GROUP,
    NEXT,
    SIZE,
    TO_MOVE,
    WHITE,
    atari_liberty,
    in_atari,
    is_legal,
    play,
)

PATTERNS_3X3 = (
    ("XOX", "...", "???"),  # hane: enclosing hane
    ("XO.", "...", "?.?"),  # hane: non-cutting hane
    ("XO?", "X..", "x.?"),  # hane: magari
    (".O.", "X..", "..."),  # diagonal attachment
    ("XO?", "O.o", "?o?"),  # cut: unprotected cut
    ("XO?", "O.X", "???"),  # cut: peeped cut
    ("?X?", "O.O", "ooo"),  # cut: de
    ("OX?", "o.O", "???"),  # cut: keima
    ("X.?", "O.?", "   "),  # edge: chase
    ("OX?", "X.O", "   "),  # edge: block side cut
    ("?X?", "x.O", "   "),  # edge: block side connection
    ("?XO", "x.x", "   "),  # edge: sagari
    ("?OX", "X.O", "   "),  # edge: cut
)

_VALUE = {".": EMPTY, "X": BLACK, "O": WHITE, " ": BORDER}
_WILD = {"?": ".XO ", "x": ".O ", "o": ".X "}
# the eight neighbours, in the order of the code's digits: (row, col) of the 3x3 picture
NEIGHBOUR_CELLS = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))


def _variants(rows: tuple[str, str, str]) -> set[tuple[str, str, str]]:
    def rot90(p: tuple[str, ...]) -> tuple[str, str, str]:
        return tuple("".join(p[2 - c][r] for c in range(3)) for r in range(3))  # type: ignore[return-value]

    def swap(p: tuple[str, ...]) -> tuple[str, str, str]:
        table = str.maketrans("XOxo", "OXox")
        return tuple(line.translate(table) for line in p)  # type: ignore[return-value]

    out: set[tuple[str, str, str]] = set()
    current = rows
    for _ in range(4):
        current = rot90(current)
        for flipped in (current, current[::-1]):
            out.add(flipped)
            out.add(swap(flipped))
    return out


def build_pattern_table() -> np.ndarray:
    """The 4^8 lookup table: True where the neighbourhood code matches a pattern."""
    table = np.zeros(4**8, dtype=np.bool_)
    for pattern in PATTERNS_3X3:
        for variant in _variants(pattern):
            choices = []
            for r, c in NEIGHBOUR_CELLS:
                ch = variant[r][c]
                choices.append(tuple(_VALUE[x] for x in _WILD.get(ch, ch)))
            for values in product(*choices):
                code = 0
                for i, v in enumerate(values):
                    code += v * 4**i
                table[code] = True
    return table


PATTERN_TABLE = build_pattern_table()


@njit(cache=True, inline="always")
def neighbourhood_code(b, stride, p):
    code = 0
    mult = 1
    for d in (-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1):
        code += b[COLOR, p + d] * mult
        mult *= 4
    return code


@njit(cache=True)
def matches_pattern(b, cfg, p):
    """A move on empty point p has one of the 3x3 shapes."""
    return PATTERN_TABLE[neighbourhood_code(b, cfg[CFG_STRIDE], p)]


@njit(cache=True)
def liberties_after(b, cfg, p, color):
    """Liberties of the group that a stone of `color` on empty p would form: 0, 1, or 2 for
    two or more; 2 as well when the move captures (the captured stones give liberties)."""
    stride = cfg[CFG_STRIDE]
    opponent = 3 - color
    lib = -1
    for n in (p - 1, p + 1, p - stride, p + stride):
        c = b[COLOR, n]
        if c == EMPTY:
            if lib < 0:
                lib = n
            elif n != lib:
                return 2
        elif c == opponent and in_atari(b, b[GROUP, n]):
            return 2
    for n in (p - 1, p + 1, p - stride, p + stride):
        if b[COLOR, n] != color:
            continue
        g = b[GROUP, n]
        s = g
        while True:
            for m in (s - 1, s + 1, s - stride, s + stride):
                if m != p and b[COLOR, m] == EMPTY:
                    if lib < 0:
                        lib = m
                    elif m != lib:
                        return 2
            s = b[NEXT, s]
            if s == g:
                break
    return 0 if lib < 0 else 1


@njit(cache=True)
def joins_own_stones(b, cfg, p, color):
    stride = cfg[CFG_STRIDE]
    for n in (p - 1, p + 1, p - stride, p + stride):  # noqa: SIM110 (numba kernel: no generators)
        if b[COLOR, n] == color:
            return True
    return False


@njit(cache=True)
def is_bad_self_atari(b, cfg, p, color):
    """Playing p leaves a group of two or more stones in atari without capturing (a lone stone
    in atari is allowed: throw-ins and nakade need it)."""
    return liberties_after(b, cfg, p, color) == 1 and joins_own_stones(b, cfg, p, color)


@njit(cache=True)
def captures(b, cfg, p, color):
    """Stones a move of `color` on p would capture (groups in atari on p)."""
    stride = cfg[CFG_STRIDE]
    opponent = 3 - color
    total = 0
    seen0 = -1
    seen1 = -1
    seen2 = -1
    for n in (p - 1, p + 1, p - stride, p + stride):
        if b[COLOR, n] == opponent:
            g = b[GROUP, n]
            if g == seen0 or g == seen1 or g == seen2:
                continue
            if in_atari(b, g):
                total += b[SIZE, g]
            if seen0 < 0:
                seen0 = g
            elif seen1 < 0:
                seen1 = g
            else:
                seen2 = g
    return total


@njit(cache=True)
def two_liberties(b, cfg, g):
    """The two liberties of a group that has exactly two, else (-1, -1)."""
    stride = cfg[CFG_STRIDE]
    first = -1
    second = -1
    s = g
    while True:
        for m in (s - 1, s + 1, s - stride, s + stride):
            if b[COLOR, m] == EMPTY and m != first and m != second:
                if first < 0:
                    first = m
                elif second < 0:
                    second = m
                else:
                    return -1, -1
        s = b[NEXT, s]
        if s == g:
            break
    if second < 0:
        return -1, -1
    return first, second


LADDER_DEPTH = 40  # chases a ladder is read to; a longer one counts as escaping
_CAPTURED, _ESCAPED, _CHASED = 0, 1, 2


@njit(cache=True)
def _captures_a_neighbour(b, cfg, g):
    """The owner of group g can capture an enemy group next to it that is in atari."""
    stride = cfg[CFG_STRIDE]
    enemy = 3 - b[COLOR, g]
    s = g
    while True:
        for m in (s - 1, s + 1, s - stride, s + stride):
            if b[COLOR, m] == enemy and in_atari(b, b[GROUP, m]):
                return True
        s = b[NEXT, s]
        if s == g:
            return False


@njit(cache=True)
def _extend(b, meta, cfg, stone, out_b, out_meta, chases):
    """The owner of the group on `stone`, in atari, extends at its liberty (into out_b/out_meta):
    captured, escaped (a capture or three liberties), or chased again with its two liberties
    written to `chases`."""
    g = b[GROUP, stone]
    color = b[COLOR, stone]
    if _captures_a_neighbour(b, cfg, g):
        return _ESCAPED
    lib = atari_liberty(b, g)
    if not is_legal(b, meta, cfg, lib, color):
        return _CAPTURED
    out_b[:, :] = b
    out_meta[:] = meta
    out_meta[TO_MOVE] = color
    play(out_b, out_meta, cfg, lib, color)
    if out_b[COLOR, lib] != color or in_atari(out_b, out_b[GROUP, lib]):
        return _CAPTURED
    first, second = two_liberties(out_b, cfg, out_b[GROUP, lib])
    if first < 0:
        return _ESCAPED
    chases[0] = first
    chases[1] = second
    return _CHASED


@njit(cache=True)
def ladder_captures(b, meta, cfg, stone):
    """Whether the group on `stone`, in atari with its owner to move, dies in a ladder: the owner
    extends at its liberty and the attacker ataris again on one of the two liberties left, until
    the group has three liberties or captures a neighbour (escaped) or one liberty after
    extending (captured). Read depth first, both chases at every step; the board is not changed."""
    boards = np.empty((LADDER_DEPTH + 1, b.shape[0], b.shape[1]), b.dtype)
    metas = np.empty((LADDER_DEPTH + 1, meta.shape[0]), meta.dtype)
    chases = np.empty((LADDER_DEPTH + 1, 2), np.int64)
    tried = np.zeros(LADDER_DEPTH + 1, np.int64)
    attacker = 3 - b[COLOR, stone]
    status = _extend(b, meta, cfg, stone, boards[0], metas[0], chases[0])
    if status != _CHASED:
        return status == _CAPTURED
    work_b = np.empty_like(b)
    work_meta = np.empty_like(meta)
    level = 0
    while level >= 0:
        if tried[level] >= 2 or level >= LADDER_DEPTH:
            level -= 1
            continue
        chase = chases[level, tried[level]]
        tried[level] += 1
        if not is_legal(boards[level], metas[level], cfg, chase, attacker):
            continue
        work_b[:, :] = boards[level]
        work_meta[:] = metas[level]
        work_meta[TO_MOVE] = attacker
        play(work_b, work_meta, cfg, chase, attacker)
        if work_b[COLOR, chase] != attacker or in_atari(work_b, work_b[GROUP, chase]):
            continue
        if not in_atari(work_b, work_b[GROUP, stone]):
            continue
        status = _extend(work_b, work_meta, cfg, stone, boards[level + 1], metas[level + 1], chases[level + 1])
        if status == _CAPTURED:
            return True
        if status == _CHASED:
            level += 1
            tried[level] = 0
    return False
