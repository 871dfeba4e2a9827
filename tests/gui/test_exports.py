"""Exports from the window's File menu: real menus, real files, the clipboard, a real fake engine."""

from __future__ import annotations

import csv
import io
import json
import shlex
import shutil
from pathlib import Path

import chess
import pytest
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import QFileDialog
from support import REPO_ROOT, fake_engine_command

from reviewer.core.embedded_evals import evaluations_from_game
from reviewer.core.formats import load_game
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.window.main_window import MainWindow

OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
GO_GAME = "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[cg];B[dd];W[dg];B[fc])"


@pytest.fixture
def window(qtbot, tmp_path) -> MainWindow:
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1200, 800)
    main.show()
    qtbot.waitExposed(main)
    return main


def _open_and_analyse(qtbot, window: MainWindow, path: Path, engine: str = "fake_uci.py") -> None:
    with qtbot.waitSignal(window.file_opened, timeout=30_000):
        window.open_file(path)
    kind = window.session.model.game.kind
    window.set_engine_choice(EngineChoice(kind=kind, command=shlex.join(fake_engine_command(engine))), remember=False)
    with qtbot.waitSignal(window.analysis_finished, timeout=60_000) as finished:
        window.start_analysis()
    assert finished.args == [True]


def _menu_action(window: MainWindow, *path: str):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    for step in path[:-1]:
        menu = next(a.menu() for a in menu.actions() if a.text() == step)
    menu.aboutToShow.emit()
    return next(a for a in menu.actions() if a.text() == path[-1])


def _save_as(monkeypatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(path), ""))


def test_clean_export_and_save_with_analysis_from_the_file_menu(qtbot, window, tmp_path, monkeypatch):
    _open_and_analyse(qtbot, window, OPERA)
    clean, full = tmp_path / "clean.pgn", tmp_path / "full.pgn"
    _save_as(monkeypatch, clean)
    with qtbot.waitSignal(window.exports.finished, timeout=30_000):
        _menu_action(window, "Export annotated PGN…").trigger()
    _save_as(monkeypatch, full)
    with qtbot.waitSignal(window.exports.finished, timeout=30_000):
        _menu_action(window, "Save with &analysis…").trigger()
    clean_text, full_text = clean.read_text(), full.read_text()
    assert "[%eval" in clean_text and "[%rvw" not in clean_text
    assert full_text.count("[%rvw ") == window.session.model.ply_count + 1
    assert evaluations_from_game(load_game(full)).by_ply == window.session.model.evaluations.by_ply
    assert window.statusBar().currentMessage() == f"Wrote {full}"


def test_reports_in_every_format(qtbot, window, tmp_path, monkeypatch):
    _open_and_analyse(qtbot, window, OPERA)
    written = {}
    for form, label in (("json", "&JSON…"), ("csv", "&CSV…"), ("html", "&HTML…"), ("pdf", "&PDF…")):
        target = tmp_path / f"report-{form}"  # the extension is added
        _save_as(monkeypatch, target)
        with qtbot.waitSignal(window.exports.finished, timeout=60_000) as done:
            _menu_action(window, "Export &report", label).trigger()
        written[form] = Path(done.args[0])
        assert written[form] == tmp_path / f"report-{form}.{form}"
    report = json.loads(written["json"].read_text())
    assert report["schema"] == "reviewer.report/1" and len(report["moves"]) == 33
    rows = list(csv.DictReader(io.StringIO(written["csv"].read_text())))
    assert [row["move"] for row in rows] == window.session.model.game.mainline_moves()
    assert "<svg" in written["html"].read_text() and "Philidor Defense" in written["html"].read_text()
    pdf = written["pdf"].read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF") and b"/Image" in pdf


def test_board_image_and_clipboard(qtbot, window, tmp_path, monkeypatch):
    _open_and_analyse(qtbot, window, OPERA)
    window.session.model.set_current_ply(5)
    image_path = tmp_path / "board.png"
    _save_as(monkeypatch, image_path)
    with qtbot.waitSignal(window.exports.finished, timeout=30_000):
        _menu_action(window, "Export board &image (PNG)…").trigger()
    image = QImage(str(image_path))
    board = window.board_stack.currentWidget()
    assert not image.isNull() and image.size() == board.grab().size()

    with qtbot.waitSignal(window.exports.finished, timeout=30_000):
        _menu_action(window, "&Copy", "Copy &FEN").trigger()
    expected = chess.Board()
    for san in window.session.model.game.mainline_moves()[:5]:
        expected.push_san(san)
    assert QGuiApplication.clipboard().text() == expected.fen()

    with qtbot.waitSignal(window.exports.finished, timeout=30_000):
        _menu_action(window, "&Copy", "Copy &PGN").trigger()
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith('[Event "Paris"]') and "[%eval" in copied and "[%rvw" not in copied
    assert not _menu_action(window, "&Copy", "Copy &SGF").isEnabled()


def test_go_game_copies_sgf_and_exports_sgf(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "game.sgf"
    path.write_text(GO_GAME)
    _open_and_analyse(qtbot, window, path, "fake_katago.py")
    assert not _menu_action(window, "&Copy", "Copy &PGN").isEnabled()
    assert not _menu_action(window, "&Copy", "Copy &FEN").isEnabled()
    with qtbot.waitSignal(window.exports.finished, timeout=30_000):
        _menu_action(window, "&Copy", "Copy &SGF").trigger()
    assert QGuiApplication.clipboard().text().startswith("(;") and "SBKV[" in QGuiApplication.clipboard().text()
    _save_as(monkeypatch, tmp_path / "reviewed")
    with qtbot.waitSignal(window.exports.finished, timeout=30_000) as done:
        _menu_action(window, "Export annotated SGF…").trigger()
    assert done.args == [str(tmp_path / "reviewed.sgf")]
    assert len(evaluations_from_game(load_game(tmp_path / "reviewed.sgf"))) == 8


def test_the_game_file_is_never_written_over(qtbot, window, tmp_path, monkeypatch):
    source = tmp_path / "opera.pgn"
    shutil.copy(OPERA, source)
    _open_and_analyse(qtbot, window, source)
    before = source.read_bytes()
    for label in ("Export annotated PGN…", "Save with &analysis…"):
        _save_as(monkeypatch, source)
        with qtbot.waitSignal(window.exports.failed, timeout=30_000) as failed:
            _menu_action(window, label).trigger()
        assert "is the game file being reviewed" in failed.args[0]
        assert window.statusBar().currentMessage() == failed.args[0]
    assert source.read_bytes() == before and not list(tmp_path.glob(".*.tmp"))


def test_the_graph_mode_is_chosen_per_game_and_kept(qtbot, window, tmp_path) -> None:
    go_path = tmp_path / "short.sgf"
    go_path.write_text(GO_GAME)
    _open_and_analyse(qtbot, window, OPERA)
    graph = window._ensure_graph()
    assert graph.mode() == "win"  # chess opens on White's win chance
    window.commands.graph_mode_actions["cp"].trigger()
    assert graph.mode() == "cp"
    _open_and_analyse(qtbot, window, go_path, engine="fake_katago.py")
    assert graph.mode() == "lead"  # Go opens on the score lead, whatever chess shows
    window.commands.graph_mode_actions["win"].trigger()
    assert graph.mode() == "winrate"
    _open_and_analyse(qtbot, window, OPERA)
    assert graph.mode() == "cp" and window.commands.graph_mode_actions["cp"].isChecked()
