"""The public API: errors with one clear line, saving by extension, and `reviewer info`."""

from __future__ import annotations

import json

import pytest

from reviewer.cli import main
from reviewer.core.errors import GameFileError
from reviewer.core.formats import game_from_pgn_text, game_from_sgf_text, load_game, open_collection, save_game

PGN = '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'


@pytest.fixture
def bad_files(tmp_path):
    files = {
        "missing": tmp_path / "missing.pgn",
        "empty": tmp_path / "empty.sgf",
        "binary": tmp_path / "binary.pgn",
        "no node": tmp_path / "no_node.sgf",
        "unknown extension": tmp_path / "game.docx",
        "no game": tmp_path / "prose.pgn",
    }
    files["empty"].write_bytes(b"")
    files["binary"].write_bytes(bytes(range(256)) * 8)
    files["no node"].write_text("(((( ))", encoding="utf-8")
    files["unknown extension"].write_text("hello", encoding="utf-8")
    files["no game"].write_text("Dear reader, nothing to see here.\n", encoding="utf-8")
    return files


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("missing", "no such file"),
        ("empty", "empty"),
        ("binary", "binary"),
        ("no node", "no SGF game"),
        ("unknown extension", "unknown file type"),
        ("no game", "no chess game"),
    ],
)
def test_unreadable_files_raise_one_clear_line(bad_files, kind, words):
    path = bad_files[kind]
    with pytest.raises(GameFileError) as raised:
        open_collection(path)
    message = str(raised.value)
    assert str(path) in message and words in message and "\n" not in message


@pytest.mark.parametrize("kind", ["missing", "empty", "binary", "no node", "unknown extension", "no game"])
def test_info_exits_2_with_one_line_naming_the_file(bad_files, capsys, kind):
    path = bad_files[kind]
    assert main(["info", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0]


def test_info_lists_games_and_warnings(tmp_path, capsys):
    path = tmp_path / "two.pgn"
    path.write_text(PGN + "\n" + '[White "C"]\n[Black "D"]\n\n1. e4 e5 2. Ke3 *\n', encoding="utf-8")
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 games" in out and "A - B  1-0  7 plies  8x8" in out and "illegal move 'Ke3'" in out


def test_info_counts_chess_in_plies_and_go_in_moves(tmp_path, capsys):
    chess = tmp_path / "one.pgn"
    chess.write_text('[White "A"]\n[Black "B"]\n\n1. e4 *\n', encoding="utf-8")
    go = tmp_path / "two.sgf"
    go.write_text("(;GM[1]SZ[9]PB[C]PW[D];B[ee];W[cc])", encoding="utf-8")
    assert main(["info", str(chess)]) == 0 and main(["info", str(go)]) == 0
    out = capsys.readouterr().out
    assert "A - B  *  1 ply  8x8" in out and "D - C  ?  2 moves  9x9" in out


def test_info_json_and_limit(tmp_path, capsys):
    path = tmp_path / "many.pgn"
    path.write_text("\n".join([PGN] * 5), encoding="utf-8")
    assert main(["info", str(path), "--json", "--limit", "2"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["games_total"] == 5 and document["games_listed"] == 2
    first = document["games"][0]
    assert (first["white"], first["black"], first["result"], first["moves"], first["board_size"]) == ("A", "B", "1-0", 7, [8, 8])


def test_info_on_a_go_file(corpus_dir, capsys):
    assert main(["info", str(corpus_dir / "sgf" / "sabaki-sgf__korean.sgf"), "--json"]) == 0
    game = json.loads(capsys.readouterr().out)["games"][0]
    assert game["kind"] == "go" and game["black"] == "이세돌" and game["board_size"] == [19, 19]


def test_save_game_by_extension_round_trips(tmp_path):
    chess_game = game_from_pgn_text(PGN)
    save_game(chess_game, tmp_path / "out.pgn")
    assert load_game(tmp_path / "out.pgn").mainline_moves() == chess_game.mainline_moves()
    go_game = game_from_sgf_text("(;GM[1]SZ[9]PB[黑];B[ee];W[cc])")
    save_game(go_game, tmp_path / "out.sgf")
    assert load_game(tmp_path / "out.sgf").black == "黑"
    with pytest.raises(GameFileError, match="cannot write"):
        save_game(go_game, tmp_path / "out.txt")
    with pytest.raises(ValueError):
        save_game(go_game, tmp_path / "go.pgn")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pgn", "out.sgf"]  # no temporary files left


def test_load_game_index_out_of_range_is_a_clear_error(tmp_path):
    path = tmp_path / "one.pgn"
    path.write_text(PGN, encoding="utf-8")
    with pytest.raises(GameFileError, match="no game 5"):
        load_game(path, 4)


def test_collection_is_lazy_and_reports_its_format(tmp_path):
    path = tmp_path / "g.pgn"
    path.write_text(PGN, encoding="utf-8")
    collection = open_collection(path)
    assert (collection.format, collection.encoding, len(collection)) == ("pgn", "utf-8", 1)
    summary = collection.summary(0)
    assert (summary.white, summary.black, summary.result, summary.board_size) == ("A", "B", "1-0", (8, 8))
    game = collection.game(0)
    assert game.source.path == str(path) and game.source.format == "pgn"
    assert collection.game(0) is not game  # each call gives a fresh game to change freely
