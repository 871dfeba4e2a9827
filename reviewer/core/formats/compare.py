"""Comparing two games field by field: what a round trip through a file must keep."""

from __future__ import annotations

from reviewer.core.gametree import Game, Node

ROOT_KEYS_REWRITTEN = {"CA", "GM", "FF"}  # writing SGF always declares UTF-8 and the game type


def _node_record(node: Node, is_root: bool) -> tuple[object, ...]:
    properties = {k: v for k, v in node.properties.items() if not (is_root and k in ROOT_KEYS_REWRITTEN)}
    return (
        node.move,
        node.color,
        node.uci,
        node.point,
        node.comment,
        node.comment_before,
        tuple(node.nags),
        tuple(node.shapes),
        tuple(sorted(properties.items())),
        tuple(node.setup_black),
        tuple(node.setup_white),
        tuple(node.setup_empty),
        len(node.children),
    )


def tree_records(game: Game) -> list[tuple[object, ...]]:
    """Every node in depth-first order, children in order (iterative: OGS trees are deep)."""
    records = []
    stack = [game.root]
    while stack:
        node = stack.pop()
        records.append(_node_record(node, node is game.root))
        stack.extend(reversed(node.children))
    return records


def game_fields(game: Game) -> dict[str, object]:
    headers = {k: v for k, v in game.headers.items() if not (game.kind == "go" and k in ROOT_KEYS_REWRITTEN)}
    return {
        "kind": game.kind,
        "headers": headers,
        "white": game.white,
        "black": game.black,
        "white_rank": game.white_rank,
        "black_rank": game.black_rank,
        "result": game.result,
        "date": game.date,
        "event": game.event,
        "start_fen": game.start_fen,
        "chess960": game.chess960,
        "variant": game.variant,
        "board": (game.board_width, game.board_height),
        "komi": game.komi,
        "rules": game.rules,
        "handicap": game.handicap,
        "setup_black": sorted(game.setup_black),
        "setup_white": sorted(game.setup_white),
        "first_player": game.first_player,
    }


def game_differences(first: Game, second: Game) -> list[str]:
    """What differs between two games (metadata, then nodes in depth-first order); [] when nothing."""
    differences = []
    fields_a, fields_b = game_fields(first), game_fields(second)
    for name in fields_a:
        if fields_a[name] != fields_b[name]:
            differences.append(f"{name}: {fields_a[name]!r} != {fields_b[name]!r}")
    records_a, records_b = tree_records(first), tree_records(second)
    if len(records_a) != len(records_b):
        differences.append(f"node count: {len(records_a)} != {len(records_b)}")
    for index, (a, b) in enumerate(zip(records_a, records_b)):
        if a != b:
            differences.append(f"node {index}: {a!r} != {b!r}")
            break
    return differences
