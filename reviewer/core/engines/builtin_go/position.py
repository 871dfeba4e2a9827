"""A Go position for Python callers: points as (row, col), colours as "black"/"white".

Wraps the compiled board of `board.py`. Rules: captures, simple ko (the point of a single
stone just captured by a single stone may not be retaken at once), suicide legal only under
tromp-taylor and new-zealand rules (or a KataGo rule string with `sui1`), area scoring.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from reviewer.core.engines.builtin_go import board as bd
from reviewer.core.gametree import Color, Point, gtp_from_point

MAX_BOARD = 25  # GTP coordinates name 25 columns

SUICIDE_RULES = frozenset({"tromp-taylor", "trompTaylor", "tt", "new-zealand", "nz", "newzealand"})


class IllegalMove(ValueError):
    """A move the rules forbid in this position."""


def suicide_allowed(rules: str | None) -> bool:
    """Whether a ruleset (SGF RU text or KataGo rule string) allows suicide."""
    if not rules:
        return False
    text = rules.strip().lower().replace("_", "-").replace(" ", "-")
    if text in {r.lower() for r in SUICIDE_RULES}:
        return True
    return "sui1" in text


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
        self.komi = float(komi)
        self.b, self.meta, self.cfg = bd.new_board(width, height, suicide_allowed(rules))

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
        other.b, other.meta, other.cfg = self.b.copy(), self.meta.copy(), self.cfg.copy()
        return other

    # moves -------------------------------------------------------------------------------
    def is_legal(self, point: Point | None, color: Color | None = None) -> bool:
        if point is None:
            return True
        code = _code(color) if color else int(self.meta[bd.TO_MOVE])
        return bool(bd.is_legal(self.b, self.meta, self.cfg, self.index(point), code))

    def play(self, point: Point | None, color: Color | None = None) -> int:
        """Play a legal move for `color` (default: the side to move); returns stones captured."""
        if color is not None:
            self.to_move = color
        if point is None:
            bd.play_pass(self.meta)
            return 0
        if not self.is_legal(point):
            raise IllegalMove(f"{gtp_from_point(point, self.height)} is illegal for {self.to_move}")
        return int(bd.play(self.b, self.meta, self.cfg, self.index(point), self.meta[bd.TO_MOVE]))

    def replay(self, point: Point | None, color: Color) -> None:
        """Play a move from a game record as well as the board allows: an occupied or off-board
        point is played as a pass; a suicide removes the group even where the rules forbid it."""
        self.to_move = color
        if point is None:
            bd.play_pass(self.meta)
            return
        try:
            index = self.index(point)
        except ValueError:
            bd.play_pass(self.meta)
            return
        if self.b[bd.COLOR, index] != bd.EMPTY:
            bd.play_pass(self.meta)
            return
        bd.play(self.b, self.meta, self.cfg, index, self.meta[bd.TO_MOVE])

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

    def score_lead_black(self) -> float:
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
    return position
