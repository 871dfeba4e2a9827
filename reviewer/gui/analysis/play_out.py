"""*Analysis ▸ Play from here*: the player plays the position on show out against the engine at a
chosen strength. Each move the player makes (on the board or in the move box) is answered by the
engine, off the window's thread, and added to the game as a variation (or followed where the game
already has that move); *Undo* takes moves back, and the engine answers each position at most
once, so undoing its move and then your own takes a move back as on lichess.

The engine is opened on its first move and kept until the play stops (a new game, *Stop playing*).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from reviewer.core.engines.base import Engine
from reviewer.core.games import game_support
from reviewer.core.gametree import Color, Game, Node
from reviewer.core.services.play_out import engine_reply, position_game, prepare_engine
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.tasks import Tasks

LANE = "play-out"  # one engine, one question at a time


def _reply(engine: Engine | None, open_engine: Callable[[], Engine], kind: str, strength: int, probe: Game) -> tuple[Engine, str | None]:
    """(the engine, its move at the start of `probe`); the engine is opened and set up on first use."""
    if engine is None:
        engine = open_engine()
        prepare_engine(kind, engine, strength)
    return engine, engine_reply(probe, engine, strength, threading.Event())


def _close(engine: Engine) -> None:
    engine.close()


class PlayOut(QObject):
    """Signals: state_changed(str) what the play is ('' when it stopped); replied(str) the engine's
    move was played; failed(str) the engine could not answer (the play stops)."""

    state_changed = Signal(str)
    replied = Signal(str)
    failed = Signal(str)

    def __init__(self, session: ReviewSession, tasks: Tasks, engine_opener: Callable[[str], Callable[[], Engine]],
                 parent: QObject | None = None) -> None:
        """`engine_opener(kind)`: the function (run off the window's thread) that opens the engine the player chose for `kind`."""
        super().__init__(parent)
        self._session, self._tasks, self._engine_opener = session, tasks, engine_opener
        self._active = False
        self._color: Color = "black"
        self._strength = 0
        self._engine: Engine | None = None
        self._pending: Node | None = None
        self._answered: set[int] = set()  # id() of the nodes the engine has answered
        self._edited = False
        self._generation = 0  # a reply asked for before a stop or a new start is not played
        session.tree_changed.connect(self._on_tree_changed)
        session.current_changed.connect(self._on_current_changed)
        session.game_loaded.connect(self.stop)

    @property
    def active(self) -> bool:
        return self._active

    @property
    def engine_color(self) -> Color:
        return self._color

    def thinking(self) -> bool:
        return self._pending is not None

    def start(self, engine_color: Color, strength: int) -> None:
        """The engine plays `engine_color` at `strength` (in the game's unit) from the position on show."""
        game = self._session.model.game
        if game is None or game_support(game.kind).opponent is None:
            return
        if self._active:
            self.stop()
        self._active, self._color, self._strength = True, engine_color, strength
        self._generation += 1
        self._answered = set()
        unit = game_support(game.kind).opponent.unit  # type: ignore[union-attr]
        self.state_changed.emit(f"Playing against the engine ({strength} {unit}), which has {engine_color}")
        node = self._session.model.current_node
        if node is not None:
            self._answer(node)

    def stop(self) -> None:
        was_active = self._active
        self._active, self._pending = False, None
        self._generation += 1
        engine, self._engine = self._engine, None
        if engine is not None:
            self._tasks.submit(_close, engine, lane=LANE, name="play-out-close")
        if was_active:
            self.state_changed.emit("")

    def _on_tree_changed(self, _mainline_changed: bool) -> None:
        self._edited = True  # the current node that follows is a move made (or taken back)

    def _on_current_changed(self, node: Node) -> None:
        edited, self._edited = self._edited, False
        if edited and self._active:
            self._answer(node)

    def _answer(self, node: Node) -> None:
        game = self._session.model.game
        if game is None or self._pending is not None or id(node) in self._answered:
            return
        rules = game_support(game.kind).rules
        if rules.side_to_move(rules.after(game, node)) != self._color:
            return
        self._answered.add(id(node))
        probe = position_game(game, node)
        if probe is None:
            self.state_changed.emit("The game is over")
            return
        self._pending = node
        task = self._tasks.submit(_reply, self._engine, self._engine_opener(game.kind), game.kind, self._strength, probe,
                                  lane=LANE, name="play-out")
        generation = self._generation
        task.done.connect(lambda result, asked=node: self._on_reply(asked, result, generation))
        task.failed.connect(lambda message: self._on_failed(message, generation))

    def _on_reply(self, asked: Node, result: Any, generation: int) -> None:
        engine, move = result
        if not self._active or generation != self._generation:
            self._tasks.submit(_close, engine, lane=LANE, name="play-out-close")
            return
        self._engine, self._pending = engine, None
        if move is None or self._session.model.current_node is not asked:
            return  # the player went elsewhere meanwhile: the move is not played there
        if self._session.model.play_line([move]) is not None:
            self.replied.emit(move)

    def _on_failed(self, message: str, generation: int) -> None:
        if generation != self._generation:
            return
        self._pending = None
        self.failed.emit(f"The engine could not play: {message}")
        self.stop()
