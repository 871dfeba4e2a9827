"""Tygem `.gib` files: a header of `\\[KEY=value\\]` lines, then `STO` lines, one per move.

Read into the same SGF-shaped tree as `.sgf` files (PB/PW/BR/WR/RE/KM/HA/AB/DT properties and
B/W moves), so the game writes back to SGF with nothing special. Komi comes from GONGJE (tenths),
the result from GRLT/ZIPSU (0 B+n, 1 W+n, 3 B+R, 4 W+R, 7 B+T, 8 W+T), handicap stones from the
INI line, placed where Tygem puts them.
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

_HEADER = re.compile(r"^\\\[([A-Z0-9_]+)=(.*?)\\\]\s*$")
_NAME_RANK = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")
_RESULTS = {3: "B+R", 4: "W+R", 7: "B+T", 8: "W+T"}


def split_name_rank(text: str) -> tuple[str, str]:
    match = _NAME_RANK.match(text.strip())
    if match:
        return match.group(1).strip(), match.group(2).strip()
    return text.strip(), ""


def _info_fields(value: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for part in value.split(","):
        key, sep, item = part.strip().partition(":")
        if sep:
            fields[key.strip()] = item.strip()
    return fields


def _result(code: str, margin_tenths: str) -> str:
    try:
        kind = int(code)
    except ValueError:
        return ""
    if kind in _RESULTS:
        return _RESULTS[kind]
    if kind in (0, 1):
        try:
            margin = int(margin_tenths) / 10
        except ValueError:
            return "B+" if kind == 0 else "W+"
        return f"{'B' if kind == 0 else 'W'}+{margin:g}"
    return ""


def raw_tree_from_gib(text: str, name: str) -> tuple[RawNode, list[str]]:
    warnings: list[str] = []
    headers: dict[str, str] = {}
    moves: list[tuple[str, int, int]] = []  # colour, column from the left, row from the top
    handicap = 0
    seen_game = False
    for line in text.splitlines():
        line = line.strip()
        header = _HEADER.match(line)
        if header:
            headers[header.group(1)] = header.group(2).strip()
            continue
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "INI":
            seen_game = True
            if len(parts) >= 4 and parts[3].isdigit():
                handicap = int(parts[3])
        elif parts[0] == "STO" and len(parts) >= 6:
            seen_game = True
            try:
                color_code, x, y = int(parts[3]), int(parts[4]), int(parts[5])
            except ValueError:
                warnings.append(f"{name}: unreadable move line {line!r}; skipped")
                continue
            moves.append(("B" if color_code == 1 else "W", x, y))
        elif parts[0] == "SKI" and len(parts) >= 4:
            seen_game = True
            moves.append(("B" if parts[3] == "1" else "W", -1, -1))
    if not headers and not seen_game:
        raise GameFileError(f"{name}: not a Tygem .gib file (no header or moves found)")

    size = 19
    root = new_root(size)
    props = root.props
    for key, ident_name, ident_rank in (("GAMEBLACKNAME", "PB", "BR"), ("GAMEWHITENAME", "PW", "WR")):
        if headers.get(key):
            player, rank = split_name_rank(headers[key])
            set_player(props, ident_name, ident_rank, player, rank.lower())
    main = _info_fields(headers.get("GAMEINFOMAIN", ""))
    result = _result(main.get("GRLT", ""), main.get("ZIPSU", ""))
    if not result and headers.get("GAMETAG"):
        tag = headers["GAMETAG"]
        grlt = re.search(r",W(\d+),", tag)
        zipsu = re.search(r",Z(\d+),", tag)
        if grlt:
            result = _result(grlt.group(1), zipsu.group(1) if zipsu else "")
    if result:
        props["RE"] = [result]
    gongje = main.get("GONGJE")
    if gongje is None and headers.get("GAMEGONGJE"):
        gongje = headers["GAMEGONGJE"]
    if gongje and gongje.lstrip("-").isdigit():
        props["KM"] = [f"{int(gongje) / 10:g}"]
    date_match = re.search(r"(\d{4})\D+(\d{1,2})\D+(\d{1,2})", headers.get("GAMEDATE", ""))
    if not date_match:
        date_match = re.search(r"C(\d{4}):(\d{2}):(\d{2})", headers.get("GAMETAG", ""))
    if date_match:
        set_date(props, *date_match.groups())
    if headers.get("GAMENAME"):
        props["GN"] = [headers["GAMENAME"]]
    if headers.get("GAMEPLACE"):
        props["PC"] = [headers["GAMEPLACE"]]
    set_handicap_stones(props, size, handicap)
    chain: list[tuple[str, Point | None]] = [(color, point_on_board(size - 1 - y, x, size)) for color, x, y in moves]
    add_move_chain(root, chain, size)
    return root, warnings


class GibCollection(ServerRecordCollection):
    def __init__(self, path: str | None, data: bytes) -> None:
        super().__init__(path, data, "gib", "tygem", raw_tree_from_gib)
