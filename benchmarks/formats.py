"""How fast a big PGN lists its games: Reviewer's index against python-chess's `read_headers` loop.

The big files are built from real games of the shared corpus (never from invented ones), by kind:
- eval-clock: lichess broadcast games with `[%eval]`/`[%clk]` on every move (scalachess FWWRC);
- twic: short games and few comments, as The Week in Chess publishes them (mliebelt's TWIC file
  and pgn-read's twic92n files);
- annotated: games with long comments and nested variations (Navara's WCC 2023 notes, chesslib's
  RAV and longest-game files).
Each is repeated up to the asked size and kept under <tmp>/reviewer-bench/ for the next run. Each
measurement runs in a process of its own, which reports its peak RSS; files under 200 MB are
measured `--repeats` times (bigger ones `--big-repeats` times), Reviewer and python-chess in turn,
and the fastest of each counts:
- reviewer: `open_collection(path)` (every game listed: offsets + the shown tags) with an empty
  cache, then the same file opened again (from the cached index), then one game opened; the tag
  blocks found by the compiled scanner (`_pgn_blocks.c`), and once more for the twic file by the
  Python scan that a build without a C compiler falls back to;
- python-chess: `chess.pgn.read_headers` over the whole file (the library's fastest listing).
A small synthetic file (the same invented game 100 000 times) is one more line, for comparison
with older figures only. Last, the game chooser's model over a million rows (the TWIC file's games
repeated): showing them, sorting by a column, filtering by one word and by two.
Go: an SGF collection of `--sgf-mb` MB (default 50) of real Tygem games, one after another from the
shared big set `bigsets/go-tygem.sgf.xz` (one game a line); the same file with its first game's
closing parenthesis removed (an unterminated game before all the others); and the same in CP949
without CA[]. For each: `open_collection` (every game found and its root read), peak RSS, every
game's summary (what the game chooser shows), one game's moves, and `reviewer report` on game 1
(which has no evaluations to score).
Run: nice -n 10 .venv/bin/python benchmarks/formats.py [--eval-mb 500] [--twic-mb 100] [--annotated-mb 100]
         [--big-repeats 1] [--chooser-rows 1000000] [--sgf-mb 50] [--sgf-only]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(os.environ.get("REVIEWER_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "corpus" / "pgn"
KINDS: dict[str, tuple[str, ...]] = {
    "eval-clock": ("scalachess__FWWRC_full_eval_clk.pgn",),
    "twic": (
        "mliebelt-pgn-parser__twic-01-232games.pgn",
        *(f"pgn-read__twic92n_{n:02d}.pgn" for n in (1, 2, 3, 4, 5, 7, 8, 9, 11)),
        "pgn-read__twic95n_10.pgn",
    ),
    "annotated": (
        "scalachess__wcc2023_navara_annotated.pgn",
        "chesslib__rav_alternative.pgn",
        "chesslib__longest.pgn",
        "scalachess_fx__commentsAndVariations.pgn",
    ),
}
MOVES = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O"


def build_file(folder: Path, kind: str, megabytes: int) -> Path:
    """The corpus files of `kind`, one after another, repeated until the file has `megabytes` MB."""
    path = folder / f"{kind}-{megabytes}mb.pgn"
    if path.exists():
        return path
    unit = b"".join((CORPUS / name).read_bytes().strip() + b"\n\n" for name in KINDS[kind])
    repeats = max(1, megabytes * 1_000_000 // len(unit))
    partial = path.with_suffix(".part")
    with partial.open("wb") as handle:
        for _ in range(repeats):
            handle.write(unit)
    partial.replace(path)
    return path


def build_synthetic(folder: Path, games: int = 100_000) -> Path:
    path = folder / f"synthetic-{games}.pgn"
    if path.exists():
        return path
    with path.open("w", encoding="utf-8") as handle:
        for index in range(games):
            handle.write(
                f'[Event "Club {index % 97}"]\n[Site "?"]\n[Date "2024.01.{index % 28 + 1:02d}"]\n'
                f'[Round "{index}"]\n[White "Player {index % 1000}"]\n[Black "Player {(index * 7) % 1000}"]\n'
                f'[Result "1-0"]\n\n{MOVES} 1-0\n\n'
            )
    return path


BIGSETS = CORPUS.parents[1] / "bigsets"


def build_sgf_files(folder: Path, megabytes: int) -> tuple[Path, Path, Path]:
    """`megabytes` MB of whole Tygem games, the same with its first game left unterminated, and the
    same in CP949 without CA[] (the charset chosen from the bytes, a two-byte charset scanned)."""
    path = folder / f"tygem-{megabytes}mb.sgf"
    unterminated = folder / f"tygem-{megabytes}mb-unterminated.sgf"
    korean = folder / f"tygem-{megabytes}mb-cp949.sgf"
    if not path.exists():
        import lzma

        partial = path.with_suffix(".part")
        written = 0
        with lzma.open(BIGSETS / "go-tygem.sgf.xz", "rb") as source, partial.open("wb") as handle:
            for line in source:
                if written + len(line) > megabytes * 1_000_000:
                    break
                handle.write(line)
                written += len(line)
        partial.replace(path)
    if not unterminated.exists():
        data = path.read_bytes()
        first_end = data.index(b")\n")
        unterminated.write_bytes(data[:first_end] + data[first_end + 1 :])
    if not korean.exists():
        text = path.read_text(encoding="utf-8").replace("CA[UTF-8]", "")
        korean.write_bytes(text.encode("cp949", errors="replace"))
    return path, unterminated, korean


def _high_water_rss_mb() -> float:
    """This process's peak RSS since its program started (VmHWM; `ru_maxrss` of a child can carry
    its parent's peak from before the exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return _peak_rss_mb()


def child_sgf(path: str) -> dict[str, float]:
    from reviewer.core.formats import open_collection

    started = time.perf_counter()
    collection = open_collection(path)
    games = len(collection)
    listed_s = time.perf_counter() - started
    rss = _high_water_rss_mb()
    started = time.perf_counter()
    for index in range(games):
        collection.summary(index)
    summaries_s = time.perf_counter() - started
    started = time.perf_counter()
    collection.game(games // 2)
    one_game_s = time.perf_counter() - started
    return {"games": games, "seconds": listed_s, "rss_mb": rss, "summaries_s": summaries_s,
            "one_game_s": one_game_s, "rss_after_mb": _high_water_rss_mb()}


def report_seconds(path: Path) -> float:
    """Wall seconds of `reviewer report` on game 1 of `path` (it says there is nothing to score)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "reviewer", "report", str(path)], capture_output=True, check=False)
    return time.perf_counter() - started


def run_sgf(folder: Path, megabytes: int) -> None:
    print(f"{'SGF file':24} {'MB':>5} {'games':>7} {'list s':>7} {'RSS MB':>7} {'summaries s':>11} "
          f"{'1 game ms':>9} {'RSS after':>9} {'report s':>8}")
    for label, path in zip(("tygem", "tygem, 1st unterminated", "tygem, CP949, no CA"), build_sgf_files(folder, megabytes)):
        result = run_child("sgf", path)
        print(
            f"{label:24} {path.stat().st_size / 1e6:5.0f} {result['games']:7.0f} {result['seconds']:7.2f} "
            f"{result['rss_mb']:7.0f} {result['summaries_s']:11.2f} {result['one_game_s'] * 1000:9.1f} "
            f"{result['rss_after_mb']:9.0f} {report_seconds(path):8.2f}",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def child_reviewer(path: str, scanner: str = "compiled") -> dict[str, float]:
    with tempfile.TemporaryDirectory() as cache:
        os.environ["REVIEWER_CACHE_DIR"] = cache
        from reviewer.core.formats import open_collection, pgn_index

        if pgn_index._pgn_blocks is None:
            raise SystemExit("the compiled scanner is not built: pip install -e . builds it")
        if scanner == "python":  # the scan a build without a C compiler runs
            pgn_index._pgn_blocks = None  # type: ignore[assignment]

        started = time.perf_counter()
        collection = open_collection(path)
        games = len(collection)
        listed_s = time.perf_counter() - started
        rss = _peak_rss_mb()
        collection.wait_until_cached()  # type: ignore[attr-defined]
        started = time.perf_counter()
        again = open_collection(path)
        cached_s = time.perf_counter() - started
        assert len(again) == games
        started = time.perf_counter()
        collection.game(games // 2)
        one_game_s = time.perf_counter() - started
    return {"games": games, "seconds": listed_s, "cached_s": cached_s, "one_game_s": one_game_s, "rss_mb": rss}


def child_python_chess(path: str) -> dict[str, float]:
    import chess.pgn

    started = time.perf_counter()
    games = 0
    with open(path, encoding="utf-8", errors="replace") as handle:
        while chess.pgn.read_headers(handle) is not None:
            games += 1
    return {"games": games, "seconds": time.perf_counter() - started, "rss_mb": _peak_rss_mb()}


class _RepeatedColumns:
    """The games of a real file, listed `times` over: what the game chooser gets from a huge PGN."""

    index_complete = True

    def __init__(self, columns: dict[str, list[str]], times: int) -> None:
        self._columns = {name: values * times for name, values in columns.items()}

    def __len__(self) -> int:
        return len(self._columns["white"])

    def columns(self) -> dict[str, list[str]]:
        return self._columns

    def summary(self, index: int) -> object:
        raise NotImplementedError


def child_chooser(path: str, rows: int) -> dict[str, float]:
    """Seconds the game chooser's model takes to show, sort and filter `rows` games."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from reviewer.core.formats import open_collection
    from reviewer.gui.dialogs.game_chooser import GameSummaryModel

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as cache:
        os.environ["REVIEWER_CACHE_DIR"] = cache
        collection = open_collection(path)
        columns = collection.columns()  # type: ignore[attr-defined]
        collection.wait_until_cached()  # type: ignore[attr-defined]
    source = _RepeatedColumns(columns, max(1, rows // len(columns["white"])))
    name = columns["white"][len(columns["white"]) // 3].split(",")[0]
    times: dict[str, float] = {"rows": len(source)}
    started = time.perf_counter()
    model = GameSummaryModel(source)  # type: ignore[arg-type]
    times["show"] = time.perf_counter() - started
    for label, action in (
        ("sort_white", lambda: model.sort(1, Qt.SortOrder.AscendingOrder)),
        ("sort_white_again", lambda: model.sort(1, Qt.SortOrder.DescendingOrder)),
        ("sort_date", lambda: model.sort(4, Qt.SortOrder.DescendingOrder)),
        ("filter_first", lambda: model.set_filter(name)),
        ("filter_two_words", lambda: model.set_filter(f"{name} 1-0")),
        ("filter_clear", lambda: model.set_filter("")),
    ):
        started = time.perf_counter()
        action()
        times[label] = time.perf_counter() - started
    times["rss_mb"] = _peak_rss_mb()
    del app
    return times


def run_child(which: str, path: Path, *extra: str) -> dict[str, float]:
    output = subprocess.run(
        [sys.executable, __file__, "--child", which, str(path), *extra], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eval-mb", type=int, default=500)
    parser.add_argument("--twic-mb", type=int, default=100)
    parser.add_argument("--annotated-mb", type=int, default=100)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "reviewer-bench")
    parser.add_argument("--chooser-rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3, help="turns per file under 200 MB (the fastest counts)")
    parser.add_argument("--big-repeats", type=int, default=1, help="turns per file of 200 MB or more")
    parser.add_argument("--sgf-mb", type=int, default=50, help="size of the Go SGF collection")
    parser.add_argument("--sgf-only", action="store_true", help="measure the SGF collections only")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        which, path, *extra = args.child
        if which == "chooser":
            result = child_chooser(path, int(extra[0]))
        elif which == "sgf":
            result = child_sgf(path)
        elif which == "reviewer":
            result = child_reviewer(path, *extra)
        else:
            result = child_python_chess(path)
        print(json.dumps(result))
        return
    args.folder.mkdir(parents=True, exist_ok=True)
    run_sgf(args.folder, args.sgf_mb)
    if args.sgf_only:
        return
    files = [
        ("eval-clock", build_file(args.folder, "eval-clock", args.eval_mb)),
        ("twic", build_file(args.folder, "twic", args.twic_mb)),
        ("annotated", build_file(args.folder, "annotated", args.annotated_mb)),
        ("synthetic (extra)", build_synthetic(args.folder)),
    ]
    twic_python_scan = ("twic, Python scan", files[1][1], "python")
    print(f"{'file':18} {'MB':>6} {'games':>8} {'reviewer s':>10} {'chess s':>8} {'ratio':>6} "
          f"{'RSS MB':>7} {'chess RSS':>9} {'reopen ms':>9} {'1 game ms':>9}")
    for kind, path, *scanner in [*files, twic_python_scan]:
        # Turns taken one after the other, the fastest of each kept: the machine's load moves both alike.
        repeats = args.repeats if path.stat().st_size < 200e6 else args.big_repeats
        runs = [(run_child("reviewer", path, *scanner), run_child("python-chess", path)) for _ in range(repeats)]
        ours = min((run[0] for run in runs), key=lambda result: result["seconds"])
        theirs = min((run[1] for run in runs), key=lambda result: result["seconds"])
        size_mb = path.stat().st_size / 1e6
        print(
            f"{kind:18} {size_mb:6.0f} {ours['games']:8.0f} {ours['seconds']:10.2f} {theirs['seconds']:8.2f} "
            f"{theirs['seconds'] / ours['seconds']:5.1f}x {ours['rss_mb']:7.0f} {theirs['rss_mb']:9.0f} "
            f"{ours['cached_s'] * 1000:9.0f} {ours['one_game_s'] * 1000:9.1f}"
            + ("" if ours["games"] == theirs["games"] else f"  (python-chess lists {theirs['games']:.0f})"),
            flush=True,
        )
    print("the last line: Reviewer's scan in Python alone, as where its C scanner could not be built")
    print(f"ratio = python-chess time / Reviewer time; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    chooser = run_child("chooser", files[1][1], str(args.chooser_rows))
    print(
        f"game chooser, {chooser['rows']:,.0f} rows (the twic games repeated): show {chooser['show']:.2f} s, "
        f"sort by White {chooser['sort_white']:.2f} s (again {chooser['sort_white_again']:.2f} s), "
        f"by Date {chooser['sort_date']:.2f} s, filter one word {chooser['filter_first']:.2f} s "
        f"(first, builds the search text), two words {chooser['filter_two_words']:.2f} s, "
        f"clear {chooser['filter_clear']:.2f} s; peak RSS {chooser['rss_mb']:.0f} MB"
    )


if __name__ == "__main__":
    main()
