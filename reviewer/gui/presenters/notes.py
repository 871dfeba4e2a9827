"""What the player's notes look like in the window: the Annotate menu's rows, the glyphs after a
move in the move list, the mark of a move that carries words, and the words the comment editor shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reviewer.core.formats.annotations import (
    MOVE_NAGS,
    NAG_NAMES,
    POSITION_NAGS,
    SGF_NAGS,
    comment_words,
    nag_glyph,
    nags_from_sgf,
    sgf_from_nags,
)
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
GO_NAMES = {146: "Hotspot", 16: "Good for White", 17: "Good for Black",
            18: "Very good for White", 19: "Very good for Black", 10: "Even position"}


def row_text(row: NagRow, kind: str) -> str:
    """'!?  Interesting move' (Go names the SGF's own words: 'Hotspot', 'Good for White')."""
    name = GO_NAMES.get(row.nag, row.name) if kind == "go" else row.name
    return f"{row.glyph}  {name}"


def row_available(row: NagRow, kind: str) -> bool:
    """Whether the game's file can hold the NAG: an SGF holds only its own properties' ones, and
    only those that read back as themselves (⩲ would be written GW[1], which reads as ±)."""
    return kind != "go" or (row.nag in SGF_NAGS and nags_from_sgf(sgf_from_nags([row.nag])) == [row.nag])


def move_glyph(node: Node) -> str:
    """The move's own glyph (`!?`), '' when it has none."""
    return next((MOVE_NAGS[nag] for nag in sorted(node.nags) if nag in MOVE_NAGS), "")


def other_glyphs(node: Node) -> str:
    """The position's and the other glyphs after the move's own (`±`, `N`), in NAG order."""
    return "".join(nag_glyph(nag) for nag in sorted(node.nags) if nag not in MOVE_NAGS and nag < 256)


def player_words(comment: str) -> str:
    """The words of a comment the player wrote or may edit: without `[%...]` commands and without
    the sentences a Reviewer export wrote (the comment pane says those again from the analysis)."""
    from reviewer.core.export.pgn import GENERATED_JUDGEMENT, without_generated_text
    from reviewer.core.export.sgf import strip_generated

    words = comment_words(comment)
    if words and GENERATED_JUDGEMENT.search(words):  # else left as written: its spaces are the player's
        words = without_generated_text(words)
    return strip_generated(words)[0].strip() if words else ""


def words_mark(node: Node) -> str:
    """`WORDS_MARK` for a move whose comment has words, '' otherwise."""
    return WORDS_MARK if player_words(node.comment) else ""


def displayable(text: str, has_sign: Callable[[str], bool]) -> str:
    """`text` with each sign the font cannot draw (`has_sign(char)` False) written as its fallback."""
    return "".join(GLYPH_FALLBACKS.get(char, char) if char in GLYPH_FALLBACKS and not has_sign(char) else char
                   for char in text)
