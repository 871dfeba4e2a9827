"""The analysis run and the engine it uses: choice and limit (remembered or for this run only), start,
stop, progress, failures (with the ways out: locate or install an engine), engine discovery and the
analysis cache. It talks to the workers; the window shows what it reports."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QFileDialog, QMenu, QStatusBar, QToolButton, QWidget

from reviewer.core.analysis import Limit
from reviewer.core.coverage import Coverage
from reviewer.core.engines.discovery import EngineInfo, find_engines
from reviewer.core.engines.registry import engines_as_run
from reviewer.core.games import game_support, registered_games, shown_engine_name
from reviewer.core.gametree import Game
from reviewer.core.passes import PassStanding
from reviewer.gui.common.message_bar import MessageBar
from reviewer.gui.common.session import ReviewSession
from reviewer.gui.common.settings import EngineChoice, Settings, describe_limit, engine_label, limit_choices
from reviewer.gui.common.tasks import Tasks
from reviewer.gui.engines.status_area import StatusArea
from reviewer.gui.engines.workers import (
    AnalysisJob,
    AnalysisProgress,
    AnalysisRunner,
    CachedAnalysis,
    best_cached_analysis,
    engine_display_name,
    import_go_engine_modules,
    remembered_identity,
)
from reviewer.gui.presenters.analysis_state import AnalysisState, state_text
from reviewer.gui.presenters.engine_choice import likely_identities, resolves_to_builtin
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.messages import Message
from reviewer.gui.presenters.text import engine_missing


@dataclass(frozen=True)
class EngineControls:
    """The toolbar's engine controls: the engine button and its menu (ending in `menu_actions`), the limit."""

    engine_button: QToolButton
    engine_menu: QMenu
    limit_combo: QComboBox
    menu_actions: tuple[QAction, ...]


class AnalysisController(QObject):
    """The whole-game analysis of the session, and the engine controls of the toolbar (given by
    `attach_engine_controls` once they are made)."""

    enabled_changed = Signal()  # what can be done now may have changed (the analysis started or stopped)
    analysis_finished = Signal(bool)  # True when every position was analysed
    cache_checked = Signal(int)  # evaluations the analysis cache had for the game just opened
    state_shown = Signal(str, str, object, object)  # state text, phase, Coverage | None, Trust
    refresh_wanted = Signal()  # the views should be drawn again (the analysis ended, its scores settled)
    settings_wanted = Signal()  # "Custom…" limit: the settings dialog
    engines_known = Signal(object)  # the engines found (a list of EngineInfo): every view of them follows

    def __init__(
        self,
        session: ReviewSession,
        settings: Settings,
        analysis: AnalysisRunner,
        tasks: Tasks,
        message_bar: MessageBar,
        status_area: StatusArea,
        status_bar: QStatusBar,
        parent: QWidget,
        discover_engines: bool,
    ) -> None:
        """`parent` holds the file dialog that locates an engine."""
        super().__init__(parent)
        self._session, self._settings, self._analysis, self._tasks = session, settings, analysis, tasks
        self._message_bar, self._status_area, self._status_bar, self._parent = message_bar, status_area, status_bar, parent
        self._controls: EngineControls | None = None
        self._engine_overrides: dict[str, EngineChoice] = {}
        self._limit_overrides: dict[str, Limit] = {}
        self._known_engines: list[EngineInfo] = []
        self._engine_lists = 0  # lists asked for or handed in so far: only the latest is kept
        self._engines_pending = discover_engines
        self._analysis_state = AnalysisState()
        self._standing: PassStanding | None = None  # of the review in passes under way
        self._looking_up: Game | None = None  # the game whose saved analysis is being looked for
        self._warmed_up = False
        self._discovery_wanted, self._discovery_started = discover_engines, False
        self._analyse_when_engines_known = False

    def attach_engine_controls(self, controls: EngineControls) -> None:
        self._controls = controls
        controls.engine_menu.aboutToShow.connect(self.fill_engine_menu)
        controls.limit_combo.activated.connect(self.on_limit_chosen)
        self.update_engine_controls()

    def connect_workers(self) -> None:
        """Listen to the analysis runner and the task runner (once both exist)."""
        analysis = self._analysis
        analysis.evaluation_ready.connect(self._session.model.add_evaluation)
        analysis.progress_changed.connect(self._on_progress)
        analysis.failed.connect(self._on_analysis_failed)
        analysis.warned.connect(self._on_engine_warning)
        analysis.finished.connect(self._on_analysis_finished)
        analysis.started.connect(lambda _job: self.enabled_changed.emit())
        analysis.engine_identified.connect(self._remember_engine_identity)

    def known_engines(self) -> list[EngineInfo]:
        return self._known_engines

    def engines_found(self, engines: Sequence[EngineInfo]) -> None:
        """Engines that a discovery elsewhere found (the engine manager's list): newer than any
        discovery of this controller still under way, whose answer is then dropped."""
        self._engine_lists += 1
        self._engines_pending = False
        self._set_known_engines(list(engines))

    def _set_known_engines(self, engines: list[EngineInfo]) -> None:
        self._known_engines = engines
        self.update_engine_controls()
        self.engines_known.emit(list(engines))

    def new_game(self) -> None:
        self._analysis_state = AnalysisState()
        self._analyse_when_engines_known = False  # Analyse was pressed for the game before

    def engine_choice(self, kind: str) -> EngineChoice:
        return self._engine_overrides.get(kind) or self._settings.engine_choice(kind)

    def set_engine_choice(self, choice: EngineChoice, remember: bool = True) -> None:
        if remember:
            self._settings.set_engine_choice(choice)
            self._engine_overrides.pop(choice.kind, None)
        else:
            self._engine_overrides[choice.kind] = choice
        self.update_engine_controls()

    def limit(self, kind: str) -> Limit:
        override = self._limit_overrides.get(kind)
        if override is not None:
            return override
        runs_fallback = not game_support(kind).fallback_engine or self._runs_fallback(kind)
        return self._settings.limit(kind, runs_fallback)

    def _runs_fallback(self, kind: str) -> bool:
        """Whether the game is reviewed by its fallback engine (Go: the built-in engine): as discovery
        finds it, or, until discovery answers, as the engine named itself when it last ran (as the
        engine button says)."""
        choice = self.engine_choice(kind)
        if self._engines_pending and not self._known_engines and not (choice.command or choice.name):
            identity = self._settings.engine_identity(choice)
            if identity:
                return game_support(kind).is_fallback_identity(identity)
        return resolves_to_builtin(choice, self._known_engines)

    def set_limit(self, kind: str, limit: Limit, remember: bool = True) -> None:
        """Choose the budget; the cache's analysis for it is shown when it is better than the one on show."""
        if remember:
            self._settings.set_limit(kind, limit)
            self._limit_overrides.pop(kind, None)
        else:
            self._limit_overrides[kind] = limit
        self.update_engine_controls()
        game = self._session.model.game
        if game is not None and game.kind == kind and not self._analysis.is_running():
            self.look_up_cached_analysis(game)
        elif game is not None:
            self.show_analysis_state()

    def current_kind(self) -> str:
        return self._session.model.game.kind if self._session.model.game is not None else "chess"

    @Slot()
    def toggle_analysis(self) -> None:
        if self._analysis.is_running():
            self.stop_analysis()
        else:
            self.start_analysis()

    def start_analysis(self) -> None:
        game = self._session.model.game
        if game is None:
            return
        if self._limit_waits_for_discovery(game.kind):
            self._analyse_when_engines_known = True
            self._discover_engines()
            self._status_bar.showMessage(_WAITING_FOR_ENGINES)
            return
        self._analyse_when_engines_known = False
        if self._status_bar.currentMessage() == _WAITING_FOR_ENGINES:
            self._status_bar.clearMessage()
        plies = tuple(range(self._session.model.ply_count + 1))
        kind = game.kind
        limit_with_builtin = None
        if game_support(kind).fallback_engine and self.limit_is_default(kind) and not self._runs_fallback(kind):
            limit_with_builtin = self._settings.limit(kind, True)
        job = AnalysisJob(
            game=game, engine=self.engine_choice(kind), limit=self.limit(kind), plies=plies,
            limit_with_builtin=limit_with_builtin,
        )
        self._message_bar.remove("analysis-failed")
        self._analysis_state = AnalysisState().running(0, len(plies), None)
        self._standing = None
        self._analysis.start(job)
        self.enabled_changed.emit()
        self.show_analysis_state()

    def limit_is_default(self, kind: str) -> bool:
        """Whether `limit(kind)` is the default (the user picked none, here or in the settings)."""
        return kind not in self._limit_overrides and not self._settings.has_limit(kind)

    def _limit_waits_for_discovery(self, kind: str) -> bool:
        """Whether the default limit depends on engines discovery has not found yet (Go's default is
        the review in passes with KataGo, 50 visits with the built-in engine)."""
        if not game_support(kind).fallback_engine or not self._engines_pending or not self.limit_is_default(kind):
            return False
        choice = self.engine_choice(kind)
        return not (choice.command or choice.name)

    def stop_analysis(self) -> None:
        self._analyse_when_engines_known = False
        self._analysis.stop()
        self.enabled_changed.emit()

    def _on_progress(self, progress: AnalysisProgress) -> None:
        self._status_area.show_progress(progress)
        if progress.standing is not None:
            self._standing = progress.standing
            self._session.model.set_pass_standing(progress.standing)
        self._analysis_state = self._analysis_state.running(progress.done, progress.total, progress.eta_s, progress.passes)
        self.show_analysis_state()

    def _on_analysis_failed(self, message: str) -> None:
        self._analysis_state = self._analysis_state.failed(message)
        actions: tuple[str, ...] = ()
        if presentation(self.current_kind()).offers_engine_setup and engine_missing(message):
            actions = ("locate-engine", "install-stockfish")
        self._message_bar.replace(
            Message(key="analysis-failed", level="error", text=f"The analysis failed: {message}", actions=actions, scope="app",
                    reason=message)
        )
        self.show_analysis_state()

    def _on_analysis_finished(self, completed: bool) -> None:
        self.enabled_changed.emit()
        self._status_area.analysis_ended()
        self._analysis_state = self._analysis_state.finished(completed)
        standing, self._standing = self._standing, None
        if completed and standing is not None:  # every pass ran: the last one searched all it looked at
            self._session.model.set_pass_standing(replace(standing, reached=standing.count, refined=standing.in_doubt))
        self.show_analysis_state()
        try:
            if self._session.model.assessment_settled:
                self.refresh_wanted.emit()
            else:  # the last evaluations are still being scored: score them now, once
                self._session.model.settle_assessment()  # the views follow on assessment_changed
        finally:
            self.analysis_finished.emit(completed)

    def _on_engine_warning(self, text: str) -> None:
        self._message_bar.add(Message(key=f"game:engine:{text}", level="warning", text=text))

    def show_analysis_state(self) -> None:
        """Running (with its ETA), stopped, done or failed (why): in the status bar and the summary."""
        coverage = self._session.model.basis.coverage if self._session.model.game is not None else None
        text = state_text(self._analysis_state, coverage)
        looking = self._looking_up is not None and self._looking_up is self._session.model.game
        if looking and self._analysis_state.phase == "idle" and (coverage is None or not coverage.analysed):
            text = LOOKING_TEXT
        elif coverage is not None and coverage.analysed and self._analysis_state.phase != "running":
            text += self._other_budget_text(coverage)
        self._status_area.state_label.setText(text)
        self.state_shown.emit(text, self._analysis_state.phase, coverage, self._session.model.basis.trust)

    def _other_budget_text(self, coverage: Coverage) -> str:
        """' · depth 10' when the analysis on show is not of the budget chosen now; '' when it is."""
        if coverage.limit is None:  # the file's own evaluations
            return ""
        try:
            shown = Limit.parse(coverage.limit)
        except ValueError:
            return f" · {coverage.limit}"
        chosen = self.limit(self.current_kind())
        return "" if shown == chosen else f" · {describe_limit(shown)}"

    def on_message_action(self, key: str, action: str) -> None:
        if action == "locate-engine":
            self.locate_engine()
        elif action == "install-stockfish":
            self.install_stockfish()

    def locate_engine(self, path: str | None = None) -> None:
        """Ask for a chess engine program; it is used once it answers `uci` (checked off the GUI thread)."""
        if path is None:
            path, _filter = QFileDialog.getOpenFileName(self._parent, "Locate a UCI chess engine", "/usr/games", "All files (*)")
        if not path:
            return
        from reviewer.gui.engines.engine_actions import check_uci_engine

        task = self._tasks.submit(check_uci_engine, path)
        task.done.connect(lambda name: self._on_engine_located(path, name))
        task.failed.connect(self._on_engine_refused)
        self._status_bar.showMessage(f"Checking {Path(path).name}…")

    def install_stockfish(self) -> None:
        """Run Reviewer's Stockfish installer off the GUI thread."""
        from reviewer.gui.engines.engine_actions import install_stockfish_now

        task = self._tasks.submit(install_stockfish_now)
        task.done.connect(self._on_stockfish_installed)
        task.failed.connect(lambda message: self._on_stockfish_installed((False, message)))
        self._message_bar.replace(Message(key="install-stockfish", level="info", text="Installing Stockfish…", scope="app"))

    def _on_engine_located(self, path: str, name: str) -> None:
        self.set_engine_choice(EngineChoice(kind="chess", command=shlex.quote(path)))
        self._message_bar.remove("analysis-failed")
        self._message_bar.replace(
            Message(key="engine-located", level="info", text=f"Chess engine set: {name} ({path}). Press Analyse.", scope="app")
        )

    def _on_stockfish_installed(self, result: tuple[bool, str]) -> None:
        ok, message = result
        self._message_bar.remove("install-stockfish")
        if ok:
            self._message_bar.remove("analysis-failed")
            self._known_engines = []
            self._discovery_started = False
            self._discover_engines()
        self._message_bar.replace(
            Message(key="stockfish-installed", level="info" if ok else "error", text=message, scope="app")
        )

    def _remember_engine_identity(self, choice: EngineChoice, identity: str) -> None:
        self._settings.set_engine_identity(choice, identity)
        self.update_engine_controls()

    def look_up_cached_analysis(self, game: Game) -> None:
        """Show at once what the cache already holds for this game from the chosen engine and
        limit (looked up off the GUI thread); `cache_checked` tells how much it found."""
        choice, limit = self.engine_choice(game.kind), self.limit(game.kind)
        identities = [self._settings.engine_identity(choice), *likely_identities(choice, self._known_engines)]
        known = tuple(identity for identity in identities if identity)
        with_builtin = resolves_to_builtin(choice, self._known_engines)
        task = self._tasks.submit(_cached_analysis, game, choice, known, with_builtin, limit)
        task.done.connect(lambda found: self._on_cached_analysis(game, choice, limit, found))
        task.failed.connect(self._on_cache_unreadable)
        self._looking_up = game
        self.show_analysis_state()

    def _on_cached_analysis(
        self, game: Game, choice: EngineChoice, limit: Limit, found: Any
    ) -> None:
        if self._looking_up is game:
            self._looking_up = None
        count = 0
        if isinstance(found, CachedAnalysis) and self._session.model.game is game and not self._analysis.is_running():
            shown = self._session.model.basis.coverage
            if found.standing is not None:
                self._session.model.set_pass_standing(found.standing)
            # The chosen budget's analysis is shown when it is no worse than the one on show
            # (switching the budget shows its analysis without a run); another is shown only
            # where nothing better is.
            better = found.complete or not shown.complete
            self._session.model.add_evaluations(found.evaluations, from_analysis=found.chosen and better)
            count = len(found.evaluations)
            if found.chosen and found.matched_identity:
                self._settings.set_engine_identity(choice, found.identity)  # it matched: no guessing next time
            if self._session.model.basis.coverage.engine_id.startswith(found.identity + " | "):
                self._status_area.engine_label.setText(engine_display_name(found.identity))  # also the engine an export names
            self.update_engine_controls()
            self._status_bar.showMessage(
                f"From the analysis cache: {self._session.model.basis.coverage.moves_text()} ({describe_limit(found.limit)})", 6000
            )
        self.show_analysis_state()
        self.cache_checked.emit(count)

    def warm_up(self) -> None:
        """Load the opening table off the GUI thread before the first scoring needs it.

        Not at once: it competes with opening the first game for the interpreter.
        """
        if not self._warmed_up:
            self._warmed_up = True
            self._tasks.submit(_load_opening_book)
        self._discover_engines()

    def _discover_engines(self) -> None:
        """Look for engines once (in the warm-up, or when the engine menu opens first): asking
        each engine its version costs processes and imports that opening a game should not wait for."""
        if not self._discovery_wanted or self._discovery_started:
            return
        self._discovery_started = True
        self._engine_lists += 1
        task = self._tasks.submit(_find_engines)
        lists = self._engine_lists
        task.done.connect(lambda found: self._on_engines_found(lists, found))
        task.failed.connect(lambda _message: self._on_engines_found(lists, []))

    def fill_engine_menu(self) -> None:
        self._discover_engines()
        if self._controls is None:
            return
        menu = self._controls.engine_menu
        menu.clear()
        kind = self.current_kind()
        current = self.engine_choice(kind)
        found = [engine for engine in self._known_engines if engine.kind == kind]
        for engine in found:
            action = menu.addAction(engine_label(engine))
            action.setCheckable(True)
            action.setChecked(not current.command and current.name == engine.name)
            action.setEnabled(engine.usable)
            action.setToolTip(engine.detail)
            action.setStatusTip(engine.detail)
            action.triggered.connect(
                lambda _checked=False, n=engine.name: self.set_engine_choice(EngineChoice(kind=kind, name=n))
            )
        if not found:
            menu.addAction("Looking for engines…" if self._engines_pending else "No engine found").setEnabled(
                False
            )
        if current.command:
            action = menu.addAction(f"Custom: {current.command}")
            action.setCheckable(True)
            action.setChecked(True)
        menu.addSeparator()
        for action in self._controls.menu_actions:
            menu.addAction(action)

    def _engine_text(self, choice: EngineChoice) -> str:
        """What the engine button says: the engine that will run, as discovery names it (or as
        it named itself when it last ran, while discovery is under way)."""
        if choice.command:
            return choice.describe()
        usable = [engine for engine in self._known_engines if engine.kind == choice.kind and engine.usable]
        if choice.name is not None:
            usable = [engine for engine in usable if engine.name.lower() == choice.name.lower()]
        if usable:
            return engine_label(usable[0])
        identity = self._settings.engine_identity(choice)
        if identity and shown_engine_name(identity):
            return shown_engine_name(identity)
        if identity:  # name and version: "Stockfish 15.1", "KataGo 1.18.1", "builtin-go 1.0"
            words = engine_display_name(identity).split()[:2]
            fallback = game_support(choice.kind).is_fallback_identity(identity)
            return " ".join(["Built-in" if fallback else words[0], *words[1:]])
        return choice.describe()

    def update_engine_controls(self) -> None:
        if self._controls is None:
            return
        combo = self._controls.limit_combo
        kind = self.current_kind()
        choice = self.engine_choice(kind)
        self._controls.engine_button.setText(f"{self._engine_text(choice)} ▾")
        limit = self.limit(kind)
        combo.blockSignals(True)
        combo.clear()
        current_index = -1
        for index, option in enumerate(limit_choices(kind)):
            combo.addItem(option.label, option.limit)
            if option.limit == limit:
                current_index = index
        if current_index < 0:
            combo.addItem(f"Custom · {describe_limit(limit)}", limit)
            current_index = combo.count() - 1
        combo.addItem("Custom…", None)
        combo.setCurrentIndex(current_index)
        combo.blockSignals(False)

    def on_limit_chosen(self, index: int) -> None:
        if self._controls is None:
            return
        limit = self._controls.limit_combo.itemData(index)
        if limit is None:
            self.update_engine_controls()
            self.settings_wanted.emit()
            return
        self.set_limit(self.current_kind(), limit)

    def refresh_engines(self) -> None:
        """Look for engines again (one was added, removed or installed)."""
        self._discovery_wanted, self._discovery_started, self._engines_pending = True, False, True
        self._discover_engines()


    def _on_engine_refused(self, message: str) -> None:
        self._message_bar.replace(Message(key="engine-located", level="error", text=f"Not used: {message}", actions=("locate-engine",), scope="app"))

    def _on_engines_found(self, lists: int, found: object) -> None:
        if lists != self._engine_lists:
            return  # a newer list came in the meantime
        self._engines_pending = False
        self._set_known_engines(list(found) if isinstance(found, list) else [])
        if self._analyse_when_engines_known:
            self.start_analysis()
            return
        session = self._session
        if session.model.game is not None and len(session.model.evaluations) == 0 and not self._analysis.is_running():
            self.look_up_cached_analysis(session.model.game)  # now the engine's name is known

    def _on_cache_unreadable(self, message: str) -> None:
        """An unreadable cache only means analysing again."""
        self._looking_up = None
        self.show_analysis_state()
        self._message_bar.add(
            Message(key=f"game:cache:{message}", level="warning",
                    text=f"The analysis cache could not be read ({message}): the game will be analysed again.")
        )
        self.cache_checked.emit(0)


LOOKING_TEXT = "Looking for a saved analysis…"
_WAITING_FOR_ENGINES = "Looking for engines: the analysis starts when they are known…"


# -------------------------------------------------------------- work done off the GUI thread
def _cached_analysis(
    game: Game, choice: EngineChoice, identities: tuple[str, ...], with_builtin: bool, limit: Limit
) -> CachedAnalysis | None:
    """The best analysis the cache has of `game` (`best_cached_analysis`), the chosen budget's by
    the chosen engine first, which may have any of `identities`."""
    remembered = remembered_identity(choice)
    if remembered:
        identities = (remembered, *identities)
    # the fallback engine's identity names its options: known by its start, without loading it
    also_chosen = game_support(game.kind).is_fallback_identity if with_builtin else None
    return best_cached_analysis(game, identities, limit, also_chosen=also_chosen)


def _load_opening_book() -> None:
    from reviewer.core.openings import book

    for support in registered_games():
        if support.opening_table:
            book(support.kind)


def _find_engines() -> list[EngineInfo]:
    import_go_engine_modules()  # discovery asks the built-in engine its version
    return engines_as_run(find_engines())  # a KataGo searched by Reviewer's own search is named so
