"""SGF files put together from others, or mislabelled, read with nothing lost in silence: every
game of glued files (a root without its ';', a UTF-16 file before a UTF-8 one), text between
games named, a CA[] the names plainly contradict said so, NUL bytes inside left out with a word."""

from __future__ import annotations

import codecs

import pytest

from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection


def _open(tmp_path, data: bytes, name: str = "glued.sgf"):
    path = tmp_path / name
    path.write_bytes(data)
    return open_collection(path)


def _moves(game) -> list[str]:
    return game.mainline_moves()


# ---------------------------------------------------------------- a root without its ';'

# As old Korean and Japanese servers write them: "(" straight followed by the root's properties.
NO_SEMICOLON = b"(\r\nTE[Meijin]\r\nPB[Lee]\r\nPW[Cho]\r\nSZ[19]\r\n;B[pd];W[dp];B[pp])\r\n"
PLAIN = b"(;GM[1]FF[4]SZ[19]PB[Black one]PW[White one];B[dd];W[qq])\n"


@pytest.mark.parametrize(
    "data, blacks",
    [
        (NO_SEMICOLON + PLAIN, ["Lee", "Black one"]),
        (PLAIN + NO_SEMICOLON, ["Black one", "Lee"]),
        (PLAIN + NO_SEMICOLON + PLAIN, ["Black one", "Lee", "Black one"]),
        (NO_SEMICOLON + NO_SEMICOLON, ["Lee", "Lee"]),
    ],
    ids=["first", "second", "between", "both"],
)
def test_a_game_whose_root_lacks_its_semicolon_is_read_glued_to_others(tmp_path, data, blacks):
    collection = _open(tmp_path, data)
    assert [collection.game(index).black for index in range(len(collection))] == blacks
    for index, black in enumerate(blacks):
        wanted = ["Q16", "D4", "Q4"] if black == "Lee" else ["D16", "R3"]
        assert _moves(collection.game(index)) == wanted
    assert not collection.warnings


@pytest.mark.parametrize("oro_first", [True, False])
def test_corpus_oro_game_glued_to_another_corpus_game_keeps_both(corpus_dir, tmp_path, oro_first):
    oro = (corpus_dir / "sgf" / "analyze-sgf__t-oro-1.sgf").read_bytes()
    other = (corpus_dir / "sgf" / "katago__testsgf_white_first.sgf").read_bytes()
    alone = [open_collection(corpus_dir / "sgf" / name).game(0) for name in ("analyze-sgf__t-oro-1.sgf", "katago__testsgf_white_first.sgf")]
    parts, games = ([oro, other], alone) if oro_first else ([other, oro], alone[::-1])
    collection = _open(tmp_path, parts[0].rstrip() + b"\n" + parts[1])
    assert len(collection) == 2
    for index, wanted in enumerate(games):
        game = collection.game(index)
        assert (game.black, game.white, _moves(game)) == (wanted.black, wanted.white, _moves(wanted))


# ---------------------------------------------------------------- text between games


def test_text_between_or_after_games_is_named_in_a_warning(tmp_path):
    data = b"(;GM[1]SZ[9];B[aa])\nThe second game was played in the evening.\n(;GM[1]SZ[9];B[bb])\n-- end of the archive --\n"
    collection = _open(tmp_path, data)
    assert [_moves(collection.game(index)) for index in range(2)] == [["A9"], ["B8"]]
    assert any("bytes after game 1 are not SGF" in warning for warning in collection.warnings)
    assert any("bytes after game 2 are not SGF" in warning for warning in collection.warnings)


def test_blank_lines_and_an_empty_variation_between_games_are_no_text_left_out(tmp_path):
    data = b"\r\n(;GM[1]SZ[9];B[aa])\r\n\r\n ();) \n(;GM[1]SZ[9];B[bb])\n\x1a"
    collection = _open(tmp_path, data)
    assert len(collection) == 2
    assert not collection.warnings


# ---------------------------------------------------------------- a UTF-16 file glued to another

UTF16_GAME = "(;GM[1]FF[4]SZ[19]PB[木谷實]PW[呉清源];B[pd];W[dp])\r\n"
UTF8_GAME = "(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[Jörg]PW[René];B[ee])\n"


@pytest.mark.parametrize("codec, bom", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE)])
def test_a_utf8_file_glued_after_a_utf16_one_is_read_as_its_own_game_with_a_warning(tmp_path, codec, bom):
    collection = _open(tmp_path, bom + UTF16_GAME.encode(codec) + b"\n" + UTF8_GAME.encode())
    assert len(collection) == 2
    first, second = collection.game(0), collection.game(1)
    assert (first.black, first.white, _moves(first)) == ("木谷實", "呉清源", ["Q16", "D4"])
    assert (second.black, second.white, _moves(second)) == ("Jörg", "René", ["E5"])
    assert any("is not UTF-16 like the rest" in warning and "utf-8" in warning for warning in collection.warnings)


def test_corpus_utf16_file_glued_to_a_utf8_one_keeps_both(corpus_dir, tmp_path):
    utf16 = (corpus_dir / "sgf" / "sabaki-sgf__utf16le.sgf").read_bytes()
    other_path = corpus_dir / "sgf" / "katago__testsgf_japanese_rules.sgf"
    alone = [open_collection(corpus_dir / "sgf" / "sabaki-sgf__utf16le.sgf").game(0), open_collection(other_path).game(0)]
    collection = _open(tmp_path, utf16.rstrip() + b"\n" + other_path.read_bytes())
    assert len(collection) == 2
    for index, wanted in enumerate(alone):
        game = collection.game(index)
        assert (game.black, game.white, _moves(game)) == (wanted.black, wanted.white, _moves(wanted))
    assert collection.warnings


def test_bytes_in_another_encoding_after_a_utf16_game_that_hold_no_game_are_named(tmp_path):
    notes = b"Notes from the club: a fine game, well played by both.\n"
    collection = _open(tmp_path, codecs.BOM_UTF16_LE + UTF16_GAME.encode("utf-16-le") + notes)
    assert len(collection) == 1
    assert _moves(collection.game(0)) == ["Q16", "D4"]
    assert any("bytes after game 1 are not SGF" in warning for warning in collection.warnings)


# ---------------------------------------------------------------- a CA[] the text contradicts

CHINESE = "(;GM[1]FF[4]CA[{declared}]SZ[19]PB[柯洁]PW[古力]EV[围棋]RE[B+R];B[pd];W[dp])"


@pytest.mark.parametrize("declared", ["EUC-KR", "Shift_JIS"])
def test_gb18030_names_under_a_cjk_ca_of_another_charset_are_shown_as_gb18030_with_a_warning(tmp_path, declared):
    data = CHINESE.format(declared=declared).encode("gb18030")
    assert data.decode({"EUC-KR": "euc-kr", "Shift_JIS": "cp932"}[declared])  # clean under the label too
    collection = _open(tmp_path, data)
    game = collection.game(0)
    assert (game.black, game.white) == ("柯洁", "古力")
    assert _moves(game) == ["Q16", "D4"]
    warning = next(warning for warning in collection.warnings if f"CA[{declared}] declared" in warning)
    assert "'柯洁'" in warning and "GB18030" in warning
    assert "shown as GB18030" in warning


def test_a_few_names_that_read_better_under_another_charset_are_shown_as_declared_and_both_named(tmp_path):
    collection = _open(tmp_path, "(;GM[1]FF[4]CA[EUC-KR]SZ[19]PB[柯洁]PW[古力];B[pd])".encode("gb18030"))
    assert collection.game(0).black == "온썅"  # the declaration outweighs two names
    warning = next(warning for warning in collection.warnings if "CA[EUC-KR] declared" in warning)
    assert "'柯洁'" in warning and "'온썅'" in warning and "shown as declared" in warning


def test_korean_names_under_their_own_ca_stay_as_declared_without_a_warning(tmp_path):
    data = "(;GM[1]FF[4]CA[EUC-KR]SZ[19]PB[이세돌]PW[박정환]RE[흑 불계승];B[pd])".encode("euc-kr")
    collection = _open(tmp_path, data)
    assert (collection.game(0).black, collection.game(0).white) == ("이세돌", "박정환")
    assert not collection.warnings


def test_hanja_ranks_under_a_right_euc_kr_in_a_fox_file_stay_as_declared(tmp_path):
    data = "(;CA[EUC-KR]GM[1]FF[4]SZ[19]PB[one]PW[two]BR[3段]WR[5段]AP[foxwq];B[pd])".encode("euc-kr")
    collection = _open(tmp_path, data)
    assert collection.encoding == "cp949"
    assert not collection.warnings


def test_corpus_files_with_a_right_cjk_ca_stay_as_declared(corpus_dir):
    for name, black_or_white in (("sabaki-sgf__chinese.sgf", "柯洁"), ("sabaki-sgf__korean.sgf", None)):
        collection = open_collection(corpus_dir / "sgf" / name)
        assert not [warning for warning in collection.warnings if "declared" in warning]
        if black_or_white:
            assert black_or_white in (collection.game(0).black, collection.game(0).white)


# ---------------------------------------------------------------- NUL bytes inside


@pytest.mark.parametrize("at", [0, 5, 30, -2])
def test_nul_bytes_inside_an_sgf_are_left_out_with_a_warning(tmp_path, at):
    data = "(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[Jörg]PW[René];B[pd];W[dp]C[well played];B[pp])".encode()
    collection = _open(tmp_path, data[:at] + b"\x00" * 3 + data[at:])
    game = collection.game(0)
    assert (game.black, game.white, _moves(game)) == ("Jörg", "René", ["Q16", "D4", "Q4"])
    assert any("3 NUL bytes" in warning and "left out" in warning for warning in collection.warnings)


def test_eight_nul_bytes_in_a_tiny_sgf_are_left_out_with_a_warning(tmp_path):
    collection = _open(tmp_path, b"(;GM[1]SZ[9]PB[a]\x00\x00\x00\x00\x00\x00\x00\x00;B[ee])")
    assert _moves(collection.game(0)) == ["E5"]
    assert any("8 NUL bytes" in warning for warning in collection.warnings)


def test_binary_data_with_many_nuls_is_still_refused(tmp_path):
    with pytest.raises(GameFileError, match="binary"):
        _open(tmp_path, b"(;GM[1]" + bytes(range(256)) * 4 + b")")


def test_a_ca_of_utf16_on_a_file_in_single_bytes_is_not_believed(tmp_path) -> None:
    data = "(;GM[1]FF[4]CA[UTF-16]SZ[19]PB[柯洁]PW[古力]C[围棋 柯洁 古力];B[pd];W[dp])".encode("gb18030")
    game = _open(tmp_path, data, "wrong.sgf").game(0)
    assert (game.black, game.white, len(game.mainline_moves())) == ("柯洁", "古力", 2)
    collection = _open(tmp_path, data, "wrong.sgf")
    warnings = [*collection.warnings, *collection.game(0).warnings]
    assert any("CA[UTF-16] declared, but the file is not in UTF-16" in warning for warning in warnings), warnings


def test_games_glued_from_files_in_other_charsets_are_each_read_in_their_own(tmp_path) -> None:
    chinese = "(;GM[1]FF[4]CA[GB2312]SZ[19]PB[柯洁]PW[古力]C[围棋];B[pd];W[dp])".encode("gb2312")
    korean = "(;GM[1]FF[4]CA[EUC-KR]SZ[19]PB[박정환]PW[이세돌]C[바둑];B[pd])".encode("euc-kr")
    utf8 = "(;GM[1]FF[4]SZ[19]PB[탕웨이싱]PW[커제]C[흑이 좋은 출발을 했다];B[dd])".encode()
    collection = _open(tmp_path, chinese + b"\n" + korean + b"\n" + utf8)
    games = [collection.game(index) for index in range(3)]
    assert [(game.black, game.white) for game in games] == [("柯洁", "古力"), ("박정환", "이세돌"), ("탕웨이싱", "커제")]
    assert [summary.black for summary in collection.summaries()] == ["柯洁", "박정환", "탕웨이싱"]
    assert any("game 2 is read in cp949" in warning for warning in games[1].warnings)
    assert any("game 3 is read in utf-8" in warning for warning in games[2].warnings)
