"""Editing a game's tree as a player explores it: play a move (a new variation or an existing
child), delete a line, promote a variation, make a line the main line, annotate a move (its NAGs,
its comment's words, its shapes) — each undoable, and an undone edit can be redone until the next
edit.

The rules of the game decide whether a move is legal (`reviewer.core.games`); this module only
changes the tree. After every edit, positions remembered below the edited node are forgotten.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reviewer.core.formats.annotations import with_words
from reviewer.core.games import IllegalMove, PlayedMove, forget_positions, game_support, rules_for
from reviewer.core.gametree import Game, Node, Shape


@dataclass(frozen=True)
class PlayResult:
    node: Node
    created: bool  # False when the move was already in the tree (the existing node is returned)


Step = Callable[[], Node | None]  # does or undoes one edit; returns the node to show


@dataclass(frozen=True)
class Annotation:
    """What a player adds to a node besides moves."""

    nags: tuple[int, ...]
    comment: str
    shapes: tuple[Shape, ...]

    @classmethod
    def of(cls, node: Node) -> Annotation:
        return cls(tuple(node.nags), node.comment, tuple(node.shapes))

    def put_on(self, node: Node) -> None:
        node.nags, node.comment, node.shapes = list(self.nags), self.comment, list(self.shapes)


class TreeEditor:
    """Edits of one game's tree, with an undo stack and a redo stack."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._undo: list[tuple[Step, Step, bool]] = []  # (undo, redo, of notes) of each edit, the last made last
        self._redo: list[tuple[Step, Step, bool]] = []  # the same of each edit undone, the last undone last
        self.last_was_notes = False  # whether the last edit undone or redone was of a node's notes
        self._clean_depth: int | None = 0  # len(_undo) where the tree is the one saved; None: no longer reachable

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def is_clean(self) -> bool:
        """Whether undoing and redoing came back to the tree as it was at `mark_clean` (at first: as opened)."""
        return self._clean_depth == len(self._undo)

    def mark_clean(self) -> None:
        """The tree as it is now is the one saved."""
        self._clean_depth = len(self._undo)

    def _done(self, undo: Step, redo: Step, notes: bool = False) -> None:
        """An edit was made: `undo` takes it back, `redo` makes it again; `notes` when it changed a
        node's NAGs, words or shapes rather than the moves."""
        if self._clean_depth is not None and self._clean_depth > len(self._undo):
            self._clean_depth = None  # the saved tree was undone past, and this edit drops its redo
        self._undo.append((undo, redo, notes))
        self._redo.clear()

    # ----------------------------------------------------------------------------- annotations

    def annotate(self, node: Node, nags: list[int] | None = None, words: str | None = None,
                 shapes: list[Shape] | None = None) -> bool:
        """Give `node` these NAGs, these words in its comment (its `[%...]` commands kept) or these
        shapes; False (and nothing to undo) when that changes nothing."""
        before = Annotation.of(node)
        after = Annotation(
            tuple(sorted(nags)) if nags is not None else before.nags,
            with_words(node.comment, words) if words is not None else before.comment,
            tuple(shapes) if shapes is not None else before.shapes,
        )
        if after == before:
            return False

        def undo() -> Node | None:
            before.put_on(node)
            return node

        def redo() -> Node | None:
            after.put_on(node)
            return node

        redo()
        self._done(undo, redo, notes=True)
        return True

    def toggle_shape(self, node: Node, shape: Shape) -> bool:
        """Draw `shape` on `node`, or take it away when it is there. Chess: a shape of another
        colour on the same squares gives way (as on lichess); Go: one mark a point."""
        same_place = [s for s in node.shapes if (s.kind, s.at, s.to) == (shape.kind, shape.at, shape.to)]
        if shape in node.shapes:
            return self.annotate(node, shapes=[s for s in node.shapes if s != shape])
        board_mark = shape.kind not in ("arrow", "line", "highlight")
        if board_mark:
            same_place = [s for s in node.shapes if s.at == shape.at and s.kind not in ("arrow", "line")]
        return self.annotate(node, shapes=[s for s in node.shapes if s not in same_place] + [shape])

    def play(self, parent: Node, text: str) -> PlayResult:
        """Play `text` (SAN/UCI; GTP coordinate or "pass") after `parent`. Raises IllegalMove."""
        rules = rules_for(self.game.kind)
        played: PlayedMove[object] = rules.play(rules.after(self.game, parent), text)
        existing = _matching_child(parent, played)
        if existing is not None:
            return PlayResult(existing, created=False)
        node: Node = game_support(self.game.kind).new_node(self.game, played)
        parent.add_child(node)
        index = len(parent.children) - 1

        def undo() -> Node | None:
            parent.children.remove(node)
            node.parent = None
            return parent

        def redo() -> Node | None:
            parent.children.insert(index, node)
            node.parent = parent
            return node

        self._done(undo, redo)
        return PlayResult(node, created=True)

    def play_line(self, parent: Node, moves: list[str]) -> Node:
        """Play several moves in a row; all or nothing (an illegal move undoes the ones before it)."""
        done = len(self._undo)
        node = parent
        try:
            for index, text in enumerate(moves):
                try:
                    node = self.play(node, text).node
                except IllegalMove as illegal:
                    raise IllegalMove(illegal.move, f"{illegal.reason} (move {index + 1} of the line)") from None
        except IllegalMove:
            while len(self._undo) > done:
                self.undo()
            raise
        steps = self._undo[done:]
        if len(steps) > 1:  # one undo takes back the whole line
            del self._undo[done:]

            def undo_line() -> Node | None:
                shown = None
                for undo, _redo, _notes in reversed(steps):
                    shown = undo()
                return shown

            def redo_line() -> Node | None:
                shown = None
                for _undo, redo, _notes in steps:
                    shown = redo()
                return shown

            self._done(undo_line, redo_line)
        return node

    def delete(self, node: Node) -> Node:
        """Delete `node` and everything after it; returns its parent. The root cannot be deleted."""
        parent = node.parent
        if parent is None:
            raise ValueError("the start position cannot be deleted")
        index = parent.children.index(node)

        def redo() -> Node | None:
            parent.children.remove(node)
            forget_positions(node)
            return parent

        def undo() -> Node | None:
            parent.children.insert(index, node)
            node.parent = parent
            return node

        redo()
        self._done(undo, redo)
        return parent

    def promote(self, node: Node) -> None:
        """Move the variation that `node` is in one step up: it swaps with the line it branches from."""
        branch = _branch_point(node)
        if branch is None:
            return  # already the main line
        parent, child = branch
        index = parent.children.index(child)

        def redo() -> Node | None:
            parent.children.insert(0, parent.children.pop(index))
            return child

        redo()
        self._done(_restore_order(parent, child, index), redo)

    def make_mainline(self, node: Node) -> None:
        """Make every branch on the way to `node` the first child: its line becomes the main line."""
        changes: list[tuple[Node, Node, int]] = []
        current = node
        while current.parent is not None:
            parent = current.parent
            index = parent.children.index(current)
            if index:
                parent.children.insert(0, parent.children.pop(index))
                changes.append((parent, current, index))
            current = parent

        def undo() -> Node | None:
            for parent, child, index in changes:
                parent.children.remove(child)
                parent.children.insert(index, child)
            return node

        def redo() -> Node | None:
            for parent, _child, index in reversed(changes):
                parent.children.insert(0, parent.children.pop(index))
            return node

        self._done(undo, redo)

    def undo(self) -> Node | None:
        """Undo the last edit; returns the node to show, or None when nothing is left to undo."""
        if not self._undo:
            return None
        step = self._undo.pop()
        node = step[0]()
        self._redo.append(step)
        self.last_was_notes = step[2]
        forget_positions(self.game.root)
        return node

    def redo(self) -> Node | None:
        """Make the last undone edit again; returns the node to show, or None when none is left."""
        if not self._redo:
            return None
        step = self._redo.pop()
        node = step[1]()
        self._undo.append(step)
        self.last_was_notes = step[2]
        forget_positions(self.game.root)
        return node


def _matching_child(parent: Node, played: PlayedMove[object]) -> Node | None:
    for child in parent.children:
        if child.color != played.color:
            continue
        if (child.uci and child.uci == played.machine) or (child.move or "").upper() == played.move.upper():
            return child
    return None


def _branch_point(node: Node) -> tuple[Node, Node] | None:
    """The nearest ancestor where the path to `node` leaves the first child: (that ancestor, its child)."""
    current = node
    while current.parent is not None:
        if current.parent.children[0] is not current:
            return current.parent, current
        current = current.parent
    return None


def _restore_order(parent: Node, child: Node, index: int) -> Callable[[], Node | None]:
    def undo() -> Node | None:
        parent.children.remove(child)
        parent.children.insert(index, child)
        return child

    return undo


def line_game(game: Game, node: Node) -> tuple[Game, int]:
    """A game whose main line is the path to `node` (same players, setup, rules and komi), and the
    ply of `node` in it: what an engine is shown to judge a position reached in a variation with
    its whole history (repetitions, ko)."""
    from dataclasses import replace

    path = node.path_from_root()
    root = Node(
        comment=game.root.comment,
        properties=dict(game.root.properties),
        setup_black=list(game.root.setup_black),
        setup_white=list(game.root.setup_white),
        setup_empty=list(game.root.setup_empty),
    )
    copy = replace(game, root=root, warnings=[])
    parent = root
    for step in path:
        parent = parent.add_child(
            Node(
                move=step.move,
                color=step.color,
                uci=step.uci,
                point=step.point,
                properties=dict(step.properties),
                setup_black=list(step.setup_black),
                setup_white=list(step.setup_white),
                setup_empty=list(step.setup_empty),
            )
        )
    return copy, len(path)
