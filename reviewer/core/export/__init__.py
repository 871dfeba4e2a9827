"""Exporting a review: annotated PGN/SGF that other programs show and Reviewer reopens, and report files.

    annotate_game(game, evaluations, assessment=None, engine_info=None) -> Game   (a copy)
    export_game_text(game, evaluations, ..., with_analysis=False) -> str   PGN for chess, SGF for Go
        (each game's own exporter, named by its support object: `export.pgn`, `export.sgf`)
    save_annotated(path, [(game, evaluations, engine_info)], sources=(), overwrite=False, with_analysis=False)
    evaluations_from_game(game) -> EvaluationTable             reads an exported file's analysis back
    has_embedded_evaluations(game) -> bool                      whether the file carries any
    moves_csv(reports) -> str, report_html(reports) -> str     from reviewer.report/1 objects
    save_text(path, text, sources=(), overwrite=False)          atomic, never over a source file

A plain export is clean: a PGN carries lichess's `[%eval]`, the symbols, the words and the best
lines, which other programs show; `with_analysis=True` ("Save with analysis") adds Reviewer's own
record of each evaluation (`[%rvw ...]`), which other programs may show as text. An SGF always
carries its record in the private property `RVW[]`, which other programs do not show.

Every file is written atomically (reviewer.core.atomic); a path that is one of the game files the
review came from is refused with `ExportError` unless `overwrite` is set. The file formats are
described in docs/file-formats.md.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from reviewer.core.analysis import EvaluationTable
from reviewer.core.atomic import write_text_atomic
from reviewer.core.embedded_evals import evaluations_from_game, has_embedded_evaluations
from reviewer.core.export.codec import FORMAT_VERSION, CodecError, decode_evaluation, encode_evaluation
from reviewer.core.export.reports import eval_graph_svg, mistakes_by_size, moves_csv, report_html
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game
from reviewer.core.scoring import DEFAULT_PRESET, GameAssessment, Preset, assess_game

__all__ = [
    "FORMAT_VERSION",
    "CodecError",
    "ExportError",
    "annotate_game",
    "check_target",
    "decode_evaluation",
    "encode_evaluation",
    "eval_graph_svg",
    "evaluations_from_game",
    "export_game_text",
    "has_embedded_evaluations",
    "mistakes_by_size",
    "moves_csv",
    "report_html",
    "save_annotated",
    "save_text",
]

EngineInfo = Mapping[str, object] | str | None


def export_extension(kind: str) -> str:
    """The extension of a game's annotated file, with the dot (".pgn")."""
    return "." + game_support(kind).export_extension


class ExportError(ValueError):
    """An export that must not happen as asked (one line, for the user)."""


def annotate_game(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment | None = None,
    engine_info: EngineInfo = None,
    with_analysis: bool = False,
) -> Game:
    """A copy of the game carrying its review; the game itself is not changed."""
    return game_support(game.kind).annotate(game, evaluations, assessment, engine_info, with_analysis)


def export_game_text(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment | None = None,
    engine_info: EngineInfo = None,
    with_analysis: bool = False,
) -> str:
    """The reviewed game as PGN (chess) or SGF (Go) text (see the module's docstring for `with_analysis`)."""
    return game_support(game.kind).export_text(game, evaluations, assessment, engine_info, with_analysis)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_target(path: str | os.PathLike[str], sources: Iterable[str | os.PathLike[str] | None] = (), overwrite: bool = False) -> Path:
    """The path to write, or ExportError when it is a folder or (without `overwrite`) a source file."""
    target = Path(path)
    if target.is_dir():
        raise ExportError(f"{target} is a folder, not a file")
    if not overwrite:
        for source in sources:
            if source is not None and (_same_file(target, Path(source)) or target.resolve() == Path(source).resolve()):
                raise ExportError(f"{target} is the game file being reviewed; choose another name")
    return target


def save_text(
    path: str | os.PathLike[str],
    text: str,
    sources: Iterable[str | os.PathLike[str] | None] = (),
    overwrite: bool = False,
) -> None:
    """Write `text` atomically, refusing to replace a source file unless `overwrite`."""
    write_text_atomic(check_target(path, sources, overwrite), text, encoding="utf-8")


def save_annotated(
    path: str | os.PathLike[str],
    reviews: Sequence[tuple[Game, EvaluationTable, EngineInfo]],
    sources: Iterable[str | os.PathLike[str] | None] = (),
    overwrite: bool = False,
    preset: Preset = DEFAULT_PRESET,
    skip_book: bool = False,
    with_analysis: bool = False,
) -> None:
    """Write one or more reviewed games of one kind to one PGN or SGF file (by the games' kind).

    `preset` and `skip_book` are those of SCORING.md, as for the report; `with_analysis` as in
    `export_game_text`."""
    if not reviews:
        raise ExportError("no game to export")
    kinds = {game.kind for game, _, _ in reviews}
    if len(kinds) > 1:
        raise ExportError("games of different kinds cannot share one file")
    (kind,) = kinds
    suffix = Path(path).suffix.lower()
    if suffix != export_extension(kind):
        raise ExportError(f"{kind} games are exported to {export_extension(kind)} files, not {suffix or 'a name without one'}")
    all_sources = [*sources, *(game.source.path for game, _, _ in reviews)]
    texts = [
        export_game_text(game, evaluations, assess_game(game, evaluations, preset, skip_book), engine_info, with_analysis)
        for game, evaluations, engine_info in reviews
    ]
    save_text(path, "\n".join(texts), all_sources, overwrite)
