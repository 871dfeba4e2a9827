"""The window shows no figure without the analysis behind it, and every problem until dismissed.

Real widgets, real files from the shared corpus, real engines (the fake UCI engine speaks the real
protocol; Stockfish's installer is the real one), real mouse clicks.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from support import FAKES_DIR, fake_engine_command

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.engines.registry import open_engine
from reviewer.core.formats import load_game
from reviewer.core.review import analyse_game
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.presenters.comment import comment_html
from reviewer.gui.window.main_window import MainWindow

SHORT_GAME = ("pgn", "chesslib__promoting.pgn")  # 77 plies
ILLEGAL_MOVE_GAME = ("pgn", "chesslib__err.pgn")  # an illegal move at 46... ends the main line
GO_GAME = ("sgf", "sabaki__endgame-9.sgf")
BUILTIN_ID = "builtin-go 1.0 playouts=50 rave seed=0 | visits=50,multipv=1"


@pytest.fixture
def window(qtbot) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1300, 850)
    main.show()
    qtbot.waitExposed(main)
    return main


def open_game(qtbot, window: MainWindow, path: Path) -> None:
    with qtbot.waitSignal(window.cache_checked, timeout=15000):
        window.open_file(path)


def fake_choice(*switches: str) -> EngineChoice:
    return EngineChoice(kind="chess", command=shlex.join(fake_engine_command("fake_uci.py", *switches)))


def click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def test_a_game_with_a_few_cached_positions_is_a_partial_analysis_not_a_verdict(qtbot, window, corpus_dir) -> None:
    path = corpus_dir.joinpath(*SHORT_GAME)
    choice = fake_choice()
    engine = open_engine("chess", None, choice.command)
    try:
        with AnalysisCache() as cache:  # the user's real cache knows three positions of this game
            found = list(analyse_game(load_game(path), engine, Limit(nodes=100000), cache=cache, plies=[0, 1, 2]))
        identity = engine.identity
    finally:
        engine.close()
    assert len(found) == 3
    window.settings.set_engine_identity(choice, identity)
    window.set_engine_choice(choice, remember=False)
    window.set_limit("chess", Limit(nodes=100000), remember=False)
    with qtbot.waitSignal(window.cache_checked, timeout=15000) as checked:
        window.open_file(path)
    assert checked.args == [3]
    window.session.model.settle_assessment()
    moves = window.session.model.ply_count
    assert window.state_label.text() == f"Analysed 2 of {moves} moves"
    assert window.summary_panel.state_text().startswith(f"Analysed 2 of {moves} moves")
    assert "(partial analysis)" in window.bottom_player.label.text()
    assert window.eval_graph.missing_plies() == tuple(range(3, moves + 1))


def test_stop_says_stopped_and_every_view_says_partial(qtbot, window, corpus_dir, tmp_path) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.set_engine_choice(fake_choice("--search-ms", "80"), remember=False)
    arrived: list[int] = []
    window.session.evaluation_added.connect(arrived.append)
    with qtbot.waitSignal(window.session.evaluation_added, timeout=15000):
        click(qtbot, window.commands.analyse_button)
    assert window.state_label.text().startswith("Analysing… ")
    qtbot.waitUntil(lambda: len(arrived) >= 6, timeout=20000)
    with qtbot.waitSignal(window.analysis_finished, timeout=5000) as finished:
        click(qtbot, window.commands.analyse_button)  # now "Stop"
    assert finished.args == [False]
    window.session.model.settle_assessment()
    coverage = window.session.model.basis.coverage
    assert 0 < coverage.moves_analysed < coverage.moves_total
    assert coverage.moves_text().startswith(f"analysed {coverage.moves_analysed} of {coverage.moves_total} moves")
    expected = f"Stopped · {coverage.moves_text()}"
    assert window.state_label.text() == expected
    assert window.summary_panel.state_text() == expected
    for color in ("white", "black"):  # no strength estimate from part of a game
        assert "Elo" not in window.summary_panel.details_text(color)
        assert "it needs every move analysed" in window.summary_panel._rows[color].details.toolTip()
    assert not window.progress_bar.isVisible()
    assert window.eval_graph.missing_plies() == coverage.missing_plies
    report = tmp_path / "partial.json"
    with qtbot.waitSignal(window.export_finished, timeout=10000):
        window.export(report)
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["coverage"]["complete"] is False
    assert written["coverage"]["moves_analysed"] == coverage.moves_analysed
    assert written["coverage"]["moves_total"] == window.session.model.ply_count
    assert written["coverage"]["engine"]["name"] and written["coverage"]["limit"]
    pgn = tmp_path / "partial.pgn"
    with qtbot.waitSignal(window.export_finished, timeout=10000):
        window.export(pgn)
    assert f'[ReviewerCoverage "{coverage.moves_text()}"]' in pgn.read_text(
        encoding="utf-8"
    )


def test_two_engines_are_never_averaged_in_the_summary(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.set_engine_choice(fake_choice("--name", "Alpha"), remember=False)
    with qtbot.waitSignal(window.analysis_finished, timeout=30000):
        click(qtbot, window.commands.analyse_button)
    window.session.model.settle_assessment()
    assert window.state_label.text() == f"Done · all {window.session.model.ply_count} moves analysed"
    alpha = window.summary_panel.accuracy_text("white")
    # a second engine, stopped early: its partial set is shown, the first is not mixed in
    window.set_engine_choice(fake_choice("--name", "Beta", "--search-ms", "80"), remember=False)
    arrived: list[int] = []
    window.session.evaluation_added.connect(arrived.append)
    click(qtbot, window.commands.analyse_button)
    qtbot.waitUntil(lambda: len(arrived) >= 5, timeout=20000)
    with qtbot.waitSignal(window.analysis_finished, timeout=5000):
        click(qtbot, window.commands.analyse_button)
    window.session.model.settle_assessment()
    ids = {evaluation.engine_id for evaluation in window.session.model.evaluations.ordered()}
    assert len(ids) == 1 and next(iter(ids)).startswith("Beta")
    assert "Alpha" in window.summary_panel.state_text() and "not mixed in" in window.summary_panel.state_text()
    assert window.summary_panel.state_text().startswith("Stopped · analysed")
    assert alpha  # Alpha's complete figures were on show before


def test_the_built_in_go_engine_gives_a_rough_estimate_without_labels(qtbot, window, corpus_dir, tmp_path) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    game = window.session.model.game
    assert game is not None
    evaluations = []
    for ply in range(game.ply_count + 1):
        lead = 3.0 if ply % 4 < 2 else -9.0  # big swings a trusted engine would call blunders
        evaluations.append(Evaluation(ply=ply, kind="go", engine_id=BUILTIN_ID, score_lead_first=lead, winrate_first=0.5, best_move="A1"))
    for evaluation in evaluations:
        window.analysis.evaluation_ready.emit(evaluation)  # as the analysis delivers them
    window.session.model.settle_assessment()
    window.views.refresh()
    assert window.session.model.judgements() == {} or set(window.session.model.judgements().values()) == {None}
    for color in ("white", "black"):
        assert window.summary_panel.accuracy_text(color) == "—"
        assert window.summary_panel.count_button(color, "blunder").text().startswith("–")
    notice = window.summary_panel.notice_text()
    assert notice.startswith("Rough estimate:") and "reviewer engines install" in notice
    assert window.eval_graph.rough_label.isVisible()
    assert window.board.candidates_rough  # candidates in one neutral grey, not loss colours
    window.session.model.set_current_ply(3)
    text = comment_html(window.session.model, window.session.model.current_node)
    assert "rough estimate" in text and "Blunder" not in text
    report = tmp_path / "go.json"
    with qtbot.waitSignal(window.export_finished, timeout=10000):
        window.export(report)
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["trust"]["labels"] is False and "KataGo" in written["trust"]["remedy"]
    assert written["summary"]["black"]["accuracy"] is None and written["summary"]["black"]["counts"] is None
    assert all(move["judgement"] is None for move in written["moves"])


def test_a_file_problem_stays_in_the_bar_and_is_marked_at_the_move(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*ILLEGAL_MOVE_GAME))
    game = window.session.model.game
    assert game is not None and game.warnings
    texts = [message.text for message in window.message_bar.messages()]
    assert texts == list(game.warnings)
    assert window.message_bar.isVisible()
    # a later status message (the cache, an export) does not replace it
    window.statusBar().showMessage("From the analysis cache: 0 positions")
    assert [m.text for m in window.message_bar.messages()] == texts
    last = game.ply_count
    assert "Kg2" in window.move_list.problem_text(last)
    # the ⚠ tooltip at that move
    window.session.model.set_current_ply(last)
    rect = window.move_list.item_rect(game.node_at_ply(last))
    assert rect is not None
    assert "Kg2" in window.move_list.tooltip_at(rect.center())  # what hovering the ⚠ shows
    assert window.move_list.tooltip_at(window.move_list.item_rect(game.node_at_ply(1)).center()) == ""
    # dismissed with a real click on ✕
    row = window.message_bar.row(window.message_bar.messages()[0].key)
    assert row is not None
    click(qtbot, row.close_button)
    assert window.message_bar.messages() == [] and not window.message_bar.isVisible()


def _uci_wrapper(tmp_path: Path) -> Path:
    """A one-file program (what a file dialog picks) that runs the fake UCI engine."""
    script = tmp_path / "my-engine"
    script.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(FAKES_DIR / 'fake_uci.py'))} --name Located\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_no_chess_engine_says_so_and_offers_to_locate_one(qtbot, window, corpus_dir, tmp_path, monkeypatch) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.set_engine_choice(EngineChoice(kind="chess", name="no-such-engine"), remember=False)
    with qtbot.waitSignal(window.analysis_finished, timeout=15000) as finished:
        click(qtbot, window.commands.analyse_button)
    assert finished.args == [False]
    assert window.state_label.text().startswith("Failed: no chess engine named 'no-such-engine'")
    assert not window.progress_bar.isVisible()  # no "0/78" left behind
    row = window.message_bar.row("analysis-failed")
    assert row is not None and set(row.buttons) == {"locate-engine", "install-stockfish"}
    # a file that does not speak UCI is refused, with the reason
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: ("/bin/true", ""))
    click(qtbot, row.buttons["locate-engine"])
    qtbot.waitUntil(lambda: window.message_bar.row("engine-located") is not None, timeout=20000)
    refused = window.message_bar.row("engine-located")
    assert refused is not None and "does not speak UCI" in refused.message.text
    # a real UCI engine is taken, and the analysis then runs
    program = _uci_wrapper(tmp_path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(program), ""))
    row = window.message_bar.row("analysis-failed")
    assert row is not None
    click(qtbot, row.buttons["locate-engine"])
    qtbot.waitUntil(lambda: window.engine_choice("chess").command is not None, timeout=20000)
    assert window.engine_choice("chess").command == shlex.quote(str(program))
    assert window.message_bar.row("analysis-failed") is None
    with qtbot.waitSignal(window.analysis_finished, timeout=30000) as finished:
        click(qtbot, window.commands.analyse_button)
    assert finished.args == [True]
    assert window.state_label.text().startswith("Done · all ")


@pytest.mark.skipif(not os.path.exists("/usr/games/stockfish"), reason="Stockfish is not installed here")
def test_install_stockfish_runs_the_installer_off_the_gui_thread(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.set_engine_choice(EngineChoice(kind="chess", name="no-such-engine"), remember=False)
    with qtbot.waitSignal(window.analysis_finished, timeout=15000):
        click(qtbot, window.commands.analyse_button)
    row = window.message_bar.row("analysis-failed")
    assert row is not None
    click(qtbot, row.buttons["install-stockfish"])
    qtbot.waitUntil(lambda: window.message_bar.row("stockfish-installed") is not None, timeout=60000)
    done = window.message_bar.row("stockfish-installed")
    assert done is not None and "Stockfish is installed" in done.message.text
    assert window.message_bar.row("analysis-failed") is None


def test_mates_keep_their_distance_in_the_comment(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    engine_id = "Fake 1 | nodes=1,multipv=1"
    window.session.model.add_evaluations(
        [
            Evaluation(ply=4, kind="chess", engine_id=engine_id, mate_first=3, best_move="Qh5", pv=("Qh5",)),
            Evaluation(ply=5, kind="chess", engine_id=engine_id, mate_first=-2, best_move="Qh4", pv=("Qh4",)),
        ],
        from_analysis=True,
    )
    window.session.model.settle_assessment()
    text = comment_html(window.session.model, window.session.model.mainline_node(5))
    assert "#3 → #-2" in text and "+M" not in text and "−M" not in text
    assert "Engine #-2" in text
    window.views.refresh()
    game = window.session.model.game
    assert window.eval_graph.tooltip_at(4) == f"2… {game.node_at_ply(4).move}  #3"
    assert window.eval_graph.tooltip_at(5) == f"3. {game.node_at_ply(5).move}  #-2"
    assert window.eval_graph.tooltip_at(6).endswith("not analysed")
    # the tooltip follows a real mouse move over the graph
    view = window.eval_graph.view
    point = view.mapFromScene(window.eval_graph.scene_pos_for(5, plot="loss"))
    qtbot.mouseMove(view.viewport(), point)
    qtbot.waitUntil(lambda: view.toolTip().endswith("#-2"), timeout=3000)


def test_scores_shown_for_a_best_move_never_say_it_lost(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    engine_id = "Fake 1 | nodes=1,multipv=1"
    game = window.session.model.game
    assert game is not None
    played = game.node_at_ply(31).move
    window.session.model.add_evaluations(
        [
            Evaluation(ply=30, kind="chess", engine_id=engine_id, score_cp_first=30, best_move=played, pv=(played,)),
            Evaluation(ply=31, kind="chess", engine_id=engine_id, score_cp_first=-473, best_move="a6", pv=("a6",)),
        ],
        from_analysis=True,
    )
    window.session.model.settle_assessment()
    move = window.session.model.move_assessment(31)
    assert move is not None and move.judgement == "best" and move.loss == pytest.approx(503)
    text = comment_html(window.session.model, window.session.model.mainline_node(31))
    assert "Best move." in text and "cp lost" not in text and "5.03" in text



def test_an_engine_warning_is_kept_in_the_message_bar(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    command = shlex.join(fake_engine_command("fake_katago.py", "--warning", "unknown rules, using tromp-taylor"))
    window.set_engine_choice(EngineChoice(kind="go", command=command), remember=False)
    with qtbot.waitSignal(window.analysis_finished, timeout=30000) as finished:
        click(qtbot, window.commands.analyse_button)
    assert finished.args == [True]
    texts = [message.text for message in window.message_bar.messages()]
    assert texts == ["KataGo: unknown rules, using tromp-taylor"]  # once, however many queries warned
    assert window.state_label.text().startswith("Done · all ")
