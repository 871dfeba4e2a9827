"""Opening names and book moves from a game's bundled opening table (chess: resources/openings/*.tsv,
CC0), named by its support object (`GameSupport.opening_table`).

The table lists named lines (ECO, name, moves). Every position a line passes through is "in the
book"; the position a line ends in carries its name. Positions are compared by the game's rules'
position key (chess: EPD, that is placement, side to move, castling rights, en passant square), so
transpositions count. The index of a game's table is built once, on first use, and kept in memory.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewer.core.games import IllegalMove, game_support
from reviewer.core.gametree import Game, GameKind, Node
from reviewer.resources import resource_path


@dataclass(frozen=True)
class Opening:
    eco: str
    name: str
    ply: int  # the deepest main-line ply whose position carries this name


__all__ = ["Opening", "OpeningBook", "book", "book_flags", "book_flags_from_epds", "loaded_book", "name_opening", "opening_at", "opening_from_epds"]


@dataclass(frozen=True)
class OpeningBook:
    positions: frozenset[str]  # the key of every position on any line, the start position included
    names: dict[str, tuple[str, str]]  # the key of a line's last position -> (ECO, name)
    max_plies: int  # the longest line

    def __contains__(self, epd: str) -> bool:
        return epd in self.positions


_lock = threading.Lock()
_books: dict[GameKind, OpeningBook] = {}


def _table_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.tsv"))


def _read_lines(folder: Path) -> list[tuple[str, str, list[str]]]:
    lines: list[tuple[str, str, list[str]]] = []
    for path in _table_files(folder):
        with path.open(encoding="utf-8") as handle:
            header = handle.readline().rstrip("\n").split("\t")
            if header[:3] != ["eco", "name", "pgn"]:
                raise ValueError(f"{path.name}: expected the columns eco, name, pgn")
            for line in handle:
                fields = line.rstrip("\n").split("\t")
                if len(fields) < 3:
                    continue
                eco, name, pgn = fields[:3]
                sans = [token for token in pgn.split() if not token[0].isdigit()]
                lines.append((eco, name, sans))
    return lines


# move -> subtree; the key None -> (eco, name) of the first line that ends at this node
_PrefixTree = dict[str | None, Any]


def load_book(kind: GameKind, folder: Path | None = None) -> OpeningBook:
    """Build the index of the game `kind`'s table from its files (about a second: lines share a
    prefix tree); ValueError for a game without one."""
    support = game_support(kind)
    if folder is None:
        if not support.opening_table:
            raise ValueError(f"the game {support.title!r} has no opening table")
        folder = resource_path(support.opening_table)
    rules = support.rules
    tree: _PrefixTree = {}
    for eco, name, sans in _read_lines(folder):
        node = tree
        for san in sans:
            node = node.setdefault(san, {})
        node.setdefault(None, (eco, name))  # the first line to end here names the position

    positions: set[str] = set()
    names: dict[str, tuple[str, str]] = {}
    max_plies = 0

    # Depth-first over the prefix tree, each move played by the game's rules.
    def walk(node: _PrefixTree, position: Any, depth: int) -> None:
        nonlocal max_plies
        key = rules.position_key(position)
        positions.add(key)
        max_plies = max(max_plies, depth)
        if None in node:
            names.setdefault(key, node[None])
        for move, child in node.items():
            if move is not None:
                walk(child, rules.play(position, move).position, depth + 1)

    walk(tree, rules.start(Game(kind=kind)), 0)
    return OpeningBook(positions=frozenset(positions), names=names, max_plies=max_plies)


def book(kind: GameKind) -> OpeningBook:
    """The index of the game `kind`'s bundled table, built on first use and shared afterwards."""
    found = _books.get(kind)
    if found is None:
        with _lock:
            found = _books.get(kind)
            if found is None:
                found = _books[kind] = load_book(kind)
    return found


def book_flags_from_epds(epds: Sequence[str | None], table: OpeningBook) -> list[bool]:
    """For moves 1..n given the key (chess: EPD) of P0..Pn: is move i a book move (P0..Pi all in
    the table)?

    A None key (a position that could not be replayed) ends the book.
    """
    moves = len(epds) - 1
    if moves <= 0:
        return []
    flags: list[bool] = []
    inside = epds[0] is not None and epds[0] in table
    for epd in epds[1:]:
        inside = inside and epd is not None and epd in table
        flags.append(inside)
    return flags


def opening_from_epds(epds: Sequence[str | None], table: OpeningBook) -> Opening | None:
    """The name of the deepest position of the game that ends a line of the table."""
    found: Opening | None = None
    for ply, epd in enumerate(epds[: table.max_plies + 1]):
        if epd is not None and epd in table.names:
            eco, name = table.names[epd]
            found = Opening(eco=eco, name=name, ply=ply)
    return found


def path_epds(game: Game, node: Node, limit: int) -> list[str | None]:
    """The key (chess: EPD) of the start and of the positions on the way to `node` (a variation's
    too), at most `limit` moves deep; None from the first move that cannot be replayed."""
    return _keys_along(game, node.path_from_root()[:limit])


def _keys_along(game: Game, steps: Iterable[Node]) -> list[str | None]:
    """The key of the start position and after each of `steps`, by the game's rules; None from the
    first they refuse, all None where the start cannot be built."""
    rules = game_support(game.kind).rules
    steps = list(steps)
    try:
        position: Any = rules.start(game)
    except ValueError:
        return [None] * (len(steps) + 1)
    keys: list[str | None] = [rules.position_key(position)]
    for step in steps:
        if position is not None:
            try:
                position = rules.play(position, step.move or "").position
            except IllegalMove:
                position = None
        keys.append(rules.position_key(position) if position is not None else None)
    return keys


def loaded_book(kind: GameKind) -> OpeningBook | None:
    """The game's table when it is already built (the review builds it in the background), else None."""
    return _books.get(kind)


def opening_at(game: Game, node: Node, table: OpeningBook | None = None) -> Opening | None:
    """The ECO code and name of the position after `node`: of the deepest named position on the way
    to it (`ply` its depth); None before any named line."""
    table = table or book(game.kind)
    return opening_from_epds(path_epds(game, node, table.max_plies), table)


def mainline_epds(game: Game) -> list[str | None]:
    """The key (chess: EPD) of P0..Pn of a game's main line; None from the first move the rules
    refuse."""
    return _keys_along(game, game.mainline_nodes())


def book_flags(game: Game) -> list[bool]:
    return book_flags_from_epds(mainline_epds(game), book(game.kind))


def name_opening(game: Game) -> Opening | None:
    return opening_from_epds(mainline_epds(game), book(game.kind))
