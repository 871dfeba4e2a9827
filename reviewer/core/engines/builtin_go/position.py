"""A Go position for Python callers: points as (row, col), colours as "black"/"white".

Wraps the compiled board of `board.py`. Rules (`go_rules.ruleset_of`): captures, the ko rule
(simple ko in the compiled board; positional or situational superko checked here against the
positions since the last setup), a chain's suicide where the rules allow it, area scoring.
The search and playouts (`search.py`, `playout.py`) see simple ko only.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from reviewer.core.engines.builtin_go import board as bd
from reviewer.core.games.base import IllegalMove
from reviewer.core.games.go_rules import GoRuleset, ruleset_of
from reviewer.core.gametree import Color, Point, gtp_from_point

MAX_BOARD = 25  # GTP coordinates name 25 columns


def suicide_allowed(rules: str | None) -> bool:
    """Whether the rules (SGF RU text or KataGo rule string) let a chain kill itself."""
    return ruleset_of(rules).suicide


def _code(color: Color) -> int:
    if color == "black":
        return bd.BLACK
    if color == "white":
        return bd.WHITE
    raise ValueError(f"not a colour: {color!r}")


def _color(code: int) -> Color | None:
    return "black" if code == bd.BLACK else "white" if code == bd.WHITE else None


class Position:
    """A board position with the side to move, komi and rules."""

    def __init__(self, width: int = 9, height: int | None = None, *, rules: str | None = "chinese", komi: float = 7.5):
        height = width if height is None else height
        if not (1 <= width <= MAX_BOARD and 1 <= height <= MAX_BOARD):
            raise ValueError(f"boards from 1x1 to {MAX_BOARD}x{MAX_BOARD} are supported, not {width}x{height}")
        self.width = width
        self.height = height
        self.rules = rules
        self.ruleset: GoRuleset = ruleset_of(rules)
        self.komi = float(komi)
        self.b, self.meta, self.cfg = bd.new_board(width, height, self.ruleset.suicide)
        self.seen: set[bytes] = set()  # superko keys of the positions since the last setup
        self.button_taken = False  # under button rules the first pass takes it and clears `seen`
        self._remember()

    # coordinates -------------------------------------------------------------------------
    @property
    def stride(self) -> int:
        return self.width + 2

    def index(self, point: Point) -> int:
        row, col = point
        if not (0 <= row < self.height and 0 <= col < self.width):
            raise ValueError(f"point {point} is off the {self.width}x{self.height} board")
        return (row + 1) * self.stride + col + 1

    def point(self, index: int) -> Point | None:
        if index < 0:
            return None
        return (index // self.stride - 1, index % self.stride - 1)

    def gtp(self, index: int) -> str:
        return gtp_from_point(self.point(index), self.height)

    # state -------------------------------------------------------------------------------
    @property
    def to_move(self) -> Color:
        return "black" if self.meta[bd.TO_MOVE] == bd.BLACK else "white"

    @to_move.setter
    def to_move(self, color: Color) -> None:
        self.meta[bd.TO_MOVE] = _code(color)

    @property
    def ko_point(self) -> Point | None:
        return self.point(int(self.meta[bd.KO]))

    @property
    def suicide_allowed(self) -> bool:
        return bool(self.cfg[bd.CFG_SUICIDE])

    def color_at(self, point: Point) -> Color | None:
        return _color(int(self.b[bd.COLOR, self.index(point)]))

    def liberties(self, point: Point) -> int:
        """Distinct liberties of the group on `point` (0 for an empty point)."""
        index = self.index(point)
        color = self.b[bd.COLOR, index]
        if color not in (bd.BLACK, bd.WHITE):
            return 0
        group = self.b[bd.GROUP, index]
        libs: set[int] = set()
        for stone in np.flatnonzero((self.b[bd.GROUP] == group) & (self.b[bd.COLOR] == color)):
            for n in (stone - 1, stone + 1, stone - self.stride, stone + self.stride):
                if self.b[bd.COLOR, n] == bd.EMPTY:
                    libs.add(int(n))
        return len(libs)

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.width, other.height, other.rules, other.komi = self.width, self.height, self.rules, self.komi
        other.ruleset, other.seen, other.button_taken = self.ruleset, set(self.seen), self.button_taken
        other.b, other.meta, other.cfg = self.b.copy(), self.meta.copy(), self.cfg.copy()
        return other

    # superko -----------------------------------------------------------------------------
    def _key(self) -> bytes:
        """The position as the ko rule compares it: the stones, and the player to move unless positional."""
        stones = bytes(self.b[bd.COLOR].tobytes())
        return stones if self.ruleset.ko == "positional" else stones + bytes([int(self.meta[bd.TO_MOVE])])

    def _remember(self) -> None:
        if self.ruleset.ko != "simple":
            self.seen.add(self._key())

    def _after_pass(self) -> None:
        if self.ruleset.button and not self.button_taken:
            self.button_taken = True
            self.seen.clear()
        self._remember()

    def repeats_earlier_position(self, point: Point, color: Color) -> bool:
        """Whether `color` at the empty `point` recreates a position the superko rule bans."""
        if self.ruleset.ko == "simple":
            return False
        after = self.copy()
        bd.play(after.b, after.meta, after.cfg, after.index(point), _code(color))
        return after._key() in self.seen

    # moves -------------------------------------------------------------------------------
    def is_legal(self, point: Point | None, color: Color | None = None) -> bool:
        if point is None:
            return True
        code = _code(color) if color else int(self.meta[bd.TO_MOVE])
        if not bd.is_legal(self.b, self.meta, self.cfg, self.index(point), code):
            return False
        return not self.repeats_earlier_position(point, _color(code) or "black")

    def play(self, point: Point | None, color: Color | None = None) -> int:
        """Play a legal move for `color` (default: the side to move); returns stones captured."""
        if color is not None:
            self.to_move = color
        if point is None:
            bd.play_pass(self.meta)
            self._after_pass()
            return 0
        if not self.is_legal(point):
            raise IllegalMove(gtp_from_point(point, self.height), f"illegal for {self.to_move}")
        captured = int(bd.play(self.b, self.meta, self.cfg, self.index(point), self.meta[bd.TO_MOVE]))
        self._remember()
        return captured

    def replay(self, point: Point | None, color: Color) -> None:
        """Play a move from a game record as well as the board allows: an occupied or off-board
        point is played as a pass; a suicide removes the group even where the rules forbid it."""
        self.to_move = color
        try:
            index = bd.PASS if point is None else self.index(point)
        except ValueError:
            index = bd.PASS
        if index == bd.PASS or self.b[bd.COLOR, index] != bd.EMPTY:
            bd.play_pass(self.meta)
            self._after_pass()
        else:
            bd.play(self.b, self.meta, self.cfg, index, self.meta[bd.TO_MOVE])
            self._remember()

    def setup(self, black: Iterable[Point] = (), white: Iterable[Point] = (), empty: Iterable[Point] = ()) -> None:
        """Place or clear stones without captures (SGF AB/AW/AE); clears the ko."""
        for points, code in ((empty, bd.EMPTY), (black, bd.BLACK), (white, bd.WHITE)):
            for point in points:
                try:
                    self.b[bd.COLOR, self.index(point)] = code
                except ValueError:
                    continue
        to_move, passes, last, moves = (self.meta[i] for i in (bd.TO_MOVE, bd.PASSES, bd.LAST, bd.MOVES))
        bd.rebuild(self.b, self.meta, self.cfg)
        self.meta[bd.TO_MOVE], self.meta[bd.PASSES], self.meta[bd.MOVES] = to_move, passes, moves
        self.meta[bd.LAST] = bd.PASS if last >= 0 and self.b[bd.COLOR, last] == bd.EMPTY else last
        self.forget_history()

    def forget_history(self) -> None:
        """Start the superko history at this position (after setup stones or a new side to move)."""
        self.seen.clear()
        self._remember()

    def playable_moves(self) -> list[Point]:
        """Moves the search considers for the side to move: legal, no suicide, no own-eye filling."""
        code = int(self.meta[bd.TO_MOVE])
        out = []
        for row in range(self.height):
            for col in range(self.width):
                if bd.is_playable(self.b, self.meta, self.cfg, self.index((row, col)), code):
                    out.append((row, col))
        return out

    # scoring -----------------------------------------------------------------------------
    def area_black_minus_white(self) -> int:
        """Stones plus territory (empty regions bordering one colour only), Black minus White."""
        size = int(self.cfg[bd.CFG_SIZE])
        return int(bd.area_score(self.b, self.cfg, np.zeros(size, np.int64), np.empty(size, np.int64)))

    def lead_black(self) -> float:
        """Area score from Black's view, komi included."""
        return self.area_black_minus_white() - self.komi

    def __str__(self) -> str:
        chars = {bd.EMPTY: ".", bd.BLACK: "X", bd.WHITE: "O"}
        rows = []
        for row in range(self.height - 1, -1, -1):
            rows.append(" ".join(chars[int(self.b[bd.COLOR, self.index((row, col))])] for col in range(self.width)))
        return "\n".join(rows)


def position_from_rows(rows: list[str], *, to_move: Color = "black", rules: str | None = "chinese", komi: float = 7.5) -> Position:
    """A position from text rows, top row first: X black, O white, anything else empty."""
    height = len(rows)
    cells = [row.replace(" ", "") for row in rows]
    width = len(cells[0])
    position = Position(width, height, rules=rules, komi=komi)
    black, white = [], []
    for i, row in enumerate(cells):
        if len(row) != width:
            raise ValueError("all rows must have the same width")
        for col, ch in enumerate(row):
            point = (height - 1 - i, col)
            if ch == "X":
                black.append(point)
            elif ch == "O":
                white.append(point)
    position.setup(black=black, white=white)
    position.to_move = to_move
    position.forget_history()
    return position
