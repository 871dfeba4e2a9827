"""The games of a batch: every game of every file named, folders searched recursively.

Each game travels as text (PGN for chess; SGF for Go, whatever format it was read from), so that a
worker on another machine needs no file; `game_key` names it by its moves and players, not by
where it lies. A file that cannot be read or a game that cannot be parsed becomes one line in
`BatchPlan.problems` and the rest of the batch goes on.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from reviewer.core.embedded_evals import has_embedded_evaluations
from reviewer.core.errors import ReviewerError
from reviewer.core.formats import open_collection, read_extensions, write_pgn, write_sgf
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game, GameKind
from reviewer.core.services.saved_lines import game_fingerprint

__all__ = [
    "BatchGame",
    "BatchPlan",
    "TextFormat",
    "find_game_files",
    "game_key",
    "game_text",
    "plan_batch",
    "plays_in",
    "unreadable_start",
    "without_game_number",
]

TextFormat = Literal["pgn", "sgf"]


@dataclass(frozen=True)
class BatchGame:
    """One game of the batch, with everything a worker needs to review it."""

    path: str  # the file, as found from the paths given
    index: int  # 0-based, in that file
    key: str  # `game_key(game)`
    kind: GameKind
    text_format: TextFormat
    text: str  # the game alone, as PGN or SGF
    white: str = ""
    black: str = ""
    plies: int = 0  # main-line positions after the start
    source_format: str = ""  # what the file was: pgn, sgf, gib, ngf, ugf
    warnings: tuple[str, ...] = ()  # what the reader could not take from the file
    carries_evaluations: bool = False  # [%eval], [%rvw], RVW, SBKV or SBKS somewhere on the main line

    @property
    def label(self) -> str:
        """How lines name the game: `path#N`, N counted from 1."""
        return f"{self.path}#{self.index + 1}"


@dataclass
class BatchPlan:
    games: list[BatchGame] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # files and games that cannot be read, one line each
    warnings: list[str] = field(default_factory=list)  # files' and games' warnings, one line each
    files: int = 0  # game files opened
    not_played: int = 0  # games left out by the player filter
    duplicates: list[tuple[str, str]] = field(default_factory=list)  # (label, label of the same game kept)


def game_key(game: Game) -> str:
    """The game's identity in a batch: its moves and start (`saved_lines.game_fingerprint`) and the
    header fields a viewer shows, so that two games with the same moves but other players differ."""
    described = [game_fingerprint(game), game.white, game.black, game.date, game.result, game.event]
    return hashlib.sha1(json.dumps(described).encode("utf-8")).hexdigest()


def game_text(game: Game) -> tuple[TextFormat, str]:
    """The game alone as text: PGN for chess, SGF for Go (GIB, NGF and UGF games included)."""
    extension = game_support(game.kind).export_extension
    if extension == "pgn":
        return "pgn", write_pgn(game)
    if extension == "sgf":
        return "sgf", write_sgf(game)
    raise ValueError(f"a batch takes games written as PGN or SGF, not {extension}")


def plays_in(player: str, white: str, black: str) -> bool:
    """Whether `player` is a case-insensitive part of either player's name."""
    wanted = " ".join(player.split()).casefold()
    return any(wanted in " ".join(name.split()).casefold() for name in (white, black))


def unreadable_start(game: Game) -> str | None:
    """Why the game's start position as its file gives it could not be read, if so (its game says)."""
    return game_support(game.kind).start_problem(game)


def find_game_files(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[Path], list[str]]:
    """The game files under `paths` (folders searched recursively for the extensions Reviewer
    reads; a file named directly is taken whatever its extension) and one line per path that
    does not exist. Each file once, in the order given, a folder's files sorted."""
    found: list[Path] = []
    problems: list[str] = []
    seen: set[Path] = set()

    def add(path: Path) -> None:
        real = path.resolve()
        if real not in seen:
            seen.add(real)
            found.append(path)

    for name in paths:
        path = Path(name)
        if path.is_dir():
            known = read_extensions()
            inside = [
                item
                for item in path.rglob("*")
                if item.suffix.lower() in known and not item.name.startswith(".") and item.is_file()
            ]
            for item in sorted(inside):
                add(item)
        elif path.exists():
            add(path)
        else:
            problems.append(f"{path}: no such file or folder")
    return found, problems


def plan_batch(paths: Sequence[str | os.PathLike[str]], player: str | None = None) -> BatchPlan:
    """Every game under `paths` (only those where `player` played, when given), in order; the same
    game met twice (same `game_key`) is reviewed once."""
    plan = BatchPlan()
    files, plan.problems = find_game_files(paths)
    first_label: dict[str, str] = {}
    for path in files:
        try:
            collection = open_collection(path)
            count = len(collection)
        except ReviewerError as error:
            plan.problems.append(str(error))
            continue
        except OSError as error:
            plan.problems.append(f"{path}: cannot be read ({error.strerror or error})")
            continue
        plan.files += 1
        plan.warnings.extend(f"{path}: warning: {warning}" for warning in collection.warnings)
        for index in range(count):
            where = f"{path}#{index + 1}"
            try:
                if player is not None:
                    summary = collection.summary(index)
                    if not plays_in(player, summary.white, summary.black):
                        plan.not_played += 1
                        continue
                game = collection.game(index)
                problem = unreadable_start(game)
                if problem is not None:
                    plan.problems.append(f"{where}: {problem}")
                    continue
                text_format, text = game_text(game)
            except (ReviewerError, ValueError, IndexError, KeyError, UnicodeError) as error:
                detail = str(error).splitlines()[0] if str(error) else type(error).__name__
                plan.problems.append(f"{where}: cannot be read ({detail})")
                continue
            key = game_key(game)
            if key in first_label:
                plan.duplicates.append((where, first_label[key]))
                continue
            first_label[key] = where
            plan.warnings.extend(f"{where}: warning: {without_game_number(warning)}" for warning in game.warnings)
            plan.games.append(
                BatchGame(
                    path=str(path),
                    index=index,
                    key=key,
                    kind=game.kind,
                    text_format=text_format,
                    text=text,
                    white=game.white,
                    black=game.black,
                    plies=game.ply_count,
                    source_format=collection.format,
                    warnings=tuple(game.warnings),
                    carries_evaluations=has_embedded_evaluations(game),
                )
            )
    return plan


def without_game_number(warning: str) -> str:
    """A reader's warning without its "game N: " prefix (the line already names the game)."""
    head, sep, rest = warning.partition(": ")
    words = head.split()
    if sep and len(words) == 2 and words[0] == "game" and words[1].isdigit():
        return rest
    return warning
