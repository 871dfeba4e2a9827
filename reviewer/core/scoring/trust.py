"""Whether an engine at a given setting may give move labels and accuracy at all.

A weak engine's labels look exactly like a strong one's, so the decision is made once, here, from
the engine identity and limit that every `Evaluation.engine_id` carries. Where labels are not
trusted, views show the score graph and candidate moves as a rough estimate and withhold labels,
accuracy and counts, saying why (`Trust.reason`) and how to get them (`Trust.remedy`).

The thresholds come from `benchmarks/engine_agreement.py` (labels compared with KataGo at a high
visit count on real games); docs/SCORING.md, "Which engines may label moves", lists them with the
measured table. A setting may label moves on a board size when, against that reference, it finds
at least two thirds of the mistakes and blunders, at least two thirds of what it calls a mistake
or blunder is one, and its points lost per move are off by at most 2 points on average.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reviewer.core.games.support import game_support
from reviewer.core.gametree import GameKind

INSTALL_KATAGO = "Install KataGo (`reviewer engines install`, or Engines → Install KataGo) for move labels and accuracy."

# KataGo: the fewest visits per position whose labels pass the bar, by board class (largest side
# up to 9, up to 13, larger). The corpus has no 13x13 game: 13x13 takes the 19x19 figure.
KATAGO_MIN_VISITS: dict[int, int] = {9: 16, 13: 16, 19: 16}
# The built-in engine: the fewest playouts per position whose labels pass the bar; None: none do.
BUILTIN_MIN_PLAYOUTS: dict[int, int | None] = {9: None, 13: None, 19: None}


@dataclass(frozen=True)
class Trust:
    """The verdict on one engine setting: may its evaluations be turned into labels and accuracy?"""

    labels: bool
    reason: str = ""  # why labels are withheld ("" when they are not)
    remedy: str = ""  # what the user can do to get them

    @property
    def rough(self) -> bool:
        return not self.labels


TRUSTED = Trust(labels=True)

_VISITS = re.compile(r"(?:^|[|,\s])visits=(\d+)")
_NODES = re.compile(r"(?:^|[|,\s])nodes=(\d+)")
_DEFAULT_PLAYOUTS = re.compile(r"(?:^|\s)default-playouts=(\d+)")


def visits_in(engine_id: str) -> int | None:
    """The visit budget named by an engine id's limit half (`… | visits=50,multipv=1`), if any."""
    match = _VISITS.search(engine_id)
    return int(match.group(1)) if match else None


def board_class(board_size: int) -> int:
    """9, 13 or 19: the class whose thresholds apply to a board of this (larger) side."""
    return 9 if board_size <= 9 else 13 if board_size <= 13 else 19


def builtin_playouts_in(engine_id: str) -> int | None:
    """The playouts per position the built-in engine used: the limit's visits, else its nodes,
    else the engine's fallback (`default-playouts=`), as `BuiltinGoEngine.playouts_for` picks."""
    identity, _, limit = engine_id.partition("|")
    for pattern, text in ((_VISITS, limit), (_NODES, limit), (_DEFAULT_PLAYOUTS, identity)):
        match = pattern.search(text)
        if match and int(match.group(1)) > 0:
            return int(match.group(1))
    return None


def judge_engine(engine_id: str, kind: GameKind, board_size: int) -> Trust:
    """The trust verdict for evaluations made under `engine_id` on a game of `kind` and `board_size`
    (the larger side for rectangular Go boards; ignored for chess)."""
    support = game_support(kind)
    if not support.fallback_engine or not engine_id:
        return TRUSTED
    size_class = board_class(board_size)
    if support.is_fallback_identity(engine_id):
        needed = BUILTIN_MIN_PLAYOUTS[size_class]
        playouts = builtin_playouts_in(engine_id)
        if needed is not None and playouts is not None and playouts >= needed:
            return TRUSTED
        if needed is None:
            reason = (
                f"the built-in Go engine is too weak to judge moves on {board_size}×{board_size}: "
                "its scores are a rough estimate"
            )
        else:
            reason = (
                f"the built-in Go engine at {playouts or 'an unknown number of'} playouts is too weak to judge "
                f"moves on {board_size}×{board_size} (it needs {needed}): its scores are a rough estimate"
            )
        return Trust(labels=False, reason=reason, remedy=INSTALL_KATAGO)
    if support.is_usual_identity(engine_id):
        visits = visits_in(engine_id)
        needed = KATAGO_MIN_VISITS[size_class]
        if visits is not None and visits < needed:
            return Trust(
                labels=False,
                reason=f"KataGo at {visits} visits per position is too shallow to judge moves: its scores are a rough estimate",
                remedy=f"Analyse again with at least {needed} visits per position (Standard or Deep).",
            )
    return TRUSTED
