"""What the Collection window says: the batch's progress and outcome, and one player's insights
(`reviewer.insights/1`, docs/SCORING.md "Collection insights") as texts, table rows and plot points.

Qt-free: the window only puts these into widgets. A figure is shown only where the insights carry
it; a per-game strength estimate is never shown without its interval; games left out of the figures
are counted and said, never drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from reviewer.core.games import game_support, registered_games
from reviewer.core.rating.records import player_key
from reviewer.core.services.insights.render import shown_game_number
from reviewer.core.services.insights.repertoire import choice_text, line_text, score_text
from reviewer.gui.presenters.analysis_state import clock
from reviewer.gui.presenters.judgements import judgement_hex
from reviewer.gui.presenters.messages import Message

Measure = Literal["accuracy", "loss"]
Alignment = Literal["left", "right"]

# A point's fill by the player's result; a game without a known result is hollow.
RESULT_COLOURS: dict[str, str] = {"win": judgement_hex("best"), "draw": "#8c8780", "loss": judgement_hex("blunder")}
RESULT_WORDS: dict[str, str] = {"win": "won", "draw": "drew", "loss": "lost", "unknown": "result unknown"}


def engine_name(kind: str) -> str:
    return game_support(kind).engine_name


def kind_installed_by(action: str) -> str | None:
    """The game whose usual engine a message's install action installs."""
    return next((support.kind for support in registered_games() if support.install_action == action), None)


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


# ------------------------------------------------------------------------------ the batch


def progress_text(done: int, total: int, eta_s: float | None, failed: int = 0, later_kind: str | None = None) -> str:
    """'12 of 40 games · ETA 3:20'; `later_kind`: games of that kind are reviewed after these, by
    another engine, so the ETA covers only the games now under way."""
    parts = [f"{done} of {plural(total, 'game')}"]
    if done < total:
        eta = f"ETA {clock(eta_s)}" if eta_s is not None else "ETA …"
        parts.append(f"{eta} (then the {later_kind} games)" if later_kind else eta)
    if failed:
        parts.append(f"{failed} failed")
    return " · ".join(parts)


def current_text(label: str, positions: tuple[int, int] | None) -> str:
    """'Analysing club.pgn#3: 12 of 40 positions' (the file's name only)."""
    if not label:
        return "Reviewing…"
    name = label.replace("\\", "/").rsplit("/", 1)[-1]
    if positions is None:
        return f"Analysing {name}"
    done, total = positions
    return f"Analysing {name}: {done} of {plural(total, 'position')}"


@dataclass(frozen=True)
class RunCounts:
    """What one run of the batch did, over the games the plan found."""

    total: int
    already_done: int = 0  # finished by an earlier run: taken from the batch store
    imported: int = 0  # the file's own evaluations, no engine
    analysed: int = 0
    failed: int = 0
    skipped: int = 0  # their kind's engine is missing
    cancelled: bool = False
    unreadable: int = 0  # files and games the plan could not read
    duplicates: int = 0
    not_played: int = 0  # games without the player named
    cards_added: int = 0  # new training cards from the games reviewed
    cards_player: str | None = None  # whose moves became cards: the player named, else both players


def outcome_text(counts: RunCounts) -> str:
    """One line after a run: '40 games: 20 analysed, 12 imported, 8 from an earlier run · cancelled: 5 not reviewed'."""
    if counts.total == 0:
        found = "No game found"
        if counts.not_played:
            found += f" with that player ({plural(counts.not_played, 'other game')})"
        return found + (f" · {plural(counts.unreadable, 'problem')}" if counts.unreadable else "")
    done = [
        (counts.analysed, "analysed"),
        (counts.imported, "imported from the files' evaluations"),
        (counts.already_done, "from an earlier run"),
    ]
    said = ", ".join(f"{count} {words}" for count, words in done if count)
    parts = [f"{plural(counts.total, 'game')}: {said}" if said else f"{plural(counts.total, 'game')}: none reviewed"]
    left = counts.total - counts.analysed - counts.imported - counts.already_done
    if counts.failed:
        parts.append(f"{counts.failed} failed")
    if counts.skipped:
        parts.append(f"{counts.skipped} skipped (no engine)")
    if counts.cancelled and left > counts.failed + counts.skipped:
        parts.append(f"cancelled: {left - counts.failed - counts.skipped} not reviewed")
    if counts.unreadable:
        parts.append(f"{plural(counts.unreadable, 'problem')} reading the files")
    if counts.duplicates:
        parts.append(f"{plural(counts.duplicates, 'duplicate')} reviewed once")
    if counts.not_played:
        parts.append(f"{plural(counts.not_played, 'other game')} without the player left aside")
    if counts.cards_added:
        whose = f"{counts.cards_player}'s" if counts.cards_player else "both players'"
        parts.append(f"{plural(counts.cards_added, 'new training card')} from {whose} mistakes")
    return " · ".join(parts)


def engine_missing_message(kind: str, reason: str) -> Message:
    """No engine for `kind`: what happened and the way to get one, with the install button."""
    engine = engine_name(kind)
    return Message(
        key=f"engine-missing:{kind}",
        level="error",
        text=(
            f"No {kind} engine could be started, so the {kind} games were not analysed ({reason}). "
            f"Install {engine} with the button, or choose an engine in Engine & settings, then review again: "
            "what is finished is kept."
        ),
        actions=(game_support(kind).install_action,) if game_support(kind).install_action else (),
        scope="app",
    )


def problem_line(label: str, message: str) -> str:
    """One game that failed: 'games.pgn#3: the engine stopped answering'."""
    first = message.splitlines()[0] if message else "failed"
    return first if first.startswith(label) else f"{label}: {first}"


# ------------------------------------------------------------------------------ players


@dataclass(frozen=True)
class PlayerChoice:
    index: int  # in insights["players"]
    name: str
    kind: str
    label: str  # 'Ju, Wenjun (chess) · 11 games'


def player_choices(insights: Mapping[str, Any]) -> list[PlayerChoice]:
    """The players of the insights, most games first (ties by name)."""
    players = list(enumerate(insights.get("players", [])))
    players.sort(key=lambda item: (-int(item[1]["games"]), player_key(item[1]["name"]), item[1]["kind"]))
    kinds = {p["kind"] for _, p in players}
    choices = []
    for index, p in players:
        kind = f" ({p['kind']})" if len(kinds) > 1 else ""
        choices.append(PlayerChoice(index, p["name"], p["kind"], f"{p['name']}{kind} · {plural(int(p['games']), 'game')}"))
    return choices


def default_choice(choices: Sequence[PlayerChoice], wanted: str | None) -> int:
    """The position in `choices` to show first: the player asked for (by name, case and spaces
    ignored, else the first whose name contains it), else the one with the most games."""
    if wanted and choices:
        key = player_key(wanted)
        for position, choice in enumerate(choices):
            if player_key(choice.name) == key:
                return position
        for position, choice in enumerate(choices):
            if key in player_key(choice.name):
                return position
    return 0


def results_text(results: Mapping[str, Any]) -> str:
    """'11 games: 3 won, 5 drawn, 0 lost' (+ ', 2 unknown')."""
    text = (
        f"{plural(int(results.get('games', 0)), 'game')}: {results.get('wins', 0)} won, "
        f"{results.get('draws', 0)} drawn, {results.get('losses', 0)} lost"
    )
    unknown = int(results.get("unknown", 0))
    return text + (f", {unknown} without a result" if unknown else "")


def left_out_text(player: Mapping[str, Any]) -> str | None:
    """'3 games left out: not analysed' (several reasons: '3 games left out: 2 not analysed, 1 partial analysis')."""
    left_out = player.get("left_out") or {}
    count = int(left_out.get("count") or 0)
    if not count:
        return None
    reasons = dict(left_out.get("reasons") or {})
    said = next(iter(reasons)) if len(reasons) == 1 else ", ".join(f"{n} {reason}" for reason, n in reasons.items())
    return f"{plural(count, 'game')} left out of the figures: {said}"


def value_text(kind: str, value: Any) -> str:
    """An Elo figure or a Go rank."""
    number = _number(value)
    if number is None:
        return "–"
    return game_support(kind).rating_text(number)


def estimate_text(kind: str, estimate: Mapping[str, Any] | None) -> str:
    """'2254 (2037 – 2422, 80%)'; an estimate without both ends of its interval is not shown."""
    if not estimate:
        return "–"
    value = estimate.get("elo", estimate.get("rank", estimate.get("rating")))
    low, high = _number(estimate.get("low")), _number(estimate.get("high"))
    if _number(value) is None or low is None or high is None:
        return "–"
    level = _number(estimate.get("level"))
    sure = f", {level:.0%}" if level is not None else ""
    return f"{value_text(kind, value)} ({value_text(kind, low)} – {value_text(kind, high)}{sure})"


def rating_text(player: Mapping[str, Any]) -> str:
    """The player's strength from the results of the whole collection, always with its interval."""
    kind = player["kind"]
    rating = player.get("rating")
    unit = game_support(kind).rating.unit
    if not rating or _number(rating.get("rating")) is None:
        return f"Strength from the results: none (no rated game against a known {unit})"
    interval = rating.get("interval_text") or ""
    level = _number(rating.get("level")) or 0.95
    if not interval:
        return f"Strength from the results: {rating.get('text')}?, interval unknown ({plural(int(rating.get('games_rated') or 0), 'game')})"
    uncertain = " · uncertain: too few results" if rating.get("uncertain") else ""
    return (
        f"Strength from the results: {rating.get('text')} ({interval}, {level:.0%} sure) "
        f"over {plural(int(rating.get('games_rated') or 0), 'game')}{uncertain}"
    )


def player_summary(player: Mapping[str, Any]) -> str:
    """'11 games: 3 won, 5 drawn, 0 lost · 8 with complete, labelled analysis'."""
    return f"{results_text(player['results']['all'])} · {player['scored_games']} with a complete, labelled analysis"


# ------------------------------------------------------------------------------ tables


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    sort_keys: tuple[Any, ...]  # one per cell, compared within a column
    source: Mapping[str, Any] | None = None  # where the game lies, for the rows that open one
    ply: int | None = None  # the position to open it at
    tooltip: str = ""


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    aligned_right: frozenset[int] = field(default_factory=frozenset)  # columns of figures
    empty_text: str = ""  # what to say when there is no row


def _percent(value: Any) -> str:
    number = _number(value)
    return "–" if number is None else f"{number:.1f}"


def loss_text(kind: str, value: Any, go_digits: int = 2) -> str:
    """Centipawns (whole) for chess; points for Go (a per-move average: two decimals; one move: one)."""
    number = _number(value)
    if number is None:
        return "–"
    scores = game_support(kind).scores
    return f"{number:.0f}" if scores.averaging == "mean" else f"{number:.{go_digits}f}"


def loss_title(kind: str) -> str:
    return game_support(kind).scores.average_loss_label


def _key(value: Any) -> float:
    number = _number(value)
    return float("-inf") if number is None else number


def phase_table(player: Mapping[str, Any]) -> Table:
    kind = player["kind"]
    rows = []
    for order, (phase, figures) in enumerate(player["by_phase"].items()):
        moves = int(figures.get("moves") or 0)
        accuracy, loss = (figures.get("accuracy"), figures.get("loss")) if moves else (None, None)
        rows.append(
            Row(
                (phase.capitalize(), str(moves), _percent(accuracy), loss_text(kind, loss)),
                (order, moves, _key(accuracy), _key(loss)),
            )
        )
    return Table(("Phase", "Moves", "Accuracy (%)", loss_title(kind)), tuple(rows), frozenset({1, 2, 3}))


def _results_cells(figures: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(str(int(figures.get(key) or 0)) for key in ("games", "wins", "draws", "losses"))


def _results_keys(figures: Mapping[str, Any]) -> tuple[int, ...]:
    return tuple(int(figures.get(key) or 0) for key in ("games", "wins", "draws", "losses"))


def colour_table(player: Mapping[str, Any]) -> Table:
    kind = player["kind"]
    rows = []
    for order, (colour, figures) in enumerate(player["by_colour"].items()):
        rows.append(
            Row(
                (colour.capitalize(), *_results_cells(figures), _percent(figures.get("accuracy")), loss_text(kind, figures.get("loss"))),
                (order, *_results_keys(figures), _key(figures.get("accuracy")), _key(figures.get("loss"))),
            )
        )
    columns = ("Colour", "Games", "Won", "Drawn", "Lost", "Mean accuracy (%)", loss_title(kind))
    return Table(columns, tuple(rows), frozenset(range(1, 7)))


def opening_table(player: Mapping[str, Any]) -> Table:
    kind = player["kind"]
    columns = ("ECO", "Opening", "Games", "Won", "Drawn", "Lost", "Mean accuracy (%)", loss_title(kind))
    support = game_support(kind)
    if not support.has_openings:
        return Table(columns, (), frozenset(range(2, 8)), f"{support.title} games are not grouped by opening (no opening table names their first moves).")
    rows = []
    for opening in player["by_opening"]:
        eco, name = opening.get("eco") or "", opening.get("name") or "unknown opening"
        rows.append(
            Row(
                (eco, name, *_results_cells(opening), _percent(opening.get("accuracy")), loss_text(kind, opening.get("loss"))),
                (eco or "~", name.casefold(), *_results_keys(opening), _key(opening.get("accuracy")), _key(opening.get("loss"))),
            )
        )
    return Table(columns, tuple(rows), frozenset(range(2, 8)))


def mistake_table(player: Mapping[str, Any]) -> Table:
    """The costliest mistakes, biggest first; a row opens its game at the move."""
    kind = player["kind"]
    rows = []
    for mistake in player["mistakes"]:
        evaluation = f"{mistake.get('eval_before_text') or '?'} → {mistake.get('eval_after_text') or '?'}"
        rows.append(
            Row(
                (
                    loss_text(kind, mistake.get("loss"), go_digits=1),
                    str(mistake.get("move_label") or mistake.get("move") or ""),
                    str(mistake.get("best") or "–"),
                    str(mistake.get("judgement") or ""),
                    str(mistake.get("phase") or "–"),
                    evaluation,
                    str(mistake.get("opponent") or "?"),
                    mistake.get("date") or "–",
                    str(shown_game_number(mistake) or "?"),
                ),
                (
                    _key(mistake.get("loss")),
                    int(mistake.get("ply") or 0),
                    str(mistake.get("best") or ""),
                    str(mistake.get("judgement") or ""),
                    str(mistake.get("phase") or ""),
                    evaluation,
                    str(mistake.get("opponent") or "").casefold(),
                    mistake.get("date") or "",
                    shown_game_number(mistake),
                ),
                source=mistake.get("source"),
                ply=int(mistake["ply"]) if isinstance(mistake.get("ply"), int) else None,
                tooltip="Double-click to open the game at this move",
            )
        )
    loss = game_support(kind).scores.loss_label
    columns = (loss, "Move", "Best", "Judgement", "Phase", "Evaluation", "Opponent", "Date", "Game")
    return Table(columns, tuple(rows), frozenset({0, 8}), "No inaccuracy, mistake or blunder in the scored games.")


def _repertoire_sides(player: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    return [(color, side) for color, side in (player.get("repertoire") or {}).items() if side.get("games")]


def _notation(player: Mapping[str, Any]) -> tuple[bool, Any]:
    support = game_support(player["kind"])
    return support.numbered_moves, support.first_player


def repertoire_lines_table(player: Mapping[str, Any]) -> Table:
    """The lines the player played with each colour (the first moves of the games), with the score."""
    numbered, first = _notation(player)
    rows = []
    for order, (color, side) in enumerate(_repertoire_sides(player)):
        for line in side["lines"]:
            results = line["results"]
            cells = (color.capitalize(), line_text(line["moves"], numbered, first), str(line["games"]),
                     str(results["win"]), str(results["draw"]), str(results["loss"]), score_text(line.get("score")))
            keys = (order, line["moves"], line["games"], results["win"], results["draw"], results["loss"], _key(line.get("score")))
            rows.append(Row(cells, keys, tooltip=f"{line.get('board', '')} the first {len(line['moves'])} moves".strip()))
    columns = ("Colour", "Line", "Games", "Won", "Drawn", "Lost", "Score")
    return Table(columns, tuple(rows), frozenset(range(2, 7)), "No game from the usual start position.")


def repertoire_choices_table(player: Mapping[str, Any]) -> Table:
    """Where the player played one move in some games and another in others, the least settled first."""
    numbered, first = _notation(player)
    rows = []
    for order, (color, side) in enumerate(_repertoire_sides(player)):
        for choice in side["choices"]:
            kept = f"{choice['usual_games']} of {choice['games']}"
            cells = (color.capitalize(), line_text(choice["after"], numbered, first), choice["usual"], kept, choice_text(choice))
            keys = (order, choice["after"], choice["usual"], choice["kept_share"], choice["games"])
            rows.append(Row(cells, keys, tooltip="Your moves in this position of your lines, with your score after each"))
    columns = ("Colour", "After", "Usual move", "Kept to it", "Your moves there")
    return Table(columns, tuple(rows), frozenset({3}),
                 "You played the same move each time in every position of your lines reached three times or more.")


def strength_table(player: Mapping[str, Any]) -> Table:
    """Each scored game's strength estimate from its moves, with its interval."""
    kind = player["kind"]
    opponents = {p["game"]: p for p in player["timeline"]}
    rows = []
    for estimate in player["strength_by_game"]:
        point = opponents.get(estimate["game"], {})
        value = estimate["estimate"].get("elo", estimate["estimate"].get("rank"))
        rows.append(
            Row(
                (
                    str(shown_game_number(estimate) or "?"),
                    estimate.get("date") or "–",
                    str(estimate.get("color") or "").capitalize(),
                    str(point.get("opponent") or "?"),
                    RESULT_WORDS.get(str(point.get("result")), "?"),
                    estimate_text(kind, estimate["estimate"]),
                ),
                (
                    shown_game_number(estimate),
                    estimate.get("date") or "",
                    str(estimate.get("color") or ""),
                    str(point.get("opponent") or "").casefold(),
                    str(point.get("result") or ""),
                    _key(value),
                ),
                source=estimate.get("source"),
                ply=0,
                tooltip=str(estimate["estimate"].get("basis") or ""),
            )
        )
    unit = game_support(kind).rating.unit
    columns = ("Game", "Date", "Colour", "Opponent", "Result", f"From the moves ({unit}, interval)")
    empty = "No game has a strength estimate (it needs a complete analysis, enough scored moves and a game like those the model was checked on)."
    return Table(columns, tuple(rows), frozenset({0}), empty)


# ------------------------------------------------------------------------------ the plot


@dataclass(frozen=True)
class PlotPoint:
    x: float  # 1, 2, … in the timeline's order
    y: float
    result: str  # win, draw, loss, unknown: the player's
    tooltip: str
    source: Mapping[str, Any] | None


@dataclass(frozen=True)
class Timeline:
    points: tuple[PlotPoint, ...]
    title: str
    y_label: str
    x_label: str
    y_range: tuple[float, float]


def measures(kind: str) -> tuple[tuple[Measure, str], ...]:
    """What the plot can show for a kind of game, the first by default."""
    scores = game_support(kind).scores
    if scores.averaging == "weighted":  # the loss says more than an accuracy made from it
        return (("loss", "Weighted loss"), ("accuracy", "Accuracy"))
    return (("accuracy", "Accuracy"), ("loss", scores.average_loss_label))


def timeline(player: Mapping[str, Any], measure: Measure) -> Timeline:
    """One point per scored game, in the timeline's order (date order when every game is dated)."""
    kind = player["kind"]
    points = []
    timeline_points = player["timeline"]
    for position, point in enumerate(timeline_points, start=1):
        value = _number(point.get(measure))
        if value is None:
            continue
        shown = f"{value:.1f}%" if measure == "accuracy" else f"{loss_text(kind, value)} {game_support(kind).scores.unit}"
        when = point.get("date") or "undated"
        tooltip = (
            f"Game {shown_game_number(point)} · {when} · {str(point.get('color') or '').capitalize()} against {point.get('opponent') or '?'} · "
            f"{RESULT_WORDS.get(str(point.get('result')), '?')}\n{measure_word(kind, measure)}: {shown}\nClick to open this game"
        )
        points.append(PlotPoint(float(position), value, str(point.get("result") or "unknown"), tooltip, point.get("source")))
    dated = bool(timeline_points) and all(p.get("date") for p in timeline_points)
    ys = [p.y for p in points]
    if measure == "accuracy":
        low = min([*ys, 100.0]) if ys else 0.0
        y_range = (max(0.0, min(low, 100.0) - 5.0), 100.0)
    else:
        y_range = (0.0, max([*ys, 1.0]) * 1.1)
    first, last = (timeline_points[0].get("date"), timeline_points[-1].get("date")) if dated else (None, None)
    span = f", {first} – {last}" if first and last and first != last else (f", {first}" if first else "")
    return Timeline(
        tuple(points),
        f"{player['name']}: {measure_word(kind, measure).lower()} per game{span}",
        measure_word(kind, measure) + (" (%)" if measure == "accuracy" else ""),
        "games in date order" if dated else "games in the collection's order",
        y_range,
    )


def measure_word(kind: str, measure: Measure) -> str:
    if measure == "accuracy":
        return "Accuracy"
    return game_support(kind).scores.average_loss_title


__all__ = [
    "RESULT_COLOURS",
    "PlayerChoice",
    "PlotPoint",
    "Row",
    "RunCounts",
    "Table",
    "Timeline",
    "colour_table",
    "current_text",
    "default_choice",
    "engine_missing_message",
    "engine_name",
    "estimate_text",
    "kind_installed_by",
    "left_out_text",
    "loss_text",
    "measures",
    "mistake_table",
    "opening_table",
    "outcome_text",
    "phase_table",
    "player_choices",
    "player_summary",
    "problem_line",
    "progress_text",
    "rating_text",
    "results_text",
    "strength_table",
    "timeline",
]
