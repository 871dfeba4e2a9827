"""The clock times a game file carries per move, read into `Node.clock_s` / `Node.spent_s` /
`Node.period_moves_left`.

PGN, in the comment after the move: `[%clk 1:02:03.4]` the mover's clock after the move (lichess,
chess.com, DGT boards; lichess's includes the increment), `[%emt 0:00:12]` the time the move took,
chess.com's `[%timestamp 123]` the time it took in tenths of a second. SGF: `BL`/`WL` the time
left after the move, in seconds, and `OB`/`OW` the moves (stones) left in the byo-yomi period.

The comment and the properties keep their text as read, so every writer writes the times back
exactly as they were; the player's view of a comment leaves the `[%...]` commands out.

Where the file gives no move time, it is the clock before the move (the same side's previous
clock, or the base time for its first move) plus the increment and any time a new period adds,
less the clock after it: the time control is the PGN `TimeControl` tag (`180+2`,
`40/5400:1800+30`, `-`) or SGF `TM` with `OT` (`3x30 byo-yomi`, `5 fischer`, `25/600 canadian`).
A clock that rises by more than the increment (byo-yomi, time given by the opponent) leaves the
move time unknown. Where the file gives move times but no clocks, the clocks follow from the
time control (when it is known).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reviewer.core.gametree import Color, Game, Node

_HMS = r"(?:(?P<{0}h>\d+):)?(?P<{0}m>\d{{1,2}}):(?P<{0}s>\d{{1,2}}(?:\.\d*)?)"
CLOCK_COMMAND = re.compile(r"\[%clk\s+" + _HMS.format("c") + r"\s*\]")
EMT_COMMAND = re.compile(r"\[%emt\s+" + _HMS.format("e") + r"\s*\]")
TIMESTAMP_COMMAND = re.compile(r"\[%timestamp\s+(?P<tenths>\d+)\s*\]")  # chess.com: tenths of a second spent
CLOCK_COMMANDS = re.compile(r"\[%(?:clk|emt|timestamp)\s[^\]]*\]")
TIME_LEFT_PROPERTY: dict[Color, str] = {"black": "BL", "white": "WL"}
MOVES_LEFT_PROPERTY: dict[Color, str] = {"black": "OB", "white": "OW"}
ROUNDING_SLACK_S = 1.0  # a clock may read up to this much above what the move time leaves (rounded clocks, lag)


@dataclass(frozen=True)
class TimePeriod:
    """One stage of a time control: `base_s` seconds for `moves` moves (None: the rest of the game),
    and `increment_s` added after each move."""

    base_s: float
    moves: int | None = None
    increment_s: float = 0.0


@dataclass(frozen=True)
class TimeControl:
    """A game's time control, as far as the file states it; `periods[0]` starts the game."""

    periods: tuple[TimePeriod, ...]
    byo_yomi_s: float = 0.0  # Go: the length of one byo-yomi period (0 when none)

    @property
    def base_s(self) -> float:
        """The time each side starts with."""
        return self.periods[0].base_s

    def _place(self, move_number: int) -> tuple[int, bool]:
        """(the period a side's `move_number`-th move, 1-based, is played in; whether it ends that
        period). A last period of so many moves repeats, as PGN's `40/7200` means."""
        played = 0
        for index, period in enumerate(self.periods):
            if period.moves is None:
                return index, False
            if move_number <= played + period.moves:
                return index, move_number == played + period.moves
            played += period.moves
        moves = self.periods[-1].moves or 1
        return len(self.periods) - 1, (move_number - played) % moves == 0

    def added_after(self, move_number: int) -> float:
        """The time a side's clock gains after its `move_number`-th move: the increment, plus the
        next period's time when that move ends a period."""
        index, ends = self._place(move_number)
        added = self.periods[index].increment_s
        if ends:
            added += self.periods[self._place(move_number + 1)[0]].base_s
        return added

    def text(self) -> str:
        """'3+2', '90+30', '40/90+30, then 30': the time control as players say it, in minutes."""

        def minutes(seconds: float) -> str:
            return f"{seconds / 60:g}"

        parts = []
        for period in self.periods:
            part = (f"{period.moves}/" if period.moves else "") + minutes(period.base_s)
            if period.increment_s:
                part += f"+{period.increment_s:g}"
            parts.append(part)
        text = ", then ".join(parts)
        if self.byo_yomi_s:
            text += f", byo-yomi {self.byo_yomi_s:g} s"
        return text


_PGN_PERIOD = re.compile(r"(?:(?P<moves>\d+)/)?(?P<base>\d+(?:\.\d+)?)(?:\+(?P<increment>\d+(?:\.\d+)?))?")


_WORDED = re.compile(
    r"(?P<minutes>\d+(?:\.\d+)?)\s*(?:min\w*)\.?(?:\s*\+\s*(?P<increment>\d+(?:\.\d+)?)\s*s\w*\.?(?:\s*(?:per|/)\s*move)?)?",
    re.I,
)


def parse_time_control(text: str) -> TimeControl | None:
    """A PGN `TimeControl` tag: `180+2`, `600`, `40/5400+30:1800+30`; None for `-` (no clock),
    `?`, a sandglass (`*60`) or what does not parse."""
    words = _WORDED.fullmatch(text.strip())
    if words is not None:  # broadcasts: '15 min. + 10 s. per move', '90 min + 30 sec'
        return TimeControl((TimePeriod(float(words["minutes"]) * 60, None, float(words["increment"] or 0)),))
    fields = text.strip().split(":")
    periods = []
    for field in fields:
        match = _PGN_PERIOD.fullmatch(field.strip())
        if match is None:
            return None
        moves = int(match["moves"]) if match["moves"] else None
        periods.append(TimePeriod(float(match["base"]), moves, float(match["increment"] or 0)))
    if not periods or periods[0].base_s <= 0:
        return None
    return TimeControl(tuple(periods))


_SGF_NUMBER = re.compile(r"\s*(\d+(?:\.\d+)?)\s*$")
_BYO_YOMI = re.compile(r"(?:(?P<periods>\d+)\s*[x×*]\s*)?(?P<seconds>\d+(?:\.\d+)?)\s*(?:s(?:ec\w*)?\s*)?byo-?yomi", re.I)
_CANADIAN = re.compile(r"(?P<moves>\d+)\s*/\s*(?P<seconds>\d+(?:\.\d+)?)\s*(?:s(?:ec\w*)?\s*)?canadian", re.I)
_FISCHER = re.compile(r"(?P<seconds>\d+(?:\.\d+)?)\s*(?:s(?:ec\w*)?\s*)?fischer", re.I)


def sgf_time_control(main_time: str, overtime: str = "") -> TimeControl | None:
    """SGF `TM` (main time, seconds) with `OT` as far as it parses: `3x30 byo-yomi`, `25/600
    Canadian`, `5 fischer` (an increment, as OGS writes it); None when `TM` is not a number."""
    match = _SGF_NUMBER.match(main_time or "")
    if match is None or float(match[1]) <= 0:
        return None
    base_s = float(match[1])
    if (fischer := _FISCHER.search(overtime or "")) is not None:
        return TimeControl((TimePeriod(base_s, None, float(fischer["seconds"])),))
    if (byo_yomi := _BYO_YOMI.search(overtime or "")) is not None:
        return TimeControl((TimePeriod(base_s),), byo_yomi_s=float(byo_yomi["seconds"]))
    if (canadian := _CANADIAN.search(overtime or "")) is not None:
        return TimeControl((TimePeriod(base_s),), byo_yomi_s=float(canadian["seconds"]))
    return TimeControl((TimePeriod(base_s),))


def game_time_control(game: Game) -> TimeControl | None:
    """The game's time control from its PGN `TimeControl` tag or its SGF `TM`/`OT`."""
    tag = game.headers.get("TimeControl")
    if tag:
        return parse_time_control(tag)
    main_time = game.root.properties.get("TM") or ([game.headers["TM"]] if "TM" in game.headers else [])
    if main_time:
        overtime = game.root.properties.get("OT") or ([game.headers["OT"]] if "OT" in game.headers else [""])
        return sgf_time_control(main_time[0], overtime[0])
    return None


def _seconds(match: re.Match[str], prefix: str) -> float:
    return int(match[prefix + "h"] or 0) * 3600 + int(match[prefix + "m"]) * 60 + float(match[prefix + "s"])


def _number(values: list[str] | None) -> float | None:
    if not values:
        return None
    match = _SGF_NUMBER.match(values[0])
    return float(match[1]) if match else None


def _file_times(node: Node) -> tuple[float | None, float | None, int | None]:
    """(clock after the move, time spent on it, moves left in the period) as the node's file text states them."""
    clock_s = spent_s = None
    moves_left: int | None = None
    comment = node.comment or ""
    if "[%" in comment:
        if (clock := CLOCK_COMMAND.search(comment)) is not None:
            clock_s = _seconds(clock, "c")
        if (emt := EMT_COMMAND.search(comment)) is not None:
            spent_s = _seconds(emt, "e")
        elif (stamp := TIMESTAMP_COMMAND.search(comment)) is not None:
            spent_s = int(stamp["tenths"]) / 10
    if node.properties and node.color is not None:
        left = _number(node.properties.get(TIME_LEFT_PROPERTY[node.color]))
        if left is not None:
            clock_s = left
        periods = _number(node.properties.get(MOVES_LEFT_PROPERTY[node.color]))
        if periods is not None:
            moves_left = int(periods)
    return clock_s, spent_s, moves_left


@dataclass
class _SideClock:
    moves: int = 0  # moves this side has made on the way here
    clock_s: float | None = None  # its clock after its last move (None: not known)


def read_clocks(game: Game) -> None:
    """Fill every node's `clock_s`, `spent_s` and `period_moves_left` from the file's text."""
    control = game_time_control(game)
    start = None if control is None else control.base_s
    stack: list[tuple[Node, dict[Color, _SideClock]]] = [
        (child, {"white": _SideClock(0, start), "black": _SideClock(0, start)}) for child in game.root.children
    ]
    while stack:
        node, sides = stack.pop()
        if node.color is not None:
            sides = dict(sides)
            before = sides[node.color]
            number = before.moves + 1
            clock_s, spent_s, node.period_moves_left = _file_times(node)
            added = 0.0 if control is None else control.added_after(number)
            available = None if before.clock_s is None else before.clock_s + added
            if spent_s is None and clock_s is not None and available is not None:
                spent = available - clock_s
                if spent >= -ROUNDING_SLACK_S:
                    spent_s = max(0.0, round(spent, 3))
            elif clock_s is None and spent_s is not None and available is not None and control is not None:
                clock_s = max(0.0, round(available - spent_s, 3))
            node.clock_s, node.spent_s = clock_s, spent_s
            sides[node.color] = _SideClock(number, clock_s)
        stack.extend((child, sides) for child in node.children)


def clock_text(seconds: float) -> str:
    """'1:02:03', '4:05', '0:24', '0:07.5' (tenths shown under ten seconds, where the file has them)."""
    if seconds < 10 and seconds != int(seconds):
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def without_clock_commands(comment: str) -> str:
    """The comment without `[%clk]`, `[%emt]` and `[%timestamp]`."""
    return CLOCK_COMMANDS.sub(" ", comment)


__all__ = [
    "TimeControl",
    "TimePeriod",
    "clock_text",
    "game_time_control",
    "parse_time_control",
    "read_clocks",
    "sgf_time_control",
    "without_clock_commands",
]
