"""The summary panel shows each side's figures and turns count clicks into signals."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from reviewer.gui.review.summary_panel import SummaryPanel

WHITE = {
    "accuracy": 87.31,
    "accuracy_lichess": 85.12,
    "accuracy_mean": 90.2,
    "acpl": 21.4,
    "stdcpl": 35.2,
    "elo_estimate": 2500.3,
    "counts": {"book": 4, "best": 10, "good": 8, "inaccuracy": 4, "mistake": 1, "blunder": 0},
}
BLACK = {
    "accuracy": 71.0,
    "accuracy_lichess": None,
    "accuracy_mean": 80.0,
    "acpl": 48.0,
    "stdcpl": None,
    "elo_estimate": 1915.0,
    "counts": {"inaccuracy": 2, "mistake": 3, "blunder": 1},
}


@pytest.fixture
def panel(qtbot) -> SummaryPanel:
    widget = SummaryPanel()
    qtbot.addWidget(widget)
    widget.resize(460, 110)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_chess_figures_are_shown_per_side(panel):
    panel.set_summary("chess", WHITE, BLACK, ("Carlsen", "Nakamura"))
    assert panel.accuracy_text("white") == "85.1%"  # no preset named: lichess's thresholds, lichess's accuracy
    assert panel.accuracy_text("black") == "—"
    assert "ACPL 21" in panel.details_text("white")
    assert "Elo" not in panel.details_text("white")  # no strength estimate without its interval
    assert panel.details_text("white").startswith("lichess accuracy · ACPL 21")  # the one on show, named
    assert "%" not in panel.details_text("white")  # the others are in the tooltip
    tooltip = panel._rows["white"].accuracy.toolTip()
    assert tooltip.startswith("Lichess accuracy: lichess's game accuracy")
    assert "En Croissant accuracy: 87.3%" in tooltip and "Mean accuracy: 90.2%" in tooltip
    assert "STDCPL —" in panel.details_text("black")  # unknown values read as a dash
    assert panel.count_button("white", "inaccuracy").text() == "4 ?!"
    assert panel.count_button("black", "blunder").text() == "1 ??"


def test_the_strength_estimate_is_shown_with_its_interval_or_the_reason_there_is_none(panel):
    estimate = {"elo": 2254, "low": 2037, "high": 2422, "level": 0.8, "basis": "fitted on 900 rated games"}
    panel.set_summary(
        "chess", WHITE, BLACK, ("Carlsen", "Nakamura"), {"white": estimate, "black": "fewer than 20 scored moves"}
    )
    assert "Elo 2254 (2037 – 2422, 80%)" in panel.details_text("white")
    assert "fitted on 900 rated games" in panel._rows["white"].details.toolTip()
    assert "Elo" not in panel.details_text("black")
    assert "none (fewer than 20 scored moves)" in panel._rows["black"].details.toolTip()


def test_a_go_rank_estimate_reads_as_ranks(panel):
    estimate = {"rank": -2.0, "low": -6.0, "high": 1.0, "level": 0.8, "basis": "b"}
    panel.set_summary("go", None, {"accuracy": 60.0, "counts": {}}, ("W", "B"), {"white": None, "black": estimate})
    assert "rank 3k (7k – 1d, 80%)" in panel.details_text("black")


def test_clicking_a_count_emits_side_and_judgement(panel, qtbot):
    panel.set_summary("chess", WHITE, BLACK, ("Carlsen", "Nakamura"))
    with qtbot.waitSignal(panel.judgement_clicked) as blocker:
        qtbot.mouseClick(panel.count_button("black", "mistake"), Qt.MouseButton.LeftButton)
    assert blocker.args == ["black", "mistake"]


def test_a_zero_count_is_not_clickable(panel, qtbot):
    panel.set_summary("chess", WHITE, BLACK, ("Carlsen", "Nakamura"))
    button = panel.count_button("white", "blunder")
    assert not button.isEnabled()
    with qtbot.assertNotEmitted(panel.judgement_clicked):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_go_figures_and_missing_side(panel, qtbot):
    go_black = {
        "accuracy": 78.24,
        "weighted_loss": 0.862,
        "mean_loss": 1.2,
        "top_move_match": 0.45,
        "top5_match": 0.7,
        "top5_moves": 20,
        "counts": {"inaccuracy": 5, "mistake": 2, "blunder": 1},
    }
    panel.set_summary("go", None, go_black, ("Lee Sedol", "AlphaGo"))
    assert panel.accuracy_text("black") == "78.2%"
    details = panel.details_text("black")
    assert "weighted loss 0.86" in details and "top move 45%" in details and "top 5 14/20" in details
    assert panel.accuracy_text("white") == "—"
    assert not panel.count_button("white", "mistake").isEnabled()
    with qtbot.waitSignal(panel.judgement_clicked) as blocker:
        qtbot.mouseClick(panel.count_button("black", "inaccuracy"), Qt.MouseButton.LeftButton)
    assert blocker.args == ["black", "inaccuracy"]


def test_go_top5_says_on_how_many_positions_or_is_left_out(panel):
    # A review whose positions were searched to one or two lines has no top 5 to be one of.
    brief = {"accuracy": 80.0, "weighted_loss": 0.8, "mean_loss": 1.0, "top_move_match": 0.4,
             "top5_match": None, "top5_moves": 0, "counts": {}}
    panel.set_summary("go", brief, {**brief, "top5_match": 0.6, "top5_moves": 20}, ("W", "B"))
    assert "top 5" not in panel.details_text("white")
    assert "none (no position before this side's moves was searched to five lines)" in panel.details_tooltip("white")
    assert "top 5 12/20" in panel.details_text("black")
    assert "12 of the 20 moves whose position has five lines" in panel.details_tooltip("black")


def test_go_lists_black_first(panel):
    panel.set_summary("go", {"accuracy": 50.0, "counts": {}}, {"accuracy": 60.0, "counts": {}}, ("W", "B"))
    panel.layout().activate()
    black_y = panel.count_button("black", "mistake").geometry().top()
    white_y = panel.count_button("white", "mistake").geometry().top()
    panel.set_summary("chess", WHITE, BLACK, ("W", "B"))
    panel.layout().activate()
    assert black_y < white_y
    assert panel.count_button("white", "mistake").geometry().top() < panel.count_button("black", "mistake").geometry().top()


def test_dark_palette_restyles_the_panel(panel):
    from reviewer.gui.common import style

    panel.set_summary("chess", WHITE, BLACK, ("Carlsen", "Nakamura"))
    light_sheet = panel.count_button("white", "inaccuracy").styleSheet()
    assert style.theme_for(panel) is style.LIGHT_THEME
    panel.setPalette(style.make_palette(dark=True))
    assert style.theme_for(panel) is style.DARK_THEME
    assert panel.count_button("white", "inaccuracy").styleSheet() != light_sheet


@pytest.mark.parametrize(("preset", "field", "name"), [("lichess", "accuracy_lichess", "Lichess accuracy"),
                                                      ("seed", "accuracy_mean", "Mean accuracy")])
def test_the_header_shows_the_presets_accuracy_by_name(panel, corpus_dir, preset, field, name):
    from reviewer.core.embedded_evals import evaluations_from_game
    from reviewer.core.formats import open_collection
    from reviewer.core.scoring import assess_game
    from reviewer.gui.presenters.figures import side_accuracy, summary_dicts

    game = open_collection(corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn").game(0)
    assessment = assess_game(game, evaluations_from_game(game), preset=preset)
    white, black = summary_dicts(assessment)
    panel.set_summary("chess", white, black, (game.white, game.black))
    for color in ("white", "black"):
        expected = getattr(assessment.summary[color], field)
        assert panel.accuracy_text(color) == f"{expected:.1f}%"
        assert side_accuracy(assessment, color) == pytest.approx(expected)  # the player strips
        tooltip = panel._rows[color].accuracy.toolTip()
        assert tooltip.startswith(f"{name}: ")
        assert panel.details_tooltip(color).startswith(f"{name}: {expected:.1f}%")
