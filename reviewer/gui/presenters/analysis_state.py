"""The state of the analysis, always on show: running (with its ETA), stopped, done, failed (why)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from reviewer.core.coverage import Coverage

Phase = Literal["idle", "running", "stopped", "done", "failed"]


@dataclass(frozen=True)
class AnalysisState:
    phase: Phase = "idle"
    done: int = 0  # positions
    total: int = 0
    eta_s: float | None = None
    reason: str = ""  # why it failed

    def running(self, done: int, total: int, eta_s: float | None) -> AnalysisState:
        return AnalysisState("running", done, total, eta_s)

    def finished(self, completed: bool) -> AnalysisState:
        if self.phase == "failed":
            return self
        return replace(self, phase="done" if completed else "stopped", eta_s=None)

    def failed(self, reason: str) -> AnalysisState:
        return replace(self, phase="failed", reason=reason, eta_s=None)


def clock(seconds: float | None) -> str:
    """'0:21', '1:02:03'; '?' when unknown."""
    if seconds is None or math.isinf(seconds) or math.isnan(seconds):
        return "?"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def state_text(state: AnalysisState, coverage: Coverage | None) -> str:
    """One line for the summary and the status bar.

    'Analysing… 12 of 69 positions · ETA 0:21', 'Stopped · analysed 23 of 68 moves',
    'Done · all 68 moves analysed', 'Failed: no chess engine found', 'Not analysed'.
    """
    moves = coverage.moves_text() if coverage is not None else "not analysed"
    if state.phase == "running":
        eta = f" · ETA {clock(state.eta_s)}" if state.eta_s is not None else " · ETA …"
        return f"Analysing… {state.done} of {state.total} positions{eta}"
    if state.phase == "stopped":
        return f"Stopped · {moves}"
    if state.phase == "failed":
        return f"Failed: {state.reason}" + (f" · {moves}" if coverage is not None and coverage.analysed else "")
    if state.phase == "done":
        return f"Done · {moves}"
    if coverage is None or not coverage.analysed:
        return "Not analysed"
    return moves[0].upper() + moves[1:]


def progress_format(done: int, total: int, stage: str | None = None) -> str:
    """The progress bar's text: '34/80 positions', '34/80 positions · pass 2 of 3'."""
    return f"{done}/{total} positions" + (f" · {stage}" if stage else "")


def rate_text(positions_per_s: float | None) -> str:
    """'2.1 pos/s' beside the progress bar; nothing until the speed is known."""
    return f"{positions_per_s:.1f} pos/s" if positions_per_s else ""
