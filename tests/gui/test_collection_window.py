"""The Collection window: a batch review run by the fake UCI engine in the background, cancelled and
resumed, the insights it shows, games opened from the plot and the mistakes table, and the exports."""

from __future__ import annotations

import csv
import io
import shlex
from pathlib import Path

import chess
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from support import BOTH_BLUNDER, fake_engine_command, found_katago, version_calls
from test_contrast import contrast_problems

from reviewer.core.analysis import EvaluationTable, Limit
from reviewer.core.formats import game_from_pgn_text
from reviewer.core.report import build_report
from reviewer.core.services.batch.runner import BatchSettings
from reviewer.core.services.batch.store import BatchStore
from reviewer.core.services.batch.task import EngineSettings
from reviewer.core.services.insights import collection_insights
from reviewer.gui.collection.collection_run import RunProgress
from reviewer.gui.collection.collection_window import CollectionWindow, batch_settings_from
from reviewer.gui.common import style
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.presenters import collection as present
from reviewer.gui.window.app import apply_theme
from reviewer.gui.window.main_window import MainWindow

WAIT_MS = 120_000

# Anna plays all four; in the second she blunders (3...Nf6?? 4.Qxf7#).
GAMES = (
    ("Anna", "Bob", "1-0", "2024.01.02", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"),
    ("Carl", "Anna", "1-0", "2024.01.05", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"),
    ("Anna", "Dora", "1/2-1/2", "2024.02.01", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7"),
    ("Eve", "Anna", "0-1", "2024.03.01", "c4 e5 Nc3 Nf6 g3 d5 cxd5 Nxd5"),
)
FIRST_GAME_SEARCHES = 11  # its ten plies and the start, one search each


def pgn_text(white: str, black: str, result: str, date: str, moves: str, evals: bool = False) -> str:
    board = chess.Board()
    parts = []
    for number, san in enumerate(moves.split()):
        if number % 2 == 0:
            parts.append(f"{number // 2 + 1}.")
        board.push_san(san)
        parts.append(san)
        if evals:
            parts.append(f"{{ [%eval {0.2 + 0.05 * number:.2f}] }}")
    tags = f'[Event "Club"]\n[Date "{date}"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
    return f"{tags}\n{' '.join(parts)} {result}\n\n"


@pytest.fixture
def games_file(tmp_path) -> Path:
    path = tmp_path / "club.pgn"
    path.write_text("".join(pgn_text(*game) for game in GAMES), encoding="utf-8")
    return path


def fake_settings(*args: str):
    engine = EngineSettings(command=tuple(fake_engine_command("fake_uci.py", *args)))
    settings = BatchSettings(engine=engine, chess_limit=Limit(nodes=1000), go_limit=Limit(visits=10))
    return lambda: {"chess": settings, "go": settings}


def make_window(qtbot, settings) -> CollectionWindow:
    window = CollectionWindow(settings)
    qtbot.addWidget(window)
    window.resize(1100, 820)
    return window


@pytest.fixture
def engine_log(tmp_path) -> Path:
    return tmp_path / "searches.log"


@pytest.fixture
def window(qtbot, engine_log):
    widget = make_window(qtbot, fake_settings("--log", str(engine_log)))
    yield widget
    widget.shutdown()


def review(qtbot, window: CollectionWindow, button: bool = True) -> present.RunCounts:
    with qtbot.waitSignal(window.run_finished, timeout=WAIT_MS) as finished:
        if button:
            QTest.mouseClick(window.review_button, Qt.MouseButton.LeftButton)
        else:
            window.start_review()
    return finished.args[0]


def searches(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_a_collection_is_reviewed_in_the_background_to_the_end_and_not_again(qtbot, window, games_file, engine_log):
    chart = window.panel.chart
    assert not chart.getAxis("left").isVisible() and not chart.getAxis("bottom").isVisible()  # a message, no scale
    window.set_paths([games_file])
    window.player_edit.setText("anna")
    counts = review(qtbot, window)
    assert counts.total == 4 and counts.analysed == 4 and counts.already_done == 0 and not counts.cancelled
    assert window.progress_bar.value() == window.progress_bar.maximum() == 4
    assert window.progress_shown is not None and window.progress_shown.done == 4
    assert window.status_label.text() == "4 games: 4 analysed · 1 new training card from anna's mistakes"
    assert window.shown_player()["name"] == "Anna"
    assert not window.panel.left_out_label.isVisibleTo(window)
    assert chart.getAxis("left").isVisible() and chart.getAxis("bottom").isVisible()
    done = searches(engine_log)
    assert done > 0

    counts = review(qtbot, window)  # the batch store answers: no engine search at all
    assert counts.already_done == 4 and counts.analysed == 0
    assert searches(engine_log) == done
    assert window.status_label.text() == "4 games: 4 from an earlier run"
    assert window.progress_bar.value() == 4


def test_cancel_keeps_what_is_finished_and_the_next_run_goes_on_from_there(qtbot, tmp_path, games_file, engine_log):
    release = tmp_path / "release"
    window = make_window(
        qtbot,
        fake_settings("--log", str(engine_log), "--wait-for-stop-after-total", str(FIRST_GAME_SEARCHES + 2), "--release", str(release)),
    )
    try:
        window.set_paths([games_file])
        with qtbot.waitSignal(window.run_finished, timeout=WAIT_MS) as finished:
            window.start_review()
            qtbot.waitUntil(lambda: searches(engine_log) > FIRST_GAME_SEARCHES + 2, timeout=WAIT_MS)  # game 2 hangs
            qtbot.waitUntil(lambda: window.progress_shown is not None and window.progress_shown.positions is not None
                            and window.progress_shown.done == 1, timeout=WAIT_MS)
            assert window.progress_bar.value() == 1 and window.progress_bar.format().startswith("1 of 4 games · ETA ")
            assert window.progress_bar.format() != "1 of 4 games · ETA …"  # a game was analysed: the ETA is known
            assert window.status_label.text().startswith("Analysing club.pgn#2: ")
            assert window.is_running() and window.cancel_button.isEnabled()
            QTest.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
        counts = finished.args[0]
        assert counts.cancelled and counts.analysed == 1
        assert window.status_label.text() == "4 games: 1 analysed · cancelled: 3 not reviewed"
        with BatchStore() as store:
            assert store.count() == 1
        anna = window.shown_player()
        assert anna["games"] == 4 and anna["scored_games"] == 1  # the others count in the results only
        assert window.panel.left_out_label.isVisibleTo(window)
        assert window.panel.left_out_label.text() == "3 games left out of the figures: not analysed"
        assert len(window.panel.chart.timeline.points) == 1

        release.touch()
        counts = review(qtbot, window)
        assert counts.already_done == 1 and counts.analysed == 3 and not counts.cancelled
        assert window.progress_bar.value() == 4
        assert not window.panel.left_out_label.isVisibleTo(window)
    finally:
        window.shutdown()


def test_progress_is_drawn_at_most_once_per_redraw_interval(qtbot, window):
    drawn: list[int] = []
    window.progress_bar.valueChanged.connect(drawn.append)
    for done in range(1, 51):  # fifty steps arrive before the event loop runs again
        window._signals.progress.emit(window._run.number, RunProgress(done, 50, 12.0))
    qtbot.waitUntil(lambda: window.progress_shown is not None, timeout=WAIT_MS)
    assert drawn == [50] and window.progress_bar.maximum() == 50


def test_the_tables_show_the_numbers_of_the_insights(qtbot, window, games_file):
    window.set_paths([games_file])
    window.player_edit.setText("Anna")
    review(qtbot, window)
    anna = next(p for p in collection_insights(window.reports, "Anna")["players"] if p["name"] == "Anna")
    assert window.shown_player() == anna
    assert window.panel.summary_label.text() == "4 games: 2 won, 1 drawn, 1 lost · 4 with a complete, labelled analysis"
    phases = window.panel.phase_table
    assert phases.texts("Moves") == [str(anna["by_phase"][phase]["moves"]) for phase in anna["by_phase"]]
    assert phases.texts("Accuracy (%)")[0] == f"{anna['by_phase']['opening']['accuracy']:.1f}"
    colours = window.panel.colour_table
    assert colours.texts("Games") == ["2", "2"] and colours.texts("Won") == ["1", "1"]
    assert colours.texts("Mean accuracy (%)") == [f"{anna['by_colour'][c]['accuracy']:.1f}" for c in ("white", "black")]
    assert window.panel.opening_table.texts("ECO") == [o["eco"] or "" for o in anna["by_opening"]]
    mistakes = window.panel.mistake_table
    assert mistakes.texts("Move") == [m["move_label"] for m in anna["mistakes"]]
    assert mistakes.texts("Move")[0] == "3... Nf6" and mistakes.texts("Judgement")[0] == "blunder"
    assert [p.y for p in window.panel.chart.timeline.points] == [p["accuracy"] for p in anna["timeline"]]
    assert window.panel.rating_label.text() == present.rating_text(anna)
    assert "(" in window.panel.rating_label.text() and "95% sure" in window.panel.rating_label.text()  # never without its interval
    tabs = window.panel.tabs
    lines_tab = next(i for i in range(tabs.count()) if tabs.tabText(i) == "Your lines")
    QTest.mouseClick(tabs.tabBar(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, tabs.tabBar().tabRect(lines_tab).center())
    assert tabs.currentWidget() is window.panel.lines_table
    assert window.panel.lines_table.texts("Line") == [
        "1.d4 d5 2.c4 e6 3.Nc3 Nf6", "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6", "1.c4 e5 2.Nc3 Nf6 3.g3 d5", "1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6"]
    assert window.panel.lines_table.texts("Colour") == ["White", "White", "Black", "Black"]
    assert window.panel.lines_table.texts("Score") == ["50%", "100%", "100%", "0%"]
    assert window.panel.choices_table.texts("After") == []  # no position of hers reached three times


def test_a_game_not_analysed_is_counted_and_said_never_drawn(qtbot, window, games_file):
    text = games_file.read_text()
    reports = []
    for index, chunk in enumerate(t for t in text.split("[Event") if t.strip()):
        game = game_from_pgn_text("[Event" + chunk)
        report = build_report(game, EvaluationTable(), {"preset": "lichess"})
        report["source"] = {"path": str(games_file), "index": index, "key": str(index), "imported": False}
        reports.append(report)
    with qtbot.waitSignal(window.insights_shown, timeout=WAIT_MS):
        window.show_reports(reports, "Anna")
    assert window.panel.left_out_label.text() == "4 games left out of the figures: not analysed"
    assert window.panel.chart.timeline.points == ()
    assert window.panel.phase_table.texts("Accuracy (%)") == ["–", "–", "–"]
    assert window.panel.summary_label.text().startswith("4 games: 2 won, 1 drawn, 1 lost · 0 with")


def test_engine_missing_and_unreadable_games_are_said_and_stop_nothing_else(qtbot, tmp_path, games_file):
    broken = tmp_path / "broken.pgn"
    broken.write_text('[White "Anna"]\n[Black "Zed"]\n[FEN "not a position"]\n\n1. e4 *\n', encoding="utf-8")
    settings = BatchSettings(EngineSettings(command=(str(tmp_path / "no-such-engine"),)), Limit(nodes=1000), Limit(visits=10))
    window = make_window(qtbot, lambda: {"chess": settings, "go": settings})
    try:
        window.set_paths([games_file, broken])
        counts = review(qtbot, window)
        assert counts.total == 4 and counts.skipped == 4 and counts.unreadable == 1
        assert window.problems_list.isVisibleTo(window) and window.problems_list.count() == 1
        assert "broken.pgn#1" in window.problems_list.item(0).text()
        message = window.message_bar.row("engine-missing:chess")
        assert message is not None and "No chess engine could be started" in message.message.text
        with qtbot.waitSignal(window.install_requested) as asked:
            QTest.mouseClick(message.buttons["install-stockfish"], Qt.MouseButton.LeftButton)
        assert asked.args == ["chess"]
        assert window.shown_player()["games"] == 4  # the games still count in the results
        assert window.panel.left_out_label.text() == "4 games left out of the figures: not analysed"
    finally:
        window.shutdown()


def test_an_engine_command_that_cannot_be_read_is_said_before_anything_starts(qtbot, games_file):
    choice = lambda kind: EngineChoice(kind=kind, command='stockfish "unclosed')  # noqa: E731
    window = make_window(qtbot, lambda: batch_settings_from(choice, lambda kind: Limit(nodes=1000), "lichess"))
    try:
        window.set_paths([games_file])
        QTest.mouseClick(window.review_button, Qt.MouseButton.LeftButton)
        assert not window.is_running() and window.review_button.isEnabled()
        message = window.message_bar.row("run-failed")
        assert message is not None and message.message.text.startswith("The engine setting cannot be used")
    finally:
        window.shutdown()


def test_games_that_carry_evaluations_are_imported_without_an_engine(qtbot, window, tmp_path, engine_log):
    path = tmp_path / "evaluated.pgn"
    path.write_text("".join(pgn_text(*game, evals=True) for game in GAMES[2:]), encoding="utf-8")
    window.set_paths([path])
    counts = review(qtbot, window)
    assert counts.imported == 2 and counts.analysed == 0
    assert not engine_log.exists()
    assert window.status_label.text() == "2 games: 2 imported from the files' evaluations"


def test_a_go_collection_shows_weighted_loss_and_no_opening_table(qtbot, tmp_path):
    games = "".join(
        f"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Kim]PW[{white}]RE[{result}]DT[2024-0{month}-01]"
        ";B[ee];W[cc];B[gc];W[cg];B[gg];W[ec])"
        for month, (white, result) in enumerate((("Lee", "B+R"), ("Park", "W+3.5"), ("Lee", "B+2.5")), start=1)
    )
    path = tmp_path / "club.sgf"
    path.write_text(games, encoding="utf-8")
    katago = EngineSettings(command=tuple(fake_engine_command("fake_katago.py")))
    settings = BatchSettings(katago, Limit(nodes=1000), Limit(visits=100))
    window = make_window(qtbot, lambda: {"chess": settings, "go": settings})
    try:
        window.set_paths([path])
        window.player_edit.setText("kim")
        counts = review(qtbot, window)
        assert counts.total == 3 and counts.analysed == 3
        kim = window.shown_player()
        assert kim["name"] == "Kim" and kim["kind"] == "go" and kim["scored_games"] == 3
        assert window.panel.measure_combo.currentText() == "Weighted loss"
        points = window.panel.chart.timeline.points
        assert [p.y for p in points] == [p["loss"] for p in kim["timeline"]]
        assert [p.result for p in points] == ["win", "loss", "win"]
        assert window.panel.opening_table.currentWidget() is window.panel.opening_table.empty_label
        assert window.panel.colour_table.texts("Weighted loss (pts)")[1] == f"{kim['by_colour']['black']['loss']:.2f}"
        window.panel.measure_combo.setCurrentIndex(1)
        assert [p.y for p in window.panel.chart.timeline.points] == [p["accuracy"] for p in kim["timeline"]]
    finally:
        window.shutdown()


def test_player_names_are_offered_for_completion(qtbot, window, games_file):
    with qtbot.waitSignal(window.names_ready, timeout=WAIT_MS):
        window.set_paths([games_file])
    assert window.player_names()[0] == "Anna" and set(window.player_names()) == {"Anna", "Bob", "Carl", "Dora", "Eve"}
    completer = window.player_edit.completer()
    completer.setCompletionPrefix("nn")  # any part of the name
    assert completer.currentCompletion() == "Anna"


def test_exports_write_csv_and_html_that_parse(qtbot, window, games_file, tmp_path):
    window.set_paths([games_file])
    window.player_edit.setText("Anna")
    review(qtbot, window)
    for form in ("csv", "html"):
        target = tmp_path / f"anna.{form}"
        with qtbot.waitSignal(window.export_finished, timeout=WAIT_MS) as written:
            window.export(target, form)
        assert written.args == [str(target)]
    rows = list(csv.DictReader(io.StringIO((tmp_path / "anna.csv").read_text(encoding="utf-8"))))
    assert {row["player"] for row in rows} == {"Anna"}
    assert sum(1 for row in rows if row["section"] == "game") == 4
    assert any(row["section"] == "mistake" and row["move"] == "Nf6" for row in rows)
    page = (tmp_path / "anna.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Insights: Anna" in page
    with qtbot.waitSignal(window.failed, timeout=WAIT_MS) as refused:
        window.export(games_file, "csv")  # never over a game file
    assert "game file being reviewed" in refused.args[0]


@pytest.fixture
def main_window(qtbot):
    main = MainWindow(discover_engines=False, remember_layout=False)
    qtbot.addWidget(main)
    main.resize(1300, 860)
    main.show()
    qtbot.waitExposed(main)
    main.set_engine_choice(EngineChoice(kind="chess", command=shlex.join(fake_engine_command("fake_uci.py"))), remember=False)
    yield main
    main.close()


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # the offscreen platform's note
def test_a_point_of_the_plot_and_a_mistake_open_their_game_in_the_main_window(qtbot, main_window, games_file):
    main = main_window
    menu_texts = [action.text() for action in main.menuBar().actions()[0].menu().actions()]
    assert "Review a &collection…" in menu_texts
    main.commands.collection_action.trigger()
    window = main.dialogs.collection_window
    assert window is not None and window.isVisible()
    window.set_paths([games_file])
    window.player_edit.setText("Anna")
    review(qtbot, window)

    chart = window.panel.chart
    third = chart.timeline.points[2]
    assert third.source["index"] == 2
    target = chart.mapFromScene(chart.scene_pos_for(2))
    with qtbot.waitSignal(main.file_opened, timeout=WAIT_MS):
        QTest.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, target)
    game = main.session.model.game
    assert (game.white, game.black, game.date) == ("Anna", "Dora", "2024.02.01")
    assert main.session.model.game_index == 2 and main.session.model.current_ply == 0

    window.panel.tabs.setCurrentWidget(window.panel.mistake_table)
    view = window.panel.mistake_table.view
    cell = view.visualRect(window.panel.mistake_table.proxy.index(0, 1)).center()
    with qtbot.waitSignal(main.file_opened, timeout=WAIT_MS):  # a double-click: the first press, then the second
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, cell)
        QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, cell)
    game = main.session.model.game
    assert (game.white, game.black) == ("Carl", "Anna")
    assert main.session.model.current_ply == 6  # after 3...Nf6??


@pytest.mark.parametrize("dark", [False, True])
def test_every_text_of_the_window_is_readable(qtbot, window, games_file, dark):
    app = QApplication.instance()
    try:
        window.show()
        qtbot.waitExposed(window)
        window.set_paths([games_file])
        window.player_edit.setText("Anna")
        review(qtbot, window)
        window.problems_list.addItem("broken.pgn#1: cannot be read")
        window.problems_list.show()
        window.message_bar.replace(present.engine_missing_message("chess", "engine not found"))
        window.panel.left_out_label.setText("2 games left out of the figures: not analysed")
        window.panel.left_out_label.show()
        apply_theme(app, not dark)  # and back: the colours follow a switch at run time
        apply_theme(app, dark)
        qtbot.waitUntil(lambda: style.is_dark_palette(window.palette()) == dark)
        problems = contrast_problems(window)
        assert problems == [], "\n".join(problems)
    finally:
        apply_theme(app, False)


def test_a_go_collection_without_a_chosen_limit_is_reviewed_in_passes_when_katago_is_found(qtbot, tmp_path, monkeypatch):
    from reviewer.core.engines import registry
    from reviewer.core.engines.discovery import EngineInfo
    from reviewer.core.passes import default_go_passes

    path = tmp_path / "club.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Kim]PW[Lee]RE[B+R];B[ee];W[cc];B[gc];W[cg])", encoding="utf-8")
    fake_katago = EngineInfo("katago", "go", "katago", tuple(fake_engine_command("fake_katago.py")), "1.18.0", "ok")
    builtin = EngineInfo("builtin", "go", "builtin", (), "1", "ok")
    found = [fake_katago, builtin]
    monkeypatch.setattr(registry, "find_engines", lambda kind=None, **_: [e for e in found if kind in (None, e.kind)])
    settings = BatchSettings(EngineSettings(), Limit(nodes=1000), Limit(visits=50))  # the built-in engine's default
    window = CollectionWindow(lambda: {"chess": settings, "go": settings}, go_limit_is_default=lambda: True)
    qtbot.addWidget(window)
    try:
        window.set_paths([path])
        assert review(qtbot, window).analysed == 1
        assert default_go_passes().scheme_id in window.reports[0]["engine"]["id"]  # the run found KataGo
        found.remove(fake_katago)  # KataGo gone: the built-in engine's own default, 50 visits
        path.write_text(path.read_text().replace("W[cg])", "W[cg];B[cd])"), encoding="utf-8")
        assert review(qtbot, window).analysed == 1
        engine = window.reports[0]["engine"]
        assert "go-passes" not in engine["id"] and engine["limit"] == Limit(visits=50).describe()
    finally:
        window.shutdown()


def test_a_go_collection_looks_for_katago_once_for_its_limit_and_its_engines(qtbot, tmp_path, monkeypatch):
    from reviewer.core.passes import default_go_passes

    versions = found_katago(tmp_path, monkeypatch)
    path = tmp_path / "club.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Kim]PW[Lee]RE[B+R];B[ee];W[cc];B[gc];W[cg])", encoding="utf-8")
    settings = BatchSettings(EngineSettings(), Limit(nodes=1000), Limit(visits=50))
    window = CollectionWindow(lambda: {"chess": settings, "go": settings}, go_limit_is_default=lambda: True)
    qtbot.addWidget(window)
    try:
        window.set_paths([path])
        assert review(qtbot, window).analysed == 1
        assert default_go_passes().scheme_id in window.reports[0]["engine"]["id"]
        assert version_calls(versions) == 1  # the limit's question and the engine that opened shared it
    finally:
        window.shutdown()


def test_the_player_named_in_the_window_gets_cards_of_their_own_moves_alone(qtbot, window, tmp_path):
    from reviewer.core.services.trainer.deck import Deck

    games = tmp_path / "both.pgn"
    games.write_text(BOTH_BLUNDER, encoding="utf-8")
    window.set_paths([games])
    window.player_edit.setFocus()
    QTest.keyClicks(window.player_edit, "Me")
    counts = review(qtbot, window)
    with Deck() as deck:
        cards = deck.cards()
    assert cards and {card.player for card in cards} == {"Me"}
    assert counts.cards_added == len(cards)
    assert window.status_label.text().endswith(f"· {len(cards)} new training cards from Me's mistakes")


def test_the_player_named_is_remembered_for_the_next_collection_window(qtbot, window, tmp_path):
    games = tmp_path / "both.pgn"
    games.write_text(BOTH_BLUNDER, encoding="utf-8")
    window.set_paths([games])
    window.player_edit.setFocus()
    QTest.keyClicks(window.player_edit, "Mehmet")
    review(qtbot, window)
    later = make_window(qtbot, fake_settings())
    assert later.player_edit.text() == "Mehmet"
    later.set_paths([games])
    counts = review(qtbot, later)  # the same games again: no new card, and none of Me's
    assert counts.cards_added == 0 and counts.cards_player == "Mehmet"
    later.shutdown()
