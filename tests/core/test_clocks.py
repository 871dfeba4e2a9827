"""Clocks and time spent read from real files (`[%clk]`, `[%emt]`, SGF `BL`/`WL`/`OB`/`OW`), the time
controls they are measured against, time trouble (docs/SCORING.md, "Time"), the report's per-move
times, and the times written back by the export as other programs read them."""

from __future__ import annotations

import io

import chess.pgn
import pytest
from sgfmill import sgf

from reviewer.core.analysis import EvaluationTable
from reviewer.core.embedded_evals import evaluations_from_game
from reviewer.core.export.pgn import export_pgn
from reviewer.core.export.sgf import export_sgf
from reviewer.core.formats import load_game
from reviewer.core.formats.clocks import TimePeriod, parse_time_control
from reviewer.core.report import ReportOptions, build_report
from reviewer.core.scoring.clock import in_time_trouble

BROADCAST = "pgn/scalachess__FWWRC_full_eval_clk.pgn"  # lichess broadcast: [%clk] and [%eval] on every move
SGF_TIMES = "sgf/analyze-sgf__t-complex.sgf"  # BL/WL/OB/OW inside a variation


@pytest.mark.parametrize(
    ("text", "periods"),
    [
        ("180+2", (TimePeriod(180.0, None, 2.0),)),
        ("600", (TimePeriod(600.0, None, 0.0),)),
        ("40/7200", (TimePeriod(7200.0, 40, 0.0),)),
        ("15 min. + 10 s. per move", (TimePeriod(900.0, None, 10.0),)),
    ],
)
def test_time_controls_as_players_write_them(text, periods):
    control = parse_time_control(text)
    assert control is not None and control.periods[: len(periods)] == periods


@pytest.mark.parametrize("text", ["-", "?", ""])
def test_no_time_control_is_none(text):
    assert parse_time_control(text) is None


def test_a_lichess_broadcast_gives_each_move_its_clock(corpus_dir):
    game = load_game(corpus_dir / BROADCAST, 0)
    first = list(game.root.mainline())[:4]
    assert [(node.move, node.clock_s) for node in first] == [("d4", 910.0), ("Nf6", 919.0), ("c4", 924.0), ("e6", 928.0)]
    assert first[3].spent_s == 1.0  # 919 s + the 10 s increment - 928 s


def test_sgf_byo_yomi_times_are_read_in_variations_too(corpus_dir):
    game = load_game(corpus_dir / SGF_TIMES, 0)
    stack, timed = [game.root], []
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.clock_s is not None:
            timed.append(node)
    assert timed, "no node with a clock"
    assert any((n.clock_s, n.spent_s, n.period_moves_left) == (105.6, pytest.approx(14.4), 10) for n in timed)


def test_time_trouble_is_under_a_tenth_of_the_base_or_under_30_s():
    assert in_time_trouble(29.0, 3600.0) is True
    assert in_time_trouble(17.0, 180.0) is True
    assert in_time_trouble(60.0, 180.0) is False
    assert in_time_trouble(None, 180.0) is None


def test_the_report_gives_each_move_its_clock_and_time_spent(corpus_dir):
    game = load_game(corpus_dir / BROADCAST, 0)
    table = evaluations_from_game(game)
    report = build_report(game, table, ReportOptions(), {"name": "lichess", "limit": "file"})
    moves = report["moves"]
    assert {"clock_s", "spent_s"} <= set(moves[0])
    assert [m["clock_s"] for m in moves[:4]] == [910.0, 919.0, 924.0, 928.0]
    assert moves[3]["spent_s"] == 1.0


def test_a_game_without_times_reports_null(corpus_dir):
    game = load_game(corpus_dir / "pgn" / "pgn-read__twic95n_10.pgn", 0)
    report = build_report(game, EvaluationTable({}), ReportOptions(), None)
    assert all(m["clock_s"] is None and m["spent_s"] is None for m in report["moves"])


def test_the_exported_pgn_keeps_the_clocks_for_python_chess(corpus_dir):
    game = load_game(corpus_dir / BROADCAST, 0)
    text = export_pgn(game, evaluations_from_game(game))
    read = chess.pgn.read_game(io.StringIO(text))
    assert read is not None
    clocks = [node.clock() for node in read.mainline()]
    assert clocks == [node.clock_s for node in game.root.mainline()]


def test_the_exported_sgf_keeps_the_times_for_sgfmill(corpus_dir):
    game = load_game(corpus_dir / SGF_TIMES, 0)
    text = export_sgf(game, EvaluationTable({}))
    root = sgf.Sgf_game.from_bytes(text.encode("utf-8")).get_root()
    stack, values = [root], []
    while stack:
        node = stack.pop()
        stack.extend(node)
        for prop in ("BL", "WL"):
            if node.has_property(prop):
                values.append(float(node.get_raw(prop)))
    assert 105.6 in values
