"""Train on your own mistakes: cards from analysed games, brought back by spaced repetition (FSRS).

  reviewer train --add FILE... [--player NAME]   make cards from analysed games (files that carry
                                                 Reviewer's analysis or [%eval] with best moves, or
                                                 games the analysis cache has: analysed by
                                                 reviewer analyze / batch or the app)
  reviewer train --due [--json OUT]              the cards due now (filters: --kind --side --player --opening)
  reviewer train --answer CARD MOVE [--attempts N] [--seconds S]
                                                 answer a card: prints whether the move is accepted
                                                 and when the card comes back
  reviewer train --stats                         cards, due, learning, streak

An answer the card does not know is judged by an engine (Stockfish / KataGo, or --engine-cmd).
The deck lives in Reviewer's data directory (REVIEWER_DATA_DIR), or --deck FILE.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from reviewer.commands.exit_codes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from reviewer.commands.outputs import add_output_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--add", nargs="+", metavar="FILE", help="make cards from the analysed games of these files")
    action.add_argument("--due", action="store_true", help="list the cards due now")
    action.add_argument("--answer", nargs=2, metavar=("CARD", "MOVE"), help="answer a card with a move")
    action.add_argument("--stats", action="store_true", help="how the training goes")
    parser.add_argument("--deck", metavar="FILE", help="the deck file (default: trainer.sqlite in the data directory)")
    add_output_argument(parser, "--json", "with --due/--stats: write JSON to OUT")
    parser.add_argument("--player", metavar="NAME", help="only this player's mistakes (--add) or cards (--due)")
    parser.add_argument("--kind", choices=("chess", "go"), help="only chess or only Go cards")
    parser.add_argument("--side", choices=("white", "black"), help="only cards of this colour")
    parser.add_argument("--opening", metavar="TEXT", help="only cards whose opening name contains TEXT")
    parser.add_argument("--attempts", type=int, default=1, metavar="N", help="with --answer: tries so far, this one included")
    parser.add_argument("--seconds", type=float, metavar="S", help="with --answer: time taken to answer")
    parser.add_argument("--engine-cmd", metavar="COMMAND", help="with --answer: the engine that judges unknown moves")
    parser.add_argument("--nodes", type=int, default=1_000_000, metavar="N", help="chess engine budget for an unknown move")
    parser.add_argument("--visits", type=int, default=100, metavar="N", help="Go engine budget for an unknown move")


def _fail(message: str, code: int) -> int:
    print(f"reviewer train: {message}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    from reviewer.core.services.trainer.deck import CardFilter, Deck

    if args.attempts < 1:
        return _fail("--attempts counts from 1", EXIT_BAD_INPUT)
    try:
        deck = Deck(args.deck)
    except Exception as error:  # an unreadable or newer deck: say so, change nothing
        return _fail(f"cannot open the deck: {error}", EXIT_FAILED)
    with deck:
        if args.add:
            return _add(deck, args.add, args.player)
        where = CardFilter(kind=args.kind, side=args.side, player=args.player, opening=args.opening)
        if args.due:
            return _due(deck, where, args.json)
        if args.stats:
            return _stats(deck, args.json)
        return _answer(deck, args)


def _add(deck: Any, paths: list[str], player: str | None) -> int:
    from reviewer.core.cache import AnalysisCache
    from reviewer.core.embedded_evals import evaluations_from_game, has_embedded_evaluations
    from reviewer.core.errors import ReviewerError
    from reviewer.core.formats import open_collection
    from reviewer.core.services.trainer.harvest import add_game_cards, cached_analysis

    total_new = total_games = unanalysed = 0
    problems = 0
    cache = AnalysisCache()  # the analysis `reviewer batch`, `reviewer analyze` or the app left there
    for path in paths:
        try:
            collection = open_collection(path)
        except (ReviewerError, OSError) as error:
            print(f"reviewer train: {error}", file=sys.stderr)
            problems += 1
            continue
        for warning in getattr(collection, "warnings", ()):
            print(f"reviewer train: {path}: warning: {warning}", file=sys.stderr)
        for index in range(len(collection)):
            try:
                game = collection.game(index)
            except (ReviewerError, ValueError) as error:
                print(f"reviewer train: {path}, game {index + 1}: {error}", file=sys.stderr)
                problems += 1
                continue
            if has_embedded_evaluations(game):
                evaluations = evaluations_from_game(game)
            else:
                evaluations = cached_analysis(game, cache)
            if len(evaluations) == 0:
                unanalysed += 1
                continue
            total_new += add_game_cards(game, evaluations, player=player, deck=deck)
            total_games += 1
    cache.close()
    print(f"{total_new} new card(s) from {total_games} analysed game(s)")
    if unanalysed:
        print(
            f"reviewer train: {unanalysed} game(s) carry no analysis and the analysis cache has none for them; "
            "analyse them first (reviewer analyze, reviewer batch, or Analyse in the app)",
            file=sys.stderr,
        )
    return EXIT_BAD_INPUT if problems and not total_games else EXIT_OK


def _due(deck: Any, where: Any, out: str | None) -> int:
    due = deck.due(where=where)
    rows = [
        {
            "card": item.card.card_id,
            "kind": item.card.kind,
            "side": item.card.side,
            "player": item.card.player,
            "position": item.card.position,
            "played": item.card.played,
            "judgement": item.card.judgement,
            "game": {
                "path": item.card.source_path,
                "index": item.card.source_index + 1,
                "ply": item.card.ply,
                "white": item.card.white,
                "black": item.card.black,
                "date": item.card.date,
                "opening": item.card.opening,
            },
            "due": item.due.isoformat(),
            "state": item.state,
            "reviews": item.reviews,
        }
        for item in due
    ]
    if out:
        return _write_json({"schema": "reviewer.train.due/1", "cards": rows}, out)
    if not rows:
        print("no card is due")
        return EXIT_OK
    for row in rows:
        where = row["position"].get("fen") or f"{row['position']['width']}x{row['position']['height']}"
        game = row["game"]
        print(
            f"{row['card']}  {row['kind']:5}  {_mover(row['player'], row['side'])} to move  (played {row['played']}, a {row['judgement']})  "
            f"{game['white']} – {game['black']}, move {(game['ply'] + 1) // 2}  {where}"
        )
    print(f"{len(rows)} card(s) due")
    return EXIT_OK


def _mover(player: str, side: str) -> str:
    return f"{player} ({side})" if player.strip() else side


def _stats(deck: Any, out: str | None) -> int:
    progress = deck.progress()
    data = {
        "schema": "reviewer.train.stats/1",
        "cards": progress.cards,
        "due_now": progress.due_now,
        "learning": progress.learning,
        "review": progress.review,
        "reviews_today": progress.reviews_today,
        "streak_days": progress.streak_days,
    }
    if out:
        return _write_json(data, out)
    print(
        f"{progress.cards} card(s): {progress.due_now} due now, {progress.learning} learning, "
        f"{progress.review} in review; {progress.reviews_today} review(s) today; streak {progress.streak_days} day(s)"
    )
    return EXIT_OK


def _answer(deck: Any, args: argparse.Namespace) -> int:
    from reviewer.core.services.trainer.cards import judge_answer

    card_id, move = args.answer
    card = deck.get(card_id)
    if card is None:
        return _fail(f"no card {card_id!r} in the deck (see --due)", EXIT_BAD_INPUT)
    verdict = judge_answer(card, move, _engine_evaluator(args))
    if not verdict.move:
        return _fail(verdict.message, EXIT_BAD_INPUT)
    if verdict.accepted is None:
        return _fail(verdict.message, EXIT_FAILED)
    review = deck.review(card.card_id, verdict.move, verdict.accepted, args.attempts, args.seconds)
    print(("accepted: " if verdict.accepted else "not accepted: ") + verdict.message)
    print(f"next due: {review.next_due.isoformat(timespec='minutes')} (graded {review.rating})")
    return EXIT_OK


def _engine_evaluator(args: argparse.Namespace) -> Any:
    """Judge a move the card does not know with an engine, opened only when needed."""
    from reviewer.core.services.trainer.judge import engine_evaluator

    return engine_evaluator(
        command=args.engine_cmd,
        nodes=args.nodes,
        visits=args.visits,
        report=lambda message: print(f"reviewer train: {message}", file=sys.stderr),
    )


def _write_json(data: dict[str, Any], out: str) -> int:
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if out == "-":
        sys.stdout.write(text)
        return EXIT_OK
    from reviewer.core.atomic import write_text_atomic

    try:
        write_text_atomic(out, text)
    except OSError as error:
        return _fail(f"cannot write {out}: {error}", EXIT_FAILED)
    return EXIT_OK
