"""`reviewer analyze --engine builtin` on a real 9x9 game: the scores without KataGo, labels withheld."""

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
    # The built-in engine gives the score graph only: its labels would not agree with a strong
    # engine's (docs/SCORING.md, "Which engines may label moves"), so they are withheld, with why.
    assert report["trust"]["labels"] is False
    assert "KataGo" in report["trust"]["remedy"] and report["trust"]["reason"]
    assert all(m["judgement"] is None for m in moves)
    for side in ("black", "white"):
        assert report["summary"][side]["accuracy"] is None
