"""Live analysis: lines for the position on show, refined step by step, restarted when it changes."""

from __future__ import annotations

import queue
import shutil

import chess
import pytest
from support import fake_engine_command

from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.engines.uci import UciEngine
from reviewer.core.gametree import Game
from reviewer.core.services.live import LiveAnalysis, LiveUpdate
from reviewer.core.variations import TreeEditor, line_game

WAIT_S = 120  # a bound, never a measure: a loaded machine may be slow


def chess_game(sans: list[str]) -> Game:
    game = Game(kind="chess", first_player="white")
    TreeEditor(game).play_line(game.root, sans)
    return game


class Collector:
    def __init__(self) -> None:
        self.events: queue.Queue[tuple[str, object]] = queue.Queue()

    def update(self, update: LiveUpdate) -> None:
        self.events.put(("update", update))

    def error(self, message: str) -> None:
        self.events.put(("error", message))

    def next(self) -> tuple[str, object]:
        return self.events.get(timeout=WAIT_S)

    def next_update(self) -> LiveUpdate:
        kind, payload = self.next()
        assert kind == "update", payload
        assert isinstance(payload, LiveUpdate)
        return payload


def test_lines_arrive_for_the_position_and_follow_it_when_it_changes():
    collector = Collector()
    live = LiveAnalysis(lambda: UciEngine(fake_engine_command("fake_uci.py")), collector.update, collector.error, multipv=3)
    try:
        game = chess_game(["e4", "e5", "Nf3"])
        live.set_position(game, 3, "after Nf3")
        first = collector.next_update()
        assert first.token == "after Nf3" and first.step == 0
        assert first.evaluation.side_to_move == "black" and len(first.evaluation.candidates) == 3
        second = collector.next_update()
        assert second.token == "after Nf3" and second.step == 1  # the same position, a bigger budget

        variation = TreeEditor(game).play(game.node_at_ply(2), "Bc4").node
        shown, ply = line_game(game, variation)
        live.set_position(shown, ply, "after Bc4")
        collector.events.put(("marker", None))  # everything after this was delivered after the change
        while collector.next()[0] != "marker":
            pass
        update = collector.next_update()
        assert update.token == "after Bc4" and update.step == 0
        assert update.evaluation.side_to_move == "black"
    finally:
        live.close()


def test_the_engine_keeps_its_hash_from_one_position_to_the_next(tmp_path):
    """No `ucinewgame` between positions: clearing the hash would delay every first line."""
    import sys

    from support import REPO_ROOT

    sent = tmp_path / "sent.log"
    recorder = [sys.executable, str(REPO_ROOT / "tests" / "integration" / "record_engine.py"), str(sent)]
    command = recorder + fake_engine_command("fake_uci.py")
    collector = Collector()
    live = LiveAnalysis(lambda: UciEngine(command), collector.update, collector.error, multipv=2)
    try:
        game = chess_game(["e4", "e5", "Nf3", "Nc6"])
        for ply in (1, 2, 3, 4):
            live.set_position(game, ply, ply)
            while collector.next_update().token != ply:
                pass
    finally:
        live.close()
    commands = sent.read_text().splitlines()
    assert sum(line.startswith("go") for line in commands) >= 4
    assert sum(line.strip() == "ucinewgame" for line in commands) <= 1


def test_stop_ends_the_search_and_close_ends_the_thread():
    collector = Collector()
    live = LiveAnalysis(lambda: UciEngine(fake_engine_command("fake_uci.py")), collector.update, collector.error)
    live.set_position(chess_game(["d4"]), 1, "d4")
    assert collector.next_update().token == "d4"
    live.stop()
    collector.events.put(("marker", None))
    while collector.next()[0] != "marker":
        pass
    live.close()
    assert collector.events.empty()


def test_an_engine_that_dies_is_reported_and_started_again(tmp_path):
    log = tmp_path / "searches.log"
    crashing = fake_engine_command("fake_uci.py", "--log", str(log), "--crash-after-total", "1")
    healthy = fake_engine_command("fake_uci.py")
    opened: list[list[str]] = []

    def factory() -> UciEngine:
        command = crashing if not opened else healthy  # the first engine keeps dying, a new one works
        opened.append(command)
        return UciEngine(command)

    collector = Collector()
    live = LiveAnalysis(factory, collector.update, collector.error)
    try:
        game = chess_game(["e4"])
        live.set_position(game, 1, "first")
        assert collector.next_update().step == 0
        kind, message = collector.next()
        assert kind == "error" and str(message).startswith("live analysis stopped:")
        live.set_position(game, 0, "again")
        update = collector.next_update()
        assert update.token == "again" and opened == [crashing, healthy]
    finally:
        live.close()


def test_go_lines_come_from_katago_analysis_queries():
    collector = Collector()
    live = LiveAnalysis(lambda: KataGoEngine(fake_engine_command("fake_katago.py")), collector.update, collector.error)
    try:
        game = Game(kind="go", board_width=9, board_height=9, komi=7.0, rules="chinese", first_player="black")
        TreeEditor(game).play_line(game.root, ["E5", "C3"])
        live.set_position(game, 2, "go")
        update = collector.next_update()
        assert update.token == "go" and update.evaluation.kind == "go"
        assert update.evaluation.score_lead_first is not None and update.evaluation.candidates
    finally:
        live.close()


@pytest.mark.engine
def test_real_stockfish_gives_lines_with_depth():
    stockfish = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if stockfish is None:
        pytest.skip("Stockfish is not installed")
    collector = Collector()
    live = LiveAnalysis(lambda: UciEngine([stockfish]), collector.update, collector.error, multipv=2)
    try:
        game = Game(kind="chess", start_fen="6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", first_player="white")
        live.set_position(game, 0, "back rank")
        update = collector.next_update()
        assert update.evaluation.best_move == "Rd8#" and update.evaluation.mate_first == 1
        assert len(update.evaluation.candidates) == 2 and (update.evaluation.depth or 0) >= 1
    finally:
        live.close()
    assert chess.Board(game.start_fen).is_valid()


def test_line_game_keeps_the_history_of_a_variation():
    game = chess_game(["e4", "e5"])
    node = TreeEditor(game).play(game.node_at_ply(1), "c5").node
    copy, ply = line_game(game, node)
    assert ply == 2 and copy.mainline_moves() == ["e4", "c5"] and game.mainline_moves() == ["e4", "e5"]
    assert copy.node_at_ply(2) is not node  # a copy: the open game is never touched


@pytest.mark.engine
def test_go_lines_from_reviewers_own_search_grow_in_visits(corpus_dir):
    from reviewer.core.engines.install import installed_katago
    from reviewer.core.engines.katago_search import KataGoNetworkSearch
    from reviewer.core.formats import load_game

    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo's network is not installed: run `reviewer engines install`")
    game = load_game(corpus_dir / "sgf" / "katrain__LS_vs_AG_G4_English.sgf", 0)
    collector = Collector()
    live = LiveAnalysis(lambda: KataGoNetworkSearch(installed.command()), collector.update, collector.error, multipv=3)
    try:
        live.set_position(game, 60, "ply 60")
        updates = [collector.next_update() for _ in range(3)]
        live.stop()
    finally:
        live.close()
    assert [u.step for u in updates] == [0, 1, 2] and {u.token for u in updates} == {"ply 60"}
    assert [u.evaluation.nodes for u in updates] == [2, 8, 32]  # the visits shown grow
    assert all(u.evaluation.best_move and u.evaluation.ownership_first for u in updates)
    assert updates[2].evaluation.engine_id.startswith("Reviewer search ")
