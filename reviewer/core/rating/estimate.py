"""Ratings for the players of a set of games: solve, anchor, bound, and mark what is unsure.

Steps (`rate_games`):
1. Games are split by kind (chess and Go players are separate pools). A game counts when both
   players are named, differ, and the result is known; draws count half a win and half a loss;
   games with an unknown result are only counted (`unknown`).
2. Age weight a_g = 0.5 ** (age_days / half_life_days), age measured back from `as_of` (default:
   the newest dated game). Undated games weigh 1 (they are taken as current). The default
   half-life is a year: KGS uses 15-45 days for a server played daily, but a personal collection
   spans years and holds few games a month.
   k: Go uses KGS's 0.85 (up to 5k) rising linearly to 1.30 (2d and up), read at the mean rank of
   the two players; chess uses Elo's ln(10)/400. Both are `RatingOptions` fields.
3. Cores: the likelihood has a finite maximum only among players who each both scored against
   and conceded to the rest (the 'lost to' graph, an edge loser -> winner per decided game and
   both ways per draw, is strongly connected). Each group's main core is its largest such set
   of two or more players. A player outside it has, against the core, only wins or only losses
   (a win and a loss, or a single draw, against the core would put them inside): their
   maximum is at +∞/-∞ relative to it. Typical cases: no wins or no losses at all; or, say,
   ten losses to newcomers who played nobody else plus one draw, where the losses pin nothing.
4. The solver (solver.py) gives every player's maximum-likelihood rating and information h_i
   from the games inside their own core only: a game between two cores has its maximum at an
   infinite gap, and the solver's weak, far-reaching prior would only turn that into a large,
   meaningless gap dragging both sides away from their opponents. Each player's prior is
   centred on their own declared rank/rating, else on their core's level.
   Anchoring: the likelihood fixes only differences inside a core. Each core is shifted so that
   the mean rating of its players who declare one (BR/WR, WhiteElo/BlackElo; each player's most
   recent declaration) equals the mean of those declarations; a core where nobody declares
   takes its group's mean declaration, else the reference (1k / 1500 Elo).
5. Interval: rating ± z·σ, σ = 1/sqrt(h_i) (z = 1.96: about 95%).
6. Placing players outside the main core, as KGS places players with no wins or no losses: at
   their best win (the strongest core player beaten, as that opponent stood in that game,
   handicap included) or worst loss (the weakest core player lost to); the interval is then
   open on one side. So such a player always sits exactly at the rating of a core opponent
   (margin 0 from the span of those opponents' ratings). When they never met the core (say two
   newcomers who met once), they are placed at their own declared rank/rating, else at their
   group's level, with the interval open on both sides.
   `?` (uncertain) for every player outside the main core, and for any player whose interval
   half-width exceeds the bound (Go 2 ranks, chess 200 Elo by default; a single draw leaves
   about ±680 Elo).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import assert_never

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from reviewer.core.games.support import game_support
from reviewer.core.gametree import GameKind
from reviewer.core.rating import scale
from reviewer.core.rating.records import GameRecord, player_key
from reviewer.core.rating.solver import SolverGames, solve

KFunction = Callable[[np.ndarray], np.ndarray]


def _ranks(kind: GameKind) -> bool:
    """Whether players of `kind` have Go ranks (with handicaps and komi) rather than Elo ratings."""
    unit = game_support(kind).rating.unit
    match unit:
        case "rank":
            return True
        case "Elo":
            return False
        case _:
            assert_never(unit)


@dataclass(frozen=True)
class RatingOptions:
    half_life_days: float | None = 365.0  # None: no age weighting
    as_of: dt.date | None = None  # the date ages count back from; None: the newest game
    k_go: KFunction = scale.go_k
    k_chess: KFunction = scale.chess_k
    handicap_rules: scale.GoHandicapRules = scale.GoHandicapRules()  # noqa: RUF009 (frozen, shared safely)
    opponent_confidence: bool = True
    interval_z: float = 1.96
    max_half_width_go: float = 2.0  # ranks
    max_half_width_chess: float = 200.0  # Elo
    go_reference: float = scale.GO_REFERENCE_RANK
    chess_reference: float = scale.CHESS_REFERENCE_ELO
    prior_sd_logit: float | None = None  # None: solver.PRIOR_SD_LOGIT

    def k_function(self, kind: GameKind) -> KFunction:
        return self.k_go if _ranks(kind) else self.k_chess

    def k_reference(self, kind: GameKind) -> float:
        return float(np.median(self.k_function(kind)(np.array([self.reference(kind)]))))

    def reference(self, kind: GameKind) -> float:
        return self.go_reference if _ranks(kind) else self.chess_reference

    def max_half_width(self, kind: GameKind) -> float:
        return self.max_half_width_go if _ranks(kind) else self.max_half_width_chess


@dataclass
class PlayerRating:
    key: str
    name: str
    kind: GameKind
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    unknown: int = 0
    rating: float | None = None  # Elo (chess) or internal rank (Go: 1k = 0, 1d = 1)
    low: float | None = None  # None: open (no losses -> no upper bound, and so on)
    high: float | None = None
    sigma: float | None = None
    uncertain: bool = True
    declared: float | None = None  # the player's most recent declared rank/rating
    group: int | None = None  # connected group of players (within its kind)
    last_date: dt.date | None = None
    placed_by: str = "likelihood"  # "likelihood", "best win", "worst loss", "declared", "group level", "none"

    @property
    def rank(self) -> str | None:
        """Go rank text ('5k', '3d'), None for chess or unrated players."""
        if not _ranks(self.kind) or self.rating is None:
            return None
        return scale.go_rank_text(self.rating)

    @property
    def display(self) -> str:
        text = scale.rating_text(self.kind, self.rating)
        return text + "?" if self.uncertain and self.rating is not None else text

    def to_json(self) -> dict[str, object]:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, game_support(self.kind).rating.decimals)

        return {
            "name": self.name,
            "kind": self.kind,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "unknown": self.unknown,
            "rating": rounded(self.rating),
            "low": rounded(self.low),
            "high": rounded(self.high),
            "sigma": rounded(self.sigma),
            "uncertain": self.uncertain,
            "rank": self.rank,
            "declared": rounded(self.declared),
            "group": self.group,
            "placed_by": self.placed_by,
            "last_date": self.last_date.isoformat() if self.last_date else None,
        }


@dataclass
class RatingResult:
    players: list[PlayerRating] = field(default_factory=list)
    games_used: int = 0
    games_unknown: int = 0
    games_skipped: int = 0  # a name missing, or a player against themself
    converged: bool = True
    iterations: dict[str, int] = field(default_factory=dict)

    def by_key(self, kind: GameKind | None = None) -> dict[str, PlayerRating]:
        return {p.key: p for p in self.players if kind is None or p.kind == kind}

    def find(self, name: str, kind: GameKind | None = None) -> PlayerRating | None:
        return self.by_key(kind).get(player_key(name))


def age_weights(dates: list[dt.date | None], half_life_days: float | None, as_of: dt.date | None) -> np.ndarray:
    """0.5 ** (age / half-life) per game, age in days back from `as_of` (default: the newest date)."""
    weights = np.ones(len(dates))
    if half_life_days is None or half_life_days <= 0:
        return weights
    ordinal = np.array([d.toordinal() if d is not None else -1 for d in dates], dtype=np.int64)
    known = ordinal >= 0
    if not known.any():
        return weights
    reference = as_of.toordinal() if as_of is not None else int(ordinal[known].max())
    age_days = np.maximum(0, reference - ordinal[known])
    weights[known] = 0.5 ** (age_days / half_life_days)
    return weights


def rate_games(records: Iterable[GameRecord], options: RatingOptions = RatingOptions()) -> RatingResult:
    result = RatingResult()
    by_kind: dict[GameKind, list[GameRecord]] = {}
    for record in records:
        by_kind.setdefault(record.kind, []).append(record)
    for kind, kind_records in by_kind.items():  # each game's players are rated among themselves
        _rate_kind(kind, kind_records, options, result)
    result.players.sort(key=lambda p: (p.kind, -(p.rating if p.rating is not None else -math.inf), p.key))
    return result


def _rate_kind(kind: GameKind, records: list[GameRecord], options: RatingOptions, result: RatingResult) -> None:
    players: dict[str, PlayerRating] = {}
    declared_on: dict[str, tuple[dt.date, int, float]] = {}
    parsed_declared: dict[str, float | None] = {}

    def player(name: str) -> PlayerRating | None:
        key = player_key(name)
        if not key:
            return None
        found = players.get(key)
        if found is None:
            found = players[key] = PlayerRating(key=key, name=" ".join(name.split()), kind=kind)
        return found

    rated: list[tuple[GameRecord, PlayerRating, PlayerRating]] = []
    for order, record in enumerate(records):
        white, black = player(record.white), player(record.black)
        if white is None or black is None or white is black:
            result.games_skipped += 1
            continue
        for side, text in ((white, record.white_declared), (black, record.black_declared)):
            side.games += 1
            if record.date and (side.last_date is None or record.date > side.last_date):
                side.last_date = record.date
            if text not in parsed_declared:
                parsed_declared[text] = scale.parse_declared(kind, text)
            value = parsed_declared[text]
            if value is not None:
                stamp = (record.date or dt.date.min, order, value)
                if side.key not in declared_on or stamp[:2] >= declared_on[side.key][:2]:
                    declared_on[side.key] = stamp
        if record.outcome == "unknown":
            white.unknown += 1
            black.unknown += 1
            result.games_unknown += 1
            continue
        if record.outcome == "draw":
            white.draws += 1
            black.draws += 1
        elif record.outcome == "white":
            white.wins += 1
            black.losses += 1
        else:
            black.wins += 1
            white.losses += 1
        rated.append((record, white, black))
    for key, (_, _, value) in declared_on.items():
        players[key].declared = value

    result.games_used += len(rated)
    in_solver = sorted({p.key for _, w, b in rated for p in (w, b)})
    index = {key: i for i, key in enumerate(in_solver)}
    for p in players.values():
        if p.key not in index:
            p.placed_by = "none"
    if rated:
        _solve_kind(kind, rated, index, players, options, result)
    result.players.extend(players.values())


def _solve_kind(
    kind: GameKind,
    rated: list[tuple[GameRecord, PlayerRating, PlayerRating]],
    index: dict[str, int],
    players: dict[str, PlayerRating],
    options: RatingOptions,
    result: RatingResult,
) -> None:
    n = len(index)
    white_all = np.array([index[w.key] for _, w, _ in rated])
    black_all = np.array([index[b.key] for _, _, b in rated])
    score_all = np.array([r.score_white for r, _, _ in rated], dtype=float)
    shifts: dict[tuple[int, float | None, str | None], float] = {}
    for r, _, _ in rated:
        terms = (r.handicap, r.komi, r.rules)
        if _ranks(kind) and terms not in shifts:
            even_komi = game_support(kind).rating.even_komi(r.rules)
            shifts[terms] = scale.white_rank_shift(r.handicap, r.komi, even_komi, options.handicap_rules)
    shift_all = np.array([shifts[(r.handicap, r.komi, r.rules)] if _ranks(kind) else 0.0 for r, _, _ in rated])
    weight_all = age_weights([r.date for r, _, _ in rated], options.half_life_days, options.as_of)
    graph = coo_matrix((np.ones(len(white_all)), (white_all, black_all)), shape=(n, n))
    n_groups, group = connected_components(graph, directed=False)
    core, core_of_group = _determined_cores(n, white_all, black_all, score_all, group, n_groups)
    determined = core == core_of_group[group]

    keys = sorted(index, key=index.__getitem__)
    declared = np.array([players[k].declared if players[k].declared is not None else np.nan for k in keys])
    has_value = ~np.isnan(declared)
    group_target = _mean_declared(group, n_groups, declared, has_value, options.reference(kind))
    # Only games inside a core reach the solver: a game between two cores has its maximum at an
    # infinite gap, so with a weak prior it would only drag both sides far from the data.
    inside = core[white_all] == core[black_all]
    white, black, score = white_all[inside], black_all[inside], score_all[inside]
    games = SolverGames(n, white, black, score, weight_all[inside], shift_all[inside])
    k_ref = options.k_reference(kind)
    prior_sd = None if options.prior_sd_logit is None else options.prior_sd_logit / k_ref
    # Each core is levelled on its own declarations, else on its group's (step 4).
    n_cores = int(core.max()) + 1
    group_of_core = np.zeros(n_cores, dtype=int)
    group_of_core[core] = group
    target = _mean_declared(core, n_cores, declared, has_value, np.nan)
    target = np.where(np.isnan(target), group_target[group_of_core], target)
    core_declares = np.bincount(core, weights=has_value.astype(float), minlength=n_cores) > 0
    # The players whose mean is held at the target: those who declare, else the whole core.
    held = np.where(core_declares[core], has_value, True).astype(float)
    held_count = np.bincount(core, weights=held, minlength=n_cores)

    # k depends on the absolute level, so the anchoring happens inside the solve: each core
    # starts at its target level and is shifted back onto it after every step.
    def anchor_offsets(rating: np.ndarray) -> np.ndarray:
        held_mean = np.bincount(core, weights=held * rating, minlength=n_cores) / held_count
        return np.asarray((target - held_mean)[core], dtype=float)

    solved = solve(
        games,
        options.k_function(kind),
        k_ref=k_ref,
        prior_mean=np.where(has_value, declared, target[core]),  # own declaration, else the core's level
        prior_sd=prior_sd,
        opponent_confidence=options.opponent_confidence,
        anchor=anchor_offsets,
    )
    rating = solved.rating
    result.converged = result.converged and solved.converged
    result.iterations[kind] = solved.iterations
    sigma = solved.sigma

    # Placing players outside their group's core (KGS: best win / worst loss against the core).
    undetermined = ~determined
    placed = rating.copy()
    placed_by = np.array(["likelihood"] * n, dtype=object)
    # For each game: the opponent's strength as it stood against this player (handicap included).
    opponent_for_white = rating[black_all] + shift_all  # White won -> White's rating ≥ this
    opponent_for_black = rating[white_all] - shift_all
    best_win = np.full(n, -np.inf)
    worst_loss = np.full(n, np.inf)
    opp_ok_white = determined[black_all]
    opp_ok_black = determined[white_all]
    white_won, black_won = score_all == 1.0, score_all == 0.0
    np.maximum.at(best_win, white_all[white_won & opp_ok_white], opponent_for_white[white_won & opp_ok_white])
    np.maximum.at(best_win, black_all[black_won & opp_ok_black], opponent_for_black[black_won & opp_ok_black])
    np.minimum.at(worst_loss, white_all[black_won & opp_ok_white], opponent_for_white[black_won & opp_ok_white])
    np.minimum.at(worst_loss, black_all[white_won & opp_ok_black], opponent_for_black[white_won & opp_ok_black])
    z = options.interval_z
    low = rating - z * sigma
    high = rating + z * sigma
    # Outside the core a player has only wins or only losses against it (a win and a loss, or a
    # draw, against the core would put them inside), so at most one of the two bounds is finite.
    for i in map(int, np.flatnonzero(undetermined)):
        if np.isfinite(best_win[i]):
            placed[i], placed_by[i], low[i], high[i] = best_win[i], "best win", best_win[i], np.nan
        elif np.isfinite(worst_loss[i]):
            placed[i], placed_by[i], low[i], high[i] = worst_loss[i], "worst loss", np.nan, worst_loss[i]
        else:  # nothing determined to measure against: their own declaration, else the group's level
            placed[i] = declared[i] if has_value[i] else group_target[group[i]]
            placed_by[i], low[i], high[i] = ("declared" if has_value[i] else "group level"), np.nan, np.nan
    bound = options.max_half_width(kind)
    for key, i in index.items():
        p = players[key]
        p.rating = float(placed[i])
        p.sigma = float(sigma[i])
        p.low = None if np.isnan(low[i]) else float(low[i])
        p.high = None if np.isnan(high[i]) else float(high[i])
        p.group = int(group[i])
        p.placed_by = str(placed_by[i])
        p.uncertain = bool(undetermined[i] or z * sigma[i] > bound)


def _mean_declared(
    label: np.ndarray, n_labels: int, declared: np.ndarray, has_value: np.ndarray, fallback: float
) -> np.ndarray:
    """Per label: the mean declared rank/rating of its players who declare one, else `fallback`."""
    count = np.bincount(label, weights=has_value.astype(float), minlength=n_labels)
    total = np.bincount(label, weights=np.where(has_value, declared, 0.0), minlength=n_labels)
    return np.where(count > 0, total / np.maximum(count, 1.0), fallback)


def _determined_cores(
    n: int, white: np.ndarray, black: np.ndarray, score_white: np.ndarray, group: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each player's core (a strongly connected set of the 'lost to' graph) and each group's main core.

    Edge loser -> winner for every decided game, both ways for a draw. Ratings inside a strongly
    connected set have a finite maximum of the likelihood; between two such sets, one side never
    scored against the other and the gap's maximum is infinite. A group's main core is its
    largest strongly connected set of at least two players (ties: the one with most games);
    -1 when it has none.
    """
    lost = score_white <= 0.5  # White scored less than a win: an edge White -> Black
    won = score_white >= 0.5
    rows = np.concatenate([white[lost], black[won]])
    cols = np.concatenate([black[lost], white[won]])
    graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    _, core = connected_components(graph, directed=True, connection="strong")
    size = np.bincount(core)
    inside = core[white] == core[black]
    games = np.bincount(core[white[inside]], minlength=len(size))
    core_of_group = np.full(n_groups, -1)
    best: list[tuple[int, int]] = [(0, 0)] * n_groups
    for c in range(len(size)):
        if size[c] < 2:
            continue
        g = int(group[np.flatnonzero(core == c)[0]])
        if (size[c], games[c]) > best[g]:
            best[g], core_of_group[g] = (int(size[c]), int(games[c])), c
    return core, core_of_group
