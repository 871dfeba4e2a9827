"""A new panel is its module and one line in `reviewer.gui.panels.PANELS`: a panel only the tests know
is laid out in the window, follows the move on show and the analysis, and nothing in reviewer/ names it.
The review model's events each reach the views as a Qt signal, and each signal has a listener in the app."""

from __future__ import annotations

import shlex
from pathlib import Path

import move_figure_panel
from move_figure_panel import OBJECT_NAME, MoveFigurePanel
from PySide6.QtCore import SIGNAL, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel
from support import fake_engine_command

from reviewer.core.analysis import Evaluation
from reviewer.core.score_text import score_text
from reviewer.core.services.review_model import REVIEW_EVENTS, ReviewEvent
from reviewer.gui import panels
from reviewer.gui.common.session import SIGNAL_OF_EVENT, ReviewSession
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

REVIEWER_DIR = Path(__file__).resolve().parents[2] / "reviewer"
WAIT_MS = 60_000


def make_window(qtbot) -> MainWindow:
    window = MainWindow(discover_engines=False, remember_layout=False)
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    engine = shlex.join(fake_engine_command("fake_uci.py", "--pv-plies", "4"))
    window.set_engine_choice(EngineChoice(kind="chess", command=engine), remember=False)
    return window


def test_a_panel_registered_with_one_line_is_laid_out_and_follows_the_review(qtbot, monkeypatch, corpus_dir) -> None:
    monkeypatch.setattr(panels, "PANELS", [*panels.PANELS, MoveFigurePanel])  # the one line

    window = make_window(qtbot)
    panel = window.review_panel.findChild(QLabel, OBJECT_NAME)
    assert isinstance(panel, MoveFigurePanel)
    assert panel.isVisible() and panel.text() == "No game"

    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(corpus_dir / "pgn" / "chesslib__promoting.pgn")
    qtbot.waitUntil(lambda: not window.analysis_board.restoring_lines, timeout=WAIT_MS)
    assert panel.text() == "Ply 0 · not evaluated"

    board = window.board_stack.currentWidget()
    QTest.keyClick(board, Qt.Key.Key_Right)
    QTest.keyClick(board, Qt.Key.Key_Right)
    assert panel.text() == "Ply 2 · not evaluated"

    with qtbot.waitSignal(window.analysis_finished, timeout=WAIT_MS):
        window.start_analysis()
    model = window.session.model
    evaluation = model.evaluations.get(2)
    assert evaluation is not None
    assert panel.text() == f"Ply 2 · {score_text('chess', evaluation)}"

    QTest.keyClick(board, Qt.Key.Key_Left)
    assert panel.text() == f"Ply 1 · {score_text('chess', model.evaluations.get(1))}"
    window.close()


def test_the_panel_needs_two_files_and_nothing_in_the_app_names_it() -> None:
    sources = {path: path.read_text(encoding="utf-8") for path in REVIEWER_DIR.rglob("*.py")}
    names = (MoveFigurePanel.__name__, move_figure_panel.__name__, OBJECT_NAME)
    assert not [path for path, text in sources.items() if any(name in text for name in names)]
    # The one line goes in the one list the window lays out from; the rest is the panel's own module.
    registries = [path for path, text in sources.items() if "\nPANELS: " in text or "\nPANELS = " in text]
    assert registries == [REVIEWER_DIR / "gui" / "panels" / "__init__.py"]
    layouts = [path for path, text in sources.items() if "panels.PANELS" in text]
    assert layouts == [REVIEWER_DIR / "gui" / "review" / "review_panel.py"]
    files_a_panel_needs = {Path(move_figure_panel.__file__), *registries}
    assert len(files_a_panel_needs) == 2


def test_every_event_of_the_model_is_a_signal_of_the_session(qtbot) -> None:
    assert set(REVIEW_EVENTS) == set(ReviewEvent.__subclasses__())
    assert set(SIGNAL_OF_EVENT) == set(REVIEW_EVENTS)
    session = ReviewSession()
    for event_type, name in SIGNAL_OF_EVENT.items():
        assert hasattr(session, name), event_type


def _signature(session: ReviewSession, name: str) -> str:
    meta = session.metaObject()
    for index in range(meta.methodCount()):
        method = meta.method(index)
        if method.name().data().decode() == name:
            return method.methodSignature().data().decode()
    raise AssertionError(f"no signal {name}")


def test_every_signal_of_the_session_has_a_listener_in_the_window(qtbot) -> None:
    window = make_window(qtbot)
    session = window.session
    unheard = [name for name in SIGNAL_OF_EVENT.values() if session.receivers(SIGNAL(_signature(session, name))) == 0]
    assert unheard == []
    window.close()


def test_an_evaluation_of_the_move_on_show_is_in_its_comment_before_the_labels_come(qtbot, corpus_dir) -> None:
    window = make_window(qtbot)
    with qtbot.waitSignal(window.file_opened, timeout=WAIT_MS):
        window.open_file(corpus_dir / "pgn" / "chesslib__promoting.pgn")
    model = window.session.model
    model.set_current_ply(3)
    assert "Engine" not in window.comment_view.toPlainText()
    model.add_evaluation(Evaluation(ply=3, kind="chess", engine_id="test", score_cp_first=41, best_move="Nf3", pv=("Nf3",)))
    assert "Engine +0.41" in window.comment_view.toPlainText()
    window.close()
