"""Collection insights as a CSV table and as one self-contained HTML page.

CSV: one row per fact, every row the same columns (`INSIGHTS_CSV_COLUMNS`); `section` says which
part of the insights a row comes from:
  game      a scored game: result, accuracy, loss, the per-game strength estimate and its interval
  phase     one phase's pooled moves: moves, accuracy, loss
  colour    the games with one colour: results, mean per-game accuracy and loss
  opening   chess: the games of one opening (ECO and name): results, mean accuracy and loss
  mistake   one of the costliest mistakes: game, move, best move, loss, judgement, phase
  time      the scored moves made with so much of the clock left (label: >50%, 20–50%, 10–20%, <10%
            of the base time): moves, accuracy, loss, mistakes (inaccuracies, mistakes and blunders)
  think     one of the longest thinks: game, move, spent_s, clock_before_s, judgement
  line      a line the player played (the first moves of the game, with one colour): games, results
  choice    a position of the player's lines where they played more than one move: games, the usual
            move (`move`) and all of them with their games and scores (`label`)
  rating    the player's strength from the results of the whole collection, with its interval
  left_out  games counted in results but left out of the figures, by reason
`loss` is the average centipawn loss (chess) or the weighted points lost per move (Go); an unknown
value is an empty field. The source columns say where the game lives.

HTML: the page of reviewer.core.export.reports, one section per player: results, the accuracy (and
for Go the weighted loss) of each game over time as inline SVG, and the tables above.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

from reviewer.core.export.reports import _STYLE, SYMBOLS, _cell, _number
from reviewer.core.formats.clocks import clock_text
from reviewer.core.games import game_support
from reviewer.core.gametree import GameKind
from reviewer.core.services.insights.repertoire import choice_text, line_text, score_text

INSIGHTS_CSV_COLUMNS = (
    "section",
    "player",
    "kind",
    "label",
    "game",
    "date",
    "color",
    "result",
    "games",
    "wins",
    "draws",
    "losses",
    "moves",
    "accuracy",
    "loss",
    "ply",
    "move",
    "best",
    "judgement",
    "phase",
    "estimate",
    "low",
    "high",
    "level",
    "mistakes",
    "spent_s",
    "clock_before_s",
    "source_path",
    "source_index",
    "source_key",
)


def shown_game_number(entry: Mapping[str, Any]) -> int:
    """The number a timeline point, a mistake or an estimate shows for its game: the game's number
    in its file (insights made before it was kept show the collection's number)."""
    number = entry.get("game_in_file", entry.get("game"))
    return int(number) if isinstance(number, int) else 0


def _source_cells(source: Mapping[str, Any] | None) -> dict[str, Any]:
    source = source or {}
    return {"source_path": source.get("path"), "source_index": source.get("index"), "source_key": source.get("key")}


def _estimate_cells(estimate: Mapping[str, Any] | None) -> dict[str, Any]:
    if not estimate:
        return {}
    value = estimate.get("elo", estimate.get("rank", estimate.get("rating")))
    return {"estimate": value, "low": estimate.get("low"), "high": estimate.get("high"), "level": estimate.get("level")}


def _rows(player: Mapping[str, Any]) -> list[dict[str, Any]]:
    base = {"player": player["name"], "kind": player["kind"]}
    rows: list[dict[str, Any]] = []
    for point in player["timeline"]:
        rows.append(
            {
                **base,
                "section": "game",
                "label": point["opponent"],
                **{key: point.get(key) for key in ("date", "color", "result", "moves", "accuracy", "loss")},
                "game": shown_game_number(point),
                **_estimate_cells(point.get("strength")),
                **_source_cells(point.get("source")),
            }
        )
    for phase, figures in player["by_phase"].items():
        rows.append({**base, "section": "phase", "label": phase, "phase": phase, **figures})
    for color, figures in player["by_colour"].items():
        rows.append({**base, "section": "colour", "label": color, "color": color, **figures})
    for opening in player["by_opening"]:
        label = " ".join(str(part) for part in (opening.get("eco"), opening.get("name")) if part) or "unknown opening"
        rows.append({**base, "section": "opening", **opening, "label": label})
    for mistake in player["mistakes"]:
        rows.append(
            {
                **base,
                "section": "mistake",
                "label": mistake["move_label"],
                **{key: mistake.get(key) for key in ("date", "color", "ply", "move", "best", "loss", "judgement", "phase")},
                "game": shown_game_number(mistake),
                **_source_cells(mistake.get("source")),
            }
        )
    for label, figures in player.get("by_time_left", {}).items():
        if figures["moves"]:
            rows.append({**base, "section": "time", "label": label, **figures, "mistakes": figures["flagged"]})
    for think in player.get("longest_thinks", []):
        rows.append(
            {
                **base,
                "section": "think",
                "label": think["move_label"],
                **{key: think.get(key) for key in ("date", "color", "ply", "move", "loss", "judgement", "spent_s", "clock_before_s")},
                "game": shown_game_number(think),
                **_source_cells(think.get("source")),
            }
        )
    numbered, first = _notation(player["kind"])
    for color, side in (player.get("repertoire") or {}).items():
        for line in side["lines"]:
            results = line["results"]
            rows.append({**base, "section": "line", "label": line_text(line["moves"], numbered, first), "color": color,
                         "games": line["games"], "wins": results["win"], "draws": results["draw"], "losses": results["loss"]})
        for choice in side["choices"]:
            rows.append({**base, "section": "choice", "color": color, "games": choice["games"], "move": choice["usual"],
                         "label": f"after {line_text(choice['after'], numbered, first)}: {choice_text(choice)}"})
    rating = player.get("rating")
    if rating:
        rows.append(
            {**base, "section": "rating", "label": rating.get("text"), "games": rating.get("games_rated"), **_estimate_cells(rating)}
        )
    for reason, count in player["left_out"]["reasons"].items():
        rows.append({**base, "section": "left_out", "label": reason, "games": count})
    return rows


def _notation(kind: GameKind) -> tuple[bool, Any]:
    support = game_support(kind)
    return support.numbered_moves, support.first_player


def _repertoire_sections(player: Mapping[str, Any]) -> list[str]:
    """'Your repertoire': the lines played with each colour and where the player's choice varies."""
    repertoire = player.get("repertoire") or {}
    if not any(side["games"] for side in repertoire.values()):
        return []
    numbered, first = _notation(player["kind"])
    out = ["<h2>Your repertoire</h2>",
           '<p class="meta">The first moves of the games, and the positions where you played one move in some games'
           " and another in others (reached at least three times), the least settled first.</p>"]
    for color, side in repertoire.items():
        if not side["games"]:
            continue
        out.append(f"<h3>With {html.escape(color)} ({side['games']} games)</h3>")
        out.append(_table(
            ["Line", "Games", "Wins", "Draws", "Losses", "Score"],
            [[line_text(line["moves"], numbered, first), str(line["games"]),
              *(str(line["results"][key]) for key in ("win", "draw", "loss")), score_text(line.get("score"))]
             for line in side["lines"]],
        ))
        if side["choices"]:
            out.append(_table(
                ["After", "Your moves there", "Games"],
                [[line_text(choice["after"], numbered, first), choice_text(choice), str(choice["games"])] for choice in side["choices"]],
                numeric_from=2,
            ))
    return out


def insights_csv(insights: Mapping[str, Any]) -> str:
    """Every player's insights as one CSV table (see the module's docstring for the rows)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(INSIGHTS_CSV_COLUMNS)
    for player in insights.get("players", []):
        for row in _rows(player):
            writer.writerow([_cell(row.get(column)) for column in INSIGHTS_CSV_COLUMNS])
    return out.getvalue()


# ------------------------------------------------------------------------------------------- HTML


def _trend_svg(points: Sequence[Mapping[str, Any]], key: str, label: str, width: int = 800, height: int = 200) -> str:
    """Each game's `key` as a point, in timeline order, joined by a line; the y axis from 0 to its top."""
    values = [(index, float(p[key])) for index, p in enumerate(points) if p.get(key) is not None]
    top = 100.0 if key == "accuracy" else max(1.0, max((v for _, v in values), default=1.0) * 1.1)
    left, right, upper, plot_height = 40, 10, 10, height - 40
    plot_width = width - left - right
    span = max(1, len(points) - 1)

    def x_of(index: int) -> float:
        return left + plot_width * (index / span if len(points) > 1 else 0.5)

    def y_of(value: float) -> float:
        return upper + plot_height * (1 - min(top, max(0.0, value)) / top)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{html.escape(label)}">',
        f'<rect x="{left}" y="{upper}" width="{plot_width}" height="{plot_height}" fill="#f4f4f4"/>',
        f'<text x="4" y="{upper + 10}" font-size="10" fill="#555">{top:.0f}</text>',
        f'<text x="4" y="{upper + plot_height}" font-size="10" fill="#555">0</text>',
        f'<text x="{left}" y="{height - 6}" font-size="11" fill="#333">{html.escape(label)}</text>',
    ]
    if len(values) >= 2:
        line = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in values)
        parts.append(f'<polyline points="{line}" fill="none" stroke="#222" stroke-width="1.5"/>')
    for index, value in values:
        point = points[index]
        title = f"game {shown_game_number(point)}{' · ' + point['date'] if point.get('date') else ''}: {value:.1f}"
        parts.append(
            f'<circle class="point" cx="{x_of(index):.1f}" cy="{y_of(value):.1f}" r="3" fill="#2a9d8f">'
            f"<title>{html.escape(title)}</title></circle>"
        )
    for index in sorted({0, len(points) - 1}) if points else []:
        text = points[index].get("date") or f"game {shown_game_number(points[index])}"
        anchor = "start" if index == 0 else "end"
        parts.append(
            f'<text x="{x_of(index):.1f}" y="{upper + plot_height + 14}" font-size="10" fill="#555" '
            f'text-anchor="{anchor}">{html.escape(str(text))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _rating_text(kind: GameKind, value: Any) -> str:
    if value is None:
        return "–"
    return game_support(kind).rating_text(float(value))


def _estimate_text(kind: GameKind, estimate: Mapping[str, Any] | None) -> str:
    if not estimate:
        return "–"
    value = estimate.get("elo", estimate.get("rank", estimate.get("rating")))
    low, high = estimate.get("low"), estimate.get("high")
    interval = "" if low is None or high is None else f" ({_rating_text(kind, low)} – {_rating_text(kind, high)}"
    level = estimate.get("level")
    if interval:
        interval += f", {float(level):.0%})" if level is not None else ")"
    return _rating_text(kind, value) + interval


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int = 1, css: str = "") -> str:
    e = html.escape
    out = [f'<table class="{e(css)}"><tr>']
    out.extend(f'<th class="num">{e(h)}</th>' if i >= numeric_from else f"<th>{e(h)}</th>" for i, h in enumerate(header))
    out.append("</tr>")
    for row in rows:
        out.append("<tr>")
        out.extend(f'<td class="num">{e(c)}</td>' if i >= numeric_from else f"<td>{e(c)}</td>" for i, c in enumerate(row))
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _results_cells(figures: Mapping[str, Any]) -> list[str]:
    return [str(figures.get(key, 0)) for key in ("games", "wins", "draws", "losses")]


def _time_sections(player: Mapping[str, Any], loss_label: str) -> list[str]:
    """'By time left' and 'Longest thinks', for a player some of whose games carry times."""
    if not player.get("timed_games"):
        return []
    out = ["<h2>By time left</h2>", '<p class="meta">The clock before the move, as a share of the base time.</p>']
    out.append(
        _table(
            ["Clock left", "Moves", "Accuracy (%)", loss_label, "Inaccuracies", "Mistakes", "Blunders"],
            [
                [label, str(f["moves"]), _number(f["accuracy"]), _number(f["loss"]),
                 *(str(f["counts"][judgement]) for judgement in ("inaccuracy", "mistake", "blunder"))]
                for label, f in player["by_time_left"].items()
            ],
        )
    )
    thinks = player.get("longest_thinks") or []
    if thinks:
        out.append("<h2>Longest thinks</h2>")
        out.append(
            _table(
                ["Game", "Move", "Spent", "Clock before", "Judgement"],
                [
                    [
                        str(shown_game_number(t)),
                        f"{t['move_label']}{SYMBOLS.get(t.get('judgement') or '', '')}",
                        clock_text(float(t["spent_s"])),
                        "–" if t.get("clock_before_s") is None else clock_text(float(t["clock_before_s"])),
                        str(t.get("judgement") or "–"),
                    ]
                    for t in thinks
                ],
                numeric_from=2,
            )
        )
    return out


def _player_section(player: Mapping[str, Any], units: Mapping[str, Any]) -> str:
    e = html.escape
    kind: GameKind = player["kind"]
    unit = units.get(kind, {})
    scores = game_support(kind).scores
    loss_label = scores.average_loss_label
    out = [f'<section class="game"><h1>{e(player["name"])} <span class="meta">({e(kind)})</span></h1>']
    out.append(
        f'<p class="meta">{player["games"]} games · {player["scored_games"]} with complete, labelled analysis</p>'
    )
    left_out = player["left_out"]
    if left_out["count"]:
        reasons = ", ".join(f"{count} {reason}" for reason, count in left_out["reasons"].items())
        out.append(
            f'<p class="warning">{left_out["count"]} games are counted in the results but left out of the figures: '
            f"{e(reasons)}.</p>"
        )
    results = player["results"]
    out.append("<h2>Results</h2>")
    out.append(
        _table(
            ["", "Games", "Wins", "Draws", "Losses"],
            [[label, *_results_cells(results[key])] for key, label in (("all", "All"), ("white", "White"), ("black", "Black"))],
        )
    )
    points = player["timeline"]
    out.append("<h2>Over time</h2>")
    if points:
        out.append(f'<div class="graph">{_trend_svg(points, "accuracy", "accuracy per game (%)")}</div>')
        if scores.averaging == "weighted":
            out.append(f'<div class="graph">{_trend_svg(points, "loss", scores.average_loss_title.lower())}</div>')
    else:
        out.append("<p>No game with a complete, labelled analysis.</p>")
    out.append("<h2>By phase</h2>")
    out.append(
        _table(
            ["Phase", "Moves", "Accuracy (%)", loss_label],
            [[phase, str(f["moves"]), _number(f["accuracy"]), _number(f["loss"])] for phase, f in player["by_phase"].items()],
        )
    )
    out.extend(_time_sections(player, loss_label))
    out.append("<h2>By colour</h2>")
    out.append(
        _table(
            ["Colour", "Games", "Wins", "Draws", "Losses", "Mean accuracy (%)", loss_label],
            [[c, *_results_cells(f), _number(f["accuracy"]), _number(f["loss"])] for c, f in player["by_colour"].items()],
        )
    )
    if game_support(kind).has_openings:
        out.append("<h2>By opening</h2>")
        out.append(
            _table(
                ["Opening", "Games", "Wins", "Draws", "Losses", "Mean accuracy (%)", loss_label],
                [
                    [" ".join(str(p) for p in (o.get("eco"), o.get("name")) if p) or "unknown", *_results_cells(o),
                     _number(o["accuracy"]), _number(o["loss"])]
                    for o in player["by_opening"]
                ],
            )
        )
    out.extend(_repertoire_sections(player))
    out.append("<h2>Strength</h2>")
    rating = player.get("rating")
    if rating:
        interval = rating.get("interval_text")
        level = float(rating.get("level") or 0.95)
        interval_html = f" ({e(interval)}, {level:.0%})" if interval else ""
        out.append(
            f"<p>From the results of this collection: <b>{e(str(rating.get('text')))}</b>{interval_html}"
            f' <span class="meta">{e(str(rating.get("basis")))}</span></p>'
        )
    estimates = player["strength_by_game"]
    if estimates:
        out.append(
            _table(
                ["Game", "Date", "Colour", f"From move quality ({unit.get('rating', '')})"],
                [[str(shown_game_number(s)), s.get("date") or "–", s["color"], _estimate_text(kind, s["estimate"])] for s in estimates],
            )
        )
        out.append(f'<p class="meta">{e(str(estimates[0]["estimate"].get("basis", "")))}</p>')
    out.append("<h2>Costliest mistakes</h2>")
    if player["mistakes"]:
        out.append(
            _table(
                ["Game", "Move", "Best", "Loss", "Judgement", "Phase", "Evaluation"],
                [
                    [
                        str(shown_game_number(m)),
                        f"{m['move_label']}{SYMBOLS.get(m['judgement'], '')}",
                        str(m.get("best") or "–"),
                        _number(m["loss"], scores.loss_decimals),
                        m["judgement"],
                        str(m.get("phase") or "–"),
                        f"{m.get('eval_before_text') or '?'} → {m.get('eval_after_text') or '?'}",
                    ]
                    for m in player["mistakes"]
                ],
                numeric_from=3,
                css="mistakes",
            )
        )
    else:
        out.append("<p>No inaccuracies, mistakes or blunders in the scored games.</p>")
    out.append("</section>")
    return "".join(out)


def insights_html(insights: Mapping[str, Any]) -> str:
    """One self-contained HTML page (inline style and SVG, no external reference) of the insights."""
    players = insights.get("players", [])
    name = insights.get("player")
    title = f"Insights: {name}" if name else f"Insights: {len(players)} players, {insights.get('reports', 0)} games"
    body = [f"<h1>{html.escape(title)}</h1>"]
    for note in insights.get("notes", []):
        body.append(f'<p class="meta">{html.escape(str(note))}</p>')
    units = insights.get("units", {})
    body.extend(_player_section(player, units) for player in players)
    if not players:
        body.append("<p>No player to show.</p>")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body>{''.join(body)}</body></html>\n"
    )


__all__ = ["INSIGHTS_CSV_COLUMNS", "insights_csv", "insights_html"]
