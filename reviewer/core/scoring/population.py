"""Which population of rated games a game belongs to, read from its headers (docs/strength.md).

A strength model's interval holds its stated share of real ratings only on games like those it
was checked on: the same rating system (a FIDE Elo is not a lichess or chess.com rating), the same
kind of time control (a blitz game shows more loss than a rapid game of the same player) and
ratings within the range checked. The model file names those populations
(`CheckedPopulation`); `population_reason` says why a game lies outside all of them, or None.

    population = population_of(game, white_rating, black_rating)   # ratings parsed by the caller
    reason = population_reason(model_populations, population)        # str | None

Rating systems (chess): `lichess` and `chess.com` (the site, link or event names the server),
`online` (another server: chess24, ICC, FICS, playchess, a TWIC `… INT` site, or a lichess-style
`WhiteRatingDiff` header), `fide` (Elo headers on a game that names no server), `unrated` (no
rating header). Go: `go ranks` (amateur kyu/dan ranks), `professional ranks` (a `p` rank) or
`unrated`.

Time classes follow lichess's estimate of a game's duration, base + 40 × increment seconds:
bullet under 3 minutes, blitz under 8, rapid under 25, classical from 25 (FIDE's own line between
rapid and classical is 60 minutes; a 25+0 game is "classical" here). `correspondence` for days per
move or no clock (`-`), `unstated` where neither TimeControl nor the event's name says.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game, GameKind

TIME_CLASSES = ("bullet", "blitz", "rapid", "classical", "correspondence", "unstated")
# lichess's upper bounds (seconds of base + 40 × increment), below which a game is of that class
_CLASS_BOUNDS = ((180.0, "bullet"), (480.0, "blitz"), (1500.0, "rapid"))
_EVENT_WORDS = (
    ("bullet", "bullet"),
    ("blitz", "blitz"),
    ("rapid", "rapid"),
    ("classical", "classical"),
    ("correspondence", "correspondence"),
)
_ONLINE_SITES = (
    ("chess24", "chess24"),
    ("internet chess club", "ICC"),
    ("chessclub.com", "ICC"),
    ("freechess.org", "FICS"),
    ("fics", "FICS"),
    ("ics", "an internet chess server"),
    ("playchess", "playchess"),
    ("chesstempo", "chesstempo"),
)
_SERVER_HEADERS = ("Site", "Link", "Event", "Annotator", "Source")


@dataclass(frozen=True)
class GamePopulation:
    """What a game's headers say about its players' ratings and its clock."""

    kind: GameKind
    rating_system: str  # fide | lichess | chess.com | online | unrated; Go: go ranks | professional ranks | unrated
    time_class: str  # one of TIME_CLASSES
    ratings: tuple[float | None, float | None]  # white's, black's (Elo, or Go rank: 1k = 0, 1d = 1)
    rating_texts: tuple[str, str]  # as the headers write them
    board: tuple[int, int] | None = None  # Go
    variant: str = "standard"  # chess: the Variant header's, or chess960 from the start position

    def text(self) -> str:
        """'a lichess blitz game', 'an unrated game whose time control is not stated'."""
        words = self._words("game")
        return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"

    def plural(self) -> str:
        """'lichess blitz games', 'FIDE-rated games whose time control is not stated'."""
        return self._words("games")

    def _words(self, noun: str) -> str:
        if game_support(self.kind).rating.unit == "rank":  # ranked games: Go's kyu and dan
            board = f"{self.board[0]}×{self.board[1]} " if self.board else ""
            rated = {"go ranks": "ranked", "professional ranks": "professional"}.get(self.rating_system, "unranked")
            return f"{rated} {board}{noun}"
        system = {"fide": "FIDE-rated", "online": "online"}.get(self.rating_system, self.rating_system)
        if self.variant != "standard":
            system = f"{system} {self.variant}"
        if self.time_class == "unstated":
            return f"{system} {noun} whose time control is not stated"
        return f"{system} {self.time_class} {noun}"


EMBEDDED_EVALUATIONS = "pgn-comments"  # the engine id of a file's own [%eval] comments
_RUN_ONLY = re.compile(r":(?:engines|hash)\d+")  # how a chess review in passes was run, not what it searched


@dataclass(frozen=True)
class EngineSetting:
    """An engine setting as far as it shapes the figures: the program and its search budget
    ('KataGo', 'visits=8'); the version, the network and how many processes ran are left out."""

    engine: str
    budget: str

    @staticmethod
    def of(engine_id: str) -> EngineSetting:
        """The setting of an analysis' engine id ('KataGo 1.18.1 b15 | visits=8,multipv=1')."""
        identity, _, limit = engine_id.partition(" | ")
        program = identity.split()[0] if identity.split() else ""
        parts = [
            _RUN_ONLY.sub("", part)
            for part in limit.split(",")
            if part.strip() and not part.startswith("multipv=") and part != "maps"
        ]
        return EngineSetting(program, ",".join(parts))

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> EngineSetting:
        return EngineSetting(str(data["engine"]), str(data.get("budget", "")))

    def to_json(self) -> dict[str, str]:
        return {"engine": self.engine, "budget": self.budget}

    def text(self) -> str:
        """'KataGo at 8 visits', 'KataGo in passes of 2 → 32 visits', 'the file's own evaluations'."""
        if self.engine == EMBEDDED_EVALUATIONS:
            return "the file's own evaluations ([%eval] comments)"
        budget = self.budget
        passes = re.fullmatch(r"scheme=(?:go|chess)-passes-v\d+:(visits|nodes)([\d>]+).*", budget)
        if passes:
            steps = " → ".join(passes.group(2).split(">"))
            return f"{self.engine} in passes of {steps} {passes.group(1)}"
        single = re.fullmatch(r"(visits|nodes|depth)=(\d+)", budget)
        if single:
            return f"{self.engine} at {single.group(2)} {single.group(1) if single.group(1) != 'depth' else 'plies deep'}"
        return f"{self.engine} ({budget})" if budget else self.engine


@dataclass(frozen=True)
class CheckedPopulation:
    """A population a model was checked on: held-out sides of such games, and how often the
    model's interval held their real rating."""

    name: str  # 'FIDE-rated rapid games rated 1626–2536'
    rating_system: str
    time_classes: tuple[str, ...]  # () = any
    low: float  # both players' ratings within [low, high]
    high: float
    boards: tuple[tuple[int, int], ...]  # () = any
    sides: int
    coverage: float  # share of the held-out sides' ratings inside the interval
    checked: str  # how: '5-fold cross-validation grouped by game', 'held out of the fit'
    settings: tuple[EngineSetting, ...] = ()  # the engine settings of the held-out sides' analyses

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CheckedPopulation:
        low, high = data["ratings"]
        return CheckedPopulation(
            name=str(data["name"]),
            rating_system=str(data["rating_system"]),
            time_classes=tuple(str(t) for t in data.get("time_classes", [])),
            low=float(low),
            high=float(high),
            boards=tuple((int(w), int(h)) for w, h in data.get("boards", [])),
            sides=int(data["sides"]),
            coverage=float(data["coverage"]),
            checked=str(data["checked"]),
            settings=tuple(EngineSetting.from_json(item) for item in data.get("settings", [])),
        )

    def admits_kind(self, population: GamePopulation) -> bool:
        """Same rating system, time class and board, whatever the ratings."""
        return (
            population.rating_system == self.rating_system
            and population.variant == "standard"
            and (not self.time_classes or population.time_class in self.time_classes)
            and (not self.boards or population.board in self.boards)
        )

    def admits(self, population: GamePopulation) -> bool:
        return self.admits_kind(population) and all(
            rating is not None and self.low <= rating <= self.high for rating in population.ratings
        )

    def admits_setting(self, engine_id: str | None) -> bool:
        """Whether an analysis by this engine setting was checked here: the interval's coverage on
        figures of one budget says nothing of another (fewer visits find other losses)."""
        return engine_id is not None and EngineSetting.of(engine_id) in self.settings

    def settings_text(self) -> str:
        return " or ".join(setting.text() for setting in self.settings) or "no engine setting"


def admitting(
    checked: Sequence[CheckedPopulation], population: GamePopulation | None, engine_id: str | None
) -> CheckedPopulation | None:
    """The first checked population that holds this game and this analysis' engine setting."""
    if population is None:
        return None
    return next((c for c in checked if c.admits(population) and c.admits_setting(engine_id)), None)


def population_reason(
    checked: Sequence[CheckedPopulation], population: GamePopulation | None, engine_id: str | None = None
) -> str | None:
    """None where the game lies in one of the checked populations and was analysed at an engine
    setting checked on it; otherwise why not."""
    if not checked:
        return "the model names no population of games it was checked on"
    names = " and on ".join(c.name for c in checked)
    if population is None:
        return f"the model was checked on {names}; this game's headers were not read"
    if admitting(checked, population, engine_id) is not None:
        return None
    holding = [c for c in checked if c.admits(population)]
    if holding:
        where = "; ".join(f"{c.name} analysed by {c.settings_text()}" for c in holding)
        analysis = EngineSetting.of(engine_id).text() if engine_id else "an unknown engine setting"
        return f"the model was checked on {where}; this analysis is by {analysis}"
    if not any(c.admits_kind(population) for c in checked):
        return f"the model was checked on {names}; this is {population.text()}"
    white, black = population.rating_texts
    if None in population.ratings:
        return f"the model was checked on {names}; this game does not give both players' ratings"
    return f"the model was checked on {names}; this game's players are rated {white} and {black}"


def population_of(game: Game, white_rating: float | None, black_rating: float | None) -> GamePopulation:
    """The game's population from its headers; the ratings are the caller's reading of
    `game.white_rank`/`black_rank` (Elo, or a Go rank on the rating scale)."""
    ratings = (white_rating, black_rating)
    texts = (game.white_rank, game.black_rank)
    if game_support(game.kind).rating.unit == "rank":
        if any(_is_professional(text) for text in texts):
            system = "professional ranks"
        elif any(rating is not None for rating in ratings):
            system = "go ranks"
        else:
            system = "unrated"
        return GamePopulation(game.kind, system, "unstated", ratings, texts, (game.board_width, game.board_height))
    variant = game.headers.get("Variant", "").strip().lower()
    if game.chess960 or variant in ("chess960", "fischerandom", "freestyle"):
        variant = "Chess960"
    elif variant in ("", "standard", "chess", "normal", "from position"):
        variant = "standard"
    return GamePopulation(
        game.kind, chess_rating_system(game.headers), time_class(game.headers), ratings, texts, None, variant
    )


def chess_rating_system(headers: Mapping[str, str]) -> str:
    """fide | lichess | chess.com | online | unrated, from the headers (see the module's notes)."""
    where = " ".join(headers.get(name, "") for name in _SERVER_HEADERS).lower()
    if "lichess" in where:
        return "lichess"
    if "chess.com" in where:
        return "chess.com"
    site = headers.get("Site", "").strip().lower()
    if (
        any(re.search(rf"\b{re.escape(marker)}\b", where) for marker, _ in _ONLINE_SITES)
        or site.endswith(" int")
        or "WhiteRatingDiff" in headers
        or "BlackRatingDiff" in headers
    ):
        return "online"
    if any(_positive_number(headers.get(name, "")) for name in ("WhiteElo", "BlackElo")):
        return "fide"
    return "unrated"


def time_class(headers: Mapping[str, str]) -> str:
    """One of TIME_CLASSES, from TimeControl, else from words of the event's name."""
    from_clock = _time_class_of_control(headers.get("TimeControl", ""))
    if from_clock is not None:
        return from_clock
    event = headers.get("Event", "").lower()
    for word, name in _EVENT_WORDS:
        if word in event:
            return name
    return "unstated"


def _time_class_of_control(text: str) -> str | None:
    """'180+2' -> blitz; '40/5400+30:1800+30' -> classical; '1/259200' and '-' -> correspondence;
    '15 min. + 10 s. per move' -> rapid; None where the text gives no clock."""
    text = text.strip()
    if text == "-":
        return "correspondence"
    first = text.split(":")[0]
    stage = re.fullmatch(r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", first)
    if stage is not None:
        moves, base, increment = stage.group(1), float(stage.group(2)), float(stage.group(3) or 0)
        if moves is not None and int(moves) == 1 and base >= 86400:
            return "correspondence"  # days per move
        return _class_of_seconds(base + 40 * increment)
    minutes = re.search(r"(\d+(?:\.\d+)?)\s*(?:min|m\b|')", text, re.IGNORECASE)
    if minutes is None:
        return None
    seconds = re.search(r"\+\s*(\d+(?:\.\d+)?)\s*(?:s|sec|\")", text, re.IGNORECASE)
    increment = float(seconds.group(1)) if seconds else 0.0
    return _class_of_seconds(60 * float(minutes.group(1)) + 40 * increment)


def _class_of_seconds(estimate: float) -> str:
    for bound, name in _CLASS_BOUNDS:
        if estimate < bound:
            return name
    return "classical"


def _positive_number(text: str) -> bool:
    try:
        return float(text.strip()) > 0
    except ValueError:
        return False


def _is_professional(text: str) -> bool:
    return re.fullmatch(r"\s*\d+\s*p(ro)?\s*", text or "", re.IGNORECASE) is not None


__all__ = [
    "EMBEDDED_EVALUATIONS",
    "TIME_CLASSES",
    "CheckedPopulation",
    "EngineSetting",
    "GamePopulation",
    "admitting",
    "chess_rating_system",
    "population_of",
    "population_reason",
    "time_class",
]
