"""Chess: what the opponent's best reply does, read off the engine's line with python-chess.

The line is replayed move by move (it stops at the first move the rules refuse). A motif is named
only when the line shows it through: a fork, pin, skewer, discovered attack, trapped piece or
captured defender only when the line goes on to win material with it; a mate only when the line
ends in checkmate. docs/SCORING.md ("Why") gives every motif's test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import chess

from reviewer.core.analysis import Evaluation
from reviewer.core.explain.common import Threat, Why
from reviewer.core.games.chess import board_after
from reviewer.core.gametree import Game, Node

MAX_LINE_PLIES = 10
MAX_MATE_THEME = 5  # lichess names mateIn1 .. mateIn5
WINNING_CP = 300  # the mover's view: a position this good is won (a "miss" throws it away)
THROWN_AWAY_CP = 150  # ... and one no better than this after the move is no longer won
# "Loses a knight after …" only when the line has done with material by this ply: longer lines
# held up less often against an independent search (benchmarks/explain.py).
MATERIAL_HORIZON_PLIES = 4
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)


@dataclass(frozen=True)
class Ply:
    board: chess.Board  # before the move
    move: chess.Move
    san: str
    after: chess.Board

    @property
    def piece(self) -> chess.Piece:
        piece = self.board.piece_at(self.move.from_square)
        assert piece is not None
        return piece

    @property
    def captured(self) -> chess.Piece | None:
        if self.board.is_en_passant(self.move):
            return chess.Piece(chess.PAWN, not self.board.turn)
        return self.board.piece_at(self.move.to_square)


def replay(board: chess.Board, sans: Sequence[str], limit: int = MAX_LINE_PLIES) -> list[Ply]:
    """The line's moves as far as the rules accept them (at most `limit` plies)."""
    plies: list[Ply] = []
    board = board.copy(stack=False)
    for san in list(sans)[:limit]:
        try:
            move = board.parse_san(san)
        except ValueError:
            break
        after = board.copy(stack=False)
        after.push(move)
        plies.append(Ply(board, move, board.san(move), after))
        board = after
    return plies


def material(board: chess.Board, color: chess.Color) -> int:
    """`color`'s material less the other side's, in pawns."""
    total = 0
    for piece in board.piece_map().values():
        total += VALUES[piece.piece_type] * (1 if piece.color == color else -1)
    return total


def move_label(board: chess.Board, san: str) -> str:
    return f"{board.fullmove_number}. {san}" if board.turn == chess.WHITE else f"{board.fullmove_number}... {san}"


def line_text(plies: Sequence[Ply]) -> str:
    """`24. Nd5 exd5 25. Qxd5` (a line starting with Black: `24... Nd5 25. exd5`)."""
    words: list[str] = []
    for index, ply in enumerate(plies):
        if ply.board.turn == chess.WHITE:
            words.append(f"{ply.board.fullmove_number}. {ply.san}")
        elif index == 0:
            words.append(f"{ply.board.fullmove_number}... {ply.san}")
        else:
            words.append(ply.san)
    return " ".join(words)


def piece_name(piece_type: int) -> str:
    return chess.piece_name(piece_type)


def on_square(board: chess.Board, square: int) -> str:
    piece = board.piece_at(square)
    name = piece_name(piece.piece_type) if piece is not None else "piece"
    return f"the {name} on {chess.square_name(square)}"


def color_name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def _legal_capture_on(board: chess.Board, square: int) -> bool:
    return any(move.to_square == square for move in board.legal_moves)


def settled_gain(base: chess.Board, plies: Sequence[Ply], side: chess.Color) -> tuple[int, int, chess.Board]:
    """(material `side` wins from `base` to the end of the line, the index of the last ply that changed
    the material, the position that count stands on; -1 and the line's first position when the line
    changes nothing). `base` is the position before the move explained, so that a piece the move took
    and the line takes back is a trade, not a win.

    A line that ends on `side`'s capture which the other side can take back at once is counted as
    if it did, with its cheapest piece: a line cut short does not win the piece it just took."""
    changed = [i for i, ply in enumerate(plies) if material(ply.after, side) != material(ply.board, side)]
    if not changed:
        start = plies[0].board if plies else base
        return material(start, side) - material(base, side), -1, start
    last = changed[-1]
    ply = plies[last]
    end = ply.after
    if ply.board.turn == side and ply.captured is not None:
        recaptures = [m for m in end.legal_moves if m.to_square == ply.move.to_square]
        if recaptures:
            cheapest = min(recaptures, key=lambda m: VALUES[end.piece_type_at(m.from_square) or chess.KING] or 100)
            end = end.copy(stack=False)
            end.push(cheapest)
    return material(end, side) - material(base, side), last, end


def _count_words(counts: Counter[int]) -> str:
    parts: list[str] = []
    for piece_type in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
        count = counts.get(piece_type, 0)
        if count == 1:
            parts.append(f"a {piece_name(piece_type)}")
        elif count > 1:
            parts.append(f"{count} {piece_name(piece_type)}s")
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return parts[0] if parts else ""


def material_words(start: chess.Board, end: chess.Board, loser: chess.Color) -> str:
    """What `loser` gives up between the two positions: "a knight", "the exchange", "a rook for a bishop"."""

    def pieces(board: chess.Board, color: chess.Color) -> Counter[int]:
        return Counter(p.piece_type for p in board.piece_map().values() if p.color == color)

    lost = pieces(start, loser) - pieces(end, loser)
    taken = pieces(start, not loser) - pieces(end, not loser)
    common = lost & taken
    lost, taken = lost - common, taken - common
    if lost == Counter({chess.ROOK: 1}) and sum(taken.values()) == 1 and (taken[chess.KNIGHT] or taken[chess.BISHOP]):
        return "the exchange"
    if not taken:
        return _count_words(lost) or "material"
    return f"{_count_words(lost)} for {_count_words(taken)}" if lost else "material"


# --------------------------------------------------------------------------- the motifs


@dataclass(frozen=True)
class Found:
    motif: str
    sentence: str
    focus: tuple[int, ...]
    wins_material: bool = False  # the sentence is about winning material: the amount follows it
    upto: int | None = None  # the ply of the line by which it has won it (None: the whole line)


@dataclass(frozen=True)
class Context:
    start: chess.Board  # after the move played; the opponent to move
    plies: list[Ply]  # the refutation, opponent first
    opponent: chess.Color
    gain: int  # material the opponent wins from before the move to the line's end (settled_gain)

    @property
    def player(self) -> chess.Color:
        return not self.opponent

    def own_plies(self) -> list[tuple[int, Ply]]:
        return [(i, p) for i, p in enumerate(self.plies) if p.board.turn == self.opponent]


def _allows(ctx: Context, upto: int) -> str:
    return "Allows " + line_text(ctx.plies[: upto + 1])


def _is_defended(board: chess.Board, color: chess.Color, square: int) -> bool:
    return bool(board.attackers(color, square))


def _value(piece_type: int) -> int:
    return 100 if piece_type == chess.KING else VALUES[piece_type]


def detect_mate(ctx: Context) -> list[Found]:
    if not ctx.plies or not ctx.plies[-1].after.is_checkmate() or ctx.plies[-1].after.turn != ctx.player:
        return []
    last = ctx.plies[-1]
    end = last.after
    king = end.king(ctx.player)
    assert king is not None
    moves = len(ctx.own_plies())
    focus = (king, *end.checkers())
    theme = f"mateIn{moves}" if moves <= MAX_MATE_THEME else "mate"
    found = [
        Found(
            theme,
            f"Allows mate in {moves}: {line_text(ctx.plies)}."
            if moves > 1
            else f"Allows {line_text(ctx.plies)}, mate.",
            focus,
        )
    ]
    if _back_rank_mate(end, ctx.player, king):
        found.append(Found("backRankMate", "The king is mated on its back rank, shut in by its own pieces.", focus))
    if _smothered_mate(end, ctx.player, king):
        found.append(Found("smotheredMate", "A knight mates the king smothered by its own pieces.", focus))
    return found


def _back_rank_mate(board: chess.Board, loser: chess.Color, king: int) -> bool:
    back_rank = 0 if loser == chess.WHITE else 7
    if chess.square_rank(king) != back_rank:
        return False
    forward = 1 if loser == chess.WHITE else -1
    file = chess.square_file(king)
    front = [chess.square(f, back_rank + forward) for f in (file - 1, file, file + 1) if 0 <= f < 8]
    for square in front:
        piece = board.piece_at(square)
        if piece is None or piece.color != loser or board.attackers(not loser, square):
            return False
    return any(chess.square_rank(checker) == back_rank for checker in board.checkers())


def _smothered_mate(board: chess.Board, loser: chess.Color, king: int) -> bool:
    checkers = list(board.checkers())
    if len(checkers) != 1 or board.piece_type_at(checkers[0]) != chess.KNIGHT:
        return False
    for square in chess.SquareSet(chess.BB_KING_ATTACKS[king]):
        piece = board.piece_at(square)
        if piece is None or piece.color != loser:
            return False
    return True


def _captures_later(ctx: Context, after_index: int, squares: set[int]) -> int | None:
    """Index of the first opponent move after `after_index` that takes a player's piece on one of `squares`."""
    for index, ply in ctx.own_plies():
        if index > after_index and ply.move.to_square in squares:
            captured = ply.captured
            if captured is not None and captured.color == ctx.player:
                return index
    return None


def detect_fork(ctx: Context) -> list[Found]:
    if ctx.gain <= 0:
        return []
    for index, ply in ctx.own_plies()[:2]:
        if ply.piece.piece_type == chess.KING or ply.after.is_checkmate():
            continue
        forker = ply.move.to_square
        forker_value = VALUES[ply.piece.piece_type]
        targets = []
        for square in ply.after.attacks(forker):
            target = ply.after.piece_at(square)
            if target is None or target.color != ctx.player or target.piece_type == chess.PAWN:
                continue
            if (
                target.piece_type == chess.KING
                or VALUES[target.piece_type] > forker_value
                or not _is_defended(ply.after, ctx.player, square)
            ):
                targets.append(square)
        if len(targets) < 2:
            continue
        taken = _captures_later(ctx, index, set(targets))
        if taken is None:
            continue
        targets.sort(key=lambda s: -_value(ply.after.piece_type_at(s) or chess.PAWN))
        names = " and ".join(on_square(ply.after, s) for s in targets)
        return [Found("fork", f"{_allows(ctx, index)}, forking {names}.", (forker, *targets), True, taken)]
    return []


def detect_pin(ctx: Context) -> list[Found]:
    if ctx.gain <= 0:
        return []
    for index, ply in ctx.own_plies():
        captured = ply.captured
        target = ply.move.to_square
        if captured is None or captured.color != ctx.player or VALUES[captured.piece_type] < 3:
            continue
        if not ply.board.is_pinned(ctx.player, target):
            continue
        ray = ply.board.pin(ctx.player, target)
        pinners = [s for s in ray if (p := ply.board.piece_at(s)) is not None and p.color == ctx.opponent]
        king = ply.board.king(ctx.player)
        if not pinners or king is None:
            continue
        pinned = on_square(ply.board, target)
        pinner = on_square(ply.board, pinners[0])
        capture = move_label(ply.board, ply.san)
        if ctx.start.is_pinned(ctx.player, target):
            sentence = f"Leaves {pinned} pinned to the king by {pinner}; {line_text(ctx.plies[: index + 1])} wins it."
        else:
            sentence = f"{_allows(ctx, index)}: {pinner} pins {pinned} to the king, and {capture} wins it."
        return [Found("pin", sentence, (target, pinners[0], king), True, index)]
    return []


def detect_skewer(ctx: Context) -> list[Found]:
    if ctx.gain <= 0:
        return []
    for index, ply in ctx.own_plies():
        if ply.piece.piece_type not in SLIDERS or index + 2 >= len(ctx.plies):
            continue
        attacker = ply.move.to_square
        reply, follow = ctx.plies[index + 1], ctx.plies[index + 2]
        front = reply.move.from_square
        if front not in ply.after.attacks(attacker) or follow.move.from_square != attacker:
            continue
        behind = follow.move.to_square
        captured = follow.captured
        front_piece = ply.after.piece_at(front)
        if captured is None or front_piece is None or front not in chess.SquareSet.between(attacker, behind):
            continue
        if _value(front_piece.piece_type) < 5 or captured.piece_type == chess.PAWN:
            continue  # a skewer drives off a rook, queen or king to win a piece behind it
        if _value(front_piece.piece_type) <= _value(captured.piece_type) or follow.after.is_checkmate():
            continue
        sentence = (
            f"{_allows(ctx, index)}, a skewer: {on_square(ply.after, front)} has to move and "
            f"{move_label(follow.board, follow.san)} takes {on_square(follow.board, behind)} behind it."
        )
        return [Found("skewer", sentence, (attacker, front, behind), True, index + 2)]
    return []


def detect_discovered_attack(ctx: Context) -> list[Found]:
    for index, ply in ctx.own_plies():
        checkers = ply.after.checkers()
        follow = ctx.plies[index + 2] if index + 2 < len(ctx.plies) else None
        cashed = follow is not None and follow.captured is not None  # the next move takes something
        mates = bool(ctx.plies) and ctx.plies[-1].after.is_checkmate() and len(ctx.plies) - 1 <= index + 2
        if checkers and ply.move.to_square not in checkers and (cashed or mates):
            revealed = next(iter(checkers))
            sentence = (
                f"{_allows(ctx, index)}, a discovered check: moving {on_square(ply.board, ply.move.from_square)} "
                f"uncovers {on_square(ply.after, revealed)}."
            )
            upto = index + 2 if cashed else None
            return [Found("discoveredAttack", sentence, (ply.move.from_square, revealed), cashed, upto)]
        if index < 2 or ctx.gain <= 0:
            continue
        captured = ply.captured
        opener = ctx.plies[index - 2]
        between = chess.SquareSet.between(ply.move.from_square, ply.move.to_square)
        if (
            captured is not None
            and opener.move.from_square in between
            and opener.move.to_square != ply.move.from_square
            and ctx.plies[index - 1].move.to_square != ply.move.to_square
            and not (index >= 3 and opener.move.to_square == ctx.plies[index - 3].move.to_square)  # a recapture
            and ply.piece.piece_type in SLIDERS
        ):
            sentence = (
                f"{_allows(ctx, index - 2)}, a discovered attack: moving {on_square(opener.board, opener.move.from_square)} "
                f"uncovers {on_square(ply.board, ply.move.from_square)}, which takes "
                f"{on_square(ply.board, ply.move.to_square)} ({move_label(ply.board, ply.san)})."
            )
            return [
                Found(
                    "discoveredAttack",
                    sentence,
                    (opener.move.from_square, ply.move.from_square, ply.move.to_square),
                    True,
                    index,
                )
            ]
    return []


def detect_double_check(ctx: Context) -> list[Found]:
    for index, ply in ctx.own_plies():
        checkers = list(ply.after.checkers())
        if len(checkers) >= 2:
            names = " and ".join(on_square(ply.after, s) for s in checkers)
            return [Found("doubleCheck", f"{_allows(ctx, index)}, a double check by {names}.", tuple(checkers))]
    return []


def _trapped(board: chess.Board, square: int) -> bool:
    """The piece on `square` (its side to move) is attacked and every move it has goes where it can
    be taken by a cheaper piece or for nothing."""
    piece = board.piece_at(square)
    if piece is None or piece.piece_type in (chess.PAWN, chess.KING) or piece.color != board.turn:
        return False
    if not board.attackers(not piece.color, square) or board.is_check():
        return False
    for move in board.legal_moves:
        if move.from_square != square:
            continue
        captured = board.piece_at(move.to_square)
        if captured is not None and VALUES[captured.piece_type] >= VALUES[piece.piece_type]:
            return False
        after = board.copy(stack=False)
        after.push(move)
        attackers = after.attackers(not piece.color, move.to_square)
        if not attackers:
            return False
        cheapest = min(VALUES[after.piece_type_at(s) or chess.KING] or 100 for s in attackers)
        if cheapest >= VALUES[piece.piece_type] and after.attackers(piece.color, move.to_square):
            return False
    return True


def detect_trapped_piece(ctx: Context) -> list[Found]:
    if ctx.gain <= 0:
        return []
    for index, ply in ctx.own_plies():
        captured = ply.captured
        if index < 2 or captured is None or captured.color != ctx.player or captured.piece_type == chess.PAWN:
            continue
        previous = ctx.plies[index - 1]
        square = previous.move.from_square if previous.move.to_square == ply.move.to_square else ply.move.to_square
        if previous.board.piece_at(square) != captured or not _trapped(previous.board, square):
            continue
        if previous.captured is not None and previous.move.from_square != square:
            continue  # the player took something back instead of saving the piece: no trap shown
        sentence = f"{_allows(ctx, index - 2)}, trapping {on_square(previous.board, square)}: {move_label(ply.board, ply.san)} wins it."
        return [Found("trappedPiece", sentence, (square, ply.move.to_square), True, index)]
    return []


def detect_capturing_defender(ctx: Context) -> list[Found]:
    if ctx.gain <= 0:
        return []
    own = ctx.own_plies()
    for (index, first), (later, second) in zip(own, own[1:]):
        defender, target = first.captured, second.captured
        if defender is None or target is None or defender.color != ctx.player or target.color != ctx.player:
            continue
        defended = second.move.to_square
        if defended == first.move.to_square or target.piece_type == chess.PAWN:
            continue
        if defended not in first.board.attacks(first.move.to_square) or first.board.piece_at(defended) != target:
            continue
        if _is_defended(second.board, ctx.player, defended):
            continue
        sentence = (
            f"{_allows(ctx, index)}, taking {on_square(first.board, first.move.to_square)}, the defender of "
            f"{on_square(first.board, defended)}, which {move_label(second.board, second.san)} then wins."
        )
        return [Found("capturingDefender", sentence, (first.move.to_square, defended), True, later)]
    return []


def detect_hanging_piece(ctx: Context) -> list[Found]:
    if not ctx.plies or ctx.gain <= 0:
        return []
    first = ctx.plies[0]
    captured = first.captured
    square = first.move.to_square
    if captured is None or captured.color != ctx.player or captured.piece_type == chess.PAWN:
        return []
    if _is_defended(ctx.start, ctx.player, square) or _legal_capture_on(first.after, square):
        return []
    sentence = f"Leaves {on_square(ctx.start, square)} undefended: {line_text(ctx.plies[:1])} takes it."
    return [Found("hangingPiece", sentence, (square, first.move.from_square), True, 0)]


def detect_promotion(ctx: Context) -> list[Found]:
    for index, ply in ctx.own_plies():
        if ply.move.promotion:
            return [Found("promotion", f"{_allows(ctx, index)}, promoting a pawn.", (ply.move.to_square,))]
        seventh = 6 if ctx.opponent == chess.WHITE else 1
        if (
            ply.piece.piece_type == chess.PAWN
            and chess.square_rank(ply.move.to_square) == seventh
            and ctx.plies[-1].after.piece_at(ply.move.to_square) == ply.piece
        ):
            return [
                Found("advancedPawn", f"{_allows(ctx, index)}, a pawn one step from promoting.", (ply.move.to_square,))
            ]
    return []


def detect_exposed_king(ctx: Context) -> list[Found]:
    """The player's king without a pawn in front of it, checked at least twice along a line that
    wins material or mates, while the opponent still has a queen."""
    king = ctx.start.king(ctx.player)
    if king is None or not ctx.start.pieces(chess.QUEEN, ctx.opponent):
        return []
    checks = [index for index, ply in ctx.own_plies() if ply.after.is_check()]
    mated = bool(ctx.plies) and ctx.plies[-1].after.is_checkmate()
    if len(checks) < 2 or not (ctx.gain > 0 or mated):
        return []
    forward = 1 if ctx.player == chess.WHITE else -1
    rank, file = chess.square_rank(king) + forward, chess.square_file(king)
    if not 0 <= rank < 8:
        return []
    shield = [chess.square(f, rank) for f in (file - 1, file, file + 1) if 0 <= f < 8]
    if any(ctx.start.piece_at(s) == chess.Piece(chess.PAWN, ctx.player) for s in shield):
        return []
    sentence = (
        f"The king on {chess.square_name(king)} has no pawn in front of it: "
        f"{line_text(ctx.plies[: checks[-1] + 1])} checks it {len(checks)} times."
    )
    return [Found("exposedKing", sentence, (king,))]


# In order of importance: the first one found gives the text.
DETECTORS: tuple[Callable[[Context], list[Found]], ...] = (
    detect_mate,
    detect_hanging_piece,
    detect_fork,
    detect_skewer,
    detect_pin,
    detect_discovered_attack,
    detect_double_check,
    detect_capturing_defender,
    detect_trapped_piece,
    detect_promotion,
    detect_exposed_king,
)
# Motifs whose measured precision is too poor for the text (benchmarks/explain.py): still listed.
QUIET_MOTIFS: frozenset[str] = frozenset({"exposedKing"})


# --------------------------------------------------------------------------- the move


def _line_of(evaluation: Evaluation | None) -> tuple[str, ...]:
    if evaluation is None:
        return ()
    if evaluation.pv:
        return evaluation.pv
    if evaluation.candidates and evaluation.candidates[0].pv:
        return evaluation.candidates[0].pv
    return (evaluation.best_move,) if evaluation.best_move else ()


def _mover_cp(evaluation: Evaluation | None, mover: chess.Color) -> int | None:
    """The engine's score for the mover, mates as ±100000 less their distance."""
    if evaluation is None:
        return None
    sign = 1 if mover == chess.WHITE else -1
    if evaluation.mate_first is not None and evaluation.mate_first != 0:
        mate = evaluation.mate_first * sign
        return 100000 - abs(mate) if mate > 0 else -100000 + abs(mate)
    if evaluation.score_cp_first is not None:
        return evaluation.score_cp_first * sign
    return None


def _score_words(cp: int) -> str:
    if abs(cp) > 50000:
        moves = 100000 - abs(cp)
        return f"mate in {moves}" if cp > 0 else f"mated in {moves}"
    return f"{cp / 100:+.1f}"


def _missed(board: chess.Board, before: Evaluation | None, after: Evaluation | None) -> Why | None:
    mover = board.turn
    cp_before, cp_after = _mover_cp(before, mover), _mover_cp(after, mover)
    if cp_before is None or cp_after is None or cp_before < WINNING_CP or cp_after > THROWN_AWAY_CP:
        return None
    plies = replay(board, _line_of(before))
    if not plies:
        return None
    best = plies[0]
    focus = (best.move.from_square, best.move.to_square)
    line = tuple(p.san for p in plies)
    if plies[-1].after.is_checkmate() and plies[-1].after.turn != mover:
        moves = sum(1 for p in plies if p.board.turn == mover)
        text = f"Missed mate in {moves}: {line_text(plies)}." if moves > 1 else f"Missed {line_text(plies)}, mate."
        return Why(("missedMate",), text, line, _names(focus))
    text = f"Missed the win: {move_label(best.board, best.san)} kept a winning position ({_score_words(cp_before)}; {_score_words(cp_after)} after the move played)."
    return Why(("missedWin",), text, line, _names(focus))


def _names(squares: Sequence[int]) -> tuple[str, ...]:
    seen: list[str] = []
    for square in squares:
        name = chess.square_name(square)
        if name not in seen:
            seen.append(name)
    return tuple(seen)


def explain_position(
    board: chess.Board, move: chess.Move, before: Evaluation | None, after: Evaluation | None
) -> Why | None:
    """Why `move`, played in `board`, lost: from the engine's line after it (`after.pv`, the opponent's
    best reply first) and, for a thrown-away win, its line before (`before.pv`)."""
    if move not in board.legal_moves:
        return None
    start = board.copy(stack=False)
    start.push(move)
    plies = replay(start, _line_of(after))
    opponent = start.turn
    gain, settled, settled_board = settled_gain(board, plies, opponent)
    ctx = Context(start, plies, opponent, gain)
    found: list[Found] = []
    won: dict[str, tuple[int, chess.Board]] = {}  # what each material motif has won by its own ply
    for detector in DETECTORS:
        for item in detector(ctx):
            if item.wins_material:
                upto = len(plies) - 1 if item.upto is None else item.upto
                local_gain, _, local_board = settled_gain(board, plies[: upto + 1], opponent)
                if local_gain <= 0:
                    continue  # the line wins nothing by then: the motif is not shown through
                won[item.motif] = (local_gain, local_board)
            found.append(item)
    line = tuple(p.san for p in plies)
    mated = bool(found) and found[0].motif.startswith("mate")
    if not mated:
        # The best evidence of all: the engine announces a mate against the player. Whatever else
        # the line shows (a piece won on the way, a win thrown away), the move allowed that mate.
        announced = _announced_mate(after, plies, not opponent, found)
        if announced is not None:
            return announced
    if not mated and gain <= 0:
        missed = _missed(board, before, after)
        if missed is not None:
            return missed
    speaking = [f for f in found if f.motif not in QUIET_MOTIFS]
    if speaking:
        top = speaking[0]
        sentences = [top.sentence]
        if len(speaking) > 1 and speaking[1].motif in ("backRankMate", "smotheredMate"):
            sentences.append(speaking[1].sentence)
        if top.motif in won:
            words = material_words(board, won[top.motif][1], ctx.player)
            sentences.append(f"{color_name(opponent)} wins {words}.")
        focus = [s for f in speaking for s in f.focus]
        return Why(tuple(f.motif for f in found), " ".join(sentences), line, _names(focus))
    if gain > 0 and 0 <= settled < MATERIAL_HORIZON_PLIES:
        words = material_words(board, settled_board, ctx.player)
        focus = [s for p in plies[: settled + 1] for s in (p.move.from_square, p.move.to_square)]
        text = f"Loses {words} after {line_text(plies[: settled + 1])}."
        return Why(tuple(f.motif for f in found), text, line, _names(focus))
    return None


def _announced_mate(
    after: Evaluation | None, plies: Sequence[Ply], player: chess.Color, found: Sequence[Found]
) -> Why | None:
    """'Allows a forced mate: the engine announces mate in 2, starting with 37. Rf4+.' where the
    evaluation after the move is a mate against the player; None otherwise or without a line."""
    if after is None or not plies:
        return None
    cp = _mover_cp(after, player)
    if cp is None or cp >= -50000:
        return None
    first = plies[0]
    text = f"Allows a forced mate: the engine announces mate in {100000 + cp}, starting with {move_label(first.board, first.san)}."
    return Why(tuple(f.motif for f in found), text, tuple(p.san for p in plies), _names((first.move.from_square, first.move.to_square)))


def explain_game_move(
    game: Game, ply: int, before: Evaluation | None, after: Evaluation | None, *, plain: bool = False
) -> Why | None:
    """Why main-line move `ply` lost; with `plain`, a move whose line shows no motif gets what the
    line and the evaluations still say (`_no_tactic`)."""
    try:
        node = game.node_at_ply(ply)
        if node.parent is None or not node.uci:
            return None
        board = board_after(game, node.parent)
        move = chess.Move.from_uci(node.uci)
    except (IndexError, ValueError):
        return None
    why = explain_position(board, move, before, after)
    if why is None and plain and move in board.legal_moves:
        return _no_tactic(board, move, before, after)
    return why


def _no_tactic(board: chess.Board, move: chess.Move, before: Evaluation | None, after: Evaluation | None) -> Why | None:
    """What can still be said of a move whose line shows no motif and wins no material in sight:
    the engine's line and how its evaluation fell, nothing more; None without a line."""
    mover = board.turn
    start = board.copy(stack=False)
    start.push(move)
    plies = replay(start, _line_of(after))
    cp_before, cp_after = _mover_cp(before, mover), _mover_cp(after, mover)
    fall = ""
    if cp_before is not None and cp_after is not None and max(abs(cp_before), abs(cp_after)) < 50000:
        fall = f"the engine's evaluation for {color_name(mover)} falls from {cp_before / 100:+.2f} to {cp_after / 100:+.2f}"
    if not plies:
        return None
    first = plies[0]
    text = f"No tactic shows in the engine's line {line_text(plies[:4])}" + (f"; {fall}." if fall else ".")
    return Why((), text, tuple(p.san for p in plies), _names((first.move.from_square, first.move.to_square)))


# --------------------------------------------------------------------------- the threat


def threat_search(game: Game, node: Node) -> tuple[Game, int] | None:
    """The position after `node` with the other side to move (a null move), as a game of its own;
    None when the side to move is in check or the game is over (no null move is legal then)."""
    board = board_after(game, node)
    if board.is_check() or board.is_game_over():
        return None
    flipped = board.copy(stack=False)
    flipped.push(chess.Move.null())
    return Game(kind=game.kind, start_fen=flipped.fen()), 0


def explain_threat(game: Game, ply: int, evaluation: Evaluation | None) -> Why | None:
    """What the best line of the side to move in a `threat_search` position wins: mate, material, or
    only its first move."""
    try:
        board = board_after(game, game.node_at_ply(ply))
    except (IndexError, ValueError):
        return None
    plies = replay(board, _line_of(evaluation))
    if not plies:
        return None
    threatener = board.turn
    first = plies[0]
    line = tuple(p.san for p in plies)
    gain, settled, settled_board = settled_gain(board, plies, threatener)
    if not (gain > 0 and 0 <= settled < MATERIAL_HORIZON_PLIES):
        # A long line trades on later (a pawn here, a piece there): what the threat wins is what its
        # first plies win, the later trades are the line's, not the threat's.
        gain, settled, settled_board = settled_gain(board, plies[:MATERIAL_HORIZON_PLIES], threatener)
    ctx = Context(board, plies, threatener, gain)
    motifs = [item.motif for detector in DETECTORS for item in detector(ctx)]
    focus = _names((first.move.from_square, first.move.to_square))
    cp = _mover_cp(evaluation, threatener)
    if cp is not None and cp > 50000:
        return Why(tuple(motifs), f"Threatens {first.san}, with mate in {100000 - cp}.", line, focus)
    if gain > 0 and 0 <= settled < MATERIAL_HORIZON_PLIES:
        words = material_words(board, settled_board, not threatener)
        return Why(tuple(motifs), f"Threatens {first.san}, winning {words}.", line, focus)
    return Why(tuple(motifs), f"{color_name(threatener)}'s best move if it were its turn: {first.san}.", line, focus)


THREAT = Threat(threat_search, explain_threat)
