"""What *Play from here* asks before it starts: how strong the engine plays (in the game's unit:
Stockfish's Elo, Go's visits) and which side it takes."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from reviewer.core.games.support import OpponentStrength
from reviewer.core.gametree import Color


class PlayOutDialog(QDialog):
    def __init__(self, opponent: OpponentStrength, players: tuple[Color, Color], engine_color: Color,
                 strength: int | None = None, parent: QWidget | None = None) -> None:
        """`players`: the game's sides in order; `engine_color`: the side offered to the engine (the one not to move)."""
        super().__init__(parent)
        self.setWindowTitle("Play from here")
        self.strength_spin = QSpinBox(self)
        self.strength_spin.setRange(opponent.minimum, opponent.maximum)
        self.strength_spin.setSingleStep(opponent.step)
        self.strength_spin.setValue(strength if strength is not None else opponent.default)
        self.strength_spin.setSuffix(f" {opponent.unit}")
        self.side_buttons: dict[Color, QRadioButton] = {}
        sides = QHBoxLayout()
        group = QButtonGroup(self)
        for color in players:
            button = QRadioButton(color.capitalize(), self)
            button.setChecked(color == engine_color)
            group.addButton(button)
            sides.addWidget(button)
            self.side_buttons[color] = button
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.play_button = self.buttons.addButton("Play", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Engine strength", self.strength_spin)
        form.addRow("The engine plays", sides)
        form.addRow(self.buttons)

    def strength(self) -> int:
        return self.strength_spin.value()

    def engine_color(self) -> Color:
        return next(color for color, button in self.side_buttons.items() if button.isChecked())
