"""Bytes of a game file -> text: BOMs, declared charsets, detection, and telling binary apart."""

from __future__ import annotations

import codecs
import os
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
    """'utf-16-le'/'utf-16-be' when the bytes are UTF-16 (BOM, or NULs in every other byte)."""
    if data.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le"
    if data.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be"
    head = data[:SNIFF_BYTES]
    if len(head) >= 8:
        even_nuls = head[0::2].count(0)
        odd_nuls = head[1::2].count(0)
        half = len(head) // 2
        if odd_nuls > 0.9 * half and even_nuls < 0.1 * half:
            return "utf-16-le"
        if even_nuls > 0.9 * half and odd_nuls < 0.1 * half:
            return "utf-16-be"
    return None


def looks_binary(data: bytes) -> bool:
    """True for data no text game file has: NUL bytes or mostly control characters near the start."""
    head = data[:SNIFF_BYTES]
    if b"\x00" in head:
        return True
    controls = sum(1 for byte in head if byte < 32 and byte not in (9, 10, 12, 13, 26))
    return controls > max(8, len(head) // 20)


def strip_utf8_bom(data: bytes) -> tuple[bytes, bool]:
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):], True
    return data, False


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


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
    codec16 = utf16_codec(data)
    if codec16:
        return data.decode(codec16, errors="replace").lstrip("\ufeff"), codec16
    data, had_bom = strip_utf8_bom(data)
    if looks_binary(data):
        raise GameFileError(f"{name}: binary data, not a game file")
    if data.isascii():
        return data.decode("ascii"), "ascii"
    if had_bom or is_utf8(data):
        return data.decode("utf-8", errors="replace"), "utf-8"
    codec = detect_codec(data, hint=declared_codec)
    return data.decode(codec, errors="replace"), codec
