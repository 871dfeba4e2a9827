"""Board widgets: chess (python-chess boards) and Go (GoPosition stones)."""

from reviewer.gui.board.chess_board import Arrow, ChessBoardWidget
from reviewer.gui.board.go_board import CandidateMark, GoBoardWidget

__all__ = ["Arrow", "CandidateMark", "ChessBoardWidget", "GoBoardWidget"]
