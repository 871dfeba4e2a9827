"""The lines a player added to a game on the board, kept in Reviewer's data so that reopening the
file shows them again (the file itself is never changed; an export writes them out).

A game's lines are kept under two names: its content (kind, start and main-line moves: the
fingerprint) and its source (the file it was read from and its place in the file). A copy of a game
(an export, a save with analysis) has the content of the original but another source, so what is
done in the copy never touches the original's lines, and the other way round. A source with no lines
of its own yet is offered the lines every other source (and the store's older, content-only rows)
kept for the same content: lines are grafted, never taken away, so nothing played is ever lost.
Nothing is deleted: a source whose lines were all deleted keeps an empty list.

Lines are stored as move lists from the start and grafted back through the game's rules; a line the
rules no longer accept (the file changed) is skipped and reported. Writes are one SQLite transaction.
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


def game_source(path: str | Path | None, index: int = 0) -> str:
    """The name of where a game came from: the file's absolute path and the game's place in it
    ("" for a game that came from no file)."""
    if path is None or str(path) == "":
        return ""
    return f"{Path(path).expanduser().resolve()}#{index}"


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
    """Play stored lines into `game` (existing moves are followed); returns (lines that added at
    least one move, problems)."""
    editor = TreeEditor(game)
    added, problems = 0, []
    for line in lines:
        before = _node_count(game)
        try:
            editor.play_line(game.root, line)
        except IllegalMove as illegal:
            problems.append(f"a saved line could not be replayed: {illegal}")
            continue
        if _node_count(game) > before:
            added += 1
    return added, problems


def _node_count(game: Game) -> int:
    count, stack = 0, [game.root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count


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
        # `lines`: the first layout, by content alone; read as one more source, never written.
        db.execute("CREATE TABLE IF NOT EXISTS lines (game TEXT PRIMARY KEY, lines TEXT NOT NULL, saved_at REAL NOT NULL)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS source_lines (game TEXT NOT NULL, source TEXT NOT NULL, lines TEXT NOT NULL, "
            "saved_at REAL NOT NULL, PRIMARY KEY (game, source))"
        )
        return db

    def load(self, game: Game, source: str = "") -> list[list[str]]:
        """The lines kept for `game` read from `source`; when that source kept none yet, those of
        every other source of the same game, without repeats."""
        fingerprint = game_fingerprint(game)
        with self._lock:
            db = self._connect()
            try:
                own = db.execute(
                    "SELECT lines FROM source_lines WHERE game = ? AND source = ?", (fingerprint, source)
                ).fetchone()
                if own is not None:
                    rows = [own]
                else:
                    rows = db.execute(
                        "SELECT lines FROM source_lines WHERE game = ? ORDER BY saved_at", (fingerprint,)
                    ).fetchall()
                    rows += db.execute("SELECT lines FROM lines WHERE game = ?", (fingerprint,)).fetchall()
            finally:
                db.close()
        seen: set[tuple[str, ...]] = set()
        lines: list[list[str]] = []
        for row in rows:
            for line in json.loads(row[0]):
                if tuple(line) not in seen:
                    seen.add(tuple(line))
                    lines.append(list(line))
        return lines

    def save(self, fingerprint: str, lines: list[list[str]], source: str = "", keep_stored: bool = False) -> None:
        """Keep `lines` as the lines of that game from `source`; other sources are left alone.

        `keep_stored`: add to what the source kept instead of replacing it (for lines played before
        the stored ones were back on the board, which therefore could not have been deleted)."""
        with self._lock:
            db = self._connect()
            try:
                with db:
                    if keep_stored:
                        row = db.execute(
                            "SELECT lines FROM source_lines WHERE game = ? AND source = ?", (fingerprint, source)
                        ).fetchone()
                        stored = [list(line) for line in json.loads(row[0])] if row else []
                        lines = stored + [line for line in lines if line not in stored]
                    db.execute(
                        "INSERT OR REPLACE INTO source_lines (game, source, lines, saved_at) VALUES (?, ?, ?, ?)",
                        (fingerprint, source, json.dumps(lines), time.time()),
                    )
            finally:
                db.close()
