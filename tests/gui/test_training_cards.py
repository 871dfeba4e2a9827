"""An analysis finished in the window feeds the trainer: its mistakes are cards when Ctrl+T opens it."""

from __future__ import annotations

import shlex

import pytest
from PySide6.QtCore import Qt
from support import fake_engine_command

from reviewer.core.services.trainer.deck import Deck
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

SCHOLARS_MATE = '[White "Alice"]\n[Black "Bob"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
WAIT_MS = 30_000


@pytest.fixture
def window(qtbot) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1200, 800)
    main.show()
    qtbot.waitExposed(main)
    return main


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the offscreen platform's note
def test_an_analysis_in_the_window_makes_cards_the_trainer_shows(qtbot, window, tmp_path) -> None:
    path = tmp_path / "game.pgn"
    path.write_text(SCHOLARS_MATE)
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(path)
    command = shlex.join(fake_engine_command("fake_uci.py"))
    window.set_engine_choice(EngineChoice(kind="chess", command=command), remember=False)
    with qtbot.waitSignal(window.training_cards.added, timeout=WAIT_MS) as added:
        window.start_analysis()
    assert added.args == [1]
    with Deck() as deck:
        (card,) = deck.cards()
    assert (card.played, card.side, card.source_path) == ("Nf6", "black", str(path))

    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    trainer = window.dialogs.train_window
    qtbot.waitUntil(lambda: trainer.current() is not None, timeout=WAIT_MS)
    assert trainer.progress_label.text().startswith("1 due · 1 card")
    assert trainer.current().played == "Nf6"
    trainer.close_deck()
    trainer.close()


def test_a_collection_review_makes_cards_of_its_games_mistakes(qtbot, tmp_path) -> None:
    from PySide6.QtTest import QTest

    from reviewer.core.analysis import Limit
    from reviewer.core.services.batch.runner import BatchSettings
    from reviewer.core.services.batch.task import EngineSettings
    from reviewer.gui.collection.collection_window import CollectionWindow

    path = tmp_path / "club.pgn"
    path.write_text(SCHOLARS_MATE)
    engine = EngineSettings(command=tuple(fake_engine_command("fake_uci.py")))
    settings = BatchSettings(engine=engine, chess_limit=Limit(nodes=1000), go_limit=Limit(visits=10))
    window = CollectionWindow(lambda: {"chess": settings, "go": settings})
    qtbot.addWidget(window)
    try:
        window.set_paths([path])
        with qtbot.waitSignal(window.run_finished, timeout=WAIT_MS):
            QTest.mouseClick(window.review_button, Qt.MouseButton.LeftButton)
        with Deck() as deck:
            (card,) = deck.cards()
        assert (card.played, card.side, card.source_path) == ("Nf6", "black", str(path))
    finally:
        window.shutdown()


@pytest.mark.parametrize(("player", "cards"), [("Alice", []), ("bob", ["Nf6"]), ("Someone else", ["Nf6"])])
def test_with_a_player_named_only_their_moves_become_cards(qtbot, window, tmp_path, player, cards) -> None:
    from reviewer.gui.common.settings import Settings

    Settings().collection_player = player  # the name given in the Collection window
    path = tmp_path / "game.pgn"
    path.write_text(SCHOLARS_MATE)
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(path)
    window.set_engine_choice(EngineChoice(kind="chess", command=shlex.join(fake_engine_command("fake_uci.py"))), remember=False)
    with qtbot.waitSignal(window.training_cards.added, timeout=WAIT_MS):
        window.start_analysis()
    with Deck() as deck:
        assert [card.played for card in deck.cards()] == cards  # a game the player is not in: both sides'
