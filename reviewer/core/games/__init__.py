"""Each game behind one object (`support.GameSupport`, found by `game_support(kind)`), its rules
behind one protocol (`base.GameRules`).

    rules = rules_for(game.kind)
    position = rules.after(game, node)
    played = rules.play(position, "Nf3")   # raises IllegalMove with the reason
"""

from __future__ import annotations

from reviewer.core.games.base import PHASES, GameRules, IllegalMove, Phase, PlayedMove, Position
from reviewer.core.games.memo import forget_positions
from reviewer.core.games.support import (
    GameSupport,
    game_support,
    register_game,
    registered_games,
    shown_engine_name,
    unregister_game,
)
from reviewer.core.gametree import GameKind

__all__ = [
    "PHASES",
    "GameRules",
    "GameSupport",
    "IllegalMove",
    "Phase",
    "PlayedMove",
    "Position",
    "forget_positions",
    "game_support",
    "register_game",
    "registered_games",
    "rules_for",
    "shown_engine_name",
    "unregister_game",
]


def rules_for(kind: GameKind) -> GameRules[Position]:
    """The rules of the game `kind` (its support object's `rules`), over positions only they read."""
    try:
        support = game_support(kind)
    except ValueError:
        raise ValueError(f"no rules for the game {kind!r}") from None
    return support.rules
