"""Engine values are named by the game's first player, not by a colour.

Every value in `Evaluation`/`Candidate` takes the view of `GameSupport.player_order[0]` (White in
chess, Black in Go) and says so in its name (`score_cp_first`, `score_lead_first`, ...). The colour
names they had before (`score_cp_white`, `score_lead_black`, ...) live on only where old caches and
files are read: `reviewer/core/analysis.py` (`Evaluation.from_json`).

Run `pytest -q tests/core/test_first_player_names.py -s` to print the count and where each name is.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from support import lines_by_module, print_count

from reviewer.core.analysis import Candidate, Evaluation
from reviewer.core.cache import AnalysisCache
from reviewer.core.games import game_support

PACKAGE = Path(__file__).resolve().parents[2] / "reviewer"
MAPPING = ("core/analysis.py",)  # reads the former names of caches and files
COLOUR_NAMES = re.compile(r"\b(?:score_cp_white|mate_white|wdl_white|score_lead_black|winrate_black|ownership_black)\b")
MOST_COLOUR_NAMES = 0

# One chess and one Go evaluation as the version before the first-player names wrote them into the
# analysis cache (`json.dumps(evaluation.to_json(), separators=(",", ":"))`).
FORMER_CHESS = (
    '{"ply":7,"kind":"chess","engine_id":"E | nodes=10,multipv=1","score_cp_white":-35,"mate_white":null,'
    '"wdl_white":[10,900,90],"score_lead_black":null,"winrate_black":null,"side_to_move":"black",'
    '"terminal":null,"best_move":"Nf6","pv":["Nf6","Nc3"],"candidates":[{"move":"Nf6","order":0,'
    '"visits":null,"prior":null,"score_cp_white":-35,"mate_white":null,"score_lead_black":null,'
    '"winrate_black":null,"pv":["Nf6","Nc3"]},{"move":"Qh5","order":1,"visits":null,"prior":null,'
    '"score_cp_white":null,"mate_white":-3,"score_lead_black":null,"winrate_black":null,"pv":["Qh5"]}],'
    '"depth":12,"nodes":1000,"seconds":null,"review_pass":null,"ownership_black":null,"policy":null}'
)
FORMER_GO = (
    '{"ply":3,"kind":"go","engine_id":"KataGo | visits=8,multipv=1,maps","score_cp_white":null,'
    '"mate_white":null,"wdl_white":null,"score_lead_black":2.5,"winrate_black":0.61,'
    '"side_to_move":"white","terminal":null,"best_move":"C3","pv":["C3"],"candidates":[{"move":"C3",'
    '"order":0,"visits":6,"prior":0.4,"score_cp_white":null,"mate_white":null,"score_lead_black":2.5,'
    '"winrate_black":0.61,"pv":["C3"]}],"depth":null,"nodes":8,"seconds":null,"review_pass":2,'
    '"ownership_black":[0.5,-0.25,1.0,-1.0],"policy":[0.1,0.2,0.3,0.4]}'
)
CHESS = Evaluation(
    ply=7,
    kind="chess",
    engine_id="E | nodes=10,multipv=1",
    score_cp_first=-35,
    wdl_first=(10, 900, 90),
    side_to_move="black",
    best_move="Nf6",
    pv=("Nf6", "Nc3"),
    candidates=(
        Candidate(move="Nf6", order=0, score_cp_first=-35, pv=("Nf6", "Nc3")),
        Candidate(move="Qh5", order=1, mate_first=-3, pv=("Qh5",)),
    ),
    depth=12,
    nodes=1000,
)
GO = Evaluation(
    ply=3,
    kind="go",
    engine_id="KataGo | visits=8,multipv=1,maps",
    score_lead_first=2.5,
    winrate_first=0.61,
    side_to_move="white",
    best_move="C3",
    pv=("C3",),
    candidates=(Candidate(move="C3", order=0, visits=6, prior=0.4, score_lead_first=2.5, winrate_first=0.61, pv=("C3",)),),
    nodes=8,
    review_pass=2,
    ownership_first=(0.5, -0.25, 1.0, -1.0),
    policy=(0.1, 0.2, 0.3, 0.4),
)


def colour_names(package: Path = PACKAGE) -> dict[str, list[int]]:
    """Each module of `package` outside the mapping with the lines that name a value by a colour."""
    return lines_by_module(package, lambda path: [number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                                                  for _ in COLOUR_NAMES.finditer(line)],
                           lambda relative: relative in MAPPING)


def test_the_counter_sees_each_colour_name(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "analysis.py").write_text('FORMER = {"score_cp_white": "score_cp_first"}\n')
    (tmp_path / "view.py").write_text(
        "a = e.score_cp_white + e.mate_white\n"
        "b = getattr(e, 'winrate_black')  # wdl_white\n"
        "c = e.score_lead_black, e.ownership_black\n"
        "d = move_winrate_black, e.score_cp_first, lead_black\n"
    )
    assert colour_names(tmp_path) == {"view.py": [1, 1, 2, 2, 3, 3]}


def test_colour_named_values_do_not_come_back() -> None:
    count = print_count(colour_names(), f"colour-named engine values in reviewer/ outside {', '.join(MAPPING)}")
    assert count <= MOST_COLOUR_NAMES, "a value named by a colour: name it by the first player (score_cp_first, ...)"


def test_an_evaluation_written_with_the_former_colour_names_loads() -> None:
    assert Evaluation.from_json(json.loads(FORMER_CHESS)) == CHESS
    assert Evaluation.from_json(json.loads(FORMER_GO)) == GO


def test_an_evaluation_round_trips_under_the_first_player_names() -> None:
    for evaluation in (CHESS, GO):
        stored = json.loads(json.dumps(evaluation.to_json()))
        assert not COLOUR_NAMES.search(json.dumps(stored))
        assert Evaluation.from_json(stored) == evaluation


def test_a_cache_the_former_version_wrote_still_serves_its_positions(tmp_path):
    path = tmp_path / "analysis.sqlite"
    with AnalysisCache(path) as cache:
        cache.put("fresh", CHESS.engine_id, CHESS)
    with sqlite3.connect(path) as connection:
        connection.executemany(
            "INSERT INTO evaluations VALUES (?, ?, ?, 0)",
            [("old chess", CHESS.engine_id, FORMER_CHESS), ("old go", GO.engine_id, FORMER_GO)],
        )
    with AnalysisCache(path) as reopened:
        assert reopened.get("old chess", CHESS.engine_id) == CHESS
        assert reopened.get("old go", GO.engine_id) == GO
        assert reopened.get("fresh", CHESS.engine_id) == CHESS
        assert reopened.warning is None


def test_each_game_names_its_value_field_by_the_first_player() -> None:
    for kind in ("chess", "go"):
        support = game_support(kind)
        assert support.scores.field.endswith("_first")
        assert support.player_order[0] == support.first_player
