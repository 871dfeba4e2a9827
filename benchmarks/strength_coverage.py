"""How often the chess strength model's 80% interval holds the real rating, per pool of rated games
held out from its fit (docs/strength.md, "Where the estimate is shown").

The model is fitted on one event (FIDE rapid games with lichess's evaluations,
benchmarks/strength_fit.py); its cross-validated coverage says nothing about a lichess blitz game
or a chess.com bullet game. Each pool here is a set of rated games of the shared corpus that the
fit never saw, analysed with the app's default chess review (`reviewer analyze FILE --game N`,
Stockfish in passes). Each side's features (`reviewer.core.scoring.strength.side_features`) and
rating are stored in benchmarks/data/strength_coverage.json, so the table prints again without an
engine:

    .venv/bin/python benchmarks/strength_coverage.py            # the table, from the stored data
    .venv/bin/python benchmarks/strength_coverage.py data       # analyse the pools' games (Stockfish, niced)

For each pool: its games and rated sides with at least the model's scored moves, the sides whose
game lies in the model's rating range, their mean absolute error, the share of their real ratings
inside the model's 80% interval, and whether the app shows an estimate for the pool's games (the
population the game's headers give, `reviewer.core.scoring.population`, against those the model
file names).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.formats import open_collection  # noqa: E402
from reviewer.core.rating.scale import parse_elo  # noqa: E402
from reviewer.core.scoring import GameAssessment, MoveAssessment  # noqa: E402
from reviewer.core.scoring.common import ChessSideSummary  # noqa: E402
from reviewer.core.scoring.population import GamePopulation, population_of, population_reason  # noqa: E402
from reviewer.core.scoring.strength import StrengthModel, predict, side_features  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "pgn"
DATA = REPO_ROOT / "benchmarks" / "data" / "strength_coverage.json"
MODEL = REPO_ROOT / "resources" / "strength" / "chess.json"
COMMAND = ".venv/bin/python benchmarks/strength_coverage.py"
MIN_SIDES_TO_ADMIT = 20  # fewer held-out sides say too little about an 80% interval (±9 points at 20)
ADMIT_COVERAGE = (0.7, 0.9)  # a pool is admitted where the interval held this share of its sides

# Each pool: (file of corpus/pgn, game numbers, 1 = the first); the pool where an estimate is shown
# comes first. Games of one pool share a rating system and a kind of clock; single-game files of
# over-the-board events make up the FIDE pool.
POOLS: dict[str, list[tuple[str, list[int]]]] = {
    "FIDE over the board, time control not stated": [
        ("pgn-read__twic95n_10.pgn", [1]),
        ("pgn-read__4ncl_96-97_06.pgn", [1]),
        ("pgn-read__all_4ncl_1996_2010_09.pgn", [1]),
        ("chesslib__promoting.pgn", [1]),
        ("chesslib__oo.pgn", [1]),
        ("pgn-read__twic92n_09.pgn", [1]),
        ("pgn-read__4ncl_96-97_04.pgn", [1]),
        ("pgn-read__4ncl_97-98_07.pgn", [1]),
        ("pgn-read__twic92n_05.pgn", [1]),
        ("pgn-read__twic92n_04.pgn", [1]),
        ("pgn-read__twic92n_02.pgn", [1]),
        ("pgn-read__twic92n_01.pgn", [1]),
        ("pgn-read__4ncl_96-97_03.pgn", [1]),
        ("scalachess_fx__explorerPartialDate.pgn", [1]),
    ],
    "lichess blitz (one player's day, 3+0)": [
        ("mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn", [1, 2, 3, 4, 5, 6, 7]),
    ],
    # the file holds each game twice: one of each pair
    "chess.com bullet and blitz": [
        ("treasure-chess__examplePgns_chesscom_lichess.pgn", [1, 37, 13, 7]),
    ],
}


# ------------------------------------------------------------------------------------------ data


def features_from_report(report: Mapping[str, Any]) -> GameAssessment:
    """An assessment holding what the features read (each move's colour, loss and accuracy), from a
    `reviewer.report/1` object."""
    moves = tuple(
        MoveAssessment(
            ply=int(m["ply"]),
            color=m["color"],
            move=m["move"],
            loss=m["loss"],
            accuracy=m["accuracy"],
            is_best=m.get("is_best"),
        )
        for m in report["moves"]
    )
    empty = ChessSideSummary(0, None, None, None, None, None, None)
    return GameAssessment("chess", "lichess", False, moves, {"white": empty, "black": empty})


HEADERS_KEPT = ("Event", "Site", "Link", "TimeControl", "WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff")


def analyse_pools(out: Path, reports: Path) -> None:
    """Analyse every game of the pools with `reviewer analyze` (the app's default chess review,
    Stockfish under `nice -n 15`), one game at a time; a game whose report is already in `reports`
    is not analysed again. Writes each side's features and rating to `out`."""
    reports.mkdir(parents=True, exist_ok=True)
    games: list[dict[str, Any]] = []
    engine = None
    for pool, files in POOLS.items():
        for name, numbers in files:
            path = CORPUS / name
            collection = open_collection(path)
            for number in numbers:
                report_path = reports / f"{Path(name).stem}__{number}.json"
                if not report_path.exists():
                    print(f"{pool}: {name} #{number}", flush=True)
                    subprocess.run(
                        ["nice", "-n", "15", sys.executable, "-m", "reviewer", "analyze", str(path),
                         "--game", str(number), "--json", str(report_path)],
                        check=True, stdout=subprocess.DEVNULL, cwd=REPO_ROOT,
                    )
                games.append(game_entry(pool, name, number, collection.game(number - 1), report_path))
                engine = engine or games[-1].pop("engine")
                games[-1].pop("engine", None)
    payload = {
        "engine": engine,
        "produced_by": f"{COMMAND} data",
        "date": dt.date.today().isoformat(),
        "games": games,
    }
    out.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(games)} games)")


def game_entry(pool: str, name: str, number: int, game: Any, report_path: Path) -> dict[str, Any]:
    loaded = json.loads(report_path.read_text(encoding="utf-8"))
    report = loaded[0] if isinstance(loaded, list) else loaded
    assessment = features_from_report(report)
    sides = {}
    for color in ("white", "black"):
        features = side_features(assessment, color)  # type: ignore[arg-type]
        rating = parse_elo(game.white_rank if color == "white" else game.black_rank)
        sides[color] = {"rating": rating, "features": features}
    return {
        "pool": pool,
        "file": name,
        "game": number,
        "headers": {key: game.headers[key] for key in HEADERS_KEPT if key in game.headers},
        "white_rank": game.white_rank,
        "black_rank": game.black_rank,
        "complete": report["coverage"]["complete"],
        "labels_trusted": report["trust"]["labels"],
        "engine": report["coverage"]["engine"]["id"],
        "sides": sides,
    }


# ----------------------------------------------------------------------------------------- table


@dataclass(frozen=True)
class PoolFigures:
    pool: str
    games: int
    sides: int  # rated sides with enough scored moves, of complete analyses with trusted labels
    in_range: int  # of those, sides of games whose two ratings lie in the model's fitted range
    mae: float | None
    coverage: float | None
    populations: tuple[str, ...]  # what the headers say the games are
    shown: int  # games of the pool the app gives an estimate for, under the model's populations
    rated_range: tuple[float, float] | None  # of the sides it rates
    estimated_range: tuple[float, float] | None  # the line's estimates for them


def stored_population(entry: Mapping[str, Any]) -> GamePopulation:
    from reviewer.core.gametree import Game

    game = Game(kind="chess", headers=dict(entry["headers"]))
    game.white_rank, game.black_rank = entry["white_rank"], entry["black_rank"]
    return population_of(game, parse_elo(entry["white_rank"]), parse_elo(entry["black_rank"]))


def pool_figures(
    entries: Sequence[Mapping[str, Any]], model: StrengthModel, fitted_range: tuple[float, float],
    engine_id: str | None = None,
) -> list[PoolFigures]:
    """Coverage of `model`'s interval on each pool's sides whose game lies in `fitted_range`
    (`engine_id`: the setting the pools were analysed at, which decides where the app shows one)."""
    figures = []
    for pool in dict.fromkeys(e["pool"] for e in entries):
        games = [e for e in entries if e["pool"] == pool and e["complete"] and e["labels_trusted"]]
        sides: list[tuple[float, float | None, bool]] = []  # rating, estimate, game in range
        for entry in games:
            ratings = [entry["sides"][c]["rating"] for c in ("white", "black")]
            in_range = all(r is not None and fitted_range[0] <= r <= fitted_range[1] for r in ratings)
            for color in ("white", "black"):
                side = entry["sides"][color]
                features = side["features"]
                if side["rating"] is None or features is None or features["moves"] < model.min_moves:
                    continue
                inside_features = all(t.low <= features.get(t.feature, float("nan")) <= t.high for t in model.terms)
                sides.append((side["rating"], predict(model, features) if inside_features else None, in_range))
        checked = [(rating, estimate) for rating, estimate, in_range in sides if in_range and estimate is not None]
        errors = [rating - estimate for rating, estimate in checked if estimate is not None]
        populations = [stored_population(e) for e in games]
        ratings = [rating for rating, _ in checked]
        estimates = [estimate for _, estimate in checked if estimate is not None]
        figures.append(
            PoolFigures(
                pool=pool,
                games=len(games),
                sides=len(sides),
                in_range=len(checked),
                mae=sum(abs(e) for e in errors) / len(errors) if errors else None,
                coverage=sum(1 for e in errors if -model.below <= e <= model.above) / len(errors) if errors else None,
                populations=tuple(dict.fromkeys(p.text() for p in populations)),
                shown=sum(1 for p in populations if population_reason(model.populations, p, engine_id) is None),
                rated_range=(min(ratings), max(ratings)) if ratings else None,
                estimated_range=(min(estimates), max(estimates)) if estimates else None,
            )
        )
    return figures


def admitted(figures: PoolFigures) -> bool:
    """Whether a held-out pool's figures let the model name its population as checked."""
    return (
        figures.coverage is not None
        and figures.in_range >= MIN_SIDES_TO_ADMIT
        and ADMIT_COVERAGE[0] <= figures.coverage <= ADMIT_COVERAGE[1]
    )


def wilson(inside: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a share `inside / total`: how uncertain a coverage over few sides is."""
    share = inside / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def print_table(model: StrengthModel, model_data: Mapping[str, Any], data: Mapping[str, Any]) -> None:
    fitted = model_data["fitted"]
    low, high = fitted["target_range"]
    print(f"model: resources/strength/chess.json ({fitted['sides']} sides, {fitted['date']}); "
          f"interval {model.level:.0%}: estimate −{model.below:.0f} … +{model.above:.0f} Elo")
    print(f"held-out games: benchmarks/data/{DATA.name} ({data['engine']})")
    print(f"checked populations in the model file: {'; '.join(p.name for p in model.populations) or 'none'}")
    print()
    print(f"| pool | games | rated sides | sides it rates ({low:.0f}–{high:.0f}) | their ratings | its estimates | MAE (Elo) | "
          f"inside the {model.level:.0%} interval | headers say | estimate shown |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    held = fitted["held_out"]
    print(f"| FWWRC 2024 (the fit's own games; {held['folds']} cross-validation) | {fitted['games']} | "
          f"{fitted['sides']} | {fitted['sides']} | {low:.0f}–{high:.0f} | – | {held['mae']:.0f} | {held['coverage']:.0%} | "
          f"{model.populations[0].name if model.populations else '–'} | yes |")
    for f in pool_figures(data["games"], model, (low, high), data["engine"]):
        mae = "–" if f.mae is None else f"{f.mae:.0f}"
        coverage = "–" if f.coverage is None else f"{f.coverage:.0%}"
        if f.coverage is not None:
            low_share, high_share = wilson(round(f.coverage * f.in_range), f.in_range)
            coverage += f" ({round(f.coverage * f.in_range)}/{f.in_range}; 95%: {low_share:.0%}–{high_share:.0%})"
        shown = "yes" if f.shown == f.games else "no" if f.shown == 0 else f"{f.shown} of {f.games} games"
        spans = [
            "–" if span is None else f"{span[0]:.0f}–{span[1]:.0f}" for span in (f.rated_range, f.estimated_range)
        ]
        print(f"| {f.pool} | {f.games} | {f.sides} | {f.in_range} | {spans[0]} | {spans[1]} | {mae} | {coverage} | "
              f"{', '.join(f.populations)} | {shown} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=("table", "data"), default="table")
    parser.add_argument("--reports", type=Path, default=Path(tempfile.gettempdir()) / "strength_coverage_reports",
                        help="data: where each game's reviewer.report/1 is kept (a game found there is not analysed again)")
    args = parser.parse_args()
    if args.command == "data":
        analyse_pools(DATA, args.reports)
    model_data = json.loads(MODEL.read_text(encoding="utf-8"))
    print_table(StrengthModel.from_json(model_data), model_data, json.loads(DATA.read_text(encoding="utf-8")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
