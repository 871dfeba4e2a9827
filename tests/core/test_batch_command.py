"""`reviewer batch` in process: arguments refused before any work, Ray missing, the outputs."""

from __future__ import annotations

import json
import shutil
import sys

from support import REPO_ROOT, fake_engine_command, found_katago, version_calls

from reviewer.cli import main
from reviewer.commands.batch import event_line, player_rows, progress_line
from reviewer.core.services.batch import BatchProgress, GameEvent, plan_batch

DATA = REPO_ROOT / "tests" / "data"


def fake_cmd() -> str:
    return " ".join(fake_engine_command("fake_uci.py"))


def test_without_ray_cluster_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    code = main(["batch", str(DATA / "chess_fools_mate.pgn"), "--engine-cmd", fake_cmd(), "--nodes", "500",
                 "--cluster", "local", "-q", "--store", str(tmp_path / "b.sqlite")])
    assert code == 2
    err = capsys.readouterr().err
    assert "--cluster needs Ray, which is not installed" in err and "pip install 'reviewer[cluster]'" in err


def test_one_engine_cannot_review_chess_and_go(tmp_path, capsys):
    code = main(["batch", str(DATA / "chess_fools_mate.pgn"), str(DATA / "go_9x9_passes.sgf"), "--engine-cmd", fake_cmd()])
    assert code == 2
    assert "review the chess and the Go games separately" in capsys.readouterr().err


def test_only_one_output_may_go_to_standard_output(capsys):
    assert main(["batch", str(DATA / "chess_fools_mate.pgn"), "--json", "-", "--csv", "-"]) == 2
    assert "only one output can go to standard output" in capsys.readouterr().err


def test_no_game_of_the_player(capsys):
    assert main(["batch", str(DATA / "chess_three_games.pgn"), "--player", "nobody"]) == 2
    assert "no game where 'nobody' played (among 3 games)" in capsys.readouterr().err


def test_json_to_standard_output_holds_the_reports_and_the_insights(tmp_path, capsys):
    shutil.copy(DATA / "chess_three_games.pgn", tmp_path / "three.pgn")
    code = main(["batch", str(tmp_path), "--engine-cmd", fake_cmd(), "--nodes", "500", "-q", "--json", "-",
                 "--store", str(tmp_path / "b.sqlite")])
    assert code == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "reviewer.batch/1" and document["complete"] is True
    assert [report["source"]["index"] for report in document["reports"]] == [0, 1, 2]
    assert {player["name"] for player in document["insights"]["players"]} == {"A1", "A2", "A3", "B1", "B2", "B3"}
    rows = player_rows(document["insights"])
    assert all(kind == "chess" and games == 1 for _, kind, games, _, _, _ in rows)


def test_the_lines_say_what_became_of_each_game():
    (game,) = plan_batch([DATA / "chess_fools_mate.pgn"]).games
    assert event_line(GameEvent(game, "imported")).startswith(f"imported  {game.label}  Fool - Winner (the file's evaluations)")
    assert event_line(GameEvent(game, "analysed", "the file carries no evaluations", worker="node-2 pid 7")) == (
        f"analysed  {game.label}  Fool - Winner (the file carries no evaluations) (on node-2 pid 7)"
    )
    assert event_line(GameEvent(game, "failed", "engine crashed", "engine-failed")) == f"reviewer batch: {game.label}: engine crashed"
    assert event_line(GameEvent(game, "failed", "engine not found: x", "engine-missing")) == "reviewer batch: engine not found: x"
    progress = BatchProgress(done=3, total=10, eta_s=125.4, failed=1, current=game.label, positions=(4, 9))
    assert progress_line(progress) == f"games 3/10 · 1 failed · {game.label}: 4/9 positions · ETA 2:05"


def test_katago_is_looked_for_once_to_choose_the_go_limit_and_to_review_the_games(tmp_path, monkeypatch):
    versions = found_katago(tmp_path, monkeypatch)
    out = tmp_path / "b.json"
    code = main(["batch", str(DATA / "go_9x9_passes.sgf"), str(DATA / "go_rect_7x5.sgf"), "--no-cache", "-q",
                 "--store", str(tmp_path / "b.sqlite"), "--json", str(out)])
    assert code == 0
    assert version_calls(versions) == 1  # `katago version`: one discovery for the limit and the engine
    reports = json.loads(out.read_text())["reports"]
    assert len(reports) == 2
    for report in reports:
        assert report["engine"]["name"].startswith("KataGo") and "scheme=go-passes-v1:visits2>32" in report["engine"]["id"]
