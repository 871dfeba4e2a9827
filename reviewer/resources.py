"""Where the bundled, read-only resources live (the top-level `resources/` folder)."""

from pathlib import Path

RESOURCES_DIR = Path(__file__).resolve().parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    return RESOURCES_DIR.joinpath(*parts)
