"""Every warning of the open game, kept until the user dismisses it or its cause goes (the message
bar shows them).

A message has a key, its cause: the same cause reported again replaces its message, and whoever
reports it goes on to take it away when the cause goes (`remove`). The same words, or the same
problem behind them (`reason`: an engine that cannot start, told by the analysis, the live lines
and the threat search alike), are shown once. Game-scoped messages go when another game is opened;
app-scoped ones (an engine that cannot be found) stay until dismissed.
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
    reason: str = ""  # the problem behind the text, when others may report it too (an engine's error)

    def says_the_same_as(self, other: Message) -> bool:
        return self.text == other.text or (bool(self.reason) and self.reason == other.reason)


@dataclass
class MessageLog:
    messages: list[Message] = field(default_factory=list)
    dismissed: set[str] = field(default_factory=set)

    def add(self, message: Message) -> bool:
        """Keep `message` unless one with its key, or one saying the same, is shown, or its key was
        dismissed for this game; True if added."""
        if message.key in self.dismissed or any(m.key == message.key or m.says_the_same_as(message) for m in self.messages):
            return False
        self.messages.append(message)
        return True

    def replace(self, message: Message) -> None:
        """Show `message`, replacing one with the same key (a state that changed) and any saying the same."""
        self.dismissed.discard(message.key)
        others = [m for m in self.messages if m.key != message.key]
        if any(m.says_the_same_as(message) and m.actions and not message.actions for m in others):
            self.messages = others  # the one that offers a way out says it
            return
        self.messages = [m for m in others if not m.says_the_same_as(message)]
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


_ENGINE_STOPPED = ("live analysis stopped: ", "threat search stopped: ")

BoardCause = Literal["move", "threat", "engine", "maps", "saved-lines", "retro"]


def board_key(cause: BoardCause) -> str:
    return f"board:{cause}"


def board_message(text: str, cause: BoardCause = "move") -> Message:
    """What the board reports, by its cause ("move": a refused move; "engine": live analysis or the
    threat search in trouble; ...): failures are errors."""
    level: Level = "error" if text.startswith((*_ENGINE_STOPPED, "Could not")) else "warning"
    reason = next((text[len(prefix):] for prefix in _ENGINE_STOPPED if text.startswith(prefix)), "")
    return Message(key=board_key(cause), level=level, text=text, scope="game", reason=reason)


def board_note(text: str, cause: BoardCause = "threat") -> Message:
    """What the board found when asked (the threat of threat mode): a note."""
    return Message(key=board_key(cause), level="info", text=text, scope="game")
