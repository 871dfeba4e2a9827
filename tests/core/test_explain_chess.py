"""Chess explanations: each detector on positions where it must fire and where it must not."""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.core.analysis import Evaluation
from reviewer.core.explain.chess import explain_position, material_words, replay, settled_gain


def explain(
    fen: str,
    uci: str,
    refutation: list[str],
    before_pv: list[str] | None = None,
    before_cp: int | None = None,
    before_mate: int | None = None,
    after_cp: int | None = None,
    after_mate: int | None = None,
):
    board = chess.Board(fen)
    move = chess.Move.from_uci(uci)
    assert move in board.legal_moves
    after = Evaluation(ply=1, kind="chess", score_cp_first=after_cp, mate_first=after_mate, pv=tuple(refutation))
    before = Evaluation(
        ply=0, kind="chess", score_cp_first=before_cp, mate_first=before_mate, pv=tuple(before_pv or ())
    )
    return explain_position(board, move, before, after)


FORK = "r3k3/7p/8/3N4/8/8/8/4K3 b - - 0 1"


def test_fork_named_with_the_forked_pieces():
    why = explain(FORK, "h7h6", ["Nc7+", "Kd7", "Nxa8"])
    assert why is not None
    assert why.motifs[0] == "fork"
    assert why.text.startswith("Allows 2. Nc7+, forking the king on e8 and the rook on a8.")
    assert "White wins a rook." in why.text
    assert {"c7", "e8", "a8"} <= set(why.focus)
    assert why.line == ("Nc7+", "Kd7", "Nxa8")


def test_fork_not_claimed_when_the_line_stops_before_winning_anything():
    why = explain(FORK, "h7h6", ["Nc7+", "Kd7"])
    assert why is None or "fork" not in why.motifs


def test_fork_not_claimed_when_the_line_is_missing():
    assert explain(FORK, "h7h6", []) is None


HANGING = "4k3/8/2n5/8/8/8/8/3QK3 b - - 0 1"


def test_hanging_piece():
    why = explain(HANGING, "c6d4", ["Qxd4"])
    assert why is not None and why.motifs[0] == "hangingPiece"
    assert why.text.startswith("Leaves the knight on d4 undefended: 2. Qxd4 takes it.")
    assert "d4" in why.focus


def test_defended_piece_is_not_hanging():
    board = "4k3/8/2n5/4p3/8/8/8/3QK3 b - - 0 1"  # e5 guards d4
    why = explain(board, "c6d4", ["Qxd4", "exd4"])
    assert why is None or "hangingPiece" not in why.motifs


PIN = "4k3/7p/2n5/8/3P4/8/8/4KB2 b - - 0 1"


def test_pin_wins_the_pinned_piece():
    why = explain(PIN, "h7h6", ["Bb5", "h5", "d5", "h4", "dxc6"])
    assert why is not None and why.motifs[0] == "pin"
    assert "the bishop on b5 pins the knight on c6 to the king" in why.text
    assert {"c6", "b5", "e8"} <= set(why.focus)


def test_no_pin_without_a_king_behind():
    board = "5k2/7p/2n5/8/3P4/8/8/4KB2 b - - 0 1"
    why = explain(board, "h7h6", ["Bb5", "h5", "d5", "h4", "dxc6"])
    # no pin; and the knight falls only at the line's fifth ply, past MATERIAL_HORIZON_PLIES
    assert why is None


SKEWER = "4r3/2k5/8/8/8/3B4/8/6K1 b - - 0 1"


def test_skewer_through_the_king():
    why = explain(SKEWER, "c7d7", ["Bb5+", "Kd6", "Bxe8"])
    assert why is not None and why.motifs[0] == "skewer"
    assert "the king on d7 has to move and 3. Bxe8 takes the rook on e8" in why.text
    assert {"b5", "d7", "e8"} <= set(why.focus)


def test_no_skewer_when_the_piece_behind_is_not_taken():
    why = explain(SKEWER, "c7d7", ["Bb5+", "Kd6", "Kg2"])
    assert why is None or "skewer" not in why.motifs


BACK_RANK = "3r2k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1"


def test_back_rank_mate_in_two():
    why = explain(BACK_RANK, "d8d2", ["Ra8+", "Rd8", "Rxd8#"], after_mate=2)
    assert why is not None
    assert why.motifs[:2] == ("mateIn2", "backRankMate")
    assert why.text.startswith("Allows mate in 2: 2. Ra8+ Rd8 3. Rxd8#.")
    assert "g8" in why.focus


def test_no_mate_claimed_when_the_king_has_air():
    board = "3r2k1/5pp1/7p/8/8/8/5PPP/R5K1 b - - 0 1"
    why = explain(board, "d8d2", ["Ra8+", "Rd8", "Rxd8+", "Kh7"])
    assert why is None or not any(m.startswith("mate") or m == "backRankMate" for m in why.motifs)


def test_announced_mate_without_the_line_says_so_and_claims_no_motif():
    why = explain(BACK_RANK, "d8d2", ["Ra8+"], after_mate=2)
    assert why is not None and why.motifs == ()
    assert why.text == "Allows a forced mate: the engine announces mate in 2, starting with 2. Ra8+."


def test_smothered_mate():
    why = explain("6rk/p5pp/8/6N1/8/8/8/6K1 b - - 0 1", "a7a6", ["Nf7#"], after_mate=1)
    assert why is not None and why.motifs[:2] == ("mateIn1", "smotheredMate")
    assert why.text.startswith("Allows 2. Nf7#, mate.")


def test_missed_mate():
    board = "3r2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"
    why = explain(board, "h2h3", ["Kf8"], before_pv=["Qxd8#"], before_mate=1, after_cp=0)
    assert why is not None and why.motifs == ("missedMate",)
    assert why.text == "Missed 1. Qxd8#, mate."
    assert why.line == ("Qxd8#",)


def test_no_miss_when_the_position_was_not_won():
    board = "3r2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"
    why = explain(board, "h2h3", ["Kf8"], before_pv=["Qd5"], before_cp=100, after_cp=0)
    assert why is None


def test_missed_win():
    board = "3r2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"
    why = explain(board, "h2h3", ["Rxd1+"], before_pv=["Qe2"], before_cp=600, after_cp=-900)
    assert why is not None
    assert why.motifs[0] != "missedWin"  # the reply takes the queen: that is the story, not the miss
    assert why.text.startswith("Leaves the queen on d1 undefended")


def test_exchange_lost_in_plain_words():
    why = explain("4r1k1/8/2n5/8/1B6/8/8/6K1 b - - 0 1", "e8e7", ["Bxe7", "Nxe7"])
    assert why is not None and why.motifs == ()
    assert why.text == "Loses the exchange after 2. Bxe7 Nxe7."


def test_discovered_attack():
    why = explain("4k2r/8/8/8/3N4/8/1B6/6K1 b - - 0 1", "e8e7", ["Nf5+", "Ke6", "Bxh8"])
    assert why is not None and why.motifs[0] == "discoveredAttack"
    assert "uncovers the bishop on b2, which takes the rook on h8" in why.text


def test_capturing_defender():
    why = explain("6k1/3r2p1/5n2/6B1/8/8/8/3Q2K1 b - - 0 1", "g8h8", ["Bxf6", "gxf6", "Qxd7"])
    assert why is not None and why.motifs[0] == "capturingDefender"
    assert "the defender of the rook on d7" in why.text


def test_double_check():
    why = explain("4k3/p7/8/8/4N3/8/8/4R1K1 b - - 0 1", "a7a6", ["Nf6+", "Kf7"])
    assert why is not None and why.motifs[0] == "doubleCheck"
    assert why.text == "Allows 2. Nf6+, a double check by the rook on e1 and the knight on f6."


def test_single_check_is_not_a_double_check():
    why = explain("4k3/p7/8/8/4N3/8/8/R5K1 b - - 0 1", "a7a6", ["Nf6+", "Kf7"])
    assert why is None or "doubleCheck" not in why.motifs


def test_promotion():
    why = explain("8/1P6/8/8/8/8/k7/4K3 b - - 0 1", "a2b2", ["b8=Q+"])
    assert why is not None and "promotion" in why.motifs


def test_settled_gain_counts_the_recapture_the_line_left_out():
    board = chess.Board("4r1k1/8/2n5/8/1B6/8/8/6K1 b - - 0 1")
    board.push_uci("e8e7")
    plies = replay(board, ["Bxe7"])
    gain, index, end = settled_gain(board, plies, chess.WHITE)
    assert (gain, index) == (2, 0)
    assert material_words(board, end, chess.BLACK) == "the exchange"


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_line_explains_without_crashing_or_claiming_unplayed_moves(data):
    board = chess.Board()
    for _ in range(data.draw(st.integers(0, 30))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(data.draw(st.sampled_from(moves)))
    moves = list(board.legal_moves)
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    words = data.draw(st.lists(st.sampled_from(["e4", "Nf3", "Qxd8#", "O-O", "zz", "", "Kxe8", "exd5"]), max_size=6))
    after = Evaluation(ply=1, kind="chess", score_cp_first=data.draw(st.integers(-2000, 2000)), pv=tuple(words))
    before = Evaluation(ply=0, kind="chess", mate_first=data.draw(st.sampled_from([None, 3, -3])), pv=tuple(words))
    why = explain_position(board.copy(), move, before, after)
    if why is not None:
        assert why.text
        assert len(why.line) <= len(words)


def test_a_trade_is_not_a_hanging_piece():
    why = explain("4k3/1p6/2n5/8/3N4/8/8/4K3 w - - 0 1", "d4c6", ["bxc6"])
    assert why is None


def test_a_capture_taken_back_counts_from_before_the_move():
    why = explain("4k3/7p/6p1/8/8/3B4/8/4K3 w - - 0 1", "d3g6", ["hxg6"])
    assert why is not None
    assert why.text == "Leaves the bishop on g6 undefended: 1... hxg6 takes it. Black wins a bishop for a pawn."


def test_an_advanced_pawn_taken_at_once_is_no_advanced_pawn():
    why = explain("4k3/8/8/8/8/6p1/5P2/4KB2 w - - 0 1", "f1h3", ["gxf2+", "Kxf2"])
    assert why is None


def test_exposed_king_is_listed_but_never_the_text():
    # Black's king has no pawns in front; the queen checks twice and mates
    why = explain("6k1/8/8/8/8/8/5PPP/3Q2K1 b - - 0 1", "g8h8", ["Qd8+", "Kh7", "Qd3+", "Kh6"])
    assert why is None or not why.text.startswith("The king")


# Positions from real games (the shared corpus, reviewed by Stockfish at depth 10) where an earlier
# version named a motif that the line does not show.


def test_no_skewer_for_a_knight_driven_off_a_pawn():
    line = ["Bxg7", "Nxe4", "Bxb2", "Bb5", "Rc7", "Rf8+", "Ke7", "Re8+", "Kf7"]
    why = explain("3k1b2/5Rp1/8/8/4n1Q1/2N5/1Pr5/4KB2 w - - 0 19", "g4g7", line)
    assert why is None or "skewer" not in why.motifs


def test_no_trapped_piece_when_the_player_took_something_back_instead():
    line = ["Nc7", "Rd1", "Ne6", "Rg8", "Rxg8", "Kxg8", "Rxh6", "Kf7", "Ng5+", "Ke7", "Rh7+", "Kf6"]
    why = explain("3r4/7k/3p3b/pNrPp2R/P4pR1/5P2/6KP/8 b - - 8 43", "c5d5", line)
    assert why is None or "trappedPiece" not in why.motifs


def test_a_queen_left_hanging_is_the_story_before_the_defender_it_was():
    line = ["Bxg7", "Kxe2", "Bxc3", "Ke3", "Ke7", "Kd3", "Ne6"]
    why = explain("3k1b2/5RQ1/8/6n1/8/2N5/4r3/3K4 w - - 2 22", "f7f5", line)
    assert why is not None and why.motifs[0] == "hangingPiece"
    assert why.text.startswith("Leaves the queen on g7 undefended: 22... Bxg7 takes it.")


def test_a_discovered_check_that_wins_nothing_at_once_is_not_the_explanation():
    why = explain("7k/8/8/p5K1/P5RP/8/1r6/8 b - - 0 62", "h8g7", ["Kh5+", "Kh7", "Rg5", "Rb4", "Rxa5"])
    assert why is None or "discoveredAttack" not in why.motifs


def test_a_recapture_that_opens_a_file_is_no_discovered_attack():
    line = ["Qh4", "a5", "Be7", "Qe3", "Qg5", "Qxg5", "hxg5", "Nd3", "Rxh5"]
    why = explain("r2qkb1r/1p3pp1/2p1p2p/3bP2P/Pp1P4/1P1Q1N2/3B1PP1/R4RK1 w kq - 0 21", "f3e1", line)
    assert why is None or "discoveredAttack" not in why.motifs


def test_missing_or_odd_input_says_nothing_rather_than_guessing():
    board = chess.Board(FORK)
    move = chess.Move.from_uci("h7h6")
    assert explain_position(board, move, None, None) is None
    assert explain_position(board, chess.Move.from_uci("a1a2"), None, None) is None  # not a legal move
    mated = chess.Board("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1")
    mate = chess.Move.from_uci("g5f7")
    assert explain_position(mated, mate, None, Evaluation(ply=1, kind="chess", terminal="checkmate")) is None


def test_explain_move_on_a_game_handles_every_ply():
    from support import scholars_mate

    from reviewer.core.explain import explain_move

    game, table = scholars_mate()
    for ply in range(-1, game.ply_count + 3):
        explain_move(game, ply, table.get(ply - 1), table.get(ply))  # never raises
    assert explain_move(game, 6, table.get(5), table.get(6)).motifs == ("mateIn1",)
