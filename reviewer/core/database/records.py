"""One game as the database stores it: its fields and the positions it reached, with their keys.

Chess positions are keyed by `chess_key` (Zobrist), Go positions by `GoKeyer` (canonical over the
board's symmetries). A game that comes back to a position is counted there once, with the move it
played the first time.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import repeat
from typing import NamedTuple

import chess

from reviewer.core.database.keys import ChessKeyer, GoKeyer, chess_move_code
from reviewer.core.formats.pgn import STANDARD_VARIANT_NAMES, fill_fields_from_headers
from reviewer.core.games.go import GoBoard
from reviewer.core.gametree import Color, Game, Point, other_color

try:  # the main-line reader in C (setup.py builds it where a compiler is found)
    from reviewer.core.database import _chess_lines
except ImportError:
    _chess_lines = None  # type: ignore[assignment]

__all__ = [
    "GameRecord",
    "PositionRow",
    "SkippedGame",
    "chess_positions",
    "chess_record_from_game",
    "chess_record_from_movetext",
    "go_positions",
    "go_record_from_game",
    "outcome_of",
    "speed_of",
]


class SkippedGame(Exception):
    """A game that cannot be stored; the message says why."""


class PositionRow(NamedTuple):
    """A position a game reached: its key, the ply (0 = the start), the move played from it in the
    database's code (None where the game ended) and, for Go, the symmetry that makes it canonical."""

    key: int
    ply: int
    move: int | None
    symmetry: int = 0


@dataclass
class GameRecord:
    """A game's fields and its positions, kept as columns (a game has a hundred positions and an
    import reads thousands of games a second): `positions` gives them as rows."""

    kind: str
    fingerprint: int
    white: str
    black: str
    white_elo: int | None
    black_elo: int | None
    result: str
    outcome: int | None
    date: str
    event: str
    speed: str
    board_size: int
    moves: list[str]
    position_keys: list[int] = field(default_factory=list)
    position_moves: list[int | None] = field(default_factory=list)  # None where the game ended
    position_plies: list[int] | None = None  # None: 0, 1, 2, ... (every position one ply on)
    position_symmetries: list[int] | None = None  # None: all 0 (chess)

    @property
    def positions(self) -> list[PositionRow]:
        plies: Iterable[int] = self.position_plies if self.position_plies is not None else range(len(self.position_keys))
        symmetries: Iterable[int] = self.position_symmetries if self.position_symmetries is not None else repeat(0)
        return [PositionRow(*row) for row in zip(self.position_keys, plies, self.position_moves, symmetries)]

    def with_rows(self, rows: list[PositionRow]) -> GameRecord:
        """This record with its positions set from rows."""
        self.position_keys = [row.key for row in rows]
        self.position_moves = [row.move for row in rows]
        self.position_plies = [row.ply for row in rows]
        self.position_symmetries = [row.symmetry for row in rows] if any(row.symmetry for row in rows) else None
        return self


def outcome_of(result: str) -> int | None:
    """1 when White won, 0 for a draw, -1 when Black won, None when unknown (chess and Go results)."""
    text = result.strip().upper()
    if text.startswith(("1-0", "W+")):
        return 1
    if text.startswith(("0-1", "B+")):
        return -1
    if text.startswith("1/2") or text in ("0", "DRAW", "JIGO"):
        return 0
    return None


_TIME_CONTROL = re.compile(r"^(\d+)(?:\+(\d+))?$")
SPEED_WORDS = ("ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence")


def speed_of(headers: dict[str, str]) -> str:
    """The time control class lichess uses (base + 40 × increment, in seconds), from TimeControl,
    else a speed named in the Event; "" when neither says."""
    control = headers.get("TimeControl", "").strip()
    if control == "-" or (control.startswith("1/") and control[2:].isdigit()):
        return "correspondence"
    match = _TIME_CONTROL.match(control)
    if match is not None:
        estimate_s = int(match.group(1)) + 40 * int(match.group(2) or 0)
        if estimate_s < 30:
            return "ultrabullet"
        if estimate_s < 180:
            return "bullet"
        if estimate_s < 480:
            return "blitz"
        if estimate_s < 1500:
            return "rapid"
        return "classical"
    event = headers.get("Event", "").lower()
    return next((word for word in SPEED_WORDS if word in event), "")


def _elo(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and 0 < int(text) < 4000 else None


def _date(text: str) -> str:
    return text.strip().replace("-", ".").replace("/", ".")


def _fingerprint(kind: str, headers: dict[str, str], start: str, moves: str) -> int:
    """Of the headers, the start and the moves (joined by spaces)."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(kind.encode())
    for name, value in sorted(headers.items()):
        digest.update(b"\x00" + name.encode("utf-8", "replace") + b"\x01" + value.encode("utf-8", "replace"))
    digest.update(b"\x02" + start.encode() + b"\x02" + moves.encode())
    return int.from_bytes(digest.digest(), "big", signed=True)


def _chess_record(game: Game, moves_uci: str, moves_san: list[str], keys: list[int], codes: list[int | None]) -> GameRecord:
    """`keys` and `codes`: of the positions at plies 0, 1, 2, ..."""
    return GameRecord(
        kind="chess",
        fingerprint=_fingerprint("chess", game.headers, game.start_fen or "", moves_uci),
        white=game.white,
        black=game.black,
        white_elo=_elo(game.white_rank),
        black_elo=_elo(game.black_rank),
        result=game.result,
        outcome=outcome_of(game.result),
        date=_date(game.date),
        event=game.event,
        speed=speed_of(game.headers),
        board_size=8,
        moves=moves_san,
        position_keys=keys,
        position_moves=codes,
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
            candidates = pawns & chess.BB_SQUARES[to_square + step - chess.square_file(to_square) + "abcdefgh".index(from_file)]
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
    holds anything the fast path does not read (comments, variations, a set-up position, an error):
    such a game is read by the full reader (`chess_record_from_game`). The main line is read by the
    compiled `_chess_lines` where it was built and reads it (`native`), else with python-chess."""
    if "FEN" in headers or "SetUp" in headers or headers.get("Variant", "").strip().lower() not in STANDARD_VARIANT_NAMES:
        return None
    if "{" in movetext or "(" in movetext or ";" in movetext or "%" in movetext:
        return None
    game = Game(kind="chess")
    fill_fields_from_headers(game, headers)
    if game.result == "*" or "Result" not in headers:
        # As the full reader does: the movetext's own result stands for a missing or unknown tag.
        tokens = movetext.split()
        closing = tokens[-1] if tokens else ""
        game.result = closing if closing in ("1-0", "0-1", "1/2-1/2") else game.result
    line = _chess_lines.main_line(movetext) if native and _chess_lines is not None else None
    if line is not None:
        keys, codes, moves_uci, moves_san = line
        moves_codes: list[int | None] = [*codes, None]
        return _chess_record(game, moves_uci, moves_san.split(" ") if moves_san else [], keys, moves_codes)
    return _python_main_line(game, movetext)


def _python_main_line(game: Game, movetext: str) -> GameRecord | None:
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
        moves_san.append(token.rstrip("!?"))
        board.push(move)
        keyer.moved(board)
    keys.append(keyer.key(board))
    codes.append(None)
    return _chess_record(game, " ".join(moves_uci), moves_san, keys, codes)


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


def chess_record_from_game(game: Game) -> GameRecord:
    for warning in game.warnings:
        if any(mark in warning for mark in _BROKEN_MAIN_LINE):
            raise SkippedGame(warning)
    positions, moves_uci = chess_positions(game)
    moves_san = [node.move or "" for node in game.root.mainline()]
    return _chess_record(game, " ".join(moves_uci), moves_san, [row.key for row in positions], [row.move for row in positions])


def _apply_setup(board: GoBoard, keyer: GoKeyer, black: list[Point], white: list[Point], empty: list[Point]) -> None:
    for point in [*empty, *black, *white]:
        if board.on_board(point) and point in board.stones:
            keyer.toggle(point, board.stones.pop(point))
    sides: tuple[tuple[list[Point], Color], ...] = ((black, "black"), (white, "white"))
    for points, color in sides:
        for point in points:
            if board.on_board(point):
                board.stones[point] = color
                keyer.toggle(point, color)


def go_positions(game: Game) -> list[PositionRow]:
    """The positions of a Go game's main line, keyed canonically; ply = the node's depth."""
    width, height = game.board_width, game.board_height
    keyer = GoKeyer(width, height)
    board = GoBoard(width, height, frozenset(), frozenset())
    _apply_setup(board, keyer, game.setup_black, game.setup_white, [])
    to_move: Color = game.first_player
    positions: list[PositionRow] = []
    for ply, node in enumerate(game.root.mainline()):
        if node.setup_black or node.setup_white or node.setup_empty:
            _apply_setup(board, keyer, node.setup_black, node.setup_white, node.setup_empty)
        if not node.is_move or node.color is None:
            continue
        color = node.color
        key, symmetry = keyer.canonical(color)
        positions.append(PositionRow(key, ply, keyer.canonical_move(color, node.point), symmetry))
        if node.point is not None:
            if not board.on_board(node.point):
                raise SkippedGame(f"move {ply + 1} ({node.move}) is off the {width}×{height} board")
            if node.point in board.stones:
                raise SkippedGame(f"move {ply + 1} ({node.move}) is on a point that holds a stone")
            captured, lost = board.play(node.point, color)
            keyer.toggle(node.point, color)
            keyer.toggle_all(captured, other_color(color))
            keyer.toggle_all(lost, color)
        to_move = other_color(color)
    key, symmetry = keyer.canonical(to_move)
    positions.append(PositionRow(key, game.ply_count, None, symmetry))
    return positions


def go_record_from_game(game: Game) -> GameRecord:
    moves = [node.move or "" for node in game.root.mainline() if node.is_move]
    if not moves and any("incomplete" in warning or "cannot" in warning for warning in game.warnings):
        raise SkippedGame(game.warnings[0])
    positions = go_positions(game)
    start = f"{game.board_width}x{game.board_height} B{sorted(game.setup_black)} W{sorted(game.setup_white)}"
    return GameRecord(
        kind="go",
        fingerprint=_fingerprint("go", game.headers, start, " ".join(moves)),
        white=game.white,
        black=game.black,
        white_elo=None,
        black_elo=None,
        result=game.result,
        outcome=outcome_of(game.result),
        date=_date(game.date),
        event=game.event,
        speed="",
        board_size=game.board_width if game.board_width == game.board_height else game.board_width * 100 + game.board_height,
        moves=moves,
    ).with_rows(positions)
