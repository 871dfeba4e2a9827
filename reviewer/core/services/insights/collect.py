"""What a collection of reviewed games says about each player (docs/SCORING.md, "Collection insights").

Input: `reviewer.report/1` objects, each possibly with a `source` block that says where its game
lives (kept in every output so that a viewer can open the game). Output: one JSON-ready object,
schema `reviewer.insights/1`, with one entry per player and game kind (chess and Go players are
kept apart even when the names match).

Every game counts for games and results. Only games whose report is complete and may carry labels
(`coverage.complete`, `trust.labels`) enter the accuracy and loss figures, the phases, the
mistakes and the per-game strength; the others are counted under `left_out` with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, assert_never

from reviewer.core.export.reports import FLAGGED, _move_label
from reviewer.core.games import PHASES, game_support, registered_games
from reviewer.core.gametree import Color, GameKind
from reviewer.core.rating import GameRecord, parse_date, player_key, rate_games, record_from_summary
from reviewer.core.rating.records import parse_result
from reviewer.core.rating.scale import interval_text
from reviewer.core.scoring.common import COLORS, accuracy_from_weighted_loss, harmonic_mean_floored, mean, weighted_loss
from reviewer.core.services.insights.repertoire import Repertoire

SCHEMA = "reviewer.insights/1"
MISTAKES_KEPT = 20  # the costliest mistakes listed per player
RATING_LEVEL = 0.95  # reviewer.core.rating's interval: rating ± 1.96 σ

# Why a game is left out of the figures, in the order they are checked.
NOT_ANALYSED = "not analysed"
LABELS_WITHHELD = "labels withheld (rough estimate)"
PARTIAL = "partial analysis"
TOO_SHORT = "too short to score (no move of theirs scored)"

Outcome = str  # "win" | "draw" | "loss" | "unknown", the player's point of view


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def left_out_reason(report: Mapping[str, Any]) -> str | None:
    """Why a report's figures may not be used (None: they may)."""
    coverage = report.get("coverage") or {}
    analysed = coverage.get("moves_analysed")
    if analysed is None:
        analysed = sum(1 for move in report.get("moves", []) if move.get("loss") is not None)
    if not analysed:
        return NOT_ANALYSED
    if (report.get("trust") or {}).get("labels") is False:
        return LABELS_WITHHELD
    if coverage and not coverage.get("complete", False):
        return PARTIAL
    return None


def player_outcome(kind: GameKind, result: str, color: Color) -> Outcome:
    outcome = parse_result(kind, result or "")
    if outcome == "draw":
        return "draw"
    if outcome == "unknown":
        return "unknown"
    return "win" if outcome == color else "loss"


def _named(name: str) -> bool:
    """A real player name, not a placeholder such as PGN's '?'."""
    return bool(player_key(name).strip("?"))


@dataclass
class _Tally:
    """Results and per-game figures of a group of games (one colour, one opening)."""

    games: int = 0
    results: dict[Outcome, int] = field(default_factory=lambda: dict.fromkeys(("win", "draw", "loss", "unknown"), 0))
    accuracies: list[float] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)

    def add(self, outcome: Outcome, accuracy: float | None, loss: float | None) -> None:
        self.games += 1
        self.results[outcome] += 1
        if accuracy is not None:
            self.accuracies.append(accuracy)
        if loss is not None:
            self.losses.append(loss)

    def results_json(self) -> dict[str, int]:
        return {
            "games": self.games,
            "wins": self.results["win"],
            "draws": self.results["draw"],
            "losses": self.results["loss"],
            "unknown": self.results["unknown"],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.results_json(),
            "scored_games": len(self.accuracies),
            "accuracy": mean(self.accuracies),
            "loss": mean(self.losses),
        }


@dataclass
class _PhaseMoves:
    """One phase's scored moves of a player, pooled over games."""

    accuracies: list[float] = field(default_factory=list)  # chess
    losses: list[float] = field(default_factory=list)  # chess: cp loss; Go: points lost (>= 0)
    weights: list[float] = field(default_factory=list)  # Go

    def to_json(self, kind: GameKind) -> dict[str, Any]:
        averaging = game_support(kind).scores.averaging
        match averaging:
            case "mean":
                return {
                    "moves": len(self.losses),
                    "accuracy": harmonic_mean_floored(self.accuracies),
                    "loss": mean(self.losses),
                }
            case "weighted":
                loss = weighted_loss(self.losses, self.weights)
                return {"moves": len(self.losses), "accuracy": accuracy_from_weighted_loss(loss), "loss": loss}
            case _:
                assert_never(averaging)


# The clock before a move as a share of the base time: (label, lowest share in the bucket), highest first.
TIME_BUCKETS = ((">50%", 0.5), ("20–50%", 0.2), ("10–20%", 0.1), ("<10%", 0.0))
THINKS_KEPT = 10  # the longest thinks listed per player


def time_bucket(clock_before_s: float, base_s: float) -> str:
    """The bucket of a move whose mover had `clock_before_s` of a `base_s` base time."""
    share = clock_before_s / base_s
    (top, half), *rest = TIME_BUCKETS
    if share > half:
        return top
    return next(label for label, lowest in rest if share >= lowest)


@dataclass
class _TimeMoves(_PhaseMoves):
    """The scored moves of a player made with so much of the clock left, pooled over games."""

    flagged: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FLAGGED, 0))
    in_time_trouble: int = 0

    def to_json(self, kind: GameKind) -> dict[str, Any]:
        return {**super().to_json(kind), "counts": dict(self.flagged), "flagged": sum(self.flagged.values()),
                "in_time_trouble": self.in_time_trouble}


@dataclass
class _Player:
    kind: GameKind
    name: str
    games: int = 0
    left_out: dict[str, int] = field(default_factory=dict)
    by_colour: dict[Color, _Tally] = field(default_factory=lambda: {"white": _Tally(), "black": _Tally()})
    by_opening: dict[tuple[str | None, str | None], _Tally] = field(default_factory=dict)
    phases: dict[str, _PhaseMoves] = field(default_factory=lambda: {phase: _PhaseMoves() for phase in PHASES})
    points: list[dict[str, Any]] = field(default_factory=list)
    mistakes: list[dict[str, Any]] = field(default_factory=list)
    by_time: dict[str, _TimeMoves] = field(default_factory=lambda: {label: _TimeMoves() for label, _ in TIME_BUCKETS})
    thinks: list[dict[str, Any]] = field(default_factory=list)
    timed_games: int = 0
    repertoire: Repertoire = field(default_factory=Repertoire)

    def add(self, number: int, report: Mapping[str, Any], color: Color) -> None:
        game = report.get("game") or {}
        source = report.get("source") or game.get("source")
        outcome = player_outcome(self.kind, str(game.get("result") or ""), color)
        opponent = str(game.get("black" if color == "white" else "white") or "")
        reason = left_out_reason(report)
        self.games += 1
        summary = (report.get("summary") or {}).get(color) or {}
        accuracy = loss = None
        if reason is None:
            accuracy = _number(summary.get("accuracy"))
            loss = _number(summary.get(game_support(self.kind).scores.summary_loss_key))
            if accuracy is None and loss is None:
                reason = TOO_SHORT
        if reason is not None:
            self.left_out[reason] = self.left_out.get(reason, 0) + 1
        self.by_colour[color].add(outcome, accuracy, loss)
        self.repertoire.add(report, color, outcome)
        if game_support(self.kind).has_openings:
            opening = game.get("opening") or {}
            self.by_opening.setdefault((opening.get("eco"), opening.get("name")), _Tally()).add(outcome, accuracy, loss)
        common = {
            "game": number,
            "game_in_file": game_number_in_file(source, number),
            "source": source,
            "date": known_date(str(game.get("date") or "")),
            "time": game.get("time") if isinstance(game.get("time"), str) else None,
        }
        self._add_thinks(report, color, {**common, "color": color, "opponent": opponent})
        if reason is not None:
            return
        self.points.append(
            {
                **common,
                "color": color,
                "opponent": opponent,
                "result": outcome,
                "accuracy": accuracy,
                "loss": loss,
                "moves": (report.get("scored_moves") or {}).get(color),
                "strength": (report.get("strength") or {}).get(color),
            }
        )
        skip_book = bool(report.get("skip_book"))
        base_s = _number((game.get("time_control") or {}).get("base_s"))
        for move in report.get("moves", []):
            if move.get("color") != color:
                continue
            self._add_move(move, skip_book)
            self._add_timed_move(move, base_s, skip_book)
            if move.get("judgement") in FLAGGED and move.get("loss") is not None:
                self.mistakes.append(
                    {
                        **common,
                        "color": color,
                        "opponent": opponent,
                        "ply": move["ply"],
                        "move_label": _move_label(report, move),
                        "move": move.get("move"),
                        "best": move.get("best"),
                        "loss": float(move["loss"]),
                        "judgement": move["judgement"],
                        "phase": move.get("phase"),
                        "eval_before_text": move.get("eval_before_text"),
                        "eval_after_text": move.get("eval_after_text"),
                    }
                )

    def _add_thinks(self, report: Mapping[str, Any], color: Color, common: Mapping[str, Any]) -> None:
        timed = False
        for move in report.get("moves", []):
            spent = _number(move.get("spent_s"))
            if move.get("color") != color or spent is None:
                continue
            timed = True
            self.thinks.append(
                {
                    **common,
                    "ply": move["ply"],
                    "move_label": _move_label(report, move),
                    "move": move.get("move"),
                    "spent_s": spent,
                    "clock_before_s": _number(move.get("clock_before_s")),
                    "judgement": move.get("judgement"),
                    "loss": _number(move.get("loss")),
                }
            )
        self.timed_games += timed
        self.thinks = sorted(self.thinks, key=lambda t: (-t["spent_s"], t["game"], t["ply"]))[:THINKS_KEPT]

    def _add_timed_move(self, move: Mapping[str, Any], base_s: float | None, skip_book: bool) -> None:
        clock_before = _number(move.get("clock_before_s"))
        if clock_before is None or not base_s:
            return
        moves = self.by_time[time_bucket(clock_before, base_s)]
        if not self._pool(moves, move, skip_book):
            return
        if move.get("judgement") in FLAGGED:
            moves.flagged[move["judgement"]] += 1
        if move.get("time_trouble"):
            moves.in_time_trouble += 1

    def _add_move(self, move: Mapping[str, Any], skip_book: bool) -> None:
        phase, loss = move.get("phase"), _number(move.get("loss"))
        if phase not in self.phases or loss is None:
            return
        self._pool(self.phases[phase], move, skip_book)

    def _pool(self, moves: _PhaseMoves, move: Mapping[str, Any], skip_book: bool) -> bool:
        """Add a scored move's figures to `moves`; False when the move has none to add."""
        loss = _number(move.get("loss"))
        if loss is None:
            return False
        if game_support(self.kind).scores.averaging == "mean":
            accuracy = _number(move.get("accuracy"))
            if accuracy is None or (skip_book and move.get("judgement") == "book"):
                return False
            moves.accuracies.append(accuracy)
            moves.losses.append(loss)
        else:
            weight = _number(move.get("weight"))
            if weight is None:
                return False
            moves.losses.append(max(0.0, loss))
            moves.weights.append(weight)
        return True

    def to_json(self, rating: dict[str, Any] | None) -> dict[str, Any]:
        both = _Tally()
        for tally in self.by_colour.values():
            both.games += tally.games
            for outcome, count in tally.results.items():
                both.results[outcome] += count
        return {
            "name": self.name,
            "kind": self.kind,
            "games": self.games,
            "scored_games": len(self.points),
            "left_out": {"count": sum(self.left_out.values()), "reasons": dict(sorted(self.left_out.items()))},
            "results": {"all": both.results_json(), **{c: self.by_colour[c].results_json() for c in COLORS}},
            "timeline": _timeline(self.points),
            "by_phase": {phase: moves.to_json(self.kind) for phase, moves in self.phases.items()},
            "by_time_left": {label: moves.to_json(self.kind) for label, moves in self.by_time.items()},
            "longest_thinks": self.thinks,
            "timed_games": self.timed_games,
            "by_colour": {color: self.by_colour[color].to_json() for color in COLORS},
            "by_opening": [
                {"eco": eco, "name": name, **tally.to_json()}
                for (eco, name), tally in sorted(
                    self.by_opening.items(), key=lambda item: (-item[1].games, item[0][0] or "~", item[0][1] or "")
                )
            ],
            "repertoire": self.repertoire.to_json(),
            "mistakes": sorted(self.mistakes, key=lambda m: (-m["loss"], m["game"], m["ply"]))[:MISTAKES_KEPT],
            "strength_by_game": [
                {
                    "game": p["game"],
                    "game_in_file": p["game_in_file"],
                    "source": p["source"],
                    "date": p["date"],
                    "color": p["color"],
                    "estimate": p["strength"],
                }
                for p in _timeline(self.points)
                if p["strength"] is not None
            ],
            "rating": rating,
        }


def game_number_in_file(source: Mapping[str, Any] | None, number: int) -> int:
    """The game's number in its file, 1-based (what the player knows it by); its number in the
    collection when its report does not say where it lies."""
    index = (source or {}).get("index")
    return index + 1 if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else number


def _timeline(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scored games in the order they were played when every one is dated (date, then time of
    day where known, then the collection's order), else in the collection's order."""
    if points and all(p["date"] for p in points):
        return sorted(points, key=lambda p: (p["date"], p["time"] or "", p["game"]))
    return sorted(points, key=lambda p: p["game"])


def _records(reports: Sequence[Mapping[str, Any]]) -> list[GameRecord]:
    records = []
    for number, report in enumerate(reports, start=1):
        game = dict(report.get("game") or {})
        records.append(record_from_summary(game, source=f"report {number}"))
    return records


def _ratings(reports: Sequence[Mapping[str, Any]]) -> dict[tuple[GameKind, str], dict[str, Any]]:
    """Each player's strength from the results of the whole collection (reviewer.core.rating)."""
    result = rate_games(_records(reports))
    ratings: dict[tuple[GameKind, str], dict[str, Any]] = {}
    for rated in result.players:
        games = rated.wins + rated.losses + rated.draws
        ratings[(rated.kind, rated.key)] = {
            "rating": rated.rating,
            "low": rated.low,
            "high": rated.high,
            "level": RATING_LEVEL,
            "text": rated.display,
            "interval_text": interval_text(rated.kind, rated.rating, rated.low, rated.high),
            "uncertain": rated.uncertain,
            "games_rated": games,
            "placed_by": rated.placed_by,
            "basis": (
                f"maximum likelihood over the results of {games} game{'s' if games != 1 else ''} of this "
                f"collection (KGS's rank maths, reviewer.core.rating), anchored on the declared "
                f"{game_support(rated.kind).rating.plural}"
            ),
        }
    return ratings


def collection_insights(reports: Sequence[Mapping[str, Any]], player: str | None = None) -> dict[str, Any]:
    """Insights per player over `reports` (all players, or only `player`, matched case-insensitively)."""
    wanted = player_key(player) if player else None
    players: dict[tuple[GameKind, str], _Player] = {}
    for number, report in enumerate(reports, start=1):
        game = report.get("game") or {}
        kind: GameKind = str(game.get("kind") or "chess")
        for color in COLORS:
            name = str(game.get(color) or "")
            key = player_key(name)
            if not _named(name) or (wanted is not None and key != wanted):
                continue
            players.setdefault((kind, key), _Player(kind, " ".join(name.split()))).add(number, report, color)
    ratings = _ratings(reports) if players else {}
    entries = [
        entry.to_json(ratings.get(identity))
        for identity, entry in sorted(players.items(), key=lambda item: (item[0][0], -item[1].games, item[0][1]))
    ]
    notes = []
    if wanted is not None and not entries:
        notes.append(f"no game of {player!r} in the {len(reports)} reports")
    left_out = sum(1 for report in reports if left_out_reason(report) is not None)
    if left_out:
        notes.append(
            f"{left_out} of {len(reports)} games are counted in games and results but left out of the accuracy "
            "and loss figures (each player's left_out says why)"
        )
    return {
        "schema": SCHEMA,
        "player": player,
        "reports": len(reports),
        "players": entries,
        "units": {
            support.kind: {
                "accuracy": "%",
                "loss": support.scores.average_loss_title.lower(),
                "rating": support.rating.description,
            }
            for support in registered_games()
        },
        "notes": notes,
    }


__all__ = ["SCHEMA", "TIME_BUCKETS", "TOO_SHORT", "collection_insights", "game_number_in_file", "left_out_reason", "player_outcome"]


_DATE_PARTS = re.compile(r"\d{4}(?:[.\-/](\d{1,2}))?(?:[.\-/](\d{1,2}))?")


def known_date(text: str) -> str | None:
    """The date of a game's header as far as it is known, ISO style: '1848.??.??' -> '1848',
    '2024.05.??' -> '2024-05', '2024.05.17' -> '2024-05-17' (never a day that was not written)."""
    date = parse_date(text)
    match = _DATE_PARTS.search(text)
    if date is None or match is None:
        return None
    month, day = match.group(1), match.group(2)
    if month is None or int(month) != date.month:
        return f"{date.year:04d}"
    if day is None or int(day) != date.day:
        return f"{date.year:04d}-{date.month:02d}"
    return date.isoformat()
