"""Engines that crash, hang, talk nonsense or never start: a clear line, the right exit code, nothing lost."""

from __future__ import annotations

import pytest
from conftest import DATA_DIR, EXIT_FAILED, EXIT_OK, assert_one_line_error, fake_cmd, reports_of, run_reviewer
from report_contract import check_report

CHESS_GAME = DATA_DIR / "chess_three_games.pgn"  # game 3: 8 plies, 9 positions
GO_GAME = DATA_DIR / "go_9x9_passes.sgf"  # 7 moves, 8 positions


def analyse(tmp_path, engine_cmd, game, *extra: str):
    out = tmp_path / "report.json"
    run = run_reviewer("analyze", game, "--engine-cmd", engine_cmd, "--depth", "2", "--visits", "5", "-q", "--json", out, *extra)
    return run, out


def test_a_uci_engine_that_crashes_once_is_restarted(tmp_path):
    run, out = analyse(tmp_path, fake_cmd("fake_uci.py", "--crash-after", "2"), CHESS_GAME, "--game", "3")
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    assert report["complete"] is True and report["evaluated_positions"] == 9
    check_report(report, "chess")


def test_a_uci_engine_that_keeps_crashing_keeps_what_was_done(tmp_path):
    log = tmp_path / "searches.log"
    crashing = fake_cmd("fake_uci.py", "--log", str(log), "--crash-after-total", "4")
    run, out = analyse(tmp_path, crashing, CHESS_GAME, "--game", "3")
    assert run.returncode == EXIT_FAILED
    assert_one_line_error(run, "FakeFish")
    (report,) = reports_of(out)  # what was finished is still written
    assert report["complete"] is False and report["evaluated_positions"] == 4
    check_report(report, "chess")
    # the next run asks the engine only for what is missing: the rest came from the cache
    log2 = tmp_path / "searches2.log"
    run, out = analyse(tmp_path, fake_cmd("fake_uci.py", "--log", str(log2)), CHESS_GAME, "--game", "3")
    assert run.returncode == EXIT_OK, run.stderr
    assert len(log2.read_text().splitlines()) == 9 - 4
    assert reports_of(out)[0]["complete"] is True


def test_a_uci_engine_that_dies_at_once(tmp_path):
    run, _ = analyse(tmp_path, fake_cmd("fake_uci.py", "--exit-on-start"), CHESS_GAME)
    assert run.returncode == EXIT_FAILED
    assert "failed to start" in run.stderr or "died" in run.stderr


def test_a_uci_engine_that_dies_at_once_says_one_line(tmp_path):
    run, _ = analyse(tmp_path, fake_cmd("fake_uci.py", "--exit-on-start"), CHESS_GAME)
    assert_one_line_error(run)
    assert len(run.error_lines) == 1, run.stderr


def test_garbage_lines_from_an_engine_are_ignored(tmp_path):
    run, out = analyse(tmp_path, fake_cmd("fake_uci.py", "--garbage"), CHESS_GAME, "--game", "3")
    assert run.returncode == EXIT_OK, run.stderr
    check_report(reports_of(out)[0], "chess")


def test_an_engine_without_wdl(tmp_path):
    run, out = analyse(tmp_path, fake_cmd("fake_uci.py", "--no-wdl"), CHESS_GAME, "--game", "3")
    assert run.returncode == EXIT_OK, run.stderr
    check_report(reports_of(out)[0], "chess")


def test_a_hung_engine_is_given_up(tmp_path, monkeypatch, capsys):
    """In process, with the silence limit cut from 30 s to 5 s so the test stays quick."""
    import shlex

    from reviewer import cli
    from reviewer.core.engines import uci_adapter
    from reviewer.core.engines.uci import UciEngine

    monkeypatch.setattr(uci_adapter, "UciEngine", lambda command, threads=None: UciEngine(list(command), timeout_s=5.0))
    out = tmp_path / "report.json"
    hanging = shlex.split(fake_cmd("fake_uci.py", "--hang-after", "1"))
    code = cli.main(["analyze", str(CHESS_GAME), "--game", "3", "--engine-cmd", shlex.join(hanging), "--depth", "2", "-q", "--json", str(out)])
    assert code == EXIT_FAILED
    assert "stopped answering" in capsys.readouterr().err
    (report,) = reports_of(out)
    assert report["complete"] is False
    check_report(report, "chess")


@pytest.mark.parametrize("switches", [["--crash-after", "3"], ["--garbage"], ["--partial", "2", "--shuffle"], ["--warning", "careful"]])
def test_katago_misbehaving_but_recoverable(tmp_path, switches):
    run, out = analyse(tmp_path, fake_cmd("fake_katago.py", *switches), GO_GAME)
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    assert report["complete"] is True and report["evaluated_positions"] == 8
    check_report(report, "go")


@pytest.mark.parametrize(
    "switches, fragment",
    [(["--exit-on-start"], "model file"), (["--error", "bad moves"], "bad moves"), (["--general-error", "boom"], "boom")],
)
def test_katago_failing(tmp_path, switches, fragment):
    run, out = analyse(tmp_path, fake_cmd("fake_katago.py", *switches), GO_GAME)
    assert run.returncode == EXIT_FAILED
    assert_one_line_error(run, fragment)
    assert len(run.error_lines) == 1, run.stderr
    (report,) = reports_of(out)
    assert report["complete"] is False
    check_report(report, "go")
