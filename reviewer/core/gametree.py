"""One game model for chess and Go.

A game is a tree of `Node`s. The root is ply 0, the start position (it carries setup
stones / the start FEN, and the comment before the first move). Every other node holds the
one move that leads to it from its parent. `children[0]` continues the main line; later
children are variations.

Move text is what players read: SAN for chess (`Nf3`, `O-O`, `e8=Q#`), GTP coordinates for Go
(`Q16`, `pass`; columns A..T without I, row 1 at the bottom). The machine form sits beside it:
`uci` for chess, `point` for Go as (row, col) with row 0 at the bottom, col 0 at the left.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

GameKind = str  # the name a game is registered under: "chess", "go" (`reviewer.core.games.game_support`)
Color = Literal["white", "black"]

GO_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP: no I; enough for 25 columns


def other_color(color: Color) -> Color:
    return "black" if color == "white" else "white"


Point = tuple[int, int]  # (row, col), row 0 = bottom row, col 0 = left column


def numbered_moves(moves: Sequence[str], number: int, white_first: bool, black_dots: str = "...") -> str:
    """Consecutive chess moves with their numbers: '12. Nf3 Nc6 13. Bb5', or '12... Nc6 13. Bb5'
    when Black moves first; `number` is the full-move number of the first move. `black_dots`: what
    stands after a number for Black ("..." in files, "…" on screen)."""
    parts: list[str] = []
    white_to_move = white_first
    for index, move in enumerate(moves):
        if white_to_move:
            parts.append(f"{number}. {move}")
        elif index == 0:
            parts.append(f"{number}{black_dots} {move}")
        else:
            parts.append(move)
        if not white_to_move:
            number += 1
        white_to_move = not white_to_move
    return " ".join(parts)


def gtp_from_point(point: Point | None, board_height: int) -> str:
    """(row, col) -> 'Q16'; None -> 'pass'. board_height is kept for symmetry with the inverse."""
    if point is None:
        return "pass"
    row, col = point
    if not (0 <= row < board_height) or not (0 <= col < len(GO_COLUMNS)):
        raise ValueError(f"point {point} is off a board of height {board_height}")
    return f"{GO_COLUMNS[col]}{row + 1}"


def point_from_gtp(text: str, board_height: int) -> Point | None:
    """'Q16' -> (15, 15); 'pass' -> None."""
    text = text.strip().upper()
    if text == "PASS":
        return None
    col = GO_COLUMNS.find(text[0]) if text else -1
    try:
        row = int(text[1:]) - 1
    except ValueError:
        row = -1
    if col < 0 or not (0 <= row < board_height):
        raise ValueError(f"not a GTP coordinate on this board: {text!r}")
    return (row, col)


ShapeKind = Literal["arrow", "highlight", "line", "triangle", "square", "circle", "cross", "label"]


@dataclass(frozen=True)
class Shape:
    """A mark a player drew on the board at a node: kept in the game, drawn with that position.

    Points are (row, col) as everywhere in the model (chess: row = rank - 1, col = file). Chess uses
    "arrow" (`[%cal]`) and "highlight" (`[%csl]`) with `colour` the file's letter (G, R, Y, B, and
    ChessBase's O, C); Go uses "triangle" TR, "square" SQ, "circle" CR, "cross" MA, "label" LB
    (`text`), "arrow" AR and "line" LN (`to` the second point), with no colour.
    """

    kind: ShapeKind
    at: Point
    to: Point | None = None
    colour: str = ""
    text: str = ""


@dataclass(eq=False)
class Node:
    """One position in the tree and the move that reached it (none at the root)."""

    move: str | None = None  # SAN (chess) / GTP (Go) of the move that led here; None at the root
    color: Color | None = None  # who played `move`
    uci: str | None = None  # chess: the move in UCI
    point: Point | None = None  # Go: where the stone went; None for a pass or no move
    comment: str = ""  # the comment after the move (PGN) / C[] (SGF), as the file had it
    comment_before: str = ""  # PGN: a comment standing before the move (rare; kept for round trips)
    nags: list[int] = field(default_factory=list)  # PGN NAGs ($1 = !, $2 = ?, ...); SGF's BM/TE/GB/... as NAGs
    shapes: list[Shape] = field(default_factory=list)  # arrows, highlights, Go markup (see Shape)
    # Every SGF property of this node, decoded to text, exactly as read (including B/W/C),
    # so that nothing is lost on writing back. Empty for chess.
    properties: dict[str, list[str]] = field(default_factory=dict)
    # Go setup inside the game (AB/AW/AE on a non-root node); the root's setup lives on Game.
    setup_black: list[Point] = field(default_factory=list)
    setup_white: list[Point] = field(default_factory=list)
    setup_empty: list[Point] = field(default_factory=list)
    # Time as the file gives it, in seconds; None where it says nothing (read by
    # reviewer.core.formats.clocks from PGN [%clk]/[%emt]/[%timestamp] and SGF BL/WL/OB/OW, whose
    # text the comment and the properties keep for writing back).
    clock_s: float | None = None  # the mover's clock after the move
    spent_s: float | None = None  # the time the mover took for the move
    period_moves_left: int | None = None  # Go byo-yomi: moves (stones) left in the mover's period
    children: list[Node] = field(default_factory=list)
    parent: Node | None = field(default=None, repr=False)

    @property
    def is_move(self) -> bool:
        """Whether a move led here (a pass included); False at the root and for a Go node that only
        sets up stones (AB/AW/AE): such a node is a position on the main line, not a move."""
        return self.color is not None or self.uci is not None

    def add_child(self, child: Node) -> Node:
        child.parent = self
        self.children.append(child)
        return child

    @property
    def ply(self) -> int:
        """Distance from the root (the root is ply 0)."""
        depth, node = 0, self
        while node.parent is not None:
            depth, node = depth + 1, node.parent
        return depth

    @property
    def is_mainline(self) -> bool:
        node = self
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True

    def mainline(self) -> Iterator[Node]:
        """This node's main continuation, not including itself."""
        node = self
        while node.children:
            node = node.children[0]
            yield node

    def path_from_root(self) -> list[Node]:
        """The nodes from the root's first move down to this one (empty for the root)."""
        path: list[Node] = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            path.append(node)
            node = node.parent
        path.reverse()
        return path


@dataclass
class SourceInfo:
    path: str | None = None
    index: int = 0  # which game of the file (0-based)
    format: str = ""  # "pgn", "sgf", "gib", "ngf", ...
    encoding: str | None = None


@dataclass(eq=False)
class Game:
    """A whole game: metadata, the start position and the tree of moves."""

    kind: GameKind
    root: Node = field(default_factory=Node)
    # PGN tags in file order (chess), or the SGF root properties joined to text (Go).
    headers: dict[str, str] = field(default_factory=dict)
    white: str = ""
    black: str = ""
    white_rank: str = ""  # Go rank ("5k", "3d") or chess rating as text ("2450")
    black_rank: str = ""
    result: str = ""  # "1-0", "0-1", "1/2-1/2", "*" (chess); "B+R", "W+3.5", "0", "" (Go)
    date: str = ""
    event: str = ""
    # Chess
    start_fen: str | None = None  # None = the standard start position
    chess960: bool = False
    variant: str = ""  # "" = standard chess (or Chess960, see chess960); else e.g. "crazyhouse", "atomic"
    # Go
    board_width: int = 8
    board_height: int = 8
    komi: float | None = None
    rules: str | None = None  # "japanese", "chinese", "aga", "korean", "new-zealand", "tromp-taylor", ...
    handicap: int = 0
    setup_black: list[Point] = field(default_factory=list)  # AB on the root
    setup_white: list[Point] = field(default_factory=list)  # AW on the root
    # The program or server that wrote the file, when its quirks matter downstream: "fox" (Fox/Yehu:
    # KM as written, e.g. KM[0] with HA[1] or KM[375] for 3.75), "ogs", "kgs", "tygem", "wbaduk", "pandanet".
    origin: str = ""
    first_player: Color = "white"  # who moves at ply 0 (chess: from the FEN; Go: PL[], else black)
    warnings: list[str] = field(default_factory=list)
    source: SourceInfo = field(default_factory=SourceInfo)

    def mainline_nodes(self) -> list[Node]:
        """Nodes of the main line, ply 1..n (the root not included)."""
        return list(self.root.mainline())

    def mainline_moves(self) -> list[str]:
        return [node.move or "" for node in self.root.mainline()]

    def mainline_copy(self) -> Game:
        """The game with a copy of its main line alone (to read off the thread that may change this one)."""
        root = replace(self.root, children=[], parent=None)
        tail = root
        for node in self.root.mainline():
            tail = tail.add_child(replace(node, children=[], parent=None))
        return replace(self, root=root)

    @property
    def ply_count(self) -> int:
        """Positions after the root on the main line (every node, setup-only Go nodes included)."""
        return sum(1 for _ in self.root.mainline())

    @property
    def move_count(self) -> int:
        """Moves played on the main line: `ply_count` less the nodes that only set up stones."""
        return sum(1 for node in self.root.mainline() if node.is_move)

    def node_at_ply(self, ply: int) -> Node:
        """The main-line node at `ply` (0 = the root)."""
        node = self.root
        for _ in range(ply):
            if not node.children:
                raise IndexError(f"the main line has only {node.ply} plies, not {ply}")
            node = node.children[0]
        return node

    def full_move_number(self, ply: int) -> int:
        """Chess's move number of main-line ply `ply` (1 = the first move), counted on from the start FEN's."""
        fields = (self.start_fen or "").split()
        first_number = int(fields[5]) if len(fields) >= 6 and fields[5].isdigit() else 1
        return first_number + ((ply - 1) // 2 if self.first_player == "white" else ply // 2)

    def mover_at_ply(self, ply: int) -> Color:
        """Who played move `ply` (1-based) on the main line."""
        node = self.node_at_ply(ply)
        if node.color is not None:
            return node.color
        return self.first_player if ply % 2 == 1 else other_color(self.first_player)
