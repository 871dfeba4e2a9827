"""What differs in how each game is shown, asked instead of comparing kind strings.

Each row is read from the game's support object (`reviewer.core.games.game_support`): a game
registered there is shown here too (its board widget lives in `gui.board`).
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.core.games import game_support
from reviewer.core.gametree import Color, GameKind


@dataclass(frozen=True)
class GamePresentation:
    kind: GameKind
    numbered_moves: bool  # "12. Nf3 Nc6 13. Bb5" (chess) rather than plain "Q16 D4 R4" (Go)
    first_player: Color  # whose point of view the engine's values take (the game's first player)
    candidate_score: str  # the candidate's value in that view: "score_cp_first", "score_lead_first"
    loss_per_unit: float  # candidate losses are shown in pawns (cp / 100) or in points
    loss_decimals: int
    bottom_player: Color  # at the bottom of an unflipped board (Go: Black, as KaTrain)
    export_extension: str  # of the annotated game file
    has_eval_bar: bool  # beside the board while the engine lines are on
    uses_thresholds: bool  # the inaccuracy/mistake/blunder presets apply
    offers_engine_setup: bool  # a missing engine can be located or installed from the failure message
    engine_protocols: tuple[str, ...]  # discovered engines, in the order the registry prefers them
    fallback_engine: str  # the in-process engine that reviews when the usual one cannot ("builtin"), "" where none
    preloads_network: bool  # the usual engine's network can be built ahead of its first search (KataGo)
    graph_modes: tuple[str, str]  # the settings' names of (win chance, value) graph modes
    board_header: bool  # the header names Black first with stone letters, the board size and komi
    can_pass: bool  # a move may pass (Go)
    point_maps: bool  # move numbers, territory and policy maps on the board's points (Go)
    has_threat: bool  # threat mode tells what the opponent threatens


def presentation(kind: str) -> GamePresentation:
    try:
        support = game_support(kind)
    except ValueError:
        raise ValueError(f"no presentation for the game {kind!r}") from None
    return GamePresentation(
        kind=support.kind,
        numbered_moves=support.numbered_moves,
        first_player=support.first_player,
        candidate_score=support.scores.field,
        loss_per_unit=support.scores.per_shown_unit,
        loss_decimals=support.scores.shown_decimals,
        bottom_player=support.bottom_player,
        export_extension=support.export_extension,
        has_eval_bar=support.has_eval_bar,
        uses_thresholds=support.uses_thresholds,
        offers_engine_setup=support.offers_engine_setup,
        engine_protocols=support.engine_protocols,
        fallback_engine=support.fallback_engine,
        preloads_network=support.preloads_network,
        graph_modes=support.graph_modes,
        board_header=support.board_header,
        can_pass=bool(support.pass_move),
        point_maps=support.point_maps,
        has_threat=support.threat_ref is not None,
    )
