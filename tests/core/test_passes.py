"""Reviews in passes: which positions each pass searches, reproducibility, the cache, stopping."""

from __future__ import annotations

import json
import shutil
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from support import REPO_ROOT, fake_engine_command

from reviewer.core.analysis import EvaluationTable, Limit
from reviewer.core.cache import AnalysisCache
from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.engines.uci import UciEngine
from reviewer.core.formats import load_game
from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.gametree import Game, Node, point_from_gtp
from reviewer.core.passes import ChessPasses, GoPasses, PassStart, scheme_from_id
from reviewer.core.review import analyse_game
from reviewer.core.scoring.chess import assess_chess
from reviewer.core.scoring.go import assess_go

pytestmark = pytest.mark.timeout(120)

OPERA = REPO_ROOT / "resources" / "samples" / "opera-game.pgn"
STOCKFISH = "/usr/games/stockfish"
THRESHOLDS = (5.0, 10.0, 15.0, 20.0, 30.0)  # every preset's, as docs/SCORING.md lists them


def opera() -> Game:
    return game_from_pgn_text(OPERA.read_text())


def fake_uci(log: Path, processes: int = 2) -> UciEngine:
    return UciEngine(fake_engine_command("fake_uci.py", "--log", str(log)), processes=processes)


def searched(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def review(game: Game, engine: object, limit: Limit, **kwargs: object) -> tuple[EvaluationTable, list[PassStart], list]:
    table = EvaluationTable()
    starts: list[PassStart] = []
    yielded = []
    for evaluation in analyse_game(game, engine, limit, threading.Event(), on_pass=starts.append, **kwargs):  # type: ignore[arg-type]
        table.add(evaluation)
        yielded.append(evaluation)
    return table, starts, yielded


def test_scheme_ids_name_every_setting_and_read_back() -> None:
    chess_scheme = ChessPasses(nodes=(1000, 5000), margins=(2.5,), engines=3, hash_mb=32)
    go_scheme = GoPasses(visits=(1, 16), refine_loss=3.0)
    assert scheme_from_id(chess_scheme.scheme_id) == chess_scheme
    assert scheme_from_id(go_scheme.scheme_id) == go_scheme
    assert "scheme=" + chess_scheme.scheme_id in chess_scheme.limit().describe()
    assert chess_scheme.scheme_id != ChessPasses(nodes=(1000, 5001), margins=(2.5,), engines=3, hash_mb=32).scheme_id
    deep = ChessPasses(nodes=(1000, 5000, 9000), margins=(2.5, 1.0), flags_from=3)
    assert scheme_from_id(deep.scheme_id) == deep
    assert deep.scheme_id != replace(deep, flags_from=0).scheme_id
    assert ":flags" not in chess_scheme.scheme_id  # the ids of schemes without it stay as they were
    with pytest.raises(ValueError, match="unknown review scheme"):
        scheme_from_id("chess-passes-v9:whatever")


def test_first_pass_covers_every_position_then_only_moves_in_doubt_are_deepened(tmp_path: Path) -> None:
    """The fake engine answers the same at every budget, so after pass 1 nothing changes: pass 2
    takes exactly the moves flagged or near a threshold, pass 3 only those still within its margin."""
    game = opera()
    log = tmp_path / "searches.log"
    scheme = ChessPasses(nodes=(100, 200, 300), margins=(3.0, 1.0), engines=2)
    with fake_uci(log) as engine:
        table, starts, yielded = review(game, engine, scheme.limit())
    first = [e for e in yielded if e.review_pass == 1]
    assert sorted(e.ply for e in first) == list(range(game.ply_count + 1))
    assessment = assess_chess(game, table)

    def in_doubt(margin: float, first_look: bool) -> set[int]:
        plies = set()
        for move in assessment.moves:
            if move.book or move.judgement is None:
                continue
            near = move.win_drop_mover is not None and any(abs(move.win_drop_mover - t) < margin for t in THRESHOLDS)
            flagged = move.judgement in ("inaccuracy", "mistake", "blunder")
            pair = (table.get(move.ply - 1), table.get(move.ply))
            mate = any(e is not None and (e.mate_first is not None or e.terminal == "checkmate") for e in pair)
            if near or (first_look and (flagged or mate)):
                plies.update((move.ply - 1, move.ply))
        return plies

    second = {e.ply for e in yielded if e.review_pass == 2}
    assert second == in_doubt(3.0, first_look=True)
    assert second, "the Opera game has flagged moves"
    third = {e.ply for e in yielded if e.review_pass == 3}
    assert third == in_doubt(1.0, first_look=False) & second
    assert [(s.index, s.positions) for s in starts] == [(1, game.ply_count + 1), (2, len(second)), (3, len(third))]
    assert len(searched(log)) == sum(1 for e in yielded if e.terminal is None)


def test_a_pass_on_mistakes_only_deepens_only_moves_near_a_mistake_threshold(tmp_path: Path) -> None:
    """From `flags_from` on, a pass looks at the mistake thresholds of the presets (10 and 20 win
    points) alone; the fake engine answers the same at every budget, so no move changes its label."""
    game = opera()
    plain = ChessPasses(nodes=(100, 200, 300), margins=(3.0, 4.0), engines=2)
    flags = replace(plain, flags_from=3)
    with fake_uci(tmp_path / "plain.log") as engine:
        plain_table, _, plain_yielded = review(game, engine, plain.limit())
    with fake_uci(tmp_path / "flags.log") as engine:
        _, starts, yielded = review(game, engine, flags.limit())
    second = {e.ply for e in yielded if e.review_pass == 2}
    assert second == {e.ply for e in plain_yielded if e.review_pass == 2}  # pass 2 is the same
    near_mistake = set()
    for move in assess_chess(game, plain_table).moves:
        drop = move.win_drop_mover
        if not move.book and drop is not None and any(abs(drop - t) < 4.0 for t in (10.0, 20.0)):
            near_mistake.update((move.ply - 1, move.ply))
    third = {e.ply for e in yielded if e.review_pass == 3}
    assert third == near_mistake & second
    assert third < {e.ply for e in plain_yielded if e.review_pass == 3}  # fewer than every threshold's
    assert starts[-1].positions == len(third)


def test_a_stable_review_stops_after_the_second_pass(tmp_path: Path) -> None:
    game = opera()
    scheme = ChessPasses(nodes=(100, 200, 300), margins=(3.0, 0.0), engines=2)
    with fake_uci(tmp_path / "log") as engine:
        _, starts, yielded = review(game, engine, scheme.limit())
    assert starts[-1].index == 3 and starts[-1].positions == 0
    assert not [e for e in yielded if e.review_pass == 3]


def test_the_cache_never_mixes_schemes_or_uniform_budgets(tmp_path: Path) -> None:
    game = opera()
    log = tmp_path / "searches.log"
    cache = AnalysisCache(tmp_path / "cache.sqlite")
    one = ChessPasses(nodes=(100, 200), engines=2)
    other = ChessPasses(nodes=(100, 201), engines=2)
    try:
        with fake_uci(log) as engine:
            review(game, engine, Limit(nodes=100), cache=cache)
            uniform = len(searched(log))
            first, _, first_yielded = review(game, engine, one.limit(), cache=cache)
            after_one = len(searched(log))
            assert after_one - uniform == sum(1 for e in first_yielded if e.terminal is None)  # nothing reused
            review(game, engine, other.limit(), cache=cache)
            after_other = len(searched(log))
            assert after_other > after_one
            again, starts, _ = review(game, engine, one.limit(), cache=cache)
            assert len(searched(log)) == after_other  # the same scheme: all from the cache
        assert [s.positions for s in starts] == [0, 0]
        assert {p: (e.review_pass, e.score_cp_first, e.engine_id) for p, e in again.by_ply.items()} == {
            p: (e.review_pass, e.score_cp_first, e.engine_id) for p, e in first.by_ply.items()
        }
        assert all("scheme=" + one.scheme_id in e.engine_id for e in again.ordered())
    finally:
        cache.close()


def test_stopping_mid_pass_keeps_finished_work_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    game = opera()
    scheme = ChessPasses(nodes=(100, 200, 300), engines=1)
    with fake_uci(tmp_path / "reference.log", processes=1) as engine:
        complete, _, _ = review(game, engine, scheme.limit())
    log = tmp_path / "searches.log"
    cache = AnalysisCache(tmp_path / "cache.sqlite")
    stop = threading.Event()
    received = []
    try:
        with fake_uci(log, processes=1) as engine:
            for evaluation in analyse_game(game, engine, scheme.limit(), stop, cache=cache):
                received.append(evaluation)
                if evaluation.review_pass == 2 and evaluation.terminal is None:
                    stop.set()  # the first search of pass 2: the rest of the review is cut short
            done_before = len(searched(log))
            assert [e.review_pass for e in received if e.terminal is None].count(2) == 1
            resumed, starts, _ = review(game, engine, scheme.limit(), cache=cache)
        deeper = [{e.ply for e in complete.ordered() if (e.review_pass or 0) >= k and e.terminal is None} for k in (2, 3)]
        finished_in_pass_two = {e.ply for e in received if e.review_pass == 2}
        assert starts[0].positions == 0  # pass 1 was kept whole
        assert starts[1].positions == len({e.ply for e in complete.ordered() if e.review_pass == 2} | deeper[1]) - len(
            finished_in_pass_two
        )
        assert len(searched(log)) - done_before == len(deeper[0]) - 1 + len(deeper[1])
        assert {p: (e.review_pass, e.score_cp_first) for p, e in resumed.by_ply.items()} == {
            p: (e.review_pass, e.score_cp_first) for p, e in complete.by_ply.items()
        }
    finally:
        cache.close()


def test_a_scheme_for_the_other_game_is_refused(tmp_path: Path) -> None:
    with fake_uci(tmp_path / "log") as engine, pytest.raises(ValueError, match="for go games"):
        review(opera(), engine, GoPasses().limit())


# -- Go ----------------------------------------------------------------------------------------------


MOVES_9 = ["E5", "C3", "G7", "C7", "G3", "D5", "D4", "F4", "E4", "F5", "E6", "C5"]


def go_game(moves: list[str], size: int = 9) -> Game:
    game = Game(kind="go", board_width=size, board_height=size, first_player="black")
    node = game.root
    color = "black"
    for gtp in moves:
        node = node.add_child(Node(move=gtp, color=color, point=point_from_gtp(gtp, size)))
        color = "white" if color == "black" else "black"
    return game


def queries(log: Path) -> list[dict]:
    found = []
    for line in log.read_text().splitlines():
        message = json.loads(line)
        if message.get("action") is None and "moves" in message:
            found.append(message)
    return found


def test_go_refines_the_moves_that_lost_two_points_and_the_ones_looked_at_first(tmp_path: Path) -> None:
    game = go_game(MOVES_9)
    log = tmp_path / "katago.log"
    scheme = GoPasses(visits=(2, 40), refine_loss=2.0, batch=2)
    with KataGoEngine(fake_engine_command("fake_katago.py", "--log", str(log))) as engine:
        first_only, _, _ = review(game, engine, GoPasses(visits=(2, 2), refine_loss=1000.0).limit())
        lossy = [m.ply for m in assess_go(game, first_only).moves if m.loss is not None and m.loss >= 2.0]
        quiet = [m.ply for m in assess_go(game, first_only).moves if m.loss is not None and m.loss < 2.0]
        assert lossy and quiet, "the fake's made-up values give both kinds of moves"
        looked_at = quiet[-1]
        log.write_text("")
        table, starts, yielded = review(game, engine, scheme.limit(), focus=lambda: [looked_at])
    deep = [q for q in queries(log) if q.get("maxVisits") == 40]
    fast = [q for q in queries(log) if q.get("maxVisits") == 2]
    assert sorted(t for q in fast for t in q["analyzeTurns"]) == list(range(game.ply_count + 1))
    refined = {t for q in deep for t in q["analyzeTurns"]}
    expected = {p for ply in lossy for p in (ply - 1, ply)} | {looked_at - 1, looked_at}
    assert refined == expected
    assert set(deep[0]["analyzeTurns"]) == {looked_at - 1, looked_at}  # what the player looks at comes first
    assert all(len(q["analyzeTurns"]) <= 2 for q in deep)
    assert {e.ply for e in yielded if e.review_pass == 2} == expected
    assert all(table.get(p).review_pass == 2 for p in expected)
    assert [s.index for s in starts] == [1, 2]


# -- real Stockfish ------------------------------------------------------------------------------------


@pytest.mark.engine
@pytest.mark.skipif(shutil.which(STOCKFISH) is None, reason="Stockfish is not installed")
@pytest.mark.parametrize(
    "scheme",
    [
        ChessPasses(nodes=(2000, 8000, 20000), engines=2),
        ChessPasses(nodes=(2000, 8000, 20000, 40000), margins=(3.0, 1.0, 2.0), engines=2, flags_from=4),
    ],
    ids=["passes", "last pass on mistakes only"],
)
def test_the_same_game_and_settings_give_the_same_labels_with_stockfish(corpus_dir: Path, scheme: ChessPasses) -> None:
    game = load_game(corpus_dir / "pgn" / "mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn", 3)
    runs = []
    for _ in range(2):
        with UciEngine([STOCKFISH], threads=2) as engine:  # a pool of one 2-thread process: the scheme rearranges it
            table, _, _ = review(game, engine, scheme.limit())
        runs.append(table)
    labels = [[m.judgement for m in assess_chess(game, table).moves] for table in runs]
    assert labels[0] == labels[1]
    assert [(e.score_cp_first, e.mate_first, e.best_move, e.review_pass) for e in runs[0].ordered()] == [
        (e.score_cp_first, e.mate_first, e.best_move, e.review_pass) for e in runs[1].ordered()
    ]
    assert {e.review_pass for e in runs[0].ordered()} >= {1, 2}


def test_the_pass_of_a_figure_is_told_in_words() -> None:
    from reviewer.core.passes import pass_text

    chess_id = "Stockfish 15.1 | " + ChessPasses(nodes=(40_000, 250_000, 1_000_000)).limit().describe()
    assert pass_text(chess_id, 1) == "fast pass · 40k nodes"
    assert pass_text(chess_id, 3) == "pass 3 of 3 · 1M nodes"
    assert pass_text(chess_id, None) is None
    assert pass_text(chess_id, 4) is None
    assert pass_text("Stockfish 15.1 | nodes=100000,multipv=1", 1) is None
    go_id = "KataGo 1.18.1 | " + GoPasses(visits=(1, 24)).limit().describe()
    assert pass_text(go_id, 2) == "pass 2 of 2 · 24 visits"


def test_the_standing_of_a_review_in_passes_is_where_its_first_unfinished_pass_stopped():
    from support import go_game_with_a_blunder

    from reviewer.core.analysis import Evaluation
    from reviewer.core.passes import review_standing

    game, table = go_game_with_a_blunder()
    scheme = GoPasses()
    fast = {ply: Evaluation(ply=ply, kind="go", engine_id="k", score_lead_first=7.0, winrate_first=0.8) for ply in (0, 1)}
    fast.update(table.by_ply)  # ply 3 loses 13 points: positions 2 and 3 are in doubt
    stopped = review_standing(game, scheme, [fast, {2: fast[2]}], "k")
    assert (stopped.reached, stopped.count, stopped.in_doubt, stopped.refined) == (2, 2, 2, 1)
    assert not stopped.finished and stopped.text() == "pass 2 of 2: 1 of 2 positions in doubt refined"
    done = review_standing(game, scheme, [fast, {2: fast[2], 3: fast[3]}], "k")
    assert done.finished and done.text() == ""
    in_pass_1 = review_standing(game, scheme, [{0: fast[0]}], "k")
    assert (in_pass_1.reached, in_pass_1.in_doubt, in_pass_1.refined) == (1, 4, 1)
    assert in_pass_1.short_text() == "pass 1 of 2"


def test_go_refines_the_positions_of_every_move_the_refined_figures_flag(tmp_path: Path) -> None:
    # A move that lost little at the fast pass is not refined, but the refining pass may move its
    # position after (refined as the next move's position before) and make it a blunder: both its
    # positions are then searched at the refining budget, with ownership maps, so that its
    # explanation can judge groups and territory.
    game = go_game(MOVES_9)
    scheme = GoPasses(visits=(2, 40), refine_loss=2.0, batch=2)
    with KataGoEngine(fake_engine_command("fake_katago.py")) as engine:
        first_only, _, _ = review(game, engine, GoPasses(visits=(2, 2), refine_loss=1000.0).limit())
    losses = {m.ply: m.loss for m in assess_go(game, first_only).moves}
    lossy = {ply for ply, loss in losses.items() if loss is not None and loss >= 2.0}
    quiet = next(ply for ply in range(2, game.ply_count + 1) if ply not in lossy and ply - 1 not in lossy and ply + 1 in lossy)
    mover_is_black = quiet % 2 == 1
    shift = -20.0 if mover_is_black else 20.0  # the deeper search finds the quiet move losing 20 points
    log = tmp_path / "katago.log"
    command = fake_engine_command("fake_katago.py", "--log", str(log), "--deeper-shift", f"{quiet}:{shift:g}")
    with KataGoEngine(command) as engine:
        table, _, _ = review(game, engine, scheme.limit())
    final = {m.ply: m for m in assess_go(game, table).moves}
    assert final[quiet].judgement == "blunder"
    flagged = [ply for ply, m in final.items() if m.judgement in ("mistake", "blunder")]
    for ply in flagged:
        for position in (ply - 1, ply):
            evaluation = table.get(position)
            assert evaluation is not None and evaluation.review_pass == 2, (ply, position)
            assert evaluation.ownership_first is not None, (ply, position)
    deep = {t for q in queries(log) if q.get("maxVisits") == 40 for t in q["analyzeTurns"]}
    assert quiet - 1 in deep and all(q.get("includeOwnership") for q in queries(log) if q.get("maxVisits") == 40)
