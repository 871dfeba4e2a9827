"""Small games for the scoring tests, built with python-chess (independent of the file readers)."""

from __future__ import annotations

import io

import chess
import chess.pgn

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable
from reviewer.core.gametree import Game, Node


def chess_game(sans: list[str] | str, fen: str | None = None, comments: dict[int, str] | None = None) -> Game:
    """A chess Game whose main line is `sans` (a list, or "e4 e5 Nf3"); comments by ply (0 = root)."""
    if isinstance(sans, str):
        sans = sans.split()
    comments = comments or {}
    board = chess.Board(fen) if fen else chess.Board()
    game = Game(kind="chess", start_fen=fen, first_player="white" if board.turn else "black")
    game.root.comment = comments.get(0, "")
    node = game.root
    for ply, san in enumerate(sans, start=1):
        move = board.parse_san(san)
        color = "white" if board.turn == chess.WHITE else "black"
        child = Node(move=board.san(move), color=color, uci=move.uci(), comment=comments.get(ply, ""))
        board.push(move)
        node = node.add_child(child)
    return game


def chess_game_from_pgn(text: str) -> Game:
    """Main line and comments of a PGN game, through python-chess (comments joined by a space)."""
    pc = chess.pgn.read_game(io.StringIO(text))
    assert pc is not None
    game = Game(kind="chess", headers=dict(pc.headers), white=pc.headers.get("White", ""),
                black=pc.headers.get("Black", ""), result=pc.headers.get("Result", ""))
    game.root.comment = pc.comment
    node, board = game.root, pc.board()
    for pc_node in pc.mainline():
        color = "white" if board.turn == chess.WHITE else "black"
        child = Node(move=board.san(pc_node.move), color=color, uci=pc_node.move.uci(), comment=pc_node.comment)
        board.push(pc_node.move)
        node = node.add_child(child)
    return game


def go_game(moves: list[str], first: str = "black") -> Game:
    game = Game(kind="go", board_width=19, board_height=19, first_player=first)  # type: ignore[arg-type]
    node = game.root
    color = first
    for move in moves:
        node = node.add_child(Node(move=move, color=color))  # type: ignore[arg-type]
        color = "white" if color == "black" else "black"
    return game


def cp_table(scores_cp_white: list[int | str | None], best: dict[int, str] | None = None) -> EvaluationTable:
    """Evaluations of P0..Pn: an int is centipawns for White, "#3"/"#-2" a mate, None no evaluation."""
    best = best or {}
    table = EvaluationTable()
    for ply, score in enumerate(scores_cp_white):
        if score is None:
            continue
        if isinstance(score, str):
            table.add(Evaluation(ply=ply, kind="chess", mate_first=int(score.lstrip("#")), best_move=best.get(ply)))
        else:
            table.add(Evaluation(ply=ply, kind="chess", score_cp_first=score, best_move=best.get(ply)))
    return table


def go_eval(ply: int, lead_black: float, candidates: list[tuple[str, float, float]] = (), winrate_first: float | None = None) -> Evaluation:
    """A Go evaluation; candidates as (move, prior, lead for Black), best first."""
    return Evaluation(
        ply=ply,
        kind="go",
        score_lead_first=lead_black,
        winrate_first=winrate_first,
        candidates=tuple(
            Candidate(move=move, order=order, prior=prior, score_lead_first=lead)
            for order, (move, prior, lead) in enumerate(candidates)
        ),
    )


def test_chess_game_builder_keeps_moves_colours_and_comments():
    game = chess_game("e4 e5 Nf3", comments={0: "start", 2: "[%eval 0.2]"})
    assert game.mainline_moves() == ["e4", "e5", "Nf3"]
    assert [n.color for n in game.mainline_nodes()] == ["white", "black", "white"]
    assert [n.uci for n in game.mainline_nodes()] == ["e2e4", "e7e5", "g1f3"]
    assert game.root.comment == "start" and game.node_at_ply(2).comment == "[%eval 0.2]"


def test_cp_table_reads_mates_and_gaps():
    table = cp_table([15, "#-3", None, 40])
    assert table.get(1).mate_first == -3 and table.get(2) is None and table.get(3).score_cp_first == 40
