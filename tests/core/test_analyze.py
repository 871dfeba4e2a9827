"""`reviewer analyze` end to end with the fake UCI engine (and real Stockfish, marked `engine`)."""

from __future__ import annotations

import io
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn
import pytest
from support import REPO_ROOT, fake_engine_command, found_katago, version_calls

from reviewer.cli import main

OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
OPERA_PLIES = 33


def fake_cmd(*args: str) -> str:
    return shlex.join(fake_engine_command("fake_uci.py", *args))


def searches(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_report_annotated_copy_and_figures(tmp_path, capsys):
    log = tmp_path / "log"
    report_path, pgn_path = tmp_path / "r.json", tmp_path / "a.pgn"
    code = main(["analyze", str(OPERA), "--engine-cmd", fake_cmd("--log", str(log)), "--nodes", "500",
                 "--json", str(report_path), "-o", str(pgn_path)])
    assert code == 0
    report = json.loads(report_path.read_text())
    assert report["schema"] == "reviewer.report/1"
    assert report["engine"]["name"] == "FakeFish 1.0"
    assert report["engine"]["id"] == "FakeFish 1.0 | nodes=500,multipv=1"
    assert len(report["moves"]) == OPERA_PLIES and report["evaluated_positions"] == OPERA_PLIES + 1
    assert report["complete"] is True
    assert report["moves"][0]["move"] == "e4"
    assert set(report["summary"]) == {"white", "black"}
    annotated = chess.pgn.read_game(io.StringIO(pgn_path.read_text()))
    nodes = list(annotated.mainline())
    assert len(nodes) == OPERA_PLIES
    assert all(node.eval() is not None for node in nodes[:-1])  # the final mate carries no score
    assert nodes[-2].eval().white().mate() == 1
    out = capsys.readouterr()
    assert "Paul Morphy" in out.out and "accuracy" in out.out
    assert f"{OPERA_PLIES + 1}/{OPERA_PLIES + 1} positions" in out.err  # plain progress lines: not a tty
    assert searches(log) == OPERA_PLIES


def test_a_second_run_is_answered_by_the_cache(tmp_path):
    log = tmp_path / "log"
    args = ["analyze", str(OPERA), "--engine-cmd", fake_cmd("--log", str(log)), "--nodes", "500", "-q"]
    assert main(args) == 0
    assert searches(log) == OPERA_PLIES
    report = tmp_path / "again.json"
    assert main([*args, "--json", str(report)]) == 0
    assert searches(log) == OPERA_PLIES
    assert json.loads(report.read_text())["evaluated_positions"] == OPERA_PLIES + 1
    assert main([*args, "--no-cache"]) == 0
    assert searches(log) == 2 * OPERA_PLIES


def test_a_crash_exits_1_and_still_writes_what_was_done(tmp_path, capsys):
    log = tmp_path / "log"
    report_path = tmp_path / "r.json"
    code = main(["analyze", str(OPERA), "--engine-cmd", fake_cmd("--log", str(log), "--crash-after-total", "6"),
                 "--nodes", "500", "--json", str(report_path)])
    assert code == 1
    assert "crashed" in capsys.readouterr().err
    report = json.loads(report_path.read_text())
    assert report["complete"] is False
    assert report["evaluated_positions"] == 6 + 1  # six searches and the final mate
    # Restarting with a working engine finishes only the rest.
    rerun_log = tmp_path / "rerun"
    assert main(["analyze", str(OPERA), "--engine-cmd", fake_cmd("--log", str(rerun_log)), "--nodes", "500", "-q"]) == 0
    assert searches(rerun_log) == OPERA_PLIES - 6


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    missing = tmp_path / "missing.pgn"
    assert main(["analyze", str(missing), "--engine-cmd", fake_cmd()]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.pgn" in err
    assert main(["analyze", str(OPERA), "--game", "5", "--engine-cmd", fake_cmd()]) == 2
    assert "no game 5" in capsys.readouterr().err
    assert main(["analyze", str(OPERA), "--engine-cmd", fake_cmd(), "-o", str(tmp_path / "x.sgf")]) == 2
    assert ".pgn" in capsys.readouterr().err
    assert main(["analyze", str(OPERA), "--engine-cmd", str(tmp_path / "no-engine")]) == 2
    assert "not found" in capsys.readouterr().err


def test_several_games_give_a_list_of_reports(tmp_path):
    collection = tmp_path / "two.pgn"
    collection.write_text(OPERA.read_text() + "\n\n" + '[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    report_path, pgn_path = tmp_path / "r.json", tmp_path / "a.pgn"
    code = main(["analyze", str(collection), str(OPERA), "--all-games", "--engine-cmd", fake_cmd(), "--nodes", "500",
                 "--json", str(report_path), "-o", str(pgn_path), "-q"])
    assert code == 0
    reports = json.loads(report_path.read_text())
    assert [r["game"]["white"] for r in reports] == ["Paul Morphy", "A", "Paul Morphy"]
    assert len(reports[1]["moves"]) == 7
    games = []
    with pgn_path.open() as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    assert len(games) == 3


def test_ctrl_c_stops_cleanly_and_writes_partial_outputs(tmp_path):
    report_path = tmp_path / "r.json"
    log = tmp_path / "searches.log"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    # Two searches answer; the third runs until it is stopped, so Ctrl-C always lands mid-game.
    engine = fake_cmd("--log", str(log), "--wait-for-stop-after-total", "2")
    process = subprocess.Popen(
        [sys.executable, "-m", "reviewer", "analyze", str(OPERA), "--engine-cmd", engine,
         "--nodes", "500", "--json", str(report_path)],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        while process.poll() is None and not (log.exists() and len(log.read_text().splitlines()) >= 3):
            time.sleep(0.05)  # waiting for a condition (the third search), bounded by the test timeout
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    report = json.loads(report_path.read_text())
    assert report["complete"] is False
    # the two finished searches, and the final position (mate), which needs none
    assert report["evaluated_positions"] == 3
    assert "interrupted" in err


@pytest.mark.engine
@pytest.mark.skipif(shutil.which("/usr/games/stockfish") is None, reason="Stockfish is not installed")
def test_stockfish_end_to_end(tmp_path):
    report_path = tmp_path / "r.json"
    assert main(["analyze", str(OPERA), "--engine-cmd", "/usr/games/stockfish", "--nodes", "2000",
                 "--json", str(report_path), "-q"]) == 0
    report = json.loads(report_path.read_text())
    assert report["engine"]["name"].startswith("Stockfish")
    assert report["evaluated_positions"] == OPERA_PLIES + 1
    assert report["moves"][-1]["move"] == "Rd8#"
    assert report["summary"]["white"]["accuracy"] is not None


def test_a_go_game_goes_to_katago_and_gets_sabaki_annotations(tmp_path):
    sgf = tmp_path / "game.sgf"
    sgf.write_text("(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Black]PW[White];B[ee];W[cc];B[gg];W[cg])")
    log = tmp_path / "katago.log"
    command = shlex.join(fake_engine_command("fake_katago.py", "--log", str(log)))
    report_path, out = tmp_path / "r.json", tmp_path / "a.sgf"
    args = ["analyze", str(sgf), "--engine-cmd", command, "--visits", "10", "-q"]
    assert main([*args, "--json", str(report_path), "-o", str(out)]) == 0
    report = json.loads(report_path.read_text())
    assert report["game"]["kind"] == "go" and report["evaluated_positions"] == 5
    assert [m["move"] for m in report["moves"]] == ["E5", "C7", "G3", "C3"]
    from sgfmill import sgf

    main_line = sgf.Sgf_game.from_bytes(out.read_bytes()).get_main_sequence()[1:]
    assert len(main_line) == 4
    assert all(node.has_property("SBKV") and node.has_property("SBKS") for node in main_line)
    queries = log.read_text().count('"analyzeTurns"')
    assert queries >= 1
    assert main(args) == 0  # everything cached: KataGo gets no analysis query
    assert log.read_text().count('"analyzeTurns"') == queries


DATA = REPO_ROOT / "tests" / "data"


def started(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_a_fully_cached_rerun_starts_no_engine(tmp_path):
    starts, report = tmp_path / "starts", tmp_path / "r.json"
    # one word, not a file name: a file the engine writes would change the command's fingerprint
    args = ["analyze", str(OPERA), "--engine-cmd", fake_cmd(f"--started-log={starts}"), "--nodes", "500", "-q"]
    assert main(args) == 0
    assert started(starts) >= 1
    first_starts = started(starts)
    assert main([*args, "--json", str(report)]) == 0
    assert started(starts) == first_starts
    data = json.loads(report.read_text())
    assert data["evaluated_positions"] == OPERA_PLIES + 1 and data["complete"] is True
    assert data["engine"]["id"] == "FakeFish 1.0 | nodes=500,multipv=1"  # known without starting it
    assert main([*args, "--nodes", "600"]) == 0  # another limit: not in the cache
    assert started(starts) > first_starts


def test_outputs_that_cannot_be_written_are_bad_input_before_any_analysis(tmp_path, capsys):
    starts = tmp_path / "starts"
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    engine = ["--engine-cmd", fake_cmd("--started-log", str(starts)), "--nodes", "500", "-q"]
    for flag in ("--json", "--csv", "--html", "-o"):
        target = blocker / "deeper" / ("out.pgn" if flag == "-o" else "out.txt")
        assert main(["analyze", str(OPERA), *engine, flag, str(target)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "a-file is a file, not a folder" in err
    assert main(["analyze", str(OPERA), *engine, "--json", "-", "--csv", "-"]) == 2
    assert "standard output" in capsys.readouterr().err
    assert started(starts) == 0
    made = tmp_path / "new" / "folder" / "r.json"  # a folder that can be made is made
    assert main(["analyze", str(OPERA), *engine, "--json", str(made)]) == 0
    assert json.loads(made.read_text())["evaluated_positions"] == OPERA_PLIES + 1


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_a_folder_without_write_permission_is_bad_input(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert main(["analyze", str(OPERA), "--engine-cmd", fake_cmd(), "--json", str(locked / "r.json")]) == 2
    finally:
        locked.chmod(0o700)
    assert "cannot write in" in capsys.readouterr().err


def test_every_output_is_tried_and_each_failure_told(tmp_path, capsys, monkeypatch):
    from reviewer.commands import analyze

    real_write = analyze.write_text_atomic
    failing = {tmp_path / "r.json", tmp_path / "m.csv"}

    def write(path, text, *args, **kwargs):
        if Path(path) in failing:
            raise OSError(28, "No space left on device")
        return real_write(path, text, *args, **kwargs)

    monkeypatch.setattr(analyze, "write_text_atomic", write)
    code = main(["analyze", str(OPERA), "--engine-cmd", fake_cmd(), "--nodes", "500", "-q",
                 "--json", str(tmp_path / "r.json"), "--csv", str(tmp_path / "m.csv"),
                 "--html", str(tmp_path / "r.html"), "-o", str(tmp_path / "a.pgn")])
    assert code == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines == [f"reviewer analyze: cannot write {tmp_path / 'r.json'}: No space left on device",
                     f"reviewer analyze: cannot write {tmp_path / 'm.csv'}: No space left on device"]
    assert (tmp_path / "r.html").is_file() and (tmp_path / "a.pgn").is_file()


@pytest.mark.parametrize("flag", ["--json", "--csv", "--html"])
def test_a_dash_writes_to_standard_output_instead_of_the_figures(tmp_path, capsys, flag, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["analyze", str(OPERA), "--engine-cmd", fake_cmd(), "--nodes", "500", flag, "-"]) == 0
    out = capsys.readouterr().out
    assert not (tmp_path / "-").exists()
    assert "accuracy " not in out.split("\n", 1)[0]  # no figures table before it
    if flag == "--json":
        assert json.loads(out)["evaluated_positions"] == OPERA_PLIES + 1
    elif flag == "--csv":
        assert len(out.strip().splitlines()) == OPERA_PLIES + 1  # a header and one row per move
    else:
        assert out.lstrip().lower().startswith("<!doctype html")


def test_game_zero_and_an_unparsable_engine_command_are_bad_input(capsys):
    assert main(["analyze", str(OPERA), "--game", "0", "--engine-cmd", fake_cmd()]) == 2
    assert capsys.readouterr().err == "reviewer analyze: --game counts from 1, not 0\n"
    assert main(["analyze", str(OPERA), "--engine-cmd", "'stockfish"]) == 2
    assert capsys.readouterr().err == "reviewer analyze: --engine-cmd: No closing quotation\n"
    assert main(["analyze", str(OPERA), "--engine-cmd", "  "]) == 2
    assert "empty" in capsys.readouterr().err


def test_the_games_warnings_are_told_even_when_quiet(capsys):
    assert main(["analyze", str(DATA / "chess_illegal_move.pgn"), "--engine-cmd", fake_cmd(), "--depth", "2", "-q"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "reviewer analyze: " + str(DATA / "chess_illegal_move.pgn") + "#1: warning: illegal move 'Ke3' at 2. "
        "in the main line; the rest of that line is skipped\n"
    )
    assert captured.out == ""


def test_an_unreadable_start_position_is_bad_input_and_skipped_in_a_batch(tmp_path, capsys):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[White "X"]\n[SetUp "1"]\n[FEN "garbage fen"]\n\n1. e4 e5 *\n')
    starts = tmp_path / "starts"
    engine = ["--engine-cmd", fake_cmd("--started-log", str(starts)), "--depth", "2", "-q"]
    assert main(["analyze", str(bad), *engine]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'start position [FEN "garbage fen"] cannot be read' in err
    assert started(starts) == 0
    report = tmp_path / "r.json"
    assert main(["analyze", str(bad), str(DATA / "chess_one_move.pgn"), "--all-games", *engine, "--json", str(report)]) == 2
    assert json.loads(report.read_text())["game"]["event"] == "One move"  # the readable game, analysed


def test_one_engine_command_for_chess_and_go_games_is_refused(capsys):
    code = main(["analyze", str(DATA / "chess_one_move.pgn"), str(DATA / "go_9x9_passes.sgf"), "--all-games",
                 "--engine-cmd", fake_cmd()])
    assert code == 2
    assert "analyse the chess and the Go games separately" in capsys.readouterr().err


def test_chess960_without_the_option_says_so_in_one_line(tmp_path, capsys):
    log = tmp_path / "log"
    game = str(DATA / "chess960_castling.pgn")
    assert main(["analyze", game, "--engine-cmd", fake_cmd("--log", str(log)), "--depth", "2", "-q"]) == 1
    assert capsys.readouterr().err == (
        "reviewer analyze: chess960_castling.pgn#1: FakeFish 1.0 does not play Chess960 (no UCI_Chess960 option)\n"
    )
    assert searches(log) == 0
    assert main(["analyze", game, "--engine-cmd", fake_cmd("--log", str(log), "--chess960"), "--depth", "2", "-q"]) == 0
    assert searches(log) == 7


def test_a_go_board_too_big_for_katago_goes_to_the_builtin_engine(tmp_path):
    sgf, report = tmp_path / "g21.sgf", tmp_path / "r.json"
    sgf.write_text("(;GM[1]FF[4]SZ[21]KM[7];B[aa];W[uu];B[ka])")
    assert main(["analyze", str(sgf), "--visits", "16", "-q", "--json", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["engine"]["name"].startswith("builtin-go") and data["evaluated_positions"] == 4


def test_chess_is_reviewed_in_passes_by_default_and_the_report_says_which_pass(tmp_path, capsys):
    starts, report_path = tmp_path / "starts", tmp_path / "r.json"
    args = ["analyze", str(OPERA), "--engine-cmd", fake_cmd(f"--started-log={starts}"), "--passes", "100,200,300"]
    assert main([*args, "--json", str(report_path)]) == 0
    err = capsys.readouterr().err
    assert "pass 1/3 (100 nodes)" in err and "pass 2/3 (200 nodes)" in err
    report = json.loads(report_path.read_text())
    assert "scheme=chess-passes-v1:nodes100>200>300" in report["engine"]["id"]
    assert report["evaluated_positions"] == OPERA_PLIES + 1 and report["complete"] is True
    by_pass = report["passes"]["positions_by_pass"]
    assert set(by_pass) <= {"1", "2", "3"} and sum(by_pass.values()) == OPERA_PLIES + 1 and by_pass["2"]
    flagged = [m for m in report["moves"] if m["judgement"] in ("inaccuracy", "mistake", "blunder")]
    assert flagged and all(m["pass"] >= 2 for m in flagged)  # every flagged move was searched again
    assert {m["pass"] for m in report["moves"]} <= {1, 2, 3}
    first_starts = started(starts)
    again = tmp_path / "again.json"
    assert main([*args, "-q", "--json", str(again)]) == 0
    assert started(starts) == first_starts  # all from the cache, pass by pass
    assert json.loads(again.read_text())["moves"] == report["moves"]
    uniform = tmp_path / "uniform.json"
    assert main(["analyze", str(OPERA), "--engine-cmd", fake_cmd(), "--nodes", "100", "-q", "--json", str(uniform)]) == 0
    data = json.loads(uniform.read_text())
    assert data["passes"] is None and {m["pass"] for m in data["moves"]} == {None}


def test_passes_that_are_not_positive_numbers_are_bad_input(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["analyze", str(OPERA), "--passes", "100,0"])
    assert exit_info.value.code == 2
    assert "positive" in capsys.readouterr().err


def test_go_is_reviewed_in_passes_by_default_with_katago_and_at_the_engines_visits_with_the_built_in_one(tmp_path):
    sgf, katago_report, builtin_report = DATA / "go_9x9_passes.sgf", tmp_path / "k.json", tmp_path / "b.json"
    command = shlex.join(fake_engine_command("fake_katago.py"))
    assert main(["analyze", str(sgf), "--engine-cmd", command, "--no-cache", "-q", "--json", str(katago_report)]) == 0
    report = json.loads(katago_report.read_text())
    assert "scheme=go-passes-v1:visits2>32" in report["engine"]["id"]
    assert {m["pass"] for m in report["moves"]} <= {1, 2} and report["complete"] is True
    assert main(["analyze", str(sgf), "--engine", "builtin", "--no-cache", "-q", "--json", str(builtin_report)]) == 0
    report = json.loads(builtin_report.read_text())
    assert "scheme=" not in report["engine"]["id"] and report["passes"] is None


GO_GAMES = [str(DATA / "go_9x9_passes.sgf"), str(DATA / "go_rect_7x5.sgf")]


def test_katago_is_looked_for_once_to_choose_the_go_limit_and_to_start_it(tmp_path, monkeypatch):
    versions = found_katago(tmp_path, monkeypatch)
    report = tmp_path / "r.json"
    assert main(["analyze", *GO_GAMES, "--all-games", "--no-cache", "-q", "--json", str(report)]) == 0
    assert version_calls(versions) == 1  # `katago version`: one discovery for the limit and the engine
    for data in json.loads(report.read_text()):
        assert data["engine"]["name"].startswith("KataGo") and data["complete"] is True
        assert "scheme=go-passes-v1:visits2>32" in data["engine"]["id"]


def test_a_found_katago_that_does_not_start_leaves_the_games_to_the_builtin_engine_at_its_own_visits(
    tmp_path, monkeypatch, capsys
):
    versions = found_katago(tmp_path, monkeypatch, "--exit-on-start")
    report = tmp_path / "r.json"
    assert main(["analyze", *GO_GAMES, "--all-games", "--no-cache", "-q", "--json", str(report)]) == 0
    err = capsys.readouterr().err
    warning = "; reviewing with the built-in engine at its own visits\n"
    assert err.count(warning) == 1, err  # once, not once per game
    assert "reviewer analyze: warning: KataGo does not start (" in err and "could not open model file" in err
    assert version_calls(versions) == 1
    plies = [7, 4]
    for data, count in zip(json.loads(report.read_text()), plies, strict=True):
        assert data["engine"]["name"].startswith("builtin-go")
        assert data["engine"]["limit"] == "multipv=1" and "scheme=" not in data["engine"]["id"]
        assert data["passes"] is None and {m["pass"] for m in data["moves"]} == {None}
        assert data["complete"] is True and data["evaluated_positions"] == count + 1


@pytest.mark.parametrize("limit, described", [(["--visits", "8"], "visits=8,multipv=1"),
                                              (["--passes", "2,4"], "scheme=go-passes-v1:visits2>4")])
def test_a_limit_the_user_gives_stays_when_katago_does_not_start(tmp_path, monkeypatch, capsys, limit, described):
    found_katago(tmp_path, monkeypatch, "--exit-on-start")
    report = tmp_path / "r.json"
    assert main(["analyze", GO_GAMES[0], *limit, "--no-cache", "-q", "--json", str(report)]) == 0
    assert "at its own visits" not in capsys.readouterr().err
    data = json.loads(report.read_text())
    assert data["engine"]["name"].startswith("builtin-go") and described in data["engine"]["limit"]
    assert data["complete"] is True
