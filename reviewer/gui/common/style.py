"""The one palette of the app: judgement colours and symbols, light and dark themes, fonts.

Judgement names are those of SCORING.md: book, best, good, inaccuracy, mistake, blunder.
Chess colours follow lichess (inaccuracy blue, mistake orange, blunder red); Go points lost are
coloured by KaTrain's six classes (12 / 6 / 3 / 1.5 / 0.5 / 0 points).

Widgets ask `theme_for(widget)` for their colours, so that switching the application palette with
`apply_palette(app, dark)` restyles every widget on its next paint.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPalette, QPen, QRadialGradient
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget

# The judgement data is plain Python (presenters use it without Qt); widgets read it here as `style.X`.
from reviewer.gui.presenters.judgements import FLAGGED_JUDGEMENTS as FLAGGED_JUDGEMENTS
from reviewer.gui.presenters.judgements import JUDGEMENT_COLORS as JUDGEMENT_COLORS
from reviewer.gui.presenters.judgements import JUDGEMENT_SYMBOLS as JUDGEMENT_SYMBOLS
from reviewer.gui.presenters.judgements import JUDGEMENT_TITLES as JUDGEMENT_TITLES
from reviewer.gui.presenters.judgements import JUDGEMENTS as JUDGEMENTS
from reviewer.gui.presenters.judgements import judgement_hex

# KaTrain's colour classes for Go: a move that lost at least `threshold` points takes the colour.
KATRAIN_LOSS_THRESHOLDS: tuple[float, ...] = (12.0, 6.0, 3.0, 1.5, 0.5, 0.0)
KATRAIN_LOSS_COLORS: tuple[str, ...] = (
    "#72216b",  # ≥ 12: purple
    "#cc0000",  # ≥ 6: red
    "#e6661a",  # ≥ 3: orange
    "#e3d72e",  # ≥ 1.5: yellow
    "#abe62e",  # ≥ 0.5: light green
    "#1e9600",  # < 0.5: green
)


def judgement_color(judgement: str | None) -> QColor:
    """The colour of a judgement; a neutral grey for None or an unknown name."""
    return QColor(judgement_hex(judgement))


def judgement_symbol(judgement: str | None, show_best: bool = False) -> str:
    """'?!', '?', '??' for flagged moves; '!' for best only when asked; '' otherwise."""
    if judgement == "best" and not show_best:
        return ""
    return JUDGEMENT_SYMBOLS.get(judgement or "", "")


def go_loss_class(points_lost: float) -> int:
    """KaTrain's class of a Go move by points lost: 0 (≥ 12, worst) … 5 (< 0.5, fine)."""
    for index, threshold in enumerate(KATRAIN_LOSS_THRESHOLDS):
        if points_lost >= threshold:
            return index
    return len(KATRAIN_LOSS_THRESHOLDS) - 1


def go_loss_color(points_lost: float) -> QColor:
    return QColor(KATRAIN_LOSS_COLORS[go_loss_class(points_lost)])


@dataclass(frozen=True)
class Theme:
    """Colours for the custom-painted widgets, one instance per light/dark palette."""

    dark: bool
    # chess board (lichess brown)
    square_light: str = "#f0d9b5"
    square_dark: str = "#b58863"
    last_move: str = "#9bc70066"  # #RRGGBBAA
    check: str = "#ff0000"
    arrow_best: str = "#15781b"
    # Go board
    wood: str = "#dcb35c"
    wood_edge: str = "#c9a04a"
    grid: str = "#2b2012"
    # graph
    graph_background: str = "#e9e6e1"
    graph_white_area: str = "#fdfdfc"
    graph_black_area: str = "#403d39"
    graph_curve: str = "#5a5754"
    graph_mid_line: str = "#9a968f"
    graph_cursor: str = "#d85000"
    graph_axis: str = "#6e6a64"
    # move list and panels
    text: str = "#262421"
    text_muted: str = "#6b665f"  # ≥ 4.5:1 on the window and the base colours (WCAG AA)
    row_alternate: str = "#00000008"
    current_background: str = "#3692e7"
    current_text: str = "#ffffff"
    hover_background: str = "#3692e730"
    variation_text: str = "#6c6861"
    panel_background: str = "#ffffff"
    # the explorer's win/draw/loss bar: each part ≥ 3:1 on the base colour, but White's wins in the
    # light theme (white on white), which the bar's outline (text_muted) bounds
    results_white: str = "#ffffff"
    results_draw: str = "#8f8a83"
    results_black: str = "#3a3733"
    # messages and warnings, readable on the window colour
    info_text: str = "#17609f"
    warning_text: str = "#8a5300"
    error_text: str = "#b3261e"


LIGHT_THEME = Theme(dark=False)
DARK_THEME = Theme(
    dark=True,
    graph_background="#2b2926",
    graph_white_area="#d7d4cf",
    graph_black_area="#67625b",  # Black's lead: darker than White's area, yet not the background's colour
    graph_curve="#a8a49c",
    graph_mid_line="#5c5953",
    graph_cursor="#ff7a2e",
    graph_axis="#9a968f",
    text="#dedbd6",
    text_muted="#99948c",
    row_alternate="#ffffff07",
    current_background="#2f6fb0",
    current_text="#ffffff",
    hover_background="#3692e738",
    variation_text="#a6a198",
    panel_background="#262421",
    results_white="#e8e6e3",
    results_draw="#a8a49c",
    results_black="#77726b",  # lighter than the background, darker than the draws
    info_text="#5aa9f0",
    warning_text="#f0a640",
    error_text="#ff7b7b",
)


def color(value: str) -> QColor:
    """'#RRGGBB' or '#RRGGBBAA' (alpha last, as written in Theme) → QColor."""
    if len(value) == 9 and value.startswith("#"):
        result = QColor(value[:7])
        result.setAlpha(int(value[7:], 16))
        return result
    return QColor(value)


def is_dark_palette(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def theme_for(widget: QWidget | None = None) -> Theme:
    """The theme matching the widget's palette (or the application's)."""
    if widget is not None:
        palette = widget.palette()
    else:
        app = QApplication.instance()
        palette = app.palette() if isinstance(app, QApplication) else QPalette()
    return DARK_THEME if is_dark_palette(palette) else LIGHT_THEME


def make_palette(dark: bool) -> QPalette:
    palette = QPalette()
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    if dark:
        colors = {
            role.Window: "#262421",
            role.WindowText: "#dedbd6",
            role.Base: "#1f1d1b",
            role.AlternateBase: "#2c2a27",
            role.ToolTipBase: "#3a3733",
            role.ToolTipText: "#eeeeee",
            role.PlaceholderText: "#7f7a73",
            role.Text: "#dedbd6",
            role.Button: "#33302c",
            role.ButtonText: "#dedbd6",
            role.BrightText: "#ff6b6b",
            role.Light: "#4a4641",
            role.Midlight: "#3d3a36",
            role.Mid: "#2f2c29",
            role.Dark: "#1a1917",
            role.Shadow: "#000000",
            role.Highlight: "#2f6fb0",
            role.HighlightedText: "#ffffff",
            role.Link: "#5aa9f0",
            role.LinkVisited: "#9d84e0",
        }
        disabled = "#6d6963"
    else:
        colors = {
            role.Window: "#f3f1ee",
            role.WindowText: "#262421",
            role.Base: "#ffffff",
            role.AlternateBase: "#f6f5f3",
            role.ToolTipBase: "#fffef6",
            role.ToolTipText: "#262421",
            role.PlaceholderText: "#98938c",
            role.Text: "#262421",
            role.Button: "#f8f7f5",
            role.ButtonText: "#262421",
            role.BrightText: "#c62828",
            role.Light: "#ffffff",
            role.Midlight: "#ebe9e6",
            role.Mid: "#cfcbc5",
            role.Dark: "#a29d95",
            role.Shadow: "#5e5a55",
            role.Highlight: "#3692e7",
            role.HighlightedText: "#ffffff",
            role.Link: "#1b78d0",
            role.LinkVisited: "#6b4fbb",
        }
        disabled = "#a7a29b"
    for color_role, value in colors.items():
        palette.setColor(color_role, QColor(value))
    for color_role in (role.WindowText, role.Text, role.ButtonText):
        palette.setColor(group.Disabled, color_role, QColor(disabled))
    return palette


class _FusionStyle(QProxyStyle):
    """Fusion, with a check box's square outlined so that it shows (3:1 on the window, a disabled
    one fainter): Fusion outlines it in the window colour darkened, which on the dark theme is no
    line at all (a player saw "My games" and "colours swapped too" as bare words, not boxes to tick)."""

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter,
                      widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element == QStyle.PrimitiveElement.PE_IndicatorCheckBox:
            enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
            dark = is_dark_palette(option.palette)
            outline = (DARK_THEME.text_muted if dark else "#86817a") if enabled else ("#4f4b46" if dark else "#c9c5bf")
            painter.save()
            painter.setPen(QPen(QColor(outline), 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
            painter.restore()


def apply_palette(app: QApplication, dark: bool) -> None:
    """Switch the whole application to the light or dark palette (Fusion style for consistency)."""
    if not isinstance(app.style(), _FusionStyle):
        app.setStyle(_FusionStyle())
    app.setPalette(make_palette(dark))
    refresh_style_sheets(app)


def ui_font(point_delta: float = 0.0, bold: bool = False) -> QFont:
    """The application font, larger or smaller by `point_delta` points."""
    app = QApplication.instance()
    font = QFont(app.font()) if isinstance(app, QApplication) else QFont()
    size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    font.setPointSizeF(max(6.0, size + point_delta))
    font.setBold(bold)
    return font


def figure_font(point_delta: float = 0.0, bold: bool = False) -> QFont:
    """A font for numbers that line up (tabular figures) — accuracies, evaluations."""
    font = ui_font(point_delta, bold)
    font.setFeature(QFont.Tag("tnum"), 1)
    return font


def pixel_font(pixel_size: float, bold: bool = False) -> QFont:
    """A font sized in pixels, for text drawn on boards that scale with the widget."""
    font = ui_font(0, bold)
    font.setPixelSize(max(1, round(pixel_size)))
    return font


def paint_stone_icon(painter: QPainter, center: QPointF, radius: float, stone: str, dark: bool) -> None:
    """A small shaded Go stone (or side marker) that reads as black or white on either theme.

    On a dark background a flat black disc would look like a hole with an outline: the black
    stone gets the board stones' soft highlight and a faint light rim instead.
    """
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    highlight = center + QPointF(-radius * 0.35, -radius * 0.4)
    gradient = QRadialGradient(center, radius * 1.05, highlight)
    if stone == "black" and dark:  # a filled dark-grey ball: darker than any white, never a ring
        gradient.setColorAt(0.0, QColor("#9a9a9a"))
        gradient.setColorAt(0.5, QColor("#4a4a4a"))
        gradient.setColorAt(1.0, QColor("#262626"))
        rim = QColor(255, 255, 255, 150)  # the dark window's own colour would swallow its edge
    elif stone == "black":
        gradient.setColorAt(0.0, QColor("#5e5e5e"))
        gradient.setColorAt(0.45, QColor("#262626"))
        gradient.setColorAt(1.0, QColor("#050505"))
        rim = QColor(0, 0, 0, 200)
    else:
        gradient.setColorAt(0.0, QColor("#ffffff"))
        gradient.setColorAt(0.6, QColor("#eeebe5"))
        gradient.setColorAt(1.0, QColor("#c4c0b8"))
        rim = QColor(0, 0, 0, 90) if dark else QColor("#77726b")
    painter.setPen(QPen(rim, max(0.8, radius * 0.16)))
    painter.setBrush(QBrush(gradient))
    painter.drawEllipse(center, radius, radius)
    painter.restore()


# ------------------------------------------------------------------------------ readability
WCAG_TEXT_CONTRAST = 4.5  # WCAG 2.x, level AA, normal text


def relative_luminance(value: QColor) -> float:
    """WCAG's relative luminance of an opaque colour, 0 (black) … 1 (white)."""

    def channel(component: float) -> float:
        return component / 12.92 if component <= 0.04045 else ((component + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(value.redF()) + 0.7152 * channel(value.greenF()) + 0.0722 * channel(value.blueF())


def contrast_ratio(foreground: QColor, background: QColor) -> float:
    """WCAG's contrast ratio of two colours (1 … 21); a translucent foreground is laid over the background."""
    foreground = blend(foreground, background)
    lighter, darker = sorted((relative_luminance(foreground), relative_luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def blend(top: QColor, bottom: QColor) -> QColor:
    """`top` painted over the opaque `bottom`."""
    alpha = top.alphaF()
    if alpha >= 1.0:
        return QColor(top.red(), top.green(), top.blue())
    return QColor.fromRgbF(
        top.redF() * alpha + bottom.redF() * (1 - alpha),
        top.greenF() * alpha + bottom.greenF() * (1 - alpha),
        top.blueF() * alpha + bottom.blueF() * (1 - alpha),
    )


def refresh_style_sheets(app: QApplication) -> None:
    """Widgets with a style sheet keep the palette they had when it was applied: after the
    application's palette changes, apply each sheet again so that its text takes the new colours
    (else a dark theme leaves dark text on a dark toolbar)."""
    # Only widgets of windows that exist now: allWidgets() also lists ones whose deletion is pending.
    widgets = [w for top in app.topLevelWidgets() for w in (top, *top.findChildren(QWidget))]
    for widget in widgets:
        sheet = widget.styleSheet()
        if sheet:
            widget.setStyleSheet("")
            widget.setStyleSheet(sheet)


def themed_html(html: str) -> str:
    """Rich text with its muted parts (`color:gray`) in the application theme's muted colour,
    which is readable on both themes' backgrounds (plain grey is not, on either)."""
    muted = theme_for(None).text_muted
    return html.replace("color:gray", f"color:{muted}").replace("color: gray", f"color: {muted}")
