"""Learn from your mistakes, one game (lichess's retro mode): walk through one side's mistakes and
blunders in order, ask for a better move in the position before each, accept any move good enough
(docs/SCORING.md, "Learn from your mistakes"), offer "show me" and "skip", and sum up at the end.
Book moves are never asked. Each answer can also go to the deck (`Deck.review`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from reviewer.core.analysis import EvaluationTable
from reviewer.core.gametree import Color, Game
from reviewer.core.scoring import GameAssessment
from reviewer.core.services.trainer.cards import Card, Evaluator, Verdict, cards_from_game, judge_answer

Outcome = Literal["solved", "shown", "skipped"]


@dataclass
class RetroItem:
    card: Card
    attempts: int = 0
    outcome: Outcome | None = None
    seconds: float | None = None


@dataclass
class RetroSummary:
    total: int
    solved_first_try: int
    solved_later: int
    shown: int
    skipped: int

    @property
    def text(self) -> str:
        solved = self.solved_first_try + self.solved_later
        return (
            f"{solved} of {self.total} found ({self.solved_first_try} at the first try), "
            f"{self.shown} shown, {self.skipped} skipped"
        )


@dataclass
class Retro:
    color: Color
    items: list[RetroItem] = field(default_factory=list)
    index: int = 0
    _asked_at: float = field(default_factory=time.monotonic)

    @staticmethod
    def for_game(game: Game, evaluations: EvaluationTable, assessment: GameAssessment, color: Color) -> Retro:
        cards = [card for card in cards_from_game(game, evaluations, assessment) if card.side == color]
        cards.sort(key=lambda card: card.ply)
        return Retro(color, [RetroItem(card) for card in cards])

    @property
    def done(self) -> bool:
        return self.index >= len(self.items)

    @property
    def current(self) -> RetroItem | None:
        return None if self.done else self.items[self.index]

    def prompt(self) -> str:
        item = self.current
        if item is None:
            return "Done. " + self.summary().text
        move_number = (item.card.ply + 1) // 2
        return (
            f"Mistake {self.index + 1} of {len(self.items)} (move {move_number}): "
            f"{item.card.played} was a {item.card.judgement}. Find a better move for {self.color}."
        )

    def answer(self, move: str, evaluate: Evaluator | None = None) -> Verdict:
        """Judge a move for the current mistake; an accepted one moves on to the next."""
        item = self.current
        if item is None:
            return Verdict(False, "", "No mistake left to answer.")
        verdict = judge_answer(item.card, move, evaluate)
        if verdict.move and verdict.accepted is not None:
            item.attempts += 1
        if verdict.accepted:
            item.outcome = "solved"
            item.seconds = time.monotonic() - self._asked_at
            self._next()
        return verdict

    def show_me(self) -> str:
        """The engine's best move for the current mistake; the mistake counts as shown."""
        item = self.current
        if item is None:
            return ""
        item.outcome = "shown"
        self._next()
        return item.card.best

    def skip(self) -> None:
        item = self.current
        if item is not None:
            item.outcome = "skipped"
            self._next()

    def summary(self) -> RetroSummary:
        solved = [i for i in self.items if i.outcome == "solved"]
        return RetroSummary(
            total=len(self.items),
            solved_first_try=sum(1 for i in solved if i.attempts == 1),
            solved_later=sum(1 for i in solved if i.attempts > 1),
            shown=sum(1 for i in self.items if i.outcome == "shown"),
            skipped=sum(1 for i in self.items if i.outcome == "skipped"),
        )

    def _next(self) -> None:
        self.index += 1
        self._asked_at = time.monotonic()
