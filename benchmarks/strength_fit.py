"""Fit the per-game strength models (docs/strength.md) on real rated games and print their held-out error.

Chess: every game of the FWWRC 2024 PGN (605 games, lichess's `[%eval]` on every move, FIDE ratings
in WhiteElo/BlackElo), scored by reviewer.core.scoring from the file's evaluations.
Go: the ranked games of the corpus analysed by KataGo; their per-move points lost and weights
are stored in benchmarks/data/go_strength_moves.json (`go-data` below makes that file from the
analysis cache), so the fit runs without KataGo.

Each side of a game is one sample: its rating or rank against `reviewer.core.scoring.strength`'s
features of its moves. Candidate straight lines are compared by cross-validation grouped by game
(both sides of a game are always in the same fold): chess 5 folds (games shuffled with seed 2024),
Go leave-one-game-out. For each it prints the held-out MAE and RMSE, and how often the held-out
value fell inside the 80% interval built from the training folds alone. The chosen line is then
fitted on every sample and written, with its interval, to resources/strength/<kind>.json.

    .venv/bin/python benchmarks/strength_fit.py [--kind chess|go|both] [--dry-run]
    .venv/bin/python benchmarks/strength_fit.py go-data FILE... --engine-id "KataGo … | visits=8,multipv=1"
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.coverage import select_analysis  # noqa: E402
from reviewer.core.embedded_evals import evaluations_from_game  # noqa: E402
from reviewer.core.formats import load_game, open_collection  # noqa: E402
from reviewer.core.rating import parse_go_rank  # noqa: E402
from reviewer.core.rating.scale import parse_elo  # noqa: E402
from reviewer.core.scoring import GameAssessment, MoveAssessment, assess_game  # noqa: E402
from reviewer.core.scoring.common import GoSideSummary  # noqa: E402
from reviewer.core.scoring.strength import MODEL_SCHEMA, side_features  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
CHESS_PGN = SHARED / "corpus" / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn"
GO_DATA = REPO_ROOT / "benchmarks" / "data" / "go_strength_moves.json"
RESOURCES = REPO_ROOT / "resources" / "strength"
LEVEL = 0.8
SEED = 2024
CHESS_FOLDS = 5
MIN_MOVES = {"chess": 10, "go": 20}
SIMPLER_WITHIN = 0.01  # a model with more features must lower the held-out RMSE by more than this share
COMMAND = ".venv/bin/python benchmarks/strength_fit.py"


@dataclass(frozen=True)
class Sample:
    game: int  # samples of one game share this
    target: float  # Elo / rank (1k = 0, 1d = 1)
    features: dict[str, float]


@dataclass(frozen=True)
class Candidate:
    name: str
    features: tuple[str, ...]  # () = the mean of the targets, the no-skill baseline


@dataclass(frozen=True)
class HeldOut:
    mae: float
    rmse: float
    coverage: float  # share of held-out targets inside the interval built from the training folds
    residuals: np.ndarray  # out-of-fold target - prediction


CANDIDATES = (
    Candidate("mean rating (no skill)", ()),
    Candidate("accuracy", ("accuracy",)),
    Candidate("log loss", ("log_loss",)),
    Candidate("log loss + opponent's log loss", ("log_loss", "log_opponent_loss")),
    Candidate("log loss + opponent's log loss + moves", ("log_loss", "log_opponent_loss", "moves")),
    Candidate("top-move match", ("top_match",)),
    Candidate("log loss + top-move match", ("log_loss", "top_match")),
)


# ------------------------------------------------------------------------------------------- data


def chess_samples(path: Path) -> tuple[list[Sample], dict[str, int]]:
    """Both sides of every rated game of the file.

    A game whose file lacks some evaluations (mostly the last few moves of a broadcast, once the
    result was clear) is scored on its analysed moves: leaving such games out would leave out
    the decisive games more than the others. `partial` counts them."""
    samples: list[Sample] = []
    skipped = {"unrated": 0, "too few moves": 0, "partial": 0}
    collection = open_collection(path)
    for index in range(len(collection)):
        game = collection.game(index)
        evaluations = evaluations_from_game(game)
        basis = select_analysis(game, evaluations)
        skipped["partial"] += 0 if basis.coverage.complete else 1
        assessment = assess_game(game, basis.evaluations)
        for color, declared in (("white", game.white_rank), ("black", game.black_rank)):
            elo = parse_elo(declared or game.headers.get("WhiteElo" if color == "white" else "BlackElo", ""))
            features = side_features(assessment, color)  # type: ignore[arg-type]
            if elo is None:
                skipped["unrated"] += 1
            elif features is None or features["moves"] < MIN_MOVES["chess"]:
                skipped["too few moves"] += 1
            else:
                samples.append(Sample(index, elo, features))
    return samples, skipped


def go_assessment(moves: Sequence[Sequence[Any]]) -> GameAssessment:
    """An assessment holding only what the features read: each move's colour, loss, weight and
    whether it was the engine's first choice (games stored before that was kept: unknown)."""
    assessed = tuple(
        MoveAssessment(
            ply=int(move[0]),
            color="black" if move[1] == "b" else "white",
            move="",
            loss=move[2],
            weight=move[3],
            is_best=None if len(move) < 5 or move[4] is None else bool(move[4]),
        )
        for move in moves
    )
    empty = GoSideSummary(0, None, None, None, None, None)
    return GameAssessment("go", "lichess", False, assessed, {"white": empty, "black": empty})


# Games whose BR/WR are not the players' amateur ranks, as their headers show (read by hand): the
# model is for amateurs ranked by a server or a club, and a professional dan is not an amateur dan.
NOT_AMATEUR_RANKS = {
    "analyze-sgf__t-oro-1.sgf": "a Korean professional league game (TE: 퓨처스리그): 4단/8단 are professional ranks",
    "analyze-sgf__t-oro-2.sgf": "a professional game (TE: 춘란배, Ke Jie – Tang Weixing): 9단 is a professional rank",
    "sabaki__gb2312.ngf": "a professional game (韩国十段战): 初段/五段 are professional ranks",
    "sabaki-sgf__complex.sgf": "an OGS relay of AlphaGo – Lee Sedol: BR/WR are the relay's, not the players'",
}


def go_samples(path: Path) -> tuple[list[Sample], dict[str, int], dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    samples: list[Sample] = []
    skipped = {"unranked": 0, "incomplete": 0, "too few moves": 0, "not amateur ranks": 0}
    for index, game in enumerate(data["games"]):
        if game["file"] in NOT_AMATEUR_RANKS:
            skipped["not amateur ranks"] += 2
            continue
        if not game["complete"]:
            skipped["incomplete"] += 2
            continue
        assessment = go_assessment(game["moves"])
        for color in ("black", "white"):
            rank = parse_go_rank(game[f"{color}_rank"])
            features = side_features(assessment, color)  # type: ignore[arg-type]
            if rank is None:
                skipped["unranked"] += 1
            elif features is None or features["moves"] < MIN_MOVES["go"]:
                skipped["too few moves"] += 1
            else:
                samples.append(Sample(index, rank, features))
    return samples, skipped, data


# ------------------------------------------------------------------------------------ the fitting


def design(samples: Sequence[Sample], names: Sequence[str]) -> np.ndarray:
    columns = [np.ones(len(samples))] + [np.array([s.features[name] for s in samples]) for name in names]
    return np.column_stack(columns)


def fit_line(samples: Sequence[Sample], names: Sequence[str]) -> np.ndarray:
    coefficients, *_ = np.linalg.lstsq(design(samples, names), np.array([s.target for s in samples]), rcond=None)
    return np.asarray(coefficients)


def interval_from_residuals(residuals: np.ndarray, parameters: int, kind: str) -> tuple[float, float]:
    """(below, above) of the `LEVEL` prediction interval around an estimate, from residuals.

    Chess (hundreds of residuals): their 10th and 90th percentiles. Go (a handful): a symmetric
    Student-t interval on their root mean square, which widens as the sample shrinks."""
    tail = (1 - LEVEL) / 2
    if kind == "chess":
        return float(-np.quantile(residuals, tail)), float(np.quantile(residuals, 1 - tail))
    freedom = max(1, len(residuals) - parameters)
    half = float(stats.t.ppf(1 - tail, freedom) * math.sqrt(np.mean(residuals**2)))
    return half, half


def folds_of(samples: Sequence[Sample], kind: str) -> list[np.ndarray]:
    """Index arrays of the held-out samples of each fold; the two sides of a game stay together."""
    games = sorted({s.game for s in samples})
    if kind == "chess":
        order = np.random.default_rng(SEED).permutation(len(games))
        groups = [{games[i] for i in part} for part in np.array_split(order, CHESS_FOLDS)]
    else:
        groups = [{game} for game in games]
    return [np.array([i for i, s in enumerate(samples) if s.game in group]) for group in groups]


def held_out(samples: Sequence[Sample], candidate: Candidate, kind: str) -> HeldOut:
    targets = np.array([s.target for s in samples])
    residuals = np.zeros(len(samples))
    inside = np.zeros(len(samples), dtype=bool)
    for test in folds_of(samples, kind):
        train = np.setdiff1d(np.arange(len(samples)), test)
        training = [samples[i] for i in train]
        coefficients = fit_line(training, candidate.features)
        fitted = design(training, candidate.features) @ coefficients
        below, above = interval_from_residuals(targets[train] - fitted, len(coefficients), kind)
        predicted = design([samples[i] for i in test], candidate.features) @ coefficients
        residuals[test] = targets[test] - predicted
        inside[test] = (residuals[test] >= -below) & (residuals[test] <= above)
    return HeldOut(
        mae=float(np.mean(np.abs(residuals))),
        rmse=float(math.sqrt(np.mean(residuals**2))),
        coverage=float(np.mean(inside)),
        residuals=residuals,
    )


def old_formula_error(samples: Sequence[Sample]) -> tuple[float, float]:
    """MAE and RMSE of SCORING.md's `elo_estimate = 3100·exp(-0.01·acpl)` on the same chess sides."""
    errors = np.array([s.target - 3100.0 * math.exp(-0.01 * s.features["loss"]) for s in samples])
    return float(np.mean(np.abs(errors))), float(math.sqrt(np.mean(errors**2)))


# ----------------------------------------------------------------------------------------- output


def fit_kind(
    kind: str,
    samples: list[Sample],
    describe: Callable[[HeldOut, HeldOut, int, int], str],
    populations: Callable[[dict[str, Any], HeldOut], list[dict[str, Any]]],
    write: bool,
) -> None:
    unit = "Elo" if kind == "chess" else "ranks"
    games = len({s.game for s in samples})
    targets = np.array([s.target for s in samples])
    print(f"\n{kind}: {len(samples)} sides of {games} games; targets {targets.min():.1f} … {targets.max():.1f}, "
          f"mean {targets.mean():.1f}, SD {targets.std(ddof=1):.1f} {unit}")
    folds = f"{CHESS_FOLDS}-fold (seed {SEED})" if kind == "chess" else "leave-one-game-out"
    print(f"held out, {folds} cross-validation grouped by game; interval {LEVEL:.0%} from the training folds")
    print(f"  {'model':<44} {'MAE':>8} {'RMSE':>8} {'coverage':>9}")
    results: dict[str, HeldOut] = {}
    candidates = [c for c in CANDIDATES if all(name in s.features for s in samples for name in c.features)]
    for candidate in candidates:
        result = held_out(samples, candidate, kind)
        results[candidate.name] = result
        print(f"  {candidate.name:<44} {result.mae:8.2f} {result.rmse:8.2f} {result.coverage:9.0%}")
    if kind == "chess":
        mae, rmse = old_formula_error(samples)
        print(f"  {'SCORING.md elo_estimate 3100·exp(-acpl/100)':<44} {mae:8.2f} {rmse:8.2f} {'–':>9}")
    fitted = [c for c in candidates if c.features]
    best = min(results[c.name].rmse for c in fitted)
    chosen = min(
        (c for c in fitted if results[c.name].rmse <= best * (1 + SIMPLER_WITHIN)),
        key=lambda c: (len(c.features), results[c.name].rmse),
    )
    result, baseline = results[chosen.name], results[CANDIDATES[0].name]
    print(f"chosen (fewest features within {SIMPLER_WITHIN:.0%} of the lowest held-out RMSE): {chosen.name}")
    coefficients = fit_line(samples, chosen.features)
    below, above = interval_from_residuals(result.residuals, len(coefficients), kind)
    print(f"  {unit} = {coefficients[0]:.2f}" + "".join(
        f" {c:+.2f}·{name}" for c, name in zip(coefficients[1:], chosen.features)))
    print(f"  {LEVEL:.0%} interval: estimate −{below:.2f} … +{above:.2f} {unit} (from the held-out residuals)")
    model = {
        "schema": MODEL_SCHEMA,
        "kind": kind,
        "unit": "elo" if kind == "chess" else "rank",
        "intercept": float(coefficients[0]),
        "terms": [
            {
                "feature": name,
                "coefficient": float(c),
                "low": float(min(s.features[name] for s in samples)),
                "high": float(max(s.features[name] for s in samples)),
            }
            for c, name in zip(coefficients[1:], chosen.features)
        ],
        "interval": {"level": LEVEL, "below": below, "above": above},
        "min_moves": MIN_MOVES[kind],
        "board_sizes": [[19, 19]] if kind == "go" else [],
        "basis": describe(result, baseline, len(samples), games),
        "beats_guessing": result.mae < baseline.mae and result.rmse < baseline.rmse,
        "fitted": {
            "command": COMMAND,
            "date": dt.date.today().isoformat(),
            "sides": len(samples),
            "games": games,
            "target_range": [float(targets.min()), float(targets.max())],
            "held_out": {"mae": result.mae, "rmse": result.rmse, "coverage": result.coverage, "folds": folds},
        },
    }
    model["populations"] = populations(model, result)
    print(f"  basis: {model['basis']}")
    for population in model["populations"]:
        print(f"  checked on: {population['name']} ({population['sides']} held-out sides, {population['checked']}; "
              f"{population['coverage']:.0%} inside the interval)")
    if not model["beats_guessing"]:
        print(f"  its held-out MAE and RMSE are not both below guessing the mean ({baseline.mae:.2f}, "
              f"{baseline.rmse:.2f}): the app gives no {kind} estimate")
    if write:
        RESOURCES.mkdir(parents=True, exist_ok=True)
        out = RESOURCES / f"{kind}.json"
        out.write_text(json.dumps(model, indent=2) + "\n", encoding="utf-8")
        print(f"  wrote {out.relative_to(REPO_ROOT)}")


def fit_chess(write: bool) -> None:
    samples, skipped = chess_samples(CHESS_PGN)
    print(f"chess: {CHESS_PGN.name}; left out or partial: {skipped}")
    low, high = min(s.target for s in samples), max(s.target for s in samples)

    def describe(result: HeldOut, baseline: HeldOut, sides: int, games: int) -> str:
        return (
            f"straight line fitted on {sides} sides of {games} FIDE rapid games (ratings {low:.0f}–{high:.0f}, "
            f"lichess [%eval] evaluations); held-out error {result.mae:.0f} Elo on average, against "
            f"{baseline.mae:.0f} for guessing that field's mean rating"
        )

    fit_kind("chess", samples, describe, chess_populations(CHESS_PGN, samples), write)


def chess_populations(path: Path, samples: Sequence[Sample]) -> Callable[[dict[str, Any], HeldOut], list[dict[str, Any]]]:
    """The populations the chess line is checked on: the fit's own event (cross-validated), and
    each held-out pool of benchmarks/strength_coverage.py whose sides' ratings the line's interval
    held in 70–90% of cases, over at least 20 sides."""
    import strength_coverage

    from reviewer.core.scoring.population import EMBEDDED_EVALUATIONS, EngineSetting, population_of
    from reviewer.core.scoring.strength import StrengthModel

    collection = open_collection(path)
    games = sorted({s.game for s in samples})
    kinds = set()
    for index in games:
        game = collection.game(index)
        population = population_of(game, parse_elo(game.white_rank), parse_elo(game.black_rank))
        kinds.add((population.rating_system, population.time_class, population.plural()))
    if len(kinds) != 1:
        raise SystemExit(f"the fit's games are of several populations: {sorted(kinds)}")
    (system, time_class, text), = kinds
    low, high = min(s.target for s in samples), max(s.target for s in samples)

    def populations(model: dict[str, Any], result: HeldOut) -> list[dict[str, Any]]:
        checked = [
            {
                "name": f"{text} (ratings {low:.0f}–{high:.0f})",
                "rating_system": system,
                "time_classes": [time_class],
                "ratings": [low, high],
                "sides": len(samples),
                "coverage": result.coverage,
                "checked": f"{CHESS_FOLDS}-fold cross-validation grouped by game",
                "settings": [EngineSetting.of(EMBEDDED_EVALUATIONS).to_json()],  # lichess's [%eval] of the file
            }
        ]
        if not strength_coverage.DATA.exists():
            return checked
        data = json.loads(strength_coverage.DATA.read_text(encoding="utf-8"))
        line = StrengthModel.from_json(model)
        for figures in strength_coverage.pool_figures(data["games"], line, (low, high), data["engine"]):
            verdict = "admitted" if strength_coverage.admitted(figures) else "not admitted"
            coverage = "–" if figures.coverage is None else f"{figures.coverage:.0%}"
            print(f"  held-out pool {figures.pool!r}: {figures.in_range} sides in range, {coverage} inside the "
                  f"interval: {verdict}")
            pool_games = [g for g in data["games"] if g["pool"] == figures.pool]
            pool_kinds = {
                (p.rating_system, p.time_class, p.plural())
                for p in (strength_coverage.stored_population(g) for g in pool_games)
            }
            if not strength_coverage.admitted(figures) or len(pool_kinds) != 1 or figures.rated_range is None:
                continue
            (pool_system, pool_class, pool_text), = pool_kinds
            pool_low, pool_high = max(low, figures.rated_range[0]), min(high, figures.rated_range[1])
            checked.append(
                {
                    "name": f"{pool_text} (ratings {pool_low:.0f}–{pool_high:.0f})",
                    "rating_system": pool_system,
                    "time_classes": [pool_class],
                    "ratings": [pool_low, pool_high],
                    "sides": figures.in_range,
                    "coverage": figures.coverage,
                    "checked": "held out of the fit (benchmarks/strength_coverage.py)",
                    "settings": [EngineSetting.of(data["engine"]).to_json()],
                }
            )
        return checked

    return populations


def fit_go(write: bool) -> None:
    samples, skipped, data = go_samples(GO_DATA)
    print(f"go: {GO_DATA.relative_to(REPO_ROOT)} ({data['engine']}); left out: {skipped}")
    low, high = min(s.target for s in samples), max(s.target for s in samples)
    visits = data.get("visits")

    def describe(result: HeldOut, baseline: HeldOut, sides: int, games: int) -> str:
        from reviewer.core.rating import go_rank_text

        return (
            f"straight line fitted on only {sides} sides of {games} ranked 19×19 games ({go_rank_text(low)}–"
            f"{go_rank_text(high)}, KataGo at {visits} visits); held-out error {result.mae:.1f} ranks on average, "
            f"against {baseline.mae:.1f} for guessing the mean rank"
        )

    def populations(model: dict[str, Any], result: HeldOut) -> list[dict[str, Any]]:
        from reviewer.core.rating import go_rank_text
        from reviewer.core.scoring.population import EngineSetting

        return [
            {
                "name": f"ranked 19×19 games (ranks {go_rank_text(low)}–{go_rank_text(high)})",
                "rating_system": "go ranks",
                "time_classes": [],
                "boards": [[19, 19]],
                "ratings": [low, high],
                "sides": len(samples),
                "coverage": result.coverage,
                "checked": "leave-one-game-out cross-validation",
                "settings": [EngineSetting.of(data["engine"]).to_json()],
            }
        ]

    fit_kind("go", samples, describe, populations, write)


# -------------------------------------------------------------------------------------- go-data


def go_data(files: Sequence[str], engine_id: str, out: Path) -> None:
    """Per-move points lost and weights of each Go game, from the analysis cache (no engine run),
    added to those `out` already holds (a game of the same file name is replaced)."""
    from reviewer.core.analysis import EvaluationTable
    from reviewer.core.cache import AnalysisCache, position_keys
    from reviewer.core.scoring.trust import visits_in

    cache = AnalysisCache()
    games: list[dict[str, Any]] = []
    for name in files:
        game = load_game(name)
        plies = list(range(game.ply_count + 1))
        keys = position_keys(game, plies)
        found = cache.get_many(keys.values(), engine_id)
        table = EvaluationTable()
        for ply, key in keys.items():
            if key in found:
                table.add(replace(found[key], ply=ply))
        basis = select_analysis(game, table)
        assessment = assess_game(game, basis.evaluations)  # labels kept: the fit needs the weights
        games.append(
            {
                "file": Path(name).name,
                "black_rank": game.black_rank,
                "white_rank": game.white_rank,
                "board": [game.board_width, game.board_height],
                "handicap": game.handicap,
                "komi": game.komi,
                "result": game.result,
                "complete": basis.coverage.complete,
                "moves_analysed": basis.coverage.moves_analysed,
                "moves_total": basis.coverage.moves_total,
                # [ply, "b"|"w", points lost (signed), adjusted weight, 1 if KataGo's first choice else 0]
                "moves": [
                    [m.ply, "b" if m.color == "black" else "w", _rounded(m.loss), _rounded(m.weight),
                     None if m.is_best is None else int(m.is_best)]
                    for m in assessment.moves
                    if m.loss is not None and m.weight is not None
                ],
            }
        )
        print(f"{Path(name).name}: {basis.coverage.moves_text()}")
    if out.exists():
        earlier = json.loads(out.read_text(encoding="utf-8"))
        if earlier["engine"] != engine_id:
            raise SystemExit(f"{out} holds games analysed by {earlier['engine']!r}, not {engine_id!r}")
        added = {game["file"] for game in games}
        games = [game for game in earlier["games"] if game["file"] not in added] + games
    payload = {
        "engine": engine_id,
        "visits": visits_in(engine_id),
        "produced_by": f"{COMMAND} go-data … --engine-id {engine_id!r} (after `reviewer analyze FILE --visits N`)",
        "date": dt.date.today().isoformat(),
        "games": games,
    }
    out.write_text(json.dumps(payload, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(games)} games)")


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "go-data":
        parser = argparse.ArgumentParser(prog="strength_fit.py go-data", description=go_data.__doc__)
        parser.add_argument("files", nargs="+")
        parser.add_argument("--engine-id", required=True, help="the cache's engine id: 'identity | limit'")
        parser.add_argument("--out", type=Path, default=GO_DATA)
        args = parser.parse_args(sys.argv[2:])
        go_data(args.files, args.engine_id, args.out)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=("chess", "go", "both"), default="both")
    parser.add_argument("--dry-run", action="store_true", help="print the figures, write no model")
    args = parser.parse_args()
    if args.kind in ("chess", "both"):
        fit_chess(not args.dry_run)
    if args.kind in ("go", "both"):
        fit_go(not args.dry_run)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
