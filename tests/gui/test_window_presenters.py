"""The main window's Qt-free presenters: what the header, graph tooltips, board marks, player strips,
menus and engine look-ups say, from real games and evaluations, without a QApplication."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable
from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.formats import load_game
from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.formats.sgf import game_from_sgf_text
from reviewer.core.games import registered_games
from reviewer.core.gametree import Node
from reviewer.gui import presenters
from reviewer.gui.common.settings import EngineChoice
from reviewer.gui.presenters.action_states import action_states
from reviewer.gui.presenters.analysis_state import progress_format, rate_text
from reviewer.gui.presenters.board_marks import (
    BEST_ARROW,
    CANDIDATE_ARROW,
    candidate_arrows,
    go_candidate_marks,
    mainline_anchor,
)
from reviewer.gui.presenters.comment import header_html
from reviewer.gui.presenters.engine_choice import chosen_engine_info, likely_identities, resolves_to_builtin
from reviewer.gui.presenters.figures import graph_point_texts, graph_series
from reviewer.gui.presenters.game_kinds import presentation
from reviewer.gui.presenters.judgements import judgement_hex
from reviewer.gui.presenters.messages import board_message
from reviewer.gui.presenters.text import escape_html, player_html, welcome_html, window_title

CHESS = game_from_pgn_text('[White "Anna <A>"]\n[Black "Bob"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n')
GO = game_from_sgf_text("(;GM[1]SZ[19]KM[6.5]PB[Kim]PW[Lee];B[pd];W[dp])")


def test_the_presenters_import_no_qt():
    modules = [info.name for info in pkgutil.iter_modules(presenters.__path__)]
    assert {"comment", "figures", "board_marks", "game_kinds", "action_states"} <= set(modules)
    code = "import sys\n" + "".join(f"import reviewer.gui.presenters.{name}\n" for name in modules)
    code += "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph', 'superqt'))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_every_game_kind_has_a_presentation_and_an_unknown_one_is_refused():
    assert {presentation(support.kind).kind for support in registered_games()} == {"chess", "go"}
    assert presentation("chess").export_extension == "pgn" and presentation("go").export_extension == "sgf"
    with pytest.raises(ValueError, match="shogi"):
        presentation("shogi")


def test_header_names_players_safely_and_the_board_for_go():
    assert header_html(CHESS, None) == "<b>Anna &lt;A&gt;</b> – <b>Bob</b><br><span style='color:gray'>1-0</span>"
    go_header = header_html(GO, None)
    assert go_header.startswith("<b>Kim</b> (B) – <b>Lee</b> (W)")
    assert "19×19 · komi 6.5" in go_header


@pytest.mark.parametrize(("date", "shown"), [("1848.??.??", "1848"), ("2020-03-31", "2020-03-31"), ("????.??.??", None)])
def test_the_header_gives_a_date_as_far_as_it_is_known(date, shown):
    game = game_from_pgn_text(f'[White "A"]\n[Black "B"]\n[Date "{date}"]\n[Result "1-0"]\n\n1. e4 1-0\n')
    details = header_html(game, None).split("<span style='color:gray'>")[1].removesuffix("</span>")
    assert details == ("1-0" if shown is None else f"1-0 · {shown}")


def test_graph_tooltips_number_chess_moves_in_pairs_and_go_moves_one_by_one():
    table = EvaluationTable()
    table.add(Evaluation(ply=2, kind="chess", score_cp_first=35, best_move="Nf3"))
    texts = graph_point_texts(CHESS, CHESS.node_at_ply, table, CHESS.ply_count)
    assert texts[0] == "Start  not analysed"
    assert texts[1] == "1. e4  not analysed"
    assert texts[2] == "1… e5  +0.35"
    assert graph_point_texts(GO, GO.node_at_ply, EvaluationTable(), 2)[2] == "2. D4  not analysed"


def test_graph_series_shows_go_winrate_or_lead_by_mode():
    evaluation = Evaluation(ply=1, kind="go", score_lead_first=3.5, winrate_first=0.71)
    assert graph_series(GO, {1: evaluation}, None, "winrate") == ({1: 0.71}, {})
    assert graph_series(GO, {1: evaluation}, None, "lead") == ({1: 3.5}, {})


def test_candidate_arrows_best_on_top_and_unreadable_moves_left_out():
    evaluation = Evaluation(
        ply=0, kind="chess", best_move="e4",
        candidates=(Candidate("e4", 0, score_cp_first=30), Candidate("d4", 1, score_cp_first=20), Candidate("Zz9", 2)),
    )
    arrows = candidate_arrows(chess.Board(), evaluation, lambda *fields: fields)
    assert arrows == [
        (chess.D2, chess.D4, CANDIDATE_ARROW, 0.11),
        (chess.E2, chess.E4, BEST_ARROW, 0.2),  # drawn last, on top
    ]
    assert candidate_arrows(chess.Board(), None, tuple) == []
    mated = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert candidate_arrows(mated, evaluation, tuple) == []  # the game is over: nothing to play
    assert candidate_arrows(object(), Evaluation(ply=0, kind="go", best_move="D4"), tuple) == []  # Go's moves are on points


def test_go_marks_leave_out_passes_and_moves_with_too_few_visits():
    evaluation = Evaluation(
        ply=0, kind="go", score_lead_first=2.0,
        candidates=(
            Candidate("Q16", 0, visits=500, score_lead_first=2.0),
            Candidate("D4", 1, visits=100, score_lead_first=1.0),
            Candidate("C3", 2, visits=3, score_lead_first=-5.0),
            Candidate("pass", 3, visits=200),
        ),
    )
    marks = go_candidate_marks(GO, "black", evaluation, lambda *fields: fields)
    assert [(loss, visits, is_best) for _point, loss, visits, is_best, _order in marks] == [(0.0, 500, True), (1.0, 100, False)]
    as_white = go_candidate_marks(GO, "white", evaluation, lambda *fields: fields)
    assert [mark[1] for mark in as_white] == [0.0, 0.0]  # Black's lead falling is no loss for White


def test_a_variation_is_anchored_at_the_main_line_position_it_leaves(corpus_dir):
    game = load_game(corpus_dir / "pgn" / "chesslib__3_events.pgn")
    branch = game.node_at_ply(3).add_child(Node(move="a6", color="black"))
    assert not branch.is_mainline
    assert mainline_anchor(branch) == 3
    assert mainline_anchor(game.node_at_ply(5)) == 5


def test_window_texts():
    assert escape_html("<b>&") == "&lt;b&gt;&amp;"
    assert window_title(CHESS, Path("/games/x.pgn"), 1, 14) == "Anna <A> – Bob — x.pgn [2/14] — Reviewer"
    assert window_title(CHESS, Path("/games/x.pgn"), 0, 1) == "Anna <A> – Bob — x.pgn — Reviewer"
    assert "Recent files" not in welcome_html([])
    assert "<a href='1'>b&lt;.pgn</a>" in welcome_html(["/games/a.pgn", "/games/b<.pgn"])
    strip = player_html("Kim", "9d", 87.26, partial=True)
    assert "(9d)" in strip and "<b>87.3%</b>" in strip and "(partial analysis)" in strip
    assert "accuracy" not in player_html("Kim", "", None)
    assert judgement_hex("blunder") == "#df5353" and judgement_hex(None) == judgement_hex("unknown")
    assert board_message("Could not start the engine").level == "error"
    assert board_message("Illegal move: Ke9").level == "warning"
    assert board_message("Illegal move: Ke9").key == board_message("Ko: retake later").key  # one board message at a time


def test_status_bar_progress_texts():
    assert progress_format(34, 80) == "34/80 positions"
    assert rate_text(2.14) == "2.1 pos/s"
    assert rate_text(None) == "" and rate_text(0.0) == ""


def test_menu_rules():
    idle = action_states(has_game=False, running=False, games_in_file=0, kind="chess")
    assert not idle.analyse_enabled and not idle.export_enabled and not idle.navigation_enabled
    assert idle.analyse_text == "Analyse" and idle.thresholds_enabled
    running = action_states(has_game=True, running=True, games_in_file=3, kind="go")
    assert running.analyse_text == "Stop" and running.analyse_tip.startswith("Stop")
    assert running.choose_game_enabled and not running.thresholds_enabled  # the presets are chess's
    assert not action_states(True, False, 1, "chess").choose_game_enabled


def _engine(name: str, kind: str, protocol: str, version: str, detail: str = "", status: str = "ok") -> EngineInfo:
    return EngineInfo(name, kind, protocol, (name,), version, status, detail)  # type: ignore[arg-type]


def test_the_chosen_engine_and_what_it_will_call_itself():
    found = [
        _engine("builtin", "go", "builtin", "1.0"),
        _engine("katago", "go", "katago", "1.18.1", "/opt/katago (model b18c384)"),
        _engine("stockfish", "chess", "uci", "Stockfish 16.1"),
        _engine("broken", "chess", "uci", "X 1", status="missing"),
    ]
    go_default = EngineChoice(kind="go")
    assert chosen_engine_info(go_default, found).name == "katago"  # KataGo before the built-in engine
    assert likely_identities(go_default, found) == ["KataGo 1.18.1 b18c384"]
    assert not resolves_to_builtin(go_default, found)
    assert resolves_to_builtin(EngineChoice(kind="go", name="builtin"), found)
    assert resolves_to_builtin(go_default, [])  # nothing found: the built-in engine runs
    assert likely_identities(EngineChoice(kind="chess"), found) == ["Stockfish 16.1"]
    assert chosen_engine_info(EngineChoice(kind="chess", name="broken"), found) is None  # not usable
    assert not resolves_to_builtin(EngineChoice(kind="chess"), found)
