"""Any bytes in a game file: `reviewer info` and `reviewer report` answer 0 or 2, never a traceback."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from report_contract import check_report, load_strict_json

from reviewer import cli

PGN_PIECES = ['[Event "x"]\n', '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n', '[SetUp "1"]\n', "1. e4 ", "e5 ", "2. Nf3 ",
              "{ [%eval 0.3] } ", "{ [%eval #-2] } ", "( 1... c5 ) ", "$1 ", "1-0", "*", "\n", "{", "}", "[", "]", '"', "O-O ",
              "e8=Q ", "\x00", "\ufeff", "é"]  # fmt: skip
SGF_PIECES = ["(", ")", ";", "GM[1]", "SZ[9]", "SZ[19]", "SZ[0]", "SZ[7:5]", "B[ee]", "W[cc]", "B[]", "W[tt]", "AB[aa][bb]",
              "KM[6.5]", "HA[2]", "PL[W]", "C[x\\]y]", "[", "]", "\\", "B[zz]", "CA[latin-1]", "é", "\x00"]  # fmt: skip


def texts(pieces):
    return st.lists(st.sampled_from(pieces), max_size=30).map("".join)


def run_quietly(argv, capsys) -> int:
    try:
        code = cli.main(argv)
    except SystemExit as exit_:  # argparse
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err, captured.err
    return code


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts(PGN_PIECES))
def test_any_pgn(tmp_path, capsys, text):
    path = tmp_path / "fuzz.pgn"
    path.write_text(text, encoding="utf-8")
    assert run_quietly(["info", str(path)], capsys) in (0, 2)
    out = tmp_path / "r.json"
    out.unlink(missing_ok=True)
    code = run_quietly(["report", str(path), "--json", str(out)], capsys)
    assert code in (0, 2)
    if code == 0:
        check_report(load_strict_json(out.read_text(encoding="utf-8")), "chess")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts(SGF_PIECES))
def test_any_sgf(tmp_path, capsys, text):
    path = tmp_path / "fuzz.sgf"
    path.write_text(text, encoding="utf-8")
    assert run_quietly(["info", str(path)], capsys) in (0, 2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
@pytest.mark.parametrize("suffix", [".pgn", ".sgf", ".gib", ".ngf", ".ugf"])
def test_any_bytes(tmp_path, capsys, suffix, data):
    path = tmp_path / f"fuzz{suffix}"
    path.write_bytes(data)
    assert run_quietly(["info", str(path)], capsys) in (0, 2)
