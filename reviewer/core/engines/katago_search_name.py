"""What Reviewer's own search over KataGo's network is called: for people, one name wherever the
engine is named (the toolbar, the engine menu and manager, the status bar, an export); for the
cache, an identity of its own. Light to import: the GUI names the engine before any network loads."""

from __future__ import annotations

__all__ = ["SEARCH_NAME", "is_search_identity", "search_identity"]

from reviewer.core.games.go import SEARCH_IDENTITY_PREFIX as _IDENTITY_PREFIX
from reviewer.core.games.go import SEARCH_NAME


def search_identity(version: str, model: str | None) -> str:
    """'Reviewer search 2 over KataGo's network g170e-b15c192…': what the cache keys its figures by."""
    return f"{_IDENTITY_PREFIX}{version} over KataGo's network {model or '?'}"


def is_search_identity(identity: str) -> bool:
    return identity.startswith(_IDENTITY_PREFIX)
