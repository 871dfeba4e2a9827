"""What the player's notes look like in the window: the Annotate menu's rows, the glyphs after a
move in the move list, the mark of a move that carries words, and the words the comment editor shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reviewer.core.formats.annotations import MOVE_NAGS, NAG_NAMES, POSITION_NAGS, comment_words, nag_glyph
from reviewer.core.games import game_support
from reviewer.core.gametree import Node

WORDS_MARK = "✎"  # after a move that carries the player's words
# What a glyph is written as where the screen's font has no sign for it (as in ChessBase's ASCII texts).
GLYPH_FALLBACKS = {"⩲": "+=", "⩱": "=+", "⨀": "(.)", "⟳": "@", "⇆": "<=>", "∆": "/\\", "□": "[]", "✎": "*"}


@dataclass(frozen=True)
class NagRow:
    """One item of the Annotate menu: a NAG, its glyph and name, and its shortcut ('' for none)."""

    nag: int
    glyph: str
    name: str
    shortcut: str = ""


# Ctrl+n puts NAG $n on the move, as in ChessBase's and SCID's menus.
MOVE_ROWS: tuple[NagRow, ...] = tuple(NagRow(nag, MOVE_NAGS[nag], NAG_NAMES[nag], f"Ctrl+{nag}") for nag in range(1, 7))
POSITION_ROWS: tuple[NagRow, ...] = tuple(NagRow(nag, POSITION_NAGS[nag], NAG_NAMES[nag]) for nag in (10, 13, 14, 15, 16, 17, 18, 19))
OTHER_ROWS: tuple[NagRow, ...] = tuple(NagRow(nag, nag_glyph(nag), NAG_NAMES[nag]) for nag in (7, 22, 146, 32, 36, 40, 132, 140))
def row_text(row: NagRow, kind: str) -> str:
    """'!?  Interesting move' (a game may have its own words: Go's SGF says 'Hotspot', 'Good for White')."""
    return f"{row.glyph}  {game_support(kind).nag_names.get(row.nag, row.name)}"


def row_available(row: NagRow, kind: str) -> bool:
    """Whether the game's file can hold the NAG as itself (an SGF holds only its own properties'
    ones, and would write ⩲ as GW[1], which reads back as ±)."""
    keeps = game_support(kind).keeps_nag
    return keeps is None or keeps(row.nag)


def move_glyph(node: Node) -> str:
    """The move's own glyph (`!?`), '' when it has none."""
    return next((MOVE_NAGS[nag] for nag in sorted(node.nags) if nag in MOVE_NAGS), "")


def other_glyphs(node: Node) -> str:
    """The position's and the other glyphs after the move's own (`±`, `N`), in NAG order."""
    return "".join(nag_glyph(nag) for nag in sorted(node.nags) if nag not in MOVE_NAGS and nag < 256)


def player_words(comment: str, kind: str) -> str:
    """The words of a comment the player wrote or may edit: without `[%...]` commands and without
    the sentences a Reviewer export wrote (the comment pane says those again from the analysis)."""
    words = comment_words(comment)
    if not words:
        return ""
    own = game_support(kind).own_comment(words)
    if " ".join(own.split()) == " ".join(words.split()):
        return words.strip()  # nothing of Reviewer's: left as written, its spaces are the player's
    return own.strip()


def words_mark(node: Node, kind: str) -> str:
    """`WORDS_MARK` for a move whose comment has words, '' otherwise."""
    return WORDS_MARK if player_words(node.comment, kind) else ""


def displayable(text: str, has_sign: Callable[[str], bool]) -> str:
    """`text` with each sign the font cannot draw (`has_sign(char)` False) written as its fallback."""
    return "".join(GLYPH_FALLBACKS.get(char, char) if char in GLYPH_FALLBACKS and not has_sign(char) else char
                   for char in text)
