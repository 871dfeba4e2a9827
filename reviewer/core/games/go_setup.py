"""The Go board editor: black and white stones added and taken off, the board size, komi and the
side to move; a small SGF (SZ, KM, PL, AB, AW) in and out; a group without a liberty refused."""

from __future__ import annotations

import re

from reviewer.core.games.base import Position
from reviewer.core.games.go import GoBoard, GoPosition
from reviewer.core.games.setup import Choice, Draft, PieceKind, SetupRefused
from reviewer.core.gametree import Color, Game, Point, gtp_from_point

PALETTE = (
    PieceKind("black", "Black stone", "black", "", "stone"),
    PieceKind("white", "White stone", "white", "", "stone"),
)
SIZES = (9, 13, 19)
MAX_SIZE = 25  # SGF's letters a–y
DEFAULT_KOMI = 6.5
CHOICES = (
    Choice("size", "Board size", "size", minimum=2, maximum=MAX_SIZE),
    Choice("komi", "Komi", "number", minimum=-150, maximum=150, step=0.5, decimals=1, tip="Points White gets for moving second"),
)
_PROPERTY = re.compile(r"([A-Z]{1,2})((?:\s*\[[^\]]*\])+)")
_VALUE = re.compile(r"\[([^\]]*)\]")


def _letters(point: Point, height: int) -> str:
    """SGF's two letters: the column from the left, the row from the top."""
    row, col = point
    return chr(ord("a") + col) + chr(ord("a") + height - 1 - row)


def _from_letters(text: str, width: int, height: int) -> Point:
    if len(text) != 2 or not text.isalpha():
        raise SetupRefused(f"[{text}] is not a point (SGF points are two letters, e.g. [dd])")
    col, row_from_top = ord(text[0].lower()) - ord("a"), ord(text[1].lower()) - ord("a")
    if not (0 <= row_from_top < height and 0 <= col < width):
        raise SetupRefused(f"[{text}] is off a {width}×{height} board")
    return (height - 1 - row_from_top, col)


class GoSetup:
    board_style = "points"
    notation = "SGF"
    palette = PALETTE
    choices = CHOICES
    sizes = SIZES

    def start(self, game: Game | None, at: Position | None = None) -> Draft:
        komi = game.komi if game is not None and game.komi is not None else DEFAULT_KOMI
        if isinstance(at, GoPosition):
            pieces = {**dict.fromkeys(at.black, "black"), **dict.fromkeys(at.white, "white")}
            return Draft(at.width, at.height, pieces, at.to_move, {"komi": komi})
        if game is not None:
            pieces = {**dict.fromkeys(game.setup_black, "black"), **dict.fromkeys(game.setup_white, "white")}
            return Draft(game.board_width, game.board_height, pieces, game.first_player, {"komi": komi})
        return Draft(19, 19, {}, "black", {"komi": DEFAULT_KOMI})

    def point_name(self, draft: Draft, point: Point) -> str:
        return gtp_from_point(point, draft.height)

    def cleared(self, draft: Draft) -> Draft:
        return Draft(draft.width, draft.height, {}, draft.to_move, dict(draft.choices))

    def usual_start(self, draft: Draft) -> Draft:
        return Draft(draft.width, draft.height, {}, "black", dict(draft.choices))

    def resized(self, draft: Draft, width: int, height: int) -> Draft:
        pieces = {(row, col): key for (row, col), key in draft.pieces.items() if row < height and col < width}
        return Draft(width, height, pieces, draft.to_move, dict(draft.choices))

    def problem(self, draft: Draft) -> str | None:
        if not (2 <= draft.width <= MAX_SIZE and 2 <= draft.height <= MAX_SIZE):
            return f"A board is 2 to {MAX_SIZE} points a side"
        board = _board(draft)
        seen: set[Point] = set()
        for point in sorted(board.stones):
            if point in seen:
                continue
            dead = board.group_without_liberties(point)
            if dead:
                color = board.stones[point]
                where = gtp_from_point(max(dead), draft.height)
                return f"The {color} {'stone' if len(dead) == 1 else 'group'} at {where} has no liberty"
            seen.add(point)
        return None

    def text(self, draft: Draft) -> str:
        size = str(draft.width) if draft.width == draft.height else f"{draft.width}:{draft.height}"
        parts = [f"(;GM[1]FF[4]SZ[{size}]KM[{float(draft.choices.get('komi', DEFAULT_KOMI)):g}]"]
        parts.append(f"PL[{'B' if draft.to_move == 'black' else 'W'}]")
        for color, name in (("black", "AB"), ("white", "AW")):
            points = sorted(point for point, key in draft.pieces.items() if key == color)
            if points:
                parts.append(name + "".join(f"[{_letters(point, draft.height)}]" for point in points))
        return "".join(parts) + ")"

    def read(self, text: str) -> Draft:
        body = text.strip()
        if not body.startswith("(") or ";" not in body:
            raise SetupRefused("Not an SGF position: it starts with '(;', e.g. (;SZ[9]AB[cc]AW[gg])")
        properties: dict[str, list[str]] = {}
        for name, values in _PROPERTY.findall(body.split(";", 1)[1].split(";", 1)[0]):
            properties.setdefault(name, []).extend(_VALUE.findall(values))
        width = height = 19
        if "SZ" in properties:
            size = properties["SZ"][0].strip()
            try:
                width, height = (int(part) for part in size.split(":")) if ":" in size else (int(size), int(size))
            except ValueError:
                raise SetupRefused(f"SZ[{size}] is not a board size") from None
            if not (2 <= width <= MAX_SIZE and 2 <= height <= MAX_SIZE):
                raise SetupRefused(f"SZ[{size}]: a board is 2 to {MAX_SIZE} points a side")
        komi = DEFAULT_KOMI
        if "KM" in properties:
            try:
                komi = float(properties["KM"][0])
            except ValueError:
                raise SetupRefused(f"KM[{properties['KM'][0]}] is not a number") from None
        to_move: Color = "white" if properties.get("PL", ["B"])[0].strip().upper().startswith("W") else "black"
        pieces: dict[Point, str] = {}
        for name, color in (("AB", "black"), ("AW", "white")):
            for value in properties.get(name, []):
                pieces[_from_letters(value.strip(), width, height)] = color
        return Draft(width, height, pieces, to_move, {"komi": komi})

    def game(self, draft: Draft) -> Game:
        reason = self.problem(draft)
        if reason is not None:
            raise SetupRefused(reason)
        game = Game(
            kind="go",
            board_width=draft.width,
            board_height=draft.height,
            komi=float(draft.choices.get("komi", DEFAULT_KOMI)),
            setup_black=sorted(point for point, key in draft.pieces.items() if key == "black"),
            setup_white=sorted(point for point, key in draft.pieces.items() if key == "white"),
            first_player=draft.to_move,
            event="Set-up position",
        )
        if draft.to_move == "white":
            game.root.properties["PL"] = ["W"]
        return game


def _board(draft: Draft) -> GoBoard:
    black = frozenset(point for point, key in draft.pieces.items() if key == "black")
    white = frozenset(point for point, key in draft.pieces.items() if key == "white")
    return GoBoard(draft.width, draft.height, black, white)


SETUP = GoSetup()
