"""Where each game of a PGN starts, and the tags a game list shows, found by scanning bytes.

The scan runs over a memory map (or bytes): a block of tag lines is one match of `_GAME_BLOCK`,
found by the compiled scanner `_pgn_blocks` where it was built, else by the regular expression
itself (the two find the same blocks); the movetext between blocks is never copied or decoded,
only checked for a comment left open (`{` after the last `}`), for text, and in rare cases
tokenised. Only the tags a list shows are decoded, each game on its own (UTF-8, else
the file's 8-bit charset, chosen from its bytes as a whole), so a file mixing encodings lists every name right.

A game starts at a tag when the previous game already has movetext, or when the tag repeats one the
current game already has (so header-only games that follow each other are told apart). A result
token ends a game: movetext (or lines of broken tags) after it is a game of its own, without tags. A tag-like
line inside a `{...}` comment is part of the comment, except an `[Event` tag section of three or
more plain lines, where a comment left open (a game cut short) ends. The index grows in batches (`scan`), so a
list can show its first rows while the rest of a big file is read.
"""

from __future__ import annotations

import mmap
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field

try:  # the same blocks as _GAME_BLOCK, found by compiled code where it was built (setup.py)
    from reviewer.core.formats import _pgn_blocks
except ImportError:  # pragma: no cover - a build without a C compiler
    _pgn_blocks = None  # type: ignore[assignment]

# A tag: `[Name "value"]`, also with spaces inside the brackets, several on one line, a missing
# closing quote, or a value broken over two lines (group 4; read as one line, with a warning).
# The value is kept raw, as python-chess does (escapes are not undone).
TAG_PATTERN = (
    r'\[[ \t]*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)[ \t]+"'
    r'(?:(.*?)"[ \t]*\]|([^"\]\n]*)\]|([^"\]\n]*\r?\n[^"\]\n\[]*)"[ \t]*\])'
)
TAG_BYTES = re.compile(TAG_PATTERN.encode("ascii"))
# Consecutive lines that begin with a tag (a game's tag section, or a tag-like line in a comment).
_BLOCK = re.compile(rb"\n[ \t]*\[[ \t]*[A-Za-z0-9][^\n]*(?:\n[ \t]*\[[^\n]*)*")
_BLOCK_AT = re.compile(rb"[ \t]*\[[ \t]*[A-Za-z0-9][^\n]*(?:\n[ \t]*\[[^\n]*)*")
# One plain tag per line, as nearly every file writes them: the fast path.
_PLAIN_TAG_LINE = re.compile(rb'\n\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*) "([^\n]*)"\]\r?(?=\n|\Z)')
# A block of tag lines, with the shown tags of plain lines (`[Name "value"]`, nothing else on the
# line) captured: a repeated group keeps its last value. Any other line that begins with `[` is
# taken too and captured as `odd`, which sends the block to the careful path.
_VALUE = rb'"([^"\n]*+)"\]'
_GAME_BLOCK = re.compile(
    rb"\n(?=[ \t]*\[[ \t]*[A-Za-z0-9])(?:(?:\[(?:"
    rb"White " + _VALUE.replace(b"(", b"(?P<White>", 1)
    + rb"|Black " + _VALUE.replace(b"(", b"(?P<Black>", 1)
    + rb"|WhiteElo " + _VALUE.replace(b"(", b"(?P<WhiteElo>", 1)
    + rb"|BlackElo " + _VALUE.replace(b"(", b"(?P<BlackElo>", 1)
    + rb"|Result " + _VALUE.replace(b"(", b"(?P<Result>", 1)
    + rb"|Date " + _VALUE.replace(b"(", b"(?P<Date>", 1)
    + rb"|UTCDate " + _VALUE.replace(b"(", b"(?P<UTCDate>", 1)
    + rb"|Event " + _VALUE.replace(b"(", b"(?P<Event>", 1)
    + rb'|[A-Za-z0-9][A-Za-z0-9_+#=:-]*+ "[^"\n]*+"\]'
    + rb")\r?|(?P<odd>[ \t]*\[[^\n]*))(?:\n|\Z))+"
)
_PLAIN_GROUPS = ("White", "Black", "WhiteElo", "BlackElo", "Result", "Date", "UTCDate", "Event")
_KEPT_TAG_LINE = re.compile(rb'\n\[(White|Black|WhiteElo|BlackElo|Result|Date|UTCDate|Event) "([^\n]*)"\]')
_BLOCK_NAME = re.compile(rb'\n\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*) "')
_NON_SPACE = re.compile(rb"\S")
_HTML_TAG = re.compile(rb"</?[A-Za-z][A-Za-z0-9]*\s*/?>")
# Outside a comment: where a comment opens, a rest-of-line comment, or an escape line (`%` at column 0).
_COMMENT_OPENERS = re.compile(rb"\{|;|^%", re.MULTILINE)
# How headerless movetext begins: a move number or a move, after optional comments and wrappers.
_MOVETEXT_START = re.compile(
    rb"(?:\s|\{[^}]*\}|;[^\n]*\n|%[^\n]*\n|\[/?pgn\])*(?:\d+\s*\.|[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8]|O-O)",
    re.IGNORECASE,
)
# How movetext that makes a game begins, after white space and HTML: a comment, a variation, an escape
# line, a move number, a move, a null move or a result (not a stray line of a tag section, like
# `WhiteElo "2232"]` whose bracket was lost).
_MOVETEXT_OR_RESULT = re.compile(
    rb"(?:\s|</?[A-Za-z][A-Za-z0-9]*\s*/?>)*(?:[{(;%*]|\d+\s*\.|[NBRQK]?[a-h]?[1-8]?[-x:]?[a-h][1-8]|[O0]-[O0]|--|[01](?:/2)?-)"
)
_HTML_AND_SPACE = re.compile(rb"(?:\s|</?[A-Za-z][A-Za-z0-9]*\s*/?>)*")
# What the movetext scan for result tokens skips (comments, escape lines, variations), and the tokens.
_RESULT_OR_SKIPPED = re.compile(
    rb"\{[^}]*\}?|;[^\n]*|^%[^\n]*|\(|\)|(?<![^\s)}\]])(1D0|0D1|1/2D1/2|\*)(?=[\s{;(]|\Z)".replace(
        b"D", rb"(?:-|\xe2\x80[\x90-\x95]|\xe2\x88\x92)"
    ),
    re.MULTILINE,
)
_BRACKET_LINES = re.compile(rb"(?:[ \t]*\[[^\n]*(?:\n|\Z))+")
_TRAILING_RESULT = re.compile(r"(?:^|[\s)}])(1-0|0-1|1/2-1/2|\*)\s*$")
# Every Unicode hyphen and dash (U+2010…U+2015) and the minus sign, as word processors write a result.
RESULT_DASHES = str.maketrans(dict.fromkeys([*map(chr, range(0x2010, 0x2016)), "\u2212"], "-"))
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

COLUMN_TAGS: dict[str, tuple[bytes, ...]] = {
    "white": (b"White",),
    "black": (b"Black",),
    "white_elo": (b"WhiteElo",),
    "black_elo": (b"BlackElo",),
    "result": (b"Result",),
    "date": (b"Date", b"UTCDate"),
    "event": (b"Event",),
}
COLUMNS = tuple(COLUMN_TAGS)
_RESULT_SET = frozenset(RESULTS)
_FLUSH_GAMES = 4096
_BLOCKS_PER_CALL = 4096
_RELEASE_BYTES = 8 << 20


Buffer = bytes | mmap.mmap  # what the scan reads: a file's bytes, or its memory map
# A game's tags as read: all of them by name, or the shown ones in _PLAIN_BLOCK's group order.
StagedTags = dict[bytes, bytes] | tuple[bytes | None, ...]
# A block of tag lines: (its line break's offset, the offset after it, _GAME_BLOCK's groups).
TagBlock = tuple[int, int, tuple[bytes | None, ...]]


def tag_blocks(data: Buffer, position: int, native: bool = True) -> Iterator[TagBlock]:
    """The matches of _GAME_BLOCK from `position` on, by the compiled scanner when there is one."""
    if native and _pgn_blocks is not None:
        while True:
            blocks, position = _pgn_blocks.tag_blocks(data, position, _BLOCKS_PER_CALL)
            yield from blocks
            if len(blocks) < _BLOCKS_PER_CALL:
                return
    for match in _GAME_BLOCK.finditer(data, position):
        yield match.start(), match.end(), match.groups()


def texts_after_results(data: Buffer, start: int, end: int, native: bool = True) -> list[int]:
    """Where text follows a result token of the movetext data[start:end] (its first byte that is not
    white space), by the compiled scanner when there is one. Tokens in comments, on escape lines and
    in variations do not count."""
    if native and _pgn_blocks is not None:
        return _pgn_blocks.texts_after_results(data, start, end)
    offsets = []
    depth = 0
    for match in _RESULT_OR_SKIPPED.finditer(data, start, end):
        if match.group(1) is not None:
            if depth == 0:
                text = _NON_SPACE.search(data, match.end(), end)
                if text is not None:
                    offsets.append(text.start())
        elif match.group() == b"(":
            depth += 1
        elif match.group() == b")":
            depth = max(0, depth - 1)
    return offsets


def texts_after_results_in(
    data: Buffer, games: list[tuple[int, int, int]], native: bool = True
) -> list[tuple[int, int]]:
    """`texts_after_results` for the movetext (movetext to end) of many (start, movetext, end) games at
    once: (the game's index, offset) pairs, in order."""
    if native and _pgn_blocks is not None:
        return _pgn_blocks.texts_after_results_in(data, games)
    return [
        (index, text)
        for index, (_start, movetext, end) in enumerate(games)
        for text in texts_after_results(data, movetext, end, False)
    ]


def decode_value(raw: bytes, codec: str = "cp1252") -> tuple[str, str]:
    """(text, encoding) of bytes from a game: UTF-8, else the file's 8-bit `codec`, else
    Windows-1252, else Latin-1."""
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    for fallback in dict.fromkeys((codec, "cp1252")):
        try:
            return raw.decode(fallback), fallback
        except UnicodeDecodeError:
            pass
    return raw.decode("latin-1"), "latin-1"


def normalise_result(value: str) -> str:
    """A result token (`1-0`, `0-1`, `1/2-1/2`, `*`) as written or with other dashes; else ""."""
    value = value.strip().translate(RESULT_DASHES).replace("\u00bd", "1/2")
    return value if value in RESULTS else ""


# Results of games not played, by who was absent. `+` won (the other side did not come), `-` lost,
# `=` drew: TWIC's `(+)-(-)`, scalachess's `+--`, `+:-`, `-/+`, ... Shown as the score with "(forfeit)".
FORFEIT_RESULTS = {
    ("+", "-"): "1-0 (forfeit)",
    ("-", "+"): "0-1 (forfeit)",
    ("-", "-"): "0-0 (forfeit)",
    ("=", "="): "1/2-1/2 (forfeit)",
}
_FORFEIT_SIDES = re.compile(r"\(?([+=-])\)?(?:[-:/]|(?<=\))-)?\(?([+=-])\)?")
_FORFEIT_SCORE = re.compile(r"(1-0|0-1|0-0|1/2-1/2)\(?(?:f|ff|forfeit|forfait)\)?", re.IGNORECASE)
_FORFEIT_TERMINATION = {"1-0 (forfeit)": "1-0", "0-1 (forfeit)": "0-1", "1/2-1/2 (forfeit)": "1/2-1/2"}


def forfeit_result(value: str) -> str:
    """`(+)-(-)`, `+--`, `-:+`, `(-)-(-)`, `0-0`, `1-0 ff`, ... -> "1-0 (forfeit)" and the like; else ""."""
    compact = "".join(value.split()).translate(RESULT_DASHES)
    if compact in ("0-0", "0:0"):
        return FORFEIT_RESULTS[("-", "-")]
    score = _FORFEIT_SCORE.fullmatch(compact)
    if score is not None:
        return f"{score.group(1)} (forfeit)"
    if compact in ("--", "-"):
        return ""  # a bare dash is an unknown result
    sides = _FORFEIT_SIDES.fullmatch(compact)
    if sides is None:
        return ""
    return FORFEIT_RESULTS.get((sides.group(1), sides.group(2)), "")


def shown_result(value: str) -> str:
    """A Result tag as the app shows it: a result token, a forfeit, or "" when it is neither."""
    return normalise_result(value) or forfeit_result(value)


def termination_of(result: str) -> str:
    """The movetext's closing token for a shown result (`*` when the game has no such token)."""
    return normalise_result(result) or _FORFEIT_TERMINATION.get(result, "*")


def tag_value(match: re.Match[bytes]) -> bytes:
    """The value of a TAG_BYTES match (a value broken over two lines is joined with a space)."""
    for group in (2, 3):
        if match.group(group) is not None:
            return match.group(group)
    return b" ".join(part.strip() for part in match.group(4).splitlines())


def blank_if_unknown(value: str) -> str:
    value = value.strip()
    return "" if not value.strip("?.") else value


def rating_text(value: str) -> str:
    value = blank_if_unknown(value)
    return "" if value in ("0", "-") else value


def ends_in_comment(data: Buffer, start: int, end: int, in_comment: bool) -> bool:
    """Whether data[start:end] ends inside a `{...}` comment, given whether it starts inside one.

    Inside a comment only `}` counts (a `;` or `{` there is text); outside, `;` and a `%` at
    column 0 hide the rest of their line.
    """
    last_open = data.rfind(b"{", start, end)
    last_close = data.rfind(b"}", start, end)
    if last_close > last_open and (last_close >= 0):
        return False  # no comment can open after the last `}`
    if not in_comment and last_open < 0:
        return False
    if in_comment and last_close < 0:
        return True
    position = start
    while position < end:
        if in_comment:
            close = data.find(b"}", position, end)
            if close < 0:
                return True
            in_comment = False
            position = close + 1
            continue
        match = _COMMENT_OPENERS.search(data, position, end)
        if match is None:
            return False
        if match.group() == b"{":
            in_comment = True
            position = match.end()
        else:
            line_end = data.find(b"\n", match.end(), end)
            if line_end < 0:
                return False
            position = line_end + 1
    return in_comment


def _has_text(data: Buffer, start: int, end: int) -> bool:
    """Whether data[start:end] holds anything but white space and HTML tags."""
    match = _NON_SPACE.search(data, start, end)
    if match is None:
        return False
    if data[match.start() : match.start() + 1] != b"<":
        return True
    return bool(_HTML_TAG.sub(b"", data[start:end]).strip())


def _has_movetext(data: Buffer, start: int, end: int) -> bool:
    """Whether data[start:end] holds movetext (see _MOVETEXT_OR_RESULT), not only junk or HTML."""
    text = _NON_SPACE.search(data, start, end)
    return text is not None and _MOVETEXT_OR_RESULT.match(data, text.start(), end) is not None


def _movetext_after_tag(data: Buffer, start: int, end: int) -> bool:
    """Whether the rest of a tag's line, data[start:end], holds movetext: a move number, a move or a
    comment (not HTML, a stray `]` or other junk)."""
    if not _has_text(data, start, end):
        return False
    rest = _HTML_TAG.sub(b"", data[start:end])
    return bool(rest.strip(b" \t\r]")) and _MOVETEXT_START.match(rest) is not None


@dataclass
class PgnIndex:
    """Games of one PGN: byte offsets and the shown tags, one list per column."""

    starts: array[int] = field(default_factory=lambda: array("q"))  # first byte of each game
    movetexts: array[int] = field(default_factory=lambda: array("q"))  # first byte after its tags
    columns: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in COLUMNS})
    size: int = 0  # bytes in the scanned buffer
    non_utf8: str = ""  # the first 8-bit encoding a game needed ("" when all is UTF-8)
    complete: bool = False

    def __len__(self) -> int:
        return len(self.starts)

    def end(self, index: int) -> int:
        return self.starts[index + 1] if index + 1 < len(self.starts) else self.size


class _BlockNames:
    """The tag names of one block of plain tag lines, looked up in its bytes."""

    def __init__(self, block: bytes) -> None:
        self.block = block

    def __contains__(self, name: object) -> bool:
        return isinstance(name, bytes) and b"\n[" + name + b' "' in self.block

    def names(self) -> set[bytes]:
        return set(_BLOCK_NAME.findall(self.block))


def _as_groups(tags: dict[bytes, bytes]) -> tuple[bytes | None, ...]:
    get = tags.get
    return (get(b"White"), get(b"Black"), get(b"WhiteElo"), get(b"BlackElo"), get(b"Result"), get(b"Date"), get(b"UTCDate"), get(b"Event"))


def _names_in(names: set[bytes] | dict[bytes, bytes] | _BlockNames) -> set[bytes]:
    if isinstance(names, _BlockNames):
        return names.names()
    return set(names)


class PgnIndexer:
    """Builds a PgnIndex over `data[base:]` in batches: `scan(max_games)` until it returns True."""

    def __init__(self, data: Buffer, base: int = 0, codec: str = "cp1252") -> None:
        self.data = data
        self._codec = codec  # for values that are not UTF-8
        self.index = PgnIndex(size=len(data))
        self._base = base
        self._position = base  # end of the last tag taken; text after it is the current game's
        self._position_in_comment = False
        self._has_game = False
        self._pending: list[int] | None = None  # [start, movetext] of the game still growing
        self._pending_tags: StagedTags | None = None  # its tags, when already read
        self._current_names: set[bytes] | dict[bytes, bytes] | _BlockNames = set()
        self._current_block = b""  # the tag lines of the current game, when they were one block
        first = _BLOCK_AT.match(data, base)
        self._first_block = None if first is None else (first.start(), first.end(), b"\n" + first.group())
        self._blocks = tag_blocks(data, base if first is None else first.end())
        self._staged_tags: list[StagedTags] = []
        self._staged_offsets: list[tuple[int, int, int]] = []
        self._distinct: dict[str, str] = {}
        self._released = 0  # mapped bytes before this offset were handed back to the kernel
        if isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_SEQUENTIAL"):
            try:
                data.madvise(mmap.MADV_SEQUENTIAL)
            except OSError:
                pass

    def scan(self, max_games: int | None = None) -> bool:
        """Index up to `max_games` more games (all when None); True once the whole file is indexed."""
        if self.index.complete:
            return True
        if self._first_block is not None:
            start, end, block = self._first_block
            self._first_block = None
            self._take_block(start, end, block)
        target = None if max_games is None else len(self.index) + max_games
        data = self.data
        staged_tags = self._staged_tags
        staged_offsets = self._staged_offsets
        non_space = _NON_SPACE.search
        movetext_at = _MOVETEXT_OR_RESULT.match
        rfind = data.rfind
        for block_at, end, groups in self._blocks:
            # The common case inline: plain tag lines after movetext that closed its comments.
            start = block_at + 1
            position = self._position
            fast = groups[8] is None and self._pending_tags is not None
            if fast:
                last_open = rfind(b"{", position, start)
                if last_open >= 0 or self._position_in_comment:
                    fast = rfind(b"}", position, start) > last_open
            if fast:
                text = non_space(data, position, start)
                fast = text is not None and data[text.start()] != 60 and movetext_at(data, text.start(), start) is not None
            block = data[block_at:end]
            if fast:
                first_name = block[: block.find(b" ", 2) + 2]  # '\n[Name "'
                fast = block.count(first_name) == 1
            if fast:
                pending, pending_tags = self._pending, self._pending_tags
                assert pending is not None and pending_tags is not None
                staged_tags.append(pending_tags)
                staged_offsets.append((pending[0], pending[1], start))
                self._pending = [start, end]
                self._pending_tags = groups
                self._current_block = block
                self._current_names = _BlockNames(block)
                self._position = end
                self._position_in_comment = False
                if end - self._released > _RELEASE_BYTES:
                    self._release_scanned_pages()
                if len(staged_offsets) >= _FLUSH_GAMES:
                    self._flush()
                    staged_tags = self._staged_tags
                    staged_offsets = self._staged_offsets
            else:
                self._take_block(start, end, b"\n" + block[1:].rstrip(b"\n"))
                staged_tags = self._staged_tags
                staged_offsets = self._staged_offsets
            if target is not None and len(self.index) + len(staged_offsets) >= target:
                self._flush()
                return False
        self._finish()
        return True

    # ---------------------------------------------------------------- game boundaries

    def _take_block(self, start: int, end: int, block: bytes) -> None:
        if ends_in_comment(self.data, self._position, start, self._position_in_comment) and not self._ends_open_comment(block):
            return  # tag-like lines inside a comment
        lines = block.count(b"\n")
        pairs = _PLAIN_TAG_LINE.findall(block)
        if len(pairs) == lines and block.count(b"]") == lines:
            tags = dict(pairs)
            if len(tags) == lines and self._starts_game(start, pairs[0][0]):
                self._open_game(start, end, tags)
                self._current_names = tags
                self._current_block = block
                self._position = end
                self._position_in_comment = False
                return
        line_after = self.data.find(b"\n", end + 1)  # a tag value may go on over one line break
        stop = len(self.data) if line_after < 0 else line_after
        block_start: int | None = start
        for match in TAG_BYTES.finditer(self.data, start, stop):
            if match.start() >= end and match.group(4) is None:
                break
            self._take_tag(match.start(), match.end(), match.group(1), block_start)
            block_start = None
        if block_start is None and self._pending is not None and self._pending[1] < end:
            self._take_broken_tag_lines(self._pending, end)

    def _ends_open_comment(self, block: bytes) -> bool:
        """Whether a tag section inside a comment left open is a game's start: an `[Event "..."]`
        line first and three or more plain tag lines only. A game cut off inside a comment (a
        truncated file) then ends there, and is named as broken, instead of swallowing the next
        game whole; a comment that quotes a tag or two keeps them."""
        lines = block.count(b"\n")
        return (self._has_game and block.startswith(b'\n[Event "') and lines >= 3
                and len(_PLAIN_TAG_LINE.findall(block)) == lines)

    def _take_broken_tag_lines(self, pending: list[int], end: int) -> None:
        """Lines after a block's last tag that begin with `[` but hold no tag (broken tag lines)
        belong to the tag section, where the game's reader names them; they are never movetext."""
        line_end = self.data.find(b"\n", pending[1], end)
        if line_end < 0 or self.data[pending[1] : line_end].strip():
            return  # movetext on the line of the last tag
        block_end = end - 1 if self.data[end - 1 : end] == b"\n" else end
        if block_end > line_end:
            pending[1] = self._position = block_end
            self._pending_tags = None

    def _starts_game(self, tag_start: int, name: bytes) -> bool:
        if not self._has_game:
            return True
        return name in self._current_names or _has_movetext(self.data, self._position, tag_start)

    def _take_tag(self, tag_start: int, tag_end: int, name: bytes, block_start: int | None) -> None:
        """One tag of a block. `block_start` for the block's first tag; later ones have None: whole
        lines between tags of one block begin with `[` (broken tag lines) and are no movetext, but
        text after a tag on its own line is."""
        if block_start is None:
            line_end = self.data.find(b"\n", self._position, tag_start)
            rest_of_line = tag_start if line_end < 0 else line_end
            starts = name in _names_in(self._current_names) or _movetext_after_tag(self.data, self._position, rest_of_line)
        else:
            starts = self._starts_game(block_start, name)
        if starts:
            self._open_game(tag_start if block_start is None else block_start, tag_end, None)
            self._current_names = {name}
            self._current_block = b""
        else:
            assert self._pending is not None
            self._pending[1] = tag_end
            self._pending_tags = None
            self._current_names = {*_names_in(self._current_names), name}
            self._current_block = b""
        self._position = tag_end
        self._position_in_comment = False

    def _open_game(self, start: int, movetext: int, tags: dict[bytes, bytes] | None) -> None:
        if not self._has_game:
            self._has_game = True
            self._headerless_game_before(start)
        self._close_pending(start)
        self._pending = [start, movetext]
        self._pending_tags = tags

    def _headerless_game_before(self, first_tag: int) -> None:
        if not _has_text(self.data, self._base, first_tag):
            return
        first = _NON_SPACE.search(self.data, self._base, first_tag)
        if first is not None and _MOVETEXT_START.match(self.data, first.start(), first_tag):
            self._pending = [first.start(), first.start()]
            self._pending_tags = {}

    def _close_pending(self, end: int) -> None:
        if self._pending is None:
            return
        start, movetext = self._pending
        tags = self._pending_tags
        if tags is None:
            tags = {}
            for match in TAG_BYTES.finditer(self.data, start, movetext):
                tags[match.group(1)] = tag_value(match)
        self._append(start, movetext, end, tags)
        self._pending = None
        self._pending_tags = None

    def _append(self, start: int, movetext: int, end: int, tags: StagedTags) -> None:
        self._staged_tags.append(tags)
        self._staged_offsets.append((start, movetext, end))
        if len(self._staged_offsets) >= _FLUSH_GAMES:
            self._flush()

    def _games_after_results(self, offsets: list[tuple[int, int, int]], staged: list[StagedTags]) -> None:
        """Split each staged game where movetext goes on after a result token: a game of its own,
        without tags (lines of broken tags just after the result are its tag section)."""
        data = self.data
        found = texts_after_results_in(data, offsets)
        if not found:
            return
        texts: dict[int, list[int]] = {}
        for number, text in found:
            texts.setdefault(number, []).append(text)
        split_offsets: list[tuple[int, int, int]] = []
        split_tags: list[StagedTags] = []
        done = 0
        for number in sorted(texts):
            split_offsets.extend(offsets[done:number])
            split_tags.extend(staged[done:number])
            done = number + 1
            (start, movetext, end), tags = offsets[number], staged[number]
            for text in texts[number]:
                skipped = _HTML_AND_SPACE.match(data, text, end)  # always matches, perhaps nothing
                text = skipped.end() if skipped is not None else text
                if text >= end:
                    continue
                brackets = _BRACKET_LINES.match(data, text, end)
                if brackets is not None:
                    if _NON_SPACE.search(data, brackets.end(), end) is None:
                        continue  # broken first lines of the next game's tags, or a cut tag section
                    game_movetext = brackets.end()
                elif _MOVETEXT_START.match(data, text, end):
                    game_movetext = text
                else:
                    continue  # no game after the result, only stray text
                split_offsets.append((start, movetext, text))
                split_tags.append(tags)
                start, movetext, tags = text, game_movetext, {}
            split_offsets.append((start, movetext, end))
            split_tags.append(tags)
        split_offsets.extend(offsets[done:])
        split_tags.extend(staged[done:])
        offsets[:] = split_offsets
        staged[:] = split_tags

    def _flush(self) -> None:
        """Decode the staged games' shown tags, all at once, and publish them."""
        offsets = self._staged_offsets
        if not offsets:
            return
        self._games_after_results(offsets, self._staged_tags)
        tags = [t if isinstance(t, tuple) else _as_groups(t) for t in self._staged_tags]
        white = self._decoded([t[0] or b"" for t in tags])
        black = self._decoded([t[1] or b"" for t in tags])
        white_elo = self._decoded([t[2] or b"" for t in tags])
        black_elo = self._decoded([t[3] or b"" for t in tags])
        result = self._decoded([t[4] or b"" for t in tags])
        date = self._decoded([t[5] or t[6] or b"" for t in tags])
        event = self._decoded([t[7] or b"" for t in tags])
        results = [value if value in _RESULT_SET else "" for value in result]
        for number, value in enumerate(results):
            if not value:
                _start, movetext, end = offsets[number]
                results[number] = shown_result(result[number]) or self._trailing_result(movetext, end)
        columns = self.index.columns
        # One string object per distinct value (names, events and dates repeat): less memory.
        same = self._distinct.setdefault
        columns["white"].extend([same(s, s) if s.strip("?.") else "" for s in map(str.strip, white)])
        columns["black"].extend([same(s, s) if s.strip("?.") else "" for s in map(str.strip, black)])
        columns["white_elo"].extend(
            [same(s, s) if s.strip("?.") and s not in ("0", "-") else "" for s in map(str.strip, white_elo)]
        )
        columns["black_elo"].extend(
            [same(s, s) if s.strip("?.") and s not in ("0", "-") else "" for s in map(str.strip, black_elo)]
        )
        columns["result"].extend([same(s, s) for s in results])
        columns["date"].extend([same(s, s) if s.strip("?.") else "" for s in map(str.strip, date)])
        columns["event"].extend([same(s, s) if s.strip("?.") else "" for s in map(str.strip, event)])
        # Offsets last: a reader on another thread trusts len(starts) rows of every column.
        self.index.movetexts.extend([movetext for _start, movetext, _end in offsets])
        self.index.starts.extend([start for start, _movetext, _end in offsets])
        self._staged_tags = []
        self._staged_offsets = []
        self._release_scanned_pages()

    def _decoded(self, raws: list[bytes]) -> list[str]:
        joined = b"\x00".join(raws)
        try:
            texts = joined.decode("utf-8").split("\x00")
        except UnicodeDecodeError:
            texts = []
        if len(texts) == len(raws):
            return texts
        texts = []
        for raw in raws:
            text, encoding = decode_value(raw, self._codec)
            if encoding != "utf-8" and not self.index.non_utf8:
                self.index.non_utf8 = encoding
            texts.append(text)
        return texts

    def _release_scanned_pages(self) -> None:
        """Let the kernel drop the mapped pages already scanned, so memory stays bounded."""
        data = self.data
        if not isinstance(data, mmap.mmap) or not hasattr(data, "madvise"):
            return
        behind = min(self._position, self._pending[0] if self._pending else self._position)
        behind -= behind % mmap.PAGESIZE
        if behind - self._released < _RELEASE_BYTES:
            return
        try:
            data.madvise(mmap.MADV_DONTNEED, self._released, behind - self._released)
        except (OSError, ValueError, AttributeError):
            return
        self._released = behind

    def _trailing_result(self, movetext: int, end: int) -> str:
        """The result token at the end of the movetext ("*" when there is none)."""
        tail = decode_value(self.data[max(movetext, end - 40) : end])[0].translate(RESULT_DASHES)
        token = _TRAILING_RESULT.search(tail)
        return token.group(1) if token else "*"

    def _finish(self) -> None:
        if not self._has_game:
            first = _NON_SPACE.search(self.data, self._base)
            if first is not None and _MOVETEXT_START.match(self.data, first.start()):
                self._pending = [first.start(), first.start()]
                self._pending_tags = {}
        self._close_pending(len(self.data))
        self._flush()
        self.index.complete = True


def build_index(data: Buffer, base: int = 0) -> PgnIndex:
    indexer = PgnIndexer(data, base)
    indexer.scan()
    return indexer.index
