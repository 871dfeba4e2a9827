"""The built-in Go engine against GNU Go over GTP: 9x9, Chinese rules, komi 7, colours alternating.

    nice -n 10 .venv/bin/python benchmarks/gnugo_match.py --games 100 --playouts 20000 --workers 2 \
        --log benchmarks/data/gnugo_match.jsonl

GNU Go runs as `gnugo --mode gtp --level 10 --chinese-rules --capture-all-dead --komi 7` (with its
own seed per game); the built-in engine plays in this process
(reviewer/core/engines/builtin_go/player.py: it passes only when the game is settled and resigns
below `--resign-below` to win). Even-numbered games give the built-in engine Black. A game ends
after two passes, a resignation, or at `--max-moves`.

Scoring is Tromp-Taylor, as GNU Go's manual describes its `--capture-all-dead --chinese-rules`
combination: the game is played out until the dead stones are off the board, then the board is
counted by area (stones plus empty regions that touch one colour only), komi included. Neither
player judges the other's stones dead: where the two disagree, they play it out. GNU Go's own
`final_score` (its estimate of the dead stones) is recorded beside the count, and the summary says
in how many games the two name different winners. Each finished game is appended to `--log` as
one JSON line, and `--summary-only` prints the summary of a log (of a run that was stopped, say)
without playing.

Prints the engine's points/games (a jigo counts one half) with a 95% Wilson interval, wins by
colour, and mean margins.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from intervals import wilson  # noqa: E402

from reviewer.core.engines.builtin_go.engine import _mix_seed  # noqa: E402
from reviewer.core.engines.builtin_go.player import PASS_MOVE, RESIGN_MOVE, GamePlayer  # noqa: E402

BOARD = 9
KOMI = 7.0
MAX_MOVES = 250
RESIGN_AFTER = 30


def gnugo_command(level: int) -> list[str]:
    binary = shutil.which("gnugo") or "/usr/games/gnugo"
    return [binary, "--mode", "gtp", "--level", str(level), "--chinese-rules", "--capture-all-dead", "--komi", f"{KOMI:g}"]


class GtpError(RuntimeError):
    pass


class Gtp:
    """A GTP engine in a subprocess: one command, one answer."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
        )

    def send(self, command: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines: list[str] = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise GtpError(f"the engine closed during {command!r}")
            line = line.rstrip("\r\n")
            if not line:
                if lines:
                    break
                continue
            lines.append(line)
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise GtpError(f"{command!r}: {answer[1:].strip()}")
        return answer.lstrip("=").strip()

    def close(self) -> None:
        try:
            self.send("quit")
        except (GtpError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


def parse_final_score(text: str) -> float:
    """GTP final_score ("B+3.0", "W+1.0", "0") as Black's margin."""
    text = text.strip().upper()
    if text in {"0", "JIGO", "DRAW"}:
        return 0.0
    sign = 1.0 if text.startswith("B+") else -1.0 if text.startswith("W+") else None
    if sign is None:
        raise GtpError(f"unexpected final_score {text!r}")
    return sign * float(text[2:])


def play_game(task: tuple[int, int, int, int, int, float] | tuple[int, int, int, int, int, float, dict[str, bool]]) -> dict:
    """One game. task = (index, playouts, seed, gnugo level, max moves, resign threshold[, search options])."""
    index, playouts, seed, level, max_moves, resign_below = task[:6]
    search_options = task[6] if len(task) > 6 else {}  # type: ignore[misc]
    ours = "black" if index % 2 == 0 else "white"
    player = GamePlayer(BOARD, komi=KOMI, rules="chinese", playouts=playouts, seed=_mix_seed(seed, index),
                        resign_below=resign_below, resign_after=RESIGN_AFTER, **search_options)
    gnugo = Gtp([*gnugo_command(level), "--seed", str(1 + index)])
    started = time.perf_counter()
    try:
        gnugo.send(f"boardsize {BOARD}")
        gnugo.send("clear_board")
        gnugo.send(f"komi {KOMI:g}")
        color = "black"
        passes = 0
        resigned = None
        moves: list[str] = []
        while len(moves) < max_moves and passes < 2:
            if color == ours:
                move = player.genmove(color).move
                if move == RESIGN_MOVE:
                    resigned = color
                    break
                gnugo.send(f"play {color} {move}")
            else:
                move = gnugo.send(f"genmove {color}").lower()
                if move == RESIGN_MOVE:
                    resigned = color
                    break
                player.play(color, move)
            moves.append(move)
            passes = passes + 1 if move == PASS_MOVE else 0
            color = "white" if color == "black" else "black"
        board_margin_black = player.position.lead_black()
        if resigned is not None:
            winner = "white" if resigned == "black" else "black"
            margin_black = gnugo_margin_black = None
        else:
            margin_black = board_margin_black  # Tromp-Taylor: the played-out board, counted by area
            gnugo_margin_black = parse_final_score(gnugo.send("final_score"))
            winner = "black" if margin_black > 0 else "white" if margin_black < 0 else "jigo"
        return {
            "index": index, "ours": ours, "winner": winner, "resigned": resigned, "moves": len(moves),
            "ended": "resign" if resigned else "passes" if passes >= 2 else "move cap",
            "margin_black": margin_black, "gnugo_margin_black": gnugo_margin_black,
            "board_margin_black": board_margin_black,
            "seconds": round(time.perf_counter() - started, 1), "record": " ".join(moves),
        }
    finally:
        gnugo.close()


def _margin(result: dict) -> float | None:
    """Black's margin by the match's count (logs of the earlier GNU Go-judged runs: final_score)."""
    return result.get("margin_black", result["gnugo_margin_black"])


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def summarise(results: list[dict]) -> list[str]:
    games = len(results)
    points = sum(1.0 if r["winner"] == r["ours"] else 0.5 if r["winner"] == "jigo" else 0.0 for r in results)
    low, high = wilson(points, games)
    lines = [f"built-in engine vs GNU Go: {points:g}/{games} = {points / max(1, games):.1%}, 95% Wilson [{low:.1%}, {high:.1%}]"]
    for colour in ("black", "white"):
        ours = [r for r in results if r["ours"] == colour]
        won = sum(r["winner"] == colour for r in ours)
        lines.append(f"  as {colour.capitalize()}: {won}/{len(ours)}")
    for label, selected in (("won", [r for r in results if r["winner"] == r["ours"]]),
                            ("lost", [r for r in results if r["winner"] not in (r["ours"], "jigo")])):
        scored = [r for r in selected if _margin(r) is not None]
        margins = [abs(_margin(r)) for r in scored]
        resigned = len(selected) - len(scored)
        mean = f"mean margin {sum(margins) / len(margins):.1f} points over {len(margins)} counted" if margins else "none counted"
        lines.append(f"  games {label}: {len(selected)} ({mean}, {resigned} by resignation)")
    counted = [r for r in results if r["gnugo_margin_black"] is not None]
    disagree = sum(_sign(r["gnugo_margin_black"]) != _sign(r["board_margin_black"]) for r in counted)
    lines.append(f"  winner by GNU Go's final_score (its guess of the dead stones) vs the Tromp-Taylor count: "
                 f"{len(counted) - disagree}/{len(counted)} agree")
    capped = sum(r.get("ended") == "move cap" for r in results)
    if capped:
        lines.append(f"  {capped} game{'s' if capped != 1 else ''} reached the move cap, counted as it stood")
    if results:
        lines.append(f"  mean length {sum(r['moves'] for r in results) / games:.0f} moves, "
                     f"mean {sum(r['seconds'] for r in results) / games:.0f} s per game")
    return lines


def read_log(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--playouts", type=int, default=20_000, help="built-in engine playouts per move")
    parser.add_argument("--workers", type=int, default=1, help="games played at once (one process each)")
    parser.add_argument("--level", type=int, default=10, help="GNU Go level")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-moves", type=int, default=MAX_MOVES)
    parser.add_argument("--resign-below", type=float, default=0.05,
                        help=f"the built-in engine resigns below this chance to win, after move {RESIGN_AFTER} (0: never)")
    parser.add_argument("--first-game", type=int, default=0, help="index of the first game (colours by parity)")
    parser.add_argument("--search", action="append", default=[], metavar="NAME=0|1",
                        help="a search option of the built-in engine (engine.Searcher), e.g. ladders=1")
    parser.add_argument("--log", type=Path, help="append each finished game here as a JSON line")
    parser.add_argument("--summary-only", action="store_true", help="print the summary of --log and stop")
    args = parser.parse_args()

    if args.summary_only:
        if args.log is None:
            parser.error("--summary-only needs --log")
        print("\n".join(summarise(read_log(args.log))))
        return 0
    if shutil.which("gnugo") is None and not Path("/usr/games/gnugo").exists():
        print("gnugo not found: install it (packaging/install-system-deps.sh, or apt-get install gnugo)", file=sys.stderr)
        return 2
    options = {name: value.strip() not in ("0", "false", "no") for name, _, value in (o.partition("=") for o in args.search)}
    if options:
        print(f"built-in engine search options: {options}")
    print(f"{args.games} games, 9x9, komi {KOMI:g}, Chinese rules; built-in engine at {args.playouts} playouts/move "
          f"vs {' '.join(gnugo_command(args.level)[1:])}", flush=True)
    tasks = [(i, args.playouts, args.seed, args.level, args.max_moves, args.resign_below, options)
             for i in range(args.first_game, args.first_game + args.games)]
    results: list[dict] = []

    def record(result: dict) -> None:
        results.append(result)
        if args.log is not None:
            with args.log.open("a") as log:
                log.write(json.dumps(result) + "\n")
        margin = result["margin_black"]
        how = (f"by resignation of {result['resigned']}" if margin is None
               else f"counted B{margin:+g}, GNU Go's final_score B{result['gnugo_margin_black']:+g}")
        print(f"game {result['index']}: ours {result['ours']}, winner {result['winner']} ({how}, "
              f"{result['moves']} moves, {result['seconds']:.0f} s)", flush=True)

    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for future in as_completed([pool.submit(play_game, t) for t in tasks]):
                record(future.result())
    else:
        for task in tasks:
            record(play_game(task))
    results.sort(key=lambda r: r["index"])
    print("\n".join(summarise(results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
