"""Which main-line move a reader's warning belongs to, for a marker in the move list.

The PGN reader names an unreadable move by its number: "illegal move 'Nf9' at 23. in the main
line; the rest of that line is skipped". The marker goes on the last move that was read before
it (the game stops there); warnings that name no move stay in the message bar only.
"""

from __future__ import annotations

import re

from reviewer.core.games import game_support
from reviewer.core.gametree import Game

_AT_MOVE = re.compile(r"move '(?P<san>[^']*)' at (?P<number>\d+)(?P<dots>\.\.\.|\.) in the main line")


def _ply_of(game: Game, number: int, white: bool) -> int:
    """The main-line ply a move with this number and colour would have."""
    start = game_support(game.kind).start_move_number(game)
    half_moves = (number - start.number) * 2 + (0 if white else 1) - (0 if start.first_to_move else 1)
    return half_moves + 1


def problem_plies(game: Game) -> dict[int, list[str]]:
    """Main-line ply → the warnings to show at that move (ply ≥ 1)."""
    found: dict[int, list[str]] = {}
    if not game_support(game.kind).numbered_moves:  # the readers' warnings name numbered moves
        return found
    for warning in game.warnings:
        match = _AT_MOVE.search(warning)
        if match is None:
            continue
        missing = _ply_of(game, int(match["number"]), match["dots"] == ".")
        ply = min(missing - 1, game.ply_count)
        if ply >= 1:
            found.setdefault(ply, []).append(f"After this move: {warning}")
    return found
