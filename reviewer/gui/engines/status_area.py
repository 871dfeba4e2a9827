"""The status bar's permanent part: the analysis state, the engine, progress, speed and ETA."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar, QWidget

from reviewer.gui.engines.workers import AnalysisProgress
from reviewer.gui.presenters.analysis_state import progress_format, progress_tooltip, rate_text

PROGRESS_BAR_WIDTH = 190


class StatusArea:
    """The widgets it adds to `status`; the window keeps them reachable by their old names."""

    def __init__(self, status: QStatusBar, parent: QWidget) -> None:
        status.setSizeGripEnabled(True)
        self.engine_label = QLabel(parent)
        self.engine_label.setObjectName("status-engine")
        self.progress_bar = QProgressBar(parent)
        self.progress_bar.setFixedWidth(PROGRESS_BAR_WIDTH)
        self.progress_bar.setMaximumHeight(18)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.progress_bar.hide()
        self.rate_label = QLabel(parent)
        self.eta_label = QLabel(parent)
        self.state_label = QLabel(parent)
        self.state_label.setObjectName("status-state")
        for widget in (self.state_label, self.engine_label, self.progress_bar, self.rate_label, self.eta_label):
            status.addPermanentWidget(widget)

    def show_progress(self, progress: AnalysisProgress) -> None:
        self.engine_label.setText(progress.engine_name)
        passes = progress.passes
        done, total = (passes.done, passes.total) if passes is not None else (progress.done, progress.total)
        self.progress_bar.setMaximum(max(1, total))
        self.progress_bar.setValue(min(done, max(1, total)))
        text = progress_format(progress.done, progress.total, progress.stage, passes)
        metrics = self.progress_bar.fontMetrics()  # one line, inside the bar, whatever the font
        self.progress_bar.setFormat(metrics.elidedText(text, Qt.TextElideMode.ElideRight, PROGRESS_BAR_WIDTH - 12))
        self.progress_bar.setToolTip(progress_tooltip(progress.done, progress.total, progress.stage, passes))
        self.progress_bar.show()
        self.rate_label.setText(rate_text(progress.positions_per_s))
        self.eta_label.setText("")

    def analysis_ended(self) -> None:
        self.rate_label.setText("")
        self.eta_label.setText("")
        self.progress_bar.hide()

    def new_game(self) -> None:
        self.progress_bar.hide()
        self.engine_label.setText("")  # no engine has analysed this game yet
