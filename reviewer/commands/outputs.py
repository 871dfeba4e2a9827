"""The report outputs the commands share: `--json OUT`, `--csv OUT`, `--html OUT`, or standard output."""

from __future__ import annotations

import argparse

STANDARD_OUTPUT = "-"


def add_output_argument(parser: argparse.ArgumentParser, flag: str, help_text: str) -> None:
    """A report output: `flag OUT` writes to OUT; `flag -`, or the flag alone, to standard output."""
    parser.add_argument(flag, metavar="OUT", nargs="?", const=STANDARD_OUTPUT, help=f"{help_text} (alone or -: standard output)")
