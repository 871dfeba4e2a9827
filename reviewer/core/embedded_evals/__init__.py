"""Evaluations a game file already carries, so that a reviewed file shows its review without an
engine: Reviewer's own record (SGF `RVW[...]`, PGN `[%rvw ...]`), and what each game's files carry
by other programs (its support's `embedded_ref`): lichess's `[%eval ...]` comments for chess
(`embedded_evals/pgn.py`), Sabaki's SBKV/SBKS properties for Go.
"""

from __future__ import annotations

import re
from typing import assert_never

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Game, Node

EMBEDDED_ENGINE_ID = "pgn-comments"

EVAL_COMMAND = re.compile(
    r"\[%eval\s+(?:(?:#\s*|(?P<m_sign>[+-]?)M)(?P<mate>[+-]?\d+)|(?P<pawns>[+-]?(?:\d+(?:\.\d*)?|\.\d+)))"
    r"(?:\s*,\s*(?P<depth>\d+))?\s*\]"
)

# ---------------------------------------------------------------- any game, as exported by Reviewer

SGF_PROPERTIES_ENGINE_ID = "sgf-properties"  # evaluations read from Sabaki's SBKV/SBKS


def evaluations_from_game(game: Game) -> EvaluationTable:
    """The evaluations an opened file carries, so a reviewed file shows its review without an engine.

    Per main-line position (the root is P0), the best source wins: Reviewer's own full record
    (SGF `RVW[...]`, PGN `[%rvw ...]`; see reviewer.core.export.codec), else Sabaki's
    `SBKV`/`SBKS` (Go), else lichess's `[%eval ...]` (chess, with game-over positions filled in).
    An `[%eval]` that is not plausible is left out with a warning on `game.warnings`.
    """
    support = game_support(game.kind)
    table = support.embedded_ref.get()(game, game.warnings) if support.embedded_ref else EvaluationTable()
    for record in reviewer_records(game).ordered():
        table.add(record)
    table.variations = {**table.variations, **variation_records(game)}
    return table


def variation_records(game: Game) -> dict[Node, Evaluation]:
    """The evaluations of the positions off the main line that Reviewer's own record (RVW /
    [%rvw], complete with its engine) or Sabaki's SBKV/SBKS give, by node (`ply`: the node's depth)."""
    from reviewer.core.export.codec import CodecError, decode_evaluation

    found: dict[Node, Evaluation] = {}
    stack = list(game.root.children[1:])
    for node in game.root.mainline():
        stack.extend(node.children[1:])
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        evaluation: Evaluation | None = None
        text = _reviewer_record(game, node)
        if text is not None:
            try:
                evaluation = decode_evaluation(text, node.ply, game.kind, "")
            except CodecError:
                evaluation = None
        evaluation = evaluation or _sabaki_evaluation(node, node.ply)
        if evaluation is not None:
            found[node] = evaluation
    return found


def sabaki_evaluations(game: Game, warnings: list[str] | None = None) -> EvaluationTable:
    """Sabaki's SBKV/SBKS of every main-line position (Go)."""
    table = EvaluationTable()
    for ply, node in enumerate([game.root, *game.mainline_nodes()]):
        sabaki = _sabaki_evaluation(node, ply)
        if sabaki is not None:
            table.add(sabaki)
    return table


def reviewer_records(game: Game) -> EvaluationTable:
    """Only the main-line positions that carry Reviewer's own record (RVW / [%rvw]), decoded.

    A record without an engine id takes the one of the record before it on the main line; a
    record of an unknown version or a broken one is skipped.
    """
    from reviewer.core.export.codec import CodecError, decode_evaluation

    table = EvaluationTable()
    engine_id = ""
    for ply, node in enumerate([game.root, *game.mainline_nodes()]):
        text = _reviewer_record(game, node)
        if text is None:
            continue
        try:
            evaluation = decode_evaluation(text, ply, game.kind, engine_id)
        except CodecError:
            continue
        engine_id = evaluation.engine_id
        table.add(evaluation)
    return table


_RVW_COMMAND = re.compile(r"\[%rvw\s+(?P<text>[^\]\s]+)\s*\]")


def _reviewer_record(game: Game, node: Node) -> str | None:
    store = game_support(game.kind).record_store
    if store == "property":
        values = node.properties.get("RVW")
        return values[0] if values else None
    if store == "comment":
        match = _RVW_COMMAND.search(node.comment or "")
        return match["text"] if match else None
    assert_never(store)


def _sabaki_evaluation(node: Node, ply: int) -> Evaluation | None:
    def number(ident: str) -> float | None:
        values = node.properties.get(ident)
        if not values:
            return None
        try:
            value = float(values[0].strip())
        except ValueError:
            return None
        return value if value == value and abs(value) != float("inf") else None

    winrate_pct = number("SBKV")
    lead = number("SBKS")
    if winrate_pct is None and lead is None:
        return None
    winrate = None if winrate_pct is None else min(1.0, max(0.0, winrate_pct / 100))
    return Evaluation(
        ply=ply, kind="go", engine_id=SGF_PROPERTIES_ENGINE_ID, winrate_first=winrate, score_lead_first=lead
    )


def has_embedded_evaluations(game: Game) -> bool:
    """Whether the file carries any evaluation of its own: [%eval]/[%rvw] (chess), RVW/SBKV/SBKS (Go)."""
    nodes = [game.root, *game.mainline_nodes()]
    if game_support(game.kind).record_store == "property":
        return any(ident in node.properties for node in nodes for ident in ("RVW", "SBKV", "SBKS"))
    return any(EVAL_COMMAND.search(node.comment or "") or _RVW_COMMAND.search(node.comment or "") for node in nodes)
