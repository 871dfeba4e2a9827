"""What the PGN and SGF exporters share: copying a game, naming the engine, the annotator text."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping

from reviewer import __version__
from reviewer.core.analysis import EvaluationTable
from reviewer.core.coverage import AnalysisBasis, select_analysis, withhold_labels
from reviewer.core.gametree import Game, Node
from reviewer.core.scoring import GameAssessment, assess_game

MAX_LINE_PLIES = 12  # the engine's best line is written up to this many moves
ANNOTATOR_PREFIX = "Reviewer"


def copy_node(node: Node) -> Node:
    """A copy of one node without its parent and children."""
    return Node(
        move=node.move,
        color=node.color,
        uci=node.uci,
        point=node.point,
        comment=node.comment,
        comment_before=node.comment_before,
        nags=list(node.nags),
        shapes=list(node.shapes),
        properties={ident: list(values) for ident, values in node.properties.items()},
        setup_black=list(node.setup_black),
        setup_white=list(node.setup_white),
        setup_empty=list(node.setup_empty),
        clock_s=node.clock_s,
        spent_s=node.spent_s,
        period_moves_left=node.period_moves_left,
    )


def paired_nodes(original: Node, copy: Node) -> Iterator[tuple[Node, Node]]:
    """Each node of a tree with its counterpart in a copy of it made by `copy_game` (before the copy
    was changed), the root first."""
    stack = [(original, copy)]
    while stack:
        old, new = stack.pop()
        yield old, new
        stack.extend(zip(old.children, new.children, strict=False))


def copy_game(game: Game) -> Game:
    """A deep copy of the game, built without recursion so that games of any length copy."""
    root = copy_node(game.root)
    stack = [(game.root, root)]
    while stack:
        old, new = stack.pop()
        for child in old.children:
            copied = new.add_child(copy_node(child))
            stack.append((child, copied))
    return dataclasses.replace(
        game,
        root=root,
        headers=dict(game.headers),
        setup_black=list(game.setup_black),
        setup_white=list(game.setup_white),
        warnings=list(game.warnings),
        source=dataclasses.replace(game.source),
    )


def engine_name(evaluations: EvaluationTable, engine_info: Mapping[str, object] | str | None = None) -> str:
    """The engine's name for people: from the analysis run when known, else from the evaluations' ids."""
    if isinstance(engine_info, str) and engine_info:
        return engine_info
    if isinstance(engine_info, Mapping) and engine_info.get("name"):
        return str(engine_info["name"])
    counts: dict[str, int] = {}
    for evaluation in evaluations.ordered():
        if evaluation.engine_id:
            identity = evaluation.engine_id.split(" | ")[0].strip()
            counts[identity] = counts.get(identity, 0) + 1
    return max(counts, key=lambda name: counts[name]) if counts else ""


def annotator_text(engine: str) -> str:
    return f"{ANNOTATOR_PREFIX} {__version__}" + (f" ({engine})" if engine else "")


def should_set_annotator(existing: str) -> bool:
    """Ours to (re)write when empty or written by Reviewer before; a person's name stays."""
    existing = existing.strip()
    return not existing.strip("?") or existing.startswith(ANNOTATOR_PREFIX + " ")


def review_basis(
    game: Game, evaluations: EvaluationTable, assessment: GameAssessment | None
) -> tuple[AnalysisBasis, GameAssessment]:
    """The one engine setting's evaluations an export may score (`select_analysis`) and their
    assessment: the one given when it was made from them, labels withheld where not trusted."""
    basis = select_analysis(game, evaluations)
    if assessment is None or basis.coverage.left_out:
        preset = assessment.preset if assessment is not None else "lichess"
        skip_book = assessment.skip_book if assessment is not None else False
        assessment = assess_game(game, basis.evaluations, preset=preset, skip_book=skip_book)
    if not basis.trust.labels:
        assessment = withhold_labels(assessment)
    return basis, assessment


def coverage_lines(basis: AnalysisBasis) -> list[str]:
    """What a reader of the exported file must know about the analysis behind its figures:
    a partial analysis, analyses left out, labels withheld. Nothing for a complete trusted one."""
    coverage = basis.coverage
    lines = []
    if coverage.analysed and not coverage.complete:
        lines.append(f"Partial analysis: {coverage.text()}; the figures cover those moves only.")
    left_out = coverage.left_out_text()
    if left_out:
        lines.append(f"Other analyses of this game: {left_out}.")
    if coverage.analysed and not basis.trust.labels:
        lines.append(f"Rough estimate, no move labels or accuracy: {basis.trust.reason}. {basis.trust.remedy}")
    return lines
