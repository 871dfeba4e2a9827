"""A player's repertoire as their reviewed games show it: the lines they play with each colour,
how they score with them, and the positions where they play one move one day and another the
next (docs/SCORING.md, "Your repertoire").

A position here is the sequence of moves that reached it from the usual start (games set up from
another position, or with handicap stones, are left out): the opening tree of lichess's and
SCID's player explorers, where two move orders are two lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reviewer.core.gametree import Color

__all__ = ["CHOICE_PLIES", "LEAST_GAMES", "LINE_PLIES", "Repertoire", "choice_text", "line_text", "score_text"]

LINE_PLIES = 6  # a line listed: the first three moves of each side
CHOICE_PLIES = 16  # how deep the player's choices are compared
LEAST_GAMES = 3  # a position the player reached fewer times says nothing about their habits
LINES_KEPT = 12
CHOICES_KEPT = 12
_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass
class _Results:
    games: int = 0
    results: dict[str, int] = field(default_factory=lambda: dict.fromkeys(("win", "draw", "loss", "unknown"), 0))

    def add(self, outcome: str) -> None:
        self.games += 1
        self.results[outcome] = self.results.get(outcome, 0) + 1

    def score(self) -> float | None:
        """The player's points per game with a known result (a win 1, a draw ½), None without one."""
        known = sum(self.results[outcome] for outcome in _POINTS)
        if not known:
            return None
        return sum(points * self.results[outcome] for outcome, points in _POINTS.items()) / known

    def to_json(self) -> dict[str, Any]:
        score = self.score()
        return {"games": self.games, "results": dict(self.results), "score": None if score is None else round(score, 3)}


Board = str  # "" for chess; Go's board size, "19x19": lines of two sizes never meet
Line = tuple[Board, tuple[str, ...]]


@dataclass
class _Side:
    games: int = 0
    lines: dict[Line, _Results] = field(default_factory=dict)
    # position (the board and the moves before it) -> the player's move there -> the games and their results
    choices: dict[Line, dict[str, _Results]] = field(default_factory=dict)


def board_of(report: Mapping[str, Any]) -> Board:
    size = (report.get("game") or {}).get("board_size")
    if isinstance(size, (list, tuple)) and len(size) == 2:
        return f"{size[0]}x{size[1]}"
    return ""


def moves_from_the_start(report: Mapping[str, Any]) -> list[tuple[Color, str]] | None:
    """The main line's moves in order with their colours; None for a game that did not start from
    the usual position (a set-up position, handicap stones) or whose moves the report leaves out."""
    game = report.get("game") or {}
    if game.get("start_fen") or game.get("handicap") or game.get("setup"):
        return None
    moves = sorted(report.get("moves") or [], key=lambda move: int(move.get("ply") or 0))
    if not moves or [int(move.get("ply") or 0) for move in moves] != list(range(1, len(moves) + 1)):
        return None
    out: list[tuple[Color, str]] = []
    for move in moves:
        color, text = move.get("color"), move.get("move")
        if color not in ("white", "black") or not isinstance(text, str) or not text:
            return None
        out.append((color, text))
    return out


@dataclass
class Repertoire:
    by_colour: dict[Color, _Side] = field(default_factory=lambda: {"white": _Side(), "black": _Side()})

    def add(self, report: Mapping[str, Any], color: Color, outcome: str) -> None:
        moves = moves_from_the_start(report)
        if moves is None:
            return
        side, board = self.by_colour[color], board_of(report)
        side.games += 1
        texts = tuple(text for _color, text in moves)
        side.lines.setdefault((board, texts[:LINE_PLIES]), _Results()).add(outcome)
        for ply, (mover, text) in enumerate(moves[:CHOICE_PLIES]):
            if mover == color:
                side.choices.setdefault((board, texts[:ply]), {}).setdefault(text, _Results()).add(outcome)

    def to_json(self) -> dict[str, Any]:
        return {color: _side_json(side) for color, side in self.by_colour.items()}


def _side_json(side: _Side) -> dict[str, Any]:
    lines = sorted(side.lines.items(), key=lambda item: (-item[1].games, item[0]))[:LINES_KEPT]
    choices: list[tuple[tuple[float, int, int, tuple[str, ...]], dict[str, Any]]] = []
    for (board, before), played in side.choices.items():
        games = sum(results.games for results in played.values())
        if games < LEAST_GAMES or len(played) < 2:
            continue
        ordered = sorted(played.items(), key=lambda item: (-item[1].games, item[0]))
        usual, usual_results = ordered[0]
        kept_share = round(usual_results.games / games, 3)
        choices.append((
            (kept_share, -games, len(before), before),
            {
                **({"board": board} if board else {}),
                "after": list(before),
                "games": games,
                "usual": usual,
                "usual_games": usual_results.games,
                "kept_share": kept_share,
                "moves": [{"move": move, **results.to_json()} for move, results in ordered],
            },
        ))
    choices.sort(key=lambda choice: choice[0])
    return {
        "games": side.games,
        "lines": [{**({"board": board} if board else {}), "moves": list(moves), **results.to_json()}
                  for (board, moves), results in lines],
        "choices": [choice for _order, choice in choices[:CHOICES_KEPT]],
    }


def line_text(moves: Sequence[str], numbered: bool, first: Color = "white") -> str:
    """'1.e4 c5 2.Nf3' for chess, 'B Q16 W D4' for Go; '(the start)' for no move."""
    if not moves:
        return "(the start)"
    if not numbered:
        letters = ("B", "W") if first == "black" else ("W", "B")
        return " ".join(f"{letters[index % 2]} {move}" for index, move in enumerate(moves))
    parts = []
    for index, move in enumerate(moves):
        parts.append(f"{index // 2 + 1}.{move}" if index % 2 == 0 else move)
    return " ".join(parts)


def score_text(score: float | None) -> str:
    return "–" if score is None else f"{score * 100:.0f}%"


def choice_text(choice: Mapping[str, Any]) -> str:
    """'a6 in 7 of 15 games (score 64%); also Nf6 6 (92%), Bc5 1 (100%)'."""
    moves = list(choice.get("moves") or [])
    if not moves:
        return ""
    usual, others = moves[0], moves[1:]
    text = f"{usual['move']} in {usual['games']} of {choice['games']} games (score {score_text(usual.get('score'))})"
    if others:
        text += "; also " + ", ".join(f"{m['move']} {m['games']} ({score_text(m.get('score'))})" for m in others)
    return text
