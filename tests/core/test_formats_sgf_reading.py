"""Go files read as written: declared charsets honoured, no bracket swallowed by a multi-byte
character, valid files never refused as binary, damage flagged, and big collections listed
game by game without parsing their moves."""

from __future__ import annotations

import pytest

from reviewer.core.errors import GameFileError
from reviewer.core.formats import open_collection
from reviewer.core.formats.collection import summary_of_game


def _open(tmp_path, data: bytes, name: str = "game.sgf"):
    path = tmp_path / name
    path.write_bytes(data)
    return open_collection(path)


# ---------------------------------------------------------------- valid UTF-8 stays UTF-8

JORG = b"(;FF[4]GM[1]SZ[19]CA[UTF-8]PB[J\xc3\xb6rg]PW[Ren\xc3\xa9];B[pd];W[dp]C[d\xc3\xa9j\xc3\xa0];B[pp])"


@pytest.mark.parametrize("declared", [b"CA[UTF-8]", b"CA[utf8]", b""])
def test_valid_utf8_with_accents_is_read_as_utf8_and_not_repaired(tmp_path, declared):
    collection = _open(tmp_path, JORG.replace(b"CA[UTF-8]", declared))
    game = collection.game(0)
    assert (game.white, game.black) == ("René", "Jörg")
    assert game.mainline_moves() == ["Q16", "D4", "Q4"]
    assert game.mainline_nodes()[1].comment == "déjà"
    assert collection.encoding == "utf-8"
    assert not [w for w in collection.warnings + game.warnings if "repaired" in w]


@pytest.mark.parametrize("declared", [b"CA[UTF-8]", b""])
def test_no_break_spaces_in_a_kgs_file_stay_utf8(tmp_path, declared):
    comments = ["Good\u00a0move", "Here\u00a0a\u00a0ladder", "Thanks\u00a0for\u00a0the\u00a0game"]
    moves = "".join(f";{'BW'[n % 2]}[{'abc'[n]}{'abc'[n]}]C[{comment}]" for n, comment in enumerate(comments))
    text = f"(;GM[1]FF[4]SZ[19]AP[CGoban:3]PC[The KGS Go Server at http://www.gokgs.com/]{moves})"
    collection = _open(tmp_path, text.encode("utf-8").replace(b"FF[4]", b"FF[4]" + declared))
    game = collection.game(0)
    assert [node.comment for node in game.mainline_nodes()] == comments
    assert collection.encoding == "utf-8"


# ---------------------------------------------------------------- declared charsets honoured


@pytest.mark.parametrize(
    ("declared", "codec", "name"),
    [
        ("ISO-8859-15", "iso8859-15", "Š Œ €"),
        ("ISO-8859-2", "iso8859-2", "Łódź Żółć"),
        ("KOI8-R", "koi8-r", "Иванов"),
        ("windows-1251", "cp1251", "Петров"),
        ("ISO-2022-JP", "iso2022_jp", "山下"),
        ("ISO-2022-KR", "iso2022_kr", "이세돌"),
        ("HZ-GB-2312", "hz", "柯洁"),
        ("UTF-7", "utf-7", "柯洁 이세돌"),
        ("EUC-JP", "euc_jp", "井島"),
        ("Big5", "big5", "聶衛平"),
    ],
)
def test_a_declared_charset_the_bytes_decode_under_is_honoured(tmp_path, declared, codec, name):
    text = f"(;FF[4]GM[1]SZ[19]CA[{declared}]PB[{name}]PW[井島 x];B[pd];W[dd])"
    data = text.replace("井島 x", "x").encode(codec)
    game = _open(tmp_path, data).game(0)
    assert game.black == name
    assert game.mainline_moves() == ["Q16", "D16"]


def test_iso_2022_jp_names_are_decoded_not_left_as_escape_sequences(tmp_path):
    data = "(;FF[4]GM[1]SZ[19]CA[ISO-2022-JP]PB[山下]PW[井島];B[pd];W[dd];B[pp])".encode("iso2022_jp")
    assert b"\x1b$B" in data
    game = _open(tmp_path, data).game(0)
    assert (game.black, game.white) == ("山下", "井島")
    assert game.mainline_moves() == ["Q16", "D16", "Q4"]


@pytest.mark.parametrize(
    ("declared", "codec"),
    [("CA[GB2312]", "gb18030"), ("CA[Big5]", "big5"), ("CA[Shift_JIS]", "cp932"), ("", "gb18030"), ("", "big5")],
)
def test_a_stray_byte_before_a_bracket_never_swallows_it(tmp_path, declared, codec):
    """A Windows-1252 ellipsis (0x85) is a lead byte of these charsets, and ']' a second byte."""
    comment = "黑棋在中盘取得了优势" if codec == "gb18030" else "好棋"
    head = f"(;FF[4]GM[1]SZ[19]{declared}PB[王]C[{comment}".encode(codec)
    collection = _open(tmp_path, head + b"\x85];B[pd];W[dd];B[pp])")
    game = collection.game(0)
    assert game.black == "王"
    assert game.mainline_moves() == ["Q16", "D16", "Q4"]
    assert game.root.comment.startswith(comment)
    assert [w for w in collection.warnings if "not valid" in w]


def test_a_shift_jis_character_ending_in_a_backslash_or_an_open_bracket_is_read_whole(tmp_path):
    # 十 is 0x8F 0x5C: its second byte is '\'; ー is 0x81 0x5B ('['). Two games, the first with variations.
    first = "(;FF[4]GM[1]SZ[19]CA[Shift_JIS]PB[王十]PW[本因坊十]C[ゲーム](;B[pd])(;B[dd]))".encode("cp932")
    second = "(;FF[4]GM[1]SZ[19]CA[Shift_JIS]PB[十段];B[qq])".encode("cp932")
    collection = _open(tmp_path, first + b"\n" + second)
    assert len(collection) == 2
    assert (collection.game(0).black, collection.game(0).white) == ("王十", "本因坊十")
    assert collection.game(0).root.comment == "ゲーム"
    assert [child.move for child in collection.game(0).root.children] == ["Q16", "D16"]
    assert collection.game(1).black == "十段" and collection.game(1).mainline_moves() == ["R3"]


# ---------------------------------------------------------------- valid files are not "binary data"


def test_a_tygem_gib_ending_in_a_nul_byte_opens_with_all_its_moves(tmp_path, corpus_dir):
    data = (corpus_dir / "sgf" / "katrain__test.gib").read_bytes()
    whole = _open(tmp_path, data, "whole.gib").game(0)
    padded = _open(tmp_path, data + b"\x00", "padded.gib").game(0)
    assert len(padded.mainline_moves()) == len(whole.mainline_moves()) > 200
    assert (padded.black, padded.white, padded.result) == (whole.black, whole.white, whole.result)


def test_an_sgf_padded_with_nul_bytes_opens(tmp_path):
    game = _open(tmp_path, b"(;GM[1]SZ[9]PB[x];B[ee];W[cc])\n" + b"\x00" * 3).game(0)
    assert game.mainline_moves() == ["E5", "C7"]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_holding_cjk_text_opens(tmp_path, codec):
    comment = "这是一盘很精彩的对局，黑棋在中盘取得了优势，白棋最后认输。" * 2
    text = f"(;GM[1]SZ[19]PB[柯洁]PW[古力]EV[第一届]C[{comment}];B[pd];W[dd])"
    collection = _open(tmp_path, text.encode(codec))
    game = collection.game(0)
    assert (game.black, game.white, game.event, game.root.comment) == ("柯洁", "古力", "第一届", comment)
    assert game.mainline_moves() == ["Q16", "D16"]
    assert collection.encoding == codec


def test_a_game_that_is_not_go_is_left_out_by_name_and_the_others_are_read(tmp_path):
    data = b"(;GM[1]SZ[9]PB[one];B[ee])(;GM[3]SZ[8]PB[chess])(;GM[1]SZ[37]PB[huge])(;GM[1]SZ[9]PB[three];W[cc])"
    collection = _open(tmp_path, data)
    assert len(collection) == 2
    assert [collection.summary(i).black for i in range(2)] == ["one", "three"]
    assert collection.game(1).mainline_moves() == ["C7"]
    assert [w for w in collection.warnings if "game 2" in w and "not a Go game" in w and "left out" in w]
    assert [w for w in collection.warnings if "game 3" in w and "37x37" in w and "left out" in w]


def test_a_file_of_no_go_game_is_still_refused_with_the_reason(tmp_path):
    with pytest.raises(GameFileError, match="not a Go game"):
        _open(tmp_path, b"(;GM[3]SZ[8])(;GM[2]SZ[8])")


# ---------------------------------------------------------------- damage flagged, read as written


def test_a_move_onto_an_occupied_point_is_flagged_and_the_game_read_on():
    from reviewer.core.formats import game_from_sgf_text

    game = game_from_sgf_text("(;GM[1]SZ[9];B[ee];W[cc];B[ee];W[dd](;B[cc])(;B[aa]))")
    assert game.mainline_moves() == ["E5", "C7", "E5", "D6", "C7"]
    flagged = [w for w in game.warnings if "already holds a stone" in w]
    assert len(flagged) == 1 and "2 move(s)" in flagged[0] and "move 3, black E5" in flagged[0]


def test_a_retaken_point_after_a_capture_is_not_flagged():
    from reviewer.core.formats import game_from_sgf_text

    game = game_from_sgf_text("(;GM[1]SZ[9];B[ba];W[aa];B[ab];W[cc];B[aa])")
    assert not [w for w in game.warnings if "already holds a stone" in w]


def test_a_handicap_without_stones_is_flagged():
    from reviewer.core.formats import game_from_sgf_text

    game = game_from_sgf_text("(;GM[1]SZ[19]HA[3];B[pd];W[dd];B[pp])")
    assert game.handicap == 3 and game.mainline_moves() == ["Q16", "D16", "Q4"]
    assert [w for w in game.warnings if "HA[3]" in w and "no handicap stones" in w]
    placed = game_from_sgf_text("(;GM[1]SZ[19]HA[2]AB[pd][dp];W[dd])")
    played = game_from_sgf_text("(;GM[1]SZ[19]HA[2];B[pd];B[dp];W[dd])")  # stones played as moves
    assert not [w for w in placed.warnings + played.warnings if "handicap" in w]


# ---------------------------------------------------------------- big collections


def test_an_unterminated_game_ends_where_the_next_game_starts(tmp_path):
    data = (
        b"(;GM[1]SZ[9]PB[a];B[ee];W[cc]\n(;GM[1]SZ[9]PB[b];B[aa])\n(;FF[4]GM[1]SZ[9]PB[c];B[bb](;W[cc])(;W[dd])"
        b"(;SZ[9]PB[d];B[aa])"
    )
    collection = _open(tmp_path, data)
    assert [collection.summary(i).black for i in range(len(collection))] == ["a", "b", "c", "d"]
    assert collection.game(0).mainline_moves() == ["E5", "C7"]
    assert any("incomplete" in w for w in collection.game(0).warnings)
    assert [w for w in collection.warnings if "game 1" in w and "closing parenthesis is missing" in w]
    assert collection.game(2).mainline_moves() == ["B8", "C7"]


def test_the_listing_shows_what_the_games_hold(corpus_dir):
    """Each listed summary, read from the game's root alone, is the summary of the whole game."""
    checked = 0
    for path in sorted((corpus_dir / "sgf").glob("*.sgf")):
        try:
            collection = open_collection(path)
        except GameFileError:
            continue
        for index in range(len(collection)):
            assert collection.summary(index) == summary_of_game(collection.game(index), index), (path.name, index)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("declared", [b"CA[UTF-8]", b"", b"CA[ISO-8859-1]"])
def test_utf8_with_a_few_damaged_bytes_stays_utf8(tmp_path, corpus_dir, declared):
    data = (corpus_dir / "sgf" / "analyze-sgf__t-gb2312.sgf").read_bytes().replace(b"CA[UTF-8]", declared)
    middle = data.index(b";W[", len(data) // 2)
    collection = _open(tmp_path, data[:middle] + b"\xff\xfe\x80" + data[middle:])
    game = collection.game(0)
    assert (game.black, game.white, game.event) == ("石下之臣", "harpmaster", "让先")
    assert [w for w in collection.warnings if "not valid UTF-8" in w]


def test_many_games_left_out_are_named_up_to_ten_then_counted(tmp_path):
    data = b"(;GM[1]SZ[9];B[ee])" + b"(;GM[3]SZ[8])" * 25
    collection = _open(tmp_path, data)
    assert len(collection) == 1
    assert len([w for w in collection.warnings if "not a Go game" in w]) == 10
    assert [w for w in collection.warnings if "15 more games were left out" in w]


def test_iso_2022_jp_without_ca_is_told_by_its_escapes(tmp_path):
    comment = "Goは古代のゲームであり、中国での起源を忘れてから、最初に東アジアの他の地域に広がりました。" * 3
    data = f"(;FF[4]GM[1]SZ[19]PB[山下]C[{comment}];B[pd];W[dd])".encode("iso2022_jp")
    game = _open(tmp_path, data).game(0)
    assert game.black == "山下" and game.root.comment == comment
