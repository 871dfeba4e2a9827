"""The player's annotations as files write them: move and position glyphs (NAGs), chess arrows and
highlighted squares in comments, and the comment's own words.

- NAGs: PGN's `$1`…`$255` are the model (`Node.nags`); SGF's move and position properties map to
  and from them: TE[1] ! / TE[2] !!, BM[1] ? / BM[2] ??, IT !?, DO ?!, GW[1] ± / GW[2] +−,
  GB[1] ∓ / GB[2] −+, DM[1] = / DM[2] (quiet) =, UC ∞ and HO (a hotspot) N. A node keeps one move
  glyph ($1-$6) and one judgement of the position ($10-$19) at a time.
- Shapes: lichess's and ChessBase's `[%cal Ge2e4,Rd1d8]` (arrows) and `[%csl Gd4]` (squares),
  colours G, R, Y, B and ChessBase's O and C, taken out of the comment on reading and written back
  in front of it. A command that is not a valid list of shapes stays in the comment as it was, as do
  all other `[%...]` commands (`[%eval]`, `[%clk]`, unknown ones). python-chess reads only four
  colours (`GameNode.arrows`), hence the parsing here.
"""

from __future__ import annotations

import re

from reviewer.core.gametree import Point, Shape

MOVE_NAGS: dict[int, str] = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
POSITION_NAGS: dict[int, str] = {
    10: "=", 11: "=", 12: "=", 13: "∞", 14: "⩲", 15: "⩱", 16: "±", 17: "∓", 18: "+−", 19: "−+",
}
OTHER_NAGS: dict[int, str] = {7: "□", 22: "⨀", 23: "⨀", 32: "⟳", 33: "⟳", 36: "↑", 37: "↑", 40: "→", 41: "→",
                              132: "⇆", 133: "⇆", 138: "⊕", 139: "⊕", 140: "∆", 146: "N"}
NAG_NAMES: dict[int, str] = {
    1: "Good move", 2: "Mistake", 3: "Brilliant move", 4: "Blunder", 5: "Interesting move", 6: "Dubious move",
    7: "Only move", 10: "Equal position", 13: "Unclear position", 14: "White is slightly better",
    15: "Black is slightly better", 16: "White is better", 17: "Black is better", 18: "White is winning",
    19: "Black is winning", 22: "Zugzwang", 32: "Development", 36: "Initiative", 40: "Attack",
    132: "Counterplay", 138: "Time trouble", 140: "With the idea", 146: "Novelty",
}
HOTSPOT_NAG = 146


def nag_glyph(nag: int) -> str:
    """What a NAG looks like on screen: `!?`, `±`; `$n` for one with no common glyph."""
    return MOVE_NAGS.get(nag) or POSITION_NAGS.get(nag) or OTHER_NAGS.get(nag) or f"${nag}"


def toggled_nag(nags: list[int], nag: int) -> list[int]:
    """`nags` with `nag` switched: taken away when there, else added in place of the node's other
    move glyph ($1-$6) or other judgement of the position ($10-$19)."""
    if nag in nags:
        return [other for other in nags if other != nag]
    group = MOVE_NAGS if nag in MOVE_NAGS else POSITION_NAGS if nag in POSITION_NAGS else None
    kept = [other for other in nags if group is None or other not in group]
    return sorted([*kept, nag])


def typed_nag(nags: list[int], key: str) -> list[int]:
    """The NAGs after the player types `!` or `?` on a move: a second key builds the two-sign glyph
    (`!` `!` → !!, `!` `?` → !?, `?` `!` → ?!, `?` `?` → ??); a key on a two-sign glyph starting
    with it takes the move glyph away; otherwise it is the one-sign glyph."""
    current = next((MOVE_NAGS[nag] for nag in nags if nag in MOVE_NAGS), "")
    if len(current) == 2 and current[0] == key:
        wanted = ""
    elif len(current) == 1:
        wanted = current + key
    else:
        wanted = key
    kept = [nag for nag in nags if nag not in MOVE_NAGS]
    by_glyph = {glyph: nag for nag, glyph in MOVE_NAGS.items()}
    return sorted([*kept, by_glyph[wanted]]) if wanted in by_glyph else kept


# ---------------------------------------------------------------------------------------- SGF


# (property, value) -> NAG; a NAG with no property of its own writes the nearest one.
_SGF_NAG: dict[tuple[str, str], int] = {
    ("TE", "1"): 1, ("TE", "2"): 3, ("BM", "1"): 2, ("BM", "2"): 4,
    ("GW", "1"): 16, ("GW", "2"): 18, ("GB", "1"): 17, ("GB", "2"): 19,
    ("DM", "1"): 10, ("DM", "2"): 11, ("UC", "1"): 13, ("UC", "2"): 13, ("HO", "1"): HOTSPOT_NAG, ("HO", "2"): HOTSPOT_NAG,
}
_SGF_NO_VALUE = {"IT": 5, "DO": 6}
_NAG_SGF: dict[int, tuple[str, str]] = {
    1: ("TE", "1"), 3: ("TE", "2"), 2: ("BM", "1"), 4: ("BM", "2"), 5: ("IT", ""), 6: ("DO", ""),
    10: ("DM", "1"), 11: ("DM", "2"), 12: ("DM", "1"), 13: ("UC", "1"),
    14: ("GW", "1"), 16: ("GW", "1"), 18: ("GW", "2"), 15: ("GB", "1"), 17: ("GB", "1"), 19: ("GB", "2"),
    HOTSPOT_NAG: ("HO", "1"),
}
SGF_ANNOTATION_PROPERTIES = ("TE", "BM", "IT", "DO", "GW", "GB", "DM", "UC", "HO")
SGF_NAGS = frozenset(_NAG_SGF)  # the NAGs an SGF can hold


def nags_from_sgf(props: dict[str, list[str]]) -> list[int]:
    """The NAGs a node's SGF properties say (a value other than 1 or 2 reads as 1)."""
    nags: set[int] = set()
    for ident in SGF_ANNOTATION_PROPERTIES:
        if ident not in props:
            continue
        if ident in _SGF_NO_VALUE:
            nags.add(_SGF_NO_VALUE[ident])
            continue
        value = (props[ident] or [""])[0].strip()
        nags.add(_SGF_NAG.get((ident, value if value in ("1", "2") else "1"), 0))
    nags.discard(0)
    return sorted(nags)


def sgf_from_nags(nags: list[int]) -> dict[str, list[str]]:
    """The SGF properties of `nags`; NAGs SGF has no property for are left out."""
    props: dict[str, list[str]] = {}
    for nag in nags:
        if nag in _NAG_SGF:
            ident, value = _NAG_SGF[nag]
            props.setdefault(ident, [value])
    return props


# -------------------------------------------------------------------------------------- PGN


CHESS_COLOURS = ("G", "R", "Y", "B", "O", "C")
_SHAPE_COMMAND = re.compile(r"[ \t]*\[%(?P<name>csl|cal)[ \t]+(?P<items>[^\]]*)\][ \t]*")
_ITEM = re.compile(r"(?P<colour>[GRYBOC]?)(?P<at>[a-h][1-8])(?P<to>[a-h][1-8])?")
_ANY_COMMAND = re.compile(r"[ \t]*\[%[^\]]*\][ \t]*")


def _point(square: str) -> Point:
    return (int(square[1]) - 1, ord(square[0]) - ord("a"))


def square_name(point: Point) -> str:
    """(row, col) -> 'e4'."""
    return "abcdefgh"[point[1]] + str(point[0] + 1)


def _shapes_of(name: str, items: str) -> list[Shape] | None:
    shapes: list[Shape] = []
    for item in items.split(","):
        match = _ITEM.fullmatch(item.strip())
        if match is None or (match["to"] is None) != (name == "csl"):
            return None
        colour = match["colour"] or "G"
        if name == "csl":
            shapes.append(Shape("highlight", _point(match["at"]), colour=colour))
        else:
            shapes.append(Shape("arrow", _point(match["at"]), _point(match["to"]), colour=colour))
    return shapes


def _cut(text: str, match: re.Match[str]) -> str:
    """What stands in place of a command taken out: a space between words, else nothing."""
    before, after = text[: match.start()], text[match.end():]
    return " " if before.strip() and after.strip() and before[-1:] not in "\n" and after[:1] not in "\n" else ""


def shapes_from_comment(comment: str) -> tuple[str, list[Shape]]:
    """(the comment without its `[%cal]`/`[%csl]` commands, the shapes they drew)."""
    shapes: list[Shape] = []

    def take(match: re.Match[str]) -> str:
        found = _shapes_of(match["name"], match["items"])
        if found is None:
            return match.group(0)
        shapes.extend(found)
        return _cut(match.string, match)

    if "[%c" not in comment:
        return comment, []
    text = _SHAPE_COMMAND.sub(take, comment)
    return text.strip() if shapes else comment, shapes


def comment_with_shapes(comment: str, shapes: list[Shape]) -> str:
    """The comment as a PGN writes it: `[%csl ...][%cal ...]` in front of the words."""
    highlights = [f"{shape.colour or 'G'}{square_name(shape.at)}" for shape in shapes if shape.kind == "highlight"]
    arrows = [
        f"{shape.colour or 'G'}{square_name(shape.at)}{square_name(shape.to)}"
        for shape in shapes
        if shape.kind == "arrow" and shape.to is not None
    ]
    prefix = (f"[%csl {','.join(highlights)}]" if highlights else "") + (f"[%cal {','.join(arrows)}]" if arrows else "")
    if not prefix:
        return comment
    return f"{prefix} {comment}" if comment else prefix


def comment_commands(comment: str) -> list[str]:
    """The `[%...]` commands of a comment, in order ([%eval], [%clk], unknown ones)."""
    return [match.group(0).strip() for match in _ANY_COMMAND.finditer(comment)]


def comment_words(comment: str) -> str:
    """The comment without its `[%...]` commands: what a person wrote (or a program wrote as text)."""
    return _ANY_COMMAND.sub(lambda match: _cut(match.string, match), comment).strip()


def with_words(comment: str, words: str) -> str:
    """`comment` with its words replaced by `words`, its `[%...]` commands kept in front."""
    commands = " ".join(comment_commands(comment))
    words = words.strip()
    if commands and words:
        return f"{commands} {words}"
    return commands or words
