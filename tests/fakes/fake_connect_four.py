"""A tiny Connect Four engine for tests, on one line protocol.

In: `position <moves>` (column letters a..g, from the empty board; the first player plays "b"
discs). Out: `candidates <move>:<lead> ...`, every playable column, best for the side to move first;
a lead is in points for the first player: the discs of each side weighted by their column's
centrality (a=0, b=1, c=2, d=3, e=2, f=1, g=0) after the move. End of input: the engine exits.
"""

from __future__ import annotations

import sys

COLUMNS = "abcdefg"
WEIGHT = (0, 1, 2, 3, 2, 1, 0)


def lead(moves: list[str]) -> float:
    total = 0.0
    for index, move in enumerate(moves):
        total += WEIGHT[COLUMNS.index(move)] * (1 if index % 2 == 0 else -1)
    return total


def answer(moves: list[str]) -> str:
    heights = [sum(1 for move in moves if move == column) for column in COLUMNS]
    first_to_move = len(moves) % 2 == 0
    options = [(column, lead([*moves, column])) for column, height in zip(COLUMNS, heights) if height < 6]
    options.sort(key=lambda option: (-option[1] if first_to_move else option[1], option[0]))
    return "candidates " + " ".join(f"{column}:{value:.1f}" for column, value in options)


def main() -> None:
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "position":
            print(answer(words[1:]), flush=True)


if __name__ == "__main__":
    main()
