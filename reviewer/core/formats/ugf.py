"""PandaNet `.ugf` / `.ugi` files: `[Header]` key=value lines, `[Data]` move lines, review comments.

Moves read `QP,B1,1,0`: column letter (A = left, no letter skipped), row letter (A = bottom), colour,
move number. A point off the board is a pass. `[ReviewComment]` blocks `.Comment,N` attach to node N
(node 1 is the start, node N the move N-1). `[ReviewNode]` lists the same moves again and is ignored.
"""

from __future__ import annotations

from reviewer.core.errors import GameFileError
from reviewer.core.formats.go_records import (
    ServerRecordCollection,
    add_move_chain,
    new_root,
    point_on_board,
    set_player,
)
from reviewer.core.formats.sgf import RawNode
from reviewer.core.formats.textio import codec_for_charset
from reviewer.core.gametree import Point

_RULES = {"JPN": "Japanese", "CHN": "Chinese", "KOR": "Korean", "ING": "Ing", "AGA": "AGA", "NZ": "NZ"}


def raw_tree_from_ugf(text: str, name: str) -> tuple[RawNode, list[str]]:
    warnings: list[str] = []
    headers: dict[str, str] = {}
    moves: list[tuple[str, str]] = []
    comments: dict[int, list[str]] = {}
    section = ""
    comment_node: int | None = None
    for raw_line in text.splitlines():
        line = raw_line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            comment_node = None
            continue
        if section == "Header":
            key, sep, value = line.partition("=")
            if sep:
                headers[key.strip()] = value.strip()
        elif section == "Data" and line:
            parts = line.split(",")
            if len(parts) >= 2 and len(parts[0]) == 2 and parts[1][:1] in ("B", "W"):
                moves.append((parts[0].upper(), parts[1][0]))
            else:
                warnings.append(f"{name}: unreadable move line {line!r}; skipped")
        elif section == "ReviewComment":
            if line.startswith(".Comment,"):
                try:
                    comment_node = int(line.split(",")[1])
                except (IndexError, ValueError):
                    comment_node = None
            elif comment_node is not None and line:
                comments.setdefault(comment_node, []).append(line)
    if not headers and not moves:
        raise GameFileError(f"{name}: not a PandaNet .ugf/.ugi file (no [Header] or [Data] found)")

    size = int(headers.get("Size", "19") or 19)
    root = new_root(size)
    props = root.props
    for key, ident_name, ident_rank in (("PlayerB", "PB", "BR"), ("PlayerW", "PW", "WR")):
        parts = headers.get(key, "").split(",")
        set_player(props, ident_name, ident_rank, parts[0].strip(), parts[1].strip() if len(parts) > 1 else "")
    handicap_komi = headers.get("Hdcp", "").split(",")
    if handicap_komi[0].strip().isdigit() and int(handicap_komi[0]) >= 2:
        props["HA"] = [handicap_komi[0].strip()]
    if len(handicap_komi) > 1 and handicap_komi[1].strip():
        try:
            props["KM"] = [f"{float(handicap_komi[1]):g}"]
        except ValueError:
            warnings.append(f"{name}: unreadable komi {handicap_komi[1]!r}; ignored")
    rule = headers.get("Rule", "").strip()
    if rule:
        props["RU"] = [_RULES.get(rule.upper(), rule)]
    date = headers.get("Date", "").split(",")[0].strip()
    if date:
        props["DT"] = [date.replace("/", "-")]
    winner = headers.get("Winner", "").split(",")
    if winner[0].strip() in ("B", "W"):
        margin = winner[1].strip() if len(winner) > 1 else ""
        try:
            margin = f"{float(margin):g}"
        except ValueError:
            margin = {"RESIGN": "R", "TIME": "T"}.get(margin.upper(), margin[:1].upper())
        props["RE"] = [f"{winner[0].strip()}+{margin}"]
    title = headers.get("Title", "").strip(", ")
    if title:
        props["GN"] = [title]
    if headers.get("Place"):
        props["PC"] = [headers["Place"]]
    if headers.get("Copyright"):
        props["CP"] = [headers["Copyright"]]
    if 1 in comments:
        props["C"] = ["\n".join(comments[1])]

    chain: list[tuple[str, Point | None]] = [
        (color, point_on_board(ord(coords[1]) - ord("A"), ord(coords[0]) - ord("A"), size)) for coords, color in moves
    ]
    for number, node in enumerate(add_move_chain(root, chain, size), start=1):
        if number + 1 in comments:
            node.props["C"] = ["\n".join(comments[number + 1])]
    return root, warnings


_LANGUAGES = {"SJIS": "shift_jis", "GB": "gb18030", "KOR": "cp949"}


class UgfCollection(ServerRecordCollection):
    def __init__(self, path: str | None, data: bytes) -> None:
        head = data[:2000].decode("ascii", errors="ignore")
        declared = None
        for line in head.splitlines():
            if line.startswith("Lang="):
                language = line[5:].strip()
                declared = codec_for_charset(_LANGUAGES.get(language.upper(), language))
        super().__init__(path, data, "ugf", "pandanet", raw_tree_from_ugf, declared)
