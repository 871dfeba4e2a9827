"""Every module of the package has a place in a layers contract of import-linter.

A module is placed when it, or a package above it, is named in a layers contract (`lint-imports`
then checks what it may import). A package whose own `__init__` imports nothing of the package is
placed when everything inside it is.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "reviewer"


def contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return found


def layered_names() -> set[str]:
    named: set[str] = set()
    for contract in contracts():
        if contract["type"] != "layers":
            continue
        for layer in contract["layers"]:  # type: ignore[attr-defined]
            for name in str(layer).replace("|", ":").split(":"):
                named.add(name.strip().strip("()"))
    return named


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports_from_package(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(PACKAGE)):
            return True
        if isinstance(node, ast.Import) and any(alias.name.startswith(PACKAGE) for alias in node.names):
            return True
    return False


def unplaced_modules() -> list[str]:
    named = layered_names()
    found = modules()

    def named_or_below_named(module: str) -> bool:
        parts = module.split(".")
        return any(".".join(parts[:end]) in named for end in range(1, len(parts) + 1))

    def placed(module: str) -> bool:
        if named_or_below_named(module):
            return True
        inside = [other for other in found if other.startswith(module + ".")]
        if not inside or imports_from_package(found[module]):
            return False
        return all(placed(other) for other in inside)

    return [module for module in found if not placed(module)]


def test_every_module_has_a_place_in_a_layers_contract() -> None:
    unplaced = unplaced_modules()
    print(f"modules outside any layers contract: {len(unplaced)}")
    assert unplaced == []


def test_every_named_module_exists() -> None:
    found = modules()
    assert sorted(name for name in layered_names() if name not in found) == []
