"""The lines a player added to a game on the board, kept in Reviewer's data so that reopening the
file shows them again (the file itself is never changed; an export writes them out).

A game is known by what it is, not where it lies: its kind, start and main-line moves. Lines are
stored as move lists from the start and grafted back through the game's rules; a line the rules no
longer accept (the file changed) is skipped and reported. Writes are one SQLite transaction.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path

from reviewer.core.games import IllegalMove
from reviewer.core.gametree import Game, Node
from reviewer.core.variations import TreeEditor


def game_fingerprint(game: Game) -> str:
    start = game.start_fen or ""
    setup = sorted(game.setup_black), sorted(game.setup_white), (game.board_width, game.board_height)
    text = json.dumps([game.kind, start, repr(setup), game.mainline_moves()])
    return hashlib.sha1(text.encode()).hexdigest()


def leaf_paths(game: Game) -> set[tuple[str, ...]]:
    """Every line of the tree, from the start to a node with no continuation, as move texts."""
    paths: set[tuple[str, ...]] = set()
    stack: list[tuple[Node, tuple[str, ...]]] = [(game.root, ())]
    while stack:
        node, path = stack.pop()
        if not node.children:
            paths.add(path)
        for child in node.children:
            stack.append((child, (*path, child.move or "")))
    return paths


def added_lines(game: Game, original: set[tuple[str, ...]]) -> list[list[str]]:
    """The lines of `game` that are not lines, or beginnings of lines, of the `original` tree."""
    prefixes = {path[:length] for path in original for length in range(len(path) + 1)}
    return sorted(list(path) for path in leaf_paths(game) if path not in prefixes)


def graft(game: Game, lines: list[list[str]]) -> tuple[int, list[str]]:
    """Play stored lines into `game` (existing moves are followed); returns (lines added, problems)."""
    editor = TreeEditor(game)
    added, problems = 0, []
    for line in lines:
        try:
            editor.play_line(game.root, line)
            added += 1
        except IllegalMove as illegal:
            problems.append(f"a saved line could not be replayed: {illegal}")
    return added, problems


class SavedLines:
    def __init__(self, path: str | Path | None = None) -> None:
        if path is None:
            from reviewer.core.paths import data_dir

            path = data_dir() / "lines.sqlite"
        self.path = Path(path)
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30.0)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("CREATE TABLE IF NOT EXISTS lines (game TEXT PRIMARY KEY, lines TEXT NOT NULL, saved_at REAL NOT NULL)")
        return db

    def load(self, game: Game) -> list[list[str]]:
        with self._lock:
            db = self._connect()
            try:
                row = db.execute("SELECT lines FROM lines WHERE game = ?", (game_fingerprint(game),)).fetchone()
            finally:
                db.close()
        return [list(line) for line in json.loads(row[0])] if row else []

    def save(self, fingerprint: str, lines: list[list[str]]) -> None:
        with self._lock:
            db = self._connect()
            try:
                with db:
                    if lines:
                        db.execute(
                            "INSERT OR REPLACE INTO lines (game, lines, saved_at) VALUES (?, ?, ?)",
                            (fingerprint, json.dumps(lines), time.time()),
                        )
                    else:
                        db.execute("DELETE FROM lines WHERE game = ?", (fingerprint,))
            finally:
                db.close()
