"""Open the desktop app, optionally with a game file.

  reviewer gui                         the app, empty
  reviewer gui game.pgn --game 3       the third game of the file, at its start
  reviewer gui game.sgf --ply 120 --analyse --screenshot shot.png
                                       render the window at ply 120 after analysing, then exit
  reviewer gui game.pgn --ply 20 --play "Nf3 d5 c4" --lines 3 --screenshot s.png --export out.pgn
                                       play those moves from ply 20 as a variation (SAN or UCI; Go:
                                       coordinates or pass), show 3 live engine lines, take the picture
                                       once they are there, and write the annotated game with the variation

Engine options are those of `reviewer analyze`; they apply to this run only.
With --screenshot the window is drawn off screen at a fixed size (it works without a display).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, assert_never

from reviewer.commands.exit_codes import EXIT_BAD_INPUT
from reviewer.core.analysis import Limit
from reviewer.core.games import game_support, registered_games

if TYPE_CHECKING:
    from reviewer.gui.window.main_window import MainWindow

SCREENSHOT_TIMEOUT_S = 600


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", type=Path, help="a PGN / SGF file to open")
    parser.add_argument("--game", type=int, metavar="N", help="which game of the file (1 = the first)")
    parser.add_argument("--ply", type=int, metavar="N", help="show the position after N plies (0 = the start)")
    parser.add_argument("--analyse", "--analyze", action="store_true", help="analyse the game once it is open")
    parser.add_argument("--screenshot", type=Path, metavar="PNG", help="save the window to PNG and exit")
    parser.add_argument(
        "--size", default="1400x900", metavar="WxH", help="window size for --screenshot (default 1400x900)"
    )
    parser.add_argument("--dark", action="store_true", help="use the dark theme for this run")
    parser.add_argument("--play", metavar="MOVES", help="moves to play from --ply as a variation (space separated)")
    parser.add_argument("--lines", type=int, metavar="K", help="show K live engine lines (1-5) before the screenshot")
    parser.add_argument("--territory", action="store_true", help="Go: show KataGo's territory map with the --lines")
    parser.add_argument("--policy", action="store_true", help="Go: show KataGo's policy map with the --lines")
    parser.add_argument("--export", type=Path, metavar="OUT", help="write the annotated game (.pgn/.sgf) and exit")
    engine = parser.add_argument_group("engine (as in `reviewer analyze`)")
    engine.add_argument("--engine", metavar="NAME", help="engine name: stockfish, katago, builtin, …")
    engine.add_argument("--engine-cmd", metavar="COMMAND", help="a custom engine command line")
    engine.add_argument("--nodes", type=_positive(int), metavar="N", help="chess: nodes per position")
    engine.add_argument("--depth", type=_positive(int), metavar="N", help="chess: depth per position")
    engine.add_argument("--movetime", type=_positive(float), metavar="S", help="chess: seconds per position")
    engine.add_argument("--visits", type=_positive(int), metavar="N", help="Go: visits per position")
    engine.add_argument("--multipv", type=_positive(int), metavar="K", help="candidate lines per position")
    engine.add_argument("--preset", choices=("lichess", "seed"), help="thresholds for move labels")


def _positive(kind: type) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
        return value

    return parse


def limit_from_args(args: argparse.Namespace) -> Limit | None:
    """The limit the options ask for; None when they name none."""
    values = (args.nodes, args.depth, args.movetime, args.visits)
    if all(value is None for value in values) and args.multipv is None:
        return None
    return Limit(
        nodes=args.nodes,
        depth=args.depth,
        movetime_s=args.movetime,
        visits=args.visits,
        multipv=args.multipv or 1,
    )


def _parse_size(text: str) -> tuple[int, int] | None:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        return None
    return (width, height) if width >= 400 and height >= 300 else None


def run(args: argparse.Namespace) -> int:
    if args.file is not None and not args.file.is_file():
        print(f"reviewer gui: no such file: {args.file}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.game is not None and args.game < 1:
        print("reviewer gui: --game counts from 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.ply is not None and args.ply < 0:
        print("reviewer gui: --ply must be 0 or more", file=sys.stderr)
        return EXIT_BAD_INPUT
    size = _parse_size(args.size)
    if size is None:
        print(f"reviewer gui: --size wants WIDTHxHEIGHT, at least 400x300, not {args.size!r}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.screenshot is not None and args.file is None:
        print("reviewer gui: --screenshot needs a game file", file=sys.stderr)
        return EXIT_BAD_INPUT
    scripted = args.play is not None or args.lines is not None or args.export is not None
    if scripted and (args.file is None or (args.screenshot is None and args.export is None)):
        print("reviewer gui: --play, --lines and --export need a game file and --screenshot or --export", file=sys.stderr)
        return EXIT_BAD_INPUT
    if (args.territory or args.policy) and args.lines is None:
        print("reviewer gui: --territory and --policy come with the live lines: add --lines K", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.lines is not None and not 1 <= args.lines <= 5:
        print("reviewer gui: --lines is 1 to 5", file=sys.stderr)
        return EXIT_BAD_INPUT
    moves = args.play.split() if args.play else None
    if moves:
        problem = _check_moves(args.file, 0 if args.game is None else args.game - 1, args.ply, moves)
        if problem:
            print(f"reviewer gui: {problem}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if scripted and "QT_QPA_PLATFORM" not in os.environ and not _has_display():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if args.screenshot is not None and "QT_QPA_PLATFORM" not in os.environ and not _has_display():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from reviewer.gui.window.app import create_application
    from reviewer.gui.window.main_window import MainWindow

    app = create_application(dark=True if args.dark else None)
    window = MainWindow(remember_layout=args.screenshot is None)
    _apply_engine_options(window, args)
    if args.screenshot is not None or scripted:
        from reviewer.gui.window.app import take_screenshot

        game_index = 0 if args.game is None else args.game - 1
        return take_screenshot(
            app, window, args.file, game_index, args.ply, args.analyse, args.screenshot, size,
            play=moves, lines=args.lines, export=args.export, maps=(args.territory, args.policy),
        )

    window.show()
    if args.file is not None:
        if args.analyse:
            window.file_opened.connect(lambda _path: window.start_analysis())
        window.open_file(args.file, game_index=None if args.game is None else args.game - 1, ply=args.ply)
    return int(app.exec())


def _apply_engine_options(window: MainWindow, args: argparse.Namespace) -> None:
    from reviewer.gui.common.settings import EngineChoice

    if args.preset:
        window.session.model.set_preset(args.preset)
    limit = limit_from_args(args)
    for kind in (support.kind for support in registered_games()):
        if args.engine or args.engine_cmd:
            window.set_engine_choice(EngineChoice(kind=kind, name=args.engine, command=args.engine_cmd), remember=False)
        if limit is not None:
            window.set_limit(kind, _limit_for(kind, limit), remember=False)


def _limit_for(kind: str, limit: Limit) -> Limit:
    """Fill in a sensible limit of the other kind when only the other game's option was given."""
    unit = game_support(kind).work_unit
    match unit:
        case "visits":
            if limit.visits is None:
                return Limit(visits=200, multipv=limit.multipv)
        case "nodes":
            if limit.nodes is None and limit.depth is None and limit.movetime_s is None:
                return Limit(nodes=100_000, multipv=limit.multipv)
        case _:
            assert_never(unit)
    return limit


def _check_moves(path: Path, game_index: int, ply: int | None, moves: list[str]) -> str | None:
    """Why the moves cannot be played from that position (naming the move), or None."""
    from reviewer.core.errors import ReviewerError
    from reviewer.core.formats import load_game
    from reviewer.core.games import IllegalMove
    from reviewer.core.variations import TreeEditor

    try:
        game = load_game(path, game_index)
        start = game.node_at_ply(min(ply or 0, game.ply_count))
        TreeEditor(game).play_line(start, moves)
    except IllegalMove as illegal:
        return f"illegal move {illegal}"
    except (ReviewerError, OSError, IndexError, ValueError) as error:
        return str(error)
    return None


def _has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
