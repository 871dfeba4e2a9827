"""The komi an SGF means, and the server that wrote it when its conventions change that.

Fox (野狐, foxwq; its older client signs YuanYu) writes komi x100 (`KM[650]` = 6.5), or half the
komi x100 (`KM[375]` = 3.75 stones = 7.5 points), sometimes as `KO[...]`, and `KM[0]` in games
that had komi. A Fox file is told by what it holds (`fox_signals`), not by one property value.

A komi no ruleset uses (|komi| > 100, a quarter point, or one the file's own counted result
contradicts) is never taken silently: it is corrected where the convention is certain and kept,
with a warning, where it is not.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

# Komis in real use, in points: a scaled Fox value whose two readings are both possible takes the one here.
USUAL_KOMIS = frozenset({0.0, 0.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0})
MAX_EVEN_GAME_KOMI = 10.0  # above it, a reading of a scaled value is not taken
UNUSED_KOMI = 100.0  # |komi| above this: no ruleset uses it
FOX_SCALED_FROM = 20.0  # in a Fox file, |KM| above this is scaled (even 0.5 is written KM[50])

_FOX_NAME = re.compile(r"fox|yuanyu|yehu|野狐|弈狐", re.IGNORECASE)
_FOX_PLACE = re.compile(r"foxwq|野狐|狐狸", re.IGNORECASE)
_CHINESE_RANK = re.compile(r"^\s*[Pp]?\d{1,2}\s*(段|级)\s*$")
_GNU_GO = re.compile(r"^\s*GNU Go", re.IGNORECASE)
_MARGIN = re.compile(r"^\s*([BW])\s*\+\s*(\d+(?:\.\d+)?)\s*$", re.IGNORECASE)
_KOMI_TEXT = re.compile(
    r"(?P<number>[-+]?\d+(?:\.\d+)?)\s*(?:(?P<unit>目|집|点|點|子|points?|pts?)\s*)?"
    r"(?:又?(?P<part>[13]/4|1/2))?\s*(?P<stones>子)?\s*(?P<half>半|반)?"
)
FOX_THRESHOLD = 3


@dataclass(frozen=True)
class KomiReading:
    """The komi in points (None when the file gives none) and what the reader doubts about it."""

    komi: float | None
    warnings: tuple[str, ...] = ()


def _values(props: dict[str, list[str]], ident: str) -> list[str]:
    return [value.strip() for value in props.get(ident, [])]


def _first(props: dict[str, list[str]], ident: str) -> str:
    values = _values(props, ident)
    return values[0] if values else ""


def fox_signals(props: dict[str, list[str]]) -> list[str]:
    """What in a root node says Fox wrote the file, each with its weight (`is_fox` adds them up)."""
    signals: list[str] = []
    apps = _values(props, "AP")
    if any(_FOX_NAME.search(app) for app in apps):
        signals += ["AP names Fox"] * FOX_THRESHOLD
    if any(_FOX_PLACE.search(_first(props, ident)) for ident in ("PC", "GN", "EV", "SO")):
        signals += ["PC/GN/EV names Fox"] * FOX_THRESHOLD
    if "TC" in props and "TT" in props:
        signals += ["Fox's time properties TC and TT"] * 2
    if "RL" in props:
        signals.append("Fox's RL property")
    if any(_GNU_GO.match(app) for app in apps) and ("TC" in props or "TT" in props or len(apps) > 1 or "RL" in props):
        signals.append("AP[GNU Go] beside Fox's properties")
    ranks = [_first(props, "BR"), _first(props, "WR")]
    if any(rank and _CHINESE_RANK.match(rank) for rank in ranks):
        signals.append("ranks written 段/级")
    written = _number(_first(props, "KM"))
    if written is not None and abs(written) >= UNUSED_KOMI and USUAL_KOMIS.intersection(_scaled_readings(written)):
        signals += ["a usual komi x100"] * 2
    return signals


def is_fox(props: dict[str, list[str]]) -> bool:
    return len(fox_signals(props)) >= FOX_THRESHOLD


def _number(text: str) -> float | None:
    text = text.strip().replace(",", ".")
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        match = re.match(r"[-+]?\d+(?:\.\d+)?", text)
        value = float(match.group(0)) if match else math.nan
    return value if math.isfinite(value) else None


def komi_from_text(text: str) -> float | None:
    """A komi as text: '6.5', '6,5', '黒6目半' / '6집반' (6.5), '3又3/4子' (stones: 7.5); None when none."""
    text = text.strip()
    plain = _number(text)
    if plain is not None and re.fullmatch(r"[-+]?\d+(?:[.,]\d+)?", text):
        return plain
    match = _KOMI_TEXT.search(text)
    if match is None:
        return plain
    value = float(match["number"])
    if match["part"]:
        numerator, denominator = match["part"].split("/")
        value += int(numerator) / int(denominator)
    if match["half"]:
        value += 0.5
    if "子" in (match["unit"], match["stones"]):
        value *= 2
    return value


def counted_margin(result: str) -> float | None:
    """The winner's margin in points of a counted result ('W+12.5'; 'W+12.75' is in stones: 25.5)."""
    match = _MARGIN.match(result)
    if match is None:
        return None
    margin = float(match.group(2))
    return margin * 2 if _is_quarter(margin) else margin


def result_in_points(result: str) -> str:
    """A counted result written in stones of two points (a quarter in it) -> in points; else as given."""
    match = _MARGIN.match(result)
    if match is None or not _is_quarter(float(match.group(2))):
        return result
    return f"{match.group(1).upper()}+{float(match.group(2)) * 2:g}"


def _is_half_integer(value: float) -> bool:
    return abs(value * 2 - round(value * 2)) < 1e-9


def _is_quarter(value: float) -> bool:
    return _is_half_integer(value * 2) and not _is_half_integer(value)


def _fits(komi: float, margin: float | None) -> bool:
    """Whether a counted margin can come with this komi: the score difference on the board is whole."""
    if margin is None:
        return True
    return abs((margin + komi) - round(margin + komi)) < 1e-9


def _scaled_readings(written: float) -> list[float]:
    """The readings of a scaled komi (x100 in points, x100 in stones) that a game could use."""
    readings = []
    for reading in (written / 100.0, written / 50.0):
        if _is_half_integer(reading) and abs(reading) <= MAX_EVEN_GAME_KOMI and reading not in readings:
            readings.append(reading)
    return readings


def _fox_komi(rules: str | None) -> float:
    """Fox's komi in an even game: 7.5 under Chinese rules (3.75 stones), else 6.5."""
    return 7.5 if rules == "chinese" else 6.5


def read_komi(props: dict[str, list[str]], rules: str | None, handicap: int, result: str) -> KomiReading:
    """The komi in points of a root node's properties (KM, else KO), Fox's conventions undone.

    `rules` is the normalised RU ("chinese", ...), `handicap` the HA value (0 when none) and
    `result` the game's result as read ("W+12.5"); a draw is not taken as counted (it may be a cycle).
    """
    km_text, ko_text = _first(props, "KM"), _first(props, "KO")
    warnings: list[str] = []
    written = _number(km_text) if km_text else None
    where = f"KM[{km_text}]"
    if written is None and ko_text:
        written = komi_from_text(ko_text)
        where = f"KO[{ko_text}]"
    elif written is not None and ko_text:
        other = komi_from_text(ko_text)
        if other is not None and other != written and written == 0:
            warnings.append(f"komi written twice, KM[{km_text}] and KO[{ko_text}]; KO is used (KM[0] is often a placeholder)")
            written, where = other, f"KO[{ko_text}]"
        elif other is not None and other != written:
            warnings.append(f"komi written twice, KM[{km_text}] and KO[{ko_text}]; KM is used")
    if written is None:
        return KomiReading(None, tuple(warnings))
    fox = is_fox(props)
    margin = counted_margin(result)
    komi = written
    corrected = False
    if fox and abs(written) > FOX_SCALED_FROM:
        readings = [reading for reading in _scaled_readings(written) if _fits(reading, margin)]
        usual = [reading for reading in readings if reading in USUAL_KOMIS]
        if len(readings) == 1 or len(usual) == 1:
            komi = readings[0] if len(readings) == 1 else usual[0]
        elif readings:
            komi = written / 50.0 if rules == "chinese" and written / 50.0 in readings else readings[0]
            others = " or ".join(f"{reading:g}" for reading in readings if reading != komi)
            warnings.append(f"{where} is Fox's komi x100: read as {komi:g}, but it could be {others}")
        else:
            warnings.append(
                f"{where}: no komi of Fox's (x100) fits this value{' and the result ' + result if margin is not None else ''}; "
                f"kept as {written:g}, which no ruleset uses: set the komi by hand"
            )
        corrected = True
    elif _is_quarter(written) and abs(written) < UNUSED_KOMI:
        komi = written * 2  # a quarter point is no komi in points: it is in stones of two points
        if not (fox or rules == "chinese"):
            warnings.append(f"{where} is a quarter point: read as {komi:g} points (stones of two points)")
        corrected = True
    elif abs(written) > UNUSED_KOMI:
        warnings.append(
            f"{where}: no ruleset uses a komi of {written:g} (Fox writes komi x100, but nothing else in the "
            f"file says it is from Fox); kept as written: set the komi by hand"
        )
        return KomiReading(komi, tuple(warnings))
    elif fox and written == 0 and handicap >= 1:
        komi = 0.5  # Fox's handicap games (and HA[1], a game without komi) are played with 0.5
        corrected = True
    elif fox and written == 0 and margin is not None and not _fits(0.0, margin):
        komi = _fox_komi(rules)
        warnings.append(
            f"{where} with the counted result {result}: the komi had half a point; read as {komi:g}, "
            f"Fox's komi under {'Chinese' if rules == 'chinese' else 'Japanese'} rules"
        )
        corrected = True
    elif fox and written == 0 and margin is None:
        warnings.append(
            f"{where} in an even Fox game: Fox writes it for games played with komi too "
            f"({_fox_komi(rules):g} under these rules), and nothing in the file tells; read as 0"
        )
    if margin is not None and not _fits(komi, margin) and not (corrected and warnings):
        warnings.append(f"the komi {komi:g} ({where}) does not fit the counted result {result}; check the komi")
    return KomiReading(komi, tuple(warnings))
