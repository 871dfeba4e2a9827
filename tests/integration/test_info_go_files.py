"""`reviewer info` on Go files that were read wrongly before: Fox komi, a truncated collection, setup nodes."""

from __future__ import annotations

import json

from conftest import EXIT_OK, run_reviewer


def test_info_shows_the_komi_fox_meant(corpus_dir):
    path = corpus_dir / "sgf" / "sabaki-sgf__fox_go_server_komi.sgf"  # KM[375] RU[Chinese]
    run = run_reviewer("info", path)
    assert run.returncode == EXIT_OK, run.stderr
    assert "komi 7.5" in run.stdout and "komi 375" not in run.stdout
    run = run_reviewer("info", path, "--json")
    assert run.returncode == EXIT_OK, run.stderr
    assert json.loads(run.stdout)["games"][0]["komi"] == 7.5


def test_info_lists_the_complete_games_of_a_truncated_collection_and_names_the_cut_one(corpus_dir):
    run = run_reviewer("info", corpus_dir / "sgf" / "sgfmill__truncated_collection.sgf")
    assert run.returncode == EXIT_OK, run.stderr
    assert "2 games" in run.stdout
    warnings = [line for line in run.stdout.splitlines() if "warning" in line]
    assert any("game 2" in line and "truncated" in line for line in warnings), run.stdout


def test_info_counts_moves_not_setup_nodes(tmp_path):
    path = tmp_path / "setup.sgf"
    path.write_text("(;GM[1]SZ[9];B[ee];W[cc];AB[gg]AW[aa];B[dd])", encoding="utf-8")
    run = run_reviewer("info", path)
    assert run.returncode == EXIT_OK, run.stderr
    assert "3 moves" in run.stdout, run.stdout


def test_analyze_with_the_builtin_engine_runs_no_katago(tmp_path):
    import os

    marker = tmp_path / "katago-was-run"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    katago = bin_dir / "katago"
    katago.write_text(f"#!/bin/sh\necho \"$@\" >> '{marker}'\necho 'KataGo v1.15.3'\n")
    katago.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "REVIEWER_ENGINES_DIR": str(tmp_path / "no-engines")}
    game = tmp_path / "g.sgf"
    game.write_text("(;GM[1]SZ[5]KM[0.5];B[cc];W[bb])", encoding="utf-8")
    out = tmp_path / "out.json"
    run = run_reviewer("analyze", game, "--engine", "builtin", "--visits", "8", "-q", "--json", out, env=env)
    assert run.returncode == EXIT_OK, run.stderr
    assert out.exists()
    assert not marker.exists(), marker.read_text()
