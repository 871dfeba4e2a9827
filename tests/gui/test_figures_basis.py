"""Every figure says what it stands on until it is final, the players are named in one order
everywhere, and a handicap is part of the header.

Real windows, real files from the shared corpus, fake engines that speak the real protocols.
"""

from __future__ import annotations

import json
import re
import shlex
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from support import fake_engine_command
from window_support import shown_window

from reviewer.core.analysis import Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.engines.registry import open_engine
from reviewer.core.formats import load_game
from reviewer.core.passes import GoPasses, default_chess_passes
from reviewer.core.review import analyse_game
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

HANDICAP_GAME = ("sgf", "sabaki__beginner_game.sgf")  # 9 stones handicap, 19×19
GO_GAME = ("sgf", "sabaki__endgame-9.sgf")
CHESS_GAME = ("pgn", "chesslib__promoting.pgn")  # 77 plies
STOPPED_IN_PASS_2 = re.compile(r"pass 2 of 2: (\d+) of (\d+) positions in doubt refined")

CHESS_PASSES = len(default_chess_passes().nodes)


@pytest.fixture
def window(qtbot) -> MainWindow:
    return shown_window(qtbot, 1300, 850)


def open_game(qtbot, window: MainWindow, path: Path) -> None:
    with qtbot.waitSignal(window.cache_checked, timeout=15000):
        window.open_file(path)


def click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def slow_katago(window: MainWindow) -> None:
    command = shlex.join(fake_engine_command("fake_katago.py", "--delay", "0.05"))
    window.set_engine_choice(EngineChoice(kind="go", command=command), remember=False)
    window.set_limit("go", GoPasses().limit(), remember=False)


def refined_positions(window: MainWindow) -> int:
    return sum(1 for evaluation in window.session.model.evaluations.ordered() if evaluation.review_pass == 2)


def test_a_go_game_names_black_first_in_the_title_the_header_and_the_summary(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*HANDICAP_GAME))
    game = window.session.model.game
    assert game is not None and game.handicap == 9 and game.black and game.white
    assert window.windowTitle().startswith(f"{game.black} – {game.white} — ")
    header = window.header_label.text()
    assert header.index(game.black) < header.index(game.white)
    names = [window.summary_panel._rows[color].name for color in ("black", "white")]
    assert names[0].y() < names[1].y() and names[0].text() == game.black


def test_the_handicap_stands_beside_the_komi_in_the_header(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*HANDICAP_GAME))
    game = window.session.model.game
    assert game is not None
    assert f"komi {game.komi:g} · 9 stones handicap" in window.header_label.text()


def test_a_go_review_stopped_in_pass_2_says_so_live_in_its_export_and_when_reopened(qtbot, window, corpus_dir, tmp_path) -> None:
    path = corpus_dir.joinpath(*GO_GAME)
    open_game(qtbot, window, path)
    slow_katago(window)
    click(qtbot, window.commands.analyse_button)
    qtbot.waitUntil(lambda: refined_positions(window) >= 2, timeout=60000)
    window.session.model.settle_assessment()
    window.views.refresh()
    # every position has a figure, but pass 2 is under way: nothing reads as final
    assert not window.session.model.basis.coverage.missing_plies
    assert not window.session.model.basis.coverage.complete
    assert window.eval_graph.partial_text().startswith("Not final: ")
    for color in ("black", "white"):
        assert window.summary_panel.basis_text(color).endswith(" moves · pass 2 of 2")
    with qtbot.waitSignal(window.analysis_finished, timeout=10000) as finished:
        click(qtbot, window.commands.analyse_button)  # now "Stop"
    assert finished.args == [False]
    window.session.model.settle_assessment()
    window.views.refresh()
    state = window.summary_panel.state_text()
    live = STOPPED_IN_PASS_2.search(state)
    assert state.startswith("Stopped · ") and live is not None, state
    refined, in_doubt = int(live[1]), int(live[2])
    assert 0 < refined < in_doubt
    assert "all " not in state.split("·")[1] or "searched at pass 1" in state  # never "all N moves analysed"
    report = tmp_path / "stopped.json"
    with qtbot.waitSignal(window.export_finished, timeout=10000):
        window.export(report)
    coverage = json.loads(report.read_text(encoding="utf-8"))["coverage"]
    assert coverage["complete"] is False and coverage["passes"]["reached"] == 2
    assert coverage["passes"]["in_doubt"] == in_doubt and not coverage["passes"]["finished"]
    window.close()

    reopened = MainWindow(discover_engines=False)
    qtbot.addWidget(reopened)
    reopened.show()
    slow_katago(reopened)
    open_game(qtbot, reopened, path)
    reopened.session.model.settle_assessment()
    reopened.views.refresh()
    again = STOPPED_IN_PASS_2.search(reopened.summary_panel.state_text())
    assert again is not None, reopened.summary_panel.state_text()
    assert int(again[2]) == in_doubt and refined <= int(again[1]) < in_doubt  # searches ending as it stopped were kept
    assert "pass 2 of 2" in reopened.summary_panel.basis_text("black")
    assert reopened.eval_graph.partial_text().startswith("Not final: ")


def test_a_review_in_passes_says_which_pass_its_figures_come_from(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*CHESS_GAME))
    command = shlex.join(fake_engine_command("fake_uci.py", "--search-ms", "60"))
    window.set_engine_choice(EngineChoice(kind="chess", command=command), remember=False)
    arrived: list[int] = []
    window.session.evaluation_added.connect(arrived.append)
    click(qtbot, window.commands.analyse_button)
    qtbot.waitUntil(lambda: len(arrived) >= 24, timeout=30000)
    window.session.model.settle_assessment()
    window.views.refresh()
    for color in ("white", "black"):
        basis = window.summary_panel.basis_text(color)
        assert re.fullmatch(rf"\d+/\d+ moves · pass 1 of {CHESS_PASSES}", basis), basis
        shown = window.summary_panel.accuracy_text(color)
        # lichess's accuracy (the default preset's headline) needs the positions from the start,
        # which a pass searching backwards reaches last: until then the figure says it is unknown.
        assert shown.endswith("%") or (
            shown == "—" and "needs every position from the start" in window.summary_panel._rows[color].accuracy.toolTip()
        ), shown
    assert window.eval_graph.partial_text().startswith("Not final: analysed ")
    with qtbot.waitSignal(window.analysis_finished, timeout=10000):
        click(qtbot, window.commands.analyse_button)
    window.session.model.settle_assessment()
    assert f" · pass 1 of {CHESS_PASSES}" in window.summary_panel.state_text()
    assert f"pass 1 of {CHESS_PASSES}" in window.summary_panel.basis_text("white")


def test_a_finished_review_in_passes_has_final_figures(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    command = shlex.join(fake_engine_command("fake_katago.py"))
    window.set_engine_choice(EngineChoice(kind="go", command=command), remember=False)
    window.set_limit("go", GoPasses().limit(), remember=False)
    with qtbot.waitSignal(window.analysis_finished, timeout=60000) as finished:
        click(qtbot, window.commands.analyse_button)
    assert finished.args == [True]
    window.session.model.settle_assessment()
    window.views.refresh()
    assert window.session.model.basis.coverage.complete
    assert window.summary_panel.state_text() == f"Done · all {window.session.model.ply_count} moves analysed"
    assert window.summary_panel.basis_text("black") == window.summary_panel.basis_text("white") == ""
    assert window.eval_graph.partial_text() == ""


def test_a_game_with_one_cached_move_shows_no_figure_from_it(qtbot, window, corpus_dir) -> None:
    path = corpus_dir.joinpath(*CHESS_GAME)
    command = shlex.join(fake_engine_command("fake_uci.py"))
    choice = EngineChoice(kind="chess", command=command)
    engine = open_engine("chess", None, command)
    try:
        with AnalysisCache() as cache:  # the cache knows the first move of this game, nothing more
            found = list(analyse_game(load_game(path), engine, Limit(nodes=100000), cache=cache, plies=[0, 1, 2]))
        identity = engine.identity
    finally:
        engine.close()
    assert len(found) == 3
    window.settings.set_engine_identity(choice, identity)
    window.set_engine_choice(choice, remember=False)
    window.set_limit("chess", Limit(nodes=100000), remember=False)
    open_game(qtbot, window, path)
    window.session.model.settle_assessment()
    window.views.refresh()
    assert window.session.model.basis.coverage.moves_analysed == 2
    for color in ("white", "black"):
        assert window.summary_panel.accuracy_text(color) == "—"
        details = window.summary_panel.details_text(color)
        assert "ACPL" not in details and ("too few for a figure" in details or "no move" in details), details
        for judgement in ("inaccuracy", "mistake", "blunder"):
            chip = window.summary_panel.count_button(color, judgement)
            assert chip.text().startswith("–") and not chip.isEnabled()
    assert re.fullmatch(r"[01]/\d+ moves", window.summary_panel.basis_text("white"))
    assert "accuracy" not in window.bottom_player.label.text() and "accuracy" not in window.top_player.label.text()


def test_until_the_cache_answers_the_header_says_it_looks_for_a_saved_analysis(qtbot, window, corpus_dir, monkeypatch) -> None:
    from reviewer.gui.engines import analysis_controller

    answer = threading.Event()
    real = analysis_controller._cached_analysis

    def held_lookup(*args):
        answer.wait(30)
        return real(*args)

    monkeypatch.setattr(analysis_controller, "_cached_analysis", held_lookup)
    window.open_file(corpus_dir.joinpath(*CHESS_GAME))
    qtbot.waitUntil(lambda: window.summary_panel.state_text() == "Looking for a saved analysis…", timeout=15000)
    assert window.state_label.text() == "Looking for a saved analysis…"
    with qtbot.waitSignal(window.cache_checked, timeout=15000):
        answer.set()
    assert window.summary_panel.state_text() == "Not analysed"


@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")  # the offscreen platform's notes
def test_the_best_cached_analysis_is_shown_whatever_the_budget_and_switching_shows_the_new_ones(qtbot, window, corpus_dir, tmp_path) -> None:
    path = corpus_dir.joinpath(*CHESS_GAME)
    log = tmp_path / "searches.log"
    command = shlex.join(fake_engine_command("fake_uci.py", "--log", str(log)))
    engine = open_engine("chess", None, command)
    try:
        with AnalysisCache() as cache:  # reviewed before at two budgets, neither the one chosen now
            for limit in (Limit(nodes=1_000_000), Limit(nodes=100_000)):
                assert len(list(analyse_game(load_game(path), engine, limit, cache=cache))) == 78
    finally:
        engine.close()
    searched = log.read_text().count("\n")
    window.set_engine_choice(EngineChoice(kind="chess", command=command), remember=False)
    combo = window.commands.limit_combo
    assert combo.currentIndex() == 0 and combo.currentText().startswith("Passes")
    open_game(qtbot, window, path)
    window.session.model.settle_assessment()
    moves = window.session.model.ply_count
    assert window.session.model.basis.coverage.complete
    shown = window.summary_panel.state_text()
    assert re.match(rf"All {moves} moves analysed · (100k|1M) nodes", shown), shown
    assert window.summary_panel.accuracy_text("white").endswith("%")
    for budget in (100_000, 1_000_000):
        index = next(i for i in range(combo.count()) if combo.itemData(i) == Limit(nodes=budget))
        click(qtbot, combo)  # the list of budgets opens
        view = combo.view()
        qtbot.waitUntil(view.isVisible, timeout=5000)
        for _ in range(index - combo.currentIndex()):
            qtbot.keyClick(view, Qt.Key.Key_Down)
        with qtbot.waitSignal(window.cache_checked, timeout=15000):
            qtbot.keyClick(view, Qt.Key.Key_Return)
        window.session.model.settle_assessment()
        assert window.session.model.basis.coverage.limit == f"nodes={budget},multipv=1"
        # the chosen budget's (the other analysis is named as left out)
        assert window.summary_panel.state_text().split(" (")[0] == f"All {moves} moves analysed"
    assert not window.analysis.is_running()
    assert log.read_text().count("\n") == searched  # no engine searched anything
