"""Pieces shared by both boards: the wheel-to-steps rule and the judgement badge."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QWheelEvent

from reviewer.gui import style

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
