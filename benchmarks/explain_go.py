"""Why a Go move lost: how often each Go motif Reviewer names holds up, and what the explanations cost.

Run through benchmarks/explain.py:

    nice -n 15 .venv/bin/python benchmarks/explain.py build --go [--files A.sgf,B.gib]
    nice -n 15 .venv/bin/python benchmarks/explain.py score --go [--visits 64] [--max-moves N] [--compare-only]

`build --go` reviews real amateur games of the shared corpus (files nobody here wrote) the way
`reviewer analyze` and the app do: KataGo as installed by `reviewer engines install`, opened by the
engine registry, the default review in passes (`reviewer.core.passes.default_go_passes`: 2 visits
computed in-process, then 32 visits by KataGo with ownership maps on the moves that lost 2 points or
more), no cache; then it judges the game, builds its report and explains every inaccuracy, mistake
and blunder. Each flagged move goes to benchmarks/data/explain_go_positions.json: the file, ply,
colour and move (GTP), the judgement and loss, the motifs, text, line and focus Reviewer gave, each
claim with the points it names, and the review's evaluations before and after the move (lead, best
move, line, visits, the maps themselves). A game already stored is not reviewed again; --fresh
reviews the games named by --files (or the default ones) again and replaces their stored moves,
keeping the other games stored.
It prints the time of the review (analysis, judgement and report, KataGo's start apart) against the
time the explanations took.

`score --go` first explains each stored move again with this tree's explainer, from the review's
evaluations as stored (maps included), so that a changed detector is measured on the same review
without an engine; it prints the moves whose motifs changed. A move whose maps were not stored
(builds before they were) keeps the explanation stored at its build. Then it checks each claim by a
test that does not use the explainer's code: a deeper KataGo
search (`--visits`, with ownership maps) of the positions before and after the move, and the Go
rules of reviewer.core.games.go with liberties counted here:

  capture     the stones named are the mover's and the stored line, played by the rules, takes them
              (rules), and the deeper search gives them to the opponent (mean ownership from the
              mover's view <= -0.5 after the move) or its own line captures them too (deep)
  atari       the line's first move, played by the rules, leaves the named chain one liberty where it
              had more (rules), and the deeper search's best reply is that move or the chain goes to
              the opponent (deep)
  deadGroup   the named stones were the mover's before the move (mean >= 0 from the mover's view)
              and the opponent's after it (mean <= -0.5), both by the deeper search
  aliveGroup  the named stones were the mover's (captured, mean >= 0.5) before the move and not
              after it (mean <= 0), by the deeper search
  territory   the deeper search's ownership over the named area moves towards the opponent by at
              least half the points the text claims
  slow        the deeper search loses at least 3 points on the move and its best move before it is
              not the move played

Recall is counted where the deeper search finds the motif without Reviewer, among the flagged moves
that have both deep searches: a chain of the mover's (3 stones or more) that goes from the mover's
to the opponent's (deadGroup), a chain of the opponent's that goes from the mover's to the
opponent's (aliveGroup), the deeper search's line capturing stones of the mover's in its first 6
moves (capture), its best reply putting a chain of the mover's in atari (atari). The deep
evaluations are stored in benchmarks/data/explain_go_deep.json as they come (a run stopped goes on
where it stopped), and `score --go --compare-only` prints the table again from them without an
engine.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
CORPUS = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared")) / "corpus"
DATA = REPO_ROOT / "benchmarks" / "data" / "explain_go_positions.json"
DEEP = REPO_ROOT / "benchmarks" / "data" / "explain_go_deep.json"
# Amateur games (kyu players, one shodan) with many mistakes, 19x19, and one 9x9 game.
DEFAULT_FILES = (
    "sabaki__utf8.gib",
    "sabaki-sgf__fox_go_server.sgf",
    "sabaki__shodan_game.sgf",
    "katrain__xmgt97.sgf",
)
OWNED = 0.5
SLOW_LOSS = 3.0
RECALL_CHAIN = 3  # stones: smaller chains changing hands are not counted for recall
RECALL_LINE = 6  # moves of the deeper line looked at for captures

Point = tuple[int, int]


# ------------------------------------------------------------------------------------------ build


def _gtp(point: Point | None, height: int) -> str:
    from reviewer.core.gametree import gtp_from_point

    return "pass" if point is None else gtp_from_point(point, height)


def _summary(evaluation: Any) -> dict[str, Any] | None:
    if evaluation is None:
        return None
    return {
        "lead_black": evaluation.score_lead_first,
        "best_move": evaluation.best_move,
        "pv": list(evaluation.pv),
        "visits": evaluation.nodes,
        "review_pass": evaluation.review_pass,
        "maps": evaluation.ownership_first is not None,
        # what the explainer stood on, so that a changed detector can be run again without an engine
        "ownership_black": [round(v, 3) for v in evaluation.ownership_first] if evaluation.ownership_first else None,
        "policy": [round(v, 4) for v in evaluation.policy] if evaluation.policy else None,
    }


def claims(game: Any, ply: int, before: Any, after: Any) -> list[dict[str, Any]]:
    """Each thing the explainer found on the move, with the points it names (its `focus`), in the
    order of `explain_position` (the build checks the motifs against the explanation's)."""
    from reviewer.core.explain import go as explain
    from reviewer.core.games import rules_for

    rules = rules_for("go")
    node = game.node_at_ply(ply)
    position_before, position_after = rules.after(game, node.parent), rules.after(game, node)
    height = position_after.height
    steps = explain.replay(rules, position_after, after.pv if after is not None else ())
    tactics = explain._line_tactics(steps, node.color, height)
    maps = explain._maps(before, after, position_after.width * height)
    found: list[Any] = []
    if maps is not None:
        found.extend(explain._group_changes(position_after, node.color, *maps))
        if not found:
            area = explain._territory(position_after, node.color, *maps)
            if area is not None:
                found.append(area)
    found.extend(tactics)
    if not found and maps is not None:
        slow = explain._slow(position_before, node.point, before, after, node.color)
        if slow is not None:
            found.append(slow)
    return [{"motif": f.motif, "sentence": f.sentence, "points": [_gtp(p, height) for p in f.focus]} for f in found]


def _evaluation(ply: int, summary: dict[str, Any] | None) -> Any:
    """The review's evaluation as `_summary` stored it, maps included (rounded as stored)."""
    from reviewer.core.analysis import Evaluation

    if summary is None:
        return None
    own, policy = summary.get("ownership_black"), summary.get("policy")
    return Evaluation(ply=ply, kind="go", score_lead_first=summary["lead_black"], best_move=summary["best_move"],
                      pv=tuple(summary["pv"]), nodes=summary["visits"], review_pass=summary["review_pass"],
                      ownership_first=tuple(own) if own else None, policy=tuple(policy) if policy else None)


def reexplain(game: Any, move: dict[str, Any]) -> bool:
    """Explains a stored move again with this tree's explainer, from the review's evaluations as
    stored, and puts its motifs, text, line and claims in `move`; False (the stored explanation
    stays) where the review's maps were not stored, since the explanation then cannot be made again."""
    from reviewer.core.explain import explain_move

    stored_maps = [s for s in (move["before"], move["after"]) if s is not None and s.get("maps")]
    if any(s.get("ownership_black") is None for s in stored_maps):
        return False
    before, after = _evaluation(move["ply"] - 1, move["before"]), _evaluation(move["ply"], move["after"])
    why = explain_move(game, move["ply"], before, after, plain=True)
    move.update(motifs=list(why.motifs) if why else [], text=why.text if why else None,
                line=list(why.line) if why else [], focus=list(why.focus) if why else [],
                claims=claims(game, move["ply"], before, after))
    return True


def _load(path: Path) -> Any:
    from reviewer.core.formats import load_game

    return load_game(path)


def build(files: Sequence[str], fresh: bool) -> None:
    from reviewer.core.analysis import EvaluationTable
    from reviewer.core.engines.registry import open_engine
    from reviewer.core.explain import EXPLAINED_JUDGEMENTS, explain_assessed
    from reviewer.core.passes import default_go_passes
    from reviewer.core.report import build_report
    from reviewer.core.review import analyse_game
    from reviewer.core.scoring import assess_game

    stored: dict[str, Any] = json.loads(DATA.read_text()) if DATA.exists() else {"games": []}
    if fresh:  # the named games are reviewed again; the other stored games stay
        stored["games"] = [g for g in stored["games"] if g["file"] not in files]
    done = {g["file"] for g in stored["games"]}
    limit = default_go_passes().limit()
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; scheme {limit.scheme}", flush=True)
    for name in files:
        if name in done:
            continue
        game = _load(CORPUS / "sgf" / name)
        size = (game.board_width, game.board_height)
        started = time.perf_counter()
        engine = open_engine("go", board_size=size, fallback_to_builtin=False)
        start_s = time.perf_counter() - started
        try:
            started = time.perf_counter()
            table = EvaluationTable()
            passes: list[int] = []
            for evaluation in analyse_game(game, engine, limit, threading.Event(),
                                           on_pass=lambda start, seen=passes: seen.append(start.positions)):
                table.add(evaluation)
            assessment = assess_game(game, table)
            review_s = time.perf_counter() - started
            started = time.perf_counter()
            build_report(game, table, assessment)  # with the explanations, as `reviewer analyze --json` does
            report_s = time.perf_counter() - started
            started = time.perf_counter()
            flagged = [m for m in assessment.moves if m.judgement in EXPLAINED_JUDGEMENTS]
            explained = {m.ply: explain_assessed(game, table, m) for m in flagged}
            explain_s = time.perf_counter() - started
            review_s += report_s - explain_s  # the report without its explanations
            identity = engine.identity
        finally:
            engine.close()
        rows = []
        for move in flagged:
            node = game.node_at_ply(move.ply)
            before, after = table.get(move.ply - 1), table.get(move.ply)
            why = explained[move.ply]
            found = claims(game, move.ply, before, after)
            assert tuple(dict.fromkeys(c["motif"] for c in found)) == (why.motifs if why else ()), (name, move.ply)
            rows.append({
                "ply": move.ply,
                "color": node.color,
                "move": _gtp(node.point, game.board_height),
                "judgement": move.judgement,
                "loss": move.loss,
                "motifs": list(why.motifs) if why else [],
                "text": why.text if why else None,
                "line": list(why.line) if why else [],
                "focus": list(why.focus) if why else [],
                "claims": found,
                "before": _summary(before),
                "after": _summary(after),
            })
        stored["games"].append({
            "file": name, "size": list(size), "plies": game.ply_count, "engine": identity,
            "scheme": limit.scheme, "start_s": round(start_s, 2), "review_s": round(review_s, 2),
            "explain_s": round(explain_s, 4), "positions_per_pass": passes, "load": round(os.getloadavg()[0], 2),
            "moves": rows,
        })
        DATA.write_text(json.dumps(stored, indent=1) + "\n")
        print(f"{name}: {size[0]}x{size[1]}, {game.ply_count} moves, passes {passes} positions, KataGo start {start_s:.1f} s, "
              f"review {review_s:.1f} s, explanations {explain_s:.3f} s, {len(rows)} flagged", flush=True)
    print_build_summary(stored)


def print_build_summary(stored: dict[str, Any]) -> None:
    games = stored["games"]
    review_s = sum(g["review_s"] for g in games)
    explain_s = sum(g["explain_s"] for g in games)
    flagged = sum(len(g["moves"]) for g in games)
    with_maps = sum(1 for g in games for m in g["moves"] if m["before"] and m["after"] and m["before"]["maps"] and m["after"]["maps"])
    print()
    for g in games:
        print(f"{g['file']}: {g['size'][0]}x{g['size'][1]}, {g['plies']} moves, {g['engine']}, positions per pass "
              f"{g['positions_per_pass']}, review {g['review_s']:.1f} s (load {g['load']}), explanations "
              f"{g['explain_s']:.3f} s, {len(g['moves'])} flagged")
    print(f"{flagged} flagged moves in {len(games)} games ({with_maps} with ownership maps before and after)")
    print(f"review {review_s:.1f} s, explanations {explain_s:.3f} s: "
          f"{100 * explain_s / (review_s + explain_s):.4f}% of the review with them")


# ------------------------------------------------------------------------------------------ score


def own_chains(stones: frozenset[Point] | set[Point]) -> list[frozenset[Point]]:
    """Stones joined along the lines, counted here (not with the explainer's helpers)."""
    left, found = set(stones), []
    while left:
        start = left.pop()
        chain, frontier = {start}, [start]
        while frontier:
            row, col = frontier.pop()
            for near in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1)):
                if near in left:
                    left.discard(near)
                    chain.add(near)
                    frontier.append(near)
        found.append(frozenset(chain))
    return found


def own_liberties(position: Any, chain: Iterable[Point]) -> int:
    empty = set()
    for row, col in chain:
        for near in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1)):
            if 0 <= near[0] < position.height and 0 <= near[1] < position.width and \
                    near not in position.black and near not in position.white:
                empty.add(near)
    return len(empty)


def _stones(position: Any, color: str) -> frozenset[Point]:
    return frozenset(position.black if color == "black" else position.white)


def _play_line(rules: Any, position: Any, moves: Sequence[str]) -> list[tuple[str, Any, Any]]:
    """(colour, position before, position after) per move of the line the rules accept."""
    from reviewer.core.games import IllegalMove

    steps = []
    for move in moves:
        try:
            played = rules.play(position, move)
        except (IllegalMove, ValueError):
            break
        steps.append((played.color, position, played.position))
        position = played.position
    return steps


def _captured(steps: Sequence[tuple[str, Any, Any]], taken: set[Point], mover: str) -> bool:
    """Whether one of the opponent's moves of the line removes all the stones `taken` of the mover's
    (stones the mover plays in the line count too)."""
    return bool(taken) and any(
        color != mover and taken <= _stones(was, mover) - _stones(now, mover) for color, was, now in steps
    )


def _points(names: Sequence[str], height: int) -> list[Point]:
    from reviewer.core.gametree import point_from_gtp

    return [p for p in (point_from_gtp(n, height) for n in names) if p is not None]


def _mean(ownership: Sequence[float], points: Sequence[Point], width: int, sign: float) -> float:
    return sign * sum(ownership[r * width + c] for r, c in points) / len(points)


def _deep_key(name: str, ply: int) -> str:
    return f"{name}#{ply}"


def deep_searches(games: list[dict[str, Any]], visits: int, deep: dict[str, Any], compare_only: bool,
                  max_moves: int | None) -> None:
    """The deeper search of the positions before and after each flagged move, stored as they come:
    the moves with claims first, game by game, then the others, at most `max_moves` moves in all."""
    from reviewer.core.analysis import Limit
    from reviewer.core.engines.registry import open_engine

    if compare_only:
        return
    order = [(not m["claims"], index, m["ply"]) for index, g in enumerate(games) for m in g["moves"]]
    chosen = sorted(order)[:max_moves] if max_moves is not None else order
    for index, stored in enumerate(games):
        plies = {ply for _, at, ply in chosen if at == index}
        wanted = sorted({p for ply in plies for p in (ply - 1, ply)}
                        - {int(k.split("#")[1]) for k in deep if k.split("#")[0] == stored["file"]})
        if not wanted:
            continue
        game = _load(CORPUS / "sgf" / stored["file"])
        engine = open_engine("go", board_size=(game.board_width, game.board_height), fallback_to_builtin=False)
        try:
            started = time.perf_counter()
            for done, evaluation in enumerate(engine.analyse(game, wanted, Limit(visits=visits, maps=True), threading.Event()), 1):
                assert evaluation.ownership_first is not None
                deep[_deep_key(stored["file"], evaluation.ply)] = {
                    "visits": evaluation.nodes,
                    "lead_black": evaluation.score_lead_first,
                    "best_move": evaluation.best_move,
                    "pv": list(evaluation.pv),
                    "ownership_black": [round(v, 3) for v in evaluation.ownership_first],
                }
                DEEP.write_text(json.dumps({"visits": visits, "positions": deep}) + "\n")
                print(f"  {stored['file']} ply {evaluation.ply}: {done}/{len(wanted)}, "
                      f"{(time.perf_counter() - started) / done:.1f} s a position", flush=True)
        finally:
            engine.close()


def _check(claim: dict[str, Any], move: dict[str, Any], game: Any, before: dict[str, Any], after: dict[str, Any]) -> tuple[bool, str]:
    """Whether one claim holds by its test, and a few words on why not."""
    from reviewer.core.games import rules_for
    from reviewer.core.gametree import point_from_gtp

    rules = rules_for("go")
    height, width = game.board_height, game.board_width
    mover = move["color"]
    sign = 1.0 if mover == "black" else -1.0
    node = game.node_at_ply(move["ply"])
    position = rules.after(game, node)
    points = _points(claim["points"], height)
    own_before, own_after = before["ownership_black"], after["ownership_black"]
    motif = claim["motif"]
    if motif == "deadGroup":
        was, now = _mean(own_before, points, width, sign), _mean(own_after, points, width, sign)
        return was >= 0 and now <= -OWNED, f"mean {was:+.2f} -> {now:+.2f}"
    if motif == "aliveGroup":
        was, now = _mean(own_before, points, width, sign), _mean(own_after, points, width, sign)
        return was >= OWNED and now <= 0, f"mean {was:+.2f} -> {now:+.2f}"
    if motif == "territory":
        claimed = float(claim["sentence"].split()[1])
        swing = sum(sign * (own_before[r * width + c] - own_after[r * width + c]) for r, c in points)
        return swing >= claimed / 2, f"deep swing {swing:.1f} of {claimed:.0f} claimed"
    if motif == "slow":
        lead_before, lead_after = sign * before["lead_black"], sign * after["lead_black"]
        best = point_from_gtp(before["best_move"], height) if before["best_move"] else None
        lines = max(abs(best[0] - node.point[0]), abs(best[1] - node.point[1])) \
            if best is not None and node.point is not None else 0
        loss = lead_before - lead_after
        return loss >= SLOW_LOSS and lines >= 4, \
            f"deep loss {loss:.2f}, deep best {before['best_move']} {lines} lines from the move"
    if motif == "capture":
        taken = set(points)
        rules_ok = _captured(_play_line(rules, position, move["line"]), taken, mover)
        deep_takes = _captured(_play_line(rules, position, after["pv"][:RECALL_LINE]), taken, mover)
        lost = bool(points) and _mean(own_after, points, width, sign) <= -OWNED
        return rules_ok and (deep_takes or lost), f"rules {rules_ok}, deep line takes {deep_takes}, deep map {lost}"
    if motif == "atari":
        chain_points = set(points)
        reply = move["line"][0] if move["line"] else None
        steps = _play_line(rules, position, [reply]) if reply else []
        rules_ok = False
        if steps and chain_points <= _stones(position, mover):
            _, was, now = steps[0]
            chain = next((c for c in own_chains(_stones(now, mover)) if chain_points & c), None)
            rules_ok = chain is not None and chain == chain_points and own_liberties(now, chain) == 1 \
                and own_liberties(was, chain) > 1
        deep_ok = after["best_move"] == reply or (bool(points) and _mean(own_after, points, width, sign) <= -OWNED)
        return rules_ok and deep_ok, f"rules {rules_ok}, deep best {after['best_move']} vs {reply}"
    return False, "no test"


def _truths(move: dict[str, Any], game: Any, before: dict[str, Any], after: dict[str, Any]) -> dict[str, bool]:
    """What the deeper search and the rules find on the move without the explainer."""
    from reviewer.core.games import rules_for

    rules = rules_for("go")
    width = game.board_width
    mover = move["color"]
    opponent = "white" if mover == "black" else "black"
    sign = 1.0 if mover == "black" else -1.0
    position = rules.after(game, game.node_at_ply(move["ply"]))
    own_before, own_after = before["ownership_black"], after["ownership_black"]

    def flips(color: str, low: float, high: float) -> bool:
        for chain in own_chains(_stones(position, color)):
            if len(chain) >= RECALL_CHAIN:
                points = list(chain)
                if _mean(own_before, points, width, sign) >= low and _mean(own_after, points, width, sign) <= high:
                    return True
        return False

    line = _play_line(rules, position, after["pv"][:RECALL_LINE])
    captures = any(color == opponent and (_stones(was, mover) - _stones(now, mover)) for color, was, now in line)
    atari = False
    if line and line[0][0] == opponent:
        _, was, now = line[0]
        atari = any(own_liberties(now, c) == 1 and own_liberties(was, c) > 1 for c in own_chains(_stones(now, mover)))
    return {
        "deadGroup": flips(mover, 0.0, -OWNED),
        "aliveGroup": flips(opponent, OWNED, 0.0),
        "capture": captures,
        "atari": atari,
    }


TESTS = {
    "deadGroup": "deep: stones mover's before (mean >= 0), opponent's after (<= -0.5)",
    "aliveGroup": "deep: opponent's stones counted captured before (>= 0.5), not after (<= 0)",
    "territory": "deep: the area swings at least half the claimed points",
    "slow": "deep: loses >= 3 points, best move >= 4 lines away",
    "capture": "rules: the line takes them; deep: its line takes them or they go (<= -0.5)",
    "atari": "rules: the reply leaves them 1 liberty; deep: same best reply or they go",
}


def score(visits: int, compare_only: bool, max_moves: int | None = None) -> None:
    stored = json.loads(DATA.read_text())
    games = stored["games"]
    deep: dict[str, Any] = {}
    if DEEP.exists():
        data = json.loads(DEEP.read_text())
        if data["visits"] != visits and not compare_only:
            raise SystemExit(f"{DEEP.name} holds searches at {data['visits']} visits: move it away to search at {visits}")
        deep, visits = data["positions"], data["visits"]
    started = time.perf_counter()
    deep_searches(games, visits, deep, compare_only, max_moves)
    searched_s = time.perf_counter() - started
    named: dict[str, int] = {}
    held: dict[str, int] = {}
    told: dict[str, list[int]] = {}  # the motif the text tells (the first claim): [held, named]
    truths: dict[str, int] = {}
    found: dict[str, int] = {}
    otherwise: dict[str, int] = {}  # the test holds, the motif is not named, another one is
    failures: list[str] = []
    missed: list[str] = []
    moves = checked = unexplained = 0
    changed: list[str] = []
    again = 0
    for stored_game in games:
        game = _load(CORPUS / "sgf" / stored_game["file"])
        for move in stored_game["moves"]:
            moves += 1
            was = move["motifs"]
            if reexplain(game, move):
                again += 1
                if move["motifs"] != was:
                    changed.append(f"{stored_game['file']} ply {move['ply']} {move['move']}: {was} -> {move['motifs']}")
            unexplained += not move["motifs"]
            before = deep.get(_deep_key(stored_game["file"], move["ply"] - 1))
            after = deep.get(_deep_key(stored_game["file"], move["ply"]))
            if before is None or after is None:
                continue
            checked += 1
            shown = set(move["motifs"])
            for motif, holds in _truths(move, game, before, after).items():
                truths[motif] = truths.get(motif, 0) + int(holds)
                found[motif] = found.get(motif, 0) + int(holds and motif in shown)
                if holds and motif not in shown and shown:
                    otherwise[motif] = otherwise.get(motif, 0) + 1
                    missed.append(f"{stored_game['file']} ply {move['ply']} {move['move']} {motif}: named {move['motifs']}")
            for index, claim in enumerate(move["claims"]):
                motif = claim["motif"]
                named[motif] = named.get(motif, 0) + 1
                ok, why = _check(claim, move, game, before, after)
                held[motif] = held.get(motif, 0) + int(ok)
                if index == 0:
                    counts = told.setdefault(motif, [0, 0])
                    counts[0] += int(ok)
                    counts[1] += 1
                if not ok:
                    failures.append(f"{stored_game['file']} ply {move['ply']} {move['move']} {motif}: {why}")
    flagged = sum(len(g["moves"]) for g in games)
    print(f"{flagged} flagged moves in {len(games)} games, {checked} with both deeper searches "
          f"(KataGo {visits} visits with maps; {searched_s:.0f} s searching in this run); "
          f"{unexplained} flagged moves without a motif")
    print(f"{again} flagged moves explained again by this tree's explainer from the review's stored maps "
          f"({moves - again} as stored at the build: their maps were not stored); motifs changed on {len(changed)}")
    for line in changed:
        print(f"  {line}")
    print()
    print("| motif | named | precision | in the text | recall | test |")
    print("|---|---|---|---|---|---|")
    for motif in sorted(set(named) | {m for m in truths if truths[m]}):
        count = named.get(motif, 0)
        precision = f"{100 * held[motif] / count:.0f}% ({held[motif]}/{count})" if count else "n/a"
        recall = f"{100 * found[motif] / truths[motif]:.0f}% ({found[motif]}/{truths[motif]})" if truths.get(motif) else "n/a"
        text = f"{told[motif][0]}/{told[motif][1]}" if motif in told else "0"
        print(f"| {motif} | {count} | {precision} | {text} | {recall} | {TESTS.get(motif, '')} |")
    for motif, count in sorted(otherwise.items()):
        print(f"{motif}: the test holds but another motif was named instead on {count} of {truths[motif]} moves")
    for line in missed:
        print(f"  {line}")
    for stored_game in games:
        for move in stored_game["moves"]:
            if not move["motifs"]:
                maps = bool(move["before"] and move["before"]["maps"] and move["after"] and move["after"]["maps"])
                print(f"no motif: {stored_game['file']} ply {move['ply']} {move['move']} "
                      f"(maps before and after: {maps}, loss {move['loss']:.1f})")
    if failures:
        print("\nclaims that failed their test:")
        for line in failures:
            print(f"  {line}")
    print_build_summary(stored)
