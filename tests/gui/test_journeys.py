"""Journeys through the real window, as a player makes them, across the joins between features:
open → analyse → click the graph → play a variation on the board → engine lines → undo → export →
reopen the export and the original → train on the mistakes; and a collection reviewed, cancelled after its
first game → its insights → that game opened from a mistake → its cards trained. Mouse and keys through QTest; engines are
the fake ones of tests/fakes (real protocols, fixed answers); every wait is on a signal or a state.

With REVIEWER_SHOTS=DIR, the key states are saved as DIR/journey-*.png, light and dark.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
import screenshots
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from support import fake_engine_command

from reviewer.core.games.chess import board_after
from reviewer.core.gametree import point_from_gtp
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

CHESS_GAME = ("pgn", "chesslib__promoting.pgn")
WAIT_MS = 60_000
# A 9×9 game: four moves in the corners around a ko shape set up on the board (the fake KataGo
# finds White's first move an inaccuracy).
GO_GAME = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PL[B]AB[ce][dd][df]AW[ed][ef][fe][de];B[aa];W[ii];B[ai];W[ia])"


def make_window(qtbot) -> MainWindow:
    window = MainWindow(discover_engines=False, remember_layout=False)
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    chess_engine = shlex.join(fake_engine_command("fake_uci.py", "--pv-plies", "6"))
    window.set_engine_choice(EngineChoice(kind="chess", command=chess_engine), remember=False)
    go_engine = shlex.join(fake_engine_command("fake_katago.py"))
    window.set_engine_choice(EngineChoice(kind="go", command=go_engine), remember=False)
    return window


@pytest.fixture
def window(qtbot):
    made = make_window(qtbot)
    yield made
    made.close()


def open_file(qtbot, window: MainWindow, path: Path) -> None:
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(path)
    qtbot.waitUntil(lambda: not window.analysis_board.restoring_lines, timeout=WAIT_MS)


def analyse_with_space(qtbot, window: MainWindow) -> None:
    window.setFocus()
    with qtbot.waitSignal(window.analysis_finished, timeout=WAIT_MS) as finished:
        QTest.keyClick(window, Qt.Key.Key_Space)
    assert finished.args == [True]
    settle(qtbot, window)


def settle(qtbot, window: MainWindow) -> None:
    """The assessment is exact and the views have drawn it."""
    window.session.model.settle_assessment()
    qtbot.waitUntil(lambda: not window._refresh_timer.isActive(), timeout=WAIT_MS)


def shown_labels(window: MainWindow) -> dict[int, str]:
    """Main-line ply -> the ?!/?/?? drawn after each flagged move of the move list."""
    session = window.session
    return {ply: window.move_list.symbol_for(session.model.mainline_node(ply), ply) for ply in session.model.flagged_plies()}


def click_graph(qtbot, window: MainWindow, ply: int) -> int:
    graph = window.eval_graph
    position = graph.view.mapFromScene(graph.scene_pos_for(ply))
    with qtbot.waitSignal(graph.ply_clicked, timeout=WAIT_MS) as clicked:
        QTest.mouseClick(graph.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, position)
    return int(clicked.args[0])


def drag(board, start_square: int, end_square: int) -> None:
    start, end = board.square_center(start_square).toPoint(), board.square_center(end_square).toPoint()
    QTest.mousePress(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(board, (start + end) / 2)
    QTest.mouseMove(board, end)
    QTest.mouseRelease(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def click_point(window: MainWindow, gtp: str) -> None:
    board = window.board
    point = point_from_gtp(gtp, 9)
    QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, board.point_center(point).toPoint())


def click_line_move(qtbot, window: MainWindow, plies: int) -> tuple[str, ...]:
    """Switch the engine lines on (L), wait for a first line long enough, click its move number `plies`."""
    QTest.keyClick(window, Qt.Key.Key_L)
    rows = window.lines_panel.rows
    qtbot.waitUntil(lambda: bool(rows()) and len(rows()[0].moves) >= plies, timeout=WAIT_MS)
    line = rows()[0].moves
    label = window.lines_panel.line_label(0)
    QTest.mouseClick(label, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, label.move_rect(plies - 1).center())
    return line


def undo(window: MainWindow) -> None:
    QTest.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def export(qtbot, window: MainWindow, path: Path, with_analysis: bool = False) -> None:
    with qtbot.waitSignal(window.exports.finished, timeout=WAIT_MS):
        window.exports.export_annotated(path, with_analysis=with_analysis)


def shoot(qtbot, window: MainWindow, name: str, widget=None) -> None:
    """The window (or `widget`) as it looks now, light and dark, saved as journey-NAME-*.png under REVIEWER_SHOTS."""
    screenshots.shoot(qtbot, window, f"journey-{name}", shown=widget, before_grab=lambda: qtbot.waitUntil(
        lambda: not window._refresh_timer.isActive(), timeout=WAIT_MS))


def wait_for_theme(qtbot, shown) -> None:
    """The application's palette has reached `shown` (it is posted to every widget)."""
    wanted = QApplication.palette().window().color()
    qtbot.waitUntil(lambda: shown.palette().window().color() == wanted, timeout=WAIT_MS)


def test_chess_open_analyse_explore_undo_export_and_reopen(qtbot, window, corpus_dir, tmp_path):
    original = tmp_path / "game.pgn"
    shutil.copyfile(corpus_dir.joinpath(*CHESS_GAME), original)
    open_file(qtbot, window, original)
    analyse_with_space(qtbot, window)
    session = window.session
    labels = shown_labels(window)
    assert labels and all(labels.values()), "the fake engine flags some moves of this game"

    # The graph takes the player to a flagged move: board, move list and graph agree.
    ply = click_graph(qtbot, window, next(p for p in sorted(labels) if p >= 6))
    assert session.model.current_ply == ply and window.move_list.current_node() is session.model.mainline_node(ply)
    assert window.board.board().fen() == board_after(session.model.game, session.model.current_node).fen()

    # A variation dragged on the board: the labels of the whole list stay.
    here = session.model.current_node
    board = board_after(session.model.game, here)
    played = {child.uci for child in here.children}
    move = next(m for m in board.legal_moves if m.uci() not in played and not m.promotion)
    with qtbot.waitSignal(session.tree_changed):
        drag(window.board, move.from_square, move.to_square)
    variation = session.model.current_node
    assert variation.uci == move.uci() and not variation.is_mainline and variation.parent is here
    assert shown_labels(window) == labels

    # Engine lines: a click on the third move of the first line plays three moves, and only those.
    line = click_line_move(qtbot, window, 3)
    assert [node.move for node in session.model.current_node.path_from_root()[ply + 1 :]] == list(line[:3])
    assert not window.board._preview  # the hovered line's arrows went with the old position
    assert shown_labels(window) == labels
    assert window.lines_panel.rows() == [] or window.analysis_board.latest_update().token is session.model.current_node
    qtbot.waitUntil(lambda: bool(window.lines_panel.rows()), timeout=WAIT_MS)  # the new position's lines
    assert window.analysis_board.latest_update().token is session.model.current_node
    shoot(qtbot, window, "chess-lines")
    QTest.keyClick(window, Qt.Key.Key_L)  # lines off

    # One undo takes the three moves back; the variation stays.
    undo(window)
    assert session.model.current_node is variation and not variation.children
    assert shown_labels(window) == labels

    # Export, open the exported copy, then the original: the variation is in both.
    exported = tmp_path / "game-reviewed.pgn"
    export(qtbot, window, exported)
    open_file(qtbot, window, exported)
    assert move.uci() in [child.uci for child in session.model.mainline_node(ply).children[1:]]  # with the engine's lines
    open_file(qtbot, window, original)
    qtbot.waitUntil(lambda: len(session.model.mainline_node(ply).children) == 2, timeout=WAIT_MS)
    assert session.model.mainline_node(ply).children[1].uci == move.uci()


def test_go_open_analyse_capture_ko_lines_undo_export_and_reopen(qtbot, window, tmp_path):
    original = tmp_path / "ko.sgf"
    original.write_text(GO_GAME)
    open_file(qtbot, window, original)
    analyse_with_space(qtbot, window)
    session = window.session
    labels = shown_labels(window)
    assert set(session.model.judgements()) == {1, 2, 3, 4} and labels == {2: "?!"}

    ply = click_graph(qtbot, window, 2)
    assert session.model.current_ply == ply
    # Black (or White) takes the stone on D5 with a click: a variation, the stone comes off.
    mover_is_black = session.model.game.mover_at_ply(ply + 1) == "black"
    if not mover_is_black:  # White to move: one move elsewhere first, so that Black captures
        with qtbot.waitSignal(session.tree_changed):
            click_point(window, "A9")
    with qtbot.waitSignal(session.tree_changed):
        click_point(window, "E5")
    capture = session.model.current_node
    assert capture.move == "E5" and not capture.is_mainline
    assert point_from_gtp("D5", 9) not in window.board.position().white
    # White's immediate recapture is the ko: refused, with its reason, nothing lost.
    click_point(window, "D5")
    assert session.model.current_node is capture
    assert any("ko" in message.text.lower() for message in window.message_bar.messages())
    assert window.move_entry.refusal() == ""  # the move box was not used: no red frame
    assert shown_labels(window) == labels
    shoot(qtbot, window, "go-ko")

    # Engine lines: the second move of the first line plays two moves; one undo takes both back.
    line = click_line_move(qtbot, window, 2)
    assert [node.move for node in session.model.current_node.path_from_root()[-2:]] == list(line[:2])
    assert session.model.current_node.parent.parent is capture
    QTest.keyClick(window, Qt.Key.Key_L)
    undo(window)
    assert session.model.current_node is capture and not capture.children
    assert shown_labels(window) == labels

    exported = tmp_path / "ko-reviewed.sgf"
    export(qtbot, window, exported)
    open_file(qtbot, window, exported)
    open_file(qtbot, window, original)
    start = capture.parent
    depth = len(start.path_from_root())
    qtbot.waitUntil(lambda: any(child.move == "E5" for child in _node_at(session.model.game.root, depth, start).children), timeout=WAIT_MS)


def _node_at(root, depth: int, like) -> object:
    """The node of the reopened tree at the same path of moves as `like` (`depth` moves from the start)."""
    moves = [node.move for node in like.path_from_root()]
    node = root
    for move in moves[:depth]:
        node = next(child for child in node.children if child.move == move)
    return node


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the offscreen platform's note
def test_a_saved_analysis_becomes_cards_and_the_feedback_stays_with_the_card_answered(qtbot, window, corpus_dir, tmp_path):
    from reviewer.cli import main

    original = tmp_path / "game.pgn"
    shutil.copyfile(corpus_dir.joinpath(*CHESS_GAME), original)
    open_file(qtbot, window, original)
    analyse_with_space(qtbot, window)
    assert window.session.model.flagged_plies()
    saved = tmp_path / "game-analysed.pgn"
    export(qtbot, window, saved, with_analysis=True)
    assert main(["train", "--add", str(saved)]) == 0  # the deck the window's trainer reads

    QTest.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    trainer = window.dialogs.train_window
    qtbot.addWidget(trainer)
    qtbot.waitExposed(trainer)
    qtbot.waitUntil(lambda: trainer.current() is not None, timeout=WAIT_MS)
    card = trainer.current()
    assert card.kind == "chess" and card.played in trainer.card_label.text()
    board = trainer.board.board()
    best = board.parse_san(card.best)
    drag(trainer.board, best.from_square, best.to_square)
    qtbot.waitUntil(lambda: "next time:" in trainer.feedback_label.text(), timeout=WAIT_MS)
    assert trainer.feedback_label.text().startswith("Good")
    assert trainer.current() is card and card.played in trainer.card_label.text()  # the card answered
    after = board.copy()
    after.push(best)
    assert trainer.board.board().board_fen() == after.board_fen()  # the answer, on the board
    shoot(qtbot, window, "trainer-answered", trainer)
    QTest.mouseClick(trainer.next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: trainer.current() is not card, timeout=WAIT_MS)
    assert trainer.feedback_label.text() == ""
    trainer.close_deck()


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the offscreen platform's note
def test_an_analysis_in_the_window_makes_cards_without_a_command(qtbot, window, corpus_dir, tmp_path):
    original = tmp_path / "game.pgn"
    shutil.copyfile(corpus_dir.joinpath(*CHESS_GAME), original)
    open_file(qtbot, window, original)
    analyse_with_space(qtbot, window)
    QTest.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    trainer = window.dialogs.train_window
    qtbot.addWidget(trainer)
    qtbot.waitUntil(lambda: trainer.current() is not None, timeout=WAIT_MS)
    trainer.close_deck()



COLLECTION_GAMES = ("pgn", "chesslib__Morphy_UTF8.pgn")  # Paul Morphy plays every game


def morphy_collection(corpus_dir: Path, folder: Path) -> tuple[Path, int]:
    """Games 2 to 5 of the corpus file as one multi-game PGN of their own, and the first one's plies."""
    import chess.pgn

    path = folder / "morphy.pgn"
    with corpus_dir.joinpath(*COLLECTION_GAMES).open(encoding="utf-8") as source:
        games = [chess.pgn.read_game(source) for _ in range(5)][1:]
    path.write_text("\n\n".join(str(game) for game in games) + "\n", encoding="utf-8")
    return path, len(list(games[0].mainline_moves()))


def searches_in(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


@pytest.mark.qt_log_ignore("This plugin does not support (raise|propagateSizeHints)")  # the offscreen platform's notes
def test_a_collection_review_cancelled_then_its_insights_open_a_game_whose_cards_are_trained(qtbot, corpus_dir, tmp_path):
    from reviewer.core.analysis import Limit
    from reviewer.core.services.trainer.deck import Deck

    games, first_game_plies = morphy_collection(corpus_dir, tmp_path)
    log, release = tmp_path / "searches.log", tmp_path / "release"
    window = make_window(qtbot)
    # The second game's first search waits for the stop. (`--log=FILE`: an argument that is a file's
    # name would give the engine a new fingerprint with every search, and the window would not
    # recognise the review's engine in the analysis cache.)
    hanging = fake_engine_command(
        "fake_uci.py", "--pv-plies", "6", f"--log={log}",
        f"--wait-for-stop-after-total={first_game_plies + 1}", f"--release={release}",
    )
    window.set_engine_choice(EngineChoice(kind="chess", command=shlex.join(hanging)), remember=False)
    window.set_limit("chess", Limit(nodes=1000), remember=False)  # one search a position: the first game's plies and its start
    try:
        # File ▸ Review a collection…, as a player finds it.
        file_menu = window.menuBar().actions()[0].menu()
        collection_action = next(a for a in file_menu.actions() if a.text() == "Review a &collection…")
        collection_action.trigger()
        collection = window.dialogs.collection_window
        qtbot.waitExposed(collection)
        collection.resize(1200, 800)
        collection.set_paths([games])

        with qtbot.waitSignal(collection.run_finished, timeout=WAIT_MS) as finished:
            QTest.mouseClick(collection.review_button, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda: collection.progress_shown is not None and collection.progress_shown.done == 1
                            and searches_in(log) > first_game_plies + 1, timeout=WAIT_MS)
            shoot(qtbot, window, "collection-running", collection)
            QTest.mouseClick(collection.cancel_button, Qt.MouseButton.LeftButton)
        release.touch()
        counts = finished.args[0]
        problems = [collection.problems_list.item(i).text() for i in range(collection.problems_list.count())]
        assert problems == []
        assert counts.cancelled and counts.analysed == 1 and counts.total == 4
        assert collection.status_label.text() == (
            "4 games: 1 analysed · cancelled: 3 not reviewed · 21 new training cards from both players' mistakes"
        )
        morphy = collection.shown_player()
        assert morphy["name"].startswith("Morphy, Paul") and morphy["games"] == 4 and morphy["scored_games"] == 1
        panel = collection.panel
        assert panel.left_out_label.isVisibleTo(collection)
        assert panel.left_out_label.text() == "3 games left out of the figures: not analysed"
        assert len(panel.chart.timeline.points) == 1
        QTest.mouseClick(panel.tabs.tabBar(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         panel.tabs.tabBar().tabRect(panel.tabs.indexOf(panel.mistake_table)).center())
        assert panel.tabs.currentWidget() is panel.mistake_table
        mistakes = panel.mistake_table
        assert mistakes.proxy.rowCount() > 0 and set(mistakes.texts("Game")) == {"1"}
        shoot(qtbot, window, "collection-cancelled", collection)

        # A double-click on the costliest mistake opens its game at the move, labels and all.
        view = mistakes.view
        cell = view.visualRect(mistakes.proxy.index(0, 1)).center()
        row = mistakes.row_at(0)
        with qtbot.waitSignal(window.cache_checked, timeout=WAIT_MS) as checked:
            QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, cell)
            QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, cell)
        assert checked.args[0] == first_game_plies + 1  # the review's evaluations, from the cache
        session = window.session
        assert session.model.game_index == 0 and session.model.current_ply == row.ply
        settle(qtbot, window)
        labels = shown_labels(window)
        assert labels.get(row.ply), "the mistake opened is labelled in the move list"
        shoot(qtbot, window, "collection-game")

        # Ctrl+T: the trainer holds this game's mistakes and blunders, one card each.
        window.activateWindow()  # what the app does on a screen (offscreen, nothing raises it)
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WAIT_MS)
        QTest.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
        trainer = window.dialogs.train_window
        qtbot.addWidget(trainer)
        qtbot.waitExposed(trainer)
        qtbot.waitUntil(lambda: trainer.current() is not None, timeout=WAIT_MS)
        with Deck() as deck:
            cards = deck.cards()
        flagged = {ply for ply, judgement in session.model.judgements().items() if judgement in ("mistake", "blunder")}
        assert {card.ply for card in cards} == flagged
        assert {(card.source_path, card.source_index) for card in cards} == {(str(games), 0)}
        card = trainer.current()
        board = trainer.board.board()
        best = board.parse_san(card.best)
        drag(trainer.board, best.from_square, best.to_square)
        try:
            qtbot.waitUntil(lambda: "next time:" in trainer.feedback_label.text(), timeout=WAIT_MS)
        except Exception:
            raise AssertionError(
                f"feedback {trainer.feedback_label.text()!r}; card {card.card_id} {card.best} on show "
                f"{getattr(trainer.current(), 'card_id', None)}; answered {trainer.answered()}; board {trainer.board.board().fen()} "
                f"card position {card.position}; geometry {trainer.board.geometry()}"
            ) from None
        assert trainer.feedback_label.text().startswith("Good") and trainer.current() is card
        shoot(qtbot, window, "collection-trainer", trainer)
        QTest.mouseClick(trainer.next_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: trainer.current() is not card, timeout=WAIT_MS)
        assert trainer.feedback_label.text() == ""
        trainer.close_deck()
    finally:
        release.touch()
        window.close()


@pytest.mark.qt_log_ignore("This plugin does not support (raise|propagateSizeHints)")  # the offscreen platform's notes
def test_the_first_cards_reach_a_trainer_opened_while_the_new_deck_is_being_made(qtbot, window, corpus_dir, tmp_path):
    """The first analysis of a player with no deck yet, the trainer opened meanwhile: two openings
    of the new deck meet (one writing its tables in the old journal mode); neither says "locked"."""
    import sqlite3

    from reviewer.core.services.trainer.deck import default_deck_path

    original = tmp_path / "game.pgn"
    shutil.copyfile(corpus_dir.joinpath(*CHESS_GAME), original)
    open_file(qtbot, window, original)
    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    deck = default_deck_path()
    deck.parent.mkdir(parents=True, exist_ok=True)
    other = sqlite3.connect(deck, isolation_level=None)  # another opening of the new deck, its tables half written
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    try:
        QTest.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
        trainer = window.dialogs.train_window
        qtbot.addWidget(trainer)
        trainer.failed.connect(said.append)  # "Cannot open the deck: …"
        analyse_with_space(qtbot, window)  # its cards are handed to the deck
    finally:
        other.execute("COMMIT")
        other.close()
    qtbot.waitUntil(lambda: trainer.current() is not None, timeout=WAIT_MS)
    assert not [text for text in said if "not added" in text or "Cannot open the deck" in text]
    trainer.close_deck()
