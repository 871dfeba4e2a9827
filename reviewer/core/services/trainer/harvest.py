"""Cards from every analysed game, wherever the analysis was made (the app, `reviewer analyze`,
`reviewer batch`, the Collection window, or a file that carries it).

`add_game_cards` is the one way in: it takes the game and the evaluations already at hand (and the
assessment when the caller has it), picks the one engine setting the figures use, and writes the
cards of that game's mistakes and blunders to the deck. A card's id is its position, so the same
game analysed again updates its cards (deeper answers) and keeps their schedule: never a duplicate.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from reviewer.core.analysis import EvaluationTable
from reviewer.core.cache import AnalysisCache, position_keys
from reviewer.core.coverage import select_analysis
from reviewer.core.gametree import Game
from reviewer.core.passes import split_pass_cache_id
from reviewer.core.scoring import GameAssessment, assess_game
from reviewer.core.services.trainer.cards import Card, cards_from_game
from reviewer.core.services.trainer.deck import Deck


def game_cards(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment | None = None,
    player: str | None = None,
) -> list[Card]:
    """The cards of `game`'s mistakes and blunders (both sides, or `player`'s), from the one engine
    setting `select_analysis` picks among `evaluations`. `assessment` is used when it was made from
    exactly those evaluations (as the app's is); it is computed otherwise."""
    basis = select_analysis(game, evaluations)
    if len(basis.evaluations) == 0 or not basis.trust.labels:
        return []
    if assessment is None or basis.coverage.left_out:
        assessment = assess_game(game, basis.evaluations)
    return cards_from_game(game, basis.evaluations, assessment, player=player)


def add_game_cards(
    game: Game,
    evaluations: EvaluationTable,
    assessment: GameAssessment | None = None,
    player: str | None = None,
    deck: Deck | str | Path | None = None,
) -> int:
    """Add (or update) the cards of an analysed game in `deck` (a Deck, a deck file, or the app's
    deck); returns how many cards are new. Idempotent: the same game twice adds nothing."""
    cards = game_cards(game, evaluations, assessment, player)
    if not cards:
        return 0
    if isinstance(deck, Deck):
        return deck.add(cards)
    with Deck(deck) as opened:
        return opened.add(cards)


def new_cards_line(added: int, player: str | None) -> str:
    """What a run tells of the cards it added: whose mistakes they are (`player`'s, or both players'
    when no player was named)."""
    whose = f"{' '.join(player.split())}'s" if player is not None and player.strip() else "both players'"
    return f"{added} new training card(s) from {whose} mistakes (reviewer train --due)"


def cached_analysis(game: Game, cache: AnalysisCache) -> EvaluationTable:
    """The main-line evaluations the analysis cache holds for `game`, from the engine setting that
    covers most of its positions (what `reviewer batch` or the app left there); empty when none.
    A review in passes is read as the review left it: each position's deepest pass (the passes are
    cached apart), so a card says what the app and the reports say of the same move."""
    keys = position_keys(game, range(game.ply_count + 1))
    by_engine = cache.engines_covering(keys.values())
    table = EvaluationTable()
    if not by_engine:
        return table
    passes: dict[str, list[tuple[int, str]]] = {}  # a scheme's key -> its passes' cache ids
    settings: dict[str, int] = {}  # engine setting -> positions it covers
    for cache_id, count in by_engine.items():
        split = split_pass_cache_id(cache_id)
        setting = cache_id if split is None else split[0]
        if split is not None:
            passes.setdefault(setting, []).append((split[1], cache_id))
        settings[setting] = max(settings.get(setting, 0), count)
    engine_id = max(settings, key=lambda name: (settings[name], name))
    for index, cache_id in sorted(passes.get(engine_id, [])) or [(0, engine_id)]:
        found = cache.get_many(keys.values(), cache_id)
        for ply, key in keys.items():
            if key in found:
                evaluation = found[key].with_ply(ply)
                if index:
                    evaluation = replace(evaluation, review_pass=index, engine_id=engine_id)
                table.add(evaluation)
    return table
