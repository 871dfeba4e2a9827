"""The rules of each game, one module per game behind one protocol (`base.GameRules`).

    rules = rules_for(game.kind)
    position = rules.after(game, node)
    played = rules.play(position, "Nf3")   # raises IllegalMove with the reason
"""

from __future__ import annotations

from typing import Any

from reviewer.core.games.base import PHASES, GameRules, IllegalMove, Phase, PlayedMove
from reviewer.core.games.memo import forget_positions
from reviewer.core.gametree import GameKind

__all__ = ["PHASES", "GameRules", "IllegalMove", "Phase", "PlayedMove", "forget_positions", "rules_for"]


def rules_for(kind: GameKind) -> GameRules[Any]:
    from reviewer.core.games import chess, go

    rules: dict[str, GameRules[Any]] = {"chess": chess.RULES, "go": go.RULES}
    try:
        return rules[kind]
    except KeyError:
        raise ValueError(f"no rules for the game {kind!r}") from None
