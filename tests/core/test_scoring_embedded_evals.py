"""Reading lichess-style [%eval] comments into evaluations."""

from __future__ import annotations

from test_scoring_games import chess_game, chess_game_from_pgn

from reviewer.core.embedded_evals import EMBEDDED_ENGINE_ID, evaluations_from_game, has_embedded_evaluations
from reviewer.core.embedded_evals.pgn import evaluations_from_pgn_comments, parse_eval_command


def test_parse_pawns_mates_and_depth():
    assert parse_eval_command("[%eval 0.35]", 3).score_cp_first == 35
    assert parse_eval_command("[%eval -0.05]").score_cp_first == -5
    assert parse_eval_command("[%eval +1.5]").score_cp_first == 150
    assert parse_eval_command("[%eval 2]").score_cp_first == 200
    mate = parse_eval_command("[%eval #-3]", 7)
    assert (mate.mate_first, mate.score_cp_first, mate.ply) == (-3, None, 7)
    assert parse_eval_command("[%eval #4]").mate_first == 4
    with_depth = parse_eval_command("text [%eval 1.2,23] [%clk 0:01:00]")
    assert (with_depth.score_cp_first, with_depth.depth) == (120, 23)
    assert with_depth.engine_id == EMBEDDED_ENGINE_ID


def test_comments_without_an_eval():
    assert parse_eval_command("[%clk 0:15:10] Mistake. Nxe4 was best.") is None
    assert parse_eval_command("") is None
    assert parse_eval_command("[%eval abc]") is None


def test_comment_after_move_i_evaluates_position_i():
    game = chess_game_from_pgn(
        "1. e4 { [%eval 0.17] [%clk 0:15:10] } 1... e5 { [%eval 0.2] } 2. Nf3 2... Nc6 { [%eval #-9] } *"
    )
    table = evaluations_from_pgn_comments(game)
    assert 0 not in table  # P0 has no comment before the first move
    assert table.get(1).score_cp_first == 17 and table.get(1).side_to_move == "black"
    assert table.get(2).score_cp_first == 20
    assert 3 not in table
    assert table.get(4).mate_first == -9
    assert has_embedded_evaluations(game)


def test_root_comment_evaluates_the_start_position():
    game = chess_game("e4", comments={0: "[%eval 0.3]", 1: "[%eval 0.25]"})
    table = evaluations_from_pgn_comments(game)
    assert table.get(0).score_cp_first == 30 and table.get(1).score_cp_first == 25


def test_game_over_positions_get_the_rules_verdict():
    # Fool's mate: the file's comment on the mating move is wrong; the position is checkmate
    game = chess_game("f3 e5 g4 Qh4#", comments={3: "[%eval #-1]", 4: "[%eval 3.0]"})
    table = evaluations_from_pgn_comments(game)
    last = table.get(4)
    assert last.terminal == "checkmate" and last.side_to_move == "white" and last.score_cp_first is None


def test_game_without_evals():
    game = chess_game("e4 e5", comments={1: "a fine move"})
    assert not has_embedded_evaluations(game)
    assert len(evaluations_from_pgn_comments(game)) == 0


def test_eval_variants_seen_in_real_files():
    centipawns = parse_eval_command("{ [%eval -77,23] }")  # a centipawn integer with a depth
    assert (centipawns.score_cp_first, centipawns.depth) == (-77, 23)
    assert parse_eval_command("[%eval 0.17,23]").score_cp_first == 17
    assert parse_eval_command("[%eval 0.17]").score_cp_first == 17
    assert parse_eval_command("[%eval -M3]").mate_first == -3
    assert parse_eval_command("[%eval M5,30]").mate_first == 5
    assert parse_eval_command("[%eval 12]").score_cp_first == 1200  # small integers stay pawns, as lichess reads them
    assert parse_eval_command("[%eval 12]", centipawn_integers=True).score_cp_first == 12


def test_a_game_of_centipawn_integers_is_read_in_centipawns():
    game = chess_game("e4 e5 Nf3", comments={1: "[%eval 25,20]", 2: "[%eval 12,21]", 3: "[%eval -4,22]"})
    table = evaluations_from_pgn_comments(game)
    assert [table.get(ply).score_cp_first for ply in (1, 2, 3)] == [25, 12, -4]


def test_implausible_evals_are_refused_with_a_warning():
    game = chess_game("e4 e5 Nf3", comments={1: "[%eval 0.2]", 2: "[%eval 999.5]", 3: "[%eval #0]"})
    table = evaluations_from_game(game)
    assert table.get(1).score_cp_first == 20
    assert 2 not in table and 3 not in table
    assert [warning.split(":")[0] for warning in game.warnings] == ["ply 2", "ply 3"]
    assert "+999.50 pawns is not a plausible evaluation" in game.warnings[0]
    assert "mate in 0" in game.warnings[1]
    evaluations_from_game(game)
    assert len(game.warnings) == 2  # read again: not said twice
