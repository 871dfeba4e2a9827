"""The types of what a game's support object names in the layers above the games layer, and the
typed reference (`Ref`) that names it.

The games layer sits below the formats, engines, scoring, export, explain and database layers, so
it cannot import their code: a game names it by text, "package.module:attribute", imported when it
is first asked for. The text is held by a `Ref[T]`, whose `get()` gives a `T` (checked when it is
imported: a function, or an object of the kind the reference promises), so the support object's
answers are typed. The types of those layers are named here for the type checker only (under
`TYPE_CHECKING`: nothing above this layer is imported at run time; the layers contract in
pyproject.toml ignores exactly these imports and tests/core/test_registry_types.py checks that they
stay type-only).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, cast

from reviewer.core.analysis import Evaluation, EvaluationTable, Limit
from reviewer.core.gametree import Color, Game, Node, Point

if TYPE_CHECKING:  # named again here (`as`) for the support object's own annotations
    from reviewer.core.database.explorer import Position as DatabasePosition
    from reviewer.core.database.records import GameRecord, PlainGames
    from reviewer.core.engines.base import Engine as Engine
    from reviewer.core.engines.discovery import EngineInfo as EngineInfo
    from reviewer.core.explain.common import Threat as Threat
    from reviewer.core.explain.common import Why
    from reviewer.core.formats.collection import GameCollection
    from reviewer.core.passes import PassScheme as PassScheme
    from reviewer.core.rating.records import Outcome as Outcome
    from reviewer.core.scoring.common import GameAssessment as GameAssessment
    from reviewer.core.scoring.common import MoveAssessment as MoveAssessment

__all__ = [
    "AnnotateGame",
    "AssessGame",
    "DatabasePositionOf",
    "DefaultPasses",
    "EngineNote",
    "ExplainMove",
    "FastChunkOf",
    "FastRecordOf",
    "FingerprintMarks",
    "FramePosition",
    "ListedEngine",
    "LiveBudgets",
    "MoverValue",
    "OpenCommand",
    "OpenFallback",
    "OpenFound",
    "ParseRating",
    "ParseResult",
    "PreloadNetwork",
    "PrepareOpponent",
    "RatingText",
    "ReadEmbedded",
    "ReadGameFile",
    "RecordOf",
    "Ref",
    "ReportGameFields",
    "ReportMoveFields",
    "TextFilter",
    "ValueOf",
    "WriteGame",
    "is_text",
    "is_threat",
    "resolve",
]

T = TypeVar("T")


def resolve(reference: str) -> object:
    """The object a reference "package.module:attribute" names, its module imported on first use."""
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"not a reference of the form package.module:attribute: {reference!r}")
    value: object = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


class Ref(Generic[T]):
    """A `T` named by its text "package.module:attribute", imported by `get()`.

    `check` says whether what the text names is a `T` as far as can be seen at run time: by
    default that it can be called (the facets are functions); `what` names it for the error. An
    empty text names nothing: the reference is false, and `get()` raises ValueError. A reference
    does not change (it may be a dataclass field's default)."""

    __slots__ = ("_check", "text", "what")

    text: str
    what: str
    _check: Callable[[object], bool]

    def __init__(self, text: str, check: Callable[[object], bool] = callable, what: str = "a function") -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "_check", check)
        object.__setattr__(self, "what", what)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a reference does not change ({name})")

    def __bool__(self) -> bool:
        return bool(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ref) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Ref({self.text!r})"

    def get(self) -> T:
        """What the text names; ValueError for an empty one, TypeError when it is not what it promises."""
        if not self.text:
            raise ValueError("an empty reference names nothing")
        value = resolve(self.text)
        if not self._check(value):
            raise TypeError(f"the reference {self.text!r} names {type(value).__name__} {value!r:.80}, not {self.what}")
        return cast(T, value)


def is_text(value: object) -> bool:
    return isinstance(value, str)


def is_threat(value: object) -> bool:
    """Whether `value` tells threats as `explain.common.Threat` does (its `search` and `explain`)."""
    return callable(getattr(value, "search", None)) and callable(getattr(value, "explain", None))


# An engine's identity and settings as the annotated file records them (`export.EngineInfo`)
EngineNote = Mapping[str, object] | str | None


class AssessGame(Protocol):
    """The game's scoring: every move judged from the positions' evaluations."""

    def __call__(self, game: Game, evaluations: EvaluationTable, *, preset: str, skip_book: bool) -> GameAssessment: ...


# (game, evaluations, assessment, engine note, with Reviewer's own records) -> the annotated file's text / game
WriteGame = Callable[[Game, EvaluationTable, "GameAssessment | None", EngineNote, bool], str]
AnnotateGame = Callable[[Game, EvaluationTable, "GameAssessment | None", EngineNote, bool], Game]
ReadGameFile = Callable[[str, bytes], "GameCollection"]  # (path, data) -> the file's games
ReadEmbedded = Callable[[Game, list[str]], EvaluationTable]  # (game, warnings) -> the evaluations its file carries
TextFilter = Callable[[str], str]
ReportGameFields = Callable[[Game, "GameAssessment"], dict[str, object]]
ReportMoveFields = Callable[["MoveAssessment"], dict[str, object]]
ValueOf = Callable[[Evaluation], float | None]  # a position's value read from its evaluation
MoverValue = Callable[[Evaluation, Color, Color], float | None]  # (evaluation, mover, to move) -> value to the mover
RatingText = Callable[[float], str]
ParseRating = Callable[[str], float | None]
ParseResult = Callable[[str], "Outcome"]
LiveBudgets = Callable[[], Sequence[Limit]]
RecordOf = Callable[[Game], "GameRecord"]  # the game database's record of a game
FastRecordOf = Callable[["GameCollection", int], "GameRecord | None"]  # (collection, index) -> its record read from the file's text
FastChunkOf = Callable[["GameCollection", int, int], "PlainGames | None"]  # (collection, first, end) -> those games as rows
DatabasePositionOf = Callable[[Game, Node], "DatabasePosition"]
FramePosition = Callable[[Game, Node, tuple[Point, Point] | None], tuple[Game, tuple[Point, Point]]]
PreloadNetwork = Callable[["EngineInfo | Sequence[str]", tuple[int, int]], bool]
PrepareOpponent = Callable[["Engine", int], None]  # (engine, strength) -> None


class OpenCommand(Protocol):
    """An engine run from a command given as is."""

    def __call__(self, command: list[str], threads: int | None, start_in_background: bool = False) -> Engine: ...


class OpenFound(Protocol):
    """An engine that discovery found (its command, the user's options), for the protocol it speaks."""

    def __call__(self, info: EngineInfo, threads: int | None, start_in_background: bool = False) -> Engine: ...


OpenFallback = Callable[[], "Engine"]  # the in-process engine that takes the usual engine's place
FingerprintMarks = Callable[[Sequence[str]], list[str]]  # what beyond the command tells one engine of a protocol from another
ListedEngine = Callable[["EngineInfo"], "EngineInfo"]  # a found engine as it will run (what the engine list says of it)


class ExplainMove(Protocol):
    """Why a main-line move lost, from the evaluations before and after it."""

    def __call__(
        self, game: Game, ply: int, before: Evaluation | None, after: Evaluation | None, *, plain: bool
    ) -> Why | None: ...


class DefaultPasses(Protocol):
    """The game's default review in passes, for a machine of `cores` cores (this one's: None)."""

    def __call__(self, cores: int | None) -> PassScheme: ...
