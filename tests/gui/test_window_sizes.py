"""Every window fits the screen it opens on (a 1366×768 laptop included), and the main window
stays usable at its smallest, 900×600: real windows, their geometry after show."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSize

from reviewer.gui.common.window_size import FRAME_PX, fitted_size

LAPTOP = QRect(0, 0, 1366, 768 - 40)  # the area a desktop panel leaves on a 1366×768 screen


def test_a_default_size_is_cut_to_what_the_screen_leaves_room_for():
    assert fitted_size(QSize(1400, 900), LAPTOP) == QSize(1366 - FRAME_PX.width(), 728 - FRAME_PX.height())
    assert fitted_size(QSize(860, 640), LAPTOP) == QSize(860, 640)  # a size that fits is kept


def _main_window():
    from reviewer.gui.window.main_window import MainWindow

    return MainWindow(discover_engines=False, remember_layout=False)


def _collection_window():
    from reviewer.gui.collection.collection_window import CollectionWindow

    return CollectionWindow()


def _players_window():
    from reviewer.gui.collection.players_window import PlayersWindow

    return PlayersWindow()


def _train_window():
    from reviewer.core.services.trainer.deck import Deck
    from reviewer.gui.trainer.train_window import TrainWindow

    return TrainWindow(Deck)


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # the offscreen platform's note
@pytest.mark.parametrize("make", [_main_window, _collection_window, _players_window, _train_window])
def test_every_window_opens_within_its_screen_and_can_shrink_to_a_laptops(qtbot, make):
    window = make()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    available = window.screen().availableGeometry()
    assert window.height() + FRAME_PX.height() <= available.height()
    assert window.width() <= max(available.width() - FRAME_PX.width(), window.minimumWidth())
    smallest = window.minimumSizeHint().expandedTo(window.minimumSize())
    assert smallest.width() <= LAPTOP.width() - FRAME_PX.width() and smallest.height() <= LAPTOP.height() - FRAME_PX.height()
    if hasattr(window, "shutdown"):
        window.shutdown()


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_at_900_by_600_the_move_list_shows_five_moves_and_nothing_overlaps(qtbot, corpus_dir):
    from reviewer.gui.review.move_list import MIN_ROWS

    window = _main_window()
    qtbot.addWidget(window)
    window.resize(900, 600)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.file_opened, timeout=10_000):
        window.open_file(corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn", game_index=7, ply=20)
    qtbot.waitUntil(lambda: window.session.model.assessment_settled and window.eval_graph is not None, timeout=20_000)
    qtbot.waitUntil(lambda: window.eval_graph.isVisible(), timeout=10_000)
    assert window.size() == QSize(900, 600)  # the panes' minimums do not push the window bigger
    move_list = window.move_list
    assert move_list.viewport().height() >= move_list._row_height() * MIN_ROWS
    panel = window.review_panel
    shown = [w for w in (panel.header_label, panel.summary_panel, panel.splitter, panel.move_entry) if w.isVisible()]
    for upper, lower in zip(shown, shown[1:]):
        assert upper.geometry().bottom() < lower.geometry().top(), (upper, lower)
    assert window.comment_view.height() >= window.comment_view.minimumHeight()
    assert window.eval_graph.height() >= window.eval_graph.minimumHeight()


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_at_900_by_600_a_long_name_is_cut_short_and_the_accuracy_is_never_clipped(qtbot, corpus_dir):
    window = _main_window()
    qtbot.addWidget(window)
    window.resize(900, 600)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.file_opened, timeout=10_000):  # Charkhalashvili, Inga – Ju, Wenjun: partly analysed
        window.open_file(corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn", game_index=0, ply=20)
    qtbot.waitUntil(lambda: window.session.model.assessment_settled, timeout=20_000)
    strips = {strip.color: strip for strip in (window.board_area.top_player, window.board_area.bottom_player)}
    for strip in strips.values():
        figures = strip.label
        assert "%" in figures.text() and "partial" in figures.text()
        assert figures.width() >= figures.sizeHint().width()  # drawn whole
        assert figures.geometry().right() <= strip.contentsRect().right()
    white = strips["white"]
    # cut short beside the figures and the clock (the broadcast carries clocks), the clock drawn whole
    assert "<b>Charkh" in white.name_label.text() and "…" in white.name_label.text()
    assert white.name_label.toolTip() == "Charkhalashvili, Inga"
    assert white.clock_text() and white.clock_label.width() >= white.clock_label.sizeHint().width()
    window.resize(1600, 900)  # the names, the figures and the clocks all fit
    qtbot.waitUntil(lambda: "accuracy" in white.label.text())  # room again: the figures in full
    assert "partial analysis" in white.label.text() and "Charkhalashvili, Inga" in white.name_label.text()
