"""Cards carry why the game's move lost; decks written before that still load."""

from __future__ import annotations

import json

from support import chess_card

from reviewer.core.services.trainer.cards import Card
from reviewer.core.services.trainer.deck import Deck


def test_a_card_from_an_analysed_game_says_why_the_move_lost(tmp_path):
    card = chess_card()  # 3... Nf6?? allows 4. Qxf7#
    assert "Qxf7#" in card.why_text
    assert card.why_motifs and card.why_motifs[0].startswith("mate")
    with Deck(tmp_path / "deck.sqlite") as deck:
        deck.add([card])
        assert deck.get(card.card_id) == card


def test_a_card_written_before_explanations_still_loads(tmp_path):
    data = json.loads(chess_card().to_json())
    del data["why_text"], data["why_motifs"]
    old = Card.from_json(json.dumps(data))
    assert old.why_text == "" and old.why_motifs == ()
    assert old.played == "Nf6"
