"""The compiled main-line reader of the game database (`_chess_lines`) against its python-chess
path: the same records (moves, Polyglot keys, move codes, fingerprints) and the same games refused,
on every game of the corpus, on 10 000 master games, and on the positions where SAN needs the
rules (pins, disambiguation, castling, en passant, promotion)."""

from __future__ import annotations

import lzma
import re
from dataclasses import asdict
from pathlib import Path

import chess
import chess.polyglot
import pytest
from support import CORPUS_DIR, SHARED_DIR

from reviewer.core.database import chess as chess_records
from reviewer.core.database import records
from reviewer.core.database.chess import chess_key, chess_move_code
from reviewer.core.formats import open_collection
from reviewer.core.formats.pgn import PgnCollection

chess_lines = chess_records._chess_lines

BIGSET = SHARED_DIR / "bigsets" / "chess-pgnmentor-players.pgn.xz"


def _both(headers: dict[str, str], movetext: str) -> tuple[records.GameRecord | None, records.GameRecord | None]:
    native = chess_records.chess_record_from_movetext(headers, movetext, native=True)
    python = chess_records.chess_record_from_movetext(headers, movetext, native=False)
    return native, python


def _replayed(record: records.GameRecord) -> tuple[list[int], list[int | None]]:
    """Keys and move codes of the record's UCI moves replayed by python-chess on its own."""
    board = chess.Board()
    keys, codes = [chess_key(board)], []
    for uci in _uci_of(record):
        move = chess.Move.from_uci(uci)
        assert board.is_legal(move)
        codes.append(chess_move_code(move))
        board.push(move)
        keys.append(chess_key(board))
    return keys, [*codes, None]


def _uci_of(record: records.GameRecord) -> list[str]:
    return [chess.Move(code % 64, (code // 64) % 64, code // 4096 or None).uci() for code in _moves(record) if code is not None]


def _keys(record: records.GameRecord) -> list[int]:
    return [row.key for row in record.positions]


def _moves(record: records.GameRecord) -> list[int | None]:
    return [row.move for row in record.positions]


def _compare_collection(collection: PgnCollection, where: str, replay: bool = False) -> tuple[int, int]:
    """(games the compiled reader read, games the python-chess path read) of one file; with
    `replay`, each record's keys and codes also equal a replay of its moves by python-chess."""
    native_count = python_count = 0
    for index in range(len(collection)):
        headers, movetext = collection.headers(index), collection.movetext(index)
        native, python = _both(headers, movetext)
        assert (native is None) == (python is None), f"{where} game {index + 1}: refused by one path only"
        if python is None:
            continue
        python_count += 1
        assert native is not None
        assert asdict(native) == asdict(python), f"{where} game {index + 1}"
        if replay:
            assert _replayed(native) == (_keys(native), _moves(native)), f"{where} game {index + 1}"
        if chess_lines.main_line(movetext) is not None:
            native_count += 1
    return native_count, python_count


def test_the_compiled_main_line_reader_is_built():
    assert chess_lines is not None, "reviewer/core/database/_chess_lines.c was not built (pip install -e . builds it)"


def test_the_polyglot_numbers_in_c_are_python_chess_ones():
    header = (Path(records.__file__).parent / "_polyglot.h").read_text()
    numbers = [int(value, 16) for value in re.findall(r"0x([0-9A-F]{16})ULL", header)]
    assert numbers == list(chess.polyglot.POLYGLOT_RANDOM_ARRAY)


def test_every_corpus_game_reads_the_same_in_c_and_with_python_chess():
    folder = CORPUS_DIR / "pgn"
    if not folder.is_dir():
        pytest.skip(f"the shared corpus is not at {folder}")
    native_total = python_total = 0
    for path in sorted(folder.iterdir()):
        try:
            collection = open_collection(path)
        except Exception:  # files the database names as unreadable
            continue
        if isinstance(collection, PgnCollection):
            native, python = _compare_collection(collection, path.name, replay=True)
            native_total += native
            python_total += python
    assert python_total > 500
    assert native_total >= 0.95 * python_total  # the C path reads nearly all that the fast path reads


def test_10000_master_games_read_the_same_in_c_and_with_python_chess(tmp_path):
    if not BIGSET.is_file():
        pytest.skip(f"the master games are not at {BIGSET}")
    target = tmp_path / "masters.pgn"
    games = 0
    with lzma.open(BIGSET, "rb") as packed, open(target, "wb") as out:
        for line in packed:
            if line.startswith(b"[Event "):
                if games == 10000:
                    break
                games += 1
            out.write(line)
    collection = open_collection(target)
    assert isinstance(collection, PgnCollection)
    native, python = _compare_collection(collection, "masters")
    assert python >= 9900 and native >= 0.999 * python


def _line(movetext: str) -> tuple[list[int], list[int], str, str] | None:
    line = chess_lines.main_line(movetext)
    native, python = _both({"Result": "*"}, movetext)
    assert (native is None) == (python is None)
    if native is not None and python is not None:
        assert asdict(native) == asdict(python)
        assert _replayed(native) == (_keys(native), _moves(native))
    return line


def test_en_passant_counts_in_the_key_only_beside_a_pawn_that_can_take():
    line = _line("1. e4 a6 2. e5 d5 3. exd6 a5 4. h4 b5 5. h5 g5 6. hxg6")
    assert line is not None
    board = chess.Board()
    for san in ["e4", "a6", "e5", "d5"]:
        board.push_san(san)
    assert line[0][4] == chess_key(board)  # after 2...d5: the e5 pawn can take
    assert line[2].split()[4] == "e5d6"
    assert line[2].split()[-1] == "h5g6"
    none_beside = _line("1. e4 d5 2. a3")
    assert none_beside is not None
    board = chess.Board()
    board.push_san("e4")
    board.push_san("d5")
    assert none_beside[0][2] == chess_key(board)


def test_an_en_passant_capture_that_exposes_the_king_is_not_read():
    # White king a5, pawn b5, black queen h5: after c7-c5, bxc6 e.p. would leave the king in check.
    moves = "1. b4 e6 2. b5 Qh4 3. d3 Qh5 4. Kd2 h6 5. Kc3 g6 6. Kb3 f6 7. Ka4 d6 8. Ka5 c5"
    assert _line(moves) is not None
    assert _line(moves + " 8. bxc6") is None


def test_a_pinned_piece_is_passed_over_and_an_ambiguous_move_is_refused():
    # Knights c3 and g1 both reach e2; the one on c3 is pinned by the bishop on b4, so Ne2 is Ng1-e2.
    pinned = _line("1. d4 e6 2. Nc3 Bb4 3. e3 a6 4. Ne2")
    assert pinned is not None and pinned[2].split()[-1] == "g1e2"
    # Both knights free: Nd2 names two moves, Nbd2 and N1d2 one.
    assert _line("1. Nf3 d5 2. d4 e6 3. Nd2") is None
    for named in ("Nbd2", "N1d2", "Nb1d2"):
        line = _line("1. Nf3 d5 2. d4 e6 3. " + named)
        assert line is not None and line[2].split()[-1] == "b1d2", named
    assert _line("1. Nf3 d5 2. d4 e6 3. Nfd2")[2].split()[-1] == "f3d2"  # type: ignore[index]


def test_castling_only_where_the_rules_allow_it():
    both = _line("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O")
    assert both is not None and both[2].split()[-2:] == ["e1g1", "e8g8"]
    # The king side rook has moved and come back: no castling.
    assert _line("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Rg1 a6 5. Rh1 a5 6. O-O") is None
    # Through f1, which the bishop on a6 sees; then with c4 in its way.
    assert _line("1. g3 b6 2. e3 Ba6 3. Bg2 h6 4. Nf3 h5 5. O-O") is None
    assert _line("1. g3 b6 2. e3 Ba6 3. Bg2 h6 4. Nf3 h5 5. c4 h4 6. O-O") is not None
    # Out of check: refused.
    assert _line("1. d4 e6 2. Nf3 a6 3. e3 a5 4. Be2 Bb4+ 5. O-O") is None
    assert _line("1. d4 e6 2. Nf3 a6 3. e3 a5 4. Be2 Bb4+ 5. c3 a4 6. O-O") is not None
    queen_side = _line("1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O")
    assert queen_side is not None and queen_side[2].split()[-2:] == ["e1c1", "e8c8"]


def test_promotions_with_and_without_the_sign_and_a_missing_piece_refused():
    base = "1. h4 g5 2. hxg5 h6 3. gxh6 Nf6 4. h7 Ng8 5. hxg8"
    for suffix, code in (("=Q", chess.QUEEN), ("Q", chess.QUEEN), ("=N", chess.KNIGHT), ("=R+", chess.ROOK)):
        line = _line(base + suffix)
        assert line is not None and line[1][-1] // 4096 == code, suffix
    assert _line(base) is None  # to the last rank without a piece


def test_odd_tokens_go_to_the_python_chess_path():
    for text in ("1. e4 e5 2. Ng1f3", "1. e2e4", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. Kf1", "1. e4 $1 e5 1-0",
                 "1.e4 e5 2.Nf3!? Nc6?? *", "1... e5", "1. e4 e5 2. d4 exd4 3. c3 dxc3 4. ed5", "1. e4 -- 2. d4"):
        line = chess_lines.main_line(text)
        native, python = _both({"Result": "*"}, text)
        assert (native is None) == (python is None), text
        if native is not None and python is not None:
            assert asdict(native) == asdict(python), text
        if line is not None:
            assert python is not None
    assert chess_lines.main_line("1.e4 e5 2.Nf3!? Nc6?? *") == chess_lines.main_line("1. e4 e5 2. Nf3 Nc6 *")[:3] + ("e4 e5 Nf3 Nc6",)
    assert chess_lines.main_line("1. e4 -- 2. d4") is None
    assert chess_lines.main_line("1. e4 é5") is None


def test_an_import_without_the_compiled_reader_stores_the_same_games_and_positions(tmp_path, monkeypatch):
    from reviewer.core.database import GameDatabase, import_paths

    source = CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn"
    if not source.is_file():
        pytest.skip(f"the shared corpus is not at {CORPUS_DIR}")
    stored = []
    for name in ("compiled", "python"):
        if name == "python":
            monkeypatch.setattr(chess_records, "_chess_lines", None)
        with GameDatabase(tmp_path / f"{name}.sqlite") as database:
            import_paths(database, [source])
            connection = database.connection
            runs = database.positions.runs()
            stored.append((
                connection.execute("SELECT fingerprint, plies, moves FROM games ORDER BY id").fetchall(),
                sorted(row for run in runs for row in zip(*(run.columns[name].tolist() for name in ("keys", "games", "plies", "moves")))),
            ))
    assert stored[0][0] and stored[0][1] and stored[0] == stored[1]
