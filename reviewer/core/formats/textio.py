"""Bytes of a game file -> text: BOMs, declared charsets, detection, and telling binary apart."""

from __future__ import annotations

import codecs
import math
import mmap
import os
import re
from dataclasses import dataclass
from pathlib import Path

from reviewer.core.errors import GameFileError

# Declared charset names seen in game files -> Python codec names.
_CHARSET_ALIASES: dict[str, str] = {
    "utf8": "utf-8",
    "utf-8": "utf-8",
    "utf16": "utf-16",
    "utf16le": "utf-16-le",
    "utf-16le": "utf-16-le",
    "utf16be": "utf-16-be",
    "utf-16be": "utf-16-be",
    "gb2312": "gb18030",  # GB18030 is a superset; files labelled GB2312 often use GBK characters
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "cp936": "gb18030",
    "euc-cn": "gb18030",
    "euckr": "cp949",
    "euc-kr": "cp949",  # CP949 (UHC) is a superset of EUC-KR
    "ks_c_5601-1987": "cp949",
    "cp949": "cp949",
    "uhc": "cp949",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "ms_kanji": "cp932",
    "cp932": "cp932",
    "windows-31j": "cp932",
    "euc-jp": "euc_jp",
    "big5": "big5hkscs",
    "iso-8859-1": "latin-1",
    "iso8859-1": "latin-1",
    "latin1": "latin-1",
    "latin-1": "latin-1",
    "us-ascii": "ascii",
    "ascii": "ascii",
    "windows-1252": "cp1252",
    "cp1252": "cp1252",
}

# Encodings a detector may propose that we accept; everything else falls back to Latin-1.
_DETECTED_FAMILIES: dict[str, str] = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "euc_kr": "cp949",
    "cp949": "cp949",
    "johab": "cp949",
    "shift_jis": "cp932",
    "cp932": "cp932",
    "euc_jp": "euc_jp",
    "big5": "big5hkscs",
    "big5hkscs": "big5hkscs",
    "cp1252": "cp1252",
    "latin_1": "latin-1",
}

SNIFF_BYTES = 8192


def codec_for_charset(name: str) -> str | None:
    """A declared charset (CA[], Lang=, ...) -> a Python codec name; None when unknown."""
    key = name.strip().lower().replace(" ", "")
    if key in _CHARSET_ALIASES:
        return _CHARSET_ALIASES[key]
    try:
        return codecs.lookup(key).name
    except LookupError:
        return None


def read_game_file(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes, or GameFileError naming the file when it is missing, empty or not a file."""
    file_path = Path(path)
    if not file_path.exists():
        raise GameFileError(f"{file_path}: no such file")
    if not file_path.is_file():
        raise GameFileError(f"{file_path}: not a file")
    try:
        data = file_path.read_bytes()
    except OSError as error:
        raise GameFileError(f"{file_path}: cannot be read ({error.strerror or error})") from error
    if not data.strip(b" \t\r\n\xef\xbb\xbf\xff\xfe"):
        raise GameFileError(f"{file_path}: the file is empty")
    if not data.strip(b"\x00"):
        raise GameFileError(f"{file_path}: only NUL bytes (binary data), not a game file")
    return data


def utf16_codec(data: bytes) -> str | None:
    """'utf-16-le'/'utf-16-be' when the bytes are UTF-16: a BOM, or without one NULs in one half of
    the byte pairs far more than in the other (the high bytes of ASCII characters; CJK characters
    rarely hold a NUL) and a start that reads as UTF-16. Single-byte and UTF-8 text hold no NUL."""
    if data.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le"
    if data.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be"
    head = data[:SNIFF_BYTES]
    head = head[: len(head) - len(head) % 2]
    if len(head) >= 8:
        even_nuls = head[0::2].count(0)
        odd_nuls = head[1::2].count(0)
        half = len(head) // 2
        for codec, nuls, other_nuls in (("utf-16-le", odd_nuls, even_nuls), ("utf-16-be", even_nuls, odd_nuls)):
            if nuls >= max(4, half // 10) and other_nuls * 4 < nuls and _reads_as(head, codec):
                return codec
    return None


def _reads_as(head: bytes, codec: str) -> bool:
    """Whether the first bytes of a file decode with `codec` (a character the cut splits aside)."""
    try:
        codecs.getincrementaldecoder(codec)().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


def strip_nul_padding(data: bytes) -> bytes:
    """The bytes without the NULs some writers pad a text file's end with (Tygem's client does)."""
    return data.rstrip(b"\x00")


def looks_binary(data: bytes) -> bool:
    """True for data no text game file has: NUL bytes or mostly control characters near the start."""
    head = data[:SNIFF_BYTES]
    if b"\x00" in head:
        return True
    controls = sum(1 for byte in head if byte < 32 and byte not in (9, 10, 12, 13, 26, 27))  # 27: ISO-2022's ESC
    return controls > max(8, len(head) // 20)


def strip_utf8_bom(data: bytes) -> tuple[bytes, bool]:
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):], True
    return data, False


def is_utf8(data: bytes) -> bool:
    return decodes_cleanly(data, "utf-8")


_CHUNK_BYTES = 1 << 20


def decodes_cleanly(data: bytes, codec: str, keep: bytes = b"") -> bool:
    """Whether all of `data` decodes with `codec`, read a megabyte at a time (a big file is never
    held twice); with `keep`, also whether each of those ASCII bytes stays itself (no multi-byte
    character takes it as its second byte)."""
    try:
        decoder = codecs.getincrementaldecoder(codec)()
    except LookupError:
        return False
    kept = 0
    try:
        for start in range(0, len(data), _CHUNK_BYTES):
            text = decoder.decode(data[start : start + _CHUNK_BYTES])
            kept += sum(text.count(chr(byte)) for byte in keep)
        text = decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    kept += sum(text.count(chr(byte)) for byte in keep)
    return kept == sum(data.count(bytes([byte])) for byte in keep)


# Charsets whose two-byte characters may end in an ASCII byte ('\\', ']'), with their lead bytes.
ASCII_TRAIL_LEADS: dict[str, bytes] = {
    "cp932": rb"[\x81-\x9f\xe0-\xfc]",
    "shift_jis": rb"[\x81-\x9f\xe0-\xfc]",
    "shift_jis_2004": rb"[\x81-\x9f\xe0-\xfc]",
    "shift_jisx0213": rb"[\x81-\x9f\xe0-\xfc]",
    "gb18030": rb"[\x81-\xfe]",
    "gbk": rb"[\x81-\xfe]",
    "big5": rb"[\x81-\xfe]",
    "big5hkscs": rb"[\x81-\xfe]",
    "cp950": rb"[\x81-\xfe]",
}


def decode_keeping(data: bytes, codec: str, keep: bytes = b"]", errors: str = "strict") -> str:
    """`data` decoded with `codec`, each byte of `keep` (ASCII) kept as itself: a byte before it that
    would take it into a two-byte character is read alone (as an error)."""
    text = data.decode(codec, errors=errors)
    if not keep or all(text.count(chr(byte)) == data.count(bytes([byte])) for byte in keep):
        return text
    # Only a byte outside ASCII can start a two-byte character: the file is cut after those alone.
    pieces = re.split(b"(?<=[\x80-\xff])([" + re.escape(keep) + b"])", data)  # text, kept byte, text, ...
    return "".join(piece.decode("ascii") if index % 2 else piece.decode(codec, errors=errors) for index, piece in enumerate(pieces))


def decode_error_count(data: bytes, codec: str, keep: bytes = b"", stop_above: int | None = None) -> int:
    """How many characters of `data` do not decode with `codec` (each would show as U+FFFD), each
    byte of `keep` kept as itself (see `decode_keeping`); read a megabyte at a time, cut at line
    ends (no multi-byte character holds one). With `stop_above`, counting stops past that many."""
    errors, start, size = 0, 0, len(data)
    while start < size and (stop_above is None or errors <= stop_above):
        end = min(size, start + _CHUNK_BYTES)
        if end < size:
            line_end = data.find(b"\n", end)
            end = size if line_end < 0 else line_end + 1
        chunk = data[start:end]
        text = chunk.decode(codec, errors="replace")
        # and a lone byte before each kept byte that a two-byte character took
        errors += text.count("\ufffd") + sum(chunk.count(bytes([byte])) - text.count(chr(byte)) for byte in keep)
        start = end
    return errors - data.count("\ufffd".encode())


def decode_errors(data: bytes, codec: str) -> int:
    """How many characters fail to decode with `codec` (0 = decodes cleanly)."""
    try:
        data.decode(codec)
        return 0
    except (UnicodeDecodeError, LookupError):
        pass
    text = data.decode(codec, errors="replace")
    return text.count("\ufffd") - data.decode("utf-8", errors="ignore").count("\ufffd")


def detect_codec(data: bytes, hint: str | None = None) -> str:
    """The best codec for non-UTF-8 bytes: a clean `hint` first, then charset-normalizer, then Latin-1."""
    if hint:
        try:
            data.decode(hint)
            return hint
        except (UnicodeDecodeError, LookupError):
            pass
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(
            data,
            cp_isolation=["gb18030", "cp949", "euc_kr", "cp932", "shift_jis", "euc_jp", "big5", "cp1252", "latin_1"],
        ).best()
    except Exception:  # a detector failure must never stop a file from opening
        best = None
    if best is not None:
        family = _DETECTED_FAMILIES.get(best.encoding.lower())
        if family:
            try:
                data.decode(family)
                return family
            except UnicodeDecodeError:
                pass
    for codec in ("gb18030", "cp949", "cp932"):
        if hint is None and _mostly_cjk(data, codec):
            return codec
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"


def _mostly_cjk(data: bytes, codec: str) -> bool:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return False
    high = [ch for ch in text if ord(ch) > 127]
    return bool(high) and sum(1 for ch in high if 0x3000 <= ord(ch) <= 0xD7AF) > 0.8 * len(high)


def decode_text(data: bytes, name: str, declared_codec: str | None = None) -> tuple[str, str]:
    """(text, encoding) for a line-based game file: UTF-16, UTF-8 (BOM or not), else guessed."""
    text, encoding, _doubt = decode_text_with_doubt(data, name, declared_codec)
    return text, encoding


def decode_text_with_doubt(data: bytes, name: str, declared_codec: str | None = None) -> tuple[str, str, str]:
    """`decode_text`, and the doubt about a charset chosen on too little text ("" when none):
    a declared charset the bytes agree with, else the likeliest reading (`choose_charset`)."""
    codec16 = utf16_codec(data)
    if codec16:
        return data.decode(codec16, errors="replace").lstrip("\ufeff"), codec16, ""
    data, had_bom = strip_utf8_bom(data)
    if looks_binary(data):
        raise GameFileError(f"{name}: binary data, not a game file")
    if data.isascii():
        return data.decode("ascii"), "ascii", ""
    if had_bom or is_utf8(data):
        return data.decode("utf-8", errors="replace"), "utf-8", ""
    if declared_codec and decode_errors(data, declared_codec) == 0:
        return data.decode(declared_codec), declared_codec, ""
    choice = choose_charset(data, (), declared_codec)
    return data.decode(choice.codec, errors="replace"), choice.codec, choice.doubt


# ---------------------------------------------------------------- short text in an undeclared charset

# Characters that tell a language in Go files: results, ranks, events, the commonest family names.
_TELLING = {
    "gb18030": set(
        "黑白胜负和中盘目半子段级第届杯赛局手先后贴让输赢围棋国家队冠军决循环名人天元"
        "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶"
        "程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方邹孟熊秦邱江尹薛闫雷侯龙史陶黎贺顾毛郝"
        "龚邵万钱严覃武戴莫孔向汤柯古常聂俞华檀辜芮洁力"
    ),
    "big5hkscs": set(
        "黑白勝負和中盤目半子段級第屆盃杯賽局手先後貼讓輸贏圍棋國家隊冠軍決循環名人天元"
        "王李張劉陳楊黃趙吳周徐孫馬朱胡郭何高林羅鄭梁謝宋唐許韓馮鄧曹彭曾蕭田董袁潘於蔣蔡余杜葉"
        "程蘇魏呂丁任沈姚盧姜崔鍾譚陸汪范金石廖賈夏韋方鄒孟熊秦邱江尹薛雷侯龍史陶黎賀顧毛郝龔邵萬"
        "錢嚴武戴莫孔向湯柯古常聶衛"
    ),
    "cp949": set(
        "흑백승패불계집반단급기회배결승전국수명인시간"
        "이김박최정강조윤장임한오서신권황안송류전홍고문양손허유남심노하곽성차주우구민진나지엄원천방"
        "공현함변염여추도소석선설마길연위표기왕금옥육맹제모탁어은편용예경봉사부가복태목형피두감음빈"
        "동온호범좌의는을를에다와과로으영호준혁수훈재상段級"
    ),
    "cp932": set(
        "黒白勝負中押目半段級期戦局手名人本因坊棋聖碁王座天元囲"
        "山田中川本井上藤原野村木林佐小島口松高石吉加伊宮斎清水森池橋内長谷岡大西近部後坂裕太郎治"
    ),
}
# Per character: how likely a reading's character is in a Go file (a rough probability).
_TELLS, _COMMON_HANGUL, _KANA, _COMMON, _PUNCTUATION, _RARE, _UNLIKELY = 1.0, 0.45, 0.9, 0.3, 0.3, 0.03, 0.002
_LATIN_IN_WORD, _LATIN_ALONE, _LATIN_ODD, _SYMBOL = 0.45, 0.1, 0.05, 0.01
_GLUED_TO_LATIN = 0.1  # a CJK character inside a word of Latin letters
# How often files without a charset come in each (Chinese collections and clients most).
_PRIORS = {"utf-8": 20.0, "gb18030": 3.0, "cp949": 1.5, "cp932": 1.0, "big5hkscs": 0.5, "cp1252": 1.0}
_HINTED = 10.0
SHORT_TEXT_CHARS = 12  # at most this many characters outside ASCII: too little text to be sure
_CLEAR_LEAD = math.log(20.0)
_TYPOGRAPHY = set("’‘“”–—…«»¡¿€£§°")
_ODD_LATIN = set("ŠŒŽšœžŸƒ")


@dataclass(frozen=True)
class CharsetChoice:
    """The charset chosen for bytes without a trustworthy declaration, and the doubt about it."""

    codec: str
    doubt: str = ""  # "" when the choice is clear, else a sentence naming the other reading


def _code(raw: bytes) -> int:
    return int.from_bytes(raw, "big")


def _cjk_weight(ch: str, codec: str) -> float:
    """How likely `ch`, read with a CJK `codec`, is in a Go file (see the weights above)."""
    if ch in _TELLING.get(codec, ()):
        return _TELLS
    raw = ch.encode(codec)
    code = _code(raw)
    if codec == "cp932":
        if len(raw) == 1:
            return _RARE / 3  # half-width katakana
        if 0x829F <= code <= 0x82F1 or 0x8340 <= code <= 0x8396:
            return _KANA
        if 0x889F <= code <= 0x9872:
            return _COMMON
        if 0x8140 <= code <= 0x81FC or 0x824F <= code <= 0x829A:
            return _PUNCTUATION
        if 0x989F <= code <= 0xEAA4:
            return _RARE
        return _UNLIKELY
    if len(raw) != 2 or raw[1] < 0xA1:
        return _UNLIKELY  # extensions, and pairs whose second byte is ASCII (GBK, UHC, Big5 only)
    lead = raw[0]
    if codec == "gb18030":
        if 0xB0 <= lead <= 0xD7:
            return _COMMON
        if 0xA1 <= lead <= 0xA3:
            return _PUNCTUATION
        return _RARE if 0xD8 <= lead <= 0xF7 or lead == 0xA4 else _UNLIKELY  # A4/A5: kana
    if codec == "cp949":
        if 0xB0 <= lead <= 0xC8:
            return _COMMON_HANGUL
        if 0xA1 <= lead <= 0xA3:
            return _PUNCTUATION
        return _RARE if 0xCA <= lead <= 0xFD or lead == 0xA4 else _UNLIKELY  # A4: jamo
    if codec == "big5hkscs":
        if 0xA440 <= code <= 0xC67E:
            return _COMMON * 0.8
        if 0xA140 <= code <= 0xA3BF:
            return _PUNCTUATION
        return _RARE if 0xC940 <= code <= 0xF9D5 else _UNLIKELY
    return _UNLIKELY


def _utf8_weight(text: str, index: int) -> float:
    """How likely a character of a UTF-8 reading is: CJK, kana and Hangul (three bytes each, rarely
    by chance) and letters of European scripts in words are; IPA, Armenian, ... are not."""
    ch = text[index]
    code = ord(ch)
    if 0x3000 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF:
        return _TELLS
    if code <= 0x24F or 0x370 <= code <= 0x4FF:  # Latin, Greek, Cyrillic
        return _latin_weight(text, index)
    if 0x2000 <= code <= 0x206F:
        return _PUNCTUATION
    return _SYMBOL


def _latin_weight(text: str, index: int) -> float:
    ch = text[index]
    if ch in _ODD_LATIN:
        return _LATIN_ODD
    if ch.isalpha():
        before = text[index - 1] if index else " "
        after = text[index + 1] if index + 1 < len(text) else " "
        return _LATIN_IN_WORD if before.isalpha() or after.isalpha() else _LATIN_ALONE
    if ch in _TYPOGRAPHY:
        return _PUNCTUATION
    return _SYMBOL


def reading_score(text: str, codec: str) -> float:
    """Log-likelihood of the characters outside ASCII of `text`, read with `codec`, in a Go file."""
    score = 0.0
    for index, ch in enumerate(text):
        if ord(ch) < 128:
            continue
        if codec == "cp1252":
            weight = _latin_weight(text, index)
        elif codec == "utf-8":
            weight = _utf8_weight(text, index)
        else:
            weight = _cjk_weight(ch, codec)
            before = text[index - 1] if index else " "
            after = text[index + 1] if index + 1 < len(text) else " "
            if (before.isascii() and before.isalpha()) or (after.isascii() and after.isalpha()):
                weight *= _GLUED_TO_LATIN
        score += math.log(weight)
    return score


def choose_charset(
    data: bytes,
    hints: tuple[str, ...] = (),
    declared: str | None = None,
    *,
    delimiters: bytes = b"",
    tolerate: int = 0,
) -> CharsetChoice:
    """The charset of bytes that are not UTF-8, from all of them: each clean reading in a Go server's
    charset (GB18030/GBK, CP949, Shift-JIS, Big5) or Windows-1252 is weighed by how likely its
    characters are in a Go file, times how common the charset is (more for `hints` and `declared`).
    With little text and a close second reading, the doubt names it. A reading in which a multi-byte
    character would take one of the ASCII `delimiters` (a format's brackets) is not clean. With
    `tolerate`, a reading with at most that many bad bytes (a stray byte of another charset) is
    weighed too, each bad byte counted as an unlikely character."""
    readings: dict[str, str] = {}
    bad_bytes: dict[str, int] = {}
    sample = sample_of(data)
    for codec in _PRIORS:
        if decodes_cleanly(data, codec, delimiters):
            readings[codec] = sample.decode(codec, errors="replace")
            bad_bytes[codec] = 0
        elif tolerate:
            errors = decode_error_count(data, codec, delimiters, stop_above=tolerate)
            if errors <= tolerate:
                readings[codec] = decode_keeping(sample, codec, delimiters, "replace").replace("\ufffd", "")
                bad_bytes[codec] = errors
    if not readings:
        return CharsetChoice(detect_codec(data))
    scores = {}
    for codec, text in readings.items():
        prior = _PRIORS[codec] * (_HINTED if codec in hints else 1.0) * (_HINTED if codec == declared else 1.0)
        scores[codec] = math.log(prior) + reading_score(text, codec) + bad_bytes[codec] * math.log(_UNLIKELY)
    ranked = sorted(scores, key=lambda codec: scores[codec], reverse=True)
    best = ranked[0]
    if len(ranked) == 1:
        return CharsetChoice(best)
    second = ranked[1]
    outside = [ch for ch in readings[best] if ord(ch) > 127]
    if len(outside) > SHORT_TEXT_CHARS or scores[best] - scores[second] >= _CLEAR_LEAD:
        return CharsetChoice(best)
    return CharsetChoice(
        best,
        f"too little text outside ASCII to be sure of its charset: read as {_NAMES[best]} "
        f"({_sample(readings[best])}); as {_NAMES[second]} it would read {_sample(readings[second])}",
    )


_READS_LIKELIER = math.log(3.0)
_DISTINCT_TO_OVERRIDE = 3  # characters outside ASCII another reading needs to replace a declared one


def weigh_declared_charset(
    data: bytes, declared: str, label: str, hints: tuple[str, ...] = (), *, delimiters: bytes = b""
) -> CharsetChoice:
    """A declared CJK charset the bytes decode under (but for a few bytes), weighed against the other CJK readings as
    `choose_charset` weighs them (the declared one counted as a hint): the reading shown, and, when
    another reads likelier, a sentence naming both (`label` is the declaration as written). Another
    reading replaces the declared one only with a clear lead (GB18030's common '柯洁' against
    EUC-KR's rare '온썅')."""
    if declared not in _PRIORS or declared in ("utf-8", "cp1252"):
        return CharsetChoice(declared)
    sample = sample_of(data)

    def score(codec: str, text: str, prior: float) -> float:
        return math.log(prior * (_HINTED if codec in hints else 1.0)) + reading_score(text, codec)

    declared_text = decode_keeping(sample, declared, delimiters, "replace")
    bad_bytes = declared_text.count("\ufffd")  # a few, tolerated in a declared charset
    declared_text = declared_text.replace("\ufffd", "")
    declared_score = score(declared, declared_text, _PRIORS[declared] * _HINTED) + bad_bytes * math.log(_UNLIKELY)
    others = {
        codec: sample.decode(codec, errors="replace")
        for codec in _PRIORS
        if codec not in (declared, "utf-8", "cp1252") and decodes_cleanly(data, codec, delimiters)
    }
    if not others:
        return CharsetChoice(declared)
    scores = {codec: score(codec, text, _PRIORS[codec]) for codec, text in others.items()}
    best = max(scores, key=lambda codec: scores[codec])
    lead = scores[best] - declared_score
    # How much likelier the other text reads, whatever the charsets' priors (a few names can lean
    # on a declaration's weight, yet read plainly better another way: '柯洁' against '온썅').
    reading_lead = reading_score(others[best], best) - reading_score(declared_text, declared) + bad_bytes * math.log(_UNLIKELY)
    if lead <= 0 and reading_lead < _READS_LIKELIER:
        return CharsetChoice(declared)
    as_declared = _sample(declared_text) or f"{bad_bytes} bytes that are not valid {label}"
    readings = f"{label} declared; the text reads as {_NAMES[best]} {_sample(others[best])}, as declared {as_declared}"
    distinct = {ch for ch in others[best] if ord(ch) > 127}
    if lead >= _CLEAR_LEAD and len(distinct) >= _DISTINCT_TO_OVERRIDE:
        return CharsetChoice(best, f"{readings}: shown as {_NAMES[best]}")
    return CharsetChoice(declared, f"{readings}: shown as declared")


_SAMPLE_BYTES = 1 << 16
_CUTS = re.compile(rb"[\n;(]")  # bytes no multi-byte character holds: samples are cut there


def sample_of(data: bytes) -> bytes:
    """A big file's beginning, two middles and end (each charset reads the same bytes); a small one whole."""
    if len(data) <= 4 * _SAMPLE_BYTES:
        return data
    pieces = []
    for start in (0, len(data) // 3, 2 * len(data) // 3, len(data) - _SAMPLE_BYTES):
        cut = _CUTS.search(data, start) if start else None
        begin = cut.start() if cut is not None else start
        end_cut = _CUTS.search(data, begin + _SAMPLE_BYTES)
        pieces.append(data[begin : end_cut.start() if end_cut is not None else len(data)])
    return b"\n".join(pieces)


_NAMES = {"utf-8": "UTF-8", "gb18030": "GB18030 (Chinese)", "cp949": "CP949 (Korean)", "cp932": "Shift-JIS (Japanese)", "big5hkscs": "Big5 (Chinese)", "cp1252": "Windows-1252 (Western)"}


def _sample(text: str) -> str:
    """The first words of `text` that hold characters outside ASCII, quoted."""
    words = re.findall(r"[^\s\[\]();]*[^\x00-\x7f][^\s\[\]();]*", text)
    return ", ".join(f"'{word}'" for word in words[:3])


# ---------------------------------------------------------------- 8-bit charsets of chess files

# Charsets of PGNs without UTF-8, by how often files come in each (Western databases most).
_EIGHT_BIT_PRIORS = {
    "cp1252": 30.0,
    "cp1251": 2.0,
    "cp1250": 2.0,
    "gb18030": 1.0,
    "iso8859-15": 0.3,
}
_EIGHT_BIT_NAMES = {
    "cp1252": "Windows-1252 (Western)",
    "cp1251": "Windows-1251 (Cyrillic)",
    "cp1250": "Windows-1250 (Central European)",
    "gb18030": "GBK/GB18030 (Chinese)",
    "iso8859-15": "ISO-8859-15 (Western, with €)",
}
# Letters outside ASCII that the languages written in each Latin charset use often.
_COMMON_LETTERS = {
    "cp1252": set("àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝ"),
    "iso8859-15": set("àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝŠšŽžŒœŸ"),
    "cp1250": set(
        "ąćęłńóśźżĄĆĘŁŃÓŚŹŻčďěňřšťůžČĎĚŇŘŠŤŮŽáéíúýÁÉÍÚÝőűŐŰöüÖÜäÄľĺŕĽĹŔăâîşţĂÂÎŞŢđĐ"
    ),
}
_LETTER_COMMON, _LETTER_RARE, _CROWDED, _MIXED_SCRIPT, _SYMBOL_IN_WORD, _SYMBOL_ALONE = 0.5, 0.1, 0.3, 0.01, 0.005, 0.1
_EIGHT_BIT_CLEAR_LEAD = math.log(10.0)
_WORD = re.compile(r"[^\s\[\]\"(){};,.:/0-9]+")


def _eight_bit_weights(word: str, codec: str) -> list[float]:
    """How likely each character outside ASCII of `word` is, read with `codec`, in a chess file."""
    letters = [ch for ch in word if ch.isalpha()]
    outside = [ch for ch in letters if ord(ch) > 127]
    ascii_letters = len(letters) - len(outside)
    # Latin words hold a few letters outside ASCII among plain ones; a word made of them is a misreading.
    crowded = len(letters) >= 3 and len(outside) > 0.6 * len(letters)
    weights = []
    for ch in word:
        if ord(ch) < 128:
            continue
        if codec == "gb18030":
            weight = _cjk_weight(ch, codec) if ord(ch) >= 0x2E80 else _SYMBOL_ALONE
            weights.append(weight * (_GLUED_TO_LATIN if ascii_letters else 1.0))
        elif not ch.isalpha():
            weights.append(_SYMBOL_IN_WORD if len(letters) else _SYMBOL_ALONE)
        elif codec == "cp1251":
            cyrillic = 0x400 <= ord(ch) <= 0x4FF
            weights.append(_LETTER_COMMON if cyrillic and not ascii_letters else _MIXED_SCRIPT)
        else:
            weight = _LETTER_COMMON if ch in _COMMON_LETTERS[codec] else _LETTER_RARE
            weights.append(weight * (_CROWDED if crowded else 1.0))
    return weights


def choose_eight_bit_charset(data: bytes) -> CharsetChoice:
    """The charset of chess text that is not UTF-8, from all its bytes: each clean reading in
    Windows-1252, -1251, -1250, GBK or ISO-8859-15 is weighed by how likely its words are (letters of
    its languages, one script per word, no symbols inside words), times how common the charset is.
    The doubt names the reading (and the runner-up) whenever the bytes leave room for another one."""
    sample = sample_of(data)
    scores: dict[str, float] = {}
    readings: dict[str, str] = {}
    for codec, prior in _EIGHT_BIT_PRIORS.items():
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError:
            continue
        score = math.log(prior)
        for word in _WORD.findall(text):
            if not word.isascii():
                score += sum(math.log(weight) for weight in _eight_bit_weights(word, codec))
        scores[codec], readings[codec] = score, text
    if not scores:
        return CharsetChoice("cp1252", "its bytes fit none of the usual charsets: read as Windows-1252 (Western)")
    ranked = sorted(scores, key=lambda codec: scores[codec], reverse=True)
    best = ranked[0]
    words = {codec: [word for word in _WORD.findall(text) if not word.isascii()] for codec, text in readings.items()}
    for second in ranked[1:]:
        if scores[best] - scores[second] >= _EIGHT_BIT_CLEAR_LEAD:
            break
        differ = [(ours, theirs) for ours, theirs in zip(words[best], words[second], strict=False) if ours != theirs]
        if differ:
            shown = ", ".join(f"'{ours}'" for ours, _theirs in differ[:3])
            other = ", ".join(f"'{theirs}'" for _ours, theirs in differ[:3])
            return CharsetChoice(
                best,
                f"not UTF-8, and its charset is a guess: read as {_EIGHT_BIT_NAMES[best]} ({shown}); "
                f"as {_EIGHT_BIT_NAMES[second]} it would read {other}",
            )
    if best != "cp1252":
        shown = ", ".join(f"'{word}'" for word in list(dict.fromkeys(words[best]))[:3])
        return CharsetChoice(best, f"not UTF-8: read as {_EIGHT_BIT_NAMES[best]}, the charset its bytes fit ({shown})")
    return CharsetChoice(best)


def eight_bit_sample(data: bytes | mmap.mmap) -> bytes:
    """The bytes of a (possibly memory-mapped) file that `choose_eight_bit_charset` weighs: its lines
    that are not UTF-8, from a big file's beginning, two middles and end; b"" when all is UTF-8."""
    size = len(data)
    if size <= 4 * _SAMPLE_BYTES:
        sample = bytes(data[:size])
    else:
        pieces = []
        for start in (0, size // 3, 2 * size // 3, size - _SAMPLE_BYTES):
            piece = bytes(data[start : min(size, start + _SAMPLE_BYTES)])
            if start:
                piece = piece[piece.find(b"\n") + 1 :]
            if start + _SAMPLE_BYTES < size:
                piece = piece[: piece.rfind(b"\n") + 1]
            pieces.append(piece)
        sample = b"\n".join(pieces)
    return b"\n".join(line for line in sample.split(b"\n") if not line.isascii() and not is_utf8(line))


def utf16_codec_by_text(data: bytes) -> str | None:
    """'utf-16-le'/'utf-16-be' for UTF-16 without a BOM whose text is mostly not ASCII (Cyrillic,
    CJK: fewer NUL bytes than `utf16_codec` looks for), when one reading is printable text; else None."""
    head = data[: SNIFF_BYTES - SNIFF_BYTES % 2]
    if len(head) < 16 or b"\x00" not in head:
        return None
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = head.decode(codec)
        except UnicodeDecodeError:
            continue
        printable = sum(1 for ch in text if ch.isprintable() or ch in "\r\n\t")
        if printable >= 0.98 * len(text) and sum(1 for ch in text if ch.isascii()) >= 0.1 * len(text):
            return codec
    return None
