"""The chess board editor: pieces from a palette, the side to move, castling rights, the en passant
square and the move number; FEN in and out; checked by python-chess's `Board.status()`."""

from __future__ import annotations

from typing import Any

import chess

from reviewer.core.games.base import Position
from reviewer.core.games.setup import Choice, Draft, PieceKind, SetupRefused
from reviewer.core.gametree import Game, Point

_NAMES = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "p": "pawn"}
PALETTE = tuple(
    PieceKind(symbol, f"{'White' if symbol.isupper() else 'Black'} {_NAMES[symbol.lower()]}",
              "white" if symbol.isupper() else "black", chess.Piece.from_symbol(symbol).unicode_symbol())
    for symbol in "KQRBNPkqrbnp"
)
CASTLING = (("K", "White O-O"), ("Q", "White O-O-O"), ("k", "Black O-O"), ("q", "Black O-O-O"))
CHOICES = (
    *(Choice(key, title, "flag", tip="The right to castle this way (the king and that rook still on their squares)") for key, title in CASTLING),
    Choice("en_passant", "En passant", "text", tip="The square a pawn that just moved two squares passed over (e.g. e3), or empty"),
    Choice("fullmove", "Move number", "number", minimum=1, maximum=999, tip="The number of the next move"),
)

# Board.status() flags and what each says, the most basic first (one reason is shown).
_REASONS: tuple[tuple[int, str], ...] = (
    (chess.STATUS_EMPTY, "The board is empty: put both kings on it"),
    (chess.STATUS_NO_WHITE_KING, "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "A side has more than one king"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than 8 pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "A pawn stands on the first or the last rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than 16 pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than 16 pieces"),
    (chess.STATUS_OPPOSITE_CHECK, "The side not to move is in check (it would be captured)"),
    (chess.STATUS_TOO_MANY_CHECKERS, "The king to move is checked by more pieces than one move can give"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "The check on the king to move cannot come from any last move"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "A castling right does not fit: it needs the king and that rook on their starting squares"),
    (chess.STATUS_INVALID_EP_SQUARE, "The en passant square does not fit: no pawn of the side that just moved passed over it"),
)


def _square(point: Point) -> chess.Square:
    row, col = point
    return chess.square(col, row)


def _point(square: chess.Square) -> Point:
    return (chess.square_rank(square), chess.square_file(square))


class ChessSetup:
    board_style = "squares"
    notation = "FEN"
    palette = PALETTE
    choices = CHOICES
    sizes: tuple[int, ...] = ()

    def start(self, game: Game | None, at: Position | None = None) -> Draft:
        if isinstance(at, chess.Board):
            return _draft(at)
        if game is not None and game.start_fen:
            try:
                return _draft(chess.Board(game.start_fen))
            except ValueError:
                pass
        return _draft(chess.Board())

    def point_name(self, draft: Draft, point: Point) -> str:
        return chess.square_name(_square(point))

    def cleared(self, draft: Draft) -> Draft:
        kings = {point: key for point, key in draft.pieces.items() if key in ("K", "k")}
        choices = {**draft.choices, **{key: False for key, _ in CASTLING}, "en_passant": ""}
        return Draft(8, 8, kings, draft.to_move, choices)

    def usual_start(self, draft: Draft) -> Draft:
        return _draft(chess.Board())

    def resized(self, draft: Draft, width: int, height: int) -> Draft:
        return draft

    def problem(self, draft: Draft) -> str | None:
        try:
            board = _board(draft)
        except SetupRefused as refused:
            return str(refused)
        status = board.status()
        for flag, reason in _REASONS:
            if status & flag:
                return reason
        return None

    def text(self, draft: Draft) -> str:
        try:
            return _board(draft).fen()
        except SetupRefused:
            return _board(draft.with_choice("en_passant", "")).fen()

    def read(self, text: str) -> Draft:
        try:
            return _draft(chess.Board(text.strip()))
        except ValueError as error:
            raise SetupRefused(f"Not a FEN: {error}") from None

    def game(self, draft: Draft) -> Game:
        reason = self.problem(draft)
        if reason is not None:
            raise SetupRefused(reason)
        fen = _board(draft).fen()
        return Game(
            kind="chess",
            start_fen=fen,
            first_player=draft.to_move,
            headers={"Event": "Set-up position", "Result": "*", "SetUp": "1", "FEN": fen},
            result="*",
            event="Set-up position",
        )


def _draft(board: chess.Board) -> Draft:
    pieces = {_point(square): piece.symbol() for square, piece in board.piece_map().items()}
    rights = board.castling_xfen() if board.castling_rights else ""
    choices: dict[str, Any] = {key: key in rights for key, _ in CASTLING}
    choices["en_passant"] = chess.square_name(board.ep_square) if board.ep_square is not None else ""
    choices["fullmove"] = board.fullmove_number
    return Draft(8, 8, pieces, "white" if board.turn == chess.WHITE else "black", choices)


def _board(draft: Draft) -> chess.Board:
    """The python-chess board of a draft (not checked); SetupRefused for an en passant text that is no square."""
    board = chess.Board(None)
    for point, key in draft.pieces.items():
        board.set_piece_at(_square(point), chess.Piece.from_symbol(key))
    board.turn = chess.WHITE if draft.to_move == "white" else chess.BLACK
    board.set_castling_fen("".join(key for key, _ in CASTLING if draft.choices.get(key)) or "-")
    passed = str(draft.choices.get("en_passant") or "").strip().lower()
    if passed:
        if passed not in chess.SQUARE_NAMES:
            raise SetupRefused(f"The en passant square {passed!r} is not a square (say e.g. e3)")
        board.ep_square = chess.parse_square(passed)
    board.fullmove_number = max(1, int(draft.choices.get("fullmove") or 1))
    return board


SETUP = ChessSetup()
