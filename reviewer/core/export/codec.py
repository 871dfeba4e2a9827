"""The compact text form of one `Evaluation` that exported files carry (format version 1).

It is what the SGF property `RVW[...]` and the PGN command `[%rvw ...]` hold, so that Reviewer
reopens an exported file with every figure the engine gave, and nothing to recompute:

    1;e=KataGo%201.15%20%7C%20visits=200;s=3.25;w=0.6812;tm=b;b=D4;pv=D4/C3/E3;n=200;c=D4,0,120,0.31,,,3.25,0.6812,D4/C3

- fields are separated by `;`, the first one is the format version (`1`); then `key=value`
  pairs split at the first `=` (SAN promotions such as `e8=Q` keep theirs); unknown keys are
  skipped, so later versions can add keys without breaking readers of this one;
- every value is percent-encoded outside `A-Z a-z 0-9 . - + # = _ : @ ! ?` (UTF-8 bytes as `%XX`),
  so no value holds `;` `|` `,` `/` `]` `}` `\\` or white space;
- numbers are written exactly: integers as integers, floats in Python's shortest round-trip form;
- `pv` is the line as moves separated by `/`; `wdl` is `win/draw/loss` permille;
- `c` holds the candidates separated by `|`, each one the positional fields
  `move,order,visits,prior,cp,mate,lead,winrate,pv` (an empty field is unknown);
- an unknown value is left out; the ply and the game kind come from where the text sits;
- `p` is the pass of a review in passes that gave the evaluation (absent for a one-pass review);
- `e` (the engine id) is left out when it equals the one of the previous evaluated position of
  the main line; a reader carries it forward.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, unquote

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.gametree import GameKind

FORMAT_VERSION = "1"
_SAFE = ".-+#=_:@!?"
_VERSION_FIELD = re.compile(r"^\d+$")

_EVAL_KEYS: dict[str, str] = {
    "cp": "score_cp_first",
    "m": "mate_first",
    "s": "score_lead_first",
    "w": "winrate_first",
    "d": "depth",
    "n": "nodes",
    "t": "seconds",
    "p": "review_pass",
}
_INT_FIELDS = {"score_cp_first", "mate_first", "depth", "nodes", "review_pass"}
_SIDES = {"w": "white", "b": "black"}
_TERMINALS = ("checkmate", "stalemate", "draw")
_CANDIDATE_FIELDS = ("move", "order", "visits", "prior", "score_cp_first", "mate_first", "score_lead_first", "winrate_first", "pv")


class CodecError(ValueError):
    """The text is not a version-1 evaluation."""


def _quote(text: str) -> str:
    return quote(text, safe=_SAFE)


def _number(value: int | float) -> str:
    if isinstance(value, bool):
        raise TypeError("a flag is not a number")
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        raise ValueError(f"cannot store {value!r}")
    return repr(float(value))


def _line(moves: tuple[str, ...]) -> str:
    return "/".join(_quote(move) for move in moves)


def encode_evaluation(evaluation: Evaluation, previous_engine_id: str | None = None) -> str:
    """The version-1 text of `evaluation`; `e=` only when its engine id differs from the previous one."""
    fields = [FORMAT_VERSION]
    if evaluation.engine_id and evaluation.engine_id != previous_engine_id:
        fields.append("e=" + _quote(evaluation.engine_id))
    for key, name in _EVAL_KEYS.items():
        value = getattr(evaluation, name)
        if value is not None:
            fields.append(f"{key}={_number(value)}")
    if evaluation.wdl_first is not None:
        fields.append("wdl=" + "/".join(str(int(v)) for v in evaluation.wdl_first))
    if evaluation.side_to_move is not None:
        fields.append("tm=" + evaluation.side_to_move[0])
    if evaluation.terminal is not None:
        fields.append("x=" + evaluation.terminal)
    if evaluation.best_move is not None:
        fields.append("b=" + _quote(evaluation.best_move))
    if evaluation.pv:
        fields.append("pv=" + _line(evaluation.pv))
    if evaluation.candidates:
        fields.append("c=" + "|".join(_encode_candidate(c) for c in evaluation.candidates))
    return ";".join(fields)


def _encode_candidate(candidate: Candidate) -> str:
    parts = []
    for name in _CANDIDATE_FIELDS:
        value = getattr(candidate, name)
        if name == "move":
            parts.append(_quote(value))
        elif name == "pv":
            parts.append(_line(value))
        else:
            parts.append("" if value is None else _number(value))
    return ",".join(parts).rstrip(",")


def decode_evaluation(text: str, ply: int, kind: GameKind, previous_engine_id: str = "") -> Evaluation:
    """The Evaluation of version-1 `text`; raises CodecError for another version or broken text."""
    fields = text.strip().split(";")
    if not fields or not _VERSION_FIELD.match(fields[0]):
        raise CodecError("no format version")
    if fields[0] != FORMAT_VERSION:
        raise CodecError(f"format version {fields[0]} is not known here")
    values: dict[str, Any] = {"ply": ply, "kind": kind, "engine_id": previous_engine_id}
    try:
        for field in fields[1:]:
            if not field:
                continue
            key, _, raw = field.partition("=")
            if key == "e":
                values["engine_id"] = unquote(raw)
            elif key in _EVAL_KEYS:
                name = _EVAL_KEYS[key]
                values[name] = _parse_number(raw, name in _INT_FIELDS)
            elif key == "wdl":
                wdl = tuple(int(v) for v in raw.split("/"))
                if len(wdl) != 3:
                    raise CodecError(f"wdl needs three numbers: {raw!r}")
                values["wdl_first"] = wdl
            elif key == "tm":
                if raw not in _SIDES:
                    raise CodecError(f"side to move {raw!r}")
                values["side_to_move"] = _SIDES[raw]
            elif key == "x":
                if raw not in _TERMINALS:
                    raise CodecError(f"terminal {raw!r}")
                values["terminal"] = raw
            elif key == "b":
                values["best_move"] = unquote(raw)
            elif key == "pv":
                values["pv"] = _parse_line(raw)
            elif key == "c":
                values["candidates"] = tuple(_decode_candidate(part) for part in raw.split("|") if part)
    except (TypeError, ValueError) as error:
        if isinstance(error, CodecError):
            raise
        raise CodecError(str(error)) from error
    return Evaluation(**values)


def _parse_number(raw: str, integer: bool) -> int | float:
    if integer:
        return int(raw)
    value = float(raw)
    if not math.isfinite(value):
        raise CodecError(f"not a finite number: {raw!r}")
    return value


def _parse_line(raw: str) -> tuple[str, ...]:
    return tuple(unquote(move) for move in raw.split("/") if move)


def _decode_candidate(text: str) -> Candidate:
    parts = text.split(",")
    parts += [""] * (len(_CANDIDATE_FIELDS) - len(parts))
    values: dict[str, Any] = {}
    parsers: dict[str, Callable[[str], Any]] = {
        "move": unquote,
        "order": int,
        "visits": int,
        "prior": float,
        "score_cp_first": int,
        "mate_first": int,
        "score_lead_first": float,
        "winrate_first": float,
        "pv": _parse_line,
    }
    for name, raw in zip(_CANDIDATE_FIELDS, parts, strict=False):  # fields a newer writer added are ignored
        if name in ("move", "order"):
            values[name] = parsers[name](raw)
        elif name == "pv":
            values[name] = _parse_line(raw)
        elif raw != "":
            values[name] = parsers[name](raw)
    if not values["move"]:
        raise CodecError("a candidate without a move")
    return Candidate(**values)
