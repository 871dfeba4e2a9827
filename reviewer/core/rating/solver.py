"""The maximum-likelihood solver over all players at once (numpy + scipy.sparse).

Model: game g between White w and Black b, White's score s_g ∈ {1, ½, 0},
    P(White wins) = p_g = σ(k_g · (r_w - shift_g - r_b)),   σ(x) = 1 / (1 + exp(-x)),
where shift_g is what handicap and komi take off White's strength and k_g = k((r_w + r_b)/2).
A draw counts as half a win and half a loss (s_g = ½ in the same equations).

Each player i gets the rating that maximises the likelihood of *their own* results with every
other rating held where it is (KGS): the score equation

    g_i = Σ_{g ∋ i} a_g · c_opp(g,i) · k_g · (s_{g,i} - p_{g,i})  -  (r_i - m) / τ²  = 0,

where a_g is the game's age weight and c_opp the opponent's confidence (below). The last term
is a weak Gaussian prior (τ = PRIOR_SD_LOGIT / k_ref rating units); it keeps players with only
wins or only losses, and groups nobody links, finite, and it sets the level of each connected
group (the mean of its m's, exactly so without confidence weights, since a group's game terms
then sum to zero).

Because the opponent weights make the game terms differ for the two players, the equations
are not the gradient of one function; they are solved together by Newton's method on the
sparse Jacobian J = -(diag(h) - A), with

    h_i  = Σ a_g c_opp k_g² p_g (1 - p_g) + 1/τ²    (minus the second derivative of i's own
                                                       log-likelihood in r_i: i's information)
    A_ij = Σ_{games of i against j} a_g c_j k_g² p_g (1 - p_g),

solved directly for small or sparsely played sets and by GMRES with a diagonal preconditioner
for large, densely played ones (diag(h) - A is strictly diagonally dominant by rows, so the
system is always well posed). k and the confidences
are refreshed from the current ratings every iteration and held fixed inside it; the
iteration stops when no rating moves by more than `tolerance`.

Confidence of a player: c_i = 1 / sqrt(1 + π k_i² σ_i² / 8), σ_i = 1/sqrt(h_i): the factor by
which a logistic win probability flattens when the opponent's rating is only known to ±σ_i
(the probit approximation of a logistic averaged over a Gaussian). A well-known opponent
counts fully (c → 1), one known only to a couple of ranks counts about half.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sparse
import scipy.sparse.linalg as sparse_linalg

KFunction = Callable[[np.ndarray], np.ndarray]

# The prior's width in logistic units: τ = 30 / k (Go ≈ 26 ranks, chess ≈ 5200 Elo), worth about
# 1/200 of an even game. Stronger priors shrink the long-range spread of a ladder of players who
# only meet near their own level (a 6-logit prior squeezed a 24-rank field by 9% in simulation).
PRIOR_SD_LOGIT = 300.0


@dataclass(frozen=True)
class SolverGames:
    """Games as arrays over player indices 0 … n_players-1 (only games with a known result)."""

    n_players: int
    white: np.ndarray  # int index
    black: np.ndarray
    score_white: np.ndarray  # 1, 0.5, 0
    weight: np.ndarray  # age weight a_g (> 0)
    white_shift: np.ndarray  # rating units taken off White (handicap/komi); 0 for chess

    @property
    def n_games(self) -> int:
        return int(self.white.shape[0])


@dataclass(frozen=True)
class SolverResult:
    rating: np.ndarray  # each connected group's level is set by the prior means of its players
    information: np.ndarray  # h_i at the solution, prior included
    confidence: np.ndarray  # c_i in (0, 1]
    iterations: int
    converged: bool

    @property
    def sigma(self) -> np.ndarray:
        return np.asarray(1.0 / np.sqrt(self.information), dtype=float)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * x)), dtype=float)


def _confidence(k_player: np.ndarray, information: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / np.sqrt(1.0 + (math.pi / 8.0) * k_player**2 / information), dtype=float)


class _State:
    """Everything the Newton step needs at one point."""

    def __init__(self, games: SolverGames, k_of: KFunction, rating: np.ndarray, conf: np.ndarray,
                 prior_mean: np.ndarray, prior_precision: float) -> None:
        w, b = games.white, games.black
        n = games.n_players
        self.k_game = k_of(0.5 * (rating[w] + rating[b]))
        x = self.k_game * (rating[w] - games.white_shift - rating[b])
        p = _sigmoid(x)
        self.p_white = p
        residual = games.score_white - p  # White's point of view
        pq = np.maximum(p * (1.0 - p), 1e-300)
        base = games.weight * self.k_game
        weight_for_white = base * conf[b]  # White's equation weighs the game by Black's confidence
        weight_for_black = base * conf[w]
        self.gradient = (
            np.bincount(w, weights=weight_for_white * residual, minlength=n)
            - np.bincount(b, weights=weight_for_black * residual, minlength=n)
            - prior_precision * (rating - prior_mean)
        )
        curv_white = weight_for_white * self.k_game * pq
        curv_black = weight_for_black * self.k_game * pq
        self.information = (
            np.bincount(w, weights=curv_white, minlength=n)
            + np.bincount(b, weights=curv_black, minlength=n)
            + prior_precision
        )
        self.curv_white, self.curv_black = curv_white, curv_black

    def newton_matrix(self, games: SolverGames) -> sparse.csr_matrix:
        """diag(h) - A (the negated Jacobian)."""
        n = games.n_players
        rows = np.concatenate([games.white, games.black, np.arange(n)])
        cols = np.concatenate([games.black, games.white, np.arange(n)])
        values = np.concatenate([-self.curv_white, -self.curv_black, self.information])
        return sparse.csr_matrix((values, (rows, cols)), shape=(n, n))

    def merit(self) -> float:
        return float(np.sum(self.gradient**2 / self.information))


SPARSE_DIRECT_MAX_DEGREE = 12.0  # mean games per player up to which a sparse LU stays sparse


def _newton_step(matrix: sparse.csr_matrix, gradient: np.ndarray, information: np.ndarray) -> np.ndarray:
    """Solve (diag(h) - A) step = g.

    Sparsely played sets (a few games a player, long chains of players: ill-conditioned but cheap
    to factorise) get SuperLU (not a dense BLAS solve, whose threads crawl on a busy machine); large, densely played sets (where an LU fills in)
    get GMRES with a diagonal preconditioner, falling back to the direct solve if it stalls.
    """
    n = matrix.shape[0]
    if matrix.nnz / n - 1.0 <= SPARSE_DIRECT_MAX_DEGREE:
        return sparse_linalg.spsolve(matrix.tocsc(), gradient)
    preconditioner = sparse_linalg.LinearOperator(matrix.shape, matvec=lambda v: v / information)
    step, info = sparse_linalg.gmres(
        matrix, gradient, M=preconditioner, rtol=1e-7, atol=0.0, restart=80, maxiter=20
    )
    if info != 0 or not np.all(np.isfinite(step)):
        step = sparse_linalg.spsolve(matrix.tocsc(), gradient)
    return np.asarray(step)


def solve(
    games: SolverGames,
    k_of: KFunction,
    *,
    k_ref: float,
    prior_mean: float | np.ndarray = 0.0,
    prior_sd: float | None = None,
    opponent_confidence: bool = True,
    initial: np.ndarray | None = None,
    tolerance: float | None = None,
    max_iterations: int = 100,
    anchor: Callable[[np.ndarray], np.ndarray] | None = None,
) -> SolverResult:
    """Solve every player's score equation together (see the module docstring).

    `anchor(rating)` may return a shift per player that puts each group at its required level;
    it is applied, to the ratings and the prior means alike, after every Newton step (the
    likelihood does not see a group's level except through k, so this only settles where k is read).
    """
    n = games.n_players
    if prior_sd is None:
        prior_sd = PRIOR_SD_LOGIT / k_ref
    prior_precision = 1.0 / prior_sd**2
    if tolerance is None:
        tolerance = 1e-7 / k_ref
    max_step = 4.0 / k_ref  # no rating moves more than ~4 logistic units in one iteration
    prior_mean = np.broadcast_to(np.asarray(prior_mean, dtype=float), (n,)).copy()
    rating = prior_mean.copy() if initial is None else np.array(initial, dtype=float)
    conf = np.ones(n)
    if n == 0:
        return SolverResult(rating, np.zeros(0), np.zeros(0), 0, True)

    converged = False
    iterations = 0
    state = _State(games, k_of, rating, conf, prior_mean, prior_precision)
    for iterations in range(1, max_iterations + 1):  # noqa: B007 (read after the loop)
        if opponent_confidence:
            new_conf = _confidence(k_of(rating), state.information)
            conf_moved = float(np.max(np.abs(new_conf - conf)))
            conf = new_conf
            state = _State(games, k_of, rating, conf, prior_mean, prior_precision)
        else:
            conf_moved = 0.0
        step = _newton_step(state.newton_matrix(games), state.gradient, state.information)
        largest = float(np.max(np.abs(step)))
        if largest > max_step:
            step *= max_step / largest
        merit = state.merit()
        scale = 1.0
        while True:
            trial = rating + scale * step
            trial_state = _State(games, k_of, trial, conf, prior_mean, prior_precision)
            if trial_state.merit() <= merit or scale < 1e-3:
                break
            scale *= 0.5
        rating, state = trial, trial_state
        shifted = 0.0
        if anchor is not None:
            offsets = anchor(rating)
            shifted = float(np.max(np.abs(offsets)))
            if shifted > 0.0:
                rating = rating + offsets
                prior_mean += offsets
                state = _State(games, k_of, rating, conf, prior_mean, prior_precision)
        if largest * scale < tolerance and conf_moved < 1e-6 and shifted < tolerance:
            converged = True
            break
    return SolverResult(rating, state.information, conf, iterations, converged)
