"""List the engines Reviewer can use, or install them.

  reviewer engines            a table: name, kind, protocol, version, status, where / what to do
  reviewer engines --json     the same as JSON
  reviewer engines install [--only stockfish|katago]
                              Stockfish (Debian package, as root), KataGo with its models from
                              KaTrain's wheels (pip download), an analysis config, OpenCL tuning
                              files and, without a GPU, PoCL (OpenCL on the CPU). Quick when
                              everything is there already; never asks anything.

User engines can be named in engines.json in the settings folder, e.g.
  {"engines": [{"name": "lc0", "kind": "chess", "protocol": "uci", "command": ["lc0"]}]}
"""

from __future__ import annotations

import argparse
import json
import sys

from reviewer.core.engines.discovery import find_engines, settings_path
from reviewer.core.engines.registry import engines_as_run


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=["list", "install"], default="list",
                        help="list (default) or install")
    parser.add_argument("--json", action="store_true", help="list as JSON")
    parser.add_argument("--force", action="store_true", help="install: unpack KataGo again even if installed")
    parser.add_argument("--only", choices=["stockfish", "katago"], help="install: only this engine")


def _progress(message: str) -> None:
    print(f"reviewer engines: {message}", file=sys.stderr, flush=True)


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return "\n".join(lines)


def list_engines(as_json: bool) -> int:
    problems: list[str] = []
    engines = engines_as_run(find_engines(problems=problems))  # a KataGo searched by Reviewer's own search says so
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    if as_json:
        print(json.dumps([
            {"name": e.name, "kind": e.kind, "protocol": e.protocol, "command": list(e.command),
             "version": e.version, "status": e.status, "detail": e.detail, "source": e.source}
            for e in engines
        ], indent=2))
        return 0
    rows = [["NAME", "KIND", "PROTOCOL", "VERSION", "STATUS", "DETAIL"]]
    rows += [[e.name, e.kind, e.protocol, e.version or "-", e.status, e.detail] for e in engines]
    print(_table(rows))
    print(f"\nYour own engines: {settings_path()}")
    return 0


def install_engines(force: bool, only: str | None = None) -> int:
    from reviewer.core.engines import install

    if only == "stockfish":
        results = [install.install_stockfish(_progress)]
    elif only == "katago":
        results = [install.install_opencl_runtime(_progress), install.install_katago(_progress, force=force)]
    else:
        results = install.install_all(_progress, force=force)
    for result in results:
        mark = "ok" if result.ok else ("warning" if result.name in ("katago", "opencl") else "error")
        print(f"{mark}: {result.message}", file=sys.stderr if not result.ok else sys.stdout)
        for warning in result.warnings:
            print(f"warning: {warning}", file=sys.stderr)
    if only != "stockfish":  # what the engines' first searches would otherwise wait for
        for warning in install.prepare_networks(_progress):
            print(f"warning: {warning}", file=sys.stderr)
    usable = {result.name for result in results if result.ok}
    if only is not None and only not in usable:
        return 1
    if not usable & {"stockfish", "katago"}:
        print("error: no engine could be installed (the built-in Go engine still works)", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    if args.action == "install":
        return install_engines(args.force, args.only)
    return list_engines(args.json)
