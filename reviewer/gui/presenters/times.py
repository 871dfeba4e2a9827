"""What the time chart, the comment pane and the player strips say about the clocks a game file
carries (docs/SCORING.md, "Time"): plain data, no Qt."""

from __future__ import annotations

from dataclasses import dataclass, field

from reviewer.core.formats.clocks import clock_text
from reviewer.core.games import game_support
from reviewer.core.gametree import Color, Game, Node
from reviewer.core.scoring.clock import MoveTime, base_times_s, in_time_trouble, move_times
from reviewer.gui.presenters.judgements import FLAGGED_JUDGEMENTS, JUDGEMENT_TITLES

TIME_TROUBLE_MARK = "◷"  # a clock face most fonts have (U+23F1, the stopwatch, is missing from DejaVu)


@dataclass(frozen=True)
class TimeSeries:
    """A game's main-line times, ply by ply, for the time chart.

    up: the side whose move times are drawn above the axis (the game's first player, as on the
    evaluation graph); spent_s / clock_s: ply -> the mover's seconds spent on the move / left on its
    clock after it (plies the file gives no figure for are absent); trouble_plies: the moves made in
    time trouble; trouble_mistakes: those of them the review judged an inaccuracy or worse, with
    their judgement; texts: ply -> the tooltip there."""

    up: Color
    movers: dict[int, Color] = field(default_factory=dict)
    spent_s: dict[int, float] = field(default_factory=dict)
    clock_s: dict[int, float] = field(default_factory=dict)
    trouble_plies: tuple[int, ...] = ()
    trouble_mistakes: dict[int, str] = field(default_factory=dict)
    texts: dict[int, str] = field(default_factory=dict)

    @property
    def most_spent_s(self) -> float:
        return max(self.spent_s.values(), default=0.0)

    @property
    def usual_most_spent_s(self) -> float:
        """The chart's bar scale: the longest think, unless a few long ones dwarf the rest (then
        four times the 90th percentile; longer bars stop at the edge, their tooltip tells)."""
        spent = sorted(self.spent_s.values())
        if not spent:
            return 0.0
        percentile_90 = spent[min(len(spent) - 1, int(0.9 * len(spent)))]
        return min(spent[-1], max(4 * percentile_90, 1.0))

    @property
    def most_clock_s(self) -> float:
        return max(self.clock_s.values(), default=0.0)


def time_series(game: Game, judgements: dict[int, str | None] | None = None) -> TimeSeries | None:
    """The time chart's figures; None for a game whose main line carries no times (no chart)."""
    times = move_times(game)
    if not any(time.clock_s is not None or time.spent_s is not None for time in times.values()):
        return None
    judgements = judgements or {}
    nodes = game.mainline_nodes()
    series = TimeSeries(up=game_support(game.kind).first_player)
    trouble: list[int] = []
    for ply, time in sorted(times.items()):
        series.movers[ply] = time.color
        if time.spent_s is not None:
            series.spent_s[ply] = time.spent_s
        if time.clock_s is not None:
            series.clock_s[ply] = time.clock_s
        judgement = judgements.get(ply)
        if time.time_trouble:
            trouble.append(ply)
            if judgement in FLAGGED_JUDGEMENTS:
                series.trouble_mistakes[ply] = judgement
        series.texts[ply] = _point_text(game, nodes[ply - 1], time, judgement)
    return TimeSeries(series.up, series.movers, series.spent_s, series.clock_s, tuple(trouble), series.trouble_mistakes, series.texts)


def _point_text(game: Game, node: Node, time: MoveTime, judgement: str | None) -> str:
    """'12. Nf3 · 0:14 spent · 3:05 left', '30… Qh4 · 0:02 spent · 0:24 left · ◷ time trouble · Mistake'."""
    parts = [_move_label(game, node)]
    if time.spent_s is not None:
        parts.append(f"{clock_text(time.spent_s)} spent")
    if time.clock_s is not None:
        parts.append(f"{clock_text(time.clock_s)} left")
    if time.time_trouble:
        parts.append(f"{TIME_TROUBLE_MARK} time trouble")
        if judgement in FLAGGED_JUDGEMENTS:
            parts.append(JUDGEMENT_TITLES[judgement])
    return " · ".join(parts)


def _move_label(game: Game, node: Node) -> str:
    if not game_support(game.kind).numbered_moves:
        return node.move or ""
    number = game.full_move_number(node.ply)
    dots = "." if node.color == game_support(game.kind).first_player else "…"
    return f"{number}{dots} {node.move or ''}"


def move_time_text(game: Game, node: Node) -> str:
    """The comment pane's line on the time of the move that led to `node`: '◷ 0:24 left · 0:12 spent
    · time trouble'; '' when the file gives none. Main-line moves say whether they were made in
    time trouble (the clock before them is known there)."""
    if node.clock_s is None and node.spent_s is None:
        return ""
    time = move_times(game).get(node.ply) if node.is_mainline else None
    parts = []
    if node.clock_s is not None:
        parts.append(f"{TIME_TROUBLE_MARK} {clock_text(node.clock_s)} left")
    if node.spent_s is not None:
        parts.append(f"{clock_text(node.spent_s)} spent")
    if node.period_moves_left is not None:
        parts.append(f"{node.period_moves_left} moves left in the period")
    if time is not None and time.time_trouble:
        parts.append("made in time trouble")
    return " · ".join(parts)


@dataclass(frozen=True)
class ShownClock:
    """A side's clock as the player strips show it: the text ('4:05') and whether it is low."""

    text: str
    low: bool


def clocks_at(game: Game, node: Node) -> dict[str, ShownClock]:
    """Each side's clock in the position after `node`: its clock after its last move on the way
    there (the base time before its first move, where known). Sides the file gives no clock for
    are absent; a game without times gives {}."""
    found: dict[Color, float] = {}
    walker: Node | None = node
    while walker is not None and len(found) < 2:
        if walker.color is not None and walker.clock_s is not None and walker.color not in found:
            found[walker.color] = walker.clock_s
        walker = walker.parent
    if not found and not _has_clocks(game):
        return {}
    bases = base_times_s(game)
    shown: dict[str, ShownClock] = {}
    for color in game_support(game.kind).player_order:
        seconds = found.get(color, bases[color])
        if seconds is not None:
            shown[color] = ShownClock(clock_text(seconds), bool(in_time_trouble(seconds, bases[color])))
    return shown


def _has_clocks(game: Game) -> bool:
    return any(node.clock_s is not None for node in game.root.mainline())


__all__ = ["TIME_TROUBLE_MARK", "ShownClock", "TimeSeries", "clocks_at", "move_time_text", "time_series"]
