"""Each game's support object: every reference it names resolves, and its answers agree with the game."""

from __future__ import annotations

import dataclasses

import pytest

from reviewer.core.analysis import Evaluation
from reviewer.core.explain.common import Threat
from reviewer.core.games import game_support, registered_games, rules_for
from reviewer.core.games.support import resolve
from reviewer.core.gametree import Game
from reviewer.core.score_text import score_text


@pytest.mark.parametrize("kind", ["chess", "go"])
def test_every_reference_of_a_game_resolves(kind: str) -> None:
    support = game_support(kind)
    references = [value for field in dataclasses.fields(support) if field.name.endswith("_ref")
                  and (value := getattr(support, field.name))]
    references += [support.rating.format_ref, support.rating.parse_ref, support.rating.result_ref]
    references += list(support.readers.values())
    assert len(references) >= 12
    for reference in references:
        assert callable(resolve(reference)) or reference in (support.rules_ref, support.threat_ref), reference
    assert isinstance(resolve(support.threat_ref or ""), Threat)
    assert support.rules is rules_for(kind) and support.rules.kind == kind


def test_a_reference_must_name_a_module_and_an_attribute() -> None:
    with pytest.raises(ValueError, match=r"package\.module:attribute"):
        resolve("reviewer.core.games")


def test_the_games_answer_for_themselves() -> None:
    chess, go = game_support("chess"), game_support("go")
    assert [support.kind for support in registered_games()][:2] == ["chess", "go"]
    assert (chess.player_order, go.player_order) == (("white", "black"), ("black", "white"))
    assert (chess.rating_text(1850.4), go.rating_text(-4.0)) == ("1850", "5k")
    assert (chess.parse_rating("2450"), go.parse_rating("3d")) == (2450.0, 3.0)
    assert score_text("chess", Evaluation(ply=0, kind="chess", score_cp_first=41)) == "+0.41"
    assert score_text("go", Evaluation(ply=0, kind="go", score_lead_first=-2.5)) == "W+2.5"
    assert chess.is_over(chess.rules.play(chess.rules.start(Game(kind="chess")), "e4").position) is False
    assert (chess.pass_move, go.pass_move) == ("", "pass")
