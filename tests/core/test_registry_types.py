"""The game registry's types: no `Any` in the public annotations of the support object's module, and
every reference a registered game names resolves to something of the type its field declares.

Run `pytest -q tests/core/test_registry_types.py -s` to print the count of `Any` and where each is.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from reviewer.core.explain.common import Threat
from reviewer.core.games import facets, register_game, registered_games, unregister_game
from reviewer.core.games.setup import PositionSetup
from reviewer.core.games.support import GameSupport, OpponentStrength, RatingScale, Ref, ScoreUnits, is_position_setup
from tests.games.connect_four import KIND, SUPPORT

GAMES = Path(__file__).resolve().parents[2] / "reviewer" / "core" / "games"
# The modules whose public names are the registry's public types.
REGISTRY_MODULES = ("support.py", "facets.py")
# Where a reference names an object rather than a function: how it is known at run time.
VALUE_TYPES: dict[str, type] = {"str": str, "PositionSetup": PositionSetup, "Threat": Threat}


def _names_any(annotation: ast.expr | None) -> list[int]:
    """The line of each `Any` in an annotation (`Any`, `typing.Any`, inside a string too)."""
    if annotation is None:
        return []
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        inner = ast.parse(annotation.value, mode="eval").body
        return [annotation.lineno for _ in _names_any(inner)]
    lines = []
    for node in ast.walk(annotation):
        if (isinstance(node, ast.Name) and node.id == "Any") or (isinstance(node, ast.Attribute) and node.attr == "Any"):
            lines.append(annotation.lineno)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node is not annotation:
            lines += [annotation.lineno for _ in _names_any(node)]
    return lines


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _function_annotations(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr | None]:
    arguments = function.args
    for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg):
        if argument is not None:
            yield argument.annotation
    yield function.returns


def _alias_values(node: ast.Assign | ast.AnnAssign) -> Iterator[ast.expr]:
    """A public type alias's value (`WriteGame = Callable[...]`): its strings are annotations too."""
    if node.value is not None and isinstance(node.value, ast.Subscript | ast.BinOp | ast.Name | ast.Attribute):
        yield node.value


def any_in_public_annotations(tree: ast.Module) -> list[int]:
    """The line of each `Any` in an annotation of a public name: a public function's or method's
    parameters and return, a public class's fields, a public module-level name or type alias."""
    lines: list[int] = []

    def visit(body: list[ast.stmt], in_class: bool) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _public(node.name):
                for annotation in _function_annotations(node):
                    lines.extend(_names_any(annotation))
            elif isinstance(node, ast.ClassDef) and _public(node.name):
                lines.extend(line for base in node.bases for line in _names_any(base))
                visit(node.body, in_class=True)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _public(node.target.id):
                lines.extend(_names_any(node.annotation))
                if not in_class:
                    lines.extend(line for value in _alias_values(node) for line in _names_any(value))
            elif isinstance(node, ast.Assign) and not in_class and any(
                isinstance(target, ast.Name) and _public(target.id) for target in node.targets
            ):
                lines.extend(line for value in _alias_values(node) for line in _names_any(value))
            elif isinstance(node, ast.If):  # `if TYPE_CHECKING:` and the like
                visit(node.body, in_class)
                visit(node.orelse, in_class)

    visit(tree.body, in_class=False)
    return sorted(lines)


def test_the_counter_sees_each_place_of_any() -> None:
    source = '''
from typing import Any
import typing
def f(a: Any, *b: int, c: "dict[str, Any]" = None, **d: typing.Any) -> list[Any]: ...
def _private(a: Any) -> Any: ...
class C:
    x: Any
    _y: Any
    def m(self) -> "Any": ...
    def _n(self) -> Any: ...
Alias = Callable[[Any], int]
Quoted = Callable[["Any"], int]
z: Any = 1
class _Hidden:
    x: Any
'''
    assert any_in_public_annotations(ast.parse(source)) == [4, 4, 4, 4, 7, 9, 11, 12, 13]


def test_the_registry_names_no_any() -> None:
    found = {
        name: lines
        for name in REGISTRY_MODULES
        if (lines := any_in_public_annotations(ast.parse((GAMES / name).read_text(encoding="utf-8"))))
    }
    count = sum(len(lines) for lines in found.values())
    print(f"\n{count} Any in the public annotations of reviewer/core/games/{{{', '.join(REGISTRY_MODULES)}}}")
    for name, lines in found.items():
        print(f"  {name}: lines {lines}")
    assert count == 0


def test_the_higher_layers_types_are_named_for_the_type_checker_only() -> None:
    """`facets` names the types of layers above the games layer (the layers contract ignores those
    imports): each only under `if TYPE_CHECKING:`, so nothing above is imported at run time."""
    tree = ast.parse((GAMES / "facets.py").read_text(encoding="utf-8"))
    below = ("reviewer.core.games", "reviewer.core.analysis", "reviewer.core.gametree")
    at_run_time = [
        node.module for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("reviewer")
        and not node.module.startswith(below)
    ]
    assert at_run_time == []
    checked = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    assert checked and all(isinstance(node, ast.ImportFrom) for block in checked for node in block.body)


# -- every reference of every registered game resolves to its declared type ---------------------------


@pytest.fixture
def every_game() -> Iterator[tuple[GameSupport, ...]]:
    register_game(SUPPORT)
    try:
        yield registered_games()
    finally:
        unregister_game(KIND)


def _references(owner: object) -> Iterator[tuple[str, str, Ref[object]]]:
    """(field, declared type, reference) of each reference a support object (and its parts) names."""
    for field in dataclasses.fields(owner):  # type: ignore[arg-type]
        value = getattr(owner, field.name)
        if isinstance(value, ScoreUnits | RatingScale | OpponentStrength):
            yield from _references(value)
            continue
        declared = re.search(r"Ref\[(\w+)\]", str(field.type))
        if declared is None:
            continue
        references = value.values() if isinstance(value, Mapping) else [value]
        for reference in references:
            if reference:
                yield field.name, declared.group(1), reference


def _required_arguments(declared: object) -> tuple[int, list[str]] | None:
    """How many positional arguments, and which keyword-only ones, a call of the declared function
    type passes: `Callable[[A, B], R]` two; a protocol's `__call__` its parameters without default."""
    if typing.get_origin(declared) is not None:  # Callable[[...], R]
        parameters = typing.get_args(declared)[0]
        return len(parameters), []
    if not inspect.isclass(declared) or "__call__" not in vars(declared):  # a protocol of one call
        return None
    signature = inspect.signature(vars(declared)["__call__"])
    positional = [p for p in list(signature.parameters.values())[1:] if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty]
    keywords = [p.name for p in signature.parameters.values() if p.kind is p.KEYWORD_ONLY and p.default is p.empty]
    return len(positional), keywords


def test_every_reference_of_every_game_resolves_to_its_declared_type(every_game: tuple[GameSupport, ...]) -> None:
    assert [support.kind for support in every_game] == ["chess", "go", KIND]
    checked = 0
    for support in every_game:
        for field_name, declared_name, reference in _references(support):
            where = f"{support.kind}.{field_name} = {reference.text}"
            value = reference.get()  # checked as it is imported (a function, or what the reference promises)
            if declared_name in VALUE_TYPES:
                assert isinstance(value, VALUE_TYPES[declared_name]), where
            else:
                declared = getattr(facets, declared_name)
                arguments = _required_arguments(declared)
                assert arguments is not None, f"{declared_name} is not a function type"
                positional, keywords = arguments
                try:
                    inspect.signature(value).bind(*range(positional), **dict.fromkeys(keywords))
                except TypeError as error:
                    raise AssertionError(f"{where} cannot be called as {declared_name}: {error}") from None
            checked += 1
    assert checked >= 55  # chess's and Go's two dozen each, Connect Four's dozen


def test_a_reference_to_the_wrong_kind_of_thing_says_which() -> None:
    with pytest.raises(TypeError, match=r"'reviewer.core.games.chess:RULES' names ChessRules .*, not a function"):
        Ref("reviewer.core.games.chess:RULES").get()
    with pytest.raises(TypeError, match=r"names function .*, not a PositionSetup"):
        wrong = Ref("reviewer.core.games.chess:fen_after", is_position_setup, "a PositionSetup")
        _ = dataclasses.replace(registered_games()[0], setup_ref=wrong).position_setup
    with pytest.raises(ValueError, match="names no default_passes_ref"):
        dataclasses.replace(registered_games()[0], default_passes_ref=Ref("")).default_passes()
    assert not Ref("") and Ref("a:b") == Ref("a:b")
