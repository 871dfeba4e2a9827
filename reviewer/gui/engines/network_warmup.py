"""KataGo's network, read and built off the GUI thread as soon as a Go game is open and the engines
are known, so that the first engine line (L) does not wait seconds for it."""

from __future__ import annotations

import shlex
from collections.abc import Callable

from PySide6.QtCore import QObject

from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.games import game_support
from reviewer.core.gametree import GameKind
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.presenters.game_kinds import presentation


class NetworkWarmUp(QObject):
    """Builds the network of the KataGo the open Go game would use, once per engine and board size."""

    def __init__(
        self,
        session: ReviewSession,
        tasks: Tasks,
        engine_choice: Callable[[str], EngineChoice],
        known_engines: Callable[[], list[EngineInfo]],
        parent: QObject | None = None,
    ) -> None:
        """`engine_choice`: the engine chosen for a kind of game; `known_engines`: those found so far."""
        super().__init__(parent)
        self._session, self._tasks = session, tasks
        self._engine_choice, self._known_engines = engine_choice, known_engines
        self.requested: set[tuple[str, tuple[int, int]]] = set()
        session.game_loaded.connect(self.maybe_warm)

    def maybe_warm(self) -> None:
        game = self._session.model.game
        if game is None or not presentation(game.kind).preloads_network:
            return
        choice = self._engine_choice(game.kind)
        target = katago_to_warm(choice, self._known_engines())
        if target is None:
            return
        board = (game.board_width, game.board_height)
        key = (repr(target), board)
        if key in self.requested:
            return
        self.requested.add(key)
        self._tasks.submit(_warm, game.kind, target, board)


def katago_to_warm(choice: EngineChoice, known: list[EngineInfo]) -> EngineInfo | list[str] | None:
    """The KataGo `choice` runs: a custom command, or the found KataGo it names (or the first one,
    when it names none); None when it runs no KataGo or discovery has not answered yet."""
    if choice.command:
        return shlex.split(choice.command)
    usual = presentation(choice.kind).engine_protocols[0]
    for engine in known:
        if engine.protocol == usual and engine.usable and (choice.name is None or engine.name == choice.name):
            return engine
    return None


def _warm(kind: GameKind, target: EngineInfo | list[str], board: tuple[int, int]) -> bool:
    return game_support(kind).preload_network(target, board)
