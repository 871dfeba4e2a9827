"""KataGo's process may start in the background (the engine lines): the network's first visits
answer at once, in-process, and a start that fails is raised by the first search that needs it."""

from __future__ import annotations

import threading

import pytest
from support import fake_engine_command

from reviewer.core.analysis import Limit
from reviewer.core.engines.base import EngineError
from reviewer.core.engines.install import installed_katago
from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.formats import load_game


def test_a_start_that_fails_in_the_background_is_raised_by_the_first_search_that_needs_it(corpus_dir):
    engine = KataGoEngine(fake_engine_command("fake_katago.py", "--exit-on-start"), start_in_background=True, version="1.18.1")
    try:
        assert engine.identity == "KataGo 1.18.1"  # from discovery, before KataGo answers
        game = load_game(corpus_dir / "sgf" / "sabaki__endgame-9.sgf")
        with pytest.raises(EngineError):
            list(engine.analyse(game, [0], Limit(visits=50), threading.Event()))
    finally:
        engine.close()


@pytest.mark.engine
def test_the_first_visits_answer_while_katago_is_still_starting(corpus_dir, tmp_path):
    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo is not installed: run `reviewer engines install`")
    # This KataGo never finishes starting (it "tunes" for ever): whatever answers comes from the network.
    command = fake_engine_command("fake_katago.py", "--tuning-file", str(tmp_path / "never"),
                                  "-model", str(installed.model_path(None)))
    engine = KataGoEngine(command, start_in_background=True, version="1.18.1")
    try:
        game = load_game(corpus_dir / "sgf" / "sabaki__endgame-9.sgf")
        (first,) = engine.analyse(game, [4], Limit(visits=2), threading.Event())
        assert first.ply == 4 and first.candidates  # the network's answer
        assert first.engine_id.startswith("KataGo 1.18.1 ")
    finally:
        engine.close()
