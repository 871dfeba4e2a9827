"""Evaluations a PGN already carries: lichess-style `[%eval ...]` commands in main-line comments.

`[%eval 0.35]` is +0.35 pawns for White, `[%eval #-3]` (or `-M3`) Black mates in 3, `[%eval 1.2,23]`
adds the search depth. Some tools write centipawn integers (`[%eval -77,23]` is -0.77, not -77
pawns): an integer beyond +-15, or every integer of a game whose evals have no decimal point, is
read in centipawns. A value no engine gives (beyond +-200 pawns, mate in 0) is left out with a
warning. The comment after move i evaluates the position after it (P_i); P0 has an evaluation
only when the comment before the first move carries one. Files rarely evaluate a position where the
game is over, so a main-line position that is checkmate or a drawn game-over position gets the
verdict the rules give it (checkmate / stalemate / draw), which needs no engine.
"""

from __future__ import annotations

import re
from dataclasses import replace

import chess

from reviewer.core.analysis import Evaluation, EvaluationTable, Terminal
from reviewer.core.embedded_evals import EMBEDDED_ENGINE_ID, EVAL_COMMAND
from reviewer.core.games.chess import recorded_move, start_board
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Color, Game, Node

__all__ = [
    "CENTIPAWN_INTEGER_ABOVE",
    "EMBEDDED_ENGINE_ID",
    "EVAL_COMMAND",
    "eval_command_problem",
    "evaluations_from_pgn_comments",
    "parse_eval_command",
    "uses_centipawn_integers",
]

# An integer without a decimal point above this is a centipawn value (lichess writes pawns with a
# decimal point; some tools write centipawn integers: `[%eval -77,23]` is -0.77, not -77 pawns).
CENTIPAWN_INTEGER_ABOVE = 15
MAX_PLAUSIBLE_CP = 20_000  # engines cap their centipawn scores well below 200 pawns
MAX_PLAUSIBLE_MATE = 250
MAX_PLAUSIBLE_DEPTH = 255


def parse_eval_command(comment: str, ply: int = 0, centipawn_integers: bool = False) -> Evaluation | None:
    """The first `[%eval ...]` of a comment as an Evaluation of White's view; None when there is
    none or when its value is not plausible (see `eval_command_problem`).

    `[%eval 0.17]` and `[%eval 2]` are pawns, `[%eval -77,23]` (an integer beyond +-15) and, with
    `centipawn_integers`, every integer are centipawns; `[%eval #-3]` / `[%eval -M3]` are mates.
    """
    match = EVAL_COMMAND.search(comment or "")
    if match is None or _problem(match, centipawn_integers):
        return None
    return _evaluation(match, ply, centipawn_integers)


def eval_command_problem(comment: str, centipawn_integers: bool = False) -> str:
    """Why the comment's `[%eval ...]` cannot be used ("" when it can, or when there is none)."""
    match = EVAL_COMMAND.search(comment or "")
    return "" if match is None else _problem(match, centipawn_integers)


def _score_cp(match: re.Match[str], centipawn_integers: bool) -> int:
    text = match["pawns"]
    value = float(text)
    if "." not in text and (centipawn_integers or abs(value) > CENTIPAWN_INTEGER_ABOVE):
        return int(value)
    return round(value * 100)


def _mate(match: re.Match[str]) -> int:
    mate = int(match["mate"])
    return -abs(mate) if match["m_sign"] == "-" else mate


def _problem(match: re.Match[str], centipawn_integers: bool) -> str:
    depth = int(match["depth"]) if match["depth"] else None
    if depth is not None and depth > MAX_PLAUSIBLE_DEPTH:
        return f"{match.group(0)}: depth {depth} is not plausible"
    if match["mate"] is not None:
        mate = _mate(match)
        if mate == 0 or abs(mate) > MAX_PLAUSIBLE_MATE:
            return f"{match.group(0)}: mate in {mate} is not plausible"
        return ""
    score = _score_cp(match, centipawn_integers)
    if abs(score) > MAX_PLAUSIBLE_CP:
        return f"{match.group(0)}: {score / 100:+.2f} pawns is not a plausible evaluation"
    return ""


def _evaluation(match: re.Match[str], ply: int, centipawn_integers: bool) -> Evaluation:
    depth = int(match["depth"]) if match["depth"] else None
    if match["mate"] is not None:
        return Evaluation(ply=ply, kind="chess", engine_id=EMBEDDED_ENGINE_ID, mate_first=_mate(match), depth=depth)
    score_cp_first = _score_cp(match, centipawn_integers)
    return Evaluation(ply=ply, kind="chess", engine_id=EMBEDDED_ENGINE_ID, score_cp_first=score_cp_first, depth=depth)


def uses_centipawn_integers(comments: list[str]) -> bool:
    """Whether a game's evals are centipawn integers: none has a decimal point, one is beyond +-15."""
    values = [match["pawns"] for match in map(EVAL_COMMAND.search, comments) if match and match["pawns"]]
    return (
        bool(values)
        and all("." not in value for value in values)
        and any(abs(int(value)) > CENTIPAWN_INTEGER_ABOVE for value in values)
    )


def _terminal_verdict(board: chess.Board) -> Terminal | None:
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material() or board.is_seventyfive_moves() or board.is_fivefold_repetition():
        return "draw"
    return None


def _push(board: chess.Board, node: Node) -> bool:
    """Play the move `node` records; False when it is not legal there (or is a null move)."""
    try:
        move = recorded_move(board, node)
    except ValueError:
        return False
    if not move:
        return False
    board.push(move)
    return True


def evaluations_from_pgn_comments(game: Game, warnings: list[str] | None = None) -> EvaluationTable:
    """The `[%eval]` of every main-line position (root comment = P0), plus game-over positions.

    An eval that is not plausible is left out, and `warnings` (when given) says which and why.
    """
    table = EvaluationTable()
    if game_support(game.kind).export_extension != "pgn":  # lichess's [%eval] lives in PGN comments
        return table
    nodes = game.mainline_nodes()
    centipawns = uses_centipawn_integers([game.root.comment or "", *(node.comment or "" for node in nodes)])

    def parsed(comment: str, ply: int) -> Evaluation | None:
        problem = eval_command_problem(comment, centipawns)
        if problem:
            if warnings is not None:
                message = f"ply {ply}: {problem}; it is ignored"
                if message not in warnings:
                    warnings.append(message)
            return None
        return parse_eval_command(comment, ply, centipawns)

    try:
        board: chess.Board | None = start_board(game)
    except ValueError:
        board = None
    root_eval = parsed(game.root.comment, 0)
    if root_eval is not None:
        table.add(root_eval)
    for ply, node in enumerate(nodes, start=1):
        if board is not None and not _push(board, node):
            board = None
        side_to_move: Color | None = None if board is None else ("white" if board.turn == chess.WHITE else "black")
        terminal = None if board is None else _terminal_verdict(board)
        evaluation = parsed(node.comment, ply)
        if terminal is not None:
            table.add(
                Evaluation(ply=ply, kind="chess", engine_id=EMBEDDED_ENGINE_ID, side_to_move=side_to_move, terminal=terminal)
            )
        elif evaluation is not None:
            if side_to_move is not None:
                evaluation = replace(evaluation, side_to_move=side_to_move)
            table.add(evaluation)
    table.variations = _variation_commands(game, centipawns)
    return table


def _variation_commands(game: Game, centipawns: bool) -> dict[Node, Evaluation]:
    """The `[%eval]` of the positions off the main line, by node (their `ply`: the node's depth)."""
    found: dict[Node, Evaluation] = {}
    stack = list(game.root.children[1:])
    for node in game.root.mainline():
        stack.extend(node.children[1:])
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        evaluation = parse_eval_command(node.comment or "", node.ply, centipawns)
        if evaluation is not None:
            found[node] = evaluation
    return found
