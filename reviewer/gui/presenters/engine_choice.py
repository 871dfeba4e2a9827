"""Which discovered engine a choice will run, and what it will call itself: for the cache look-up."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from reviewer.core.engines.discovery import EngineInfo
from reviewer.gui.presenters.game_kinds import presentation

if TYPE_CHECKING:
    from reviewer.gui.common.settings import EngineChoice


def chosen_engine_info(choice: EngineChoice, known_engines: Sequence[EngineInfo]) -> EngineInfo | None:
    """The discovered engine that `choice` will run (as `registry.open_engine` picks it)."""
    if choice.command:
        return None
    usable = [engine for engine in known_engines if engine.kind == choice.kind and engine.usable]
    if choice.name:
        return next((engine for engine in usable if engine.name.lower() == choice.name.lower()), None)
    for protocol in presentation(choice.kind).engine_protocols:
        for engine in usable:
            if engine.protocol == protocol:
                return engine
    return None


def likely_identities(choice: EngineChoice, known_engines: Sequence[EngineInfo]) -> list[str]:
    """What the chosen engine will most likely call itself, from what discovery found."""
    engine = chosen_engine_info(choice, known_engines)
    if engine is None or not engine.version:
        return []
    if engine.protocol == "uci":
        return [engine.version]  # the engine's `id name`, e.g. "Stockfish 15.1"
    if engine.protocol == "katago":
        model = re.search(r"\(model ([^)]+)\)", engine.detail)
        return [f"KataGo {engine.version}" + (f" {model.group(1)}" if model else "")]
    return []


def resolves_to_builtin(choice: EngineChoice, known_engines: Sequence[EngineInfo]) -> bool:
    """Whether `choice` runs the game's in-process fallback engine, Reviewer's own Go engine (whose
    identity needs no discovery)."""
    fallback = presentation(choice.kind).fallback_engine
    if not fallback or choice.command:
        return False
    if choice.name:
        return choice.name.lower() == fallback
    engine = chosen_engine_info(choice, known_engines)
    return engine is None or engine.protocol == "builtin"
