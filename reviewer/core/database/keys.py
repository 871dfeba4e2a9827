"""Position keys for the game database: signed 64-bit integers (SQLite's INTEGER). Each game keys
its positions itself: chess by the Polyglot Zobrist key (`database/chess.py`), Go by a whole-board
key made canonical over the board's symmetries (`database/go.py`).
"""

from __future__ import annotations

__all__ = ["signed_64"]

_MASK_64 = (1 << 64) - 1


def signed_64(value: int) -> int:
    value &= _MASK_64
    return value - (1 << 64) if value >= 1 << 63 else value
