"""Playouts with local knowledge (Mogo-style), compiled with numba.

Policy, in order, for the side to move:
1. capture: the group of the opponent's last move is in atari -> take its liberty;
2. escape: an own group next to the opponent's last move is in atari -> capture an enemy group
   in atari that touches it, else extend at its liberty when that leaves at least two liberties;
3. shape: a random one of the empty points around the last move (its eight neighbours) that
   match a 3x3 pattern of `patterns.py` and are not a self-atari;
4. otherwise a uniformly placed scan of the empty points from a random start, taking the first
   point that is legal, not a suicide, not one of the mover's own eyes and not a self-atari of
   two or more stones (so that playouts keep sekis and do not throw groups away);
5. pass when nothing is left. Two passes in a row (or the move cap) end the playout.

The random generator is a 64-bit linear congruential generator kept in a one-element int64
array, so that every search is reproducible from its seed and independent of numba's global state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from reviewer.core.engines.builtin_go.board import (
    CFG_HEIGHT,
    CFG_STRIDE,
    CFG_WIDTH,
    COLOR,
    EMPTIES,
    EMPTY,
    GROUP,
    LAST,
    N_EMPTY,
    NEXT,
    PASS,
    PASSES,
    TO_MOVE,
    atari_liberty,
    in_atari,
    is_playable,
    play,
    play_pass,
)
from reviewer.core.engines.builtin_go.patterns import (
    is_bad_self_atari,
    liberties_after,
    matches_pattern,
)

_LCG_MUL = 6364136223846793005
_LCG_INC = 1442695040888963407


@njit(cache=True, inline="always")
def rand_below(rng, n):
    """A pseudo-random integer in [0, n) from the LCG state rng[0] (int64 wrap-around)."""
    x = rng[0] * _LCG_MUL + _LCG_INC
    rng[0] = x
    return ((x >> 33) & 0x7FFFFFFF) % n


@njit(cache=True)
def _escape_gains(b, cfg, lib, color, group):
    """Extending `group` at its liberty `lib` leaves it at least two liberties (cheap estimate)."""
    stride = cfg[CFG_STRIDE]
    empties = 0
    for n in (lib - 1, lib + 1, lib - stride, lib + stride):
        c = b[COLOR, n]
        if c == EMPTY:
            empties += 1
        elif c == color:
            g = b[GROUP, n]
            if g != group and not in_atari(b, g):
                return True
    return empties >= 2


@njit(cache=True)
def tactical_move(b, meta, cfg, color):
    """The capture/escape pattern move after the opponent's last move, or PASS when none applies."""
    last = meta[LAST]
    if last < 0:
        return PASS
    stride = cfg[CFG_STRIDE]
    opponent = 3 - color
    if b[COLOR, last] == opponent:
        g = b[GROUP, last]
        if in_atari(b, g):
            lib = atari_liberty(b, g)
            if is_playable(b, meta, cfg, lib, color):
                return lib
    for n in (last - 1, last + 1, last - stride, last + stride):
        if b[COLOR, n] != color:
            continue
        g = b[GROUP, n]
        if not in_atari(b, g):
            continue
        s = g
        while True:
            for m in (s - 1, s + 1, s - stride, s + stride):
                if b[COLOR, m] == opponent:
                    g2 = b[GROUP, m]
                    if in_atari(b, g2):
                        lib2 = atari_liberty(b, g2)
                        if is_playable(b, meta, cfg, lib2, color):
                            return lib2
            s = b[NEXT, s]
            if s == g:
                break
        lib = atari_liberty(b, g)
        if is_playable(b, meta, cfg, lib, color) and _escape_gains(b, cfg, lib, color, g):
            return lib
    return PASS


@njit(cache=True)
def pattern_move(b, meta, cfg, color, rng):
    """A random 3x3-pattern move among the last move's eight neighbours, or PASS."""
    last = meta[LAST]
    if last < 0:
        return PASS
    stride = cfg[CFG_STRIDE]
    found = np.empty(8, np.int64)
    k = 0
    for d in (-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1):
        p = last + d
        if b[COLOR, p] != EMPTY or not matches_pattern(b, cfg, p):
            continue
        if is_playable(b, meta, cfg, p, color) and liberties_after(b, cfg, p, color) >= 2:
            found[k] = p
            k += 1
    if k == 0:
        return PASS
    return found[rand_below(rng, k)]


@njit(cache=True)
def random_move(b, meta, cfg, color, rng):
    n = meta[N_EMPTY]
    if n == 0:
        return PASS
    start = rand_below(rng, n)
    for i in range(n):
        j = start + i
        if j >= n:
            j -= n
        p = b[EMPTIES, j]
        if is_playable(b, meta, cfg, p, color) and not is_bad_self_atari(b, cfg, p, color):
            return p
    return PASS


@njit(cache=True)
def policy_move(b, meta, cfg, rng):
    color = meta[TO_MOVE]
    p = tactical_move(b, meta, cfg, color)
    if p != PASS:
        return p
    p = pattern_move(b, meta, cfg, color, rng)
    if p != PASS:
        return p
    return random_move(b, meta, cfg, color, rng)


@njit(cache=True)
def run_playout(b, meta, cfg, rng, seq, seq_len):
    """Play the position out in place, appending moves (PASS included) to seq; returns the new length."""
    points = cfg[CFG_WIDTH] * cfg[CFG_HEIGHT]
    limit = min(3 * points, seq.shape[0] - seq_len - 1)
    for _ in range(limit):
        if meta[PASSES] >= 2:
            break
        p = policy_move(b, meta, cfg, rng)
        if p == PASS:
            play_pass(meta)
        else:
            play(b, meta, cfg, p, meta[TO_MOVE])
        seq[seq_len] = p
        seq_len += 1
    return seq_len


__all__ = ["pattern_move", "policy_move", "rand_below", "random_move", "run_playout", "tactical_move"]
