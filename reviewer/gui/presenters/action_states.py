"""When each action can be used and what the analyse button says: the menus' rules, without widgets."""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.gui.presenters.game_kinds import presentation


@dataclass(frozen=True)
class ActionStates:
    analyse_enabled: bool
    running: bool
    analyse_text: str  # "Analyse" / "Stop"
    analyse_tip: str
    export_enabled: bool
    choose_game_enabled: bool  # another game of the open file
    thresholds_enabled: bool  # the inaccuracy/mistake/blunder presets
    navigation_enabled: bool  # previous/next move and mistake, start, end
    pass_enabled: bool  # a pass can be played in the game on show
    point_maps_enabled: bool  # move numbers, territory and policy (Go)
    threat_enabled: bool


def action_states(has_game: bool, running: bool, games_in_file: int, kind: str) -> ActionStates:
    """`games_in_file`: 0 with no file open; `kind`: the open game's (or the default) kind.
    What means nothing for the game on show is disabled."""
    shown = presentation(kind)
    return ActionStates(
        analyse_enabled=has_game,
        running=running,
        analyse_text="Stop" if running else "Analyse",
        analyse_tip="Stop the analysis (Space)" if running else "Analyse the game with the engine (Space)",
        export_enabled=has_game,
        choose_game_enabled=games_in_file > 1,
        thresholds_enabled=shown.uses_thresholds,
        navigation_enabled=has_game,
        pass_enabled=has_game and shown.can_pass,
        point_maps_enabled=has_game and shown.point_maps,
        threat_enabled=has_game and shown.has_threat,
    )
