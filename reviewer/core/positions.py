"""The position at any node of a game: a python-chess board, or the stones of a Go board.

Both are rebuilt by replaying the moves from the start position along `node.path_from_root()`.
Stepping through a long game must stay cheap, so results are remembered per node (weakly: a node
that is dropped from its game takes its cached position with it). Chess keeps a board every few
plies and replays the rest; Go keeps the immutable `GoPosition` of every node it has computed.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import chess

from reviewer.core.gametree import Color, Game, Node, Point, other_color

_CHESS_CHECKPOINT_EVERY = 8  # plies between remembered chess boards

_lock = threading.Lock()
_chess_boards: "weakref.WeakKeyDictionary[Node, chess.Board]" = weakref.WeakKeyDictionary()
_go_positions: "weakref.WeakKeyDictionary[Node, GoPosition]" = weakref.WeakKeyDictionary()


# --------------------------------------------------------------------------------------- chess


def _chess_start_board(game: Game) -> chess.Board:
    fen = game.start_fen or chess.STARTING_FEN
    return chess.Board(fen, chess960=game.chess960)


def _push_node_move(board: chess.Board, node: Node) -> None:
    """Play `node`'s move on `board`: its UCI when it has one, else its SAN."""
    try:
        if node.uci:
            move = board.parse_uci(node.uci)
        elif node.move:
            move = board.parse_san(node.move)
        else:
            move = chess.Move.null()
    except ValueError as error:
        raise ValueError(
            f"move {node.uci or node.move!r} at ply {node.ply} is not legal in {board.fen()}: {error}"
        ) from None
    board.push(move)


def chess_board_at(game: Game, node: Node) -> chess.Board:
    """The board after `node`'s move (the start position for the root).

    The caller owns the returned board and may change it freely. Its `move_stack` holds only the
    move that led here (so `board.peek()` is the last move; empty at the root): earlier history
    is not kept, which keeps stepping through very long games cheap in time and memory.
    """
    path = node.path_from_root()
    before_last = len(path) - 1  # replay to the position before the last move, then play it
    with _lock:
        start_index, board = 0, None
        for index in range(before_last - 1, -1, -1):
            cached = _chess_boards.get(path[index])
            if cached is not None:
                start_index, board = index + 1, cached.copy(stack=False)
                break
    if board is None:
        board = _chess_start_board(game)
    for index in range(start_index, len(path)):
        if index == before_last:
            board.clear_stack()
        _push_node_move(board, path[index])
        ply = index + 1
        if ply % _CHESS_CHECKPOINT_EVERY == 0:
            with _lock:
                if path[index] not in _chess_boards:
                    _chess_boards[path[index]] = board.copy(stack=False)
    return board


# ------------------------------------------------------------------------------------------ Go


@dataclass(frozen=True)
class GoPosition:
    """The stones on a Go board after a node, with captures so far.

    Points are (row, col), row 0 at the bottom, col 0 at the left (as in `gametree`).
    `captures_by_black` counts white stones that Black has taken off the board.
    """

    width: int
    height: int
    black: frozenset[Point]
    white: frozenset[Point]
    captures_by_black: int = 0
    captures_by_white: int = 0
    last_move: Point | None = None  # the stone just played; None at the root, after a pass or setup
    to_move: Color = "black"

    def stone_at(self, point: Point) -> Color | None:
        if point in self.black:
            return "black"
        if point in self.white:
            return "white"
        return None


class _GoBoard:
    """A mutable board with the capture rule, for replaying moves (any width × height)."""

    def __init__(self, width: int, height: int, black: frozenset[Point], white: frozenset[Point]) -> None:
        self.width, self.height = width, height
        self.stones: dict[Point, Color] = {point: "black" for point in black}
        self.stones.update({point: "white" for point in white})

    def on_board(self, point: Point) -> bool:
        return 0 <= point[0] < self.height and 0 <= point[1] < self.width

    def neighbours(self, point: Point) -> list[Point]:
        row, col = point
        candidates = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        return [p for p in candidates if self.on_board(p)]

    def group_without_liberties(self, start: Point) -> set[Point] | None:
        """The group at `start` when it has no liberty left, else None."""
        color = self.stones[start]
        group, frontier = {start}, [start]
        while frontier:
            for neighbour in self.neighbours(frontier.pop()):
                occupant = self.stones.get(neighbour)
                if occupant is None:
                    return None
                if occupant == color and neighbour not in group:
                    group.add(neighbour)
                    frontier.append(neighbour)
        return group

    def play(self, point: Point, color: Color) -> tuple[int, int]:
        """Place a stone; returns (opponent stones captured, own stones lost to suicide)."""
        if not self.on_board(point):
            raise ValueError(f"move {point} is off a {self.width}x{self.height} board")
        self.stones[point] = color
        captured = 0
        for neighbour in self.neighbours(point):
            if self.stones.get(neighbour) == other_color(color):
                dead = self.group_without_liberties(neighbour)
                if dead:
                    captured += len(dead)
                    for stone in dead:
                        del self.stones[stone]
        suicide = self.group_without_liberties(point)
        if suicide:
            for stone in suicide:
                del self.stones[stone]
            return captured, len(suicide)
        return captured, 0

    def setup(self, black: list[Point], white: list[Point], empty: list[Point]) -> None:
        for point in empty:
            self.stones.pop(point, None)
        for point in black:
            if self.on_board(point):
                self.stones[point] = "black"
        for point in white:
            if self.on_board(point):
                self.stones[point] = "white"

    def freeze(self) -> tuple[frozenset[Point], frozenset[Point]]:
        black = frozenset(p for p, c in self.stones.items() if c == "black")
        white = frozenset(p for p, c in self.stones.items() if c == "white")
        return black, white


def _player_from_properties(node: Node) -> Color | None:
    values = node.properties.get("PL")
    if values:
        letter = values[0].strip().upper()[:1]
        if letter in ("B", "W"):
            return "black" if letter == "B" else "white"
    return None


def _go_root_position(game: Game) -> GoPosition:
    root = game.root
    board = _GoBoard(game.board_width, game.board_height, frozenset(), frozenset())
    board.setup(list(game.setup_black), list(game.setup_white), [])
    board.setup(root.setup_black, root.setup_white, root.setup_empty)
    black, white = board.freeze()
    to_move = _player_from_properties(root) or game.first_player
    return GoPosition(game.board_width, game.board_height, black, white, 0, 0, None, to_move)


def _go_next_position(position: GoPosition, node: Node) -> GoPosition:
    board = _GoBoard(position.width, position.height, position.black, position.white)
    board.setup(node.setup_black, node.setup_white, node.setup_empty)
    captures_by_black, captures_by_white = position.captures_by_black, position.captures_by_white
    last_move: Point | None = None
    to_move = position.to_move
    if node.color is not None:
        if node.point is not None:
            captured, lost = board.play(node.point, node.color)
            last_move = node.point if lost == 0 else None
            if node.color == "black":
                captures_by_black, captures_by_white = captures_by_black + captured, captures_by_white + lost
            else:
                captures_by_white, captures_by_black = captures_by_white + captured, captures_by_black + lost
        to_move = other_color(node.color)
    to_move = _player_from_properties(node) or to_move
    black, white = board.freeze()
    return GoPosition(
        position.width, position.height, black, white, captures_by_black, captures_by_white, last_move, to_move
    )


def go_position_at(game: Game, node: Node) -> GoPosition:
    """The stones after `node` (setup applied first, then its move, with captures)."""
    chain: list[Node] = [*reversed(node.path_from_root())]
    chain.append(game.root)  # chain runs from `node` up to the root
    with _lock:
        position, known = None, len(chain)
        for index, step in enumerate(chain):
            cached = _go_positions.get(step)
            if cached is not None:
                position, known = cached, index
                break
    if position is None:
        position = _go_root_position(game)
        known = len(chain) - 1
        with _lock:
            _go_positions[game.root] = position
    for index in range(known - 1, -1, -1):
        position = _go_next_position(position, chain[index])
        with _lock:
            _go_positions[chain[index]] = position
    return position


def forget_positions(node: Node | None = None) -> None:
    """Drop remembered positions: of `node` and all below it, or all of them when None.

    Call it after editing moves or setup in a tree whose positions were already asked for.
    """
    with _lock:
        if node is None:
            _chess_boards.clear()
            _go_positions.clear()
            return
        stack = [node]
        while stack:
            current = stack.pop()
            _chess_boards.pop(current, None)
            _go_positions.pop(current, None)
            stack.extend(current.children)
