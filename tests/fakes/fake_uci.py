"""A tiny UCI engine for tests: deterministic answers from the position, and switches to misbehave.

Evaluation (side to move's view): material difference in centipawns plus a small fixed offset
taken from the FEN; `mate 1` when a move mates at once. Best move: the mating move, else the legal
move with the smallest UCI text. Every search is one line `<FEN>` appended to --log.

Switches: --name NAME, --log FILE, --no-wdl, --garbage (junk lines around real ones),
--crash-after N (exit on the search after N searches of this process), --crash-after-total N
(exit once --log holds N searches, so restarts crash too), --hang-after N (go silent, ignore
stop), --search-ms MS (think this long, answer `stop` at once), --pv-plies N (lines of N moves), --exit-on-start (die at once),
--started-log FILE (append a line to FILE each time the process starts), --chess960 (offer the
UCI_Chess960 option and play Chess960 when it is set), --killed-on uci|isready (be killed with
SIGKILL on reading that command, before answering it; with --killed-marker FILE only while FILE does
not exist, which it then makes: the next process lives), --wait-for-stop-after-total N with
--release FILE (once --log holds N searches, search until `stop` comes, unless FILE exists).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import queue
import signal
import sys
import threading
import time
import zlib

import chess

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def score_cp(board: chess.Board) -> int:
    material = sum(
        VALUES[piece.piece_type] * (1 if piece.color == board.turn else -1) for piece in board.piece_map().values()
    )
    return material + zlib.crc32(board.epd().encode()) % 41 - 20


def line_from(board: chess.Board, move: chess.Move, plies: int) -> list[str]:
    """`move`, then the smallest legal move in UCI text, `plies` moves in all (fewer at a game's end)."""
    line, reply = [move.uci()], board.copy()
    reply.push(move)
    while len(line) < plies:
        follow = sorted(reply.legal_moves, key=lambda m: m.uci())
        if not follow:
            break
        line.append(follow[0].uci())
        reply.push(follow[0])
    return line


def lines_for(board: chess.Board, multipv: int) -> list[tuple[chess.Move, str]]:
    """(first move, score text) of each line, best first."""
    scored = []
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            text, value = "mate 1", 100_000
        else:
            value = -score_cp(board)
            text = f"cp {value}"
        board.pop()
        scored.append((-value, move.uci(), move, text))
    scored.sort()
    return [(move, text) for _, _, move, text in scored[:multipv]]


def wdl_for(text: str) -> str:
    kind, value = text.split()
    if kind == "mate":
        return "1000 0 0"
    cp = max(-1000, min(1000, int(value)))
    win = max(0, cp) // 2
    loss = max(0, -cp) // 2
    return f"{win} {1000 - win - loss} {loss}"


def log_search(path: str, fen: str, crash_after_total: int | None) -> int | None:
    """Append the search to the shared log and return its number (1 for the first); None (crash
    now) once the log holds `crash_after_total`. Counting and writing happen under one lock, as
    several fake processes share the file."""
    with open(path, "a+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        done = sum(1 for _ in handle)
        if crash_after_total is not None and done >= crash_after_total:
            return None
        handle.write(fen + "\n")
        return done + 1


def killed_now(marker: str | None) -> bool:
    """Whether to die now: always without a marker file; with one, only the first time."""
    if marker is None:
        return True
    if os.path.exists(marker):
        return False
    with open(marker, "w", encoding="utf-8") as handle:
        handle.write("killed\n")
    return True


def must_wait_for_stop(args: argparse.Namespace, search_number: int | None) -> bool:
    """With --wait-for-stop-after-total N: this is search N+1 or later of the shared log, and the
    --release file does not exist."""
    if args.wait_for_stop_after_total is None or search_number is None:
        return False
    if args.release and os.path.exists(args.release):
        return False
    return search_number > args.wait_for_stop_after_total


def parse_position(tokens: list[str], chess960: bool = False) -> chess.Board:
    if tokens[0] == "startpos":
        board, rest = chess.Board(chess960=chess960), tokens[1:]
    else:
        end = tokens.index("moves") if "moves" in tokens else len(tokens)
        board, rest = chess.Board(" ".join(tokens[1:end]), chess960=chess960), tokens[end:]
    if rest and rest[0] == "moves":
        for uci in rest[1:]:
            board.push_uci(uci)
    return board


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="FakeFish 1.0")
    parser.add_argument("--log")
    parser.add_argument("--no-wdl", action="store_true")
    parser.add_argument("--garbage", action="store_true")
    parser.add_argument("--crash-after", type=int)
    parser.add_argument("--crash-after-total", type=int)
    parser.add_argument("--hang-after", type=int)
    parser.add_argument("--search-ms", type=int, default=0)
    parser.add_argument("--pv-plies", type=int, default=2)
    parser.add_argument("--exit-on-start", action="store_true")
    parser.add_argument("--started-log")
    parser.add_argument("--chess960", action="store_true")
    parser.add_argument("--killed-on", choices=("uci", "isready"))
    parser.add_argument("--killed-marker")
    parser.add_argument("--wait-for-stop-after-total", type=int)
    parser.add_argument("--release")
    args = parser.parse_args()
    if args.started_log:
        with open(args.started_log, "a", encoding="utf-8") as handle:
            handle.write("started\n")
    if args.exit_on_start:
        return 3

    commands: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            commands.put(line.strip())
        commands.put(None)

    threading.Thread(target=read, daemon=True).start()
    board = chess.Board()
    multipv, show_wdl, play_chess960, searches = 1, False, False, 0
    while True:
        line = commands.get()
        if line is None or line == "quit":
            return 0
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] == args.killed_on and killed_now(args.killed_marker):
            os.kill(os.getpid(), signal.SIGKILL)
        if tokens[0] == "uci":
            if args.garbage:
                send("Welcome to FakeFish! ###")
            send(f"id name {args.name}")
            send("id author Nobody")
            send("option name Threads type spin default 1 min 1 max 64")
            send("option name Hash type spin default 16 min 1 max 1024")
            send("option name MultiPV type spin default 1 min 1 max 50")
            if not args.no_wdl:
                send("option name UCI_ShowWDL type check default false")
            if args.chess960:
                send("option name UCI_Chess960 type check default false")
            send("uciok")
        elif tokens[0] == "isready":
            send("readyok")
        elif tokens[0] == "setoption" and "name" in tokens and "value" in tokens:
            name = " ".join(tokens[tokens.index("name") + 1 : tokens.index("value")])
            value = " ".join(tokens[tokens.index("value") + 1 :])
            if name == "MultiPV":
                multipv = int(value)
            elif name == "UCI_ShowWDL":
                show_wdl = value == "true"
            elif name == "UCI_Chess960" and args.chess960:
                play_chess960 = value == "true"
        elif tokens[0] == "position":
            board = parse_position(tokens[1:], play_chess960)
        elif tokens[0] == "go":
            if args.crash_after is not None and searches >= args.crash_after:
                return 3
            if args.hang_after is not None and searches >= args.hang_after:
                while commands.get() not in (None, "quit"):
                    pass  # silent, even to `stop`
                return 0
            search_number = log_search(args.log, board.fen(), args.crash_after_total) if args.log else 0
            if search_number is None:
                return 3
            searches += 1
            if must_wait_for_stop(args, search_number):
                pending = commands.get()
                while pending not in ("stop", None, "quit"):
                    pending = commands.get()
                if pending != "stop":
                    return 0
            deadline = time.monotonic() + args.search_ms / 1000
            while time.monotonic() < deadline:
                try:
                    pending = commands.get(timeout=0.02)
                except queue.Empty:
                    continue
                if pending in ("stop", None, "quit"):
                    if pending != "stop":
                        commands.put(pending)
                    break
            if args.garbage:
                send("info score cp banana")
                send("!!! garbage ###")
            lines = lines_for(board, multipv)
            for index, (move, text) in enumerate(lines, start=1):
                wdl = f" wdl {wdl_for(text)}" if show_wdl else ""
                pv = " ".join(line_from(board, move, 1 if text == "mate 1" else args.pv_plies))
                send(f"info depth 5 seldepth 6 multipv {index} score {text}{wdl} nodes 1000 nps 100000 time 10 pv {pv}")
            best = lines[0][0].uci() if lines else "(none)"
            send(f"bestmove {best}")
        elif args.garbage:
            send("what?")


if __name__ == "__main__":
    sys.exit(main())
