"""Report files of reviewed games: a CSV of the moves and a self-contained HTML page.

Both take `reviewer.report/1` objects (reviewer.core.report.build_report), one per game.

CSV columns: game (1-based, the report's position in the list), ply, color, move, best,
judgement, loss (centipawns for chess, points for Go, signed), accuracy (chess), weight (Go),
eval_before, eval_after (E in centipawns, White's view / S in points, Black's view), win_pct_before,
win_pct_after, eval_before_text, eval_after_text (as people read them: mates keep their distance,
`#3`, `#-3`), clock_s and spent_s (the mover's clock after the move and the time it took, in
seconds, where the file carries them), time_trouble (docs/SCORING.md "Time"), coverage (how much of that game was analysed, by which engine and limit). An
unknown value is an empty field.

The HTML page needs nothing beside it: per game a header, each side's figures, the graph as an
inline SVG image (evaluation curve above, loss bars coloured by judgement below) and the
inaccuracies, mistakes and blunders sorted by size, with the mover's clock before each where the
file carries times ("⏱" marks a move made in time trouble).
"""

from __future__ import annotations

import csv
import html
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from reviewer.core.formats.clocks import clock_text
from reviewer.core.games.support import GameSupport, game_support
from reviewer.core.gametree import numbered_moves
from reviewer.core.scoring import FLAGGED_JUDGEMENTS, accuracy_name, headline_accuracy_field
from reviewer.core.scoring.common import top5_text

CSV_COLUMNS = (
    "game",
    "ply",
    "color",
    "move",
    "best",
    "judgement",
    "loss",
    "accuracy",
    "weight",
    "eval_before",
    "eval_after",
    "win_pct_before",
    "win_pct_after",
    "eval_before_text",
    "eval_after_text",
    "clock_s",
    "spent_s",
    "time_trouble",
    "coverage",
)
FLAGGED = FLAGGED_JUDGEMENTS
JUDGEMENT_COLOURS = {
    "book": "#a1887f",
    "best": "#2a9d8f",
    "good": "#8fb8c9",
    "inaccuracy": "#e9c46a",
    "mistake": "#f4a261",
    "blunder": "#d62828",
}
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{round(value, 4):g}" if math.isfinite(value) else ""
    return str(value)


def moves_csv(reports: Sequence[Mapping[str, Any]]) -> str:
    """Every move of every report, one row each."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for number, report in enumerate(reports, start=1):
        coverage = (report.get("coverage") or {}).get("text")
        for move in report.get("moves", []):
            row = {**move, "coverage": coverage}
            writer.writerow([number, *(_cell(row.get(column)) for column in CSV_COLUMNS[1:])])
    return out.getvalue()


# ------------------------------------------------------------------------------------- the graph


def _support(game: Mapping[str, Any]) -> GameSupport:
    return game_support(str(game.get("kind")))


def _pawns(game: Mapping[str, Any]) -> bool:
    """Whether the game's values are centipawns for White with win chances (chess) rather than points for Black (Go)."""
    return _support(game).scores.style == "pawns"


def _curve_values(report: Mapping[str, Any]) -> tuple[list[float | None], float, float, str]:
    """Values of P0..Pn to plot, the axis' low and high ends, and what the axis shows."""
    moves = report.get("moves", [])
    chess = _pawns(report.get("game", {}))
    key_before, key_after = ("win_pct_before", "win_pct_after") if chess else ("eval_before", "eval_after")
    values: list[float | None] = []
    if moves:
        values.append(moves[0].get(key_before))
        values.extend(move.get(key_after) for move in moves)
    if chess:
        return values, 0.0, 100.0, "White's winning chances (%)"
    known = [abs(v) for v in values if v is not None]
    bound = max(10.0, math.ceil(max(known, default=0.0) / 5.0) * 5.0)
    return values, -bound, bound, "Black's score lead (points)"


def eval_graph_svg(report: Mapping[str, Any], width: int = 800, height: int = 260) -> str:
    """The game's graph as an SVG element: the evaluation curve above, each move's loss as a bar below."""
    moves = report.get("moves", [])
    chess = _pawns(report.get("game", {}))
    values, low, high, axis_label = _curve_values(report)
    margin_left, margin_right, curve_top, curve_height, gap, bars_height = 40, 10, 10, 160, 16, 60
    plot_width = width - margin_left - margin_right
    count = max(1, len(values) - 1)

    def x_of(ply: float) -> float:
        return margin_left + plot_width * ply / count

    def y_of(value: float) -> float:
        ratio = (min(high, max(low, value)) - low) / (high - low)
        return curve_top + curve_height * (1 - ratio)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(axis_label)}">',
        f'<rect x="{margin_left}" y="{curve_top}" width="{plot_width}" height="{curve_height}" fill="#f4f4f4"/>',
    ]
    middle = y_of((low + high) / 2)
    parts.append(
        f'<line x1="{margin_left}" y1="{middle:.1f}" x2="{margin_left + plot_width}" y2="{middle:.1f}" '
        'stroke="#999" stroke-dasharray="4 3"/>'
    )
    parts.append(f'<text x="4" y="{curve_top + 10}" font-size="10" fill="#555">{_axis(high, chess)}</text>')
    parts.append(f'<text x="4" y="{curve_top + curve_height}" font-size="10" fill="#555">{_axis(low, chess)}</text>')

    missing = set((report.get("coverage") or {}).get("missing_plies") or ())
    for ply in sorted(missing):
        if ply < len(values):
            left, right = x_of(max(0, ply - 0.5)), x_of(min(count, ply + 0.5))
            parts.append(
                f'<rect class="not-analysed" x="{left:.1f}" y="{curve_top}" width="{right - left:.1f}" '
                f'height="{curve_height}" fill="#d8d8d8"><title>position {ply}: not analysed</title></rect>'
            )
    segments: list[list[str]] = [[]]
    for ply, value in enumerate(values):
        if value is None:
            segments.append([])
            continue
        segments[-1].append(f"{x_of(ply):.1f},{y_of(value):.1f}")
    for points in segments:
        if len(points) >= 2:
            parts.append(f'<polyline class="curve" points="{" ".join(points)}" fill="none" stroke="#222" stroke-width="1.5"/>')
        elif len(points) == 1:
            x, y = points[0].split(",")
            parts.append(f'<circle cx="{x}" cy="{y}" r="1.5" fill="#222"/>')

    bars_top = curve_top + curve_height + gap
    cap = 300.0 if chess else 15.0  # centipawns / points that fill a bar
    bar_width = max(1.0, plot_width / count * 0.8)
    for move in moves:
        loss = move.get("loss")
        if loss is None or loss <= 0:
            continue
        bar = bars_height * min(1.0, loss / cap)
        colour = JUDGEMENT_COLOURS.get(move.get("judgement") or "", "#bbbbbb")
        title = html.escape(f"{move.get('ply')}. {move.get('move')}: {move.get('judgement') or 'not judged'}, loss {_number(loss)}")
        parts.append(
            f'<rect class="loss {html.escape(str(move.get("judgement")))}" x="{x_of(move["ply"]) - bar_width / 2:.1f}" '
            f'y="{bars_top + bars_height - bar:.1f}" width="{bar_width:.1f}" height="{bar:.1f}" fill="{colour}">'
            f"<title>{title}</title></rect>"
        )
    parts.append(
        f'<text x="4" y="{bars_top + 10}" font-size="10" fill="#555">{"loss (cp)" if chess else "points lost"}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _axis(value: float, chess: bool) -> str:
    return f"{value:.0f}%" if chess else f"{value:+.0f}"


def _number(value: Any, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


# ------------------------------------------------------------------------------------- the page


def _move_label(report: Mapping[str, Any], move: Mapping[str, Any]) -> str:
    game = report.get("game", {})
    ply = int(move["ply"])
    if not _support(game).numbered_moves:
        return f"{ply}. {'B' if move.get('color') == 'black' else 'W'} {move.get('move')}"
    moves = report.get("moves", [])
    white_first = not moves or moves[0].get("color") == "white"
    start = 1
    fen = game.get("start_fen")
    if fen:
        fields = str(fen).split()
        if len(fields) >= 6 and fields[5].isdigit():
            start = int(fields[5])
    number = start + ((ply - 1) // 2 if white_first else ply // 2)
    return numbered_moves([str(move.get("move"))], number, move.get("color") == "white")


def _why_text(move: Mapping[str, Any]) -> str:
    why = move.get("why")
    return str(why.get("text") or "") if isinstance(why, Mapping) else ""


def mistakes_by_size(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The inaccuracies, mistakes and blunders, the biggest loss first (ties: the earlier move)."""
    flagged = [m for m in report.get("moves", []) if m.get("judgement") in FLAGGED]
    return sorted(flagged, key=lambda m: (-(m.get("loss") or 0.0), m["ply"]))


def _summary_rows(report: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    summary = report.get("summary", {})
    white, black = summary.get("white", {}), summary.get("black", {})
    chess = _support(report.get("game", {})).scores.averaging == "mean"
    kind = str(report.get("game", {}).get("kind", "chess"))
    fields = (
        [(f"{_capitalised(accuracy_name(kind, key))} (%)", key) for key in _accuracies_headline_first(report)]
        + [("Average centipawn loss", "acpl"), ("Deviation of the loss", "stdcpl"), ("Estimated Elo", "elo_estimate")]
        if chess
        else [("KaTrain accuracy (%)", "accuracy"), ("Weighted loss (points)", "weighted_loss"), ("Mean loss (points)", "mean_loss"),
              ("Top move (%)", "top_move_match")]
    )
    rows = []
    for label, key in fields:
        scale = 100.0 if key in ("top_move_match", "top5_match") else 1.0
        digits = 0 if key == "elo_estimate" else 1
        rows.append((label, *(_scaled(side.get(key), scale, digits) for side in (white, black))))
    if not chess:
        rows.append(("Top 5", *(top5_text(side) for side in (white, black))))
    for name in ("inaccuracy", "mistake", "blunder"):
        rows.append(
            (
                f"{name.capitalize()} ({SYMBOLS[name]})",
                *(_count(side.get("counts"), name) for side in (white, black)),
            )
        )
    return rows  # type: ignore[return-value]


def _count(counts: Mapping[str, int] | None, name: str) -> str:
    """A label count; '–' where labels are withheld (counts null)."""
    return "–" if counts is None else str(counts.get(name, 0))


def _accuracies_headline_first(report: Mapping[str, Any]) -> list[str]:
    """The chess summary's accuracies, the report's headline (by its preset) first."""
    kind = str(report.get("game", {}).get("kind", "chess"))
    headline = headline_accuracy_field(kind, report.get("preset"))
    return [headline] + [key for key in game_support(kind).scores.accuracy_names if key != headline]


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _scaled(value: Any, scale: float, digits: int) -> str:
    if value is None:
        return "–"
    return f"{float(value) * scale:.{digits}f}"


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 860px; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: .5em 0; } td, th { padding: .25em .7em; border-bottom: 1px solid #ddd; text-align: left; }
td.num, th.num { text-align: right; } .inaccuracy { color: #a07800; } .mistake { color: #c05a00; } .blunder { color: #b00000; }
.meta { color: #555; } .warning { background: #fff4d6; border-left: 4px solid #c08400; padding: .4em .7em; } section.game { border-top: 2px solid #ccc; margin-top: 2em; }
"""


def _game_section(report: Mapping[str, Any]) -> str:
    e = html.escape
    game = report.get("game", {})
    chess = _pawns(game)
    white, black = game.get("white") or "?", game.get("black") or "?"
    title = f"{white} – {black}" + (f" ({game.get('result')})" if game.get("result") else "")
    meta = [str(value) for value in (game.get("event"), game.get("date")) if value]
    opening = game.get("opening")
    if opening:
        meta.append(f"{opening.get('eco')} {opening.get('name')}")
    engine = (report.get("engine") or {}).get("name")
    if engine:
        meta.append(f"engine: {engine}")
    coverage = report.get("coverage") or {}
    if coverage.get("text"):
        meta.append(str(coverage["text"]))
    out = [f'<section class="game"><h1>{e(title)}</h1>']
    if meta:
        out.append(f'<p class="meta">{e(" · ".join(meta))}</p>')
    for warning in _coverage_warnings(report):
        out.append(f'<p class="warning">{e(warning)}</p>')
    out.append('<h2>Summary</h2><table class="summary"><tr><th></th>')
    out.append(f'<th class="num">White ({e(white)})</th><th class="num">Black ({e(black)})</th></tr>')
    for label, white_value, black_value in _summary_rows(report):
        out.append(f'<tr><td>{e(label)}</td><td class="num">{e(white_value)}</td><td class="num">{e(black_value)}</td></tr>')
    out.append("</table>")
    out.append(f'<h2>Graph</h2><div class="graph">{eval_graph_svg(report)}</div>')
    out.append("<h2>Mistakes, biggest first</h2>")
    flagged = mistakes_by_size(report)
    if not flagged:
        out.append("<p>No inaccuracies, mistakes or blunders.</p>")
    else:
        unit = "cp" if chess else "points"
        timed = any(move.get("clock_before_s") is not None for move in report.get("moves", []))
        out.append(
            f'<table class="mistakes"><tr><th>Move</th><th>Judgement</th><th class="num">Loss ({unit})</th>'
            "<th>Best</th><th>Evaluation</th>" + ('<th class="num">Clock</th>' if timed else "") + "<th>Why</th></tr>"
        )
        for move in flagged:
            judgement = str(move.get("judgement"))
            digits = 0 if chess else 1
            before = move.get("eval_before_text") or _eval_text(move.get("eval_before"), chess)
            after = move.get("eval_after_text") or _eval_text(move.get("eval_after"), chess)
            out.append(
                f'<tr class="{e(judgement)}"><td>{e(_move_label(report, move))}{e(SYMBOLS.get(judgement, ""))}</td>'
                f"<td>{e(judgement)}</td><td class=\"num\">{e(_number(move.get('loss'), digits))}</td>"
                f"<td>{e(str(move.get('best') or '–'))}</td><td>{e(before)} → {e(after)}</td>"
                + (f'<td class="num">{e(clock_before_text(move))}</td>' if timed else "")
                +
                f"<td class=\"why\">{e(_why_text(move))}</td></tr>"
            )
        out.append("</table>")
    notes = report.get("notes") or []
    if notes:
        out.append('<p class="meta">' + "<br>".join(e(str(note)) for note in notes) + "</p>")
    out.append("</section>")
    return "".join(out)


def clock_before_text(move: Mapping[str, Any]) -> str:
    """'⏱ 0:24' for a move made in time trouble, '4:05' for another, '–' where the clock is unknown."""
    seconds = move.get("clock_before_s")
    if not isinstance(seconds, (int, float)):
        return "–"
    text = clock_text(float(seconds))
    return f"⏱ {text}" if move.get("time_trouble") else text


def _coverage_warnings(report: Mapping[str, Any]) -> list[str]:
    """A partial analysis and withheld labels, said where the figures are."""
    coverage = report.get("coverage") or {}
    warnings = []
    if coverage.get("positions_analysed") and not coverage.get("complete"):
        warnings.append(
            f"Partial analysis: {coverage.get('moves_analysed')} of {coverage.get('moves_total')} moves analysed;"
            " the figures cover those moves only (grey bands in the graph: not analysed)."
        )
    trust = report.get("trust") or {}
    if trust and trust.get("labels") is False:
        warnings.append(f"Rough estimate, no move labels or accuracy: {trust.get('reason')}. {trust.get('remedy')}")
    return warnings


def _eval_text(value: Any, chess: bool) -> str:
    if value is None:
        return "?"
    value = float(value)
    if chess:
        return f"{value / 100:+.2f}"
    return f"B+{value:.1f}" if value > 0 else (f"W+{-value:.1f}" if value < 0 else "even")


def report_html(reports: Sequence[Mapping[str, Any]], title: str | None = None) -> str:
    """A self-contained HTML page of one or more reviewed games."""
    if title is None:
        if len(reports) == 1:
            game = reports[0].get("game", {})
            title = f"Review: {game.get('white') or '?'} – {game.get('black') or '?'}"
        else:
            title = f"Review of {len(reports)} games"
    body = "".join(_game_section(report) for report in reports)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body>{body}</body></html>\n"
    )


__all__ = ["CSV_COLUMNS", "eval_graph_svg", "mistakes_by_size", "moves_csv", "report_html"]
