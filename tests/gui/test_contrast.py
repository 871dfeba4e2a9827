"""Every text of the main window is readable in the light and the dark theme: WCAG contrast ≥ 4.5:1.

The walk takes each visible, enabled widget that shows text, its text colour (the palette role it
paints with, and every colour its rich text names) and the background it is painted on (its own
when it fills one, else the nearest ancestor's), and checks the contrast ratio. Disabled controls
are exempt (WCAG 1.4.3). Both themes are checked after switching at run time from the menu action,
the way users do it, and after starting in each theme.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QLabel,
    QMenuBar,
    QPushButton,
    QTextEdit,
    QToolBar,
    QToolButton,
    QWidget,
)

from reviewer.gui.common import style
from reviewer.gui.presenters.messages import Message
from reviewer.gui.window.app import apply_theme
from reviewer.gui.window.main_window import MainWindow

SHORT_GAME = ("pgn", "chesslib__err.pgn")  # carries a reader warning: the message bar shows
GO_GAME = ("sgf", "sabaki__endgame-9.sgf")
_COLOUR = re.compile(r"color:\s*(#[0-9a-fA-F]{3,8}|[a-zA-Z]+)")


def _fills(widget: QWidget) -> bool:
    if widget.isWindow() or widget.autoFillBackground():
        return True
    if isinstance(widget, (QPushButton, QComboBox)) or (isinstance(widget, QToolButton) and not widget.autoRaise() and not isinstance(widget.parentWidget(), QToolBar)):
        return True
    parent = widget.parentWidget()
    return isinstance(parent, QAbstractScrollArea) and parent.viewport() is widget


def background_of(widget: QWidget) -> QColor:
    """The colour behind the widget's text: its own fill, laid over what is behind it."""
    chain: list[QWidget] = []
    current: QWidget | None = widget
    while current is not None:
        chain.append(current)
        if current.isWindow():
            break
        current = current.parentWidget()
    colour = QColor(chain[-1].palette().color(QPalette.ColorRole.Window))
    for member in reversed(chain[:-1]):
        if _fills(member):
            role = QPalette.ColorRole.Button if isinstance(member, (QAbstractButton, QComboBox)) else member.backgroundRole()
            colour = style.blend(member.palette().color(QPalette.ColorGroup.Active, role), colour)
    return colour


def _text_and_colours(widget: QWidget) -> tuple[str, list[QColor]] | None:
    palette = widget.palette()
    group = QPalette.ColorGroup.Active
    if isinstance(widget, QLabel):
        text = widget.text()
        if not text.strip():
            return None
        colours = [palette.color(group, widget.foregroundRole())]
        colours += [QColor(name) for name in _COLOUR.findall(text)]
        return re.sub("<[^>]+>", "", text), colours
    if isinstance(widget, QAbstractButton):
        if not widget.text().strip() or (isinstance(widget, QToolButton) and widget.toolButtonStyle() == widget.toolButtonStyle().ToolButtonIconOnly):
            return None
        return widget.text(), [palette.color(group, QPalette.ColorRole.ButtonText)]
    if isinstance(widget, QComboBox):
        return widget.currentText(), [palette.color(group, QPalette.ColorRole.ButtonText)]
    if isinstance(widget, QTextEdit):
        html = widget.toHtml()
        if not widget.toPlainText().strip():
            return None
        return widget.toPlainText(), [palette.color(group, QPalette.ColorRole.Text)] + [QColor(n) for n in _COLOUR.findall(html)]
    if isinstance(widget, QMenuBar):
        return "menu", [palette.color(group, QPalette.ColorRole.ButtonText)]
    return None


def contrast_problems(root: QWidget) -> list[str]:
    problems: list[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisibleTo(root) or not widget.isEnabled():
            continue
        found = _text_and_colours(widget)
        if found is None:
            continue
        text, colours = found
        if isinstance(widget, QTextEdit):
            background = widget.palette().color(QPalette.ColorRole.Base)
        else:
            background = background_of(widget)
        for colour in colours:
            if not colour.isValid():
                continue
            ratio = style.contrast_ratio(colour, background)
            if ratio < style.WCAG_TEXT_CONTRAST:
                name = widget.objectName() or type(widget).__name__
                problems.append(f"{name} {text[:40]!r}: {colour.name()} on {background.name()} = {ratio:.2f}")
    return problems


@pytest.fixture
def window(qtbot, corpus_dir):
    app = QApplication.instance()
    main = MainWindow(discover_engines=False, remember_layout=False)
    qtbot.addWidget(main)
    main.resize(1300, 850)
    main.show()
    qtbot.waitExposed(main)
    with qtbot.waitSignal(main.cache_checked, timeout=15000):
        main.open_file(corpus_dir.joinpath(*SHORT_GAME))
    main.session.model.set_current_ply(3)
    main.message_bar.add(Message("engine", "error", "no chess engine found", ("locate-engine", "install-stockfish"), scope="app"))
    yield main
    apply_theme(app, False)  # type: ignore[arg-type]


def _switch(qtbot, window: MainWindow, dark: bool) -> None:
    if window.commands.dark_action.isChecked() != dark:
        window.commands.dark_action.trigger()  # the View menu's action, as a user switches
    qtbot.wait(10)
    assert style.is_dark_palette(QApplication.palette()) == dark


def test_the_contrast_maths_follow_wcag() -> None:
    assert style.contrast_ratio(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert style.contrast_ratio(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)
    assert style.contrast_ratio(QColor(0, 0, 0, 0), QColor("#ffffff")) == pytest.approx(1.0)


@pytest.mark.parametrize("dark", [True, False])
def test_every_text_of_the_main_window_is_readable(qtbot, window, dark) -> None:
    _switch(qtbot, window, not dark)
    _switch(qtbot, window, dark)  # switched at run time, as the report said
    assert window.commands.analyse_button.isEnabled() and window.commands.engine_button.text()
    problems = contrast_problems(window)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("dark", [True, False])
def test_a_go_review_with_its_notice_is_readable(qtbot, window, corpus_dir, dark) -> None:
    _switch(qtbot, window, dark)
    with qtbot.waitSignal(window.cache_checked, timeout=15000):
        window.open_file(corpus_dir.joinpath(*GO_GAME))
    from reviewer.core.analysis import Evaluation

    engine_id = "builtin-go 1.0 | visits=50,multipv=1"
    game = window.session.model.game
    window.session.model.add_evaluations(
        [Evaluation(ply=ply, kind="go", engine_id=engine_id, score_lead_first=2.0 - ply % 3) for ply in range(game.ply_count + 1)],
        from_analysis=True,
    )
    window.session.model.settle_assessment()
    window.views.refresh()
    window.session.model.set_current_ply(5)
    assert window.summary_panel.notice_text()
    assert contrast_problems(window) == []


def test_the_walk_finds_unreadable_text(qtbot, window) -> None:
    """The check itself can fail: grey text on the dark theme's window is caught."""
    _switch(qtbot, window, True)
    label = QLabel("<span style='color:#555555'>hard to read</span>", window.centralWidget())
    label.show()
    assert any("hard to read" in problem for problem in contrast_problems(window))
