"""Go: what the move gave away, from KataGo's ownership maps before and after it and the line after it.

With ownership maps (KataGo asked with maps): a group of the mover's that the map turns to the
opponent (deadGroup), an opponent's group it lets live (aliveGroup), an area that changes hands
(territory) and, when nothing on the board changed hands, a bigger move left out (slow). Without
maps (the built-in engine) only what the line itself shows: stones it captures and stones it puts
in atari, and the text says that the maps were missing. docs/SCORING.md ("Why") gives every test.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reviewer.core.analysis import Evaluation
from reviewer.core.explain.common import Threat, Why
from reviewer.core.games import GameRules, IllegalMove
from reviewer.core.games.go import RULES, GoPosition
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Color, Game, Node, Point, gtp_from_point, other_color, point_from_gtp
from reviewer.core.scoring.go import lead_of_mover
from reviewer.core.variations import line_game

MAX_LINE_MOVES = 10
OWNED = 0.5  # |ownership| from which a point counts as one side's
GROUP_SWING = 0.8  # a group's mean ownership must move at least this far to change hands
TERRITORY_POINTS = 3.0  # an area must swing at least this many points to be named
SLOW_LOSS_POINTS = 3.0
NO_MAPS_NOTE = "The engine gave no ownership map, so life and death and territory are not judged."


def chains(position: GoPosition, color: Color) -> list[frozenset[Point]]:
    """`color`'s chains (stones joined along the lines)."""
    stones = position.black if color == "black" else position.white
    seen: set[Point] = set()
    found: list[frozenset[Point]] = []
    for start in sorted(stones):
        if start in seen:
            continue
        chain, frontier = {start}, [start]
        while frontier:
            row, col = frontier.pop()
            for neighbour in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if neighbour in stones and neighbour not in chain:
                    chain.add(neighbour)
                    frontier.append(neighbour)
        seen |= chain
        found.append(frozenset(chain))
    return found


def liberties(position: GoPosition, chain: Iterable[Point]) -> set[Point]:
    free: set[Point] = set()
    for row, col in chain:
        for neighbour in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if position.on_board(neighbour) and position.stone_at(neighbour) is None:
                free.add(neighbour)
    return free


def linked(parts: Sequence[frozenset[Point]]) -> list[frozenset[Point]]:
    """`parts` (chains of one colour) joined when they touch diagonally or stand one point apart on a
    line: the units a player lives or dies with, as near as the stones alone say."""
    merged: list[set[Point]] = []
    for part in parts:
        near = [g for g in merged if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 2 for a in part for b in g)]
        joined = set(part)
        for group in near:
            joined |= group
            merged.remove(group)
        merged.append(joined)
    return [frozenset(g) for g in merged]


@dataclass(frozen=True)
class Step:
    move: str
    color: Color
    before: GoPosition
    after: GoPosition


def replay(rules: GameRules[GoPosition], position: GoPosition, moves: Sequence[str]) -> list[Step]:
    """The line as far as the rules accept it."""
    steps: list[Step] = []
    for text in list(moves)[:MAX_LINE_MOVES]:
        try:
            played = rules.play(position, text)
        except (IllegalMove, ValueError):
            break
        steps.append(Step(played.move, played.color, position, played.position))
        position = played.position
    return steps


def _gtp(points: Iterable[Point], height: int) -> list[str]:
    return [gtp_from_point(p, height) for p in sorted(points, key=lambda p: (-p[0], p[1]))]


def _where(points: Iterable[Point], height: int) -> str:
    """The group's most central stone, to name it by."""
    points = list(points)
    row = sorted(p[0] for p in points)[len(points) // 2]
    col = sorted(p[1] for p in points)[len(points) // 2]
    anchor = min(points, key=lambda p: abs(p[0] - row) + abs(p[1] - col))
    return gtp_from_point(anchor, height)


def _stones(count: int) -> str:
    return f"{count} stone{'s' if count != 1 else ''}"


def _mean(values: Sequence[float], points: Iterable[Point], width: int) -> float:
    points = list(points)
    return sum(values[r * width + c] for r, c in points) / len(points)


@dataclass(frozen=True)
class Found:
    motif: str
    sentence: str
    focus: tuple[Point, ...]


def _maps(
    before: Evaluation | None, after: Evaluation | None, size: int
) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    if before is None or after is None or before.ownership_first is None or after.ownership_first is None:
        return None
    if len(before.ownership_first) != size or len(after.ownership_first) != size:
        return None
    return before.ownership_first, after.ownership_first


def _swung_groups(
    position: GoPosition,
    color: Color,
    sign: float,
    own_before: Sequence[float],
    own_after: Sequence[float],
    *,
    was_at_least: float,
    now_at_most: float,
) -> list[frozenset[Point]]:
    """The groups of `color`'s chains that changed hands, each chain judged by its own mean
    ownership (from the mover's view, `sign`): a chain that stayed put is no part of a group, so
    stones a diagonal or a jump away cannot join the chains that swung to the rest of the board."""
    width = position.width
    swung = []
    for chain in chains(position, color):
        was, now = sign * _mean(own_before, chain, width), sign * _mean(own_after, chain, width)
        if was >= was_at_least and now <= now_at_most and was - now >= GROUP_SWING:
            swung.append(chain)
    return linked(swung)


def _group_changes(
    position: GoPosition, mover: Color, own_before: Sequence[float], own_after: Sequence[float]
) -> list[Found]:
    sign = 1.0 if mover == "black" else -1.0
    found: list[Found] = []
    height = position.height
    for group in _swung_groups(position, mover, sign, own_before, own_after, was_at_least=0.0, now_at_most=-OWNED):
        found.append(
            Found(
                "deadGroup",
                f"The {mover} group at {_where(group, height)} ({_stones(len(group))}) can now be killed: "
                f"KataGo's ownership map turns it from {mover.capitalize()}'s to {other_color(mover).capitalize()}'s.",
                tuple(group),
            )
        )
    opponent = other_color(mover)
    for group in _swung_groups(position, opponent, sign, own_before, own_after, was_at_least=OWNED, now_at_most=0.0):
        found.append(
            Found(
                "aliveGroup",
                f"Lets the {opponent} group at {_where(group, height)} ({_stones(len(group))}) live: "
                f"KataGo's ownership map counted it as captured before the move and as {opponent.capitalize()}'s after it.",
                tuple(group),
            )
        )
    found.sort(key=lambda f: -len(f.focus))
    return found


def _territory(
    position: GoPosition, mover: Color, own_before: Sequence[float], own_after: Sequence[float]
) -> Found | None:
    """The biggest area whose ownership moves towards the opponent, when it is worth naming."""
    sign = 1.0 if mover == "black" else -1.0
    width, height = position.width, position.height
    lost = {
        (r, c): sign * (own_before[r * width + c] - own_after[r * width + c])
        for r in range(height)
        for c in range(width)
        if sign * (own_before[r * width + c] - own_after[r * width + c]) >= OWNED
    }
    best: tuple[float, set[Point]] | None = None
    seen: set[Point] = set()
    for start in lost:
        if start in seen:
            continue
        area, frontier = {start}, [start]
        while frontier:
            row, col = frontier.pop()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    neighbour = (row + dr, col + dc)
                    if neighbour in lost and neighbour not in area:
                        area.add(neighbour)
                        frontier.append(neighbour)
        seen |= area
        swing = sum(lost[p] for p in area)
        if best is None or swing > best[0]:
            best = (swing, area)
    if best is None or best[0] < TERRITORY_POINTS:
        return None
    swing, area = best
    return Found(
        "territory",
        f"About {swing:.0f} points around {_where(area, height)} move towards {other_color(mover).capitalize()} "
        f"on KataGo's ownership map.",
        tuple(area),
    )


def _line_tactics(steps: Sequence[Step], mover: Color, height: int) -> list[Found]:
    """Captures of the mover's stones along the line, and an atari by the opponent's first reply."""
    found: list[Found] = []
    opponent = other_color(mover)
    for index, step in enumerate(steps):
        if step.color != opponent:
            continue
        mine_before = step.before.black if mover == "black" else step.before.white
        mine_after = step.after.black if mover == "black" else step.after.white
        taken = mine_before - mine_after
        if taken:
            moves = " ".join(s.move for s in steps[: index + 1])
            found.append(
                Found(
                    "capture",
                    f"The line {moves} captures {_stones(len(taken))} at {_where(taken, height)}.",
                    tuple(taken),
                )
            )
            break
    if steps and steps[0].color == opponent:
        first = steps[0]
        for chain in chains(first.after, mover):
            if len(liberties(first.after, chain)) == 1 and len(liberties(first.before, chain)) > 1:
                found.append(
                    Found(
                        "atari",
                        f"Allows {first.move}, putting {_stones(len(chain))} at {_where(chain, height)} in atari.",
                        tuple(chain),
                    )
                )
                break
    return found


def _lead_for(evaluation: Evaluation | None, mover: Color) -> float | None:
    return None if evaluation is None else lead_of_mover(evaluation, mover, mover)


def _slow(
    position_before: GoPosition, played: Point | None, before: Evaluation | None, after: Evaluation | None, mover: Color
) -> Found | None:
    """The best move's figures against the played move's, when the best move was far away."""
    if before is None or not before.best_move or before.policy is None or played is None:
        return None
    lead_before, lead_after = _lead_for(before, mover), _lead_for(after, mover)
    best = point_from_gtp(before.best_move, position_before.height)
    if best is None or lead_before is None or lead_after is None or lead_before - lead_after < SLOW_LOSS_POINTS:
        return None
    if max(abs(best[0] - played[0]), abs(best[1] - played[1])) < 4:
        return None
    width = position_before.width
    if len(before.policy) != width * position_before.height:
        return None
    best_prior, played_prior = before.policy[best[0] * width + best[1]], before.policy[played[0] * width + played[1]]
    if best_prior <= played_prior:
        return None
    height = position_before.height
    return Found(
        "slow",
        f"{before.best_move} was bigger: the network's policy gives it {best_prior:.0%} against {played_prior:.0%} "
        f"for {gtp_from_point(played, height)}, and the move played loses {lead_before - lead_after:.1f} points.",
        (best, played),
    )


def explain_position(
    rules: GameRules[GoPosition],
    position_before: GoPosition,
    position_after: GoPosition,
    played: Point | None,
    mover: Color,
    before: Evaluation | None,
    after: Evaluation | None,
) -> Why | None:
    height = position_after.height
    steps = replay(rules, position_after, after.pv if after is not None else ())
    line = tuple(s.move for s in steps)
    tactics = _line_tactics(steps, mover, height)
    maps = _maps(before, after, position_after.width * height)
    found: list[Found] = []
    if maps is not None:
        found.extend(_group_changes(position_after, mover, *maps))
        if not found:
            area = _territory(position_after, mover, *maps)
            if area is not None:
                found.append(area)
    found.extend(tactics)
    if not found and maps is not None:
        slow = _slow(position_before, played, before, after, mover)
        if slow is not None:
            found.append(slow)
            line = (before.best_move,) if before is not None and before.best_move else line
    if not found:
        return None
    sentences = [found[0].sentence]
    if line and found[0].motif in ("deadGroup", "aliveGroup", "territory"):
        sentences.append(f"{other_color(mover).capitalize()}'s best reply is {line[0]}.")
    if maps is None:
        sentences.append(NO_MAPS_NOTE)
    focus: list[str] = []
    for item in found:
        for name in _gtp(item.focus, height):
            if name not in focus:
                focus.append(name)
    return Why(tuple(dict.fromkeys(f.motif for f in found)), " ".join(sentences), line, tuple(focus))


def explain_game_move(
    game: Game, ply: int, before: Evaluation | None, after: Evaluation | None, *, plain: bool = False
) -> Why | None:
    """Why main-line move `ply` lost; with `plain`, a move whose figures show nothing gets the engine's
    best reply and how the lead fell (`_nothing_found`)."""
    rules = RULES
    try:
        node = game.node_at_ply(ply)
    except IndexError:
        return None
    if node.parent is None or node.color is None:
        return None
    position_after = rules.after(game, node)
    why = explain_position(rules, rules.after(game, node.parent), position_after, node.point, node.color, before, after)
    if why is None and plain:
        return _nothing_found(rules, position_after, node.color, before, after)
    return why


def _nothing_found(
    rules: GameRules[GoPosition], position_after: GoPosition, mover: Color, before: Evaluation | None, after: Evaluation | None
) -> Why | None:
    """What can still be said of a move whose figures show no group, capture or area: the engine's
    best reply and how the mover's lead fell, nothing more; None without a line."""
    steps = replay(rules, position_after, after.pv if after is not None else ())
    line = tuple(s.move for s in steps)
    if not line:
        return None
    lead_before, lead_after = _lead_for(before, mover), _lead_for(after, mover)
    sentences = ["No group, capture or area in the engine's figures explains this loss"]
    if lead_before is not None and lead_after is not None:
        sentences[0] += f": {mover.capitalize()}'s lead goes from {lead_before:+.1f} to {lead_after:+.1f} points"
    sentences[0] += "."
    sentences.append(f"{other_color(mover).capitalize()}'s best reply is {line[0]}.")
    if _maps(before, after, position_after.width * position_after.height) is None:
        sentences.append(NO_MAPS_NOTE)
    return Why((), " ".join(sentences), line, line[:1])


# --------------------------------------------------------------------------- the threat


def threat_search(game: Game, node: Node) -> tuple[Game, int] | None:
    """The game up to `node` with a pass of the side to move after it: the opponent plays next."""
    support = game_support(game.kind)
    position = RULES.after(game, node)
    if support.is_over(position):
        return None
    shown, ply = line_game(game, node)
    shown.node_at_ply(ply).add_child(Node(move="pass", color=position.to_move, point=None))
    return shown, ply + 1


def explain_threat(game: Game, ply: int, evaluation: Evaluation | None) -> Why | None:
    """What the best line of the side to move in a `threat_search` position captures or puts in
    atari, by the rules; else only its first move."""
    rules = RULES
    try:
        position = rules.after(game, game.node_at_ply(ply))
    except IndexError:
        return None
    threatener = position.to_move
    line_moves = evaluation.pv or ((evaluation.best_move,) if evaluation.best_move else ()) if evaluation else ()
    steps = replay(rules, position, line_moves)
    if not steps or steps[0].color != threatener:
        return None
    height = position.height
    first = steps[0].move
    line = tuple(s.move for s in steps)
    found = _line_tactics(steps, other_color(threatener), height)
    first_point = point_from_gtp(first, height)
    focus = [first] if first_point is not None else []
    threatened = other_color(threatener)
    first_capture = _stones_of(steps[0].before, threatened) - _stones_of(steps[0].after, threatened)
    if first_capture:
        text = f"Threatens {first}, capturing {_stones(len(first_capture))} at {_where(first_capture, height)}."
        return Why(("capture",), text, line, tuple(focus + _gtp(first_capture, height)))
    atari = next((f for f in found if f.motif == "atari"), None)
    if atari is not None:
        text = f"Threatens {first}, putting {_stones(len(atari.focus))} at {_where(atari.focus, height)} in atari."
        return Why(("atari",), text, line, tuple(focus + _gtp(atari.focus, height)))
    capture = next((f for f in found if f.motif == "capture"), None)
    if capture is not None:  # "The line D4 E5 F6 captures 3 stones at C3."
        text = f"Threatens {first}: {capture.sentence[0].lower()}{capture.sentence[1:]}"
        return Why(("capture",), text, line, tuple(focus + _gtp(capture.focus, height)))
    return Why((), f"{threatener.capitalize()}'s best move if it were its turn: {first}.", line, tuple(focus))


def _stones_of(position: GoPosition, color: Color) -> frozenset[Point]:
    return frozenset(position.black if color == "black" else position.white)


THREAT = Threat(threat_search, explain_threat)
