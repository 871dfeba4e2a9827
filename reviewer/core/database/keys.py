"""Position keys for the game database.

Chess: the Polyglot Zobrist key of the position (python-chess), so that transpositions meet.
Go: a whole-board key made canonical over the board's symmetries (8 on a square board, 4 on a
rectangle): the smallest of the keys of the transformed boards, with the symmetry that gave it, so
that a move stored in the canonical orientation can be shown in any board's own orientation.
Keys are signed 64-bit integers (SQLite's INTEGER).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache

import chess
import chess.polyglot

from reviewer.core.gametree import Color, Point

__all__ = [
    "GO_PASS",
    "ChessKeyer",
    "GoKeyer",
    "chess_key",
    "chess_move_code",
    "chess_move_of_code",
    "go_symmetries",
    "inverse_symmetry",
    "signed_64",
    "transform_point",
]

GO_PASS = -1  # the move code of a pass
_MASK_64 = (1 << 64) - 1


def signed_64(value: int) -> int:
    value &= _MASK_64
    return value - (1 << 64) if value >= 1 << 63 else value


def chess_key(board: chess.Board) -> int:
    return signed_64(chess.polyglot.zobrist_hash(board))


_POLYGLOT = chess.polyglot.POLYGLOT_RANDOM_ARRAY
_HASHER = chess.polyglot.ZobristHasher(_POLYGLOT)


def _piece_boards(board: chess.Board) -> tuple[int, ...]:
    """The squares of each piece in Polyglot's order: black pawns, white pawns, black knights, ..."""
    black, white = board.occupied_co
    return (
        board.pawns & black, board.pawns & white, board.knights & black, board.knights & white,
        board.bishops & black, board.bishops & white, board.rooks & black, board.rooks & white,
        board.queens & black, board.queens & white, board.kings & black, board.kings & white,
    )


class ChessKeyer:
    """`chess_key` of a board as it is played on, kept up to date from the squares that changed
    instead of from every piece (the same numbers, several times faster)."""

    def __init__(self, board: chess.Board) -> None:
        self._pieces = _HASHER.hash_board(board)
        self._boards = _piece_boards(board)
        self._castling_for: tuple[int, int, int] | None = None
        self._castling = 0

    def moved(self, board: chess.Board) -> None:
        """The board after a move (or any change): take in the squares that changed."""
        boards = _piece_boards(board)
        pieces = self._pieces
        for index, (old, new) in enumerate(zip(self._boards, boards)):
            changed = old ^ new
            while changed:
                square = (changed & -changed).bit_length() - 1
                pieces ^= _POLYGLOT[64 * index + square]
                changed &= changed - 1
        self._pieces, self._boards = pieces, boards

    def key(self, board: chess.Board) -> int:
        castling_for = (board.castling_rights, board.rooks, board.kings)
        if castling_for != self._castling_for:
            self._castling_for, self._castling = castling_for, _HASHER.hash_castling(board)
        value = self._pieces ^ self._castling
        if board.ep_square is not None:
            value ^= _HASHER.hash_ep_square(board)
        if board.turn == chess.WHITE:
            value ^= _POLYGLOT[780]
        return signed_64(value)


def chess_move_code(move: chess.Move) -> int:
    """A move as one small integer: from + 64 × to + 4096 × promotion piece type."""
    return move.from_square + 64 * move.to_square + 4096 * (move.promotion or 0)


def chess_move_of_code(code: int) -> chess.Move:
    promotion = code // 4096
    return chess.Move(code % 64, (code // 64) % 64, promotion or None)


def transform_point(symmetry: int, point: Point, width: int, height: int) -> Point:
    """Symmetry 0-7 of a (row, col) point: identity, half turn, the two mirrors (these four keep a
    rectangle's shape), the quarter turns, the two diagonal mirrors (square boards only)."""
    row, col = point
    last_row, last_col = height - 1, width - 1
    if symmetry == 0:
        return (row, col)
    if symmetry == 1:
        return (last_row - row, last_col - col)
    if symmetry == 2:
        return (row, last_col - col)
    if symmetry == 3:
        return (last_row - row, col)
    if symmetry == 4:
        return (col, last_row - row)
    if symmetry == 5:
        return (last_col - col, row)
    if symmetry == 6:
        return (col, row)
    return (last_col - col, last_row - row)


def inverse_symmetry(symmetry: int) -> int:
    return {4: 5, 5: 4}.get(symmetry, symmetry)


def go_symmetries(width: int, height: int) -> tuple[int, ...]:
    return tuple(range(8)) if width == height else (0, 1, 2, 3)


@lru_cache(maxsize=64)
def _stone_table(width: int, height: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Random 64-bit numbers per point for black and white stones, a salt for the board size and
    one for Black to move; fixed by a seed so that keys stay the same from one run to the next."""
    rng = random.Random(0x5EED_0000 + 1000 * width + height)
    points = width * height if width == height else max(width, height) ** 2
    black = tuple(rng.getrandbits(64) for _ in range(points))
    white = tuple(rng.getrandbits(64) for _ in range(points))
    return black, white, rng.getrandbits(64), rng.getrandbits(64)


class GoKeyer:
    """The keys of one Go board under each of its symmetries, kept up to date stone by stone."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.symmetries = go_symmetries(width, height)
        self._black, self._white, salt, self._black_to_move = _stone_table(width, height)
        self._row_length = max(width, height)
        self._keys = [salt] * len(self.symmetries)
        # The index of point (row, col) under each symmetry, in one flat table per symmetry.
        self._indexes = [
            [self._index(transform_point(s, (row, col), width, height)) for row in range(height) for col in range(width)]
            for s in self.symmetries
        ]

    def _index(self, point: Point) -> int:
        return point[0] * self._row_length + point[1]

    def toggle(self, point: Point, color: Color) -> None:
        """A stone of `color` put on or taken off `point`."""
        table = self._black if color == "black" else self._white
        flat = point[0] * self.width + point[1]
        for number, indexes in enumerate(self._indexes):
            self._keys[number] ^= table[indexes[flat]]

    def toggle_all(self, points: Iterable[Point], color: Color) -> None:
        for point in points:
            self.toggle(point, color)

    def canonical(self, to_move: Color) -> tuple[int, int]:
        """(key, symmetry): the smallest key over the symmetries, and the first symmetry giving it."""
        mover = self._black_to_move if to_move == "black" else 0
        best_key, best_symmetry = -1, 0
        for number, key in enumerate(self._keys):
            candidate = key ^ mover
            if best_key < 0 or candidate < best_key:
                best_key, best_symmetry = candidate, self.symmetries[number]
        return signed_64(best_key), best_symmetry

    def canonical_move(self, to_move: Color, point: Point | None) -> int:
        """The move in the canonical orientation, as an index (GO_PASS for a pass). On a board that
        some symmetry maps to itself, moves that the symmetry maps to each other are one move."""
        if point is None:
            return GO_PASS
        mover = self._black_to_move if to_move == "black" else 0
        values = [key ^ mover for key in self._keys]
        smallest = min(values)
        flat = point[0] * self.width + point[1]
        return min(self._indexes[number][flat] for number, value in enumerate(values) if value == smallest)

    def point_of_move(self, code: int, symmetry: int) -> Point | None:
        """A canonical move code shown on the board whose canonical symmetry is `symmetry`."""
        if code == GO_PASS:
            return None
        point = divmod(code, self._row_length)
        return transform_point(inverse_symmetry(symmetry), point, self.width, self.height)
