"""Playing a position out against the engine at a chosen strength (*Play from here*): the engine
set up for the strength, and its move in a position of the game. No Qt: the window runs these off
its thread and adds each move to the game as a variation."""

from __future__ import annotations

import threading

from reviewer.core.engines.base import Engine
from reviewer.core.games import game_support
from reviewer.core.games.support import OpponentStrength
from reviewer.core.gametree import Game, Node


def opponent_strength(kind: str) -> OpponentStrength | None:
    """How strong the game's engine can be made to play; None where it cannot play the game out."""
    return game_support(kind).opponent


def prepare_engine(kind: str, engine: Engine, strength: int) -> None:
    """Set `engine` up to play at `strength` (before its first move)."""
    opponent = opponent_strength(kind)
    if opponent is not None and opponent.prepare_ref:
        opponent.prepare_ref.get()(engine, strength)


def position_game(game: Game, node: Node) -> Game | None:
    """A game that starts from the position after `node` (what the engine is asked about), None
    when the game is over there."""
    support = game_support(game.kind)
    rules = support.rules
    position = rules.after(game, node)
    if support.is_over(position):
        return None
    probe: Game = rules.record_game(rules.to_record(position, game), rules.side_to_move(position))
    return probe


def engine_reply(probe: Game, engine: Engine, strength: int, stop: threading.Event | None = None) -> str | None:
    """The engine's move at the start of `probe` (`position_game`), as the move box takes it
    ("Nf3", "D4", "pass"); None when it gives none."""
    opponent = opponent_strength(probe.kind)
    if opponent is None:
        raise ValueError(f"{game_support(probe.kind).title}: the engine cannot play a position out")
    for evaluation in engine.analyse(probe, [0], opponent.limit(strength), stop or threading.Event()):
        return evaluation.best_move
    return None


def engine_move(game: Game, node: Node, engine: Engine, strength: int, stop: threading.Event | None = None) -> str | None:
    """The engine's move in the position after `node`; None when the game is over there."""
    probe = position_game(game, node)
    return engine_reply(probe, engine, strength, stop) if probe is not None else None


__all__ = ["engine_move", "engine_reply", "opponent_strength", "position_game", "prepare_engine"]
