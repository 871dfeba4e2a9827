"""CSV and HTML reports, and `reviewer analyze --html/--csv/-o` writing them safely."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
import shutil
from html.parser import HTMLParser

import chess.pgn
import pytest
from support import REPO_ROOT, fake_engine_command
from test_export_helpers import analyse, go_evaluations

from reviewer.cli import main
from reviewer.core.export import evaluations_from_game, moves_csv, report_html
from reviewer.core.export.reports import CSV_COLUMNS, mistakes_by_size
from reviewer.core.formats import game_from_sgf_text, load_game
from reviewer.core.report import build_report

OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"


@pytest.fixture(scope="module")
def opera_report():
    from reviewer.core.analysis import Limit
    from reviewer.core.engines.uci import UciEngine

    game = load_game(OPERA)
    with UciEngine(fake_engine_command("fake_uci.py")) as engine:
        table = analyse(game, engine, Limit(nodes=500))
    return build_report(game, table, None, "FakeFish 1.0")


def test_csv_has_one_row_per_move_with_the_reports_values(opera_report):
    rows = list(csv.DictReader(io.StringIO(moves_csv([opera_report, opera_report]))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 2 * len(opera_report["moves"])
    assert {row["game"] for row in rows} == {"1", "2"}
    for row, move in zip(rows, opera_report["moves"]):
        assert row["move"] == move["move"] and row["judgement"] == (move["judgement"] or "")
        assert int(row["ply"]) == move["ply"] and row["color"] == move["color"]
        assert float(row["eval_after"]) == pytest.approx(move["eval_after"], abs=1e-4)
        assert float(row["loss"]) == pytest.approx(move["loss"], abs=1e-4)
        assert row["weight"] == ""  # chess has no Go weights


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.rows: list[list[str]] = []
        self._table: str | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "table":
            self._table = attributes.get("class")
        if tag == "tr" and self._table == "mistakes":
            self.rows.append([])

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._table == "mistakes" and self.rows and data.strip():
            self.rows[-1].append(data.strip())


def test_html_is_self_contained_with_graph_mistakes_and_summary(opera_report):
    page = report_html([opera_report])
    parser = _Collector()
    parser.feed(page)
    tags = [tag for tag, _ in parser.tags]
    assert "script" not in tags and "link" not in tags and "img" not in tags
    assert not re.search(r"(src|href)=", page)
    assert tags.count("svg") == 1
    curve = next(attrs for tag, attrs in parser.tags if tag == "polyline")
    assert len(curve["points"].split()) == len(opera_report["moves"]) + 1
    bars = [attrs for tag, attrs in parser.tags if tag == "rect" and "loss" in (attrs.get("class") or "")]
    assert len(bars) == sum(1 for m in opera_report["moves"] if (m["loss"] or 0) > 0)
    flagged = mistakes_by_size(opera_report)
    assert flagged and len(parser.rows) == len(flagged) + 1  # the header row and one per mistake
    losses = [float(row[2]) for row in parser.rows[1:]]
    assert losses == sorted(losses, reverse=True)
    white = opera_report["summary"]["white"]
    assert f"{white['accuracy']:.1f}" in page and f"{white['acpl']:.1f}" in page
    assert "Paul Morphy" in page


def test_go_html_plots_the_score_lead():
    game = game_from_sgf_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[gg];W[cg];B[dd])")
    report = build_report(game, go_evaluations(game), None, "Synthetic Go")
    page = report_html([report])
    assert "score lead" in page and page.count("<polyline") == 1
    rows = list(csv.DictReader(io.StringIO(moves_csv([report]))))
    assert all(row["accuracy"] == "" and row["weight"] != "" for row in rows)


def fake_cmd() -> str:
    return shlex.join(fake_engine_command("fake_uci.py"))


def test_analyze_writes_annotated_html_and_csv(tmp_path):
    out, page, table = tmp_path / "a.pgn", tmp_path / "r.html", tmp_path / "m.csv"
    code = main(["analyze", str(OPERA), "--engine-cmd", fake_cmd(), "--nodes", "500", "-q",
                 "-o", str(out), "--html", str(page), "--csv", str(table)])
    assert code == 0
    annotated = chess.pgn.read_game(io.StringIO(out.read_text()))
    assert annotated.headers["Annotator"].startswith("Reviewer") and annotated.next().eval() is not None
    assert "<svg" in page.read_text() and len(table.read_text().splitlines()) == 33 + 1
    # The annotated copy reopens with its analysis: no engine needed for the same figures.
    reopened = load_game(out)
    assert len(evaluations_from_game(reopened)) == 34


def test_analyze_never_writes_over_the_game_file_unless_asked(tmp_path, capsys):
    source = tmp_path / "game.pgn"
    shutil.copy(OPERA, source)
    original = source.read_bytes()
    for option in ("-o", "--html", "--csv", "--json"):
        assert main(["analyze", str(source), "--engine-cmd", fake_cmd(), "-q", option, str(source)]) == 2
        err = capsys.readouterr().err
        assert "game file being reviewed" in err and err.count("\n") == 1
        assert source.read_bytes() == original
    assert main(["analyze", str(source), "--engine-cmd", fake_cmd(), "-q", "-o", str(source)]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert main(["analyze", str(source), "--engine-cmd", fake_cmd(), "--nodes", "500", "-q", "-o", str(source), "--overwrite"]) == 0
    assert "[%eval" in source.read_text() and not list(tmp_path.glob(".*.tmp"))


def test_analyze_go_writes_the_reports_too(tmp_path):
    sgf_path = tmp_path / "g.sgf"
    sgf_path.write_text("(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[cg])")
    command = shlex.join(fake_engine_command("fake_katago.py"))
    out, page = tmp_path / "a.sgf", tmp_path / "r.html"
    assert main(["analyze", str(sgf_path), "--engine-cmd", command, "--visits", "10", "-q",
                 "-o", str(out), "--html", str(page), "--json", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    reopened = load_game(out)
    table = evaluations_from_game(reopened)
    again = build_report(reopened, table)
    assert [m["judgement"] for m in again["moves"]] == [m["judgement"] for m in report["moves"]]
    assert [m["eval_after"] for m in again["moves"]] == [m["eval_after"] for m in report["moves"]]
    assert "score lead" in page.read_text()
