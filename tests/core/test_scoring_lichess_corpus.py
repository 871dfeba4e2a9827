"""Against lichess: a broadcast export whose every move carries lichess's [%eval] and, where lichess
flagged a move, its judgement as a NAG ($6 ?!, $2 ?, $4 ??) with "X was best." comments.

Besides lichess's own flags, the figures are checked against a second, independent reading of
lichess's published formulas (lila's AccuracyPercent / WinPercent / Advice), written here from
python-chess's own [%eval] parser.
"""

from __future__ import annotations

import itertools
import math

import chess.pgn
import pytest
from test_scoring_games import chess_game_from_pgn

from reviewer.core.embedded_evals.pgn import evaluations_from_pgn_comments
from reviewer.core.scoring import assess_game

FILE = "scalachess__FWWRC_full_eval_clk.pgn"
NAG_JUDGEMENTS = {6: "inaccuracy", 2: "mistake", 4: "blunder"}
FLAGS = set(NAG_JUDGEMENTS.values())


def evaluated_games(corpus_dir, count):
    with open(corpus_dir / "pgn" / FILE, encoding="utf-8") as handle:
        games = iter(lambda: chess.pgn.read_game(handle), None)
        with_evals = (g for g in games if any(node.eval() is not None for node in g.mainline()))
        yield from itertools.islice(with_evals, count)


def scores_white(pc_game):
    """lila's view of the analysis: ("cp", n) or ("mate", n) for White, up to the first missing eval."""
    out = []
    for node in pc_game.mainline():
        score = node.eval()
        if score is None:
            break
        white = score.white()
        out.append(("mate", white.mate()) if white.is_mate() else ("cp", white.score()))
    return out


# ---- lila, re-read from its published sources: WinPercent, AccuracyPercent.gameAccuracy, Advice


def lila_win_percent(cp):
    cp = max(-1000, min(1000, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def lila_move_accuracy(before, after):
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return max(min(raw + 1, 100), 0)


def lila_game_accuracy(scores):
    cps = [value if kind == "cp" else (1000 if value > 0 else -1000) for kind, value in scores]
    wins = [lila_win_percent(cp) for cp in [15, *cps]]  # Cp.initial = 15
    size = max(2, min(8, len(cps) // 10))
    windows = [wins[:size]] * (min(size, len(wins)) - 2) + [wins[i : i + size] for i in range(len(wins) - size + 1)]

    def pstdev(xs):
        mean = sum(xs) / len(xs)
        return math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))

    weights = [max(0.5, min(12, pstdev(w))) for w in windows]
    sides = {"white": [], "black": []}
    for i, (prev, nxt) in enumerate(zip(wins, wins[1:])):
        if i % 2 == 0:
            sides["white"].append((lila_move_accuracy(prev, nxt), weights[i]))
        else:
            sides["black"].append((lila_move_accuracy(100 - prev, 100 - nxt), weights[i]))
    result = {}
    for side, pairs in sides.items():
        weighted = sum(a * w for a, w in pairs) / sum(w for _, w in pairs)
        harmonic = len(pairs) / sum(1 / max(1, a) for a, _ in pairs)
        result[side] = (weighted + harmonic) / 2
    return result


def lila_advice(prev, info, white_moved):
    """lila's CpAdvice (winning chances, no clamping) or MateAdvice; None = no flag."""
    sign = 1 if white_moved else -1
    if prev[0] == "cp" and info[0] == "cp":
        chances = lambda cp: 2 / (1 + math.exp(-0.00368208 * cp)) - 1  # noqa: E731
        delta = sign * (chances(prev[1]) - chances(info[1]))
        return next((j for t, j in ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy")) if t <= delta), None)
    prev_mate = sign * prev[1] if prev[0] == "mate" else None
    next_mate = sign * info[1] if info[0] == "mate" else None
    prev_cp = sign * prev[1] if prev[0] == "cp" else 0
    next_cp = sign * info[1] if info[0] == "cp" else 0
    if prev_mate is None and next_mate is not None and next_mate < 0:
        return "inaccuracy" if prev_cp < -999 else "mistake" if prev_cp < -700 else "blunder"
    if prev_mate is not None and prev_mate > 0 and (next_mate is None or next_mate < 0):
        return "inaccuracy" if next_cp > 999 else "mistake" if next_cp > 700 else "blunder"
    return None


# ---- the checks


def test_flags_of_the_first_ten_games_are_lichess_own(corpus_dir):
    compared = 0
    for pc_game in evaluated_games(corpus_dir, 10):
        game = chess_game_from_pgn(str(pc_game))
        moves = assess_game(game, evaluations_from_pgn_comments(game)).moves
        for move, node in zip(moves, pc_game.mainline()):
            theirs = next((NAG_JUDGEMENTS[n] for n in node.nags if n in NAG_JUDGEMENTS), None)
            ours = move.judgement if move.judgement in FLAGS else None
            assert ours == theirs, (pc_game.headers["Round"], move.ply, move.move)
            compared += 1
    assert compared > 900


def test_accuracy_matches_an_independent_reading_of_lichess_formulas(corpus_dir):
    for pc_game in evaluated_games(corpus_dir, 20):
        game = chess_game_from_pgn(str(pc_game))
        if pc_game.end().board().is_checkmate():
            continue  # the mated position is scored by rule here; lila's reading stops at the last [%eval]
        summary = assess_game(game, evaluations_from_pgn_comments(game)).summary
        expected = lila_game_accuracy(scores_white(pc_game))
        for side in ("white", "black"):
            assert summary[side].accuracy_lichess == pytest.approx(expected[side], rel=1e-12), pc_game.headers["Round"]


def test_flags_differ_from_lilas_advice_only_where_the_clamp_at_1000_matters(corpus_dir):
    """lila judges centipawn drops without clamping; SCORING.md clamps to +-1000 first."""
    differences = 0
    for pc_game in evaluated_games(corpus_dir, 30):
        game = chess_game_from_pgn(str(pc_game))
        moves = assess_game(game, evaluations_from_pgn_comments(game)).moves
        prev = ("cp", 15)
        for index, score in enumerate(scores_white(pc_game)):
            theirs = lila_advice(prev, score, white_moved=index % 2 == 0)
            ours = moves[index].judgement if moves[index].judgement in FLAGS else None
            if ours != theirs:
                differences += 1
                assert any(kind == "cp" and abs(value) > 1000 for kind, value in (prev, score)), (
                    pc_game.headers["Round"], index + 1, ours, theirs, prev, score,
                )
            prev = score
    assert differences < 10
