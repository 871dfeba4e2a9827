"""`reviewer analyze --engine builtin` on a real 9x9 game: a full report without KataGo."""

from __future__ import annotations

import json

from reviewer.cli import main


def test_analyze_a_9x9_game_with_the_builtin_engine(corpus_dir, tmp_path):
    report_path = tmp_path / "report.json"
    game_path = corpus_dir / "sgf" / "sabaki__endgame-9.sgf"
    rc = main(["analyze", str(game_path), "--engine", "builtin", "--visits", "40", "--quiet", "--json", str(report_path)])
    assert rc == 0
    report = json.loads(report_path.read_text())
    assert report["schema"] == "reviewer.report/1"
    assert report["engine"]["name"].startswith("builtin-go")
    moves = report["moves"]
    assert len(moves) == 40
    assert all(m["best"] and m["eval_before"] is not None and m["eval_after"] is not None for m in moves)
    assert all(m["judgement"] in {"best", "good", "inaccuracy", "mistake", "blunder"} for m in moves)
    for side in ("black", "white"):
        summary = report["summary"][side]
        assert 0 <= summary["accuracy"] <= 100
        assert sum(summary["counts"].values()) == 20
