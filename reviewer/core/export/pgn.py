"""An annotated PGN of a reviewed chess game, in lichess's conventions.

Per main-line move, in the comment after it (one comment; other `[%...]` commands such as
`[%clk]` stay in it):
- `[%eval 0.35]` / `[%eval #-3]`: the position after the move, White's view, pawns, 2 decimals;
- `[%rvw ...]`, only when saved with analysis (`with_analysis=True`): Reviewer's full evaluation
  of that position (see `codec`), so that Reviewer reopens the file with nothing to recompute. A
  plain export leaves it out: readers that do not know the command (lichess's study import,
  ChessBase, SCID) would show it as text. `[%eval]` alone still gives Reviewer the graph and labels;
- for an inaccuracy, mistake or blunder: the NAG `$6` (?!), `$2` (?) or `$4` (??) in place of any
  other move-quality NAG ($1-$6; other NAGs stay), the text
  `(0.41 → -0.62) Mistake. Nf3 was best.` (mate rules say "Checkmate is now unavoidable." or
  "Lost forced checkmate sequence." instead), and the engine's best line from the position
  before as a variation of up to 12 plies; then, where the engine's line after the move shows
  why it lost, `Why: Allows 24. Nd5, forking the queen on c7 and the rook on e7.` (docs/SCORING.md
  "Why"), last among Reviewer's words and followed by a line break when the user's text follows;
- at the ply where the opening is named: `C41 Philidor Defense`.
The comment before the first move carries the start position's `[%eval]` (and `[%rvw]`).
Tags: `Opening`/`ECO` (only where missing or empty), `Annotator` (unless a person is named
there), `WhiteAccuracy`/`BlackAccuracy` (percent, 1 decimal; the accuracy the preset's users know,
lichess's for lichess thresholds, SCORING.md) with `ReviewerAccuracy` naming it ("lichess accuracy"), and `WhiteACPL`/`BlackACPL` (average centipawn loss, whole centipawns), and the
analysis behind them: `ReviewerCoverage` ("analysed 23 of 68 moves"), `ReviewerEngine`,
`ReviewerLimit`, and `ReviewerNote` where the analysis is partial, mixed or a rough estimate.
Only one engine setting's evaluations are written and scored (`reviewer.core.coverage`).

Exporting an exported game again replaces what Reviewer wrote instead of adding to it: the eval
and rvw commands of the main line, text matching the generated patterns, the opening name the
bundled table gives that position, move-quality NAGs next to generated text, and a variation that
starts with the move generated text named as best and holds no comment, NAG or sub-variation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import chess

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.coverage import AnalysisBasis
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
from reviewer.core.gametree import Color, Game, Node
from reviewer.core.scoring import GameAssessment, MoveAssessment, accuracy_name, headline_accuracy_field
from reviewer.core.scoring.common import ChessSideSummary

NAG_BY_JUDGEMENT = {"inaccuracy": 6, "mistake": 2, "blunder": 4}
MOVE_QUALITY_NAGS = frozenset(range(1, 7))  # ! ? !! ?? !? ?!
JUDGEMENT_WORDS = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}
MATE_NOW_UNAVOIDABLE = "Checkmate is now unavoidable"
MATE_LOST = "Lost forced checkmate sequence"

ACCURACY_TAGS = {"white": ("WhiteAccuracy", "WhiteACPL"), "black": ("BlackAccuracy", "BlackACPL")}

_COMMAND = re.compile(r"[ \t]*\[%(?P<name>[A-Za-z0-9_]+)(?:\s[^\]]*)?\][ \t]*")
_OWN_COMMANDS = ("eval", "rvw")
_VALUE = r"(?:#[-\u2212]?\d+|[-\u2212]?\d+\.\d+)"
GENERATED_JUDGEMENT = re.compile(
    rf"\({_VALUE} \u2192 {_VALUE}\) "
    rf"(?:Inaccuracy|Mistake|Blunder|{MATE_NOW_UNAVOIDABLE}|{MATE_LOST}|Missed forced checkmate)\."
    r"(?: (?P<best>\S+) was best\.)?"
)
WHY_PREFIX = "Why: "
# Written last among Reviewer's words and ended by a line break when a comment of the user's follows.
GENERATED_WHY = re.compile(r"(?<!\S)" + re.escape(WHY_PREFIX) + r"[^\n]*")
RVW_COMMAND = re.compile(r"\[%rvw\s+(?P<text>[^\]\s]+)\s*\]")


# ------------------------------------------------------------------------------------- text pieces


def eval_command(evaluation: Evaluation | None) -> str | None:
    """`[%eval 0.35]` / `[%eval #-3]`, White's view; None when there is no score (game over, none known)."""
    if evaluation is None or evaluation.terminal is not None:
        return None
    if evaluation.mate_first is not None and evaluation.mate_first != 0:
        return f"[%eval #{evaluation.mate_first}]"
    if evaluation.score_cp_first is not None:
        return f"[%eval {evaluation.score_cp_first / 100:.2f}]"
    return None


def _shown_value(evaluation: Evaluation | None, normalised_cp_white: float | None) -> str:
    """A position's value as lichess shows it in the comment: `0.41`, `#-3`."""
    if evaluation is not None and evaluation.terminal is None:
        if evaluation.mate_first is not None:
            return f"#{evaluation.mate_first}"
        if evaluation.score_cp_first is not None:
            return f"{evaluation.score_cp_first / 100:.2f}"
    if evaluation is not None and evaluation.terminal == "checkmate":
        return "#0"
    return f"{(normalised_cp_white or 0.0) / 100:.2f}"


def _mover_mates(evaluation: Evaluation | None, mover: Color) -> bool | None:
    """True: the mover mates by force; False: the mover is mated; None: no mate announced."""
    if evaluation is None:
        return None
    if evaluation.terminal == "checkmate" or evaluation.mate_first == 0:
        return evaluation.side_to_move is not None and evaluation.side_to_move != mover
    if evaluation.mate_first is not None:
        return (evaluation.mate_first > 0) == (mover == "white")
    return None


def judgement_text(move: MoveAssessment, before: Evaluation | None, after: Evaluation | None) -> str | None:
    """`(0.41 → -0.62) Mistake. Nf3 was best.` for an inaccuracy, mistake or blunder; else None."""
    if move.judgement not in JUDGEMENT_WORDS:
        return None
    words = JUDGEMENT_WORDS[move.judgement]
    mates_before, mates_after = _mover_mates(before, move.color), _mover_mates(after, move.color)
    if mates_before is None and mates_after is False:
        words = MATE_NOW_UNAVOIDABLE
    elif mates_before is True and mates_after is not True:
        words = MATE_LOST
    text = f"({_shown_value(before, move.eval_before)} \u2192 {_shown_value(after, move.eval_after)}) {words}."
    if move.best and " " not in move.best:
        text += f" {move.best} was best."
    return text


def opening_text(eco: str, name: str) -> str:
    return f"{eco} {name}"


# ------------------------------------------------------------------------------------- comments


def split_comment(comment: str, keep_own: bool = False) -> tuple[list[str], str]:
    """(`[%...]` commands in order, eval/rvw only with `keep_own`; the rest of the text)."""
    kept: list[str] = []

    def take(match: re.Match[str]) -> str:
        if keep_own or match["name"] not in _OWN_COMMANDS:
            kept.append(match.group(0).strip())
        return " "

    text = _COMMAND.sub(take, comment or "")
    return kept, _tidy(text)


def without_generated_text(comment: str) -> str:
    """A comment without the words a Reviewer export wrote in it ('(0.41 → -0.62) Mistake. Nf3 was
    best.'), which the app says again from its own analysis when the file is reopened."""
    return _strip_generated(comment or "", None)[0]


def _tidy(text: str) -> str:
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"[ \t]*\n[ \t]*", "\n", text)
    return text.strip()


def _strip_generated(text: str, opening_here: str | None) -> tuple[str, str | None, bool]:
    """(text without Reviewer's words, the move they named as best, whether any were found)."""
    best = None
    found = False
    match = GENERATED_JUDGEMENT.search(text)
    while match is not None:
        found = True
        best = match["best"] or best
        text = text[: match.start()] + " " + text[match.end() :]
        match = GENERATED_JUDGEMENT.search(text)
    if found:
        text = GENERATED_WHY.sub(" ", text)
    if opening_here:
        pattern = re.compile(r"(?<!\S)" + re.escape(opening_here) + r"(?!\S)")
        text = pattern.sub(" ", text)
    return _tidy(text), best, found


def _join(*parts: str | None) -> str:
    return " ".join(part for part in parts if part)


# ------------------------------------------------------------------------------------- the game


def _san_key(san: str) -> str:
    return san.strip().rstrip("+#!?")


def _is_plain_line(node: Node) -> bool:
    """A single line without comments, NAGs or sub-variations: what Reviewer writes as a best line."""
    while True:
        if node.comment.strip() or node.comment_before.strip() or node.nags or len(node.children) > 1:
            return False
        if not node.children:
            return True
        node = node.children[0]


def _remove_generated_line(parent: Node, best_san: str) -> None:
    for sibling in parent.children[1:]:
        if sibling.move and _san_key(sibling.move) == _san_key(best_san) and _is_plain_line(sibling):
            parent.children.remove(sibling)
            sibling.parent = None
            return


def _already_a_variation(parent: Node, line: list[Node]) -> bool:
    """Whether a variation from `parent` already plays `line` (a person's variation, or the line of
    an earlier export): as far as both go, the same moves."""
    for sibling in parent.children[1:]:
        node: Node | None = sibling
        same = True
        for wanted in line:
            if node is None:
                break
            if not node.move or _san_key(node.move) != _san_key(wanted.move or ""):
                same = False
                break
            node = node.children[0] if node.children else None
        if same:
            return True
    return False


def _best_line(board_before: chess.Board, evaluation: Evaluation | None) -> list[Node]:
    """The engine's line from the position before a move, as nodes (stops at the first illegal move)."""
    if evaluation is None:
        return []
    sans = list(evaluation.pv) or ([evaluation.best_move] if evaluation.best_move else [])
    board = board_before.copy(stack=False)
    nodes: list[Node] = []
    for san in sans[:MAX_LINE_PLIES]:
        try:
            move = board.parse_san(san)
        except ValueError:
            try:
                move = board.parse_uci(san)
            except ValueError:
                break
        color: Color = "white" if board.turn == chess.WHITE else "black"
        nodes.append(Node(move=board.san(move), color=color, uci=move.uci()))
        board.push(move)
    return nodes


def _position_names(game: Game) -> tuple[list[chess.Board | None], list[str | None]]:
    """Boards before each main-line move (index ply-1) and the book name of P0..Pn."""
    from reviewer.core import openings
    from reviewer.core.scoring.chess import replay_mainline

    plies, epds = replay_mainline(game)
    names = openings.book(game.kind).names
    named = []
    for epd in epds:
        entry = names.get(epd) if epd is not None else None
        named.append(opening_text(*entry) if entry else None)
    return [info.board_before for info in plies], named


def _set_tag(headers: dict[str, str], name: str, value: str | None) -> None:
    if value is None:
        headers.pop(name, None)
    else:
        headers[name] = value


def annotate_chess_game(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment | None = None,
    engine_info: Mapping[str, object] | str | None = None,
    with_analysis: bool = False,
) -> Game:
    """A copy of the chess game carrying the review (see the module's docstring). The game is not changed.

    `with_analysis`: also Reviewer's own record of every evaluation (`[%rvw ...]`); without it, any
    such record the game carried is dropped too."""
    if game_support(game.kind).export_extension != "pgn":
        raise ValueError("annotate_chess_game takes chess games")
    variations = evaluations.variations
    basis, assessment = review_basis(game, evaluations, assessment)
    evaluations = basis.evaluations
    annotated = copy_game(game)
    for original, copied in paired_nodes(game.root, annotated.root):
        found = variations.get(original)
        if found is not None and not copied.is_mainline:
            commands, text = split_comment(copied.comment)
            if not with_analysis:
                commands = [command for command in commands if not RVW_COMMAND.fullmatch(command)]
            record = f"[%rvw {encode_evaluation(found, None)}]" if with_analysis else None
            copied.comment = _join(eval_command(found), record, *commands, text)
    boards_before, book_names = _position_names(annotated)
    nodes = [annotated.root, *annotated.mainline_nodes()]

    from reviewer.core.embedded_evals import reviewer_records

    kept = reviewer_records(game)  # a position this review did not evaluate keeps the file's record
    previous_engine_id: str | None = None
    for ply, node in enumerate(nodes):
        evaluation = evaluations.get(ply) or kept.get(ply)
        commands, text = split_comment(node.comment, keep_own=evaluation is None)
        if not with_analysis:
            commands = [command for command in commands if not RVW_COMMAND.fullmatch(command)]
        text, old_best, had_generated = _strip_generated(text, book_names[ply] if ply < len(book_names) else None)
        if had_generated:
            node.nags = [nag for nag in node.nags if nag not in (2, 4, 6)]
            if old_best and node.parent is not None:
                _remove_generated_line(node.parent, old_best)

        own: list[str] = []
        eval_text = eval_command(evaluation)
        if eval_text:
            own.append(eval_text)
        own.extend(commands)
        if evaluation is not None and with_analysis:
            own.append(f"[%rvw {encode_evaluation(evaluation, previous_engine_id)}]")
            previous_engine_id = evaluation.engine_id or previous_engine_id

        generated: list[str] = []
        why_words = ""
        move = assessment.move_at_ply(ply) if ply > 0 else None
        if move is not None:
            words = judgement_text(move, evaluations.get(ply - 1), evaluations.get(ply))
            if words:
                generated.append(words)
                why = explain_assessed(game, evaluations, move)
                if why is not None and why.text:
                    why_words = WHY_PREFIX + why.text
                node.nags = [nag for nag in node.nags if nag not in MOVE_QUALITY_NAGS]
                node.nags.append(NAG_BY_JUDGEMENT[move.judgement])  # type: ignore[index]
                board_before = boards_before[ply - 1] if ply - 1 < len(boards_before) else None
                line = _best_line(board_before, evaluations.get(ply - 1)) if board_before is not None else []
                if line and node.parent is not None and not _already_a_variation(node.parent, line):
                    head = node.parent.add_child(line[0])
                    for follower in line[1:]:
                        head = head.add_child(follower)
        if assessment.opening is not None and assessment.opening.ply == ply and ply > 0:
            generated.append(opening_text(assessment.opening.eco, assessment.opening.name))
        written = _join(*own, *generated, why_words)
        node.comment = f"{written}\n{text}" if why_words and text else _join(written, text)

    _write_tags(annotated, assessment, evaluations, engine_info)
    _write_coverage_tags(annotated.headers, basis)
    return annotated


def _write_coverage_tags(headers: dict[str, str], basis: AnalysisBasis) -> None:
    coverage = basis.coverage
    _set_tag(headers, "ReviewerCoverage", coverage.moves_text() if coverage.analysed else None)
    _set_tag(headers, "ReviewerEngine", coverage.engine_name or None)
    _set_tag(headers, "ReviewerLimit", coverage.limit)
    _set_tag(headers, "ReviewerNote", " ".join(coverage_lines(basis)) or None)


def _write_tags(
    game: Game,
    assessment: GameAssessment,
    evaluations: EvaluationTable,
    engine_info: Mapping[str, object] | str | None,
) -> None:
    headers = game.headers
    if assessment.opening is not None:
        if not headers.get("ECO", "").strip("? "):
            headers["ECO"] = assessment.opening.eco
        if not headers.get("Opening", "").strip("? "):
            headers["Opening"] = assessment.opening.name
    if should_set_annotator(headers.get("Annotator", "")):
        headers["Annotator"] = annotator_text(engine_name(evaluations, engine_info))
    headline = headline_accuracy_field(assessment.kind, assessment.preset)
    named = False
    for color in ("white", "black"):
        summary = assessment.summary[color]
        accuracy_tag, acpl_tag = ACCURACY_TAGS[color]
        if isinstance(summary, ChessSideSummary):
            accuracy = getattr(summary, headline)
            named = named or accuracy is not None
            _set_tag(headers, accuracy_tag, None if accuracy is None else f"{accuracy:.1f}")
            _set_tag(headers, acpl_tag, None if summary.acpl is None else f"{summary.acpl:.0f}")
    _set_tag(headers, "ReviewerAccuracy", accuracy_name(assessment.kind, headline) if named else None)


def export_pgn(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment | None = None,
    engine_info: Mapping[str, object] | str | None = None,
    with_analysis: bool = False,
) -> str:
    """The annotated game as PGN text; `with_analysis` adds Reviewer's own records (`[%rvw ...]`)."""
    from reviewer.core.formats import write_pgn

    return write_pgn(annotate_chess_game(game, evaluations, assessment, engine_info, with_analysis))


__all__ = [
    "ACCURACY_TAGS",
    "GENERATED_JUDGEMENT",
    "NAG_BY_JUDGEMENT",
    "annotate_chess_game",
    "eval_command",
    "export_pgn",
    "judgement_text",
    "split_comment",
]
