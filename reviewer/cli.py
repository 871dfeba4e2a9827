"""`reviewer`: the command line. Each subcommand lives in `reviewer.commands.<name>`.

Every command module exposes `add_arguments(parser)` and `run(args) -> int`.
Exit codes shared by all commands: 0 success, 1 failure during work (engine died, nothing
written), 2 bad input (unreadable file, bad arguments), 130 interrupted by Ctrl-C.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from reviewer import __version__
from reviewer.commands.exit_codes import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK

COMMANDS: dict[str, str] = {
    "gui": "open the desktop app (the default when no command is given)",
    "info": "list the games in a PGN/SGF file",
    "report": "score a game from the evaluations it already carries",
    "analyze": "analyse a game with an engine and write a report",
    "batch": "review many games (files, folders, collections), resumable, optionally on a Ray cluster",
    "engines": "list or install engines",
    "rate": "estimate players' strength from many games",
    "train": "train on your own mistakes (cards brought back by spaced repetition)",
    "db": "the game database: import games, explore the moves played from a position, list its games",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only `command`'s module is imported (each start stays quick)."""
    parser = argparse.ArgumentParser(
        prog="reviewer",
        description="Review chess and Go games with a real engine, offline.",
        epilog="Exit codes: 0 ok, 1 failed during work, 2 bad input, 130 interrupted (Ctrl-C).",
    )
    parser.add_argument("--version", action="version", version=f"reviewer {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        if name != command:
            subparsers.add_parser(name, help=help_text)
            continue
        module = importlib.import_module(f"reviewer.commands.{name}")
        sub = subparsers.add_parser(
            name,
            help=help_text,
            description=(module.__doc__ or help_text).strip(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        argv = ["gui", *argv]
    command = argv[0] if argv[0] in COMMANDS else None
    args = build_parser(command).parse_args(argv)
    if getattr(args, "run", None) is None:
        build_parser().print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("reviewer: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`reviewer info big.pgn | head`): stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
