"""The table of benchmarks/engine_agreement.py's `review`: stored labels counted against the reference's."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def _agreement_module():
    spec = importlib.util.spec_from_file_location("engine_agreement", REPO_ROOT / "benchmarks" / "engine_agreement.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


REFERENCE = {
    "a.sgf": {1: ("best", 0.0), 2: ("mistake", 7.0), 3: ("blunder", 15.0), 4: ("good", 1.0)},
    "b.sgf": {1: ("mistake", 6.5), 2: ("good", 0.5)},
}
BOARDS = {"a.sgf": 19, "b.sgf": 19}


def _slice(file: str, labels: dict, fast: dict | None = None, wall_s: float = 10.0, searched: int = 7) -> dict:
    item = {"file": file, "wall_s": wall_s, "positions_searched": searched, "load": [1.0, 1.0],
            "passes": [{"index": 1, "positions": 5}, {"index": 2, "positions": searched - 5}], "labels": labels}
    if fast is not None:
        item |= {"fast_labels": fast, "fast_wall_s": 1.5}
    return item


def test_rows_count_recall_precision_and_equal_labels_over_the_moves_both_hold():
    agreement = _agreement_module()
    results = {"settings": {
        "passes": {"slices": [
            _slice("a.sgf", {"1": ["best", 0], "2": ["mistake", 6.2], "3": ["good", 1.0], "4": ["mistake", 6.0]},
                   fast={"1": ["good", 1], "2": ["blunder", 13], "3": ["blunder", 14], "4": ["good", 0.2]}),
            _slice("b.sgf", {"1": ["blunder", 20], "2": ["good", 0.4], "3": ["mistake", 9]},
                   fast={"1": ["good", 1], "2": ["good", 0.4]}, wall_s=5.0, searched=6),
            _slice("left-out.sgf", {"1": ["mistake", 9]}),
        ]},
    }}
    rows = agreement.review_rows(REFERENCE, BOARDS, results)
    passes, fast = rows[19]
    assert passes["setting"] == "passes" and fast["setting"] == "fast"
    # a.sgf: moves 1 and 2 equal, 2 found, 3 missed, 4 flagged wrongly; b.sgf: 1 found (blunder for
    # mistake counts), 2 equal; b's move 3 is not in the reference and not counted.
    assert passes["moves"] == 6
    assert passes["agreement"] == 3 / 6
    assert (passes["serious_hit"], passes["reference_serious"], passes["flagged_serious"]) == (2, 3, 3)
    assert passes["recall_serious"] == 2 / 3 and passes["precision_serious"] == 2 / 3
    assert passes["wall_s"] == 15.0 and passes["searched"] == 13
    assert (fast["serious_hit"], fast["reference_serious"], fast["flagged_serious"]) == (2, 3, 2)
    assert fast["wall_s"] == 3.0 and fast["searched"] == 10
    assert fast["agreement"] == 3 / 6  # a.sgf 3 and 4, b.sgf 2


def test_table_prints_counts_next_to_ratios_and_a_dash_when_nothing_was_flagged():
    agreement = _agreement_module()
    results = {"settings": {"uniform32": {"slices": [_slice("b.sgf", {"1": ["good", 2], "2": ["good", 0.4]})]}}}
    lines = agreement.format_review_table(19, agreement.review_rows(REFERENCE, BOARDS, results)[19])
    assert lines[0] == "19x19"
    assert lines[3] == "| uniform 32 visits | 10 | 7 | 2 | 50% | 0% (0/1) | — (0/0) | 1 |"


def test_only_reference_slices_deeper_than_the_review_are_compared():
    agreement = _agreement_module()
    stored = {"engine": "KataGo", "slices": [{"file": "a.sgf", "visits": 32}, {"file": "b.sgf", "visits": 64}]}
    assert [x["file"] for x in agreement.deep_enough(stored, 64)["slices"]] == ["b.sgf"]
    assert stored["slices"][0]["file"] == "a.sgf"  # the stored reference is left as it was
