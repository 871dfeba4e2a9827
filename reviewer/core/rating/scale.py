"""Rating scales: Go ranks and chess Elo, the logistic constant `k`, and handicap as a rank shift.

Internal Go scale: one unit per rank, 30k = -29 … 1k = 0, 1d = 1 … 9d = 9. A rank covers the
half-open band [n - 0.5, n + 0.5) around its integer n, so a declared "5k" sits at -4.0 and an
estimate of -4.3 also reads "5k". Chess uses Elo points directly.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from reviewer.core.games.support import game_support
from reviewer.core.gametree import GameKind

# Chess: the Elo logistic, P = 1 / (1 + 10**(-diff/400)) = 1 / (1 + exp(-k·diff)).
ELO_K = math.log(10.0) / 400.0

# Go: KGS's published constants — k = 0.85 from 30k to 5k, 1.30 from 2d up; we join the two
# linearly in between (KGS does not publish the middle values).
GO_K_WEAK = 0.85
GO_K_STRONG = 1.30
GO_K_WEAK_UPTO = -4.0  # 5k
GO_K_STRONG_FROM = 2.0  # 2d

# Where the scale sits when no player of a group declares a rank/rating.
GO_REFERENCE_RANK = 0.0  # 1k
CHESS_REFERENCE_ELO = 1500.0

GO_WEAKEST = -29  # 30k
GO_STRONGEST_AMATEUR = 9  # 9d


def go_k(rank: np.ndarray | float) -> np.ndarray:
    """KGS-like k for a game whose players' mean rank is `rank` (internal scale)."""
    rank = np.asarray(rank, dtype=float)
    fraction = np.clip((rank - GO_K_WEAK_UPTO) / (GO_K_STRONG_FROM - GO_K_WEAK_UPTO), 0.0, 1.0)
    return GO_K_WEAK + (GO_K_STRONG - GO_K_WEAK) * fraction


def chess_k(rating: np.ndarray | float) -> np.ndarray:
    return np.full(np.shape(rating), ELO_K, dtype=float)


# ---------------------------------------------------------------- Go rank text


_RANK_RE = re.compile(
    r"^\s*(\d{1,2})\s*(kyu|k|級|级|급|dan|d|段|단|pro|p)(?![a-z])",
    re.IGNORECASE,
)
_KYU = {"k", "kyu", "級", "级", "급"}
_DAN = {"d", "dan", "段", "단"}


def parse_go_rank(text: str) -> float | None:
    """'5k' -> -4.0, '1k' -> 0.0, '3d' -> 3.0, '1p' -> 9.0; None when the text is not a rank.

    Professional ranks are put at the top of the amateur scale: 1p = 9d, each further
    professional dan a third of an amateur rank above (the two ladders are not the same).
    Trailing marks servers add ('5k?', '3d*', '[-]') are ignored.
    """
    match = _RANK_RE.match(text or "")
    if not match:
        return None
    number, unit = int(match.group(1)), match.group(2).lower()
    if number < 1:
        return None
    if unit in _KYU:
        return float(1 - number) if number <= 40 else None
    if unit in _DAN:
        return float(number) if number <= 9 else None
    return GO_STRONGEST_AMATEUR + (min(number, 9) - 1) / 3.0


def go_rank_text(rank: float) -> str:
    """Internal rank -> '5k' / '3d' (the nearest rank; clamped to 30k … 9d)."""
    nearest = int(math.floor(rank + 0.5))
    nearest = max(GO_WEAKEST, min(GO_STRONGEST_AMATEUR, nearest))
    return f"{nearest}d" if nearest >= 1 else f"{1 - nearest}k"


def parse_elo(text: str) -> float | None:
    """'2450' -> 2450.0; '', '?', '0', '-' -> None."""
    try:
        value = float((text or "").strip())
    except ValueError:
        return None
    return value if value > 0 and math.isfinite(value) else None


def parse_declared(kind: GameKind, text: str) -> float | None:
    return game_support(kind).parse_rating(text)


def rating_text(kind: GameKind, value: float | None) -> str:
    if value is None:
        return "-"
    return game_support(kind).rating_text(value)


def interval_text(kind: GameKind, rating: float | None, low: float | None, high: float | None) -> str:
    """'5k – 2k', '≥ 1850' (open above), '' when there is no estimate or no bound."""
    if rating is None or (low is None and high is None):
        return ""
    if low is None:
        return f"≤ {rating_text(kind, high)}"
    if high is None:
        return f"≥ {rating_text(kind, low)}"
    return f"{rating_text(kind, low)} – {rating_text(kind, high)}"


# ---------------------------------------------------------------- handicap and komi


@dataclass(frozen=True)
class GoHandicapRules:
    """How handicap stones and komi move White's effective rank.

    One rank per handicap stone (KGS). Komi counts from the komi that goes with the game:
    the even komi of the rules for an even game (6.5 japanese/korean, 7.5 chinese/aga/
    new-zealand/tromp-taylor), 0.5 for a handicap game. Each point of komi away from it moves
    White by 1/points_per_rank ranks: the traditional one-rank handicap is an even game
    without komi, so one rank is worth about the even komi, ~7 points.
    """

    points_per_rank: float = 7.0
    handicap_komi: float = 0.5
    unknown_rules_even_komi: tuple[float, float] = (6.5, 7.5)  # any komi in this range counts as even


def white_rank_shift(
    handicap: int, komi: float | None, even_komi: float | None, settings: GoHandicapRules = GoHandicapRules()
) -> float:
    """Ranks taken off White's rank for a game's handicap and komi (negative: White gains);
    `even_komi`: the komi of an even game under the game's rules (`RatingScale.even_komi`), None
    when the rules are not known."""
    stones = handicap if handicap >= 2 else 0
    if komi is None:
        return float(stones)
    fair_komi = settings.handicap_komi if stones else even_komi
    if fair_komi is None:
        low, high = settings.unknown_rules_even_komi
        fair_komi = min(max(komi, low), high)
    return stones + (fair_komi - komi) / settings.points_per_rank


def elo_text(value: float) -> str:
    """An Elo rating as players write it: '1850'."""
    return f"{value:.0f}"
