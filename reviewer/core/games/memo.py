"""Positions remembered per node, so that stepping through a long game stays cheap.

Weak keys: a node dropped from its game takes its remembered position with it. After editing the
moves or setup below a node whose positions were already asked for, call `forget_positions(node)`.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Generic, TypeVar

from reviewer.core.gametree import Node

T = TypeVar("T")

lock = threading.Lock()


class NodeMemo(Generic[T]):
    def __init__(self) -> None:
        self._by_node: weakref.WeakKeyDictionary[Node, T] = weakref.WeakKeyDictionary()
        _memos.append(self)

    def get(self, node: Node) -> T | None:
        return self._by_node.get(node)

    def put(self, node: Node, value: T) -> None:
        self._by_node[node] = value

    def forget(self, node: Node | None) -> None:
        if node is None:
            self._by_node.clear()
            return
        stack = [node]
        while stack:
            current = stack.pop()
            self._by_node.pop(current, None)
            stack.extend(current.children)


_memos: list[NodeMemo[Any]] = []


def forget_positions(node: Node | None = None) -> None:
    """Drop remembered positions: of `node` and all below it, or all of them when None."""
    with lock:
        for memo in _memos:
            memo.forget(node)
