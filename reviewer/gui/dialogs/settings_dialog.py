"""Engine and analysis settings: which engine, how long it searches, which thresholds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from reviewer.core.analysis import Limit
from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.games import game_support
from reviewer.core.gametree import GameKind
from reviewer.gui.common import style
from reviewer.gui.common.settings import PRESETS, EngineChoice, describe_limit, engine_label, limit_choices

CUSTOM = "__custom__"


class SettingsDialog(QDialog):
    """Edits the engine and limit for one kind of game, and the thresholds preset."""

    def __init__(
        self,
        kind: GameKind,
        engines: Sequence[EngineInfo],
        engine: EngineChoice,
        limit: Limit,
        preset: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._kind = kind
        self.setWindowTitle("Engine and analysis settings")
        self.setStyleSheet(radio_style_sheet(style.theme_for(self), self.palette()))
        self.setMinimumWidth(480)

        # -- engine
        self.engine_combo = QComboBox()
        self._fill_engines(engines)
        self.command_edit = QLineEdit()
        self.command_edit.setPlaceholderText(
            game_support(kind).engine_command_example
        )
        self.command_edit.setToolTip("The engine's command line; it is run as is, never through a shell")
        if engine.command:
            self.engine_combo.setCurrentIndex(self.engine_combo.findData(CUSTOM))
            self.command_edit.setText(engine.command)
        elif engine.name:
            index = self.engine_combo.findData(engine.name)
            if index >= 0:
                self.engine_combo.setCurrentIndex(index)
        self.engine_combo.currentIndexChanged.connect(self._update_command_enabled)
        self._update_command_enabled()

        engine_box = QGroupBox(f"{game_support(kind).title} engine")
        engine_form = QFormLayout(engine_box)
        engine_form.addRow("Engine", self.engine_combo)
        engine_form.addRow("Command", self.command_edit)

        # -- limit
        limit_box = QGroupBox("Search per position")
        limit_form = QFormLayout(limit_box)
        self.limit_buttons = QButtonGroup(self)
        self.nodes_spin = _spin(1_000, 1_000_000_000, limit.nodes or 1_000_000, 100_000)
        self.depth_spin = _spin(1, 99, limit.depth or 20, 1)
        self.time_spin = QDoubleSpinBox()
        self.time_spin.setRange(0.05, 600.0)
        self.time_spin.setDecimals(2)
        self.time_spin.setSingleStep(0.5)
        self.time_spin.setSuffix(" s")
        self.time_spin.setValue(limit.movetime_s or 1.0)
        self.visits_spin = _spin(1, 1_000_000, limit.visits or 200, 50)
        self._limit_rows: dict[str, tuple[QRadioButton, QWidget]] = {}
        rows: tuple[tuple[str, str, QWidget], ...] = (
            (("nodes", "Nodes", self.nodes_spin), ("depth", "Depth", self.depth_spin), ("time", "Time", self.time_spin))
            if game_support(kind).work_unit == "nodes"
            else (("visits", "Visits", self.visits_spin),)
        )
        # A review in passes, as the toolbar offers it: the limit in force when it is one, else the default scheme.
        schemes = [choice.limit for choice in limit_choices(kind) if choice.limit.scheme is not None]
        self._passes_limit = replace(limit, multipv=1) if limit.scheme is not None else (schemes[0] if schemes else None)
        if self._passes_limit is not None:
            self.passes_label = QLabel(describe_limit(self._passes_limit))
            self.passes_label.setToolTip("A fast pass over every position, then deeper searches where a move is in doubt")
            rows = (("passes", "Passes", self.passes_label), *rows)
        for key, text, editor in rows:
            button = QRadioButton(text)
            self.limit_buttons.addButton(button)
            self._limit_rows[key] = (button, editor)
            limit_form.addRow(button, editor)
            button.toggled.connect(self._update_limit_enabled)
        chosen = (
            "passes"
            if limit.scheme is not None and self._passes_limit is not None
            else "visits"
            if game_support(kind).work_unit == "visits"
            else "depth"
            if limit.depth is not None
            else "time"
            if limit.movetime_s is not None
            else "nodes"
        )
        self._limit_rows[chosen][0].setChecked(True)
        self.multipv_spin = _spin(1, 10, limit.multipv, 1)
        self.multipv_spin.setToolTip("Candidate moves shown on the board (MultiPV); more lines search slower")
        limit_form.addRow("Lines", self.multipv_spin)
        self._update_limit_enabled()

        # -- thresholds
        self.preset_combo = QComboBox()
        self.preset_combo.addItem("lichess (5 / 10 / 15 win points)", "lichess")
        self.preset_combo.addItem("Strict (10 / 20 / 30 win points)", "seed")
        self.preset_combo.setCurrentIndex(max(0, PRESETS.index(preset) if preset in PRESETS else 0))
        review_box = QGroupBox("Move labels")
        review_form = QFormLayout(review_box)
        if game_support(kind).uses_thresholds:  # each game's own rule, not the other's
            review_form.addRow("Thresholds", self.preset_combo)
        else:
            self.preset_combo.setParent(review_box)
            self.preset_combo.hide()  # kept for the chess games: `preset` answers what it was
            note = QLabel("Go moves are labelled by points lost: 3 / 6 / 12 (KaTrain).")
            note.setEnabled(False)
            review_form.addRow(note)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(engine_box)
        layout.addWidget(limit_box)
        layout.addWidget(review_box)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(buttons)
        layout.addLayout(bottom)

    def _fill_engines(self, engines: Sequence[EngineInfo]) -> None:
        combo = self.engine_combo
        combo.clear()
        for found in engines:
            if found.kind != self._kind:
                continue
            label = engine_label(found) if found.usable else f"{found.name} (not usable)"
            combo.addItem(label, found.name)
            combo.setItemData(combo.count() - 1, found.detail, Qt.ItemDataRole.ToolTipRole)
        if combo.count() == 0:
            default = game_support(self._kind).engine_key
            combo.addItem(f"{default} (when installed)", default)
        combo.addItem("Custom command…", CUSTOM)

    def set_engines(self, engines: Sequence[EngineInfo]) -> None:
        """Show the engines found now (the choice on show is kept where it is still offered)."""
        chosen = self.engine_combo.currentData()
        self.engine_combo.blockSignals(True)
        self._fill_engines(engines)
        index = self.engine_combo.findData(chosen)
        self.engine_combo.setCurrentIndex(max(index, 0))
        self.engine_combo.blockSignals(False)
        self._update_command_enabled()

    def _update_command_enabled(self) -> None:
        self.command_edit.setEnabled(self.engine_combo.currentData() == CUSTOM)

    def _update_limit_enabled(self) -> None:
        for button, editor in self._limit_rows.values():
            editor.setEnabled(button.isChecked())

    def engine_choice(self) -> EngineChoice:
        data = self.engine_combo.currentData()
        command = self.command_edit.text().strip()
        if data == CUSTOM and command:
            return EngineChoice(kind=self._kind, command=command)
        return EngineChoice(kind=self._kind, name=None if data == CUSTOM else str(data))

    def limit(self) -> Limit:
        chosen = next(key for key, (button, _editor) in self._limit_rows.items() if button.isChecked())
        multipv = self.multipv_spin.value()
        if chosen == "passes" and self._passes_limit is not None:
            return replace(self._passes_limit, multipv=multipv)
        if chosen == "visits":
            return Limit(visits=self.visits_spin.value(), multipv=multipv)
        if chosen == "depth":
            return Limit(depth=self.depth_spin.value(), multipv=multipv)
        if chosen == "time":
            return Limit(movetime_s=round(self.time_spin.value(), 2), multipv=multipv)
        return Limit(nodes=self.nodes_spin.value(), multipv=multipv)

    def preset(self) -> str:
        return str(self.preset_combo.currentData())


def radio_style_sheet(theme: style.Theme, palette: QPalette) -> str:
    """Radio buttons whose ring and dot read on either theme (Fusion draws the ring a shade darker
    than the window: on a dark window it disappears)."""
    base = palette.color(QPalette.ColorRole.Base).name()
    ring, dot = theme.text_muted, theme.current_background
    return (
        f"QRadioButton::indicator {{ width: 12px; height: 12px; border-radius: 7px; border: 1px solid {ring};"
        f" background: {base}; }}"
        f" QRadioButton::indicator:checked {{ background: qradialgradient(cx:0.5, cy:0.5, radius:0.5, fx:0.5, fy:0.5,"
        f" stop:0 {dot}, stop:0.5 {dot}, stop:0.62 {base}, stop:1 {base}); }}"
    )


def _spin(low: int, high: int, value: int, step: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setValue(max(low, min(high, value)))
    spin.setGroupSeparatorShown(True)
    return spin
