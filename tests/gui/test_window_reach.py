"""How much of the main window the other GUI modules reach into: the distinct members they read
on a name bound to the window (`window.x`, `self.window.x`, `self._window.x`). Every module that
takes its collaborators (the session, the settings, the widgets it draws) instead of the window
makes the number smaller; it may never grow.

    python tests/gui/test_window_reach.py      # the count, and which modules use each member
"""

from __future__ import annotations

import ast
from pathlib import Path

GUI_DIR = Path(__file__).resolve().parents[2] / "reviewer" / "gui"
CEILING = 94  # measured with this file's command; lower it when the count drops
WINDOW_NAMES = ("window", "_window")


def _is_window(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in WINDOW_NAMES
    return (
        isinstance(node, ast.Attribute)
        and node.attr in WINDOW_NAMES
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def window_members_used_elsewhere(gui_dir: Path = GUI_DIR) -> dict[str, set[str]]:
    """Member name -> the modules of reviewer/gui (the window's own excepted) that use it."""
    members: dict[str, set[str]] = {}
    for path in sorted(gui_dir.glob("*.py")):
        if path.name == "main_window.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and _is_window(node.value):
                members.setdefault(node.attr, set()).add(path.name)
    return members


def test_the_modules_around_the_window_reach_into_it_no_more_than_before():
    members = window_members_used_elsewhere()
    assert len(members) <= CEILING, f"{len(members)} window members used by other modules (at most {CEILING})"


def test_the_count_sees_each_way_of_naming_the_window(tmp_path):
    (tmp_path / "one.py").write_text("def f(window, self):\n    window.a\n    self.window.b\n    self._window.c\n    other.d\n")
    (tmp_path / "main_window.py").write_text("window.own\n")
    assert window_members_used_elsewhere(tmp_path) == {"a": {"one.py"}, "b": {"one.py"}, "c": {"one.py"}}


if __name__ == "__main__":
    found = window_members_used_elsewhere()
    print(f"{len(found)} window members used by other modules of reviewer/gui (ceiling {CEILING})")
    for name, modules in sorted(found.items()):
        print(f"  {name}: {', '.join(sorted(modules))}")
