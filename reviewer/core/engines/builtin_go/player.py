"""Playing a whole game with the built-in engine: when to pass, when to resign.

`GamePlayer` keeps the game's position and answers `genmove` the way a GTP engine does. Under
area scoring (Chinese rules) a move inside one's own area costs nothing, so the player never
passes to save points: it passes only when the search has no playable move left, when it prefers
passing to every move, or when the opponent has just passed and the game is settled (playing the
ended game out, so that stones which would die come off, counts the same as the board). It
resigns only when its search gives it less than `resign_below` to win after `resign_after`
moves; `resign_below=0` never resigns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reviewer.core.engines.builtin_go import board as bd
from reviewer.core.engines.builtin_go.engine import _mix_seed, search_position
from reviewer.core.engines.builtin_go.position import Position
from reviewer.core.gametree import Color, point_from_gtp

PASS_MOVE = "pass"
RESIGN_MOVE = "resign"


@dataclass(frozen=True)
class Decision:
    """One move chosen by the player, with the search's view of it."""

    move: str  # GTP vertex, "pass" or "resign"
    mover_winrate: float  # the search's chance for the side to move
    playouts: int


class GamePlayer:
    """The built-in engine playing one game, move after move (seeded: the same game replays)."""

    def __init__(
        self,
        size: int = 9,
        *,
        komi: float = 7.0,
        rules: str = "chinese",
        playouts: int = 20_000,
        seed: int = 0,
        variant: str = "plain",
        resign_below: float = 0.0,
        resign_after: int = 40,
        **search_options: Any,
    ):
        self.size = size
        self.komi = komi
        self.rules = rules
        self.playouts = playouts
        self.seed = seed
        self.variant = variant
        self.resign_below = resign_below
        self.resign_after = resign_after
        self.search_options: dict[str, Any] = search_options  # engine.Searcher's options
        self.position = Position(size, rules=rules, komi=komi)
        self.moves = 0

    def clear(self) -> None:
        self.position = Position(self.size, rules=self.rules, komi=self.komi)
        self.moves = 0

    def play(self, color: Color, vertex: str) -> None:
        """Record a move of either side (GTP vertex or "pass")."""
        point = None if vertex.strip().lower() == PASS_MOVE else point_from_gtp(vertex, self.size)
        self.position.play(point, color)
        self.moves += 1

    def _opponent_just_passed(self) -> bool:
        return int(self.position.meta[bd.PASSES]) > 0

    def board_margin(self, color: Color) -> float:
        """`color`'s area margin on the board as it stands (every stone alive), komi included."""
        lead_black = self.position.lead_black()
        return lead_black if color == "black" else -lead_black

    def genmove(self, color: Color) -> Decision:
        """Choose and play a move for `color`."""
        self.position.to_move = color
        result = search_position(
            self.position, self.playouts, seed=_mix_seed(self.seed, self.moves), variant=self.variant,
            **self.search_options,
        )
        if result is None:  # only a stop event interrupts a search, and the player gives none
            raise RuntimeError("the search of the built-in engine was interrupted")
        mover_winrate = result.winrate_first if color == "black" else 1.0 - result.winrate_first
        best = result.best
        if self._opponent_just_passed():
            # The game is settled when ending it now leaves every stone where it is: the
            # playouts' count of the ended game equals the count of the board as it stands.
            # Under area scoring another stone then changes nothing: pass back.
            ended = self.position.copy()
            ended.play(None, color)
            judged = search_position(
                ended, max(100, self.playouts // 10), seed=_mix_seed(self.seed, -self.moves), **self.search_options
            )
            if judged is not None:
                sign = 1.0 if color == "black" else -1.0
                pass_winrate = judged.winrate_first if color == "black" else 1.0 - judged.winrate_first
                if abs(sign * judged.score_lead_first - self.board_margin(color)) < 0.5:
                    self.play(color, PASS_MOVE)
                    return Decision(PASS_MOVE, pass_winrate, result.playouts + judged.playouts)
        if best is None or best.index < 0:
            move = PASS_MOVE
        elif self.resign_below > 0 and self.moves >= self.resign_after and mover_winrate < self.resign_below:
            return Decision(RESIGN_MOVE, mover_winrate, result.playouts)
        else:
            move = best.move
        self.play(color, move)
        return Decision(move, mover_winrate, result.playouts)
