"""Judgement names (those of SCORING.md), their colours, symbols and titles: plain data for every view.

Chess colours follow lichess (inaccuracy blue, mistake orange, blunder red).
"""

from __future__ import annotations

from reviewer.core.scoring import FLAGGED_JUDGEMENTS as FLAGGED_JUDGEMENTS
from reviewer.core.scoring import JUDGEMENTS as JUDGEMENTS

MISTAKE_JUDGEMENTS: tuple[str, ...] = ("mistake", "blunder")  # what N / P jump to


JUDGEMENT_COLORS: dict[str, str] = {
    "book": "#a8875f",
    "best": "#3c9b4b",
    "good": "#8d9aa6",
    "inaccuracy": "#56b4e9",
    "mistake": "#e69f00",
    "blunder": "#df5353",
}


JUDGEMENT_SYMBOLS: dict[str, str] = {
    "inaccuracy": "?!",
    "mistake": "?",
    "blunder": "??",
    "best": "!",
    "good": "",
    "book": "",
}


JUDGEMENT_TITLES: dict[str, str] = {
    "book": "Book move",
    "best": "Best move",
    "good": "Good move",
    "inaccuracy": "Inaccuracy",
    "mistake": "Mistake",
    "blunder": "Blunder",
}

NEUTRAL_COLOR = "#8d9aa6"


def judgement_hex(judgement: str | None) -> str:
    """'#rrggbb' of a judgement; a neutral grey for None or an unknown name."""
    return JUDGEMENT_COLORS.get(judgement or "", NEUTRAL_COLOR)
