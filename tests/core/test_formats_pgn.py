"""PGN: the lazy index, the game model it fills, warnings, and writing back."""

from __future__ import annotations

import chess

from reviewer.core.formats import game_from_pgn_text, open_collection, write_pgn
from reviewer.core.formats.compare import game_differences
from reviewer.core.formats.pgn_index import build_index

ANNOTATED = """[Event "Club"]
[White "Ann"]
[Black "Bob"]
[WhiteElo "1800"]
[BlackElo "1750"]
[Date "2024.05.01"]
[Result "1-0"]

{Opening} 1. e4 { [%eval 0.3] [%clk 0:01:00] } 1... e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6?! 3. Bb5 1-0
"""


def test_headers_moves_comments_nags_and_variations():
    game = game_from_pgn_text(ANNOTATED)
    assert (game.white, game.black, game.white_rank, game.black_rank) == ("Ann", "Bob", "1800", "1750")
    assert (game.result, game.date, game.event) == ("1-0", "2024.05.01", "Club")
    assert list(game.headers) == ["Event", "White", "Black", "WhiteElo", "BlackElo", "Date", "Result"]
    assert game.mainline_moves() == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    nodes = game.mainline_nodes()
    assert [n.uci for n in nodes] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    assert [n.color for n in nodes] == ["white", "black", "white", "black", "white"]
    assert game.root.comment == "Opening"
    assert nodes[0].comment == "[%eval 0.3] [%clk 0:01:00]"
    assert nodes[1].nags == [1] and nodes[3].nags == [chess.pgn.NAG_DUBIOUS_MOVE]
    side_line = nodes[1].children[1]
    assert side_line.move == "f4" and side_line.children[0].move == "exf4"
    assert side_line.children[1].move == "d5"  # a variation inside the variation
    assert game.first_player == "white" and game.start_fen is None


def test_write_then_read_keeps_everything():
    game = game_from_pgn_text(ANNOTATED)
    text = write_pgn(game)
    assert text.startswith('[Event "Club"]\n[White "Ann"]')
    assert "[%eval 0.3] [%clk 0:01:00]" in text
    assert game_differences(game, game_from_pgn_text(text)) == []


def test_fen_start_with_black_to_move_and_move_numbers():
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"
    game = game_from_pgn_text(f'[SetUp "1"]\n[FEN "{fen}"]\n\n30... Kd7 31. e4 Ke6 *')
    assert game.first_player == "black" and game.start_fen == fen
    assert game.mainline_moves() == ["Kd7", "e4", "Ke6"]
    assert "30... Kd7 31. e4 Ke6" in write_pgn(game)


def test_chess960_castling_is_kept_in_uci_and_san():
    fen = "1k5r/8/8/8/8/8/8/RK5R w HAh - 0 1"
    game = game_from_pgn_text(f'[Variant "Chess960"]\n[FEN "{fen}"]\n\n1. O-O Kc7 *')
    assert game.chess960 and game.variant == ""
    assert game.start_fen == chess.Board(fen, chess960=True).fen()
    castle = game.mainline_nodes()[0]
    assert castle.move == "O-O" and castle.uci == "b1h1"  # king takes own rook, as UCI_Chess960 wants
    assert game_differences(game, game_from_pgn_text(write_pgn(game))) == []


def test_illegal_move_becomes_a_warning_naming_game_and_move():
    game = game_from_pgn_text("1. e4 e5 2. Ke3 Nc6 *")
    assert game.mainline_moves() == ["e4", "e5"]
    assert game.warnings == ["game 1: illegal move 'Ke3' at 2. in the main line; the rest of that line is skipped"]


def test_non_standard_variant_opens_with_a_warning():
    game = game_from_pgn_text('[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Nf3 c6 6. Bd2 Bg4 7. P@h3 *')
    assert game.variant == "crazyhouse"
    assert game.mainline_moves()[-1] == "P@h3"  # a pawn drop as crazyhouse players write it
    assert game_from_pgn_text(write_pgn(game)).mainline_moves() == game.mainline_moves()
    assert any("crazyhouse" in w.lower() and "engines" in w for w in game.warnings)


def test_header_only_games_are_told_apart(tmp_path):
    text = "".join(f'[Event "E"]\n[White "W{i}"]\n[Black "B{i}"]\n[Result "1-0"]\n\n' for i in range(3))
    path = tmp_path / "headers.pgn"
    path.write_text(text, encoding="utf-8")
    collection = open_collection(path)
    assert len(collection) == 3
    assert [s.white for s in collection.summaries()] == ["W0", "W1", "W2"]
    assert collection.game(2).ply_count == 0


def test_blank_lines_inside_movetext_and_comments_do_not_split_a_game():
    text = '[Event "x"]\n\n1. e4 {a comment\n\nwith a blank line} e5\n\n2. Nf3 Nc6 *\n'
    game = game_from_pgn_text(text)
    assert game.mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]
    assert game.mainline_nodes()[0].comment == "a comment\n\nwith a blank line"


def test_tag_like_line_inside_a_comment_is_not_a_new_game():
    data = b'[Event "a"]\n\n1. e4 {see\n[Event "not a tag"]\n} e5 *\n\n[Event "b"]\n\n1. d4 *\n'
    assert len(build_index(data)) == 2


def test_encodings_bom_and_latin1(tmp_path):
    bom = tmp_path / "bom.pgn"
    bom.write_bytes(b'\xef\xbb\xbf[White "Ren\xc3\xa9"]\n\n1. e4 *\n')
    latin = tmp_path / "latin.pgn"
    latin.write_bytes(b'[White "Ren\xe9"]\n\n1. e4 *\n')
    assert open_collection(bom).game(0).white == "René"
    collection = open_collection(latin)
    assert collection.game(0).white == "René" and collection.encoding in ("cp1252", "latin-1")


def test_twenty_thousand_games_are_indexed_without_parsing_moves(tmp_path):
    game_text = '[Event "Gen"]\n[White "W{0}"]\n[Black "B{0}"]\n[Result "1/2-1/2"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n'
    path = tmp_path / "many.pgn"
    path.write_text("".join(game_text.format(i) for i in range(20_000)), encoding="utf-8")
    collection = open_collection(path)
    assert len(collection) == 20_000
    assert collection.summary(12_345).white == "W12345"
    assert collection.game(19_999).mainline_moves() == ["e4", "e5", "Nf3", "Nc6"]


def test_a_game_built_in_code_writes_its_fields_as_tags():
    from reviewer.core.gametree import Game, Node

    game = Game(kind="chess", white="Me", black="You", result="0-1")
    game.root.add_child(Node(move="e4", color="white", uci="e2e4"))
    game.root.children[0].add_child(Node(uci="e7e5", color="black"))  # no SAN: worked out on a board
    text = write_pgn(game)
    assert '[White "Me"]' in text and '[Black "You"]' in text
    assert "1. e4 e5 0-1" in text


def test_web_wrappers_go_but_comments_keep_what_looks_like_them():
    text = '[Event "x"]\n\n[pgn] 1. Nh3 {<A> and [pgn]} e5 <br> 2. Nf4 {</b>} [/pgn] *\n'
    game = game_from_pgn_text(text)
    assert not game.warnings
    assert game.mainline_moves() == ["Nh3", "e5", "Nf4"]
    nodes = game.mainline_nodes()
    assert nodes[0].comment == "<A> and [pgn]" and nodes[2].comment == "</b>"
    assert game_from_pgn_text(write_pgn(game)).mainline_nodes()[0].comment == "<A> and [pgn]"


def test_a_games_movetext_is_read_in_the_charset_chosen_for_its_file(tmp_path) -> None:
    from reviewer.core.formats import open_collection

    text = '[White "Карпов, Анатолий"]\n[Black "Каспаров, Гарри"]\n\n1. e4 {Карпов играет e4, сильный ход} e5 1-0\n'
    path = tmp_path / "cyrillic.pgn"
    path.write_bytes(text.encode("cp1251"))
    collection = open_collection(path)
    assert collection.game(0).white == "Карпов, Анатолий"
    assert "Карпов играет e4" in collection.movetext(0)
