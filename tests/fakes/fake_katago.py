"""A tiny stand-in for `katago analysis`: reads JSON queries on stdin, answers real analysis JSON.

Values are made up but fixed per position (a checksum of the moves), given from Black's view
inside and reported the way `reportAnalysisWinratesAs` asks (the query's overrideSettings,
else --report-as). Switches make it misbehave the ways KataGo can:

  --shuffle              answer the turns of a query in a shuffled order
  --partial N            send N isDuringSearch results (with absurd values) before each final one
  --crash-after N        exit abruptly after N final results (only once with --crash-marker FILE)
  --garbage              mix in lines that are not JSON, JSON without an id, results for unknown ids
  --error MESSAGE        answer every analysis query with {"error": MESSAGE, "field": "moves", "id": ...}
  --general-error MSG    answer every analysis query with {"error": MSG} (no id)
  --warning MESSAGE      send a warning for every analysis query, then the results
  --report-as WHO        BLACK (default), WHITE or SIDETOMOVE when the query does not say
  --delay S              seconds per position (a terminate cuts the rest short)
  --startup-delay S      seconds before reading stdin
  --exit-on-start        print a KataGo-like failure on stderr and exit 1
  --killed-in-handshake  be killed (SIGKILL) on reading the first query, before answering it;
                         with --killed-marker FILE only while FILE does not exist (it is made)
  --started-log FILE     append a line to FILE each time the process starts
  --tuning-file PATH     unless PATH exists: say so the way KataGo does, "autotune", then hang
  --log FILE             append every line received to FILE
  --version V            what query_version answers (default 1.18.1)
  --max-board N          refuse bigger boards as KataGo does (default 19, its usual build)
  --deeper-shift T:P     a search of more than 4 visits finds Black's lead after T moves P points
                         higher (repeatable): a deeper search that changes a move's label
  --ownership-follows-lead  the left half of the ownership map is Black's while Black leads and
                         White's otherwise (the right half is always White's)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import random
import signal
import sys
import threading
import time
import zlib

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

parser = argparse.ArgumentParser()
parser.add_argument("--shuffle", action="store_true")
parser.add_argument("--partial", type=int, default=0)
parser.add_argument("--crash-after", type=int, default=0)
parser.add_argument("--crash-marker", default="")
parser.add_argument("--garbage", action="store_true")
parser.add_argument("--error", default="")
parser.add_argument("--max-board", type=int, default=19)
parser.add_argument("--general-error", default="")
parser.add_argument("--warning", default="")
parser.add_argument("--report-as", default="BLACK")
parser.add_argument("--delay", type=float, default=0.0)
parser.add_argument("--startup-delay", type=float, default=0.0)
parser.add_argument("--exit-on-start", action="store_true")
parser.add_argument("--killed-in-handshake", action="store_true")
parser.add_argument("--killed-marker", default="")
parser.add_argument("--started-log", default="")
parser.add_argument("--tuning-file", default="")
parser.add_argument("--log", default="")
parser.add_argument("--version", default="1.18.1")
parser.add_argument("--ownership-follows-lead", action="store_true")
parser.add_argument("--deeper-shift", action="append", default=[])
options, _katago_args = parser.parse_known_args()

out_lock = threading.Lock()
jobs: queue.Queue[tuple[dict, int] | None] = queue.Queue()
terminated: set[str] = set()
finals_sent = 0


def emit(message: object) -> None:
    with out_lock:
        text = message if isinstance(message, str) else json.dumps(message)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def lead_black_of(query: dict, turn: int) -> float:
    """A made-up but fixed score for the position after `turn` moves."""
    moves = json.dumps([query.get("initialStones", []), query["moves"][:turn]])
    return (zlib.crc32(moves.encode()) % 41) / 2 - 10.25


def winrate_of(lead: float) -> float:
    return 1 / (1 + math.exp(-lead / 4))


def side_to_move(query: dict, turn: int) -> str:
    if turn == 0:
        return query.get("initialPlayer") or (query["moves"][0][0] if query["moves"] else "B")
    return "W" if query["moves"][turn - 1][0].upper() == "B" else "B"


def reported(lead_black: float, report_as: str, side: str) -> tuple[float, float]:
    flip = report_as == "WHITE" or (report_as == "SIDETOMOVE" and side == "W")
    lead = -lead_black if flip else lead_black
    return lead, winrate_of(lead)


def result(query: dict, turn: int, during_search: bool) -> dict:
    report_as = query.get("overrideSettings", {}).get("reportAnalysisWinratesAs", options.report_as)
    side = side_to_move(query, turn)
    lead_black = 999.0 if during_search else lead_black_of(query, turn)
    visits = query.get("maxVisits", 10)
    if visits > 4 and not during_search:
        lead_black += sum(float(p) for t, p in (item.split(":") for item in options.deeper_shift) if int(t) == turn)
    width = query["boardXSize"]
    infos = []
    for order, (col, row, prior) in enumerate(((2, 2, 0.5), (3, 3, 0.3), (4, 2, 0.2))):
        move = f"{COLUMNS[min(col, width - 1)]}{min(row, query['boardYSize'] - 1) + 1}"
        # The mover's candidates are worse for the mover the later they come.
        loss = 1.5 * order
        move_lead_black = lead_black - loss if side == "B" else lead_black + loss
        lead, winrate = reported(move_lead_black, report_as, side)
        infos.append(
            {"move": move, "order": order, "prior": prior, "visits": max(1, visits // (order + 2)),
             "scoreLead": lead, "scoreMean": lead, "winrate": winrate, "lcb": winrate,
             "utility": 0.0, "pv": [move, "pass"]}
        )
    lead, winrate = reported(lead_black, report_as, side)
    answer = {
        "id": query["id"], "isDuringSearch": during_search, "turnNumber": turn, "moveInfos": infos,
        "rootInfo": {"currentPlayer": side, "scoreLead": lead, "winrate": winrate, "visits": visits,
                     "utility": 0.0, "thisHash": "0", "symHash": "0"},
    }
    height = query["boardYSize"]
    flip = report_as == "WHITE" or (report_as == "SIDETOMOVE" and side == "W")
    if query.get("includeOwnership"):
        # Rows from the top, as KataGo sends them: Black owns the left half, White the right.
        left = 0.9 if not options.ownership_follows_lead or lead_black > 0 else -0.9
        black_view = [left if col < width // 2 else -0.9 for _row in range(height) for col in range(width)]
        answer["ownership"] = [-v if flip else v for v in black_view]
    if query.get("includePolicy"):
        # The top-left point is the network's favourite; the bottom-right one is illegal; pass last.
        policy = [0.01] * (width * height) + [0.02]
        policy[0], policy[width * height - 1] = 0.5, -1.0
        answer["policy"] = policy
    return answer


def work() -> None:
    global finals_sent
    while True:
        job = jobs.get()
        if job is None:
            return
        query, turn = job
        if query["id"] in terminated:
            emit({"id": query["id"], "isDuringSearch": False, "noResults": True, "turnNumber": turn})
            continue
        if options.garbage:
            emit("this is not json {")
            emit("[1, 2, 3]")
            emit({"note": "a dictionary without an id"})
            emit({**result(query, turn, False), "id": "someone-else"})
        for _ in range(options.partial):
            emit(result(query, turn, True))
        waited = 0.0
        while waited < options.delay and query["id"] not in terminated:
            time.sleep(0.02)
            waited += 0.02
        if query["id"] in terminated and waited < options.delay:
            emit({"id": query["id"], "isDuringSearch": False, "noResults": True, "turnNumber": turn})
            continue
        emit(result(query, turn, False))
        finals_sent += 1
        marker = options.crash_marker
        if options.crash_after and finals_sent >= options.crash_after and not (marker and os.path.exists(marker)):
            if marker:  # crash once only
                with open(marker, "w") as handle:
                    handle.write("crashed\n")
            sys.stderr.write("fake katago: crashing on purpose\n")
            sys.stderr.flush()
            os._exit(3)


def handle(line: str) -> None:
    try:
        query = json.loads(line)
    except ValueError:
        emit({"error": f"could not parse input line as json request: {line[:50]}"})
        return
    action = query.get("action")
    if action == "query_version":
        emit({**query, "version": options.version, "git_hash": "<omitted>"})
        return
    if action == "terminate":
        terminated.add(query.get("terminateId", ""))
        emit(query)
        return
    for required in ("id", "moves", "rules", "boardXSize", "boardYSize"):
        if required not in query:
            emit({"error": f"{required} field was not specified", "field": required, "id": query.get("id", "")})
            return
    for field in ("boardXSize", "boardYSize"):
        if not 2 <= int(query[field]) <= options.max_board:
            emit({"error": f"Must provide an integer from 2 to {options.max_board}", "field": field, "id": query["id"]})
            return
    if options.general_error:
        emit({"error": options.general_error})
        return
    if options.error:
        emit({"error": options.error, "field": "moves", "id": query["id"]})
        return
    turns = query.get("analyzeTurns", [len(query["moves"])])
    for turn in turns:
        if not isinstance(turn, int) or not 0 <= turn <= len(query["moves"]):
            emit({"error": f"Invalid turn number: {turn}", "field": "analyzeTurns", "id": query["id"]})
            return
    if options.warning:
        emit({"warning": options.warning, "field": "rules", "id": query["id"]})
    turns = list(turns)
    if options.shuffle:
        random.Random(len(turns)).shuffle(turns)
        if turns == sorted(turns) and len(turns) > 1:
            turns.reverse()
    for turn in turns:
        jobs.put((query, turn))


def killed_in_handshake() -> bool:
    if not options.killed_in_handshake:
        return False
    marker = options.killed_marker
    if marker and os.path.exists(marker):
        return False
    if marker:
        with open(marker, "w") as marker_file:
            marker_file.write("killed\n")
    return True


def main() -> None:
    if options.started_log:
        with open(options.started_log, "a") as started_log:
            started_log.write("started\n")
    sys.stderr.write(f"KataGo v{options.version} (fake)\n")
    if options.exit_on_start:
        sys.stderr.write("Uncaught exception: could not open model file\n")
        sys.exit(1)
    if options.tuning_file:
        if not os.path.exists(options.tuning_file):
            sys.stderr.write(f"No existing tuning parameters found or parseable or valid at: {options.tuning_file}\n")
            sys.stderr.write("Performing autotuning\n")
            sys.stderr.flush()
            while True:
                sys.stderr.write("Tuning 0/55 (reference) Calls/sec 76.5\n")
                sys.stderr.flush()
                time.sleep(0.5)
        sys.stderr.write(f"Loaded tuning parameters from: {options.tuning_file}\n")
    time.sleep(options.startup_delay)
    sys.stderr.write("Started, ready to begin handling requests\n")
    sys.stderr.flush()
    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    log = open(options.log, "a") if options.log else None  # noqa: SIM115 (open while stdin is read)
    first = True
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if first and killed_in_handshake():
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        first = False
        if log:
            log.write(line + "\n")
            log.flush()
        handle(line)
    jobs.put(None)
    worker.join()


if __name__ == "__main__":
    main()
