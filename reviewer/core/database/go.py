"""The game database's Go: a whole-board key made canonical over the board's symmetries (8 on a
square board, 4 on a rectangle): the smallest of the keys of the transformed boards, with the
symmetry that gave it, so that a move stored in the canonical orientation can be shown in any
board's own orientation; a game's record and a position to look up. Named by Go's support object
(`database_record_ref`, `database_position_ref`).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterable
from functools import lru_cache

from reviewer.core.database.explorer import Position, SwappedColours
from reviewer.core.database.keys import signed_64
from reviewer.core.database.records import (
    PACKED_ENDED,
    GameRecord,
    PackedPositions,
    PositionRow,
    SkippedGame,
    date_of,
    fingerprint_of,
    outcome_of,
)
from reviewer.core.games.go import GoBoard
from reviewer.core.gametree import Color, Game, Node, Point, gtp_from_point, other_color

try:  # the main-line replay in C (setup.py builds it where a compiler is found)
    from reviewer.core.database import _go_lines
except ImportError:
    _go_lines = None  # type: ignore[assignment]

__all__ = [
    "GO_PASS",
    "GoKeyer",
    "go_position_of_node",
    "go_positions",
    "go_record_from_game",
    "go_symmetries",
    "inverse_symmetry",
    "transform_point",
]

GO_PASS = -1  # the move code of a pass


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


@lru_cache(maxsize=64)
def _symmetry_indexes(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """The index of point (row, col) under each symmetry, in one flat table per symmetry."""
    row_length = max(width, height)
    return tuple(
        tuple(row_length * moved[0] + moved[1] for moved in (transform_point(s, (row, col), width, height)
                                                             for row in range(height) for col in range(width)))
        for s in go_symmetries(width, height)
    )


class GoKeyer:
    """The keys of one Go board under each of its symmetries, kept up to date stone by stone."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.symmetries = go_symmetries(width, height)
        self._black, self._white, salt, self._black_to_move = _stone_table(width, height)
        self._row_length = max(width, height)
        self._keys = [salt] * len(self.symmetries)
        self._indexes = _symmetry_indexes(width, height)

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

    def canonical_symmetries(self, to_move: Color) -> list[int]:
        """Every symmetry that gives the smallest key: more than one where the board maps to itself."""
        mover = self._black_to_move if to_move == "black" else 0
        values = [key ^ mover for key in self._keys]
        smallest = min(values)
        return [self.symmetries[number] for number, value in enumerate(values) if value == smallest]

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


def _apply_setup(board: GoBoard, keyer: GoKeyer, black: list[Point], white: list[Point], empty: list[Point]) -> None:
    for point in [*empty, *black, *white]:
        if board.on_board(point) and point in board.stones:
            keyer.toggle(point, board.stones.pop(point))
    sides: tuple[tuple[list[Point], Color], ...] = ((black, "black"), (white, "white"))
    for points, color in sides:
        for point in points:
            if board.on_board(point):
                board.stones[point] = color
                keyer.toggle(point, color)


def _replayed(game: Game, visit: Callable[[int, Node, Color, GoKeyer], None]) -> tuple[GoBoard, GoKeyer, Color]:
    """Play a Go game's main line, `visit(ply, node, colour, keyer)` before each move; the board,
    its keys and the side to move at the end."""
    width, height = game.board_width, game.board_height
    keyer = GoKeyer(width, height)
    board = GoBoard(width, height, frozenset(), frozenset())
    _apply_setup(board, keyer, game.setup_black, game.setup_white, [])
    to_move: Color = game.first_player
    for ply, node in enumerate(game.root.mainline()):
        if node.setup_black or node.setup_white or node.setup_empty:
            _apply_setup(board, keyer, node.setup_black, node.setup_white, node.setup_empty)
        if not node.is_move or node.color is None:
            continue
        color = node.color
        if node.point is not None and not board.on_board(node.point):
            raise SkippedGame(f"move {ply + 1} ({node.move}) is off the {width}×{height} board")
        visit(ply, node, color, keyer)
        if node.point is not None:
            if node.point in board.stones:
                raise SkippedGame(f"move {ply + 1} ({node.move}) is on a point that holds a stone")
            captured, lost = board.play(node.point, color)
            keyer.toggle(node.point, color)
            keyer.toggle_all(captured, other_color(color))
            keyer.toggle_all(lost, color)
        to_move = other_color(color)
    return board, keyer, to_move


def go_positions(game: Game) -> list[PositionRow]:
    """The positions of a Go game's main line, keyed canonically; ply = the node's depth."""
    if _go_lines is not None:
        compiled = _compiled_positions(game)
        if compiled is not None:
            return compiled
    positions: list[PositionRow] = []

    def visit(ply: int, node: Node, color: Color, keyer: GoKeyer) -> None:
        key, symmetry = keyer.canonical(color)
        positions.append(PositionRow(key, ply, keyer.canonical_move(color, node.point), symmetry))

    _board, keyer, to_move = _replayed(game, visit)
    key, symmetry = keyer.canonical(to_move)
    positions.append(PositionRow(key, game.ply_count, None, symmetry))
    return positions


@lru_cache(maxsize=64)
def _compiled_tables(width: int, height: int) -> tuple[bytes, bytes, int, int, bytes, bytes]:
    """`_stone_table` and `_symmetry_indexes` of a board size as the compiled replay reads them."""
    black, white, salt, black_to_move = _stone_table(width, height)
    indexes = array("H", [place for table in _symmetry_indexes(width, height) for place in table])
    return (array("Q", black).tobytes(), array("Q", white).tobytes(), salt, black_to_move, indexes.tobytes(),
            bytes(go_symmetries(width, height)))


def _compiled_positions(game: Game) -> list[PositionRow] | None:
    """go_positions by the compiled replay; None where a node of the main line sets up stones."""
    packed = _compiled_packed(game)
    return None if packed is None else GameRecord.rows_of(packed)


def _compiled_packed(game: Game) -> PackedPositions | None:
    """The positions of go_positions as columns, by the compiled replay (a game's rows as objects
    would be some 200 a game for the garbage collector to walk while a chunk is read); None where
    a node of the main line sets up stones."""
    width, height = game.board_width, game.board_height
    plies: list[int] = []
    places, colours = array("h"), bytearray()
    to_move: Color = game.first_player
    off_board: SkippedGame | None = None  # raised once the moves before it are known to be on empty points
    for ply, node in enumerate(game.root.mainline()):
        if node.setup_black or node.setup_white or node.setup_empty:
            return None
        if not node.is_move or node.color is None or off_board is not None:
            continue
        point = node.point
        if point is not None and not (0 <= point[0] < height and 0 <= point[1] < width):
            off_board = SkippedGame(f"move {ply + 1} ({node.move}) is off the {width}×{height} board")
            continue
        plies.append(ply)
        places.append(-1 if point is None else point[0] * width + point[1])
        colours.append(0 if node.color == "black" else 1)
        to_move = other_color(node.color)
    def setup(points: list[Point]) -> bytes:
        return array("h", [row * width + col for row, col in points if 0 <= row < height and 0 <= col < width]).tobytes()

    black_table, white_table, salt, black_to_move, indexes, symmetries = _compiled_tables(width, height)
    replayed = _go_lines.replay(width, height, black_table, white_table, salt, black_to_move, indexes, symmetries,
                                setup(game.setup_black), setup(game.setup_white), places.tobytes(), bytes(colours),
                                0 if to_move == "black" else 1)
    if isinstance(replayed, int):
        nodes = list(game.root.mainline())
        raise SkippedGame(f"move {plies[replayed] + 1} ({nodes[plies[replayed]].move}) is on a point that holds a stone")
    if off_board is not None:
        raise off_board
    keys, symmetries, codes = replayed
    plies.append(game.ply_count)
    return PackedPositions(keys, codes + array("h", [PACKED_ENDED]).tobytes(), array("q", plies).tobytes(), symmetries)


def go_record_from_game(game: Game) -> GameRecord:
    moves = [node.move or "" for node in game.root.mainline() if node.is_move]
    if not moves and any("incomplete" in warning or "cannot" in warning for warning in game.warnings):
        raise SkippedGame(game.warnings[0])
    packed = _compiled_packed(game) if _go_lines is not None else None
    start = f"{game.board_width}x{game.board_height} B{sorted(game.setup_black)} W{sorted(game.setup_white)}"
    # One text a game, not a list of them, waits in a chunk for its transaction (where no move is blank).
    joined = " ".join(moves) if all(moves) else None
    record = GameRecord(
        kind="go",
        fingerprint=fingerprint_of("go", game.headers, start, moves),
        white=game.white,
        black=game.black,
        white_elo=None,
        black_elo=None,
        result=game.result,
        outcome=outcome_of(game.result),
        date=date_of(game.date),
        event=game.event,
        speed="",
        board_size=game.board_width if game.board_width == game.board_height else game.board_width * 100 + game.board_height,
        moves=moves if joined is None else [],
        moves_text=joined,
        packed=packed,
    )
    return record if packed is not None else record.with_rows(go_positions(game))


def go_position_of_node(game: Game, node: Node) -> Position:
    cut = Game(
        kind="go",
        board_width=game.board_width,
        board_height=game.board_height,
        first_player=game.first_player,
        setup_black=game.setup_black,
        setup_white=game.setup_white,
    )
    target = cut.root
    for source in node.path_from_root():
        target = target.add_child(
            Node(move=source.move, color=source.color, point=source.point, setup_black=source.setup_black,
                 setup_white=source.setup_white, setup_empty=source.setup_empty)
        )
    board, keyer, to_move = _replayed(cut, lambda _ply, _node, _color, _keyer: None)
    following = node.children[0] if node.children else None
    if following is not None and following.is_move and following.color is not None:
        to_move = following.color  # as a game's positions are keyed: by the side that plays next (a record may move one side twice)
    key, _symmetry = keyer.canonical(to_move)
    fitting = keyer.canonical_symmetries(to_move)
    next_point = following.point if following is not None and following.is_move else None

    def gtp(code: int) -> str:
        # On a board that maps to itself (the empty one), a stored move is several points alike:
        # the one this game played, else the one nearest the top right, where players open.
        points = {point for point in (keyer.point_of_move(code, each) for each in fitting) if point is not None}
        if not points:
            return "pass"
        return gtp_from_point(next_point if next_point in points else max(points), game.board_height)

    return Position("go", key, to_move, gtp, swapped=_colours_swapped(board, keyer, to_move))


def _colours_swapped(board: GoBoard, keyer: GoKeyer, to_move: Color) -> SwappedColours:
    """The board with Black's stones White's and White's Black's, the other side to move: its key,
    and its move codes as the board's own."""
    swapped = GoKeyer(board.width, board.height)
    for point, color in board.stones.items():
        swapped.toggle(point, other_color(color))
    other = other_color(to_move)
    key, _symmetry = swapped.canonical(other)
    points = [(row, col) for row in range(board.height) for col in range(board.width) if (row, col) not in board.stones]
    codes = {swapped.canonical_move(other, point): keyer.canonical_move(to_move, point) for point in points}
    codes[GO_PASS] = GO_PASS
    return SwappedColours(key, codes)
