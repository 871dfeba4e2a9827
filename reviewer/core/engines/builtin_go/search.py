"""Monte Carlo tree search with RAVE (all-moves-as-first), compiled with numba.

Tree storage: node i has a row in two arrays. `tree` (float64): visits, wins (for the player
who made the move into the node; a jigo counts one half), RAVE visits, RAVE wins, the RAVE
winning move-number sum of the weighted variant, and the sum of final scores (Black's view,
komi included). `links` (int64): the move (a board index or PASS), the first child and the
number of children. Children of a node are contiguous; node 0 is the root.

One simulation: copy the root position, descend by the selection rule below, expand a leaf
once it has `expand_visits` visits (all playable moves as children: legal, no suicide, no
own-eye filling; pass as well when the opponent has just passed, and a lone pass when there is
no playable move), finish with a playout (playout.py; after two passes in the tree as well, so that dead stones
are taken off before counting), score by area, back the result up the
path and update the RAVE statistics of every node on the path.

Prior knowledge (when params[P_PRIORS] is set): a new child starts with virtual RAVE
experience, `n` simulations of which a share `v` won, summed over the rules that apply to its
move (Gelly & Silver 2007's heuristic MC-RAVE; Fuego and Mogo do likewise):

    every move                                   n = 10, v = 0.5  (even-game prior)
    captures stones                              n = 20, v = 0.9
    saves an own group in atari (2+ liberties)   n = 20, v = 0.9
    self-atari of two or more stones             n = 20, v = 0.05
    a 3x3 shape of patterns.py                   n = 10, v = 0.8
    within two points of the last move           n = 5,  v = 0.7
    first line with nothing within two points    n = 20, v = 0.1
    first or second line in the opening          n = 100, v = 0.1  (params[P_OPENING_LINES];
      (fewer stones than an eighth of the points)                    9x9: the first 10 moves)
    reading ladders (patterns.ladder_captures; params[P_LADDERS]):
      an atari whose ladder captures             n = 20, v = 0.9
      running from atari into a working ladder   n = 20, v = 0.05 (instead of the rescue's 0.9)

Real RAVE statistics soon outweigh these; they steer the first few hundred simulations of a
node, where a plain RAVE tree wastes its time on the edge and on self-ataris. In the opening the
playouts cannot tell a second-line move from a central one (on an empty 9x9 board 20 000
simulations rate them within noise of each other), so the opening prior is heavier. Against GNU Go
(benchmarks/gnugo_match.py, 100 games) the engine won 74 without it, 79.5 with it, and 81.5 with
the ladder priors as well (both on by default; those last two differ by less than their noise).

RAVE update (for a node at simulation depth d, whose children are moves of the side to move
there, colour c): a child with move m is updated when the first play on m at or after depth d,
by either colour, was made by c. Its RAVE visits grow by 1, its RAVE wins by c's result, and
(for the weighted variant) its winning move-number sum by result x (j - d + 1), where j is the
depth of that first play: the move number is counted from the node holding the statistic, so
the node's own child move has number 1 (at the root this is the proposal's "move number counted
from the start of the simulation").

Selection at a node with N visits, over children with n visits, mean result Q and RAVE value R:

    value = (1 - beta) * Q + beta * R + c_uct * sqrt(ln(N + 1) / (n + 1))
    beta  = sqrt(k / (3 n + k))        (Gelly & Silver's hand-selected schedule; beta = 1 at n = 0)
    R     = (rave_wins + 1) / (rave_visits + 2)

The weighted variant (the proposal) replaces R by

    R_w   = min(1, R * m_bar / m_child)

- m_child: the child's average winning move number, (sum of move numbers of winning first plays
  + M0 * m_bar) / (their wins + M0), i.e. shrunk towards the siblings' mean by M0 = 10 virtual
  wins (without it one lucky early win makes m_child tiny and the child wins every selection);
- m_bar: the same average over all siblings together (total sum / total wins).

The proposal's weighted winrate R / m_child is not on the [0, 1] scale of Q; multiplying by
m_bar (a constant per node, so it changes no ordering among R / m_child values) brings it back
to a winrate scale, the cap at 1 keeps it there, and it mixes with Q through the same beta: a
move whose wins come earlier than its siblings' is boosted, a late one is damped.

Which first plays feed m_child: in "weighted" only indirect ones (j > d). The move a node's
simulation actually plays from that node always has number 1, so counting it ("weighted-literal",
the proposal word for word) rewards whichever child the tree already prefers, a feedback loop;
the measurements in docs/weighted-rave.md show both.
"""

from __future__ import annotations

import math

from numba import njit

from reviewer.core.engines.builtin_go.board import (
    BLACK,
    CFG_HEIGHT,
    CFG_STRIDE,
    CFG_WIDTH,
    COLOR,
    EMPTIES,
    EMPTY,
    GROUP,
    LAST,
    N_EMPTY,
    PASS,
    PASSES,
    TO_MOVE,
    area_score,
    atari_liberty,
    in_atari,
    is_playable,
    play,
    play_pass,
)
from reviewer.core.engines.builtin_go.patterns import (
    captures,
    is_bad_self_atari,
    ladder_captures,
    liberties_after,
    matches_pattern,
    two_liberties,
)
from reviewer.core.engines.builtin_go.playout import run_playout

# rows of tree (float64)
VISITS, WINS, RAVE_VISITS, RAVE_WINS, RAVE_MOVE_WINS, RAVE_MOVE_SUM, SCORE_SUM = range(7)
TREE_ROWS = 7
# rows of links (int64)
MOVE, FIRST_CHILD, N_CHILDREN = range(3)
LINK_ROWS = 3
# entries of counters (int64)
NODE_COUNT, CAPACITY = range(2)
# entries of params (float64)
P_RAVE_K, P_C_UCT, P_EXPAND_VISITS, P_WEIGHTED, P_KOMI, P_PRIORS, P_OPENING_LINES, P_LADDERS = range(8)
PARAMS_LEN = 8
# virtual wins at the siblings' mean move number that every child's mean starts from
MOVE_PRIOR_WINS = 10.0
# values of params[P_WEIGHTED]
RAVE_PLAIN, RAVE_WEIGHTED, RAVE_WEIGHTED_LITERAL = 0.0, 1.0, 2.0


@njit(cache=True)
def _quiet_around(b, cfg, p):
    """No stone within two points (Manhattan distance) of p."""
    stride = cfg[CFG_STRIDE]
    row = p // stride - 1
    col = p % stride - 1
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if abs(dr) + abs(dc) > 2:
                continue
            r = row + dr
            c = col + dc
            inside = 0 <= r < cfg[CFG_HEIGHT] and 0 <= c < cfg[CFG_WIDTH]
            if inside and b[COLOR, (r + 1) * stride + c + 1] != EMPTY:
                return False
    return True


@njit(cache=True)
def prior_knowledge(b, meta, cfg, p, color, opening_lines=False, ladders=False):
    """(virtual simulations, virtual wins) for a move of `color` on p; see the module doc."""
    n = 10.0
    w = 5.0
    stride = cfg[CFG_STRIDE]
    if captures(b, cfg, p, color) > 0:
        n += 20.0
        w += 18.0
    else:
        for q in (p - 1, p + 1, p - stride, p + stride):
            if b[COLOR, q] == color:
                g = b[GROUP, q]
                if in_atari(b, g) and atari_liberty(b, g) == p and liberties_after(b, cfg, p, color) >= 2:
                    if ladders and ladder_captures(b, meta, cfg, q):
                        n += 20.0  # running out of atari into a ladder that works
                        w += 1.0
                    else:
                        n += 20.0
                        w += 18.0
                    break
        if ladders and _starts_ladder(b, meta, cfg, p, color):
            n += 20.0
            w += 18.0
    if is_bad_self_atari(b, cfg, p, color):
        n += 20.0
        w += 1.0
    if matches_pattern(b, cfg, p):
        n += 10.0
        w += 8.0
    last = meta[LAST]
    row = p // stride - 1
    col = p % stride - 1
    if last >= 0:
        dist = abs(row - (last // stride - 1)) + abs(col - (last % stride - 1))
        if dist <= 2:
            n += 5.0
            w += 3.5
    edge = row == 0 or col == 0 or row == cfg[CFG_HEIGHT] - 1 or col == cfg[CFG_WIDTH] - 1
    if edge and _quiet_around(b, cfg, p):
        n += 20.0
        w += 2.0
    if opening_lines and _opening(meta, cfg):
        line = min(row, col, cfg[CFG_HEIGHT] - 1 - row, cfg[CFG_WIDTH] - 1 - col)
        if line <= 1:
            n += 100.0
            w += 10.0
    return n, w


@njit(cache=True)
def _starts_ladder(b, meta, cfg, p, color):
    """A move of `color` on p puts a neighbouring enemy group of two liberties in atari, and the
    ladder that follows captures it."""
    stride = cfg[CFG_STRIDE]
    opponent = 3 - color
    targets = 0
    for q in (p - 1, p + 1, p - stride, p + stride):
        if b[COLOR, q] == opponent:
            first, second = two_liberties(b, cfg, b[GROUP, q])
            if first == p or second == p:
                targets += 1
    if targets == 0 or liberties_after(b, cfg, p, color) < 2:
        return False
    b2 = b.copy()
    meta2 = meta.copy()
    play(b2, meta2, cfg, p, color)
    for q in (p - 1, p + 1, p - stride, p + stride):
        if b2[COLOR, q] == opponent:
            g = b2[GROUP, q]
            if in_atari(b2, g) and ladder_captures(b2, meta2, cfg, q):
                return True
    return False


@njit(cache=True, inline="always")
def _opening(meta, cfg):
    """Fewer stones on the board than an eighth of its points (9x9: 10, 19x19: 45)."""
    points = cfg[CFG_WIDTH] * cfg[CFG_HEIGHT]
    return points - meta[N_EMPTY] < points // 8


@njit(cache=True)
def _expand(node, b, meta, cfg, tree, links, counters, priors, opening_lines, ladders):
    color = meta[TO_MOVE]
    n_empty = meta[N_EMPTY]
    start = counters[NODE_COUNT]
    if start + n_empty + 2 > counters[CAPACITY]:
        return False
    k = 0
    for i in range(n_empty):
        p = b[EMPTIES, i]
        if is_playable(b, meta, cfg, p, color):
            links[MOVE, start + k] = p
            k += 1
    if k == 0 or meta[PASSES] >= 1:
        links[MOVE, start + k] = PASS
        k += 1
    for j in range(start, start + k):
        links[FIRST_CHILD, j] = -1
        links[N_CHILDREN, j] = 0
        for r in range(TREE_ROWS):
            tree[r, j] = 0.0
        if priors and links[MOVE, j] >= 0:
            n, w = prior_knowledge(b, meta, cfg, links[MOVE, j], color, opening_lines, ladders)
            tree[RAVE_VISITS, j] = n
            tree[RAVE_WINS, j] = w
    links[FIRST_CHILD, node] = start
    links[N_CHILDREN, node] = k
    counters[NODE_COUNT] = start + k
    return True


@njit(cache=True)
def _select(node, tree, links, params):
    first = links[FIRST_CHILD, node]
    last = first + links[N_CHILDREN, node]
    rave_k = params[P_RAVE_K]
    c_uct = params[P_C_UCT]
    weighted = params[P_WEIGHTED] != RAVE_PLAIN
    mean_win_move = 0.0
    if weighted:
        move_sum = 0.0
        wins = 0.0
        for ch in range(first, last):
            move_sum += tree[RAVE_MOVE_SUM, ch]
            wins += tree[RAVE_MOVE_WINS, ch]
        if wins > 0.0:
            mean_win_move = move_sum / wins
    log_parent = math.log(tree[VISITS, node] + 1.0)
    best_value = -1e300
    best = first
    for ch in range(first, last):
        n = tree[VISITS, ch]
        rave_wins = tree[RAVE_WINS, ch]
        rave = (rave_wins + 1.0) / (tree[RAVE_VISITS, ch] + 2.0)
        if weighted and mean_win_move > 0.0:
            # the child's mean winning move number, shrunk towards the siblings' mean
            child_win_move = (tree[RAVE_MOVE_SUM, ch] + MOVE_PRIOR_WINS * mean_win_move) / (
                tree[RAVE_MOVE_WINS, ch] + MOVE_PRIOR_WINS
            )
            rave = min(1.0, rave * mean_win_move / child_win_move)
        if n > 0.0:
            beta = math.sqrt(rave_k / (3.0 * n + rave_k))
            value = (1.0 - beta) * (tree[WINS, ch] / n) + beta * rave
        else:
            value = rave
        if c_uct > 0.0:
            value += c_uct * math.sqrt(log_parent / (n + 1.0))
        if value > best_value:
            best_value = value
            best = ch
    return best


@njit(cache=True)
def _simulate(b0, meta0, cfg, params, tree, links, counters, rng, b, meta, seq, first_play, path, mark, stack):
    b[:, :] = b0
    meta[:] = meta0
    root_to_move = meta0[TO_MOVE]
    max_seq = seq.shape[0]
    expand_visits = params[P_EXPAND_VISITS]
    node = 0
    depth = 0
    path[0] = 0
    seq_len = 0
    terminal = False
    while True:
        if links[FIRST_CHILD, node] < 0:
            if node != 0 and tree[VISITS, node] < expand_visits:
                break
            if not _expand(
                node, b, meta, cfg, tree, links, counters, params[P_PRIORS] != 0.0, params[P_OPENING_LINES] != 0.0,
                params[P_LADDERS] != 0.0,
            ):
                break
        child = _select(node, tree, links, params)
        move = links[MOVE, child]
        if move == PASS:
            play_pass(meta)
        else:
            play(b, meta, cfg, move, meta[TO_MOVE])
        seq[seq_len] = move
        seq_len += 1
        depth += 1
        path[depth] = child
        node = child
        if meta[PASSES] >= 2:
            terminal = True
            break
        if seq_len >= max_seq // 2 or depth >= path.shape[0] - 1:
            break
    if terminal:
        # two passes end the game, but dead stones still come off: a playout from here (the
        # side after the passes moving first) settles which stones live, as the rules' dead-stone
        # agreement would, instead of counting every stone on the board as alive
        meta[PASSES] = 0
    seq_len = run_playout(b, meta, cfg, rng, seq, seq_len)
    score_black = area_score(b, cfg, mark, stack) - params[P_KOMI]
    if score_black > 0.0:
        result_black = 1.0
    elif score_black < 0.0:
        result_black = 0.0
    else:
        result_black = 0.5

    for d in range(depth + 1):
        nd = path[d]
        # the mover into path[d]: the root's previous mover at even depths, the root's side to move at odd
        mover_is_black = (root_to_move == BLACK) == (d % 2 == 1)
        tree[VISITS, nd] += 1.0
        tree[WINS, nd] += result_black if mover_is_black else 1.0 - result_black
        tree[SCORE_SUM, nd] += score_black

    # RAVE: walk the simulation backwards so first_play[m] is the first index >= i where m was played
    literal = params[P_WEIGHTED] == RAVE_WEIGHTED_LITERAL
    for i in range(seq_len - 1, -1, -1):
        m = seq[i]
        if m >= 0:
            first_play[m] = i
        if i <= depth:
            nd = path[i]
            first = links[FIRST_CHILD, nd]
            if first < 0:
                continue
            # colour to move at path[i]: the root's side to move at even depths
            to_move_is_black = (root_to_move == BLACK) == (i % 2 == 0)
            result = result_black if to_move_is_black else 1.0 - result_black
            for ch in range(first, first + links[N_CHILDREN, nd]):
                cm = links[MOVE, ch]
                if cm < 0:
                    continue
                j = first_play[cm]
                if j >= i and (j - i) % 2 == 0:
                    tree[RAVE_VISITS, ch] += 1.0
                    if result > 0.0:
                        tree[RAVE_WINS, ch] += result
                        if j > i or literal:
                            tree[RAVE_MOVE_WINS, ch] += result
                            tree[RAVE_MOVE_SUM, ch] += result * (j - i + 1)
    for i in range(seq_len):
        m = seq[i]
        if m >= 0:
            first_play[m] = -1
    return score_black


@njit(cache=True, nogil=True)
def run_simulations(count, b0, meta0, cfg, params, tree, links, counters, rng, work_b, work_meta, seq, first_play, path, mark, stack):
    """Run `count` simulations on the tree rooted at position (b0, meta0)."""
    for _ in range(count):
        _simulate(b0, meta0, cfg, params, tree, links, counters, rng, work_b, work_meta, seq, first_play, path, mark, stack)


@njit(cache=True, nogil=True)
def run_playouts(count, b0, meta0, cfg, komi, rng, work_b, work_meta, seq, mark, stack):
    """Plain playouts from one position (no tree): the benchmark of the playout loop. Returns Black's wins."""
    black_wins = 0
    for _ in range(count):
        work_b[:, :] = b0
        work_meta[:] = meta0
        run_playout(work_b, work_meta, cfg, rng, seq, 0)
        if area_score(work_b, cfg, mark, stack) - komi > 0.0:
            black_wins += 1
    return black_wins
