"""How often code outside the game and engine layer reads an engine capability or an engine's
identity as the game's identity: `"builtin" in support.engine_protocols` for "this is Go",
`identity.startswith("builtin-go")` for "the built-in engine ran", `identity_prefixes=("builtin-go ",)`.

Run `pytest -q tests/core/test_capability_stand_ins.py -s` to print the count and where each is.
Such a stand-in asks one question to mean another: a third game whose engines speak the same
protocol, or an engine whose name changes, silently takes the wrong branch. Ask the question meant,
of the game's support object (`fallback_engine`, `is_fallback_identity`, `is_usual_identity`,
`preloads_network`) or of the engine registry (`board_beyond_usual_engine`, `import_fallback_engines`).
"""

from __future__ import annotations

import ast
from pathlib import Path

from support import lines_by_module, print_count

PACKAGE = Path(__file__).resolve().parents[2] / "reviewer"
# The games layer says what each game's engines are; the modules of one engine know their own name.
EXEMPT = ("core/games/", "core/engines/builtin_go/", "core/engines/katago", "core/engines/uci.py")
# How the engines' identities begin ("builtin-go 1.0 rave seed=0 …", "KataGo 1.18.1 …", "Stockfish 16").
IDENTITY_STARTS = ("builtin-go", "KataGo", "Stockfish")
MOST_STAND_INS = 0


def _is_identity_text(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.startswith(IDENTITY_STARTS)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_identity_text(element) for element in node.elts)
    return False


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _reads_protocols(node: ast.AST, aliases: set[str]) -> bool:
    return "engine_protocols" in ast.unparse(node) or (isinstance(node, ast.Name) and node.id in aliases)


def _protocol_aliases(tree: ast.AST) -> set[str]:
    """The names given a game's protocols (`protocols = game_support(kind).engine_protocols`)."""
    return {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and "engine_protocols" in ast.unparse(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def stand_ins_in(tree: ast.AST) -> list[int]:
    """The line of each stand-in: a comparison or membership test of an engine protocol named as
    text with a game's `engine_protocols`; a comparison with, or `startswith`/`removeprefix` of, the
    start of an engine's identity ("builtin-go", "KataGo"); a keyword argument that passes one."""
    aliases = _protocol_aliases(tree)
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            protocols = any(_is_text(operand) for operand in operands) and any(
                _reads_protocols(operand, aliases) for operand in operands
            )
            if protocols or any(_is_identity_text(operand) for operand in operands):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in {"startswith", "removeprefix"} and any(
                _is_identity_text(argument) for argument in node.args
            ):
                lines.append(node.lineno)
            lines += [keyword.value.lineno for keyword in node.keywords if _passes_identity_text(keyword.value)]
    return sorted(set(lines))


def _passes_identity_text(node: ast.AST) -> bool:
    if isinstance(node, ast.IfExp):
        return _passes_identity_text(node.body) or _passes_identity_text(node.orelse)
    return _is_identity_text(node) and not isinstance(node, ast.Constant)


def stand_ins(package: Path = PACKAGE) -> dict[str, list[int]]:
    """Each module outside the game and engine layer with the lines of its stand-ins."""
    return lines_by_module(package, lambda path: stand_ins_in(ast.parse(path.read_text(encoding="utf-8"))),
                           lambda relative: relative.startswith(EXEMPT))


def test_the_counter_sees_each_form_of_stand_in() -> None:
    source = '''
a = "builtin" in game_support(kind).engine_protocols
b = "katago" not in presentation(kind).engine_protocols
c = support.engine_protocols[0] == "uci"
d = identity.startswith("builtin-go")
e = best_cached_analysis(game, ids, limit, identity_prefixes=("builtin-go ",) if builtin else ())
f = "Built-in" if words[0] == "builtin-go" else words[0]
g = engine_id.startswith("KataGo")
h = protocol in support.engine_protocols
i = support.is_fallback_identity(identity)
j = log.warning("KataGo does not start")
k = identity.startswith(support.fallback_identity_prefix)
protocols = support.engine_protocols
m = "builtin" in protocols
'''
    assert stand_ins_in(ast.parse(source)) == [2, 3, 4, 5, 6, 7, 8, 14]


def test_capabilities_are_not_read_as_the_game() -> None:
    count = print_count(stand_ins(), "capability flags or engine identities read as the game outside core/games and one engine's modules")
    assert count <= MOST_STAND_INS, "ask the game's support object or the engine registry the question meant"
