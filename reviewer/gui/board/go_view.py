"""The Go board behind the board view protocol (`views.BoardView`): stones and captures, the
engine's candidates KaTrain style, lines as numbered ghost stones, territory and policy maps, and
the node's markup (Sabaki's tools: a left click draws with the tool chosen instead of playing)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reviewer.core.analysis import Evaluation
from reviewer.core.games.go import move_numbers, position_after
from reviewer.core.gametree import Color, Game, GameKind, Node, Shape
from reviewer.gui.board.go_board import CandidateMark
from reviewer.gui.board.go_markup import GO_TOOLS
from reviewer.gui.board.go_play import PlayableGoBoard
from reviewer.gui.board.views import PlayerNote, ReviewMarks, register_board_view
from reviewer.gui.common.live_text import ghost_stones
from reviewer.gui.presenters.board_marks import go_candidate_marks
from reviewer.gui.presenters.why import FOCUS_OUTLINE, go_why_marks


class GoView:
    """A `PlayableGoBoard` driven in the game's terms."""

    def __init__(self, board: PlayableGoBoard) -> None:
        self._board = board

    @property
    def kind(self) -> GameKind:
        return "go"

    @property
    def widget(self) -> PlayableGoBoard:
        return self._board

    def connect_moves(self, played: Callable[[str], object], tried: Callable[[str], object]) -> None:
        """Every click is a move offered: the rules say why one is refused."""
        self._board.move_played.connect(played)

    def connect_wheel(self, steps: Callable[[int], None]) -> None:
        self._board.wheel_steps.connect(steps)

    def set_flipped(self, flipped: bool) -> None:
        """The Go board keeps Black's view."""

    def set_interactive(self, interactive: bool) -> None:
        self._board.set_interactive(interactive)

    def show_review(self, game: Game, node: Node, marks: ReviewMarks) -> Mapping[str, PlayerNote]:
        position = position_after(game, node)
        self._board.set_position(position)
        candidates = go_candidate_marks(game, position.to_move, marks.evaluation, CandidateMark)
        self._board.set_candidates(candidates, rough=marks.rough())
        self._board.set_best_move(next((mark.point for mark in candidates if mark.is_best), None))
        self._board.set_move_badge(node.point, marks.judgement)
        why = go_why_marks(game, position.to_move, marks.why)
        self._board.set_focus(why.focus, FOCUS_OUTLINE)
        self._board.set_why_line(why.line)
        captures: dict[Color, int] = {"black": position.captures_by_black, "white": position.captures_by_white}
        return {
            color: PlayerNote(f"{stones} captured", f"Stones this player has taken: {stones}")
            for color, stones in captures.items()
        }

    def show_position(self, position: Any, mover: Color, last_move: str | None = None) -> None:
        self._board.set_position(position)
        self._board.set_shapes(())

    def show_line(self, game: Game, node: Node, moves: Sequence[str]) -> None:
        if not moves:
            self._board.set_ghost_stones([])
            return
        position = position_after(game, node)
        self._board.set_ghost_stones(ghost_stones(moves, position.to_move, position.height))

    def show_live(self, game: Game, node: Node, evaluation: Evaluation | None, rough: bool) -> None:
        if evaluation is None:
            self._board.set_candidates([], rough=False)
            self._board.set_best_move(None)
            return
        position = position_after(game, node)
        marks = go_candidate_marks(game, position.to_move, evaluation, CandidateMark)
        self._board.set_candidates(marks, rough=rough)
        self._board.set_best_move(next((mark.point for mark in marks if mark.is_best), None))

    def show_maps(self, ownership_first: Sequence[float] | None, policy: Sequence[float] | None) -> None:
        self._board.set_ownership(ownership_first)
        self._board.set_policy(policy)

    def show_move_numbers(self, game: Game, node: Node, shown: bool) -> None:
        self._board.set_move_numbers(move_numbers(game, node) if shown else {})

    def connect_shapes(self, drawn: Callable[[Shape], object]) -> None:
        self._board.shape_drawn.connect(drawn)

    def show_shapes(self, shapes: Sequence[Shape]) -> None:
        self._board.set_shapes(shapes)

    def markup_tools(self) -> Sequence[str]:
        return GO_TOOLS

    def set_markup_tool(self, tool: str) -> None:
        self._board.set_tool(tool)


def register() -> None:
    register_board_view("go", lambda parent: GoView(PlayableGoBoard(parent)))
