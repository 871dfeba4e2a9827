"""Short text in a charset the SGF does not declare (or declares wrongly): the charset is chosen from
all of the file's bytes, a Go server's charset over Windows-1252 only where its reading is likelier,
and a choice between two readings made on too little text is said on every game."""

from __future__ import annotations

import pytest

from reviewer.core.formats import game_from_sgf_text, open_collection
from reviewer.core.formats.textio import choose_charset

NAMES = {
    "gb18030": ["白", "黑", "柯洁", "古力", "常昊", "聂卫平", "时越", "江维杰", "芈昱廷", "柯洁九段"],
    "cp949": ["김", "흑", "이세돌", "박정환", "신진서", "최정", "조훈현", "변상일"],
    "cp932": ["山田", "井山裕太", "ひかる", "一力遼", "趙治勲", "芝野虎丸"],
    "cp1252": ["José", "Müller", "créé", "Ørjan", "Nuñez", "Gödel", "Ñ"],
    "utf-8": ["白", "김", "時越", "José", "ひかる", "Ørjan"],
}
COMMENTS = {
    "gb18030": ["黑棋中盘胜", "白方贴3又3/4子", "这步棋很好"],
    "cp949": ["백 불계승", "좋은 수입니다", "흑 반집승"],
    "cp932": ["黒中押し勝ち", "いい手です"],
    "cp1252": ["créé", "Très bien joué", "Schöner Zug", "¡Qué bueno!", "Ça va"],
}


def _cases(table):
    return [(codec, text) for codec, texts in table.items() for text in texts]


@pytest.mark.parametrize("codec, name", _cases(NAMES))
def test_a_short_player_name_without_ca_is_read_in_its_charset(codec, name):
    game = game_from_sgf_text(b"(;GM[1]FF[4]SZ[19]PW[" + name.encode(codec) + b"]PB[Bob];B[pd];W[dd])")
    assert game.white == name and game.black == "Bob"


@pytest.mark.parametrize("codec, comment", _cases(COMMENTS))
def test_a_short_comment_without_ca_is_read_in_its_charset(codec, comment):
    game = game_from_sgf_text(b"(;GM[1]SZ[19];B[pd]C[" + comment.encode(codec) + b"];W[dd])")
    assert game.mainline_nodes()[0].comment == comment


@pytest.mark.parametrize("codec, name", [("gb18030", "白"), ("gb18030", "黑"), ("cp949", "김"), ("cp949", "흑"), ("cp949", "이세돌")])
def test_a_choice_made_on_a_short_cjk_name_is_warned_with_the_other_reading(codec, name):
    """Two bytes are a common hanzi in GB18030 and a common Hangul syllable in CP949 alike."""
    game = game_from_sgf_text(b"(;GM[1]SZ[19]PW[" + name.encode(codec) + b"];B[pd])")
    doubts = [w for w in game.warnings if "too little text outside ASCII" in w]
    assert len(doubts) == 1 and f"'{name}'" in doubts[0]
    other = "CP949" if codec == "gb18030" else "GB18030"
    assert f"as {other}" in doubts[0]


def test_much_text_in_one_charset_is_read_without_doubt():
    comment = "这是一盘很精彩的对局，黑棋在中盘取得了优势，白棋最后认输。" * 2
    data = ("(;GM[1]SZ[19]PW[白]PB[黑]C[" + comment + "];B[pd])").encode("gb18030")
    game = game_from_sgf_text(data)
    assert game.white == "白" and game.root.comment == comment and not game.warnings


@pytest.mark.parametrize(
    "ascii_props, codec",
    [
        ("RU[Korean]", "cp949"),
        ("PC[Seoul, Korea]", "cp949"),
        ("RU[Chinese]", "gb18030"),
        ("AP[foxwq]TC[3]TT[30]", "gb18030"),
    ],
)
def test_the_files_ascii_leans_the_choice(ascii_props, codec):
    """The same two bytes read as the charset the rest of the file points to."""
    data = b"(;GM[1]SZ[19]" + ascii_props.encode("ascii") + b"PW[\xb0\xd7];B[pd])"
    expected = data.decode(codec)
    game = game_from_sgf_text(data)
    assert game.white == expected[expected.index("PW[") + 3 : expected.index("];B")]


@pytest.mark.parametrize(
    "declared, codec, name",
    [
        ("UTF-8", "gb18030", "柯洁"),
        ("UTF-8", "cp949", "이세돌"),
        ("UTF-8", "gb18030", "时越"),  # its four bytes are valid UTF-8 too ('ʱԽ')
        ("ISO-8859-1", "gb18030", "古力"),  # many programs write the SGF default whatever their bytes
        ("ISO-8859-1", "cp932", "井山裕太"),
        ("Latin1", "cp949", "박정환"),
    ],
)
def test_a_declared_charset_that_lies_is_overruled_with_a_warning(declared, codec, name, tmp_path):
    path = tmp_path / "game.sgf"
    path.write_bytes(b"(;GM[1]SZ[19]CA[" + declared.encode() + b"]PW[" + name.encode(codec) + b"];B[pd])")
    collection = open_collection(path)
    assert collection.game(0).white == name
    assert any(f"CA[{declared}] does not match" in w for w in collection.warnings)


@pytest.mark.parametrize("name", ["José", "Müller", "créé", "Nuñez"])
def test_a_true_single_byte_declaration_is_kept_without_a_warning(name, tmp_path):
    """Also short: CA[ISO-8859-1] leans the choice to Western text."""
    path = tmp_path / "game.sgf"
    path.write_bytes(b"(;GM[1]SZ[19]CA[ISO-8859-1]PW[" + name.encode("latin-1") + b"];B[pd])")
    collection = open_collection(path)
    assert collection.game(0).white == name and not collection.warnings and not collection.game(0).warnings


def test_a_collection_decides_from_all_its_games_and_warns_on_each(tmp_path):
    names = ["柯洁", "古力", "常昊", "时越"]
    data = b"".join(b"(;GM[1]SZ[19]PW[" + n.encode("gb18030") + b"]PB[x];B[pd])\n" for n in names)
    path = tmp_path / "games.sgf"
    path.write_bytes(data)
    collection = open_collection(path)
    assert [collection.game(i).white for i in range(4)] == names
    assert collection.encoding == "gb18030"


def test_a_short_doubtful_name_is_warned_on_every_game_of_the_file(tmp_path):
    path = tmp_path / "games.sgf"
    path.write_bytes(b"(;GM[1]SZ[19]PW[\xb0\xd7];B[pd])(;GM[1]SZ[19]PW[x];B[pd])")
    collection = open_collection(path)
    for index in range(2):
        warnings = collection.game(index).warnings
        assert warnings and warnings[0].startswith(f"game {index + 1}: too little text outside ASCII")


def test_a_gb_name_among_much_ascii_is_still_gb():
    comments = "".join(f";B[{a}{a}]C[move {i}: a quiet move, nothing to say]" for i, a in enumerate("abcdefghij"))
    data = b"(;GM[1]SZ[19]PW[" + "柯洁".encode("gb18030") + b"]PB[Shin Jinseo]" + comments.encode() + b")"
    game = game_from_sgf_text(data)
    assert game.white == "柯洁" and game.black == "Shin Jinseo"


def test_choose_charset_names_the_two_readings():
    choice = choose_charset(b"PW[\xb0\xd7]")
    assert choice.codec == "gb18030"
    assert "'白'" in choice.doubt and "CP949" in choice.doubt
    assert choose_charset(b"C[cr\xe9\xe9]").codec == "cp1252"


def test_reviewer_info_prints_the_name_and_the_doubt(tmp_path, capsys):
    from reviewer.cli import main

    path = tmp_path / "fox.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[19]PW[\xb0\xd7]PB[\xba\xda]KM[750]RU[Japanese];B[pd];W[dd])")
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "白 - 黑" in out and "warning: game 1: too little text outside ASCII" in out


@pytest.mark.parametrize("text", ["á", "é", "José", "白", "김", "ひかる", "Ørjan"])
def test_a_true_utf8_declaration_is_kept_without_a_warning(text):
    game = game_from_sgf_text(b"(;GM[1]SZ[19]CA[UTF-8]PW[" + text.encode("utf-8") + b"]C[" + text.encode("utf-8") + b"];B[pd])")
    assert game.white == text and game.root.comment == text and not game.warnings


@pytest.mark.parametrize("codec, white, black", [("gb18030", "白", "柯洁"), ("cp949", "김", "이세돌"), ("cp1252", "José", "Müller")])
def test_a_short_name_in_an_ngf_file_is_read_in_its_charset(codec, white, black, tmp_path):
    """The Go server formats (NGF here; GIB and UGF alike) weigh their bytes the same way."""
    header = f"Rated game\n19\n{white}         9DP\n{black}         9DP\nwww.example.com\n0\n0\n7\n20170316 [09:37]\n5\nBlack wins by 0.5!\n2\n"
    path = tmp_path / "game.ngf"
    path.write_bytes(header.encode(codec) + b"PMABBREER\nPMACWEEEE\n")
    collection = open_collection(path)
    game = collection.game(0)
    assert (game.white, game.black) == (white, black)
    assert collection.encoding == codec
