"""Exports from the window: the annotated game, the reports, a PDF, the board as an image, the clipboard.

Every file is written in a worker thread of the window's task runner (closing the window waits for
it) and atomically (`reviewer.core.atomic`); the text for the clipboard is made there too and put on
the clipboard when it is ready. A game file being reviewed is never written over.

    File ▸ Export annotated PGN/SGF…   clean: other programs show only evals, symbols, words, lines
    File ▸ Save with analysis…         the same plus Reviewer's own records (reopens with no engine)
    File ▸ Export report ▸ JSON / CSV / HTML / PDF…
    File ▸ Export board image (PNG)…
    Edit ▸ Copy PGN / Copy FEN / Copy SGF
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from PySide6.QtCore import QBuffer, QByteArray, QEventLoop, QIODevice, QMarginsF, QObject, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QGuiApplication,
    QImage,
    QKeySequence,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QTextDocument,
)
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from reviewer.core.analysis import Evaluation, EvaluationTable
from reviewer.core.atomic import write_bytes_atomic
from reviewer.core.export import check_target, export_game_text, moves_csv, report_html, save_annotated, save_text
from reviewer.core.games import game_support
from reviewer.core.gametree import Game
from reviewer.core.passes import PassStanding
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.settings import Settings
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.presenters.game_kinds import presentation

ReportFormat = Literal["json", "csv", "html", "pdf"]
REPORT_FILTERS: dict[str, str] = {
    "json": "JSON report (*.json)",
    "csv": "CSV, one row per move (*.csv)",
    "html": "HTML report (*.html)",
    "pdf": "PDF report (*.pdf)",
}
PDF_RESOLUTION_DPI = 150
GRAPH_WIDTH_PX = 900


@dataclass(frozen=True)
class ReviewSnapshot:
    """What an export needs, taken on the GUI thread: immutable, so a worker may read it."""

    game: Game
    evaluations: tuple[Evaluation, ...]
    assessment: Any
    preset: str
    engine: str
    passes: PassStanding | None = None  # how far a review in passes got: an unfinished one is partial

    def table(self) -> EvaluationTable:
        table = EvaluationTable(passes=self.passes)
        for evaluation in self.evaluations:
            table.add(evaluation)
        return table

    def report(self) -> dict[str, Any]:
        from reviewer.core.report import build_report

        options = self.assessment if self.assessment is not None else {"preset": self.preset}
        return build_report(self.game, self.table(), options, self.engine or None)


# -------------------------------------------------------------------------- work off the GUI thread


def write_annotated(path: Path, snapshot: ReviewSnapshot, with_analysis: bool) -> Path:
    save_annotated(path, [(snapshot.game, snapshot.table(), snapshot.engine or None)], [snapshot.game.source.path],
                   preset=snapshot.preset, with_analysis=with_analysis)  # type: ignore[arg-type]
    return path


def write_report(path: Path, snapshot: ReviewSnapshot, form: ReportFormat) -> Path:
    sources = [snapshot.game.source.path]
    report = snapshot.report()
    if form == "json":
        save_text(path, json.dumps(report, indent=2, ensure_ascii=False) + "\n", sources)
    elif form == "csv":
        save_text(path, moves_csv([report]), sources)
    elif form == "html":
        save_text(path, report_html([report]), sources)
    else:
        write_bytes_atomic(check_target(path, sources), pdf_from_html(report_html([report])))
    return path


def report_document(html: str) -> QTextDocument:
    """The HTML report as a QTextDocument, its SVG graphs drawn as images (Qt's rich text has no SVG)."""
    document = QTextDocument()
    graphs = re.findall(r"<svg\b.*?</svg>", html, flags=re.DOTALL)
    for index, svg in enumerate(graphs):
        name = f"graph-{index}.png"
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), _svg_image(svg))
        html = html.replace(svg, f'<img src="{name}" width="{GRAPH_WIDTH_PX // 2}">', 1)
    document.setHtml(html)
    return document


def pdf_from_html(html: str) -> bytes:
    """The HTML report laid out on A4 pages by Qt's text engine (in any thread)."""
    loop = QEventLoop()  # gives a plain worker thread the event dispatcher that the layout's timers need
    document = report_document(html)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_RESOLUTION_DPI)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter))
    writer.setTitle("Reviewer report")
    writer.setCreator("Reviewer")
    document.print_(writer)
    del writer  # the PDF is finished when its writer goes
    buffer.close()
    del document, loop
    return bytes(data.data())


def _svg_image(svg: str) -> QImage:
    from PySide6.QtCore import Qt
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    width = GRAPH_WIDTH_PX
    height = max(1, round(width * size.height() / max(1, size.width())))
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def write_png(path: Path, image: QImage, sources: list[str | None]) -> Path:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError(f"could not encode the image for {path}")
    buffer.close()
    write_bytes_atomic(check_target(path, sources), bytes(data.data()))
    return path


def game_text(snapshot: ReviewSnapshot) -> str:
    """The annotated game (clean PGN for chess, SGF for Go) for the clipboard."""
    return export_game_text(snapshot.game, snapshot.table(), snapshot.assessment, snapshot.engine or None)


# ------------------------------------------------------------------------------------ the menus


class GameExports(QObject):
    """The export and copy actions of one main window, and the tasks they start."""

    finished = Signal(str)  # what was done: a path written, or "clipboard"
    failed = Signal(str)  # one line for the user

    def __init__(
        self,
        session: ReviewSession,
        settings: Settings,
        tasks: Tasks,
        engine_name: Callable[[], str],
        board_on_show: Callable[[], QWidget | None],
        status_message: Callable[[str, int], None],
        parent: QWidget,
    ) -> None:
        """`engine_name`: the engine named in reports; `board_on_show`: the board drawn for the image;
        `status_message`: text and milliseconds (0: until replaced); `parent` holds the shortcuts and
        the file dialogs."""
        super().__init__(parent)
        self._session, self._settings, self._task_runner = session, settings, tasks
        self._engine_name, self._board_on_show, self._status_message = engine_name, board_on_show, status_message
        self._parent = parent

        def action(text: str, slot: Callable[[], None], tip: str, keys: str | None = None) -> QAction:
            made = QAction(text, parent)
            made.setStatusTip(tip)
            made.triggered.connect(slot)
            if keys:
                made.setShortcut(QKeySequence(keys))
                parent.addAction(made)
            return made

        self.annotated_action = action("Export annotated &game…", lambda: self.choose_annotated(False),
                                       "PGN/SGF with evals, symbols, words and best lines, as other programs show them")
        self.with_analysis_action = action("Save with &analysis…", lambda: self.choose_annotated(True),
                                           "PGN/SGF that also keeps Reviewer's full analysis, to reopen it without an engine")
        self.report_actions = {
            form: action(label, lambda _checked=False, f=form: self.choose_report(f), f"Write a {form.upper()} report")  # type: ignore[misc]
            for form, label in (("json", "&JSON…"), ("csv", "&CSV…"), ("html", "&HTML…"), ("pdf", "&PDF…"))
        }
        self.image_action = action("Export board &image (PNG)…", self.choose_image, "The board as it is shown, as a PNG image")
        self.copy_pgn_action = action("Copy &PGN", lambda: self.copy("pgn"), "The annotated game as PGN", "Ctrl+Shift+C")
        self.copy_fen_action = action("Copy &FEN", lambda: self.copy("fen"), "The position on the board as FEN")
        self.copy_sgf_action = action("Copy &SGF", lambda: self.copy("sgf"), "The annotated game as SGF")

    def add_to(self, file_menu: QMenu, before: QAction | None = None) -> QMenu:
        """Put the export items into the File menu (before `before`), and return the Copy submenu's menu."""
        items: list[QAction | QMenu] = [self.annotated_action, self.with_analysis_action]
        report_menu = QMenu("Export &report", file_menu)
        for form in ("json", "csv", "html", "pdf"):
            report_menu.addAction(self.report_actions[form])
        copy_menu = QMenu("&Copy", file_menu)
        for copy_action in (self.copy_pgn_action, self.copy_fen_action, self.copy_sgf_action):
            copy_menu.addAction(copy_action)
        items += [report_menu, self.image_action, copy_menu]
        for item in items:
            if isinstance(item, QMenu):
                file_menu.insertMenu(before, item) if before is not None else file_menu.addMenu(item)
            else:
                file_menu.insertAction(before, item) if before is not None else file_menu.addAction(item)
        self._session.game_loaded.connect(self.update_enabled)
        self.update_enabled()
        return copy_menu

    def update_enabled(self) -> None:
        game = self._session.model.game
        for item in (self.annotated_action, self.with_analysis_action, self.image_action, *self.report_actions.values()):
            item.setEnabled(game is not None)
        self.copy_pgn_action.setEnabled(game is not None and _game_format(game) == "pgn")
        self.copy_fen_action.setEnabled(game is not None and game_support(game.kind).position_text is not None)
        self.copy_sgf_action.setEnabled(game is not None and _game_format(game) == "sgf")
        self.annotated_action.setText(f"Export annotated {_game_format(game).upper()}…")

    # ------------------------------------------------------------------------------ choosing
    def _suggest(self, suffix: str, words: str = "reviewed") -> str:
        game = self._session.model.game
        source = game.source.path if game is not None else None
        return str(suggested_export_path(source, self._settings.last_export_directory, suffix, words))

    def _ask(self, title: str, suffix: str, filters: str, words: str = "reviewed") -> Path | None:
        path, _chosen = QFileDialog.getSaveFileName(self._parent, title, self._suggest(suffix, words), filters)
        if not path:
            return None
        target = Path(path)
        self._settings.last_export_directory = str(target.parent)
        return target if target.suffix.lower() == f".{suffix}" else target.with_name(target.name + f".{suffix}")

    def choose_annotated(self, with_analysis: bool) -> None:
        game = self._session.model.game
        if game is None:
            return
        suffix = _game_format(game)
        title = "Save with analysis" if with_analysis else "Export the annotated game"
        path = self._ask(title, suffix, f"{suffix.upper()} (*.{suffix})", "analysed" if with_analysis else "reviewed")
        if path is not None:
            self.export_annotated(path, with_analysis)

    def choose_report(self, form: ReportFormat) -> None:
        if self._session.model.game is None:
            return
        path = self._ask(f"Export a {form.upper()} report", form, REPORT_FILTERS[form], "report")
        if path is not None:
            self.export_report(path, form)

    def choose_image(self) -> None:
        if self._session.model.game is None:
            return
        path = self._ask("Export the board as an image", "png", "PNG image (*.png)", "board")
        if path is not None:
            self.export_board_image(path)

    # ------------------------------------------------------------------------------ doing
    def snapshot(self) -> ReviewSnapshot | None:
        session = self._session
        if session.model.game is None:
            return None
        session.model.settle_assessment()  # the export covers every evaluation so far
        return ReviewSnapshot(session.model.game, tuple(session.model.evaluations.ordered()), session.model.assessment, session.model.preset,
                              self._engine_name(), session.model.basis.coverage.passes)

    def export_annotated(self, path: Path, with_analysis: bool = False) -> None:
        snapshot = self.snapshot()
        if snapshot is not None:
            self._submit("file", path, write_annotated, path, snapshot, with_analysis)

    def export_report(self, path: Path, form: ReportFormat) -> None:
        snapshot = self.snapshot()
        if snapshot is not None:
            self._submit("file", path, write_report, path, snapshot, form)

    def export_board_image(self, path: Path) -> None:
        game = self._session.model.game
        board = self._board_on_show()
        if game is None or board is None:
            return
        image = board.grab().toImage()  # drawn here, encoded and written in the worker
        self._submit("file", path, write_png, path, image, [game.source.path])

    def copy(self, what: Literal["pgn", "fen", "sgf"]) -> None:
        session = self._session
        game, node = session.model.game, session.model.current_node
        if game is None:
            return
        if what == "fen":
            position_text = game_support(game.kind).position_text
            if position_text is None or node is None:
                return
            self._submit("copy", game_support(game.kind).position_notation, position_text, game, node)
            return
        if _game_format(game) != what:
            return
        snapshot = self.snapshot()
        if snapshot is not None:
            self._submit("copy", what.upper(), game_text, snapshot)

    def _submit(self, what: str, payload: Any, function: Callable[..., Any], *args: Any) -> None:
        task = self._task_runner.submit(function, *args, must_finish=what == "file")
        task.done.connect(lambda result: self._on_done(what, payload, result))
        task.failed.connect(lambda message: self._on_failed(what, payload, message))
        if what == "file":
            self._status_message(f"Writing {Path(payload).name}…", 0)

    def _on_done(self, what: str, payload: Any, result: Any) -> None:
        if what == "copy":
            QGuiApplication.clipboard().setText(str(result))
            self._status_message(f"Copied the {payload} to the clipboard", 4000)
            self.finished.emit("clipboard")
        else:
            self._status_message(f"Wrote {payload}", 6000)
            self.finished.emit(str(payload))

    def _on_failed(self, what: str, payload: Any, message: str) -> None:
        text = f"Could not write {payload}: {message}" if what == "file" else f"Could not copy the {payload}: {message}"
        self._status_message(text, 15000)
        self.failed.emit(text)


def _game_format(game: Game | None) -> str:
    return presentation(game.kind).export_extension if game is not None else "pgn"


def suggested_export_path(
    source: str | None,
    last_export_folder: str,
    suffix: str,
    words: str = "reviewed",
    writable: Callable[[Path], bool] = lambda folder: os.access(folder, os.W_OK),
) -> Path:
    """Where an export dialog starts: beside the game file when that folder can be written, else in
    the folder of the last export, else at home ('game-reviewed.pgn')."""
    stem = Path(source).stem if source else "game"
    name = f"{stem}-{words}.{suffix}"
    folders = [Path(source).parent] if source else []
    if last_export_folder:
        folders.append(Path(last_export_folder))
    for folder in folders:
        if folder.is_dir() and writable(folder):
            return folder / name
    return Path.home() / name
