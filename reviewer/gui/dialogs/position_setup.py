"""Edit ▸ Set up position: a board to place pieces or stones on (click with the piece chosen in the
palette, or drag it from the palette; drag a piece on the board to move it; right-click takes it
off), the side to move and the game's own settings beside it, the position's notation (FEN, SGF)
to copy or read, and why the position cannot be played while it cannot. *Open as new game* hands
the game to the window.

What a game offers here comes from its `PositionSetup` (`game_support(kind).position_setup`):
this dialog draws what that describes and asks it to check and to build the game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QMimeData, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDrag,
    QDragEnterEvent,
    QDropEvent,
    QFont,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from reviewer.core.games import game_support, registered_games
from reviewer.core.games.setup import Draft, PieceKind, PositionSetup, SetupRefused
from reviewer.core.gametree import Color, Game, Point
from reviewer.gui.common.style import is_dark_palette, paint_stone_icon, theme_for

PIECE_MIME = "application/x-reviewer-piece"
ERASER = ""  # the palette's key for taking pieces off


def setup_kinds() -> list[tuple[str, str]]:
    """(kind, title) of every game whose positions can be set up."""
    return [(support.kind, support.title) for support in registered_games() if support.setup_ref]


class SetupBoard(QWidget):
    """The board of the editor. Signals: placed(point, key) a click or a drop of palette piece
    `key` (ERASER: take off); moved(origin, target) a piece dragged on the board."""

    placed = Signal(object, str)
    moved = Signal(object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.setMinimumSize(320, 320)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._draft = Draft(8, 8)
        self._setup: PositionSetup | None = None
        self._symbols: dict[str, PieceKind] = {}
        self._pressed: Point | None = None

    def show_draft(self, setup: PositionSetup, draft: Draft) -> None:
        self._setup, self._draft = setup, draft
        self._symbols = {piece.key: piece for piece in setup.palette}
        self.update()

    # geometry ------------------------------------------------------------------------------
    def _cell(self) -> float:
        return min(self.width() / (self._draft.width + 0.6), self.height() / (self._draft.height + 0.6))

    def _origin(self) -> QPointF:
        cell = self._cell()
        return QPointF((self.width() - cell * self._draft.width) / 2, (self.height() - cell * self._draft.height) / 2)

    def point_center(self, point: Point) -> QPointF:
        """Where a point (row from the bottom, column from the left) is drawn, in widget coordinates."""
        cell, origin = self._cell(), self._origin()
        row_from_top = self._draft.height - 1 - point[0]
        return QPointF(origin.x() + (point[1] + 0.5) * cell, origin.y() + (row_from_top + 0.5) * cell)

    def point_at(self, position: QPointF) -> Point | None:
        cell, origin = self._cell(), self._origin()
        col = int((position.x() - origin.x()) // cell)
        row_from_top = int((position.y() - origin.y()) // cell)
        point = (self._draft.height - 1 - row_from_top, col)
        return point if self._draft.on_board(point) else None

    # painting ------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        theme = theme_for(self)
        cell, origin = self._cell(), self._origin()
        width, height = self._draft.width, self._draft.height
        board = QRectF(origin.x(), origin.y(), cell * width, cell * height)
        squares = self._setup is None or self._setup.board_style == "squares"
        if squares:
            for row in range(height):
                for col in range(width):
                    light = (row + col) % 2 == 0
                    painter.fillRect(QRectF(origin.x() + col * cell, origin.y() + row * cell, cell, cell),
                                     QColor(theme.square_light if light else theme.square_dark))
        else:
            painter.fillRect(board.adjusted(-cell * 0.25, -cell * 0.25, cell * 0.25, cell * 0.25), QColor(theme.wood))
            painter.setPen(QPen(QColor(theme.grid), 1))
            for row in range(height):
                y = origin.y() + (row + 0.5) * cell
                painter.drawLine(QPointF(origin.x() + cell / 2, y), QPointF(origin.x() + (width - 0.5) * cell, y))
            for col in range(width):
                x = origin.x() + (col + 0.5) * cell
                painter.drawLine(QPointF(x, origin.y() + cell / 2), QPointF(x, origin.y() + (height - 0.5) * cell))
        self._paint_labels(painter, cell, origin, QColor(theme.text_muted))
        font = QFont(self.font())
        font.setPixelSize(max(8, int(cell * 0.78)))
        painter.setFont(font)
        dark = is_dark_palette(self.palette())
        for point, key in self._draft.pieces.items():
            piece = self._symbols.get(key)
            if piece is None:
                continue
            center = self.point_center(point)
            if piece.look == "stone":
                paint_stone_icon(painter, center, cell * 0.46, piece.color, dark)
            else:
                rect = QRectF(center.x() - cell / 2, center.y() - cell / 2, cell, cell)
                painter.setPen(QColor("#000000"))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, piece.symbol)
        painter.end()

    def _paint_labels(self, painter: QPainter, cell: float, origin: QPointF, colour: QColor) -> None:
        """The columns' letters under the board and the rows' numbers left of it, as the game names its points."""
        if self._setup is None:
            return
        font = QFont(self.font())
        font.setPixelSize(max(7, min(12, int(cell * 0.26))))
        painter.setFont(font)
        painter.setPen(colour)
        width, height = self._draft.width, self._draft.height
        margin = cell * 0.3
        for col in range(width):
            letters = "".join(c for c in self._setup.point_name(self._draft, (0, col)) if c.isalpha())
            x = origin.x() + col * cell
            painter.drawText(QRectF(x, origin.y() + height * cell, cell, margin), Qt.AlignmentFlag.AlignCenter, letters)
        for row in range(height):
            digits = "".join(c for c in self._setup.point_name(self._draft, (row, 0)) if c.isdigit())
            y = origin.y() + (height - 1 - row) * cell
            painter.drawText(QRectF(origin.x() - margin, y, margin, cell), Qt.AlignmentFlag.AlignCenter, digits)

    # mouse and drops -----------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        point = self.point_at(event.position())
        if point is None:
            return
        if event.button() == Qt.MouseButton.RightButton:
            self.placed.emit(point, ERASER)
            return
        self._pressed = point

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        origin, self._pressed = self._pressed, None
        if origin is None or event.button() != Qt.MouseButton.LeftButton:
            return
        target = self.point_at(event.position())
        if target is None:
            return
        if target != origin and origin in self._draft.pieces:
            self.moved.emit(origin, target)
        elif target == origin:
            self.placed.emit(target, "\0click")  # the dialog places the palette's piece

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasFormat(PIECE_MIME):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: Any) -> None:
        if event.mimeData().hasFormat(PIECE_MIME):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        point = self.point_at(event.position())
        if point is None or not event.mimeData().hasFormat(PIECE_MIME):
            return
        self.placed.emit(point, bytes(event.mimeData().data(PIECE_MIME).data()).decode())
        event.acceptProposedAction()


class PaletteButton(QToolButton):
    """One piece of the palette: click to choose it, drag it onto the board."""

    def __init__(self, piece: PieceKind | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = piece.key if piece is not None else ERASER
        self._piece = piece
        self._press: QPoint | None = None
        self.setCheckable(True)
        self.setAutoExclusive(False)
        self.setFixedSize(40, 40)
        self.setToolTip(piece.title if piece is not None else "Take pieces off (or right-click a piece on the board)")
        if piece is None or piece.look == "glyph":
            self.setText(piece.symbol if piece is not None else "✕")
            font = QFont(self.font())
            font.setPixelSize(26 if piece is not None else 18)
            self.setFont(font)
        else:
            self.setIcon(_stone_icon(piece))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is not None and (event.position().toPoint() - self._press).manhattanLength() > 6 and self._piece is not None:
            self._press = None
            drag = QDrag(self)
            mime = QMimeData()
            mime.setData(PIECE_MIME, self.key.encode())
            drag.setMimeData(mime)
            drag.setPixmap(self.grab())
            self.setDown(False)
            drag.exec(Qt.DropAction.CopyAction)
            return
        super().mouseMoveEvent(event)


def _stone_icon(piece: PieceKind) -> Any:
    pixmap = QPixmap(28, 28)
    pixmap.fill(QColor(0, 0, 0, 0))
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    paint_stone_icon(painter, QPointF(14, 14), 12, piece.color, False)
    painter.end()
    return pixmap


class PositionSetupDialog(QDialog):
    """The board editor. `game()` is the new game once accepted."""

    def __init__(self, kind: str, game: Game | None = None, at: Any = None, parent: QWidget | None = None) -> None:
        """`kind`: the game to set up first; `game` and `at` (that game's position on show): where it starts."""
        super().__init__(parent)
        self.setWindowTitle("Set up position")
        self.setObjectName("position-setup")
        self._game: Game | None = None
        self._start_game, self._start_at = game, at
        self._choice_widgets: dict[str, QWidget] = {}

        self.kind_combo = QComboBox(self)
        for known, title in setup_kinds():
            self.kind_combo.addItem(title, known)
        self.board = SetupBoard(self)
        self.palette_box = QWidget(self)
        self.palette_layout = QVBoxLayout(self.palette_box)
        self.palette_layout.setContentsMargins(0, 0, 0, 0)
        self.palette_group = QButtonGroup(self)
        self.palette_group.setExclusive(True)
        self.to_move_group = QButtonGroup(self)
        self.to_move_buttons: dict[str, QRadioButton] = {}
        self.to_move_box = QGroupBox("To move", self)
        QVBoxLayout(self.to_move_box)
        self.choices_box = QGroupBox("Position", self)
        self.choices_form = QFormLayout(self.choices_box)
        self.start_button = QPushButton("Start position", self)
        self.clear_button = QPushButton("Clear board", self)
        self.notation_label = QLabel(self)
        self.notation_edit = QLineEdit(self)
        self.notation_edit.setObjectName("position-notation")
        self.read_button = QPushButton("Read", self)
        self.read_button.setToolTip("Set the board from the text")
        self.problem_label = QLabel(self)
        self.problem_label.setObjectName("position-problem")
        self.problem_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.open_button = self.buttons.addButton("Open as new game", QDialogButtonBox.ButtonRole.AcceptRole)

        side = QVBoxLayout()
        game_row = QHBoxLayout()
        game_row.addWidget(QLabel("Game", self))
        game_row.addWidget(self.kind_combo, 1)
        side.addLayout(game_row)
        side.addWidget(self.to_move_box)
        side.addWidget(self.choices_box)
        for button in (self.start_button, self.clear_button):
            side.addWidget(button)
        side.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.palette_box)
        top.addWidget(self.board, 1)
        top.addLayout(side)
        notation = QHBoxLayout()
        notation.addWidget(self.notation_label)
        notation.addWidget(self.notation_edit, 1)
        notation.addWidget(self.read_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addLayout(notation)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.buttons)

        self.kind_combo.currentIndexChanged.connect(lambda _index: self._start_kind(self.kind_combo.currentData()))
        self.board.placed.connect(self._on_placed)
        self.board.moved.connect(lambda origin, target: self.set_draft(self.draft.moved(origin, target)))
        self.start_button.clicked.connect(lambda: self.set_draft(self.setup.usual_start(self.draft)))
        self.clear_button.clicked.connect(lambda: self.set_draft(self.setup.cleared(self.draft)))
        self.read_button.clicked.connect(self.read_notation)
        self.notation_edit.returnPressed.connect(self.read_notation)
        self.buttons.rejected.connect(self.reject)
        self.open_button.clicked.connect(self._open)

        self.resize(820, 560)
        index = self.kind_combo.findData(kind)
        self.kind_combo.setCurrentIndex(max(0, index))
        self._start_kind(self.kind_combo.currentData(), first=True)

    # ---------------------------------------------------------------------------- the game
    @property
    def setup(self) -> PositionSetup:
        setup: PositionSetup = game_support(self.kind).position_setup
        return setup

    @property
    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    def _start_kind(self, kind: str, first: bool = False) -> None:
        setup: PositionSetup = game_support(kind).position_setup
        same_game = self._start_game is not None and self._start_game.kind == kind
        self._build_palette(setup)
        self._build_to_move(kind)
        self._build_choices(setup)
        self.notation_label.setText(setup.notation)
        self.draft = Draft(8, 8)
        self.set_draft(setup.start(self._start_game if same_game else None, self._start_at if same_game else None))

    def _build_palette(self, setup: PositionSetup) -> None:
        for button in self.palette_group.buttons():
            self.palette_group.removeButton(button)
        self.palette_buttons: dict[str, PaletteButton] = {}
        rows = QWidget(self.palette_box)
        grid = QHBoxLayout(rows)
        grid.setContentsMargins(0, 0, 0, 0)
        columns = {"white": QVBoxLayout(), "black": QVBoxLayout()}
        for piece in setup.palette:
            button = PaletteButton(piece, rows)
            columns[piece.color].addWidget(button)
            self.palette_group.addButton(button)
            self.palette_buttons[piece.key] = button
        eraser = PaletteButton(None, rows)
        columns["black"].addWidget(eraser)
        self.palette_group.addButton(eraser)
        self.palette_buttons[ERASER] = eraser
        for column in columns.values():
            column.addStretch(1)
            grid.addLayout(column)
        while self.palette_layout.count():
            item = self.palette_layout.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None:
                old.hide()  # at once: it is deleted when the event loop comes back
                old.deleteLater()
        self.palette_layout.addWidget(rows)
        if setup.palette:
            self.palette_buttons[setup.palette[0].key].setChecked(True)

    def _build_to_move(self, kind: str) -> None:
        layout = self.to_move_box.layout()
        assert layout is not None
        for button in self.to_move_group.buttons():
            self.to_move_group.removeButton(button)
            layout.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.to_move_buttons = {}
        for color in game_support(kind).player_order:
            button = QRadioButton(color.capitalize(), self.to_move_box)
            button.toggled.connect(lambda checked, c=color: self._on_to_move_toggled(c, checked))
            self.to_move_group.addButton(button)
            layout.addWidget(button)
            self.to_move_buttons[color] = button

    def _build_choices(self, setup: PositionSetup) -> None:
        while self.choices_form.rowCount():
            self.choices_form.removeRow(0)
        self._choice_widgets = {}
        for choice in setup.choices:
            widget: QWidget
            if choice.kind == "flag":
                box = QCheckBox(self.choices_box)
                box.toggled.connect(lambda checked, key=choice.key: self.set_draft(self.draft.with_choice(key, checked)))
                widget = box
            elif choice.kind == "number":
                spin = QDoubleSpinBox(self.choices_box)
                spin.setRange(choice.minimum, choice.maximum)
                spin.setSingleStep(choice.step)
                spin.setDecimals(choice.decimals)
                spin.valueChanged.connect(lambda value, key=choice.key, d=choice.decimals: self.set_draft(
                    self.draft.with_choice(key, value if d else int(value))))
                widget = spin
            elif choice.kind == "text":
                line = QLineEdit(self.choices_box)
                line.setMaximumWidth(80)
                line.textEdited.connect(lambda text, key=choice.key: self.set_draft(self.draft.with_choice(key, text)))
                widget = line
            else:  # the board size
                combo = QComboBox(self.choices_box)
                for size in setup.sizes:
                    combo.addItem(f"{size}×{size}", size)
                combo.activated.connect(lambda _index, c=combo: self.set_draft(self.setup.resized(self.draft, c.currentData(), c.currentData())))
                widget = combo
            widget.setToolTip(choice.tip)
            self.choices_form.addRow(choice.title, widget)
            self._choice_widgets[choice.key] = widget
        self.choices_box.setVisible(bool(setup.choices))

    # ------------------------------------------------------------------------------ the draft
    def set_draft(self, draft: Draft) -> None:
        """Show `draft`: the board, the settings, the notation and whether it can be played."""
        self.draft = draft
        self.board.show_draft(self.setup, draft)
        button = self.to_move_buttons.get(draft.to_move)
        if button is not None and not button.isChecked():
            button.blockSignals(True)
            button.setChecked(True)
            button.blockSignals(False)
        for key, widget in self._choice_widgets.items():
            widget.blockSignals(True)
            value = draft.choices.get(key)
            if isinstance(widget, QCheckBox):
                widget.setChecked(bool(value))
            elif isinstance(widget, QDoubleSpinBox) and value is not None:
                widget.setValue(float(value))
            elif isinstance(widget, QLineEdit) and not widget.hasFocus():
                widget.setText(str(value or ""))
            elif isinstance(widget, QComboBox):
                index = widget.findData(draft.width)
                if index < 0:
                    widget.addItem(f"{draft.width}×{draft.height}", draft.width)
                    index = widget.count() - 1
                widget.setCurrentIndex(index)
            widget.blockSignals(False)
        if not self.notation_edit.hasFocus():
            self.notation_edit.setText(self.setup.text(draft))
        self._show_problem(self.setup.problem(draft))

    def _show_problem(self, reason: str | None) -> None:
        theme = theme_for(self)
        if reason is None:
            self.problem_label.setText("✓ The position can be played.")
            self.problem_label.setStyleSheet(f"QLabel#position-problem {{ color: {theme.info_text}; }}")
        else:
            self.problem_label.setText(f"✗ {reason}.")
            self.problem_label.setStyleSheet(f"QLabel#position-problem {{ color: {theme.error_text}; font-weight: bold; }}")
        self.open_button.setEnabled(reason is None)

    def problem_text(self) -> str:
        return self.problem_label.text()

    def _on_to_move_toggled(self, color: Color, checked: bool) -> None:
        if checked and color != self.draft.to_move:
            self.set_draft(replace(self.draft, to_move=color))

    def chosen_piece(self) -> str:
        checked = self.palette_group.checkedButton()
        return checked.key if isinstance(checked, PaletteButton) else ERASER

    def _on_placed(self, point: Point, key: str) -> None:
        if key == "\0click":  # a click on the board: the palette's piece, or off when it is already there
            key = self.chosen_piece()
            if key != ERASER and self.draft.pieces.get(point) == key:
                key = ERASER
        self.set_draft(self.draft.with_piece(point, key or None))

    def read_notation(self) -> None:
        """Set the board from the notation's text; a text that does not read says why and changes nothing."""
        try:
            draft = self.setup.read(self.notation_edit.text())
        except SetupRefused as refused:
            self._show_problem(str(refused).rstrip("."))
            self.open_button.setEnabled(False)
            return
        self.notation_edit.clearFocus()
        self.set_draft(draft)

    # ------------------------------------------------------------------------------ the end
    def _open(self) -> None:
        try:
            self._game = self.setup.game(self.draft)
        except SetupRefused as refused:
            self._show_problem(str(refused))
            return
        self.accept()

    def game(self) -> Game | None:
        """The new game (once accepted)."""
        return self._game
