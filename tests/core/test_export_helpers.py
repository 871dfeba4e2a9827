"""Helpers the export tests share: made-up but deterministic evaluations, engines run on a game.

The evaluations follow the engines' contracts (White's view for chess, Black's for Go, best
lines that start with the best move) without starting a process, so long corpus games stay fast.
"""

from __future__ import annotations

import threading
import zlib

import chess

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable, Limit
from reviewer.core.gametree import GO_COLUMNS, Game

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}


def _material_white(board: chess.Board) -> int:
    return sum(VALUES[p.piece_type] * (1 if p.color == chess.WHITE else -1) for p in board.piece_map().values())


def chess_evaluations(game: Game, engine_id: str = "Synthetic 1.0 | nodes=1,multipv=2") -> EvaluationTable:
    """An evaluation of every main-line position: material plus a fixed offset, two candidate lines."""
    table = EvaluationTable()
    board = chess.Board(game.start_fen or chess.STARTING_FEN, chess960=game.chess960)
    for ply, node in enumerate([game.root, *game.mainline_nodes()]):
        if ply:
            board.push(board.parse_uci(node.uci) if node.uci else board.parse_san(node.move or ""))
        side = "white" if board.turn == chess.WHITE else "black"
        if board.is_checkmate():
            table.add(Evaluation(ply=ply, kind="chess", engine_id=engine_id, side_to_move=side, terminal="checkmate"))
            continue
        if board.is_game_over():
            table.add(Evaluation(ply=ply, kind="chess", engine_id=engine_id, side_to_move=side, terminal="draw"))
            continue
        cp = _material_white(board) + zlib.crc32(board.epd().encode()) % 61 - 30
        moves = sorted(board.legal_moves, key=lambda m: m.uci())[:2]
        candidates = []
        for order, move in enumerate(moves):
            line = board.copy(stack=False)
            sans = []
            for step in range(14):  # longer than the 12 plies an export keeps
                legal = sorted(line.legal_moves, key=lambda m: m.uci()) if step else [move]
                if not legal:
                    break
                sans.append(line.san(legal[0]))
                line.push(legal[0])
            candidates.append(Candidate(move=sans[0], order=order, visits=1000, score_cp_first=cp - 7 * order, pv=tuple(sans)))
        wins = max(0, min(1000, 500 + cp // 2))
        table.add(
            Evaluation(
                ply=ply,
                kind="chess",
                engine_id=engine_id,
                score_cp_first=cp,
                wdl_first=(wins, 1000 - wins, 0),
                side_to_move=side,
                best_move=candidates[0].move,
                pv=candidates[0].pv,
                candidates=tuple(candidates),
                depth=12,
                nodes=1000 + ply,
                seconds=0.25,
            )
        )
    return table


def go_evaluations(game: Game, engine_id: str = "Synthetic Go | visits=10,multipv=3") -> EvaluationTable:
    """An evaluation of every main-line position: a lead from a checksum, three candidates with priors."""
    table = EvaluationTable()
    moves: list[str] = []
    for ply, node in enumerate([game.root, *game.mainline_nodes()]):
        if ply:
            moves.append(node.move or "pass")
        seed = zlib.crc32(" ".join(moves).encode())
        lead = (seed % 41) / 2 - 10.25
        side = "black" if ply % 2 == 0 else "white"
        sign = 1 if side == "black" else -1
        candidates = []
        for order in range(3):
            column = GO_COLUMNS[(seed // (order + 1)) % game.board_width]
            row = (seed // (7 * (order + 1))) % game.board_height + 1
            move = f"{column}{row}"
            follow = [f"{GO_COLUMNS[(seed + k) % game.board_width]}{(seed + 3 * k) % game.board_height + 1}" for k in range(1, 14)]
            candidates.append(
                Candidate(
                    move=move,
                    order=order,
                    visits=10 // (order + 1),
                    prior=(0.5, 0.3, 0.2)[order],
                    score_lead_first=lead - sign * 1.5 * order,
                    winrate_first=1 / (1 + 2.718281828 ** (-(lead - sign * 1.5 * order) / 4)),
                    pv=(move, *follow),
                )
            )
        table.add(
            Evaluation(
                ply=ply,
                kind="go",
                engine_id=engine_id,
                score_lead_first=lead,
                winrate_first=candidates[0].winrate_first,
                side_to_move=side,  # type: ignore[arg-type]
                best_move=candidates[0].move,
                pv=candidates[0].pv,
                candidates=tuple(candidates),
                nodes=10,
            )
        )
    return table


def analyse(game: Game, engine, limit: Limit) -> EvaluationTable:
    from reviewer.core.review import analyse_game

    table = EvaluationTable()
    for evaluation in analyse_game(game, engine, limit, threading.Event()):
        table.add(evaluation)
    return table


def test_synthetic_evaluations_cover_every_position():
    from reviewer.core.formats import game_from_pgn_text

    game = game_from_pgn_text("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0")
    table = chess_evaluations(game)
    assert sorted(table.by_ply) == list(range(8))
    assert table.get(7).terminal == "checkmate"
    assert table.get(0).pv[0] == table.get(0).best_move and len(table.get(0).pv) == 14
