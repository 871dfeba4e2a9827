"""Go scoring (SCORING.md, "Go"): points lost, difficulty, weights, judgements, KaTrain's accuracy.

Every value is Black's view: S(P) is the root score lead of P for Black. For move i the mover's
sign is s = +1 for Black, -1 for White; the points lost are s*(S(P(i-1)) - S(Pi)).
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable
from reviewer.core.gametree import Color, Game
from reviewer.core.scoring.common import (
    DEFAULT_PRESET,
    GameAssessment,
    GoSideSummary,
    Judgement,
    MoveAssessment,
    Preset,
    accuracy_from_weighted_loss,
    clamp,
    count_judgements,
    mean,
    weighted_loss,
)

# Judgement by L = max(0, points lost): (inaccuracy, mistake, blunder) lower bounds, in points.
LOSS_THRESHOLDS = (3.0, 6.0, 12.0)
# KaTrain's colour classes: class 0 for a loss >= 12 (worst) .. class 5 for a loss < 0.5.
COLOUR_CLASS_THRESHOLDS = (12.0, 6.0, 3.0, 1.5, 0.5)
COLOUR_CLASS_NAMES = ("purple", "red", "orange", "yellow", "lightgreen", "green")

MIN_ADJ_WEIGHT, MAX_ADJ_WEIGHT = 0.05, 1.0
TOP5_ORDER_LIMIT = 5
TOP5_MIN_LINES = 5  # a position whose search visited fewer moves has no top 5 to be one of
TOP5_MAX_LOSS = 0.5


def sign_of(color: Color) -> int:
    """s: +1 when Black is the mover, -1 for White."""
    return 1 if color == "black" else -1


def lead_black(evaluation: Evaluation) -> float | None:
    """S(P): the root score lead, Black's view."""
    return evaluation.score_lead_first


def lead_of_mover(evaluation: Evaluation, mover: Color, to_move: Color) -> float | None:
    """The root score lead from the mover's view, in points, whoever is to play."""
    lead = evaluation.score_lead_first
    return None if lead is None else sign_of(mover) * lead


def points_lost(lead_before_black: float, lead_after_black: float, mover: Color) -> float:
    """Root to root, signed: negative when the move gained points for the mover."""
    return sign_of(mover) * (lead_before_black - lead_after_black)


def _usable(candidates: Sequence[Candidate]) -> list[tuple[float, float]]:
    """(prior, score_lead_first) of every candidate that has both."""
    return [
        (c.prior, c.score_lead_first) for c in candidates if c.prior is not None and c.score_lead_first is not None
    ]


def difficulty(lead_before_black: float, candidates: Sequence[Candidate], mover: Color) -> float | None:
    """Sum over candidates of prior * max(0, points that candidate loses); None without candidates."""
    usable = _usable(candidates)
    if not usable:
        return None
    s = sign_of(mover)
    return sum(prior * max(0.0, s * (lead_before_black - lead_black)) for prior, lead_black in usable)


def raw_weight(lead_before_black: float, candidates: Sequence[Candidate], mover: Color) -> float | None:
    """min(1, difficulty / sum of priors); None without candidates or when the priors sum to 0."""
    hard = difficulty(lead_before_black, candidates, mover)
    total_prior = sum(prior for prior, _ in _usable(candidates))
    if hard is None or total_prior <= 0:
        return None
    return min(1.0, hard / total_prior)


def adjusted_weight(weight: float, loss: float) -> float:
    """clamp(max(weight, L/4), 0.05, 1) with L = max(0, points lost)."""
    return clamp(max(weight, max(0.0, loss) / 4.0), MIN_ADJ_WEIGHT, MAX_ADJ_WEIGHT)


def judgement_by_loss(loss: float) -> Judgement:
    inaccuracy, mistake, blunder = LOSS_THRESHOLDS
    if loss >= blunder:
        return "blunder"
    if loss >= mistake:
        return "mistake"
    if loss >= inaccuracy:
        return "inaccuracy"
    return "good"


def colour_class(loss: float) -> int:
    """KaTrain's class: the first threshold (12, 6, 3, 1.5, 0.5) the loss reaches, else 5."""
    for index, threshold in enumerate(COLOUR_CLASS_THRESHOLDS):
        if loss >= threshold:
            return index
    return len(COLOUR_CLASS_THRESHOLDS)


def _same_point(a: str, b: str) -> bool:
    return a.strip().upper() == b.strip().upper()


def top_candidate(evaluation: Evaluation | None) -> str | None:
    if evaluation is None:
        return None
    for candidate in evaluation.candidates:
        if candidate.order == 0:
            return candidate.move
    return evaluation.best_move


def searched_lines(evaluation: Evaluation) -> int:
    """How many candidate moves the search looked at (a candidate of 0 visits was not searched)."""
    return sum(1 for candidate in evaluation.candidates if candidate.visits is None or candidate.visits > 0)


def has_top5(evaluation: Evaluation | None) -> bool:
    """Whether the position's search gives a top 5: at least five searched candidate moves. A
    one- or two-visit search lists one or two, and "one of the top 5" would only repeat "the top move"."""
    return evaluation is not None and searched_lines(evaluation) >= TOP5_MIN_LINES


def is_top5(move: str, evaluation: Evaluation | None, mover: Color) -> bool | None:
    """KaTrain's "AI top 5": the order-0 candidate, or a candidate of order < 5 losing < 0.5 points;
    None where the position has no top 5 (`has_top5`)."""
    if evaluation is None or not has_top5(evaluation):
        return None
    top = top_candidate(evaluation)
    if top is not None and _same_point(top, move):
        return True
    lead = evaluation.score_lead_first
    for candidate in evaluation.candidates:
        if not _same_point(candidate.move, move) or candidate.order >= TOP5_ORDER_LIMIT:
            continue
        if lead is None or candidate.score_lead_first is None:
            return None
        return sign_of(mover) * (lead - candidate.score_lead_first) < TOP5_MAX_LOSS
    return False


def assess_go(
    game: Game, evaluations: EvaluationTable, preset: Preset = DEFAULT_PRESET, skip_book: bool = False
) -> GameAssessment:
    """Every main-line move of a Go game judged, both sides summed up (preset and book are chess settings)."""
    nodes = game.mainline_nodes()
    moves: list[MoveAssessment] = []
    best_seen = False
    for ply, node in enumerate(nodes, start=1):
        if not node.is_move:
            continue  # stones set up (AB/AW/AE), nobody moved: a position, not a move to judge
        mover = node.color or game.mover_at_ply(ply)
        before, after = evaluations.get(ply - 1), evaluations.get(ply)
        lead_before = before.score_lead_first if before is not None else None
        lead_after = after.score_lead_first if after is not None else None
        move_text = node.move or "pass"
        best = top_candidate(before)
        best_seen = best_seen or best is not None
        is_best = None if best is None else _same_point(best, move_text)

        lost = loss_l = None
        if lead_before is not None and lead_after is not None:
            lost = points_lost(lead_before, lead_after, mover)
            loss_l = max(0.0, lost)
        hard = weight = adj = None
        if before is not None and lead_before is not None:
            hard = difficulty(lead_before, before.candidates, mover)
            weight = raw_weight(lead_before, before.candidates, mover)
        if weight is not None and loss_l is not None:
            adj = adjusted_weight(weight, loss_l)

        judgement: Judgement | None = None
        if is_best:
            judgement = "best"
        elif loss_l is not None:
            judgement = judgement_by_loss(loss_l)

        moves.append(
            MoveAssessment(
                ply=ply,
                color=mover,
                move=move_text,
                best=best,
                judgement=judgement,
                loss=lost,
                weight=adj,
                eval_before=lead_before,
                eval_after=lead_after,
                win_pct_before=_pct(before.winrate_first) if before is not None else None,
                win_pct_after=_pct(after.winrate_first) if after is not None else None,
                colour_class=None if loss_l is None else colour_class(loss_l),
                is_best=is_best,
                difficulty=hard,
                raw_weight=weight,
                top5=is_top5(move_text, before, mover),
            )
        )
    summary = {color: _go_side_summary(moves, color) for color in ("white", "black")}
    notes: list[str] = []
    if moves and not best_seen:
        notes.append("best rule not applied: no evaluation lists candidate moves")
    return GameAssessment(
        kind=game.kind,
        preset=preset,
        skip_book=skip_book,
        moves=tuple(moves),
        summary=summary,  # type: ignore[arg-type]
        opening=None,
        best_rule_applied=best_seen,
        notes=tuple(notes),
    )


def _pct(winrate: float | None) -> float | None:
    return None if winrate is None else 100.0 * winrate


def _share(flags: Sequence[bool | None]) -> float | None:
    known = [flag for flag in flags if flag is not None]
    return sum(1 for flag in known if flag) / len(known) if known else None


def _go_side_summary(moves: Sequence[MoveAssessment], color: Color) -> GoSideSummary:
    own = [m for m in moves if m.color == color]
    losses = [max(0.0, m.loss) for m in own if m.loss is not None]
    weighted = [(max(0.0, m.loss), m.weight) for m in own if m.loss is not None and m.weight is not None]
    loss_w = weighted_loss([loss for loss, _ in weighted], [weight for _, weight in weighted])
    return GoSideSummary(
        moves=len(losses),
        accuracy=accuracy_from_weighted_loss(loss_w),
        weighted_loss=loss_w,
        mean_loss=mean(losses),
        top_move_match=_share([m.is_best for m in own]),
        top5_match=_share([m.top5 for m in own]),
        top5_moves=sum(1 for m in own if m.top5 is not None),
        counts=count_judgements(m.judgement for m in own),
    )
