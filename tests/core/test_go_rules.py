"""One table of Go rules, and the three Go boards held to the same answer under every ruleset in it.

The boards: `games.go` (what a user may play), the built-in engine's `Position`, and the board and
history KataGo's in-process network inputs are built from (`katago_net`). Each position is read from
an SGF text with the ruleset's own RU[] spelling, so the reader is part of every case.
"""

from __future__ import annotations

from dataclasses import dataclass
from textwrap import dedent

import numpy as np
import pytest

from reviewer.core.engines.builtin_go.position import Position
from reviewer.core.engines.katago import katago_komi, plan_queries
from reviewer.core.engines.katago_net.features import _loc, _replay, inputs_for_turns
from reviewer.core.formats.sgf import game_from_sgf_text, write_sgf
from reviewer.core.games import IllegalMove, rules_for
from reviewer.core.games.go import position_after
from reviewer.core.games.go_rules import (
    AGA,
    CHINESE,
    DEFAULT,
    ING,
    JAPANESE,
    KOREAN,
    NEW_ZEALAND,
    RULESETS,
    TROMP_TAYLOR,
    GoRuleset,
    even_komi,
    normalise_rules,
    parse_rules,
    ruleset_of,
)
from reviewer.core.gametree import Color, Game, Point, gtp_from_point

LETTERS = "abcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Japanese", JAPANESE), ("JP", JAPANESE), ("japanese rules", JAPANESE), ("日本ルール", JAPANESE),
        ("Chinese", CHINESE), ("CN", CHINESE), ("中国规则", CHINESE), ("Korean", KOREAN), ("한국", KOREAN),
        ("AGA", AGA), ("NZ", NEW_ZEALAND), ("New Zealand", NEW_ZEALAND), ("new_zealand", NEW_ZEALAND),
        ("NewZealand", NEW_ZEALAND), ("Tromp-Taylor", TROMP_TAYLOR), ("Tromp Taylor", TROMP_TAYLOR),
        ("tromp_taylor", TROMP_TAYLOR), ("TT", TROMP_TAYLOR), ("GOE", ING), ("Ing", ING), ("應氏規則", ING),
    ],
)  # fmt: skip
def test_every_spelling_names_its_ruleset(text: str, expected: GoRuleset) -> None:
    assert parse_rules(text) is expected
    assert normalise_rules(text) == expected.name


def test_every_ruleset_reads_back_from_its_own_names() -> None:
    for rules in RULESETS:
        assert parse_rules(rules.name) == rules
        assert parse_rules(rules.sgf) == rules
        assert parse_rules(rules.katago).katago == rules.katago  # type: ignore[union-attr]


def test_katago_rule_strings_are_read_with_katagos_defaults() -> None:
    written = parse_rules("koSIMPLEscoreAREAtaxSEKIsui0")
    assert written is not None
    assert (written.ko, written.scoring, written.tax, written.suicide) == ("simple", "area", "seki", False)
    territory = parse_rules("koPOSITIONALscoreTERRITORY")
    assert territory is not None
    assert (territory.tax, territory.suicide, territory.komi) == ("seki", True, 6.5)
    assert parse_rules("koSIMPLEscoreAREA", ) == parse_rules("kosimplescorearea")
    assert parse_rules("koBOGUS") is None


def test_unknown_or_missing_rules_are_none_and_play_as_japanese() -> None:
    assert parse_rules("Elephant") is None and parse_rules("") is None and parse_rules(None) is None
    assert ruleset_of("Elephant") is DEFAULT is JAPANESE
    assert even_komi("Elephant") is None
    assert even_komi("NZ") == 7.5 and even_komi("Japanese") == 6.5


# ------------------------------------------------------------------ three boards, one answer


@dataclass(frozen=True)
class Case:
    """A position drawn top row first (X black, O white), moves as (colour, (x, y)) with y = 0 at the
    top (None: a pass), and the move to try."""

    name: str
    diagram: str
    moves: tuple[tuple[Color, tuple[int, int] | None], ...]
    attempt: tuple[Color, tuple[int, int]]

    def legal_under(self, rules: GoRuleset) -> bool:
        return {
            "ko retaken at once": False,
            # the first pass takes the button and wipes the superko history (KataGo's button rule)
            "ko retaken after both passed": rules.ko == "simple" or rules.button,
            "a chain's suicide": rules.suicide,
            "a lone stone's suicide": False,
            "a capture without liberties before it": True,
        }[self.name]


KO = """
    . . . . .
    . X O . .
    X O . O .
    . X O . .
    . . . . .
"""
CASES = [
    Case("ko retaken at once", KO, (("black", (2, 2)),), ("white", (1, 2))),
    Case("ko retaken after both passed", KO, (("black", (2, 2)), ("white", None), ("black", None)), ("white", (1, 2))),
    Case("a chain's suicide", ". . . . .\n. . . . .\n. . . . .\nX X . . .\nO . X . .", (), ("white", (1, 4))),
    Case("a lone stone's suicide", ". . . . .\n. . . . .\n. . . . .\nX . . . .\n. X . . .", (), ("white", (0, 4))),
    Case("a capture without liberties before it", ". . . . .\n. . . . .\n. . . . .\nO X . . .\n. O X . .",
         (), ("black", (0, 4))),
]  # fmt: skip


def sgf_of(case: Case, rules: GoRuleset) -> str:
    rows = [line.split() for line in dedent(case.diagram).strip().splitlines()]
    size = len(rows)

    def stones(mark: str) -> str:
        points = "".join(f"[{LETTERS[x]}{LETTERS[y]}]" for y, row in enumerate(rows) for x, cell in enumerate(row) if cell == mark)
        return f"A{'B' if mark == 'X' else 'W'}{points}" if points else ""

    first = case.moves[0][0] if case.moves else case.attempt[0]
    moves = "".join(
        f";{'B' if color == 'black' else 'W'}[{'' if xy is None else LETTERS[xy[0]] + LETTERS[xy[1]]}]"
        for color, xy in case.moves
    )
    return f"(;GM[1]FF[4]SZ[{size}]KM[7.5]RU[{rules.sgf}]{stones('X')}{stones('O')}PL[{first[0].upper()}]{moves})"


def point_of(game: Game, xy: tuple[int, int]) -> Point:
    return (game.board_height - 1 - xy[1], xy[0])


def go_board_answer(game: Game, case: Case) -> tuple[bool, int | None]:
    position = position_after(game, game.mainline_nodes()[-1] if game.mainline_nodes() else game.root)
    color, xy = case.attempt
    assert position.to_move == color
    try:
        after = rules_for("go").play(position, gtp_from_point(point_of(game, xy), game.board_height)).position
    except IllegalMove:
        return False, None
    return True, len(after.black) + len(after.white)


def builtin_answer(game: Game, case: Case) -> tuple[bool, int | None]:
    position = Position(game.board_width, game.board_height, rules=game.rules, komi=7.5)
    position.setup(black=[*game.setup_black, *game.root.setup_black], white=[*game.setup_white, *game.root.setup_white])
    position.to_move = case.moves[0][0] if case.moves else case.attempt[0]
    position.forget_history()
    for color, xy in case.moves:
        position.play(None if xy is None else point_of(game, xy), color)
    color, xy = case.attempt
    point = point_of(game, xy)
    if not position.is_legal(point, color):
        return False, None
    position.play(point, color)
    return True, int(np.count_nonzero((position.b[0] == 1) | (position.b[0] == 2)))


def katago_net_answer(game: Game, case: Case) -> tuple[bool, int | None]:
    color, xy = case.attempt
    plan = plan_queries(game)
    turn = len(case.moves)
    legal = bool(inputs_for_turns(plan, 0, [turn]).legal[0, xy[1] * game.board_width + xy[0]])
    if not legal:
        return False, None
    *_, (_turn, board, _history, pla) = _replay(plan, 0)
    assert pla == (1 if color == "black" else 2)
    return True, board.stones_after_move(_loc(board, point_of(game, xy), game.board_height), pla)


@pytest.mark.parametrize("rules", RULESETS, ids=[r.name for r in RULESETS])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_three_go_boards_agree_under_every_ruleset(case: Case, rules: GoRuleset) -> None:
    game = game_from_sgf_text(sgf_of(case, rules))
    assert ruleset_of(game.rules) == rules  # the reader keeps the ruleset the RU[] value names
    answers = {
        "games.go": go_board_answer(game, case),
        "builtin_go": builtin_answer(game, case),
        "katago_net": katago_net_answer(game, case),
    }
    assert len(set(answers.values())) == 1, answers
    assert answers["games.go"][0] == case.legal_under(rules)


def test_ru_nz_allows_a_chains_suicide_from_the_reader_to_every_engine() -> None:
    case = CASES[2]
    text = sgf_of(case, NEW_ZEALAND)
    assert "RU[NZ]" in text
    game = game_from_sgf_text(text)
    assert game.rules == "new-zealand"
    assert go_board_answer(game, case) == (True, 3)
    assert plan_queries(game).query(0, [0])["rules"] == "new-zealand"
    assert builtin_answer(game, case) == (True, 3)
    assert katago_net_answer(game, case) == (True, 3)
    assert "RU[NZ]" in write_sgf(game)


def test_katago_is_sent_the_rules_and_the_even_komi_of_the_table() -> None:
    for rules in RULESETS:
        game = game_from_sgf_text(f"(;GM[1]SZ[9]RU[{rules.sgf}];B[ee])")
        plan = plan_queries(game)
        assert plan.query(0, [0])["rules"] == rules.katago
        assert katago_komi(game) == rules.komi
