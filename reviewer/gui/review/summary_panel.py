"""Per-side figures of a reviewed game, with clickable counts of inaccuracies, mistakes and blunders.

    ● Magnus Carlsen                      87.3%   4 ?!   1 ?   0 ??
      ACPL 21 · STDCPL 35 · lichess 85.1% · Elo 2254 (2037 – 2422, 80%)

Input is the "summary" of a reviewer.report/1 report: one dict per side (see SCORING.md), and
each side's strength estimate from the moves (`report.strength_by_side`), shown only with its
interval (docs/strength.md); where there is none, the tooltip says why.
Below the rows, one line says what the figures stand on and where the analysis is
("Stopped · analysed 23 of 68 moves"), and where the engine may not label moves, why and how
to get labels (the figures are then withheld: "—").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, assert_never

from PySide6.QtCore import QEvent, QPointF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

from reviewer.core.games import game_support
from reviewer.core.scoring import accuracy_name, headline_accuracy_field
from reviewer.core.scoring.common import top5_counts
from reviewer.gui.common import style
from reviewer.gui.presenters.collection import estimate_text
from reviewer.gui.presenters.figures import HEADLINE_KEY

if TYPE_CHECKING:
    from reviewer.core.coverage import Coverage
    from reviewer.core.scoring.trust import Trust
    from reviewer.gui.presenters.figures import SideBasis

_SIDES = ("white", "black")


def _number(value: Any, digits: int = 0, suffix: str = "") -> str:
    if value is None:
        return "—"
    try:
        return f"{float(value):.{digits}f}{suffix}"
    except (TypeError, ValueError):
        return "—"


def _share(value: Any) -> str:
    """A 0..1 share as a whole percentage."""
    if value is None:
        return "—"
    return f"{float(value) * 100:.0f}%"


def strength_text(kind: str, strength: dict[str, Any] | None) -> str:
    """'Elo 2254 (2037 – 2422, 80%)' or 'rank 3k (7k – 1d, 80%)'; empty without an estimate."""
    text = estimate_text(kind, strength)
    if text == "–":
        return ""
    return f"{game_support(kind).rating.unit} {text}"


def chess_details(summary: dict[str, Any], strength: dict[str, Any] | None = None) -> str:
    """'lichess accuracy · ACPL 21 · STDCPL 35': the name of the accuracy above it comes first."""
    parts = [
        accuracy_name("chess", headline_field("chess", summary)),
        f"ACPL {_number(summary.get('acpl'))}",
        f"STDCPL {_number(summary.get('stdcpl'))}",
    ]
    if estimate := strength_text("chess", strength):
        parts.append(estimate)
    return " · ".join(parts)


ACCURACY_MEANINGS = {
    "accuracy_lichess": "lichess's game accuracy: each move's accuracy (from the win chance it lost) weighed by "
    "how sharp the position was, averaged with their harmonic mean",
    "accuracy": "the harmonic mean of each move's accuracy (from the win chance it lost), as En Croissant computes it",
    "accuracy_mean": "the plain mean of each move's accuracy (from the win chance it lost)",
}


def headline_field(kind: str, summary: dict[str, Any] | None) -> str:
    """The summary field shown as the side's one accuracy (the preset's, `presenters.figures`)."""
    field = (summary or {}).get(HEADLINE_KEY)
    return field if isinstance(field, str) else headline_accuracy_field(kind, None)


def accuracy_tooltip(kind: str, summary: dict[str, Any] | None) -> str:
    """Which accuracy the one shown is, by name, and the others of the same moves (docs/SCORING.md)."""
    if game_support(kind).scores.averaging == "weighted":
        return "KaTrain accuracy: 100 · 0.75^(points lost per move, weighted by how hard each move was)"
    headline = headline_field(kind, summary)
    lines = [f"{_capitalised(accuracy_name(kind, headline))}: {ACCURACY_MEANINGS[headline]}."]
    if summary is not None and summary.get(headline) is None and summary.get("accuracy") is not None:
        lines.append("Not known yet: it needs every position from the start of the game analysed.")
    lines.append("Of the same moves:")
    for field in game_support(kind).scores.accuracy_names:
        if field != headline:
            lines.append(f"  {_capitalised(accuracy_name(kind, field))}: {_number((summary or {}).get(field), 1, '%')}")
    return "\n".join(lines)


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def top5_detail(summary: dict[str, Any]) -> str:
    """'top 5 12/20': on the moves whose position the engine searched five lines or more."""
    counts = top5_counts(summary)
    return "" if counts is None else f"top 5 {counts[0]}/{counts[1]}"


def top5_tooltip(summary: dict[str, Any]) -> str:
    counts = top5_counts(summary)
    if counts is None:
        return "One of the engine's top 5: none (no position before this side's moves was searched to five lines)"
    return (
        f"One of the engine's top 5: {counts[0]} of the {counts[1]} moves whose position has five lines "
        f"({_share(summary.get('top5_match'))}; the other positions were searched too briefly to have a top 5)"
    )


def go_details(summary: dict[str, Any], strength: dict[str, Any] | None = None) -> str:
    parts = [
        f"weighted loss {_number(summary.get('weighted_loss'), 2)}",
        f"mean loss {_number(summary.get('mean_loss'), 2)}",
        f"top move {_share(summary.get('top_move_match'))}",
    ]
    if top5 := top5_detail(summary):
        parts.append(top5)
    if estimate := strength_text("go", strength):
        parts.append(estimate)
    return " · ".join(parts)


def _set_style_sheet(widget: QWidget, sheet: str) -> None:
    """Setting a style sheet polishes the widget again, even the same one: only when it changes."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


class _StoneDot(QWidget):
    """A small white or black disc that says which side a row is about."""

    def __init__(self, color: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._color = color
        self.setFixedSize(14, 14)

    def sizeHint(self) -> QSize:
        return QSize(14, 14)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        style.paint_stone_icon(painter, QPointF(7, 7), 5.5, self._color, style.is_dark_palette(self.palette()))
        painter.end()


class _SideRow:
    """The widgets of one side's row."""

    def __init__(self, panel: SummaryPanel, color: str) -> None:
        self.color = color
        self.dot = _StoneDot(color, panel)
        self.name = QLabel(panel)
        self.name.setFont(style.ui_font(1, bold=True))
        self.name.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.name.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.accuracy = QLabel(panel)
        self.accuracy.setFont(style.figure_font(4, bold=True))
        self.accuracy.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # beside the figure, as large: what it stands on while it is not final
        self.basis = QLabel(panel)
        self.basis.setObjectName("figure-basis")
        self.basis.setFont(style.figure_font(4))
        self.basis.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.basis.hide()
        self.figure_box = QHBoxLayout()
        self.figure_box.setSpacing(6)
        self.figure_box.setContentsMargins(0, 0, 0, 0)
        self.figure_box.addWidget(self.accuracy)
        self.figure_box.addWidget(self.basis)
        self.details = QLabel(panel)
        self.details.setFont(style.figure_font(-0.5))
        self.details.setWordWrap(True)
        self.chips: dict[str, QToolButton] = {}
        self.chip_box = QHBoxLayout()
        self.chip_box.setSpacing(4)
        self.chip_box.setContentsMargins(0, 0, 0, 0)
        for judgement in style.FLAGGED_JUDGEMENTS:
            chip = QToolButton(panel)
            chip.setCursor(Qt.CursorShape.PointingHandCursor)
            chip.setFont(style.figure_font(0, bold=True))
            chip.setAutoRaise(True)
            chip.clicked.connect(
                lambda _checked=False, c=color, j=judgement: panel.judgement_clicked.emit(c, j)
            )
            self.chips[judgement] = chip
            self.chip_box.addWidget(chip)


class SummaryPanel(QWidget):
    """Signals:
    judgement_clicked(str color, str judgement): a count was clicked, e.g. ("white", "mistake").
    """

    judgement_clicked = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kind = "chess"
        self._summaries: dict[str, dict[str, Any] | None] = {"white": None, "black": None}
        self._names = ("", "")
        self._strengths: dict[str, dict[str, Any] | str | None] = {}
        self._bases: dict[str, SideBasis] = {}
        self._rows = {color: _SideRow(self, color) for color in _SIDES}
        self.state_label = QLabel(self)
        self.state_label.setObjectName("analysis-state")
        self.state_label.setWordWrap(True)
        self.notice_label = QLabel(self)
        self.notice_label.setObjectName("trust-notice")
        self.notice_label.setWordWrap(True)
        self.notice_label.hide()
        self._phase = "idle"
        self._partial = False
        self._rough = False
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(8, 6, 8, 6)
        self._grid.setHorizontalSpacing(8)
        self._grid.setVerticalSpacing(1)
        self._grid.setColumnStretch(1, 1)
        self._place_rows()
        self.set_summary("chess", None, None, ("", ""))

    # ------------------------------------------------------------------------------- API

    def set_summary(
        self,
        kind: str,
        white: dict[str, Any] | None,
        black: dict[str, Any] | None,
        names: tuple[str, str],
        strengths: dict[str, dict[str, Any] | str | None] | None = None,
        bases: dict[str, SideBasis] | None = None,
    ) -> None:
        """Show both sides' figures (None: not analysed yet). names = (White's, Black's);
        strengths: each side's strength estimate from the moves (`report.strength_by_side`), or
        why it has none; bases: what each side's figures stand on, said beside them until final."""
        order_changed = kind != self._kind
        self._kind = kind
        self._summaries = {"white": white, "black": black}
        self._names = names
        self._strengths = dict(strengths or {})
        self._bases = dict(bases or {})
        if order_changed:
            self._place_rows()
        for color in _SIDES:
            self._fill_row(self._rows[color], self._summaries[color])

    def set_state(self, text: str, phase: str, coverage: Coverage | None, trust: Trust | None) -> None:
        """The analysis' state and coverage under the figures; the trust notice when labels are withheld."""
        self._phase = phase
        self._partial = coverage is not None and coverage.analysed and not coverage.complete
        extra = coverage.left_out_text() if coverage is not None else None
        self.state_label.setText(text + (f" ({extra})" if extra else ""))
        tip = coverage.text() if coverage is not None else ""
        if self._partial:
            tip += "\nThe figures cover the analysed moves only; the grey bands in the graph were not analysed."
        self.state_label.setToolTip(tip.strip())
        self._rough = trust is not None and not trust.labels and coverage is not None and coverage.analysed
        if self._rough and trust is not None:
            self.notice_label.setText(f"Rough estimate: {trust.reason}. {trust.remedy}")
            self.notice_label.show()
        else:
            self.notice_label.hide()
        self._style_state()

    def state_text(self) -> str:
        return self.state_label.text()

    def notice_text(self) -> str:
        return self.notice_label.text() if not self.notice_label.isHidden() else ""

    def _style_state(self) -> None:
        theme = style.theme_for(self)
        warn, error = theme.warning_text, theme.error_text
        colour = error if self._phase == "failed" else (warn if self._partial or self._phase == "stopped" else theme.text_muted)
        weight = "600" if colour != theme.text_muted else "normal"
        _set_style_sheet(self.state_label, f"color: {colour}; font-weight: {weight};")
        _set_style_sheet(self.notice_label, f"color: {warn};")

    def count_button(self, color: str, judgement: str) -> QToolButton:
        """The clickable count of `judgement` for `color` ("white"/"black")."""
        return self._rows[color].chips[judgement]

    def accuracy_text(self, color: str) -> str:
        """The figure, without what it stands on (`basis_text`)."""
        return self._rows[color].accuracy.text()

    def basis_text(self, color: str) -> str:
        """What `color`'s figures stand on, beside them ('29/39 moves · pass 1 of 3'); '' when final."""
        row = self._rows[color]
        return row.basis.text() if not row.basis.isHidden() else ""

    def details_text(self, color: str) -> str:
        return self._rows[color].details.text()

    def details_tooltip(self, color: str) -> str:
        return self._rows[color].details.toolTip()

    # ------------------------------------------------------------------------------ layout

    def _place_rows(self) -> None:
        """Chess lists White first, Go lists Black first (the player who starts an even game)."""
        order = game_support(self._kind).player_order
        for index, color in enumerate(order):
            row = self._rows[color]
            top = index * 2
            for widget in (row.dot, row.name, row.details):
                self._grid.removeWidget(widget)
            self._grid.removeItem(row.chip_box)
            self._grid.removeItem(row.figure_box)
            self._grid.addWidget(row.dot, top, 0, Qt.AlignmentFlag.AlignVCenter)
            self._grid.addWidget(row.name, top, 1)
            self._grid.addLayout(row.figure_box, top, 2)
            self._grid.addLayout(row.chip_box, top, 3)
            self._grid.addWidget(row.details, top + 1, 1, 1, 3)
            if index == 0:
                self._grid.setRowMinimumHeight(top + 1, 0)
        self._grid.setRowMinimumHeight(2, 0)
        self._grid.removeWidget(self.state_label)
        self._grid.removeWidget(self.notice_label)
        self._grid.addWidget(self.state_label, 4, 1, 1, 3)
        self._grid.addWidget(self.notice_label, 5, 1, 1, 3)

    def _fill_row(self, row: _SideRow, summary: dict[str, Any] | None) -> None:
        theme = style.theme_for(self)
        default = "White" if row.color == "white" else "Black"
        name = self._names[0 if row.color == "white" else 1] or default
        row.name.setText(name)
        row.name.setToolTip(f"{default}: {name}")
        row.accuracy.setText(_number(summary.get(headline_field(self._kind, summary)) if summary else None, 1, "%"))
        row.accuracy.setToolTip(accuracy_tooltip(self._kind, summary))
        basis = self._bases.get(row.color)
        basis_text = basis.text() if basis is not None and summary is not None else ""
        row.basis.setText(basis_text)
        row.basis.setVisible(bool(basis_text))
        row.basis.setToolTip(
            "What this side's figures stand on: its moves analysed so far"
            + (" and the pass of the review they come from" if basis is not None and basis.passes else "")
            + ". They change until the analysis is done."
        )
        _set_style_sheet(row.basis, f"color: {theme.warning_text};")
        too_few = basis is not None and summary is not None and not basis.enough
        if summary is None:
            row.details.setText("not analysed yet")
        elif too_few:
            assert basis is not None
            row.details.setText(basis.too_few_text())
        elif summary.get("accuracy") is None and not summary.get("counts") and summary.get("moves"):
            row.details.setText("rough estimate: no labels or accuracy")
        else:
            strength = self._estimate(row.color)
            row.details.setText(chess_details(summary, strength) if self._averages_losses() else go_details(summary, strength))
        row.details.setToolTip(self._details_tooltip(summary, row.color))
        _set_style_sheet(row.details, f"color: {theme.text_muted};")
        counts = (summary or {}).get("counts") or {}
        for judgement, chip in row.chips.items():
            count = counts.get(judgement)
            symbol = style.judgement_symbol(judgement)
            chip.setText(f"{count if count is not None else '–'} {symbol}")
            chip.setEnabled(bool(count))
            title = style.JUDGEMENT_TITLES[judgement].lower()
            chip.setToolTip(f"{count or 0} × {title}: click to go through them")
            _set_style_sheet(chip, self._chip_style(judgement, theme))

    def _averages_losses(self) -> bool:
        """Whether a side's loss is the mean of its moves' losses (chess) rather than weighted by difficulty (Go)."""
        averaging = game_support(self._kind).scores.averaging
        match averaging:
            case "mean":
                return True
            case "weighted":
                return False
            case _:
                assert_never(averaging)

    def _details_tooltip(self, summary: dict[str, Any] | None, color: str) -> str:
        if summary is None:
            return ""
        if self._averages_losses():
            headline = headline_field(self._kind, summary)
            accuracies = [headline] + [field for field in game_support(self._kind).scores.accuracy_names if field != headline]
            figures = "".join(
                f"{_capitalised(accuracy_name(self._kind, field))}: {_number(summary.get(field), 1, '%')}\n"
                for field in accuracies
            ) + (
                f"Average centipawn loss: {_number(summary.get('acpl'), 1)}\n"
                f"Its standard deviation: {_number(summary.get('stdcpl'), 1)}"
            )
        else:
            figures = (
                f"KaTrain accuracy: {_number(summary.get('accuracy'), 1, '%')}\n"
                f"Weighted points lost per move: {_number(summary.get('weighted_loss'), 2)}\n"
                f"Mean points lost per move: {_number(summary.get('mean_loss'), 2)}\n"
                f"Engine's top move played: {_share(summary.get('top_move_match'))}\n"
                f"{top5_tooltip(summary)}"
            )
        return f"{figures}\n{self._strength_tooltip(color)}"

    def _estimate(self, color: str) -> dict[str, Any] | None:
        value = self._strengths.get(color)
        return value if isinstance(value, dict) else None

    def _strength_tooltip(self, color: str) -> str:
        strength = self._estimate(color)
        if text := strength_text(self._kind, strength):
            assert strength is not None
            return f"Strength from the moves: {text}\n{strength.get('basis') or ''}".strip()
        reason = self._strengths.get(color)
        return f"Strength from the moves: none ({reason if isinstance(reason, str) else 'no model applies'})"

    @staticmethod
    def _chip_style(judgement: str, theme: style.Theme) -> str:
        base = style.judgement_color(judgement)
        text = base.darker(125) if not theme.dark else base.lighter(110)
        muted = QColor(theme.text_muted)

        def rgba(color: QColor, alpha: float) -> str:
            return f"rgba({color.red()}, {color.green()}, {color.blue()}, {alpha})"

        return (
            "QToolButton {"
            f" color: {text.name()}; background: {rgba(base, 0.13)};"
            f" border: 1px solid {rgba(base, 0.55)}; border-radius: 9px; padding: 1px 8px; }}"
            f"QToolButton:hover {{ background: {rgba(base, 0.28)}; }}"
            f"QToolButton:pressed {{ background: {rgba(base, 0.4)}; }}"
            f"QToolButton:disabled {{ color: {rgba(muted, 0.8)}; background: transparent;"
            f" border: 1px solid {rgba(muted, 0.3)}; }}"
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            for color in _SIDES:
                self._fill_row(self._rows[color], self._summaries[color])
            self._style_state()
        super().changeEvent(event)
