"""The Qt-free presenters: analysis state, messages, problems at a move, the verdict sentence."""

from __future__ import annotations

from reviewer.core.analysis import Evaluation
from reviewer.core.coverage import Coverage
from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.scoring import MoveAssessment
from reviewer.gui.presenters.analysis_state import AnalysisState, clock, state_text
from reviewer.gui.presenters.messages import Message, MessageLog, game_warning
from reviewer.gui.presenters.move_problems import problem_plies
from reviewer.gui.presenters.verdict import verdict

PARTIAL = Coverage("Stockfish 16.1 | nodes=1000,multipv=1", 24, 69, 23, 68, missing_plies=tuple(range(24, 69)))
COMPLETE = Coverage("Stockfish 16.1 | nodes=1000,multipv=1", 69, 69, 68, 68)


def test_every_state_of_the_analysis_has_words():
    running = AnalysisState().running(12, 69, 21.4)
    assert state_text(running, PARTIAL) == "Analysing… 12 of 69 positions · ETA 0:21"
    assert state_text(AnalysisState().running(0, 69, None), None) == "Analysing… 0 of 69 positions · ETA …"
    assert state_text(running.finished(False), PARTIAL) == "Stopped · analysed 23 of 68 moves"
    assert state_text(running.finished(True), COMPLETE) == "Done · all 68 moves analysed"
    failed = running.failed("no chess engine found")
    assert state_text(failed, None) == "Failed: no chess engine found"
    assert failed.finished(False).phase == "failed"  # the reason is not overwritten by the end
    assert state_text(AnalysisState(), None) == "Not analysed"
    assert state_text(AnalysisState(), PARTIAL) == "Analysed 23 of 68 moves"  # e.g. from the cache
    assert clock(3723) == "1:02:03" and clock(None) == "?"


def test_messages_stay_until_dismissed_and_game_ones_go_with_the_game():
    log = MessageLog()
    assert log.add(game_warning(0, "illegal move"))
    assert not log.add(game_warning(0, "illegal move"))  # once
    log.add(Message("engine", "error", "no chess engine found", ("locate-engine",), scope="app"))
    log.add(Message("game:cache", "info", "12 positions from the cache"))
    assert [m.text for m in log.messages] == ["illegal move", "no chess engine found", "12 positions from the cache"]
    log.dismiss("engine")
    assert not log.add(Message("engine", "error", "no chess engine found", scope="app"))  # dismissed stays dismissed
    log.replace(Message("engine", "error", "still no chess engine", scope="app"))  # a new state shows again
    log.new_game()
    assert [m.text for m in log.messages] == ["still no chess engine"]


def test_an_unreadable_move_is_marked_at_the_last_move_read():
    game = game_from_pgn_text('[White "a"]\n[Black "b"]\n\n1. e4 e5 2. Nf3 Qxf3 3. Bb5 *\n')
    assert game.ply_count == 3
    problems = problem_plies(game)
    assert list(problems) == [3]
    assert "Qxf3" in problems[3][0] and problems[3][0].startswith("After this move")
    white_side = game_from_pgn_text('[White "a"]\n[Black "b"]\n\n1. e4 e5 2. Qxf7 *\n')
    assert list(problem_plies(white_side)) == [2]


def chess_move(judgement: str, loss: float, best: str | None = "Nf3", move: str = "e4") -> MoveAssessment:
    return MoveAssessment(ply=5, color="white", move=move, best=best, judgement=judgement, loss=loss, eval_before=30, eval_after=30 - loss)  # type: ignore[arg-type]


def test_a_best_move_is_never_said_to_lose_centipawns():
    before = Evaluation(ply=4, kind="chess", score_cp_first=30)
    after = Evaluation(ply=5, kind="chess", score_cp_first=-473)
    said = verdict("chess", chess_move("best", 503.0, best="e4"), before, after)
    assert said is not None and said.title == "Best move" and said.best is None
    assert "lost" not in said.detail and "engine's own choice" in said.detail and "5.03" in said.detail
    mistake = verdict("chess", chess_move("mistake", 120.0), before, Evaluation(ply=5, kind="chess", score_cp_first=-90))
    assert mistake is not None and mistake.detail == "120 cp lost." and mistake.best == "Nf3"
    assert verdict("chess", chess_move("best", 4.0, best="e4"), before, before).detail == ""  # type: ignore[union-attr]


def test_the_verdict_keeps_the_mate_distance():
    before = Evaluation(ply=4, kind="chess", mate_first=3)
    after = Evaluation(ply=5, kind="chess", mate_first=-2)
    said = verdict("chess", chess_move("blunder", 2000.0), before, after)
    assert said is not None and said.change == "(#3 → #-2)"


def test_a_variation_analysed_live_says_its_figures_when_shown_again():
    from reviewer.core.analysis import Candidate
    from reviewer.core.services.live import LiveUpdate
    from reviewer.core.services.review_model import ReviewModel
    from reviewer.gui.presenters.comment import comment_html

    model = ReviewModel()
    model.load_game(game_from_pgn_text("1. e4 e5 2. Nf3 Nc6 *"))
    model.set_current_ply(2)
    variation = model.play_move("Bc4")
    assert variation is not None and not variation.is_mainline
    assert "Engine" not in comment_html(model, variation)
    verdict_there = Evaluation(ply=3, kind="chess", engine_id="Stockfish|nodes=50000", score_cp_first=31, best_move="Nf6",
                               pv=("Nf6", "d3"), candidates=(Candidate("Nf6", 0, score_cp_first=31),), nodes=50_000)
    model.set_live_lines(variation, LiveUpdate(variation, verdict_there, 2, 1.0, True))
    model.set_current_ply(4)
    model.set_current_node(variation)
    assert model.live_lines is None  # nothing live on show any more: what the comment says is the node's own
    text = comment_html(model, variation)
    assert "Engine +0.31" in text and "2… Nf6 3. d3" in text and "live · 50,000 nodes" in text


def test_visits_are_counted_in_words_a_player_reads():
    from reviewer.gui.presenters.text import visits_text

    assert [visits_text(n) for n in (1, 2, 24, 1234)] == ["1 visit", "2 visits", "24 visits", "1,234 visits"]
    assert visits_text(1, short=True) == "1 visit" and visits_text(1234, short=True) == "1.2k visits"


def test_the_start_of_a_game_without_moves_says_how_to_begin_not_to_step_through_it():
    from reviewer.core.formats import game_from_sgf_text
    from reviewer.core.services.review_model import ReviewModel
    from reviewer.gui.presenters.comment import comment_html

    model = ReviewModel()
    model.load_game(game_from_sgf_text("(;GM[1]FF[4]SZ[9]KM[6.5]PL[B]AB[cc][dc]AW[cd][dd])"))  # a problem: AB/AW only
    text = comment_html(model, model.game.root)
    assert "step through" not in text and "No moves yet" in text and "press L" in text
    model.load_game(game_from_sgf_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc])"))
    assert "Press → to step through the game" in comment_html(model, model.game.root)
