"""What differs in how each game is shown: one row per game, asked instead of comparing kind strings.

A third game adds a row here (and its rules in `reviewer.core.games`, its board widget in `gui.board`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reviewer.core.gametree import Color, GameKind


@dataclass(frozen=True)
class GamePresentation:
    kind: GameKind
    numbered_moves: bool  # "12. Nf3 Nc6 13. Bb5" (chess) rather than plain "Q16 D4 R4" (Go)
    score_view: Color  # whose point of view the engine's candidate scores take
    candidate_score: Literal["score_cp_white", "score_lead_black"]  # the candidate's value in that view
    loss_per_unit: float  # candidate losses are shown in pawns (cp / 100) or in points
    loss_decimals: int
    bottom_player: Color  # at the bottom of an unflipped board (Go: Black, as KaTrain)
    export_extension: str  # of the annotated game file
    has_eval_bar: bool  # beside the board while the engine lines are on
    uses_thresholds: bool  # the inaccuracy/mistake/blunder presets apply
    offers_engine_setup: bool  # a missing engine can be located or installed from the failure message
    engine_protocols: tuple[str, ...]  # discovered engines, in the order the registry prefers them
    graph_modes: tuple[str, str]  # the settings' names of (win chance, value) graph modes
    board_header: bool  # the header names Black first with stone letters, the board size and komi


PRESENTATIONS: dict[str, GamePresentation] = {
    "chess": GamePresentation(
        kind="chess", numbered_moves=True, score_view="white", candidate_score="score_cp_white",
        loss_per_unit=100.0, loss_decimals=2, bottom_player="white", export_extension="pgn",
        has_eval_bar=True, uses_thresholds=True, offers_engine_setup=True, engine_protocols=("uci",),
        graph_modes=("win", "cp"), board_header=False,
    ),
    "go": GamePresentation(
        kind="go", numbered_moves=False, score_view="black", candidate_score="score_lead_black",
        loss_per_unit=1.0, loss_decimals=1, bottom_player="black", export_extension="sgf",
        has_eval_bar=False, uses_thresholds=False, offers_engine_setup=False, engine_protocols=("katago", "builtin"),
        graph_modes=("winrate", "lead"), board_header=True,
    ),
}


def presentation(kind: str) -> GamePresentation:
    try:
        return PRESENTATIONS[kind]
    except KeyError:
        raise ValueError(f"no presentation for the game {kind!r}") from None
