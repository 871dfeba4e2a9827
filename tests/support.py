"""Paths and helpers the tests share (import as `from support import ...`)."""

from __future__ import annotations

import lzma
import os
import sys
from collections.abc import Callable
from pathlib import Path

import chess

from reviewer.core.analysis import Candidate, Evaluation, EvaluationTable
from reviewer.core.gametree import Game, Node, gtp_from_point
from reviewer.core.scoring import assess_game
from reviewer.core.services.trainer.cards import Card, cards_from_game

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
CORPUS_DIR = SHARED_DIR / "corpus"
MORPHY = ("pgn", "chesslib__Morphy_UTF8.pgn")  # Paul Morphy's games, under CORPUS_DIR
FAKES_DIR = Path(__file__).resolve().parent / "fakes"


def lines_by_module(
    folder: Path, lines_of: Callable[[Path], list[int]], skipped: Callable[[str], bool], base: Path | None = None
) -> dict[str, list[int]]:
    """Each Python module under `folder` (named relative to `base`, by default `folder`) that
    `skipped` does not leave out, with the lines `lines_of` finds in it, where it finds any."""
    found: dict[str, list[int]] = {}
    for path in sorted(folder.rglob("*.py")):
        relative = path.relative_to(base or folder).as_posix()
        if skipped(relative):
            continue
        lines = lines_of(path)
        if lines:
            found[relative] = lines
    return found


def print_count(found: dict[str, list[int]], what: str) -> int:
    """Print how many lines `found` holds and where, after `what`; return the count (for a ratchet's ceiling)."""
    count = sum(len(lines) for lines in found.values())
    print(f"\n{count} {what} in {len(found)} modules:")
    for module, lines in found.items():
        print(f"  {module}: {', '.join(map(str, lines))}")
    return count


def fake_engine_command(script_name: str, *args: str) -> list[str]:
    """The command line that runs one of the fake engines in tests/fakes/."""
    return [sys.executable, str(FAKES_DIR / script_name), *args]


# ------------------------------------------------------------------- analysed games with mistakes
# (the trainer's tests, core and GUI)

KATAGO_ID = "KataGo 1.18.1 test-model | visits=100,multipv=1"
STOCKFISH_ID = "Stockfish 16 | nodes=1000000,multipv=3"


def _chess_game(sans: list[str], white: str = "Alice", black: str = "Bob") -> Game:
    game = Game(kind="chess", white=white, black=black, first_player="white")
    board = chess.Board()
    node = game.root
    for san in sans:
        move = board.parse_san(san)
        color = "white" if board.turn == chess.WHITE else "black"
        node = node.add_child(Node(move=board.san(move), color=color, uci=move.uci()))
        board.push(move)
    return game


def scholars_mate() -> tuple[Game, EvaluationTable]:
    """1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?? 4.Qxf7#: Black's third move is a blunder; g6 and Qe7 hold."""
    game = _chess_game(["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"])
    table = EvaluationTable()
    table.add(
        Evaluation(
            ply=5,
            kind="chess",
            engine_id=STOCKFISH_ID,
            score_cp_first=50,
            side_to_move="black",
            best_move="g6",
            candidates=(
                Candidate(move="g6", order=0, score_cp_first=50),
                Candidate(move="Qe7", order=1, score_cp_first=60),
                Candidate(move="Nf6", order=2, mate_first=1),
            ),
        )
    )
    table.add(Evaluation(ply=6, kind="chess", engine_id=STOCKFISH_ID, mate_first=1, side_to_move="white", best_move="Qxf7#"))
    table.add(Evaluation(ply=7, kind="chess", engine_id=STOCKFISH_ID, side_to_move="black", terminal="checkmate"))
    return game, table


def chess_card() -> Card:
    game, table = scholars_mate()
    cards = cards_from_game(game, table, assess_game(game, table))
    assert len(cards) == 1
    return cards[0]


def go_game_with_a_blunder(engine_id: str = KATAGO_ID) -> tuple[Game, EvaluationTable]:
    game = Game(kind="go", board_width=9, board_height=9, komi=7.0, rules="chinese", first_player="black",
                white="Wei", black="Bai")
    node = game.root
    for color, move, point in (("black", "E5", (4, 4)), ("white", "C3", (2, 2)), ("black", "A1", (0, 0))):
        node = node.add_child(Node(move=move, color=color, point=point))  # type: ignore[arg-type]
    table = EvaluationTable()
    table.add(
        Evaluation(
            ply=2,
            kind="go",
            engine_id=engine_id,
            score_lead_first=7.0,
            winrate_first=0.8,
            best_move="G5",
            candidates=(
                Candidate(move="G5", order=0, prior=0.5, score_lead_first=7.0),
                Candidate(move="C5", order=1, prior=0.3, score_lead_first=6.2),
                Candidate(move="D7", order=2, prior=0.2, score_lead_first=3.0),
            ),
        )
    )
    table.add(Evaluation(ply=3, kind="go", engine_id=engine_id, score_lead_first=-6.0, winrate_first=0.2, best_move="G5"))
    return game, table




# ------------------------------------------------------------------- a KataGo found by discovery


def found_katago(folder: Path, monkeypatch, *fake_args: str) -> Path:
    """Make engine discovery find one KataGo and nothing else: a `katago` launcher in `folder`,
    named in engines.json, that answers `katago version` (each time adding a line to the file
    returned) and otherwise runs tests/fakes/fake_katago.py with `fake_args` (e.g. --exit-on-start:
    found, but its analysis engine does not start). The installed KataGo and one on PATH are hidden."""
    import json
    import shlex

    from reviewer.core.engines import discovery

    versions = folder / "katago-version-calls"
    launcher = folder / "katago"
    fake = shlex.join(fake_engine_command("fake_katago.py", *fake_args))
    launcher.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = version ]; then echo version >> {shlex.quote(str(versions))}; echo "KataGo v1.18.1"; exit 0; fi\n'
        f'exec {fake} "$@"\n'
    )
    launcher.chmod(0o755)
    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(folder / "no-engines-installed"))
    monkeypatch.setattr(discovery, "_system_katago", lambda: None)
    settings = discovery.settings_path()
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"engines": [
        {"name": "katago", "kind": "go", "protocol": "katago", "command": [str(launcher), "analysis"]}
    ]}))
    return versions


def version_calls(versions: Path) -> int:
    """How many times the launcher of `found_katago` was asked `katago version`."""
    return len(versions.read_text().splitlines()) if versions.exists() else 0


# Both players blunder in both games (the fake engine sees every mate in one allowed, and missed):
# "Me" is White in the first game and Black in the second; "Mehmet" holds "Me" in his name.
BOTH_BLUNDER = """[White "Me"]
[Black "Mehmet"]
[Result "*"]

1. f3 e5 2. g4 Nc6 3. h3 Nf6 4. a3 Bc5 5. b3 *

[White "Mehmet"]
[Black "Me"]
[Result "*"]

1. e4 f6 2. d4 g5 3. a3 Nc6 4. Nc3 e6 *
"""


def first_games(source: Path, count: int, target: Path) -> Path:
    """The first `count` games of an xz-packed PGN (a bigsets file) written to `target`."""
    games = 0
    with lzma.open(source, "rb") as packed, open(target, "wb") as out:
        for line in packed:
            if line.startswith(b"[Event "):
                if games == count:
                    break
                games += 1
            out.write(line)
    return target


# The 8 symmetries of a square board of n lines, as (row, col) -> (row, col).
TRANSFORMS = [
    lambda r, c, n: (r, c),
    lambda r, c, n: (n - 1 - r, n - 1 - c),
    lambda r, c, n: (r, n - 1 - c),
    lambda r, c, n: (n - 1 - r, c),
    lambda r, c, n: (c, n - 1 - r),
    lambda r, c, n: (n - 1 - c, r),
    lambda r, c, n: (c, r),
    lambda r, c, n: (n - 1 - c, n - 1 - r),
]


def transformed_copy(game: Game, transform, swap_colours: bool = False) -> Game:
    """The game on the board turned by `transform`; with `swap_colours`, each stone and move of
    the other colour (the players and the result too: the same game, the colours swapped)."""
    n = game.board_width
    swapped = {"black": "white", "white": "black"}
    colour = (lambda c: swapped[c]) if swap_colours else (lambda c: c)
    result = game.result.translate(str.maketrans("BW", "WB")) if swap_colours else game.result
    white, black = (game.black, game.white) if swap_colours else (game.white, game.black)
    copy = Game(kind="go", board_width=n, board_height=n, komi=game.komi, result=result,
                white=white, black=f"{black} (turned)", headers={}, first_player=colour(game.first_player))
    setup_black = [transform(r, c, n) for r, c in game.setup_black]
    setup_white = [transform(r, c, n) for r, c in game.setup_white]
    copy.setup_black, copy.setup_white = (setup_white, setup_black) if swap_colours else (setup_black, setup_white)
    node = copy.root
    for step in game.mainline_nodes():
        point = None if step.point is None else transform(step.point[0], step.point[1], n)
        node = node.add_child(Node(move=gtp_from_point(point, n) if point else "pass", color=colour(step.color), point=point))
    return copy
