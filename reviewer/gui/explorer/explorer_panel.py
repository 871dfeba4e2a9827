"""The opening explorer beside the move list: the moves the game database holds from the position
on show, with their games, results, average rating and performance; filters; the top games (a
double-click opens one at this position); and, while the database is empty, a button to add games.

It follows every position the session shows (variations too), asks the database off the window's
thread and drops an answer for a position no longer shown. What it says comes from
`presenters.explorer`."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QPainter
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGraphicsOpacityEffect,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer.core import openings
from reviewer.core.database import (
    DamagedDatabase,
    DatabaseDeparture,
    Exploration,
    ExploreFilters,
    GameDatabase,
    ImportProgress,
    ImportReport,
    LineDeparture,
    Position,
    RebuildReport,
    StoredGame,
    damage_in,
    explore,
    import_paths,
    left_database,
    left_own_line,
    position_of_node,
    rebuild_database,
)
from reviewer.core.database.explorer import check_filters
from reviewer.core.database.figures import GameFigures, figures_of, join_game
from reviewer.core.database.records import SPEED_WORDS
from reviewer.core.games import game_support
from reviewer.core.gametree import Game, Node
from reviewer.gui.common import style
from reviewer.gui.common.move_entry import NAVIGATION_KEYS
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.settings import Settings
from reviewer.gui.common.tasks import Task, TaskContext, Tasks
from reviewer.gui.presenters import explorer as texts

IMPORT_LANE = "game-database-import"
TOP_GAMES = 8
SHARES_ROLE = Qt.ItemDataRole.UserRole + 1
NUMBER_COLUMNS = (1, 3, 4)  # of the moves: games, rating, performance
GAME_NUMBER_COLUMNS = (3,)  # of the top games: the accuracy
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
TABLE_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown})
LIST_KEYS = TABLE_KEYS | {Qt.Key.Key_Home, Qt.Key.Key_End}  # a closed drop-down list's: Left and Right step the game
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
STALE_AFTER_MS = 300  # an answer slower than this: the last one is greyed (a quick one would only flicker)


@dataclass(frozen=True)
class Answer:
    """The database's answer for one position: what was found, the ply where each top game reached it."""

    exploration: Exploration
    plies: dict[int, int]
    database_games: int
    figures: dict[int, GameFigures] = field(default_factory=dict)  # game id -> the analysis joined to it
    filtered: bool = False  # the filters kept only some of the games
    colours_swappable: bool = False  # the position may be looked up with its colours swapped too (Go)


_Result = TypeVar("_Result")

@dataclass(frozen=True)
class Damage:
    """The database file cannot be read: what SQLite said."""

    reason: str


def _answer(database_path: Path, game: Game, node: Node, filters: ExploreFilters) -> Answer | Damage:
    """Off the window's thread: a long game's position takes a while to replay."""
    try:
        position = position_of_node(game, node)
    except (ValueError, IndexError) as error:
        raise ValueError(f"this position cannot be looked up: {error}") from None
    return _unless_damaged(database_path, lambda: _asked_of(database_path, position, filters))


def _unless_damaged(database_path: Path, work: Callable[[], _Result]) -> _Result | Damage:
    """What `work` gives, or the damage of the database that stopped it (any other fault is raised)."""
    try:
        return work()
    except DamagedDatabase as damage:
        return Damage(damage.reason)
    except sqlite3.DatabaseError as error:
        found = damage_in(error, database_path)
        if found is None:
            raise
        return Damage(found.reason)


def _asked_of(database_path: Path, position: Position, filters: ExploreFilters) -> Answer:
    with GameDatabase(database_path) as database:
        total = database.game_count()
        swappable = position.swapped is not None
        if total == 0:
            return Answer(Exploration(position.kind, 0), {}, 0, colours_swappable=swappable)
        found = explore(database, position, filters, top_games=TOP_GAMES)
        figures = figures_of(database, [game.id for game, _move in found.top_games])
    filtered = replace(filters, either_colours=False) != ExploreFilters()
    return Answer(found, found.top_plies, total, figures, filtered, swappable)


def _join(database_path: Path, game: Game, preset: str) -> GameFigures | None:
    """The analysis the cache holds for the game on show joined to its row in the database."""
    from reviewer.core.cache import AnalysisCache

    with GameDatabase(database_path) as database, AnalysisCache() as cache:
        return join_game(database, cache, game, preset=preset)


def _game_files_filter() -> str:
    """Every kind of file the import reads, compressed ones too ("*.pgn *.pgn.zst ...")."""
    from reviewer.core.database.importer import COMPRESSED_SUFFIXES
    from reviewer.core.formats import read_extensions

    plain = [f"*{extension}" for extension in read_extensions()]
    packed = [f"*{extension}{suffix}" for extension in read_extensions() for suffix in COMPRESSED_SUFFIXES]
    return f"Game files ({' '.join(plain + packed)});;All files (*)"


def _rebuild(context: TaskContext, database_path: Path) -> RebuildReport:
    return rebuild_database(database_path, progress=context.report, cancel=context.cancel_event)


def _import(context: TaskContext, database_path: Path, paths: list[Path]) -> ImportReport | Damage:
    """The games added, or the damage that stopped it (nothing is added to a damaged database)."""
    def work() -> ImportReport:
        with GameDatabase(database_path) as database:
            database.positions.runs()  # a run cut short or missing: DamagedDatabase
            return import_paths(database, paths, progress=context.report, cancel=context.cancel_event)

    return _unless_damaged(database_path, work)


class _SharesDelegate(QStyledItemDelegate):
    """The win/draw/loss bar of a move: the first player's wins, the draws, the second player's
    wins, each with its share written on it where it has the room."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(max(size.width(), 120), max(size.height(), option.fontMetrics.height() + 8))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        shares = index.data(SHARES_ROLE)
        if not isinstance(shares, texts.ResultShares):
            super().paint(painter, option, index)
            return
        theme = style.theme_for(option.widget)
        painter.save()
        metrics = painter.fontMetrics()
        separator = option.palette.base().color()  # between two parts: told apart whatever their greys
        for place, (part, fill, fraction) in enumerate(bar_parts(option.rect, shares, theme)):
            painter.fillRect(part, fill)
            if place:
                painter.fillRect(QRect(part.left(), part.top(), 1, part.height()), separator)
            label = f"{100 * fraction:.0f}%"
            if metrics.horizontalAdvance(label) + 6 <= part.width():
                painter.setPen(_ink_on(fill))
                painter.drawText(part, Qt.AlignmentFlag.AlignCenter, label)
        painter.setPen(style.color(theme.text_muted))
        if not shares.first + shares.draws + shares.second:
            painter.drawText(bar_rect(option.rect), Qt.AlignmentFlag.AlignCenter, texts.NO_RESULT)
        painter.drawRect(bar_rect(option.rect).adjusted(0, 0, -1, -1))
        painter.restore()


_DATE_HINT = "YYYY, YYYY.MM or YYYY.MM.DD; Enter sets it"


def _rows_height(tree: QTreeWidget) -> int:
    """The height that shows the header and every row of `tree` (at least two rows, so it never shrinks to nothing)."""
    rows = max(2, tree.topLevelItemCount())
    row = tree.sizeHintForRow(0) if tree.topLevelItemCount() else tree.fontMetrics().height() + 8
    return tree.header().sizeHint().height() + rows * row + 2 * tree.frameWidth()


def _ink_on(fill: QColor) -> QColor:
    """Near-black or white, whichever reads better on `fill`."""
    dark, light = style.color("#1f1d1a"), style.color("#ffffff")
    return dark if style.contrast_ratio(dark, fill) >= style.contrast_ratio(light, fill) else light


def bar_rect(cell: QRect) -> QRect:
    """The win/draw/loss bar inside its cell."""
    return cell.adjusted(3, 2, -3, -2)


def bar_parts(cell: QRect, shares: texts.ResultShares, theme: style.Theme) -> list[tuple[QRect, QColor, float]]:
    """The bar's parts left to right, each with its fill and fraction: the first player's wins,
    the draws, the second player's wins (lichess's colours: White's light, draws grey, Black's dark)."""
    rect = bar_rect(cell)
    fills = {"white": style.color(theme.results_white), "black": style.color(theme.results_black)}
    second = "black" if shares.first_color == "white" else "white"
    wanted = ((shares.first, fills[shares.first_color]), (shares.draws, style.color(theme.results_draw)),
              (shares.second, fills[second]))
    parts: list[tuple[QRect, QColor, float]] = []
    x = float(rect.left())
    for fraction, fill in wanted:
        width = fraction * rect.width()
        if width > 0:
            parts.append((QRect(round(x), rect.top(), max(1, round(x + width) - round(x)), rect.height()), fill, fraction))
        x += width
    return parts


class ExplorerPanel(QWidget):
    """`database_path`: the file it reads (asked each time: a test or the settings may change it);
    `player`: the name the player gave the app ("me"); `open_game(path, index, ply)`."""

    answered = Signal(object)  # the Answer now shown (tests wait on it)
    imported = Signal(object)  # an ImportReport, once games were added
    left = Signal()  # a filter was typed in and Enter (or Esc) pressed: the keys go back to the game

    def __init__(
        self,
        session: ReviewSession,
        tasks: Tasks,
        database_path: Callable[[], Path],
        player: Callable[[], str],
        open_game: Callable[[str, int, int], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("explorer-panel")
        self.session, self.tasks = session, tasks
        self._database_path, self._player, self._open_game = database_path, player, open_game
        self._asked = 0  # the number of the latest question; an answer to an older one is dropped
        self._import_task: Task | None = None
        self._imports: list[Task] = []  # every import not over, the unseen ones too
        self._import_answered = False  # the import on show told what it did (else it was dropped unstarted)
        self.answer: Answer | None = None
        self._damaged = False  # the database on show is damaged: Rebuild is offered once no import runs
        self._pending = False  # a question is out: what the tables show may be of an earlier position, or filters
        self._answered_node: object = None  # the position whose moves the tables show
        self._partial = False  # the answer on show was read while games were still being added
        self._stale_timer = QTimer(self)
        self._stale_timer.setSingleShot(True)
        self._stale_timer.setInterval(STALE_AFTER_MS)
        self._stale_timer.timeout.connect(self._show_stale)

        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("explorer-summary")
        self.summary_label.setWordWrap(True)
        self.add_button = QPushButton("Add games…", self)
        add_menu = QMenu(self.add_button)
        add_menu.addAction("Game files…", self.choose_files)
        add_menu.addAction("A folder…", self.choose_folder)
        self.add_button.setMenu(add_menu)
        self.notice_label = QLabel(self)  # what a rebuild did: stays while the answers come and go
        self.notice_label.setObjectName("explorer-notice")
        self.notice_label.setWordWrap(True)
        self.notice_label.hide()
        self.rebuild_button = QPushButton("Rebuild the database", self)
        self.rebuild_button.setToolTip("Move the damaged file aside and read its games again from their files;"
                                       " your lines and notes on games are kept apart and stay")
        self.rebuild_button.clicked.connect(self.rebuild)
        self.rebuild_button.hide()
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)
        self.progress.setTextVisible(True)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.clicked.connect(self.cancel_import)
        importing = QHBoxLayout()
        importing.setContentsMargins(0, 0, 0, 0)
        importing.addWidget(self.progress, 1)
        importing.addWidget(self.cancel_button)
        self.progress.hide()
        self.cancel_button.hide()

        self.mine = QCheckBox("My games", self)
        self.color = QComboBox(self)
        self.color.addItem("either colour", None)
        self.color.addItem("as White", "white")
        self.color.addItem("as Black", "black")
        self.either_colours = QCheckBox("colours swapped too", self)
        self.either_colours.setToolTip("Also the games that reached this position with the colours swapped (Black's"
                                       " stones White's, the other side to move), counted as this position's")
        self.either_colours.hide()  # shown for a game whose positions can be looked up so (Go)
        self.speed = QComboBox(self)
        self.speed.addItem("any speed", "")
        for word in SPEED_WORDS:
            self.speed.addItem(word, word)
        self.since = QLineEdit(self)
        self.until = QLineEdit(self)
        since_label, until_label = QLabel("since", self), QLabel("until", self)
        for box, label in ((self.since, since_label), (self.until, until_label)):
            box.setPlaceholderText("YYYY.MM")
            box.setToolTip(_DATE_HINT)
            label.setBuddy(box)
        self.min_rating = QSpinBox(self)
        self.min_rating.setRange(0, 3500)
        self.min_rating.setSingleStep(100)
        self.min_rating.setSpecialValueText("any rating")
        self.min_rating.setPrefix("rating ≥ ")
        self.min_rating.setToolTip("Only games where the two players' average rating is at least this")
        self.min_accuracy = QSpinBox(self)
        self.min_accuracy.setRange(0, 100)
        self.min_accuracy.setSingleStep(5)
        self.min_accuracy.setSpecialValueText("any accuracy")
        self.min_accuracy.setPrefix("accuracy ≥ ")
        self.min_accuracy.setToolTip("Only games analysed in full where your accuracy (with My games) or the mean of"
                                     " both sides' is at least this")
        for box in (self.since, self.until):
            box.setFixedWidth(box.fontMetrics().horizontalAdvance("0000.00.00") + 16)
        self._restore_filters()
        for box in (self.since, self.until):
            box.editingFinished.connect(self._filters_changed)
        for typed in (self.since, self.until, self.min_rating.lineEdit(), self.min_accuracy.lineEdit()):
            typed.returnPressed.connect(self.left.emit)
        self.mine.toggled.connect(self._mine_toggled)
        self.color.currentIndexChanged.connect(self._filters_changed)
        self.speed.currentIndexChanged.connect(self._filters_changed)
        self.min_rating.valueChanged.connect(self._filters_changed)
        self.min_accuracy.valueChanged.connect(self._filters_changed)
        self.either_colours.toggled.connect(self._filters_changed)
        first_row, second_row, self._third_row = QHBoxLayout(), QHBoxLayout(), QHBoxLayout()
        self._second_row = second_row
        for row in (first_row, second_row, self._third_row):
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(4)
        for combo in (self.color, self.speed):  # never squeezed to "either colo"
            combo.setMinimumWidth(combo.sizeHint().width())
        first_row.addWidget(self.mine)
        first_row.addWidget(self.color)
        first_row.addWidget(self.speed)
        first_row.addWidget(self.either_colours)
        first_row.addStretch(1)
        second_row.addWidget(since_label)
        second_row.addWidget(self.since)
        second_row.addWidget(until_label)
        second_row.addWidget(self.until)
        second_row.addWidget(self.min_rating)
        second_row.addWidget(self.min_accuracy)
        second_row.addStretch(1)
        self._third_row.addStretch(1)
        self._dates: tuple[QWidget, ...] = (since_label, self.since, until_label, self.until)
        for spin in (self.min_rating, self.min_accuracy):  # the panel narrows: they go under the dates, not squeezed
            spin.setMinimumWidth(spin.fontMetrics().horizontalAdvance("0000") + 24)

        self.moves = QTreeWidget(self)
        self.moves.setObjectName("explorer-moves")
        self.moves.setRootIsDecorated(False)
        self.moves.setUniformRowHeights(True)
        self.moves.setHeaderLabels(["Move", "Games", "Results", "Rating", "Perf."])
        self.moves.setItemDelegateForColumn(2, _SharesDelegate(self.moves))
        header = self.moves.header()
        header.setStretchLastSection(False)
        for column in (0, 1, 3, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.moves.itemClicked.connect(self._play)
        self.games = QTreeWidget(self)
        self.games.setObjectName("explorer-games")
        self.games.setRootIsDecorated(False)
        self.games.setUniformRowHeights(True)
        self.games.setHeaderLabels(["Top games", "Result", "Date", "Accuracy", "Move"])
        games_header = self.games.header()
        games_header.setStretchLastSection(False)
        games_header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3, 4):
            games_header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.games.itemDoubleClicked.connect(self._open)
        for tree, columns in ((self.moves, NUMBER_COLUMNS), (self.games, GAME_NUMBER_COLUMNS)):
            for column in columns:  # a figure's title over its figures, on the right
                tree.headerItem().setTextAlignment(column, RIGHT)
        self.moves.headerItem().setTextAlignment(2, Qt.AlignmentFlag.AlignCenter)  # over its bar, apart from "Games"
        for tree in (self.moves, self.games):
            tree.installEventFilter(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.rebuild_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addLayout(importing)
        self.body = QWidget(self)  # the filters and the tables: hidden while the database is empty
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(4)
        body.addLayout(first_row)
        body.addLayout(second_row)
        body.addLayout(self._third_row)
        body.addWidget(self.moves, 3)
        body.addWidget(self.games, 2)
        layout.addWidget(self.body, 1)
        layout.addStretch(0)
        self.add_button.hide()
        filters: tuple[QWidget, ...] = (self.color, self.speed, self.since, self.until, self.min_rating, self.min_accuracy)
        for widget in filters:
            widget.installEventFilter(self)

        self._joined: tuple[int, int] | None = None  # (game, evaluations) whose analysis was last joined
        session.assessment_changed.connect(self.join_analysis)
        session.current_changed.connect(lambda _node: self.refresh())
        session.game_loaded.connect(self.refresh)
        session.tree_changed.connect(lambda _mainline: self.refresh())

    # ------------------------------------------------------------------ asking the database
    def filters(self) -> ExploreFilters:
        return replace(texts.filters_of(
            self._player(),
            self.mine.isChecked(),
            self.color.currentData(),
            self.since.text(),
            self.until.text(),
            str(self.speed.currentData() or ""),
            self.min_rating.value(),
            self.min_accuracy.value(),
        ), either_colours=self.either_colours.isChecked())

    def _restore_filters(self) -> None:
        """The filters as the player last left them (the next start too)."""
        settings = Settings()
        self._mine_wanted = settings.explorer_filter("mine") == "yes"  # shown checked only while the player is named
        self.mine.setChecked(self._mine_wanted)
        self.color.setCurrentIndex(max(0, self.color.findData(settings.explorer_filter("color") or None)))
        self.speed.setCurrentIndex(max(0, self.speed.findData(settings.explorer_filter("speed"))))
        self.since.setText(settings.explorer_filter("since"))
        self.until.setText(settings.explorer_filter("until"))
        rating = settings.explorer_filter("min_rating")
        self.min_rating.setValue(int(rating) if rating.isdigit() else 0)
        accuracy = settings.explorer_filter("min_accuracy")
        self.min_accuracy.setValue(int(accuracy) if accuracy.isdigit() else 0)
        self.either_colours.setChecked(settings.explorer_filter("either_colours") == "yes")

    def _mine_toggled(self, checked: bool) -> None:
        self._mine_wanted = checked
        self._filters_changed()

    def _filters_changed(self) -> None:
        settings = Settings()
        settings.set_explorer_filter("mine", "yes" if self._mine_wanted else "no")
        settings.set_explorer_filter("color", str(self.color.currentData() or ""))
        settings.set_explorer_filter("speed", str(self.speed.currentData() or ""))
        settings.set_explorer_filter("since", self.since.text().strip())
        settings.set_explorer_filter("until", self.until.text().strip())
        settings.set_explorer_filter("min_rating", str(self.min_rating.value()))
        settings.set_explorer_filter("min_accuracy", str(self.min_accuracy.value()))
        settings.set_explorer_filter("either_colours", "yes" if self.either_colours.isChecked() else "no")
        self.refresh()

    def refresh(self) -> None:
        """Ask for the position on show (nothing while hidden: showing the panel asks)."""
        named = bool(self._player().strip())
        self.mine.setEnabled(named)
        if self.mine.isChecked() != (self._mine_wanted and named):
            self.mine.blockSignals(True)  # the player's choice stays for when they are named
            self.mine.setChecked(self._mine_wanted and named)
            self.mine.blockSignals(False)
        self.mine.setToolTip(f"Only the games of {self._player()}" if self._player().strip() else "Give your name in the Collection window first")
        self.color.setEnabled(self.mine.isChecked() and self.mine.isEnabled())
        if not self.isVisible():
            return
        model = self.session.model
        game, node = model.game, model.current_node
        self._asked += 1
        if game is None or node is None or not game_support(game.kind).database_position_ref:
            self._show_nothing("Open a game to see the moves played from its positions.")
            return
        filters = self.filters()
        try:
            check_filters(filters)
        except ValueError as error:
            self._mark_bad_dates()
            self._show_nothing(texts.bad_filter_text(str(error)))
            return
        self._mark_bad_dates()
        asked = self._asked
        self._pending = True
        self._stale_timer.start()
        task = self.tasks.submit(_answer, self._database_path(), game, node, filters, name="explorer")
        task.done.connect(lambda answer, asked=asked, node=node: self._answered(asked, answer, node))
        task.failed.connect(lambda text, asked=asked: self._failed(asked, text))

    def _mark_bad_dates(self) -> None:
        """A date box whose text is no date is framed in red, the reason in its tooltip."""
        for box, alone in ((self.since, ExploreFilters(since=self.since.text())), (self.until, ExploreFilters(until=self.until.text()))):
            try:
                check_filters(alone)
                problem = ""
            except ValueError as error:
                problem = str(error)
            box.setToolTip(problem or _DATE_HINT)
            box.setStyleSheet(f"QLineEdit {{ border: 2px solid {style.theme_for(self).error_text}; }}" if problem else "")

    def _answered(self, asked: int, answer: Answer | Damage, node: object = None) -> None:
        if asked != self._asked:
            return  # an answer for a position no longer shown
        if isinstance(answer, Damage):
            self._show_damage(answer)
            return
        self._damaged = False
        self.rebuild_button.hide()
        self._settle()
        self.answer = answer
        self._answered_node = node
        self.either_colours.setVisible(answer.colours_swappable)
        self._partial = self._adding()
        first = game_support(answer.exploration.kind).first_player
        self.moves.clear()
        for row in texts.move_rows(answer.exploration, first):
            item = QTreeWidgetItem([row.move, row.games, "", row.rating, row.performance])
            item.setData(2, SHARES_ROLE, row.shares)
            item.setToolTip(2, row.shares.tooltip)
            for column in NUMBER_COLUMNS:
                item.setTextAlignment(column, RIGHT)
            self.moves.addTopLevelItem(item)
        self.games.clear()
        for game, move in answer.exploration.top_games:
            shown = texts.game_row(game, move, first)
            accuracy = texts.accuracy_cell(answer.figures.get(game.id), first)
            item = QTreeWidgetItem([shown.players, shown.result, shown.date, accuracy.text, shown.move])
            item.setToolTip(3, accuracy.tooltip)
            for column in GAME_NUMBER_COLUMNS:
                item.setTextAlignment(column, RIGHT)
            item.setData(0, Qt.ItemDataRole.UserRole, (game, answer.plies.get(game.id, 0)))
            item.setToolTip(0, f"{shown.players}\n{game.event}\n{game.source_path} (game {game.source_index + 1})\nDouble-click to open it here")
            self.games.addTopLevelItem(item)
        self.moves.setMaximumHeight(_rows_height(self.moves))  # the room it does not need goes to the games
        empty = answer.database_games == 0
        coming = empty and any(not task.is_over for task in self._imports)  # a file just opened, read unseen
        self.add_button.setVisible((empty and not coming) or self._import_task is not None)
        self.body.setVisible(not empty)
        self.add_button.setEnabled(self._import_task is None)
        if empty:
            summary = texts.FIRST_GAMES_COMING if coming else texts.EMPTY_DATABASE
        else:
            summary = texts.summary(answer.exploration, answer.filtered)
        self.summary_label.setText(f"{summary}{texts.STILL_ADDING if self._partial and not empty else ''}")
        self.answered.emit(answer)

    def _adding(self) -> bool:
        """An import shown with its progress runs (an unseen one, of a file just opened, is over soon)."""
        return self._import_task is not None and not self._import_task.is_over

    def _show_stale(self) -> None:
        """The answer is slow: the last one greyed, so that it is not read as this position's."""
        if not self._pending:
            return
        self.summary_label.setText(texts.LOOKING_UP)
        for tree in (self.moves, self.games):
            faded = QGraphicsOpacityEffect(tree)
            faded.setOpacity(0.35)
            tree.setGraphicsEffect(faded)

    def _settle(self) -> None:
        self._pending = False
        self._stale_timer.stop()
        for tree in (self.moves, self.games):
            tree.setGraphicsEffect(None)  # type: ignore[arg-type]

    def _show_damage(self, damage: Damage) -> None:
        self._show_nothing(texts.damaged_text(damage.reason))
        self.notice_label.hide()
        self.body.hide()
        self.add_button.hide()
        self._damaged = True
        self.rebuild_button.setVisible(self._import_task is None)

    def _failed(self, asked: int, text: str) -> None:
        if asked == self._asked:
            self._show_nothing(f"The game database could not be read: {text}")

    def _show_nothing(self, text: str) -> None:
        self._settle()
        self.answer = None
        self.moves.clear()
        self.games.clear()
        self.summary_label.setText(text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A filter being edited keeps its arrow keys (the window's would step through the game); a
        table keeps Up and Down to go from row to row (Left and Right still step through the game);
        Enter on a move plays it, on a game opens it, as a click and a double-click do."""
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            kept = (TABLE_KEYS if watched in (self.moves, self.games)
                    else LIST_KEYS if isinstance(watched, QComboBox) else NAVIGATION_KEYS)
            if Qt.Key(event.key()) in kept:
                event.accept()
                return True
        if (event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and isinstance(watched, (QLineEdit, QSpinBox))
                and Qt.Key(event.key()) == Qt.Key.Key_Escape):
            self.left.emit()
            return True
        if (event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and watched in (self.moves, self.games)
                and Qt.Key(event.key()) in ENTER_KEYS):
            item = watched.currentItem() if isinstance(watched, QTreeWidget) else None
            if item is not None:
                (self._play if watched is self.moves else self._open)(item, 0)
                return True
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._wrap_filters()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "until"):
            self._mark_bad_dates()  # a bad date's frame in the new theme's red, not the one it was drawn in
        super().changeEvent(event)

    def _wrap_filters(self) -> None:
        """The rating and accuracy boxes beside the dates where the panel is wide enough, else under
        them (squeezed, the dates would show a letter or two)."""
        row = self._second_row
        dates = sum(min(widget.sizeHint().width(), widget.maximumWidth()) for widget in self._dates)
        boxes = self.min_rating.sizeHint().width() + self.min_accuracy.sizeHint().width()
        wanted = self._second_row if dates + boxes + 5 * row.spacing() <= self.width() else self._third_row
        if wanted.indexOf(self.min_rating) >= 0:
            return
        for box in (self.min_rating, self.min_accuracy):
            (self._third_row if wanted is self._second_row else self._second_row).removeWidget(box)
            wanted.insertWidget(wanted.count() - 1, box)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh()

    def join_analysis(self) -> None:
        """The open game's settled analysis joined to its row (its accuracy shown and filtered by),
        after the import of its file (the same lane)."""
        model = self.session.model
        game = model.game
        if game is None or not model.assessment_settled or not game_support(game.kind).database_record_ref:
            return
        evaluations = len(model.basis.evaluations)
        if evaluations == 0 or self._joined == (id(game), evaluations):
            return
        self._joined = (id(game), evaluations)
        task = self.tasks.submit(_join, self._database_path(), game.mainline_copy(), str(model.preset), lane=IMPORT_LANE,
                                 name="db-join")
        task.done.connect(lambda figures: self.refresh() if figures is not None else None)

    # ----------------------------------------------------------------------------- actions
    def _shows_this_position(self) -> bool:
        """Whether the tables are of the position on the board (their filters may be changing)."""
        return self._answered_node is not None and self._answered_node is self.session.model.current_node

    def _play(self, item: QTreeWidgetItem, _column: int) -> None:
        if self._shows_this_position():  # else the move is one of an earlier position
            self.session.model.play_move(item.text(0))

    def _open(self, item: QTreeWidgetItem, _column: int) -> None:
        data = item.data(0, Qt.ItemDataRole.UserRole)
        if data and self._shows_this_position():
            game, ply = data
            assert isinstance(game, StoredGame)
            self._open_game(game.source_path, game.source_index, int(ply))

    # ------------------------------------------------------------------------ adding games
    def choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add games to the database", "", _game_files_filter())
        if paths:
            self.add_games([Path(path) for path in paths])

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder of games to the database")
        if folder:
            self.add_games([Path(folder)])

    def add_games(self, paths: list[Path], quiet: bool = False) -> Task:
        """Import `paths` in the background: with a progress bar and Cancel unless `quiet` (a file
        the player opened feeds the database unseen, unless it holds more games than one chunk:
        then its progress and Cancel show once the first chunk is in)."""
        task = self.tasks.submit(_import, self._database_path(), paths, lane=IMPORT_LANE, with_context=True, name="db-import")
        if not quiet:
            self._show_import(task)
        else:
            task.progress.connect(lambda progress, task=task: self._quiet_progress(task, progress))
        self._imports.append(task)
        task.done.connect(lambda report, task=task: self._imported(report, task is not self._import_task))
        task.failed.connect(lambda text: self._import_failed(text))
        task.finished.connect(lambda task=task: self._import_over(task))
        task.finished.connect(lambda task=task: self._imports.remove(task) if task in self._imports else None)
        return task

    def _show_import(self, task: Task) -> None:
        self._import_task = task
        self._import_answered = False
        self.progress.setRange(0, 0)  # busy until the first progress
        self.progress.setFormat("Adding games…")
        self.progress.show()
        self.cancel_button.show()
        self.add_button.setEnabled(False)
        task.progress.connect(self._import_progress)

    def _quiet_progress(self, task: Task, progress: ImportProgress) -> None:
        """A file opened that takes a while to read: shown as an import, with its Cancel."""
        if self._import_task is None and not task.is_over and (progress.games_read < progress.games_in_file or not progress.listed_all):
            self._show_import(task)
            self._import_progress(progress)

    def rebuild(self) -> Task:
        """Read the damaged database's games again from their files, with progress and Cancel."""
        task = self.tasks.submit(_rebuild, self._database_path(), lane=IMPORT_LANE, with_context=True, name="db-rebuild")
        self._import_task = task
        self._import_answered = False
        self.rebuild_button.hide()
        self.progress.setRange(0, 0)
        self.progress.setFormat("Reading the games again…")
        self.progress.show()
        self.cancel_button.show()
        task.progress.connect(self._import_progress)
        self._imports.append(task)
        task.done.connect(self._rebuilt)
        task.failed.connect(lambda text: self._import_failed(text))
        task.finished.connect(lambda task=task: self._import_over(task))
        task.finished.connect(lambda task=task: self._imports.remove(task) if task in self._imports else None)
        return task

    def _rebuilt(self, report: RebuildReport) -> None:
        self._import_answered = True
        self.notice_label.setText(texts.rebuild_done_text(report.stored, len(report.sources), [str(path) for path in report.missing],
                                                          str(report.damaged_copy or ""), report.cancelled))
        self.notice_label.show()
        self.refresh()

    def feed(self, path: str) -> None:
        """A file the player opened goes into the database too, unseen."""
        self.add_games([Path(path)], quiet=True)

    def stop_imports(self) -> None:
        """Before the window closes: what was read stays, the next import of the files goes on from there."""
        for task in list(self._imports):
            task.cancel()

    def cancel_import(self) -> None:
        if self._import_task is not None:
            self._import_task.cancel()
            self.progress.setFormat("Stopping…")

    def _import_progress(self, progress: ImportProgress) -> None:
        # a bar with a range (a busy one draws no text): how much of the file is read, by its bytes
        self.progress.setRange(0, 1000)
        self.progress.setValue(round(1000 * progress.file_fraction))
        self.progress.setFormat(texts.import_progress_text(progress.games_read, progress.stored))
        self.progress.setToolTip(texts.import_progress_tooltip(str(progress.path)))

    def _imported(self, report: ImportReport | Damage, quiet: bool) -> None:
        if isinstance(report, Damage):
            if not quiet:
                self._import_answered = True
            self._asked += 1  # an answer asked before the import no longer holds
            self._show_damage(report)
            return
        if not quiet:
            self._import_answered = True
            # in the notice, which stays while the answers for the positions come and go
            self._notify(texts.import_done_text(report.stored, report.duplicates, len(report.skipped), report.cancelled,
                                                report.unreadable, report.already_read, list(report.resumed)))
        self.imported.emit(report)
        if report.stored:
            self.refresh()

    def _notify(self, text: str) -> None:
        self.notice_label.setText(text)
        self.notice_label.show()

    def _import_failed(self, text: str) -> None:
        self._notify(f"The games could not be added: {text}")

    def _import_over(self, task: Task) -> None:
        if self._partial and task is self._import_task:
            self.refresh()  # the answer read while games were being added: asked again, in full
        if task is self._import_task:
            if task.is_cancelled and not self._import_answered:
                self._notify(texts.IMPORT_CANCELLED)
            self._import_task = None
            self.rebuild_button.setVisible(self._damaged)
            self.progress.hide()
            self.cancel_button.hide()
            self.add_button.setEnabled(True)


@dataclass(frozen=True)
class Departures:
    game: Game
    database: DatabaseDeparture | None
    line: LineDeparture | None


def _departures(database_path: Path, game: Game, player: str) -> Departures:
    if game_support(game.kind).has_openings:
        openings.book(game.kind)  # built here, off the window's thread, for the comment's ECO line
    with GameDatabase(database_path) as database:
        if database.game_count(game.kind) == 0:
            return Departures(game, None, None)
        left = left_database(database, game)
        line = left_own_line(database, game, player) if player.strip() else None
    return Departures(game, left, line)


class DepartureMarks(QObject):
    """Finds, for each game opened (and after games were added), where it left the database and
    where the player left their usual line; `show(ply → line, plies that left the database, plies
    that left the line)` marks them (the move list, the comment).
    Asked in the import lane: a file just opened is in the database first."""

    def __init__(
        self,
        session: ReviewSession,
        tasks: Tasks,
        database_path: Callable[[], Path],
        player: Callable[[], str],
        show: Callable[[dict[int, str], frozenset[int], frozenset[int]], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session, self.tasks = session, tasks
        self._database_path, self._player, self._show = database_path, player, show
        self.found: Departures | None = None
        session.game_loaded.connect(self.look)

    def look(self) -> None:
        """Ask for the game on show (the comment is drawn again with the answer: its ECO line too)."""
        game = self.session.model.game
        self._show({}, frozenset(), frozenset())
        self.found = None
        if game is None or not game_support(game.kind).database_record_ref:
            return
        task = self.tasks.submit(_departures, self._database_path(), game, self._player(), lane=IMPORT_LANE, name="departures")
        task.done.connect(self._found)

    def _found(self, found: Departures) -> None:
        if found.game is not self.session.model.game:
            return  # another game is on show now
        self.found = found
        numbered = game_support(found.game.kind).numbered_moves
        notes: dict[int, str] = {}
        if found.database is not None:
            notes[found.database.ply] = texts.database_departure_text(found.database, numbered)
        if found.line is not None:
            line = texts.line_departure_text(found.line, numbered)
            notes[found.line.ply] = f"{notes[found.line.ply]}\n{line}" if found.line.ply in notes else line
        self._show(notes, frozenset([found.database.ply] if found.database else []),
                   frozenset([found.line.ply] if found.line else []))
