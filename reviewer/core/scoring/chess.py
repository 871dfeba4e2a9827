"""Chess scoring (SCORING.md, "Chess"): normalised evaluations, win %, accuracy, judgements, summaries.

E(P) is centipawns from White's point of view, mates folded to +-1000 and clamped to [-1000, 1000].
Per-move values are taken from the mover's view: b = s*E(P(i-1)), a = s*E(Pi), s = +1 for White.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import chess

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.games.chess import recorded_move, start_board
from reviewer.core.gametree import Color, Game, Node, other_color
from reviewer.core.scoring.common import (
    DEFAULT_PRESET,
    DROP_THRESHOLDS,
    ChessSideSummary,
    GameAssessment,
    Judgement,
    MoveAssessment,
    Preset,
    clamp,
    count_judgements,
    harmonic_mean_floored,
    mean,
    population_stdev,
    sample_stdev,
    sharpness,
)

MATE_CP = 1000  # a mate, for either side and at any distance, counts as this many centipawns
INITIAL_CP_WHITE = 15  # E(P0) when the start position has no analysis (lichess, En Croissant)

WIN_PCT_SLOPE = 0.00368208
ACCURACY_A = 103.1668100711649
ACCURACY_K = 0.04354415386753951
ACCURACY_C = 3.166924740191411
ACCURACY_UNCERTAINTY_BONUS = 1.0  # lichess adds 1 to every per-move accuracy below 100

ELO_BASE = 3100.0
ELO_RATE = 0.01

LICHESS_WINDOW_MIN, LICHESS_WINDOW_MAX = 2, 8
LICHESS_WEIGHT_MIN, LICHESS_WEIGHT_MAX = 0.5, 12.0


# ---------------------------------------------------------------------------------- one position


def sign_of(color: Color) -> int:
    """s: +1 when White is the mover, -1 for Black."""
    return 1 if color == "white" else -1


def normalised_cp_white(evaluation: Evaluation | None, side_to_move: Color | None = None) -> float | None:
    """E(P): centipawns for White, mates as +-1000, clamped; None when the position has no verdict.

    A checkmated side to move (terminal "checkmate", or a mate score of 0) scores -1000 for that side;
    stalemate and other drawn game-over positions score 0.
    """
    if evaluation is None:
        return None
    mover_to_play = evaluation.side_to_move or side_to_move
    if evaluation.terminal == "checkmate" or evaluation.mate_first == 0:
        if mover_to_play is None:
            return None
        return float(-MATE_CP if mover_to_play == "white" else MATE_CP)
    if evaluation.terminal in ("stalemate", "draw"):
        return 0.0
    if evaluation.mate_first is not None:
        return float(MATE_CP if evaluation.mate_first > 0 else -MATE_CP)
    if evaluation.score_cp_first is not None:
        return float(clamp(evaluation.score_cp_first, -MATE_CP, MATE_CP))
    return None


@dataclass(frozen=True)
class MoverScore:
    """An engine's raw verdict from the mover's view, before normalising (for the mate rules)."""

    cp: float | None  # raw centipawns; None when a mate is announced
    mate_for_mover: bool | None  # True: the mover mates; False: the mover is mated; None: no mate


def mover_score(evaluation: Evaluation | None, mover: Color, side_to_move: Color | None) -> MoverScore | None:
    if evaluation is None:
        return None
    to_play = evaluation.side_to_move or side_to_move
    if evaluation.terminal == "checkmate" or evaluation.mate_first == 0:
        if to_play is None:
            return None
        return MoverScore(cp=None, mate_for_mover=to_play != mover)
    if evaluation.terminal in ("stalemate", "draw"):
        return MoverScore(cp=0.0, mate_for_mover=None)
    s = sign_of(mover)
    if evaluation.mate_first is not None:
        return MoverScore(cp=None, mate_for_mover=(evaluation.mate_first > 0) == (s > 0))
    if evaluation.score_cp_first is not None:
        return MoverScore(cp=float(s * evaluation.score_cp_first), mate_for_mover=None)
    return None


def win_pct(cp: float) -> float:
    """Win chance in percent for the side whose centipawns these are (lichess's curve)."""
    return 50.0 + 50.0 * (2.0 / (1.0 + math.exp(-WIN_PCT_SLOPE * cp)) - 1.0)


def win_pct_of_mover(evaluation: Evaluation | None, mover: Color, to_move: Color) -> float | None:
    """The mover's win % of a position `to_move` plays: E(P) from the mover's view, on lichess's curve."""
    cp_white = normalised_cp_white(evaluation, to_move)
    if cp_white is None:
        return None
    return win_pct(sign_of(mover) * cp_white)


def win_pct_white(evaluation: Evaluation) -> float | None:
    """White's win chance in percent for the evaluation bar: the engine's centipawns on lichess's
    curve, unclamped; a mate is 0 or 100."""
    if evaluation.mate_first is not None:
        return 100.0 if evaluation.mate_first > 0 else 0.0
    if evaluation.score_cp_first is None:
        return None
    return win_pct(evaluation.score_cp_first)


def move_accuracy(win_pct_before: float, win_pct_after: float) -> float:
    """Per-move accuracy from the mover's win % before and after, lichess's +1 included."""
    if win_pct_after >= win_pct_before:
        return 100.0
    drop = win_pct_before - win_pct_after
    raw = ACCURACY_A * math.exp(-ACCURACY_K * drop) - ACCURACY_C + ACCURACY_UNCERTAINTY_BONUS
    return clamp(raw, 0.0, 100.0)


def cp_loss(cp_before_mover: float, cp_after_mover: float) -> float:
    return max(0.0, cp_before_mover - cp_after_mover)


def judgement_by_drop(drop: float, preset: Preset = DEFAULT_PRESET) -> Judgement:
    inaccuracy, mistake, blunder = DROP_THRESHOLDS[preset]
    if drop >= blunder:
        return "blunder"
    if drop >= mistake:
        return "mistake"
    if drop >= inaccuracy:
        return "inaccuracy"
    return "good"


def mate_judgement(before: MoverScore, after: MoverScore) -> Judgement | None:
    """lichess's mate rules; None when neither applies (the drop rule decides then)."""
    if before.mate_for_mover is None and after.mate_for_mover is False:
        # "Checkmate is now unavoidable"
        c = before.cp if before.cp is not None else 0.0
        if c < -999:
            return "inaccuracy"
        if c < -700:
            return "mistake"
        return "blunder"
    if before.mate_for_mover is True:
        if after.mate_for_mover is True:
            return "good"
        if after.mate_for_mover is False:
            return "blunder"
        # "Lost forced checkmate sequence"
        c = after.cp if after.cp is not None else 0.0
        if c > 999:
            return "inaccuracy"
        if c > 700:
            return "mistake"
        return "blunder"
    return None


def elo_estimate(acpl: float | None) -> float | None:
    return None if acpl is None else ELO_BASE * math.exp(-ELO_RATE * acpl)


# ------------------------------------------------------------------------ lichess game accuracy


def lichess_window_size(move_count: int) -> int:
    return int(clamp(move_count // 10, LICHESS_WINDOW_MIN, LICHESS_WINDOW_MAX))


def lichess_windows(win_pcts: Sequence[float]) -> list[list[float]]:
    """One window per move for win points w0..wn: k-2 copies of the first window, then every run of k."""
    move_count = len(win_pcts) - 1
    if move_count < 1:
        return []
    k = min(lichess_window_size(move_count), len(win_pcts))
    first = list(win_pcts[:k])
    windows = [list(first) for _ in range(max(0, k - 2))]
    windows.extend(list(win_pcts[start : start + k]) for start in range(len(win_pcts) - k + 1))
    return windows


def lichess_weights(win_pcts: Sequence[float]) -> list[float]:
    """A weight per move: population stdev of its window, clamped to [0.5, 12]."""
    return [
        clamp(population_stdev(window) or 0.0, LICHESS_WEIGHT_MIN, LICHESS_WEIGHT_MAX)
        for window in lichess_windows(win_pcts)
    ]


def lichess_side_accuracy(accuracies: Sequence[float], weights: Sequence[float]) -> float | None:
    """(weighted mean + harmonic mean) / 2 over one side's moves."""
    if not accuracies:
        return None
    weighted = sum(a * w for a, w in zip(accuracies, weights)) / sum(weights)
    harmonic = harmonic_mean_floored(accuracies)
    assert harmonic is not None
    return (weighted + harmonic) / 2.0


# --------------------------------------------------------------------------------- the game


@dataclass
class ReplayedPly:
    node: Node
    mover: Color
    board_before: chess.Board | None  # None once the main line stops being legal


def replay_mainline(game: Game) -> tuple[list[ReplayedPly], list[str | None]]:
    """Each main-line move with the board before it, and the EPD of P0..Pn (None past an illegal move)."""
    try:
        board: chess.Board | None = start_board(game)
    except ValueError:
        board = None
    plies: list[ReplayedPly] = []
    epds: list[str | None] = [board.epd() if board is not None else None]
    for index, node in enumerate(game.mainline_nodes(), start=1):
        mover = node.color or game.mover_at_ply(index)
        before = board.copy(stack=False) if board is not None else None
        plies.append(ReplayedPly(node=node, mover=mover, board_before=before))
        if board is not None:
            try:
                board.push(_parse_played(board, node))
            except ValueError:
                board = None
        epds.append(board.epd() if board is not None else None)
    return plies, epds


def _parse_played(board: chess.Board, node: Node) -> chess.Move:
    """The recorded move; a null move ends what can be scored, as an illegal one does."""
    move = recorded_move(board, node)
    if not move:
        raise ValueError("a null move")
    return move


def _strip_san(text: str) -> str:
    return text.strip().rstrip("+#!?").replace("0-0-0", "O-O-O").replace("0-0", "O-O")


def same_move(board_before: chess.Board | None, node: Node, engine_move: str) -> bool:
    """Whether the played move equals the engine's move, compared as moves on the board when possible."""
    if board_before is not None:
        try:
            played = _parse_played(board_before, node)
        except ValueError:
            played = None
        if played is not None:
            for parse in (board_before.parse_san, board_before.parse_uci):
                try:
                    return parse(engine_move.strip()) == played
                except ValueError:
                    continue
    if node.uci and engine_move.strip() == node.uci:
        return True
    return node.move is not None and _strip_san(node.move) == _strip_san(engine_move)


def engine_best_move(evaluation: Evaluation | None) -> str | None:
    if evaluation is None:
        return None
    if evaluation.best_move:
        return evaluation.best_move
    for candidate in evaluation.candidates:
        if candidate.order == 0:
            return candidate.move
    return evaluation.pv[0] if evaluation.pv else None


def _side_to_move_at(ply: int, plies: list[ReplayedPly], game: Game) -> Color:
    if ply < len(plies):
        return plies[ply].mover
    if plies:
        return other_color(plies[-1].mover)
    return game.first_player


def _value_known_prefix(values: Sequence[float | None]) -> list[float]:
    known: list[float] = []
    for value in values:
        if value is None:
            break
        known.append(value)
    return known


def assess_chess(
    game: Game,
    evaluations: EvaluationTable,
    preset: Preset = DEFAULT_PRESET,
    skip_book: bool = False,
) -> GameAssessment:
    from reviewer.core import openings  # the opening table loads lazily, on first use

    if preset not in DROP_THRESHOLDS:
        raise ValueError(f"unknown preset {preset!r}; choose one of {', '.join(DROP_THRESHOLDS)}")
    plies, epds = replay_mainline(game)
    n = len(plies)
    table = openings.book(game.kind)
    book_flags = openings.book_flags_from_epds(epds, table)
    opening = openings.opening_from_epds(epds, table)

    side_to_move = [_side_to_move_at(ply, plies, game) for ply in range(n + 1)]
    e_white: list[float | None] = [
        normalised_cp_white(evaluations.get(ply), side_to_move[ply]) for ply in range(n + 1)
    ]
    if evaluations.get(0) is None:
        e_white[0] = float(INITIAL_CP_WHITE)
    initial_raw = Evaluation(ply=0, kind="chess", score_cp_first=INITIAL_CP_WHITE)

    best_moves_seen = False
    moves: list[MoveAssessment] = []
    for ply in range(1, n + 1):
        info = plies[ply - 1]
        s = sign_of(info.mover)
        before_eval = evaluations.get(ply - 1) or (initial_raw if ply == 1 else None)
        after_eval = evaluations.get(ply)
        b_white, a_white = e_white[ply - 1], e_white[ply]
        best = engine_best_move(evaluations.get(ply - 1))
        is_best = None if best is None else same_move(info.board_before, info.node, best)
        best_moves_seen = best_moves_seen or best is not None

        loss = accuracy = wb = wa = drop = None
        if b_white is not None and a_white is not None:
            b, a = s * b_white, s * a_white
            loss = cp_loss(b, a)
            wb, wa = win_pct(b), win_pct(a)
            accuracy = move_accuracy(wb, wa)
            drop = wb - wa

        is_book = book_flags[ply - 1]
        judgement: Judgement | None
        if is_book:
            judgement = "book"
        elif is_best:
            judgement = "best"
        else:
            judgement = None
            raw_before = mover_score(before_eval, info.mover, side_to_move[ply - 1])
            raw_after = mover_score(after_eval, info.mover, side_to_move[ply])
            if raw_before is not None and raw_after is not None:
                judgement = mate_judgement(raw_before, raw_after)
            if judgement is None and drop is not None:
                judgement = judgement_by_drop(drop, preset)

        moves.append(
            MoveAssessment(
                ply=ply,
                color=info.mover,
                move=info.node.move or "",
                best=best,
                judgement=judgement,
                loss=loss,
                accuracy=accuracy,
                eval_before=b_white,
                eval_after=a_white,
                win_pct_before=None if b_white is None else win_pct(b_white),
                win_pct_after=None if a_white is None else win_pct(a_white),
                book=is_book,
                is_best=is_best,
                win_drop_mover=drop,
                sharpness_after=sharpness(after_eval.wdl_first) if after_eval is not None else None,
            )
        )

    # lichess's game accuracy runs over the evaluated stretch P0..Pm, m = last ply before a gap.
    known_white = _value_known_prefix(e_white)
    lichess_weight_by_ply = dict(zip(range(1, len(known_white)), lichess_weights([win_pct(v) for v in known_white])))

    summary = {
        color: _chess_side_summary(moves, color, skip_book, lichess_weight_by_ply) for color in ("white", "black")
    }
    notes: list[str] = []
    if n and not best_moves_seen:
        notes.append("best rule not applied: no evaluation names an engine best move")
    if len(known_white) - 1 < n:
        first_gap = len(known_white)
        notes.append(
            f"position {first_gap} has no evaluation: accuracy_lichess covers moves 1-{first_gap - 1} only"
            if first_gap > 1
            else "accuracy_lichess not computed: the position after move 1 has no evaluation"
        )
    return GameAssessment(
        kind="chess",
        preset=preset,
        skip_book=skip_book,
        moves=tuple(moves),
        summary=summary,  # type: ignore[arg-type]
        opening=opening,
        best_rule_applied=best_moves_seen,
        notes=tuple(notes),
    )


def _chess_side_summary(
    moves: Sequence[MoveAssessment],
    color: Color,
    skip_book: bool,
    lichess_weight_by_ply: dict[int, float],
) -> ChessSideSummary:
    own = [m for m in moves if m.color == color and not (skip_book and m.book)]
    scored = [m for m in own if m.accuracy is not None and m.loss is not None]
    losses = [m.loss for m in scored if m.loss is not None]
    accuracies = [m.accuracy for m in scored if m.accuracy is not None]
    acpl = mean(losses)
    # Window weights come from the whole evaluated stretch; skipped book moves only leave the sums.
    in_windows = [m for m in scored if m.ply in lichess_weight_by_ply]
    accuracy_lichess = lichess_side_accuracy(
        [m.accuracy for m in in_windows if m.accuracy is not None],
        [lichess_weight_by_ply[m.ply] for m in in_windows],
    )
    # Counts run over the same moves as the figures (SCORING.md, "Per side"): with book moves
    # skipped, they are left out of the counts too.
    counted = own
    return ChessSideSummary(
        moves=len(scored),
        accuracy=harmonic_mean_floored(accuracies),
        accuracy_lichess=accuracy_lichess,
        accuracy_mean=mean(accuracies),
        acpl=acpl,
        stdcpl=sample_stdev(losses),
        elo_estimate=elo_estimate(acpl),
        counts=count_judgements(m.judgement for m in counted),
    )
