"""Damaged and re-encoded copies of real game files: does Reviewer read each right, warn, or refuse?

Mutants are made, with a fixed seed, from the PGN and SGF files of the shared corpus:
- truncate: the file cut at a random byte;
- byte-flip: one to three bytes changed at random;
- reencode: the text written again in another charset that holds it (UTF-8 with a BOM, UTF-16 with
  and without one, Windows-1252/-1251/-1250, ISO-8859-15 and GBK for PGN; GB18030, CP949,
  Shift-JIS, Big5, Latin-1 for SGF, whose CA[] is set to say so);
- wrong-ca (SGF): re-encoded as above, with a CA[] that names another charset;
- glued: two files one after the other (for PGN also a second game whose tags are left out);
- nul-insert / nul-append: NUL bytes put inside the file or after its end.
Each mutant is read as the app opens a file (`open_collection`, then every game), in a worker
process with a per-file timeout (a hang is counted and the worker started again), and classified:
- fine: read as the original is (game count, players, main-line moves) and no new warning;
- warned: a warning the original does not have (whether or not the reading changed);
- refused: GameFileError, a one-line message naming the file;
- crash: any other exception;
- hang: no answer within the timeout;
- silent wrong: a validity-preserving mutant (reencode, wrong-ca, glued, nul-append) read
  differently from the original, without a warning;
- silent change: a damaging mutant (truncate, byte-flip, nul-insert) read differently, without a
  warning (often nothing could tell: a changed letter in a name).
It prints a table of counts per mutation kind and outcome, then lists the silent wrong reads and
crashes with the files they came from (kept under <tmp>/reviewer-mutants/ for a look).
Run: nice -n 10 .venv/bin/python benchmarks/format_mutants.py [--count 300] [--seed 7] [--timeout 20]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import shutil
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

CORPUS = Path(os.environ.get("REVIEWER_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "corpus"
KINDS = ("truncate", "byte-flip", "reencode", "wrong-ca", "glued", "nul-insert", "nul-append")
PRESERVING = {"reencode", "wrong-ca", "glued", "nul-append"}
OUTCOMES = ("fine", "warned", "refused", "crash", "hang", "silent wrong", "silent change")
PGN_CODECS = ("utf-8-sig", "utf-16", "utf-16-le", "cp1252", "cp1251", "cp1250", "iso8859-15", "gb18030")
SGF_CODECS = ("utf-8-sig", "utf-16", "gb18030", "cp949", "cp932", "big5", "latin-1")
CA_NAMES = {
    "utf-8-sig": "UTF-8",
    "utf-16": "UTF-16",
    "gb18030": "GB18030",
    "cp949": "EUC-KR",
    "cp932": "Shift_JIS",
    "big5": "Big5",
    "latin-1": "ISO-8859-1",
}
_CA = re.compile(rb"CA\[[^\]]*\]")
_GAME_NUMBER = re.compile(r"^game \d+: ")
# A PGN whose last game ends with a result token (a game glued after it without tags is its own).
_ENDS_WITH_RESULT = re.compile(rb"(?:^|\s)(?:1-0|0-1|1/2-1/2|\*)\s*\Z")


# ---------------------------------------------------------------- reading (in the worker)


def read_as_the_app_does(path: str) -> dict[str, Any]:
    """What Reviewer makes of a file: its games (players, main-line moves) and every warning."""
    from reviewer.core.errors import GameFileError
    from reviewer.core.formats import open_collection

    try:
        collection = open_collection(path)
        games = []
        warnings = [warning.replace(path, "<file>") for warning in collection.warnings]
        for index in range(len(collection)):
            game = collection.game(index)
            moves = tuple(f"{node.color}:{node.move or node.uci or node.point}" for node in game.mainline_nodes())
            games.append((game.white, game.black, moves))
            warnings += [_GAME_NUMBER.sub("", warning.replace(path, "<file>")) for warning in game.warnings]
    except GameFileError as error:
        return {"outcome": "refused", "message": str(error).replace(path, "<file>")}
    except Exception as error:  # what the benchmark looks for
        last = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{Path(last.filename).name}:{last.lineno}"
        return {"outcome": "crash", "message": f"{type(error).__name__}: {error} ({where})"}
    return {"outcome": "read", "games": games, "warnings": sorted(set(warnings)), "encoding": collection.encoding}


def _serve(connection: Connection) -> None:
    while True:
        path = connection.recv()
        if path is None:
            return
        connection.send(read_as_the_app_does(path))


class Reader:
    """A worker process that reads files one at a time; one that hangs is ended and replaced."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._start()

    def _start(self) -> None:
        self._connection, child = multiprocessing.Pipe()
        self._process = multiprocessing.Process(target=_serve, args=(child,), daemon=True)
        self._process.start()

    def read(self, path: Path) -> dict[str, Any]:
        self._connection.send(str(path))
        if self._connection.poll(self.timeout_s):
            try:
                return dict(self._connection.recv())
            except EOFError:  # the worker died (a crash in C code, out of memory)
                self._process.join()
                self._start()
                return {"outcome": "crash", "message": f"the reader process died (exit {self._process.exitcode})"}
        self._process.kill()
        self._process.join()
        self._start()
        return {"outcome": "hang", "message": f"no answer in {self.timeout_s:g} s"}

    def close(self) -> None:
        self._connection.send(None)
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()


# ---------------------------------------------------------------- mutants


@dataclass
class Mutant:
    kind: str
    source: str  # the corpus file(s) it was made from
    data: bytes
    expected: dict[str, Any] | None = None  # the reading it should have (None: the source's)
    detail: str = ""


def _text_of(path: Path, reading_encoding: str | None) -> str | None:
    data = path.read_bytes()
    for codec in (reading_encoding, "utf-8"):
        if not codec:
            continue
        try:
            return data.decode(codec).lstrip("\ufeff")
        except (UnicodeDecodeError, LookupError):
            continue
    return None


def _encodable(text: str, codec: str) -> bytes | None:
    try:
        return text.encode(codec)
    except UnicodeEncodeError:
        return None


def _reencode(rng: random.Random, path: Path, text: str, fmt: str, wrong: bool) -> Mutant | None:
    choices = [codec for codec in (PGN_CODECS if fmt == "pgn" else SGF_CODECS) if _encodable(text, codec)]
    if not choices:
        return None
    codec = rng.choice(choices)
    if fmt == "sgf":
        names = [name for key, name in CA_NAMES.items() if key != codec] if wrong else [CA_NAMES.get(codec, "UTF-8")]
        declared = rng.choice(names)
        body = re.sub(r"CA\[[^\]]*\]", f"CA[{declared}]", text) if "CA[" in text else text.replace("(;", f"(;CA[{declared}]", 1)
        data = _encodable(body, codec)
        if data is None:
            return None
        return Mutant("wrong-ca" if wrong else "reencode", path.name, data, detail=f"{codec}, CA[{declared}]")
    data = text.encode(codec)
    return Mutant("reencode", path.name, data, detail=codec)


def make_mutant(
    rng: random.Random, kind: str, formats: list[str], files: list[Path], readings: dict[Path, dict[str, Any]]
) -> Mutant | None:
    fmt = rng.choice(formats) if kind != "wrong-ca" else "sgf"
    pool = [path for path in files if path.suffix == f".{fmt}" and readings[path]["outcome"] == "read"]
    if kind in ("reencode", "wrong-ca"):  # a re-encoding tells only where the text is not ASCII
        with_text = [path for path in pool if not path.read_bytes().isascii()]
        pool = with_text if with_text and rng.random() < 0.8 else pool
    path = rng.choice(pool)
    data = path.read_bytes()
    if kind == "truncate":
        at = rng.randrange(1, max(2, len(data)))
        return Mutant(kind, path.name, data[:at], detail=f"cut at byte {at} of {len(data)}")
    if kind == "byte-flip":
        mutated = bytearray(data)
        spots = sorted(rng.randrange(len(data)) for _ in range(rng.randint(1, 3)))
        for spot in spots:
            mutated[spot] ^= rng.randint(1, 255)
        return Mutant(kind, path.name, bytes(mutated), detail=f"bytes {spots}")
    if kind in ("reencode", "wrong-ca"):
        text = _text_of(path, readings[path].get("encoding"))
        if text is None:
            return None
        return _reencode(rng, path, text, fmt, wrong=kind == "wrong-ca")
    if kind == "glued":
        other = rng.choice(pool)
        first, second = readings[path], readings[other]
        if rng.random() < 0.5 or fmt == "sgf" or not _ENDS_WITH_RESULT.search(data):
            glue = b"\n\n" if fmt == "pgn" else b"\n"
            expected = {"games": first["games"] + second["games"], "warnings": first["warnings"] + second["warnings"]}
            return Mutant(kind, f"{path.name} + {other.name}", data.rstrip() + glue + other.read_bytes(), expected)
        # the second file's first game without its tags, after the first file's last result
        movetext = _first_movetext(other.read_bytes())
        if movetext is None or not second["games"] or not second["games"][0][2]:
            return None  # a game without moves (a lone result) after a result is no game
        moves = second["games"][0][2]
        expected = {"games": first["games"] + [("", "", moves)], "warnings": first["warnings"] + second["warnings"]}
        return Mutant(kind, f"{path.name} + {other.name} (no tags)", data.rstrip() + b"\n\n" + movetext, expected)
    if kind == "nul-insert":
        at = rng.randrange(len(data))
        count = rng.randint(1, 8)
        return Mutant(kind, path.name, data[:at] + b"\x00" * count + data[at:], detail=f"{count} at byte {at}")
    if kind == "nul-append":
        count = rng.choice((1, 16, 4096))
        return Mutant(kind, path.name, data + b"\x00" * count, detail=f"{count} after the end")
    raise ValueError(kind)


def _first_movetext(data: bytes) -> bytes | None:
    """The movetext of a PGN's first game (up to the next tag section), without its tags."""
    match = re.search(rb"\n\s*\n(?!\s*\[)(.*?)(?=\n\s*\n\s*\[|\Z)", data, re.DOTALL)
    if match is None or not match.group(1).strip():
        return None
    return match.group(1).strip() + b"\n"


# ---------------------------------------------------------------- classifying


def classify(mutant: Mutant, got: dict[str, Any], original: dict[str, Any]) -> str:
    if got["outcome"] != "read":
        return str(got["outcome"])
    expected = mutant.expected or original
    new_warnings = set(got["warnings"]) - set(expected["warnings"])
    if new_warnings:
        return "warned"
    if got["games"] == expected["games"]:
        return "fine"
    return "silent wrong" if mutant.kind in PRESERVING else "silent change"


def _difference(got: dict[str, Any], expected: dict[str, Any]) -> str:
    ours, theirs = got["games"], expected["games"]
    if len(ours) != len(theirs):
        return f"{len(ours)} games for {len(theirs)}"
    for number, (game, wanted) in enumerate(zip(ours, theirs, strict=True), start=1):
        if game[:2] != wanted[:2]:
            return f"game {number}: players {game[0]!r} / {game[1]!r}, not {wanted[0]!r} / {wanted[1]!r}"
        if game[2] != wanted[2]:
            return f"game {number}: {len(game[2])} moves for {len(wanted[2])}"
    return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="mutants in all (default 300)")
    parser.add_argument("--seed", type=int, default=7, help="the random seed (default 7)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a file may take to read (default 20)")
    parser.add_argument("--max-bytes", type=int, default=400_000, help="corpus files larger than this are left out")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"mutation kinds, comma-separated ({', '.join(KINDS)})")
    parser.add_argument("--formats", default="pgn,sgf", help="pgn, sgf or both (default pgn,sgf)")
    parser.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "reviewer-mutants")
    args = parser.parse_args()
    formats = [fmt for fmt in args.formats.split(",") if fmt in ("pgn", "sgf")]
    kinds = [kind for kind in args.kinds.split(",") if kind and (kind != "wrong-ca" or "sgf" in formats)]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")

    rng = random.Random(args.seed)
    files = sorted(
        path
        for folder in ("pgn", "sgf")
        for path in (CORPUS / folder).glob(f"*.{folder}")
        if path.stat().st_size <= args.max_bytes
    )
    shutil.rmtree(args.keep, ignore_errors=True)
    args.keep.mkdir(parents=True)
    reader = Reader(args.timeout)
    started = time.perf_counter()
    try:
        readings = {path: reader.read(path) for path in files}
        table: dict[str, Counter[str]] = {kind: Counter() for kind in kinds}
        listed: list[str] = []
        changed: list[str] = []
        refused_valid: list[str] = []
        for number in range(args.count):
            kind = kinds[number % len(kinds)]
            mutant = None
            while mutant is None:
                mutant = make_mutant(rng, kind, formats, files, readings)
            suffix = ".sgf" if ".sgf" in mutant.source else ".pgn"
            path = args.keep / f"{number:04d}-{kind}{suffix}"
            path.write_bytes(mutant.data)
            original = readings[next(p for p in files if p.name == mutant.source.split(" ")[0])]
            got = reader.read(path)
            outcome = classify(mutant, got, original)
            table[kind][outcome] += 1
            if outcome in ("silent wrong", "crash", "hang", "silent change"):
                detail = got.get("message") or _difference(got, mutant.expected or original)
                line = f"{outcome:13} {path.name:24} from {mutant.source} [{mutant.detail}]: {detail}"
                (changed if outcome == "silent change" else listed).append(line)
            elif outcome == "refused" and kind in PRESERVING:
                refused_valid.append(f"refused       {path.name:24} from {mutant.source} [{mutant.detail}]: {got.get('message')}")
    finally:
        reader.close()
    elapsed = time.perf_counter() - started

    width = max(len(kind) for kind in kinds) + 2
    print(f"{args.count} mutants of {len(files)} corpus files, seed {args.seed}, {elapsed:.0f} s")
    print("kind".ljust(width) + "".join(f"{outcome:>15}" for outcome in OUTCOMES))
    for kind in kinds:
        print(kind.ljust(width) + "".join(f"{table[kind][outcome]:>15}" for outcome in OUTCOMES))
    totals = sum(table.values(), Counter())
    print("all".ljust(width) + "".join(f"{totals[outcome]:>15}" for outcome in OUTCOMES))
    if listed:
        print(f"\nSilent wrong reads, crashes and hangs (the files are in {args.keep}):")
        for line in listed:
            print("  " + line)
    if refused_valid:
        print("\nValid files refused (the mutation kept the game readable):")
        for line in refused_valid:
            print("  " + line)
    if changed:
        print("\nDamaged files read differently without a warning (some damage no reader can tell):")
        for line in changed:
            print("  " + line)


if __name__ == "__main__":
    main()
