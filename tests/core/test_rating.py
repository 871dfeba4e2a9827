"""Ratings from many games: scales, handicap, results, and the edge cases of the solver."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest

from reviewer.core.games import game_support
from reviewer.core.rating import (
    GameRecord,
    RatingOptions,
    age_weights,
    go_rank_text,
    parse_date,
    parse_go_rank,
    parse_result,
    player_key,
    rate_games,
    record_from_summary,
    white_rank_shift,
)
from reviewer.core.rating.scale import ELO_K, go_k

DAY = dt.date(2024, 6, 1)


def go(white, black, outcome, *, wr="", br="", handicap=0, komi=6.5, rules="japanese", date=DAY):
    return GameRecord("go", white, black, outcome, date, wr, br, handicap, komi, rules)


def chess(white, black, outcome, *, we="", be="", date=DAY):
    return GameRecord("chess", white, black, outcome, date, we, be)


def club(n_rounds: int = 3) -> list[GameRecord]:
    """Four players A > B > C > D who all meet each other, with some upsets, all declaring ranks."""
    ranks = {"A": "2d", "B": "1k", "C": "3k", "D": "5k"}
    upsets = {("A", "B"): 1, ("B", "C"): 1, ("C", "D"): 1, ("A", "C"): 0, ("B", "D"): 0, ("A", "D"): 0}
    games = []
    for (strong, weak), upset_count in upsets.items():
        for round_ in range(n_rounds):
            outcome = "black" if round_ < upset_count else "white"
            games.append(go(strong, weak, outcome, wr=ranks[strong], br=ranks[weak]))
    return games


def players(result):
    return {p.name: p for p in result.players}


# ---------------------------------------------------------------- scales


@pytest.mark.parametrize(
    "text, value",
    [("30k", -29), ("5k", -4), ("1k", 0), ("1d", 1), ("3d", 3), ("9d", 9), ("5 kyu", -4), ("2 dan", 2),
     ("5级", -4), ("3段", 3), ("4단", 4), ("6급", -5), ("5k?", -4), ("3d*", 3), ("1p", 9), ("9p", 9 + 8 / 3)],
)
def test_go_ranks_read_onto_the_internal_scale(text, value):
    assert parse_go_rank(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "?", "abc", "0k", "2450", "10d"])
def test_text_that_is_not_a_rank_reads_as_none(text):
    assert parse_go_rank(text) is None


def test_rank_text_is_the_nearest_rank_and_round_trips():
    assert [go_rank_text(v) for v in (-29, -4, -4.4, -3.4, 0, 0.49, 0.5, 1, 3.2, 9, 12, -40)] == [
        "30k", "5k", "5k", "4k", "1k", "1k", "1d", "1d", "3d", "9d", "9d", "30k"]
    for rank in range(-29, 10):
        assert parse_go_rank(go_rank_text(rank)) == rank


def test_k_grows_with_strength_from_kgs_weak_to_strong_value():
    assert go_k(-20) == pytest.approx(0.85)
    assert go_k(-4) == pytest.approx(0.85)
    assert go_k(2) == pytest.approx(1.30)
    assert go_k(7) == pytest.approx(1.30)
    assert 0.85 < go_k(-1) < go_k(0) < 1.30
    assert pytest.approx(math.log(10) / 400) == ELO_K


@pytest.mark.parametrize(
    "handicap, komi, rules, shift",
    [
        (0, 6.5, "japanese", 0.0),
        (0, 7.5, "chinese", 0.0),
        (0, 6.5, None, 0.0),  # unknown rules: 6.5 and 7.5 both count as even
        (0, 7.5, None, 0.0),
        (0, 0.5, "japanese", 6 / 7),  # no komi: about the traditional one-rank handicap
        (1, 0.0, "chinese", 7.5 / 7),  # Fox's HA[1] KM[0]
        (2, 0.5, "japanese", 2.0),
        (5, 0.5, "chinese", 5.0),
        (3, None, None, 3.0),
        (0, -6.5, "japanese", 13 / 7),  # reverse komi helps Black further
        (0, 13.5, "japanese", -1.0),  # extra komi helps White
    ],
)
def test_handicap_and_komi_become_a_shift_of_whites_rank(handicap, komi, rules, shift):
    assert white_rank_shift(handicap, komi, game_support("go").rating.even_komi(rules)) == pytest.approx(shift)
    assert game_support("chess").rating.even_komi(rules) is None  # komi means nothing in chess


# ---------------------------------------------------------------- results, dates, names


@pytest.mark.parametrize(
    "kind, text, outcome",
    [
        ("go", "B+R", "black"), ("go", "W+3.5", "white"), ("go", "b+t", "black"), ("go", "W+F", "white"),
        ("go", "0", "draw"), ("go", "Draw", "draw"), ("go", "jigo", "draw"), ("go", "?", "unknown"),
        ("go", "Void", "unknown"), ("go", "", "unknown"), ("go", "흑 불계승", "unknown"),
        ("chess", "1-0", "white"), ("chess", "0-1", "black"), ("chess", "1/2-1/2", "draw"),
        ("chess", "½-½", "draw"), ("chess", "1–0", "white"), ("chess", "*", "unknown"), ("chess", "", "unknown"),
    ],
)
def test_results_are_read_for_both_games(kind, text, outcome):
    assert parse_result(kind, text) == outcome


def test_dates_from_pgn_and_sgf_forms():
    assert parse_date("2020.05.17") == dt.date(2020, 5, 17)
    assert parse_date("2016-03-13,14") == dt.date(2016, 3, 13)
    assert parse_date("2020.??.??") == dt.date(2020, 1, 1)
    assert parse_date("????.??.??") is None
    assert parse_date("") is None


def test_players_match_by_name_ignoring_case_and_spacing():
    assert player_key("  Lee   Sedol ") == player_key("lee sedol")
    result = rate_games([go("Lee  Sedol", "B", "white"), go("lee sedol", "B", "black")])
    assert [p.name for p in result.players if p.key == "lee sedol"] == ["Lee Sedol"]
    assert result.find("LEE SEDOL", "go").games == 2


def test_records_from_header_summaries():
    go_summary = {"kind": "go", "white": "W", "black": "B", "result": "W+R", "date": "2021-01-01",
                  "white_rank": "3d", "black_rank": "", "komi": 0.5,
                  "headers": {"HA": "2", "RU": "Japanese", "BR": "1k"}}
    record = record_from_summary(go_summary)
    assert (record.outcome, record.handicap, record.komi, record.rules) == ("white", 2, 0.5, "Japanese")
    assert (record.white_declared, record.black_declared) == ("3d", "1k")
    chess_summary = {"kind": "chess", "white": "X", "black": "Y", "result": "1/2-1/2",
                     "headers": {"WhiteElo": "2400", "BlackElo": "0"}}
    record = record_from_summary(chess_summary)
    assert (record.outcome, record.white_declared, record.komi) == ("draw", "2400", None)


def test_age_weight_halves_every_half_life():
    weights = age_weights([DAY, DAY - dt.timedelta(days=100), DAY - dt.timedelta(days=200), None], 100, None)
    assert weights == pytest.approx([1.0, 0.5, 0.25, 1.0])
    assert age_weights([DAY, None], None, None) == pytest.approx([1.0, 1.0])


# ---------------------------------------------------------------- the solver on small cases


def test_ratings_order_players_and_anchor_to_declared_ranks():
    result = rate_games(club(n_rounds=4))
    by_name = players(result)
    assert by_name["A"].rating > by_name["B"].rating > by_name["C"].rating > by_name["D"].rating
    declared_mean = np.mean([2, 0, -2, -4])
    assert np.mean([p.rating for p in result.players]) == pytest.approx(declared_mean, abs=1e-3)
    assert all(p.low < p.rating < p.high for p in result.players)
    assert by_name["A"].rank == go_rank_text(by_name["A"].rating)


def test_more_games_narrow_the_interval_and_lift_the_question_mark():
    def newcomer(n_each: int):
        games = club(n_rounds=12)
        for _ in range(n_each):  # even games against B, as many wins as losses
            games += [go("N", "B", "white"), go("B", "N", "white")]
        return players(rate_games(games))["N"]

    one_each, three_each, ten_each = newcomer(1), newcomer(3), newcomer(10)
    assert one_each.high - one_each.low > three_each.high - three_each.low > ten_each.high - ten_each.low
    assert (ten_each.high - ten_each.low) < 0.5 * (one_each.high - one_each.low)
    # As on KGS, two or three wins and losses in even games are enough to lose the '?'.
    assert one_each.uncertain and not three_each.uncertain and not ten_each.uncertain


def test_a_player_with_only_wins_is_placed_at_the_best_win():
    games = club(n_rounds=6) + [go("New", "B", "white"), go("C", "New", "black")]  # beats B and C
    result = rate_games(games)
    by_name = players(result)
    new = by_name["New"]
    assert new.uncertain and new.placed_by == "best win"
    assert new.rating == pytest.approx(max(by_name["B"].rating, by_name["C"].rating))
    assert new.low == pytest.approx(new.rating) and new.high is None
    assert new.display.endswith("?")


def test_a_player_with_only_losses_is_placed_at_the_worst_loss_with_handicap_counted():
    # Lost to C while taking 3 stones: only known to be below C's rank minus 3.
    games = club(n_rounds=6) + [go("C", "Weak", "white", handicap=3, komi=0.5), go("B", "Weak", "white")]
    by_name = players(rate_games(games))
    weak = by_name["Weak"]
    assert weak.uncertain and weak.placed_by == "worst loss"
    assert weak.rating == pytest.approx(by_name["C"].rating - 3.0)
    assert weak.high == pytest.approx(weak.rating) and weak.low is None


def test_a_single_game_between_newcomers_is_placed_at_the_level_it_declares():
    result = rate_games([go("Winner", "Loser", "white")])
    # No maximum, nobody determined to measure against, nothing declared: the reference, 1k.
    assert all(p.uncertain and p.placed_by == "group level" for p in result.players)
    assert all(p.rating == pytest.approx(0.0) and p.low is None and p.high is None for p in result.players)
    declared = players(rate_games([go("Winner", "Loser", "white", wr="3k", br="2d")]))
    assert declared["Winner"].rating == pytest.approx(-2.0) and declared["Loser"].rating == pytest.approx(2.0)
    assert declared["Winner"].placed_by == "declared" and declared["Winner"].display == "3k?"


def test_a_single_game_against_an_established_player():
    result = rate_games(club(n_rounds=6) + [go("B", "Guest", "black")])
    by_name = players(result)
    assert by_name["Guest"].games == 1 and by_name["Guest"].placed_by == "best win"
    assert by_name["Guest"].rating == pytest.approx(by_name["B"].rating)


def test_two_disconnected_groups_are_anchored_each_on_its_own_declarations():
    group_one = club(n_rounds=4)  # declared 2d, 1k, 3k, 5k: mean -1
    group_two = [
        go("P", "Q", "white", wr="5d", br="3d"), go("Q", "P", "white", wr="3d", br="5d"),
        go("P", "Q", "white", wr="5d", br="3d"), go("P", "Q", "white", wr="5d", br="3d"),
    ]
    result = rate_games(group_one + group_two)
    by_name = players(result)
    assert by_name["P"].group == by_name["Q"].group != by_name["A"].group
    assert np.mean([by_name[n].rating for n in "PQ"]) == pytest.approx(4.0, abs=1e-3)
    assert np.mean([by_name[n].rating for n in "ABCD"]) == pytest.approx(-1.0, abs=1e-3)
    assert by_name["P"].rating > by_name["Q"].rating
    # Without declarations each group is centred on 1k.
    bare = rate_games([GameRecord("go", g.white, g.black, g.outcome, g.date) for g in group_one + group_two])
    bare_by_name = players(bare)
    assert np.mean([bare_by_name[n].rating for n in "PQ"]) == pytest.approx(0.0, abs=1e-3)
    assert np.mean([bare_by_name[n].rating for n in "ABCD"]) == pytest.approx(0.0, abs=1e-3)


def test_a_draw_counts_as_half_a_win_and_half_a_loss():
    # X beats Z twice and loses once; Y draws Z twice and beats it twice: Y's score vs Z (3/4) is
    # better than X's (2/3), so Y ends above X.  Jigo ('0') and ½-½ are both draws.
    games = [go("X", "Z", "white"), go("Z", "X", "black"), go("Z", "X", "white"),
             go("Y", "Z", "draw"), go("Z", "Y", "draw"), go("Y", "Z", "white"), go("Z", "Y", "black")]
    by_name = players(rate_games(games))
    assert by_name["Y"].draws == 2 and by_name["Z"].draws == 2 and by_name["X"].draws == 0
    assert by_name["Y"].rating > by_name["X"].rating > by_name["Z"].rating
    # A player with only draws has both half-wins and half-losses: placed by the likelihood.
    only_draws = players(rate_games([chess("S", "T", "draw"), chess("T", "S", "draw")] + [
        chess("S", "U", "white"), chess("U", "T", "white")]))
    assert only_draws["S"].placed_by == "likelihood"
    # Equal records give equal ratings.
    even = players(rate_games([chess("E", "F", "draw"), chess("F", "E", "draw"), chess("E", "F", "draw")]))
    assert even["E"].rating == pytest.approx(even["F"].rating, abs=1e-6)


def test_unknown_results_are_counted_but_do_not_move_ratings():
    base = club(n_rounds=4)
    unknown = [go("A", "D", "unknown"), go("D", "A", "unknown"), go("A", "Ghost", "unknown")]
    with_unknown, without = players(rate_games(base + unknown)), players(rate_games(base))
    assert with_unknown["A"].unknown == 3 and with_unknown["A"].games == without["A"].games + 3
    for name in "ABCD":
        assert with_unknown[name].rating == pytest.approx(without[name].rating, abs=1e-9)
    ghost = with_unknown["Ghost"]
    assert ghost.rating is None and ghost.uncertain and ghost.placed_by == "none"
    assert ghost.display == "-"


def test_games_without_two_players_are_skipped():
    result = rate_games([go("", "B", "white"), go("A", "a", "white"), go("A", "B", "white")])
    assert result.games_skipped == 2 and result.games_used == 1


def test_handicap_games_won_half_the_time_mean_the_stones_difference():
    games = []
    for i in range(40):
        games.append(go("Strong", "Weak", "white" if i % 2 else "black", handicap=4, komi=0.5))
    by_name = players(rate_games(games))
    assert by_name["Strong"].rating - by_name["Weak"].rating == pytest.approx(4.0, abs=0.05)


def test_recent_games_count_more_with_a_short_half_life():
    old = [go("R", "S", "black", date=DAY - dt.timedelta(days=400 + i)) for i in range(10)]
    recent = [go("R", "S", "white", date=DAY - dt.timedelta(days=i)) for i in range(5)]
    short = players(rate_games(old + recent, RatingOptions(half_life_days=30)))
    flat = players(rate_games(old + recent, RatingOptions(half_life_days=None)))
    assert short["R"].rating > short["S"].rating  # now winning
    assert flat["R"].rating < flat["S"].rating  # 10 losses against 5 wins in all


def test_opponent_confidence_discounts_games_against_unknown_opponents():
    base = club(n_rounds=8)
    # Newcomer N beats well-known B and loses to M, whom only one other game places.
    games = base + [go("N", "B", "white"), go("M", "N", "white"), go("D", "M", "white")]
    weighted = players(rate_games(games, RatingOptions(opponent_confidence=True)))
    plain = players(rate_games(games, RatingOptions(opponent_confidence=False)))
    assert weighted["M"].sigma > 2 * weighted["B"].sigma
    # The loss to uncertain M counts less than the win over B, so N ends higher with the weights.
    assert weighted["N"].rating > plain["N"].rating + 0.1


def test_chess_uses_the_elo_scale_and_declared_ratings():
    games = [chess("Hi", "Lo", "white", we="2200", be="1800") for _ in range(10)]
    games += [chess("Lo", "Hi", "white", we="1800", be="2200") for _ in range(1)]
    games += [chess("Hi", "Lo", "draw", we="2200", be="1800") for _ in range(2)]
    by_name = players(rate_games(games, RatingOptions(half_life_days=None)))
    hi, lo = by_name["Hi"], by_name["Lo"]
    assert (hi.rating + lo.rating) / 2 == pytest.approx(2000.0, abs=0.01)
    score = (10 + 1) / 13  # Hi's score: 10 wins, 2 draws, 1 loss
    expected_gap = 400 * math.log10(score / (1 - score))
    # The weak prior pulls the gap in by well under an Elo point.
    assert hi.rating - lo.rating == pytest.approx(expected_gap, abs=2.0)
    assert hi.rank is None and hi.display.rstrip("?") == f"{hi.rating:.0f}"


def test_go_and_chess_players_are_separate_pools():
    result = rate_games([go("Same", "Other", "white"), chess("Same", "Other", "black")])
    assert sorted((p.kind, p.name) for p in result.players) == [
        ("chess", "Other"), ("chess", "Same"), ("go", "Other"), ("go", "Same")]


def test_nothing_to_rate_gives_an_empty_result():
    result = rate_games([])
    assert result.players == [] and result.games_used == 0


# ---------------------------------------------------------------- records with no finite maximum


def chess_club() -> list[GameRecord]:
    """Four established chess players (2000 … 1850 declared) who all meet, each pair with an upset."""
    elo = {"A": "2000", "B": "1950", "C": "1900", "E": "1850"}
    names = list(elo)
    games = []
    for i, strong in enumerate(names):
        for weak in names[i + 1:]:
            games += [chess(strong, weak, "white", we=elo[strong], be=elo[weak]),
                      chess(weak, strong, "black", we=elo[weak], be=elo[strong]),
                      chess(weak, strong, "white", we=elo[weak], be=elo[strong])]
    return games


@pytest.mark.parametrize("with_club", [False, True])
def test_losses_to_newcomers_and_one_draw_stay_among_the_opponents(with_club):
    # 0 wins, 10 losses, 1 draw, declaring 1850. The ten winners played nobody else, so the
    # losses pin nothing (their maximum is an infinite gap); only the draw places the player.
    # Before, the far-reaching prior turned those gaps into ~1000 Elo and rated the player ~640-880.
    winners = [chess(f"Newcomer {i}", "P", "white", we="1900", be="1850") for i in range(10)]
    drawn = "C" if with_club else "D"
    games = (chess_club() if with_club else []) + winners + [chess("P", drawn, "draw", we="1850", be="1900")]
    by_name = players(rate_games(games))
    p = by_name["P"]
    assert (p.wins, p.losses, p.draws) == (0, 10, 1)
    opponents = [by_name[name].rating for name in [drawn] + [f"Newcomer {i}" for i in range(10)]]
    margin = RatingOptions().max_half_width_chess  # documented: at most one '?' bound below them
    assert min(opponents) - margin <= p.rating <= max(opponents)
    assert 1900 - margin <= p.rating <= 1900 + margin  # and near what those opponents declare
    assert p.rating == pytest.approx(by_name[drawn].rating, abs=1.0)  # a single draw: level with them
    assert p.uncertain and p.display.endswith("?")
    assert all(by_name[f"Newcomer {i}"].placed_by == "best win" for i in range(10))
    assert all(by_name[f"Newcomer {i}"].rating == pytest.approx(p.rating) for i in range(10))


def test_a_part_of_a_group_that_never_scores_against_the_rest_is_placed_at_its_worst_loss():
    # Y1 and Y2 trade wins with each other but lose every game to the club: the gap between the
    # two parts has no finite maximum, so they are bounded by their weakest loss and marked '?'.
    games = chess_club() + [chess("Y1", "Y2", "white"), chess("Y2", "Y1", "white"),
                            chess("C", "Y1", "white"), chess("Y2", "E", "black")]
    by_name = players(rate_games(games))
    for name in ("Y1", "Y2"):
        assert by_name[name].placed_by == "worst loss" and by_name[name].uncertain
        assert by_name[name].high == pytest.approx(by_name[name].rating) and by_name[name].low is None
    assert by_name["Y1"].rating == pytest.approx(by_name["C"].rating)
    assert by_name["Y2"].rating == pytest.approx(by_name["E"].rating)
    assert all(by_name[n].placed_by == "likelihood" for n in "ABCE")
    assert np.mean([by_name[n].rating for n in "ABCE"]) == pytest.approx(1925.0, abs=1e-3)
