"""Chess rules, by python-chess: start position, replaying recorded moves, playing a user's move."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import chess
import chess.variant

from reviewer.core.analysis import Limit
from reviewer.core.errors import GameFileError
from reviewer.core.games.base import IllegalMove, Phase, PlayedMove, Position, opaque_rules
from reviewer.core.games.facets import Ref, is_threat
from reviewer.core.games.memo import NodeMemo, lock
from reviewer.core.games.support import (
    GameSupport,
    MoveNumber,
    OpponentStrength,
    RatingScale,
    ScoreUnits,
    SquareMoves,
    is_position_setup,
)
from reviewer.core.gametree import Color, Game, GameKind, Node

_CHECKPOINT_EVERY = 8  # plies between remembered boards
_checkpoints: NodeMemo[chess.Board] = NodeMemo()


def board_class_of(game: Game) -> type[chess.Board]:
    """The board of the game's variant (crazyhouse, atomic, horde, ...; chess.Board for standard chess
    and Chess960). Raises ValueError for a variant python-chess does not know."""
    variant = (game.variant or "").lower()
    if variant in ("", "chess", "standard", "chess960", "fischerandom"):
        return chess.Board
    return chess.variant.find_variant(variant)


def start_board(game: Game) -> chess.Board:
    board_class = board_class_of(game)
    return board_class(game.start_fen or board_class.starting_fen, chess960=game.chess960)


def line_squares(board: chess.Board, sans: Sequence[str], limit: int = 3) -> list[tuple[int, int]]:
    """(from, to) squares of the first `limit` moves of a SAN line from `board`; stops at a move
    that does not parse."""
    squares: list[tuple[int, int]] = []
    position = board.copy(stack=False)
    for san in list(sans)[:limit]:
        try:
            move = position.parse_san(san)
        except ValueError:
            break
        squares.append((move.from_square, move.to_square))
        position.push(move)
    return squares


def _board(position: Position) -> chess.Board:
    """A position the chess rules made, as theirs (a python-chess board)."""
    if not isinstance(position, chess.Board):
        raise TypeError(f"not a chess position: {position!r}")
    return position


def _line_squares_of(position: Position, sans: Sequence[str], limit: int) -> list[tuple[int, int]]:
    return line_squares(_board(position), sans, limit)


def _is_over(position: Position) -> bool:
    return _board(position).is_game_over()


def _square_number(name: str) -> int | None:
    return chess.parse_square(name) if name in chess.SQUARE_NAMES else None


def cache_keys(game: Game, plies: Sequence[int]) -> dict[int, str]:
    """The analysis cache's key of each main-line position `plies`: the variant and the EPD (no
    move counters, en passant only where a capture is legal)."""
    prefix = "chess960:" if game.chess960 else "chess:"
    return {ply: prefix + board.epd() for ply, board in boards_at_plies(game, plies).items()}


def fen_after(game: Game, node: Node) -> str:
    return board_after(game, node).fen()


def unreadable_start(game: Game) -> str | None:
    """Why the game's start position could not be read (its [FEN] tag is not a position), if so."""
    if game.start_fen is not None:
        return None
    fen = (game.headers.get("FEN") or "").strip()
    if not fen:
        return None
    try:
        chess.Board(fen, chess960=game.chess960)
    except ValueError as error:
        shown = fen if len(fen) <= 90 else fen[:87] + "..."
        return f"its start position [FEN \"{shown}\"] cannot be read ({error})"
    return None


def start_move_number(game: Game) -> MoveNumber:
    """The start FEN's full-move number and side to move; from 1, the first player first, where
    the FEN cannot be read (the reader has said why)."""
    try:
        board = start_board(game)
    except ValueError:
        return MoveNumber(1, game.first_player == "white")
    return MoveNumber(board.fullmove_number, board.turn == chess.WHITE)


def recorded_move(board: chess.Board, node: Node) -> chess.Move:
    """The move `node` records, read in `board`: its UCI when it has one, else its SAN; `--` is a null move.

    Raises ValueError naming the move and the position when it is not legal there."""
    try:
        if node.uci:
            move = board.parse_uci(node.uci)
        elif node.move and node.move not in ("--", "Z0"):
            move = board.parse_san(node.move)
        else:
            move = chess.Move.null()
    except ValueError as error:
        raise ValueError(f"move {node.uci or node.move!r} at ply {node.ply} is not legal in {board.fen()}: {error}") from None
    return move


def board_after(game: Game, node: Node) -> chess.Board:
    """The board after `node`'s move (the start position for the root), replaying the recorded moves.

    The caller owns the returned board and may change it freely. Its `move_stack` holds only the
    move that led here (so `board.peek()` is the last move; empty at the root): earlier history
    is not kept, which keeps stepping through very long games cheap in time and memory.
    """
    path = node.path_from_root()
    before_last = len(path) - 1  # replay to the position before the last move, then play it
    start_index, board = 0, None
    with lock:
        for index in range(before_last - 1, -1, -1):
            cached = _checkpoints.get(path[index])
            if cached is not None:
                start_index, board = index + 1, cached.copy(stack=False)
                break
    if board is None:
        board = start_board(game)
    for index in range(start_index, len(path)):
        if index == before_last:
            board.clear_stack()
        board.push(recorded_move(board, path[index]))
        if (index + 1) % _CHECKPOINT_EVERY == 0:
            with lock:
                if _checkpoints.get(path[index]) is None:
                    _checkpoints.put(path[index], board.copy(stack=False))
    return board


def boards_at_plies(game: Game, plies: Sequence[int]) -> dict[int, chess.Board]:
    """Main-line positions of a chess game by ply, each with its whole move stack (for repetitions).

    Raises GameFileError for an unsupported variant, a bad start position or an illegal move."""
    wanted = set(plies)
    variant = game.variant or ""
    if variant and variant.lower() not in ("chess", "standard", "chess960", "fischerandom"):
        raise GameFileError(f"chess variant {variant!r} is not supported for analysis")
    try:
        board = start_board(game)
    except ValueError as error:
        raise GameFileError(f"the game's start position is not valid: {error}") from None
    boards: dict[int, chess.Board] = {}
    if 0 in wanted:
        boards[0] = board.copy()
    last = max(wanted, default=0)
    for ply, node in enumerate(game.mainline_nodes(), start=1):
        if ply > last:
            break
        try:
            move = recorded_move(board, node)
        except ValueError:
            move = None
        if move is None or not move or move not in board.legal_moves:
            raise GameFileError(f"move {ply} ({node.move or node.uci}) is not legal in {board.fen()}")
        board.push(move)
        if ply in wanted:
            boards[ply] = board.copy()
    missing = wanted - boards.keys()
    if missing:
        raise ValueError(f"the main line has no position {min(missing)}")
    return boards


def color_of(board: chess.Board) -> Color:
    return "white" if board.turn == chess.WHITE else "black"


_UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


def parse_user_move(board: chess.Board, text: str) -> chess.Move:
    """A move as a user types it: SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) or UCI (`g1f3`, `e7e8q`).

    SAN is read whatever its case (`nf3`, `qb7`, `o-o`, `e8=q`) when that reads as one legal move;
    a small b stays a b-file pawn (`bxc3`) unless no pawn can make the move, then it is the bishop."""
    text = text.strip()
    if not text:
        raise IllegalMove(text, "no move given")
    if _UCI.fullmatch(text.lower()):
        try:
            move = chess.Move.from_uci(text.lower())
        except ValueError:  # from and to the same square
            raise IllegalMove(text, "a piece must move to another square") from None
        if move in board.legal_moves:
            return move
        if move.promotion is None and chess.Move(move.from_square, move.to_square, chess.QUEEN) in board.legal_moves:
            raise IllegalMove(long_move_name(board, move), "it is a promotion: say the piece (e.g. e7e8q)")
        raise IllegalMove(long_move_name(board, move), why_illegal(board, move))
    first_refusal: IllegalMove | None = None
    for reading in _san_readings(text):
        try:
            return _parse_san(board, text, reading)
        except IllegalMove as refusal:
            if first_refusal is None or (first_refusal.reason.startswith("not a move") and not refusal.reason.startswith("not a move")):
                first_refusal = refusal
    assert first_refusal is not None
    raise first_refusal


def _san_readings(text: str) -> list[str]:
    """`text` as typed, then with the case SAN wants: piece letters and castling in capitals,
    squares in small letters (`nf3` -> `Nf3`, `NF3` -> `Nf3`, `o-o` -> `O-O`, `e8=q` -> `e8=Q`)."""
    readings = [text]
    if text.lower().replace("0", "o") in ("o-o", "o-o-o", "o-o+", "o-o-o+", "o-o#", "o-o-o#"):
        readings.append(text.upper().replace("0", "O"))
        return readings
    body, _, promotion = text.partition("=")
    body = body[0] + body[1:].lower() if body else body
    promoted = f"={promotion.upper()}" if promotion else ""
    if body and body[0].lower() in "kqrbn":
        readings.append(body[0].upper() + body[1:] + promoted)
    readings.append(body[0].lower() + body[1:] + promoted if body else text)
    return list(dict.fromkeys(readings))


def _parse_san(board: chess.Board, typed: str, san: str) -> chess.Move:
    try:
        return board.parse_san(san)
    except chess.AmbiguousMoveError:
        raise IllegalMove(typed, "it is ambiguous: say which piece moves (e.g. Nbd2)") from None
    except chess.IllegalMoveError as error:
        if "promotion" in str(error):
            raise IllegalMove(typed, "it is a promotion: say the piece (e.g. e8=Q)") from None
        raise IllegalMove(typed, f"not legal in this position ({color_of(board)} to move)") from None
    except ValueError:
        raise IllegalMove(typed, "not a move in SAN (Nf3) or UCI (g1f3)") from None


def long_move_name(board: chess.Board, move: chess.Move) -> str:
    """A move that may not be legal, as players name it: the piece, where from and where to
    ("Ra8–a5", "e2–e5", "e7–e8=Q"), the piece left out for a pawn or an empty square."""
    piece = board.piece_at(move.from_square)
    letter = piece.symbol().upper() if piece is not None and piece.piece_type != chess.PAWN else ""
    promotion = f"={chess.piece_symbol(move.promotion).upper()}" if move.promotion else ""
    return f"{letter}{chess.square_name(move.from_square)}–{chess.square_name(move.to_square)}{promotion}"


def why_illegal(board: chess.Board, move: chess.Move) -> str:
    """Why `move` cannot be played on `board`, in words (for a move the rules refuse)."""
    name = chess.square_name
    piece = board.piece_at(move.from_square)
    if piece is None:
        return f"there is no piece on {name(move.from_square)}"
    piece_name = chess.piece_name(piece.piece_type)
    if piece.color != board.turn:
        return f"it is {color_of(board).capitalize()}'s move"
    if board.is_pseudo_legal(move) or board.is_pseudo_legal(chess.Move(move.from_square, move.to_square, chess.QUEEN)):
        if piece.piece_type == chess.KING:
            return f"the king would be in check on {name(move.to_square)}"
        if board.is_check():
            return "the king is in check and this move does not stop it"
        if board.is_pinned(board.turn, move.from_square):
            return f"the {piece_name} on {name(move.from_square)} is pinned to the king"
        return "it would leave the king in check"
    if piece.piece_type == chess.KING and abs(chess.square_file(move.from_square) - chess.square_file(move.to_square)) == 2:
        return "castling is not possible now"
    own = board.piece_at(move.to_square)
    if own is not None and own.color == piece.color:
        return f"{name(move.to_square)} holds a piece of the same colour"
    if piece.piece_type in (chess.BISHOP, chess.ROOK, chess.QUEEN):
        alone = chess.BaseBoard.empty()
        alone.set_piece_at(move.from_square, piece)
        if move.to_square in alone.attacks(move.from_square):
            return f"the way from {name(move.from_square)} to {name(move.to_square)} is blocked"
    return f"a {piece_name} cannot go from {name(move.from_square)} to {name(move.to_square)}"


# ------------------------------------------------------------------ game phases (lichess's Divider)

# The middlegame starts at the first position with at most this many queens, rooks, bishops and
# knights together (both sides), or a sparse back rank, or a mixedness above MIXEDNESS_MIDDLEGAME.
MAJORS_MINORS_MIDDLEGAME = 10
MAJORS_MINORS_ENDGAME = 6  # the endgame starts at the first position with at most this many
BACK_RANK_SPARSE_BELOW = 4  # fewer own pieces than this on a side's back rank: it has developed
MIXEDNESS_MIDDLEGAME = 150


def majors_and_minors(board: chess.Board) -> int:
    return chess.popcount(board.occupied & ~(board.kings | board.pawns))


def back_rank_sparse(board: chess.Board) -> bool:
    white_home = chess.popcount(board.occupied_co[chess.WHITE] & chess.BB_RANK_1)
    black_home = chess.popcount(board.occupied_co[chess.BLACK] & chess.BB_RANK_8)
    return white_home < BACK_RANK_SPARSE_BELOW or black_home < BACK_RANK_SPARSE_BELOW


def _region_score(y: int, white: int, black: int) -> int:
    """Lichess's score of one 2x2 square whose lower rank is `y` (1..7), holding `white` and `black` pieces."""
    match (white, black):
        case (1, 0):
            return 1 + (8 - y)
        case (2, 0):
            return 2 + (y - 2) if y > 2 else 0
        case (3, 0) | (4, 0):
            return 3 + (y - 1) if y > 1 else 0  # four on the home rank: 0
        case (0, 1):
            return 1 + y
        case (1, 1):
            return 5 + abs(3 - y)
        case (2, 1):
            return 4 + y
        case (3, 1):
            return 5 + y
        case (0, 2):
            return 2 + (6 - y) if y < 6 else 0
        case (1, 2):
            return 4 + (6 - y)
        case (2, 2):
            return 7
        case (0, 3) | (0, 4):
            return 3 + (7 - y) if y < 7 else 0
        case (1, 3):
            return 5 + (6 - y)
    return 0


_SMALL_SQUARE = chess.BB_A1 | chess.BB_B1 | chess.BB_A2 | chess.BB_B2


def mixedness(board: chess.Board) -> int:
    """How far the two armies have run into each other: lichess's sum over the 49 2x2 regions."""
    total = 0
    for row in range(7):
        for file in range(7):
            region = _SMALL_SQUARE << (file + 8 * row)
            white = chess.popcount(board.occupied_co[chess.WHITE] & region)
            black = chess.popcount(board.occupied_co[chess.BLACK] & region)
            total += _region_score(row + 1, white, black)
    return total


@dataclass(frozen=True)
class Division:
    """Where the middlegame and the endgame start, as main-line position indices (0 = the start).

    `middlegame` is None when the game never reaches one, or goes from the opening straight into the
    endgame (lichess's rule); `endgame` is None when the game never reaches one. `positions` counts
    the positions divided (P0 included)."""

    middlegame: int | None
    endgame: int | None
    positions: int

    def phase_of_move(self, ply: int) -> Phase:
        """The phase of move `ply`, which leads to position `ply` (lichess's `Phase.of`)."""
        if self.endgame is not None and ply >= self.endgame:
            return "endgame"
        if self.middlegame is not None and ply >= self.middlegame:
            return "middlegame"
        return "opening"


def divide(boards: Iterable[chess.Board]) -> Division:
    """Lichess's Divider over the positions P0, P1, … of a game."""
    middlegame = endgame = None
    positions = 0
    for index, board in enumerate(boards):
        positions += 1
        if endgame is not None:
            continue
        pieces = majors_and_minors(board)
        if middlegame is None and (
            pieces <= MAJORS_MINORS_MIDDLEGAME or back_rank_sparse(board) or mixedness(board) > MIXEDNESS_MIDDLEGAME
        ):
            middlegame = index
        if pieces <= MAJORS_MINORS_ENDGAME:
            endgame = index
    if middlegame is not None and endgame is not None and middlegame >= endgame:
        middlegame = None
    return Division(middlegame, endgame, positions)


def mainline_boards(game: Game) -> Iterator[chess.Board]:
    """P0, P1, … of the main line (one board, changed in place: read it before taking the next);
    stops before a move the rules refuse."""
    board = start_board(game)
    yield board
    for node in game.mainline_nodes():
        try:
            move = recorded_move(board, node)
        except ValueError:
            return
        if move and move not in board.legal_moves:
            return
        board.push(move)
        yield board


def game_phases(game: Game) -> list[Phase | None]:
    """Each main-line move's phase by lichess's Divider; None from a move the rules refuse on."""
    try:
        division = divide(mainline_boards(game))
    except ValueError:  # a start position python-chess refuses
        return [None] * game.ply_count
    built = division.positions - 1  # moves whose position after could be built
    return [division.phase_of_move(ply) if ply <= built else None for ply in range(1, game.ply_count + 1)]


class ChessRules:
    kind: GameKind = "chess"

    def start(self, game: Game) -> chess.Board:
        return start_board(game)

    def after(self, game: Game, node: Node) -> chess.Board:
        return board_after(game, node)

    def play(self, position: chess.Board, text: str) -> PlayedMove[chess.Board]:
        move = parse_user_move(position, text)
        san = position.san(move)
        after = position.copy(stack=False)
        after.push(move)
        return PlayedMove(after, san, move.uci(), color_of(position))

    def side_to_move(self, position: chess.Board) -> Color:
        return color_of(position)

    def position_key(self, position: chess.Board) -> str:
        return position.epd()

    def to_record(self, position: chess.Board, game: Game) -> dict[str, Any]:
        return {"fen": position.fen(), "chess960": game.chess960}

    def from_record(self, record: dict[str, Any]) -> chess.Board:
        """The board of a record; one that does not say whether it is Chess960 (a FEN as a player
        typed it) is Chess960 where only Chess960 keeps its castling rights."""
        chess960 = record.get("chess960")
        if chess960 is None:
            chess960 = _castles_as_chess960_only(record["fen"])
        return chess.Board(record["fen"], chess960=bool(chess960))

    def record_game(self, record: dict[str, Any], first_player: Color) -> Game:
        board = self.from_record(record)
        return Game(kind="chess", start_fen=board.fen(), chess960=board.chess960, first_player=first_player)

    def phases(self, game: Game) -> list[Phase | None]:
        return game_phases(game)


def _castles_as_chess960_only(fen: str) -> bool:
    """Whether the FEN's castling rights are lost when it is read as standard chess but kept as
    Chess960 (a king off e1/e8 that may castle, or Shredder-FEN's rook files)."""
    try:
        standard, free = chess.Board(fen), chess.Board(fen, chess960=True)
    except ValueError:
        return False  # the position's own reading says why
    return free.clean_castling_rights() != standard.clean_castling_rights()


RULES = ChessRules()


def new_node(game: Game, played: PlayedMove[Position]) -> Node:
    return Node(move=played.move, color=played.color, uci=played.machine)


SUPPORT = GameSupport(
    kind="chess",
    title="Chess",
    rules=opaque_rules(RULES),
    first_player="white",
    new_node=new_node,
    numbered_moves=True,
    start_move_number=start_move_number,
    start_problem=unreadable_start,
    bottom_player="white",
    scores=ScoreUnits(
        field="score_cp_first", unit="cp", per_shown_unit=100.0, shown_decimals=2, loss_decimals=0,
        loss_label="Loss (cp)", average_loss_label="Avg cp loss", average_loss_title="Average centipawn loss",
        summary_loss_key="acpl", loss_floor=20.0, loss_cap=60.0, shift_worth_saying=50.0, style="pawns", averaging="mean", log_offset=1.0,
        accuracy_names={
            "accuracy_lichess": "lichess accuracy",  # lichess's game accuracy (volatility-weighted)
            "accuracy": "En Croissant accuracy",  # harmonic mean of the move accuracies
            "accuracy_mean": "mean accuracy",  # arithmetic mean of the move accuracies (game-statistics)
        },
        value_first_ref=Ref("reviewer.core.scoring.chess:normalised_cp_white"), mover_value_ref=Ref("reviewer.core.scoring.chess:win_pct_of_mover"),
        mover_loss_field="win_drop_mover", mover_loss_unit="win %", accept_mover_loss=2.0,  # lichess: 0.04 winning chances
    ),
    rating=RatingScale(
        unit="Elo", description="Elo", plural="ratings", decimals=1, spread=200.0,
        format_ref=Ref("reviewer.core.rating.scale:elo_text"), parse_ref=Ref("reviewer.core.rating.scale:parse_elo"),
        result_ref=Ref("reviewer.core.rating.records:parse_chess_result"),
    ),
    assess_ref=Ref("reviewer.core.scoring.chess:assess_chess"),
    explain_ref=Ref("reviewer.core.explain.chess:explain_game_move"),
    threat_ref=Ref("reviewer.core.explain.chess:THREAT", is_threat, "a Threat"),
    uses_thresholds=True,
    has_openings=True,
    opening_table="openings",
    first_move_needs_start=False,  # E(P0) = +15 (docs/SCORING.md)
    engine_protocols=("uci",),
    engine_name="Stockfish",
    engine_key="stockfish",
    engine_command_example="/path/to/engine --option",
    install_action="install-stockfish",
    offers_engine_setup=True,
    open_command_ref=Ref("reviewer.core.engines.uci_adapter:open_command"),
    engine_openers={"uci": Ref("reviewer.core.engines.uci_adapter:open_found")},
    live_budgets_ref=Ref("reviewer.core.services.live:chess_budgets"),
    work_unit="nodes",
    default_passes_ref=Ref("reviewer.core.passes:default_chess_passes"),
    export_extension="pgn",
    export_ref=Ref("reviewer.core.export.pgn:export_pgn"),
    annotate_ref=Ref("reviewer.core.export.pgn:annotate_chess_game"),
    own_comment_ref=Ref("reviewer.core.export.pgn:without_generated_text"),
    embedded_ref=Ref("reviewer.core.embedded_evals.pgn:evaluations_from_pgn_comments"),
    embedded_name="[%eval] comments",
    record_store="comment",
    cache_keys=cache_keys,
    report_game_ref=Ref("reviewer.core.report:chess_game_fields"),
    report_move_ref=Ref("reviewer.core.report:chess_move_fields"),
    graph_modes=("win", "cp"),
    database_record_ref=Ref("reviewer.core.database.chess:chess_record_from_game"),
    database_fast_record_ref=Ref("reviewer.core.database.chess:record_from_collection"),
    database_fast_chunk_ref=Ref("reviewer.core.database.chess:plain_chess_games"),
    database_position_ref=Ref("reviewer.core.database.chess:chess_position_of_node"),
    has_eval_bar=True,
    eval_bar_ref=Ref("reviewer.core.scoring.chess:win_pct_white"),
    board_header=False,
    is_over=_is_over,
    square_moves=SquareMoves(line=_line_squares_of, square=_square_number),
    position_notation="FEN",
    position_text=fen_after,
    move_examples=("Nf3", "e2e4"),
    engine_identity_prefix="Stockfish",  # its `id name`
    setup_ref=Ref("reviewer.core.games.chess_setup:SETUP", is_position_setup, "a PositionSetup"),
    # Stockfish's UCI_Elo (Debian's 15.1 takes 1350–2850); a fifth of a second a move
    opponent=OpponentStrength(
        unit="Elo", minimum=1350, maximum=2850, default=1500, step=50,
        limit=lambda _elo: Limit(movetime_s=0.2), prepare_ref=Ref("reviewer.core.engines.uci:limit_strength"),
    ),
)
