"""Opening names and book moves from the bundled opening table (resources/openings/*.tsv, CC0).

The table lists named lines (ECO, name, PGN). Every position a line passes through is "in the
book"; the position a line ends in carries its name. Positions are compared as EPD (placement,
side to move, castling rights, en passant square), so transpositions count. The index is built
once, on first use, and kept in memory.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess

from reviewer.core.games.chess import recorded_move, start_board
from reviewer.core.gametree import Game, Node
from reviewer.resources import resource_path


@dataclass(frozen=True)
class Opening:
    eco: str
    name: str
    ply: int  # the deepest main-line ply whose position carries this name


__all__ = ["Opening", "OpeningBook", "book", "book_flags", "book_flags_from_epds", "loaded_book", "name_opening", "opening_at", "opening_from_epds"]


@dataclass(frozen=True)
class OpeningBook:
    positions: frozenset[str]  # EPD of every position on any line, the start position included
    names: dict[str, tuple[str, str]]  # EPD of a line's last position -> (ECO, name)
    max_plies: int  # the longest line

    def __contains__(self, epd: str) -> bool:
        return epd in self.positions


_lock = threading.Lock()
_book: OpeningBook | None = None


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


# san -> subtree; the key None -> (eco, name) of the first line that ends at this node
_PrefixTree = dict[str | None, Any]


def load_book(folder: Path | None = None) -> OpeningBook:
    """Build the index from the table's files (a few tenths of a second: lines share a prefix tree)."""
    folder = folder or resource_path("openings")
    tree: _PrefixTree = {}
    for eco, name, sans in _read_lines(folder):
        node = tree
        for san in sans:
            node = node.setdefault(san, {})
        node.setdefault(None, (eco, name))  # the first line to end here names the position

    positions: set[str] = set()
    names: dict[str, tuple[str, str]] = {}
    board = chess.Board()
    max_plies = 0

    # Depth-first over the prefix tree, pushing and popping moves on one board.
    def walk(node: _PrefixTree, depth: int) -> None:
        nonlocal max_plies
        epd = board.epd()
        positions.add(epd)
        max_plies = max(max_plies, depth)
        if None in node:
            names.setdefault(epd, node[None])
        for san, child in node.items():
            if san is None:
                continue
            board.push(board.parse_san(san))
            walk(child, depth + 1)
            board.pop()

    walk(tree, 0)
    return OpeningBook(positions=frozenset(positions), names=names, max_plies=max_plies)


def book() -> OpeningBook:
    """The bundled table's index, built on first use and shared afterwards."""
    global _book
    if _book is None:
        with _lock:
            if _book is None:
                _book = load_book()
    return _book


def book_flags_from_epds(epds: Sequence[str | None], table: OpeningBook | None = None) -> list[bool]:
    """For moves 1..n given the EPD of P0..Pn: is move i a book move (P0..Pi all in the table)?

    A None EPD (a position that could not be replayed) ends the book.
    """
    moves = len(epds) - 1
    if moves <= 0:
        return []
    table = table or book()
    flags: list[bool] = []
    inside = epds[0] is not None and epds[0] in table
    for epd in epds[1:]:
        inside = inside and epd is not None and epd in table
        flags.append(inside)
    return flags


def opening_from_epds(epds: Sequence[str | None], table: OpeningBook | None = None) -> Opening | None:
    """The name of the deepest position of the game that ends a line of the table."""
    table = table or book()
    found: Opening | None = None
    for ply, epd in enumerate(epds[: table.max_plies + 1]):
        if epd is not None and epd in table.names:
            eco, name = table.names[epd]
            found = Opening(eco=eco, name=name, ply=ply)
    return found


def path_epds(game: Game, node: Node, limit: int) -> list[str | None]:
    """EPD of the start and of the positions on the way to `node` (a variation's too), at most
    `limit` moves deep; None from the first move that cannot be replayed."""
    try:
        board = start_board(game)
    except ValueError:
        return [None]
    return _epds_along(board, node.path_from_root()[:limit])


def _epds_along(board: chess.Board, steps: Iterable[Node]) -> list[str | None]:
    """EPD of `board` and after each of `steps`; None from the first that cannot be replayed (or a null move)."""
    replayed: chess.Board | None = board
    epds: list[str | None] = [board.epd()]
    for step in steps:
        if replayed is not None:
            try:
                move = recorded_move(replayed, step)
                if not move:
                    raise ValueError("a null move")
                replayed.push(move)
            except ValueError:
                replayed = None
        epds.append(replayed.epd() if replayed is not None else None)
    return epds


def loaded_book() -> OpeningBook | None:
    """The table when it is already built (the review builds it in the background), else None."""
    return _book


def opening_at(game: Game, node: Node, table: OpeningBook | None = None) -> Opening | None:
    """The ECO code and name of the position after `node`: of the deepest named position on the way
    to it (`ply` its depth); None before any named line."""
    table = table or book()
    return opening_from_epds(path_epds(game, node, table.max_plies), table)


def mainline_epds(game: Game) -> list[str | None]:
    """EPD of P0..Pn of a chess game's main line; None from the first move that cannot be replayed
    (or a null move)."""
    try:
        board = start_board(game)
    except ValueError:
        return [None] * (game.ply_count + 1)
    return _epds_along(board, game.mainline_nodes())


def book_flags(game: Game) -> list[bool]:
    return book_flags_from_epds(mainline_epds(game))


def name_opening(game: Game) -> Opening | None:
    return opening_from_epds(mainline_epds(game))
