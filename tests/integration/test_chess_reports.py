"""`reviewer analyze` / `reviewer report` on chess games of many shapes: the report keeps its contract."""

from __future__ import annotations

import pytest
from conftest import DATA_DIR, EXIT_BAD_INPUT, EXIT_OK, reports_of, run_reviewer
from report_contract import check_report

SHAPES = {
    "chess_fools_mate.pgn": (["f3", "e5", "g4", "Qh4#"], "white"),
    "chess_black_first.pgn": (["Kd7", "e4", "Ke6", "Kf2"], "black"),
    "chess_promotions.pgn": (["exd8=R+", "Kg7", "Rd7+", "Kg6", "Rd1", "b1=Q", "Rxb1"], "white"),
    "chess_stalemate.pgn": (["Qg6"], "white"),
    "chess_one_move.pgn": (["e4"], "white"),
    "chess_header_only.pgn": ([], "white"),
}


def analyse(tmp_path, engine_cmd, game_file, *extra: str):
    out = tmp_path / "report.json"
    run = run_reviewer("analyze", game_file, "--engine-cmd", engine_cmd, "--depth", "3", "-q", "--json", out, *extra)
    return run, out


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_shape_keeps_the_contract(tmp_path, fake_uci, name):
    run, out = analyse(tmp_path, fake_uci, DATA_DIR / name)
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    check_report(report, "chess")
    moves, first_color = SHAPES[name]
    assert [m["move"] for m in report["moves"]] == moves
    if moves:
        assert report["moves"][0]["color"] == first_color
    assert report["evaluated_positions"] == len(moves) + 1


def test_chess960_needs_an_engine_that_plays_it(tmp_path, fake_uci):
    run, _ = analyse(tmp_path, fake_uci, DATA_DIR / "chess960_castling.pgn")
    assert run.returncode == 1
    assert "Traceback" not in run.stderr and "chess960" in run.stderr.lower()


def test_game_over_positions_score_by_the_rules(tmp_path, fake_uci):
    run, out = analyse(tmp_path, fake_uci, DATA_DIR / "chess_fools_mate.pgn")
    assert run.returncode == EXIT_OK, run.stderr
    assert reports_of(out)[0]["moves"][-1]["eval_after"] == -1000  # White is checkmated
    run, out = analyse(tmp_path, fake_uci, DATA_DIR / "chess_stalemate.pgn")
    (move,) = reports_of(out)[0]["moves"]
    assert move["eval_after"] == 0 and move["judgement"] != "best"  # a won game thrown away by stalemate


def test_skip_book_leaves_book_moves_out(tmp_path, fake_uci):
    run, out = analyse(tmp_path, fake_uci, DATA_DIR / "chess_three_games.pgn", "--game", "3", "--skip-book")
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    assert report["skip_book"] is True and any(m["judgement"] == "book" for m in report["moves"])
    check_report(report, "chess")


def test_an_illegal_move_ends_the_main_line_and_says_so(tmp_path, fake_uci):
    run, out = analyse(tmp_path, fake_uci, DATA_DIR / "chess_illegal_move.pgn")
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    check_report(report, "chess")
    assert [m["move"] for m in report["moves"]] == ["e4", "e5"]
    assert any("Ke3" in warning for warning in report["game"]["warnings"])
    info = run_reviewer("info", DATA_DIR / "chess_illegal_move.pgn")
    assert info.returncode == EXIT_OK and "Ke3" in info.stdout


def test_analyze_tells_about_the_skipped_moves(tmp_path, fake_uci):
    run, _ = analyse(tmp_path, fake_uci, DATA_DIR / "chess_illegal_move.pgn")
    assert "Ke3" in run.stderr


@pytest.mark.parametrize("number, white", [(1, "A1"), (2, "A2"), (3, "A3")])
def test_game_n_picks_that_game(tmp_path, fake_uci, number, white):
    run, out = analyse(tmp_path, fake_uci, DATA_DIR / "chess_three_games.pgn", "--game", str(number))
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    assert report["game"]["white"] == white
    check_report(report, "chess")


def test_all_games_writes_a_list(tmp_path, fake_uci):
    run, out = analyse(tmp_path, fake_uci, DATA_DIR / "chess_three_games.pgn", "--all-games")
    assert run.returncode == EXIT_OK, run.stderr
    reports = reports_of(out)
    assert [r["game"]["white"] for r in reports] == ["A1", "A2", "A3"]
    for report in reports:
        check_report(report, "chess")


@pytest.mark.parametrize(
    "number",
    ["0", "-1", "4"],
)
def test_a_game_that_is_not_there_is_bad_input(tmp_path, fake_uci, number):
    run, out = analyse(tmp_path, fake_uci, DATA_DIR / "chess_three_games.pgn", "--game", number)
    assert run.returncode == EXIT_BAD_INPUT, f"--game {number}: rc {run.returncode}"
    assert not out.exists()


def test_a_huge_collection_reaches_its_last_game(tmp_path, fake_uci, corpus_dir):
    collection = corpus_dir / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn"
    run, out = analyse(tmp_path, fake_uci, collection, "--game", "232")
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    assert report["game"]["source"]["index"] == 231
    check_report(report, "chess")
    run, _ = analyse(tmp_path, fake_uci, collection, "--game", "233")
    assert run.returncode == EXIT_BAD_INPUT and "232" in run.stderr


def test_report_applies_the_mate_rules(tmp_path):
    """Hand-made [%eval]s, one per rule of SCORING.md; the judgements worked out by hand."""
    out = tmp_path / "mate.json"
    run = run_reviewer("report", DATA_DIR / "mate_rules.pgn", "--json", out)
    assert run.returncode == EXIT_OK, run.stderr
    (report,) = reports_of(out)
    check_report(report, "chess")
    assert [m["judgement"] for m in report["moves"]] == [
        "inaccuracy",  # cp -1200 for the mover, then mated: "checkmate now unavoidable", c < -999
        "mistake",  # mating, then +800 for the mover: "lost forced checkmate", c > 700
        "mistake",  # cp -800, then mated: c < -700
        "blunder",  # mating, then -10: c <= 700
        "blunder",  # cp +10, then mated
        "good",  # mating before and after
        "good",  # mated before and after: the drop rule, no drop
        "inaccuracy",  # mating, then +1200: c > 999
        "good",  # -1200, then mating: a gain
        "good",  # mated before and after
        "blunder",  # mating, then mated
    ]


def test_report_on_embedded_evaluations_of_the_corpus(tmp_path, corpus_dir):
    source = corpus_dir / "pgn" / "scalachess__FWWRC_full_eval_clk.pgn"
    for number in ("1", "605"):
        run = run_reviewer("report", source, "--game", number, "--json", "-")
        assert run.returncode == EXIT_OK, run.stderr
        from report_contract import load_strict_json

        report = load_strict_json(run.stdout)
        check_report(report, "chess")
        assert report["moves"], "a game with moves"


def test_report_refuses_what_it_cannot_score(tmp_path):
    for args, fragment in (
        ([DATA_DIR / "chess_one_move.pgn"], "eval"),
        ([DATA_DIR / "go_9x9_passes.sgf"], "go"),
        ([DATA_DIR / "mate_rules.pgn", "--game", "2"], "game 2"),
        ([DATA_DIR / "mate_rules.pgn", "--game", "0"], "game"),
    ):
        run = run_reviewer("report", *args)
        assert run.returncode == EXIT_BAD_INPUT, (args, run.stderr)
        assert fragment in run.stderr.lower() and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "name, engine, suffix",
    [("chess_three_games.pgn", "fake_uci.py", ".pgn"), ("go_9x9_passes.sgf", "fake_katago.py", ".sgf")],
)
def test_an_annotated_copy_scores_the_same_without_an_engine(tmp_path, name, engine, suffix):
    """analyze -o --with-analysis writes the review into the copy; `reviewer report` on the copy gives the
    same report. (A clean export keeps only what other programs show, so it cannot.)"""
    from conftest import fake_cmd

    first, annotated, again = tmp_path / "first.json", tmp_path / f"annotated{suffix}", tmp_path / "again.json"
    run = run_reviewer(
        "analyze", DATA_DIR / name, "--engine-cmd", fake_cmd(engine), "--depth", "2", "--visits", "5", "-q",
        "--json", first, "-o", annotated, "--with-analysis",
    )  # fmt: skip
    assert run.returncode == EXIT_OK, run.stderr
    run = run_reviewer("report", annotated, "--json", again)
    assert run.returncode == EXIT_OK, run.stderr
    (before,), (after,) = reports_of(first), reports_of(again)
    check_report(after)
    assert after["summary"] == before["summary"]
    keys = ("move", "best", "judgement", "loss", "eval_before", "eval_after")
    assert [[m[k] for k in keys] for m in after["moves"]] == [[m[k] for k in keys] for m in before["moves"]]
