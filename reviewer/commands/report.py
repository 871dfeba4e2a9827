"""reviewer report (not written yet)."""

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rest", nargs="*")


def run(args: argparse.Namespace) -> int:
    print("reviewer report: not available yet")
    return 1
