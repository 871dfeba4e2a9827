"""Tactical positions with a known answer, used to check the engine (tests, the RAVE experiment).

Rows are written top row first: X black, O white, . empty. Black is to move in each.
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.core.engines.builtin_go.position import Position, position_from_rows


@dataclass(frozen=True)
class Problem:
    name: str
    rows: tuple[str, ...]
    answers: frozenset[str]  # GTP moves that solve it
    komi: float = 7.5
    note: str = ""

    def position(self) -> Position:
        return position_from_rows(list(self.rows), to_move="black", komi=self.komi)


CAPTURE = Problem(
    "capture",
    (
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . X X X X . . .",
        ". X O O O O X . .",
        ". X O O O O X . .",
        ". . X X X . O . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ),
    frozenset({"F4"}),
    note="eight white stones in atari; F4 takes them before White connects out",
)

SAVE = Problem(
    "save",
    tuple(row.replace("X", "x").replace("O", "X").replace("x", "O") for row in CAPTURE.rows),
    frozenset({"F4"}),
    note="eight black stones in atari; F4 connects them to the stone on G4",
)

KO = Problem(
    "ko",
    (
        ". . . X O . .",
        ". . . X O . .",
        ". . . X O . .",
        ". . X O . O .",
        ". . . X O . .",
        ". . . X O . .",
        ". . . X O . .",
    ),
    frozenset({"E4"}),
    note="7x7; taking the ko at E4 (and connecting later) wins by 1.5, letting White connect loses",
)

LADDER = Problem(
    "ladder",
    (
        ". . . . . . . . .",
        ". . X X . . . . .",
        ". X O . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ),
    frozenset({"C6"}),
    note="open 9x9; C6 starts a working ladder on the cutting stone, D7 lets it out",
)

PROBLEMS = (CAPTURE, SAVE, KO, LADDER)
