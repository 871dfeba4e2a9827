"""Game records from files and folders, read from the headers only (reviewer.core.formats)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection, read_extensions
from reviewer.core.rating.records import GameRecord, record_from_summary


@dataclass
class LoadedRecords:
    records: list[GameRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # one line per file that could not be read
    files_read: int = 0


def game_files(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[Path], list[str]]:
    """The game files named or found (recursively, sorted) under the folders named."""
    files: list[Path] = []
    problems: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            known = read_extensions()
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in known)
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            problems.append(f"{path}: no such file or folder")
    return files, problems


def load_records(
    paths: Iterable[str | os.PathLike[str]],
    should_stop: Callable[[], bool] | None = None,
    on_file: Callable[[int, int], None] | None = None,
) -> LoadedRecords:
    """Every game's header record from the files and folders given; unreadable files are reported.
    `on_file(files looked at, files in all)` is told before each file and once at the end."""
    loaded = LoadedRecords()
    files, loaded.problems = game_files(paths)
    for number, path in enumerate(files):
        if should_stop is not None and should_stop():
            break
        if on_file is not None:
            on_file(number, len(files))
        try:
            collection = open_collection(path)
            for summary in collection.summaries():
                # the komi is in points already: the SGF reader undoes Fox's way of writing it
                loaded.records.append(record_from_summary(summary, source=f"{path}#{summary.index + 1}"))
        except GameFileError as error:
            loaded.problems.append(str(error).splitlines()[0])
            continue
        except Exception as error:  # one bad file must not stop a batch of thousands
            detail = str(error).splitlines()[0] if str(error) else type(error).__name__
            loaded.problems.append(f"{path}: cannot be read ({detail})")
            continue
        loaded.files_read += 1
    if on_file is not None:
        on_file(len(files), len(files))
    return loaded
