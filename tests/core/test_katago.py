"""KataGo analysis adapter: query building, point of view, and a fake KataGo that misbehaves."""

from __future__ import annotations

import json
import math
import threading
import time
import zlib

import pytest

from reviewer.core.analysis import Limit
from reviewer.core.engines.base import EngineCrashed, EngineError, EngineNotFound, EngineTimeout
from reviewer.core.engines.katago import (
    KataGoEngine,
    config_report_as,
    katago_komi,
    katago_rules,
    map_from_response,
    plan_queries,
    to_black_view,
)
from reviewer.core.gametree import Game, Node, point_from_gtp
from tests.conftest import fake_engine_command

pytestmark = pytest.mark.timeout(30)

MOVES_9 = ["E5", "C3", "G7", "C7", "G3", "pass", "D5", "F4"]


def go_game(moves: list[str], size: int = 9, height: int | None = None, **fields) -> Game:
    height = height or size
    game = Game(kind="go", board_width=size, board_height=height, first_player="black", **fields)
    node = game.root
    color = "black"
    for gtp in moves:
        node = node.add_child(Node(move=gtp, color=color, point=point_from_gtp(gtp, height)))
        color = "white" if color == "black" else "black"
    return game


def expected_lead_black(query_moves: list[list[str]], turn: int, initial=()) -> float:
    """The fake's made-up truth for a position (see tests/fakes/fake_katago.py)."""
    text = json.dumps([list(initial), query_moves[:turn]])
    return (zlib.crc32(text.encode()) % 41) / 2 - 10.25


def gtp_moves(game: Game) -> list[list[str]]:
    return [["B" if n.color == "black" else "W", n.move] for n in game.mainline_nodes()]


def numbers(evaluation) -> list[float]:
    """Every value of an evaluation that depends on the point of view, in a fixed order."""
    values = [evaluation.score_lead_first, evaluation.winrate_first]
    for candidate in evaluation.candidates:
        values += [candidate.score_lead_first, candidate.winrate_first]
    return values


def same_evaluation(a, b) -> bool:
    return (a.ply, a.best_move, a.side_to_move, a.pv) == (b.ply, b.best_move, b.side_to_move, b.pv) and numbers(
        a
    ) == pytest.approx(numbers(b))


def fake(*args: str) -> list[str]:
    return fake_engine_command("fake_katago.py", *args)


def run_all(engine: KataGoEngine, game: Game, plies=None, limit=None) -> list:
    plies = range(game.ply_count + 1) if plies is None else plies
    limit = Limit(visits=4) if limit is None else limit
    return list(engine.analyse(game, list(plies), limit, threading.Event()))


# -- building queries -------------------------------------------------------------------------------


def test_plan_one_query_for_the_main_line_with_gtp_moves_from_points():
    game = go_game(MOVES_9, komi=6.5, rules="Japanese")
    game.root.children[0].move = 'E5"]}\n{"action":"terminate'  # file text never reaches the engine
    plan = plan_queries(game)
    assert len(plan.segments) == 1
    query = plan.query(0, [0, 3, 1])
    assert query["moves"] == gtp_moves(go_game(MOVES_9))
    assert query["analyzeTurns"] == [0, 1, 3]
    assert (query["rules"], query["komi"], query["boardXSize"], query["boardYSize"]) == ("japanese", 6.5, 9, 9)
    assert query["initialStones"] == [] and query["initialPlayer"] == "B"
    assert plan.turn_of_ply == {ply: (0, ply) for ply in range(len(MOVES_9) + 1)}


def test_plan_handicap_stones_and_white_to_play():
    game = go_game([], size=19, handicap=2, komi=0.5)
    game.setup_black = [point_from_gtp("D4", 19), point_from_gtp("Q16", 19)]
    node = game.root.add_child(Node(move="Q4", color="white", point=point_from_gtp("Q4", 19)))
    node.add_child(Node(move="D16", color="black", point=point_from_gtp("D16", 19)))
    query = plan_queries(game).query(0, [0, 1, 2])
    assert sorted(query["initialStones"]) == [["B", "D4"], ["B", "Q16"]]
    assert query["initialPlayer"] == "W"
    assert query["moves"] == [["W", "Q4"], ["B", "D16"]]


def test_plan_rectangular_board_counts_rows_from_the_bottom():
    game = go_game(["A1", "J17", "B16"], size=9, height=17)
    query = plan_queries(game).query(0, [3])
    assert (query["boardXSize"], query["boardYSize"]) == (9, 17)
    assert query["moves"] == [["B", "A1"], ["W", "J17"], ["B", "B16"]]


def test_plan_move_off_the_board_is_refused():
    game = go_game(["E5"])
    game.root.children[0].point = (12, 3)
    with pytest.raises(EngineError, match="off the 9x9 board"):
        plan_queries(game)


def test_plan_setup_inside_the_game_starts_a_new_query_with_captures_applied():
    # Black captures the white stone at A1; then a setup node adds a black stone at J9.
    game = go_game(["B1", "A1", "A2"])
    last = game.node_at_ply(3)
    setup = last.add_child(Node(setup_black=[point_from_gtp("J9", 9)]))
    setup.add_child(Node(move="E5", color="white", point=point_from_gtp("E5", 9)))
    plan = plan_queries(game)
    assert len(plan.segments) == 2
    assert plan.turn_of_ply[3] == (0, 3)
    assert plan.turn_of_ply[4] == (1, 0) and plan.turn_of_ply[5] == (1, 1)
    query = plan.query(1, [0, 1])
    assert sorted(query["initialStones"]) == [["B", "A2"], ["B", "B1"], ["B", "J9"]]
    assert query["initialPlayer"] == "W" and query["moves"] == [["W", "E5"]]


def test_plan_empty_node_shares_the_position_before_it():
    game = go_game(["E5", "C3"])
    game.node_at_ply(2).add_child(Node())
    plan = plan_queries(game)
    assert plan.turn_of_ply[3] == plan.turn_of_ply[2] == (0, 2)


def test_rules_are_a_whitelist():
    assert katago_rules(go_game([], rules="Chinese")) == "chinese"
    assert katago_rules(go_game([], rules="NZ")) == "new-zealand"
    assert katago_rules(go_game([], rules="tromp_taylor")) == "tromp-taylor"
    assert katago_rules(go_game([], rules='japanese","komi":99')) == "japanese"
    assert katago_rules(go_game([])) == "japanese"


def test_komi_is_the_games_komi_in_points_with_no_second_fox_rule():
    # The SGF reader gives Fox's komi in points; KataGo's layer must not divide it again.
    assert katago_komi(go_game([], size=19, komi=7.5, rules="chinese", origin="fox")) == 7.5
    assert katago_komi(go_game([], size=19, komi=0.0, handicap=2, headers={"AP": "foxwq"})) == 0.0
    assert katago_komi(go_game([], size=19, komi=11.0, rules="chinese")) == 11.0


@pytest.mark.parametrize(
    "name, komi",
    [
        ("sabaki-sgf__fox_go_server.sgf", 0.5),  # KM[0] HA[1]: no-komi game
        ("katrain__fox_sgf_error.sgf", 0.5),  # KM[0] HA[1]
        ("sabaki-sgf__fox_go_server_handicap.sgf", 0.5),  # KM[0] HA[2]
        ("sabaki-sgf__fox_go_server_komi.sgf", 7.5),  # KM[375] Chinese
        ("katago__foxlike.sgf", 6.5),  # KM[325]: what KataGo itself reads
        ("sabaki-sgf__non_fox_game.sgf", 11.0),  # KM[11] from OGS stays
    ],
)
def test_komi_of_real_files(corpus_dir, name, komi):
    from reviewer.core.formats import load_game

    game = load_game(corpus_dir / "sgf" / name)
    assert game.komi == komi
    assert katago_komi(game) == komi


def test_plan_of_a_fox_handicap_file_puts_the_stones_first(corpus_dir):
    from reviewer.core.formats import load_game

    game = load_game(corpus_dir / "sgf" / "sabaki-sgf__fox_go_server_handicap.sgf")
    plan = plan_queries(game)
    segment, turn = plan.turn_of_ply[1]
    query = plan.query(segment, [turn])
    assert ["B", "Q16"] in query["initialStones"] and ["B", "D4"] in query["initialStones"]
    assert query["moves"][0] == ["W", "D17"] and query["komi"] == 0.5 and query["rules"] == "chinese"


def test_komi_defaults_and_rounding():
    assert katago_komi(go_game([], rules="japanese")) == 6.5
    assert katago_komi(go_game([], rules="chinese")) == 7.5
    assert katago_komi(go_game([], komi=5.4)) == 5.5
    assert katago_komi(go_game([], komi=1000.0)) == 150.0
    assert katago_komi(go_game([], komi=float("nan"), rules="chinese")) == 7.5


@pytest.mark.parametrize(
    "report_as, side, reported, black",
    [
        ("BLACK", "white", (3.0, 0.7), (3.0, 0.7)),
        ("WHITE", "black", (3.0, 0.7), (-3.0, 0.3)),
        ("SIDETOMOVE", "black", (3.0, 0.7), (3.0, 0.7)),
        ("SIDETOMOVE", "white", (3.0, 0.7), (-3.0, 0.3)),
    ],
)
def test_to_black_view(report_as, side, reported, black):
    lead, winrate = to_black_view(*reported, report_as, side)
    assert lead == pytest.approx(black[0]) and winrate == pytest.approx(black[1])


def test_config_report_as_is_read_from_the_config_and_overrides(tmp_path):
    config = tmp_path / "a.cfg"
    config.write_text("# comment\nreportAnalysisWinratesAs = SIDETOMOVE  # trailing\n")
    assert config_report_as(["katago", "analysis", "-config", str(config)]) == "SIDETOMOVE"
    assert config_report_as(["katago", "-override-config", "reportAnalysisWinratesAs=WHITE"]) == "WHITE"
    assert config_report_as(["katago"]) == "BLACK"


# -- the engine against the fake ------------------------------------------------------------------


def test_analyses_a_whole_game_in_one_query_black_view(tmp_path):
    log = tmp_path / "queries.log"
    game = go_game(MOVES_9, komi=6.5)
    with KataGoEngine(fake("--log", str(log), "-model", "/x/fake-model.bin.gz")) as engine:
        assert engine.identity == "KataGo 1.18.1 fake-model"
        results = run_all(engine, game)
    assert sorted(e.ply for e in results) == list(range(len(MOVES_9) + 1))
    analysis_queries = [json.loads(line) for line in log.read_text().splitlines() if '"analyzeTurns"' in line]
    assert len(analysis_queries) == 1 and analysis_queries[0]["maxVisits"] == 4
    moves = gtp_moves(game)
    for evaluation in results:
        assert evaluation.kind == "go"
        assert evaluation.score_lead_first == pytest.approx(expected_lead_black(moves, evaluation.ply))
        assert evaluation.winrate_first == pytest.approx(1 / (1 + math.exp(-evaluation.score_lead_first / 4)))
        assert evaluation.side_to_move == ("black" if evaluation.ply % 2 == 0 else "white")
        assert [c.order for c in evaluation.candidates] == [0, 1, 2]
        assert evaluation.best_move == evaluation.candidates[0].move == "C3"
        assert evaluation.candidates[0].prior == 0.5 and evaluation.candidates[0].visits == 2
        assert evaluation.pv == ("C3", "pass")
        assert evaluation.engine_id.startswith("KataGo 1.18.1 fake-model | visits=4")
        # Candidates are worse for the mover the later they come, whoever moves.
        s = 1 if evaluation.side_to_move == "black" else -1
        assert s * evaluation.candidates[0].score_lead_first > s * evaluation.candidates[2].score_lead_first


def test_only_the_plies_asked_for(tmp_path):
    with KataGoEngine(fake()) as engine:
        results = run_all(engine, go_game(MOVES_9), plies=[2, 5])
    assert sorted(e.ply for e in results) == [2, 5]


def test_out_of_order_results_land_on_the_right_ply():
    game = go_game(MOVES_9)
    with KataGoEngine(fake("--shuffle")) as engine:
        results = run_all(engine, game)
    plies = [e.ply for e in results]
    assert plies != sorted(plies) and sorted(plies) == list(range(len(MOVES_9) + 1))
    for evaluation in results:
        assert evaluation.score_lead_first == pytest.approx(expected_lead_black(gtp_moves(game), evaluation.ply))


def test_partial_results_are_never_taken_as_final():
    with KataGoEngine(fake("--partial", "3")) as engine:
        results = run_all(engine, go_game(MOVES_9))
    assert len(results) == len(MOVES_9) + 1
    assert all(abs(e.score_lead_first) < 100 for e in results)


def test_garbage_lines_are_skipped():
    game = go_game(MOVES_9)
    with KataGoEngine(fake("--garbage")) as engine:
        results = run_all(engine, game)
    assert sorted(e.ply for e in results) == list(range(len(MOVES_9) + 1))
    for evaluation in results:
        assert evaluation.score_lead_first == pytest.approx(expected_lead_black(gtp_moves(game), evaluation.ply))


def test_a_crash_restarts_katago_and_asks_only_the_missing_turns(tmp_path):
    log, marker = tmp_path / "queries.log", tmp_path / "crashed"
    game = go_game(MOVES_9)
    command = fake("--crash-after", "3", "--crash-marker", str(marker), "--log", str(log))
    with KataGoEngine(command) as engine:
        results = run_all(engine, game)
        assert engine.restarts == 1
    assert marker.exists()
    assert sorted(e.ply for e in results) == list(range(len(MOVES_9) + 1))
    queries = [json.loads(line) for line in log.read_text().splitlines() if '"analyzeTurns"' in line]
    assert len(queries) == 2
    first_answers = {e.ply for e in results[:3]}
    assert set(queries[1]["analyzeTurns"]) == set(range(len(MOVES_9) + 1)) - first_answers
    for evaluation in results:
        assert evaluation.score_lead_first == pytest.approx(expected_lead_black(gtp_moves(game), evaluation.ply))


def test_a_katago_that_keeps_dying_ends_with_engine_crashed():
    # The last words on stderr come after stdout has ended: the message waits for them (this
    # raced under load when the exit status and stderr were read as soon as stdout ended).
    engine = KataGoEngine(fake("--crash-after", "1", "--crash-marker", ""), max_restarts=1)
    try:
        with pytest.raises(EngineCrashed, match=r"died 2 times \(exit status 3: .*crashing on purpose"):
            run_all(engine, go_game(MOVES_9))
        assert engine.restarts == 1
    finally:
        engine.close()


def test_a_katago_killed_during_its_handshake_is_started_again(tmp_path):
    started = tmp_path / "started.log"
    command = fake("--killed-in-handshake", "--killed-marker", str(tmp_path / "killed"), "--started-log", str(started))
    with KataGoEngine(command) as engine:
        assert engine.version == "1.18.1"
        results = run_all(engine, go_game(MOVES_9))
    assert len(results) == len(MOVES_9) + 1
    assert started.read_text().splitlines() == ["started", "started"]


def test_a_katago_killed_in_every_handshake_fails_clearly_after_one_restart(tmp_path):
    started = tmp_path / "started.log"
    with pytest.raises(EngineCrashed, match=r"KataGo exited while starting \(exit status -9.*twice"):
        KataGoEngine(fake("--killed-in-handshake", "--started-log", str(started)))
    assert started.read_text().splitlines() == ["started", "started"]


def test_a_katago_killed_while_restarting_mid_analysis_is_started_once_more(tmp_path):
    # Dies after its first result; the restarted process is killed in its handshake once.
    started = tmp_path / "started.log"
    marker = tmp_path / "killed"
    marker.write_text("not yet")  # the first process must not die in its handshake
    command = fake(
        "--crash-after", "1", "--crash-marker", str(tmp_path / "crashed"),
        "--killed-in-handshake", "--killed-marker", str(marker), "--started-log", str(started),
    )
    with KataGoEngine(command, max_restarts=1) as engine:
        marker.unlink()
        results = run_all(engine, go_game(MOVES_9))
    assert len(results) == len(MOVES_9) + 1
    assert started.read_text().splitlines() == ["started"] * 3


def test_an_error_for_our_query_raises_with_katagos_message():
    with KataGoEngine(fake("--error", "Illegal move 3: D4")) as engine, pytest.raises(EngineError, match="Illegal move 3: D4"):
        run_all(engine, go_game(MOVES_9))


def test_an_error_without_id_raises():
    with KataGoEngine(fake("--general-error", "could not parse input line as json request")) as engine, pytest.raises(EngineError, match="could not parse input line"):
        run_all(engine, go_game(MOVES_9))


def test_a_warning_is_kept_and_the_analysis_goes_on():
    with KataGoEngine(fake("--warning", "rules not supported by this net, using japanese")) as engine:
        results = run_all(engine, go_game(MOVES_9))
        assert engine.warnings == ["KataGo: rules not supported by this net, using japanese"]
    assert len(results) == len(MOVES_9) + 1


@pytest.mark.parametrize("report_as", ["WHITE", "SIDETOMOVE"])
def test_point_of_view_configured_in_katago_is_turned_to_black(tmp_path, report_as):
    game = go_game(MOVES_9)
    with KataGoEngine(fake()) as engine:
        baseline = {e.ply: e for e in run_all(engine, game)}
    config = tmp_path / "analysis.cfg"
    config.write_text(f"reportAnalysisWinratesAs = {report_as}\n")
    command = fake("--report-as", report_as, "-config", str(config))
    with KataGoEngine(command, report_as=None) as engine:
        assert engine.report_as == report_as
        results = run_all(engine, game)
    assert len(results) == len(baseline)
    for evaluation in results:
        assert same_evaluation(evaluation, baseline[evaluation.ply])


@pytest.mark.parametrize("report_as", ["WHITE", "SIDETOMOVE", "BLACK"])
def test_point_of_view_forced_per_query_is_turned_to_black(tmp_path, report_as):
    game = go_game(MOVES_9)
    with KataGoEngine(fake()) as engine:
        baseline = {e.ply: e for e in run_all(engine, game)}
    log = tmp_path / "log"
    with KataGoEngine(fake("--report-as", "WHITE", "--log", str(log)), report_as=report_as) as engine:
        results = run_all(engine, game)
    assert len(results) == len(baseline)
    assert all(same_evaluation(e, baseline[e.ply]) for e in results)
    query = json.loads(next(line for line in log.read_text().splitlines() if "analyzeTurns" in line))
    assert query["overrideSettings"]["reportAnalysisWinratesAs"] == report_as


def test_stop_terminates_the_query_and_returns_promptly(tmp_path):
    log = tmp_path / "queries.log"
    game = go_game(MOVES_9 * 2)
    stop = threading.Event()
    with KataGoEngine(fake("--delay", "0.3", "--log", str(log))) as engine:
        seen = []
        started = time.monotonic()
        for evaluation in engine.analyse(game, list(range(game.ply_count + 1)), Limit(visits=4), stop):
            seen.append(evaluation)
            stop.set()
        assert time.monotonic() - started < 3
        assert len(seen) == 1
        lines = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        deadline = time.monotonic() + 3
        while not any(q.get("action") == "terminate" for q in lines) and time.monotonic() < deadline:
            time.sleep(0.05)
            lines = [json.loads(line) for line in log.read_text().splitlines()]
        analysis_id = next(q["id"] for q in lines if "analyzeTurns" in q)
        assert any(q.get("action") == "terminate" and q.get("terminateId") == analysis_id for q in lines)
        # The engine is still usable; results of the terminated query are not mixed in.
        again = run_all(engine, go_game(MOVES_9[:2]))
        assert sorted(e.ply for e in again) == [0, 1, 2]


def test_closing_the_generator_early_terminates_too(tmp_path):
    log = tmp_path / "queries.log"
    with KataGoEngine(fake("--delay", "0.2", "--log", str(log))) as engine:
        iterator = engine.analyse(go_game(MOVES_9), list(range(9)), Limit(visits=4), threading.Event())
        next(iterator)
        iterator.close()
        deadline = time.monotonic() + 3
        while '"terminate"' not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert '"terminate"' in log.read_text()


def test_the_same_position_twice_is_asked_once_and_given_to_both_plies(tmp_path):
    log = tmp_path / "queries.log"
    game = go_game(["E5", "C3"])
    game.node_at_ply(2).add_child(Node())
    with KataGoEngine(fake("--log", str(log))) as engine:
        results = run_all(engine, game)
    assert sorted(e.ply for e in results) == [0, 1, 2, 3]
    by_ply = {e.ply: e for e in results}
    assert by_ply[3].score_lead_first == by_ply[2].score_lead_first
    query = json.loads(next(line for line in log.read_text().splitlines() if "analyzeTurns" in line))
    assert query["analyzeTurns"] == [0, 1, 2]


def test_missing_command_is_engine_not_found(tmp_path):
    with pytest.raises(EngineNotFound, match="cannot run KataGo"):
        KataGoEngine([str(tmp_path / "no-such-katago"), "analysis"])


def test_katago_failing_at_start_reports_its_message():
    with pytest.raises(EngineCrashed, match="could not open model file"):
        KataGoEngine(fake("--exit-on-start"))


def test_start_is_bounded_and_says_when_katago_is_tuning(tmp_path):
    lines: list[str] = []
    with pytest.raises(EngineTimeout, match="tuning OpenCL"):
        KataGoEngine(fake("--tuning-file", str(tmp_path / "tune.txt")), start_timeout_s=1.5, on_stderr=lines.append)
    assert any("Performing autotuning" in line for line in lines)


def test_an_engine_silent_too_long_times_out():
    with KataGoEngine(fake("--delay", "5"), idle_timeout_s=0.5) as engine, pytest.raises(EngineTimeout, match="no result"):
        run_all(engine, go_game(MOVES_9[:2]))


def test_chess_games_are_refused():
    with KataGoEngine(fake()) as engine, pytest.raises(ValueError):
        run_all(engine, Game(kind="chess"))



def test_a_program_that_is_not_katagos_analysis_engine_is_told_quickly(monkeypatch):
    """A UCI engine given for Go answers the JSON query with words, never JSON: said within seconds."""
    from reviewer.core.engines import katago
    from reviewer.core.engines.base import EngineUnsuitable

    monkeypatch.setattr(katago, "FOREIGN_ANSWER_WAIT_S", 0.3)
    started = time.monotonic()
    with pytest.raises(EngineUnsuitable, match="did not answer as KataGo's analysis engine"):
        KataGoEngine(fake_engine_command("fake_uci.py", "--garbage"), start_timeout_s=30)
    assert time.monotonic() - started < 10


def test_a_board_katago_is_not_built_for_is_said_in_the_users_terms():
    from reviewer.core.engines.base import EngineUnsuitable

    game = Game(kind="go", board_width=21, board_height=21, first_player="black", komi=7.0)
    with KataGoEngine(fake("--max-board", "19")) as engine, pytest.raises(EngineUnsuitable, match=r"^KataGo plays boards up to 19×19, not 21×21; use --engine builtin$"):
        run_all(engine, game)


# -- ownership and policy maps ----------------------------------------------------------------------


@pytest.mark.parametrize("report_as", ["BLACK", "WHITE", "SIDETOMOVE"])
def test_maps_come_in_black_view_with_rows_from_the_bottom(report_as):
    game = go_game(MOVES_9[:3])
    with KataGoEngine(fake(), report_as=report_as) as engine:
        results = {e.ply: e for e in run_all(engine, game, plies=[2, 3], limit=Limit(visits=4, maps=True))}
    for evaluation in results.values():
        ownership, policy = evaluation.ownership_first, evaluation.policy
        assert ownership is not None and policy is not None and len(ownership) == len(policy) == 81
        # The fake gives Black the left half whoever moves and however it reports.
        for row in range(9):
            assert ownership[row * 9] == pytest.approx(0.9) and ownership[row * 9 + 8] == pytest.approx(-0.9)
        # Its favourite is the top-left point (A9 = row 8, column 0); the illegal bottom-right one is 0.
        assert policy[8 * 9 + 0] == pytest.approx(0.5) and policy[0 * 9 + 8] == 0.0
        assert evaluation.engine_id.endswith("maps")


def test_no_maps_unless_asked(tmp_path):
    log = tmp_path / "queries.log"
    with KataGoEngine(fake("--log", str(log))) as engine:
        (evaluation,) = run_all(engine, go_game(MOVES_9), plies=[1])
    assert evaluation.ownership_first is None and evaluation.policy is None
    assert '"includeOwnership"' not in log.read_text()


def test_a_malformed_map_is_left_out():
    assert map_from_response([0.5] * 80, 9, 9) is None
    assert map_from_response([0.5] * 80 + ["x"], 9, 9) is None
    assert map_from_response("no", 9, 9) is None
    rows_from_top = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    assert map_from_response([v for row in rows_from_top for v in row], 2, 3) == (5.0, 6.0, 3.0, 4.0, 1.0, 2.0)
    assert map_from_response([1.0, -1.0], 2, 1, flip=True) == (-1.0, 1.0)


def test_a_batch_query_reports_each_position_as_katago_answers_it():
    from reviewer.core.formats import game_from_sgf_text
    from reviewer.core.review import analyse_game

    game = game_from_sgf_text("(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cg];B[gc];W[cc];B[eg];W[gg])")
    counts: list[int] = []
    arrived: list[int] = []
    with KataGoEngine(fake("--delay", "0.05")) as engine:
        for _evaluation in analyse_game(game, engine, Limit(visits=8), on_progress=lambda done, *_: counts.append(done)):
            arrived.append(len(counts))
    # one count a position, each before the next position's answer: the bar moves with the work
    assert counts == list(range(8))
    assert arrived == list(range(1, 8))
