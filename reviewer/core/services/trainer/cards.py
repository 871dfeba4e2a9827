"""Training cards: a position where a player went wrong, and which answers are good enough.

A card is made from an analysed game's mistake or blunder (docs/SCORING.md, "Learn from your
mistakes"): the position before the move, the side to move, the move that was played, the
engine's best move and every candidate the engine saw that is good enough. An answer the card
does not know is judged by an engine (`judge_answer`'s `evaluate`), as lichess's retro mode does.

Acceptance, from the mover's view, relative to the engine's verdict on the position: the answer
loses less than the game's `ScoreUnits.accept_mover_loss` (chess: 2 win points, lichess's 0.04
winning chances; Go: 1.5 points, KaTrain's "good" colour class).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.explain import explain_assessed
from reviewer.core.games import IllegalMove, game_support, rules_for
from reviewer.core.gametree import Color, Game, GameKind, other_color
from reviewer.core.rating.records import player_key
from reviewer.core.scoring import GameAssessment
from reviewer.core.scoring.trust import judge_engine

CARD_JUDGEMENTS = ("mistake", "blunder")


@dataclass(frozen=True)
class Answer:
    """A move the card knows, with what it costs the mover (win points for chess, points for Go)."""

    move: str
    loss: float


@dataclass(frozen=True)
class Card:
    card_id: str
    kind: GameKind
    position: dict[str, Any]  # chess: {"fen"}; Go: {"width", "height", "black", "white", "to_move", "ko", "komi", "rules"}
    side: Color
    played: str  # the move that was played in the game
    best: str  # the engine's best move
    judgement: str  # "mistake" | "blunder"
    loss: float  # what the played move cost: win points (chess) or points (Go)
    baseline: float  # the engine's verdict on the position, the mover's view: win % (chess) or points (Go)
    answers: tuple[Answer, ...]  # every move the engine saw, with its loss against the best
    engine_id: str
    source_path: str = ""
    source_index: int = 0
    ply: int = 0  # the played move's ply in its game
    white: str = ""
    black: str = ""
    date: str = ""
    opening: str = ""
    # Why the played move lost (reviewer.core.explain), when the analysis could tell; cards made
    # before explanations existed have neither.
    why_text: str = ""
    why_motifs: tuple[str, ...] = ()

    @property
    def player(self) -> str:
        return self.white if self.side == "white" else self.black

    @property
    def acceptable(self) -> tuple[str, ...]:
        limit = game_support(self.kind).scores.accept_mover_loss
        return tuple(a.move for a in self.answers if a.loss < limit)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> Card:
        data = json.loads(text)
        data["answers"] = tuple(Answer(**a) for a in data.get("answers", ()))
        data["why_motifs"] = tuple(str(m) for m in data.get("why_motifs", ()))
        return Card(**data)


def card_id_for(kind: GameKind, position_key: str) -> str:
    return hashlib.sha1(f"{kind}|{position_key}".encode()).hexdigest()[:12]


def side_of_player(player: str, white: str, black: str) -> Color | None:
    """The colour `player` had in a game between `white` and `black`: the side named `player` (any
    case and spacing), else the one side whose name holds it; None when neither, or both, hold it."""
    wanted = player_key(player)
    if not wanted:
        return None
    names: dict[Color, str] = {"white": player_key(white), "black": player_key(black)}
    exact = [side for side, name in names.items() if name == wanted]
    if len(exact) == 1:
        return exact[0]
    holding = [side for side, name in names.items() if wanted in name]
    return holding[0] if len(holding) == 1 else None


def cards_of_player(cards: Sequence[Card], player: str | None) -> list[Card]:
    """The cards of `player`'s own moves (every card when `player` is None or blank)."""
    if player is None or not player.strip():
        return list(cards)
    return [card for card in cards if side_of_player(player, card.white, card.black) == card.side]


# ------------------------------------------------------------------------------ positions


def position_of(card: Card) -> Any:
    """The rules' position of a card (a python-chess board or a GoPosition)."""
    return rules_for(card.kind).from_record(card.position)


# ------------------------------------------------------------------------------- values


def _answers(kind: GameKind, before: Evaluation, mover: Color, baseline: float) -> tuple[Answer, ...]:
    support = game_support(kind)
    answers: dict[str, float] = {}
    for candidate in sorted(before.candidates, key=lambda c: c.order):
        value = support.candidate_value(candidate, mover)
        if value is None or candidate.move in answers:
            continue
        answers[candidate.move] = max(0.0, baseline - value)
    best = before.best_move
    if best and best not in answers:
        answers[best] = 0.0
    return tuple(Answer(move, round(loss, 3)) for move, loss in answers.items())


# ------------------------------------------------------------------------------ harvest


def cards_from_game(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment,
    player: str | None = None,
) -> list[Card]:
    """A card for every mistake and blunder (book moves never) whose position the engine judged,
    made only from evaluations an engine that may label moves gave (scoring.trust); with `player`,
    only that player's moves (`side_of_player`)."""
    rules, support = rules_for(game.kind), game_support(game.kind)
    cards: list[Card] = []
    board_size = max(game.board_width, game.board_height)
    opening = assessment.opening.name if assessment.opening is not None else ""
    players_side = side_of_player(player, game.white, game.black) if player is not None and player.strip() else None
    if player is not None and player.strip() and players_side is None:
        return []
    for move in assessment.moves:
        if move.judgement not in CARD_JUDGEMENTS or move.book or move.loss is None:
            continue
        before = evaluations.get(move.ply - 1)
        if before is None or not before.best_move or not judge_engine(before.engine_id, game.kind, board_size).labels:
            continue
        mover = move.color
        if players_side is not None and mover != players_side:
            continue
        node = game.node_at_ply(move.ply)
        parent = node.parent if node.parent is not None else game.root
        position = rules.after(game, parent)
        if rules.side_to_move(position) != mover:
            continue  # a setup or a pass in between: the card would ask the wrong side
        baseline = support.mover_value(before, mover, mover)
        loss: float | None = getattr(move, support.scores.mover_loss_field)
        record = rules.to_record(position, game)
        if baseline is None or loss is None:
            continue
        why = explain_assessed(game, evaluations, move)
        cards.append(
            Card(
                card_id=card_id_for(game.kind, rules.position_key(position)),
                kind=game.kind,
                position=record,
                side=mover,
                played=move.move,
                best=before.best_move,
                judgement=move.judgement or "",
                loss=round(float(loss), 3),
                baseline=round(baseline, 3),
                answers=_answers(game.kind, before, mover, baseline),
                engine_id=before.engine_id,
                source_path=game.source.path or "",
                source_index=game.source.index,
                ply=move.ply,
                white=game.white,
                black=game.black,
                date=game.date,
                opening=opening,
                why_text=why.text if why is not None else "",
                why_motifs=why.motifs if why is not None else (),
            )
        )
    return cards


# ------------------------------------------------------------------------------- answers


@dataclass(frozen=True)
class Verdict:
    """The judgement of one answer. `accepted` is None when it could not be judged (no engine)."""

    accepted: bool | None
    move: str  # the answer in the game's notation ("" when it could not be read)
    message: str
    loss: float | None = None
    best: bool = False


Evaluator = Callable[[Card, str], float | None]  # the loss of an answer the card does not know


def judge_answer(card: Card, text: str, evaluate: Evaluator | None = None) -> Verdict:
    """Judge an answer to a card by the card's answers, else by `evaluate` (an engine)."""
    rules = rules_for(card.kind)
    try:
        played = rules.play(position_of(card), text)
    except IllegalMove as illegal:
        return Verdict(False, "", illegal.sentence)
    move = played.move
    limit = game_support(card.kind).scores.accept_mover_loss
    known = {_canonical(card, a.move): a.loss for a in card.answers}
    loss = known.get(move)
    if loss is None and move == _canonical(card, card.played):
        loss = card.loss
    if loss is None and evaluate is not None:
        loss = evaluate(card, move)
    if loss is None:
        return Verdict(None, move, f"{move}: no engine verdict on this move; cannot judge it")
    if move == _canonical(card, card.best) or loss <= 0.0:
        return Verdict(True, move, "Good, that's the best move.", loss, best=True)
    if loss < limit:
        return Verdict(True, move, f"Good move ({_loss_text(card, loss)}); {card.best} was best.", loss)
    return Verdict(False, move, f"Not this one, try again ({_loss_text(card, loss)}).", loss)


def _canonical(card: Card, move: str) -> str:
    """A move of the card in the notation `rules.play` gives back (SAN with suffixes; GTP upper case)."""
    try:
        return str(rules_for(card.kind).play(position_of(card), move).move)
    except IllegalMove:
        return move


def _loss_text(card: Card, loss: float) -> str:
    scores = game_support(card.kind).scores
    return f"−{loss:.1f} {scores.mover_loss_unit or scores.unit}"


def answer_game(card: Card, move: str) -> Game:
    """A one-move game from the card's position, for an engine to judge an answer."""
    rules = rules_for(card.kind)
    game = rules.record_game(card.position, card.side)
    played = rules.play(rules.start(game), move)
    game.root.add_child(game_support(card.kind).new_node(game, played))
    return game


def loss_from_evaluation(card: Card, after: Evaluation) -> float | None:
    """What an answer costs against the card's baseline, from the engine's verdict after it."""
    value = game_support(card.kind).mover_value(after, card.side, other_color(card.side))
    return None if value is None else max(0.0, card.baseline - value)


__all__: Sequence[str] = [
    "Answer",
    "Card",
    "Verdict",
    "answer_game",
    "cards_from_game",
    "cards_of_player",
    "judge_answer",
    "loss_from_evaluation",
    "position_of",
    "side_of_player",
]
