"""The explanation record every game's explainer returns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from reviewer.core.analysis import Evaluation
from reviewer.core.gametree import Game, Node


@dataclass(frozen=True)
class Why:
    """Why a move lost: motif names (lichess's puzzle themes for chess), most important first; one
    or two plain sentences; the line they stand on, the opponent's best reply first (SAN / GTP);
    the squares or points the sentences are about ("c7", "Q16")."""

    motifs: tuple[str, ...]
    text: str
    line: tuple[str, ...]
    focus: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Why:
        return Why(
            motifs=tuple(str(m) for m in data.get("motifs", ())),
            text=str(data.get("text", "")),
            line=tuple(str(m) for m in data.get("line", ())),
            focus=tuple(str(f) for f in data.get("focus", ())),
        )


@dataclass(frozen=True)
class Threat:
    """How a game tells what the opponent threatens: `search(game, node)` gives the game and ply an
    engine searches for it (the position on show with the other side to move; None where that makes
    no sense: in check, the game over), and `explain(game, ply, evaluation)` says what that search's
    best line would win."""

    search: Callable[[Game, Node], tuple[Game, int] | None]
    explain: Callable[[Game, int, Evaluation | None], Why | None]
