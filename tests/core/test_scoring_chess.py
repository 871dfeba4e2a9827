"""Chess scoring against SCORING.md, with every number worked out by hand in the comments.

Constants used below: win(x) = 50 + 50*(2/(1+exp(-0.00368208*x)) - 1);
acc(d) = 103.1668100711649*exp(-0.04354415386753951*d) - 3.166924740191411 + 1, clamped to [0, 100].
"""

from __future__ import annotations

import math

import pytest
from test_scoring_games import chess_game, cp_table

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable
from reviewer.core.scoring import assess_game
from reviewer.core.scoring.chess import (
    MoverScore,
    elo_estimate,
    judgement_by_drop,
    lichess_side_accuracy,
    lichess_weights,
    lichess_window_size,
    lichess_windows,
    mate_judgement,
    move_accuracy,
    normalised_cp_white,
    sharpness,
    win_pct,
)
from reviewer.core.scoring.common import harmonic_mean_floored, population_stdev, sample_stdev

APPROX = dict(rel=1e-9, abs=1e-9)

# Hand-worked values reused below.
# win(300): exp(-1.104624) = 0.331339..., 2/1.331339 = 1.502247, -1 -> 0.502251, *50 + 50 = 75.112550
WIN_300 = 75.11255009383484
WIN_MINUS_300 = 100 - WIN_300  # win(-x) = 100 - win(x): 24.887450
# drop 50 - 24.887450 = 25.112550; exp(-0.0435441539*25.11255) = 0.335024; 103.16681*0.335024 = 34.565185;
# 34.565185 - 3.166925 + 1 = 32.398104
ACC_DROP_FROM_50_TO_WIN_MINUS_300 = 32.39810425271999


def ev(ply: int, **fields) -> Evaluation:
    return Evaluation(ply=ply, kind="chess", **fields)


# ------------------------------------------------------------------------------ normalisation


def test_centipawns_pass_through_and_clamp_at_1000():
    assert normalised_cp_white(ev(3, score_cp_first=35)) == 35
    assert normalised_cp_white(ev(3, score_cp_first=1000)) == 1000
    assert normalised_cp_white(ev(3, score_cp_first=1001)) == 1000
    assert normalised_cp_white(ev(3, score_cp_first=-2500)) == -1000


def test_mates_for_either_side_become_plus_minus_1000():
    assert normalised_cp_white(ev(5, mate_first=7)) == 1000  # White mates in 7
    assert normalised_cp_white(ev(5, mate_first=1)) == 1000
    assert normalised_cp_white(ev(5, mate_first=-2)) == -1000  # Black mates in 2


def test_checkmated_side_to_move_scores_minus_1000_for_that_side():
    # White to move and checkmated: -1000 for White, i.e. -1000 from White's view
    assert normalised_cp_white(ev(4, terminal="checkmate", side_to_move="white")) == -1000
    # Black to move and checkmated: -1000 for Black = +1000 from White's view
    assert normalised_cp_white(ev(4, terminal="checkmate", side_to_move="black")) == 1000
    # "mate 0" is the same verdict: the side to move is mated
    assert normalised_cp_white(ev(4, mate_first=0, side_to_move="black")) == 1000
    assert normalised_cp_white(ev(4, mate_first=0), side_to_move="white") == -1000


def test_stalemate_and_draws_score_zero_and_missing_is_none():
    assert normalised_cp_white(ev(9, terminal="stalemate", side_to_move="black")) == 0
    assert normalised_cp_white(ev(9, terminal="draw")) == 0
    assert normalised_cp_white(None) is None
    assert normalised_cp_white(ev(9)) is None  # analysed but no score at all


# ------------------------------------------------------------------------------ win % and accuracy


def test_win_percent_curve():
    assert win_pct(0) == 50
    # exp(-0.368208) = 0.691973; 2/1.691973 = 1.182052; (1.182052 - 1)*50 + 50 = 59.102590
    assert win_pct(100) == pytest.approx(59.10258971916128, **APPROX)
    assert win_pct(300) == pytest.approx(WIN_300, **APPROX)
    assert win_pct(-300) == pytest.approx(WIN_MINUS_300, **APPROX)


def test_move_accuracy_formula_with_lichess_bonus():
    # drop 10: exp(-0.4354415) = 0.646979; 103.16681*0.646979 = 66.746760; -3.166925 + 1 -> 64.579835
    assert move_accuracy(60, 50) == pytest.approx(64.57982845372067, **APPROX)
    assert move_accuracy(50, WIN_MINUS_300) == pytest.approx(ACC_DROP_FROM_50_TO_WIN_MINUS_300, **APPROX)
    assert move_accuracy(50, 50) == 100  # no drop
    assert move_accuracy(40, 70) == 100  # a gain
    # drop 0.0001: 103.16681*0.9999956 - 2.166925 = 101.0 -> clamped to 100
    assert move_accuracy(50.0001, 50) == 100


def test_move_accuracy_bottoms_out_at_zero():
    # drop 100: 103.16681*exp(-4.354415) = 1.325688; 1.325688 - 3.166925 + 1 = -0.841236 -> clamped to 0
    assert move_accuracy(100, 0) == 0


def test_judgement_thresholds_of_both_presets():
    assert judgement_by_drop(4.99) == "good"
    assert judgement_by_drop(5) == "inaccuracy"
    assert judgement_by_drop(10) == "mistake"
    assert judgement_by_drop(15) == "blunder"
    assert judgement_by_drop(12, "seed") == "inaccuracy"
    assert judgement_by_drop(9.99, "seed") == "good"
    assert judgement_by_drop(20, "seed") == "mistake"
    assert judgement_by_drop(30, "seed") == "blunder"


def test_mate_rules_in_the_movers_view():
    cp = lambda c: MoverScore(cp=c, mate_for_mover=None)  # noqa: E731
    mate_for = MoverScore(cp=None, mate_for_mover=True)
    mate_against = MoverScore(cp=None, mate_for_mover=False)
    # a centipawn score before, a mate against after ("Checkmate is now unavoidable")
    assert mate_judgement(cp(-1200), mate_against) == "inaccuracy"  # -1200 < -999
    assert mate_judgement(cp(-999), mate_against) == "mistake"  # not < -999, but < -700
    assert mate_judgement(cp(-800), mate_against) == "mistake"
    assert mate_judgement(cp(-700), mate_against) == "blunder"  # not < -700
    assert mate_judgement(cp(50), mate_against) == "blunder"
    # a mate for the mover before, then a centipawn score ("Lost forced checkmate sequence")
    assert mate_judgement(mate_for, cp(1200)) == "inaccuracy"
    assert mate_judgement(mate_for, cp(800)) == "mistake"
    assert mate_judgement(mate_for, cp(700)) == "blunder"
    assert mate_judgement(mate_for, mate_against) == "blunder"
    assert mate_judgement(mate_for, mate_for) == "good"
    # other cases are left to the drop rule
    assert mate_judgement(cp(30), cp(-400)) is None
    assert mate_judgement(mate_against, mate_against) is None
    assert mate_judgement(cp(30), mate_for) is None


# ------------------------------------------------------------------------------ statistics


def test_harmonic_mean_floors_an_accuracy_of_zero_at_one():
    # 2 / (1/100 + 1/max(1, 0)) = 2 / 1.01 = 1.980198
    assert harmonic_mean_floored([100, 0]) == pytest.approx(2 / 1.01, **APPROX)
    assert harmonic_mean_floored([]) is None


def test_sample_and_population_stdev():
    # losses 10, 30, 50: mean 30, squares 400 + 0 + 400 = 800; /(3-1) = 400 -> 20
    assert sample_stdev([10, 30, 50]) == pytest.approx(20.0, **APPROX)
    assert sample_stdev([10]) is None
    # population: 800 / 3 = 266.667 -> 16.329932
    assert population_stdev([10, 30, 50]) == pytest.approx(math.sqrt(800 / 3), **APPROX)


def test_elo_estimate():
    # 3100 * exp(-0.3) = 3100 * 0.740818 = 2296.536
    assert elo_estimate(30) == pytest.approx(2296.5364841133255, **APPROX)
    assert elo_estimate(0) == 3100
    assert elo_estimate(None) is None


def test_sharpness_from_wdl():
    # w = l = 0.25: ln(1/0.25 - 1) = ln 3 = 1.098612 twice -> 2/2.197225 = 0.910239; squared 0.828535
    assert sharpness((250, 500, 250)) == pytest.approx(0.8285354496902229, **APPROX)
    # w = 0.1, l = 0.6: ln 9 = 2.197225, ln(1/0.6 - 1) = -0.405465; 2/1.791759 = 1.116221; squared 1.245950
    assert sharpness((100, 300, 600)) == pytest.approx(1.2459498858777025, **APPROX)
    assert sharpness((0, 400, 600)) is None  # no wins
    assert sharpness((400, 600, 0)) is None  # no losses
    assert sharpness((1000, 0, 0)) is None
    assert sharpness((500, 0, 500)) is None  # ln 1 + ln 1 = 0: the denominator is 0
    assert sharpness(None) is None


# ------------------------------------------------------------------------------ lichess windows


def test_window_size_is_a_tenth_of_the_moves_clamped_to_2_8():
    assert [lichess_window_size(n) for n in (1, 2, 19, 20, 30, 79, 80, 200)] == [2, 2, 2, 2, 3, 7, 8, 8]


def test_windows_start_with_k_minus_2_copies_then_every_run_of_k():
    values = [float(v) for v in range(31)]  # w0..w30: 30 moves, k = 3
    windows = lichess_windows(values)
    assert len(windows) == 30  # one per move: 1 copy + 29 runs of 3
    assert windows[0] == windows[1] == [0.0, 1.0, 2.0]
    assert windows[2] == [1.0, 2.0, 3.0]
    assert windows[-1] == [28.0, 29.0, 30.0]


def test_windows_of_a_two_ply_game():
    # n = 2: k = clamp(0, 2, 8) = 2, no copies, windows [w0, w1] and [w1, w2]
    assert lichess_windows([50.0, 60.0, 40.0]) == [[50.0, 60.0], [60.0, 40.0]]
    # population stdev: |60-50|/2 = 5 and |60-40|/2 = 10
    assert lichess_weights([50.0, 60.0, 40.0]) == pytest.approx([5.0, 10.0])
    # a flat window weighs 0.5 (not 0); a wild one at most 12
    assert lichess_weights([50.0, 50.0, 90.0]) == pytest.approx([0.5, 12.0])


def test_lichess_side_accuracy_is_mean_of_weighted_and_harmonic():
    # weighted (100*0.5 + 50*12)/12.5 = 52; harmonic 2/(0.01 + 0.02) = 66.667; mean 59.333
    assert lichess_side_accuracy([100, 50], [0.5, 12]) == pytest.approx((52 + 200 / 3) / 2, **APPROX)
    assert lichess_side_accuracy([], []) is None


# ------------------------------------------------------------------------------ whole games

# The start position without White's a-pawn: outside the opening table, so no move is "book".
NO_BOOK_FEN = "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1"


def plain_game(sans: str):
    return chess_game(sans, fen=NO_BOOK_FEN)


def test_two_ply_game_every_figure():
    # P0 = 0, P1 = 0 (1. e4 keeps the balance), P2 = +300 (1... f6 gives White 3 pawns)
    result = assess_game(plain_game("e4 f6"), cp_table([0, 0, 300]))
    white_move, black_move = result.moves
    assert (white_move.loss, white_move.accuracy, white_move.judgement) == (0, 100, "good")
    # Black: b = -0 = 0, a = -300; cp_loss 300; wb = 50, wa = win(-300) = 24.887450; drop 25.112550
    assert black_move.loss == 300
    assert black_move.win_drop_mover == pytest.approx(50 - WIN_MINUS_300, **APPROX)
    assert black_move.accuracy == pytest.approx(ACC_DROP_FROM_50_TO_WIN_MINUS_300, **APPROX)
    assert black_move.judgement == "blunder"  # 25.1 >= 15
    assert black_move.eval_before == 0 and black_move.eval_after == 300
    assert black_move.win_pct_after == pytest.approx(WIN_300, **APPROX)  # White's view
    black = result.summary["black"]
    assert black.acpl == 300 and black.stdcpl is None  # one move: no sample deviation
    # 3100 * exp(-3) = 154.34
    assert black.elo_estimate == pytest.approx(3100 * math.exp(-3), **APPROX)
    # n = 2: k = 2, windows [w0,w1] [w1,w2]; one move per side, so weighted mean = harmonic mean = acc
    assert black.accuracy_lichess == pytest.approx(ACC_DROP_FROM_50_TO_WIN_MINUS_300, **APPROX)
    assert black.accuracy == black.accuracy_mean == pytest.approx(ACC_DROP_FROM_50_TO_WIN_MINUS_300, **APPROX)
    white = result.summary["white"]
    assert (white.accuracy, white.accuracy_lichess, white.acpl, white.moves) == (100, 100, 0, 1)


def test_a_side_with_no_moves_has_no_figures():
    result = assess_game(plain_game("e4"), cp_table([0, 20]))
    black = result.summary["black"]
    assert black.moves == 0
    assert (black.accuracy, black.accuracy_lichess, black.accuracy_mean, black.acpl, black.stdcpl) == (None,) * 5
    assert black.elo_estimate is None


def test_lichess_accuracy_weights_moves_by_the_volatility_of_their_window():
    # 4 plies, k = 2. E: P0 0, P1 0, P2 0, P3 -300 (2. h3 loses 3 pawns, say), P4 -300.
    # w: 50, 50, 50, 24.887450, 24.887450
    # windows [w0,w1] [w1,w2] [w2,w3] [w3,w4] -> stdev 0, 0, 12.556, 0 -> weights 0.5, 0.5, 12, 0.5
    white = assess_game(plain_game("h3 h6 g3 g6"), cp_table([0, 0, 0, -300, -300])).summary["white"]
    acc3 = ACC_DROP_FROM_50_TO_WIN_MINUS_300
    # weighted (100*0.5 + 32.398104*12)/12.5 = 35.102180; harmonic 2/(1/100 + 1/32.398104) = 48.940377
    weighted = (100 * 0.5 + acc3 * 12) / 12.5
    harmonic = 2 / (1 / 100 + 1 / acc3)
    assert white.accuracy_lichess == pytest.approx((weighted + harmonic) / 2, **APPROX)
    assert white.accuracy_lichess == pytest.approx(42.02130767439108, **APPROX)
    assert white.accuracy == pytest.approx(harmonic, **APPROX)
    assert white.accuracy_mean == pytest.approx((100 + acc3) / 2, **APPROX)
    assert white.acpl == 150  # (0 + 300) / 2
    # sample stdev of 0 and 300: mean 150, (150^2 + 150^2) / (2 - 1) = 45000 -> 212.132
    assert white.stdcpl == pytest.approx(math.sqrt(45000), **APPROX)


def test_an_accuracy_of_zero_enters_the_harmonic_mean_as_one():
    # 1. h3 from +1000 to -1000: wb = win(1000) = 97.544744, wa = 2.455256, drop 95.09 -> accuracy 0
    # 2. g3 keeps -1000: accuracy 100. Harmonic 2 / (1/max(1, 0) + 1/100) = 1.980198
    white = assess_game(plain_game("h3 h6 g3"), cp_table([1000, -1000, -1000, -1000])).summary["white"]
    assert white.accuracy == pytest.approx(2 / 1.01, **APPROX)
    assert white.accuracy_mean == 50


def test_clamping_at_1000_limits_the_loss():
    # P0 +1500 -> 1000, P1 +900: cp_loss 100, not 600
    move = assess_game(plain_game("h3"), cp_table([1500, 900])).moves[0]
    assert move.eval_before == 1000 and move.loss == 100


def test_first_position_uses_its_analysis_and_15_only_without_one():
    game = plain_game("h3")
    # with analysis of P0 = 40 and P1 = 10: loss 30
    assert assess_game(game, cp_table([40, 10])).moves[0].loss == 30
    # without: E(P0) = +15, so the loss is 15 - 10 = 5
    assert assess_game(game, cp_table([None, 10])).moves[0].loss == 5
    assert assess_game(game, cp_table([None, 10])).moves[0].eval_before == 15


def test_mate_against_the_mover_after_a_centipawn_score():
    # White at -800 (raw) then allows a mate: lichess calls it a mistake (-800 < -700)
    result = assess_game(plain_game("h3 h6 g3"), cp_table([20, 0, -800, "#-3"]))
    assert result.moves[2].judgement == "mistake"
    # the loss is measured on normalised values: -800 -> -1000 is 200
    assert result.moves[2].loss == 200


def test_mate_rules_for_black_use_blacks_view():
    game = plain_game("h3 h6")
    # Black had mate in 2 (White's view #-2) and lets it go to -1200 for White (+1200 for Black)
    assert assess_game(game, cp_table([0, "#-2", -1200])).moves[1].judgement == "inaccuracy"  # 1200 > 999
    # ... to -800 for White: 800 > 700, a mistake
    assert assess_game(game, cp_table([0, "#-2", -800])).moves[1].judgement == "mistake"
    # Black's mate in 2, then mate in 1: no flag
    assert assess_game(game, cp_table([0, "#-2", "#-1"])).moves[1].judgement == "good"
    # Black had a mate and now gets mated: blunder
    assert assess_game(game, cp_table([0, "#-2", "#4"])).moves[1].judgement == "blunder"


def test_delivering_checkmate_is_good_and_allowing_it_is_judged_by_the_mate_rules():
    # Fool's mate: 1. f3 e5 2. g4 Qh4#
    game = plain_game("f3 e5 g4 Qh4#")
    table = cp_table([20, -80, -90, "#-1"])
    table.add(ev(4, terminal="checkmate", side_to_move="white"))
    result = assess_game(game, table)
    last = result.moves[3]
    # P4: White to move is checkmated -> -1000 (White's view); Black's b = a = 1000
    assert last.eval_after == -1000 and last.judgement == "good" and last.loss == 0
    # 2. g4 allowed mate in 1 from -90: a blunder (-90 is not < -700)
    assert result.moves[2].judgement == "blunder"


def test_a_stalemated_position_is_zero():
    table = cp_table([0, 900])
    table.add(ev(2, terminal="stalemate", side_to_move="white"))
    # Black, from -900 (his view) to 0: a gain, accuracy 100
    move = assess_game(plain_game("h3 h6"), table).moves[1]
    assert move.eval_after == 0 and move.accuracy == 100 and move.loss == 0


def test_best_move_is_never_flagged_even_when_the_score_drops():
    # 1. h3: the engine preferred h3 in P0; noise: +50 -> -200 (a drop of 24 win points)
    table = cp_table([50, -200, -190], best={0: "h3", 1: "Nf6"})
    moves = assess_game(plain_game("h3 h6"), table).moves
    assert moves[0].judgement == "best" and moves[0].is_best
    assert moves[0].accuracy < 100  # the accuracy still follows the formula
    assert moves[1].judgement == "good" and moves[1].is_best is False
    assert moves[1].best == "Nf6"


def test_best_move_comparison_accepts_uci_and_check_signs():
    game = plain_game("e4 f6 Qh5+")
    table = cp_table([30, 30, 300, 320], best={2: "Qh5"})  # SAN without "+"
    assert assess_game(game, table).moves[2].judgement == "best"
    table = cp_table([30, 30, 300, 320], best={2: "d1h5"})  # UCI
    assert assess_game(game, table).moves[2].judgement == "best"
    table = cp_table([30, 30, 300, 320], best={2: "Qe2"})
    assert assess_game(game, table).moves[2].is_best is False
    # the best move from a candidate list when best_move is absent
    table = cp_table([30, 30, None, 320])
    table.add(ev(2, score_cp_first=300, candidates=(Candidate(move="Qh5+", order=0),)))
    assert assess_game(game, table).moves[2].is_best is True


def test_presets_change_only_the_drop_thresholds():
    # +0 -> -131: win(-131) = 38.169678, drop 11.830322: a lichess mistake (>= 10), a seed inaccuracy (>= 10, < 20)
    game = plain_game("h3")
    table = cp_table([0, -131])
    assert assess_game(game, table, preset="lichess").moves[0].judgement == "mistake"
    assert assess_game(game, table, preset="seed").moves[0].judgement == "inaccuracy"
    with pytest.raises(ValueError):
        assess_game(game, table, preset="fast")  # type: ignore[arg-type]


def test_missing_evaluations_leave_figures_null():
    # P2 has no evaluation: moves 2 (after) and 3 (before) cannot be measured
    result = assess_game(plain_game("h3 h6 g3 g6"), cp_table([0, 0, None, 0, 0]))
    assert [m.loss is None for m in result.moves] == [False, True, True, False]
    assert result.moves[1].judgement is None and result.moves[2].judgement is None
    assert result.moves[1].accuracy is None
    assert result.summary["white"].moves == 1  # only 1. h3 was measured
    # accuracy_lichess stops at the first gap: it covers move 1 only
    assert result.summary["black"].accuracy_lichess is None
    assert result.summary["white"].accuracy_lichess == 100
    assert any("accuracy_lichess covers moves 1-1" in note for note in result.notes)


def test_no_evaluations_at_all():
    result = assess_game(plain_game("h3 h6"), EvaluationTable())
    assert all(m.loss is None and m.judgement is None for m in result.moves)
    white = result.summary["white"]
    assert (white.accuracy, white.accuracy_lichess, white.acpl, white.stdcpl, white.elo_estimate) == (None,) * 5
    assert not result.best_rule_applied


def test_book_moves_are_judged_book_and_can_be_left_out():
    # 1. e4 e5 2. Nf3 Nc6 are in the table; 3. h3 is not
    game = chess_game("e4 e5 Nf3 Nc6 h3 h6")
    table = cp_table([20, 30, 25, 30, 25, -20, -10])
    result = assess_game(game, table)
    assert [m.judgement for m in result.moves[:4]] == ["book"] * 4
    assert [m.book for m in result.moves] == [True, True, True, True, False, False]
    assert result.opening is not None and result.opening.eco == "C44" and result.opening.ply == 4
    # White's losses: e4 0 (P0 20 -> P1 30), Nf3 0 (P2 25 -> P3 30), h3 45 (P4 25 -> P5 -20): mean 15
    assert result.summary["white"].acpl == 15
    skipped = assess_game(game, table, skip_book=True)
    assert skipped.summary["white"].acpl == 45 and skipped.summary["white"].moves == 1
    assert skipped.summary["white"].counts["book"] == 0  # left out of the counts too (SCORING.md, "Per side")
    assert skipped.moves[0].loss == 0  # book moves keep their figures


def test_counts_of_each_judgement():
    # 1. h3 h6 2. g3 g6 3. Nf3. E: 0, 0, 0, -300, -300, -450
    # h3 0 -> 0 good; g3 0 -> -300 drop 25.1 blunder; Nf3 -300 -> -450: 24.887 - 16.017 = 8.87 inaccuracy
    result = assess_game(plain_game("h3 h6 g3 g6 Nf3"), cp_table([0, 0, 0, -300, -300, -450]))
    assert result.summary["white"].counts == {
        "book": 0, "best": 0, "good": 1, "inaccuracy": 1, "mistake": 0, "blunder": 1,
    }
    assert result.summary["black"].counts["good"] == 2
