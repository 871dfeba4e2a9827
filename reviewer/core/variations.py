"""Editing a game's tree as a player explores it: play a move (a new variation or an existing
child), delete a line, promote a variation, make a line the main line — each undoable.

The rules of the game decide whether a move is legal (`reviewer.core.games`); this module only
changes the tree. After every edit, positions remembered below the edited node are forgotten.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reviewer.core.games import IllegalMove, PlayedMove, forget_positions, game_support, rules_for
from reviewer.core.gametree import Game, Node


@dataclass(frozen=True)
class PlayResult:
    node: Node
    created: bool  # False when the move was already in the tree (the existing node is returned)


class TreeEditor:
    """Edits of one game's tree, with an undo stack."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._undo: list[Callable[[], Node | None]] = []

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def play(self, parent: Node, text: str) -> PlayResult:
        """Play `text` (SAN/UCI; GTP coordinate or "pass") after `parent`. Raises IllegalMove."""
        rules = rules_for(self.game.kind)
        played: PlayedMove[object] = rules.play(rules.after(self.game, parent), text)
        existing = _matching_child(parent, played)
        if existing is not None:
            return PlayResult(existing, created=False)
        node: Node = game_support(self.game.kind).new_node(self.game, played)
        parent.add_child(node)

        def undo() -> Node | None:
            parent.children.remove(node)
            node.parent = None
            return parent

        self._undo.append(undo)
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
                for step in reversed(steps):
                    shown = step()
                return shown

            self._undo.append(undo_line)
        return node

    def delete(self, node: Node) -> Node:
        """Delete `node` and everything after it; returns its parent. The root cannot be deleted."""
        parent = node.parent
        if parent is None:
            raise ValueError("the start position cannot be deleted")
        index = parent.children.index(node)
        parent.children.remove(node)
        forget_positions(node)

        def undo() -> Node | None:
            parent.children.insert(index, node)
            node.parent = parent
            return node

        self._undo.append(undo)
        return parent

    def promote(self, node: Node) -> None:
        """Move the variation that `node` is in one step up: it swaps with the line it branches from."""
        branch = _branch_point(node)
        if branch is None:
            return  # already the main line
        parent, child = branch
        index = parent.children.index(child)
        parent.children.insert(0, parent.children.pop(index))
        self._undo.append(_restore_order(parent, child, index))

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

        self._undo.append(undo)

    def undo(self) -> Node | None:
        """Undo the last edit; returns the node to show, or None when nothing is left to undo."""
        if not self._undo:
            return None
        node = self._undo.pop()()
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
