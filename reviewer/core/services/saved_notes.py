"""The player's notes (NAGs, the words of a comment, shapes) kept in Reviewer's data, so that
reopening a file shows them again even when the game was never saved into it.

What is kept is what the player changed, field by field, against what the file said: for a node
(named by its move path from the start) and one of its fields, the file's value when the player
changed it and the player's value. Reopened, a note goes back only where the file still says what
it said then: a file changed since (by a save, by another program) keeps its own word, and a node
the file no longer has (a line not restored) is skipped. Notes are never taken from a node the
player did not annotate.

The notes live beside the added lines (`saved_lines`), in the same SQLite file, under the same two
names: the game's content (fingerprint) and its source (file and place in it). A source with no
notes of its own is offered those of every other source of the same content. Writes are one
SQLite transaction.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, cast

from reviewer.core.formats.annotations import comment_words, with_words
from reviewer.core.gametree import Game, Node, Shape, ShapeKind

MovePath = tuple[str, ...]
NoteField = Literal["nags", "words", "shapes"]
NOTE_FIELDS: tuple[NoteField, ...] = ("nags", "words", "shapes")
NoteValue = tuple[int, ...] | str | tuple[Shape, ...]


@dataclass(frozen=True)
class NodeNotes:
    """A node's notes as the player sees them: its NAGs (sorted), its words, its shapes."""

    nags: tuple[int, ...] = ()
    words: str = ""
    shapes: tuple[Shape, ...] = ()

    @classmethod
    def of(cls, node: Node) -> NodeNotes:
        return cls(tuple(sorted(node.nags)), comment_words(node.comment), tuple(node.shapes))

    def value(self, field: NoteField) -> NoteValue:
        value: NoteValue = getattr(self, field)
        return value


@dataclass(frozen=True)
class PlayerNote:
    """One field of one node as the player changed it: `file` what the file said, `player` what the player made it."""

    path: MovePath
    field: NoteField
    file: NoteValue
    player: NoteValue


def walk(game: Game) -> Iterator[tuple[MovePath, Node]]:
    """Every node of the tree with its move path from the start (the root's is ())."""
    stack: list[tuple[MovePath, Node]] = [((), game.root)]
    while stack:
        path, node = stack.pop()
        yield path, node
        for child in reversed(node.children):
            stack.append(((*path, child.move or ""), child))


def notes_snapshot(game: Game) -> dict[MovePath, NodeNotes]:
    """What the tree's nodes carry now, by move path (nodes with no notes are left out)."""
    empty = NodeNotes()
    snapshot: dict[MovePath, NodeNotes] = {}
    for path, node in walk(game):
        notes = NodeNotes.of(node)
        if notes != empty:
            snapshot[path] = notes
    return snapshot


def player_notes(game: Game, original: dict[MovePath, NodeNotes]) -> list[PlayerNote]:
    """The fields of `game`'s nodes that differ from `original` (the notes as the file had them)."""
    empty = NodeNotes()
    changed: list[PlayerNote] = []
    seen: set[MovePath] = set()
    for path, node in walk(game):
        if path in seen:  # two moves written the same way (a Go pass, say): the first one speaks
            continue
        seen.add(path)
        now, before = NodeNotes.of(node), original.get(path, empty)
        for field in NOTE_FIELDS:
            if now.value(field) != before.value(field):
                changed.append(PlayerNote(path, field, before.value(field), now.value(field)))
    return changed


def node_at(game: Game, path: MovePath) -> Node | None:
    node: Node | None = game.root
    for move in path:
        assert node is not None
        node = next((child for child in node.children if (child.move or "") == move), None)
        if node is None:
            return None
    return node


def graft_notes(game: Game, notes: list[PlayerNote]) -> list[Node]:
    """Put the player's notes back on `game` where the file still says what it said when the player
    changed it; returns the nodes that changed (each once, in the order of `notes`)."""
    changed: list[Node] = []
    for note in notes:
        node = node_at(game, note.path)
        if node is None or NodeNotes.of(node).value(note.field) != note.file:
            continue
        if note.field == "nags":
            node.nags = list(cast(tuple[int, ...], note.player))
        elif note.field == "words":
            node.comment = with_words(node.comment, cast(str, note.player))
        else:
            node.shapes = list(cast(tuple[Shape, ...], note.player))
        if node not in changed:
            changed.append(node)
    return changed


# ------------------------------------------------------------------------------- as JSON


def _value_json(field: NoteField, value: NoteValue) -> object:
    if field == "shapes":
        return [
            {"kind": shape.kind, "at": list(shape.at), "to": list(shape.to) if shape.to is not None else None,
             "colour": shape.colour, "text": shape.text}
            for shape in cast(tuple[Shape, ...], value)
        ]
    if field == "nags":
        return list(cast(tuple[int, ...], value))
    return value


def _value_of(field: NoteField, data: object) -> NoteValue:
    if field == "shapes":
        shapes = []
        for item in cast(list[dict[str, object]], data):
            at = cast(list[int], item["at"])
            to = cast(list[int] | None, item.get("to"))
            shapes.append(Shape(
                cast(ShapeKind, item["kind"]), (at[0], at[1]), (to[0], to[1]) if to else None,
                str(item.get("colour", "")), str(item.get("text", "")),
            ))
        return tuple(shapes)
    if field == "nags":
        return tuple(int(nag) for nag in cast(list[int], data))
    return str(data)


def notes_json(notes: list[PlayerNote]) -> str:
    return json.dumps([
        {"path": list(note.path), "field": note.field, "file": _value_json(note.field, note.file),
         "player": _value_json(note.field, note.player)}
        for note in notes
    ])


def notes_from_json(text: str) -> list[PlayerNote]:
    """The notes of `notes_json`; an entry that cannot be read is left out."""
    notes: list[PlayerNote] = []
    for item in json.loads(text):
        try:
            field = cast(NoteField, item["field"])
            if field not in NOTE_FIELDS:
                continue
            notes.append(PlayerNote(tuple(str(move) for move in item["path"]), field,
                                    _value_of(field, item["file"]), _value_of(field, item["player"])))
        except (KeyError, TypeError, ValueError, IndexError):
            continue
    return notes


class SavedNotes:
    """The player's notes per game and source, in Reviewer's data (the lines' SQLite file by default)."""

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
        db.execute(
            "CREATE TABLE IF NOT EXISTS source_notes (game TEXT NOT NULL, source TEXT NOT NULL, notes TEXT NOT NULL, "
            "saved_at REAL NOT NULL, PRIMARY KEY (game, source))"
        )
        return db

    def load(self, fingerprint: str, source: str = "") -> list[PlayerNote]:
        """The notes kept for that game from `source`; when that source kept none, those of every
        other source of the same game (the newest last, so that its word counts)."""
        with self._lock:
            db = self._connect()
            try:
                own = db.execute(
                    "SELECT notes FROM source_notes WHERE game = ? AND source = ?", (fingerprint, source)
                ).fetchone()
                rows = [own] if own is not None else db.execute(
                    "SELECT notes FROM source_notes WHERE game = ? ORDER BY saved_at", (fingerprint,)
                ).fetchall()
            finally:
                db.close()
        notes: list[PlayerNote] = []
        for row in rows:
            notes.extend(notes_from_json(row[0]))
        return notes

    def save(self, fingerprint: str, notes: list[PlayerNote], source: str = "") -> None:
        """Keep `notes` as the player's notes of that game from `source` (in place of what it kept)."""
        with self._lock:
            db = self._connect()
            try:
                with db:
                    db.execute(
                        "INSERT OR REPLACE INTO source_notes (game, source, notes, saved_at) VALUES (?, ?, ?, ?)",
                        (fingerprint, source, notes_json(notes), time.time()),
                    )
            finally:
                db.close()
