"""How much of the main window the other GUI modules reach into. Counted in every module under
reviewer/gui (subpackages too), the window's own excepted:

- the distinct members read on a name bound to the window (`window.x`, `self.window.x`,
  `self._window.x`), except, in the composition root (window/app.py), the window's documented public API;
- an import of `reviewer.gui.window.main_window` or a mention of `MainWindow` (type hints under
  TYPE_CHECKING included), outside the composition root;
- a parameter annotated with `MainWindow`, outside the composition root.

Every module that takes its collaborators (the session, the settings, the widgets it draws, a small
callable) instead of the window makes the number smaller; it may never grow.

    python tests/gui/test_window_reach.py      # the count per module, and what each one uses
"""

from __future__ import annotations

import ast
from pathlib import Path

GUI_DIR = Path(__file__).resolve().parents[2] / "reviewer" / "gui"
CEILING = 0  # no other module reaches into the window; keep it so
WINDOW_NAMES = ("window", "_window")
WINDOW_MODULE = "window/main_window.py"
COMPOSITION_ROOT = "window/app.py"  # drives a scripted run through the window's public API
# The window's public API (listed in main_window's docstring): what the composition root may use.
PUBLIC_API = frozenset({
    "open_file", "export", "start_analysis", "set_live", "show_lines", "shown_line_count", "go_to_ply", "play_line",
    "restoring_lines", "file_opened", "open_failed", "export_finished", "analysis_finished", "analysis_failed",
    "cache_checked", "lines_shown", "lines_restored", "close_without_saving",
    "show", "close", "resize", "setFixedSize", "setAttribute", "grab",
})


def _is_window(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in WINDOW_NAMES
    return (
        isinstance(node, ast.Attribute)
        and node.attr in WINDOW_NAMES
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _names_main_window(node: ast.AST) -> bool:
    if isinstance(node, ast.Name | ast.alias) and "MainWindow" in (getattr(node, "id", None), getattr(node, "name", None)):
        return True
    if isinstance(node, ast.Attribute) and node.attr == "MainWindow":
        return True
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and "MainWindow" in node.value.split(".")


def _imports_main_window(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        return module.endswith("main_window") or any(alias.name == "main_window" for alias in node.names)
    if isinstance(node, ast.Import):
        return any(alias.name.endswith("gui.window.main_window") for alias in node.names)
    return False


def _annotated_with_main_window(node: ast.AST) -> bool:
    if not isinstance(node, ast.arg) or node.annotation is None:
        return False
    return any(_names_main_window(part) for part in ast.walk(node.annotation))


def window_reach(gui_dir: Path = GUI_DIR) -> dict[str, set[str]]:
    """Module (relative to reviewer/gui) -> what it reaches of the window: `.member` for a member
    read, `import main_window`, `MainWindow` for a mention, `param: MainWindow` for an annotation."""
    found: dict[str, set[str]] = {}
    for path in sorted(gui_dir.rglob("*.py")):
        module = path.relative_to(gui_dir).as_posix()
        if module == WINDOW_MODULE:
            continue
        is_root = module == COMPOSITION_ROOT
        reach: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and _is_window(node.value) and not (is_root and node.attr in PUBLIC_API):
                reach.add(f".{node.attr}")
            if is_root:
                continue
            if _annotated_with_main_window(node):
                reach.add(f"param {node.arg}: MainWindow")  # type: ignore[attr-defined]
            if _imports_main_window(node):
                reach.add("import main_window")
            elif _names_main_window(node):
                reach.add("MainWindow")
        if reach:
            found[module] = reach
    return found


def reach_count(found: dict[str, set[str]]) -> int:
    return sum(len(reach) for reach in found.values())


def test_the_modules_around_the_window_reach_into_it_no_more_than_before():
    found = window_reach()
    listing = "; ".join(f"{module}: {', '.join(sorted(reach))}" for module, reach in sorted(found.items()))
    assert reach_count(found) <= CEILING, f"{reach_count(found)} reaches into the window (at most {CEILING}): {listing}"


def test_the_count_sees_each_way_of_naming_the_window(tmp_path):
    (tmp_path / "one.py").write_text("def f(window, self):\n    window.a\n    self.window.b\n    self._window.c\n    other.d\n")
    (tmp_path / "window").mkdir()
    (tmp_path / "window" / "main_window.py").write_text("window.own\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "two.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from reviewer.gui.window.main_window import MainWindow\n"
        "def g(host: 'MainWindow') -> None: ...\n"
    )
    (tmp_path / "three.py").write_text("def h(w: MainWindow | None) -> None: ...\n")
    (tmp_path / "window" / "app.py").write_text(
        "from reviewer.gui.window.main_window import MainWindow\ndef run(window):\n    window.open_file('x')\n    window.session\n"
    )
    assert window_reach(tmp_path) == {
        "one.py": {".a", ".b", ".c"},
        "sub/two.py": {"import main_window", "MainWindow", "param host: MainWindow"},
        "three.py": {"MainWindow", "param w: MainWindow"},
        "window/app.py": {".session"},
    }


def test_the_public_api_the_composition_root_may_use_is_the_one_the_window_documents():
    doc = ast.get_docstring(ast.parse((GUI_DIR / WINDOW_MODULE).read_text(encoding="utf-8"))) or ""
    qt_own = {"show", "close", "resize", "setFixedSize", "setAttribute", "grab"}
    assert {name for name in PUBLIC_API - qt_own if f"`{name}`" not in doc} == set()


if __name__ == "__main__":
    found = window_reach()
    print(f"{reach_count(found)} reaches into the window from other modules of reviewer/gui (ceiling {CEILING})")
    for module, reach in sorted(found.items()):
        print(f"  {module} ({len(reach)}): {', '.join(sorted(reach))}")
