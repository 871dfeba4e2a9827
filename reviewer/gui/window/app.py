"""Starting the desktop app: the QApplication, its look, the main window."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from reviewer import __version__
from reviewer.gui.common.settings import Settings

if TYPE_CHECKING:
    from reviewer.gui.window.main_window import MainWindow

APP_NAME = "Reviewer"
ORGANIZATION = "Reviewer"
SWITCH_INTERVAL_S = 0.001


def create_application(argv: list[str] | None = None, dark: bool | None = None) -> QApplication:
    """The one QApplication (reused when it exists, as under pytest-qt), named and styled."""
    app = QApplication.instance()
    if app is None:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(argv if argv is not None else sys.argv[:1])
    assert isinstance(app, QApplication)
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationVersion(__version__)
    QGuiApplication.setDesktopFileName("io.github.reviewer.Reviewer")  # packaging/desktop/, as installed
    from reviewer.gui.common.icons import app_icon

    app.setWindowIcon(app_icon())
    # Worker threads (scoring, engine I/O) hand the interpreter back to the GUI thread within a
    # millisecond instead of Python's default five, so that steps stay smooth while they work.
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
    from reviewer.gui.window import gc_guard

    gc_guard.install(app)
    apply_theme(app, Settings().dark_theme if dark is None else dark)
    return app


def apply_theme(app: QApplication, dark: bool) -> None:
    from reviewer.gui.common import style

    style.apply_palette(app, dark)


def take_screenshot(
    app: QApplication,
    window: MainWindow,
    path: Path,
    game_index: int,
    ply: int | None,
    analyse: bool,
    target: Path | None,
    size: tuple[int, int],
    timeout_s: float = 600.0,
    play: list[str] | None = None,
    lines: int | None = None,
    export: Path | None = None,
    maps: tuple[bool, bool] = (False, False),
) -> int:
    """Open game `game_index` of `path` at `ply` (analysed first when asked), play the moves `play`
    from there as a variation, show `lines` live engine lines, save the window as PNG (`target`) once
    they have arrived, and write the annotated game with the variation to `export`.

    Returns an exit code: 0 written, 1 the analysis or the writing failed, 2 the file is bad.
    """
    from PySide6.QtCore import QBuffer, QByteArray, QEventLoop, QIODevice, QTimer

    from reviewer.core.atomic import write_bytes_atomic

    outcome: dict[str, int] = {}
    problems: list[str] = []
    loop = QEventLoop()  # not app.exec(): the application is not quitting, only this job ends

    def done(code: int) -> None:
        if "code" not in outcome:
            outcome["code"] = code
            loop.quit()

    def shoot() -> None:
        app.processEvents()
        if target is None:
            finish()
            return
        pixmap = window.grab()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not pixmap.save(buffer, "PNG"):
            problems.append("could not encode the screenshot")
            done(1)
            return
        buffer.close()
        try:
            write_bytes_atomic(target, bytes(data.data()))
        except OSError as error:
            problems.append(f"cannot write {target}: {error.strerror or error}")
            done(1)
            return
        print(f"reviewer gui: wrote {target}")
        finish()

    def finish() -> None:
        if export is None:
            done(0 if not problems else 1)
            return
        window.export_finished.connect(lambda written: (print(f"reviewer gui: wrote {written}"), done(0 if not problems else 1)))  # type: ignore[func-returns-value]
        window.export(export)

    def after_play() -> None:
        """The moves are played: wait for the engine lines when asked, then the picture."""
        if not lines:
            shoot_once()
            return
        window.lines_shown.connect(lambda update: lines_ready(update))
        window.show_lines(lines, ownership=maps[0], policy=maps[1])

    def lines_ready(update: object) -> None:
        shown = window.shown_line_count()
        evaluation = getattr(update, "evaluation", None)
        candidates = getattr(evaluation, "candidates", ())
        maps_missing = (maps[0] and getattr(evaluation, "ownership_first", None) is None) or (
            maps[1] and getattr(evaluation, "policy", None) is None
        )
        if maps_missing and not getattr(update, "last", False):
            return  # the first, quickest answers may come before the maps
        enough = len(candidates) >= (lines or 1) or getattr(update, "last", False)
        if enough and shown >= min(lines or 1, max(1, len(candidates))):
            shoot_once()

    def play_moves() -> None:
        if outcome.get("played"):
            return
        if window.restoring_lines:  # the lines played before come first
            window.lines_restored.connect(play_moves)
            return
        outcome["played"] = 1
        if ply is not None:
            window.go_to_ply(ply)
        if play and not window.play_line(play):
            problems.append("the moves could not be played")
            done(2)
            return
        after_play()

    def on_opened(_path: str) -> None:
        if analyse:
            window.start_analysis()
        else:  # what the analysis cache holds is shown first
            window.cache_checked.connect(lambda _count: play_moves())

    def shoot_once(_count: int = 0) -> None:
        if not outcome.get("shooting"):
            outcome["shooting"] = 1
            QTimer.singleShot(100, shoot)

    def on_analysis_finished(completed: bool) -> None:
        if not completed and not problems:
            problems.append("the analysis stopped before the end")
        play_moves()

    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    window.resize(*size)
    window.setFixedSize(*size)
    window.file_opened.connect(on_opened)
    window.open_failed.connect(lambda message: (problems.append(message), done(2)))  # type: ignore[func-returns-value]
    window.analysis_failed.connect(problems.append)
    window.analysis_finished.connect(on_analysis_finished)
    window.show()
    window.open_file(path, game_index=game_index, ply=ply)
    QTimer.singleShot(int(timeout_s * 1000), lambda: (problems.append("timed out"), done(1)))  # type: ignore[func-returns-value]
    if "code" not in outcome:
        loop.exec()
    window.close_without_saving()  # a scripted run writes only where it was told to
    for problem in problems:
        print(f"reviewer gui: {problem}", file=sys.stderr)
    return outcome.get("code", 1)
