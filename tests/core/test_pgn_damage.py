"""PGN files that are damaged or unusual in ways a reader could miss: each is read right or said.

Games glued together after a result token, charsets other than UTF-8 and Windows-1252, a Result tag
the moves contradict, a file cut off inside a game, and a FEN tag broken over two lines. The lazy
index (compiled scanner and regular expression, bytes and memory-mapped file) and the full reader
agree on the games.
"""

from __future__ import annotations

import io
import re

import chess
import chess.pgn
import pytest

from reviewer.core.formats import open_collection, pgn_index
from reviewer.core.formats.pgn import PgnCollection


def _collections(data: bytes, tmp_path, monkeypatch) -> list[PgnCollection]:
    path = tmp_path / "games.pgn"
    path.write_bytes(data)
    found = [PgnCollection(None, data), PgnCollection.open_file(path)]
    monkeypatch.setattr(pgn_index, "_pgn_blocks", None)  # the regular expression, not compiled code
    found += [PgnCollection(None, data), PgnCollection.open_file(path)]
    monkeypatch.undo()
    return found


def _python_chess_games(text: str) -> list[chess.pgn.Game]:
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


# ---------------------------------------------------------------- a result token ends a game

E4_E5, D4_D5, C4_C5 = ["e4", "e5"], ["d4", "d5"], ["c4", "c5"]
GLUED = {
    "no tags at all": ("1. e4 e5 1-0\n\n1. d4 d5 0-1\n", [E4_E5, D4_D5], ["1-0", "0-1"]),
    "tags, then a game without": (
        '[White "A"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n1. d4 d5 0-1\n',
        [E4_E5, D4_D5],
        ["1-0", "0-1"],
    ),
    "on one line": ("1. e4 e5 1-0 1. d4 d5 0-1\n", [E4_E5, D4_D5], ["1-0", "0-1"]),
    "a draw and an unknown result": (
        "1. e4 e5 1/2-1/2\n1. d4 d5 *\n1. c4 c5 1-0\n",
        [E4_E5, D4_D5, C4_C5],
        ["1/2-1/2", "*", "1-0"],
    ),
    "a comment before the second": ("1. e4 e5 1-0\n{ next game } 1. d4 d5 0-1\n", [E4_E5, D4_D5], ["1-0", "0-1"]),
    "only broken tag lines": (
        '[White "A"]\n\n1. e4 e5 1-0\n\n[Whi\n[Black B]\n1. d4 d5 0-1\n',
        [E4_E5, D4_D5],
        ["1-0", "0-1"],
    ),
}


@pytest.mark.parametrize("name", GLUED)
def test_a_game_after_a_result_token_is_a_game_of_its_own(name, tmp_path, monkeypatch):
    text, moves, results = GLUED[name]
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == len(moves), name
        games = [collection.game(index) for index in range(len(collection))]
        assert [game.mainline_moves() for game in games] == moves
        assert [game.result for game in games] == results
        assert [collection.summary(index).result for index in range(len(collection))] == results


def test_python_chess_also_reads_two_games_where_a_blank_line_follows_the_result():
    text = GLUED["no tags at all"][0]
    assert [[move.uci() for move in game.mainline_moves()] for game in _python_chess_games(text)] == [
        ["e2e4", "e7e5"],
        ["d2d4", "d7d5"],
    ]


def test_results_inside_comments_variations_and_escape_lines_end_no_game(tmp_path, monkeypatch):
    text = (
        '[White "A"]\n[Result "1-0"]\n\n1. e4 { after 1-0 1. d4 } e5 (1... c5 0-1 2. Nf3) 2. Nf3 ; 1-0 3. d4\n'
        "%1-0 1. d4\nNc6 1-0\n"
    )
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 1
        assert collection.game(0).mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]


def test_the_compiled_and_the_python_scan_for_results_agree_on_every_corpus_file(corpus_dir):
    for path in sorted((corpus_dir / "pgn").glob("*.pgn")):
        data = path.read_bytes()
        assert pgn_index.texts_after_results(data, 0, len(data)) == pgn_index.texts_after_results(
            data, 0, len(data), native=False
        ), path.name
        thirds = [(0, 0, len(data) // 3), (0, len(data) // 3, 2 * len(data) // 3), (0, 2 * len(data) // 3, len(data))]
        assert pgn_index.texts_after_results_in(data, thirds) == pgn_index.texts_after_results_in(
            data, thirds, native=False
        ), path.name


def test_a_tagless_game_after_any_result_of_a_corpus_file_is_counted(corpus_dir):
    for path in sorted((corpus_dir / "pgn").glob("*.pgn")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        if "crafty06_0" in path.name and "_01" not in path.name:
            continue  # e-mail pages (HTML) without a game
        glued, added = re.subn(r"(\s(?:1-0|0-1|1/2-1/2|\*))(\s*\n\[)", r"\1\n\n1. e4 e5 0-1\2", text, count=3)
        before = PgnCollection(None, text.encode("utf-8"))
        after = PgnCollection(None, glued.encode("utf-8"))
        assert len(after) == len(before) + added, path.name
        tagless = [index for index in range(len(after)) if not after.headers(index)]
        assert len(tagless) >= added, path.name
        for index in tagless[-added:] if added else []:
            assert after.game(index).mainline_moves() == ["e4", "e5"], path.name


def test_open_collection_counts_the_games_of_a_glued_file(tmp_path):
    path = tmp_path / "glued.pgn"
    path.write_text(GLUED["no tags at all"][0], encoding="utf-8")
    assert len(open_collection(path)) == 2


# ---------------------------------------------------------------- results the moves contradict

def _one_game(text: str, tmp_path, monkeypatch):
    games = [collection.game(0) for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch)]
    assert all(game.warnings == games[0].warnings and game.result == games[0].result for game in games)
    return games[0]


def test_a_result_tag_against_a_checkmate_shows_the_mate_and_says_so(tmp_path, monkeypatch):
    game = _one_game('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n', tmp_path, monkeypatch)
    assert game.result == "0-1"
    (warning,) = [w for w in game.warnings if "checkmate" in w]
    assert "1-0" in warning and "2... Qh4#" in warning and "Black won" in warning


def test_a_checkmate_with_the_mating_side_s_result_says_nothing(tmp_path, monkeypatch):
    game = _one_game('[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n', tmp_path, monkeypatch)
    assert (game.result, game.warnings) == ("0-1", [])
    game = _one_game('[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4#\n', tmp_path, monkeypatch)
    assert (game.result, game.warnings) == ("0-1", [])


def test_a_result_tag_against_the_result_token_is_named(tmp_path, monkeypatch):
    game = _one_game('[Result "1-0"]\n\n1. e4 e5 0-1\n', tmp_path, monkeypatch)
    assert any("Result tag says 1-0" in w and "end with 0-1" in w for w in game.warnings), game.warnings


# ---------------------------------------------------------------- a file cut off

CUT_GAME = '[White "A"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 '


@pytest.mark.parametrize(
    ("tail", "how"),
    [
        ("4. B", "in the middle of a move ('B')"),
        ("4. Bxc", "in the middle of a move ('Bxc')"),
        ("4. Ba4", "without a result token"),
        ("4. Ba4 {a comm", "inside a comment"),
        ("4.", "after a move number"),
    ],
)
def test_a_pgn_cut_off_inside_its_movetext_says_where_it_stops(tail, how, tmp_path, monkeypatch):
    game = _one_game(CUT_GAME + tail, tmp_path, monkeypatch)
    cut = [w for w in game.warnings if "the file ends" in w]
    assert len(cut) == 1 and how in cut[0] and "read up to move" in cut[0], game.warnings


def test_only_the_last_game_of_a_file_can_be_cut_off(tmp_path, monkeypatch):
    text = CUT_GAME + "\n\n" + CUT_GAME + "4. B"
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 2
        assert not [w for w in collection.game(0).warnings if "the file ends" in w]
        assert [w for w in collection.game(1).warnings if "the file ends" in w]


def test_a_pgn_cut_inside_the_tags_of_its_last_game_says_so(tmp_path, monkeypatch):
    whole = '[White "A"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
    for cut_tags in ("[Whi", '[White "B"]\n[Bla', '[White "B"]\n[Black "C'):
        for collection in _collections((whole + cut_tags).encode("utf-8"), tmp_path, monkeypatch):
            last = collection.game(len(collection) - 1)
            assert any("the file ends inside" in w and "tags" in w for w in last.warnings), (cut_tags, last.warnings)


def test_a_fen_broken_inside_one_of_its_fields_is_joined_again(tmp_path, monkeypatch):
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    for at in (fen.index("1PPP"), fen.index("Qkq"), fen.index(" b ")):
        text = f'[White "A"]\n[SetUp "1"]\n[FEN "{fen[:at]}\n{fen[at:]}"]\n\n1... e5 2. Nf3 *\n'
        game = _one_game(text, tmp_path, monkeypatch)
        assert game.start_fen == fen and game.mainline_moves() == ["e5", "Nf3"], game.warnings
        assert any("broken over two lines" in w for w in game.warnings)


# ---------------------------------------------------------------- variants

VARIANT_GAMES = {
    "Crazyhouse": ("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@e5 *", "e5", chess.PAWN),
    "Atomic": ("1. e4 d5 2. exd5 *", "d5", None),
    "Antichess": ("1. d3 e6 2. Kd2 Bb4 3. a3 *", "a3", chess.PAWN),  # no check in antichess
    "Horde": ("1. e5 e6 *", "e5", chess.PAWN),
}


@pytest.mark.parametrize("variant", VARIANT_GAMES)
def test_a_variant_game_replays_on_its_own_board_to_its_last_move(variant, tmp_path, monkeypatch):
    from reviewer.core.games.chess import board_after

    movetext, square, piece = VARIANT_GAMES[variant]
    game = _one_game(f'[Variant "{variant}"]\n\n{movetext}\n', tmp_path, monkeypatch)
    assert game.variant == variant.lower() and game.ply_count == len(movetext.split()) - 1 - movetext.count(".")
    assert any("engines analyse only standard chess" in w for w in game.warnings)
    board = board_after(game, game.node_at_ply(game.ply_count))
    assert board.piece_type_at(chess.parse_square(square)) == piece
    if variant == "Horde":
        assert len(board.pieces(chess.PAWN, chess.WHITE)) == 36 and board.king(chess.WHITE) is None


def test_every_variant_game_of_the_corpus_replays_to_its_end(corpus_dir):
    from reviewer.core.games.chess import board_after

    replayed = 0
    for path in sorted((corpus_dir / "pgn").glob("scalachess_fx__*.pgn")):
        collection = open_collection(path)
        for index in range(len(collection)):
            game = collection.game(index)
            if game.variant and game.root.children:
                board_after(game, game.node_at_ply(game.ply_count))
                replayed += 1
    assert replayed >= 5


def test_a_variant_python_chess_does_not_know_says_its_moves_cannot_be_shown(tmp_path, monkeypatch):
    game = _one_game('[Variant "Shogi"]\n\n1. e4 e5 *\n', tmp_path, monkeypatch)
    assert not game.root.children
    assert any("'Shogi'" in w and "cannot be shown" in w for w in game.warnings), game.warnings


# ---------------------------------------------------------------- charsets other than UTF-8

NAMES = {
    "cp1251": ("Карпов, Анатолий", "Каспаров, Гарри", "Чемпионат мира"),
    "cp1250": ("Łukasz Żółć", "Šťastný, Petr", "Mistrzostwa Polski"),
    "gbk": ("王皓", "丁立人", "全国个人赛"),
    "iso8859-15": ("Žiga Šubic", "Œuvre, Jean", "Open"),
    "cp1252": ("Müller, Jürgen", "Ibáñez, José", "Zürich"),
}


def _pgn_in(codec: str, games: int) -> bytes:
    white, black, event = NAMES[codec]
    text = ""
    for number in range(games):
        if number % 20 == 0:  # the names in a few games only; the others are plain ASCII
            names = (white, black, event)
        else:
            names = (f"Player {number}", "Smith, John", "Club")
        text += f'[Event "{names[2]}"]\n[White "{names[0]}"]\n[Black "{names[1]}"]\n[Result "1-0"]\n\n'
        text += "1. e4 e5 { " + names[0] + " } 1-0\n\n"
    return text.encode(codec)


@pytest.mark.parametrize("games", [1, 200])
@pytest.mark.parametrize("codec", NAMES)
def test_a_pgn_in_an_8_bit_charset_reads_its_names_in_that_charset(codec, games, tmp_path, monkeypatch):
    white, black, event = NAMES[codec]
    for collection in _collections(_pgn_in(codec, games), tmp_path, monkeypatch):
        assert len(collection) == games
        summary = collection.summary(0)
        assert (summary.white, summary.black, summary.event) == (white, black, event)
        game = collection.game(0)
        assert (game.white, game.black, game.event) == (white, black, event)
        assert game.node_at_ply(2).comment.strip() == white
        if codec == "cp1252":
            assert not game.warnings and not collection.warnings
        else:
            (said,) = [w for w in game.warnings if "not UTF-8" in w]
            assert said.startswith("game 1: not UTF-8") and white.split()[0].strip(",") in said, said
            assert any("not UTF-8" in w for w in collection.warnings)
        if games > 1:
            assert not collection.game(1).warnings  # a game of plain ASCII is not in doubt


def test_a_pgn_mixing_utf_8_and_an_8_bit_charset_reads_both():
    data = _pgn_in("cp1251", 1) + '[White "Фишер"]\n[Black "B"]\n\n1. e4 e5 0-1\n'.encode()
    collection = PgnCollection(None, data)
    assert [collection.summary(index).white for index in range(2)] == ["Карпов, Анатолий", "Фишер"]
    assert [collection.game(index).white for index in range(2)] == ["Карпов, Анатолий", "Фишер"]


def test_a_few_bytes_two_charsets_read_as_words_are_a_guess_that_names_both():
    data = '[White "Łukasz"]\n[Black "B"]\n\n1. e4 e5 1-0\n'.encode("cp1250")
    game = PgnCollection(None, data).game(0)
    assert game.white == "Łukasz"
    (said,) = [w for w in game.warnings if "not UTF-8" in w]
    assert "guess" in said and "'Łukasz'" in said and "Windows-1252 (Western) it would read '£ukasz'" in said, said


# ---------------------------------------------------------------- damage inside and after the tags

def test_junk_beside_a_tag_is_named_and_splits_no_game(tmp_path, monkeypatch):
    text = '[White "A"]\n[BlackTitle "GM"]R[WhiteElo "2716"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 1
        game = collection.game(0)
        assert (game.white, game.black, game.white_rank, game.mainline_moves()) == ("A", "B", "2716", ["e4", "e5"])
        assert any("text among the tags is no tag ('R')" in w for w in game.warnings), game.warnings


def test_a_tag_that_swallows_the_next_one_says_so(tmp_path, monkeypatch):
    text = '[Event "E"] [Round "8"3 [White "Blazquez, Denis"] [Black "B"]\n\n1. e4 e5 1-0\n'
    game = _one_game(text, tmp_path, monkeypatch)
    assert any("Round tag is not closed" in w and "[White" in w for w in game.warnings), game.warnings


@pytest.mark.parametrize(
    ("text", "how"),
    [
        ('[Event "E"]\n[White "A"]', "without the blank line after its tags"),
        ('[Event "E"]\n[White "A"]\n', "without the blank line after its tags"),
        ('[Event "E"]\n[FEN "8/8/8/8/8/8/8/K1k5 w - - 0 1"]\n\n%Created b', "without the blank line after its tags"),
        ('[White "A"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n[White "B"]\n[Result "1-0"]\n\n', "the games before it have moves"),
        ('[White "A"]<br>\n[Blac', "inside this game's tags"),
    ],
)
def test_a_file_cut_in_or_after_the_tags_of_its_last_game_says_so(text, how, tmp_path, monkeypatch):
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        last = collection.game(len(collection) - 1)
        assert any("the file ends" in w and how in w for w in last.warnings), last.warnings


def test_a_file_of_header_only_games_is_not_taken_as_cut(tmp_path, monkeypatch):
    text = '[White "A"]\n[Result "*"]\n\n[White "B"]\n[Result "*"]'
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 2 and not collection.game(1).warnings
    game = _one_game('[White "A"]\n[Result "*"]\n\n', tmp_path, monkeypatch)
    assert not game.warnings


def test_a_stray_line_among_the_tags_is_named_and_splits_no_game(tmp_path, monkeypatch):
    text = '[White "A"]\n[Result "0-1"]\n\x07WhiteElo "2232"]\n[BlackElo "2372"]\n[Black "B"]\n\n1. e4 e5 0-1\n'
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert len(collection) == 1
        game = collection.game(0)
        assert (game.white, game.black, game.black_rank, game.mainline_moves()) == ("A", "B", "2372", ["e4", "e5"])
        assert any("text among the tags is no tag" in w and "WhiteElo" in w for w in game.warnings), game.warnings


def test_a_tagless_game_after_html_that_follows_a_result_is_a_game_of_its_own(tmp_path, monkeypatch):
    text = '[White "A"]\n\n1. e4 e5 1-0 </p>\n<p></p>\n\n1. d4 d5 0-1\n'
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert [collection.game(index).mainline_moves() for index in range(len(collection))] == [E4_E5, D4_D5]


@pytest.mark.parametrize("dash", ["\u2013", "\u2014", "\u2212", "\u2010", "\u2012", "\u2015"])
def test_a_result_written_with_a_typographic_dash_ends_a_game_too(dash, tmp_path, monkeypatch):
    text = f"1. e4 e5 1{dash}0\n\n1. d4 d5 1/2{dash}1/2\n"
    for collection in _collections(text.encode("utf-8"), tmp_path, monkeypatch):
        assert [collection.game(index).mainline_moves() for index in range(len(collection))] == [E4_E5, D4_D5]
        assert [collection.game(index).result for index in range(len(collection))] == ["1-0", "1/2-1/2"]


def test_a_control_character_in_a_tag_value_is_named_as_damage(tmp_path, monkeypatch):
    game = _one_game('[White "Mu\x12ychuk, Anna"]\n[Black "B"]\n\n1. e4 e5 1-0\n', tmp_path, monkeypatch)
    assert any("White tag holds a control character (U+0012)" in w for w in game.warnings), game.warnings


@pytest.mark.parametrize("before", ["1. ", "2. "])
def test_a_comment_left_open_ends_at_the_next_games_tags_and_is_named(before, corpus_dir):
    data = (corpus_dir / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn").read_bytes()
    at = data.find(before.encode(), 3000)
    collection = PgnCollection(None, data[:at] + b"{ " + data[at:])
    assert len(collection) == 232  # no game swallowed by the comment
    named = [index for index in range(len(collection))
             if any("a comment is never closed before the next game's tags" in w for w in collection.game(index).warnings)]
    assert len(named) == 1


def test_a_comment_left_open_in_the_last_game_names_the_tags_it_swallows(corpus_dir):
    data = (corpus_dir / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn").read_bytes()
    at = data.find(b"1. ", 3000)
    collection = PgnCollection(None, data[:at] + b"{ " + data[at:].replace(b'[Event "', b'[Round "0"]\n[Event "'))
    last = collection.game(len(collection) - 1)
    (said,) = [w for w in last.warnings if "the file ends inside a comment never closed" in w]
    assert f"the tags of {232 - len(collection)} more games (not listed)" in said, said


# ---------------------------------------------------------------- NUL bytes in a text file

@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text + b"\x00" * 4096,  # padded
        lambda text: text[:20] + b"\x00\x00\x00" + text[20:],  # inside a tag
        lambda text: text.replace(b"e5", b"e\x005"),  # inside a move
    ],
)
def test_nul_bytes_in_a_pgn_are_left_out_and_said(damage, tmp_path, monkeypatch):
    text = b'[White "Alpha"]\n[Black "Beta"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n'
    for collection in _collections(damage(text), tmp_path, monkeypatch):
        game = collection.game(0)
        assert (game.white, game.black, game.mainline_moves()) == ("Alpha", "Beta", ["e4", "e5", "Nf3"])
        assert any("NUL byte" in w and "left out" in w for w in game.warnings), game.warnings
        assert any(w.startswith("The file holds") for w in collection.warnings)


def test_binary_data_with_nul_bytes_is_still_refused(tmp_path):
    from reviewer.core.errors import GameFileError

    path = tmp_path / "binary.pgn"
    path.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 8)
    with pytest.raises(GameFileError, match="binary data"):
        open_collection(path)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_pgn_in_utf_16_without_a_bom_and_mostly_cyrillic_is_read(codec, tmp_path):
    path = tmp_path / "ru.pgn"
    path.write_bytes('[Event "Чемпионат мира по шахматам"]\n[White "Карпов"]\n\n1. e4 e5 1-0\n'.encode(codec))
    game = open_collection(path).game(0)
    assert (game.event, game.white, game.mainline_moves()) == ("Чемпионат мира по шахматам", "Карпов", E4_E5)


def test_a_tag_broken_over_two_lines_is_not_named_as_junk_too(tmp_path, monkeypatch):
    game = _one_game('[Event "E"]\n[Site "Somewhere\non the Earth"]\n[Result "1-0"]\n\n1. e4 1-0\n', tmp_path, monkeypatch)
    assert game.headers["Site"] == "Somewhere on the Earth"
    assert [w for w in game.warnings if "broken over two lines" in w] and not [w for w in game.warnings if "junk" in w or "no tag" in w]


@pytest.mark.parametrize(
    ("movetext", "words"),
    [
        ("1. pawn goes to e4 *", "3 words in the movetext are no move and were skipped: 'pawn', 'goes', 'to'"),
        ("1. e4 {A comment } character} *", "a word in the movetext is no move and was skipped: 'character}'"),
        ("1. e4 e5 2.\nNf3 Nf6\nwhatever *", "skipped: 'whatever'"),
        ("13.Ne5xg4Bc8xg4 *", "skipped: '13.Ne5xg4Bc8xg4'"),
    ],
)
def test_words_of_the_movetext_that_are_no_move_are_named(movetext, words, tmp_path, monkeypatch):
    game = _one_game(f'[Event "E"]\n\n{movetext}\n', tmp_path, monkeypatch)
    assert any(words in w for w in game.warnings), game.warnings


def test_annotations_move_numbers_and_long_algebraic_are_no_junk(tmp_path, monkeypatch):
    movetext = "1. e2-e4 e5 $1 2. Ng1-f3!? Nc6 ?! 3... a6 4. Bxc6 dxc6 +- 5. O-O (5. 0-0) e.p. 1–0"
    game = _one_game(f'[Event "E"]\n\n{movetext}\n', tmp_path, monkeypatch)
    assert not [w for w in game.warnings if "no move" in w], game.warnings
