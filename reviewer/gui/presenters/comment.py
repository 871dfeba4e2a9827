"""What the comment pane and the header above the moves say: HTML built from the game and its analysis."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reviewer.core.analysis import Evaluation
from reviewer.core.database.explorer import shown_date
from reviewer.core.games import game_support
from reviewer.core.games.support import players_in_order
from reviewer.core.gametree import Game, Node, numbered_moves
from reviewer.core.passes import pass_text
from reviewer.core.score_text import score_text
from reviewer.gui.presenters.board_marks import candidate_losses, loss_text, search_text
from reviewer.gui.presenters.figures import position_value
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.judgements import FLAGGED_JUDGEMENTS, judgement_hex
from reviewer.gui.presenters.text import SCREEN_DOTS, escape_html, player_name
from reviewer.gui.presenters.times import move_time_text
from reviewer.gui.presenters.verdict import verdict
from reviewer.gui.presenters.why import move_why

if TYPE_CHECKING:
    from reviewer.core.services.review_model import ReviewModel


def _numbered_line(game: Game, from_ply: int, moves: Sequence[str], first_mover: str | None) -> str:
    """'12. Nf3 Nc6 13. Bb5' for chess; 'Q16 D4 R4' for Go."""
    if not presentation(game.kind).numbered_moves:
        return " ".join(moves)
    return numbered_moves(moves, game.full_move_number(from_ply + 1), first_mover == "white", SCREEN_DOTS)


def comment_html(model: ReviewModel, node: Node, with_words: bool = True) -> str:
    """What the comment pane says about the move that led to `node` and the position after it;
    `with_words`: the file's (the player's) own words too (the window shows them in an editor)."""
    game = model.game
    if game is None:
        return ""
    parts: list[str] = []
    ply = node.ply if node.is_mainline else None
    move = model.move_assessment(ply) if ply else None
    if node.move:
        mover = node.color or ""
        parts.append(f"<div style='font-size:12pt'><b>{escape_html(_move_text(game, node))}</b>"
                     f"<span style='color:gray'> · {mover}</span></div>")
    elif node.parent is None and model.evaluations.get(0) is not None:
        parts.append("<div style='font-size:12pt'><b>Start position</b></div>")
    opening = _opening_line(game, node)
    if opening:
        parts.append(f"<div style='color:gray'>{escape_html(opening)}</div>")
    if model.engine_hidden_from is not None:  # the player looks for a move: nothing may tell it
        parts.append("<div style='margin-top:4px; color:gray'>The engine's view is hidden until you answer.</div>")
        return "".join(parts)
    said = verdict(game.kind, move, model.evaluations.get(ply - 1), model.evaluations.get(ply)) if move and ply else None
    if move is not None and said is not None:
        colour = judgement_hex(move.judgement)
        sentence = f"{escape_html(said.change)} <b style='color:{colour}'>{escape_html(said.title)}.</b>"
        if said.best:
            sentence += f" <b>{escape_html(said.best)}</b> was best."
        if said.detail:
            sentence += f" <span style='color:gray'>{escape_html(said.detail)}</span>"
        before = model.evaluations.get(ply - 1) if ply else None
        judged_in = _pass_of_move(before, model.evaluations.get(ply) if ply else None)
        if judged_in:
            sentence += f" <span style='color:gray'>({escape_html(judged_in)})</span>"
        parts.append(f"<div style='margin-top:4px'>{sentence}</div>")
        if move.judgement in FLAGGED_JUDGEMENTS and before is not None and before.pv:
            line = _numbered_line(game, before.ply, before.pv[:8], move.color)
            parts.append(f"<div style='margin-top:4px; color:gray'>Best line: {escape_html(line)}</div>")
        why = move_why(model, node)
        if why is not None:
            parts.append(f"<div style='margin-top:4px'><b>Why:</b> {escape_html(why.text)}</div>")
    elif move is not None and ply and not model.basis.trust.labels and move.eval_after is not None:
        before, after = model.evaluations.get(ply - 1), model.evaluations.get(ply)
        change = f"({score_text(game.kind, before, move.eval_before)} → {score_text(game.kind, after, move.eval_after)})"
        parts.append(f"<div style='margin-top:4px'>{escape_html(change)} <span style='color:gray'>rough estimate, "
                     "no label</span></div>")
    here = model.evaluation_of(node)  # a variation keeps what live analysis found there
    from_review = ply is not None and here is not None and here is model.evaluations.get(ply)
    if here is not None and here.best_move:
        value = position_value(game, here)
        to_move = _to_move_at(game, node)
        line = _numbered_line(game, node.ply, here.pv[:8] or (here.best_move,), to_move)
        rough = " (rough estimate)" if not model.basis.trust.labels else ""
        parts.append(
            f"<div style='margin-top:4px; color:gray'>Engine{rough} {escape_html(score_text(game.kind, here, value))}"
            f" · {escape_html(line)} <span title='the search these figures come from'>"
            f"({escape_html(search_text(here, 'review' if from_review else 'live'))})</span></div>"
        )
        others = _candidate_losses(game, here, to_move)
        if others:
            parts.append(f"<div style='color:gray'>Also: {escape_html(others)}</div>")
    time_line = move_time_text(game, node)
    if time_line:
        parts.append(f"<div style='margin-top:4px'>{escape_html(time_line)}</div>")
    own_comment = _readable_comment(game, node.comment) if with_words else ""
    if own_comment:
        parts.append(f"<div style='margin-top:6px; font-style:italic'>{escape_html(own_comment)}</div>")
    if not parts and node.parent is None:
        hint = ("Press → to step through the game, Space to analyse it." if node.children
                else "No moves yet: play one on the board, or press L for the engine's lines.")  # a problem, a set-up position
        parts.append(f"<div style='color:gray'>Start position. {hint}</div>")
    return "".join(parts)


def _pass_of_move(before: Evaluation | None, after: Evaluation | None) -> str | None:
    """Which pass of a review in passes the deeper of a move's two evaluations came from."""
    known = [e for e in (before, after) if e is not None and e.review_pass is not None]
    if not known:
        return None
    deepest = max(known, key=lambda e: e.review_pass or 0)
    return pass_text(deepest.engine_id, deepest.review_pass)


def _candidate_losses(game: Game, evaluation: Evaluation, to_move: str) -> str:
    """'Nf3 −0.35 · c4 −0.60': the engine's other candidates and what each gives away (the figures
    the board's labels show, `candidate_losses`)."""
    losses = candidate_losses(evaluation, to_move)
    texts: list[str] = []
    for candidate in sorted(evaluation.candidates, key=lambda c: c.order)[1:4]:
        loss = losses.get(candidate.move)
        if loss is None:
            continue
        shown = loss_text(game.kind, loss)
        texts.append(f"{candidate.move} {shown}" if shown.startswith("−") else f"{candidate.move} ±0")
    return " · ".join(texts)


_COMMENT_COMMAND = re.compile(r"\[%[^\]]*\]")


def _readable_comment(game: Game, comment: str) -> str:
    """A file's comment without the machine commands ([%eval], [%clk], [%cal] …) lichess embeds,
    nor the words a Reviewer export wrote (the comment pane says them again from the analysis)."""
    text = game_support(game.kind).own_comment(_COMMENT_COMMAND.sub(" ", comment))
    return " ".join(text.split())


def _opening_line(game: Game, node: Node) -> str:
    """"C54 Italian Game: Classical Variation" for a position inside a named line of the ECO table."""
    if node.parent is None or not game_support(game.kind).has_openings:
        return ""
    from reviewer.core.openings import loaded_book, opening_at

    table = loaded_book(game.kind)  # built by the review in the background: the window never waits for it
    opening = opening_at(game, node, table) if table is not None else None
    return f"{opening.eco} {opening.name}" if opening is not None else ""


def header_html(game: Game, assessment: Any) -> str:
    board_header = presentation(game.kind).board_header
    names = []
    for color, _name in players_in_order(game):
        mark = f" ({color[0].upper()})" if board_header else ""
        names.append(f"<b>{escape_html(player_name(game, color))}</b>{mark}")
    players = " – ".join(names)
    details = [text for text in (game.result, game.event, shown_date(game.date or "")) if text and text != "?"]
    if board_header:
        details.append(f"{game.board_width}×{game.board_height}")
        if game.komi is not None:
            details.append(f"komi {game.komi:g}")
        if game.handicap >= 2:
            details.append(f"{game.handicap} stones handicap")
    opening = getattr(assessment, "opening", None)
    if opening is not None:
        details.append(f"{opening.eco} {opening.name}")
    return f"{players}<br><span style='color:gray'>{escape_html(' · '.join(details))}</span>"


def _move_text(game: Game, node: Node) -> str:
    if not presentation(game.kind).numbered_moves:
        return f"{node.ply}. {node.move}"
    return numbered_moves([node.move or ""], game.full_move_number(node.ply), node.color == "white", SCREEN_DOTS)


def _to_move_at(game: Game, node: Node) -> str:
    if node.color is not None:
        return "black" if node.color == "white" else "white"
    return game.first_player
