"""The Players window: ratings table, sorting, filter, history chart, all computed off the GUI thread."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QCoreApplication, QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog
from support import REPO_ROOT

from reviewer.gui.collection import players_window
from reviewer.gui.collection.players_window import COLUMNS, PlayersWindow


def pgn_game(white: str, black: str, result: str, date: str, white_elo: str = "", black_elo: str = "") -> str:
    tags = [("Event", "Club"), ("Date", date), ("White", white), ("Black", black), ("Result", result)]
    tags += [("WhiteElo", white_elo)] if white_elo else []
    tags += [("BlackElo", black_elo)] if black_elo else []
    return "\n".join(f'[{k} "{v}"]' for k, v in tags) + f"\n\n1. d4 d5 {result}\n\n"


@pytest.fixture
def club_file(tmp_path):
    games = []
    for month in range(1, 10):
        date = f"2024.{month:02d}.10"
        games.append(pgn_game("Anna", "Boris", "1-0", date, "2100", "1900"))
        games.append(pgn_game("Boris", "Anna", "1/2-1/2", date, "1900", "2100"))
        games.append(pgn_game("Boris", "Carl", "1-0" if month % 3 else "0-1", date))
        games.append(pgn_game("Carl", "Anna", "0-1", date))
        games.append(pgn_game("Carl", "Dora", "1-0" if month % 2 else "0-1", date))
    games.append(pgn_game("Anna", "Eve", "*", "2024.09.11"))
    path = tmp_path / "club.pgn"
    path.write_text("".join(games), encoding="utf-8")
    return path


@pytest.fixture
def window(qtbot):
    widget = PlayersWindow()
    qtbot.addWidget(widget)
    widget.resize(820, 600)
    yield widget
    widget.shutdown()


def column(name: str) -> int:
    return COLUMNS.index(name)


def shown(widget: PlayersWindow, row: int, name: str) -> str:
    return widget.proxy.index(row, column(name)).data()


def load(qtbot, widget: PlayersWindow, *paths) -> None:
    with qtbot.waitSignal(widget.ratings_ready, timeout=20_000):
        widget.load_paths([str(p) for p in paths])


def test_players_are_listed_strongest_first(qtbot, window, club_file):
    load(qtbot, window, club_file)
    names = [shown(window, row, "Player") for row in range(window.proxy.rowCount())]
    assert names[:2] == ["Anna", "Boris"] and set(names[2:4]) == {"Carl", "Dora"} and names[4] == "Eve"
    anna = names.index("Anna")
    assert shown(window, anna, "Games") == "28" and shown(window, anna, "D") == "9"
    assert shown(window, names.index("Eve"), "Rank / rating") == "–"
    assert shown(window, names.index("Eve"), "?") == "?"
    assert window.table.isColumnHidden(column("Game"))  # one kind of game only
    assert "5 players" in window.summary.text() and "45 rated games" in window.summary.text()


def test_columns_sort_by_value_not_text(qtbot, window, tmp_path):
    games = [pgn_game("Many", f"Opp{i}", "1-0", "2024.01.01") for i in range(10)]
    games += [pgn_game("Few", "Opp1", "0-1", "2024.01.01") for _ in range(9)]
    path = tmp_path / "counts.pgn"
    path.write_text("".join(games), encoding="utf-8")
    load(qtbot, window, path)
    window.table.sortByColumn(column("Games"), Qt.SortOrder.DescendingOrder)
    counts = [int(shown(window, row, "Games")) for row in range(window.proxy.rowCount())]
    assert counts == sorted(counts, reverse=True) and counts[0] == 10 and counts[1] == 10


def test_the_filter_finds_players_by_name(qtbot, window, club_file):
    load(qtbot, window, club_file)
    window.filter_edit.setText("bor")
    assert window.proxy.rowCount() == 1 and shown(window, 0, "Player") == "Boris"
    window.filter_edit.clear()
    assert window.proxy.rowCount() == 5


def test_selecting_a_player_draws_their_estimate_over_time(qtbot, window, club_file):
    load(qtbot, window, club_file)
    with qtbot.waitSignal(window.history_ready, timeout=20_000) as blocker:
        assert window.select_player("boris")
    assert blocker.args == ["boris"]
    # One point per month Boris played (9 dates), on a date axis, in chronological order.
    assert len(window.chart.curve_x) == 9
    assert window.chart.curve_x == sorted(window.chart.curve_x)
    assert window.chart.dates_on_axis
    assert "Boris" in window.chart.plotItem.titleLabel.text


def test_go_players_show_kyu_dan_ranks(qtbot, window, tmp_path):
    folder = tmp_path / "go"
    folder.mkdir()
    for i in range(6):
        result = "W+R" if i % 3 else "B+R"
        (folder / f"g{i}.sgf").write_text(
            f"(;GM[1]SZ[19]KM[6.5]RU[Japanese]PW[Kim]PB[Lee]WR[3k]BR[6k]RE[{result}]DT[2024-0{i + 1}-01];B[pd])",
            encoding="utf-8",
        )
    load(qtbot, window, folder)
    ranks = {shown(window, r, "Player"): shown(window, r, "Rank / rating") for r in range(window.proxy.rowCount())}
    assert ranks["Kim"].endswith("k") and ranks["Lee"].endswith("k")
    with qtbot.waitSignal(window.history_ready, timeout=20_000):
        window.select_player("Kim")
    assert window.chart.curve_y and all(-10 < y < 5 for y in window.chart.curve_y)


def test_loading_runs_off_the_gui_thread_and_only_the_latest_load_counts(qtbot, window, club_file, tmp_path, monkeypatch):
    release = threading.Event()
    threads: list[threading.Thread] = []
    real_load = players_window.load_records

    def slow_load(paths, should_stop=None, on_file=None):
        threads.append(threading.current_thread())
        if any("first" in str(p) for p in paths):
            release.wait(10)
        return real_load(paths, should_stop=should_stop, on_file=on_file)

    monkeypatch.setattr(players_window, "load_records", slow_load)
    first = tmp_path / "first.pgn"
    first.write_text(pgn_game("Zed", "Yan", "1-0", "2024.01.01"), encoding="utf-8")
    window.load_paths([str(first)])  # returns at once although the loader is stuck
    assert window.is_busy() and window.busy.isVisibleTo(window)
    qtbot.wait(50)  # the event loop keeps running meanwhile
    load(qtbot, window, club_file)  # a second load supersedes the first
    release.set()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=20_000)
    names = {shown(window, row, "Player") for row in range(window.proxy.rowCount())}
    assert "Zed" not in names and "Anna" in names
    assert threads and all(t is not threading.main_thread() for t in threads)


def test_changing_the_half_life_rerates(qtbot, window, club_file):
    load(qtbot, window, club_file)
    with qtbot.waitSignal(window.ratings_ready, timeout=20_000):
        window.half_life.setValue(30)
    assert window.result is not None
    assert window.options().half_life_days == 30.0
    with qtbot.waitSignal(window.ratings_ready, timeout=20_000):
        window.half_life.setValue(0)
    assert window.options().half_life_days is None


def test_unreadable_paths_are_reported_in_the_summary(qtbot, window, tmp_path):
    load(qtbot, window, tmp_path / "missing.pgn")
    assert window.model.rowCount() == 0
    assert "1 unreadable" in window.summary.text()
    assert "missing.pgn" in window.summary.toolTip()


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # the offscreen platform's note
def test_the_window_shows_and_closes_cleanly(qtbot, window, club_file):
    window.show()
    qtbot.waitExposed(window)
    load(qtbot, window, club_file)
    with qtbot.waitSignal(window.history_ready, timeout=20_000):
        window.select_player("Anna")
    window.half_life.setValue(90)  # a re-rating is under way when the window closes
    window.close()
    assert not window.is_busy() and not window.busy.isVisible()
    rows_before = window.model.rowCount()
    QCoreApplication.sendPostedEvents()  # answers that were still queued arrive now, and change nothing
    QCoreApplication.processEvents()
    assert window.model.rowCount() == rows_before


def axes_shown(widget: PlayersWindow) -> bool:
    item = widget.chart.getPlotItem()
    return item.getAxis("left").isVisible() or item.getAxis("bottom").isVisible()


def test_the_buttons_open_a_file_or_a_folder_to_rate(qtbot, window, club_file, tmp_path, monkeypatch):
    window.show()
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "a.pgn").write_text(pgn_game("Xia", "Yan", "1-0", "2024.01.01"), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *args, **kwargs: ([str(club_file)], ""))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args, **kwargs: str(folder))
    with qtbot.waitSignal(window.ratings_ready, timeout=20_000):
        QTest.mouseClick(window.open_file_button, Qt.MouseButton.LeftButton)
    assert "Anna" in {shown(window, row, "Player") for row in range(window.proxy.rowCount())}
    with qtbot.waitSignal(window.ratings_ready, timeout=20_000):
        QTest.mouseClick(window.open_folder_button, Qt.MouseButton.LeftButton)
    assert {shown(window, row, "Player") for row in range(window.proxy.rowCount())} == {"Xia", "Yan"}


def _drag(widget, paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    enter = QDragEnterEvent(QPoint(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    drop = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    return enter, drop, mime


def test_files_dropped_on_the_window_are_rated(qtbot, window, club_file):
    window.show()
    qtbot.waitExposed(window)
    enter, drop, _mime = _drag(window, [club_file])
    assert enter.isAccepted()
    with qtbot.waitSignal(window.ratings_ready, timeout=20_000):
        QApplication.sendEvent(window, drop)
    assert window.model.rowCount() == 5
    refused, _drop, _mime = _drag(window, [])
    assert not refused.isAccepted()  # a drag without files is not taken


def test_reading_and_rating_tell_their_progress(qtbot, window, tmp_path):
    for number in range(3):
        (tmp_path / f"g{number}.pgn").write_text(pgn_game(f"P{number}", "Q", "1-0", "2024.01.01"), encoding="utf-8")
    told = []
    window.progress_changed.connect(told.append)
    load(qtbot, window, tmp_path)
    texts = [progress.text for progress in told]
    assert "Reading files: 0 of 3" in texts and "Reading files: 3 of 3" in texts
    assert texts[-1] == "Rating the players of 3 games"
    assert not window.progress_label.isVisibleTo(window) and not window.busy.isVisibleTo(window)


def test_the_empty_chart_says_so_without_a_scale(qtbot, window, club_file, tmp_path):
    window.show()
    assert not axes_shown(window) and "No games yet" in window.chart.getPlotItem().titleLabel.text
    empty = tmp_path / "none.pgn"
    empty.write_text(pgn_game("?", "?", "*", "2024.01.01"), encoding="utf-8")
    load(qtbot, window, empty)
    assert window.model.rowCount() == 0 and not axes_shown(window)
    assert "No rated player" in window.chart.getPlotItem().titleLabel.text
    load(qtbot, window, club_file)
    assert not axes_shown(window)
    with qtbot.waitSignal(window.history_ready, timeout=20_000):
        window.select_player("Anna")
    assert axes_shown(window)


def test_ctrl_p_offers_the_file_open_in_the_main_window(qtbot):
    from reviewer.gui.window.main_window import MainWindow

    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    path = REPO_ROOT / "tests" / "data" / "chess_three_games.pgn"
    with qtbot.waitSignal(main.file_opened, timeout=10_000):
        main.open_file(path, game_index=1)
    main.activateWindow()
    QTest.keyClick(main, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    players = main.dialogs.players_window
    qtbot.addWidget(players)
    qtbot.waitUntil(lambda: players.isVisible())
    assert players.current_file_button.isVisible() and players.current_file_button.text() == "Rate chess_three_games.pgn"
    with qtbot.waitSignal(players.ratings_ready, timeout=20_000):
        QTest.mouseClick(players.current_file_button, Qt.MouseButton.LeftButton)
    assert players.model.rowCount() == 6 and not players.current_file_button.isVisible()
    players.shutdown()


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
def test_the_chart_follows_a_switch_of_theme(qtbot, window, club_file):
    from reviewer.gui.common import style
    from reviewer.gui.window.app import apply_theme

    app = QApplication.instance()
    window.show()
    load(qtbot, window, club_file)
    with qtbot.waitSignal(window.history_ready, timeout=20_000):
        window.select_player("Anna")
    try:
        for dark in (True, False):
            apply_theme(app, dark)
            qtbot.waitUntil(lambda dark=dark: style.is_dark_palette(window.chart.palette()) == dark)
            base = window.chart.palette().color(window.chart.palette().ColorRole.Base)
            assert window.chart.backgroundBrush().color() == base
            text = window.chart.palette().color(window.chart.palette().ColorRole.WindowText)
            assert window.chart.getPlotItem().getAxis("left").textPen().color() == text
    finally:
        apply_theme(app, False)
