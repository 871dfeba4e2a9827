"""SGF files (Go): charsets, server quirks and the game tree, with sgfmill's grammar underneath.

Reading:
- The file's charset is decided once from its bytes (BOMs, UTF-16 with or without a BOM, CA[]
  whenever the bytes decode under it, the likeliest reading when it is missing, lies or is the
  Latin-1 many programs write whatever their bytes, EUC-KR-as-Latin-1 mojibake undone); no
  multi-byte character may take a bracket as its second byte; a declared CJK charset that another
  reading plainly beats is named beside it in a warning, and replaced when the evidence is clear.
  NUL padding at the end is dropped; a few NUL bytes inside are left out with a warning. A file in
  another charset glued after UTF-16 games is decoded on its own.
- A game starts at a "(" outside any game followed by its root's ";" or straight by a property
  (old Korean and Japanese servers leave the ";" out). Text between games is named in a warning.
- Opening lists the games lazily: one linear scan of the bytes finds where each game starts and
  ends (values skipped as the charset reads them), and each game's root is read to leave out, by
  name, a game that is not Go or whose board cannot be shown. A game's text is decoded and
  tokenised by sgfmill (as UTF-8) when it is asked for; its summary is read from its root alone.
- The tree is built without recursion, so OGS files that open a variation for every move load.
  Redundant parentheses and empty variations are tolerated.
- A game the file ends inside (a truncated download) is kept up to the cut, with a warning on the
  game and on the collection; the games before it are whole. A game whose closing parenthesis is
  missing ends where the next game's root starts. Text that is not SGF inside a game ends that
  game's reading there (its parentheses still tell where it ends), with a warning.
- Damage is read as written and flagged on the game: moves onto a point that holds a stone,
  a handicap (HA) with no stones for it.
- Every property of every node is kept, decoded, in `node.properties` (a repeated property in one
  node has its values merged), so writing the game back loses nothing.
- Layout changes, each idempotent (reading what we wrote gives the same tree):
  * a node holding several moves (B[..]W[..]) is split into one node per move, in file order;
  * a move in the root node moves to a first child;
  * move-less nodes before the first move (Fox puts handicap stones there) merge into the root;
  * other move-less nodes without setup stones (comment-only, empty `;;`) merge into the node above;
    move-less nodes with AB/AW/AE stay, with `move=None` and their setup lists filled.
- Fox files (told by what the file holds: AP[foxwq] or its older client's AP[YuanYu], its TC/TT/RL
  properties, ...) are marked with `game.origin = "fox"`, and `game.komi` is the komi the file
  means (see `sgf_komi`: Fox's komi x100, KO[] for KM[], a komi no ruleset uses): every reader of
  the model (engines, report, GUI) takes it as it is. The KM text stays as written in
  `root.properties`, so writing an unchanged game back keeps it.
- Annotations are typed beside the properties: BM/TE/DO/IT/GB/GW/DM/UC/HO as `node.nags`
  (`annotations`), TR/SQ/CR/MA/LB/AR/LN as `node.shapes`.

Writing: UTF-8, CA[UTF-8]; node properties as read, updated where the model's fields changed
(comment, setup, NAGs, shapes).
"""

from __future__ import annotations

import codecs
import functools
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field

from sgfmill import sgf_grammar

from reviewer.core.errors import GameFileError
from reviewer.core.formats import sgf_komi
from reviewer.core.formats.annotations import SGF_ANNOTATION_PROPERTIES, nags_from_sgf, sgf_from_nags
from reviewer.core.formats.collection import GameCollection, GameSummary, summary_of_game
from reviewer.core.formats.textio import (
    ASCII_TRAIL_LEADS,
    SHORT_TEXT_CHARS,
    choose_charset,
    codec_for_charset,
    decode_error_count,
    decode_keeping,
    decodes_cleanly,
    is_utf8,
    looks_binary,
    sample_of,
    strip_nul_padding,
    strip_utf8_bom,
    utf16_codec,
    weigh_declared_charset,
)
from reviewer.core.games.go_rules import BOARD_LINES, normalise_rules, parse_rules
from reviewer.core.gametree import Color, Game, Node, Point, Shape, ShapeKind, gtp_from_point

MIN_BOARD, MAX_BOARD = BOARD_LINES
_CA_RE = re.compile(rb"C[a-z]*A[a-z]*\s*\[\s*([^\]]*?)\s*\]")
_MOVE_IDENTS = ("B", "W")
_SETUP_IDENTS = ("AB", "AW", "AE")



_CJK_NUMBERS = {"初": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_RANK_TEXT = re.compile(r"^\s*(\d+|[初一二三四五六七八九十]+)\s*([kdp]|dan|kyu|段|级|級|단|급)\s*(p|pro)?\??\*?\s*$", re.IGNORECASE)


def normalise_rank(value: str) -> str:
    """'2段' -> '2d', '15级'/'1급' -> '15k'/'1k', '9DP' -> '9p', '初段' -> '1d'; else as written."""
    match = _RANK_TEXT.match(value)
    if not match:
        return value.strip()
    number_text, unit, pro = match.groups()
    if number_text.isdigit():
        number = int(number_text)
    else:
        number = sum(_CJK_NUMBERS.get(ch, 0) for ch in number_text) or 1
    unit = unit.lower()
    if pro or unit == "p":
        return f"{number}p"
    if unit in ("k", "kyu", "级", "級", "급"):
        return f"{number}k"
    return f"{number}d"


_RESULT_COLOURS = {"흑": "B", "黑": "B", "黒": "B", "백": "W", "白": "W"}
_RESULT_COLOUR = r"(?P<colour>흑|백|黑|白|黒)(?:番|方|の)?"
_RESULT_WIN = r"(?:승|胜|勝ち?)"
_RESULT_POINTS = r"(?P<points>\d+(?:\.\d+)?)(?:집|目)(?P<half>반|半)?"
_RESULT_STONES = r"(?P<stones>\d+(?:\.\d+)?)?(?:又)?(?P<quarters>[13]/4|1/2)?子"
_MOVE_COUNT_PREFIX = re.compile(r"^共?\d+(?:수|手)")
_RESULT_FORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), kind)
    for pattern, kind in (
        (_RESULT_COLOUR + r"(?:불계|中盘|中盤|中押し?)" + _RESULT_WIN, "R"),
        (_RESULT_COLOUR + r"(?:시간|超时|超時|時間切れ)" + _RESULT_WIN, "T"),
        (_RESULT_COLOUR + r"(?:반집|半目)" + _RESULT_WIN, "half"),
        (_RESULT_COLOUR + _RESULT_POINTS + _RESULT_WIN, "points"),
        (_RESULT_COLOUR + _RESULT_WIN + _RESULT_POINTS, "points"),
        (_RESULT_COLOUR + _RESULT_STONES + _RESULT_WIN, "stones"),
        (_RESULT_COLOUR + _RESULT_WIN + _RESULT_STONES, "stones"),
        (_RESULT_COLOUR + _RESULT_WIN, "win"),
        (r"(?:和棋|和局|持碁|ジゴ|무승부)", "jigo"),
    )
)
_QUARTERS = {None: 0.0, "1/4": 0.25, "1/2": 0.5, "3/4": 0.75}


def normalise_result(value: str) -> str:
    """A Go result written in Korean, Chinese or Japanese as SGF writes it: '294수 흑0.5집승' -> 'B+0.5',
    '黑中盘胜'/'白中押し勝ち'/'흑 불계승' -> 'B+R'/'W+R'/'B+R', '白2又1/4子胜' -> 'W+4.5' (a stone is two
    points), '黒番6目半勝ち' -> 'B+6.5', time wins -> '+T', '持碁'/'和棋' -> '0'. Any other text as written."""
    simple = _simple(value)
    text = _MOVE_COUNT_PREFIX.sub("", "".join(value.split()))
    for pattern, kind in _RESULT_FORMS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        if kind == "jigo":
            return "0"
        winner = _RESULT_COLOURS[match["colour"]]
        if kind in ("R", "T"):
            return f"{winner}+{kind}"
        if kind == "win":
            return f"{winner}+"
        if kind == "half":
            margin = 0.5
        elif kind == "points":
            margin = float(match["points"]) + (0.5 if match["half"] else 0.0)
        else:
            if match["stones"] is None and match["quarters"] is None:
                return simple
            margin = 2 * (float(match["stones"] or 0) + _QUARTERS[match["quarters"]])
        return f"{winner}+{margin:g}"
    return simple


# ---------------------------------------------------------------- decoding


@dataclass
class SgfCharset:
    """How a file's bytes become text, decided once for the whole file and applied to each game's
    bytes as it is read (every game's bytes start and end on an ASCII delimiter)."""

    codec: str
    encoding: str  # as the collection reports it: the codec, or "utf-8+cp949" for a repaired file
    warnings: list[str] = field(default_factory=list)  # about the file
    doubts: list[str] = field(default_factory=list)  # about every game's text (its names, comments)
    repaired_from: str = ""  # text encoded twice: its characters are the Latin-1 bytes of this codec

    def decode(self, data: bytes) -> str:
        text = decode_keeping(data, self.codec, _DELIMITERS, errors="replace")
        if self.repaired_from:
            text = decode_keeping(text.encode("latin-1", errors="replace"), self.repaired_from, _DELIMITERS, "replace")
        return text


# What in the bytes of a file says which charset its text is in (no CA[] or one that lies).
_FOX_BYTES = re.compile(rb"AP\s*\[[^\]]*(?:fox|yuanyu)|TC\s*\[[^\]]*\]\s*TT\s*\[", re.IGNORECASE)
_RULES_BYTES = re.compile(rb"RU\s*\[\s*([A-Za-z]+)")
_HINT_RULES = {b"chinese": "gb18030", b"cn": "gb18030", b"korean": "cp949", b"kr": "cp949", b"japanese": "cp932", b"jp": "cp932"}
_PLACE_HINTS = (
    (rb"(?i)korea|seoul|tygem|cyberoro|baduk", "cp949"),
    (rb"(?i)japan|tokyo|nihon.?ki-?in", "cp932"),
    (rb"(?i)china|beijing|weiqi|sina|tom\.com", "gb18030"),
)
_ISO_2022_JP_ESCAPE = re.compile(rb"\x1b\$[@B]")  # switches to JIS X 0208: Japanese in 7 bits
_DELIMITERS = b"]"  # no multi-byte character may take it as its second byte (ends a value)
# Declared charsets many programs write whatever their bytes are: weighed, not trusted.
_UNTRUSTED_DECLARED = {"latin-1", "cp1252", "ascii", "iso8859-1"}


def charset_hints(data: bytes) -> tuple[str, ...]:
    """Charsets the ASCII of an SGF points to: a Fox file (GB18030), RU[Korean] (CP949), a place..."""
    if _FOX_BYTES.search(data):
        return ("gb18030",)
    hints = [_HINT_RULES[m.group(1).lower()] for m in _RULES_BYTES.finditer(data) if m.group(1).lower() in _HINT_RULES]
    hints += [codec for pattern, codec in _PLACE_HINTS if re.search(pattern, data)]
    return tuple(dict.fromkeys(hints))



def sgf_charset(data: bytes, name: str) -> tuple[bytes, SgfCharset]:
    """The bytes to read (UTF-16 and 7-bit stateful charsets turned into UTF-8) and their charset.

    A declared charset is honoured whenever the bytes decode under it (declared UTF-8 is never
    "repaired"; only a few characters of it, valid UTF-8 by chance, are weighed against the other
    readings); CA[ISO-8859-1]/Windows-1252, which many programs write whatever their bytes, is
    weighed against the other readings.
    """
    codec16 = utf16_codec(data)
    if codec16:
        return _from_utf16(data, codec16, name)
    data, had_bom = strip_utf8_bom(strip_nul_padding(data))
    warnings: list[str] = []
    nuls = data.count(b"\x00")
    if nuls and not looks_binary(without_nuls := data.replace(b"\x00", b"")) and len(without_nuls) >= 16 and nuls <= 64:
        warnings.append(f"{name}: the file holds {nuls} NUL byte{'s' if nuls > 1 else ''} (damage); they are left out")
        data = without_nuls
    if looks_binary(data):
        raise GameFileError(f"{name}: not an SGF file (binary data)")
    if had_bom:
        return data, SgfCharset("utf-8", "utf-8", warnings)
    declared_match = _CA_RE.search(data)
    declared_name = declared_match.group(1).decode("ascii", errors="replace") if declared_match else ""
    declared = codec_for_charset(declared_name) if declared_name else None
    if declared_name and declared is None:
        warnings.append(f"{name}: unknown charset CA[{declared_name}]; guessed from the bytes")
    if declared is not None and declared.replace("_", "-").startswith(("utf-16", "utf-32", "utf16", "utf32")):
        # The CA[] itself was found written in single bytes: whatever it says, the file is not UTF-16.
        warnings.append(f"{name}: CA[{declared_name}] declared, but the file is not in {declared_name}; guessed from the bytes")
        declared = None
    if data.isascii():
        if declared and not _ascii_compatible(declared) and decodes_cleanly(data, declared):
            # A 7-bit charset (ISO-2022-JP, HZ, UTF-7): its characters are made of ASCII bytes, brackets
            # too, so the text is decoded before it is parsed.
            return data.decode(declared).encode("utf-8"), SgfCharset("utf-8", declared, warnings)
        if not declared and _ISO_2022_JP_ESCAPE.search(data) and decodes_cleanly(data, "iso2022_jp_2"):
            return data.decode("iso2022_jp_2").encode("utf-8"), SgfCharset("utf-8", "iso2022_jp_2", warnings)
        return data, SgfCharset("ascii", declared or "utf-8", warnings)
    if is_utf8(data):
        sample = sample_of(data).decode("utf-8", errors="replace")
        repaired = _double_encoding_of(sample)
        if repaired is not None:
            warnings.append(f"{name}: text was encoded twice ({repaired} read as Latin-1); repaired")
            return data, SgfCharset("utf-8", f"utf-8+{repaired}", warnings, repaired_from=repaired)
        if sum(1 for ch in sample if ord(ch) > 127) > SHORT_TEXT_CHARS:
            return data, SgfCharset("utf-8", "utf-8", warnings)
        # A few bytes can be valid UTF-8 by chance (GB18030 '时越' reads 'ʱԽ'): weighed with the others.
    elif declared in (None, "utf-8") or declared in _UNTRUSTED_DECLARED:
        mostly = _mostly_utf8(data)
        if mostly:
            warnings.append(f"{name}: {mostly} bytes are not valid UTF-8; shown as \ufffd")
            return data, SgfCharset("utf-8", "utf-8", warnings)
    if declared and declared != "utf-8" and declared not in _UNTRUSTED_DECLARED:
        errors = 0
        if not decodes_cleanly(data, declared, _DELIMITERS):
            errors = decode_keeping(data, declared, _DELIMITERS, "replace").count("\ufffd") - data.count("\ufffd".encode())
        if errors <= max(3, _high_bytes(data) // 50):
            hints = charset_hints(sample_of(data))
            choice = weigh_declared_charset(data, declared, f"CA[{declared_name}]", hints, delimiters=_DELIMITERS)
            if choice.doubt:
                warnings.append(f"{name}: {choice.doubt}")
            if errors and choice.codec == declared:
                warnings.append(f"{name}: {errors} bytes are not valid {declared_name}; shown as \ufffd")
            return data, SgfCharset(choice.codec, choice.codec, warnings)
    # No charset, one that lies, or one many programs write whatever their bytes (CA[ISO-8859-1]):
    # the charset whose reading of all the bytes is likeliest in a Go file.
    weighed_declared = "cp1252" if declared in _UNTRUSTED_DECLARED else declared
    high = _high_bytes(data)
    tolerate = max(3, high // 100)  # a stray byte of another charset (a Windows-1252 '…') among CJK text
    hints = charset_hints(sample_of(data))  # a big file's beginning, middles and end tell enough
    choice = choose_charset(data, hints, weighed_declared, delimiters=_DELIMITERS, tolerate=tolerate)
    codec = choice.codec
    if not decodes_cleanly(data, codec, _DELIMITERS):
        bad = decode_error_count(data, codec, _DELIMITERS)
        warnings.append(f"{name}: {bad} bytes are not valid {codec}; shown as \ufffd")
    if codec == "utf-8" and (not choice.doubt or declared == "utf-8"):
        return data, SgfCharset("utf-8", "utf-8", warnings)
    if declared and codec != declared and not (declared in _UNTRUSTED_DECLARED and codec in _UNTRUSTED_DECLARED):
        warnings.append(f"{name}: CA[{declared_name}] does not match the bytes; read as {codec}")
    doubts = [choice.doubt] if choice.doubt else []
    return data, SgfCharset(codec, codec, warnings, doubts)


def _from_utf16(data: bytes, codec16: str, name: str) -> tuple[bytes, SgfCharset]:
    """UTF-16 bytes as UTF-8. A file in another charset glued after the UTF-16 games (its own
    games' ASCII bytes, which UTF-16 reads as other characters) is decoded on its own and kept."""
    bom = 2 if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else 0
    text = data[bom:].decode(codec16, errors="replace")
    utf8 = text.encode("utf-8")
    games_end = 0
    for span in scan_games(utf8, "utf-8"):
        if span.cut_off:
            break
        games_end = span.end
    if not games_end:
        return utf8, SgfCharset("utf-8", codec16)
    kept = utf8[:games_end].decode("utf-8")
    split = bom + len(kept.encode(codec16, errors="surrogatepass"))
    rest = data[split:]
    blank16 = tuple(ch.encode(codec16) for ch in " \t\r\n")
    while rest.startswith(blank16):
        rest = rest[2:]
    if not _GAME_START.search(rest) or utf16_codec(rest) == codec16:
        return utf8, SgfCharset("utf-8", codec16)
    rest_data, rest_charset = sgf_charset(rest, name)
    warnings = [
        f"{name}: a part of the file (from byte {split}) is not UTF-16 like the rest but "
        f"{rest_charset.encoding}; it was read on its own",
        *rest_charset.warnings,
    ]
    joined = f"{kept}\n{rest_charset.decode(rest_data)}".encode()
    return joined, SgfCharset("utf-8", codec16, warnings, rest_charset.doubts)


_ASCII_BYTES = bytes(range(128))


def _high_bytes(data: bytes) -> int:
    """How many bytes of `data` are outside ASCII."""
    return len(data.translate(None, _ASCII_BYTES))


def _ascii_compatible(codec: str) -> bool:
    """Whether `codec` reads every ASCII byte as that character (7-bit charsets read the escapes,
    shifts and '+'/'~' sequences of the probe as other characters)."""
    probe = bytes(range(128)) + b"\x1b$B;3\x1b(B \x1b$)C\x0e;3\x0f +AGE- ~{;3~}"
    try:
        return probe.decode(codec) == probe.decode("ascii")
    except UnicodeDecodeError:
        return False


def _mostly_utf8(data: bytes) -> int:
    """How many bytes are not UTF-8 in bytes that are UTF-8 but for a few (a damaged file), else 0:
    at most three errors or one in a hundred bytes outside ASCII, and six bytes of well-formed
    characters for each (bytes in another charset rarely form any: GB18030's '柯洁' is all errors)."""
    high = _high_bytes(data)
    errors = decode_error_count(data, "utf-8", _DELIMITERS, stop_above=max(3, high // 100))
    well_formed_bytes = high - errors
    if 0 < errors <= max(3, well_formed_bytes // 100) and well_formed_bytes >= 6 * errors:
        return errors
    return 0


def _double_encoding_of(text: str) -> str | None:
    """The CJK codec whose bytes, read as Latin-1, make all of `text`'s non-ASCII characters, when
    reading them back gives Hangul or CJK and keeps every ASCII character; else None."""
    high = [ch for ch in text if ord(ch) > 127]
    if len(high) < 4 or any(ord(ch) > 255 for ch in high):
        return None
    raw = text.encode("latin-1")
    ascii_part = "".join(ch for ch in text if ord(ch) < 128)
    for codec in ("utf-8", "cp949", "gb18030", "cp932"):
        try:
            decoded = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        wide = [ch for ch in decoded if ord(ch) > 127]
        if "".join(ch for ch in decoded if ord(ch) < 128) != ascii_part:
            continue  # a two-byte character took an ASCII byte (a bracket): not this codec
        if wide and sum(1 for ch in wide if 0x1100 <= ord(ch) <= 0xD7AF or 0xF900 <= ord(ch) <= 0xFAFF) > 0.9 * len(wide):
            return codec
    return None


# ---------------------------------------------------------------- raw tree


@dataclass(eq=False)
class RawNode:
    """One SGF node as written: properties in file order (repeats merged), children in order."""

    props: dict[str, list[str]] = field(default_factory=dict)
    order: list[tuple[str, int]] = field(default_factory=list)  # (ident, value index) of moves, file order
    children: list[RawNode] = field(default_factory=list)
    cut_off: str = ""  # why the game stops early (the file ends inside it), or "" when it is whole


# A game's "(" straight followed by properties, without the ";" (Korean ORO, Nihon Ki-in exports).
_MISSING_FIRST_SEMICOLON = re.compile(r"\s*\((\s*)(?=[A-Za-z]+\s*\[)")
# Where a game starts, outside any game: "(" and its root's ";", or straight its first property.
_GAME_START = re.compile(rb"\(\s*(?:;|[A-Za-z]+\s*\[)")
# A game's root inside a game whose closing parenthesis is missing: no variation starts this way.
_NEXT_GAME_ROOT = re.compile(rb"\(\s*;\s*(?:FF|GM|CA|AP|SZ|ST)\s*\[")
_TRUNCATED = "the file ends inside it (truncated)"


def _between_parentheses(codec: str, outside_values: bytes = rb"[A-Za-z;\s]") -> re.Pattern[bytes]:
    """SGF outside parentheses: identifiers, ';', spaces (or any `outside_values`) and whole values,
    read as `codec` does (a two-byte character whose second byte is '\\' is no escape; ']' always
    ends a value)."""
    lead = ASCII_TRAIL_LEADS.get(codec)
    character = lead + rb"[^\]]|[\x80-\xff]|" if lead else b""
    value = rb"\[(?:[^\\\]\x80-\xff]++|" + character + rb"[\x80-\xff]++|\\.)*+\]"
    return re.compile(rb"(?:" + outside_values + rb"++|" + value + rb")*+", re.DOTALL)


@dataclass(frozen=True)
class GameSpan:
    """Where one game's bytes are in the file, and why it stops early ("" when it is whole)."""

    start: int
    end: int
    cut_off: str = ""
    not_sgf_at: int = -1  # the byte where text that is not SGF starts inside the game, or -1


def scan_games(data: bytes, codec: str) -> Iterator[GameSpan]:
    """Every game tree of the file, found without parsing it: linear in the file's size.

    A game whose closing parenthesis never comes ends at the end of the file, or where the next
    game's root starts; text that is not SGF inside a game cuts that game there (its parentheses
    still tell where it ends), and the games after it are read.
    """
    skip = _between_parentheses(codec)
    skip_not_sgf = _between_parentheses(codec, rb"[^\[()]")
    size = len(data)
    position = 0
    while True:
        found = _GAME_START.search(data, position)
        if found is None:
            return
        start = position = found.start()
        depth, cut_off, not_sgf_at = 0, "", -1
        while True:
            position = skip.match(data, position).end()  # type: ignore[union-attr]
            if position >= size or data[position] == 0x5B:  # the end, or a value the end cuts off
                end, cut_off = size, _TRUNCATED
                break
            byte = data[position]
            if byte == 0x28:  # (
                if depth and _NEXT_GAME_ROOT.match(data, position):
                    end, cut_off = position, f"its closing parenthesis is missing (the next game starts at byte {position})"
                    break
                depth += 1
            elif byte == 0x29:  # )
                depth -= 1
                if depth == 0:
                    end = position + 1
                    break
            else:  # text that is not SGF: the game is read up to it, its parentheses still counted
                if not_sgf_at < 0:
                    not_sgf_at = position
                position = skip_not_sgf.match(data, position).end()  # type: ignore[union-attr]
                continue
            position += 1
        if not_sgf_at >= 0:
            cut_off = f"text that is not SGF at byte {not_sgf_at} inside it"
        yield GameSpan(start, end, cut_off, not_sgf_at)
        position = end


def raw_game(text: str, cut_off: str = "") -> RawNode:
    """The raw tree of one game's text (one game tree, as `scan_games` finds it)."""
    missing_semicolon = _MISSING_FIRST_SEMICOLON.match(text)
    if missing_semicolon:
        text = f"{text[: missing_semicolon.end()]};{text[missing_semicolon.end():]}"
    tokens, _end = sgf_grammar.tokenise(text.encode("utf-8"), 0)
    trees, still_open = _build_raw_tree(tokens)
    if not trees:
        raise GameFileError("no SGF node in it")
    root = trees[0]
    if still_open or cut_off:
        root.cut_off = cut_off or _TRUNCATED
    return root


# A game that is a root without moves, then one move a node and nothing else (no variation, comment
# or mark): most game records of servers; read straight from its text (`plain_main_line`).
_PLAIN_GAME = re.compile(r"\s*\(\s*;((?:\s*[A-Z]+\s*(?:\[(?:[^\\\]]++|\\.)*+\]\s*)+)*)((?:\s*;\s*[BW]\[[a-zA-Z]{0,2}\])*)\s*\)\s*",
                         re.DOTALL)
_PLAIN_MOVE = re.compile(r";\s*([BW])\[([a-zA-Z]{0,2})\]")


def plain_main_line(text: str) -> RawNode | None:
    """The raw tree of a plain game's text, as `raw_game` reads it, without the tokeniser; None
    where the game is not plain (a move in its root, a lower-case identifier, any other node)."""
    matched = _PLAIN_GAME.fullmatch(text)
    if matched is None:
        return None
    root = RawNode()
    for ident, values in _HEAD_PROPERTY.findall(matched.group(1)):
        if ident in _MOVE_IDENTS:
            return None
        root.props.setdefault(ident, []).extend(_values_of(values))
    node = root
    for colour, point in _PLAIN_MOVE.findall(matched.group(2)):
        child = RawNode(props={colour: [point]}, order=[(colour, 0)])
        node.children.append(child)
        node = child
    return root


_HEAD_NODE = re.compile(r"\s*(;?)((?:\s*[A-Za-z]+\s*(?:\[(?:[^\\\]]++|\\.)*+\]\s*)+)*)", re.DOTALL)
_HEAD_PROPERTY = re.compile(r"([A-Za-z]+)\s*((?:\[(?:[^\\\]]++|\\.)*+\]\s*)+)", re.DOTALL)
_HEAD_VALUE = re.compile(r"\[((?:[^\\\]]++|\\.)*+)\]", re.DOTALL)


def head_of_game(text: str, idents: frozenset[str] | None = None) -> RawNode:
    """The root of one game's text with the move-less nodes before its first move merged in, as
    `game_from_raw` merges them: all a listing shows, read without the moves (only `idents`, when
    given)."""
    opening = re.match(r"\s*\(", text)
    position = opening.end() if opening else 0
    root = RawNode()
    first = True
    while True:
        block = _HEAD_NODE.match(text, position)
        if block is None or not (block.group(1) or (first and block.group(2))):
            break  # a variation, the game's end, or no node (the root may lack its ';')
        position = block.end()
        node = root if first else RawNode()
        has_move = False
        for raw_ident, values in _HEAD_PROPERTY.findall(block.group(2)):
            ident = raw_ident.translate(_NO_LOWER_CASE)
            if ident in _MOVE_IDENTS:
                has_move = True
            elif ident and (idents is None or ident in idents):
                node.props.setdefault(ident, []).extend(_values_of(values))
        if has_move:
            break  # the first move: its node is not merged (a move in the root: the next node follows it)
        if not first:
            _merge_props(root, node)
        first = False
    return root


_ESCAPES_OR_SPACES = re.compile(r"[\\\r\t\f\v]")  # what `text_value` changes in a value


def _values_of(values: str) -> list[str]:
    """A property's values ("[a][b]") as the tokeniser reads them (`text_value` where it changes one)."""
    return [sgf_grammar.text_value(value.encode("utf-8")).decode("utf-8", errors="replace")
            if _ESCAPES_OR_SPACES.search(value) else value
            for value in _HEAD_VALUE.findall(values)]
_NO_LOWER_CASE = str.maketrans("", "", "abcdefghijklmnopqrstuvwxyz")


def _build_raw_tree(tokens: list[tuple[str, bytes]]) -> tuple[list[RawNode], bool]:
    """The trees of one tokenised game; True with them when the game's parentheses are not all closed."""
    top = RawNode()
    current = top
    stack: list[RawNode] = []
    index = 0
    count = len(tokens)
    while index < count:
        kind, token = tokens[index]
        index += 1
        if kind == "D":
            if token == b"(":
                stack.append(current)
            elif token == b")":
                if not stack:
                    break
                current = stack.pop()
            else:
                node = RawNode()
                current.children.append(node)
                current = node
        elif kind == "I":
            values: list[str] = []
            while index < count and tokens[index][0] == "V":
                values.append(sgf_grammar.text_value(tokens[index][1]).decode("utf-8", errors="replace"))
                index += 1
            ident = token.decode("ascii")
            if current is top or not ident:
                continue  # a property outside any node, or an all-lower-case identifier: nothing to keep
            if not values:
                continue
            existing = current.props.setdefault(ident, [])
            if ident in _MOVE_IDENTS:
                current.order.extend((ident, len(existing) + offset) for offset in range(len(values)))
            existing.extend(values)
        else:  # a value with no identifier before it
            continue
    return top.children, bool(stack)


# ---------------------------------------------------------------- coordinates


@functools.lru_cache(maxsize=1 << 14)  # a file's games share their few hundred points
def point_from_sgf(value: str, width: int, height: int) -> Point | None:
    """'pd' -> (row, col) with row 0 at the bottom; '' and 'tt' (boards up to 19) -> None (pass)."""
    value = value.strip()
    if value == "" or (value == "tt" and width <= 19 and height <= 19):
        return None
    if len(value) != 2:
        raise ValueError(f"not an SGF point: {value!r}")
    col, row_from_top = (_sgf_coordinate(ch) for ch in value)
    if not (0 <= col < width and 0 <= row_from_top < height):
        raise ValueError(f"point {value!r} is off a {width}x{height} board")
    return (height - 1 - row_from_top, col)


def _sgf_coordinate(ch: str) -> int:
    if "a" <= ch <= "z":
        return ord(ch) - ord("a")
    if "A" <= ch <= "Z":
        return ord(ch) - ord("A") + 26
    return -1


def sgf_from_point(point: Point | None, height: int) -> str:
    if point is None:
        return ""
    row, col = point
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[col] + letters[height - 1 - row]


def points_from_list(values: list[str], width: int, height: int, warnings: list[str], where: str) -> list[Point]:
    """AB/AW/AE values, expanding compressed rectangles like 'do:gq'."""
    points: list[Point] = []
    for value in values:
        try:
            if ":" in value:
                first, last = value.split(":", 1)
                a = point_from_sgf(first, width, height)
                b = point_from_sgf(last, width, height)
                if a is None or b is None:
                    raise ValueError(f"not a rectangle: {value!r}")
                for row in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
                    for col in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
                        points.append((row, col))
            else:
                point = point_from_sgf(value, width, height)
                if point is not None:
                    points.append(point)
        except ValueError as error:
            warnings.append(f"{where}: {error}; ignored")
    return list(dict.fromkeys(points))


# ---------------------------------------------------------------- Game from the raw tree


def _first(props: dict[str, list[str]], ident: str, default: str = "") -> str:
    values = props.get(ident)
    return values[0].strip() if values else default


def _simple(value: str) -> str:
    return " ".join(value.split())


def _handicap_of(props: dict[str, list[str]]) -> int | None:
    text = _first(props, "HA")
    if not text:
        return 0
    try:
        return int(float(text))
    except ValueError:
        return None


def read_komi(props: dict[str, list[str]]) -> float | None:
    """The komi in points of a root node's properties, Fox's way of writing it undone (see sgf_komi)."""
    return komi_reading(props).komi


def komi_reading(props: dict[str, list[str]]) -> sgf_komi.KomiReading:
    rules = normalise_rules(_first(props, "RU"))
    return sgf_komi.read_komi(props, rules, _handicap_of(props) or 0, read_result(_first(props, "RE")))


def read_result(text: str) -> str:
    """RE as the model holds it: see `normalise_result`; a margin in stones (a quarter in it) in points."""
    return sgf_komi.result_in_points(normalise_result(text))


def parse_board_size(value: str) -> tuple[int, int]:
    """SZ[19] -> (19, 19); SZ[17:3] -> (17, 3) as (width, height)."""
    if not value.strip():
        return (19, 19)
    if ":" in value:
        cols, rows = value.split(":", 1)
        return (int(cols), int(rows))
    size = int(value)
    return (size, size)


_MARKUP: dict[str, ShapeKind] = {"TR": "triangle", "SQ": "square", "CR": "circle", "MA": "cross"}
_MARKUP_PAIRS: dict[str, ShapeKind] = {"AR": "arrow", "LN": "line"}
MARKUP_PROPERTIES = (*_MARKUP, "LB", *_MARKUP_PAIRS)


def shapes_from_sgf(props: dict[str, list[str]], width: int, height: int) -> list[Shape]:
    """A node's markup (TR, SQ, CR, MA, LB, AR, LN) as shapes; values off the board are left out
    (they stay in the node's properties)."""
    shapes: list[Shape] = []
    if props.keys().isdisjoint(MARKUP_PROPERTIES):  # most nodes: a move alone
        return shapes
    for ident in MARKUP_PROPERTIES:
        values = props.get(ident, [])
        if ident in _MARKUP:
            kind = _MARKUP[ident]
            shapes.extend(Shape(kind, point) for point in points_from_list(values, width, height, [], ""))
            continue
        for value in values if ident == "LB" or ident in _MARKUP_PAIRS else ():
            first, _, second = value.partition(":")
            try:
                at = point_from_sgf(first, width, height)
                to = None if ident == "LB" else point_from_sgf(second, width, height)
            except ValueError:
                continue
            if at is None or (ident != "LB" and to is None):
                continue
            shapes.append(Shape("label", at, text=second) if ident == "LB" else Shape(_MARKUP_PAIRS[ident], at, to))
    return shapes


def sgf_from_shapes(shapes: list[Shape], height: int) -> dict[str, list[str]]:
    """The markup properties that draw `shapes` (chess's highlights have none: left out)."""
    props: dict[str, list[str]] = {}
    idents = {kind: ident for ident, kind in (*_MARKUP.items(), *_MARKUP_PAIRS.items())}
    for shape in shapes:
        if shape.kind == "label":
            props.setdefault("LB", []).append(f"{sgf_from_point(shape.at, height)}:{shape.text}")
        elif shape.kind in ("arrow", "line") and shape.to is not None:
            value = f"{sgf_from_point(shape.at, height)}:{sgf_from_point(shape.to, height)}"
            props.setdefault(idents[shape.kind], []).append(value)
        elif shape.kind in idents and shape.kind not in ("arrow", "line"):
            props.setdefault(idents[shape.kind], []).append(sgf_from_point(shape.at, height))
    return props


def _sync_annotations(props: dict[str, list[str]], node: Node, width: int, height: int) -> None:
    """Rewrite the move/position annotations and the markup only where the model's NAGs or shapes
    differ from what the properties say (so that an unchanged node is written as read)."""
    if nags_from_sgf(props) != sorted(node.nags):
        for ident in SGF_ANNOTATION_PROPERTIES:
            props.pop(ident, None)
        props.update(sgf_from_nags(node.nags))
    if set(shapes_from_sgf(props, width, height)) != set(node.shapes):
        for ident in MARKUP_PROPERTIES:
            props.pop(ident, None)
        props.update(sgf_from_shapes(node.shapes, height))


def annotations_synced(node: Node, width: int, height: int) -> None:
    """Make `node.properties` say the node's NAGs and shapes (for code that edits properties next)."""
    _sync_annotations(node.properties, node, width, height)


def _split_move_nodes(raw_root: RawNode, warnings: list[str], label: str) -> None:
    """Nodes with more than one move become a chain of one-move nodes; a move in the root moves down."""
    stack = [raw_root]
    split_count = 0
    while stack:
        raw = stack.pop()
        moves = raw.order
        if len(moves) > 1 or (raw is raw_root and moves):
            first_kept = 0 if raw is not raw_root else -1
            chain_moves = moves[first_kept + 1 :] if first_kept == 0 else moves
            kept_props = {k: list(v) for k, v in raw.props.items() if k not in _MOVE_IDENTS}
            if first_kept == 0:
                ident, value_index = moves[0]
                kept_props[ident] = [raw.props[ident][value_index]]
            children = raw.children
            new_nodes = []
            for ident, value_index in chain_moves:
                new_nodes.append(RawNode(props={ident: [raw.props[ident][value_index]]}, order=[(ident, 0)]))
            raw.props = kept_props
            raw.order = [(moves[0][0], 0)] if first_kept == 0 else []
            parent = raw
            for node in new_nodes:
                parent.children = [node]
                parent = node
            parent.children = children
            if raw is not raw_root or len(moves) > 1:
                split_count += 1
        stack.extend(raw.children)
    if split_count:
        warnings.append(f"{label}: {split_count} node(s) held more than one move; split into one move per node")


def _fold_moveless(raw_root: RawNode) -> None:
    """Merge move-less nodes: those before the first move into the root, other setup-free ones upward."""
    # Before the first move: pull the chain of move-less first children into the root.
    while len(raw_root.children) == 1 and not raw_root.children[0].order:
        child = raw_root.children[0]
        _merge_props(raw_root, child)
        raw_root.children = child.children
    stack = [raw_root]
    while stack:
        raw = stack.pop()
        new_children: list[RawNode] = []
        for child in raw.children:
            while not child.order and not any(k in child.props for k in _SETUP_IDENTS) and raw is not raw_root:
                _merge_props(raw, child)
                if len(child.children) == 1:
                    child = child.children[0]
                    continue
                new_children.extend(child.children)
                child = None  # type: ignore[assignment]
                break
            if child is None:
                continue
            if not child.order and not any(k in child.props for k in _SETUP_IDENTS) and raw is raw_root:
                pass  # a move-less variation straight under the root: kept as a node
            new_children.append(child)
        raw.children = new_children
        stack.extend(raw.children)


def _merge_props(target: RawNode, source: RawNode) -> None:
    for ident, values in source.props.items():
        if ident == "C" and "C" in target.props:
            joined = "\n\n".join(v for v in (target.props["C"][0], values[0]) if v)
            target.props["C"] = [joined]
        elif ident in target.props:
            target.props[ident] = target.props[ident] + [v for v in values if v not in target.props[ident]]
        else:
            target.props[ident] = list(values)


def playable_board(props: dict[str, list[str]], number: int, name: str) -> tuple[int, int]:
    """(width, height) of a game's root properties, or GameFileError when Reviewer cannot show the
    game: not Go, or a board size it cannot read or draw."""
    game_type = _first(props, "GM", "1")
    if game_type not in ("1", ""):
        raise GameFileError(f"{name}: game {number} is not a Go game (GM[{game_type}])")
    try:
        width, height = parse_board_size(_first(props, "SZ"))
    except ValueError:
        raise GameFileError(f"{name}: game {number} has an unreadable board size SZ[{_first(props, 'SZ')}]") from None
    if not (MIN_BOARD <= width <= MAX_BOARD and MIN_BOARD <= height <= MAX_BOARD):
        raise GameFileError(
            f"{name}: game {number} is on a {width}x{height} board; boards from {MIN_BOARD} to {MAX_BOARD} lines are supported"
        )
    return width, height


def game_from_raw(raw_root: RawNode, number: int, name: str, main_line_only: bool = False) -> Game:
    """Build the Game of one raw SGF tree. `number` (1-based) names the game in warnings. With
    `main_line_only`, the headers and the main line's moves and setups alone: no variations,
    comments, marks or NAGs below the root, and no warnings of moves onto stones."""
    label = f"game {number}"
    game = Game(kind="go")
    _split_move_nodes(raw_root, game.warnings, label)
    _fold_moveless(raw_root)
    props = raw_root.props
    width, height = playable_board(props, number, name)
    game.board_width, game.board_height = width, height
    game.headers = {ident: ", ".join(values) for ident, values in props.items()}
    game.black = _simple(_first(props, "PB"))
    game.white = _simple(_first(props, "PW"))
    game.black_rank = normalise_rank(_simple(_first(props, "BR")))
    game.white_rank = normalise_rank(_simple(_first(props, "WR")))
    game.result = read_result(_first(props, "RE"))  # the raw text stays in headers and root.properties
    game.date = _simple(_first(props, "DT"))
    game.event = _simple(_first(props, "EV") or _first(props, "GN"))
    komi = komi_reading(props)
    game.komi = komi.komi
    game.warnings.extend(f"{label}: {warning}" for warning in komi.warnings)
    game.rules = normalise_rules(_first(props, "RU"))
    handicap = _handicap_of(props)
    if handicap is None:
        game.warnings.append(f"{label}: unreadable handicap HA[{_first(props, 'HA')}]; ignored")
    game.handicap = handicap or 0
    if sgf_komi.is_fox(props):
        game.origin = "fox"
    elif "online-go.com" in _first(props, "PC").lower() or "OGS" in _first(props, "PC"):
        game.origin = "ogs"
    elif "kgs" in _first(props, "PC").lower() or "CGoban" in ",".join(props.get("AP", [])):
        game.origin = "kgs"
    game.setup_black = points_from_list(props.get("AB", []), width, height, game.warnings, label)
    game.setup_white = points_from_list(props.get("AW", []), width, height, game.warnings, label)
    game.root.properties = {ident: list(values) for ident, values in props.items()}
    game.root.comment = props.get("C", [""])[0]
    game.root.nags = nags_from_sgf(props)
    game.root.shapes = shapes_from_sgf(props, width, height)

    stack: list[tuple[RawNode, Node]] = [(raw_root, game.root)]
    while stack:
        raw, node = stack.pop()
        for raw_child in raw.children[:1] if main_line_only else raw.children:
            child = _node_from_raw(raw_child, width, height, game.warnings, label, not main_line_only)
            node.add_child(child)
            stack.append((raw_child, child))

    player = _first(props, "PL").upper()
    if player in ("B", "1"):
        game.first_player = "black"
    elif player in ("W", "2"):
        game.first_player = "white"
    else:
        first_move = next((n for n in game.root.mainline() if n.color is not None), None)
        if first_move is not None:
            game.first_player = first_move.color  # type: ignore[assignment]
        elif game.handicap >= 2 and game.setup_black:
            game.first_player = "white"
        else:
            game.first_player = "black"
    if not main_line_only:
        _flag_damage(game, label)
    if raw_root.cut_off:
        moves = sum(1 for node in game.root.mainline() if node.color is not None)
        game.warnings.append(f"{label}: incomplete: {raw_root.cut_off}; read up to move {moves}, the rest is missing")
    return game


def _flag_damage(game: Game, label: str) -> None:
    """Warn of what a record cannot mean as written: moves onto a stone (in any variation) and a
    handicap with no stones for it. The game stays as written."""
    if game.handicap >= 2 and not game.setup_black:
        opening = [node.color for node in game.root.mainline() if node.color is not None][: game.handicap]
        if opening != ["black"] * game.handicap:  # stones played as Black's first moves are the handicap
            game.warnings.append(f"{label}: HA[{game.handicap}] but no handicap stones are placed; read as written")
    from reviewer.core.games.go import GoBoard  # here: games.go imports formats.annotations, which loads this module

    occupied: list[tuple[int, Node]] = []  # (move number on its line, node)
    start = GoBoard(game.board_width, game.board_height, frozenset(), frozenset())
    start.setup(game.setup_black, game.setup_white, [])
    stack: list[tuple[Node, GoBoard, int]] = [(game.root, start, 0)]
    while stack:
        node, board, moves_before = stack.pop()
        if node is not game.root:
            board.setup(node.setup_black, node.setup_white, node.setup_empty)
        number = moves_before + (node.color is not None)
        if node.color is not None and node.point is not None:
            if node.point in board.stones:
                occupied.append((number, node))
            board.play(node.point, node.color)
        if len(node.children) == 1:
            stack.append((node.children[0], board, number))
        else:  # each variation from its own copy of the board
            stack.extend((child, GoBoard(board.width, board.height, *board.freeze()), number) for child in reversed(node.children))
    if occupied:
        number, node = occupied[0]
        game.warnings.append(
            f"{label}: {len(occupied)} move(s) onto a point that already holds a stone "
            f"(the first: move {number}, {node.color} {node.move}); read as written"
        )


def _node_from_raw(raw: RawNode, width: int, height: int, warnings: list[str], label: str, notes: bool = True) -> Node:
    """A node of the game from its raw one; without `notes`, its move and setup alone."""
    if notes:
        node = Node(properties={ident: list(values) for ident, values in raw.props.items()})
        node.comment = raw.props.get("C", [""])[0]
        node.nags = nags_from_sgf(raw.props)
        node.shapes = shapes_from_sgf(raw.props, width, height)
    else:
        node = Node()
    if raw.order:
        ident, value_index = raw.order[0]
        color: Color = "black" if ident == "B" else "white"
        value = raw.props[ident][value_index]
        node.color = color
        try:
            node.point = point_from_sgf(value, width, height)
        except ValueError as error:
            warnings.append(f"{label}: move {ident}[{value}] ({error}); read as a pass")
            node.point = None
        node.move = gtp_from_point(node.point, height)
    where = f"{label}: setup"
    if "AB" in raw.props:
        node.setup_black = points_from_list(raw.props["AB"], width, height, warnings, where)
    if "AW" in raw.props:
        node.setup_white = points_from_list(raw.props["AW"], width, height, warnings, where)
    if "AE" in raw.props:
        node.setup_empty = points_from_list(raw.props["AE"], width, height, warnings, where)
    return node


# ---------------------------------------------------------------- the collection


_BOARD_IDENTS = frozenset(("GM", "SZ"))
_ROOT_NODE_BYTES = re.compile(rb"\s*\(\s*;?((?:\s*[A-Za-z]+\s*(?:\[(?:[^\\\]]++|\\.)*+\]\s*)+)*)", re.DOTALL)
_PROPERTY_BYTES = re.compile(rb"([A-Za-z]+)\s*((?:\[(?:[^\\\]]++|\\.)*+\]\s*)+)", re.DOTALL)
_VALUE_BYTES = re.compile(rb"\[((?:[^\\\]]++|\\.)*+)\]", re.DOTALL)
_NAMED_LEFT_OUT = 10  # games left out that the warnings name one by one


# Between games: spaces, DOS's end-of-file mark and SGF's own punctuation ("();" of an empty
# variation left over) hold no text; beyond a few other bytes, the text left out is named.
_BLANK_BYTES = b" \t\r\n\v\f\x1a();"
_IGNORED_STRAY_BYTES = 3


class SgfCollection(GameCollection):
    """The games of an SGF file, listed lazily: opening finds where each game is and reads its
    root (to leave out, by name, a game that is not Go or has no board Reviewer can show); a
    game's moves are parsed when it is asked for. Memory stays the file's bytes and two offsets
    a game."""

    format = "sgf"

    def __init__(self, path: str | None, data: bytes) -> None:
        name = str(path) if path is not None else "<sgf text>"
        self._name = name
        self._data, self._charset = sgf_charset(data, name)
        super().__init__(path, self._charset.encoding)
        self.warnings.extend(self._charset.warnings)
        # Per listed game: where its bytes start and end, its number in the file (1-based), and
        # for the few that stop early, why.
        self._starts, self._ends, self._numbers = array("q"), array("q"), array("q")
        self._cut_offs: dict[int, str] = {}
        first_error, left_out, read_up_to = "", 0, 0
        for number, span in enumerate(scan_games(self._data, self._charset.codec), start=1):
            self._warn_not_sgf(read_up_to, span.start, number - 1)
            read_up_to = span.end
            try:
                playable_board(self._board_props(span), number, name)
            except GameFileError as error:
                first_error = first_error or str(error)
                left_out += 1
                if left_out <= _NAMED_LEFT_OUT:
                    self.warnings.append(f"{error}; left out")
                continue
            if span.cut_off:
                self._cut_offs[len(self._starts)] = span.cut_off
                self.warnings.append(f"{name}: game {number} is incomplete: {span.cut_off}; its moves up to there are kept")
            if span.not_sgf_at >= 0:
                self.warnings.append(f"{name}: the rest of game {number} (from byte {span.not_sgf_at}) was not read")
            self._starts.append(span.start)
            self._ends.append(span.end)
            self._numbers.append(number)
        self._warn_not_sgf(read_up_to, len(self._data), len(self._starts) and self._numbers[-1])
        if not self._starts:
            raise GameFileError(first_error or f"{name}: no SGF game in this file")
        if left_out > _NAMED_LEFT_OUT:
            self.warnings.append(
                f"{name}: {left_out - _NAMED_LEFT_OUT} more games were left out (not Go, or a board Reviewer cannot show)"
            )

    def _warn_not_sgf(self, start: int, end: int, after_game: int) -> None:
        """A warning naming the bytes between games (or around them) that hold more than spaces."""
        left = len(self._data[start:end].translate(None, _BLANK_BYTES))
        if left <= _IGNORED_STRAY_BYTES:
            return
        where = f"after game {after_game}" if after_game else "before the first game"
        self.warnings.append(f"{self._name}: {left} bytes {where} are not SGF; they were not read")

    def _board_props(self, span: GameSpan) -> dict[str, list[str]]:
        """GM and SZ of a game, read from its root's bytes where the charset allows (no two-byte
        character holds an ASCII byte) and the root holds both, else from its decoded head."""
        if ASCII_TRAIL_LEADS.get(self._charset.codec) is None:
            root = _ROOT_NODE_BYTES.match(self._data, span.start, span.end)
            if root is not None:
                props = {
                    ident.decode("ascii"): [_VALUE_BYTES.findall(values)[0].decode("ascii", errors="replace")]
                    for ident, values in _PROPERTY_BYTES.findall(root.group(1))
                    if ident in (b"GM", b"SZ")
                }
                if len(props) == 2:
                    return props
        return head_of_game(self._decode(span.start, span.end), _BOARD_IDENTS).props

    def _decode(self, start: int, end: int) -> str:
        return self._charset.decode(self._data[start:end])

    def _text(self, index: int, own: tuple[str, str] | None = None) -> str:
        """Game `index`'s text; `own`: its `_own_charset`, when the caller has it already."""
        own = own or self._own_charset(index)
        raw = self._data[self._starts[index]:self._ends[index]]
        return decode_keeping(raw, own[0], _DELIMITERS, errors="replace") if own else self._charset.decode(raw)

    def _own_charset(self, index: int) -> tuple[str, str] | None:
        """(codec, why) for a game of a file glued from files in other charsets, whose own bytes say
        plainly that they are in another one than the file's; None for the others (nearly all)."""
        charset = self._charset
        if len(self._starts) < 2 or charset.repaired_from or (charset.codec == "utf-8" and charset.encoding != "utf-8"):
            return None
        raw = self._data[self._starts[index]:self._ends[index]]
        if raw.isascii():
            return None
        file_codec = charset.codec
        declared = _CA_RE.search(raw)
        declared_name = declared.group(1).decode("ascii", errors="replace") if declared else ""
        own = codec_for_charset(declared_name) if declared_name else None
        if own and own != file_codec and _ascii_compatible(own) and decodes_cleanly(raw, own, _DELIMITERS):
            return own, f"it declares CA[{declared_name}]"
        if file_codec != "utf-8" and is_utf8(raw) and sum(ord(ch) > 127 for ch in raw.decode("utf-8")) > SHORT_TEXT_CHARS:
            # (a few characters of another charset can be valid UTF-8 by chance: GB18030 '时越' reads 'ʱԽ')
            return "utf-8", "its bytes are UTF-8"
        return None


    def game_span(self, index: int) -> tuple[int, int] | None:
        """The game tree's bytes, from its `(` to its `)`."""
        index = self._check_index(index)
        return self._starts[index], self._ends[index]

    def text_bytes(self) -> bytes | None:
        return self._data

    def _count(self) -> int:
        return len(self._starts)

    def _summary(self, index: int) -> GameSummary:
        return summary_of_game(game_from_raw(head_of_game(self._text(index)), self._numbers[index], self._name), index)

    def _game(self, index: int, main_line_only: bool = False) -> Game:
        number = self._numbers[index]
        own = self._own_charset(index)
        text, cut_off = self._text(index, own), self._cut_offs.get(index, "")
        plain = plain_main_line(text) if main_line_only and not cut_off else None
        try:
            raw_root = plain if plain is not None else raw_game(text, cut_off)
        except GameFileError as error:
            raise GameFileError(f"{self._name}: game {number}: {error}") from None
        game = game_from_raw(raw_root, number, self._name, main_line_only)
        if own is not None:
            game.warnings[:0] = [f"game {number} is read in {own[0]}, not {self._charset.codec} as the rest of the file: {own[1]}"]
        else:
            game.warnings[:0] = [f"game {number}: {doubt}" for doubt in self._charset.doubts]
        return game


    def _main_line(self, index: int) -> Game:
        return self._game(index, main_line_only=True)


def copy_raw(raw_root: RawNode) -> RawNode:
    new_root = RawNode(
        props={k: list(v) for k, v in raw_root.props.items()}, order=list(raw_root.order), cut_off=raw_root.cut_off
    )
    stack = [(raw_root, new_root)]
    while stack:
        old, new = stack.pop()
        for child in old.children:
            copied = RawNode(props={k: list(v) for k, v in child.props.items()}, order=list(child.order))
            new.children.append(copied)
            stack.append((child, copied))
    return new_root


def game_from_sgf_text(text_or_bytes: str | bytes) -> Game:
    """The first game of SGF text or bytes (handy in tests)."""
    data = text_or_bytes.encode("utf-8") if isinstance(text_or_bytes, str) else text_or_bytes
    return SgfCollection(None, data).game(0)


# ---------------------------------------------------------------- writing


def _format_komi(komi: float) -> str:
    return f"{komi:g}"


def _synced_root_props(game: Game) -> dict[str, list[str]]:
    props = {ident: list(values) for ident, values in game.root.properties.items()}
    width, height = game.board_width, game.board_height
    read_size = parse_board_size(_first(props, "SZ")) if _first(props, "SZ") else (19, 19)
    if read_size != (width, height):
        props["SZ"] = [str(width) if width == height else f"{width}:{height}"]
    for ident, value, read in (
        ("PB", game.black, _simple),
        ("PW", game.white, _simple),
        ("BR", game.black_rank, lambda text: normalise_rank(_simple(text))),
        ("WR", game.white_rank, lambda text: normalise_rank(_simple(text))),
        ("RE", game.result, read_result),
        ("DT", game.date, _simple),
    ):
        if read(_first(props, ident)) != value:
            if value:
                props[ident] = [value]
            else:
                props.pop(ident, None)
    if read_komi(props) != game.komi:
        if game.komi is None:
            props.pop("KM", None)
        else:
            props["KM"] = [_format_komi(game.komi)]
        if sgf_komi.komi_from_text(_first(props, "KO")) is not None:
            props.pop("KO")  # a komi written as KO would contradict the new one
    if normalise_rules(_first(props, "RU")) != game.rules:
        if game.rules:
            known = parse_rules(game.rules)
            props["RU"] = [known.sgf if known is not None and known.name == game.rules else game.rules]
        else:
            props.pop("RU", None)
    read_handicap = _first(props, "HA")
    if (int(float(read_handicap)) if read_handicap.replace(".", "", 1).isdigit() else 0) != game.handicap:
        if game.handicap:
            props["HA"] = [str(game.handicap)]
        else:
            props.pop("HA", None)
    _sync_setup(props, (("AB", game.setup_black), ("AW", game.setup_white)), width, height)
    _sync_comment(props, game.root.comment)
    _sync_annotations(props, game.root, width, height)
    if "GM" not in props:
        props = {"GM": ["1"], **props}
    if "FF" not in props:
        props = {"FF": ["4"], **props}
    props["CA"] = ["UTF-8"]
    return props


def _sync_setup(
    props: dict[str, list[str]], setups: tuple[tuple[str, list[Point]], ...], width: int, height: int
) -> None:
    """Rewrite AB/AW/AE only where the model's points differ from what was read."""
    for ident, points in setups:
        read_points = points_from_list(props.get(ident, []), width, height, [], "")
        if set(read_points) != set(points):
            if points:
                props[ident] = [sgf_from_point(p, height) for p in points]
            else:
                props.pop(ident, None)


def _sync_comment(props: dict[str, list[str]], comment: str) -> None:
    if props.get("C", [""])[0] != comment:
        if comment:
            props["C"] = [comment]
        else:
            props.pop("C", None)


def _synced_node_props(node: Node, width: int, height: int) -> dict[str, list[str]]:
    props = {ident: list(values) for ident, values in node.properties.items()}
    read_color, read_point, read_ok = None, None, True
    for ident in _MOVE_IDENTS:
        if ident in props:
            read_color = "black" if ident == "B" else "white"
            try:
                read_point = point_from_sgf(props[ident][0], width, height)
            except ValueError:
                read_ok = False
            break
    if node.color is not None and (read_color != node.color or read_point != node.point or not read_ok):
        props.pop("B", None)
        props.pop("W", None)
        props["B" if node.color == "black" else "W"] = [sgf_from_point(node.point, height)]
    elif node.color is None and read_color is not None:
        props.pop("B", None)
        props.pop("W", None)
    _sync_setup(
        props, (("AB", node.setup_black), ("AW", node.setup_white), ("AE", node.setup_empty)), width, height
    )
    _sync_comment(props, node.comment)
    _sync_annotations(props, node, width, height)
    return props


def write_sgf(game: Game) -> str:
    """The game as SGF text (UTF-8, CA[UTF-8])."""
    if game.kind != "go":
        raise ValueError("write_sgf writes Go games only")
    width, height = game.board_width, game.board_height

    def properties_of(node: Node) -> dict[str, list[bytes]]:
        props = _synced_root_props(game) if node is game.root else _synced_node_props(node, width, height)
        return {
            ident: [sgf_grammar.escape_text(value.encode("utf-8")) for value in values]
            for ident, values in props.items()
            if values
        }

    tree = sgf_grammar.make_coarse_game_tree(game.root, lambda node: node.children, properties_of)
    serialised: bytes = sgf_grammar.serialise_game_tree(tree, wrap=79)
    return serialised.decode("utf-8")


__all__ = [
    "SgfCollection",
    "game_from_sgf_text",
    "normalise_result",
    "normalise_rules",
    "point_from_sgf",
    "sgf_from_point",
    "write_sgf",
]
