"""One game as the database stores it: its fields and the positions it reached, with their keys.

Each game keys its positions itself (`database/chess.py`: Zobrist; `database/go.py`: canonical over
the board's symmetries) and makes its records, named by its support object (`database_record_ref`).
A game that comes back to a position is counted there once, with the move it played the first time.
"""

from __future__ import annotations

import hashlib
import re
from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from reviewer.core.gametree import Game

__all__ = [
    "PACKED_ENDED",
    "GameFields",
    "GameRecord",
    "PackedPositions",
    "PlainGames",
    "PositionRow",
    "SkippedGame",
    "date_of",
    "elo_of",
    "fingerprint_of",
    "fingerprint_of_bytes",
    "outcome_of",
    "record_of_game",
    "speed_of",
]


class SkippedGame(Exception):
    """A game that cannot be stored; the message says why."""


class PositionRow(NamedTuple):
    """A position a game reached: its key, the ply (0 = the start), the move played from it in the
    database's code (None where the game ended) and, for Go, the symmetry that makes it canonical."""

    key: int
    ply: int
    move: int | None
    symmetry: int = 0


PACKED_ENDED = -2  # the packed move code of the position a game ended in (the position index's ENDED)


class PackedPositions(NamedTuple):
    """A game's positions as machine numbers (native byte order): `keys` one int64 each, `moves`
    one int16 each (the move played from there; PACKED_ENDED for the last); at plies 0, 1, 2, ...
    unless `plies` holds one int64 each; of symmetry 0 unless `symmetries` holds one uint8 each."""

    keys: bytes
    moves: bytes
    plies: bytes | None = None
    symmetries: bytes | None = None

    @classmethod
    def of(cls, keys: list[int], moves: list[int | None]) -> PackedPositions:
        return cls(array("q", keys).tobytes(), array("h", [PACKED_ENDED if move is None else move for move in moves]).tobytes())


@dataclass(slots=True)
class GameRecord:
    """A game's fields and its positions, kept as columns (a game has a hundred positions and an
    import reads thousands of games a second): `positions` gives them as rows."""

    kind: str
    fingerprint: int
    white: str
    black: str
    white_elo: int | None
    black_elo: int | None
    result: str
    outcome: int | None
    date: str
    event: str
    speed: str
    board_size: int
    moves: list[str]  # empty where `moves_text` holds them
    position_keys: list[int] = field(default_factory=list)
    position_moves: list[int | None] = field(default_factory=list)  # None where the game ended
    position_plies: list[int] | None = None  # None: 0, 1, 2, ... (every position one ply on)
    position_symmetries: list[int] | None = None  # None: all 0 (chess)
    packed: PackedPositions | None = None  # where set (chess), the positions, and the lists above are empty
    moves_text: str | None = None  # where set, the moves joined by single spaces

    def moves_and_plies(self) -> tuple[str, int]:
        """The moves joined by single spaces, and how many there are."""
        if self.moves_text is None:
            return " ".join(self.moves), len(self.moves)
        return self.moves_text, self.moves_text.count(" ") + 1 if self.moves_text else 0

    @staticmethod
    def rows_of(packed: PackedPositions) -> list[PositionRow]:
        keys, moves, plies, symmetries = array("q"), array("h"), array("q"), array("B")
        keys.frombytes(packed.keys)
        moves.frombytes(packed.moves)
        plies.frombytes(packed.plies or array("q", range(len(keys))).tobytes())
        symmetries.frombytes(packed.symmetries or bytes(len(keys)))
        return [PositionRow(key, ply, None if move == PACKED_ENDED else move, symmetry)
                for key, ply, move, symmetry in zip(keys, plies, moves, symmetries)]

    @property
    def positions(self) -> list[PositionRow]:
        if self.packed is not None:
            return self.rows_of(self.packed)
        plies: Iterable[int] = self.position_plies if self.position_plies is not None else range(len(self.position_keys))
        symmetries: Iterable[int] = self.position_symmetries if self.position_symmetries is not None else repeat(0)
        return [PositionRow(*row) for row in zip(self.position_keys, plies, self.position_moves, symmetries)]

    def with_rows(self, rows: list[PositionRow]) -> GameRecord:
        """This record with its positions set from rows."""
        self.packed = None
        self.position_keys = [row.key for row in rows]
        self.position_moves = [row.move for row in rows]
        self.position_plies = [row.ply for row in rows]
        self.position_symmetries = [row.symmetry for row in rows] if any(row.symmetry for row in rows) else None
        return self


# A game's row in the games table after its source: white, black, white_elo, black_elo, result,
# outcome, date, event, speed, board_size, plies, moves (GameRecord's fields, in that order).
GameFields = tuple[str, str, int | None, int | None, str, int | None, str, str, str, int, int, str]


class PlainGames(NamedTuple):
    """The games of a chunk of a file read straight from its bytes as rows, where they are plain
    (a game's `database_fast_chunk_ref`), with the positions of all of them packed."""

    kind: str
    games: list[tuple[int, int, GameFields]]  # (index, fingerprint, fields), in the file's order
    keys: bytes  # the positions of those games, one game after the other, as PackedPositions
    moves: bytes
    left: dict[int, str]  # the other games: why they are left to the per-game readers


def outcome_of(result: str) -> int | None:
    """1 when White won, 0 for a draw, -1 when Black won, None when unknown (chess and Go results)."""
    text = result.strip().upper()
    if text.startswith(("1-0", "W+")):
        return 1
    if text.startswith(("0-1", "B+")):
        return -1
    if text.startswith("1/2") or text in ("0", "DRAW", "JIGO"):
        return 0
    return None


_TIME_CONTROL = re.compile(r"^(\d+)(?:\+(\d+))?$")
SPEED_WORDS = ("ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence")


def speed_of(headers: dict[str, str]) -> str:
    """The time control class lichess uses (base + 40 × increment, in seconds), from TimeControl,
    else a speed named in the Event; "" when neither says."""
    control = headers.get("TimeControl", "").strip()
    if control == "-" or (control.startswith("1/") and control[2:].isdigit()):
        return "correspondence"
    match = _TIME_CONTROL.match(control)
    if match is not None:
        estimate_s = int(match.group(1)) + 40 * int(match.group(2) or 0)
        if estimate_s < 30:
            return "ultrabullet"
        if estimate_s < 180:
            return "bullet"
        if estimate_s < 480:
            return "blitz"
        if estimate_s < 1500:
            return "rapid"
        return "classical"
    event = headers.get("Event", "").lower()
    return next((word for word in SPEED_WORDS if word in event), "")


def elo_of(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and 0 < int(text) < 4000 else None


def date_of(text: str) -> str:
    return text.strip().replace("-", ".").replace("/", ".")


def fingerprint_of(kind: str, headers: dict[str, str], start: str, moves: str | list[str]) -> int:
    """Of the headers, the start and the moves (a list, or its items joined by spaces)."""
    joined = moves if isinstance(moves, str) else " ".join(moves)
    text = "".join(f"\x00{name}\x01{value}" for name, value in sorted(headers.items()))
    # The same bytes as hashing kind, each header and the moves one after the other (one call, faster).
    return fingerprint_of_bytes((kind + text).encode("utf-8", "replace") + b"\x02" + start.encode() + b"\x02" + joined.encode())


def fingerprint_of_bytes(data: bytes) -> int:
    """The fingerprint of the bytes `fingerprint_of` makes of a game (the compiled reader makes them too)."""
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big", signed=True)


def record_of_game(game: Game) -> GameRecord | None:
    """The database's record of a game the player has open (read by its game's reader); None where
    the database holds no games of its kind or would not store this one."""
    from reviewer.core.games import game_support

    reference = game_support(game.kind).database_record_ref
    if not reference:
        return None
    try:
        return reference.get()(game)
    except SkippedGame:
        return None
