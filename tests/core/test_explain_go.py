"""Go explanations: groups that change hands by the ownership maps, captures and ataris of the line."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.core.analysis import Evaluation
from reviewer.core.explain import explain_move
from reviewer.core.explain.go import NO_MAPS_NOTE
from reviewer.core.gametree import Game, Node, point_from_gtp

SIZE = 9


def go_game(moves: list[str]) -> Game:
    game = Game(kind="go", board_width=SIZE, board_height=SIZE, first_player="black", komi=6.5)
    node = game.root
    color = "black"
    for move in moves:
        node = node.add_child(Node(move=move, color=color, point=point_from_gtp(move, SIZE)))
        color = "white" if color == "black" else "black"
    return game


def ownership(black: dict[str, float] | None = None, default: float = 0.0) -> tuple[float, ...]:
    values = [default] * (SIZE * SIZE)
    for name, value in (black or {}).items():
        row, col = point_from_gtp(name, SIZE)  # type: ignore[misc]
        values[row * SIZE + col] = value
    return tuple(values)


def evaluation(
    ply: int,
    pv: list[str] = (),
    lead: float = 0.0,
    own: tuple[float, ...] | None = None,
    best: str | None = None,
    policy: tuple[float, ...] | None = None,
) -> Evaluation:
    return Evaluation(
        ply=ply, kind="go", score_lead_first=lead, pv=tuple(pv), ownership_first=own, best_move=best, policy=policy
    )


GROUP = ["C3", "C4", "D3"]


def test_dead_group_named_with_its_stones():
    game = go_game(["C3", "G7", "C4", "G6", "D3", "F7", "J9"])  # Black's J9 is the mistake (ply 7)
    before = evaluation(6, own=ownership(dict.fromkeys(GROUP, 0.9)), lead=5)
    after = evaluation(7, pv=["D4", "E3"], own=ownership(dict.fromkeys(GROUP, -0.9)), lead=-8)
    why = explain_move(game, 7, before, after)
    assert why is not None and why.motifs[0] == "deadGroup"
    assert "The black group at C3 (3 stones) can now be killed" in why.text
    assert "White's best reply is D4." in why.text
    assert set(GROUP) <= set(why.focus)
    assert why.line == ("D4", "E3")


def test_no_dead_group_when_the_map_does_not_change():
    game = go_game(["C3", "G7", "C4", "G6", "D3", "F7", "J9"])
    own = ownership(dict.fromkeys(GROUP, 0.9))
    why = explain_move(game, 7, evaluation(6, own=own), evaluation(7, pv=["D4"], own=own))
    assert why is None or "deadGroup" not in why.motifs


def test_alive_group():
    game = go_game(["C3", "G7", "C4", "G6", "D3", "F7", "J9"])  # ply 6: White's F7; ask about White's move
    white = ["G7", "G6", "F7"]
    before = evaluation(5, own=ownership(dict.fromkeys(white, 0.9)))
    after = evaluation(6, own=ownership(dict.fromkeys(white, -0.9)))
    # White's own move (ply 6) saved White's group: for White that is no mistake to explain
    why = explain_move(game, 6, before, after)
    assert why is None or "aliveGroup" not in why.motifs
    # Black's move at ply 7 lets the white group live
    why = explain_move(
        game,
        7,
        evaluation(6, own=ownership(dict.fromkeys(white, 0.9))),
        evaluation(7, own=ownership(dict.fromkeys(white, -0.9))),
    )
    assert why is not None and why.motifs[0] == "aliveGroup"
    assert "Lets the white group at G7 (3 stones) live" in why.text


# White's stones a diagonal or a jump apart from one end of the board to the other: the chain
# G7 G6 F7, the lone E8 (diagonal to F7), the chain C8 C7 (a jump from E8); Black's stones far off.
LINKED_BOARD = ["J1", "G7", "J2", "G6", "J3", "F7", "H1", "E8", "H2", "C8", "H3", "C7", "J5", "A9"]
SWINGING = ["G7", "G6", "F7"]
STAYING = ["E8", "C8", "C7"]


def test_a_chain_that_changes_hands_is_named_though_its_colour_has_linked_stones_elsewhere():
    game = go_game(LINKED_BOARD)  # White's A9 (ply 14) gives up G7 G6 F7; E8, C8, C7 stay White's
    before = ownership(dict.fromkeys(SWINGING + STAYING, -0.9))
    after = ownership({**dict.fromkeys(SWINGING, 0.9), **dict.fromkeys(STAYING, -0.9)})
    why = explain_move(game, 14, evaluation(13, own=before), evaluation(14, pv=["F6"], own=after))
    assert why is not None and why.motifs[0] == "deadGroup"
    assert "The white group at G7 (3 stones) can now be killed" in why.text
    assert set(SWINGING) <= set(why.focus) and not set(STAYING) & set(why.focus)
    # Black's J5 (ply 13) let the same chain live: before it the map gave it to Black
    before = ownership({**dict.fromkeys(SWINGING, 0.9), **dict.fromkeys(STAYING, -0.9)})
    after = ownership(dict.fromkeys(SWINGING + STAYING, -0.9))
    why = explain_move(game, 13, evaluation(12, own=before), evaluation(13, pv=["F6"], own=after))
    assert why is not None and why.motifs[0] == "aliveGroup"
    assert "Lets the white group at G7 (3 stones) live" in why.text
    assert not set(STAYING) & set(why.focus)


def test_linked_chains_that_change_hands_together_are_named_as_one_group():
    game = go_game(LINKED_BOARD)
    before = ownership(dict.fromkeys(SWINGING + STAYING, -0.9))
    after = ownership({**dict.fromkeys([*SWINGING, "E8"], 0.9), "C8": -0.9, "C7": -0.9})
    why = explain_move(game, 14, evaluation(13, own=before), evaluation(14, own=after))
    assert why is not None and why.motifs == ("deadGroup",)
    assert "(4 stones)" in why.text
    assert set(why.focus) == {*SWINGING, "E8"}


def test_a_chain_that_holds_is_left_out_of_the_group_named():
    game = go_game(LINKED_BOARD)
    before = ownership(dict.fromkeys(SWINGING + STAYING, -0.9))
    after = ownership({**dict.fromkeys(SWINGING, -0.9), **dict.fromkeys(STAYING, 0.9)})  # E8 C8 C7 go, G7 holds
    why = explain_move(game, 14, evaluation(13, own=before), evaluation(14, own=after))
    assert why is not None and why.motifs == ("deadGroup",)
    assert set(why.focus) == set(STAYING)


def test_territory_swing():
    area = [f"{col}{row}" for col in "ABC" for row in (7, 8, 9)]
    game = go_game(["E5", "E3", "J1"])
    why = explain_move(
        game,
        3,
        evaluation(2, own=ownership(dict.fromkeys(area, 0.8))),
        evaluation(3, own=ownership(dict.fromkeys(area, -0.6))),
    )
    assert why is not None and why.motifs == ("territory",)
    assert why.text.startswith("About 13 points around B8 move towards White")


def test_capture_in_the_line_without_maps_says_maps_are_missing():
    game = go_game(["E5", "B1", "A1"])  # Black's A1 has one liberty left
    why = explain_move(game, 3, evaluation(2), evaluation(3, pv=["A2"]))
    assert why is not None and why.motifs == ("capture",)
    assert why.text == "The line A2 captures 1 stone at A1. " + NO_MAPS_NOTE
    assert why.focus == ("A1",)


def test_atari_by_the_reply():
    game = go_game(["E5", "D5", "A9", "F5", "A8"])
    why = explain_move(game, 5, evaluation(4), evaluation(5, pv=["E6"]))
    assert why is not None and why.motifs == ("atari",)
    assert why.text.startswith("Allows E6, putting 1 stone at E5 in atari.")


def test_no_atari_claimed_for_a_quiet_reply():
    game = go_game(["E5", "D5", "A9", "F5", "A8"])
    assert explain_move(game, 5, evaluation(4), evaluation(5, pv=["J1"])) is None


def test_slow_move_by_policy_and_lead():
    policy = ownership({"E5": 0.5, "A1": 0.01})
    game = go_game(["C3", "G7", "A1"])
    why = explain_move(
        game,
        3,
        evaluation(2, lead=4, own=ownership(), best="E5", policy=policy),
        evaluation(3, lead=-1, own=ownership()),
    )
    assert why is not None and why.motifs == ("slow",)
    assert why.text.startswith("E5 was bigger: the network's policy gives it 50% against 1% for A1")


def test_an_illegal_line_stops_where_the_rules_refuse_it():
    game = go_game(["E5", "B1", "A1"])
    why = explain_move(game, 3, evaluation(2), evaluation(3, pv=["E5", "A2"]))  # E5 is occupied
    assert why is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["E5", "D5", "A1", "B1", "A2", "pass", "Z9", "", "J9"]), max_size=8), st.booleans())
def test_any_line_explains_without_crashing(pv, with_maps):
    game = go_game(["E5", "B1", "A1", "D5"])
    own = ownership(default=0.3) if with_maps else None
    why = explain_move(game, 3, evaluation(2, own=own), evaluation(3, pv=pv, own=own))
    if why is not None:
        assert why.text and len(why.line) <= len(pv)


def test_a_pass_and_plies_out_of_range_explain_nothing():
    game = go_game(["E5", "pass", "A1"])
    assert explain_move(game, 2, evaluation(1), evaluation(2, pv=["D5"])) is None
    assert explain_move(game, 0, None, None) is None
    assert explain_move(game, 9, None, None) is None


def test_maps_of_the_wrong_size_are_ignored():
    game = go_game(["C3", "G7", "C4", "G6", "D3", "F7", "J9"])
    short = (0.9,) * 10
    why = explain_move(game, 7, evaluation(6, own=short), evaluation(7, pv=["D4"], own=(-0.9,) * 10))
    assert why is None or "deadGroup" not in why.motifs
