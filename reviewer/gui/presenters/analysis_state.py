"""The state of the analysis, always on show: running (with its ETA), stopped, done, failed (why)."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, replace
from typing import Literal

from reviewer.core.coverage import Coverage

Phase = Literal["idle", "running", "stopped", "done", "failed"]


@dataclass(frozen=True)
class PassProgress:
    """Where a review in passes is: pass `index` of `count`, `done` of the `total` positions it searches."""

    index: int
    count: int
    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class AnalysisState:
    phase: Phase = "idle"
    done: int = 0  # positions
    total: int = 0
    eta_s: float | None = None  # of the whole run, or of the current pass when `passes` is set
    reason: str = ""  # why it failed
    passes: PassProgress | None = None  # a review in passes: the pass under way

    def running(self, done: int, total: int, eta_s: float | None, passes: PassProgress | None = None) -> AnalysisState:
        return AnalysisState("running", done, total, eta_s, passes=passes)

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
        passes = state.passes
        if passes is not None and passes.count > 1:
            if passes.index < passes.count:
                eta += " (this pass)"
            return f"Analysing… pass {passes.index} of {passes.count}: {passes.done} of {passes.total} positions{eta}"
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


def progress_format(done: int, total: int, stage: str | None = None, passes: PassProgress | None = None) -> str:
    """The progress bar's text, short enough for one line: '34/80 positions'; in passes, the pass
    and its own count: 'pass 2/3 · 14/23' (the pass's budget is in the tooltip)."""
    if passes is not None and passes.count > 1:
        return f"pass {passes.index}/{passes.count} · {passes.done}/{passes.total}"
    return f"{done}/{total} positions"


def progress_tooltip(done: int, total: int, stage: str | None = None, passes: PassProgress | None = None) -> str:
    """Everything the bar's text leaves out."""
    lines = [f"{done} of {total} positions have a figure"]
    if passes is not None and passes.count > 1:
        lines.insert(0, f"Pass {passes.index} of {passes.count}: {passes.done} of the {passes.total} positions it searches")
    if stage:
        lines.append(f"Figures now from the {stage}")
    return "\n".join(lines)


def rate_text(positions_per_s: float | None) -> str:
    """'2.1 pos/s' beside the progress bar ('12 s/pos' when slower than one a second); nothing until
    the speed is known."""
    if not positions_per_s or positions_per_s <= 0 or math.isinf(positions_per_s):
        return ""
    if positions_per_s >= 1.0:
        return f"{positions_per_s:.1f} pos/s"
    seconds = 1.0 / positions_per_s
    return f"{seconds:.1f} s/pos" if seconds < 10 else f"{seconds:.0f} s/pos"


class RateWindow:
    """Positions a second over the last `size` completed positions, from a running count of them;
    None until `least` positions completed in the window (a rate from one or two is noise). A count
    that goes down (a new pass) starts again."""

    def __init__(self, size: int = 12, least: int = 3) -> None:
        self.least = least
        self._samples: deque[tuple[int, float]] = deque(maxlen=size + 1)

    def reset(self) -> None:
        self._samples.clear()

    def add(self, completed: int, at_s: float) -> None:
        if self._samples and completed < self._samples[-1][0]:
            self._samples.clear()
        if self._samples and completed == self._samples[-1][0]:
            return
        self._samples.append((completed, at_s))

    def rate(self) -> float | None:
        if len(self._samples) < 2:
            return None
        (first, started), (last, ended) = self._samples[0], self._samples[-1]
        if last - first < self.least or ended <= started:
            return None
        return (last - first) / (ended - started)
