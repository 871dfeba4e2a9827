"""Evaluations a PGN already carries: lichess-style `[%eval ...]` commands in main-line comments.

`[%eval 0.35]` is +0.35 pawns for White, `[%eval #-3]` Black mates in 3, `[%eval 1.2,23]` adds the
search depth. The comment after move i evaluates the position after it (P_i); P0 has an evaluation
only when the comment before the first move carries one. Files rarely evaluate a position where the
game is over, so a main-line position that is checkmate or a drawn game-over position gets the
verdict the rules give it (checkmate / stalemate / draw), which needs no engine.
"""

from __future__ import annotations

import re
from dataclasses import replace

import chess

from reviewer.core.analysis import Evaluation, EvaluationTable, Terminal
from reviewer.core.gametree import Color, Game, Node

EMBEDDED_ENGINE_ID = "pgn-comments"

EVAL_COMMAND = re.compile(
    r"\[%eval\s+(?:#\s*(?P<mate>[+-]?\d+)|(?P<pawns>[+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:\s*,\s*(?P<depth>\d+))?\s*\]"
)


def parse_eval_command(comment: str, ply: int = 0) -> Evaluation | None:
    """The first `[%eval ...]` of a comment as an Evaluation of White's view; None when there is none."""
    match = EVAL_COMMAND.search(comment or "")
    if match is None:
        return None
    depth = int(match["depth"]) if match["depth"] else None
    if match["mate"] is not None:
        return Evaluation(ply=ply, kind="chess", engine_id=EMBEDDED_ENGINE_ID, mate_white=int(match["mate"]), depth=depth)
    score_cp_white = round(float(match["pawns"]) * 100)
    return Evaluation(ply=ply, kind="chess", engine_id=EMBEDDED_ENGINE_ID, score_cp_white=score_cp_white, depth=depth)


def _terminal_verdict(board: chess.Board) -> Terminal | None:
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material() or board.is_seventyfive_moves() or board.is_fivefold_repetition():
        return "draw"
    return None


def _push(board: chess.Board, node: Node) -> bool:
    try:
        if node.uci:
            board.push(board.parse_uci(node.uci))
        elif node.move:
            board.push_san(node.move)
        else:
            return False
    except ValueError:
        return False
    return True


def evaluations_from_pgn_comments(game: Game) -> EvaluationTable:
    """The `[%eval]` of every main-line position (root comment = P0), plus game-over positions."""
    table = EvaluationTable()
    if game.kind != "chess":
        return table
    try:
        board: chess.Board | None = chess.Board(game.start_fen or chess.STARTING_FEN, chess960=game.chess960)
    except ValueError:
        board = None
    root_eval = parse_eval_command(game.root.comment, 0)
    if root_eval is not None:
        table.add(root_eval)
    for ply, node in enumerate(game.mainline_nodes(), start=1):
        if board is not None and not _push(board, node):
            board = None
        side_to_move: Color | None = None if board is None else ("white" if board.turn == chess.WHITE else "black")
        terminal = None if board is None else _terminal_verdict(board)
        evaluation = parse_eval_command(node.comment, ply)
        if terminal is not None:
            table.add(
                Evaluation(ply=ply, kind="chess", engine_id=EMBEDDED_ENGINE_ID, side_to_move=side_to_move, terminal=terminal)
            )
        elif evaluation is not None:
            if side_to_move is not None:
                evaluation = replace(evaluation, side_to_move=side_to_move)
            table.add(evaluation)
    return table


def has_embedded_evals(game: Game) -> bool:
    return any(EVAL_COMMAND.search(node.comment or "") for node in [game.root, *game.mainline_nodes()])


# ---------------------------------------------------------------- any game, as exported by Reviewer

SGF_PROPERTIES_ENGINE_ID = "sgf-properties"  # evaluations read from Sabaki's SBKV/SBKS


def evaluations_from_game(game: Game) -> EvaluationTable:
    """The evaluations an opened file carries, so a reviewed file shows its review without an engine.

    Per main-line position (the root is P0), the best source wins: Reviewer's own full record
    (SGF `RVW[...]`, PGN `[%rvw ...]`; see reviewer.core.export.codec), else Sabaki's
    `SBKV`/`SBKS` (Go), else lichess's `[%eval ...]` (chess, with game-over positions filled in).
    """
    table = evaluations_from_pgn_comments(game) if game.kind == "chess" else EvaluationTable()
    records = reviewer_records(game)
    for ply, node in enumerate([game.root, *game.mainline_nodes()]):
        record = records.get(ply)
        if record is not None:
            table.add(record)
        elif game.kind == "go":
            sabaki = _sabaki_evaluation(node, ply)
            if sabaki is not None:
                table.add(sabaki)
    return table


def reviewer_records(game: Game) -> EvaluationTable:
    """Only the main-line positions that carry Reviewer's own record (RVW / [%rvw]), decoded.

    A record without an engine id takes the one of the record before it on the main line; a
    record of an unknown version or a broken one is skipped.
    """
    from reviewer.core.export.codec import CodecError, decode_evaluation

    table = EvaluationTable()
    engine_id = ""
    for ply, node in enumerate([game.root, *game.mainline_nodes()]):
        text = _reviewer_record(game, node)
        if text is None:
            continue
        try:
            evaluation = decode_evaluation(text, ply, game.kind, engine_id)
        except CodecError:
            continue
        engine_id = evaluation.engine_id
        table.add(evaluation)
    return table


_RVW_COMMAND = re.compile(r"\[%rvw\s+(?P<text>[^\]\s]+)\s*\]")


def _reviewer_record(game: Game, node: Node) -> str | None:
    if game.kind == "go":
        values = node.properties.get("RVW")
        return values[0] if values else None
    match = _RVW_COMMAND.search(node.comment or "")
    return match["text"] if match else None


def _sabaki_evaluation(node: Node, ply: int) -> Evaluation | None:
    def number(ident: str) -> float | None:
        values = node.properties.get(ident)
        if not values:
            return None
        try:
            value = float(values[0].strip())
        except ValueError:
            return None
        return value if value == value and abs(value) != float("inf") else None

    winrate_pct = number("SBKV")
    lead = number("SBKS")
    if winrate_pct is None and lead is None:
        return None
    winrate = None if winrate_pct is None else min(1.0, max(0.0, winrate_pct / 100))
    return Evaluation(
        ply=ply, kind="go", engine_id=SGF_PROPERTIES_ENGINE_ID, winrate_black=winrate, score_lead_black=lead
    )


def has_embedded_evaluations(game: Game) -> bool:
    """Whether the file carries any evaluation of its own: [%eval]/[%rvw] (chess), RVW/SBKV/SBKS (Go)."""
    nodes = [game.root, *game.mainline_nodes()]
    if game.kind == "go":
        return any(ident in node.properties for node in nodes for ident in ("RVW", "SBKV", "SBKS"))
    return any(EVAL_COMMAND.search(node.comment or "") or _RVW_COMMAND.search(node.comment or "") for node in nodes)
