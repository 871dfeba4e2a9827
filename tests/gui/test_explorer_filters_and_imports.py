"""The opening explorer as a player uses it past the first click, driven by real mouse and key
events: what an import did stays on show (and names the files it could not read), Enter plays a
move and opens a game, a date that is no date is said to be one, the filters come back at the next
start, and a damaged database takes no import."""

from __future__ import annotations

import screenshots
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_explorer_panel import WAIT_MS, _expected, _open, _row, _wait_answer, _window
from window_support import OPEN_TIMEOUT_MS, shown_window

from reviewer.core.database import GameDatabase, default_database_path, import_paths
from reviewer.gui.presenters import explorer as texts


def _only_the_button_feeds(window) -> None:
    window.files.opened.disconnect()
    window.files.opened.connect(window._on_file_opened)


def _click(widget, point=None) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point or widget.rect().center())


def test_what_an_import_did_stays_while_the_answers_come(qtbot, morphy_file, tmp_path):
    window = _window(qtbot)
    panel = window.explorer_panel
    _only_the_button_feeds(window)
    _open(qtbot, window, morphy_file, 0)
    qtbot.waitUntil(lambda: panel.summary_label.text() == texts.EMPTY_DATABASE, timeout=WAIT_MS)
    missing = tmp_path / "nowhere.pgn"
    with qtbot.waitSignal(panel.imported, timeout=WAIT_MS):
        panel.add_games([morphy_file, missing])
    _wait_answer(qtbot, panel, 211)
    notice = panel.notice_label.text()
    assert panel.notice_label.isVisible() and notice.startswith("211 games added.")
    assert "Not read: nowhere.pgn" in notice
    assert panel.summary_label.text() == texts.summary(panel.answer.exploration)
    window.go_to_ply(1)  # the next position's answer leaves it there too
    _wait_answer(qtbot, panel, _expected(default_database_path(), window.session.model.game, 1).games)
    assert panel.notice_label.isVisible() and panel.notice_label.text() == notice
    screenshots.shoot(qtbot, window, "explorer-imported", follows=panel)


def test_the_arrows_choose_a_row_and_enter_plays_the_move_and_opens_the_game(qtbot, database, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    _click(panel.moves.viewport(), panel.moves.visualItemRect(_row(panel, "e4")).center())  # plays e4
    _wait_answer(qtbot, panel, _expected(database, window.session.model.game, 1).games)
    assert panel.moves.topLevelItemCount() >= 3
    panel.moves.setFocus()
    qtbot.waitUntil(panel.moves.hasFocus, timeout=WAIT_MS)
    panel.moves.setCurrentItem(panel.moves.topLevelItem(0))
    QTest.keyClick(panel.moves, Qt.Key.Key_Down)  # the next row, the game where it was
    QTest.keyClick(panel.moves, Qt.Key.Key_Down)
    QTest.keyClick(panel.moves, Qt.Key.Key_Up)
    row = panel.moves.currentItem()
    assert row is panel.moves.topLevelItem(1) and window.session.model.current_ply == 1
    QTest.keyClick(panel.moves, Qt.Key.Key_Right)  # still the window's: the next move of the game
    assert window.session.model.current_ply == 2
    QTest.keyClick(panel.moves, Qt.Key.Key_Left)
    assert window.session.model.current_ply == 1
    _wait_answer(qtbot, panel, _expected(database, window.session.model.game, 1).games)
    row = panel.moves.topLevelItem(1)
    panel.moves.setCurrentItem(row)
    QTest.keyClick(panel.moves, Qt.Key.Key_Return)
    assert window.session.model.current_node.move == row.text(0)
    node = window.session.model.current_node
    _wait_answer(qtbot, panel, _expected(database, window.session.model.game, 2).games if node.is_mainline else None)
    qtbot.waitUntil(lambda: panel.games.topLevelItemCount() > 0, timeout=WAIT_MS)
    panel.games.setFocus()
    qtbot.waitUntil(panel.games.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(panel.games, Qt.Key.Key_Down)
    item = panel.games.currentItem()
    stored, ply = item.data(0, Qt.ItemDataRole.UserRole)
    with qtbot.waitSignal(window.file_opened, timeout=OPEN_TIMEOUT_MS):
        QTest.keyClick(panel.games, Qt.Key.Key_Return)
    assert window.session.model.game_index == stored.source_index and window.session.model.current_ply == ply


def test_a_date_that_is_no_date_is_said_to_be_one(qtbot, database, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    _click(panel.since)
    QTest.keyClicks(panel.since, "1858.13")
    QTest.keyClick(panel.since, Qt.Key.Key_Return)
    assert panel.summary_label.text() == "The filters cannot be used: '1858.13' is not a date: there is no month 13."
    assert panel.answer is None and panel.moves.topLevelItemCount() == 0
    assert "no month 13" in panel.since.toolTip() and "border" in panel.since.styleSheet()  # the box itself says so
    assert panel.until.styleSheet() == ""
    screenshots.shoot(qtbot, window, "explorer-bad-date", shown=panel)
    QTest.keyClick(panel.since, Qt.Key.Key_Backspace)
    QTest.keyClick(panel.since, Qt.Key.Key_Backspace)
    QTest.keyClick(panel.since, Qt.Key.Key_Backspace)
    QTest.keyClick(panel.since, Qt.Key.Key_Return)  # "1858": a date
    _wait_answer(qtbot, panel, _expected(database, window.session.model.game, 0, panel.filters()).games)
    assert panel.filters().since == "1858" and panel.since.styleSheet() == ""
    assert panel.summary_label.text().endswith("games (of those the filters keep) reached this position")
    dates = {panel.games.topLevelItem(place).text(2) for place in range(panel.games.topLevelItemCount())}
    assert dates and not any("?" in date for date in dates)  # "1858", not "1858.??.??"


def test_the_filters_come_back_at_the_next_start(qtbot, database, morphy_file):
    window = _window(qtbot, player="Morphy")
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    _click(panel.mine)
    panel.color.setFocus()
    qtbot.waitUntil(panel.color.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(panel.color, Qt.Key.Key_Down)  # as White
    _click(panel.until)
    QTest.keyClicks(panel.until, "1858")
    QTest.keyClick(panel.until, Qt.Key.Key_Return)
    chosen = panel.filters()
    assert chosen.player == "Morphy" and chosen.color == "white" and chosen.until == "1858"
    _wait_answer(qtbot, panel, _expected(database, window.session.model.game, 0, chosen).games)
    window.close()
    again = shown_window(qtbot, 1300, 900, remember_layout=False)
    assert again.explorer_panel.mine.isChecked()
    assert again.explorer_panel.filters() == chosen


def test_a_damaged_database_takes_no_import_and_offers_the_rebuild(qtbot, database, morphy_file, corpus_dir):
    run = sorted(database.parent.glob("games.sqlite.positions/*.run"))[0]
    with run.open("r+b") as file:
        file.truncate(1000)
    window = _window(qtbot)
    panel = window.explorer_panel
    _only_the_button_feeds(window)
    _open(qtbot, window, morphy_file, 0)
    qtbot.waitUntil(panel.rebuild_button.isVisible, timeout=WAIT_MS)
    panel.add_games([corpus_dir / "sgf" / "sabaki__pro_game.sgf"])
    qtbot.waitUntil(lambda: not panel.tasks.busy() and panel.rebuild_button.isVisible(), timeout=WAIT_MS)
    assert f"it is damaged (the position index's {run.name} is cut short)" in panel.summary_label.text()
    assert "ValueError" not in panel.summary_label.text() + panel.notice_label.text()
    with GameDatabase(database) as opened:
        assert opened.connection.execute("SELECT count(*) FROM games").fetchone()[0] == 211
    _click(panel.rebuild_button)
    assert _wait_answer(qtbot, panel, 211).exploration.moves[0].move == "e4"


def test_the_file_chooser_offers_every_kind_of_file_the_import_reads(qtbot, morphy_file, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from reviewer.core.database.importer import COMPRESSED_SUFFIXES
    from reviewer.core.formats import read_extensions

    window = _window(qtbot)
    panel = window.explorer_panel
    asked = []

    def chooser(_parent, _title, _folder, offered):
        asked.append(offered)
        return [str(morphy_file)], offered

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", chooser)
    with qtbot.waitSignal(panel.imported, timeout=WAIT_MS):
        panel.add_button.menu().actions()[0].trigger()  # "Game files…"
    patterns = asked[0].split(";;")[0]
    for extension in read_extensions():  # .ugi, UGF's other name, too
        assert f"*{extension} " in patterns + " "
        for suffix in COMPRESSED_SUFFIXES:
            assert f"*{extension}{suffix}" in patterns


def test_a_figures_title_stands_over_its_figures(qtbot, database, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    for tree in (panel.moves, panel.games):
        header, row = tree.headerItem(), tree.topLevelItem(0)
        for column in range(tree.columnCount()):
            figure_side = Qt.AlignmentFlag(row.textAlignment(column)) & Qt.AlignmentFlag.AlignHorizontal_Mask
            title_side = Qt.AlignmentFlag(header.textAlignment(column)) & Qt.AlignmentFlag.AlignHorizontal_Mask
            if figure_side == Qt.AlignmentFlag.AlignRight:
                assert title_side == Qt.AlignmentFlag.AlignRight, (tree.objectName(), header.text(column))


def test_adding_a_file_read_before_says_so_and_a_cut_import_says_it_went_on(qtbot, corpus_dir, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    _only_the_button_feeds(window)
    _open(qtbot, window, morphy_file, 0)
    with qtbot.waitSignal(panel.imported, timeout=WAIT_MS):
        panel.add_games([morphy_file])
    with qtbot.waitSignal(panel.imported, timeout=WAIT_MS):
        panel.add_games([morphy_file])  # again: nothing new, and why
    assert panel.notice_label.text() == "0 games added. Read before and unchanged since: chesslib__Morphy_UTF8.pgn."
    eco = corpus_dir / "pgn" / "chesslib__eco.pgn"  # 2014 games: an import of it in chunks of 1000
    with GameDatabase(default_database_path()) as made:
        import_paths(made, [eco], chunk_games=1000, cancel=_cancelled_after_a_chunk(made))
    with qtbot.waitSignal(panel.imported, timeout=WAIT_MS) as added:
        panel.add_games([eco])
    assert added.args[0].resumed
    assert "Went on from where the last import stopped: chesslib__eco.pgn." in panel.notice_label.text()


def _cancelled_after_a_chunk(database):
    """A cancel event that is set once the database holds a chunk of the file."""
    import threading

    class AfterAChunk(threading.Event):
        def is_set(self) -> bool:
            return database.game_count() > 211

    return AfterAChunk()


def test_a_long_file_opened_shows_its_import_and_can_cancel_it(qtbot, corpus_dir, monkeypatch):
    import threading

    from reviewer.core.database import importer
    from reviewer.gui.explorer import explorer_panel

    held, release = threading.Event(), threading.Event()
    real = explorer_panel._import

    def held_after_the_first_chunk(context, database_path, paths):
        report = context.report

        def reported(progress):
            report(progress)
            held.set()
            release.wait(WAIT_MS / 1000)

        context.report = reported
        return real(context, database_path, paths)

    monkeypatch.setattr(explorer_panel, "_import", held_after_the_first_chunk)
    monkeypatch.setattr(importer, "CHUNK_GAMES", 1000)
    window = _window(qtbot)
    panel = window.explorer_panel
    eco = corpus_dir / "pgn" / "chesslib__eco.pgn"  # 2014 games: more than a chunk
    _open(qtbot, window, eco, 0)  # feeds the database
    qtbot.waitUntil(held.is_set, timeout=WAIT_MS)
    qtbot.waitUntil(panel.cancel_button.isVisible, timeout=WAIT_MS)
    assert panel.progress.isVisible() and "1,000 read" in panel.progress.format()
    _click(panel.cancel_button)
    release.set()
    qtbot.waitUntil(lambda: not panel.cancel_button.isVisible(), timeout=WAIT_MS)
    assert panel.notice_label.text().startswith("Cancelled: 1,000 games added")
    with GameDatabase(default_database_path()) as made:
        assert made.game_count() == 1000


def test_a_filter_that_keeps_no_game_says_so(qtbot, database, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, panel, 211)
    panel.speed.setFocus()
    qtbot.waitUntil(panel.speed.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(panel.speed, Qt.Key.Key_Down)  # a time control: Morphy's games have none
    _wait_answer(qtbot, panel, 0)
    assert panel.summary_label.text() == "No game that the filters keep reached this position."
