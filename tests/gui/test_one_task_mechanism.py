"""One way to run work off the window's thread: `reviewer/gui/common/tasks.py`. No other module of the GUI
starts a thread, a thread pool or an executor of its own (run as a script to list what is left)."""

from __future__ import annotations

import ast
from pathlib import Path

from support import REPO_ROOT, lines_by_module, print_count

GUI = REPO_ROOT / "reviewer" / "gui"
THE_MECHANISM = "common/tasks.py"
# Names whose use starts work off the GUI thread by another way than the tasks module.
OTHER_WAYS = {"Thread", "ThreadPoolExecutor", "ProcessPoolExecutor", "QThreadPool", "QRunnable", "QThread", "start_new_thread"}


def other_ways_in(tree: ast.AST) -> list[int]:
    lines: list[int] = []
    for node in ast.walk(tree):
        named = (
            node.attr if isinstance(node, ast.Attribute)
            else node.id if isinstance(node, ast.Name)
            else node.name.split(".")[-1] if isinstance(node, ast.alias)
            else ""
        )
        from_module = isinstance(node, ast.ImportFrom) and node.module in ("concurrent.futures", "_thread")
        if named in OTHER_WAYS or from_module:
            lines.append(getattr(node, "lineno", 0))
    return sorted(set(lines))


def found() -> dict[str, list[int]]:
    return lines_by_module(
        GUI, lambda path: other_ways_in(ast.parse(path.read_text(encoding="utf-8"))), lambda name: name == THE_MECHANISM
    )


def test_work_leaves_the_window_thread_only_through_the_tasks_module() -> None:
    assert print_count(found(), "other ways to run work off the window's thread") == 0


def test_the_check_sees_each_other_way(tmp_path: Path) -> None:
    samples = {
        "from concurrent.futures import ThreadPoolExecutor\n": [1],
        "import threading\nthreading.Thread(target=print).start()\n": [2],
        "from PySide6.QtCore import QThreadPool\n": [1],
        "class Job(QRunnable):\n    pass\n": [1],
    }
    for text, lines in samples.items():
        assert other_ways_in(ast.parse(text)) == lines, text


if __name__ == "__main__":
    print_count(found(), "other ways to run work off the window's thread")
