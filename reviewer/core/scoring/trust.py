"""Whether an engine at a given setting may give move labels and accuracy at all.

A weak engine's labels look exactly like a strong one's, so the decision is made once, here, from
the engine identity and limit that every `Evaluation.engine_id` carries. Where labels are not
trusted, views show the score graph and candidate moves as a rough estimate and withhold labels,
accuracy and counts, saying why (`Trust.reason`) and how to get them (`Trust.remedy`).

The thresholds come from `benchmarks/engine_agreement.py` (labels compared with KataGo at a high
visit count on real games); docs/SCORING.md, "Which engines may label moves", lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reviewer.core.gametree import GameKind

INSTALL_KATAGO = "Install KataGo (`reviewer engines install`, or Engines → Install KataGo) for move labels and accuracy."


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


def visits_in(engine_id: str) -> int | None:
    """The visit budget named by an engine id's limit half (`… | visits=50,multipv=1`), if any."""
    match = _VISITS.search(engine_id)
    return int(match.group(1)) if match else None


def is_builtin_go(engine_id: str) -> bool:
    return engine_id.startswith("builtin-go")


def judge_engine(engine_id: str, kind: GameKind, board_size: int) -> Trust:
    """The trust verdict for evaluations made under `engine_id` on a game of `kind` and `board_size`
    (the larger side for rectangular Go boards; ignored for chess)."""
    if kind != "go" or not engine_id:
        return TRUSTED
    if is_builtin_go(engine_id):
        return Trust(
            labels=False,
            reason="the built-in Go engine is too weak to judge moves: its scores are a rough estimate",
            remedy=INSTALL_KATAGO,
        )
    return TRUSTED
