"""The reviewer.report/1 contract, checked from the outside.

Every check here is written from `../shared/spec/SCORING.md` alone: the figures are recomputed
from the report's own `eval_before` / `eval_after` (and `best`, `book`, `weight`), never by calling
the project's scoring code. `check_report` raises AssertionError with a message naming the field.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import chess

SCHEMA = "reviewer.report/1"
JUDGEMENTS = {"book", "best", "good", "inaccuracy", "mistake", "blunder"}
FLAGS = ("inaccuracy", "mistake", "blunder")
CHESS_SUMMARY_KEYS = {"accuracy", "accuracy_lichess", "accuracy_mean", "acpl", "stdcpl", "elo_estimate", "counts"}
GO_SUMMARY_KEYS = {"accuracy", "weighted_loss", "mean_loss", "top_move_match", "top5_match", "top5_moves", "counts"}
MOVE_KEYS = {"ply", "color", "move", "best", "judgement", "loss", "accuracy", "weight", "eval_before", "eval_after"}
GAME_KEYS = {"kind", "white", "black", "result"}
PHASES = ("opening", "middlegame", "endgame")
GTP = re.compile(r"^(?:pass|[A-HJ-Z](?:[1-9]|1[0-9]|2[0-5]))$")
TOLERANCE = 1e-6

LICHESS_DROPS = {"lichess": (5.0, 10.0, 15.0), "seed": (10.0, 20.0, 30.0)}
GO_LOSSES = (3.0, 6.0, 12.0)


def load_strict_json(text: str) -> Any:
    """JSON that refuses NaN / Infinity, as every other JSON reader does."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"the report holds {name}, which is not JSON")

    return json.loads(text, parse_constant=refuse)


def close(a: float | None, b: float | None, what: str, tolerance: float = TOLERANCE) -> None:
    if a is None or b is None:
        assert a is None and b is None, f"{what}: {a!r} != {b!r}"
        return
    assert math.isclose(a, b, rel_tol=tolerance, abs_tol=tolerance), f"{what}: {a!r} != {b!r}"


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def number_or_null(value: Any, what: str) -> None:
    assert value is None or is_number(value), f"{what} should be a number or null, not {value!r}"


# ------------------------------------------------------------------------------ SCORING.md, chess


def win(x: float) -> float:
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * x)) - 1)


def move_accuracy(wb: float, wa: float) -> float:
    if wa >= wb:
        return 100.0
    return min(100.0, max(0.0, 103.1668100711649 * math.exp(-0.04354415386753951 * (wb - wa)) - 3.166924740191411 + 1))


def by_drop(drop: float, preset: str) -> str:
    inaccuracy, mistake, blunder = LICHESS_DROPS[preset]
    return "blunder" if drop >= blunder else "mistake" if drop >= mistake else "inaccuracy" if drop >= inaccuracy else "good"


def harmonic(values: Sequence[float]) -> float | None:
    return len(values) / sum(1 / max(1.0, v) for v in values) if values else None


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def sample_sd(values: Sequence[float]) -> float | None:
    if len(values) < 2:
        return None
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def population_sd(values: Sequence[float]) -> float:
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def lichess_weights(e_white: Sequence[float]) -> list[float]:
    """One weight per move from E(P0)..E(Pn) (SCORING.md, accuracy_lichess)."""
    w = [win(e) for e in e_white]
    n = len(w) - 1
    k = min(8, max(2, n // 10))
    windows = [w[:k]] * (k - 2) + [w[i : i + k] for i in range(len(w) - k + 1)]
    windows = windows[:n]
    assert len(windows) == n, f"{len(windows)} windows for {n} moves"
    return [min(12.0, max(0.5, population_sd(window))) for window in windows]


def san_is_canonical(report: Mapping[str, Any]) -> None:
    """Replay the moves: each must be the SAN python-chess writes for it, in a legal sequence."""
    game = report["game"]
    board = chess.Board(game.get("start_fen") or chess.STARTING_FEN, chess960=bool(game.get("chess960")))
    for move in report["moves"]:
        expected_color = "white" if board.turn == chess.WHITE else "black"
        assert move["color"] == expected_color, f"ply {move['ply']}: color {move['color']}, {expected_color} to move"
        parsed = board.parse_san(move["move"])
        assert board.san(parsed) == move["move"], f"ply {move['ply']}: {move['move']!r} is not SAN ({board.san(parsed)})"
        if move["best"] is not None:
            best = board.parse_san(move["best"])
            assert board.san(best) == move["best"], f"ply {move['ply']}: best {move['best']!r} is not SAN"
        board.push(parsed)


def check_chess_figures(report: Mapping[str, Any]) -> None:
    moves = report["moves"]
    preset = report.get("preset", "lichess")
    skip_book = bool(report.get("skip_book", False))
    for move in moves:
        s = 1 if move["color"] == "white" else -1
        before, after = move["eval_before"], move["eval_after"]
        for value in (before, after):
            assert value is None or -1000 <= value <= 1000, f"ply {move['ply']}: E outside [-1000, 1000]: {value}"
        assert move["weight"] is None, f"ply {move['ply']}: chess moves carry no Go weight"
        if move["judgement"] == "best":
            assert move["best"] is not None and move["best"] == move["move"], f"ply {move['ply']}: best but not the best move"
        if move["best"] is not None and move["best"] == move["move"] and move["judgement"] not in ("book", "best"):
            raise AssertionError(f"ply {move['ply']}: the engine's best move judged {move['judgement']}")
        if move["judgement"] == "book":
            assert move.get("book", True), f"ply {move['ply']}: judged book, book flag false"
        if before is None or after is None:
            assert move["loss"] is None and move["accuracy"] is None, f"ply {move['ply']}: figures without evaluations"
            continue
        b, a = s * before, s * after
        close(move["loss"], max(0.0, b - a), f"ply {move['ply']} loss")
        wb, wa = win(b), win(a)
        close(move["accuracy"], move_accuracy(wb, wa), f"ply {move['ply']} accuracy")
        if move["judgement"] in ("book", "best"):
            continue
        assert move["judgement"] in ("good", *FLAGS), f"ply {move['ply']}: judgement {move['judgement']!r}"
        if abs(before) < 1000 and abs(after) < 1000:  # no mate on either side: the drop rule decides
            assert move["judgement"] == by_drop(wb - wa, preset), f"ply {move['ply']}: {move['judgement']} for a drop of {wb - wa:.3f}"
    # the chain of positions: the position after move i is the one before move i+1
    for previous, following in zip(moves, moves[1:]):
        if previous["eval_after"] is not None and following["eval_before"] is not None:
            close(previous["eval_after"], following["eval_before"], f"ply {following['ply']} eval_before vs eval_after before it")

    e_white = [moves[0]["eval_before"]] + [m["eval_after"] for m in moves] if moves else []
    known = []
    for value in e_white:
        if value is None:
            break
        known.append(value)
    weights = dict(zip(range(1, len(known)), lichess_weights(known))) if len(known) > 1 else {}
    for color in ("white", "black"):
        summary = report["summary"][color]
        own = [m for m in moves if m["color"] == color and not (skip_book and m["judgement"] == "book")]
        scored = [m for m in own if m["loss"] is not None and m["accuracy"] is not None]
        losses = [m["loss"] for m in scored]
        accuracies = [m["accuracy"] for m in scored]
        acpl = mean(losses)
        close(summary["acpl"], acpl, f"{color} acpl")
        close(summary["stdcpl"], sample_sd(losses), f"{color} stdcpl")
        close(summary["elo_estimate"], None if acpl is None else 3100 * math.exp(-0.01 * acpl), f"{color} elo_estimate")
        close(summary["accuracy"], harmonic(accuracies), f"{color} accuracy")
        close(summary["accuracy_mean"], mean(accuracies), f"{color} accuracy_mean")
        windowed = [m for m in scored if m["ply"] in weights]
        if windowed:
            weighted = sum(m["accuracy"] * weights[m["ply"]] for m in windowed) / sum(weights[m["ply"]] for m in windowed)
            expected = (weighted + harmonic([m["accuracy"] for m in windowed])) / 2
        else:
            expected = None
        close(summary["accuracy_lichess"], expected, f"{color} accuracy_lichess")
        check_counts(summary["counts"], own, color)


def check_counts(counts: Mapping[str, Any], own: Sequence[Mapping[str, Any]], color: str) -> None:
    assert set(counts) >= set(FLAGS), f"{color} counts miss a flag: {sorted(counts)}"
    assert set(counts) <= JUDGEMENTS, f"{color} counts name an unknown judgement: {sorted(counts)}"
    for name, value in counts.items():
        assert isinstance(value, int) and not isinstance(value, bool), f"{color} counts[{name}] is {value!r}"
        assert value == sum(1 for m in own if m["judgement"] == name), f"{color} counts[{name}] = {value}"


# --------------------------------------------------------------------------------- SCORING.md, Go


def by_loss(loss: float) -> str:
    inaccuracy, mistake, blunder = GO_LOSSES
    return "blunder" if loss >= blunder else "mistake" if loss >= mistake else "inaccuracy" if loss >= inaccuracy else "good"


def gtp_on_board(move: str, width: int, height: int) -> bool:
    if move == "pass":
        return True
    column = "ABCDEFGHJKLMNOPQRSTUVWXYZ".index(move[0])
    return column < width and 1 <= int(move[1:]) <= height


def check_go_figures(report: Mapping[str, Any]) -> None:
    moves = report["moves"]
    width, height = report["game"].get("board_size") or (19, 19)
    for move in moves:
        ply = move["ply"]
        assert GTP.match(move["move"]), f"ply {ply}: {move['move']!r} is not a GTP coordinate"
        assert gtp_on_board(move["move"], width, height), f"ply {ply}: {move['move']} is off a {width}x{height} board"
        if move["best"] is not None:
            assert GTP.match(move["best"]) and gtp_on_board(move["best"], width, height), f"ply {ply}: best {move['best']!r}"
        assert move["accuracy"] is None, f"ply {ply}: Go moves carry no chess accuracy"
        s = 1 if move["color"] == "black" else -1
        before, after = move["eval_before"], move["eval_after"]
        if before is None or after is None:
            assert move["loss"] is None, f"ply {ply}: a loss without both evaluations"
        else:
            close(move["loss"], s * (before - after), f"ply {ply} points lost (signed)")
        lost = None if move["loss"] is None else max(0.0, move["loss"])
        if move["weight"] is not None:
            assert 0.05 - TOLERANCE <= move["weight"] <= 1 + TOLERANCE, f"ply {ply}: weight {move['weight']}"
            if lost is not None:
                assert move["weight"] >= min(1.0, max(0.05, lost / 4)) - TOLERANCE, f"ply {ply}: weight below L/4"
        is_best = move["best"] is not None and move["best"] == move["move"]
        if is_best:
            assert move["judgement"] == "best", f"ply {ply}: the top candidate judged {move['judgement']}"
        elif lost is not None:
            assert move["judgement"] == by_loss(lost), f"ply {ply}: {move['judgement']} for a loss of {lost}"
        else:
            assert move["judgement"] is None, f"ply {ply}: a judgement without a loss"
    for previous, following in zip(moves, moves[1:]):
        if previous["eval_after"] is not None and following["eval_before"] is not None:
            close(previous["eval_after"], following["eval_before"], f"ply {following['ply']} chain of evaluations")

    for color in ("white", "black"):
        summary = report["summary"][color]
        own = [m for m in moves if m["color"] == color]
        with_loss = [m for m in own if m["loss"] is not None]
        weighted = [m for m in with_loss if m["weight"] is not None]
        total_weight = sum(m["weight"] for m in weighted)
        wl = sum(max(0.0, m["loss"]) * m["weight"] for m in weighted) / total_weight if weighted else None
        close(summary["weighted_loss"], wl, f"{color} weighted_loss")
        close(summary["accuracy"], None if wl is None else 100 * 0.75**wl, f"{color} accuracy")
        close(summary["mean_loss"], mean([max(0.0, m["loss"]) for m in with_loss]), f"{color} mean_loss")
        judged = [m for m in own if m["best"] is not None]
        top = sum(1 for m in judged if m["best"] == m["move"]) / len(judged) if judged else None
        close(summary["top_move_match"], top, f"{color} top_move_match")
        with_top5 = [m for m in own if m.get("top5") is not None]
        assert summary["top5_moves"] == len(with_top5), f"{color} top5_moves"
        share5 = sum(1 for m in with_top5 if m["top5"]) / len(with_top5) if with_top5 else None
        close(summary["top5_match"], share5, f"{color} top5_match")
        check_counts(summary["counts"], own, color)


# ------------------------------------------------------------------------ phases and strength


def check_phases(report: Mapping[str, Any]) -> None:
    """SCORING.md, "Game phases": chess phases never go back; Go phases follow the board-area bands."""
    moves = report["moves"]
    for move in moves:
        assert "phase" in move, f"ply {move['ply']}: phase missing"
        assert move["phase"] is None or move["phase"] in PHASES, f"ply {move['ply']}: phase {move['phase']!r}"
    if report["game"]["kind"] == "chess":
        order = [PHASES.index(m["phase"]) for m in moves if m["phase"] is not None]
        assert order == sorted(order), f"chess phases go back: {[m['phase'] for m in moves]}"
        return
    width, height = report["game"].get("board_size") or (19, 19)
    middlegame_from, endgame_from = math.ceil(0.14 * width * height), math.ceil(0.40 * width * height)
    for move in moves:
        ply = move["ply"]
        expected = "endgame" if ply >= endgame_from else "middlegame" if ply >= middlegame_from else "opening"
        assert move["phase"] == expected, f"ply {ply}: phase {move['phase']} on {width}x{height}, expected {expected}"


def check_strength(report: Mapping[str, Any], withheld: bool) -> None:
    """Each side's strength: null, or an estimate inside its interval; null without a complete, labelled analysis."""
    strength = report.get("strength")
    assert isinstance(strength, dict) and set(strength) == {"white", "black"}, f"strength {strength!r}"
    unit = "elo" if report["game"]["kind"] == "chess" else "rank"
    coverage = report.get("coverage") or {}
    for color, side in strength.items():
        if side is None:
            continue
        assert not withheld and coverage.get("complete", True), f"{color} strength without a complete, labelled analysis"
        assert set(side) == {unit, "low", "high", "level", "basis"}, f"{color} strength keys {sorted(side)}"
        for key in (unit, "low", "high"):
            assert is_number(side[key]), f"{color} strength {key} {side[key]!r}"
        assert side["low"] <= side[unit] <= side["high"], f"{color} strength outside its interval: {side}"
        assert 0 < side["level"] < 1 and isinstance(side["basis"], str) and side["basis"]


# ------------------------------------------------------------------------------------- the shape


def check_report(report: Mapping[str, Any], kind: str | None = None) -> None:
    """Every field SCORING.md names, with its type, and every figure recomputed."""
    assert report.get("schema") == SCHEMA, f"schema {report.get('schema')!r}"
    for key in ("game", "engine", "moves", "summary"):
        assert key in report, f"{key} missing"
    game = report["game"]
    assert set(game) >= GAME_KEYS, f"game lacks {GAME_KEYS - set(game)}"
    assert game["kind"] in ("chess", "go"), f"game.kind {game['kind']!r}"
    if kind is not None:
        assert game["kind"] == kind
    for key in ("white", "black", "result"):
        assert isinstance(game[key], str), f"game.{key} should be a string, not {game[key]!r}"
    assert "name" in report["engine"], "engine.name missing"
    assert report["engine"]["name"] is None or isinstance(report["engine"]["name"], str)
    assert isinstance(report["moves"], list)
    # An engine setting that may not label moves (report["trust"]) gives scores only.
    trust = report.get("trust") or {}
    withheld = trust.get("labels") is False
    if withheld:
        assert trust.get("reason") and trust.get("remedy"), f"labels withheld without saying why: {trust}"
    coverage = report.get("coverage")
    if coverage is not None:
        assert coverage["moves_total"] == len(report["moves"]), f"coverage counts {coverage['moves_total']} moves"
        assert 0 <= coverage["moves_analysed"] <= coverage["moves_total"]
        passes_done = coverage.get("passes") is None or coverage["passes"]["finished"]
        assert coverage["complete"] == (coverage["missing_plies"] == [] and coverage["positions_analysed"] > 0 and passes_done)
    for index, move in enumerate(report["moves"], start=1):
        assert set(move) >= MOVE_KEYS, f"move {index} lacks {sorted(MOVE_KEYS - set(move))}"
        assert move["ply"] == index and isinstance(move["ply"], int), f"move {index} has ply {move['ply']!r}"
        assert move["color"] in ("white", "black"), f"ply {index}: color {move['color']!r}"
        assert isinstance(move["move"], str) and move["move"], f"ply {index}: move {move['move']!r}"
        assert move["best"] is None or isinstance(move["best"], str), f"ply {index}: best {move['best']!r}"
        assert move["judgement"] is None or move["judgement"] in JUDGEMENTS, f"ply {index}: judgement {move['judgement']!r}"
        for key in ("loss", "accuracy", "weight", "eval_before", "eval_after"):
            number_or_null(move[key], f"ply {index} {key}")
        if move["judgement"] is None and not withheld:
            assert move["eval_before"] is None or move["eval_after"] is None, f"ply {index}: no judgement yet both evaluations"
    summary = report["summary"]
    assert set(summary) >= {"white", "black"}, f"summary sides {sorted(summary)}"
    keys = CHESS_SUMMARY_KEYS if game["kind"] == "chess" else GO_SUMMARY_KEYS
    for color in ("white", "black"):
        side = summary[color]
        assert set(side) == keys, f"{color} summary keys: extra {sorted(set(side) - keys)}, missing {sorted(keys - set(side))}"
        for key in keys - {"counts"}:
            number_or_null(side[key], f"{color} {key}")
    headline = report["accuracy_headline"]
    expected = {"chess": {"lichess": "accuracy_lichess", "seed": "accuracy_mean"}.get(report["preset"])}.get(game["kind"], "accuracy")
    assert headline["field"] == expected and headline["field"] in keys, f"accuracy_headline {headline!r}"
    check_phases(report)
    check_strength(report, withheld)
    if withheld:
        for move in report["moves"]:
            assert move["judgement"] is None and move["accuracy"] is None and move["weight"] is None, f"ply {move['ply']} labelled"
        for color in ("white", "black"):
            assert all(value is None for value in summary[color].values()), f"{color} figures without trust"
        return
    if game["kind"] == "chess":
        san_is_canonical(report)
        check_chess_figures(report)
    else:
        check_go_figures(report)
