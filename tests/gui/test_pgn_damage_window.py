"""PGN games the reader had to warn about, in the main window: variant games replay on the board by
their own rules, and a file cut off says so in the message bar, as a cut-off SGF does."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import Qt
from window_support import open_game, shown_window

from reviewer.core.games.chess import board_after
from reviewer.gui.window.main_window import MainWindow

VARIANTS = {
    "Crazyhouse": "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@e5 P@f4 *",
    "Atomic": "1. e4 d5 2. exd5 Nf6 *",
    "Antichess": "1. d3 e6 2. Kd2 Bb4 3. a3 Bxa3 *",
    "Horde": "1. e5 e6 2. d5 exd5 *",
}


@pytest.fixture
def window(qtbot) -> MainWindow:
    return shown_window(qtbot)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_variant_game_steps_on_the_board_through_every_position(variant, qtbot, window, tmp_path) -> None:
    path = tmp_path / f"{variant}.pgn"
    path.write_text(f'[Variant "{variant}"]\n[White "A"]\n[Black "B"]\n\n{VARIANTS[variant]}\n', encoding="utf-8")
    open_game(qtbot, window, path)
    game = window.session.model.game
    assert game is not None and game.variant == variant.lower()
    assert game.ply_count == len(VARIANTS[variant].split()) - 1 - VARIANTS[variant].count(".")
    if variant == "Horde":
        assert len(window.board.board().pieces(chess.PAWN, chess.WHITE)) == 36
    for ply in range(1, game.ply_count + 1):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        assert window.session.model.current_ply == ply
        assert window.board.board().fen() == board_after(game, game.node_at_ply(ply)).fen()
    if variant == "Crazyhouse":
        board = window.board.board()
        assert board.piece_at(chess.E5) == chess.Piece(chess.PAWN, chess.WHITE)
        assert board.piece_at(chess.F4) == chess.Piece(chess.PAWN, chess.BLACK)
        assert game.node_at_ply(7).move == "P@e5"
        hands = {strip.color: strip.captures_label.text() for strip in (window.top_player, window.bottom_player)}
        assert hands == {"white": "nothing in hand", "black": "nothing in hand"}
        qtbot.keyClick(window, Qt.Key.Key_Left)
        qtbot.keyClick(window, Qt.Key.Key_Left)
        hands = {strip.color: strip.captures_label.text() for strip in (window.top_player, window.bottom_player)}
        assert hands == {"white": "in hand: ♙", "black": "in hand: ♟"}
    if variant == "Atomic":
        assert window.board.board().piece_at(chess.D5) is None  # the capture blew both pawns up
    texts = [message.text for message in window.message_bar.messages()]
    assert any("engines analyse only standard chess" in text for text in texts), texts


def test_a_pgn_cut_off_in_a_move_says_so_in_the_message_bar(qtbot, window, tmp_path) -> None:
    path = tmp_path / "cut.pgn"
    path.write_text('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. B', encoding="utf-8")
    open_game(qtbot, window, path)
    texts = [message.text for message in window.message_bar.messages()]
    assert any("in the middle of a move ('B')" in text and "the rest is missing" in text for text in texts), texts
    assert window.session.model.game is not None and window.session.model.game.ply_count == 4
