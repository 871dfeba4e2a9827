"""Each game's support object: every reference it names resolves, and its answers agree with the game."""

from __future__ import annotations

import dataclasses

import pytest

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.explain.common import Threat
from reviewer.core.games import game_support, registered_games, rules_for
from reviewer.core.games.support import Ref, resolve
from reviewer.core.gametree import Game
from reviewer.core.score_text import score_text
from reviewer.core.scoring.chess import win_pct


@pytest.mark.parametrize("kind", ["chess", "go"])
def test_every_reference_of_a_game_resolves(kind: str) -> None:
    support = game_support(kind)
    references = [value for field in dataclasses.fields(support) if field.name.endswith("_ref")
                  and (value := getattr(support, field.name))]
    references += [support.rating.format_ref, support.rating.parse_ref, support.rating.result_ref]
    references += [support.scores.value_first_ref, support.scores.mover_value_ref]
    references += list(support.readers.values())
    assert len(references) >= 12
    for reference in references:
        assert isinstance(reference, Ref)
        reference.get()  # imported and checked: a function, or the object the reference promises
    assert callable(support.position_setup.problem)  # the board editor: an object, as the rules are
    assert isinstance(support.threat(), Threat)
    assert support.rules is rules_for(kind) and support.rules.kind == kind
    if support.fallback_engine:  # the built-in engine's version, as the engine list shows it
        assert support.fallback_version()[:1].isdigit()
    else:
        with pytest.raises(ValueError, match="names no fallback_version_ref"):
            support.fallback_version()


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


def test_chess_reads_its_values_as_normalised_centipawns_and_win_chances() -> None:
    chess = game_support("chess")
    assert chess.position_value(Evaluation(ply=3, kind="chess", score_cp_first=1500)) == 1000  # clamped
    assert chess.position_value(Evaluation(ply=3, kind="chess", mate_first=-2)) == -1000
    plus_three = Evaluation(ply=3, kind="chess", score_cp_first=300)
    assert chess.mover_value(plus_three, "black", "black") == pytest.approx(win_pct(-300))
    checkmated = Evaluation(ply=3, kind="chess", terminal="checkmate")  # who is mated: the side to play
    assert (chess.mover_value(checkmated, "white", "black"), chess.mover_value(checkmated, "black", "black")) == (
        win_pct(1000),
        win_pct(-1000),
    )
    mated_by_black = Candidate(move="Qh5", order=1, mate_first=-1)
    assert chess.candidate_value(mated_by_black, "white") == pytest.approx(win_pct(-1000))
    assert chess.candidate_value(Candidate(move="e4", order=0, score_cp_first=35), "white") == pytest.approx(win_pct(35))
    # The bar: the engine's centipawns unclamped, a mate all of it.
    assert chess.eval_bar_share(Evaluation(ply=3, kind="chess", score_cp_first=1500)) == pytest.approx(win_pct(1500))
    assert chess.eval_bar_share(Evaluation(ply=3, kind="chess", mate_first=-2)) == 0.0
    assert chess.eval_bar_share(Evaluation(ply=3, kind="chess")) is None


def test_go_reads_its_values_as_leads_in_points() -> None:
    go = game_support("go")
    white_ahead = Evaluation(ply=4, kind="go", score_lead_first=-2.5)
    assert go.position_value(white_ahead) == -2.5  # Black's view
    assert (go.mover_value(white_ahead, "white", "black"), go.mover_value(white_ahead, "black", "black")) == (2.5, -2.5)
    assert go.candidate_value(Candidate(move="D4", order=0, score_lead_first=3.0), "white") == -3.0
    assert go.mover_value(Evaluation(ply=4, kind="go"), "black", "black") is None


def test_a_game_that_names_no_reading_of_its_values_is_told_so() -> None:
    go = game_support("go")
    silent = dataclasses.replace(go, title="Silent", scores=dataclasses.replace(go.scores, value_first_ref=Ref(""), mover_value_ref=Ref("")))
    position = Evaluation(ply=0, kind="go", score_lead_first=1.0)
    with pytest.raises(ValueError, match="'Silent' names no value_first_ref"):
        silent.position_value(position)
    with pytest.raises(ValueError, match="'Silent' names no mover_value_ref"):
        silent.candidate_value(Candidate(move="D4", order=0, score_lead_first=1.0), "black")
    with pytest.raises(ValueError, match="'Go' names no eval_bar_ref"):
        go.eval_bar_share(position)


def test_moves_are_numbered_from_the_games_start_position() -> None:
    chess, go = game_support("chess"), game_support("go")
    from_black = Game(kind="chess", start_fen="8/8/8/4k3/8/8/4K3/8 b - - 0 41", first_player="black")
    start = chess.start_move_number(from_black)
    assert (start.number, start.first_to_move) == (41, False)
    assert [(step.number, step.first_to_move) for step in (start.after(1), start.after(2), start.after(3))] == [
        (42, True), (42, False), (43, True)]
    assert chess.start_move_number(Game(kind="chess", start_fen="not a position", first_player="black")).first_to_move is False
    assert chess.move_number(Game(kind="chess"), Game(kind="chess").root).number == 1
    assert go.start_move_number(Game(kind="go")).number == 1  # Go's moves are not numbered: from one, whoever starts


def test_a_comment_reads_without_what_a_reviewer_export_wrote_in_it() -> None:
    chess, go = game_support("chess"), game_support("go")
    assert chess.own_comment("Nice trap. (0.41 → -0.62) Mistake. Nf3 was best.").strip() == "Nice trap."
    assert go.own_comment("A calm move.\nReviewer: Mistake (B+2.5 → W+0.5)") == "A calm move."
    assert dataclasses.replace(go, own_comment_ref=Ref("")).own_comment("as it is (0.41 → -0.62)") == "as it is (0.41 → -0.62)"


def test_chess_moves_go_from_square_to_square_and_gos_do_not() -> None:
    import chess as python_chess

    squares = game_support("chess").square_moves
    assert squares is not None and game_support("go").square_moves is None
    assert (squares.square("e4"), squares.square("Q16")) == (python_chess.E4, None)
    assert squares.line(python_chess.Board(), ("e4", "e5", "Ke3"), 3) == [(python_chess.E2, python_chess.E4), (python_chess.E7, python_chess.E5)]
    with pytest.raises(TypeError, match="not a chess position"):
        squares.line("D4", ("e4",), 1)
