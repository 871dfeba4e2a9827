"""Every warning of the open game, kept until the user dismisses it (the message bar shows them).

A message has a key: the same problem reported twice is shown once. Game-scoped messages go when
another game is opened; app-scoped ones (an engine that cannot be found) stay until dismissed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Level = Literal["info", "warning", "error"]
Scope = Literal["game", "app"]


@dataclass(frozen=True)
class Message:
    key: str
    level: Level
    text: str
    actions: tuple[str, ...] = ()  # action names the window knows ("locate-engine", "install-stockfish")
    scope: Scope = "game"


@dataclass
class MessageLog:
    messages: list[Message] = field(default_factory=list)
    dismissed: set[str] = field(default_factory=set)

    def add(self, message: Message) -> bool:
        """Keep `message` unless one with its key is shown or was dismissed for this game; True if added."""
        if message.key in self.dismissed or any(m.key == message.key for m in self.messages):
            return False
        self.messages.append(message)
        return True

    def replace(self, message: Message) -> None:
        """Show `message`, replacing one with the same key (a state that changed)."""
        self.dismissed.discard(message.key)
        self.messages = [m for m in self.messages if m.key != message.key]
        self.messages.append(message)

    def dismiss(self, key: str) -> None:
        self.messages = [m for m in self.messages if m.key != key]
        self.dismissed.add(key)

    def remove(self, key: str) -> None:
        """Take a message away because it no longer holds (not a dismissal)."""
        self.messages = [m for m in self.messages if m.key != key]

    def new_game(self) -> None:
        """Another game: its own messages only (app-scoped ones stay)."""
        self.messages = [m for m in self.messages if m.scope == "app"]
        self.dismissed = {key for key in self.dismissed if not key.startswith("game:")}


def game_warning(index: int, text: str) -> Message:
    return Message(key=f"game:warning:{index}:{text}", level="warning", text=text)


def file_warning(text: str) -> Message:
    """A problem of the open game's file (a game left out, a charset that lies): shown with each of
    its games, as its own warnings are."""
    return Message(key=f"file:warning:{text}", level="warning", text=text)


def board_message(text: str) -> Message:
    """What the board reports (a refused move, live analysis in trouble): failures are errors."""
    level: Level = "error" if text.startswith(("live analysis stopped", "threat search stopped", "Could not")) else "warning"
    return Message(key="board", level=level, text=text, scope="game")


def board_note(text: str) -> Message:
    """What the board found when asked (the threat of threat mode): a note, in the board's one slot."""
    return Message(key="board", level="info", text=text, scope="game")
