"""Every file of the shared corpus opens (or fails with one clear line), and survives a round trip."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewer.core.errors import GameFileError
from reviewer.core.formats import game_from_pgn_text, game_from_sgf_text, open_collection, write_pgn, write_sgf
from reviewer.core.formats.compare import game_differences

# Files that cannot be opened, and why. Everything else in the corpus must open.
EXPECTED_FAILURES = {
    "sgf/katago__testsgf_giant_37x37.sgf": "37x37 board",  # boards up to 25x25 only (GTP letters)
    "pgn/pgn-read__crafty06_02.pgn": "no chess game",  # an HTML newsletter: moves in prose, no PGN
    "pgn/pgn-read__crafty06_03.pgn": "no chess game",  # the same
}
GAMES_PER_FILE = 3  # enough to exercise each file; the big files' later games add time, not coverage

# The corpus listed at collection time so that each file is its own quick test; the tests still
# reach the files through the `corpus_dir` fixture (which skips when the corpus is absent).
_LISTED_CORPUS = Path(os.environ.get("REVIEWER_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "corpus"
CORPUS_FILES = (
    sorted(p.relative_to(_LISTED_CORPUS).as_posix() for p in _LISTED_CORPUS.rglob("*") if p.is_file() and p.name != "MANIFEST.tsv")
    if _LISTED_CORPUS.is_dir()
    else []
)


def test_the_corpus_is_listed_and_every_expected_failure_is_in_it(corpus_dir):
    listed = sorted(p.relative_to(corpus_dir).as_posix() for p in corpus_dir.rglob("*") if p.is_file() and p.name != "MANIFEST.tsv")
    assert listed == CORPUS_FILES
    assert len(listed) > 190
    assert set(EXPECTED_FAILURES) <= set(listed)


@pytest.mark.parametrize("relative", CORPUS_FILES)
def test_corpus_file_opens_or_fails_clearly(corpus_dir, relative):
    path = corpus_dir / relative
    if relative in EXPECTED_FAILURES:
        with pytest.raises(GameFileError) as raised:
            open_collection(path)
        message = str(raised.value)
        assert "\n" not in message and str(path) in message
        assert EXPECTED_FAILURES[relative] in message
        return
    collection = open_collection(path)
    assert len(collection) >= 1
    assert collection.format == path.suffix.lower().lstrip(".").replace("ugi", "ugf")
    for summary in collection.summaries():
        assert summary.kind == ("chess" if collection.format == "pgn" else "go")
    for index in range(min(len(collection), GAMES_PER_FILE)):
        game = collection.game(index)
        assert game.source.format == collection.format and game.source.index == index
        assert all("\n" not in warning for warning in game.warnings)
        summary = collection.summary(index)
        assert (summary.white, summary.black, summary.result) == (game.white, game.black, game.result)


@pytest.mark.parametrize("relative", [name for name in CORPUS_FILES if name not in EXPECTED_FAILURES])
def test_corpus_games_survive_a_round_trip(corpus_dir, relative):
    collection = open_collection(corpus_dir / relative)
    for index in range(min(len(collection), GAMES_PER_FILE)):
        game = collection.game(index)
        if game.kind == "chess":
            again = game_from_pgn_text(write_pgn(game))
        else:
            again = game_from_sgf_text(write_sgf(game))
        assert game_differences(game, again) == []


@pytest.mark.parametrize(
    ("relative", "black", "white"),
    [
        ("sgf/sabaki-sgf__chinese.sgf", "古力", "柯洁"),  # CA[GB2312] after PB
        ("sgf/sabaki-sgf__korean.sgf", "이세돌", "박정환"),  # CA[EUC-KR]
        ("sgf/sabaki-sgf__nihon-kiin.sgf", "申眞ソ", "党毅飛"),  # Shift-JIS, no CA, no '(;'
        ("sgf/analyze-sgf__t-encoding-cp949.sgf", "커제", "탕웨이싱"),  # says UTF-8, is CP949
        ("sgf/analyze-sgf__t-oro-2.sgf", "커제", "탕웨이싱"),
        ("sgf/sabaki-sgf__utf16le.sgf", "Kitani Minoru", "Go Seigen"),
        ("sgf/sabaki-sgf__utf8bom.sgf", "Kitani Minoru", "Go Seigen"),
        ("sgf/sabaki__gb2312.gib", "石下之臣", "harpmaster"),
        ("sgf/sabaki__euc-kr.gib", "dustkd1015", "dongjik"),
        ("sgf/analyze-sgf__t-gb2312.sgf", "石下之臣", "harpmaster"),
    ],
)
def test_cjk_files_decode_to_the_right_names(corpus_dir, relative, black, white):
    game = open_collection(corpus_dir / relative).game(0)
    assert (game.black, game.white) == (black, white)


def test_encoding_detection_details(corpus_dir):
    sgf = corpus_dir / "sgf"
    no_ca = open_collection(sgf / "sabaki-sgf__no-ca.sgf")
    assert no_ca.encoding == "gb18030"
    assert no_ca.game(0).root.comment.startswith("【第三型】 黑先")
    double = open_collection(sgf / "analyze-sgf__t-euc-kr.sgf")
    assert double.game(0).event == "승강급 대국"  # EUC-KR bytes once read as Latin-1, repaired
    assert any("encoded twice" in warning for warning in double.warnings)
    assert open_collection(sgf / "sgfmill__latin1_pound.sgf").game(0).root.comment == "£"
    korean_gib = open_collection(sgf / "sabaki__euc-kr.gib").game(0)
    assert korean_gib.headers["GN"] == "승강급 대국"
    assert open_collection(sgf / "sabaki__gb2312.ngf").game(0).event == "韩国十段战"
    unknown = open_collection(sgf / "sgfmill__unknown_encoding.sgf")
    assert any("unknownencoding" in warning for warning in unknown.warnings)
