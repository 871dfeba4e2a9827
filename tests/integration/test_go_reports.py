"""`reviewer analyze` on Go games of many shapes: GTP coordinates, colours, signed losses, the contract."""

from __future__ import annotations

import pytest
from conftest import DATA_DIR, EXIT_OK, reports_of, run_reviewer
from report_contract import check_report

SHAPES = {
    "go_9x9_passes.sgf": (["E5", "C7", "G7", "C3", "pass", "pass", "J9"], "black", [9, 9]),
    "go_19x19_handicap.sgf": (["D16", "R4", "K11", "A1", "T19"], "white", [19, 19]),
    "go_fox_km0.sgf": (["Q16", "D4", "Q4"], "black", [19, 19]),
    "go_rect_7x5.sgf": (["C3", "E3", "A4", "G5"], "black", [7, 5]),
    "go_white_first.sgf": (["E5", "C7", "G3"], "white", [9, 9]),
}


def analyse(tmp_path, engine_args, game_file, *extra: str, timeout: float = 60):
    out = tmp_path / "report.json"
    run = run_reviewer("analyze", game_file, *engine_args, "-q", "--json", out, *extra, timeout=timeout)
    return run, out


def check_shape(report, name):
    check_report(report, "go")
    moves, first_color, size = SHAPES[name]
    assert [m["move"] for m in report["moves"]] == moves
    colors = [m["color"] for m in report["moves"]]
    assert colors[0] == first_color and all(a != b for a, b in zip(colors, colors[1:]))
    assert report["game"]["board_size"] == size


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_fake_katago_reports_keep_the_contract(tmp_path, fake_katago, name):
    run, out = analyse(tmp_path, ["--engine-cmd", fake_katago, "--visits", "5"], DATA_DIR / name)
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    check_shape(report, name)
    assert report["evaluated_positions"] == len(report["moves"]) + 1
    assert any(m["loss"] is not None and m["loss"] < 0 for m in report["moves"]) or len(report["moves"]) < 3


def test_losses_keep_their_sign(tmp_path, fake_katago):
    """points_lost is signed (a move may gain); judgements and figures use max(0, loss)."""
    _, out = analyse(tmp_path, ["--engine-cmd", fake_katago, "--visits", "16"], DATA_DIR / "go_9x9_passes.sgf")
    (report,) = reports_of(out)
    losses = [m["loss"] for m in report["moves"]]
    assert any(loss < 0 for loss in losses) and any(loss > 0 for loss in losses), losses
    for move in report["moves"]:
        if move["loss"] < 0 and move["judgement"] != "best":
            assert move["judgement"] == "good"


@pytest.mark.parametrize("name", ["go_9x9_passes.sgf", "go_rect_7x5.sgf", "go_white_first.sgf"])
def test_builtin_engine_reports_keep_the_contract(tmp_path, name):
    run, out = analyse(tmp_path, ["--engine", "builtin", "--visits", "20"], DATA_DIR / name)
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    check_shape(report, name)
    assert report["trust"]["labels"] is False and "KataGo" in report["trust"]["remedy"]  # a rough estimate


def test_what_katago_is_told_about_the_setup(tmp_path, fake_katago):
    """Handicap stones, who starts, komi (Fox's KM[0] with HA[1] means 0.5) and the board size."""
    import json

    from conftest import recorded_cmd

    seen = {}
    for name in ("go_19x19_handicap.sgf", "go_fox_km0.sgf", "go_rect_7x5.sgf", "go_white_first.sgf"):
        log = tmp_path / f"{name}.log"
        run, _ = analyse(tmp_path, ["--engine-cmd", recorded_cmd(log, fake_katago), "--visits", "5", "--no-cache"], DATA_DIR / name)
        assert run.returncode == EXIT_OK, run.stderr
        queries = [json.loads(line) for line in log.read_text().splitlines() if '"moves"' in line]
        assert len(queries) == 1
        seen[name] = queries[0]
    handicap = seen["go_19x19_handicap.sgf"]
    assert sorted(map(tuple, handicap["initialStones"])) == [("B", "D4"), ("B", "Q16")]
    assert handicap["initialPlayer"] == "W" and handicap["moves"][0] == ["W", "D16"] and handicap["komi"] == 0.5
    assert seen["go_fox_km0.sgf"]["komi"] == 0.5
    rect = seen["go_rect_7x5.sgf"]
    assert (rect["boardXSize"], rect["boardYSize"]) == (7, 5)
    assert seen["go_white_first.sgf"]["initialPlayer"] == "W"


@pytest.mark.engine
def test_katago_itself(tmp_path):
    run, out = analyse(tmp_path, ["--engine", "katago", "--visits", "4"], DATA_DIR / "go_rect_7x5.sgf", timeout=240)
    if run.returncode != EXIT_OK and "not installed" in run.stderr:
        pytest.skip(run.stderr.strip())
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    check_shape(report, "go_rect_7x5.sgf")
    assert "KataGo" in report["engine"]["name"]
