"""The main window end to end: open, navigate, analyse with a fake engine, cancel, export."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from support import fake_engine_command

from reviewer.core.analysis import Evaluation, Limit
from reviewer.core.formats import load_game, open_collection
from reviewer.core.games.chess import board_after as chess_board_at
from reviewer.gui.board.go_play import PlayableGoBoard
from reviewer.gui.common.settings import EngineChoice, Settings, describe_limit
from reviewer.gui.dialogs.game_chooser import GameChooserDialog
from reviewer.gui.presenters.comment import comment_html
from reviewer.gui.window.main_window import MainWindow

FORK_GAME = ("pgn", "zatonix-ctm__chesscom_fork_pgn.pgn")  # 55 plies, with variations
SHORT_GAME = ("pgn", "chesslib__promoting.pgn")  # 77 plies
GO_GAME = ("sgf", "sabaki__endgame-9.sgf")


@pytest.fixture
def window(qtbot) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1200, 800)
    main.show()
    qtbot.waitExposed(main)
    return main


def open_game(qtbot, window: MainWindow, path: Path, **options) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=10000):
        window.open_file(path, **options)


def use_fake_engine(window: MainWindow, *switches: str) -> None:
    command = shlex.join(fake_engine_command("fake_uci.py", *switches))
    window.set_engine_choice(EngineChoice(kind="chess", command=command), remember=False)


def analyse(qtbot, window: MainWindow, timeout_ms: int = 30000) -> None:
    with qtbot.waitSignal(window.analysis_finished, timeout=timeout_ms) as finished:
        window.start_analysis()
    assert finished.args == [True]


def test_open_a_corpus_game_and_step_with_the_keys(qtbot, window, corpus_dir) -> None:
    path = corpus_dir.joinpath(*SHORT_GAME)
    open_game(qtbot, window, path)
    game = window.session.model.game
    assert game is not None and game.white == "Gorodetzky, David"
    assert "Gorodetzky" in window.windowTitle()
    assert window.session.model.current_ply == 0

    qtbot.keyClick(window, Qt.Key.Key_Right)
    qtbot.keyClick(window, Qt.Key.Key_Right)
    assert window.session.model.current_ply == 2
    node = game.node_at_ply(2)
    assert window.board.board().fen() == chess_board_at(game, node).fen()
    assert window.move_list.current_node() is node
    assert window.eval_graph.current_ply() == 2

    qtbot.keyClick(window, Qt.Key.Key_End)
    assert window.session.model.current_ply == game.ply_count
    qtbot.keyClick(window, Qt.Key.Key_Left)
    assert window.session.model.current_ply == game.ply_count - 1
    qtbot.keyClick(window, Qt.Key.Key_Home)
    assert window.session.model.current_ply == 0
    assert Settings().recent_files()[0] == str(path.resolve())


def test_wheel_over_the_board_steps_through_the_session(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    window.board.wheel_steps.emit(3)
    window.board.wheel_steps.emit(-1)
    assert window.session.model.current_ply == 2


def test_clicking_the_graph_moves_board_and_move_list(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    game = window.session.model.game
    for ply in range(game.ply_count + 1):  # synthetic evaluations so that the graph has points
        window.session.model.add_evaluation(
            Evaluation(ply=ply, kind="chess", score_cp_first=(ply % 7) * 20, side_to_move="white" if ply % 2 == 0 else "black")
        )
    qtbot.waitUntil(lambda: not window._refresh_timer.isActive(), timeout=20_000)  # the throttled refresh ran
    graph = window.eval_graph
    target = 40
    position = graph.view.mapFromScene(graph.scene_pos_for(target))
    with qtbot.waitSignal(graph.ply_clicked, timeout=2000) as clicked:
        qtbot.mouseClick(graph.view.viewport(), Qt.MouseButton.LeftButton, pos=position)
    assert abs(clicked.args[0] - target) <= 1
    ply = window.session.model.current_ply
    assert ply == clicked.args[0]
    assert window.move_list.current_node() is game.node_at_ply(ply)
    assert window.board.board().fen() == chess_board_at(game, game.node_at_ply(ply)).fen()


def test_clicking_a_variation_in_the_move_list(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*FORK_GAME))
    game = window.session.model.game
    variation = next(node.children[1] for node in game.mainline_nodes() if len(node.children) > 1)
    window.move_list.node_selected.emit(variation)
    assert window.session.model.current_node is variation
    assert window.move_list.current_node() is variation
    qtbot.keyClick(window, Qt.Key.Key_Right)
    assert window.session.model.current_node is (variation.children[0] if variation.children else variation)


def test_analysis_with_a_fake_engine_labels_the_moves(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    use_fake_engine(window)
    progress = []
    window.analysis.progress_changed.connect(progress.append)
    analyse(qtbot, window)
    session = window.session
    assert len(session.model.evaluations) == session.model.ply_count + 1
    judgements = session.model.judgements()
    assert set(judgements) == set(range(1, session.model.ply_count + 1))
    assert progress[-1].done == progress[-1].total == session.model.ply_count + 1
    assert window.summary_panel.accuracy_text("white").strip() not in ("", "–", "—")
    for color in ("white", "black"):  # a strength estimate is shown with its interval, or not at all
        details = window.summary_panel.details_text(color)
        assert "Elo≈" not in details
        if "Elo" in details:
            assert re.search(r"Elo \d+ \(\d+ – \d+, 80%\)", details), details
        else:
            assert "Strength from the moves: none (" in window.summary_panel._rows[color].details.toolTip()
    assert window.commands.analyse_action.text() == "Analyse"
    flagged = session.model.flagged_plies(("mistake", "blunder"))  # N goes to mistakes and blunders
    assert flagged, "the fake engine's scores flag some moves of this game"
    qtbot.keyClick(window, Qt.Key.Key_N)
    assert session.model.current_ply == flagged[0]
    judgement = judgements[flagged[0]]
    assert {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}[judgement] in comment_html(
        session.model, session.model.current_node
    )
    assert "Best line" in window.comment_view.toPlainText()


def test_the_analysis_can_be_cancelled_with_space(qtbot, window, corpus_dir, tmp_path) -> None:
    from PySide6.QtCore import QCoreApplication

    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    # The first search answers; the next one runs until it is stopped: the stop always lands mid-game.
    use_fake_engine(window, "--log", str(tmp_path / "searches.log"), "--wait-for-stop-after-total", "1")
    with qtbot.waitSignal(window.session.evaluation_added, timeout=60_000):
        window.start_analysis()
    assert window.commands.analyse_action.text() == "Stop"
    with qtbot.waitSignal(window.analysis_finished, timeout=60_000) as finished:
        qtbot.keyClick(window, Qt.Key.Key_Space)
    assert finished.args == [False]
    assert window.analysis.shutdown(timeout_s=60.0)  # the engine process has been closed
    done = len(window.session.model.evaluations)
    assert 0 < done < window.session.model.ply_count + 1
    QCoreApplication.sendPostedEvents()  # whatever the stopped analysis still sent arrives now
    QCoreApplication.processEvents()
    assert len(window.session.model.evaluations) == done  # nothing arrives after the stop


def test_export_annotated_pgn_and_json_report(qtbot, window, corpus_dir, tmp_path) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    use_fake_engine(window)
    analyse(qtbot, window)
    flagged = window.session.model.flagged_plies()

    pgn_path = tmp_path / "reviewed.pgn"
    with qtbot.waitSignal(window.export_finished, timeout=10000):
        window.export(pgn_path)
    exported = load_game(pgn_path)
    assert exported.mainline_moves() == window.session.model.game.mainline_moves()
    assert "[%eval" in exported.node_at_ply(1).comment
    assert exported.node_at_ply(flagged[0]).nags  # ?!, ? or ??
    assert "[%eval" not in window.session.model.game.node_at_ply(1).comment  # the open game is untouched

    json_path = tmp_path / "report.json"
    with qtbot.waitSignal(window.export_finished, timeout=10000):
        window.export(json_path)
    report = json.loads(json_path.read_text())
    assert report["schema"] == "reviewer.report/1"
    assert len(report["moves"]) == window.session.model.ply_count
    assert [m["ply"] for m in report["moves"] if m["judgement"] in ("inaccuracy", "mistake", "blunder")] == flagged


def test_a_bad_file_is_reported_and_the_open_game_stays(qtbot, window, corpus_dir, tmp_path) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    game = window.session.model.game
    binary = tmp_path / "broken.pgn"
    binary.write_bytes(bytes(range(256)) * 4)
    with qtbot.waitSignal(window.open_failed, timeout=5000) as failed:
        window.open_file(binary)
    assert "broken.pgn" in failed.args[0] and "\n" not in failed.args[0]
    assert window.session.model.game is game
    assert [m.text for m in window.message_bar.messages()] == [failed.args[0]]  # seen until dismissed
    assert window.message_bar.isVisible()


def test_dropping_a_file_opens_it(qtbot, window, corpus_dir) -> None:
    path = corpus_dir.joinpath(*GO_GAME)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.file_opened, timeout=10000):
        window.dropEvent(event)
    assert window.session.model.game.kind == "go"
    assert isinstance(window.board, PlayableGoBoard) and window.board_stack.currentWidget() is window.board


def test_game_number_and_ply_from_the_caller(qtbot, window, corpus_dir) -> None:
    path = corpus_dir / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn"
    open_game(qtbot, window, path, game_index=4, ply=10)
    assert window.session.model.game_index == 4
    assert window.session.model.current_ply == 10
    assert "[5/232]" in window.windowTitle()


def test_game_chooser_lists_headers_lazily_and_filters(qtbot, corpus_dir) -> None:
    collection = open_collection(corpus_dir / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn")
    dialog = GameChooserDialog(collection, "twic")
    qtbot.addWidget(dialog)
    assert dialog.visible_count() <= 232
    assert dialog.chosen_index() == 0
    name = collection.summary(100).white.split(",")[0]
    dialog.filter_edit.setText(name)
    assert 0 < dialog.visible_count() < 232
    assert name.casefold() in collection.summary(dialog.chosen_index()).white.casefold() + collection.summary(
        dialog.chosen_index()
    ).black.casefold()
    dialog.filter_edit.setText("no such player anywhere")
    assert dialog.visible_count() == 0
    assert dialog.chosen_index() is None


def test_flip_preset_and_limit_are_remembered(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    qtbot.keyClick(window, Qt.Key.Key_F)
    assert window.board.is_flipped()
    window.set_preset("seed")
    window.set_limit("chess", window.limit("chess").__class__(depth=12))
    fresh = Settings()
    assert fresh.preset == "seed"
    assert fresh.limit("chess").depth == 12
    assert window.session.model.preset == "seed"
    assert "depth 12" in window.commands.limit_combo.currentText()


def test_summary_count_click_jumps_to_that_move(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    use_fake_engine(window)
    analyse(qtbot, window)
    session = window.session
    color, judgement, ply = next(
        (session.model.game.mover_at_ply(p), j, p) for p, j in sorted(session.model.judgements().items()) if j in ("mistake", "blunder", "inaccuracy")
    )
    window.summary_panel.judgement_clicked.emit(color, judgement)
    assert session.model.current_ply == ply


def test_go_analysis_with_a_fake_katago_marks_candidates(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    command = shlex.join(fake_engine_command("fake_katago.py"))
    window.set_engine_choice(EngineChoice(kind="go", command=command), remember=False)
    assert not window.commands.preset_combo.isEnabled()  # chess thresholds do not apply to Go
    analyse(qtbot, window)
    session = window.session
    assert set(session.model.judgements()) == set(range(1, session.model.ply_count + 1))
    session.model.set_current_ply(10)
    evaluation = session.model.evaluations.get(10)
    assert evaluation is not None and evaluation.candidates
    best = evaluation.candidates[0]
    assert "Engine" in window.comment_view.toPlainText()
    assert best.move in window.comment_view.toPlainText()


def test_closing_the_window_stops_the_engine(qtbot, corpus_dir) -> None:
    window = MainWindow(discover_engines=False)
    qtbot.addWidget(window)
    window.show()
    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    use_fake_engine(window, "--search-ms", "200")
    with qtbot.waitSignal(window.session.evaluation_added, timeout=15000):
        window.start_analysis()
    import threading

    task = window.analysis._task
    assert task is not None
    thread = next(t for t in threading.enumerate() if t.name == f"analysis-{task.task_id}")
    window.close()
    assert thread is not None and not thread.is_alive()
    assert not window.analysis.is_running()


def test_recent_files_menu_and_players_window(qtbot, window, corpus_dir) -> None:
    open_game(qtbot, window, corpus_dir.joinpath(*GO_GAME))
    window.files.fill_recent_menu()
    names = [action.text() for action in window.commands.recent_menu.actions()]
    assert names[0] == GO_GAME[1]
    window.dialogs.show_players()
    assert window.dialogs.players_window is not None and window.dialogs.players_window.isVisible()


def test_settings_dialog_reads_back_the_choices(qtbot) -> None:
    from reviewer.core.analysis import Limit
    from reviewer.gui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(
        kind="chess", engines=[], engine=EngineChoice(kind="chess", command="/opt/sf --x"), limit=Limit(depth=18, multipv=2), preset="lichess"
    )
    qtbot.addWidget(dialog)
    assert dialog.engine_choice() == EngineChoice(kind="chess", command="/opt/sf --x")
    assert dialog.limit() == Limit(depth=18, multipv=2)
    dialog._limit_rows["nodes"][0].setChecked(True)
    dialog.nodes_spin.setValue(250_000)
    dialog.preset_combo.setCurrentIndex(1)
    assert dialog.limit() == Limit(nodes=250_000, multipv=2)
    assert dialog.preset() == "seed"


def test_a_game_analysed_before_shows_its_cached_analysis_when_opened(qtbot, window, corpus_dir) -> None:
    path = corpus_dir.joinpath(*SHORT_GAME)
    open_game(qtbot, window, path)
    use_fake_engine(window)
    analyse(qtbot, window)
    judgements = window.session.model.judgements()

    again = MainWindow(discover_engines=False)
    qtbot.addWidget(again)
    use_fake_engine(again)  # the same engine and limit as before
    with qtbot.waitSignal(again.cache_checked, timeout=10000) as checked:
        again.open_file(path)
    assert checked.args == [again.session.model.ply_count + 1]
    assert not again.analysis.is_running()
    qtbot.waitUntil(lambda: again.session.model.assessment_settled, timeout=5000)
    assert again.session.model.judgements() == judgements
    assert "analysis cache" in again.statusBar().currentMessage()

    other_limit = MainWindow(discover_engines=False)
    qtbot.addWidget(other_limit)
    use_fake_engine(other_limit)
    other_limit.set_limit("chess", Limit(depth=3), remember=False)
    with qtbot.waitSignal(other_limit.cache_checked, timeout=10000) as checked:
        other_limit.open_file(path)
    # another budget: the best analysis the cache has is shown all the same, saying which it is
    assert checked.args == [other_limit.session.model.ply_count + 1]
    assert other_limit.session.model.basis.coverage.complete
    shown = describe_limit(Limit.parse(other_limit.session.model.basis.coverage.limit or ""))
    assert shown != describe_limit(Limit(depth=3))
    assert other_limit.summary_panel.state_text().endswith(f" · {shown}")


def test_scoring_runs_off_the_gui_thread_during_an_analysis(qtbot, window, corpus_dir) -> None:
    import threading

    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    use_fake_engine(window)
    threads: set[str] = set()
    original = window.assessor._assess

    def spy(*args):
        threads.add(threading.current_thread().name)
        return original(*args)

    window.assessor._assess = spy
    analyse(qtbot, window)
    assert threads and threading.main_thread().name not in threads
    assert window.session.model.assessment_settled  # exact at the end, for what follows
    assert set(window.session.model.judgements()) == set(range(1, window.session.model.ply_count + 1))


def test_a_review_in_passes_says_which_pass_each_judgement_came_from(qtbot, window, corpus_dir) -> None:
    from reviewer.core.passes import ChessPasses

    open_game(qtbot, window, corpus_dir.joinpath(*SHORT_GAME))
    use_fake_engine(window)
    window.set_limit("chess", ChessPasses(nodes=(1000, 2000, 3000), engines=2).limit(), remember=False)
    formats = []
    window.analysis.progress_changed.connect(lambda _progress: formats.append(window.progress_bar.format()))
    analyse(qtbot, window)
    session = window.session
    flagged = session.model.flagged_plies(("mistake", "blunder"))
    assert flagged, "the fake engine's scores flag some moves of this game"
    assert session.model.evaluations.get(flagged[0]).review_pass in (2, 3)  # a flagged move is always looked at again
    qtbot.keyClick(window, Qt.Key.Key_N)
    assert session.model.current_ply == flagged[0]
    assert "of 3 · " in window.comment_view.toPlainText()
    assert any(text.startswith("pass 1/3 · ") for text in formats)  # the pass under way and its own count
    assert any(text.startswith("pass 2/3 · ") for text in formats)


def test_analyse_pressed_while_engines_are_looked_for_waits_for_them_and_reviews_go_in_passes_with_katago(
    qtbot, corpus_dir, monkeypatch
) -> None:
    import threading

    from reviewer.core.engines import registry
    from reviewer.core.engines.discovery import EngineInfo
    from reviewer.core.passes import default_go_passes
    from reviewer.gui.engines import analysis_controller

    fake_katago = tuple(fake_engine_command("fake_katago.py"))
    release = threading.Event()

    def slow_discovery() -> list[EngineInfo]:
        release.wait(60)
        return [EngineInfo("katago", "go", "katago", fake_katago, "1.18.0", "ok", "fake", "path")]

    real_open = registry.open_engine
    monkeypatch.setattr(analysis_controller, "_find_engines", slow_discovery)
    monkeypatch.setattr(registry, "open_engine", lambda kind, *args, **kwargs: real_open(kind, command=list(fake_katago)))
    main = MainWindow(discover_engines=True)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    open_game(qtbot, main, corpus_dir.joinpath(*GO_GAME))
    started = []
    main.analysis.started.connect(started.append)
    main.activateWindow()
    qtbot.keyClick(main, Qt.Key.Key_Space)  # Analyse, before discovery has answered
    assert not started and not main.analysis.is_running()
    assert "Looking for engines" in main.statusBar().currentMessage()
    assert main.commands.limit_combo.currentText() == "Quick · 50 visits"  # nothing known of the engine yet
    main.settings.set_engine_identity(main.engine_choice("go"), "KataGo 1.18.1 g170e-b15c192")
    main.analysis_controller.update_engine_controls()  # KataGo ran last time: the button and the limit say so
    assert main.commands.engine_button.text().startswith("KataGo 1.18.1")
    assert main.commands.limit_combo.currentText() == "Passes · 2 → 32 visits where in doubt"
    with qtbot.waitSignal(main.analysis_finished, timeout=30000) as finished:
        release.set()
    assert finished.args == [True]
    assert "Looking for engines" not in main.statusBar().currentMessage()  # the wait is over: not left standing
    assert [job.limit for job in started] == [default_go_passes().limit()]  # KataGo's default, not 50 visits
    # should the KataGo found not start, the built-in engine would review at its own default
    assert [job.limit_with_builtin for job in started] == [Limit(visits=50)]
    assert main.session.model.evaluations.get(0) is not None


def test_go_is_reviewed_in_passes_with_katago_and_at_50_visits_with_the_built_in_engine(qtbot, window, corpus_dir) -> None:
    from reviewer.core.passes import default_go_passes

    open_game(qtbot, window, corpus_dir / "sgf" / "katrain__ogs.sgf")
    assert window.limit("go") == Limit(visits=50)  # no KataGo found: the built-in engine's default
    assert window.commands.limit_combo.currentText() == "Quick · 50 visits"
    window.set_engine_choice(EngineChoice(kind="go", command="katago analysis -model m.bin.gz"), remember=False)
    assert window.limit("go") == default_go_passes().limit()
    assert window.commands.limit_combo.currentText() == "Passes · 2 → 32 visits where in doubt"
    window.commands.limit_combo.activated.emit(window.commands.limit_combo.findText("Standard · 200 visits"))  # as a pick does
    assert window.limit("go") == Limit(visits=200)  # the user's choice stays
    assert window.commands.limit_combo.currentText() == "Standard · 200 visits"
    assert window.limit("chess") != Limit(visits=200)
