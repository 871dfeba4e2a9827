"""What the engine-lines panel says about a live evaluation (Qt-free, tested alone).

Chess scores are White's view, as lichess shows them: `+0.41`, `-1.20`, `#3` (White mates in 3),
`#-3` (Black mates in 3), with the WDL percentages when the engine gives them. Go: the score lead
and winrate of the player ahead (`B+3.5 · 62%`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.games import game_support
from reviewer.core.games.support import MoveNumber
from reviewer.core.gametree import Point, numbered_moves, point_from_gtp
from reviewer.gui.presenters.board_marks import candidate_losses, loss_text
from reviewer.gui.presenters.text import visits_text


@dataclass(frozen=True)
class LineRow:
    score: str  # "+0.41", "#-3", "B+3.5"
    detail: str  # "W 31% · D 60% · L 9%" / "−1.1 · B 62% · 1.2k visits" (what the line gives away first)
    moves: tuple[str, ...]  # SAN or GTP, first move first
    moves_text: str  # "12. Nf3 Nc6 13. Bb5" / "D4 Q16 C3"


def chess_score_text(score_cp_first: int | None, mate_first: int | None) -> str:
    if mate_first is not None:
        return f"#{mate_first}"
    if score_cp_first is None:
        return "–"
    return f"{score_cp_first / 100:+.2f}"


def go_score_text(lead_black: float | None) -> str:
    if lead_black is None:
        return "–"
    leader = "B" if lead_black >= 0 else "W"
    return f"{leader}+{abs(lead_black):.1f}"


def _work_text(candidate: Candidate, evaluation: Evaluation) -> str:
    if game_support(evaluation.kind).work_unit == "nodes":
        return f"depth {evaluation.depth}" if evaluation.depth else ""
    visits = candidate.visits or 0
    return visits_text(visits, short=True)


def line_rows(evaluation: Evaluation, numbering: MoveNumber | None = None, limit: int = 5) -> list[LineRow]:
    """The panel's rows, best line first (at most `limit`); `numbering` at the position searched
    numbers the lines' moves (None: plain moves)."""
    rows: list[LineRow] = []
    candidates = sorted(evaluation.candidates, key=lambda c: c.order)[:limit]
    first, second = game_support(evaluation.kind).player_order
    to_move = evaluation.side_to_move or (None if numbering is None else first if numbering.first_to_move else second)
    losses = candidate_losses(evaluation, to_move) if to_move else {}  # the figures the board shows for this search
    for candidate in candidates:
        loss = losses.get(candidate.move)
        lost = loss_text(evaluation.kind, loss) if loss is not None and candidate.order > 0 else ""
        moves = candidate.pv or (candidate.move,)
        if game_support(evaluation.kind).scores.style == "pawns":
            score = chess_score_text(candidate.score_cp_first, candidate.mate_first)
            detail = _work_text(candidate, evaluation)
            if candidate.order == 0 and evaluation.wdl_first is not None:
                win, draw, loss = evaluation.wdl_first
                detail = f"W {win / 10:.0f}% · D {draw / 10:.0f}% · L {loss / 10:.0f}%" + (f" · {detail}" if detail else "")
            text = numbered_moves(moves, numbering.number, numbering.first_to_move) if numbering is not None else " ".join(moves)
            detail = " · ".join(part for part in (lost, detail) if part)
        else:
            score = go_score_text(candidate.score_lead_first)
            winrate = candidate.winrate_first
            detail = " · ".join(
                part
                for part in (
                    lost,
                    f"B {winrate * 100:.0f}%" if winrate is not None else "",
                    _work_text(candidate, evaluation),
                )
                if part
            )
            text = " ".join(moves)
        rows.append(LineRow(score, detail, tuple(moves), text))
    return rows


def speed_text(evaluation: Evaluation) -> str:
    """`1.2M nodes/s` or `35 visits/s` from what the search spent; "" when unknown."""
    if not evaluation.nodes or not evaluation.seconds:
        return ""
    rate = evaluation.nodes / evaluation.seconds
    unit = f"{game_support(evaluation.kind).work_unit}/s"
    if rate >= 1_000_000:
        return f"{rate / 1_000_000:.1f}M {unit}"
    if rate >= 1000:
        return f"{rate / 1000:.0f}k {unit}"
    if rate < 10:  # a slow start (a network loading): '0.5 visits/s', not '0 visits/s'
        return f"{rate:.1f} {unit}"
    return f"{rate:.0f} {unit}"


def ghost_stones(moves: Sequence[str], first_color: str, height: int, limit: int = 10) -> list[tuple[Point, str, int]]:
    """(point, colour, number) of the first `limit` moves of a GTP line (passes are skipped, numbered)."""
    stones: list[tuple[Point, str, int]] = []
    color = first_color
    for number, move in enumerate(list(moves)[:limit], start=1):
        try:
            point = point_from_gtp(move, height)
        except ValueError:
            break
        if point is not None:
            stones.append((point, color, number))
        color = "white" if color == "black" else "black"
    return stones


def win_pct_white(evaluation: Evaluation) -> float | None:
    """White's win chance in percent for the evaluation bar, as the game reads it (chess: lichess's
    curve; mates are 0 or 100)."""
    return game_support(evaluation.kind).eval_bar_share(evaluation)
