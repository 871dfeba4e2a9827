"""How many modules outside the game packages import a game's library (python-chess, sgfmill) or a
module named for one game or its engine, instead of asking the game's support object.

Run `pytest -q tests/core/test_game_module_imports.py -s` to print the count and each module with
the lines of its imports. Knowing a game is the job of the games layer (`reviewer/core/games/`),
the file readers (`reviewer/core/formats/`), the board widgets (`reviewer/gui/board/`), the
modules of one engine (`reviewer/core/engines/uci.py`, `katago.py`, `builtin_go/` …) and every
module named for one game or engine (`scoring/chess.py`, `export/sgf.py`, `explain/go.py` …);
everywhere else such an import is a place a third game would have to be added by hand.
"""

from __future__ import annotations

import ast
from pathlib import Path

from support import lines_by_module, print_count

PACKAGE = Path(__file__).resolve().parents[2] / "reviewer"
EXEMPT = ("core/games/", "core/formats/", "gui/board/")
# The words that name one game, one of its file formats, one engine or its protocol.
GAME_WORDS = frozenset({"chess", "go", "pgn", "sgf", "uci", "katago", "gtp", "stockfish"})
GAME_LIBRARIES = frozenset({"chess", "sgfmill"})
# Modules left (0 on 3 December 2026, down from 28: each engine protocol's adapter is now a facet of its game).
MOST_MODULES = 0


def named_for_a_game(dotted_or_path: str) -> bool:
    """Whether a module's name or one of its packages names a game or an engine: `go`, `go_rules`,
    `builtin_go`, `katago_net`, `chess_values` (words split at "_")."""
    parts = dotted_or_path.removesuffix(".py").replace("/", ".").split(".")
    return any(word in GAME_WORDS for part in parts for word in part.split("_"))


def _is_game_module(module: str) -> bool:
    top = module.split(".")[0]
    if top in GAME_LIBRARIES:
        return True
    return top == "reviewer" and named_for_a_game(module.removeprefix("reviewer."))


def game_imports_in(tree: ast.AST) -> list[int]:
    """The line of each import of a game's library or of a module named for one game or engine:
    `import chess`, `from sgfmill import boards`, `from reviewer.core.engines.katago import …`,
    `from reviewer.core.scoring import go` (a module imported by name from its package)."""
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(_is_game_module(alias.name) for alias in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and (
            _is_game_module(node.module) or any(_is_game_submodule(node.module, alias.name) for alias in node.names)
        ):
            lines.append(node.lineno)
    return sorted(set(lines))


def _is_game_submodule(package: str, name: str) -> bool:
    """Whether `from package import name` imports a module of Reviewer's named for a game."""
    if not package.startswith("reviewer") or not _is_game_module(f"{package}.{name}"):
        return False
    folder = PACKAGE.parent.joinpath(*package.split("."))
    return (folder / f"{name}.py").is_file() or (folder / name).is_dir()


def _exempt(relative: str) -> bool:
    return relative.startswith(EXEMPT) or named_for_a_game(relative)


def game_module_imports(package: Path = PACKAGE) -> dict[str, list[int]]:
    """Each module outside the game packages with the lines of its imports of a game's module."""
    return lines_by_module(package, lambda path: game_imports_in(ast.parse(path.read_text(encoding="utf-8"))), _exempt)


def test_the_counter_sees_each_form_of_import() -> None:
    source = '''
import chess
import chess.pgn as pgn
from sgfmill import boards
from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.scoring import go
from reviewer.core.engines.builtin_go import BuiltinGoEngine
from reviewer.core.games.go_rules import score
from reviewer.core.scoring import assess_game
from reviewer.core.games import game_support
import reviewer.core.analysis
from . import chess_like
'''
    assert game_imports_in(ast.parse(source)) == [2, 3, 4, 5, 6, 7, 8]


def test_modules_named_for_a_game_are_exempt() -> None:
    assert named_for_a_game("core/scoring/chess.py")
    assert named_for_a_game("core/engines/builtin_go/search.py")
    assert named_for_a_game("core/explain/go_shapes.py")
    assert not named_for_a_game("core/scoring/trust.py")
    assert not named_for_a_game("gui/engines/workers.py")


def test_imports_of_one_game_do_not_come_back() -> None:
    found = game_module_imports()
    print_count(found, "imports of a game's module outside the game packages")
    assert len(found) <= MOST_MODULES, "a new module imports a game's module: ask the game's support object instead"
