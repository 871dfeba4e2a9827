"""Why a move lost: how often each chess motif Reviewer names holds up, and what the explanations cost.

Two steps:

    nice -n 10 .venv/bin/python benchmarks/explain.py build [--games 20] [--depth 10]
    nice -n 10 .venv/bin/python benchmarks/explain.py score [--search-depth 3]

Go's motifs: `build --go` and `score --go` (benchmarks/explain_go.py says what they do).

`build` reviews the first game of each of the first `--games` PGN files of the shared corpus (real
games nobody here wrote) with Stockfish (/usr/games/stockfish) at `--depth` through
`reviewer.core.review.analyse_game` (no cache), judges them (SCORING.md), explains every
inaccuracy, mistake and blunder (`reviewer.core.explain`), and stores each flagged move in
benchmarks/data/explain_positions.json: the FEN before the move, the move (UCI), the engine's lines
before and after it, and the motifs and text Reviewer gave, so that anyone can check them. It
prints the time of the whole review (analysis, judgement and report) against the time the
explanations took.

`score` checks each stored claim against an independent test made here by exhaustive search with
python-chess (a material-only alpha-beta search, `--search-depth` plies full width then captures;
an exhaustive mate search), without the engine's line:

  mateIn1, 2     the opponent has a forced mate in 2 moves or fewer from the position after the move
                 (longer mates are not searched: mateIn3..5 are counted, not tested)
  hangingPiece   the opponent has a capture of a piece (not a pawn) that nothing defends, and the
                 search wins at least 2 points for the opponent from the position before the move
  fork           the opponent has a move (not a king move, taking at most a pawn) that attacks two or
                 more pieces (not pawns), each the king, worth more than the attacker or undefended,
                 after which a 2-ply search wins at least 2 points against the best defence
  missedMate     the player had a forced mate in 2 moves or fewer before the move (a longer mate
                 line is taken as it stands)
  other motifs and "Loses … after …": the search wins at least 1 point for the opponent
                 (precision only: no independent test says where these motifs are)

and prints, per motif, how often it was named, its precision (named and the test holds / named) and
its recall (named / the test holds) where the test can find the motif without Reviewer. The material
search sees a few plies only: a motif that wins on the line's fifth ply or later fails it although
the line shows it, so for those motifs the hand labels of benchmarks/data/explain_labels.json (FEN,
move, motif, verdict and the reason, checked on the board) are counted too.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
CORPUS = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared")) / "corpus"
DATA = REPO_ROOT / "benchmarks" / "data" / "explain_positions.json"
LABELS = REPO_ROOT / "benchmarks" / "data" / "explain_labels.json"
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
MATE = 1000


# ------------------------------------------------------------------------------------------ build


def _games(count: int) -> Iterator[tuple[str, Any]]:
    from reviewer.core.formats import open_collection

    taken = 0
    for path in sorted((CORPUS / "pgn").glob("*.pgn")):
        if taken >= count:
            return
        try:
            collection = open_collection(path, first_games=5)
        except Exception:  # a file the readers refuse is not a game to review
            continue
        for index in range(len(collection)):
            try:
                game = collection.game(index)
            except Exception:
                continue
            if game.kind == "chess" and not game.variant and 20 <= game.ply_count <= 200 and not game.start_fen:
                yield f"{path.name}#{index + 1}", game
                taken += 1
                break


def build(games: int, depth: int) -> None:
    from reviewer.core.analysis import EvaluationTable, Limit
    from reviewer.core.engines.registry import open_engine
    from reviewer.core.explain import EXPLAINED_JUDGEMENTS, explain_assessed
    from reviewer.core.games import rules_for
    from reviewer.core.report import build_report
    from reviewer.core.review import analyse_game
    from reviewer.core.scoring import assess_game

    engine = open_engine("chess", command="/usr/games/stockfish")
    review_s = explain_s = 0.0
    rows: list[dict[str, Any]] = []
    try:
        for name, game in _games(games):
            started = time.perf_counter()
            table = EvaluationTable()
            for evaluation in analyse_game(game, engine, Limit(depth=depth)):
                table.add(evaluation)
            assessment = assess_game(game, table)
            review_s += time.perf_counter() - started
            started = time.perf_counter()
            build_report(game, table, assessment)  # with the explanations, as `reviewer analyze --json` does
            report_s = time.perf_counter() - started
            started = time.perf_counter()
            explained = {m.ply: explain_assessed(game, table, m) for m in assessment.moves if m.judgement in EXPLAINED_JUDGEMENTS}
            spent = time.perf_counter() - started
            explain_s += spent
            review_s += report_s - spent  # the report without its explanations
            rules = rules_for("chess")
            for move in assessment.moves:
                if move.judgement not in EXPLAINED_JUDGEMENTS:
                    continue
                node = game.node_at_ply(move.ply)
                assert node.parent is not None
                board = rules.after(game, node.parent)
                before, after = table.get(move.ply - 1), table.get(move.ply)
                why = explained[move.ply]
                rows.append(
                    {
                        "game": name,
                        "ply": move.ply,
                        "fen": board.fen(),
                        "move": node.uci,
                        "judgement": move.judgement,
                        "line_before": list(before.pv) if before else [],
                        "line_after": list(after.pv) if after else [],
                        "motifs": list(why.motifs) if why else [],
                        "text": why.text if why else None,
                    }
                )
            print(f"{name}: {len(explained)} flagged", flush=True)
    finally:
        engine.close()
    DATA.write_text(json.dumps({"depth": depth, "positions": rows}, indent=1) + "\n")
    total = review_s + explain_s
    print(f"\n{len(rows)} flagged moves in {games} games, Stockfish depth {depth}")
    print(f"review {review_s:.2f} s, explanations {explain_s:.3f} s: {100 * explain_s / total:.2f}% of the review with them")


# ------------------------------------------------------------------------------------------ score


def material(board: chess.Board, color: chess.Color) -> int:
    return sum(VALUES[p.piece_type] * (1 if p.color == color else -1) for p in board.piece_map().values())


def _ordered(board: chess.Board, captures_only: bool) -> list[chess.Move]:
    moves = [m for m in board.legal_moves if not captures_only or board.is_capture(m) or m.promotion]

    def key(move: chess.Move) -> int:
        victim = board.piece_at(move.to_square)
        return -(10 * (VALUES[victim.piece_type] if victim else 0) + (9 if move.promotion else 0))

    return sorted(moves, key=key)


def search(board: chess.Board, depth: int, alpha: int = -MATE - 1, beta: int = MATE + 1, quiet: int = 6) -> int:
    """Material for the side to move after best play: `depth` plies full width, then captures."""
    if board.is_checkmate():
        return -MATE
    if board.is_stalemate() or board.is_insufficient_material():
        return 0
    if depth <= 0:
        stand = material(board, board.turn)
        if quiet <= 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        moves = _ordered(board, captures_only=True)
    else:
        moves = _ordered(board, captures_only=False)
    best = -MATE - 1 if depth > 0 else alpha
    for move in moves:
        board.push(move)
        value = -search(board, depth - 1, -beta, -alpha, quiet - (1 if depth <= 0 else 0))
        board.pop()
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def forced_mate(board: chess.Board, moves: int) -> bool:
    """The side to move mates in `moves` moves or fewer, whatever the defence (1 or 2 moves)."""
    for move in list(board.legal_moves):
        if moves == 1 and not board.gives_check(move):
            continue
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            replies = list(board.legal_moves)
            if moves > 1 and replies and all(_mates_after(board, reply, moves - 1) for reply in replies):
                return True
        finally:
            board.pop()
    return False


def _mates_after(board: chess.Board, reply: chess.Move, moves: int) -> bool:
    board.push(reply)
    try:
        return forced_mate(board, moves)
    finally:
        board.pop()


def _is_defended(board: chess.Board, color: chess.Color, square: int) -> bool:
    return bool(board.attackers(color, square))


def hanging_truth(after: chess.Board, gain: int) -> bool:
    player = not after.turn
    for move in after.legal_moves:
        victim = after.piece_at(move.to_square)
        undefended = victim is not None and not _is_defended(after, player, move.to_square)
        if undefended and victim is not None and victim.color == player and victim.piece_type != chess.PAWN:
            return gain >= 2
    return False


def fork_truth(after: chess.Board) -> bool:
    player = not after.turn
    for move in after.legal_moves:
        piece = after.piece_at(move.from_square)
        if piece is None or piece.piece_type == chess.KING:
            continue
        board = after.copy(stack=False)
        board.push(move)
        targets = 0
        for square in board.attacks(move.to_square):
            target = board.piece_at(square)
            if target is None or target.color != player or target.piece_type == chess.PAWN:
                continue
            if target.piece_type == chess.KING or VALUES[target.piece_type] > VALUES[piece.piece_type] or not _is_defended(board, player, square):
                targets += 1
        victim = after.piece_at(move.to_square)
        # the fork itself, not what it takes, wins: at least 2 points against the best defence
        takes_little = victim is None or VALUES[victim.piece_type] < 2
        if targets >= 2 and takes_little and -search(board, 2) - material(after, after.turn) >= 2:
            return True
    return False


MATE_ROW = "mateIn1, mateIn2"


def _loses_row(text: str) -> str:
    """"Loses … after <line>." by the length of its line."""
    line = text.split(" after ", 1)[-1].rstrip(".").split()
    plies = sum(1 for word in line if not word[0].isdigit())
    return "(loses material, line ≤ 4 plies)" if plies <= 4 else "(loses material, longer line)"
NO_TEST = ("missedWin", "exposedKing", "doubleCheck", "promotion", "advancedPawn", "mateIn3", "mateIn4", "mateIn5", "mate")


def score(search_depth: int) -> None:
    data = json.loads(DATA.read_text())
    rows = data["positions"]
    named: dict[str, int] = {}
    held: dict[str, int] = {}
    truths: dict[str, int] = {}
    found: dict[str, int] = {}
    explained_otherwise: dict[str, int] = {}  # the test holds, the motif is not named, another one is
    started = time.perf_counter()
    for row in rows:
        board = chess.Board(row["fen"])
        player = board.turn
        base = material(board, not player)  # the opponent's material before the move
        after = board.copy(stack=False)
        after.push(chess.Move.from_uci(row["move"]))
        result = search(after.copy(stack=False), search_depth)
        gain = MATE if result >= MATE else result - base
        mates = forced_mate(after.copy(stack=False), 2)
        truth = {"hangingPiece": hanging_truth(after, gain), "fork": fork_truth(after), MATE_ROW: mates}
        motifs = list(row["motifs"]) or ([_loses_row(row["text"])] if (row["text"] or "").startswith("Loses") else [])
        shown = {MATE_ROW if m in ("mateIn1", "mateIn2") else m for m in motifs}
        for motif, holds in truth.items():
            truths[motif] = truths.get(motif, 0) + int(holds)
            found[motif] = found.get(motif, 0) + int(holds and motif in shown)
            if holds and motif not in shown and shown:
                explained_otherwise[motif] = explained_otherwise.get(motif, 0) + 1
        for motif in shown:
            named[motif] = named.get(motif, 0) + 1
            if motif in NO_TEST:
                continue
            if motif in truth:
                ok = truth[motif]
            elif motif == "missedMate":
                if len(row["line_before"]) > 3:
                    continue  # a mate in 3 or more: not searched here
                ok = forced_mate(board.copy(stack=False), 2)
            else:
                ok = gain >= 1
            held[motif] = held.get(motif, 0) + int(ok)
    print(f"{len(rows)} flagged moves (Stockfish depth {data['depth']}), search depth {search_depth}, "
          f"{time.perf_counter() - started:.0f} s\n")
    print("| motif | named | precision | recall |")
    print("|---|---|---|---|")
    for motif in sorted(set(named) | {m for m in truths if truths[m]}):
        count = named.get(motif, 0)
        precision = f"{100 * held[motif] / count:.0f}% ({held[motif]}/{count})" if motif in held and count else "n/a"
        recall = "n/a"
        if truths.get(motif):
            recall = f"{100 * found[motif] / truths[motif]:.0f}% ({found[motif]}/{truths[motif]})"
        print(f"| {motif} | {count} | {precision} | {recall} |")
    for motif, count in sorted(explained_otherwise.items()):
        print(f"{motif}: the test holds but another motif was named instead on {count} of {truths[motif]} moves")
    labels = json.loads(LABELS.read_text())["labels"]
    verdicts = {(label["fen"], label["move"], label["motif"]): label["verdict"] for label in labels}
    by_motif: dict[str, list[str]] = {}
    for row in rows:
        motif = row["motifs"][0] if row["motifs"] and row["text"] else None  # the motif the text tells
        verdict = verdicts.get((row["fen"], row["move"], motif)) if motif else None
        if motif is not None and verdict is not None:
            by_motif.setdefault(motif, []).append(verdict)
    print(f"\nhand-labelled ({LABELS.name}), among the explanations of this run (their first motif):\n")
    print("| motif | labelled | correct |")
    print("|---|---|---|")
    for motif, found_verdicts in sorted(by_motif.items()):
        right = found_verdicts.count("correct")
        print(f"| {motif} | {len(found_verdicts)} | {right} |")
    all_right = sum(1 for label in labels if label["verdict"] == "correct")
    print(f"\nall labels (any run): {all_right} of {len(labels)} correct")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    make = sub.add_parser("build")
    make.add_argument("--games", type=int, default=20)
    make.add_argument("--depth", type=int, default=10)
    make.add_argument("--go", action="store_true", help="Go instead: see benchmarks/explain_go.py")
    make.add_argument("--files", default=None, help="Go: SGF/GIB/... files of the corpus, comma-separated")
    make.add_argument("--fresh", action="store_true", help="Go: review the named games again, replacing them (other stored games stay)")
    check = sub.add_parser("score")
    check.add_argument("--search-depth", type=int, default=3)
    check.add_argument("--go", action="store_true", help="Go instead: see benchmarks/explain_go.py")
    check.add_argument("--visits", type=int, default=64, help="Go: visits of the deeper search")
    check.add_argument("--max-moves", type=int, default=None, help="Go: deeper searches for at most this many flagged moves")
    check.add_argument("--compare-only", action="store_true", help="Go: only the stored deep searches, no engine")
    args = parser.parse_args()
    if args.go:
        import explain_go

        if args.step == "build":
            explain_go.build(args.files.split(",") if args.files else explain_go.DEFAULT_FILES, args.fresh)
        else:
            explain_go.score(args.visits, args.compare_only, args.max_moves)
    elif args.step == "build":
        build(args.games, args.depth)
    else:
        score(args.search_depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
