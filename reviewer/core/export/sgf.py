"""An annotated SGF of a reviewed Go game: Sabaki's and KaTrain's conventions plus Reviewer's own data.

On the root and every analysed main-line node (the root is the start position):
- `SBKV[62.35]`: Black's winrate in percent, as Sabaki reads and writes it;
- `SBKS[3.25]`: Black's score lead in points;
- `RVW[...]`: Reviewer's full evaluation of that position, candidates included (see `codec`);
  private, so other programs keep it untouched and show nothing.
On every judged move:
- the judgement as a move annotation: inaccuracy -> `DO[]` (doubtful), mistake -> `BM[1]`
  (bad move), blunder -> `BM[2]` (very bad move), best -> `TE[1]` (tesuji); good moves get none;
  any other BM/DO/IT/TE on that node gives way, since SGF allows one per node;
- one comment line: `Reviewer: Mistake, 7.3 points lost (B+3.2 → W+4.1). D4 was best: D4 C3 E3.`
- for an inaccuracy, mistake or blunder, the engine's best line from the position before as a
  variation of up to 12 moves; its first node carries `RVWL[1]`.
The root gets `AN[Reviewer ...]` (unless a person is named there) and one `Reviewer: ...` line
with each side's accuracy.

Users' comments stay: Reviewer's lines are those starting with `Reviewer: `, and exporting again
replaces them, the SBKV/SBKS/RVW values, the move annotations next to them and the `RVWL` lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.explain import explain_assessed
from reviewer.core.export.codec import encode_evaluation
from reviewer.core.export.common import (
    MAX_LINE_PLIES,
    annotator_text,
    copy_game,
    coverage_lines,
    engine_name,
    paired_nodes,
    review_basis,
    should_set_annotator,
)
from reviewer.core.games.support import game_support
from reviewer.core.gametree import Color, Game, Node, other_color, point_from_gtp
from reviewer.core.scoring import FLAGGED_JUDGEMENTS, GameAssessment, MoveAssessment
from reviewer.core.scoring.common import GoSideSummary

PROPERTY = "RVW"  # full evaluation, codec version in its first field
LINE_MARKER = "RVWL"  # on the first node of a best line Reviewer added
WINRATE = "SBKV"
SCORE_LEAD = "SBKS"
COMMENT_PREFIX = "Reviewer: "
MOVE_ANNOTATIONS = ("BM", "DO", "IT", "TE")
ANNOTATION_BY_JUDGEMENT: dict[str, tuple[str, str]] = {
    "inaccuracy": ("DO", ""),
    "mistake": ("BM", "1"),
    "blunder": ("BM", "2"),
    "best": ("TE", "1"),
}
FLAGGED = FLAGGED_JUDGEMENTS
_GENERATED_LINE = re.compile(r"^" + re.escape(COMMENT_PREFIX) + r".*(?:\n|$)", re.MULTILINE)
_WORDS = {"best": "Best move", "good": "Good", "inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}


def lead_text(lead_black: float | None) -> str:
    """`B+3.2`, `W+0.5`, `even`; `?` when unknown."""
    if lead_black is None:
        return "?"
    shown = round(abs(lead_black), 1)
    if shown == 0:
        return "even"
    return f"{'B' if lead_black > 0 else 'W'}+{shown:.1f}"


def strip_generated(comment: str) -> tuple[str, bool]:
    """(the comment without Reviewer's lines, whether there were any)."""
    stripped, count = _GENERATED_LINE.subn("", comment or "")
    if not count:
        return comment or "", False
    stripped = re.sub(r"\n{3,}", "\n\n", stripped).strip()
    return stripped, True


def without_generated_lines(comment: str) -> str:
    """A comment without the lines a Reviewer export wrote in it."""
    return strip_generated(comment)[0]


def _join_comment(user_text: str, generated: str | None) -> str:
    if not generated:
        return user_text
    return f"{user_text}\n\n{generated}" if user_text else generated


def move_line(move: MoveAssessment, before: Evaluation | None) -> str | None:
    """One comment line for a judged move; None when the move could not be judged."""
    if move.judgement is None or move.judgement not in _WORDS:
        return None
    words = _WORDS[move.judgement]
    if move.judgement != "best" and move.loss is not None:
        if move.loss >= 0:
            words += f", {move.loss:.1f} points lost"
        else:
            words += f", {-move.loss:.1f} points gained"
    text = f"{COMMENT_PREFIX}{words} ({lead_text(move.eval_before)} \u2192 {lead_text(move.eval_after)})."
    if move.judgement != "best" and move.best:
        line = _line_moves(before, move.best)
        text += f" {move.best} was best" + (f": {' '.join(line)}." if len(line) > 1 else ".")
    return text


def _line_moves(before: Evaluation | None, best: str) -> list[str]:
    if before is not None and before.pv:
        return list(before.pv[:MAX_LINE_PLIES])
    return [best]


def summary_line(assessment: GameAssessment, engine: str) -> str | None:
    parts = []
    for color in ("black", "white"):
        summary = assessment.summary[color]
        if not isinstance(summary, GoSideSummary) or summary.accuracy is None:
            continue
        counts = summary.counts
        loss = "" if summary.mean_loss is None else f", mean loss {summary.mean_loss:.1f} points"
        marks = ", ".join(
            _count_text(counts.get(name, 0), name, plural)
            for name, plural in (("inaccuracy", "inaccuracies"), ("mistake", "mistakes"), ("blunder", "blunders"))
        )
        parts.append(f"{color.capitalize()} accuracy {summary.accuracy:.1f}%{loss}, {marks}")
    if not parts:
        return None
    return COMMENT_PREFIX + (f"{engine}. " if engine else "") + "; ".join(parts) + "."


def _count_text(count: int, singular: str, plural: str) -> str:
    return f"{count} {singular if count == 1 else plural}"


def _best_line_nodes(game: Game, evaluation: Evaluation | None, mover: Color) -> list[Node]:
    from reviewer.core.formats.sgf import sgf_from_point

    if evaluation is None:
        return []
    moves = list(evaluation.pv) or ([evaluation.best_move] if evaluation.best_move else [])
    nodes: list[Node] = []
    color = mover
    for text in moves[:MAX_LINE_PLIES]:
        try:
            point = point_from_gtp(text, game.board_height)
        except (ValueError, IndexError):
            break
        if point is not None and point[1] >= game.board_width:
            break
        ident = "B" if color == "black" else "W"
        node = Node(move=text if point is not None else "pass", color=color, point=point)
        node.properties = {ident: [sgf_from_point(point, game.board_height)]}
        nodes.append(node)
        color = other_color(color)
    if nodes:
        nodes[0].properties[LINE_MARKER] = ["1"]
    return nodes


def _clear_own(node: Node) -> None:
    """Take away what an earlier export by Reviewer put on this node."""
    text, had_lines = strip_generated(node.comment)
    had_data = PROPERTY in node.properties
    node.comment = text
    if had_lines or had_data:
        for ident in MOVE_ANNOTATIONS:
            node.properties.pop(ident, None)
    if had_data:
        for ident in (PROPERTY, WINRATE, SCORE_LEAD):
            node.properties.pop(ident, None)
    for child in list(node.children[1:]):
        if LINE_MARKER in child.properties:
            node.children.remove(child)
            child.parent = None


def _put_evaluation(node: Node, evaluation: Evaluation, previous_engine_id: str | None) -> None:
    if evaluation.winrate_first is not None:
        node.properties[WINRATE] = [f"{100 * evaluation.winrate_first:.2f}"]
    if evaluation.score_lead_first is not None:
        node.properties[SCORE_LEAD] = [f"{evaluation.score_lead_first:.2f}"]
    node.properties[PROPERTY] = [encode_evaluation(evaluation, previous_engine_id)]


def annotate_go_game(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment | None = None,
    engine_info: Mapping[str, object] | str | None = None,
) -> Game:
    """A copy of the Go game carrying the review (see the module's docstring). The game is not changed."""
    if game_support(game.kind).export_extension != "sgf":
        raise ValueError("annotate_go_game takes Go games")
    variations = evaluations.variations
    basis, assessment = review_basis(game, evaluations, assessment)
    evaluations = basis.evaluations
    annotated = copy_game(game)
    for original, copied in paired_nodes(game.root, annotated.root):
        found = variations.get(original)
        if found is not None and not copied.is_mainline:
            _put_evaluation(copied, found, None)
    nodes = [annotated.root, *annotated.mainline_nodes()]
    from reviewer.core.embedded_evals import reviewer_records

    kept = reviewer_records(game)  # a position this review did not evaluate keeps the file's record
    from reviewer.core.formats.annotations import nags_from_sgf
    from reviewer.core.formats.sgf import annotations_synced

    for node in nodes:
        annotations_synced(node, annotated.board_width, annotated.board_height)  # the player's NAGs, as properties
        _clear_own(node)
        node.nags = nags_from_sgf(node.properties)  # the writer writes what the properties say

    previous_engine_id: str | None = None
    for ply, node in enumerate(nodes):
        evaluation = evaluations.get(ply) or kept.get(ply)
        if evaluation is not None:
            _put_evaluation(node, evaluation, previous_engine_id)
            previous_engine_id = evaluation.engine_id or previous_engine_id
        move = assessment.move_at_ply(ply) if ply > 0 else None
        if move is None or move.judgement is None:
            continue
        annotation = ANNOTATION_BY_JUDGEMENT.get(move.judgement)
        if annotation is not None:
            for ident in MOVE_ANNOTATIONS:
                node.properties.pop(ident, None)
            node.properties[annotation[0]] = [annotation[1]]
            node.nags = nags_from_sgf(node.properties)
        before = evaluations.get(ply - 1)
        generated_lines = [line for line in (move_line(move, before),) if line]
        why = explain_assessed(game, evaluations, move) if generated_lines else None
        if why is not None and why.text:
            generated_lines.append(f"{COMMENT_PREFIX}Why: {why.text}")
        node.comment = _join_comment(node.comment, "\n".join(generated_lines) or None)
        if move.judgement in FLAGGED and node.parent is not None:
            line = _best_line_nodes(annotated, before, move.color)
            if line:
                head = node.parent.add_child(line[0])
                for follower in line[1:]:
                    head = head.add_child(follower)

    engine = engine_name(evaluations, engine_info)
    root = annotated.root
    generated = [line for line in (summary_line(assessment, engine),) if line]
    generated += [COMMENT_PREFIX + line for line in coverage_lines(basis)]
    root.comment = _join_comment(root.comment, "\n".join(generated) or None)
    if should_set_annotator(root.properties.get("AN", [""])[0]):
        root.properties["AN"] = [annotator_text(engine)]
    return annotated


def export_sgf(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment | None = None,
    engine_info: Mapping[str, object] | str | None = None,
) -> str:
    """The annotated game as SGF text."""
    from reviewer.core.formats import write_sgf

    return write_sgf(annotate_go_game(game, evaluations, assessment, engine_info))


def annotate_go_text(
    game: Game, evaluations: EvaluationTable, assessment: GameAssessment | None, engine_info: Mapping[str, object] | str | None,
    with_analysis: bool,
) -> Game:
    """`annotate_go_game` as every game's annotator is called (an SGF carries its analysis always)."""
    return annotate_go_game(game, evaluations, assessment, engine_info)


def export_go_text(
    game: Game, evaluations: EvaluationTable, assessment: GameAssessment | None, engine_info: Mapping[str, object] | str | None,
    with_analysis: bool,
) -> str:
    """`export_sgf` as every game's exporter is called."""
    return export_sgf(game, evaluations, assessment, engine_info)


__all__ = [
    "ANNOTATION_BY_JUDGEMENT",
    "COMMENT_PREFIX",
    "LINE_MARKER",
    "PROPERTY",
    "annotate_go_game",
    "export_sgf",
    "lead_text",
    "strip_generated",
]
