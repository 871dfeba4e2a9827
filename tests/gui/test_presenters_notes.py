"""What the player's notes look like in the window, decided without Qt: the Annotate menu's rows,
the glyphs after a move, the ✎ of a move with words, the editor's words, the font's fallbacks."""

from __future__ import annotations

from reviewer.core.gametree import Node
from reviewer.gui.presenters.notes import (
    MOVE_ROWS,
    OTHER_ROWS,
    POSITION_ROWS,
    WORDS_MARK,
    displayable,
    move_glyph,
    other_glyphs,
    player_words,
    row_available,
    row_text,
    words_mark,
)


def test_the_menu_rows_carry_each_glyph_its_name_and_ctrl_n_for_the_move_glyphs() -> None:
    assert [(row.glyph, row.shortcut) for row in MOVE_ROWS] == [
        ("!", "Ctrl+1"), ("?", "Ctrl+2"), ("!!", "Ctrl+3"), ("??", "Ctrl+4"), ("!?", "Ctrl+5"), ("?!", "Ctrl+6"),
    ]
    assert [row.glyph for row in POSITION_ROWS] == ["=", "∞", "⩲", "⩱", "±", "∓", "+−", "−+"]
    assert {row.nag for row in OTHER_ROWS} >= {7, 22, 146}
    novelty = next(row for row in OTHER_ROWS if row.nag == 146)
    assert row_text(novelty, "chess") == "N  Novelty" and row_text(novelty, "go") == "N  Hotspot"
    only_move = next(row for row in OTHER_ROWS if row.nag == 7)
    assert row_available(only_move, "chess") and not row_available(only_move, "go")  # no SGF property holds it
    slightly = next(row for row in POSITION_ROWS if row.nag == 14)
    assert not row_available(slightly, "go")  # written GW[1], it would read back as ±
    assert [row.nag for row in (*MOVE_ROWS, *POSITION_ROWS, *OTHER_ROWS) if row_available(row, "go")] == [
        1, 2, 3, 4, 5, 6, 10, 13, 16, 17, 18, 19, 146,
    ]


def test_a_moves_glyphs_and_its_words_mark() -> None:
    node = Node(move="Nf3", nags=[146, 14, 5], comment="[%clk 0:01:00]")
    assert (move_glyph(node), other_glyphs(node), words_mark(node, "chess")) == ("!?", "⩲N", "")
    node.comment = "[%clk 0:01:00] a novelty"
    assert player_words(node.comment, "chess") == "a novelty" and words_mark(node, "chess") == WORDS_MARK
    assert player_words("two  spaces\nand a line", "chess") == "two  spaces\nand a line"  # as the player wrote them


def test_a_sign_the_font_lacks_is_written_in_ascii() -> None:
    assert displayable("⩲ ✎", lambda sign: sign != "⩲") == "+= ✎"
    assert displayable("⩲ ⩱", lambda sign: True) == "⩲ ⩱"


def test_the_nags_go_keeps_are_those_an_sgf_reads_back_as_themselves():
    from reviewer.core.formats.annotations import SGF_NAGS, nags_from_sgf, sgf_from_nags
    from reviewer.core.games import game_support

    keeps = game_support("go").keeps_nag
    assert keeps is not None
    assert {nag for nag in range(256) if keeps(nag)} == {nag for nag in SGF_NAGS if nags_from_sgf(sgf_from_nags([nag])) == [nag]}
