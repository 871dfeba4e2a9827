"""What the Go servers' own formats (Tygem `.gib`, WBaduk `.ngf`, PandaNet `.ugf`) share: one game
a file, its text decoded as the other line-based files are, read by the format's module into the
SGF-shaped raw tree (root properties, then one node a move) that `game_from_raw` builds games from.

Each format's module keeps its own rules (header lines, coordinates, results); this one holds the
collection, the move chain, the root's player/date/handicap properties and where servers put
handicap stones.
"""

from __future__ import annotations

from collections.abc import Callable

from reviewer.core.formats.collection import BuiltCollection
from reviewer.core.formats.sgf import RawNode, copy_raw, game_from_raw, sgf_from_point
from reviewer.core.formats.textio import decode_text_with_doubt, strip_nul_padding
from reviewer.core.gametree import Game, Point

# A format's reader: (text, file name) -> (raw tree, warnings about the file).
TreeReader = Callable[[str, str], tuple[RawNode, list[str]]]


class ServerRecordCollection(BuiltCollection):
    """The one game of a Go server's file: decoded, read by `read_tree`, its games marked `origin`."""

    def __init__(
        self,
        path: str | None,
        data: bytes,
        format_name: str,
        origin: str,
        read_tree: TreeReader,
        declared_codec: str | None = None,
    ) -> None:
        name = str(path) if path is not None else f"<{format_name} text>"
        text, encoding, doubt = decode_text_with_doubt(strip_nul_padding(data), name, declared_codec)
        root, warnings = read_tree(text, name)
        super().__init__(path, encoding, format_name, [_builder(root, name, doubt, origin)])
        self.warnings.extend(warnings)
        self._summary(0)


def _builder(root: RawNode, name: str, doubt: str, origin: str) -> Callable[[], Game]:
    def build() -> Game:
        game = game_from_raw(copy_raw(root), 1, name)
        if doubt:
            game.warnings.insert(0, f"game 1: {doubt}")
        game.origin = origin
        return game

    return build


def new_root(size: int) -> RawNode:
    return RawNode(props={"GM": ["1"], "FF": ["4"], "SZ": [str(size)]})


def add_move_chain(root: RawNode, moves: list[tuple[str, Point | None]], size: int) -> list[RawNode]:
    """One node a move ('B'/'W', a point or None for a pass) below `root`, in order; the new nodes."""
    nodes = []
    parent = root
    for color, point in moves:
        node = RawNode(props={color: [sgf_from_point(point, size)]}, order=[(color, 0)])
        parent.children.append(node)
        parent = node
        nodes.append(node)
    return nodes


def point_on_board(row: int, col: int, size: int) -> Point | None:
    """(row, col) when it is on a `size` board, else None (servers write a pass off the board)."""
    return (row, col) if 0 <= row < size and 0 <= col < size else None


def set_player(props: dict[str, list[str]], name_ident: str, rank_ident: str, player: str, rank: str) -> None:
    if player:
        props[name_ident] = [player]
    if rank:
        props[rank_ident] = [rank]


def set_date(props: dict[str, list[str]], year: str, month: str, day: str) -> None:
    props["DT"] = [f"{year}-{int(month):02d}-{int(day):02d}"]


def set_handicap_stones(props: dict[str, list[str]], size: int, handicap: int) -> None:
    """HA and the stones where the servers put them, for 2 to 9 stones."""
    if 2 <= handicap <= 9:
        props["HA"] = [str(handicap)]
        props["AB"] = [sgf_from_point(point, size) for point in handicap_points(size, handicap)]


def handicap_points(size: int, count: int) -> list[Point]:
    """Where servers put `count` handicap stones (Tygem order), as (row, col) with row 0 at the bottom."""
    if size < 7 or count < 2:
        return []
    near = 3 if size >= 13 else 2
    far = size - 1 - near
    middle = size // 2
    # (col, row_from_top), Tygem's order: lower-left, upper-right, upper-left, lower-right, ...
    corners = [(near, far), (far, near), (near, near), (far, far)]
    stones = corners[: min(count, 4)]
    if count >= 6 and size % 2 == 1:
        stones += [(near, middle), (far, middle)]
    if count >= 8 and size % 2 == 1:
        stones += [(middle, near), (middle, far)]
    if count in (5, 7, 9) and size % 2 == 1:
        stones.append((middle, middle))
    return [(size - 1 - row_from_top, col) for col, row_from_top in stones]
