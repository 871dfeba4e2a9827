"""The chess board behind the board view protocol (`views.BoardView`): python-chess positions, the
engine's candidates and why a move lost as arrows, the player's own arrows and circles (the right
button, `[%cal]`/`[%csl]`), crazyhouse's pieces in hand under the players."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import chess
import chess.variant

from reviewer.core.analysis import Evaluation
from reviewer.core.games.chess import board_after, line_squares
from reviewer.core.gametree import Color, Game, GameKind, Node, Shape
from reviewer.gui.board.chess_board import Arrow
from reviewer.gui.board.chess_play import PlayableChessBoard
from reviewer.gui.board.views import PlayerNote, ReviewMarks, register_board_view
from reviewer.gui.presenters.board_marks import candidate_arrows
from reviewer.gui.presenters.why import FOCUS_FILL, square_why_marks

IN_HAND_TOOLTIP = "Pieces this player has captured and may drop on the board (crazyhouse)"


class ChessView:
    """A `PlayableChessBoard` driven in the game's terms."""

    def __init__(self, board: PlayableChessBoard) -> None:
        self._board = board

    @property
    def kind(self) -> GameKind:
        return "chess"

    @property
    def widget(self) -> PlayableChessBoard:
        return self._board

    def connect_moves(self, played: Callable[[str], object], tried: Callable[[str], object]) -> None:
        self._board.move_played.connect(played)
        self._board.move_tried.connect(tried)

    def connect_wheel(self, steps: Callable[[int], None]) -> None:
        self._board.wheel_steps.connect(steps)

    def set_flipped(self, flipped: bool) -> None:
        self._board.set_flipped(flipped)

    def set_interactive(self, interactive: bool) -> None:
        self._board.set_interactive(interactive)

    def show_review(self, game: Game, node: Node, marks: ReviewMarks) -> Mapping[str, PlayerNote]:
        board = board_after(game, node)
        last_move = board.peek() if board.move_stack else None
        self._board.set_position(board, last_move)
        why = square_why_marks(game.kind, board, marks.why)
        arrows = candidate_arrows(board, marks.evaluation, Arrow)
        arrows += [Arrow(start, end, colour, width) for start, end, colour, width in why.arrows]
        self._board.set_arrows(arrows)
        self._board.set_focus(why.focus, FOCUS_FILL)
        if last_move is not None:
            self._board.set_move_badge(last_move.to_square, marks.judgement)
        else:
            self._board.set_move_badge(None, None)
        in_hand = pieces_in_hand(board)
        if in_hand is None:
            return {}
        return {
            color: PlayerNote(f"in hand: {pieces}" if pieces else "nothing in hand", IN_HAND_TOOLTIP)
            for color, pieces in in_hand.items()
        }

    def show_position(self, position: Any, mover: Color, last_move: str | None = None) -> None:
        self._board.set_position(position, chess.Move.from_uci(last_move) if last_move else None)
        self._board.set_shapes(())
        self._board.set_flipped(mover == "black")

    def show_line(self, game: Game, node: Node, moves: Sequence[str]) -> None:
        self._board.set_preview_arrows(line_squares(board_after(game, node), moves) if moves else [])

    def show_live(self, game: Game, node: Node, evaluation: Evaluation | None, rough: bool) -> None:
        """The live lines go to the lines panel and the evaluation bar: nothing on the board."""

    def show_maps(self, ownership_first: Sequence[float] | None, policy: Sequence[float] | None) -> None:
        """A chess board has no points to map."""

    def show_move_numbers(self, game: Game, node: Node, shown: bool) -> None:
        """Chess pieces carry no move numbers."""

    def connect_shapes(self, drawn: Callable[[Shape], object]) -> None:
        self._board.shape_drawn.connect(drawn)

    def show_shapes(self, shapes: Sequence[Shape]) -> None:
        self._board.set_shapes(shapes)

    def markup_tools(self) -> Sequence[str]:
        """The right button draws arrows and circles; a left click always plays."""
        return ()

    def set_markup_tool(self, tool: str) -> None:
        """No tool to choose (see `markup_tools`)."""


def pieces_in_hand(board: chess.Board) -> dict[Color, str] | None:
    """Each player's pieces in hand on a crazyhouse board ('♛ ♟2'), strongest first; None on other boards."""
    if not isinstance(board, chess.variant.CrazyhouseBoard):
        return None
    shown: dict[Color, str] = {}
    sides: tuple[tuple[chess.Color, Color], ...] = ((chess.WHITE, "white"), (chess.BLACK, "black"))
    for color, name in sides:
        pocket = board.pockets[color]
        parts = []
        for piece_type in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
            count = pocket.count(piece_type)
            if count:
                symbol = chess.Piece(piece_type, color).unicode_symbol()
                parts.append(symbol + (str(count) if count > 1 else ""))
        shown[name] = " ".join(parts)
    return shown


def register() -> None:
    register_board_view("chess", lambda parent: ChessView(PlayableChessBoard(parent)))
