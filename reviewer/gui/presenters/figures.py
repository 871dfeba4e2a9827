"""The figures the graph, the summary and the player strips show, in the units SCORING.md defines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.coverage import Coverage
from reviewer.core.games import game_support
from reviewer.core.gametree import Game, numbered_moves
from reviewer.core.score_text import score_text
from reviewer.core.scoring import headline_accuracy_field
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.text import SCREEN_DOTS


def _win_chances(game: Game) -> bool:
    """Whether the game's values are centipawns with win chances (chess) rather than leads in points (Go)."""
    return game_support(game.kind).scores.style == "pawns"


def _graph_loss(game: Game, move: Any) -> float | None:
    """Chess: the mover's drop in win % (what the judgements read); Go: points lost."""
    if not _win_chances(game):
        return None if move.loss is None else float(move.loss)
    if move.win_pct_before is None or move.win_pct_after is None:
        return None
    sign_mover = 1.0 if move.color == game_support(game.kind).first_player else -1.0  # win % are the first player's
    return max(0.0, sign_mover * float(move.win_pct_before - move.win_pct_after))


def graph_series(
    game: Game, evaluations: dict[int, Evaluation], assessment: Any, mode: str
) -> tuple[dict[int, float], dict[int, float]]:
    """Position values by ply in the graph's unit, and each move's loss by ply (see _graph_loss).

    Chess: E(P) (normalised centipawns, White's view) in every mode; Go: S(P) (lead, Black's
    view) in "lead" mode, W(P) (winrate, Black's view) in "winrate" mode.
    """
    losses = {
        move.ply: loss for move in getattr(assessment, "moves", ()) or () if (loss := _graph_loss(game, move)) is not None
    }
    evals: dict[int, float] = {}
    for ply, evaluation in evaluations.items():
        if not _win_chances(game) and mode == presentation(game.kind).graph_modes[0]:
            value = evaluation.winrate_first
        else:
            value = position_value(game, evaluation)
        if value is not None:
            evals[ply] = float(value)
    return evals, losses


def position_value(game: Game, evaluation: Evaluation) -> float | None:
    """The game's value of the position, the first player's view: E(P) for chess (normalised
    centipawns, White's view), S(P) for Go (lead, Black's view)."""
    return game_support(game.kind).position_value(evaluation)


ACCURACY_FIELDS = ("accuracy", "accuracy_lichess", "accuracy_mean")
# A side's figures from fewer of its moves (all of them when it played fewer) are no figure at all:
# one judged move gives an "accuracy" or an "ACPL" that says nothing of the game.
MIN_MOVES_FOR_FIGURES = 5


def _side_moves(assessment: Any, color: str) -> list[Any]:
    moves = getattr(assessment, "moves", ()) if assessment is not None else ()
    return [move for move in moves or () if move.color == color]


def _judged(move: Any) -> bool:
    """Judged, or scored where labels are withheld; a book move is neither."""
    return not move.book and (move.judgement not in (None, "book") or move.loss is not None)


def side_judged(assessment: Any, color: str) -> bool:
    """Whether enough of `color`'s moves are judged (a book move is not judged) for its figures to
    mean something (`MIN_MOVES_FOR_FIGURES`): until then its accuracy is no figure at all, not 100%."""
    moves = _side_moves(assessment, color)
    judged = sum(1 for move in moves if _judged(move))
    return judged > 0 and judged >= _needed(moves)


def _needed(moves: list[Any]) -> int:
    """How many judged moves a side's figures need: `MIN_MOVES_FOR_FIGURES`, or every move out of
    the opening book when it played fewer."""
    return min(MIN_MOVES_FOR_FIGURES, sum(1 for move in moves if not move.book))


@dataclass(frozen=True)
class SideBasis:
    """What one side's figures stand on: its moves judged of its moves played, and while the
    analysis is not final, which pass of a review in passes they come from."""

    moves_judged: int
    moves_total: int
    moves_needed: int = MIN_MOVES_FOR_FIGURES  # judged moves its figures need (see `side_judged`)
    passes: str = ""  # 'pass 1 of 3' while a review in passes has passes left
    final: bool = False  # every move analysed by every pass: the figures are the game's

    @property
    def enough(self) -> bool:
        return self.moves_judged > 0 and self.moves_judged >= self.moves_needed

    def text(self) -> str:
        """'29/39 moves · pass 1 of 3' beside the figure; '' when it is final."""
        if self.final:
            return ""
        parts = [f"{self.moves_judged}/{self.moves_total} moves"]
        if self.passes:
            parts.append(self.passes)
        return " · ".join(parts)

    def too_few_text(self) -> str:
        """Where the figures would be when there are too few moves for them."""
        if self.moves_judged == 0:
            return "no move of this side analysed yet"
        return f"{self.moves_judged} of {self.moves_total} moves analysed: too few for a figure"


def side_bases(game: Game, assessment: Any, coverage: Coverage | None) -> dict[str, SideBasis]:
    """Each side's `SideBasis` from the assessment on show and the coverage of its analysis."""
    final = coverage is not None and coverage.complete
    standing = coverage.passes_unfinished if coverage is not None else None
    passes = standing.short_text() if standing is not None else ""
    bases = {}
    for color in ("white", "black"):
        moves = _side_moves(assessment, color)
        total = len(moves) if moves else sum(1 for ply in range(1, game.ply_count + 1) if game.mover_at_ply(ply) == color)
        needed = _needed(moves) if moves else min(MIN_MOVES_FOR_FIGURES, total)
        bases[color] = SideBasis(sum(1 for move in moves if _judged(move)), total, needed, passes, final)
    return bases


HEADLINE_KEY = "headline"  # in a summary dict: the field of the accuracy shown as the side's one accuracy


def _headline(assessment: Any) -> str:
    return headline_accuracy_field(getattr(assessment, "kind", "chess"), getattr(assessment, "preset", None))


def summary_dicts(assessment: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Each side's figures (None before any evaluation), with `headline` naming the accuracy the
    preset's users know; a side with too few moves judged for them has its figures and counts
    voided (see `side_judged`)."""
    if assessment is None:
        return None, None
    summary = getattr(assessment, "summary", {}) or {}
    dicts: list[dict[str, Any] | None] = []
    for color in ("white", "black"):
        side = summary.get(color)
        figures = side.to_json() if side is not None else None
        if figures is not None and not side_judged(assessment, color):
            figures = {"moves": figures.get("moves"), "counts": {}} | dict.fromkeys(
                key for key in figures if key not in ("moves", "counts")
            )
        if figures is not None:
            figures[HEADLINE_KEY] = _headline(assessment)
        dicts.append(figures)
    return dicts[0], dicts[1]


def side_accuracy(assessment: Any, color: str) -> float | None:
    """The side's headline accuracy (by the preset), None before one of its moves is judged."""
    if not side_judged(assessment, color):
        return None
    summary = (getattr(assessment, "summary", {}) or {}).get(color) if assessment is not None else None
    value = getattr(summary, _headline(assessment), None)
    return float(value) if isinstance(value, (int, float)) else None


def graph_point_texts(game: Game, node_at: Any, evaluations: EvaluationTable, ply_count: int) -> dict[int, str]:
    """The graph's tooltip at each ply: the move and the score after it, mates with their distance."""
    texts: dict[int, str] = {}
    numbered = presentation(game.kind).numbered_moves
    for ply in range(ply_count + 1):
        node = node_at(ply)
        if ply == 0:
            where = "Start"
        elif numbered:
            where = numbered_moves([node.move or ""], game.full_move_number(ply), node.color == "white", SCREEN_DOTS)
        else:
            where = f"{ply}. {node.move or ''}"
        evaluation = evaluations.get(ply)
        texts[ply] = f"{where}  {score_text(game.kind, evaluation) if evaluation is not None else 'not analysed'}"
    return texts
