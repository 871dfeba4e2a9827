"""Go scoring against SCORING.md ("Go"), on hand-made candidate lists worked out in the comments.

All leads are Black's view; s = +1 when Black moves, -1 when White moves.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_scoring_games import go_eval, go_game

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable
from reviewer.core.scoring import assess_game
from reviewer.core.scoring.go import (
    accuracy_from_weighted_loss,
    adjusted_weight,
    colour_class,
    difficulty,
    judgement_by_loss,
    points_lost,
    raw_weight,
    weighted_loss,
)

APPROX = dict(rel=1e-9, abs=1e-9)

# Black to move, S(P0) = 2.0. Candidates (move, prior, lead for Black), best first:
#   D4 prior 0.5 lead 2.5 -> loses max(0, 2.0 - 2.5) = 0    -> 0.5 * 0   = 0
#   Q16 prior 0.3 lead 1.0 -> loses 2.0 - 1.0 = 1.0          -> 0.3 * 1.0 = 0.3
#   C3 prior 0.2 lead 0.0 -> loses 2.0 - 0.0 = 2.0           -> 0.2 * 2.0 = 0.4
# difficulty 0.7; priors sum to 1.0 -> weight min(1, 0.7) = 0.7
BLACK_CANDIDATES = [("D4", 0.5, 2.5), ("Q16", 0.3, 1.0), ("C3", 0.2, 0.0)]


def candidates(rows):
    return [Candidate(move=m, order=i, prior=p, score_lead_first=lead) for i, (m, p, lead) in enumerate(rows)]


def test_points_lost_root_to_root_and_signed():
    assert points_lost(2.0, 1.2, "black") == pytest.approx(0.8, **APPROX)  # Black: 2.0 - 1.2
    assert points_lost(2.0, 6.0, "white") == pytest.approx(4.0, **APPROX)  # White: -(2.0 - 6.0)
    assert points_lost(0.0, 1.5, "black") == pytest.approx(-1.5, **APPROX)  # the move gained


def test_difficulty_and_weight_of_a_hand_made_candidate_list():
    assert difficulty(2.0, candidates(BLACK_CANDIDATES), "black") == pytest.approx(0.7, **APPROX)
    assert raw_weight(2.0, candidates(BLACK_CANDIDATES), "black") == pytest.approx(0.7, **APPROX)


def test_difficulty_for_white_flips_the_sign():
    # White to move, S = 2.0. D4 lead 1.0: -(2.0 - 1.0) = -1 -> 0; E5 lead 6.0: -(2.0 - 6.0) = 4 -> 0.4 * 4 = 1.6
    rows = candidates([("D4", 0.6, 1.0), ("E5", 0.4, 6.0)])
    assert difficulty(2.0, rows, "white") == pytest.approx(1.6, **APPROX)
    assert raw_weight(2.0, rows, "white") == 1.0  # min(1, 1.6 / 1.0)


def test_weight_divides_by_the_sum_of_priors():
    # priors 0.25 + 0.25 = 0.5; difficulty 0.25 * 2 + 0.25 * 0 = 0.5; 0.5 / 0.5 = 1.0
    rows = candidates([("A1", 0.25, 3.0), ("B1", 0.25, 1.0)])
    assert raw_weight(3.0, rows, "black") == pytest.approx(1.0, **APPROX)
    # priors 0.1 + 0.1, difficulty 0.1 * 1 = 0.1 -> 0.1 / 0.2 = 0.5
    rows = candidates([("A1", 0.1, 3.0), ("B1", 0.1, 2.0)])
    assert raw_weight(3.0, rows, "black") == pytest.approx(0.5, **APPROX)
    assert difficulty(3.0, [], "black") is None and raw_weight(3.0, [], "black") is None


def test_adjusted_weight_clamps():
    assert adjusted_weight(0.7, 0.8) == pytest.approx(0.7, **APPROX)  # max(0.7, 0.2)
    assert adjusted_weight(0.1, 2.0) == pytest.approx(0.5, **APPROX)  # max(0.1, 2/4)
    assert adjusted_weight(0.01, 0.0) == pytest.approx(0.05, **APPROX)  # floor 0.05
    assert adjusted_weight(0.3, 10.0) == 1.0  # 10/4 = 2.5 -> ceiling 1
    assert adjusted_weight(0.01, -3.0) == pytest.approx(0.05, **APPROX)  # a gain counts as L = 0


def test_judgements_and_colour_classes():
    assert [judgement_by_loss(x) for x in (0, 2.99, 3, 6, 11.9, 12)] == [
        "good", "good", "inaccuracy", "mistake", "mistake", "blunder",
    ]
    # KaTrain's classes by thresholds 12 / 6 / 3 / 1.5 / 0.5
    assert [colour_class(x) for x in (20, 12, 7, 6, 3.5, 1.5, 0.6, 0.5, 0.49, 0)] == [0, 0, 1, 1, 2, 3, 4, 4, 5, 5]


def test_weighted_loss_and_accuracy():
    # (0.8 * 0.7 + 4 * 1.0) / (0.7 + 1.0) = 4.56 / 1.7 = 2.682353
    assert weighted_loss([0.8, 4.0], [0.7, 1.0]) == pytest.approx(4.56 / 1.7, **APPROX)
    # 100 * 0.75^2 = 56.25
    assert accuracy_from_weighted_loss(2.0) == pytest.approx(56.25, **APPROX)
    assert accuracy_from_weighted_loss(0.0) == 100
    assert accuracy_from_weighted_loss(None) is None


def five_lines(rows):
    """A candidate list padded to five lines with unlikely moves (prior 0: no weight, no difficulty)."""
    padding = [(point, 0.0, rows[-1][2]) for point in ("A1", "B1", "C1", "D1") if point not in {r[0] for r in rows}]
    return list(rows) + padding[: max(0, 5 - len(rows))]


def hand_game():
    """Black Q16 (not the top choice), White E5 (loses 4), Black D4 (the top choice), White pass (gains)."""
    game = go_game(["Q16", "E5", "D4", "pass"])
    table = EvaluationTable()
    table.add(go_eval(0, 2.0, five_lines(BLACK_CANDIDATES), winrate_first=0.6))
    # P1 after Q16: S = 1.2. White to move: D4 (0.6, lead 1.0) loses -(1.2-1.0) < 0 -> 0;
    # E5 (0.4, lead 5.2) loses -(1.2 - 5.2) = 4 -> 1.6; difficulty 1.6 -> weight 1
    table.add(go_eval(1, 1.2, five_lines([("D4", 0.6, 1.0), ("E5", 0.4, 5.2)]), winrate_first=0.55))
    # P2 after E5: S = 5.2. Black to move: D4 (0.9, lead 5.0) loses 0.2 -> 0.18; K10 (0.1, 3.0) loses 2.2 -> 0.22
    # difficulty 0.4 -> weight 0.4
    table.add(go_eval(2, 5.2, five_lines([("D4", 0.9, 5.0), ("K10", 0.1, 3.0)])))
    # P3 after D4: S = 18.0 (noise: the top move "lost" -12.8, i.e. gained). White to move:
    # pass (0.2, lead 17.0) loses -(18-17) -> 0; T19 (0.8, lead 18.0) 0 -> difficulty 0, weight 0
    table.add(go_eval(3, 18.0, five_lines([("T19", 0.8, 18.0), ("PASS", 0.2, 17.0)])))
    table.add(go_eval(4, 17.0))  # after the pass: S = 17.0
    return game, table


def test_a_whole_game_move_by_move():
    game, table = hand_game()
    q16, e5, d4, pass_ = assess_game(game, table).moves
    # Q16: L = 2.0 - 1.2 = 0.8; weight 0.7; adj max(0.7, 0.2) = 0.7; good; class 4 (>= 0.5)
    assert q16.loss == pytest.approx(0.8, **APPROX) and q16.difficulty == pytest.approx(0.7, **APPROX)
    assert q16.weight == pytest.approx(0.7, **APPROX) and q16.judgement == "good" and q16.colour_class == 4
    assert q16.best == "D4" and q16.is_best is False
    assert q16.top5 is False  # order 1 but loses 2.0 - 1.0 = 1.0 >= 0.5
    assert q16.eval_before == 2.0 and q16.eval_after == 1.2
    assert q16.win_pct_before == pytest.approx(60.0) and q16.win_pct_after == pytest.approx(55.0)
    # E5: L = -(1.2 - 5.2) = 4.0; weight 1; adj max(1, 1) = 1; inaccuracy (>= 3); class 2
    assert e5.loss == pytest.approx(4.0, **APPROX) and e5.weight == 1.0
    assert e5.judgement == "inaccuracy" and e5.colour_class == 2
    assert e5.top5 is False  # order 1, loses 4
    # D4: the order-0 candidate: best, whatever the root-to-root loss says; points lost 5.2 - 18 = -12.8
    assert d4.judgement == "best" and d4.is_best and d4.top5
    assert d4.loss == pytest.approx(-12.8, **APPROX) and d4.colour_class == 5
    # weight 0.4, L 0 -> adj 0.4
    assert d4.weight == pytest.approx(0.4, **APPROX)
    # pass: order 1 ("PASS" matches "pass"), own loss -(18 - 17) = -1 < 0.5 -> top 5
    # L = -(18 - 17) = -1 -> 0; weight 0 -> adj 0.05
    assert pass_.top5 is True and pass_.is_best is False
    assert pass_.loss == pytest.approx(-1.0, **APPROX) and pass_.weight == pytest.approx(0.05, **APPROX)
    assert pass_.judgement == "good"


def test_per_side_figures():
    game, table = hand_game()
    result = assess_game(game, table)
    black, white = result.summary["black"], result.summary["white"]
    # Black: Q16 (L 0.8, adj 0.7), D4 (L 0, adj 0.4): (0.56 + 0) / 1.1 = 0.509091
    assert black.weighted_loss == pytest.approx(0.56 / 1.1, **APPROX)
    assert black.accuracy == pytest.approx(100 * 0.75 ** (0.56 / 1.1), **APPROX)  # 86.38
    assert black.mean_loss == pytest.approx(0.4, **APPROX)  # (0.8 + 0) / 2
    assert black.top_move_match == 0.5 and black.top5_match == 0.5
    assert black.counts == {"book": 0, "best": 1, "good": 1, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    # White: E5 (L 4, adj 1), pass (L 0, adj 0.05): 4 / 1.05 = 3.809524; accuracy 100 * 0.75^3.809524 = 33.47
    assert white.weighted_loss == pytest.approx(4 / 1.05, **APPROX)
    assert white.accuracy == pytest.approx(100 * 0.75 ** (4 / 1.05), **APPROX)
    assert white.mean_loss == pytest.approx(2.0, **APPROX)
    assert white.top_move_match == 0 and white.top5_match == 0.5
    assert white.counts["inaccuracy"] == 1 and white.counts["good"] == 1


def test_top5_only_where_the_search_gave_five_lines():
    # A fast pass lists one or two visited moves: being "one of the top 5" there would only repeat
    # "the top move". Q16 (order 1, loses 0.2) and D4 (the top move) stand on one-line positions:
    # no top 5; K10 (order 1 of 5 searched, loses 0.3 < 0.5) is one of the top 5.
    game = go_game(["Q16", "E5", "D4", "K10", "C3"])
    table = EvaluationTable()
    table.add(go_eval(0, 2.0, [("D4", 0.6, 2.0), ("Q16", 0.4, 1.8)]))
    table.add(go_eval(1, 1.8, [("E5", 1.0, 1.8)]))
    table.add(go_eval(2, 1.8, [("D4", 1.0, 1.8)]))
    table.add(go_eval(3, 1.8, five_lines([("F6", 0.5, 1.8), ("K10", 0.5, 2.1)])))
    table.add(go_eval(4, 2.1, five_lines([("G7", 0.5, 2.1), ("H8", 0.3, 2.0)])))
    table.add(go_eval(5, -9.0))
    q16, e5, d4, k10, c3 = assess_game(game, table).moves
    assert (q16.top5, e5.top5, d4.top5) == (None, None, None)
    assert d4.is_best and e5.is_best
    assert k10.top5 is True and c3.top5 is False  # C3: not among the five lines
    result = assess_game(game, table)
    black, white = result.summary["black"], result.summary["white"]
    assert black.top5_moves == 1 and black.top5_match == 0.0  # C3 only
    assert white.top5_moves == 1 and white.top5_match == 1.0  # K10 only
    assert black.top_move_match == pytest.approx(1 / 3)  # D4 of Q16, D4, C3: every position has a top move


def test_a_candidate_of_no_visits_is_no_line():
    searched = [Candidate(move=m, order=i, prior=0.2, score_lead_first=1.0, visits=1 if i < 2 else 0)
                for i, m in enumerate(("D4", "Q16", "C3", "R4", "Q3"))]
    game = go_game(["Q16"])
    table = EvaluationTable()
    table.add(Evaluation(ply=0, kind="go", score_lead_first=1.0, candidates=tuple(searched)))
    table.add(go_eval(1, 1.0))
    (q16,) = assess_game(game, table).moves
    assert q16.top5 is None and assess_game(game, table).summary["black"].top5_moves == 0


def test_missing_positions_give_null_figures():
    game = go_game(["Q16", "D4"])
    table = EvaluationTable()
    table.add(go_eval(0, 2.0, BLACK_CANDIDATES))
    # P1 missing: Q16's loss and D4's weight are unknown
    table.add(go_eval(2, 1.0))
    q16, d4 = assess_game(game, table).moves
    assert q16.loss is None and q16.weight is None and q16.judgement is None and q16.colour_class is None
    assert q16.difficulty == pytest.approx(0.7, **APPROX)  # P0 alone is enough for the difficulty
    assert d4.loss is None and d4.best is None and d4.is_best is None and d4.top5 is None
    result = assess_game(game, table)
    assert result.summary["white"].accuracy is None and result.summary["white"].top_move_match is None


def test_white_first_and_a_blunder():
    # A game where White moves first (handicap): White D4 from S = -10 to S = 5 loses 15 points
    game = go_game(["D4"], first="white")
    table = EvaluationTable()
    table.add(go_eval(0, -10.0, [("Q16", 1.0, -10.0)]))
    table.add(go_eval(1, 5.0))
    move = assess_game(game, table).moves[0]
    assert move.color == "white" and move.loss == pytest.approx(15.0, **APPROX)
    assert move.judgement == "blunder" and move.colour_class == 0
    # weight: Q16 loses -(-10 - -10) = 0 -> difficulty 0 -> weight 0; adj max(0, 15/4) -> clamp 1
    assert move.raw_weight == 0 and move.weight == 1.0


def test_the_reports_say_on_how_many_positions_the_top5_stands():
    from support import KATAGO_ID

    from reviewer.commands.report import summary_rows
    from reviewer.core.export.reports import report_html
    from reviewer.core.report import build_report

    # Black's first and third moves stand on five searched lines (the third is the top move), the
    # fourth on a two-visit search of one line: "top 5" is known for two of Black's three moves.
    game = go_game(["E5", "C3", "G5", "D4", "F4", "H8"], first="black")
    table = EvaluationTable()
    for ply, lead, rows in (
        (0, 7.0, five_lines([("E5", 0.6, 7.0), ("C5", 0.4, 6.8)])),
        (1, 6.9, [("C3", 1.0, 6.9)]),
        (2, 6.9, five_lines([("G5", 0.6, 6.9), ("C5", 0.4, 6.0)])),
        (3, 6.9, [("D4", 1.0, 6.9)]),
        (4, 6.9, [("B2", 1.0, 6.9)]),
        (5, 2.0, []),
        (6, 2.0, []),
    ):
        evaluation = replace(go_eval(ply, lead, rows), engine_id=KATAGO_ID)
        table.add(evaluation)
    report = build_report(game, table)
    black = report["summary"]["black"]
    assert (black["top5_moves"], black["top5_match"]) == (2, 1.0)
    assert report["summary"]["white"]["top5_moves"] == 0 and report["summary"]["white"]["top5_match"] is None
    rows = {label: (white, black) for label, white, black in summary_rows(report)}
    assert rows["Top 5"] == ("—", "2/2 of the positions with five lines")
    assert "<td>Top 5</td>" in report_html([report]) and "2/2 of the positions with five lines" in report_html([report])
