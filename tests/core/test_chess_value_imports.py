"""How many modules that are not chess's own call chess's value functions (`normalised_cp_white`,
`win_pct`) instead of asking the game's support object (`position_value`, `mover_value`,
`eval_bar_share`), which a third game answers with its own.

Run `pytest -q tests/core/test_chess_value_imports.py -s` to print the count and where each is.
"""

from __future__ import annotations

import ast
from pathlib import Path

from support import lines_by_module, print_count

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("reviewer", "benchmarks")
CHESS_VALUES = "reviewer.core.scoring.chess"
NAMES = frozenset({"normalised_cp_white", "win_pct"})
# Chess's own modules, where knowing chess's values is their job.
CHESS_ONLY = (
    "reviewer/core/scoring/chess",  # the module itself (and any chess_*.py beside it)
    "reviewer/core/games/",  # the games layer registers them
    "reviewer/core/explain/chess.py",
    "reviewer/core/export/pgn.py",
    "reviewer/core/engines/uci.py",
    "reviewer/core/formats/pgn",
    "reviewer/gui/board/chess_",
    "benchmarks/chess_",
)
MOST_USES = 0


def uses_in(tree: ast.AST) -> list[int]:
    """The line of each use of chess's value functions: `from reviewer.core.scoring.chess import
    win_pct`, and `win_pct` read off the module however it was imported (`scoring.chess.win_pct`,
    `from reviewer.core.scoring import chess`, `import reviewer.core.scoring.chess as c`)."""
    package, _, leaf = CHESS_VALUES.rpartition(".")
    module_names: set[str] = set()
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == CHESS_VALUES:
            lines += [node.lineno for alias in node.names if alias.name in NAMES]
        elif isinstance(node, ast.ImportFrom) and node.module == package:
            module_names |= {alias.asname or alias.name for alias in node.names if alias.name == leaf}
        elif isinstance(node, ast.Import):
            module_names |= {alias.asname for alias in node.names if alias.name == CHESS_VALUES and alias.asname}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in NAMES:
            owner = ast.unparse(node.value)
            if owner in module_names or owner == CHESS_VALUES:
                lines.append(node.lineno)
    return sorted(lines)


def uses_outside_chess() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for folder in SCANNED:
        found |= lines_by_module(ROOT / folder, lambda path: uses_in(ast.parse(path.read_text(encoding="utf-8"))),
                                 lambda relative: relative.startswith(CHESS_ONLY), base=ROOT)
    return found


def test_the_counter_sees_each_form_of_use() -> None:
    source = """
from reviewer.core.scoring.chess import normalised_cp_white, assess_chess
from reviewer.core.scoring.chess import win_pct as curve
from reviewer.core.scoring import chess as chess_scoring
import reviewer.core.scoring.chess
import reviewer.core.scoring.chess as c
a = chess_scoring.win_pct(100)
b = reviewer.core.scoring.chess.normalised_cp_white(evaluation)
d = c.win_pct(0)
e = chess.win_pct  # python-chess, or anything else named chess: not chess's scoring
f = c.assess_chess
"""
    assert uses_in(ast.parse(source)) == [2, 3, 7, 8, 9]


def test_only_chess_calls_chess_values() -> None:
    count = print_count(uses_outside_chess(), f"uses of {CHESS_VALUES}'s {' / '.join(sorted(NAMES))} outside chess's own")
    assert count <= MOST_USES, "ask game_support(kind) for the value (position_value, mover_value, eval_bar_share) instead"
