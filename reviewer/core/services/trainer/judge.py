"""An engine that judges answers the card does not know (the same engine settings as a review)."""

from __future__ import annotations

from collections.abc import Callable

from reviewer.core.analysis import Limit
from reviewer.core.errors import ReviewerError
from reviewer.core.games import game_support
from reviewer.core.services.trainer.cards import Card, Evaluator, answer_game, loss_from_evaluation

DEFAULT_NODES = 1_000_000
DEFAULT_VISITS = 100


def engine_evaluator(
    command: str | None = None,
    name: str | None = None,
    nodes: int = DEFAULT_NODES,
    visits: int = DEFAULT_VISITS,
    report: Callable[[str], None] = lambda _message: None,
) -> Evaluator:
    """An `Evaluator` that opens the engine (`command`, else `name`, else the best found) when asked,
    searches the position after the answer, and closes it. It gives no verdict (None) when the
    engine is missing, fails, or may not label moves (scoring.trust); `report` hears why."""

    def evaluate(card: Card, move: str) -> float | None:
        from reviewer.core.engines.registry import open_engine
        from reviewer.core.review import analyse_game
        from reviewer.core.scoring.trust import judge_engine

        game = answer_game(card, move)
        limit = Limit(nodes=nodes) if game_support(card.kind).work_unit == "nodes" else Limit(visits=visits)
        size = (game.board_width, game.board_height)
        try:
            engine = open_engine(card.kind, name=name, command=command, board_size=size)
        except ReviewerError as error:
            report(str(error))
            return None
        try:
            for evaluation in analyse_game(game, engine, limit, plies=[1]):
                trust = judge_engine(evaluation.engine_id, card.kind, max(game.board_width, game.board_height))
                if not trust.labels:
                    report(f"{trust.reason}. {trust.remedy}")
                    return None
                return loss_from_evaluation(card, evaluation)
        except ReviewerError as error:
            report(str(error))
        finally:
            engine.close()
        return None

    return evaluate
