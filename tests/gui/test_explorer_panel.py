"""The opening explorer beside the move list, driven by real mouse and key events on a database
built in the test's data folder from Morphy's games of the shared corpus."""

from __future__ import annotations

import threading

import pytest
import screenshots
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QSplitter
from window_support import OPEN_TIMEOUT_MS, shown_window

from reviewer.core.database import (
    GameDatabase,
    ImportProgress,
    default_database_path,
    explore,
    import_paths,
    position_of_game,
)
from reviewer.gui.common import style
from reviewer.gui.common.settings import Settings
from reviewer.gui.explorer import explorer_panel
from reviewer.gui.presenters import explorer as texts

WAIT_MS = 20_000


def _window(qtbot, player: str = ""):
    if player:
        Settings().collection_player = player
    window = shown_window(qtbot, 1300, 900, remember_layout=False)
    if not window.explorer_action.isChecked():
        window.explorer_action.trigger()
    return window


def _open(qtbot, window, path, index=0):
    with qtbot.waitSignal(window.file_opened, timeout=OPEN_TIMEOUT_MS):
        window.open_file(path, index)


def _wait_answer(qtbot, panel, games: int | None = None):
    qtbot.waitUntil(lambda: panel.answer is not None and (games is None or panel.answer.exploration.games == games), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not panel.tasks.busy(), timeout=WAIT_MS)
    return panel.answer


def _row(panel, move: str):
    found = panel.moves.findItems(move, Qt.MatchFlag.MatchExactly, 0)
    assert found, [panel.moves.topLevelItem(i).text(0) for i in range(panel.moves.topLevelItemCount())]
    return found[0]


def _click(tree, item, double=False):
    tree.scrollToItem(item)
    point = tree.visualItemRect(item).center()
    QTest.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    if double:  # a press, a release, then the second press of a double-click, as a hand does
        QTest.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def _shoot(qtbot, window, name: str) -> None:
    screenshots.shoot(qtbot, window, f"explorer-{name}", follows=window.explorer_panel)


def _expected(database_path, game, ply, filters=None):
    with GameDatabase(database_path) as opened:
        return explore(opened, position_of_game(game, ply), filters)


def test_a_clicked_move_is_played_and_the_explorer_follows(qtbot, database, morphy_file):
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    assert panel.isVisible() and Settings().explorer_shown
    answer = _wait_answer(qtbot, panel, 211)
    assert answer.exploration.moves[0].move == "e4"
    assert _row(panel, "e4").text(1).startswith(str(answer.exploration.moves[0].games))
    e4_games = answer.exploration.moves[0].games
    _click(panel.moves, _row(panel, "e4"))
    assert window.session.model.current_node.move == "e4"
    _wait_answer(qtbot, panel, e4_games)
    assert panel.summary_label.text() == texts.summary(panel.answer.exploration)
    # a move the game did not play: a variation on the analysis board, and the explorer follows it
    game = window.session.model.game
    played = game.node_at_ply(2).move
    other = next(stats for stats in panel.answer.exploration.moves if stats.move != played)
    _click(panel.moves, _row(panel, other.move))
    node = window.session.model.current_node
    assert node.move == other.move and not node.is_mainline
    _wait_answer(qtbot, panel, other.games)
    _shoot(qtbot, window, "variation")


def test_the_filters_change_the_counts(qtbot, database, morphy_file):
    window = _window(qtbot, player="Morphy")
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    _wait_answer(qtbot, panel, 211)
    _click_box = panel.mine
    QTest.mouseClick(_click_box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, _click_box.rect().center())
    assert panel.mine.isChecked() and panel.color.isEnabled()
    panel.color.setFocus()
    qtbot.waitUntil(panel.color.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(panel.color, Qt.Key.Key_Down)  # as White
    assert panel.color.currentData() == "white", (panel.color.currentIndex(), panel.color.isEnabled(), panel.color.count())
    game = window.session.model.game
    as_white = _expected(database, game, 0, panel.filters())
    assert 0 < as_white.games < 211
    _wait_answer(qtbot, panel, as_white.games)
    QTest.keyClick(panel.color, Qt.Key.Key_Down)  # as Black
    as_black = _expected(database, game, 0, panel.filters())
    assert as_black.games not in (as_white.games, 211)
    _wait_answer(qtbot, panel, as_black.games)
    panel.until.setFocus()
    QTest.keyClicks(panel.until, "1857")
    QTest.keyClick(panel.until, Qt.Key.Key_Return)
    until = _expected(database, game, 0, panel.filters())
    assert until.games < as_black.games
    _wait_answer(qtbot, panel, until.games)


def test_a_double_clicked_game_opens_at_the_position(qtbot, database, morphy_file):
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    _wait_answer(qtbot, panel, 211)
    window.go_to_ply(4)
    expected = _expected(database, window.session.model.game, 4)
    _wait_answer(qtbot, panel, expected.games)
    item = panel.games.topLevelItem(0)
    stored, ply = item.data(0, Qt.ItemDataRole.UserRole)
    with qtbot.waitSignal(window.file_opened, timeout=OPEN_TIMEOUT_MS):
        _click(panel.games, item, double=True)
    assert window.session.model.game_index == stored.source_index
    assert window.session.model.current_ply == ply
    reached = _expected(database, window.session.model.game, ply)
    assert reached.games == expected.games  # the same position


def _morphy_window(qtbot, morphy_file):
    """The window on Morphy's first game, the explorer's answer for its start shown."""
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 0)
    _wait_answer(qtbot, window.explorer_panel, 211)
    return window, window.explorer_panel


def _first_answer_held(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """The next position's answer held until `release` is set (`held` says it is being held)."""
    held, release = threading.Event(), threading.Event()
    real = explorer_panel._answer

    def held_once(path, game, node, filters):
        if not held.is_set():
            held.set()
            release.wait(WAIT_MS / 1000)
        return real(path, game, node, filters)

    monkeypatch.setattr(explorer_panel, "_answer", held_once)
    return held, release


def _import_held(monkeypatch, first=None) -> tuple[threading.Event, threading.Event]:
    """The next import held before it reads (after `first(context, paths)`) until `release` is set."""
    held, release = threading.Event(), threading.Event()
    real = explorer_panel._import

    def held_import(context, database_path, paths):
        if first is not None:
            first(context, paths)
        held.set()
        release.wait(WAIT_MS / 1000)
        return real(context, database_path, paths)

    monkeypatch.setattr(explorer_panel, "_import", held_import)
    return held, release


def test_an_answer_for_a_position_no_longer_shown_is_dropped(qtbot, database, morphy_file, monkeypatch):
    window, panel = _morphy_window(qtbot, morphy_file)
    held, release = _first_answer_held(monkeypatch)
    window.go_to_ply(1)
    qtbot.waitUntil(held.is_set, timeout=WAIT_MS)
    window.go_to_ply(2)
    second = _expected(database, window.session.model.game, 2)
    qtbot.waitUntil(lambda: panel.answer is not None and panel.answer.exploration.games == second.games, timeout=WAIT_MS)
    shown = []
    panel.answered.connect(shown.append)
    release.set()
    qtbot.waitUntil(lambda: not panel.tasks.busy(), timeout=WAIT_MS)
    assert shown == []  # the answer for ply 1 came last and was dropped
    assert panel.answer.exploration.games == second.games


def test_a_file_opened_in_the_window_feeds_the_database(qtbot, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    with qtbot.waitSignal(panel.imported, timeout=WAIT_MS):
        _open(qtbot, window, morphy_file, 0)  # the import starts once the game is on show
    with GameDatabase(default_database_path()) as made:
        assert made.game_count() == 211
    _wait_answer(qtbot, panel, 211)


def test_an_empty_database_being_fed_a_file_just_opened_says_its_games_are_coming(qtbot, morphy_file, monkeypatch):
    window = _window(qtbot)
    panel = window.explorer_panel
    held, release = _import_held(monkeypatch)
    _open(qtbot, window, morphy_file, 0)
    qtbot.waitUntil(held.is_set, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.answer is not None, timeout=WAIT_MS)
    assert panel.summary_label.text() == texts.FIRST_GAMES_COMING
    assert not panel.add_button.isVisible()  # no offer to add games while they are being added
    with qtbot.waitSignal(panel.imported, timeout=WAIT_MS):
        release.set()
    _wait_answer(qtbot, panel, 211)
    assert panel.summary_label.text() == texts.summary(panel.answer.exploration)


def test_an_empty_database_offers_to_add_games(qtbot, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    window.files.opened.disconnect()  # only the button feeds it here
    window.files.opened.connect(window._on_file_opened)
    _open(qtbot, window, morphy_file, 0)
    qtbot.waitUntil(lambda: panel.summary_label.text() == texts.EMPTY_DATABASE, timeout=WAIT_MS)
    assert panel.add_button.isVisible()
    _shoot(qtbot, window, "empty")
    with qtbot.waitSignal(panel.imported, timeout=WAIT_MS) as report:
        panel.add_games([morphy_file])
        assert panel.cancel_button.isVisible() and panel.progress.isVisible()
    assert report.args[0].stored == 211
    _wait_answer(qtbot, panel, 211)
    assert not panel.cancel_button.isVisible() and not panel.add_button.isVisible()


def test_the_move_list_marks_where_the_game_left_the_database_and_the_player_their_line(qtbot, database, morphy_file):
    window = _window(qtbot, player="Morphy")
    _open(qtbot, window, morphy_file, 11)  # Morphy – Morphy, Ernest: 4.c3 where Morphy had played 4.b4
    marks = window.departure_marks
    qtbot.waitUntil(lambda: marks.found is not None, timeout=WAIT_MS)
    move_list = window.move_list
    line = move_list.departure_text(7)
    assert line == "You left your usual line: you played 4.b4 here in 32 of your 34 other games; in this one 4.c3."
    out = move_list.departure_text(8)
    assert out.startswith("Out of the database: after 4…d6 no other game reached the position")
    theme = style.theme_for(move_list)
    game = window.session.model.game
    for ply, color in ((7, theme.warning_text), (8, theme.info_text)):  # a mark for each kind, told apart
        rect = move_list.item_rect(game.node_at_ply(ply))
        image = move_list.viewport().grab(rect).toImage()
        wanted = QColor(color)
        near = [(x, y) for x in range(image.width()) for y in range(image.height())
                if sum(abs(a - b) for a, b in zip(image.pixelColor(x, y).getRgb()[:3], wanted.getRgb()[:3], strict=True)) < 60]
        assert len(near) > 3, (ply, color)
    assert {mark for mark, _ in move_list.departure_marks(7)} != {mark for mark, _ in move_list.departure_marks(8)}
    game = window.session.model.game
    node = game.node_at_ply(7)
    rect = move_list.item_rect(node)
    assert move_list.tooltip_at(rect.center()) == line
    QTest.mouseClick(move_list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    assert window.session.model.current_node is node
    qtbot.waitUntil(lambda: line in window.comment_view.toPlainText(), timeout=WAIT_MS)
    assert "C53 Italian Game: Classical Variation" in window.comment_view.toPlainText()  # the position's ECO code and name
    _wait_answer(qtbot, window.explorer_panel, _expected(database, game, 7).games)
    _shoot(qtbot, window, "departures")
    window.go_to_ply(6)
    qtbot.waitUntil(lambda: "usual line" not in window.comment_view.toPlainText(), timeout=WAIT_MS)


def test_go_moves_from_the_position_with_wins_by_colour(qtbot, corpus_dir):
    with GameDatabase(default_database_path()) as made:
        import_paths(made, [corpus_dir / "sgf"])
    path = corpus_dir / "sgf" / "katrain__LS_vs_AG_G4_English.sgf"
    window = _window(qtbot)
    _open(qtbot, window, path, 0)
    panel = window.explorer_panel
    game = window.session.model.game
    start = _expected(default_database_path(), game, 0)
    assert start.games >= 2 and start.moves
    answer = _wait_answer(qtbot, panel, start.games)
    top = answer.exploration.moves[0]
    row = _row(panel, top.move)
    shares = row.data(2, explorer_panel.SHARES_ROLE)
    assert shares.first_color == "black"  # Black moves first: Black's wins lead the bar
    assert shares.first == pytest.approx(top.black_wins / max(1, top.white_wins + top.draws + top.black_wins))
    _click(panel.moves, row)
    assert window.session.model.current_node.move.upper() == top.move.upper()
    _wait_answer(qtbot, panel, top.games)
    _shoot(qtbot, window, "go")


def test_adding_games_can_be_cancelled(qtbot, corpus_dir, morphy_file):
    window = _window(qtbot)
    panel = window.explorer_panel
    window.files.opened.disconnect()  # only the button feeds it here
    window.files.opened.connect(window._on_file_opened)
    _open(qtbot, window, morphy_file, 0)
    qtbot.waitUntil(lambda: panel.summary_label.text() == texts.EMPTY_DATABASE, timeout=WAIT_MS)
    task = panel.add_games([corpus_dir / "pgn"])
    button = panel.cancel_button
    QTest.mouseClick(button, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, button.rect().center())
    assert task.is_cancelled
    qtbot.waitUntil(lambda: not button.isVisible(), timeout=WAIT_MS)
    text = panel.notice_label.text()
    with GameDatabase(default_database_path()) as made:
        stored = made.game_count()
    assert text == texts.IMPORT_CANCELLED or text.startswith(f"Cancelled: {stored} game")
    assert panel.notice_label.isVisible()
    assert stored < 3000  # the folder holds more: the import stopped
    assert panel.add_button.isEnabled()


def test_the_view_menu_shows_and_hides_the_explorer_for_the_next_start_too(qtbot):
    window = _window(qtbot)
    assert window.explorer_panel.isVisible() and window.explorer_action.isChecked()
    window.explorer_action.trigger()
    assert not window.explorer_panel.isVisible() and not Settings().explorer_shown
    again = shown_window(qtbot, 1300, 900, remember_layout=False)
    assert not again.explorer_panel.isVisible() and not again.explorer_action.isChecked()
    again.explorer_action.trigger()
    third = shown_window(qtbot, 1300, 900, remember_layout=False)
    assert third.explorer_panel.isVisible()


def test_a_damaged_database_says_so_and_is_rebuilt_with_a_click(qtbot, database, morphy_file):
    with database.open("r+b") as file:  # the header and the first pages: not a database any more
        file.write(bytes(range(256)) * 32)
    window = _window(qtbot)
    panel = window.explorer_panel
    window.files.opened.disconnect()  # the damaged file is not fed here
    window.files.opened.connect(window._on_file_opened)
    _open(qtbot, window, morphy_file, 0)
    qtbot.waitUntil(lambda: "it is damaged (file is not a database)" in panel.summary_label.text(), timeout=WAIT_MS)
    assert panel.rebuild_button.isVisible() and not panel.body.isVisible() and panel.answer is None
    _shoot(qtbot, window, "damaged")
    assert panel.rebuild_button.isVisible(), panel.summary_label.text()
    QTest.mouseClick(panel.rebuild_button, Qt.MouseButton.LeftButton)
    assert _wait_answer(qtbot, panel, 211).exploration.moves[0].move == "e4"
    assert panel.notice_label.isVisible() and panel.notice_label.text().startswith("The database was built again: 211 games from 1 file.")
    assert "The damaged file is kept as games.sqlite.damaged-" in panel.notice_label.text()
    assert not panel.rebuild_button.isVisible() and panel.body.isVisible()
    _shoot(qtbot, window, "rebuilt")
    assert list(database.parent.glob("games.sqlite.damaged-*"))


def _shares(row) -> texts.ResultShares:
    return row.data(2, explorer_panel.SHARES_ROLE)


def _fill_of(image, part) -> QColor:
    """The colour most of a bar's part is painted in (its label aside)."""
    counts: dict[int, int] = {}
    for x in range(part.left() + 1, part.right()):
        for y in range(part.top() + 1, part.bottom()):
            rgb = image.pixel(x, y)
            counts[rgb] = counts.get(rgb, 0) + 1
    return QColor.fromRgb(max(counts, key=counts.__getitem__))


def test_every_part_of_the_results_bar_stands_out_in_both_themes(qtbot, database, morphy_file):
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    _wait_answer(qtbot, panel, 211)
    rows = [panel.moves.topLevelItem(i) for i in range(panel.moves.topLevelItemCount())]
    row = next(row for row in rows if min(_shares(row).first, _shares(row).draws, _shares(row).second) > 0.1)
    shares = _shares(row)
    for dark in (False, True):
        if window.commands.dark_action.isChecked() != dark:
            window.commands.dark_action.trigger()
        qtbot.waitUntil(lambda: panel.moves.palette().base().color() == QApplication.palette().base().color(), timeout=WAIT_MS)
        background = panel.moves.palette().base().color()
        panel.moves.viewport().repaint()
        image = panel.moves.viewport().grab().toImage()
        cell = panel.moves.visualRect(panel.moves.indexFromItem(row, 2))
        theme = style.theme_for(panel.moves)
        parts = explorer_panel.bar_parts(cell, shares, theme)
        assert [fraction for _part, _fill, fraction in parts] == [shares.first, shares.draws, shares.second]
        for (part, _fill, _fraction), side in zip(parts, ("white", "draws", "black"), strict=True):
            fill = _fill_of(image, part)
            if side == "white" and not dark:  # white on white: the bar's outline bounds it
                outline = QColor.fromRgb(image.pixel(part.center().x(), part.top()))
                assert style.contrast_ratio(outline, background) >= 3, (outline.name(), background.name())
            else:
                assert style.contrast_ratio(fill, background) >= 3, (dark, side, fill.name(), background.name())
        for part, _fill, _fraction in parts[1:]:  # a line of the background between two parts, however close their greys
            assert QColor.fromRgb(image.pixel(part.left(), part.center().y())) == background
    _shoot(qtbot, window, "results-bar")


def test_counts_of_thousands_are_written_with_separators(qtbot, corpus_dir, morphy_file):
    with GameDatabase(default_database_path()) as made:
        import_paths(made, [corpus_dir / "pgn"])
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    start = _expected(default_database_path(), window.session.model.game, 0)
    assert start.games >= 1000 and start.moves[0].games >= 1000
    _wait_answer(qtbot, panel, start.games)
    assert panel.summary_label.text().startswith(f"{start.games:,} games reached this position")
    top = start.moves[0]
    assert _row(panel, top.move).text(1).startswith(f"{top.games:,} (")
    rare = next(stats for stats in start.moves if stats.games / start.games < 0.005)  # played, if seldom
    assert _row(panel, rare.move).text(1) == f"{rare.games} (<1%)"
    _shoot(qtbot, window, "thousands")


def _first_fill(panel) -> QColor:
    """The colour of the first part of the first move's bar, as the window shows it."""
    row = panel.moves.topLevelItem(0)
    cell = panel.moves.visualRect(panel.moves.indexFromItem(row, 2))
    part = explorer_panel.bar_parts(cell, _shares(row), style.theme_for(panel.moves))[0][0]
    offset = panel.moves.viewport().mapTo(panel, part.topLeft()) - part.topLeft()
    return _fill_of(panel.grab().toImage(), part.translated(offset))


def test_a_slow_answer_greys_the_last_one_which_no_longer_plays(qtbot, database, morphy_file, monkeypatch):
    window, panel = _morphy_window(qtbot, morphy_file)
    _held, release = _first_answer_held(monkeypatch)
    white_fill = _first_fill(panel)
    assert white_fill == QColor(style.theme_for(panel.moves).results_white)
    window.go_to_ply(1)
    qtbot.waitUntil(lambda: panel.summary_label.text() == texts.LOOKING_UP, timeout=WAIT_MS)
    assert _first_fill(panel) != white_fill  # greyed
    _shoot(qtbot, window, "looking-up")
    old = _row(panel, "d4")  # a move of the start position, not of this one
    _click(panel.moves, old)
    assert window.session.model.current_ply == 1 and window.session.model.current_node.move == "e4"
    release.set()
    after_e4 = _expected(database, window.session.model.game, 1)
    _wait_answer(qtbot, panel, after_e4.games)
    assert panel.summary_label.text() == texts.summary(after_e4) and _first_fill(panel) == white_fill


def test_a_move_plays_while_the_answer_for_new_filters_of_the_same_position_is_slow(qtbot, database, morphy_file, monkeypatch):
    window, panel = _morphy_window(qtbot, morphy_file)
    _held, release = _first_answer_held(monkeypatch)
    QTest.keyClicks(panel.until, "1858")
    QTest.keyClick(panel.until, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.summary_label.text() == texts.LOOKING_UP, timeout=WAIT_MS)
    _click(panel.moves, _row(panel, "e4"))  # the moves are this position's: only their counts are changing
    assert window.session.model.current_ply == 1 and window.session.model.current_node.move == "e4"
    release.set()
    _wait_answer(qtbot, panel, _expected(database, window.session.model.game, 1, panel.filters()).games)


def test_an_answer_read_while_games_are_added_says_so_and_is_asked_again(qtbot, database, morphy_file, corpus_dir, monkeypatch):
    window, panel = _morphy_window(qtbot, morphy_file)
    held, release = _import_held(monkeypatch)
    panel.add_games([corpus_dir / "pgn" / "chesslib__31_events.pgn"])
    qtbot.waitUntil(held.is_set, timeout=WAIT_MS)
    window.go_to_ply(1)
    during = _expected(database, window.session.model.game, 1)
    qtbot.waitUntil(lambda: panel.summary_label.text() == texts.summary(during) + texts.STILL_ADDING, timeout=WAIT_MS)
    release.set()
    qtbot.waitUntil(lambda: not panel.tasks.busy(), timeout=WAIT_MS)
    after = _expected(database, window.session.model.game, 1)
    qtbot.waitUntil(lambda: panel.summary_label.text() == texts.summary(after), timeout=WAIT_MS)


@pytest.mark.qt_log_ignore("This plugin does not support")  # the offscreen platform, showing a drop-down list
def test_the_arrow_keys_step_through_the_game_again_after_a_filter_is_set(qtbot, database, morphy_file):
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    _wait_answer(qtbot, panel, 211)
    box = panel.until
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, box.rect().center())
    qtbot.waitUntil(box.hasFocus, timeout=WAIT_MS)
    QTest.keyClicks(box, "1860")
    QTest.keyClick(box, Qt.Key.Key_Left)  # while typing, the arrows are the box's
    assert window.session.model.current_ply == 0 and box.cursorPosition() == 3
    QTest.keyClick(box, Qt.Key.Key_Return)  # the filter is set: the keys go back to the game
    qtbot.waitUntil(lambda: not box.hasFocus(), timeout=WAIT_MS)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right)
    assert window.session.model.current_ply == 1
    speed = panel.speed
    QTest.mouseClick(speed, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, speed.rect().center())
    qtbot.waitUntil(lambda: speed.view().isVisible(), timeout=WAIT_MS)
    QTest.keyClick(speed.view(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not speed.view().isVisible() and speed.hasFocus(), timeout=WAIT_MS)
    QTest.keyClick(speed, Qt.Key.Key_Right)  # a list has no use for Left and Right: the game's
    assert window.session.model.current_ply == 2
    QTest.keyClick(speed, Qt.Key.Key_Left)
    assert window.session.model.current_ply == 1 and speed.currentIndex() == 0
    rating = panel.min_rating
    QTest.mouseClick(rating, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rating.rect().center())
    qtbot.waitUntil(rating.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(rating.lineEdit(), Qt.Key.Key_Escape)  # Esc leaves a box too
    qtbot.waitUntil(lambda: not rating.hasFocus(), timeout=WAIT_MS)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right)
    assert window.session.model.current_ply == 2


def test_a_set_filter_still_says_what_it_keeps(qtbot, database, morphy_file):
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    _wait_answer(qtbot, panel, 211)
    for box, word, date in ((panel.since, "since", "1857"), (panel.until, "until", "1859")):
        QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, box.rect().center())
        QTest.keyClicks(box, date)
        QTest.keyClick(box, Qt.Key.Key_Return)
        label = next(label for label in panel.findChildren(QLabel) if label.buddy() is box)
        assert label.isVisible() and label.text() == word  # the placeholder is gone once a date is typed
        assert label.mapTo(panel, label.rect().topRight()).x() <= box.mapTo(panel, box.rect().topLeft()).x()
    expected = _expected(database, window.session.model.game, 0, panel.filters())
    _wait_answer(qtbot, panel, expected.games)
    shown = texts.game_row(*expected.top_games[0])
    assert panel.games.topLevelItem(0).toolTip(0).startswith(f"{shown.players}\n")  # the names the column cuts
    rating = panel.min_rating
    QTest.mouseClick(rating, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rating.rect().center())
    QTest.keyClick(rating.lineEdit(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(rating.lineEdit(), "1800")
    QTest.keyClick(rating.lineEdit(), Qt.Key.Key_Return)
    assert rating.value() == 1800 and rating.text() == "rating ≥ 1800"
    _wait_answer(qtbot, panel, _expected(database, window.session.model.game, 0, panel.filters()).games)
    _shoot(qtbot, window, "filters-set")


def test_a_few_moves_leave_their_room_to_the_top_games(qtbot, database, morphy_file):
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 11)
    panel = window.explorer_panel
    window.go_to_ply(7)  # 4.c3: three moves, five games
    expected = _expected(database, window.session.model.game, 7)
    assert len(expected.moves) <= 3 < len(expected.top_games)
    _wait_answer(qtbot, panel, expected.games)
    qtbot.waitUntil(lambda: panel.games.visualItemRect(panel.games.topLevelItem(len(expected.top_games) - 1)).bottom()
                    <= panel.games.viewport().height(), timeout=WAIT_MS)  # every top game in sight
    last = panel.moves.visualItemRect(panel.moves.topLevelItem(len(expected.moves) - 1))
    assert panel.moves.viewport().height() - last.bottom() <= 2 * last.height()  # no blank below the moves
    _shoot(qtbot, window, "few-moves")


def test_a_narrow_panel_cuts_no_filter_and_puts_the_rating_under_the_dates(qtbot, database, morphy_file):
    window = _window(qtbot)
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    _wait_answer(qtbot, panel, 211)

    def row_of(widget) -> int:
        return widget.mapTo(panel, widget.rect().topLeft()).y()

    beside = window.findChild(QSplitter, "moves-and-explorer")
    widest = beside.width() - window.move_list.minimumSizeHint().width() - beside.handleWidth()
    for narrowest, wide in ((True, False), (False, True)):
        for _attempt in range(3):  # the narrowest it can be, once the rating boxes went under the dates
            explorer_width = panel.minimumSizeHint().width() if narrowest else widest
            beside.setSizes([beside.width() - explorer_width, explorer_width])
            qtbot.waitUntil(lambda: panel.width() == beside.sizes()[1], timeout=WAIT_MS)
            QApplication.sendPostedEvents()
        for box in (panel.since, panel.until, panel.min_rating, panel.min_accuracy):
            assert box.mapTo(panel, box.rect().topRight()).x() <= panel.width()  # nothing cut at the edge
        for box in (panel.since, panel.until):
            assert box.fontMetrics().horizontalAdvance("0000.00.00") < box.width()
        for box in (panel.min_rating, panel.min_accuracy, panel.color, panel.speed):
            assert box.width() >= box.sizeHint().width(), box  # its widest item whole
        assert (row_of(panel.min_rating) == row_of(panel.since)) == wide, panel.width()
    _shoot(qtbot, window, "wide-filters")


def test_my_games_is_not_shown_as_kept_while_no_player_is_named(qtbot, database, morphy_file):
    Settings().set_explorer_filter("mine", "yes")
    window = _window(qtbot)  # no player named
    _open(qtbot, window, morphy_file, 0)
    panel = window.explorer_panel
    _wait_answer(qtbot, panel, 211)  # every game: the filter cannot apply
    assert not panel.mine.isChecked() and not panel.mine.isEnabled() and not panel.color.isEnabled()
    Settings().collection_player = "Anderssen"
    window.go_to_ply(1)
    mine = _expected(database, window.session.model.game, 1, panel.filters())
    assert panel.mine.isChecked() and panel.filters().player == "Anderssen"  # the choice kept for when they are named
    assert 0 < mine.games < _expected(database, window.session.model.game, 1).games
    _wait_answer(qtbot, panel, mine.games)


def test_the_import_bar_writes_how_far_it_is(qtbot, database, corpus_dir, monkeypatch):
    window = _window(qtbot)
    panel = window.explorer_panel
    held, release = _import_held(monkeypatch, lambda context, paths: context.report(
        ImportProgress(path=str(paths[0]), games_read=12345, games_in_file=50000, stored=12000, duplicates=0, skipped=0,
                       listed_all=False, file_fraction=0.25)))
    panel.add_games([corpus_dir / "pgn" / "chesslib__31_events.pgn"])
    qtbot.waitUntil(held.is_set, timeout=WAIT_MS)
    shown = texts.import_progress_text(12345, 12000)
    qtbot.waitUntil(lambda: panel.progress.text() == shown, timeout=WAIT_MS)  # drawn on the bar, not only set
    assert "12,345 read" in shown and panel.progress.value() == 250  # a quarter of the file's bytes
    assert panel.progress.fontMetrics().horizontalAdvance(shown) < panel.progress.width()  # on one line, uncut
    assert "chesslib__31_events.pgn" in panel.progress.toolTip()
    _shoot(qtbot, window, "importing")
    release.set()
    qtbot.waitUntil(lambda: not panel.progress.isVisible(), timeout=WAIT_MS)


def test_the_filter_lists_are_never_cut_even_with_no_game_open(qtbot):
    window = _window(qtbot)
    panel = window.explorer_panel
    beside = window.findChild(QSplitter, "moves-and-explorer")
    for _attempt in range(3):
        beside.setSizes([beside.width() - panel.minimumSizeHint().width(), panel.minimumSizeHint().width()])
        qtbot.waitUntil(lambda: panel.width() == beside.sizes()[1], timeout=WAIT_MS)
        QApplication.sendPostedEvents()
    for combo in (panel.color, panel.speed):
        assert combo.width() >= combo.sizeHint().width(), (combo.currentText(), combo.width(), panel.width())


def test_a_move_whose_games_have_no_result_says_so_on_its_bar(qtbot, tmp_path):
    games = tmp_path / "unfinished.pgn"
    games.write_text("".join(f'[White "A{n}"]\n[Black "B{n}"]\n[Result "{result}"]\n\n1. {first} e5 {result}\n\n'
                             for n, (first, result) in enumerate((("e4", "1-0"), ("d4", "*"), ("d4", "*")))), encoding="utf-8")
    with GameDatabase(default_database_path()) as made:
        import_paths(made, [games])
    window = _window(qtbot)
    _open(qtbot, window, games, 0)
    panel = window.explorer_panel
    _wait_answer(qtbot, panel, 3)
    row = _row(panel, "d4")
    assert row.toolTip(2).endswith("; 2 without a result")
    for dark in (False, True):
        if window.commands.dark_action.isChecked() != dark:
            window.commands.dark_action.trigger()
        qtbot.waitUntil(lambda: panel.moves.palette().base().color() == QApplication.palette().base().color(), timeout=WAIT_MS)
        image = panel.moves.viewport().grab().toImage()
        bar = explorer_panel.bar_rect(panel.moves.visualRect(panel.moves.indexFromItem(row, 2)))
        background = panel.moves.palette().base().color().rgb()
        inked = [(x, y) for x in range(bar.left() + 2, bar.right() - 1) for y in range(bar.top() + 2, bar.bottom() - 1)
                 if image.pixel(x, y) != background]
        assert len(inked) > 20, dark  # written on, not an empty box
    _shoot(qtbot, window, "no-result")
