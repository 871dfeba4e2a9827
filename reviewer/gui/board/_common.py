"""Pieces shared by both boards: the widget scaffolding, the wheel-to-steps rule and the badge."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPaintEvent, QPen, QPixmap, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from reviewer.gui.common import style

WHEEL_NOTCH = 120  # angleDelta units of one mouse-wheel notch


class WheelStepper:
    """Turns wheel deltas (notched mice and smooth touchpads alike) into whole steps.

    Scrolling down (towards the user) steps forward (+1), up steps back (-1), as on lichess.
    """

    def __init__(self) -> None:
        self._accumulated = 0

    def steps(self, event: QWheelEvent) -> int:
        delta = event.angleDelta().y() or event.angleDelta().x()
        if delta == 0:
            return 0
        if self._accumulated and (delta > 0) != (self._accumulated > 0):
            self._accumulated = 0  # direction changed: start afresh
        self._accumulated += delta
        notches = int(self._accumulated / WHEEL_NOTCH)
        self._accumulated -= notches * WHEEL_NOTCH
        return -notches


def draw_badge(painter: QPainter, center: QPointF, radius: float, judgement: str) -> None:
    """A lichess-style round badge: the judgement's colour with its symbol in white."""
    symbol = style.judgement_symbol(judgement, show_best=True)
    fill = style.judgement_color(judgement)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    shadow = QColor(0, 0, 0, 70)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(shadow)
    painter.drawEllipse(center + QPointF(0, radius * 0.12), radius * 1.04, radius * 1.04)
    painter.setBrush(QBrush(fill))
    painter.setPen(QPen(QColor(255, 255, 255, 235), max(1.0, radius * 0.13)))
    painter.drawEllipse(center, radius, radius)
    if symbol:
        font = style.pixel_font(radius * (1.15 if len(symbol) == 1 else 0.95), bold=True)
        painter.setFont(font)
        painter.setPen(QColor("#ffffff"))
        box = QRectF(center.x() - radius, center.y() - radius, 2 * radius, 2 * radius)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, symbol)
    painter.restore()


class Layer:
    """Marks that change less often than the board repaints (a piece dragged, a ghost stone under
    the mouse), drawn once into a transparent pixmap per `key` and size, then blitted."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._pixmap: QPixmap | None = None

    def draw(self, painter: QPainter, widget: QWidget, key: tuple[Any, ...], paint: Callable[[QPainter], None]) -> None:
        ratio = widget.devicePixelRatioF()
        full_key = (key, widget.width(), widget.height(), ratio)
        if self._pixmap is None or full_key != self._key:
            pixmap = QPixmap(max(1, round(widget.width() * ratio)), max(1, round(widget.height() * ratio)))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            layer_painter = QPainter(pixmap)
            try:
                paint(layer_painter)
            finally:
                layer_painter.end()
            self._pixmap, self._key = pixmap, full_key
        painter.drawPixmap(0, 0, self._pixmap)


class BoardWidget(QWidget):
    """What both boards share: a height-for-width widget that fills its whole rect, steps with the
    mouse wheel, and paints a cached background pixmap with the marks of the moment on top.

    A board gives `_background_state` (what else its background depends on), `_paint_background`
    (drawn once per size, theme and state into the pixmap) and `_paint_marks` (every paint).

    Signals:
        wheel_steps(int): +1 per wheel notch towards the user (forward), -1 away (back).
    """

    wheel_steps = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._show_coordinates = True
        self._wheel = WheelStepper()
        self._background: QPixmap | None = None
        self._background_key: tuple[Any, ...] | None = None
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # a click takes the keyboard from a text box
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setMinimumSize(160, 160)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)  # it fills its whole rect

    def _background_state(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def _paint_background(self, painter: QPainter, theme: style.Theme) -> None:
        raise NotImplementedError

    def _paint_marks(self, painter: QPainter, theme: style.Theme) -> None:
        raise NotImplementedError

    def hasHeightForWidth(self) -> bool:
        return True

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = self._wheel.steps(event)
        for _ in range(abs(steps)):
            self.wheel_steps.emit(1 if steps > 0 else -1)
        event.accept()

    def paintEvent(self, event: QPaintEvent) -> None:
        theme = style.theme_for(self)
        painter = QPainter(self)
        try:
            painter.drawPixmap(0, 0, self._background_pixmap(theme))
            self._paint_marks(painter, theme)
        finally:
            painter.end()

    def _background_pixmap(self, theme: style.Theme) -> QPixmap:
        """The window colour around the board and the board's background: drawn again only when
        the size, screen scale, theme, window colour or `_background_state` changes."""
        ratio = self.devicePixelRatioF()
        window_colour = self.palette().color(self.backgroundRole())
        key = (window_colour.rgba(), self.width(), self.height(), ratio, theme, *self._background_state())
        if self._background is None or key != self._background_key:
            pixmap = QPixmap(max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio)))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(window_colour)
            painter = QPainter(pixmap)
            try:
                self._paint_background(painter, theme)
            finally:
                painter.end()
            self._background, self._background_key = pixmap, key
        return self._background
