"""Every file of the shared corpus opens (or fails with one clear line), and survives a round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.core.errors import GameFileError
from reviewer.core.formats import game_from_pgn_text, game_from_sgf_text, open_collection, write_pgn, write_sgf
from reviewer.core.formats.compare import game_differences

# Files that cannot be opened, and why. Everything else in the corpus must open.
EXPECTED_FAILURES = {
    "sgf/katago__testsgf_giant_37x37.sgf": "37x37 board",  # boards up to 25x25 only (GTP letters)
    "sgf/sgfmill__truncated_collection.sgf": "truncated",  # ends inside its second game
    "pgn/pgn-read__crafty06_02.pgn": "no chess game",  # an HTML newsletter: moves in prose, no PGN
    "pgn/pgn-read__crafty06_03.pgn": "no chess game",  # the same
}
GAMES_PER_FILE = 3  # enough to exercise each file; the big files' later games add time, not coverage


def corpus_files(corpus_dir: Path) -> list[Path]:
    return sorted(p for p in corpus_dir.rglob("*") if p.is_file() and p.name != "MANIFEST.tsv")


def test_every_corpus_file_opens_or_fails_clearly(corpus_dir):
    opened, failed, unexpected = [], [], []
    for path in corpus_files(corpus_dir):
        key = path.relative_to(corpus_dir).as_posix()
        try:
            collection = open_collection(path)
            assert len(collection) >= 1
            for summary in collection.summaries():
                assert summary.kind in ("chess", "go")
            for index in range(min(len(collection), GAMES_PER_FILE)):
                game = collection.game(index)
                assert game.source.format == collection.format
                assert all("\n" not in warning for warning in game.warnings)
            opened.append(key)
        except GameFileError as error:
            message = str(error)
            assert "\n" not in message and str(path) in message, message
            if key not in EXPECTED_FAILURES or EXPECTED_FAILURES[key] not in message:
                unexpected.append(f"{key}: {message}")
            failed.append(key)
    assert unexpected == []
    assert sorted(failed) == sorted(EXPECTED_FAILURES)
    assert len(opened) > 190


def test_every_corpus_game_survives_a_round_trip(corpus_dir):
    problems = []
    for path in corpus_files(corpus_dir):
        if path.relative_to(corpus_dir).as_posix() in EXPECTED_FAILURES:
            continue
        collection = open_collection(path)
        for index in range(min(len(collection), GAMES_PER_FILE)):
            game = collection.game(index)
            if game.kind == "chess":
                again = game_from_pgn_text(write_pgn(game))
            else:
                again = game_from_sgf_text(write_sgf(game))
            differences = game_differences(game, again)
            if differences:
                problems.append(f"{path.name} game {index + 1}: {differences[:3]}")
    assert problems == []


def test_a_big_file_round_trips_every_game(corpus_dir):
    collection = open_collection(corpus_dir / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn")
    assert len(collection) == 232
    for index in range(0, 232, 7):
        game = collection.game(index)
        assert game_differences(game, game_from_pgn_text(write_pgn(game))) == []


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
