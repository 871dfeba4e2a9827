"""Everything that differs between games, one object per game, found through one registry.

    support = game_support(game.kind)
    support.rules.play(position, "Nf3")        # the rules (`base.GameRules`)
    support.assess(game, evaluations, ...)     # its scoring
    support.export_text(game, evaluations, …)  # its annotated file (PGN, SGF, ...)

Code outside `reviewer.core.games` asks the game's support object instead of comparing kind
strings. A game is registered with one call, `register_game(support)`; chess and Go register
themselves when the registry is first asked.

This layer sits below the formats, engines, scoring and export layers, so what lives there is
named by a typed reference (`facets.Ref`: "package.module:attribute", imported when it is first
used); the types of what each reference names are in `facets`.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeVar

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable, Limit
from reviewer.core.games.base import GameRules, PlayedMove, Position
from reviewer.core.games.facets import (
    AnnotateGame,
    AssessGame,
    DatabasePositionOf,
    DefaultPasses,
    EngineNote,
    ExplainMove,
    FastChunkOf,
    FastRecordOf,
    FingerprintMarks,
    FramePosition,
    ListedEngine,
    LiveBudgets,
    MoverValue,
    OpenCommand,
    OpenFallback,
    OpenFound,
    ParseRating,
    ParseResult,
    PreloadNetwork,
    PrepareOpponent,
    RatingText,
    ReadEmbedded,
    ReadGameFile,
    RecordOf,
    Ref,
    ReportGameFields,
    ReportMoveFields,
    TextFilter,
    ValueOf,
    WriteGame,
    is_text,
    resolve,
)
from reviewer.core.games.setup import PositionSetup
from reviewer.core.gametree import Color, Game, GameKind, Node, Point, other_color

if TYPE_CHECKING:  # types of higher layers, for the annotations only (see `facets`)
    from reviewer.core.games.facets import (
        Engine,
        EngineInfo,
        GameAssessment,
        MoveAssessment,
        Outcome,
        PassScheme,
        Threat,
    )

__all__ = [
    "Averaging",
    "GameSupport",
    "MoveNumber",
    "OpponentStrength",
    "RatingScale",
    "RatingUnit",
    "RecordStore",
    "Ref",
    "ScoreUnits",
    "SquareMoves",
    "ValueStyle",
    "WorkUnit",
    "game_support",
    "is_position_setup",
    "kind_of_protocol",
    "players_in_order",
    "readers",
    "register_game",
    "registered_games",
    "resolve",
    "unregister_game",
]

Averaging = Literal["mean", "weighted"]
RecordStore = Literal["comment", "property"]
ValueStyle = Literal["pawns", "lead"]
WorkUnit = Literal["nodes", "visits"]
RatingUnit = Literal["Elo", "rank"]

T = TypeVar("T")


def is_position_setup(value: object) -> bool:
    return isinstance(value, PositionSetup)


@dataclass(frozen=True)
class ScoreUnits:
    """How a game's engine values and losses read (chess: centipawns; Go: points). Every value takes
    the first player's view (`GameSupport.player_order[0]`: White in chess, Black in Go)."""

    field: str  # the `Evaluation`/`Candidate` field of a value, in the first player's view ("score_cp_first")
    unit: str  # a short unit after a number: "cp", "points"
    per_shown_unit: float  # a value is shown divided by this (chess: pawns = cp / 100)
    shown_decimals: int  # of a shown value (a candidate's loss, a shift)
    loss_decimals: int  # of a loss in its unit ("35 cp", "2.4 points")
    loss_label: str  # a column of losses: "Loss (cp)", "Loss (pts)"
    average_loss_label: str  # a column of the players' average loss
    average_loss_title: str  # the same in words, for a chart
    summary_loss_key: str  # the per-side summary's loss figure: "acpl", "weighted_loss"
    loss_floor: float  # the evaluation graph's loss bars fill at least up to this
    loss_cap: float  # and stop at the top from this
    shift_worth_saying: float  # a swing this big or more is told in a verdict
    style: ValueStyle  # a value as text: "pawns" (+0.41, #+ at the mate bound), "lead" (B+2.5, W+0.5, even)
    averaging: Averaging  # a side's loss: the mean of its moves' losses (each with an accuracy), or weighted by difficulty
    log_offset: float  # the strength model takes log(loss + this): a loss of 0 happens over a short game
    # Each accuracy field of a side's summary by the name its users know it by (docs/SCORING.md).
    accuracy_names: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # The game's reading of its values (scoring code, "package.module:function"); a game that names
    # none cannot be graphed or trained on, and asking says so.
    value_first_ref: Ref[ValueOf] = Ref("")  # (evaluation) -> float | None: a position's value in the graph's and summary's unit, the first player's view (chess: E(P); Go: S(P))
    mover_value_ref: Ref[MoverValue] = Ref("")  # (evaluation, mover, to_move) -> float | None: the value to `mover` of a position `to_move` plays, in the unit the trainer's losses take (chess: win %; Go: points)
    # What a move costs its mover in that unit, as the trainer reads it
    mover_loss_field: str = "loss"  # the `MoveAssessment` field of what a played move cost (chess: "win_drop_mover")
    mover_loss_unit: str = ""  # that unit after a number (chess: "win %"); "" when it is `unit`
    accept_mover_loss: float = 0.0  # the trainer accepts an answer that costs less than this; 0: only answers as good as the best


@dataclass(frozen=True)
class RatingScale:
    """How players of this game are rated: Elo, or Go ranks (1 = a rank, 0 = 1 kyu)."""

    unit: RatingUnit  # "Elo"; "rank" (Go ranks: 1k = 0, 1d = 1; handicap and komi shift the expected score)
    description: str  # the unit explained, for the collection's JSON
    plural: str  # "ratings", "ranks"
    decimals: int  # of a rating figure written in a report
    spread: float  # a plot's margin around the ratings
    format_ref: Ref[RatingText]  # a rating as players write it
    parse_ref: Ref[ParseRating]  # a rating or rank as written in a file
    result_ref: Ref[ParseResult]  # the game's result as written in a file
    header_tags: tuple[str, str] = ("WhiteElo", "BlackElo")  # the file's tags of White's and Black's declared rating
    # The komi of an even game under the rules a file names (Go: 6.5 Japanese, 7.5 Chinese), None where not known: ranks shift by komi
    even_komi: Callable[[str | None], float | None] = field(default=lambda rules: None)


@dataclass(frozen=True)
class OpponentStrength:
    """How strong the engine plays when the player plays a position out against it (*Play from
    here*): a figure in `unit` from `minimum` to `maximum`; `limit` the search of each of its moves
    at that strength; `prepare_ref` (engine, strength) -> None sets the engine up
    for it before its first move ("" where the limit alone sets the strength)."""

    unit: str  # "Elo", "visits"
    minimum: int
    maximum: int
    default: int
    step: int
    limit: Callable[[int], Limit]
    prepare_ref: Ref[PrepareOpponent] = Ref("")


@dataclass(frozen=True)
class MoveNumber:
    """Where the numbering of a game's moves stands at a position: the number of the move to play
    (one number for a move of each player, the first player's first) and whether the first player
    plays it. Chess: "12." before White's move, "12..." before Black's."""

    number: int
    first_to_move: bool

    def after(self, plies: int) -> MoveNumber:
        """The numbering `plies` moves later."""
        half_moves = plies + (0 if self.first_to_move else 1)
        return MoveNumber(self.number + half_moves // 2, half_moves % 2 == 0)


@dataclass(frozen=True)
class SquareMoves:
    """How a game whose moves go from one square of its board to another (chess) reads them, for
    the arrows its board draws: squares by the numbers its board widget gives them."""

    line: Callable[[Position, Sequence[str], int], list[tuple[int, int]]]  # (position, moves as written, limit) -> (from, to) of each, up to the first the rules refuse
    square: Callable[[str], int | None]  # a square by name ("e4") -> its number; None for a name that is none


def _numbered_from_one(game: Game) -> MoveNumber:
    return MoveNumber(1, True)


def _no_start_problem(game: Game) -> str | None:
    return None


@dataclass(frozen=True)
class GameSupport:
    """One game: its rules and everything the rest of Reviewer asks about it.

    References (`Ref`: "package.module:attribute") name code of higher layers, imported when first asked for."""

    kind: GameKind  # the name in `Game.kind` and in saved files
    title: str  # "Chess", "Go": for menus, group boxes and messages
    rules: GameRules[Position]  # the game's rules (`base.opaque_rules`: over positions only they read)
    first_player: Color  # who moves first in the usual start position
    new_node: Callable[[Game, PlayedMove[Position]], Node]  # the Node that records a played move in the tree
    numbered_moves: bool  # "12. Nf3 Nc6" rather than "Q16 D4 R4"
    bottom_player: Color  # at the bottom of an unflipped board (Go: Black, as KaTrain)
    scores: ScoreUnits
    rating: RatingScale
    assess_ref: Ref[AssessGame]  # its scoring
    uses_thresholds: bool  # the inaccuracy/mistake/blunder presets apply
    has_openings: bool  # the report names the opening (the ECO table), and insights count games by opening
    first_move_needs_start: bool  # judging the first move needs the start position evaluated (Go: yes)
    # Engines
    engine_protocols: tuple[str, ...]  # discovered engines of these protocols review it, best first
    engine_name: str  # the usual engine, as shown ("Stockfish")
    engine_key: str  # that engine's name in the engine list ("stockfish")
    engine_command_example: str  # a placeholder for the engine command field
    install_action: str  # the action that installs the usual engine
    offers_engine_setup: bool  # a missing engine can be located or installed from the failure message
    open_command_ref: Ref[OpenCommand]  # its engine for a command given as is
    live_budgets_ref: Ref[LiveBudgets]  # live analysis's growing searches
    work_unit: WorkUnit  # what its engines' limits count: "nodes" (with depth; reviews in passes of nodes) or "visits"
    # Files
    export_extension: str  # of the annotated game file, without the dot
    export_ref: Ref[WriteGame]  # the annotated file's text
    annotate_ref: Ref[AnnotateGame]  # the annotated game
    readers: Mapping[str, Ref[ReadGameFile]] = field(default_factory=dict)  # ".ext" -> the reader of its files
    embedded_ref: Ref[ReadEmbedded] = Ref("")  # evaluations in the file's own notation (lichess's [%eval])
    embedded_name: str = "evaluations"  # what a file of this game carries its evaluations in, for messages
    record_store: RecordStore = "comment"  # where Reviewer's own evaluation record goes: a move's comment or an SGF property
    own_comment_ref: Ref[TextFilter] = Ref("")  # a move's comment without the words Reviewer's export wrote in it; "" = as it is
    cache_keys: Callable[[Game, Sequence[int]], dict[int, str]] | None = None  # the analysis cache's key of each main-line ply; None = the rules' position key after each ply
    # The report
    report_game_ref: Ref[ReportGameFields] = Ref("")  # the game block's fields of this game
    report_move_ref: Ref[ReportMoveFields] = Ref("")  # a reported move's fields of this game
    # Display
    graph_modes: tuple[str, str] = ("win", "value")  # the settings' names of (win chance, value) graph modes
    default_graph_mode: str = "win"  # one of graph_modes: what the graph shows until the player picks
    has_eval_bar: bool = False  # beside the board while the engine lines are on
    eval_bar_ref: Ref[ValueOf] = Ref("")  # the first player's share of the bar in percent, where has_eval_bar
    board_header: bool = False  # the header names the first player first with stone letters, the board size and komi
    board_lines: tuple[int, int] | None = None  # the fewest and most lines a side of its board may have, where that varies
    usual_board_sizes: tuple[tuple[int, int], ...] = ()  # (rows, columns) of the boards most of its games are played on
    pass_move: str = ""  # the move that passes ("pass" in Go), "" where nobody may pass
    point_maps: bool = False  # the board can number the stones and map the engine's territory and policy on its points
    is_over: Callable[[Position], bool] = field(default=lambda position: False)  # the position ends the game (mate, stalemate)
    square_moves: SquareMoves | None = None  # moves from square to square, drawn as arrows; None where moves are not
    position_notation: str = ""  # a position as one line of text that can be copied ("FEN"), "" where none
    position_text: Callable[[Game, Node], str] | None = None  # the position after a node in that notation, where there is one
    # Why the start position the file gives could not be read ("its start position [FEN "…"] cannot be read (…)"), None when it could
    start_problem: Callable[[Game], str | None] = field(default=_no_start_problem)
    # The numbering at the game's start position, where `numbered_moves` (a chess FEN: its full-move number and side to move)
    start_move_number: Callable[[Game], MoveNumber] = field(default=_numbered_from_one)
    opening_table: str = ""  # the resource folder of its named opening lines (`core/openings.py`), "" where it has none
    move_examples: tuple[str, ...] = ()  # moves as a player may type them, for the move box ("Nf3", "e2e4")
    nag_names: Mapping[int, str] = field(default_factory=dict)  # the game's own words for some NAGs (Go: "Hotspot")
    keeps_nag: Callable[[int], bool] | None = None  # whether its file reads the NAG back as itself; None: every one
    explain_ref: Ref[ExplainMove] | None = None  # move explanations, when the game has them
    # The game database: a game's record with every position's key, and a node's position; "" = not held
    database_record_ref: Ref[RecordOf] = Ref("")
    database_position_ref: Ref[DatabasePositionOf] = Ref("")
    # A game's record read straight from its file's text (None where it cannot), "" where the game has no such reader
    database_fast_record_ref: Ref[FastRecordOf] = Ref("")
    # A chunk of a file's games read straight from its bytes as rows (PlainGames), "" where the game has no such reader
    database_fast_chunk_ref: Ref[FastChunkOf] = Ref("")
    threat_ref: Ref[Threat] | None = None  # what the opponent threatens (checked by `facets.is_threat`), when the game tells it
    # The engine that reviews the game in-process when its usual engine is missing, fails to start
    # or cannot play the board: its name in the engine list ("builtin"), "" where the game has none;
    # and how its identity begins ("builtin-go "), so that an identity is known as its without loading it.
    fallback_engine: str = ""
    engine_identity_prefix: str = ""  # how the usual engine's identity begins ("KataGo"), "" where it is not told apart
    fallback_identity_prefix: str = ""
    # (how an identity begins, the name people see) of its engines whose identity's first words are not their name
    engine_names: tuple[tuple[str, str], ...] = ()
    fallback_version_ref: Ref[str] = Ref("", is_text, "a text")  # the fallback engine's version (importing it loads the engine)
    fallback_opener_ref: Ref[OpenFallback] = Ref("")  # the fallback engine, opened
    # Each protocol's opener of an engine discovery found ("uci" -> the UCI adapter), and what tells
    # engines of a protocol apart beyond their command (for the analysis cache's engine fingerprint)
    engine_openers: Mapping[str, Ref[OpenFound]] = field(default_factory=dict)
    fingerprint_marks: Mapping[str, Ref[FingerprintMarks]] = field(default_factory=dict)
    engine_listing: Mapping[str, Ref[ListedEngine]] = field(default_factory=dict)  # a found engine as it will run
    opponent: OpponentStrength | None = None  # the engine as an opponent at a chosen strength, None where it cannot play
    setup_ref: Ref[PositionSetup] = Ref("", is_position_setup, "a PositionSetup")  # the board editor, "" where positions cannot be set up by hand
    # (game, node, region or None) -> (a new game: the position framed for a life-and-death study,
    # its region); raises ValueError with the reason. "" where the game has no such frame.
    frame_ref: Ref[FramePosition] = Ref("")
    preload_network_ref: Ref[PreloadNetwork] = Ref("")  # the usual engine's network built ahead of its first search; "" where it has none
    default_passes_ref: Ref[DefaultPasses] = Ref("")  # its default review in passes, "" where it is reviewed in one

    @property
    def position_setup(self) -> PositionSetup:
        """The game's board editor; ValueError where it has none."""
        return self._named("setup_ref", self.setup_ref)

    def frame_problem(self, game: Game, node: Node, region: tuple[Point, Point] | None) -> tuple[Game, tuple[Point, Point]]:
        """The position after `node` framed as a life-and-death problem (see `frame_ref`)."""
        if not self.frame_ref:
            raise ValueError(f"{self.title} positions are not framed as problems")
        return self.frame_ref.get()(game, node, region)

    @property
    def player_order(self) -> tuple[Color, Color]:
        """The players in the order the game lists them: the first player first."""
        return (self.first_player, "black" if self.first_player == "white" else "white")

    def move_number(self, game: Game, node: Node) -> MoveNumber:
        """The numbering at the position after `node`: of the move to play there."""
        return self.start_move_number(game).after(node.ply)

    def assess(self, game: Game, evaluations: EvaluationTable, preset: str, skip_book: bool) -> GameAssessment:
        return self.assess_ref.get()(game, evaluations, preset=preset, skip_book=skip_book)

    def export_text(
        self, game: Game, evaluations: EvaluationTable, assessment: GameAssessment | None, engine_info: EngineNote, with_analysis: bool
    ) -> str:
        return self.export_ref.get()(game, evaluations, assessment, engine_info, with_analysis)

    def annotate(
        self, game: Game, evaluations: EvaluationTable, assessment: GameAssessment | None, engine_info: EngineNote, with_analysis: bool
    ) -> Game:
        return self.annotate_ref.get()(game, evaluations, assessment, engine_info, with_analysis)

    def open_command(self, command: list[str], threads: int | None, start_in_background: bool = False) -> Engine:
        """The engine `command` runs; `start_in_background` is passed on only when asked for, so an
        adapter that always starts at once needs no such parameter."""
        if start_in_background:
            return self.open_command_ref.get()(command, threads, start_in_background=True)
        return self.open_command_ref.get()(command, threads)

    def is_fallback_identity(self, identity: str) -> bool:
        """Whether an engine identity ("builtin-go 1.0 rave seed=0 …") is the game's fallback engine's."""
        return bool(self.fallback_identity_prefix) and identity.startswith(self.fallback_identity_prefix)

    def is_usual_identity(self, identity: str) -> bool:
        """Whether an engine identity ("KataGo 1.18.1 b18 …") is the game's usual engine's."""
        return bool(self.engine_identity_prefix) and identity.startswith(self.engine_identity_prefix)

    def fallback_version(self) -> str:
        """The version of the game's fallback engine (its module is imported: not on a GUI thread);
        ValueError where the game has none, ImportError where it cannot be loaded."""
        return self._named("fallback_version_ref", self.fallback_version_ref)

    @property
    def preloads_network(self) -> bool:
        """Whether the game's usual engine has a network that can be built ahead of its first search."""
        return bool(self.preload_network_ref)

    def preload_network(self, engine: EngineInfo | Sequence[str], board_size: tuple[int, int]) -> bool:
        """Build the network of `engine` (a found engine, or a command given as is) for `board_size`
        ahead of its first search; False when it has none to build (seconds: not on a GUI thread)."""
        if not self.preload_network_ref:
            return False
        return self.preload_network_ref.get()(engine, board_size)

    def live_budgets(self) -> Sequence[Limit]:
        return self.live_budgets_ref.get()()

    def default_passes(self, cores: int | None = None) -> PassScheme:
        """The game's default review in passes, for `cores` cores (this machine's: None); ValueError
        where the game names none."""
        return self._named("default_passes_ref", self.default_passes_ref)(cores)

    def rating_text(self, value: float) -> str:
        return self.rating.format_ref.get()(value)

    def parse_rating(self, text: str) -> float | None:
        return self.rating.parse_ref.get()(text)

    def parse_result(self, text: str) -> Outcome:
        return self.rating.result_ref.get()(text)

    def position_value(self, evaluation: Evaluation) -> float | None:
        """The position's value in the graph's and summary's unit, the first player's view."""
        return self._named("value_first_ref", self.scores.value_first_ref)(evaluation)

    def mover_value(self, evaluation: Evaluation, mover: Color, to_move: Color) -> float | None:
        """The value to `mover` of the position `evaluation` judges, `to_move` to play, in the unit
        the trainer measures losses in."""
        return self._named("mover_value_ref", self.scores.mover_value_ref)(evaluation, mover, to_move)

    def candidate_value(self, candidate: Candidate, mover: Color) -> float | None:
        """The value to `mover` of the position after `mover` plays `candidate`, as `mover_value`."""
        probe = Evaluation(
            ply=0,
            kind=self.kind,
            score_cp_first=candidate.score_cp_first,
            mate_first=candidate.mate_first,
            score_lead_first=candidate.score_lead_first,
            winrate_first=candidate.winrate_first,
        )
        return self.mover_value(probe, mover, other_color(mover))

    def eval_bar_share(self, evaluation: Evaluation) -> float | None:
        """The first player's share of the evaluation bar in percent; None without a verdict."""
        return self._named("eval_bar_ref", self.eval_bar_ref)(evaluation)

    def explainer(self) -> ExplainMove | None:
        """The game's move explanations, None where it has none."""
        return self.explain_ref.get() if self.explain_ref else None

    def threat(self) -> Threat | None:
        """How the game tells what the opponent threatens, None where it does not."""
        return self.threat_ref.get() if self.threat_ref else None

    def _named(self, name: str, reference: Ref[T]) -> T:
        if not reference:
            raise ValueError(f"the game {self.title!r} names no {name}: its support object does not say how to read its values")
        return reference.get()

    def own_comment(self, comment: str) -> str:
        """A move's comment as its author wrote it: without what a Reviewer export added (the
        window says that again from its own analysis)."""
        if not self.own_comment_ref:
            return comment
        return self.own_comment_ref.get()(comment)

    def report_game_fields(self, game: Game, assessment: GameAssessment) -> dict[str, object]:
        return self.report_game_ref.get()(game, assessment) if self.report_game_ref else {}

    def report_move_fields(self, move: MoveAssessment) -> dict[str, object]:
        return self.report_move_ref.get()(move) if self.report_move_ref else {}


_BUILT_IN: tuple[Ref[GameSupport], ...] = tuple(
    Ref(text, lambda value: isinstance(value, GameSupport), "a GameSupport")
    for text in ("reviewer.core.games.chess:SUPPORT", "reviewer.core.games.go:SUPPORT")
)
_lock = threading.Lock()
_registry: dict[str, GameSupport] = {}
_built_in_loaded = False


def _load_built_in() -> None:
    global _built_in_loaded
    if _built_in_loaded:
        return
    with _lock:
        if not _built_in_loaded:
            for reference in _BUILT_IN:
                support = reference.get()
                _registry.setdefault(support.kind, support)
            _built_in_loaded = True


def register_game(support: GameSupport) -> None:
    """Make a game known to Reviewer: its files open, its engine reviews it, its report and export work."""
    _load_built_in()
    with _lock:
        _registry[support.kind] = support


def unregister_game(kind: GameKind) -> None:
    _load_built_in()
    with _lock:
        _registry.pop(kind, None)


def registered_games() -> tuple[GameSupport, ...]:
    """Every game known, the built-in ones first."""
    _load_built_in()
    with _lock:
        return tuple(_registry.values())


def shown_engine_name(identity: str) -> str:
    """The name people see for an engine of this identity where its first words are not it (a game's
    `engine_names`), else ""."""
    for support in registered_games():
        for prefix, name in support.engine_names:
            if identity.startswith(prefix):
                return name
    return ""


def game_support(kind: GameKind) -> GameSupport:
    """The support object of the game `kind`; ValueError for a game nobody registered."""
    _load_built_in()
    support = _registry.get(kind)
    if support is None:
        raise ValueError(f"unknown kind of game: {kind!r}")
    return support


def players_in_order(game: Game) -> tuple[tuple[Color, str], tuple[Color, str]]:
    """(colour, name) of both players in the order every place lists them: the kind's first player
    first (White in chess; Black in Go, even when handicap stones give White the first move). A name
    is "" when the file gives none."""
    first, second = game_support(game.kind).player_order
    return (first, _name_of(game, first)), (second, _name_of(game, second))


def _name_of(game: Game, color: Color) -> str:
    return (game.white if color == "white" else game.black) or ""


def readers() -> dict[str, ReadGameFile]:
    """The file readers registered games bring, by extension (".c4")."""
    return {extension: reference.get() for support in registered_games() for extension, reference in support.readers.items()}


def kind_of_protocol(protocol: str) -> GameKind:
    """The game an engine of `protocol` reviews when its settings do not say (the first registered
    game whose engines speak it): engines.json entries without a "kind". "" when no game's do."""
    for support in registered_games():
        if protocol in support.engine_protocols:
            return support.kind
    return ""
