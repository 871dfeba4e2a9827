"""The insights half of the Collection window: one player at a time (chosen in a list of every
player found), their results and strength, the plot of their games over time and the tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer.gui.collection.collection_views import TableView, TimelineChart
from reviewer.gui.collection.repertoire_departures import RepertoireDeparture, departures_table
from reviewer.gui.common import style
from reviewer.gui.presenters import collection as present


class InsightsPanel(QWidget):
    """Signals: `game_requested(path, index, ply)` from a click on the plot (ply 0) or a double-click
    on a row that knows its game; `export_requested(form)` from the export buttons."""

    game_requested = Signal(str, int, int)
    export_requested = Signal(str)  # "csv" or "html"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.insights: dict[str, Any] | None = None
        self._choices: list[present.PlayerChoice] = []

        self.player_combo = QComboBox()
        self.player_combo.setMinimumContentsLength(24)
        self.player_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.player_combo.setToolTip("Every player of the reviewed games, most games first")
        self.player_combo.currentIndexChanged.connect(lambda _index: self._show_player())
        self.measure_combo = QComboBox()
        self.measure_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.measure_combo.setToolTip("What the plot shows for each game")
        self.measure_combo.currentIndexChanged.connect(lambda _index: self._show_timeline())
        self.export_csv_button = QPushButton("Export CSV…")
        self.export_html_button = QPushButton("Export HTML…")
        self.export_csv_button.setToolTip("The shown player's insights, one row per fact")
        self.export_html_button.setToolTip("The shown player's insights as one page, with the plots")
        self.export_csv_button.clicked.connect(lambda: self.export_requested.emit("csv"))
        self.export_html_button.clicked.connect(lambda: self.export_requested.emit("html"))
        self.summary_label = QLabel()
        self.rating_label = QLabel()
        self.rating_label.setWordWrap(True)
        self.left_out_label = QLabel()
        self.left_out_label.setObjectName("left-out")
        self.left_out_label.setWordWrap(True)
        self.left_out_label.hide()
        for label in (self.summary_label, self.rating_label, self.left_out_label):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.chart = TimelineChart()
        self.chart.show_message("The insights show here when a review ends")
        self.chart.game_clicked.connect(lambda source: self._request_game(source, 0))
        self.tabs = QTabWidget()
        self.phase_table = TableView()
        self.colour_table = TableView()
        self.opening_table = TableView()
        self.mistake_table = TableView()
        self.strength_table = TableView()
        self.lines_table = TableView()
        self.choices_table = TableView()
        self.departures_table = TableView()  # where each game left the player's usual line
        self.departures_table.set_table(departures_table([]))
        for title, view in (
            ("By phase", self.phase_table),
            ("By colour", self.colour_table),
            ("By opening", self.opening_table),
            ("Costliest mistakes", self.mistake_table),
            ("Strength per game", self.strength_table),
            ("Your lines", self.lines_table),
            ("Where you vary", self.choices_table),
            ("Left your repertoire", self.departures_table),
        ):
            self.tabs.addTab(view, title)
            view.game_requested.connect(self._request_game)

        show_row = QHBoxLayout()
        show_row.addWidget(QLabel("Insights for"))
        show_row.addWidget(self.player_combo)
        show_row.addWidget(QLabel("Plot"))
        show_row.addWidget(self.measure_combo)
        show_row.addStretch(1)
        show_row.addWidget(self.export_csv_button)
        show_row.addWidget(self.export_html_button)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.chart)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([330, 260])
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(show_row)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.rating_label)
        layout.addWidget(self.left_out_label)
        layout.addWidget(splitter, 1)
        self._restyle()
        self._enable()

    # ------------------------------------------------------------------------------ public

    def show_insights(self, insights: dict[str, Any], wanted_player: str | None) -> None:
        """Every player of `insights` in the list; `wanted_player` (or the one with most games) on show."""
        self.insights = insights
        self._choices = present.player_choices(insights)
        self.player_combo.blockSignals(True)
        self.player_combo.clear()
        for choice in self._choices:
            self.player_combo.addItem(choice.label)
        self.player_combo.setCurrentIndex(present.default_choice(self._choices, wanted_player) if self._choices else -1)
        self.player_combo.blockSignals(False)
        self._enable()
        self._show_player()

    def show_departures(self, departures: list[RepertoireDeparture]) -> None:
        """Where the reviewed games left the player's usual line (the game database's view of it)."""
        self.departures_table.set_table(departures_table(departures), stretch_column=1)

    def shown_player(self) -> dict[str, Any] | None:
        """The insights entry of the player on show."""
        position = self.player_combo.currentIndex()
        if self.insights is None or not 0 <= position < len(self._choices):
            return None
        player: dict[str, Any] = self.insights["players"][self._choices[position].index]
        return player

    # ------------------------------------------------------------------------------ showing

    def _enable(self) -> None:
        has_players = bool(self._choices)
        for widget in (self.export_csv_button, self.export_html_button, self.player_combo, self.measure_combo):
            widget.setEnabled(has_players)

    def _show_player(self) -> None:
        player = self.shown_player()
        if player is None:
            self.summary_label.setText("No game with a named player was found." if self.insights is not None else "")
            self.rating_label.setText("")
            self.left_out_label.hide()
            self.chart.show_message("No player to show")
            for view in (self.phase_table, self.colour_table, self.opening_table, self.mistake_table, self.strength_table,
                         self.lines_table, self.choices_table):
                view.set_table(present.Table((), ()))
            return
        self.summary_label.setText(present.player_summary(player))
        self.rating_label.setText(present.rating_text(player))
        left_out = present.left_out_text(player)
        self.left_out_label.setText(left_out or "")
        self.left_out_label.setVisible(left_out is not None)
        measure = self.measure_combo.currentData()
        self.measure_combo.blockSignals(True)
        self.measure_combo.clear()
        for key, title in present.measures(player["kind"]):
            self.measure_combo.addItem(title, key)
        index = self.measure_combo.findData(measure)
        self.measure_combo.setCurrentIndex(index if index >= 0 else 0)
        self.measure_combo.blockSignals(False)
        self._show_timeline()
        self.phase_table.set_table(present.phase_table(player))
        self.colour_table.set_table(present.colour_table(player))
        self.opening_table.set_table(present.opening_table(player), stretch_column=1)
        self.mistake_table.set_table(present.mistake_table(player), stretch_column=6)
        self.strength_table.set_table(present.strength_table(player), stretch_column=3)
        self.lines_table.set_table(present.repertoire_lines_table(player), stretch_column=1)
        self.choices_table.set_table(present.repertoire_choices_table(player), stretch_column=4)

    def _show_timeline(self) -> None:
        player = self.shown_player()
        if player is None:
            return
        measure = self.measure_combo.currentData() or present.measures(player["kind"])[0][0]
        self.chart.show_timeline(present.timeline(player, measure))

    def _request_game(self, source: Any, ply: Any) -> None:
        if isinstance(source, Mapping) and source.get("path") is not None and isinstance(source.get("index"), int):
            self.game_requested.emit(str(source["path"]), int(source["index"]), int(ply or 0))

    def _restyle(self) -> None:
        self.left_out_label.setStyleSheet(f"QLabel#left-out {{ color: {style.theme_for(self).warning_text}; }}")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "left_out_label"):
            self._restyle()
        super().changeEvent(event)
