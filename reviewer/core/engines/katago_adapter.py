"""How the engine registry opens KataGo's analysis engine (found by discovery, or run from a command
given as is), builds its network ahead of the first search, and tells one KataGo from another."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from reviewer.core.engines.base import Engine
from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.engines.katago import KataGoEngine, model_path, preload_network
from reviewer.core.engines.katago_net.network_path import network_path
from reviewer.core.engines.katago_search_name import SEARCH_NAME

__all__ = ["SEARCHED_IN_PROCESS_NOTE", "fingerprint_marks", "listed", "open_command", "open_found", "preload_found"]

SEARCHED_IN_PROCESS_NOTE = "its network searched by Reviewer's own search (no GPU found)"


def open_katago(
    command: Sequence[str],
    threads: int | None,
    name: str = "KataGo",
    visits: int | None = None,
    model: str | None = None,
    *,
    start_in_background: bool = False,
    version: str | None = None,
) -> Engine:
    command = with_model(command, model)
    if network_path(model_path(command)) == "search":  # Reviewer's own search over KataGo's network
        from reviewer.core.engines.katago_search import KataGoNetworkSearch

        return KataGoNetworkSearch(command, name=name, default_visits=visits, workers=threads)
    overrides = []
    if threads:
        overrides.append(f"numSearchThreadsPerAnalysisThread={int(threads)}")
    if visits:
        overrides.append(f"maxVisits={int(visits)}")
    if overrides and "-override-config" not in command:
        command += ["-override-config", ",".join(overrides)]
    return KataGoEngine(command, name=name, start_in_background=start_in_background, version=version or "")


def with_model(command: Sequence[str], model: str | None) -> list[str]:
    """`command` with its `-model` replaced by `model` (or added), when one is given."""
    command = list(command)
    if model:
        if "-model" in command[:-1]:
            command[command.index("-model") + 1] = model
        else:
            command += ["-model", model]
    return command


def open_command(command: list[str], threads: int | None, start_in_background: bool = False) -> Engine:
    """KataGo's analysis engine run as given (`--engine-cmd` for Go)."""
    return open_katago(command, threads, start_in_background=start_in_background)


def open_found(info: EngineInfo, threads: int | None, start_in_background: bool = False) -> Engine:
    """A KataGo discovery found, with the user's options (threads, visits, model) from engines.json."""
    return open_katago(
        info.command, threads or info.int_option("threads"), info.name, info.int_option("visits"), info.text_option("model"),
        start_in_background=start_in_background, version=info.version,
    )


def preload_found(engine: EngineInfo | Sequence[str], board_size: tuple[int, int]) -> bool:
    """`katago.preload_network` for a found KataGo (with the model its settings name), or for a
    KataGo command given as is."""
    if isinstance(engine, EngineInfo):
        return preload_network(with_model(engine.command, engine.text_option("model")), board_size)
    return preload_network(list(engine), board_size)


def fingerprint_marks(command: Sequence[str]) -> list[str]:
    """Reviewer's own search over KataGo's files is another engine, so another fingerprint (whether
    chosen by default, on a machine without a GPU, or by REVIEWER_KATAGO_NETWORK=search)."""
    return ["reviewer-search"] if network_path(model_path(command)) == "search" else []


def listed(info: EngineInfo) -> EngineInfo:
    """A found KataGo as it will run: where Reviewer's own search will search its network instead of
    KataGo's process, marked `searched_in_process`, its detail saying so. Reads the network's first
    bytes: not on a GUI thread."""
    if not info.usable:
        return info
    if network_path(model_path(with_model(info.command, info.text_option("model")))) != "search":
        return info
    return replace(info, searched_in_process=True, shown_name=SEARCH_NAME, detail=f"{info.detail}; {SEARCHED_IN_PROCESS_NOTE}")
