"""Frame time of the Go board with KataGo's ownership heat map (and the policy map), 19x19.

Paints the board widget offscreen many times, with and without the overlay, at a typical size,
and prints the milliseconds per frame and the ratio (the overlay's cost on top of a plain frame).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/go_overlay.py [--frames 200] [--size 800]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from reviewer.core.games.go import GoPosition  # noqa: E402
from reviewer.gui.board.go_play import PlayableGoBoard  # noqa: E402


def frame_times(board: PlayableGoBoard, frames: int) -> list[float]:
    image = QImage(board.size(), QImage.Format.Format_ARGB32_Premultiplied)
    times = []
    for _ in range(frames):
        started = time.perf_counter()
        board.render(image)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--size", type=int, default=800)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    board = PlayableGoBoard()
    board.resize(args.size, args.size)
    black = frozenset((r, c) for r in range(19) for c in range(19) if (r * 7 + c * 3) % 5 == 0)
    white = frozenset((r, c) for r in range(19) for c in range(19) if (r * 7 + c * 3) % 5 == 2)
    board.set_position(GoPosition(19, 19, black, white, to_move="black"))
    ownership = [math.sin(i * 0.37) for i in range(361)]  # every point owned to some degree
    policy = [max(0.0, math.cos(i * 0.11)) / 40 for i in range(361)]
    frame_times(board, 10)  # warm the caches (stones, background)
    plain = frame_times(board, args.frames)
    board.set_ownership(ownership)
    owned = frame_times(board, args.frames)
    board.set_policy(policy)
    both = frame_times(board, args.frames)
    base = statistics.median(plain)
    for name, times in (("plain board", plain), ("with ownership", owned), ("ownership + policy", both)):
        median, p95 = statistics.median(times), sorted(times)[int(0.95 * (len(times) - 1))]
        print(f"{name:20} p50 {median * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms   x{median / base:.2f}")
    del app


if __name__ == "__main__":
    main()
