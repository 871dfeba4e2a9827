"""Time on the clock per main-line move, and time trouble (docs/SCORING.md, "Time").

A move is made in time trouble when the mover's clock before it is under 10% of the base time or
under 30 seconds. The clock before a move is the same side's clock after its previous move (the
base time before its first move); the base time is the time control's (PGN `TimeControl`, SGF
`TM`), else the largest clock the file shows for that side.
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.core.formats.clocks import TimeControl, game_time_control
from reviewer.core.gametree import Color, Game

TIME_TROUBLE_SHARE = 0.10  # of the base time
TIME_TROUBLE_S = 30.0


@dataclass(frozen=True)
class MoveTime:
    """One move's time, the mover's clock: seconds, None where unknown."""

    ply: int
    color: Color
    clock_before_s: float | None
    clock_s: float | None  # after the move
    spent_s: float | None
    base_s: float | None

    @property
    def time_trouble(self) -> bool | None:
        """Whether the move was made in time trouble; None when the clock before it is unknown."""
        return in_time_trouble(self.clock_before_s, self.base_s)

    @property
    def share_left(self) -> float | None:
        """The clock before the move as a share of the base time (0–1, more after increments)."""
        if self.clock_before_s is None or not self.base_s:
            return None
        return self.clock_before_s / self.base_s


def in_time_trouble(clock_before_s: float | None, base_s: float | None) -> bool | None:
    if clock_before_s is None:
        return None
    return clock_before_s < TIME_TROUBLE_S or (base_s is not None and clock_before_s < TIME_TROUBLE_SHARE * base_s)


def has_times(game: Game) -> bool:
    """Whether any main-line move carries a clock or a move time."""
    return any(node.clock_s is not None or node.spent_s is not None for node in game.root.mainline())


def base_times_s(game: Game, control: TimeControl | None = None) -> dict[Color, float | None]:
    """Each side's base time: the time control's, else the largest clock the main line shows."""
    control = control if control is not None else game_time_control(game)
    if control is not None:
        return {"white": control.base_s, "black": control.base_s}
    largest: dict[Color, float | None] = {"white": None, "black": None}
    for node in game.root.mainline():
        if node.color is not None and node.clock_s is not None:
            known = largest[node.color]
            largest[node.color] = node.clock_s if known is None else max(known, node.clock_s)
    return largest


def move_times(game: Game) -> dict[int, MoveTime]:
    """Main-line ply -> its move's time; every move of a game that carries times (empty otherwise)."""
    if not has_times(game):
        return {}
    control = game_time_control(game)
    bases = base_times_s(game, control)
    previous: dict[Color, float | None] = {"white": None, "black": None}
    if control is not None:
        previous = {"white": control.base_s, "black": control.base_s}
    counts: dict[Color, int] = {"white": 0, "black": 0}
    times: dict[int, MoveTime] = {}
    for ply, node in enumerate(game.root.mainline(), start=1):
        color = node.color
        if color is None:
            continue
        counts[color] += 1
        before = previous[color]
        if before is None and node.clock_s is not None and node.spent_s is not None:
            added = control.added_after(counts[color]) if control is not None else 0.0
            before = round(node.clock_s + node.spent_s - added, 3)
        times[ply] = MoveTime(ply, color, before, node.clock_s, node.spent_s, bases[color])
        previous[color] = node.clock_s
    return times


__all__ = ["TIME_TROUBLE_S", "TIME_TROUBLE_SHARE", "MoveTime", "base_times_s", "has_times", "in_time_trouble", "move_times"]
