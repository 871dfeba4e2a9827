"""How often code outside the games layer asks "is this chess or Go?" instead of asking the game.

Run `pytest -q tests/core/test_kind_switches.py -s` to print the count and where each switch is.
The games layer (`reviewer/core/games/`), the file readers (`reviewer/core/formats/`) and the board
widgets (`reviewer/gui/board/`) are where knowing the game is their job; everywhere else a switch
on the kind is a place a third game would silently take the chess or the Go branch.
"""

from __future__ import annotations

import ast
from pathlib import Path

from support import lines_by_module, print_count

PACKAGE = Path(__file__).resolve().parents[2] / "reviewer"
EXEMPT = ("core/games/", "core/formats/", "gui/board/")
GAME_NAMES = frozenset({"chess", "go"})
# None left: the windows find a game's board through the board views' registry (gui/board/views.py).
MOST_SWITCHES = 0


def _names_a_game(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(element) for element in node.elts)
    return False


def _kind_like(node: ast.AST) -> bool:
    return "kind" in ast.unparse(node).lower()


def _pattern_names_a_game(pattern: ast.pattern) -> bool:
    if isinstance(pattern, ast.MatchValue):
        return _names_a_game(pattern.value)
    if isinstance(pattern, ast.MatchOr):
        return any(_pattern_names_a_game(option) for option in pattern.patterns)
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        return _pattern_names_a_game(pattern.pattern)
    return False


def switches_in(tree: ast.AST) -> list[int]:
    """The line of each switch on the game kind: a comparison or membership test of a kind-like
    expression with "chess"/"go", a `match` on a kind with a case naming one, a lookup keyed by
    "chess"/"go" (`table["go"]`, `.get("chess")`) and a dict literal with a game as a key."""
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_a_game(operand) for operand in operands) and any(
                _kind_like(operand) for operand in operands if not _names_a_game(operand)
            ):
                lines.append(node.lineno)
        elif isinstance(node, ast.Match):
            if _kind_like(node.subject) and any(_pattern_names_a_game(case.pattern) for case in node.cases):
                lines.append(node.lineno)
        elif isinstance(node, ast.Subscript):
            if _names_a_game(node.slice):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args and _names_a_game(node.args[0]):
                lines.append(node.lineno)
        elif isinstance(node, ast.Dict) and any(key is not None and _names_a_game(key) for key in node.keys):
            lines.append(node.lineno)
    return sorted(lines)


def kind_switches(package: Path = PACKAGE) -> dict[str, list[int]]:
    """Each module outside the games layer, the readers and the board widgets with the lines of its switches."""
    return lines_by_module(package, lambda path: switches_in(ast.parse(path.read_text(encoding="utf-8"))),
                           lambda relative: relative.startswith(EXEMPT))


def test_the_counter_sees_each_form_of_switch() -> None:
    source = '''
a = "x" if game.kind == "go" else "y"
b = kind in ("chess", "go")
c = {"chess": 1, "go": 2}[kind]
d = table["go"]
e = table.get("chess")
match self.kind:
    case "go":
        pass
f = protocol == "uci"
g = name == "go"
'''
    assert switches_in(ast.parse(source)) == [2, 3, 4, 5, 6, 7]


def test_switches_on_the_kind_do_not_come_back() -> None:
    count = print_count(kind_switches(), "switches on the game kind outside core/games, core/formats, gui/board")
    assert count <= MOST_SWITCHES, "a new switch on the game kind: ask the game's support object instead"
