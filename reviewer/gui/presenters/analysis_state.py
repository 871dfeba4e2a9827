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
    cached: int = 0  # positions of the pass the cache answered (not in `done` or `total`)


@dataclass(frozen=True)
class AnalysisState:
    phase: Phase = "idle"
    done: int = 0  # positions
    total: int = 0
    eta_s: float | None = None  # of the whole review, every pass still to come included
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


@dataclass
class _PassTiming:
    positions: int
    budget: float  # per position, in the units of every pass of the review (nodes, visits)
    started_s: float
    first_done: int = 0  # counted before this pass searched anything (figures from the cache)
    done: int = 0
    last_s: float | None = None
    # The first count of a searched position, and when: the speed is measured from there, so that
    # what the pass did once before its first position (an engine's start, a network's first read)
    # is not priced into every position to come.
    first_searched: int | None = None
    first_searched_s: float = 0.0

    def count(self, done: int, at_s: float) -> None:
        self.done = max(self.done, done)
        self.last_s = at_s
        if self.first_searched is None and self.done > self.first_done:
            self.first_searched, self.first_searched_s = self.done, at_s

    def seconds_per_position(self, least: int) -> float | None:
        if self.first_searched is None or self.last_s is None:
            return None
        searched = self.done - self.first_searched
        if searched < least or self.last_s <= self.first_searched_s:
            return None
        return (self.last_s - self.first_searched_s) / searched


class ReviewEta:
    """The time left of a whole review, from the timings of the positions searched so far.

    A position of a pass costs that pass's budget (nodes, visits): the seconds a unit of budget
    takes are measured over the current pass (its mean from its first searched position on, once
    `least` more are searched), else over the last pass that measured them, and every position still to search is
    priced at its own pass's budget. How many positions a later pass will search is known only when
    it begins: until then it is taken as `later_share` of the pass before. Times are given (seconds
    of any one clock), so the arithmetic is the same in a test as in the app.
    """

    def __init__(self, least: int = 3, later_share: float = 0.5) -> None:
        self.least = least
        self.later_share = later_share
        self._budgets: tuple[float, ...] = (1.0,)
        self._index = 0  # the pass under way, from 1; 0 before any
        self._current: _PassTiming | None = None
        self._seconds_per_budget: float | None = None  # of the last pass that measured it

    def start_pass(self, index: int, positions: int, at_s: float, budgets: tuple[float, ...] = ()) -> None:
        """Pass `index` (from 1) begins with `positions` to search; `budgets`: every pass's budget
        per position (one pass of budget 1 when not given)."""
        self._close_pass()
        if budgets:
            self._budgets = tuple(float(budget) for budget in budgets)
        self._index = index
        budget = self._budgets[min(index, len(self._budgets)) - 1]
        self._current = _PassTiming(positions, budget, at_s)

    def searched(self, done: int, at_s: float, total: int | None = None) -> None:
        """`done` positions of the current pass are known at `at_s` (one pass of `total` begins at
        the first count when none was started)."""
        if self._current is None:
            self.start_pass(1, total if total is not None else done, at_s)
            assert self._current is not None
            self._current.first_done = self._current.done = done
            return
        current = self._current
        if total is not None:
            current.positions = max(current.positions, total)
        current.count(done, at_s)

    def _close_pass(self) -> None:
        current = self._current
        if current is not None and current.budget > 0:
            measured = current.seconds_per_position(self.least)
            if measured is not None:
                self._seconds_per_budget = measured / current.budget

    def eta_s(self) -> float | None:
        """Seconds until the review ends; None until a speed is measured."""
        current = self._current
        if current is None:
            return None
        own = current.seconds_per_position(self.least)
        per_budget = own / current.budget if own is not None and current.budget > 0 else self._seconds_per_budget
        if per_budget is None:
            return None
        left = max(0, current.positions - current.done) * (own if own is not None else per_budget * current.budget)
        positions = float(current.positions)
        for budget in self._budgets[self._index :]:
            positions *= self.later_share
            left += positions * budget * per_budget
        return left
