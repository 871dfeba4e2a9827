"""One explanation per move, from the best evidence the review has, read the same way everywhere:
the app, the report, the exports and the trainer's cards (docs/SCORING.md, "Why a move lost")."""

from __future__ import annotations

import chess
from test_scoring_games import chess_game

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.cache import AnalysisCache, position_keys
from reviewer.core.explain.chess import explain_position
from reviewer.core.passes import default_chess_passes, pass_cache_id
from reviewer.core.report import build_report
from reviewer.core.services.trainer.harvest import cached_analysis, game_cards

SCHEME_ID = f"Stockfish 16.1 | scheme={default_chess_passes(2).scheme_id},multipv=1"


def test_an_announced_mate_outweighs_what_a_short_line_shows():
    # 15...Kh7?? allows 16. Nxf6+ (a double check) Kh8 17. Qh7#. The engine announces the mate but
    # its line stops after 16... Kh8: the mate, not the double check, is why the move lost.
    board = chess.Board("r2q1rk1/1p1bnpp1/p3pn1p/b3N3/3PN3/PB1Q4/1P3PPP/R1BR2K1 b - - 5 15")
    before = Evaluation(ply=30, kind="chess", score_cp_first=40, pv=("Nxe4",))
    after = Evaluation(ply=31, kind="chess", mate_first=2, pv=("Nxf6+", "Kh8"))
    why = explain_position(board, chess.Move.from_uci("g8h7"), before, after)
    assert why is not None
    assert why.text == "Allows a forced mate: the engine announces mate in 2, starting with 16. Nxf6+."
    assert why.line == ("Nxf6+", "Kh8")


def evaluation(ply: int, **figures) -> Evaluation:
    return Evaluation(ply=ply, kind="chess", engine_id=SCHEME_ID, **figures)


def test_cards_from_a_cached_review_in_passes_say_what_the_report_says(tmp_path):
    # 1. h3 e5 2. g4 d5 3. f3?? allows 3... Qh4#. The fast pass (every position) missed the mate; the
    # second pass searched the move's two positions again and found it. The cache keeps the passes apart.
    game = chess_game(["h3", "e5", "g4", "d5", "f3"])
    fast = {
        0: evaluation(0, score_cp_first=20, best_move="e4", pv=("e4", "e5")),
        1: evaluation(1, score_cp_first=-10, best_move="e5", pv=("e5", "e4")),
        2: evaluation(2, score_cp_first=-20, best_move="d4", pv=("d4", "exd4")),
        3: evaluation(3, score_cp_first=-70, best_move="d5", pv=("d5", "Bg2")),
        4: evaluation(4, score_cp_first=-90, best_move="Bg2", pv=("Bg2", "h5")),
        5: evaluation(5, score_cp_first=-120, best_move="Nc6", pv=("Nc6", "Nc3")),
    }
    deeper = {
        4: evaluation(4, score_cp_first=-100, best_move="Bg2", pv=("Bg2", "h5")),
        5: evaluation(5, mate_first=-1, best_move="Qh4#", pv=("Qh4#",)),
    }
    cache = AnalysisCache(tmp_path / "cache.sqlite")
    keys = position_keys(game, range(game.ply_count + 1))
    for index, found in ((1, fast), (2, deeper)):
        for ply, result in found.items():
            cache.put(keys[ply], pass_cache_id(SCHEME_ID, index), result)

    table = cached_analysis(game, cache)
    assert table.get(5) is not None and table.get(5).mate_first == -1 and table.get(5).review_pass == 2
    assert {e.engine_id for e in table.ordered()} == {SCHEME_ID}  # one engine setting, not a pass of it

    report = build_report(game, table)
    why = report["moves"][4]["why"]
    assert report["moves"][4]["judgement"] == "blunder" and why is not None
    assert why["text"] == "Allows 3... Qh4#, mate."
    cards = [card for card in game_cards(game, table) if card.played == "f3"]
    assert [card.why_text for card in cards] == [why["text"]]


def test_a_uniform_review_in_the_cache_is_read_as_it_was_stored(tmp_path):
    game = chess_game(["f3", "e5", "g4"])
    engine_id = "Stockfish 16.1 | nodes=100000,multipv=1"
    cache = AnalysisCache(tmp_path / "cache.sqlite")
    keys = position_keys(game, range(game.ply_count + 1))
    for ply, figures in enumerate(({"score_cp_first": 20}, {"score_cp_first": -30}, {"score_cp_first": -40},
                                   {"mate_first": -1, "pv": ("Qh4#",)})):
        cache.put(keys[ply], engine_id, Evaluation(ply=ply, kind="chess", engine_id=engine_id, **figures))
    table = cached_analysis(game, cache)
    assert len(table) == 4 and {e.engine_id for e in table.ordered()} == {engine_id}
    assert all(e.review_pass is None for e in table.ordered())
    assert isinstance(table, EvaluationTable)
