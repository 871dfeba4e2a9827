"""WBaduk / Cyberoro `.ngf` files: twelve header lines, then `PM` move lines.

Header lines (0-based): 0 title, 1 board size, 2 White "name rank", 3 Black "name rank", 4 site,
5 handicap, 6 unused, 7 komi (whole points; an even game adds the half point), 8 date
"YYYYMMDD [hh:mm]", 9 unused, 10 result text, 11 move count. A variant writes every header line
with a `GI` prefix and no site/result lines (title, White, Black, -, -, date, size, handicap, -,
komi, moves). Moves: `PM` + 2 letters of move number + colour + 4 letters of coordinates, where
`B` is the first line: `PMABBREER` is Black at column 16, row 3 from the top (Q16).
"""

from __future__ import annotations

import re

from reviewer.core.errors import GameFileError
from reviewer.core.formats.go_records import (
    ServerRecordCollection,
    add_move_chain,
    new_root,
    point_on_board,
    set_date,
    set_handicap_stones,
    set_player,
)
from reviewer.core.formats.sgf import RawNode
from reviewer.core.gametree import Point

_RANK = re.compile(r"^(\d+)\s*([KkDdPp段级級단급])?(P)?\*?$")


def _rank(text: str) -> str:
    """'9DP' -> '9p', '7D*' -> '7d', '15K' -> '15k'; anything else as written."""
    token = text.strip()
    if token.upper().endswith("DP"):
        return token[:-2] + "p"
    token = token.rstrip("*")
    if token[:-1].isdigit() and token[-1:].upper() in ("K", "D", "P"):
        return token[:-1] + token[-1].lower()
    return token


def _name_rank(line: str) -> tuple[str, str]:
    parts = line.split()
    if len(parts) >= 2:
        return " ".join(parts[:-1]), _rank(parts[-1])
    return (parts[0] if parts else ""), ""


def _int(text: str, default: int) -> int:
    match = re.match(r"\s*(-?\d+)", text)
    return int(match.group(1)) if match else default


def _result(text: str) -> str:
    lowered = text.lower()
    winner = ""
    if "white win" in lowered or "black lose" in lowered or ("白" in text and "胜" in text):
        winner = "W"
    elif "black win" in lowered or "white lose" in lowered or ("黑" in text and "胜" in text):
        winner = "B"
    if not winner:
        return ""
    if "resign" in lowered or "中押" in text:
        return f"{winner}+R"
    if "time" in lowered:
        return f"{winner}+T"
    numbers = re.findall(r"\d+(?:\.\d+)?", text)
    return f"{winner}+{float(numbers[-1]):g}" if numbers else f"{winner}+"


def raw_tree_from_ngf(text: str, name: str) -> tuple[RawNode, list[str]]:
    warnings: list[str] = []
    lines = [line.rstrip("\r") for line in text.split("\n")]
    moves = [line.strip() for line in lines if line.strip().startswith("PM") and len(line.strip()) >= 9]
    header = [line.strip() for line in lines if not line.strip().startswith("PM")]
    if not moves and len(header) < 8:
        raise GameFileError(f"{name}: not an .ngf file (no header or moves found)")

    if header and header[0].startswith("GI"):
        fields = [line[2:].strip() for line in header if line.startswith("GI")]
        fields += [""] * (11 - len(fields))
        title, white, black, date_text = fields[0], fields[1], fields[2], fields[5]
        size, handicap, komi_whole = _int(fields[6], 19), _int(fields[7], 0), _int(fields[9], 0)
        result_text = ""
        site = ""
    else:
        fields = header + [""] * (12 - len(header))
        title, white, black, site = fields[0], fields[2], fields[3], fields[4]
        size, handicap, komi_whole = _int(fields[1], 19), _int(fields[5], 0), _int(fields[7], 0)
        date_text, result_text = fields[8], fields[10]

    root = new_root(size)
    props = root.props
    for line, ident_name, ident_rank in ((white, "PW", "WR"), (black, "PB", "BR")):
        set_player(props, ident_name, ident_rank, *_name_rank(line))
    komi = float(komi_whole) + (0.5 if handicap == 0 and komi_whole else 0.0)
    if komi:
        props["KM"] = [f"{komi:g}"]
    date = re.match(r"(\d{4})-?(\d{1,2})-?(\d{1,2})", date_text.replace(" ", ""))
    if date:
        set_date(props, *date.groups())
    if title:
        props["GN"] = [title]
    if site:
        props["PC"] = [site]
    result = _result(result_text)
    if result:
        props["RE"] = [result]
    set_handicap_stones(props, size, handicap)
    chain: list[tuple[str, Point | None]] = []
    for line in moves:
        color = line[4]
        if color not in "BW":
            warnings.append(f"{name}: unreadable move line {line!r}; skipped")
            continue
        x, y = ord(line[5]) - ord("B"), ord(line[6]) - ord("B")
        chain.append((color, point_on_board(size - 1 - y, x, size)))
    add_move_chain(root, chain, size)
    return root, warnings


class NgfCollection(ServerRecordCollection):
    def __init__(self, path: str | None, data: bytes) -> None:
        super().__init__(path, data, "ngf", "wbaduk", raw_tree_from_ngf)
