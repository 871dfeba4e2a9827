"""One rated game as the solver needs it: who played whom, the result, when, on what terms."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any, Literal

from reviewer.core.games.support import game_support
from reviewer.core.gametree import GameKind

Outcome = Literal["white", "black", "draw", "unknown"]

SCORE_WHITE = {"white": 1.0, "black": 0.0, "draw": 0.5}


def player_key(name: str) -> str:
    """Players are matched by name with whitespace collapsed and case folded."""
    return " ".join((name or "").split()).casefold()


@dataclass(frozen=True)
class GameRecord:
    kind: GameKind
    white: str
    black: str
    outcome: Outcome
    date: dt.date | None = None
    white_declared: str = ""  # rank ("5k") or rating ("2450") as the file gave it
    black_declared: str = ""
    handicap: int = 0  # Go: handicap stones (0 or 1 = none)
    komi: float | None = None
    rules: str | None = None
    source: str = ""  # "path#index" for messages

    @property
    def white_key(self) -> str:
        return player_key(self.white)

    @property
    def black_key(self) -> str:
        return player_key(self.black)

    @property
    def score_white(self) -> float | None:
        return SCORE_WHITE.get(self.outcome)


_DASHES = str.maketrans({"–": "-", "—": "-", "‐": "-", "−": "-", "½": "1/2"})


def parse_chess_result(text: str) -> Outcome:
    compact = (text or "").translate(_DASHES).replace(" ", "")
    if compact == "1-0":
        return "white"
    if compact == "0-1":
        return "black"
    if compact in {"1/2-1/2", "1/2", "=", "0.5-0.5"}:
        return "draw"
    return "unknown"


def parse_go_result(text: str) -> Outcome:
    """SGF RE: 'B+R', 'W+3.5', 'B+T', 'W+F', '0' / 'Draw' / 'Jigo'; anything else is unknown."""
    compact = (text or "").strip().upper()
    if compact in {"0", "DRAW", "JIGO", "B+0", "W+0", "B+0.0", "W+0.0"}:
        return "draw"
    match = re.match(r"^([BW])\s*\+", compact)
    if match:
        return "black" if match.group(1) == "B" else "white"
    # KGS/Fox-style words
    if compact.startswith(("BLACK WIN", "BLACK+", "B WIN")):
        return "black"
    if compact.startswith(("WHITE WIN", "WHITE+", "W WIN")):
        return "white"
    return "unknown"


def parse_result(kind: GameKind, text: str) -> Outcome:
    outcome: Outcome = game_support(kind).parse_result(text)
    return outcome


_DATE_RE = re.compile(r"(\d{4})(?:[.\-/](\d{1,2}|\?\?))?(?:[.\-/](\d{1,2}|\?\?))?")


def parse_date(text: str) -> dt.date | None:
    """'2020.05.17', '2016-03-13,14', '2020.??.??' -> a date (unknown month/day -> 1); else None."""
    match = _DATE_RE.search(text or "")
    if not match:
        return None
    year = int(match.group(1))
    month = int(match.group(2)) if match.group(2) and match.group(2).isdigit() else 1
    day = int(match.group(3)) if match.group(3) and match.group(3).isdigit() else 1
    try:
        return dt.date(year, month, day)
    except ValueError:
        try:
            return dt.date(year, month, 1)
        except ValueError:
            return None


def _int_or_zero(text: Any) -> int:
    try:
        return int(float(str(text).strip()))
    except (TypeError, ValueError):
        return 0


def _float_or_none(text: Any) -> float | None:
    if text is None or text == "":
        return None
    try:
        return float(str(text).strip())
    except ValueError:
        return None


def _field(summary: Any, name: str, default: Any = "") -> Any:
    if isinstance(summary, dict):
        return summary.get(name, default)
    return getattr(summary, name, default)


def record_from_summary(summary: Any, source: str = "") -> GameRecord:
    """A GameRecord from a header summary (reviewer.core.formats GameSummary or a dict of fields).

    Reads kind, white, black, result, date, white_rank, black_rank, komi and, from the
    headers, HA (handicap) and RU (rules) for Go, WhiteElo/BlackElo for chess when no rank
    field is given.
    """
    kind: GameKind = _field(summary, "kind", "chess") or "chess"
    headers = _field(summary, "headers", None) or {}
    white_declared = _field(summary, "white_rank", "") or ""
    black_declared = _field(summary, "black_rank", "") or ""
    white_tag, black_tag = game_support(kind).rating.header_tags
    white_declared = white_declared or headers.get(white_tag, "")
    black_declared = black_declared or headers.get(black_tag, "")
    handicaps = game_support(kind).rating.unit == "rank"  # handicap, komi and rules shift the expected score
    handicap = _field(summary, "handicap", None)
    if handicap is None:
        handicap = _int_or_zero(headers.get("HA", 0))
    komi = _field(summary, "komi", None)
    if komi is None:
        komi = _float_or_none(headers.get("KM"))
    rules = _field(summary, "rules", None) or headers.get("RU") or None
    return GameRecord(
        kind=kind,
        white=(_field(summary, "white", "") or "").strip(),
        black=(_field(summary, "black", "") or "").strip(),
        outcome=parse_result(kind, _field(summary, "result", "") or ""),
        date=parse_date(_field(summary, "date", "") or ""),
        white_declared=str(white_declared).strip(),
        black_declared=str(black_declared).strip(),
        handicap=int(handicap or 0),
        komi=komi if handicaps else None,
        rules=rules if handicaps else None,
        source=source,
    )
