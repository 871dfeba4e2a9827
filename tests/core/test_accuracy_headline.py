"""One accuracy stands for each side, the one the preset's users know, named by what it is, the same
in the report, the PGN tags, the HTML report and the command line (docs/SCORING.md)."""

from __future__ import annotations

import io
import re

import chess.pgn
import pytest

from reviewer.commands.analyze import _print_figures
from reviewer.commands.report import summary_rows
from reviewer.core.embedded_evals import evaluations_from_game
from reviewer.core.export import export_game_text
from reviewer.core.export.reports import report_html
from reviewer.core.formats import open_collection
from reviewer.core.report import build_report
from reviewer.core.scoring import assess_game

HEADLINES = {
    "lichess": ("accuracy_lichess", "lichess accuracy"),
    "seed": ("accuracy_mean", "mean accuracy"),
}


@pytest.fixture
def broadcast_game(corpus_dir):
    """A real rapid game with lichess's [%eval] on every move, whose three accuracies differ."""
    collection = open_collection(corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn")
    for index in range(len(collection)):
        game = collection.game(index)
        table = evaluations_from_game(game)
        black = assess_game(game, table).summary["black"]
        figures = (black.accuracy, black.accuracy_lichess, black.accuracy_mean)  # type: ignore[union-attr]
        if None not in figures and min(abs(a - b) for a, b in ((figures[0], figures[1]), (figures[1], figures[2]), (figures[0], figures[2]))) > 2:
            return game, table
    pytest.skip("no game whose accuracies differ by more than 2 points")


@pytest.mark.parametrize("preset", ["lichess", "seed"])
def test_the_headline_accuracy_is_the_presets_everywhere(broadcast_game, preset):
    game, table = broadcast_game
    field, name = HEADLINES[preset]
    assessment = assess_game(game, table, preset=preset)
    expected = {color: getattr(assessment.summary[color], field) for color in ("white", "black")}
    report = build_report(game, table, {"preset": preset})
    assert report["accuracy_headline"] == {"field": field, "name": name}
    assert {c: report["summary"][c][field] for c in expected} == pytest.approx(expected)

    exported = chess.pgn.read_game(io.StringIO(export_game_text(game, table, assessment)))
    assert exported is not None
    assert exported.headers["WhiteAccuracy"] == f"{expected['white']:.1f}"
    assert exported.headers["BlackAccuracy"] == f"{expected['black']:.1f}"
    assert exported.headers["ReviewerAccuracy"] == name

    page = report_html([report])
    first_row = re.search(r"<tr><td>([^<]*accuracy[^<]*)</td><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td>", page, re.IGNORECASE)
    assert first_row is not None
    assert first_row.group(1).lower() == f"{name} (%)"
    assert (first_row.group(2), first_row.group(3)) == (f"{expected['white']:.1f}", f"{expected['black']:.1f}")

    label, white, black = summary_rows(report)[0]
    assert (label.lower(), white, black) == (name, f"{expected['white']:.1f}", f"{expected['black']:.1f}")

    printed = io.StringIO()
    _print_figures([report], printed)
    assert f"{name} {expected['white']:.1f}%" in printed.getvalue()


def test_every_accuracy_of_the_html_report_is_named(broadcast_game):
    game, table = broadcast_game
    page = report_html([build_report(game, table)])
    for name in ("Lichess accuracy (%)", "En Croissant accuracy (%)", "Mean accuracy (%)"):
        assert f"<td>{name}</td>" in page
    assert "<td>Accuracy (%)</td>" not in page
