"""The game database's chess: positions keyed by their Polyglot Zobrist key (python-chess), so
that transpositions meet; moves as one small integer each; a game's record from its main line,
straight from a PGN's movetext where the game is plain (`record_from_collection`; a whole chunk of
games as rows in one compiled call: `plain_chess_games`), else from the game read in full
(`chess_record_from_game`); a position to look up (`chess_position_of_node`).
Named by chess's support object (`database_record_ref`, `database_fast_record_ref`,
`database_fast_chunk_ref`, `database_position_ref`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

import chess
import chess.polyglot

from reviewer.core.database.explorer import Position
from reviewer.core.database.keys import signed_64
from reviewer.core.database.records import (
    GameFields,
    GameRecord,
    PackedPositions,
    PlainGames,
    PositionRow,
    SkippedGame,
    date_of,
    elo_of,
    fingerprint_of,
    fingerprint_of_bytes,
    outcome_of,
    speed_of,
)
from reviewer.core.errors import GameFileError
from reviewer.core.formats.collection import GameCollection
from reviewer.core.formats.pgn import STANDARD_VARIANT_NAMES, PgnCollection
from reviewer.core.formats.pgn_index import blank_if_unknown, rating_text, shown_result
from reviewer.core.games.chess import board_after
from reviewer.core.gametree import Game, Node

try:  # the main-line reader in C (setup.py builds it where a compiler is found)
    from reviewer.core.database import _chess_lines
except ImportError:
    _chess_lines = None  # type: ignore[assignment]

__all__ = [
    "ChessKeyer",
    "chess_key",
    "chess_move_code",
    "chess_move_of_code",
    "chess_position_of_node",
    "chess_positions",
    "chess_record_from_game",
    "chess_record_from_movetext",
    "plain_chess_games",
    "record_from_collection",
]


def chess_key(board: chess.Board) -> int:
    return signed_64(chess.polyglot.zobrist_hash(board))


_POLYGLOT = chess.polyglot.POLYGLOT_RANDOM_ARRAY
_HASHER = chess.polyglot.ZobristHasher(_POLYGLOT)


def _piece_boards(board: chess.Board) -> tuple[int, ...]:
    """The squares of each piece in Polyglot's order: black pawns, white pawns, black knights, ..."""
    black, white = board.occupied_co
    return (
        board.pawns & black, board.pawns & white, board.knights & black, board.knights & white,
        board.bishops & black, board.bishops & white, board.rooks & black, board.rooks & white,
        board.queens & black, board.queens & white, board.kings & black, board.kings & white,
    )


class ChessKeyer:
    """`chess_key` of a board as it is played on, kept up to date from the squares that changed
    instead of from every piece (the same numbers, several times faster)."""

    def __init__(self, board: chess.Board) -> None:
        self._pieces = _HASHER.hash_board(board)
        self._boards = _piece_boards(board)
        self._castling_for: tuple[int, int, int] | None = None
        self._castling = 0

    def moved(self, board: chess.Board) -> None:
        """The board after a move (or any change): take in the squares that changed."""
        boards = _piece_boards(board)
        pieces = self._pieces
        for index, (old, new) in enumerate(zip(self._boards, boards)):
            changed = old ^ new
            while changed:
                square = (changed & -changed).bit_length() - 1
                pieces ^= _POLYGLOT[64 * index + square]
                changed &= changed - 1
        self._pieces, self._boards = pieces, boards

    def key(self, board: chess.Board) -> int:
        castling_for = (board.castling_rights, board.rooks, board.kings)
        if castling_for != self._castling_for:
            self._castling_for, self._castling = castling_for, _HASHER.hash_castling(board)
        value = self._pieces ^ self._castling
        if board.ep_square is not None:
            value ^= _HASHER.hash_ep_square(board)
        if board.turn == chess.WHITE:
            value ^= _POLYGLOT[780]
        return signed_64(value)


def chess_move_code(move: chess.Move) -> int:
    """A move as one small integer: from + 64 × to + 4096 × promotion piece type."""
    return move.from_square + 64 * move.to_square + 4096 * (move.promotion or 0)


def chess_move_of_code(code: int) -> chess.Move:
    promotion = code // 4096
    return chess.Move(code % 64, (code // 64) % 64, promotion or None)


# The fields' functions of a tag's text, remembered: the games of a file share most of their values.
_FIELD_TEXTS_KEPT = 1 << 13
_name_of = lru_cache(maxsize=_FIELD_TEXTS_KEPT)(blank_if_unknown)
_rank_of = lru_cache(maxsize=_FIELD_TEXTS_KEPT)(rating_text)
_elo_of = lru_cache(maxsize=_FIELD_TEXTS_KEPT)(elo_of)
_date_of = lru_cache(maxsize=_FIELD_TEXTS_KEPT)(date_of)
_outcome_of = lru_cache(maxsize=64)(outcome_of)


@lru_cache(maxsize=256)
def _result_of(value: str) -> str:
    return shown_result(value) or "*"


@lru_cache(maxsize=_FIELD_TEXTS_KEPT)
def _speed_of(time_control: str, event: str) -> str:
    return speed_of({"TimeControl": time_control, "Event": event})  # the only tags it reads


class _HeaderFields(NamedTuple):
    """A game's fields as `fill_fields_from_headers` reads them from its tags."""

    white: str
    black: str
    white_rank: str
    black_rank: str
    event: str
    date: str
    result: str

    @classmethod
    def of_headers(cls, headers: dict[str, str]) -> _HeaderFields:
        get = headers.get
        return cls(_name_of(get("White", "")), _name_of(get("Black", "")), _rank_of(get("WhiteElo", "")),
                   _rank_of(get("BlackElo", "")), _name_of(get("Event", "")),
                   _name_of(get("Date", "") or get("UTCDate", "")), _result_of(get("Result", "")))

    @classmethod
    def of_game(cls, game: Game) -> _HeaderFields:
        return cls(game.white, game.black, game.white_rank, game.black_rank, game.event, game.date, game.result)


def _fingerprint(headers: dict[str, str], start: str, moves_uci: str) -> int:
    data = _chess_lines.fingerprint_input("chess", headers, start, moves_uci) if _chess_lines is not None else None
    return fingerprint_of("chess", headers, start, moves_uci) if data is None else fingerprint_of_bytes(data)


def _chess_record(fields: _HeaderFields, headers: dict[str, str], start: str, moves_uci: str, moves_san: str,
                  packed: PackedPositions) -> GameRecord:
    """`moves_uci` and `moves_san`: joined by single spaces; `packed`: the positions at plies 0, 1, 2, ..."""
    return GameRecord(
        kind="chess",
        fingerprint=_fingerprint(headers, start, moves_uci),
        white=fields.white,
        black=fields.black,
        white_elo=_elo_of(fields.white_rank),
        black_elo=_elo_of(fields.black_rank),
        result=fields.result,
        outcome=_outcome_of(fields.result),
        date=_date_of(fields.date),
        event=fields.event,
        speed=_speed_of(headers.get("TimeControl", ""), headers.get("Event", "")),
        board_size=8,
        moves=[],
        packed=packed,
        moves_text=moves_san,
    )


# Tokens of a main line: move numbers, results and NAGs are dropped; anything that is not plain
# SAN (a null move, a comment, a variation, an escape) sends the game to the full reader instead.
_MOVETEXT_NOISE = re.compile(r"\d+\.(?:\.\.)?|\$\d+|1-0|0-1|1/2-1/2|\*")
_PLAIN_SAN = re.compile(r"([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQ]))?[+#]?[!?]{0,2}|O-O(?:-O)?[+#]?[!?]{0,2}")
_PIECE_TYPES = {"N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK, "Q": chess.QUEEN, "K": chess.KING}


def _san_move(board: chess.Board, match: re.Match[str]) -> chess.Move:
    """The legal move a plain SAN names, found from the pieces that reach its square; the rare
    cases (castling, two candidates, anything odd) go to python-chess's own parser."""
    piece, from_file, from_rank, target, promotion = match.groups()
    if target is None:
        return board.parse_san(match.group(0).rstrip("!?"))
    to_square = chess.parse_square(target)
    turn = board.turn
    if piece:
        candidates = board.attackers_mask(turn, to_square) & board.pieces_mask(_PIECE_TYPES[piece], turn)
    else:
        pawns = board.pawns & board.occupied_co[turn]
        step = -8 if turn == chess.WHITE else 8
        if from_file:
            origin = to_square + step - chess.square_file(to_square) + "abcdefgh".index(from_file)
            candidates = pawns & chess.BB_SQUARES[origin] if 0 <= origin < 64 else 0  # off the board: python-chess says why
        else:
            one = to_square + step
            candidates = pawns & chess.BB_SQUARES[one] if 0 <= one < 64 else 0
            if not candidates and 0 <= one + step < 64 and board.piece_at(one) is None:
                candidates = pawns & chess.BB_SQUARES[one + step]
    if from_file:
        candidates &= chess.BB_FILES["abcdefgh".index(from_file)]
    if from_rank:
        candidates &= chess.BB_RANKS[int(from_rank) - 1]
    if candidates and not candidates & (candidates - 1):
        move = chess.Move(candidates.bit_length() - 1, to_square, _PIECE_TYPES[promotion] if promotion else None)
        if board.is_legal(move):
            return move
    return board.parse_san(match.group(0).rstrip("!?"))


def chess_record_from_movetext(headers: dict[str, str], movetext: str, *, native: bool = True) -> GameRecord | None:
    """The record of a standard chess game read straight from its main line, or None when the text
    holds anything the fast path does not read (variations, `;` comments, escapes, a set-up
    position, a move that is not exactly one legal move): such a game is read by the full reader
    (`chess_record_from_game`), which gives the same record where both read a game. Comments in
    braces and NAGs are passed over, as the full reader keeps neither in a record. The main line is
    read by the compiled `_chess_lines` where it was built (`native`), else with python-chess."""
    if "FEN" in headers or "SetUp" in headers or headers.get("Variant", "").strip().lower() not in STANDARD_VARIANT_NAMES:
        return None
    bare = _without_comments(movetext) if "{" in movetext else movetext
    if bare is None:
        return None
    fields = _HeaderFields.of_headers(headers)
    if fields.result == "*" or "Result" not in headers:
        # As the full reader does: the movetext's own result stands for a missing or unknown tag.
        closing = bare.rsplit(None, 1)[-1] if bare and not bare.isspace() else ""
        if closing in ("1-0", "0-1", "1/2-1/2"):
            fields = fields._replace(result=closing)
    if native and _chess_lines is not None:
        line = _chess_lines.packed_line(movetext)
        if line is not None:
            keys, codes, moves_uci, moves_san = line
            return _chess_record(fields, headers, "", moves_uci, moves_san, PackedPositions(keys, codes))
    if ";" in bare or "(" in bare or "%" in bare or "}" in bare:
        return None
    return _python_main_line(fields, headers, bare)


_BRACE_COMMENT = re.compile(r"\{[^}]*\}")


def _without_comments(movetext: str) -> str | None:
    """The movetext with its `{...}` comments as spaces; None where one is never closed."""
    bare = _BRACE_COMMENT.sub(" ", movetext)
    return None if "{" in bare else bare


def _python_main_line(fields: _HeaderFields, headers: dict[str, str], movetext: str) -> GameRecord | None:
    board = chess.Board()
    keyer = ChessKeyer(board)
    keys: list[int] = []
    codes: list[int | None] = []
    moves_uci: list[str] = []
    moves_san: list[str] = []
    for token in _MOVETEXT_NOISE.sub(" ", movetext).split():
        match = _PLAIN_SAN.fullmatch(token)
        if match is None:
            return None
        try:
            move = _san_move(board, match)
        except ValueError:
            return None
        keys.append(keyer.key(board))
        codes.append(chess_move_code(move))
        moves_uci.append(move.uci())
        moves_san.append(board.san(move))  # as the full reader writes it, whatever the spelling
        board.push(move)
        keyer.moved(board)
    keys.append(keyer.key(board))
    codes.append(None)
    return _chess_record(fields, headers, "", " ".join(moves_uci), " ".join(moves_san), PackedPositions.of(keys, codes))


# Warnings of the PGN reader that mean the main line could not be read to its end.
_BROKEN_MAIN_LINE = ("in the main line", "the moves cannot be read", "bad start position", "null move")


def chess_positions(game: Game) -> tuple[list[PositionRow], list[str]]:
    """The positions of a chess game's main line and its moves in UCI."""
    if game.variant:
        raise SkippedGame(f"variant {game.variant!r}: only standard chess and Chess960 are stored")
    board = chess.Board(game.start_fen, chess960=game.chess960) if game.start_fen else chess.Board(chess960=game.chess960)
    keyer = ChessKeyer(board)
    positions: list[PositionRow] = []
    moves_uci: list[str] = []
    for node in game.root.mainline():
        if not node.uci:
            raise SkippedGame("a move without its UCI form in the main line")
        move = chess.Move.from_uci(node.uci)
        if not move or not board.is_legal(move):
            raise SkippedGame(f"move {node.move or node.uci} cannot be played at ply {len(moves_uci) + 1}")
        positions.append(PositionRow(keyer.key(board), len(moves_uci), chess_move_code(move)))
        moves_uci.append(node.uci)
        board.push(move)
        keyer.moved(board)
    positions.append(PositionRow(keyer.key(board), len(moves_uci), None))
    return positions, moves_uci


_GAME_NUMBER = re.compile(r"^game \d+: ")
_VIEWER_CLAUSE = "; the rest of that line is skipped"


def _stored_nothing(warning: str) -> str:
    """A reader's warning as the reason a game is not stored: the import names the game itself, and
    the database keeps none of it (the viewer keeps the moves before the problem)."""
    return _GAME_NUMBER.sub("", warning).replace(_VIEWER_CLAUSE, "")


def chess_record_from_game(game: Game) -> GameRecord:
    for warning in game.warnings:
        if any(mark in warning for mark in _BROKEN_MAIN_LINE):
            raise SkippedGame(_stored_nothing(warning))
    positions, moves_uci = chess_positions(game)
    moves_san = " ".join(node.move or "" for node in game.root.mainline())
    packed = PackedPositions.of([row.key for row in positions], [row.move for row in positions])
    return _chess_record(_HeaderFields.of_game(game), game.headers, game.start_fen or "", " ".join(moves_uci), moves_san, packed)


def record_from_collection(collection: GameCollection, index: int) -> GameRecord | None:
    """The record of game `index` read straight from a PGN's movetext, where the game is plain;
    None for any other file or game (the full reader reads it)."""
    if not isinstance(collection, PgnCollection):
        return None
    return chess_record_from_movetext(_headers_of(collection, index), collection.movetext(index))


def plain_chess_games(collection: GameCollection, first: int, end: int) -> PlainGames | None:
    """Games first..end-1 of a PGN read in one call of the compiled reader: the same records as
    `record_from_collection`'s, as rows; None where that reader was not built or the file is no PGN."""
    if _chess_lines is None or not isinstance(collection, PgnCollection) or first >= end:
        return None
    index = collection._index
    last_byte = index.end(end - 1)
    try:
        collection._bytes(last_byte, last_byte)
    except GameFileError:  # the file shrank since it was mapped: each game's reader says so
        return None
    # Copies of the chunk's offsets (and the next game's start, where its last game ends): the
    # index may grow on another thread meanwhile, and an array lent to the reader cannot.
    games, keys, moves, left = _chess_lines.plain_games(collection._data, index.starts[first:end + 1],
                                                        index.movetexts[first:end + 1], index.size, 0, end - first)
    rows: list[tuple[int, int, GameFields]] = []
    for (place, fingerprint, white, black, white_elo, black_elo, event, date, utc_date, time_control, result_tag,
         closing, moves_san, plies) in games:
        result = _result_of("" if result_tag is None else result_tag)
        if (result == "*" or result_tag is None) and closing:
            result = closing  # as chess_record_from_movetext: the movetext's own result
        rows.append((first + place, fingerprint, (
            _name_of(white), _name_of(black), _elo_of(_rank_of(white_elo)), _elo_of(_rank_of(black_elo)), result,
            _outcome_of(result), _date_of(_name_of(date or utc_date)), _name_of(event), _speed_of(time_control, event),
            8, plies, moves_san)))
    return PlainGames("chess", rows, keys, moves, {first + place: why for place, why in left})


def _headers_of(collection: PgnCollection, index: int) -> dict[str, str]:
    """`collection.headers(index)`, read by the compiled reader where the tag lines are all plain."""
    if _chess_lines is not None:
        tags = _chess_lines.plain_tags(collection._header_text(index))
        if tags is not None:
            return tags
    return collection.headers(index)


def _chess_position_of_board(board: chess.Board) -> Position:
    def san(code: int) -> str:
        move = chess_move_of_code(code)
        return board.san(move) if board.is_legal(move) else move.uci()

    return Position("chess", chess_key(board), "white" if board.turn else "black", san)


def chess_position_of_node(game: Game, node: Node) -> Position:
    return _chess_position_of_board(board_after(game, node))  # Chess960 too
