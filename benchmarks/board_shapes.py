"""The cost of the player's shapes on the boards: CPU milliseconds per paint of an 800 px board,
plain, with a node's typical shapes, and with a crowded board, once the shapes' layer is drawn
(a repaint while a piece is dragged or the ghost stone follows the mouse) and when it is drawn
afresh (a step to a node with other shapes).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/board_shapes.py [--paints 60]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from reviewer.core.games.go import GoPosition  # noqa: E402
from reviewer.core.gametree import Shape  # noqa: E402
from reviewer.gui.board.chess_play import PlayableChessBoard  # noqa: E402
from reviewer.gui.board.go_play import PlayableGoBoard  # noqa: E402

SIDE_PX = 800


def paint_ms(widget: QWidget, paints: int, afresh: list[tuple[Shape, ...]] | None = None) -> float:
    """CPU ms per paint; `afresh`: shapes given before each paint in turn (the layer is drawn again)."""
    image = QImage(SIDE_PX, SIDE_PX, QImage.Format.Format_ARGB32_Premultiplied)
    widget.render(image)
    start = time.process_time()
    for index in range(paints):
        if afresh:
            widget.set_shapes(afresh[index % len(afresh)])  # type: ignore[attr-defined]
        widget.render(image)
    return (time.process_time() - start) / paints * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paints", type=int, default=60)
    paints = parser.parse_args().paints
    app = QApplication.instance() or QApplication([])

    board = PlayableChessBoard()
    board.resize(SIDE_PX, SIDE_PX)
    board.show()
    board.set_position(chess.Board())
    app.processEvents()
    typical = (
        Shape("arrow", (1, 4), (3, 4), "G"), Shape("arrow", (0, 3), (4, 7), "R"), Shape("arrow", (0, 6), (2, 5), "B"),
        Shape("arrow", (0, 5), (3, 2), "Y"), Shape("highlight", (4, 4), colour="G"), Shape("highlight", (6, 5), colour="R"),
        Shape("highlight", (4, 3), colour="B"),
    )
    crowded = tuple(Shape("arrow", (r, 0), (7 - r, 7), "GRBY"[r % 4]) for r in range(8)) + tuple(
        Shape("highlight", (r, c), colour="GRBY"[(r + c) % 4]) for r in range(8) for c in range(8)
    )
    plain = paint_ms(board, paints)
    board.set_shapes(typical)
    kept = paint_ms(board, paints)
    fresh = paint_ms(board, paints, [typical, typical[:-1]])
    board.set_shapes(crowded)
    print(f"chess: plain {plain:.2f} ms; 4 arrows + 3 circles {kept:.2f} ms ({fresh:.2f} ms afresh); "
          f"8 arrows + 64 circles {paint_ms(board, paints):.2f} ms")

    go = PlayableGoBoard()
    go.resize(SIDE_PX, SIDE_PX)
    go.show()
    points = [(r, c) for r in range(19) for c in range(19)]
    go.set_position(GoPosition(19, 19, frozenset(points[0::3]), frozenset(points[1::3])))
    app.processEvents()
    kinds = ("triangle", "square", "circle", "cross")
    marks = tuple(
        Shape(kinds[i % 4], point) if i % 5 else Shape("label", point, text=str(i % 99)) for i, point in enumerate(points)
    ) + tuple(Shape("arrow", (0, i), (18, 18 - i)) for i in range(19))
    node_marks = (*marks[:12], Shape("label", (9, 9), text="A"), Shape("label", (9, 10), text="B"),
                  Shape("arrow", (3, 3), (9, 9)), Shape("line", (15, 3), (15, 15)))
    plain = paint_ms(go, paints)
    go.set_shapes(node_marks)
    kept = paint_ms(go, paints)
    fresh = paint_ms(go, paints, [node_marks, node_marks[:-1]])
    go.set_shapes(marks)
    print(f"go 19x19: plain {plain:.2f} ms; 16 marks {kept:.2f} ms ({fresh:.2f} ms afresh); "
          f"{len(marks)} marks {paint_ms(go, paints):.2f} ms")


if __name__ == "__main__":
    main()
