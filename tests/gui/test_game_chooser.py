"""The game chooser on a real PGN: first rows at once, the rest as they are listed, sorting by a
click on a column header, filtering by typing, and the chosen game mapped back through both."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from reviewer.core.formats import open_collection
from reviewer.gui.dialogs.game_chooser import GameChooserDialog

COPIES = 8


def _big_pgn(corpus_dir, tmp_path):
    data = (corpus_dir / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn").read_bytes().strip() + b"\n\n"
    path = tmp_path / "big.pgn"
    path.write_bytes(data * COPIES)
    return path


def _click_header(qtbot, dialog, column: int) -> None:
    header = dialog.table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(x, 5))


def test_first_rows_at_once_then_the_rest_while_listing(qtbot, corpus_dir, tmp_path) -> None:
    path = _big_pgn(corpus_dir, tmp_path)
    collection = open_collection(path, first_games=50)
    assert not collection.index_complete
    dialog = GameChooserDialog(collection, "big")
    qtbot.addWidget(dialog)
    assert 50 <= dialog.visible_count() < 232 * COPIES or collection.index_complete
    assert dialog.chosen_index() == 0
    qtbot.waitUntil(lambda: dialog.model.listing_complete(), timeout=60_000)
    assert dialog.visible_count() == 232 * COPIES
    assert dialog.count_label.text() == f"{232 * COPIES:,} games in this file"
    whole = open_collection(path)
    row = 232 * COPIES - 1
    assert dialog.table.model().index(row, 1).data() == whole.summary(row).white + (
        f" ({whole.summary(row).white_rank})" if whole.summary(row).white_rank else ""
    )


def test_sorting_and_filtering_choose_the_right_game(qtbot, corpus_dir, tmp_path) -> None:
    path = _big_pgn(corpus_dir, tmp_path)
    collection = open_collection(path)
    dialog = GameChooserDialog(collection, "big")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)

    _click_header(qtbot, dialog, 2)  # Black, A to Z
    model = dialog.table.model()
    blacks = [model.index(row, 2).data().casefold() for row in range(model.rowCount())]
    assert blacks == sorted(blacks) and blacks[0] != blacks[-1]
    _click_header(qtbot, dialog, 2)  # Z to A
    assert model.index(0, 2).data().casefold() == blacks[-1]

    wanted = collection.summary(100)
    surname = wanted.white.split(",")[0]
    QTest.keyClicks(dialog.filter_edit, f"{surname} {wanted.date}")
    assert 0 < dialog.visible_count() < 232 * COPIES
    for row in range(dialog.visible_count()):
        game = collection.summary(model.index(row, 0).data() and int(model.index(row, 0).data()) - 1)
        assert surname.casefold() in (game.white + game.black).casefold() and game.date == wanted.date
    rect = dialog.table.visualRect(model.index(0, 1))
    QTest.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    chosen = dialog.chosen_index()
    assert chosen is not None and chosen == int(model.index(0, 0).data()) - 1
    assert collection.summary(chosen).date == wanted.date

    dialog.filter_edit.clear()
    assert dialog.visible_count() == 232 * COPIES
    assert model.index(0, 2).data().casefold() == blacks[-1]  # still sorted Z to A


def test_the_chooser_says_which_charset_a_pgn_was_read_in_when_it_guessed(qtbot, tmp_path) -> None:
    path = tmp_path / "russian.pgn"
    games = [f'[White "Карпов"]\n[Black "Игрок {number}"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n' for number in range(3)]
    path.write_bytes("\n".join(games).encode("cp1251"))
    dialog = GameChooserDialog(open_collection(path), "russian")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.model.listing_complete(), timeout=10_000)
    assert dialog.file_notes_label.isVisible()
    assert "Windows-1251 (Cyrillic)" in dialog.file_notes_label.text()
    assert dialog.model.data(dialog.model.index(0, 1)) == "Карпов"


def test_the_chooser_shows_no_note_for_a_utf_8_pgn(qtbot, tmp_path) -> None:
    path = tmp_path / "plain.pgn"
    path.write_text('[White "Карпов"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n[White "B"]\n\n1. d4 *\n', encoding="utf-8")
    dialog = GameChooserDialog(open_collection(path), "plain")
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.file_notes_label.isVisible()
