"""The compact evaluation record (RVW / [%rvw]): exact round trips, versioning, escaping."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.export.codec import CodecError, decode_evaluation, encode_evaluation

AWKWARD_ID = "Stöckfish ]\\ 17 | nodes=5,multipv=3; {x} /y% #"


def chess_evaluation() -> Evaluation:
    return Evaluation(
        ply=7,
        kind="chess",
        engine_id=AWKWARD_ID,
        score_cp_first=-35,
        wdl_first=(120, 800, 80),
        side_to_move="black",
        best_move="exd8=Q+",
        pv=("exd8=Q+", "Kxd8", "O-O-O#"),
        candidates=(
            Candidate(move="exd8=Q+", order=0, visits=12345, score_cp_first=-35, pv=("exd8=Q+", "Kxd8")),
            Candidate(move="Nf3", order=1, mate_first=-3, pv=("Nf3",)),
        ),
        depth=22,
        nodes=1_000_000,
        seconds=0.1 + 0.2,
    )


def go_evaluation() -> Evaluation:
    return Evaluation(
        ply=0,
        kind="go",
        engine_id="KataGo 1.15 | visits=200",
        score_lead_first=3.4000000000000004,
        winrate_first=0.6123456789012345,
        side_to_move="white",
        best_move="pass",
        pv=("pass", "Q16"),
        candidates=(
            Candidate(move="pass", order=0, visits=150, prior=0.41, score_lead_first=3.4, winrate_first=0.61, pv=("pass", "Q16")),
            Candidate(move="D4", order=1, prior=1e-07, score_lead_first=-0.0, winrate_first=0.5),
        ),
        nodes=200,
    )


@pytest.mark.parametrize("make", [chess_evaluation, go_evaluation])
def test_round_trip_is_exact(make):
    evaluation = make()
    text = encode_evaluation(evaluation)
    assert text.startswith("1;")
    for forbidden in "]}{\\ \n\t":
        assert forbidden not in text
    assert decode_evaluation(text, evaluation.ply, evaluation.kind) == evaluation


def test_terminal_positions_and_mates():
    mated = Evaluation(ply=33, kind="chess", engine_id="e", side_to_move="black", terminal="checkmate")
    mating = Evaluation(ply=32, kind="chess", engine_id="e", mate_first=1, best_move="Rd8#", pv=("Rd8#",))
    for evaluation in (mated, mating):
        assert decode_evaluation(encode_evaluation(evaluation), evaluation.ply, "chess") == evaluation


def test_engine_id_is_carried_from_the_previous_position():
    first, second = go_evaluation(), go_evaluation().with_ply(1)
    text = encode_evaluation(second, previous_engine_id=first.engine_id)
    assert "e=" not in text
    assert decode_evaluation(text, 1, "go", previous_engine_id=first.engine_id) == second
    assert decode_evaluation(text, 1, "go").engine_id == ""


def test_other_versions_and_broken_text_are_refused():
    with pytest.raises(CodecError):
        decode_evaluation("2;s=1.0", 0, "go")
    with pytest.raises(CodecError):
        decode_evaluation("s=1.0", 0, "go")
    with pytest.raises(CodecError):
        decode_evaluation("1;s=abc", 0, "go")
    with pytest.raises(CodecError):
        decode_evaluation("1;wdl=1/2", 0, "chess")
    with pytest.raises(CodecError):
        decode_evaluation("1;c=,0", 0, "go")


def test_unknown_keys_are_skipped():
    assert decode_evaluation("1;s=2.5;zz=whatever", 3, "go") == Evaluation(ply=3, kind="go", score_lead_first=2.5)


moves = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)
finite = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(
    engine_id=st.text(max_size=30),
    lead=finite,
    winrate=st.floats(min_value=0, max_value=1),
    line=st.lists(moves, max_size=5).map(tuple),
    prior=st.none() | finite,
)
def test_any_text_and_number_survive(engine_id, lead, winrate, line, prior):
    candidates = (Candidate(move=line[0], order=0, prior=prior, score_lead_first=lead, pv=line),) if line else ()
    evaluation = Evaluation(
        ply=4, kind="go", engine_id=engine_id, score_lead_first=lead, winrate_first=winrate,
        best_move=line[0] if line else None, pv=line, candidates=candidates,
    )
    assert decode_evaluation(encode_evaluation(evaluation), 4, "go") == evaluation
